//! One Go file: its name, its parsed syntax, and its lines (gosyn's
//! positions count Unicode scalar values from the file's start).

use gosyn::ast;

pub struct Source {
    pub name: String,
    pub file: ast::File,
    /// The position (in characters) where each line starts.
    starts: Vec<usize>,
    /// Lines of the file before this piece (less one for a clause added).
    offset: isize,
}

/// Deepest bracket nesting read: the parser recurses once per level, and a
/// file from anyone must not exhaust the stack.
pub const MAX_NESTING: usize = 200;

impl Source {
    /// Parses `text` (whose first line is line `offset + 1` of its file),
    /// refusing a nesting deeper than [`MAX_NESTING`] first.
    pub fn parse(name: &str, text: &str, offset: isize) -> Result<Source, (usize, String)> {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(
                text.chars()
                    .enumerate()
                    .filter(|(_, c)| *c == '\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        let lines = starts.len();
        // A line in the file: past the piece's start, within its last line.
        let in_file = move |line: usize| (line.clamp(1, lines) as isize + offset).max(1) as usize;
        let line_of = |pos: usize| in_file(starts.partition_point(|s| *s <= pos).max(1));
        let tokens =
            gosyn::tokenize_source(text).map_err(|e| (in_file(error_line(&e)), plain(&e)))?;
        let mut depth = 0usize;
        for t in &tokens {
            use gosyn::token::{Operator as O, Token};
            match t.token {
                Token::Operator(O::ParenLeft | O::BarackLeft | O::BraceLeft) => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Err((
                            line_of(t.start),
                            format!("brackets nested more than {MAX_NESTING} deep"),
                        ));
                    }
                }
                Token::Operator(O::ParenRight | O::BarackRight | O::BraceRight) => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
        }
        let file = gosyn::parse_source(text).map_err(|e| (in_file(error_line(&e)), plain(&e)))?;
        Ok(Source {
            name: name.to_string(),
            file,
            starts,
            offset,
        })
    }

    /// The line (from 1) of a position.
    pub fn line(&self, pos: usize) -> usize {
        (self.starts.partition_point(|s| *s <= pos).max(1) as isize + self.offset).max(1) as usize
    }
}

/// The line gosyn's error names: its message reads `PATH:LINE:COLUMN REASON`.
fn error_line(e: &dyn std::fmt::Display) -> usize {
    locate(&e.to_string()).map_or(1, |(line, _)| line)
}

/// gosyn's reason, without its path and position.
fn plain(e: &dyn std::fmt::Display) -> String {
    let text = e.to_string();
    let reason = locate(&text).map_or(text.as_str(), |(_, rest)| rest);
    reason.trim().trim_matches('"').to_string()
}

/// The first `:LINE:COLUMN ` in `text`: the line, and what follows it.
fn locate(text: &str) -> Option<(usize, &str)> {
    let b = text.as_bytes();
    (0..b.len()).find_map(|i| {
        let rest = text.get(i..)?.strip_prefix(':')?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let line: usize = rest.get(..digits)?.parse().ok()?;
        let rest = rest.get(digits..)?.strip_prefix(':')?;
        let col = rest.bytes().take_while(u8::is_ascii_digit).count();
        (col > 0).then(|| (line, &rest[col..]))
    })
}
