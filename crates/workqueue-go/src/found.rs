//! What the reader says: a place in the files and what was found there.

use gosyn::ast::Expression;
use serde::Serialize;

/// A place in the files and what was found there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Found {
    pub file: String,
    pub line: usize,
    pub text: String,
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.text)
    }
}

/// Where an expression starts.
pub(crate) fn pos(e: &Expression) -> usize {
    match e {
        Expression::Call(c) => c.pos.0,
        Expression::Ident(i) => i.pos,
        Expression::Selector(s) => s.pos,
        Expression::BasicLit(l) => l.pos,
        Expression::CompositeLit(c) => c.val.pos.0,
        Expression::Operation(o) => o.pos,
        Expression::Paren(p) => p.pos.0,
        Expression::Star(s) => s.pos,
        Expression::Index(i) => i.pos.0,
        Expression::IndexList(i) => i.pos.0,
        _ => 0,
    }
}
