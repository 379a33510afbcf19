//! A string from a file, a link or a paste as it is shown on a terminal or
//! the page: the one escaping function for text that reaches a person.
//! Control characters (a newline that forges a line, `ESC` that forges a
//! colour), bidi controls (text that reads in another order than it runs:
//! Trojan Source) and other invisible format characters are written as
//! escapes; everything else, other scripts and emoji included, as it is.

use std::borrow::Cow;

/// Whether `c` would act on the display rather than show as a character.
pub(crate) fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00ad}'                      // soft hyphen
            | '\u{061c}'                    // Arabic letter mark
            | '\u{180e}'                    // Mongolian vowel separator
            | '\u{200b}'..='\u{200f}'       // zero widths, LRM, RLM
            | '\u{2028}'..='\u{202e}'       // line and paragraph separators, embeddings, overrides
            | '\u{2060}'..='\u{206f}'       // word joiner, isolates, invisible operators
            | '\u{feff}'                    // byte order mark, zero-width no-break space
            | '\u{fff9}'..='\u{fffb}'       // interlinear annotations
            | '\u{e0000}'..='\u{e007f}' // tags
        )
}

/// `s` with every [`is_hidden`] character escaped: `\n`, `\t`, `\r`,
/// `\u{1b}`, `\u{202e}`. Borrowed when there is nothing to escape.
pub fn shown(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_acts_on_the_display_is_escaped() {
        assert_eq!(shown("a\nb"), "a\\nb");
        assert_eq!(shown("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(shown("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(shown("\u{2066}x\u{2069}"), "\\u{2066}x\\u{2069}");
        assert_eq!(shown("\u{feff}\u{200b}"), "\\u{feff}\\u{200b}");
        assert!(matches!(
            shown("café 日本 😀 default/pod-1"),
            Cow::Borrowed(_)
        ));
        // Nothing hidden is left in what is shown.
        for c in ['\0', '\u{7f}', '\u{85}', '\u{2028}', '\u{e0041}'] {
            assert!(!shown(&c.to_string()).chars().any(is_hidden), "{c:?}");
        }
    }
}
