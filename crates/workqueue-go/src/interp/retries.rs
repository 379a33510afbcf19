//! A worker's retry limit: client-go workers commonly retry a failed key
//! while `queue.NumRequeues(key) < maxRetries` and `Forget` it after,
//!
//! ```go
//! if c.queue.NumRequeues(key) < maxRetries { c.queue.AddRateLimited(key); return }
//! c.queue.Forget(key)
//! ```
//!
//! or as a `case` of a `switch {}`. The scenario's `give_up_after` N is
//! that rule: on an error with `NumRequeues(key) >= N` the key is
//! forgotten instead of requeued (so `< N` is N, `<= N` is N + 1).

use gosyn::ast::{Expression, Statement};
use gosyn::token::Operator;

use super::val::{Kind, V};
use super::{Ctx, Interp};

/// A retry limit read in a worker: the queue whose `NumRequeues` it asks
/// (when the reader holds it), the limit or why it is not known, where.
#[derive(Clone, Debug)]
pub(crate) struct RetrySeen {
    pub queue: Option<usize>,
    pub limit: Result<u64, String>,
    /// The condition as written (`NumRequeues(key) < maxRetries`).
    pub text: String,
    pub at: (usize, usize),
}

/// Whether true means the key is under its limit (retried) or over it.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Under,
    Over,
}

impl<'a> Interp<'a> {
    /// Every retry limit in `list` (a worker's body, or a function it
    /// calls), kept in `retries_seen`.
    pub(crate) fn scan_retries(&mut self, cx: &Ctx<'a>, list: &'a [Statement]) {
        for s in list {
            if self.exhausted() {
                return;
            }
            match s {
                Statement::If(i) => {
                    self.retry_cond(cx, &i.cond, &i.body.list);
                    self.scan_retries(cx, &i.body.list);
                    if let Some(e) = &i.else_ {
                        self.scan_retries(cx, std::slice::from_ref(&**e));
                    }
                }
                Statement::Switch(sw) if sw.tag.is_none() => {
                    for clause in &sw.block.body {
                        for cond in &clause.list {
                            self.retry_cond(cx, cond, &clause.body);
                        }
                        self.scan_retries(cx, &clause.body);
                    }
                }
                Statement::Switch(sw) => {
                    for clause in &sw.block.body {
                        self.scan_retries(cx, &clause.body);
                    }
                }
                Statement::Block(b) => self.scan_retries(cx, &b.list),
                Statement::For(f) => self.scan_retries(cx, &f.body.list),
                Statement::Range(r) => self.scan_retries(cx, &r.body.list),
                Statement::Label(l) => self.scan_retries(cx, std::slice::from_ref(&*l.stmt)),
                _ => {}
            }
        }
    }

    /// `cond` guarding `body`: a retry limit when it compares a queue's
    /// `NumRequeues` with a number (alone, or in a chain of `&&`).
    fn retry_cond(&mut self, cx: &Ctx<'a>, cond: &'a Expression, body: &'a [Statement]) {
        let Some((op, call_recv, limit, pos, flipped)) = find_comparison(cond) else {
            return;
        };
        let op_text: &'static str = op.into();
        let call = match call_recv {
            Some(r) => format!("{}.NumRequeues(…)", crate::eval::describe(r)),
            None => "NumRequeues(…)".to_string(),
        };
        let limit_text = crate::eval::describe(limit);
        let text = match flipped {
            false => format!("{call} {op_text} {limit_text}"),
            true => format!("{limit_text} {op_text} {call}"),
        };
        let queue = match call_recv.filter(|e| calls_nothing(e)) {
            Some(r) => match self.eval(cx, r).obj().map(|id| &self.heap[id].kind) {
                Some(Kind::Queue(q)) => Some(*q),
                _ => None,
            },
            None => None,
        };
        // With NumRequeues on the left: `<`, `<=` retry while true.
        let op = match (flipped, op) {
            (false, o) => o,
            (true, Operator::Less) => Operator::Greater,
            (true, Operator::Greater) => Operator::Less,
            (true, Operator::LessEqual) => Operator::GreaterEqual,
            (true, _) => Operator::LessEqual,
        };
        let side = match op {
            Operator::Less | Operator::LessEqual => Side::Under,
            _ => Side::Over,
        };
        let requeues = mentions_call(body, "AddRateLimited");
        let limit = if (side == Side::Under) != requeues {
            Err(match side {
                Side::Under => {
                    "the branch taken under the limit does not call AddRateLimited".to_string()
                }
                Side::Over => "the branch taken over the limit calls AddRateLimited".to_string(),
            })
        } else if !calls_nothing(limit) {
            Err("the limit is computed by a call the reader does not run".to_string())
        } else {
            match self.eval(cx, limit) {
                V::Num(n) if n.is_finite() => {
                    // Give up once NumRequeues >= N: `< x` and `>= x` give
                    // up from ceil(x), `<= x` and `> x` from floor(x) + 1.
                    let n = match op {
                        Operator::Less | Operator::GreaterEqual => n.ceil(),
                        _ => n.floor() + 1.0,
                    };
                    Ok(n.clamp(0.0, u32::MAX as f64) as u64)
                }
                V::Unknown(why) => Err(why),
                other => Err(format!("{other:?} is not a number")),
            }
        };
        self.retries_seen.push(RetrySeen {
            queue,
            limit,
            text,
            at: (cx.file, pos),
        });
    }
}

/// The comparison of `X.NumRequeues(…)` with a limit in `cond` (itself, or
/// one of a chain of `&&`): its operator, `X`, the limit, where, and
/// whether `NumRequeues` is on the right.
#[allow(clippy::type_complexity)]
fn find_comparison(
    cond: &Expression,
) -> Option<(Operator, Option<&Expression>, &Expression, usize, bool)> {
    // A chain of `&&` is walked with a list, not by recursion.
    let mut todo = vec![cond];
    let mut seen = 0;
    while let Some(e) = todo.pop() {
        seen += 1;
        if seen > 64 {
            return None;
        }
        let e = unparen(e);
        let Expression::Operation(o) = e else {
            continue;
        };
        let Some(y) = o.y.as_deref() else {
            continue;
        };
        match o.op {
            Operator::AndAnd => {
                todo.push(y);
                todo.push(&o.x);
            }
            Operator::Less | Operator::LessEqual | Operator::Greater | Operator::GreaterEqual => {
                if let Some(r) = num_requeues(&o.x) {
                    return Some((o.op, r, y, o.pos, false));
                }
                if let Some(r) = num_requeues(y) {
                    return Some((o.op, r, &o.x, o.pos, true));
                }
            }
            _ => {}
        }
    }
    None
}

fn unparen(mut e: &Expression) -> &Expression {
    while let Expression::Paren(p) = e {
        e = &p.expr;
    }
    e
}

/// `X.NumRequeues(key)`: `Some(Some(X))`; `NumRequeues(key)` alone: `Some(None)`.
fn num_requeues(e: &Expression) -> Option<Option<&Expression>> {
    let Expression::Call(c) = unparen(e) else {
        return None;
    };
    match &*c.func {
        Expression::Selector(s) if s.sel.name == "NumRequeues" => Some(Some(&s.x)),
        Expression::Ident(i) if i.name == "NumRequeues" => Some(None),
        _ => None,
    }
}

/// An expression whose value calls nothing: names, fields, literals and
/// operators over them.
fn calls_nothing(e: &Expression) -> bool {
    let mut todo = vec![e];
    let mut seen = 0;
    while let Some(e) = todo.pop() {
        seen += 1;
        if seen > 64 {
            return false;
        }
        match e {
            Expression::Ident(_) | Expression::BasicLit(_) => {}
            Expression::Selector(s) => todo.push(&s.x),
            Expression::Paren(p) => todo.push(&p.expr),
            Expression::Star(s) => todo.push(&s.right),
            Expression::Operation(o) => {
                todo.push(&o.x);
                if let Some(y) = &o.y {
                    todo.push(y);
                }
            }
            _ => return false,
        }
    }
    true
}

/// Whether `list` calls a method or function named `name` (not counting
/// function literals' bodies).
fn mentions_call(list: &[Statement], name: &str) -> bool {
    let mut found = false;
    super::workers::visit_block(list, &mut |e| {
        if let Expression::Call(c) = e {
            found |= crate::eval::name_of(&c.func) == Some(name);
        }
    });
    found
}

impl Interp<'_> {
    /// The limits a worker of `queues` read: each its queue's
    /// `give_up_after`, said where the condition is; one not read, said too.
    pub(crate) fn retry_limits(&mut self, queues: &[usize], seen: Vec<RetrySeen>) {
        for r in seen {
            let targets: Vec<usize> = match r.queue {
                Some(q) if queues.contains(&q) => vec![q],
                // Another queue's count, asked in this worker: not its rule.
                Some(_) => continue,
                None if queues.len() == 1 => queues.to_vec(),
                None => {
                    let text = format!("the retry limit {}: the reader cannot tell which of the queues it drains it counts: not modelled, every failed key is retried; set give_up_after in the scenario", r.text);
                    self.note(false, r.at.0, r.at.1, text);
                    continue;
                }
            };
            for q in targets {
                let name = match self.ctrls[q].name.as_str() {
                    "" => "the queue".to_string(),
                    n => format!("queue {n:?}"),
                };
                match &r.limit {
                    Ok(n) => {
                        let n = *n;
                        let had = self.ctrls[q].give_up_after;
                        if had.is_some_and(|h| h != n) {
                            let text = format!("{name}: a second retry limit, {}, gives up after {n} requeues: the first read ({} requeues) is kept", r.text, had.unwrap_or(n));
                            self.note(false, r.at.0, r.at.1, text);
                            continue;
                        }
                        self.ctrls[q].give_up_after = Some(n);
                        let text = format!(
                            "{name}: {}: a key that fails with {n} requeues behind it is forgotten, not requeued: give_up_after {n} (a key that always fails is reconciled {} times)",
                            r.text,
                            n.saturating_add(1)
                        );
                        self.note(true, r.at.0, r.at.1, text);
                    }
                    Err(why) => {
                        let text = format!("{name}: the retry limit {}: {why}: not modelled, every failed key is retried; set give_up_after in the scenario", r.text);
                        self.note(false, r.at.0, r.at.1, text);
                    }
                }
            }
        }
    }
}
