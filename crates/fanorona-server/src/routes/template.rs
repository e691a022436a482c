//! The pages made for each request: the game page, the invitation and the
//! page that explains a link leading nowhere, filled in from their files
//! in `web/` (`{{name}}` marks a value). Every
//! value is escaped for HTML here, the one place that writes request
//! values into a page. No page is ever given an invitation token or a
//! seat secret: the invitation page's script reads the token from its own
//! address.

use fanorona::Color;

use super::{
    files::{Folder, Web},
    i18n::{fill as fill_message, Catalog, Lang},
};
use crate::{game::TimeControl, ids::GameId};

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

/// The page `name` in `lang`, its partials put in, filled with `values`;
/// `None` when the page is not embedded.
fn render(name: &str, lang: Lang, values: &Values<'_>) -> Option<String> {
    let file = Web::files().page(name, lang)?;
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

/// The game page of game `id`, in `lang`.
pub(super) fn game_page(origin: &str, id: &GameId, lang: Lang) -> Option<String> {
    let (canonical, image) = (canonical(origin, id), preview_image(origin));
    render(
        "game.html",
        lang,
        &[("canonical", &canonical), ("image", &image)],
    )
}

/// The invitation to game `id` whose free seat is `seat`, with the clock
/// `clock` if any, in `lang`.
pub(super) fn invite_page(
    origin: &str,
    id: &GameId,
    seat: Color,
    clock: Option<TimeControl>,
    lang: Lang,
) -> Option<String> {
    let catalog = Catalog::of(lang);
    let clock = clock.map_or_else(String::new, |control| {
        let text = clock_text(control, catalog);
        fill_message(catalog.text("clock.invite"), &[("control", &text)])
    });
    let (canonical, image) = (canonical(origin, id), preview_image(origin));
    let creator = (!seat).name();
    let from_key = format!("invite.from.{creator}");
    let seat_key = format!("invite.seat.{}", seat.name());
    render(
        "invite.html",
        lang,
        &[
            ("canonical", &canonical),
            ("image", &image),
            ("id", id.as_str()),
            ("creator", creator),
            ("seat", seat.name()),
            ("from_key", &from_key),
            ("from", catalog.text(&from_key)),
            ("seat_key", &seat_key),
            ("seat_text", catalog.text(&seat_key)),
            ("clock", &clock),
        ],
    )
}

/// A time control in words: "5 min + 3 s per turn", "3 days a turn".
pub(super) fn clock_text(control: TimeControl, catalog: &Catalog) -> String {
    match control {
        TimeControl::RealTime { minutes, increment } => fill_message(
            catalog.text("clock.rt"),
            &[("m", &minutes.to_string()), ("s", &increment.to_string())],
        ),
        TimeControl::Correspondence { days: 1 } => catalog.text("clock.day").to_owned(),
        TimeControl::Correspondence { days } => {
            fill_message(catalog.text("clock.days"), &[("n", &days.to_string())])
        }
    }
}

/// What a message page explains: one template, `web/message.html`, for
/// every link that leads nowhere, and for an invitation link that no
/// longer seats anyone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Message {
    /// No game or file at this address.
    Missing,
    /// Nobody joined the game in time: its links no longer work.
    Expired,
    /// An invitation link to a game that is not there: swept after it
    /// expired, or mistyped.
    Gone,
    /// The server could not answer just now.
    Failed,
    /// The invitation is the game's, but both seats are taken.
    Used,
    /// The invitation token is not the game's.
    Wrong,
}

impl Message {
    /// Every message page.
    #[cfg(test)]
    const ALL: [Message; 6] = [
        Message::Missing,
        Message::Expired,
        Message::Gone,
        Message::Failed,
        Message::Used,
        Message::Wrong,
    ];

    /// The page's name, for its stylesheet.
    const fn key(self) -> &'static str {
        match self {
            Message::Missing => "missing",
            Message::Expired => "expired",
            Message::Gone => "gone",
            Message::Failed => "failed",
            Message::Used => "used",
            Message::Wrong => "wrong",
        }
    }

    /// The catalog keys of the page's title, heading and text.
    const fn texts(self) -> [&'static str; 3] {
        match self {
            Message::Missing => ["missing.doctitle", "missing.h", "missing.p"],
            Message::Expired => ["expired.doctitle", "expired.h", "expired.p"],
            Message::Gone => ["gone.doctitle", "gone.h", "gone.p"],
            Message::Failed => ["failed.doctitle", "failed.h", "failed.p"],
            Message::Used => ["used.doctitle", "used.h", "used.p"],
            Message::Wrong => ["wrong.doctitle", "wrong.h", "wrong.p"],
        }
    }

    /// The catalog key of the page's one button: a new game, or watching
    /// the game whose invitation seats nobody.
    const fn action(self) -> &'static str {
        match self {
            Message::Missing | Message::Expired | Message::Gone | Message::Failed => "game.newGame",
            Message::Used | Message::Wrong => "invite.watchGame",
        }
    }
}

/// The page that explains `kind`, in `lang`, its button leading to the
/// front page.
pub(super) fn message_page(kind: Message, lang: Lang) -> Option<String> {
    filled_message(kind, "/", lang)
}

/// The page that explains why invitation link to game `id` seats nobody
/// (`kind` is [`Message::Used`] or [`Message::Wrong`]), in `lang`, its
/// button leading to the game to watch. The token is never in it.
pub(super) fn closed_invitation_page(kind: Message, id: &GameId, lang: Lang) -> Option<String> {
    filled_message(kind, &format!("/g/{id}"), lang)
}

fn filled_message(kind: Message, href: &str, lang: Lang) -> Option<String> {
    let key = kind.key();
    let catalog = Catalog::of(lang);
    let [title, heading, body] = kind.texts().map(|key| catalog.text(key).to_owned());
    render(
        "message.html",
        lang,
        &[
            ("kind", key),
            ("title", &title),
            ("heading", &heading),
            ("text", &body),
            ("href", href),
            ("action_key", kind.action()),
            ("action", catalog.text(kind.action())),
        ],
    )
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
    fn every_filled_page_has_every_value_and_message() {
        let id: GameId = "abcdefghij".parse().expect("an id");
        let origin = "https://fanorona.example";
        let mut pages = Vec::new();
        for lang in Lang::ALL {
            pages.push(game_page(origin, &id, lang).expect("the game page"));
            let clocks = [
                None,
                TimeControl::real_time(5, 3).ok(),
                TimeControl::correspondence(1).ok(),
                TimeControl::correspondence(7).ok(),
            ];
            for (seat, clock) in Color::ALL
                .into_iter()
                .zip(clocks)
                .chain([(Color::White, clocks[1]), (Color::Black, clocks[3])])
            {
                let page = invite_page(origin, &id, seat, clock, lang).expect("the invitation");
                assert_eq!(
                    page.contains("<p class=\"clock-line\"></p>"),
                    clock.is_none()
                );
                assert!(!page.contains(">clock."), "a message is missing in {page}");
                pages.push(page);
            }
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
        for lang in Lang::ALL {
            let catalog = Catalog::of(lang);
            let mut titles = Vec::new();
            for kind in Message::ALL {
                let page = message_page(kind, lang).expect("the message page");
                assert!(!page.contains("{{"), "a mark is left in {page}");
                assert!(page.contains(&format!("<html lang=\"{}\">", lang.tag())));
                for name in kind.texts() {
                    assert!(catalog.has(name), "{name} is not in the catalog");
                    let mut text = String::new();
                    escape_into(&mut text, catalog.text(name));
                    let marked = format!("data-i18n=\"{name}\">{text}<");
                    assert!(page.contains(&marked), "{marked} not in {page}");
                }
                let action = format!("data-i18n=\"{}\">", kind.action());
                assert!(page.contains(&action), "{action} not in {page}");
                assert!(!page.contains("<script"), "{page}");
                titles.push(catalog.text(kind.texts()[0]).to_owned());
            }
            titles.sort();
            titles.dedup();
            assert_eq!(titles.len(), Message::ALL.len());
        }
    }
}
