//! What an error quotes of its input: the start of it, never the whole. A
//! line of 10 MB sent to `fanorona engine` used to come back whole in its
//! `error` line.

/// The most characters of one input an error quotes.
const QUOTED: usize = 80;

/// The most characters of one error line, whatever it quotes.
const LINE: usize = 400;

/// `text` quoted (`"d3-e3A"`, with escapes as Rust writes them); past
/// [`QUOTED`] characters only its start is quoted, followed by an ellipsis
/// and its length: `"BBBB…"… (10485760 bytes)`.
pub(crate) fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        None => format!("{text:?}"),
        Some((end, _)) => format!("{:?}… ({} bytes)", &text[..end], text.len()),
    }
}

/// `line` cut to [`LINE`] characters and an ellipsis: the last guard on
/// an error line, for whatever it quotes that [`quote`] did not (the rules
/// crate's own messages quote the text they found).
pub(crate) fn cut(line: &str) -> String {
    match line.char_indices().nth(LINE) {
        None => line.to_owned(),
        Some((end, _)) => format!("{}…", &line[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_only_its_start() {
        assert_eq!(quote("d3-e3A"), "\"d3-e3A\"");
        assert_eq!(quote("a\"b"), "\"a\\\"b\"");
        let exact = "x".repeat(QUOTED);
        assert_eq!(quote(&exact), format!("\"{exact}\""));
        let long = "é".repeat(10_000);
        let quoted = quote(&long);
        assert_eq!(quoted, format!("\"{}\"… (20000 bytes)", "é".repeat(QUOTED)));
    }

    #[test]
    fn a_long_line_is_cut_at_a_character() {
        assert_eq!(cut("error x"), "error x");
        let long = "ü".repeat(LINE + 1);
        let cut = cut(&long);
        assert_eq!(cut.chars().count(), LINE + 1);
        assert!(cut.ends_with("ü…"));
    }
}
