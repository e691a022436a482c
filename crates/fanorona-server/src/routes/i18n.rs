//! The site in Malagasy, French and English: the languages, the message
//! catalogs of `web/i18n/` (one per language, the one source of every
//! sentence a person reads, in the pages and from the server), the choice
//! of a request's language, and the translation of a page.
//!
//! Pages are written in English with each text marked by its catalog key
//! (`data-i18n="key"`, `data-i18n-<attribute>="key"`). Each page is
//! translated once per language when the server reads its files, so a
//! request gets its page whole, in its language, with nothing to rewrite
//! in the browser. The messages a page's scripts need go into the page
//! itself, as JSON in `<script type="application/json" id="messages"
//! data-keys="…">`, listing the key groups it needs.

use std::{
    collections::{BTreeMap, HashMap},
    convert::Infallible,
    sync::LazyLock,
};

use axum::{
    extract::FromRequestParts,
    http::{header, request::Parts, HeaderMap, HeaderValue},
};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use lol_html::{element, html_content::ContentType, rewrite_str, RewriteStrSettings};
use rust_embed::RustEmbed;
use serde::Deserialize;

/// A language the site is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Lang {
    /// Malagasy.
    Mg,
    /// French.
    Fr,
    /// English, the language the pages are written in.
    En,
}

impl Lang {
    /// Every language, in the order the switcher lists them.
    pub(crate) const ALL: [Lang; 3] = [Lang::Mg, Lang::Fr, Lang::En];

    /// The language used when nothing better is known.
    pub(crate) const DEFAULT: Lang = Lang::En;

    /// The BCP 47 tag: `mg`, `fr` or `en`.
    pub(crate) fn tag(self) -> &'static str {
        match self {
            Lang::Mg => "mg",
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }

    /// The language a tag names by its primary subtag, in any case
    /// (`fr`, `FR`, `fr-CA`, `mg-MG`); `None` for any other.
    pub(crate) fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or_default();
        Lang::ALL
            .into_iter()
            .find(|lang| primary.eq_ignore_ascii_case(lang.tag()))
    }
}

/// The name of the cookie that remembers a chosen language.
pub(crate) const COOKIE: &str = "lang";

/// How long a chosen language is remembered: a year.
const REMEMBER_SECONDS: i64 = 365 * 24 * 60 * 60;

/// The language of a request and whether its link named it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    /// The language to answer in.
    pub(crate) lang: Lang,
    /// The link said `?lang=`: the answer remembers it in a cookie.
    pub(crate) from_link: bool,
}

impl Choice {
    /// The language of a request: its link's `lang` (`?lang=mg`), else
    /// the remembered choice (the `lang` cookie), else the best of
    /// `Accept-Language`, else English. A value naming no language of
    /// the site is passed over, as if absent.
    pub(crate) fn of(query: Option<&str>, headers: &HeaderMap) -> Choice {
        if let Some(lang) = query.and_then(query_lang) {
            return Choice {
                lang,
                from_link: true,
            };
        }
        let remembered = CookieJar::from_headers(headers)
            .get(COOKIE)
            .and_then(|c| Lang::from_tag(c.value()));
        let lang = remembered
            .or_else(|| accepted(headers))
            .unwrap_or(Lang::DEFAULT);
        Choice {
            lang,
            from_link: false,
        }
    }

    /// Adds to `out` what a page in this language carries:
    /// `Content-Language`, `Vary` on what chose it, and the cookie that
    /// remembers a language the link named. The cookie holds no secret,
    /// so it is sent over plain HTTP too.
    pub(crate) fn mark(self, out: &mut HeaderMap) {
        out.insert(
            header::CONTENT_LANGUAGE,
            HeaderValue::from_static(self.lang.tag()),
        );
        out.insert(
            header::VARY,
            HeaderValue::from_static("accept-encoding, accept-language, cookie"),
        );
        if self.from_link {
            let cookie = Cookie::build((COOKIE, self.lang.tag()))
                .path("/")
                .max_age(cookie::time::Duration::seconds(REMEMBER_SECONDS))
                .same_site(SameSite::Lax)
                .build();
            if let Ok(value) = HeaderValue::from_str(&cookie.to_string()) {
                out.append(header::SET_COOKIE, value);
            }
        }
    }

    /// Adds to `out` what an answer in this language that is not a page
    /// carries (the game record, never compressed): `Content-Language`,
    /// and `Vary` on the headers that chose it, so that a cache keeps one
    /// copy per language. The link's `lang` is part of the address, which
    /// a cache tells apart by itself. No cookie: a file saved is not a
    /// choice of the site's language.
    pub(crate) fn label(self, out: &mut HeaderMap) {
        out.insert(
            header::CONTENT_LANGUAGE,
            HeaderValue::from_static(self.lang.tag()),
        );
        out.insert(
            header::VARY,
            HeaderValue::from_static("accept-language, cookie"),
        );
    }
}

/// A handler's argument: the language of its request ([`Choice::of`]).
impl<S: Send + Sync> FromRequestParts<S> for Choice {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Choice, Infallible> {
        Ok(Choice::of(parts.uri.query(), &parts.headers))
    }
}

/// The language named by the `lang` parameter of a query string.
fn query_lang(query: &str) -> Option<Lang> {
    query
        .split('&')
        .filter_map(|pair| pair.strip_prefix("lang="))
        .find_map(Lang::from_tag)
}

/// The site's language `Accept-Language` weighs highest (RFC 9110
/// §12.5.4); among equal weights, the one named first. `None` when it
/// names none of them, or refuses them with `q=0`.
fn accepted(headers: &HeaderMap) -> Option<Lang> {
    let entries = headers
        .get_all(header::ACCEPT_LANGUAGE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    let mut best: Option<(Lang, f32)> = None;
    for entry in entries {
        let mut parts = entry.split(';');
        let Some(lang) = Lang::from_tag(parts.next().unwrap_or_default()) else {
            continue;
        };
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if q > 0.0 && best.is_none_or(|(_, b)| q > b) {
            best = Some((lang, q));
        }
    }
    best.map(|(lang, _)| lang)
}

// ---- catalogs --------------------------------------------------------------

/// The message catalogs, `web/i18n/<tag>.json`.
#[derive(RustEmbed)]
#[folder = "../../web/i18n/"]
#[include = "*.json"]
#[allow_missing = true]
struct CatalogFiles;

/// One message: a sentence with `{placeholders}`, or its plural forms by
/// the categories of `Intl.PluralRules` (`one`, `other`…), which the page
/// chooses between.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub(crate) enum Text {
    /// One sentence.
    Plain(String),
    /// A sentence per plural category.
    Plural(BTreeMap<String, String>),
}

/// Every message of one language, by key.
#[derive(Debug, Default)]
pub(crate) struct Catalog(BTreeMap<String, Text>);

impl Catalog {
    /// The catalog of `lang`: empty when its file is missing or unreadable
    /// (a test checks each is read).
    pub(crate) fn of(lang: Lang) -> &'static Catalog {
        static CATALOGS: LazyLock<HashMap<Lang, Catalog>> = LazyLock::new(|| {
            Lang::ALL
                .into_iter()
                .map(|lang| (lang, Catalog::read(lang).unwrap_or_default()))
                .collect()
        });
        static EMPTY: Catalog = Catalog(BTreeMap::new());
        CATALOGS.get(&lang).unwrap_or(&EMPTY)
    }

    /// Reads the catalog file of `lang`.
    fn read(lang: Lang) -> Result<Catalog, String> {
        let name = format!("{}.json", lang.tag());
        let file = CatalogFiles::get(&name).ok_or_else(|| format!("{name} is not embedded"))?;
        serde_json::from_slice(&file.data)
            .map(Catalog)
            .map_err(|e| format!("{name}: {e}"))
    }

    /// The sentence of `key`: its `other` form for a plural message, the
    /// English one when this language lacks it, the key itself when
    /// English lacks it too (tests check that neither happens).
    pub(crate) fn text<'a>(&'a self, key: &'a str) -> &'a str {
        let english = Catalog::of(Lang::En);
        match self.0.get(key).or_else(|| english.0.get(key)) {
            Some(Text::Plain(text)) => text,
            Some(Text::Plural(forms)) => forms.get("other").map_or(key, String::as_str),
            None => key,
        }
    }

    /// Whether the catalog has `key`.
    #[cfg(test)]
    pub(crate) fn has(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }

    /// The messages whose keys start with one of `groups` (`game` stands
    /// for every `game.` key), as JSON that is safe inside a `<script>`
    /// element.
    fn json_of(&self, groups: &[&str]) -> String {
        let english = Catalog::of(Lang::En);
        let wanted = |key: &str| {
            groups.iter().any(|g| {
                key.strip_prefix(g)
                    .is_some_and(|rest| rest.starts_with('.'))
            })
        };
        // English fills any gap, so a page never shows a bare key.
        let mut messages: BTreeMap<&str, &Text> = english
            .0
            .iter()
            .filter(|(key, _)| wanted(key))
            .map(|(key, text)| (key.as_str(), text))
            .collect();
        for (key, text) in self.0.iter().filter(|(key, _)| wanted(key)) {
            messages.insert(key, text);
        }
        let json = serde_json::to_string(&messages).unwrap_or_else(|_| "{}".to_owned());
        // `</` would end the script element; `\/` is the same in JSON.
        json.replace("</", "<\\/")
    }
}

/// Fills `{name}` placeholders in `text` from `values`; a name without a
/// value stays as it is.
pub(crate) fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let mut out = text.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

// ---- pages -----------------------------------------------------------------

/// The attributes a page may mark for translation, as
/// `data-i18n-<attribute>="key"`.
const ATTRIBUTES: [&str; 6] = [
    "aria-label",
    "title",
    "placeholder",
    "content",
    "alt",
    "label",
];

/// `html` (a page of the site) in `lang`: `<html lang>`, every marked text
/// and attribute, the switcher's current language, and the messages its
/// scripts need. A key the server fills in per request (`{{name}}`) is
/// left for it. `None` when the page cannot be read as HTML.
pub(crate) fn translate(html: &str, lang: Lang) -> Option<String> {
    let catalog = Catalog::of(lang);
    let mut handlers = vec![
        element!("html", move |el| {
            el.set_attribute("lang", lang.tag())?;
            Ok(())
        }),
        element!("[data-i18n]", move |el| {
            if let Some(key) = el
                .get_attribute("data-i18n")
                .filter(|k| !k.starts_with("{{"))
            {
                el.set_inner_content(catalog.text(&key), ContentType::Text);
            }
            Ok(())
        }),
        element!("script#messages[data-keys]", move |el| {
            let groups = el.get_attribute("data-keys").unwrap_or_default();
            let groups: Vec<&str> = groups.split_whitespace().collect();
            el.set_inner_content(&catalog.json_of(&groups), ContentType::Html);
            Ok(())
        }),
        element!("a[hreflang]", move |el| {
            if el.get_attribute("hreflang").as_deref() == Some(lang.tag()) {
                el.set_attribute("aria-current", "true")?;
            }
            Ok(())
        }),
    ];
    for attribute in ATTRIBUTES {
        let mark = format!("data-i18n-{attribute}");
        let selector = format!("[{mark}]");
        handlers.push(element!(selector, move |el| {
            if let Some(key) = el.get_attribute(&mark).filter(|k| !k.starts_with("{{")) {
                el.set_attribute(attribute, catalog.text(&key))?;
            }
            Ok(())
        }));
    }
    rewrite_str(
        html,
        RewriteStrSettings {
            element_content_handlers: handlers,
            ..RewriteStrSettings::new()
        },
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name, HeaderValue::from_str(value).expect("a header value"));
        }
        map
    }

    #[test]
    fn tags_name_languages_by_their_first_part() {
        assert_eq!(Lang::from_tag("mg"), Some(Lang::Mg));
        assert_eq!(Lang::from_tag("FR-ca"), Some(Lang::Fr));
        assert_eq!(Lang::from_tag(" en_GB"), Some(Lang::En));
        assert_eq!(Lang::from_tag("de"), None);
        assert_eq!(Lang::from_tag("mga"), None);
        assert_eq!(Lang::from_tag(""), None);
    }

    #[test]
    fn the_link_wins_then_the_cookie_then_accept_language_then_english() {
        let all = headers(&[
            (header::COOKIE, "seat_x=1; lang=fr"),
            (header::ACCEPT_LANGUAGE, "en-GB,en;q=0.9"),
        ]);
        assert_eq!(
            Choice::of(Some("invite=abc&lang=mg"), &all),
            Choice {
                lang: Lang::Mg,
                from_link: true
            }
        );
        assert_eq!(Choice::of(Some("lang=xx"), &all).lang, Lang::Fr);
        assert!(!Choice::of(Some("lang=xx"), &all).from_link);
        let no_cookie = headers(&[(header::ACCEPT_LANGUAGE, "de-DE, fr;q=0.5, mg;q=0.8")]);
        assert_eq!(Choice::of(None, &no_cookie).lang, Lang::Mg);
        let refused = headers(&[(header::ACCEPT_LANGUAGE, "mg;q=0, de")]);
        assert_eq!(Choice::of(None, &refused).lang, Lang::En);
        let bad_cookie = headers(&[(header::COOKIE, "lang=zz"), (header::ACCEPT_LANGUAGE, "fr")]);
        assert_eq!(Choice::of(None, &bad_cookie).lang, Lang::Fr);
        assert_eq!(Choice::of(None, &HeaderMap::new()).lang, Lang::En);
    }

    #[test]
    fn a_language_from_the_link_is_remembered_and_answers_vary() {
        let mut out = HeaderMap::new();
        Choice::of(Some("lang=mg"), &HeaderMap::new()).mark(&mut out);
        assert_eq!(out[header::CONTENT_LANGUAGE], "mg");
        let cookie = out[header::SET_COOKIE].to_str().expect("text");
        for part in ["lang=mg", "Path=/", "Max-Age=31536000", "SameSite=Lax"] {
            assert!(cookie.contains(part), "{part} not in {cookie}");
        }
        assert!(out[header::VARY]
            .to_str()
            .expect("text")
            .contains("accept-language"));
        let mut out = HeaderMap::new();
        Choice::of(None, &HeaderMap::new()).mark(&mut out);
        assert!(!out.contains_key(header::SET_COOKIE));
    }

    #[test]
    fn every_catalog_is_read() {
        for lang in Lang::ALL {
            assert!(
                Catalog::read(lang).is_ok(),
                "{lang:?}: {:?}",
                Catalog::read(lang).err()
            );
            assert!(Catalog::of(lang).has("site.name"), "{lang:?}");
        }
    }

    #[test]
    fn a_page_is_translated_where_it_is_marked() {
        let page = "<html lang=\"en\"><head><title data-i18n=\"nav.rules\">How to play</title>\
                    <meta name=\"description\" content=\"x\" data-i18n-content=\"nav.rules\">\
                    <script type=\"application/json\" id=\"messages\" data-keys=\"color\"></script>\
                    </head><body><p data-i18n=\"{{from_key}}\">{{from}}</p>\
                    <optgroup label=\"x\" aria-label=\"y\" data-i18n-label=\"nav.rules\"></optgroup>\
                    <a href=\"?lang=fr\" hreflang=\"fr\">Français</a>\
                    <a href=\"?lang=en\" hreflang=\"en\">English</a></body></html>";
        let lang = Lang::Fr;
        let out = translate(page, lang).expect("a page");
        let rules = Catalog::of(lang).text("nav.rules");
        assert!(out.starts_with("<html lang=\"fr\">"), "{out}");
        assert!(out.contains(&format!(">{rules}</title>")), "{out}");
        assert!(out.contains(&format!("content=\"{rules}\"")), "{out}");
        assert!(
            out.contains(&format!("<optgroup label=\"{rules}\" aria-label=\"y\"")),
            "{out}"
        );
        assert!(
            out.contains("data-i18n=\"{{from_key}}\">{{from}}</p>"),
            "{out}"
        );
        assert!(
            out.contains("hreflang=\"fr\" aria-current=\"true\">"),
            "{out}"
        );
        assert!(out.contains("hreflang=\"en\">English"), "{out}");
        let white = Catalog::of(lang).text("color.white");
        assert!(
            out.contains(&format!("\"color.white\":\"{white}\"")),
            "{out}"
        );
        assert!(
            !out.contains("nav.rules\":"),
            "only the groups asked for: {out}"
        );
    }

    #[test]
    fn messages_cannot_end_their_script() {
        let catalog = Catalog(BTreeMap::from([(
            "a.b".to_owned(),
            Text::Plain("</script><script>alert(1)</script>".to_owned()),
        )]));
        let json = catalog.json_of(&["a"]);
        assert!(!json.contains("</"), "{json}");
        let back: BTreeMap<String, String> = serde_json::from_str(&json).expect("JSON");
        assert_eq!(back["a.b"], "</script><script>alert(1)</script>");
    }
}
