//! One Go file: its name, its parsed syntax, and its lines (gosyn's
//! positions count Unicode scalar values from the file's start).

use gosyn::ast;

pub(crate) struct Source {
    pub name: String,
    pub file: ast::File,
    /// The position (in characters) where each line starts.
    starts: Vec<usize>,
    /// Lines of the file before this piece (less one for a clause added).
    offset: isize,
}

/// How deep an expression or statement may nest, in the units of
/// [`depth_of`]: the parser, the evaluator and the syntax tree's own drop
/// recurse once per level, and a file from anyone must not exhaust the
/// stack (1 MiB in the page's worker; the limit is tested in a debug build
/// on a 1 MiB thread).
pub(crate) const MAX_DEPTH: usize = 200;
/// What one bracket level counts in [`MAX_DEPTH`]: the parser goes through
/// several functions for each.
pub(crate) const BRACKET_WEIGHT: usize = 8;
/// What a closed bracket still counts (`f(…)` is a node of the tree).
const CLOSED_WEIGHT: usize = 1;

impl Source {
    /// Parses `text` (whose first line is line `offset + 1` of its file),
    /// refusing a nesting deeper than [`MAX_DEPTH`] first.
    pub(crate) fn parse(name: &str, text: &str, offset: isize) -> Result<Source, (usize, String)> {
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
        let line_of = |pos: usize| starts.partition_point(|s| *s <= pos).max(1);
        let tokens =
            gosyn::tokenize_source(text).map_err(|e| (in_file(error_line(&e)), plain(&e)))?;
        if let Some((pos, depth)) = depth_of(&tokens, line_of) {
            return Err((
                in_file(line_of(pos)),
                format!(
                    "nested too deep to read: {depth} levels where the reader takes {MAX_DEPTH} (every operator, selector, call and name in one expression counts one, every bracket {BRACKET_WEIGHT})"
                ),
            ));
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
    pub(crate) fn line(&self, pos: usize) -> usize {
        (self.starts.partition_point(|s| *s <= pos).max(1) as isize + self.offset).max(1) as usize
    }
}

/// Where the tokens nest deeper than [`MAX_DEPTH`], and how deep: an upper
/// bound of the syntax tree's depth there. Within one element of a list
/// (between commas, semicolons and the line ends where Go inserts a
/// semicolon) every token may open a level of the tree (`^^^x`, `a.b.c`,
/// `f()()`, `1+1+1`), and a bracket opens a new list; the depth at a token
/// is the sum over the brackets open around it. An open bracket weighs
/// [`BRACKET_WEIGHT`], a closed one less: the builder chains of real code
/// (`.Owns(…)` twenty times) stay well within the limit. Linear, before
/// any parsing.
fn depth_of(
    tokens: &[gosyn::LexicalToken],
    line_of: impl Fn(usize) -> usize,
) -> Option<(usize, usize)> {
    use gosyn::token::{Keyword as K, Operator as O, Token};
    // Go's rule: a line ending in one of these ends its statement.
    let ends_statement = |t: &Token| match t {
        Token::Literal(..) => true,
        Token::Keyword(k) => matches!(k, K::Break | K::Continue | K::FallThrough | K::Return),
        Token::Operator(o) => matches!(
            o,
            O::Inc | O::Dec | O::ParenRight | O::BarackRight | O::BraceRight
        ),
        Token::Comment(_) => false,
    };
    let mut levels: Vec<usize> = vec![0];
    let mut total = 0usize;
    let mut prev: Option<&gosyn::LexicalToken> = None;
    for t in tokens
        .iter()
        .filter(|t| !matches!(t.token, Token::Comment(_)))
    {
        if let Some(p) = prev {
            if ends_statement(&p.token) && line_of(p.end.saturating_sub(1)) != line_of(t.start) {
                let top = levels.last_mut()?;
                total -= *top;
                *top = 0;
            }
        }
        prev = Some(t);
        match t.token {
            Token::Operator(O::ParenLeft | O::BarackLeft | O::BraceLeft) => {
                *levels.last_mut()? += BRACKET_WEIGHT;
                total += BRACKET_WEIGHT;
                levels.push(0);
            }
            // A closed bracket no longer holds the parser in it: it stays
            // one node of the tree (a call, an index) counted as one.
            Token::Operator(O::ParenRight | O::BarackRight | O::BraceRight) => {
                if levels.len() > 1 {
                    total -= levels.pop()?;
                    let parent = levels.last_mut()?;
                    let open = (*parent).min(BRACKET_WEIGHT - CLOSED_WEIGHT);
                    *parent -= open;
                    total -= open;
                }
            }
            Token::Operator(O::Comma | O::SemiColon) => {
                let top = levels.last_mut()?;
                total -= *top;
                *top = 0;
            }
            _ => {
                *levels.last_mut()? += 1;
                total += 1;
            }
        }
        if total > MAX_DEPTH {
            return Some((t.start, total));
        }
    }
    None
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
