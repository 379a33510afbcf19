//! Go's string literals: the one place a string crosses into Go code
//! ([`quote`]) or out of it ([`unquote`]). Every string the export writes
//! (a controller's name, a kind in a comment) goes through [`quote`], so no
//! text from a scenario, a file or a link can end a literal or a comment,
//! hide code behind bidi controls (Trojan Source), or write an escape Go
//! does not have.

/// `s` as a Go interpreted string literal that reads back to `s` exactly:
/// Go's own escapes (`\n`, `\"`, `\x1b`, `\u202e`), ASCII printable and
/// non-ASCII letters and digits as they are, everything else (controls,
/// bidi and other format characters, line separators, symbols) escaped.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            ' '..='~' => out.push(c),
            c if c.is_ascii() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_alphanumeric() => out.push(c),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// A Go string literal's value: a raw `` `…` `` literal as written (less
/// carriage returns, as Go drops them), an interpreted `"…"` one with every
/// escape of the Go specification decoded. Bytes that are not UTF-8
/// (`"\xff"`) become U+FFFD, as a Go string printed as text would show them.
pub(crate) fn unquote(lit: &str) -> String {
    if let Some(raw) = lit.strip_prefix('`').and_then(|l| l.strip_suffix('`')) {
        return raw.replace('\r', "");
    }
    let inner = lit
        .strip_prefix('"')
        .and_then(|l| l.strip_suffix('"'))
        .unwrap_or(lit);
    let mut bytes: Vec<u8> = Vec::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    let push = |bytes: &mut Vec<u8>, c: char| {
        let mut buf = [0u8; 4];
        bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            push(&mut bytes, c);
            continue;
        }
        let Some(e) = chars.next() else {
            bytes.push(b'\\');
            break;
        };
        // Up to `n` digits of `radix` after the escape letter.
        let mut digits = |n: usize, radix: u32, first: Option<char>| -> Option<u32> {
            let mut v = 0u32;
            let mut count = 0;
            if let Some(f) = first {
                v = f.to_digit(radix)?;
                count = 1;
            }
            while count < n {
                let d = chars.peek()?.to_digit(radix)?;
                chars.next();
                v = v.checked_mul(radix)?.checked_add(d)?;
                count += 1;
            }
            Some(v)
        };
        match e {
            'n' => bytes.push(b'\n'),
            't' => bytes.push(b'\t'),
            'r' => bytes.push(b'\r'),
            'a' => bytes.push(7),
            'b' => bytes.push(8),
            'f' => bytes.push(12),
            'v' => bytes.push(11),
            '\\' => bytes.push(b'\\'),
            '"' => bytes.push(b'"'),
            '\'' => bytes.push(b'\''),
            'x' => match digits(2, 16, None) {
                Some(v) => bytes.push(v as u8),
                None => bytes.extend_from_slice(b"\\x"),
            },
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                match digits(n, 16, None).and_then(char::from_u32) {
                    Some(c) => push(&mut bytes, c),
                    None => push(&mut bytes, char::REPLACEMENT_CHARACTER),
                }
            }
            '0'..='7' => match digits(3, 8, Some(e)) {
                Some(v) if v <= 0xff => bytes.push(v as u8),
                _ => push(&mut bytes, char::REPLACEMENT_CHARACTER),
            },
            other => {
                bytes.push(b'\\');
                push(&mut bytes, other);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_escape_of_the_specification_is_decoded() {
        assert_eq!(
            unquote(r#""a\n\t\"\\\x41\101\u00e9\U0001F600""#),
            "a\n\t\"\\AAé😀"
        );
        assert_eq!(unquote("`raw \\n\r`"), "raw \\n");
        assert_eq!(unquote(r#""\a\b\f\v\r\'""#), "\u{7}\u{8}\u{c}\u{b}\r'");
    }

    #[test]
    fn a_quoted_string_reads_back_to_itself() {
        for s in [
            "plain",
            "new\nline",
            "\u{1b}[31mred",
            "\0nul",
            "\u{202e}evil\u{2066}",
            "quote \" and \\ backslash",
            "café 日本 😀",
            "\u{7f}\u{85}\u{2028}\u{feff}",
        ] {
            let q = quote(s);
            assert_eq!(unquote(&q), s, "{q}");
            // Nothing a Go scanner would take for the literal's end, a line's
            // end or a direction change is left as it is.
            let inner = &q[1..q.len() - 1];
            assert!(!inner.contains('\n') && !inner.contains('\r'), "{q}");
            assert!(inner.chars().all(|c| !c.is_control()), "{q}");
            assert!(
                !inner.contains('\u{202e}') && !inner.contains('\u{2028}'),
                "{q}"
            );
            assert!(!inner.replace("\\\"", "").contains('"'), "{q}");
        }
    }

    #[test]
    fn go_escapes_not_rust_ones_are_written() {
        assert_eq!(quote("\u{1b}\0"), r#""\x1b\x00""#);
        assert_eq!(quote("\u{202e}"), r#""\u202e""#);
        assert!(!quote("\u{1b}").contains("\\u{"));
    }
}
