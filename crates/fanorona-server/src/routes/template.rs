//! The pages made for each request: the game page, the invitation and the
//! page that explains a link leading nowhere, filled in from their files
//! in `web/` (`{{name}}` marks a value). Every
//! value is escaped for HTML here, the one place that writes request
//! values into a page. No page is ever given an invitation token or a
//! seat secret: the invitation page's script reads the token from its own
//! address.

use std::{collections::HashMap, sync::LazyLock};

use fanorona::Color;

use super::{assets::Web, files::Folder};
use crate::ids::GameId;

/// The files of `web/` that are templates: served only filled in, by
/// their routes (`/g/{id}`, or any answer that explains an error), never
/// as they are.
pub const TEMPLATES: [&str; 3] = ["game.html", "invite.html", "message.html"];

/// Whether the request path `path` names a template itself (`/game.html`
/// or `/game`).
pub(super) fn is_template(path: &str) -> bool {
    let name = path.trim_start_matches('/');
    TEMPLATES
        .iter()
        .any(|t| name == *t || t.strip_suffix(".html") == Some(name))
}

/// The values of a page, by name.
type Values<'a> = [(&'a str, &'a str)];

/// Replaces every `{{name}}` of `template` with its value, escaped for
/// HTML. A name without a value is left as it is, for a test to find;
/// a value is never read again for marks.
pub(super) fn fill(template: &str, values: &Values<'_>) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let value = after.find("}}").and_then(|end| {
            let name = &after[..end];
            let value = values.iter().find(|(n, _)| *n == name)?.1;
            Some((value, end))
        });
        match value {
            Some((value, end)) => {
                escape_into(&mut out, value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Appends `text` escaped for HTML text and quoted attribute values.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// The page `name`, its partials put in, filled with `values`; `None`
/// when the page is not embedded.
fn render(name: &str, values: &Values<'_>) -> Option<String> {
    let file = Web::files().get(name)?;
    let text = std::str::from_utf8(&file.data).ok()?;
    Some(fill(text, values))
}

/// The address every link preview and search engine should use for game
/// `id`: the spectator link, without any token.
fn canonical(origin: &str, id: &GameId) -> String {
    format!("{origin}/g/{id}")
}

/// The picture of the board that link previews show.
fn preview_image(origin: &str) -> String {
    format!("{origin}/preview.png")
}

/// The game page of game `id`.
pub(super) fn game_page(origin: &str, id: &GameId) -> Option<String> {
    let (canonical, image) = (canonical(origin, id), preview_image(origin));
    render("game.html", &[("canonical", &canonical), ("image", &image)])
}

/// The invitation to game `id` whose free seat is `seat`.
pub(super) fn invite_page(origin: &str, id: &GameId, seat: Color) -> Option<String> {
    let (canonical, image) = (canonical(origin, id), preview_image(origin));
    let creator = (!seat).name();
    let from_key = format!("invite.from.{creator}");
    let seat_key = format!("invite.seat.{}", seat.name());
    render(
        "invite.html",
        &[
            ("canonical", &canonical),
            ("image", &image),
            ("id", id.as_str()),
            ("creator", creator),
            ("seat", seat.name()),
            ("from_key", &from_key),
            ("from", message(&from_key)),
            ("seat_key", &seat_key),
            ("seat_text", message(&seat_key)),
        ],
    )
}

/// What a message page explains: one template, `web/message.html`, for
/// every link that leads nowhere.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Message {
    /// No game or file at this address.
    Missing,
    /// Nobody joined the game in time: its links no longer work.
    Expired,
    /// The server could not answer just now.
    Failed,
}

impl Message {
    /// Every message page.
    #[cfg(test)]
    const ALL: [Message; 3] = [Message::Missing, Message::Expired, Message::Failed];

    /// The first part of the page's catalog keys (`missing.h`...).
    const fn key(self) -> &'static str {
        match self {
            Message::Missing => "missing",
            Message::Expired => "expired",
            Message::Failed => "failed",
        }
    }
}

/// The page that explains `kind`, its text from the page's catalog.
pub(super) fn message_page(kind: Message) -> Option<String> {
    let key = kind.key();
    let text = |part: &str| message(&format!("{key}.{part}")).to_owned();
    let (title, heading, body) = (text("doctitle"), text("h"), text("p"));
    render(
        "message.html",
        &[
            ("kind", key),
            ("title", &title),
            ("heading", &heading),
            ("text", &body),
        ],
    )
}

/// The English text of message `key` from the page's own catalog
/// (`web/js/messages-en.js`), so the server writes what the page's script
/// would; the key itself when it is missing (a test checks none is).
pub(super) fn message(key: &str) -> &str {
    CATALOG.get(key).map_or(key, String::as_str)
}

/// The plain messages of `web/js/messages-en.js`: its lines of the form
/// `'key': 'text',` (plural forms are left out).
static CATALOG: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let Some(file) = Web::files().get("js/messages-en.js") else {
        return HashMap::new();
    };
    String::from_utf8_lossy(&file.data)
        .lines()
        .filter_map(catalog_line)
        .collect()
});

/// Reads one `'key': 'text',` line of the catalog.
fn catalog_line(line: &str) -> Option<(String, String)> {
    let line = line.trim().strip_prefix('\'')?;
    let (key, text) = line.split_once("': '")?;
    let text = text
        .strip_suffix("',")
        .or_else(|| text.strip_suffix('\''))?;
    Some((
        key.to_owned(),
        text.replace("\\'", "'").replace("\\\\", "\\"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped_and_never_read_again() {
        let page = fill(
            "<a href=\"{{url}}\">{{text}}</a>{{missing}} {{ok",
            &[("url", "/g/\"><script>"), ("text", "{{url}} & 'x' <b>")],
        );
        assert_eq!(
            page,
            "<a href=\"/g/&quot;&gt;&lt;script&gt;\">{{url}} &amp; &#39;x&#39; &lt;b&gt;</a>\
             {{missing}} {{ok"
        );
    }

    #[test]
    fn catalog_lines_are_read_with_their_escapes() {
        assert_eq!(
            catalog_line("  'a.b': 'It\\'s White’s turn',"),
            Some(("a.b".into(), "It's White’s turn".into()))
        );
        assert_eq!(catalog_line("  'a': { one: 'x', other: 'y' },"), None);
        assert_eq!(catalog_line("// 'a': 'b',"), None);
    }

    #[test]
    fn every_filled_page_has_every_value_and_message() {
        let id: GameId = "abcdefghij".parse().expect("an id");
        let origin = "https://fanorona.example";
        let mut pages = vec![game_page(origin, &id).expect("the game page")];
        for seat in Color::ALL {
            pages.push(invite_page(origin, &id, seat).expect("the invitation"));
        }
        for page in pages {
            assert!(!page.contains("{{"), "a mark is left in {page}");
            assert!(
                page.contains(
                    "<link rel=\"canonical\" href=\"https://fanorona.example/g/abcdefghij\">"
                ),
                "{page}"
            );
            assert!(!page.contains(">invite."), "a message is missing in {page}");
        }
    }

    #[test]
    fn every_message_page_is_filled_from_the_catalog_and_draws_no_board() {
        let mut titles = Vec::new();
        for kind in Message::ALL {
            let page = message_page(kind).expect("the message page");
            let key = kind.key();
            assert!(!page.contains("{{"), "a mark is left in {page}");
            for part in ["doctitle", "h", "p"] {
                let name = format!("{key}.{part}");
                assert_ne!(message(&name), name, "{name} is not in the catalog");
                let marked = format!("data-i18n=\"{name}\">{}<", message(&name));
                assert!(page.contains(&marked), "{marked} not in {page}");
            }
            assert!(page.contains("src=\"/js/message.js\""), "{page}");
            assert!(!page.contains("render.js") && !page.contains("diagram.js"));
            titles.push(message(&format!("{key}.doctitle")).to_owned());
        }
        titles.dedup();
        assert_eq!(titles.len(), 3);
    }
}
