//! Calls: Go's builtins, conversions, the files' functions and methods
//! (each argument bound to its parameter, the receiver to its name),
//! function values and closures; calls into packages outside the files go
//! to [`super::outside`].

use std::collections::HashSet;

use gosyn::ast::{Call, Expression, FieldList, File};

use super::scope::{child, root};
use super::stmt::Flow;
use super::val::{Func, Kind, Obj, Ty, V};
use super::{Ctx, Interp, MAX_CALLS};

impl<'a> Interp<'a> {
    pub(crate) fn call(&mut self, cx: &Ctx<'a>, c: &'a Call) -> V<'a> {
        let site = (cx.file, c.pos.0);
        // `F[T](…)`: the generic function `F`.
        let mut func: &'a Expression = &c.func;
        loop {
            func = match func {
                Expression::Index(i) => &i.left,
                Expression::IndexList(i) => &i.left,
                Expression::Paren(p) => &p.expr,
                _ => break,
            };
        }
        match func {
            Expression::Ident(i) if cx.scope.get(&i.name).is_none() => {
                if let Some(v) = self.builtin(cx, &i.name, c) {
                    return v;
                }
                if self.pkgs[cx.pkg].types.contains(&i.name) && c.args.len() == 1 {
                    return self.eval(cx, &c.args[0]);
                }
            }
            Expression::Selector(s) => {
                if let Expression::Ident(p) = &*s.x {
                    let local = cx.scope.get(&p.name).is_some()
                        || self.pkgs[cx.pkg].globals.contains_key(&p.name);
                    if !local {
                        if let Some(pkg) = self.package_of(cx.file, &p.name) {
                            if self.pkgs[pkg].types.contains(&s.sel.name) && c.args.len() == 1 {
                                return self.eval(cx, &c.args[0]);
                            }
                            let f = self.global(pkg, &s.sel.name);
                            let args = self.args(cx, c);
                            return match f {
                                Some(V::Func(f)) => self.call_func(&f, args, site, false),
                                _ => V::unknown(format!(
                                    "{}.{} is not a function of the files",
                                    p.name, s.sel.name
                                )),
                            };
                        }
                        if let Some(path) = self.path_of(cx.file, &p.name) {
                            return self.outside_fn(cx, &path, &p.name, &s.sel.name, c);
                        }
                    }
                }
                let recv = self.eval(cx, &s.x);
                if let Some(f) = self.method(&recv, &s.sel.name) {
                    let args = self.args(cx, c);
                    return self.call_func(&f, args, site, false);
                }
                if let Some(id) = recv.obj() {
                    if let Some(V::Func(f)) = self.heap[id].field(&s.sel.name).cloned() {
                        let args = self.args(cx, c);
                        return self.call_func(&f, args, site, false);
                    }
                }
                return self.outside_method(cx, recv, &s.sel.name, c);
            }
            _ => {}
        }
        let f = self.eval(cx, func);
        match f {
            V::Func(f) => {
                let args = self.args(cx, c);
                self.call_func(&f, args, site, false)
            }
            V::Unknown(why) => V::Unknown(why),
            _ => {
                if c.args.len() == 1 {
                    // A conversion to a type of another package.
                    return self.eval(cx, &c.args[0]);
                }
                V::unknown(format!("the call {}(…)", crate::eval::describe(&c.func)))
            }
        }
    }

    /// The arguments' values, a final `xs...` spread.
    pub(crate) fn args(&mut self, cx: &Ctx<'a>, c: &'a Call) -> Vec<V<'a>> {
        let mut out = Vec::with_capacity(c.args.len());
        for (i, a) in c.args.iter().enumerate() {
            let v = self.eval(cx, a);
            let spread = c.dots.is_some() && i + 1 == c.args.len();
            match (spread, v.obj().map(|id| &self.heap[id].kind)) {
                (true, Some(Kind::Slice(items))) => out.extend(items.clone()),
                _ => out.push(v),
            }
        }
        out
    }

    /// Go's own functions and conversions.
    fn builtin(&mut self, cx: &Ctx<'a>, name: &str, c: &'a Call) -> Option<V<'a>> {
        if self.global(cx.pkg, name).is_some() {
            return None;
        }
        let arg0 = c.args.first();
        Some(match name {
            "float32" | "float64" | "int" | "int8" | "int16" | "int32" | "int64" | "uint"
            | "uint8" | "uint16" | "uint32" | "uint64" | "string" | "byte" | "rune" => match arg0 {
                // A conversion to an integer drops the fraction.
                Some(a) if c.args.len() == 1 => {
                    match (
                        self.eval(cx, a),
                        name.starts_with("int") || name.starts_with("uint"),
                    ) {
                        (V::Num(n), true) => V::Num(n.trunc()),
                        (v, _) => v,
                    }
                }
                _ => V::unknown("a conversion without one argument"),
            },
            "len" => {
                let v = arg0.map(|a| self.eval(cx, a));
                match v.as_ref().and_then(V::obj).map(|id| &self.heap[id].kind) {
                    Some(Kind::Slice(s)) => V::Num(s.len() as f64),
                    Some(Kind::Map(m)) => V::Num(m.len() as f64),
                    // The zero value of a map or slice type of another
                    // package (`sets.Set[T]`): nil, of length 0.
                    Some(Kind::Plain)
                        if v.as_ref()
                            .and_then(V::obj)
                            .is_some_and(|id| self.heap[id].fields.is_empty()) =>
                    {
                        V::Num(0.0)
                    }
                    _ => match v {
                        Some(V::Str(s)) => V::Num(s.len() as f64),
                        Some(V::Nil) => V::Num(0.0),
                        _ => V::unknown("the length of a value the reader does not hold"),
                    },
                }
            }
            "append" => {
                let mut args = self.args(cx, c);
                if args.is_empty() {
                    return Some(V::unknown("append without a slice"));
                }
                let first = args.remove(0);
                let mut items = match first.obj().map(|id| &self.heap[id].kind) {
                    Some(Kind::Slice(s)) => s.clone(),
                    _ if matches!(first, V::Nil) => Vec::new(),
                    _ => return Some(V::unknown("append to a slice the reader does not hold")),
                };
                items.extend(args);
                V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Slice(items))))
            }
            "make" => match c.args.first() {
                Some(Expression::TypeMap(m)) => {
                    let zero = self.zero(cx, &m.val);
                    let mut o = Obj::new(Ty::default(), Kind::Map(Vec::new()));
                    o.set("$zero", zero);
                    V::Ref(self.alloc(o))
                }
                Some(Expression::TypeSlice(_)) => {
                    V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Slice(Vec::new()))))
                }
                _ => V::unknown("a channel"),
            },
            "new" => {
                // Go 1.26's `new(false)`: a pointer to the value.
                if let Some(a) = arg0.filter(|a| !is_type(a)) {
                    if let v @ (V::Bool(_) | V::Num(_) | V::Str(_) | V::Dur(_)) = self.eval(cx, a) {
                        return Some(v);
                    }
                }
                let ty = arg0.map(|t| self.type_of(cx, t)).unwrap_or_default();
                V::Ref(self.alloc(Obj::new(ty, Kind::Plain)))
            }
            "min" | "max" if !c.args.is_empty() => {
                let mut best: Option<f64> = None;
                for a in &c.args {
                    match self.eval(cx, a) {
                        V::Num(n) => {
                            best = Some(match (best, name) {
                                (None, _) => n,
                                (Some(b), "min") => b.min(n),
                                (Some(b), _) => b.max(n),
                            })
                        }
                        V::Unknown(w) => return Some(V::Unknown(w)),
                        _ => return Some(V::unknown("min or max of values that are not numbers")),
                    }
                }
                best.map_or(V::Nil, V::Num)
            }
            "panic" | "print" | "println" | "close" | "delete" | "copy" | "clear" => V::Nil,
            _ => return None,
        })
    }

    /// Calls a function value with the arguments' values: parameters bound
    /// in a new scope (its package's, or the closure's), the body run.
    pub(crate) fn call_func(
        &mut self,
        f: &Func<'a>,
        args: Vec<V<'a>>,
        site: (usize, usize),
        root_run: bool,
    ) -> V<'a> {
        if self.exhausted() {
            return V::unknown("the budget ran out");
        }
        if self.calls >= MAX_CALLS {
            return V::unknown(format!("calls nested more than {MAX_CALLS} deep"));
        }
        let (file, params, body, scope, recv) = match f {
            Func::Decl { file, decl, recv } => {
                let Some(body) = &decl.body else {
                    return V::unknown(format!("{} has no body", decl.name.name));
                };
                let recv_name = decl
                    .recv
                    .as_ref()
                    .and_then(|r| r.list.first())
                    .and_then(|f| f.name.first())
                    .map(|n| n.name.clone());
                (
                    *file,
                    &decl.typ.params,
                    body,
                    root(),
                    recv_name.zip(recv.clone()),
                )
            }
            Func::Lit { file, lit, scope } => {
                (*file, &lit.typ.params, &lit.body, child(scope), None)
            }
        };
        if let Some((name, v)) = recv {
            scope.define(&name, v);
        }
        self.bind_params(&scope, params, args, root_run);
        let cx = Ctx {
            file,
            pkg: self.file_pkg[file],
            scope,
        };
        if !root_run {
            self.stack.push(site);
        }
        self.calls += 1;
        let outer = std::mem::replace(&mut self.guessed, false);
        let flow = self.block_in(&cx, &body.list);
        let guessed = std::mem::replace(&mut self.guessed, outer);
        self.calls -= 1;
        if !root_run {
            self.stack.pop();
        }
        // A yes or no found after a guess (a check of what the cluster
        // has) is not known.
        let answer = |v: V<'a>| match v {
            V::Bool(_) if guessed => {
                V::unknown("an answer that depends on what the program finds where it runs")
            }
            v => v,
        };
        match flow {
            Flow::Return(V::Tuple(vs)) => V::Tuple(vs.into_iter().map(answer).collect()),
            Flow::Return(v) => answer(v),
            _ => V::Nil,
        }
    }

    pub(crate) fn bind_params(
        &mut self,
        scope: &super::scope::Scope<'a>,
        params: &'a FieldList,
        args: Vec<V<'a>>,
        root_run: bool,
    ) {
        let mut args = args.into_iter();
        let n = params.list.len();
        for (i, field) in params.list.iter().enumerate() {
            let variadic = i + 1 == n && matches!(field.typ, Expression::Ellipsis(_));
            for name in &field.name {
                let v = if variadic {
                    let rest: Vec<V<'a>> = args.by_ref().collect();
                    V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Slice(rest))))
                } else {
                    match args.next() {
                        Some(v) => self.copy(v),
                        None if root_run => V::unknown(format!(
                            "the parameter {}: nothing in the files calls this function",
                            name.name
                        )),
                        None => V::unknown(format!("the parameter {} is not passed", name.name)),
                    }
                };
                scope.define(&name.name, v);
            }
            if field.name.is_empty() {
                args.next();
            }
        }
    }
}

/// Whether an expression is written as a type (`new(T)`, `new([]int)`).
fn is_type(e: &Expression) -> bool {
    match e {
        Expression::Ident(i) => !matches!(i.name.as_str(), "true" | "false"),
        Expression::Selector(_)
        | Expression::Index(_)
        | Expression::IndexList(_)
        | Expression::TypeMap(_)
        | Expression::TypeArray(_)
        | Expression::TypeSlice(_)
        | Expression::TypeFunction(_)
        | Expression::TypeStruct(_)
        | Expression::TypeChannel(_)
        | Expression::TypePointer(_)
        | Expression::TypeInterface(_)
        | Expression::Star(_) => true,
        _ => false,
    }
}

/// The names a file calls or takes as a value: functions (`f(…)`,
/// `pkg.F(…)`, `f` as a value) and methods (`x.m(…)`, `x.m`). A function or
/// method named nowhere is where a paste without `main` starts.
pub(crate) fn names_used(
    file: &File,
    imports: &std::collections::HashMap<String, String>,
    funcs: &mut HashSet<String>,
    methods: &mut HashSet<String>,
) {
    use gosyn::ast::Declaration;
    for d in &file.decl {
        if let Declaration::Function(f) = d {
            if let Some(b) = &f.body {
                super::workers::visit_block(&b.list, &mut |e| match e {
                    Expression::Selector(s) => {
                        methods.insert(s.sel.name.clone());
                        if let Expression::Ident(p) = &*s.x {
                            if imports.contains_key(&p.name) {
                                funcs.insert(s.sel.name.clone());
                            }
                        }
                    }
                    Expression::Ident(i) => {
                        funcs.insert(i.name.clone());
                    }
                    _ => {}
                });
            }
        }
    }
}
