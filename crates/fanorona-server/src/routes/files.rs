//! The site's files as the server sends them: the files of `web/`,
//! embedded in the binary (without `web/test/`), except that a page's `<!-- include NAME -->` lines are
//! replaced by the partial `web/partials/NAME.html`. The pages share their
//! head and site header this way, written once. Every file is prepared
//! once, on first use, before it is compressed or filled in: a request
//! never pays for an include. A page is then translated into each of the
//! site's languages ([`i18n`](super::i18n)), once too.

use std::{borrow::Cow, collections::HashMap, sync::LazyLock};

use axum::body::Bytes;
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};

use super::i18n::{self, Lang};

/// The site's files, from `web/` at the repository root, without its
/// tests, the partials that pages include and the message catalogs: those
/// are only served inside the pages.
#[derive(Debug, RustEmbed)]
#[folder = "../../web/"]
#[exclude = "test/**"]
#[exclude = "partials/**"]
#[exclude = "i18n/**"]
#[allow_missing = true]
pub struct Web;

/// The parts that pages include, from `web/partials/`; never served on
/// their own.
#[derive(RustEmbed)]
#[folder = "../../web/partials/"]
#[allow_missing = true]
struct Partials;

/// One file as the server sends it.
#[derive(Debug)]
pub(crate) struct File {
    /// The bytes sent, with the partials put in.
    pub(crate) data: Bytes,
    /// The SHA-256 of `data`.
    pub(crate) hash: [u8; 32],
    /// The content type, from the file's name.
    pub(crate) mime: String,
}

/// Every file of an embedded folder as the server sends it, by name, and
/// each page in each language.
#[derive(Debug, Default)]
pub(crate) struct Files {
    /// The files as embedded; a page as written, in English.
    files: HashMap<String, File>,
    /// Each page by its name, in each language.
    pages: HashMap<String, HashMap<Lang, File>>,
}

impl Files {
    /// Reads every file of `E`, putting the partials of `P` into its pages.
    pub(super) fn load<E: RustEmbed, P: RustEmbed>() -> Files {
        let mut files = HashMap::new();
        let mut pages = HashMap::new();
        for name in E::iter() {
            let Some(file) = E::get(&name) else {
                continue;
            };
            let mime = file.metadata.mimetype().to_owned();
            let expanded = name
                .ends_with(".html")
                .then(|| std::str::from_utf8(&file.data).ok())
                .flatten()
                .filter(|text| text.contains(MARK))
                .map(|text| {
                    let partial = |name: &str| P::get(&format!("{name}.html")).map(|p| p.data);
                    // Twice: a partial may include another (the header
                    // includes the language switcher).
                    expand(&expand(text, partial), partial)
                });
            let file = match expanded {
                Some(page) => File::new(page, &mime),
                None => File {
                    hash: file.metadata.sha256_hash(),
                    data: match file.data {
                        Cow::Borrowed(data) => Bytes::from_static(data),
                        Cow::Owned(data) => Bytes::from(data),
                    },
                    mime,
                },
            };
            if name.ends_with(".html") {
                for lang in Lang::ALL {
                    let page = std::str::from_utf8(&file.data)
                        .ok()
                        .and_then(|text| i18n::translate(text, lang));
                    if let Some(page) = page {
                        let page = File::new(page, &file.mime);
                        pages
                            .entry(name.to_string())
                            .or_insert_with(HashMap::new)
                            .insert(lang, page);
                    }
                }
            }
            files.insert(name.into_owned(), file);
        }
        Files { files, pages }
    }

    /// The file `name` (a path inside the folder, without a leading `/`),
    /// a page as written.
    pub(crate) fn get(&self, name: &str) -> Option<&File> {
        self.files.get(name)
    }

    /// The file `name`, a page in `lang`.
    pub(crate) fn page(&self, name: &str, lang: Lang) -> Option<&File> {
        self.pages
            .get(name)
            .and_then(|langs| langs.get(&lang))
            .or_else(|| self.files.get(name))
    }

    /// Every file the server sends, in no particular order: each page in
    /// each language, and not as written (sent only if it could not be
    /// translated), so that no work goes into a page nobody gets.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &File)> {
        let files = self
            .files
            .iter()
            .filter(|(name, _)| !self.pages.contains_key(*name))
            .map(|(name, file)| (name.as_str(), file));
        let pages = self
            .pages
            .iter()
            .flat_map(|(name, langs)| langs.values().map(move |file| (name.as_str(), file)));
        files.chain(pages)
    }
}

impl File {
    /// A file of `text` with content type `mime`.
    fn new(text: String, mime: &str) -> File {
        File {
            hash: Sha256::digest(text.as_bytes()).into(),
            data: Bytes::from(text),
            mime: mime.to_owned(),
        }
    }
}

/// An embedded folder whose files the server sends, prepared once.
pub(crate) trait Folder: RustEmbed {
    /// The folder's files as the server sends them.
    fn files() -> &'static Files;
}

impl Folder for Web {
    fn files() -> &'static Files {
        static FILES: LazyLock<Files> = LazyLock::new(Files::load::<Web, Partials>);
        &FILES
    }
}

/// The bytes of `web/{name}` as the site sends them: a page with its
/// partials put in, in English, before any template value is filled in.
/// `None` when there is no such file.
pub fn file(name: &str) -> Option<Bytes> {
    Web::files()
        .page(name, Lang::En)
        .map(|file| file.data.clone())
}

/// How an include line starts.
const MARK: &str = "<!-- include ";

/// Replaces every line `<!-- include NAME -->` of `page` with the partial
/// `NAME`, read by `partial`. With `current=PATH` after the name
/// (`<!-- include header current=/rules -->`), the partial's link to
/// `PATH` is marked `aria-current="page"`. A line whose partial or link is
/// missing is left as it is, for a test to find.
fn expand<T: AsRef<[u8]>>(page: &str, partial: impl Fn(&str) -> Option<T>) -> String {
    let mut out = String::with_capacity(page.len() * 2);
    for line in page.split_inclusive('\n') {
        match include(line.trim(), &partial) {
            Some(text) => out.push_str(&text),
            None => out.push_str(line),
        }
    }
    out
}

/// The text that the include line `line` stands for; `None` when `line`
/// is not one, or names a partial or a link that does not exist.
fn include<T: AsRef<[u8]>>(line: &str, partial: impl Fn(&str) -> Option<T>) -> Option<String> {
    let words = line.strip_prefix(MARK)?.strip_suffix(" -->")?;
    let mut words = words.split_whitespace();
    let name = words.next()?;
    let text = String::from_utf8(partial(name)?.as_ref().to_vec()).ok()?;
    match words.next() {
        None => Some(text),
        Some(option) => {
            let path = option.strip_prefix("current=")?;
            if words.next().is_some() {
                return None;
            }
            let link = format!("href=\"{path}\"");
            let at = text.find(&link)? + link.len();
            let mut text = text;
            text.insert_str(at, " aria-current=\"page\"");
            Some(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn partial(name: &str) -> Option<&'static str> {
        match name {
            "top" => Some("<meta charset=\"utf-8\">\n"),
            "nav" => Some("<a href=\"/\">Home</a>\n<a href=\"/rules\">Rules</a>\n"),
            _ => None,
        }
    }

    #[test]
    fn include_lines_are_replaced_by_their_partials() {
        let page =
            "<head>\n<!-- include top -->\n</head>\n  <!-- include nav current=/rules -->\nend";
        assert_eq!(
            expand(page, partial),
            "<head>\n<meta charset=\"utf-8\">\n</head>\n\
             <a href=\"/\">Home</a>\n<a href=\"/rules\" aria-current=\"page\">Rules</a>\nend"
        );
    }

    #[test]
    fn a_missing_partial_or_link_leaves_its_line() {
        for line in [
            "<!-- include nothing -->\n",
            "<!-- include nav current=/nowhere -->\n",
            "<!-- include nav current=/ twice -->\n",
            "<!-- include nav other=/ -->\n",
        ] {
            assert_eq!(expand(line, partial), line);
        }
    }

    /// The pages and the head every one of them starts with.
    const PAGES: [&str; 7] = [
        "index.html",
        "rules.html",
        "which-rules.html",
        "replay.html",
        "game.html",
        "invite.html",
        "message.html",
    ];

    #[test]
    fn every_page_has_the_shared_head_and_header_and_no_include_left() {
        let head = Partials::get("head.html").expect("the shared head");
        let head = std::str::from_utf8(&head.data).expect("text");
        let links = Partials::get("links.html").expect("the shared links");
        let links = std::str::from_utf8(&links.data).expect("text");
        for name in PAGES {
            let page = Web::files().get(name).expect("an embedded page");
            let text = std::str::from_utf8(&page.data).expect("a page in UTF-8");
            assert!(!text.contains(MARK), "{name} has an include left:\n{text}");
            let start = format!("<!doctype html>\n<html lang=\"en\">\n<head>\n{head}");
            assert!(text.starts_with(&start), "{name} starts:\n{text}");
            assert!(text.contains(links), "{name} has no icon or style sheet");
            assert!(text.contains("<header class=\"site-header\">"), "{name}");
            assert_eq!(page.hash, <[u8; 32]>::from(Sha256::digest(&page.data)));
            let english = Web::files().page(name, Lang::En).expect("in English");
            assert_eq!(file(name).as_deref(), Some(&english.data[..]));
        }
        let current = |name: &str| {
            let text = file(name).expect("a page");
            let text = String::from_utf8_lossy(&text).into_owned();
            text.matches("aria-current=\"page\"").count()
        };
        assert_eq!(current("index.html"), 1);
        assert_eq!(current("rules.html"), 1);
        assert_eq!(current("message.html"), 0);
    }

    #[test]
    fn partials_are_not_served_as_files() {
        assert!(Partials::iter().count() >= 3);
        assert!(Web::files()
            .iter()
            .all(|(name, _)| !name.starts_with("partials/")));
        assert!(Web::files()
            .iter()
            .all(|(name, _)| !name.starts_with("test/")));
    }
}
