//! Workers of client-go queues: a goroutine whose function drains a queue
//! (calls its `Get()`, directly or through the methods and closures it
//! calls) is one worker of that queue. `go f()`, `wait.Until(f, …)`,
//! `group.Go(f)` start one; loops start one per iteration, as they run.
//! A goroutine that drains nothing itself is run as a call: it may start
//! the workers (`go c.Run(workers, ctx)`).

use gosyn::ast::{Call, Element, Expression, Statement};

use super::scope::{child, root};
use super::val::{Func, Kind, V};
use super::{Ctx, Interp};

/// How deep the scan for a worker's `Get()` follows calls.
const SCAN_DEPTH: usize = 4;

impl<'a> Interp<'a> {
    /// `go call`.
    pub(crate) fn go(&mut self, cx: &Ctx<'a>, call: &'a Call) {
        let site = (cx.file, call.pos.0);
        // `go wait.Until(f, …)`: `f` is the goroutine's loop.
        if let Some(("wait", _)) = crate::eval::qualified(&call.func) {
            self.outside_fn(
                cx,
                "k8s.io/apimachinery/pkg/util/wait",
                "wait",
                crate::eval::name_of(&call.func).unwrap_or(""),
                call,
            );
            return;
        }
        let f = match &*call.func {
            Expression::FuncLit(_) => self.eval(cx, &call.func),
            Expression::Selector(s) => {
                let recv = self.eval(cx, &s.x);
                match self.method(&recv, &s.sel.name) {
                    Some(f) => V::Func(std::rc::Rc::new(f)),
                    None => self.member(recv, &s.sel.name),
                }
            }
            other => self.eval(cx, other),
        };
        let args = self.args(cx, call);
        self.start(f, args, site);
    }

    /// A goroutine running `f`: a worker of each queue it drains, else a
    /// call that may start them.
    pub(crate) fn start(&mut self, f: V<'a>, args: Vec<V<'a>>, site: (usize, usize)) {
        let V::Func(func) = f else {
            return;
        };
        let before = self.retries_seen.len();
        let queues = self.drains(&func, args.clone(), 0).unwrap_or_default();
        let retries = self
            .retries_seen
            .split_off(before.min(self.retries_seen.len()));
        if queues.is_empty() {
            self.call_func(&func, args, site, false);
            return;
        }
        self.retry_limits(&queues, retries);
        for q in queues {
            let c = &mut self.ctrls[q];
            c.workers = c.workers.saturating_add(1);
            if let Some(why) = &self.loop_unknown {
                c.workers_unknown = Some(why.clone());
            }
            let (file, p) = site;
            let name = c.name.clone();
            self.note(
                true,
                file,
                p,
                format!(
                    "a goroutine draining the queue {}: one worker each time it runs",
                    if name.is_empty() {
                        "built here".to_string()
                    } else {
                        format!("{name:?}")
                    }
                ),
            );
        }
    }

    /// The queues (controllers' indexes) `f` calls `Get()` on; `None` when
    /// it starts goroutines itself (it starts workers, it is none).
    fn drains(&mut self, f: &Func<'a>, args: Vec<V<'a>>, depth: usize) -> Option<Vec<usize>> {
        self.scan_queues(f, args, depth, Scan::Get)
    }

    /// The queues `f` adds keys to (`Add`, `AddRateLimited`, `AddAfter`),
    /// directly or through the methods and closures it calls: what an
    /// informer's event handler feeds.
    pub(crate) fn feeds(&mut self, f: &Func<'a>) -> Vec<usize> {
        self.scan_queues(f, Vec::new(), 0, Scan::Add)
            .unwrap_or_default()
    }

    fn scan_queues(
        &mut self,
        f: &Func<'a>,
        args: Vec<V<'a>>,
        depth: usize,
        mode: Scan,
    ) -> Option<Vec<usize>> {
        if depth > SCAN_DEPTH {
            return Some(Vec::new());
        }
        let (cx, body) = match f {
            Func::Decl { file, decl, recv } => {
                let Some(body) = &decl.body else {
                    return Some(Vec::new());
                };
                let scope = root();
                if let (Some(name), Some(v)) = (
                    decl.recv
                        .as_ref()
                        .and_then(|r| r.list.first())
                        .and_then(|f| f.name.first()),
                    recv,
                ) {
                    scope.define(&name.name, v.clone());
                }
                self.bind_params(&scope, &decl.typ.params, args, false);
                let cx = Ctx {
                    file: *file,
                    pkg: self.file_pkg[*file],
                    scope,
                };
                (cx, &body.list)
            }
            Func::Lit { file, lit, scope } => {
                let scope = child(scope);
                self.bind_params(&scope, &lit.typ.params, args, false);
                (
                    Ctx {
                        file: *file,
                        pkg: self.file_pkg[*file],
                        scope,
                    },
                    &lit.body.list,
                )
            }
        };
        if mode == Scan::Get {
            if starts_goroutines(body) {
                return None;
            }
            self.scan_retries(&cx, body);
        }
        let mut calls: Vec<&'a Call> = Vec::new();
        let mut lits: Vec<&'a Expression> = Vec::new();
        visit_block_no_go(body, &mut |e| match e {
            Expression::Call(c) => calls.push(c),
            Expression::FuncLit(_) => lits.push(e),
            _ => {}
        });
        let mut out = Vec::new();
        for c in calls {
            // Arguments that are names or fields (a queue passed on).
            let args: Vec<V<'a>> = c
                .args
                .iter()
                .map(|a| match pure(a) {
                    true => self.eval(&cx, a),
                    false => V::unknown("an argument the scan does not evaluate"),
                })
                .collect();
            // `pkg.RunWorker(ctx, c.queue, …)`: a function of another of the
            // files' packages, the queue passed to it.
            if let Expression::Selector(s) = &*c.func {
                if let Expression::Ident(p) = &*s.x {
                    if cx.scope.get(&p.name).is_none() {
                        if let Some(pkg) = self.package_of(cx.file, &p.name) {
                            if let Some(V::Func(g)) = self.global(pkg, &s.sel.name) {
                                out.extend(self.scan_queues(&g, args, depth + 1, mode)?);
                            }
                            continue;
                        }
                    }
                }
            }
            let Expression::Selector(s) = &*c.func else {
                if let Expression::Ident(_) = &*c.func {
                    if let V::Func(g) = self.eval(&cx, &c.func) {
                        out.extend(self.scan_queues(&g, args, depth + 1, mode)?);
                    }
                }
                continue;
            };
            if self.exhausted() || !pure(&s.x) {
                continue;
            }
            let recv = self.eval(&cx, &s.x);
            let wanted = match mode {
                Scan::Get => s.sel.name == "Get" && c.args.is_empty(),
                Scan::Add => {
                    matches!(s.sel.name.as_str(), "Add" | "AddRateLimited" | "AddAfter")
                        && !c.args.is_empty()
                }
            };
            if wanted {
                if let Some(Kind::Queue(q)) = recv.obj().map(|id| &self.heap[id].kind) {
                    out.push(*q);
                    continue;
                }
            }
            if let Some(g) = self.method(&recv, &s.sel.name) {
                out.extend(self.scan_queues(&g, args, depth + 1, mode)?);
            } else if let Some(id) = recv.obj() {
                if let Some(V::Func(g)) = self.heap[id].field(&s.sel.name).cloned() {
                    out.extend(self.scan_queues(&g, args, depth + 1, mode)?);
                }
            }
        }
        for l in lits {
            if let V::Func(g) = self.eval(&cx, l) {
                out.extend(self.scan_queues(&g, Vec::new(), depth + 1, mode)?);
            }
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }
}

/// What a scan of a function looks for: a queue's `Get` (a worker) or its
/// `Add`s (a handler feeding it).
#[derive(Clone, Copy, PartialEq)]
enum Scan {
    Get,
    Add,
}

/// Whether a body starts goroutines (`go …`, `group.Go(…)`) outside its
/// function literals.
fn starts_goroutines(list: &[Statement]) -> bool {
    let mut found = false;
    for s in list {
        if let Statement::Go(_) = s {
            return true;
        }
    }
    visit_block_no_go(list, &mut |e| {
        if let Expression::Call(c) = e {
            found |= crate::eval::name_of(&c.func) == Some("Go") && !c.args.is_empty();
        }
    });
    found
        || list.iter().any(|s| match s {
            Statement::For(f) => starts_goroutines(&f.body.list),
            Statement::Range(r) => starts_goroutines(&r.body.list),
            Statement::If(i) => starts_goroutines(&i.body.list),
            Statement::Block(b) => starts_goroutines(&b.list),
            _ => false,
        })
}

/// A name or a chain of fields: evaluating it calls nothing.
fn pure(e: &Expression) -> bool {
    match e {
        Expression::Ident(_) => true,
        Expression::Selector(s) => pure(&s.x),
        Expression::Paren(p) => pure(&p.expr),
        Expression::Star(s) => pure(&s.right),
        _ => false,
    }
}

/// Every expression in `list`, outermost first.
pub(crate) fn visit_block(list: &[Statement], f: &mut dyn FnMut(&Expression)) {
    walk(list, f, true);
}

/// Every expression in `list` but those of goroutines it starts (`go …`,
/// `x.Go(…)`) and of function literals (scanned on their own).
fn visit_block_no_go<'a>(list: &'a [Statement], f: &mut dyn FnMut(&'a Expression)) {
    walk(list, f, false);
}

fn walk<'a>(list: &'a [Statement], f: &mut dyn FnMut(&'a Expression), all: bool) {
    for s in list {
        walk_stmt(s, f, all);
    }
}

fn walk_stmt<'a>(s: &'a Statement, f: &mut dyn FnMut(&'a Expression), all: bool) {
    use gosyn::ast::DeclStmt;
    match s {
        Statement::Assign(a) => {
            for e in a.left.iter().chain(&a.right) {
                walk_expr(e, f, all);
            }
        }
        Statement::Expr(e) => walk_expr(&e.expr, f, all),
        Statement::Return(r) => r.ret.iter().for_each(|e| walk_expr(e, f, all)),
        Statement::If(i) => {
            if let Some(init) = &i.init {
                walk_stmt(init, f, all);
            }
            walk_expr(&i.cond, f, all);
            walk(&i.body.list, f, all);
            if let Some(e) = &i.else_ {
                walk_stmt(e, f, all);
            }
        }
        Statement::For(fs) => {
            for s in [&fs.init, &fs.cond, &fs.post].into_iter().flatten() {
                walk_stmt(s, f, all);
            }
            walk(&fs.body.list, f, all);
        }
        Statement::Range(r) => {
            walk_expr(&r.expr, f, all);
            walk(&r.body.list, f, all);
        }
        Statement::Block(b) => walk(&b.list, f, all),
        Statement::Label(l) => walk_stmt(&l.stmt, f, all),
        Statement::Switch(sw) => {
            if let Some(t) = &sw.tag {
                walk_expr(t, f, all);
            }
            for c in &sw.block.body {
                walk(&c.body, f, all);
            }
        }
        Statement::Select(sel) => {
            for c in &sel.body.body {
                walk(&c.body, f, all);
            }
        }
        Statement::Go(g) if all => walk_expr_call(&g.call, f, all),
        Statement::Defer(d) => walk_expr_call(&d.call, f, all),
        Statement::Declaration(DeclStmt::Variable(v)) => {
            for spec in &v.specs {
                spec.values.iter().for_each(|e| walk_expr(e, f, all));
            }
        }
        Statement::IncDec(i) => walk_expr(&i.expr, f, all),
        _ => {}
    }
}

fn walk_expr_call<'a>(c: &'a Call, f: &mut dyn FnMut(&'a Expression), all: bool) {
    walk_expr(&c.func, f, all);
    c.args.iter().for_each(|a| walk_expr(a, f, all));
}

fn walk_expr<'a>(e: &'a Expression, f: &mut dyn FnMut(&'a Expression), all: bool) {
    f(e);
    match e {
        Expression::Call(c) => {
            let goes = matches!(crate::eval::name_of(&c.func), Some("Go"));
            walk_expr(&c.func, f, all);
            if all || !goes {
                c.args.iter().for_each(|a| walk_expr(a, f, all));
            }
        }
        Expression::Selector(s) => walk_expr(&s.x, f, all),
        Expression::Operation(o) => {
            walk_expr(&o.x, f, all);
            if let Some(y) = &o.y {
                walk_expr(y, f, all);
            }
        }
        Expression::Paren(p) => walk_expr(&p.expr, f, all),
        Expression::Star(s) => walk_expr(&s.right, f, all),
        Expression::Index(i) => {
            walk_expr(&i.left, f, all);
            walk_expr(&i.index, f, all);
        }
        Expression::TypeAssert(t) => walk_expr(&t.left, f, all),
        Expression::CompositeLit(c) => {
            for kv in &c.val.values {
                if let Element::Expr(v) = &kv.val {
                    walk_expr(v, f, all);
                }
            }
        }
        Expression::FuncLit(l) if all => walk(&l.body.list, f, all),
        _ => {}
    }
}
