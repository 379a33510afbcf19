//! Statements: assignments to names, fields and map entries; `if` on
//! what is known; loops run as Go runs them (at most [`MAX_ITERATIONS`]);
//! `go` statements, which start workers; `return`, `break`, `continue`.

use gosyn::ast::{AssignStmt, DeclStmt, Expression, Statement};
use gosyn::token::{Keyword, Operator};

use super::scope::child;
use super::val::{Kind, V};
use super::{Ctx, Global, Interp, MAX_DEPTH, MAX_ITERATIONS};

/// How a block ended.
pub(crate) enum Flow<'a> {
    Normal,
    Return(V<'a>),
    Break,
    Continue,
}

impl<'a> Interp<'a> {
    /// A block in its own scope.
    pub(crate) fn block(&mut self, cx: &Ctx<'a>, list: &'a [Statement]) -> Flow<'a> {
        let inner = Ctx {
            scope: child(&cx.scope),
            ..cx.clone()
        };
        self.block_in(&inner, list)
    }

    /// A block in `cx`'s scope (a function's body in its parameters').
    pub(crate) fn block_in(&mut self, cx: &Ctx<'a>, list: &'a [Statement]) -> Flow<'a> {
        for s in list {
            if self.exhausted() {
                return Flow::Return(V::unknown("the budget ran out"));
            }
            if self.stack.is_empty() {
                self.anchor = (cx.file, stmt_pos(s));
            }
            let f = self.stmt(cx, s);
            match f {
                Flow::Normal => {}
                other => return other,
            }
        }
        Flow::Normal
    }

    fn stmt(&mut self, cx: &Ctx<'a>, s: &'a Statement) -> Flow<'a> {
        if !self.step() || self.depth >= MAX_DEPTH {
            return Flow::Normal;
        }
        self.depth += 1;
        let f = self.stmt_inner(cx, s);
        self.depth -= 1;
        f
    }

    fn stmt_inner(&mut self, cx: &Ctx<'a>, s: &'a Statement) -> Flow<'a> {
        match s {
            Statement::Assign(a) => self.assign(cx, a),
            Statement::IncDec(i) => {
                let v = self.eval(cx, &i.expr);
                let op = if i.op == Operator::Inc {
                    Operator::Add
                } else {
                    Operator::Sub
                };
                let v = super::expr::binary(op, v, V::Num(1.0));
                self.store(cx, &i.expr, v, false);
            }
            Statement::Declaration(DeclStmt::Variable(d)) => {
                for spec in &d.specs {
                    self.define_all(cx, &spec.name, &spec.values, spec.typ.as_ref());
                }
            }
            Statement::Declaration(DeclStmt::Const(d)) => {
                for spec in &d.specs {
                    self.define_all(cx, &spec.name, &spec.values, spec.typ.as_ref());
                }
            }
            Statement::Declaration(DeclStmt::Type(_)) => {}
            Statement::Expr(e) => {
                self.eval(cx, &e.expr);
            }
            Statement::Return(r) => {
                let v = match r.ret.as_slice() {
                    [] => V::Nil,
                    [one] => self.eval(cx, one),
                    many => {
                        let vs = many.iter().map(|e| self.eval(cx, e)).collect();
                        V::Tuple(vs)
                    }
                };
                return Flow::Return(v);
            }
            Statement::If(i) => {
                let cx = Ctx {
                    scope: child(&cx.scope),
                    ..cx.clone()
                };
                if let Some(init) = &i.init {
                    if let f @ Flow::Return(_) = self.stmt(&cx, init) {
                        return f;
                    }
                }
                match self.eval(&cx, &i.cond) {
                    V::Bool(true) => return self.block(&cx, &i.body.list),
                    V::Bool(false) => {}
                    other => {
                        // Unknown: an error path (its body ends the function
                        // or the loop) is taken not to happen; other code runs.
                        if terminates(&i.body.list) {
                            // skip
                        } else {
                            let why = match other {
                                V::Unknown(why) => why,
                                _ => "not a bool".into(),
                            };
                            self.note(
                                false,
                                cx.file,
                                i.pos,
                                format!(
                                    "the condition is not known ({why}): its block is read as run"
                                ),
                            );
                            // A return there is not taken: it may not happen.
                            self.guessed = true;
                            return match self.block(&cx, &i.body.list) {
                                Flow::Return(_) => Flow::Normal,
                                other => other,
                            };
                        }
                    }
                }
                if let Some(e) = &i.else_ {
                    return self.stmt(&cx, e);
                }
            }
            Statement::Block(b) => return self.block(cx, &b.list),
            Statement::Label(l) => return self.stmt(cx, &l.stmt),
            Statement::Branch(b) => match b.key {
                Keyword::Break => return Flow::Break,
                Keyword::Continue => return Flow::Continue,
                _ => {}
            },
            Statement::For(f) => return self.for_loop(cx, f),
            Statement::Range(r) => return self.range(cx, r),
            Statement::Switch(sw) => {
                let cx = Ctx {
                    scope: child(&cx.scope),
                    ..cx.clone()
                };
                if let Some(init) = &sw.init {
                    self.stmt(&cx, init);
                }
                let tag = match &sw.tag {
                    Some(t) => self.eval(&cx, t),
                    None => V::Bool(true),
                };
                let mut chosen = None;
                'clauses: for clause in &sw.block.body {
                    for e in &clause.list {
                        let v = self.eval(&cx, e);
                        if super::expr::same(&tag, &v) {
                            chosen = Some(clause);
                            break 'clauses;
                        }
                    }
                }
                let chosen = chosen.or_else(|| sw.block.body.iter().find(|c| c.list.is_empty()));
                if let Some(clause) = chosen {
                    return match self.block(&cx, &clause.body) {
                        Flow::Break => Flow::Normal,
                        other => other,
                    };
                }
            }
            Statement::Go(g) => self.go(cx, &g.call),
            Statement::Defer(_)
            | Statement::Select(_)
            | Statement::TypeSwitch(_)
            | Statement::Send(_)
            | Statement::Empty(_) => {}
        }
        Flow::Normal
    }

    fn for_loop(&mut self, cx: &Ctx<'a>, f: &'a gosyn::ast::ForStmt) -> Flow<'a> {
        let cx = Ctx {
            scope: child(&cx.scope),
            ..cx.clone()
        };
        if let Some(init) = &f.init {
            self.stmt(&cx, init);
        }
        for n in 0..MAX_ITERATIONS {
            if self.exhausted() {
                break;
            }
            match f.cond.as_deref() {
                None if n > 0 => break,
                None => {}
                Some(Statement::Expr(e)) => match self.eval(&cx, &e.expr) {
                    V::Bool(true) => {}
                    V::Bool(false) => break,
                    other => {
                        let why = match other {
                            V::Unknown(w) => w,
                            _ => "not a bool".into(),
                        };
                        if n == 0 {
                            return self.once_unknown(&cx, &f.body.list, f.pos, why);
                        }
                        break;
                    }
                },
                Some(_) => break,
            }
            match self.block(&cx, &f.body.list) {
                Flow::Break => break,
                f @ Flow::Return(_) => return f,
                _ => {}
            }
            if let Some(post) = &f.post {
                self.stmt(&cx, post);
            }
        }
        Flow::Normal
    }

    /// A loop whose count is not known: its body read once, and what it
    /// starts said to be of an unknown count.
    fn once_unknown(
        &mut self,
        cx: &Ctx<'a>,
        body: &'a [Statement],
        pos: usize,
        why: String,
    ) -> Flow<'a> {
        self.note(false, cx.file, pos, format!("a loop runs a number of times the reader cannot tell ({why}): its body is read once"));
        self.guessed = true;
        let outer = self.loop_unknown.replace(why);
        // A return inside is not taken: the loop may not run.
        self.block(cx, body);
        self.loop_unknown = outer;
        Flow::Normal
    }

    fn range(&mut self, cx: &Ctx<'a>, r: &'a gosyn::ast::RangeStmt) -> Flow<'a> {
        let over = self.eval(cx, &r.expr);
        let pairs: Vec<(V<'a>, V<'a>)> = match (&over, over.obj().map(|id| &self.heap[id].kind)) {
            (_, Some(Kind::Slice(items))) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (V::Num(i as f64), v.clone()))
                .collect(),
            (_, Some(Kind::Map(kv))) => kv.clone(),
            (V::Num(n), _) if *n >= 0.0 => (0..(*n as usize).min(MAX_ITERATIONS))
                .map(|i| (V::Num(i as f64), V::Nil))
                .collect(),
            (V::Nil, _) => Vec::new(),
            (other, _) => {
                let why = match other {
                    V::Unknown(w) => w.clone(),
                    _ => "a range the reader does not iterate".into(),
                };
                let cx = Ctx {
                    scope: child(&cx.scope),
                    ..cx.clone()
                };
                for e in [&r.key, &r.value].into_iter().flatten() {
                    if let Expression::Ident(i) = e {
                        cx.scope.define(&i.name, V::unknown(why.clone()));
                    }
                }
                return self.once_unknown(&cx, &r.body.list, r.pos.0, why);
            }
        };
        let define = matches!(r.op, Some((_, Operator::Define)));
        for (k, v) in pairs.into_iter().take(MAX_ITERATIONS) {
            if self.exhausted() {
                break;
            }
            let cx = Ctx {
                scope: child(&cx.scope),
                ..cx.clone()
            };
            for (e, val) in [(&r.key, k), (&r.value, v)] {
                if let Some(e) = e {
                    self.store(&cx, e, val, define);
                }
            }
            match self.block(&cx, &r.body.list) {
                Flow::Break => break,
                f @ Flow::Return(_) => return f,
                _ => {}
            }
        }
        Flow::Normal
    }

    fn define_all(
        &mut self,
        cx: &Ctx<'a>,
        names: &'a [gosyn::ast::Ident],
        values: &'a [Expression],
        typ: Option<&'a Expression>,
    ) {
        let vals: Vec<V<'a>> = if values.len() == 1 && names.len() > 1 {
            match self.eval(cx, &values[0]) {
                V::Tuple(vs) => vs,
                other => vec![other],
            }
        } else {
            values.iter().map(|e| self.eval(cx, e).first()).collect()
        };
        let mut vals = vals.into_iter();
        for n in names {
            let v = match vals.next() {
                Some(v) => v,
                None => match typ {
                    Some(t) => self.zero(cx, t),
                    None => V::Nil,
                },
            };
            let v = self.copy(v);
            cx.scope.define(&n.name, v);
        }
    }

    fn assign(&mut self, cx: &Ctx<'a>, a: &'a AssignStmt) {
        let define = a.op == Operator::Define;
        if !matches!(a.op, Operator::Assign | Operator::Define) {
            // `x += y` and the like.
            let op = match a.op {
                Operator::AddAssign => Operator::Add,
                Operator::SubAssign => Operator::Sub,
                Operator::MulAssign => Operator::Star,
                Operator::QuoAssign => Operator::Quo,
                _ => return,
            };
            if let (Some(l), Some(r)) = (a.left.first(), a.right.first()) {
                let x = self.eval(cx, l);
                let y = self.eval(cx, r);
                let v = super::expr::binary(op, x, y);
                self.store(cx, l, v, false);
            }
            return;
        }
        let vals: Vec<V<'a>> = if a.right.len() == 1 && a.left.len() > 1 {
            match self.eval(cx, &a.right[0]) {
                V::Tuple(vs) => vs,
                other => {
                    let why = match other {
                        V::Unknown(w) => w,
                        _ => "one of a call's results".into(),
                    };
                    a.left.iter().map(|_| V::unknown(why.clone())).collect()
                }
            }
        } else {
            a.right.iter().map(|e| self.eval(cx, e).first()).collect()
        };
        for (l, v) in a.left.iter().zip(vals) {
            self.store(cx, l, v, define);
        }
    }

    /// `name := v`, `name = v`, `x.f = v`, `m[k] = v`.
    pub(crate) fn store(&mut self, cx: &Ctx<'a>, left: &'a Expression, v: V<'a>, define: bool) {
        let v = self.copy(v);
        match left {
            Expression::Ident(n) if define => cx.scope.define(&n.name, v),
            Expression::Ident(n)
                if !cx.scope.set(&n.name, v.clone())
                    && self.pkgs[cx.pkg].globals.contains_key(&n.name) =>
            {
                self.pkgs[cx.pkg]
                    .globals
                    .insert(n.name.clone(), Global::Done(v));
            }
            Expression::Ident(_) => {}
            Expression::Selector(s) => {
                let x = self.eval(cx, &s.x);
                let field = s.sel.name.as_str();
                if let ("Burst", V::Num(b)) = (field, &v) {
                    if let Err(why) = crate::num::whole::<i64>(*b, "Burst") {
                        self.note(
                            false,
                            cx.file,
                            s.pos,
                            format!(
                                "rest.Config.Burst: {why}: set the client limit in the scenario"
                            ),
                        );
                        return;
                    }
                }
                if let (true, V::Unknown(why)) =
                    (matches!(field, "QPS" | "Burst" | "RateLimiter"), &x)
                {
                    let what = crate::eval::describe(&s.x);
                    self.note(false, cx.file, s.pos, format!("{what}.{field} is set, but {what} is not a config the reader holds ({why})"));
                }
                if let Some(id) = x.obj() {
                    self.heap[id].set(&s.sel.name, v);
                } else if let Expression::Ident(p) = &*s.x {
                    // A package's variable: `pkg.X = v`.
                    if let Some(pkg) = self.package_of(cx.file, &p.name) {
                        if self.pkgs[pkg].globals.contains_key(&s.sel.name) {
                            self.pkgs[pkg]
                                .globals
                                .insert(s.sel.name.clone(), Global::Done(v));
                        }
                    }
                }
            }
            Expression::Index(i) => {
                let m = self.eval(cx, &i.left);
                let k = self.eval(cx, &i.index);
                if let Some(id) = m.obj() {
                    match &mut self.heap[id].kind {
                        Kind::Map(kv) => {
                            match kv.iter_mut().find(|(key, _)| super::expr::same(key, &k)) {
                                Some(slot) => slot.1 = v,
                                None => kv.push((k, v)),
                            }
                        }
                        Kind::Slice(items) => {
                            if let V::Num(n) = k {
                                if let Some(slot) = items.get_mut(n as usize) {
                                    *slot = v;
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            Expression::Star(s) => self.store(cx, &s.right, v, false),
            Expression::Paren(p) => self.store(cx, &p.expr, v, define),
            _ => {}
        }
    }
}

/// Whether a block ends its function or loop: an error path.
pub(crate) fn terminates(list: &[Statement]) -> bool {
    match list.last() {
        Some(Statement::Return(_)) | Some(Statement::Branch(_)) => true,
        Some(Statement::Expr(e)) => match &e.expr {
            Expression::Call(c) => matches!(
                crate::eval::name_of(&c.func),
                Some(
                    "panic"
                        | "Exit"
                        | "Fatal"
                        | "Fatalf"
                        | "Fatalln"
                        | "Panic"
                        | "Panicf"
                        | "Goexit"
                )
            ),
            _ => false,
        },
        _ => false,
    }
}

/// Where a statement starts (for the budget's line).
pub(crate) fn stmt_pos(s: &Statement) -> usize {
    match s {
        Statement::Assign(a) => a.pos,
        Statement::Expr(e) => crate::found::pos(&e.expr),
        Statement::Return(r) => r.pos,
        Statement::If(i) => i.pos,
        Statement::For(f) => f.pos,
        Statement::Range(r) => r.pos.0,
        Statement::Go(g) => g.pos,
        Statement::Declaration(DeclStmt::Variable(d)) => d
            .specs
            .first()
            .and_then(|s| s.name.first())
            .map_or(0, |n| n.pos),
        Statement::Switch(s) => s.pos,
        Statement::Block(b) => b.pos.0,
        Statement::IncDec(i) => i.pos,
        _ => 0,
    }
}
