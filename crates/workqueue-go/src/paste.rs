//! What was pasted or picked, as Go files and go.mod files: a byte order
//! mark dropped (Go allows one at a file's start), several files pasted
//! into one box split where another `package` clause (or a go.mod's
//! `module` line) starts a line outside raw strings and comments, and a
//! piece without a clause (a bare `SetupWithManager`) given one.

/// One piece: its text, and the line of the paste its text starts at,
/// less one for a clause added.
pub(crate) type Piece = (String, isize);

/// `text` without a leading byte order mark.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Whether a line starts a Go file or a go.mod: `package x`, `module x`
/// (any white space after the word).
fn is_clause(line: &str, word: &str) -> bool {
    line.strip_prefix(word)
        .is_some_and(|rest| rest.starts_with([' ', '\t']))
}

/// Whether the first line that says something is a go.mod's `module`.
pub(crate) fn is_go_mod(text: &str) -> bool {
    without_bom(text)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"))
        .is_some_and(|l| is_clause(l, "module"))
}

/// The lines (from 0) that start outside a raw string literal and a block
/// comment: the only lines where a clause can start a new file.
fn code_line_starts(text: &str) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum In {
        Code,
        Raw,
        Block,
        Str(char),
        LineComment,
    }
    let mut at = In::Code;
    let mut out = vec![true];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        at = match (at, c) {
            (_, '\n') => {
                // Interpreted strings and line comments end at the line's end.
                let next = match at {
                    In::Raw | In::Block => at,
                    _ => In::Code,
                };
                out.push(next == In::Code);
                next
            }
            (In::Code, '`') => In::Raw,
            (In::Code, '"' | '\'') => In::Str(c),
            (In::Code, '/') if chars.peek() == Some(&'/') => In::LineComment,
            (In::Code, '/') if chars.peek() == Some(&'*') => {
                chars.next();
                In::Block
            }
            (In::Raw, '`') => In::Code,
            (In::Block, '*') if chars.peek() == Some(&'/') => {
                chars.next();
                In::Code
            }
            (In::Str(_), '\\') => {
                // An escaped quote does not end the literal.
                if chars.peek() != Some(&'\n') {
                    chars.next();
                }
                at
            }
            (In::Str(q), c) if c == q => In::Code,
            (at, _) => at,
        };
    }
    out
}

/// A pasted text as Go files (see the module's comment).
pub(crate) fn pieces(text: &str) -> Vec<Piece> {
    let text = without_bom(text);
    let code = code_line_starts(text);
    let mut starts: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(i, l)| {
            code.get(*i).copied().unwrap_or(false)
                && (is_clause(l, "package") || is_clause(l, "module"))
        })
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &from)| {
            let to = starts.get(k + 1).copied().unwrap_or(lines.len());
            let piece: String = lines[from.min(lines.len())..to.min(lines.len())].concat();
            let has_clause = piece
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with("//"))
                .is_some_and(|l| is_clause(l, "package") || is_clause(l, "module"));
            if has_clause {
                (piece, from as isize)
            } else {
                (format!("package pasted\n{piece}"), from as isize - 1)
            }
        })
        .filter(|(p, _)| !p.trim().is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clause_inside_a_raw_string_or_a_comment_splits_nothing() {
        let text = "package main\n\nvar usage = `\npackage docs\nmodule x\n`\n\n/*\npackage old\n*/\nfunc main() {}\n";
        assert_eq!(pieces(text).len(), 1);
        let two = "package a\n\nvar s = \"`\"\n\npackage b\n";
        assert_eq!(pieces(two).len(), 2);
    }

    #[test]
    fn a_bom_and_tabs_are_go() {
        assert!(is_go_mod("\u{feff}module example.com/x\n"));
        assert!(is_go_mod("// c\nmodule\texample.com/x\n"));
        assert!(!is_go_mod("package main\n"));
        let p = pieces("\u{feff}package\tmain\n");
        assert_eq!(p, vec![("package\tmain\n".to_string(), 0)]);
    }
}
