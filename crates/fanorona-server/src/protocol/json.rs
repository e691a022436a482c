//! JSON text written by hand into a `String`, which cannot fail: for the
//! small messages whose every field is known, so that no serializer error
//! has to be turned into a message nobody would understand.

/// Appends `text` as a JSON string, quoted and escaped as `serde_json`
/// writes it: `"` and `\` get a backslash, control characters their short
/// escape or `\u00XX`, everything else (non-ASCII too) goes as it is.
pub(crate) fn push_str(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let mut plain = 0;
    for (i, c) in text.char_indices() {
        let escaped = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            c if c < ' ' => "",
            _ => continue,
        };
        out.push_str(&text[plain..i]);
        if escaped.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let byte = c as usize;
            out.push_str("\\u00");
            out.push(char::from(HEX[byte >> 4]));
            out.push(char::from(HEX[byte & 15]));
        } else {
            out.push_str(escaped);
        }
        plain = i + c.len_utf8();
    }
    out.push_str(&text[plain..]);
    out.push('"');
}

/// Appends `text` as a JSON string, or `null` for `None`.
pub(crate) fn push_opt_str(out: &mut String, text: Option<&str>) {
    match text {
        Some(text) => push_str(out, text),
        None => out.push_str("null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut all: String = (0_u32..0x80).filter_map(char::from_u32).collect();
        all.push_str("é ☃ 🂡 \"quoted\" back\\slash");
        for text in ["", "plain", "a\"b", "\\", "\u{1}\u{1f}\u{7f}", &all] {
            let mut out = String::new();
            push_str(&mut out, text);
            assert_eq!(
                Ok(out),
                serde_json::to_string(text).map_err(|e| e.to_string())
            );
        }
        let mut out = String::new();
        push_opt_str(&mut out, None);
        push_opt_str(&mut out, Some("x"));
        assert_eq!(out, "null\"x\"");
    }
}
