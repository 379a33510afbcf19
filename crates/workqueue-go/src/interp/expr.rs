//! Expressions: literals, names by scope, selectors (a package's name, a
//! struct's field, promoted fields of an embedded struct, a method value),
//! operators, composite literals and function literals.

use std::rc::Rc;

use gosyn::ast::{CompositeLit, Element, Expression, Selector};
use gosyn::token::{LitKind, Operator};
use workqueue_core::LimiterConfig;

use super::val::{Func, Kind, Obj, Origin, Ty, V};
use super::{Ctx, Global, Interp, MAX_DEPTH, MAX_STEPS};
use crate::eval::{name_of, parse_int};
use crate::value::Value;

impl<'a> Interp<'a> {
    /// The value of `e`, within the step budget and the depth bound.
    pub(crate) fn eval(&mut self, cx: &Ctx<'a>, e: &'a Expression) -> V<'a> {
        if !self.step() {
            return V::unknown(format!(
                "the reader's budget of {MAX_STEPS} evaluation steps ran out"
            ));
        }
        if self.depth >= MAX_DEPTH {
            return V::unknown(format!(
                "values computed from values more than {MAX_DEPTH} deep"
            ));
        }
        self.depth += 1;
        let v = self.value(cx, e);
        self.depth -= 1;
        v
    }

    fn value(&mut self, cx: &Ctx<'a>, e: &'a Expression) -> V<'a> {
        match e {
            Expression::BasicLit(l) => match l.kind {
                LitKind::Integer => parse_int(&l.value).map_or_else(
                    || V::unknown(format!("the number {}", l.value)),
                    |n| V::Num(n as f64),
                ),
                LitKind::Float => l
                    .value
                    .replace('_', "")
                    .parse()
                    .map(V::Num)
                    .unwrap_or_else(|_| V::unknown(format!("the number {}", l.value))),
                LitKind::String => V::Str(crate::literal::unquote(&l.value)),
                _ => V::unknown(format!("the literal {}", l.value)),
            },
            Expression::Ident(i) => self.name(cx, &i.name),
            Expression::Paren(p) => self.eval(cx, &p.expr),
            Expression::Star(s) => self.eval(cx, &s.right),
            Expression::TypeAssert(t) => self.eval(cx, &t.left),
            Expression::Selector(s) => self.selector(cx, s),
            Expression::Operation(op) => match &op.y {
                None => {
                    let x = self.eval(cx, &op.x);
                    unary(op.op, x)
                }
                Some(y) => self.binary(cx, op.op, &op.x, y),
            },
            Expression::Call(c) => self.call(cx, c),
            Expression::CompositeLit(c) => self.composite(cx, c),
            Expression::FuncLit(lit) => V::Func(Rc::new(Func::Lit {
                file: cx.file,
                lit,
                scope: cx.scope.clone(),
            })),
            Expression::Index(i) => {
                let left = self.eval(cx, &i.left);
                if matches!(left, V::Func(_)) {
                    // `F[T]`: the generic function itself.
                    return left;
                }
                let key = self.eval(cx, &i.index);
                self.index_into(left, key)
            }
            Expression::IndexList(i) => self.eval(cx, &i.left),
            other => V::unknown(format!(
                "{} is not a plain value",
                crate::eval::describe(other)
            )),
        }
    }

    /// A name by scope: the block and those around it, then the package.
    pub(crate) fn name(&mut self, cx: &Ctx<'a>, name: &str) -> V<'a> {
        match name {
            "true" => return V::Bool(true),
            "false" => return V::Bool(false),
            "nil" => return V::Nil,
            _ => {}
        }
        if let Some(v) = cx.scope.get(name) {
            return v;
        }
        if let Some(v) = self.global(cx.pkg, name) {
            return v;
        }
        V::unknown(format!("{name} is not set where it can be read"))
    }

    /// A package-level name, evaluated when first read.
    pub(crate) fn global(&mut self, pkg: usize, name: &str) -> Option<V<'a>> {
        match self.pkgs[pkg].globals.get(name)?.clone() {
            Global::Done(v) => Some(v),
            Global::Busy => Some(V::unknown(format!(
                "{name} is read while it is being initialised"
            ))),
            Global::Func(file, decl) => Some(V::Func(Rc::new(Func::Decl {
                file,
                decl,
                recv: None,
            }))),
            Global::Pending { file, expr, nth } => {
                self.pkgs[pkg]
                    .globals
                    .insert(name.to_string(), Global::Busy);
                let cx = Ctx {
                    file,
                    pkg,
                    scope: super::scope::root(),
                };
                let v = match expr {
                    Some(e) => self.eval(&cx, e),
                    // `var x T`: the zero value, which the program sets later.
                    None => V::Nil,
                };
                let v = match (nth, v) {
                    (Some(n), V::Tuple(mut vs)) if n < vs.len() => vs.swap_remove(n),
                    (Some(0), v) => v,
                    (Some(_), _) => V::unknown("one of a call's results"),
                    (None, v) => v.first(),
                };
                let v = self.copy(v);
                self.pkgs[pkg]
                    .globals
                    .insert(name.to_string(), Global::Done(v.clone()));
                Some(v)
            }
        }
    }

    /// A struct value bound anew is a copy; everything else is shared.
    pub(crate) fn copy(&mut self, v: V<'a>) -> V<'a> {
        match v {
            V::Struct(id) => {
                let o = self.heap[id].clone();
                V::Struct(self.alloc(o))
            }
            v => v,
        }
    }

    fn selector(&mut self, cx: &Ctx<'a>, s: &'a Selector) -> V<'a> {
        if let Expression::Ident(p) = &*s.x {
            let local =
                cx.scope.get(&p.name).is_some() || self.pkgs[cx.pkg].globals.contains_key(&p.name);
            if !local {
                if let Some(pkg) = self.package_of(cx.file, &p.name) {
                    return self.global(pkg, &s.sel.name).unwrap_or_else(|| {
                        V::unknown(format!(
                            "{}.{} is not set where it can be read",
                            p.name, s.sel.name
                        ))
                    });
                }
                if let Some(path) = self.path_of(cx.file, &p.name) {
                    return self.outside_value(&path, &p.name, &s.sel.name);
                }
            }
        }
        let x = self.eval(cx, &s.x);
        self.member(x, &s.sel.name)
    }

    /// `x.name`: a field (promoted through an embedded struct too), or a
    /// method of the files bound to `x`.
    pub(crate) fn member(&mut self, x: V<'a>, name: &str) -> V<'a> {
        let Some(id) = x.obj() else {
            return match x {
                V::Unknown(why) => V::Unknown(why),
                V::Str(s) if name == "String" => V::Str(s),
                other => V::unknown(format!("the field {name} of {}", short(&other))),
            };
        };
        if let Some(v) = self.field_of(id, name, 0) {
            return v;
        }
        if let Some(f) = self.method(&x, name) {
            return V::Func(Rc::new(f));
        }
        if let Some(v) = self.declared_zero(id, name) {
            return v;
        }
        V::unknown(format!("the field {name} is not set where it can be read"))
    }

    fn field_of(&self, id: usize, name: &str, depth: usize) -> Option<V<'a>> {
        let o = &self.heap[id];
        if let Some(v) = o.field(name) {
            return Some(v.clone());
        }
        if depth > 4 {
            return None;
        }
        // An embedded struct's fields are the outer one's.
        o.fields
            .iter()
            .filter(|(k, v)| is_embedded(k, v, &self.heap))
            .find_map(|(_, v)| self.field_of(v.obj()?, name, depth + 1))
    }

    /// A method of the files on `x`'s type (or on a struct it embeds).
    pub(crate) fn method(&self, x: &V<'a>, name: &str) -> Option<Func<'a>> {
        let id = x.obj()?;
        let mut cur = (id, x.clone());
        for _ in 0..4 {
            let o = &self.heap[cur.0];
            // A type no file declares (a paste): its methods wherever they are.
            let pkg = o.ty.pkg.or_else(|| {
                (o.ty.path.is_empty() && !o.ty.name.is_empty())
                    .then(|| {
                        (0..self.pkgs.len()).find(|p| {
                            self.methods
                                .contains_key(&(*p, o.ty.name.clone(), name.to_string()))
                        })
                    })
                    .flatten()
            });
            if let Some(pkg) = pkg {
                if let Some((file, decl)) =
                    self.methods
                        .get(&(pkg, o.ty.name.clone(), name.to_string()))
                {
                    return Some(Func::Decl {
                        file: *file,
                        decl,
                        recv: Some(V::Ref(cur.0)),
                    });
                }
            }
            let inner = o
                .fields
                .iter()
                .find(|(k, v)| is_embedded(k, v, &self.heap))
                .and_then(|(_, v)| Some((v.obj()?, v.clone())))?;
            cur = inner;
        }
        None
    }

    fn index_into(&mut self, left: V<'a>, key: V<'a>) -> V<'a> {
        let Some(id) = left.obj() else {
            return match left {
                V::Unknown(why) => V::Unknown(why),
                _ => V::unknown("an index into a value the reader does not hold"),
            };
        };
        match (&self.heap[id].kind, &key) {
            (Kind::Map(kv), k) => kv
                .iter()
                .find(|(key, _)| same(key, k))
                .or_else(|| {
                    // A kind whose group is not known ("Berth."): the one key of it.
                    let V::Str(prefix) = k else { return None };
                    let mut with = kv.iter().filter(|(key, _)| {
                        prefix.ends_with('.')
                            && matches!(key, V::Str(s) if s.starts_with(prefix.as_str()))
                    });
                    match (with.next(), with.next()) {
                        (Some(one), None) => Some(one),
                        _ => None,
                    }
                })
                .map(|(_, v)| v.clone())
                .or_else(|| self.heap[id].field("$zero").cloned())
                .unwrap_or_else(|| V::unknown("a key the map does not hold where it can be read")),
            (Kind::Slice(items), V::Num(n)) => items
                .get(*n as usize)
                .cloned()
                .unwrap_or_else(|| V::unknown("an index past the slice's end")),
            _ => V::unknown("an index the reader does not evaluate"),
        }
    }

    fn binary(
        &mut self,
        cx: &Ctx<'a>,
        op: Operator,
        x: &'a Expression,
        y: &'a Expression,
    ) -> V<'a> {
        let a = self.eval(cx, x);
        match (op, &a) {
            (Operator::AndAnd, V::Bool(false)) => return V::Bool(false),
            (Operator::OrOr, V::Bool(true)) => return V::Bool(true),
            _ => {}
        }
        let b = self.eval(cx, y);
        binary(op, a, b)
    }

    /// `T{…}`, `&T{…}`, `[]T{…}`, `map[K]V{…}`: a struct, slice or map,
    /// and client-go's `BucketRateLimiter` as the limiter it is.
    pub(crate) fn composite(&mut self, cx: &Ctx<'a>, c: &'a CompositeLit) -> V<'a> {
        match &*c.typ {
            Expression::TypeMap(m) => {
                let mut kv = Vec::new();
                for el in &c.val.values {
                    if let (Some(Element::Expr(k)), Element::Expr(v)) = (&el.key, &el.val) {
                        let k = self.eval(cx, k);
                        let v = self.eval(cx, v);
                        let v = self.copy(v);
                        kv.push((k, v));
                    }
                }
                let zero = self.zero(cx, &m.val);
                let mut o = Obj::new(Ty::default(), Kind::Map(kv));
                o.set("$zero", zero);
                return V::Ref(self.alloc(o));
            }
            Expression::TypeSlice(_) | Expression::TypeArray(_) => {
                let mut items = Vec::new();
                for el in &c.val.values {
                    if let Element::Expr(v) = &el.val {
                        let v = self.eval(cx, v);
                        let v = self.copy(v);
                        items.push(v);
                    }
                }
                return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Slice(items))));
            }
            _ => {}
        }
        let ty = self.type_of(cx, &c.typ);
        let mut fields = Vec::new();
        for el in &c.val.values {
            if let (Some(Element::Expr(Expression::Ident(k))), Element::Expr(v)) =
                (&el.key, &el.val)
            {
                let v = self.eval(cx, v);
                let v = self.copy(v);
                fields.push((k.name.clone(), v));
            }
        }
        self.name_queues(&ty.name, &fields);
        let outside = ty.pkg.is_none();
        let base = ty.name.strip_prefix("Typed").unwrap_or(&ty.name);
        if outside && base == "BucketRateLimiter" {
            return match fields.iter().find(|(k, _)| k == "Limiter").map(|(_, v)| v) {
                // The bucket is the rate.Limiter: two BucketRateLimiters
                // over one share it.
                // A number a scenario cannot hold is not read, said why.
                Some(V::Rate { qps, burst, id }) => {
                    match (
                        workqueue_core::Qps::new(*qps),
                        workqueue_core::Burst::new(*burst),
                    ) {
                        (Ok(qps), Ok(burst)) => {
                            V::Limiter(LimiterConfig::Bucket { qps, burst }, *id)
                        }
                        (Err(e), _) | (_, Err(e)) => V::Unknown(format!("rate.NewLimiter: {e}")),
                    }
                }
                Some(V::Unknown(why)) => V::Unknown(why.clone()),
                _ => V::unknown("a BucketRateLimiter without rate.NewLimiter(…)"),
            };
        }
        let kind = if outside && ty.name == "Config" && ty.path.ends_with("client-go/rest") {
            Kind::Config {
                origin: Origin::ClientGo,
                at: (cx.file, crate::found::pos(&c.typ)),
            }
        } else if outside && ty.name == "Command" {
            Kind::Command
        } else {
            Kind::Plain
        };
        let mut o = Obj::new(ty, kind);
        o.fields = fields;
        V::Struct(self.alloc(o))
    }

    /// A client-go queue without a name is named after the struct that
    /// holds it (`lanternController{queue: …}`: `lantern`), else its field.
    fn name_queues(&mut self, ty: &str, fields: &[(String, V<'a>)]) {
        // A `kind` the struct keeps beside its queue is the queue's kind.
        let kind = fields.iter().find_map(|(k, v)| match (k.as_str(), v) {
            ("kind" | "Kind", V::Str(s)) if !s.is_empty() => Some(s.clone()),
            _ => None,
        });
        for (field, v) in fields {
            if let (Some(k), Some(Kind::Queue(q))) = (&kind, v.obj().map(|id| &self.heap[id].kind))
            {
                let q = *q;
                self.ctrls[q].kind = k.clone();
            }
            let Some(Kind::Queue(q)) = v.obj().map(|id| &self.heap[id].kind) else {
                continue;
            };
            let q = *q;
            if !self.ctrls[q].name.is_empty() {
                continue;
            }
            if kind.is_some() {
                self.ctrls[q].name = self.ctrls[q].kind.to_lowercase();
                continue;
            }
            let mut base = ty.to_string();
            for suffix in ["Controller", "controller", "Reconciler", "Operator"] {
                if let Some(b) = base.strip_suffix(suffix).filter(|b| !b.is_empty()) {
                    base = b.to_string();
                }
            }
            let holder = base.clone();
            let name = match holder.is_empty()
                || fields
                    .iter()
                    .filter(|(_, v)| {
                        v.obj()
                            .is_some_and(|id| matches!(self.heap[id].kind, Kind::Queue(_)))
                    })
                    .count()
                    > 1
            {
                true => field.clone(),
                false => holder,
            };
            self.ctrls[q].name = name.to_lowercase();
            // A guess, taken when no informer's handler says the kind.
            let guess = {
                let mut cs = base.chars();
                cs.next().map_or(String::new(), |f| {
                    f.to_ascii_uppercase().to_string() + cs.as_str()
                })
            };
            self.ctrls[q].holder = Some((ty.to_string(), guess));
        }
    }

    /// A type's name and package: one of the files', or an import path.
    pub(crate) fn type_of(&self, cx: &Ctx<'a>, e: &Expression) -> Ty {
        match e {
            Expression::Selector(s) => {
                if let Expression::Ident(p) = &*s.x {
                    if let Some(pkg) = self.package_of(cx.file, &p.name) {
                        return Ty {
                            pkg: Some(pkg),
                            path: String::new(),
                            name: s.sel.name.clone(),
                        };
                    }
                    let path = self.imports[cx.file]
                        .get(&p.name)
                        .cloned()
                        .unwrap_or_else(|| p.name.clone());
                    return Ty {
                        pkg: None,
                        path,
                        name: s.sel.name.clone(),
                    };
                }
                Ty::default()
            }
            Expression::Index(i) => self.type_of(cx, &i.left),
            Expression::IndexList(i) => self.type_of(cx, &i.left),
            Expression::Star(s) => self.type_of(cx, &s.right),
            Expression::TypePointer(p) => self.type_of(cx, &p.typ),
            other => {
                let name = name_of(other).unwrap_or("").to_string();
                // A type of this package; in a paste without imports, the
                // one other package that declares it.
                let pkg = match self.pkgs[cx.pkg].types.contains(&name) {
                    true => Some(cx.pkg),
                    false => {
                        let mut with =
                            (0..self.pkgs.len()).filter(|p| self.pkgs[*p].types.contains(&name));
                        match (with.next(), with.next(), self.imports[cx.file].is_empty()) {
                            (Some(p), None, true) => Some(p),
                            _ => None,
                        }
                    }
                };
                Ty {
                    pkg,
                    path: String::new(),
                    name,
                }
            }
        }
    }
}

/// An embedded field: its name is its type's (`Options: xp.Options{…}`).
fn is_embedded(k: &str, v: &V<'_>, heap: &[Obj<'_>]) -> bool {
    v.obj()
        .is_some_and(|id| matches!(heap[id].kind, Kind::Plain) && heap[id].ty.name == k)
}

/// Two values Go's `==` finds equal.
pub(crate) fn same(a: &V<'_>, b: &V<'_>) -> bool {
    match (a, b) {
        (V::Num(x), V::Num(y)) => x == y,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Dur(x), V::Dur(y)) => x == y,
        (V::Nil, V::Nil) => true,
        (V::Ref(x), V::Ref(y)) => x == y,
        _ => false,
    }
}

/// A value in a note.
pub(crate) fn short(v: &V<'_>) -> String {
    match v {
        V::Num(n) => n.to_string(),
        V::Dur(d) => workqueue_core::format_go_duration(*d),
        V::Str(s) => format!("{s:?}"),
        V::Bool(b) => b.to_string(),
        V::Nil => "nil".into(),
        V::Unknown(why) => format!("unknown ({why})"),
        V::Limiter(l, _) => super::record::spelled(l),
        V::Func(_) => "a function".into(),
        _ => "a value the reader holds".into(),
    }
}

fn to_value(v: V<'_>) -> Value {
    match v {
        V::Num(n) => Value::Num(n),
        V::Dur(d) => Value::Dur(d),
        V::Str(s) => Value::Str(s),
        V::Bool(b) => Value::Bool(b),
        V::Unknown(why) => Value::Unknown(why),
        _ => Value::Unknown("arithmetic on a value that is not a number".into()),
    }
}

fn from_value<'a>(v: Value) -> V<'a> {
    match v {
        Value::Num(n) => V::Num(n),
        Value::Dur(d) => V::Dur(d),
        Value::Str(s) => V::Str(s),
        Value::Bool(b) => V::Bool(b),
        Value::Unknown(why) => V::Unknown(why),
    }
}

/// `&x` (a pointer to a struct value), `*p`, `-x`, `!b`.
pub(crate) fn unary(op: Operator, v: V<'_>) -> V<'_> {
    match (op, v) {
        (Operator::And, V::Struct(id)) => V::Ref(id),
        (Operator::Not, V::Bool(b)) => V::Bool(!b),
        (Operator::Not, V::Unknown(why)) => V::Unknown(why),
        (Operator::Not, _) => V::unknown("! of a value that is not a bool"),
        (Operator::And | Operator::Star | Operator::Arrow, v) => v,
        (op, v) => from_value(crate::num::unary(op, to_value(v))),
    }
}

/// A binary operator: comparisons, `&&`, `||`, `+` on strings, Go's
/// checked arithmetic on numbers and durations.
pub(crate) fn binary<'a>(op: Operator, a: V<'a>, b: V<'a>) -> V<'a> {
    use Operator as O;
    match (op, &a, &b) {
        (O::AndAnd | O::OrOr, V::Bool(x), V::Bool(y)) => {
            return V::Bool(if op == O::AndAnd { *x && *y } else { *x || *y })
        }
        (O::AndAnd, _, V::Bool(false)) => return V::Bool(false),
        (O::OrOr, _, V::Bool(true)) => return V::Bool(true),
        (_, V::Unknown(why), _) | (_, _, V::Unknown(why)) => return V::Unknown(why.clone()),
        (O::Equal, ..) => return V::Bool(same(&a, &b) || nil_pair(&a, &b)),
        (O::NotEqual, ..) => return V::Bool(!(same(&a, &b) || nil_pair(&a, &b))),
        (O::Add, V::Str(x), V::Str(y)) => return V::Str(format!("{x}{y}")),
        (O::Less | O::Greater | O::LessEqual | O::GreaterEqual, ..) => {
            let (x, y) = match (&a, &b) {
                (V::Num(x), V::Num(y)) => (*x, *y),
                (V::Dur(x), V::Dur(y)) => (x.as_nanos() as f64, y.as_nanos() as f64),
                _ => return V::unknown("a comparison the reader does not evaluate"),
            };
            return V::Bool(match op {
                O::Less => x < y,
                O::Greater => x > y,
                O::LessEqual => x <= y,
                _ => x >= y,
            });
        }
        _ => {}
    }
    from_value(crate::num::binary(op, to_value(a), to_value(b)))
}

/// A nil interface compared with an unset field: both are nil.
fn nil_pair(a: &V<'_>, b: &V<'_>) -> bool {
    matches!((a, b), (V::Nil, V::Nil))
}

impl<'a> Interp<'a> {
    /// The zero value of a type: 0, "", false, a zero duration, nil, or
    /// a struct with nothing set.
    pub(crate) fn zero(&mut self, cx: &Ctx<'a>, t: &Expression) -> V<'a> {
        match t {
            Expression::Ident(i) => match i.name.as_str() {
                "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16"
                | "uint32" | "uint64" | "float32" | "float64" | "byte" | "rune" => V::Num(0.0),
                "string" => V::Str(String::new()),
                "bool" => V::Bool(false),
                _ => self.zero_struct(cx, t),
            },
            Expression::Selector(s) => match (crate::eval::qualified(t), s.sel.name.as_str()) {
                (Some(("time", "Duration")), _) => V::Dur(workqueue_core::Duration::ZERO),
                _ => self.zero_struct(cx, t),
            },
            Expression::Index(_) | Expression::IndexList(_) => self.zero_struct(cx, t),
            _ => V::Nil,
        }
    }

    fn zero_struct(&mut self, cx: &Ctx<'a>, t: &Expression) -> V<'a> {
        let ty = self.type_of(cx, t);
        if ty.pkg.is_some()
            && !self
                .structs
                .contains_key(&(ty.pkg.unwrap_or(0), ty.name.clone()))
        {
            // A named type of the files that is not a struct (an int, a func).
            return V::Nil;
        }
        V::Struct(self.alloc(Obj::new(ty, Kind::Plain)))
    }

    /// A field a struct of the files declares and nothing set: its zero value.
    pub(crate) fn declared_zero(&mut self, id: usize, name: &str) -> Option<V<'a>> {
        let ty = self.heap[id].ty.clone();
        if ty.pkg.is_none() {
            return match (&self.heap[id].kind, name) {
                (Kind::Config { .. }, "QPS" | "Burst") => Some(V::Num(0.0)),
                (Kind::Config { .. }, "RateLimiter") => Some(V::Nil),
                _ => None,
            };
        }
        let pkg = ty.pkg.unwrap_or(0);
        let t = self
            .structs
            .get(&(pkg, ty.name.clone()))?
            .iter()
            .find(|(f, _)| f == name)
            .map(|(_, t)| *t)?;
        let cx = Ctx {
            file: self.pkg_file(pkg),
            pkg,
            scope: super::scope::root(),
        };
        let v = self.zero(&cx, t);
        self.heap[id].set(name, v.clone());
        Some(v)
    }
}
