//! Flags: a flag's value is its default (no flag is given on a command
//! line the reader does not see). The standard `flag` package and pflag
//! (`IntVar(&x, "name", 10, …)`, `x := Int("name", 10, …)`, the `P` forms),
//! flags on any flag set (a cobra command's, a parameter `fs`), binders
//! that take the target last (`b.IntVar("name", "help", 10, &x)`), and
//! kingpin's `Flag("name", …).Default("10").Int()`.

use gosyn::ast::{Call, Expression};
use gosyn::token::Operator;

use super::expr::short;
use super::val::{Obj, V};
use super::{Ctx, Interp};

/// The kinds of flag a flag set makes.
const KINDS: [&str; 20] = [
    "Strings",
    "Ints",
    "Enum",
    "Int",
    "Int32",
    "Int64",
    "Uint",
    "Uint32",
    "Uint64",
    "Float64",
    "Float32",
    "Duration",
    "String",
    "Bool",
    "StringSlice",
    "StringArray",
    "IntSlice",
    "StringToString",
    "Uint16",
    "Int8",
];

/// `&x`: the expression `x`.
fn target(e: &Expression) -> Option<&Expression> {
    match e {
        Expression::Operation(o) if o.op == Operator::And && o.y.is_none() => Some(&o.x),
        _ => None,
    }
}

impl<'a> Interp<'a> {
    /// A flag's registration, when `c` is one; its variable takes its default.
    pub(crate) fn flag_call(
        &mut self,
        cx: &Ctx<'a>,
        method: &str,
        c: &'a Call,
        flag_package: bool,
    ) -> Option<V<'a>> {
        let short_form = method.ends_with('P') && method.len() > 1;
        let base = if short_form {
            &method[..method.len() - 1]
        } else {
            method
        };
        if let Some(kind) = base.strip_suffix("Var") {
            if !KINDS.contains(&kind) {
                return None;
            }
            // `IntVar(&x, "name", default, usage)`, or a binder's
            // `IntVar("name", "help", default, &x)`.
            let (to, name_at, default_at) = match (
                c.args.first().and_then(target),
                c.args.last().and_then(target),
            ) {
                (Some(t), _) if c.args.len() >= 3 => (t, 1, 2 + usize::from(short_form)),
                (None, Some(t)) if c.args.len() >= 3 => (t, 0, c.args.len() - 2),
                _ => return None,
            };
            let V::Str(name) = self.eval(cx, &c.args[name_at]) else {
                return None;
            };
            let value = self.eval(cx, c.args.get(default_at)?);
            self.note(
                true,
                cx.file,
                c.pos.0,
                format!("flag --{name}: its default, {}", short(&value)),
            );
            self.store(cx, to, value, false);
            return Some(V::Nil);
        }
        // `x := flag.Int("name", 10, "usage")`: a usage makes it a flag
        // (`attribute.String("k", "v")` is not one).
        if !KINDS.contains(&base) || !flag_package {
            return None;
        }
        if c.args.len() != 3 + usize::from(short_form) {
            return None;
        }
        let V::Str(name) = self.eval(cx, &c.args[0]) else {
            return None;
        };
        let value = self.eval(cx, &c.args[1 + usize::from(short_form)]);
        self.flag_default(cx.file, c.pos.0, &name, value)
    }

    /// kingpin: `Flag("name", help)` makes a flag, `.Default("10")` gives
    /// its default, `.Int()` its value.
    pub(crate) fn kingpin(
        &mut self,
        cx: &Ctx<'a>,
        recv: &V<'a>,
        method: &str,
        c: &'a Call,
    ) -> Option<V<'a>> {
        let flag = recv
            .obj()
            .filter(|id| self.heap[*id].ty.name == "kingpin.Flag");
        match (method, flag) {
            ("Flag", _) => {
                let name = match c.args.first().map(|a| self.eval(cx, a)) {
                    Some(V::Str(n)) => n,
                    _ => return None,
                };
                let mut o = Obj::plain("kingpin.Flag");
                o.set("name", V::Str(name));
                Some(V::Ref(self.alloc(o)))
            }
            ("Default", Some(id)) => {
                let d = c.args.first().map(|a| self.eval(cx, a)).unwrap_or(V::Nil);
                self.heap[id].set("default", d);
                Some(recv.clone())
            }
            (kind, Some(id)) if KINDS.contains(&kind) && c.args.is_empty() => {
                let value = match self.heap[id].field("default").cloned() {
                    Some(V::Str(t)) => parse_text(&t),
                    Some(other) => other,
                    None => match kind {
                        "Bool" => V::Bool(false),
                        "Duration" => V::Dur(workqueue_core::Duration::ZERO),
                        "String" => V::Str(String::new()),
                        _ => V::Num(0.0),
                    },
                };
                let name = match self.heap[id].field("name") {
                    Some(V::Str(n)) => n.clone(),
                    _ => String::new(),
                };
                self.flag_default(cx.file, c.pos.0, &name, value)
            }
            (_, Some(_)) => Some(recv.clone()),
            _ => None,
        }
    }

    /// A flag read at its default: said where it is declared.
    fn flag_default(&mut self, file: usize, at: usize, name: &str, value: V<'a>) -> Option<V<'a>> {
        self.note(
            true,
            file,
            at,
            format!("flag --{name}: its default, {}", short(&value)),
        );
        Some(value)
    }
}

/// A flag default written as text (kingpin): a number, a duration or text.
pub(crate) fn parse_text<'a>(t: &str) -> V<'a> {
    if let Ok(n) = t.parse::<f64>() {
        return V::Num(n);
    }
    if let Ok(d) = workqueue_core::parse_go_duration(t) {
        return V::Dur(d);
    }
    match t {
        "true" => V::Bool(true),
        "false" => V::Bool(false),
        _ => V::Str(t.to_string()),
    }
}
