//! Names in Go's syntax: the last name of a selector, a package and its
//! name, an integer literal's value, an expression as a note names it.
//! (Values are computed by [`crate::interp`].)

use gosyn::ast::Expression;

/// The last name of a selector or identifier: `workqueue.NewTypedMaxOfRateLimiter`
/// gives `NewTypedMaxOfRateLimiter`; an instantiation `F[T]` gives `F`'s.
pub(crate) fn name_of(e: &Expression) -> Option<&str> {
    match e {
        Expression::Ident(i) => Some(&i.name),
        Expression::Selector(s) => Some(&s.sel.name),
        Expression::Index(i) => name_of(&i.left),
        Expression::IndexList(i) => name_of(&i.left),
        Expression::Paren(p) => name_of(&p.expr),
        Expression::Star(s) => name_of(&s.right),
        // A method's receiver `(r *T)`.
        Expression::TypePointer(p) => name_of(&p.typ),
        _ => None,
    }
}

/// `time.Second`'s package and name.
pub(crate) fn qualified(e: &Expression) -> Option<(&str, &str)> {
    match e {
        Expression::Selector(s) => match &*s.x {
            Expression::Ident(p) => Some((&p.name, &s.sel.name)),
            _ => None,
        },
        _ => None,
    }
}

/// A Go integer literal: decimal, `0x`, `0o`, `0b`, with `_` separators.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let (digits, radix) = match t.get(..2) {
        Some("0x" | "0X") => (&t[2..], 16),
        Some("0o" | "0O") => (&t[2..], 8),
        Some("0b" | "0B") => (&t[2..], 2),
        _ if t.len() > 1 && t.starts_with('0') => (&t[1..], 8),
        _ => (&t[..], 10),
    };
    i64::from_str_radix(digits, radix).ok()
}

/// An expression as a person would name it in a note: `cfg.QPS`, `newLimiter`.
pub(crate) fn describe(e: &Expression) -> String {
    match e {
        Expression::Ident(i) => i.name.clone(),
        Expression::Selector(s) => format!("{}.{}", describe(&s.x), s.sel.name),
        Expression::Call(c) => format!("{}(…)", describe(&c.func)),
        Expression::Index(i) => describe(&i.left),
        Expression::IndexList(i) => describe(&i.left),
        Expression::Star(s) => format!("*{}", describe(&s.right)),
        Expression::Paren(p) => describe(&p.expr),
        Expression::BasicLit(l) => l.value.clone(),
        _ => "an expression".into(),
    }
}
