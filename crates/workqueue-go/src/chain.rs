//! Finding the controllers of a set-up: controller-runtime's builder
//! chains, `controller.New`, client-go's rate-limiting queues, each with
//! the options the first pass evaluated.

use gosyn::ast::Expression;
use workqueue_core::format_go_duration;

use crate::eval::{describe, name_of, qualified};
use crate::import::{pos, Found_, Reader};
use crate::value::{Options, Value};

impl Reader<'_> {
    /// `ctrl.NewControllerManagedBy(mgr).Named(…).For(&X{}).WithOptions(…).Complete(r)`,
    /// `controller.New(name, mgr, controller.Options{…})`, and client-go's
    /// `workqueue.NewTypedRateLimitingQueue(limiter)`.
    pub(crate) fn call_chain(&mut self, file: usize, e: &Expression) -> bool {
        let mut links = Vec::new();
        let mut cur = e;
        while let Expression::Call(c) = cur {
            let Expression::Selector(s) = &*c.func else {
                break;
            };
            links.push((s.sel.name.as_str(), c));
            cur = &s.x;
        }
        let root = links.last().map(|(n, _)| *n);
        // A chain is named where it starts (its root call's name).
        let start = links.last().map_or(pos(e), |(_, c)| pos(&c.func));
        if matches!(root, Some("NewControllerManagedBy" | "ControllerManagedBy")) {
            let mut found = Found_ {
                name: String::new(),
                kind: String::new(),
                options: self.manager_options.clone(),
                queue_client_go: false,
                at: (file, start),
            };
            for (name, c) in links.iter().rev() {
                let arg = c.args.first();
                match *name {
                    "Named" => {
                        if let Some(Value::Str(n)) = arg.map(|a| self.env.eval(a)) {
                            found.name = n;
                        }
                    }
                    "For" => found.kind = arg.map(type_name).unwrap_or_default(),
                    // An owned kind's events come back as the owner's key:
                    // a write of one re-triggers the reconcile.
                    "Owns" | "Watches" => {
                        let what = arg.map(type_name).unwrap_or_default();
                        self.note(false, file, c.pos.0, format!("{name}({what}): events of {} enqueue the owner again, so each write of one re-triggers its reconcile; the playground does not feed writes back as events: count that follow-up reconcile (and its status update) in the writes, or add watch events", if what.is_empty() { "the watched objects".to_string() } else { format!("owned {what}s") }));
                    }
                    "WithOptions" => {
                        let value = arg.map(|a| self.env.eval(a));
                        match value {
                            Some(Value::Options(o)) => found.options = merge(&found.options, &o),
                            Some(Value::Unknown(why)) => match self.last_options.clone() {
                                Some(o) => {
                                    self.note(false, file, c.pos.0, format!("WithOptions: {why}; the options built elsewhere in the set-up are used"));
                                    found.options = merge(&found.options, &o);
                                }
                                None => self.note(
                                    false,
                                    file,
                                    c.pos.0,
                                    format!("WithOptions: {why}: the defaults are used"),
                                ),
                            },
                            _ => {}
                        }
                    }
                    // crossplane-runtime's global bucket gates a reconciler
                    // only through `ratelimiter.NewReconciler(name, r, global)`
                    // (`ForControllerRuntime` sets the workers and the
                    // per-object limiter, not the global one).
                    "Complete" | "Build" if found.options.crossplane.is_some() => {
                        let wrapped = matches!(arg, Some(Expression::Call(w)) if name_of(&w.func) == Some("NewReconciler"));
                        if !wrapped {
                            self.note(false, file, c.pos.0, format!("{}: the reconciler is not wrapped in ratelimiter.NewReconciler(…, o.GlobalRateLimiter), so crossplane-runtime would not gate it by the global bucket; the playground gates every controller of a Crossplane scenario by it", name.trim_end_matches('(')));
                        }
                    }
                    _ => {}
                }
            }
            self.found(found);
            return true;
        }
        if let Expression::Call(c) = e {
            let name = name_of(&c.func).unwrap_or("");
            let queue = name.trim_start_matches("New").trim_start_matches("Typed");
            if name == "New" && matches!(qualified(&c.func), Some(("controller", _))) {
                let controller = match c.args.first().map(|a| self.env.eval(a)) {
                    Some(Value::Str(n)) => n,
                    _ => String::new(),
                };
                let options = match c.args.get(2).map(|a| self.env.eval(a)) {
                    Some(Value::Options(o)) => merge(&self.manager_options, &o),
                    _ => self.manager_options.clone(),
                };
                self.found(Found_ {
                    name: controller,
                    kind: String::new(),
                    options,
                    queue_client_go: false,
                    at: (file, start),
                });
                return true;
            } else if queue.starts_with("RateLimitingQueue") {
                let limiter = match c.args.first().map(|a| self.env.eval(a)) {
                    Some(Value::Limiter(l)) => Some(l),
                    Some(Value::Unknown(why)) => {
                        self.note(
                            false,
                            file,
                            start,
                            format!("the queue's rate limiter: {why}: client-go's default is used"),
                        );
                        None
                    }
                    _ => None,
                };
                self.note(false, file, start, "a client-go queue: its workers are the goroutines calling processNextWorkItem, which the reader does not count: 1 worker".into());
                let options = Options {
                    limiter,
                    ..Options::default()
                };
                self.found(Found_ {
                    name: String::new(),
                    kind: String::new(),
                    options,
                    queue_client_go: true,
                    at: (file, start),
                });
                return true;
            }
        }
        false
    }

    pub(crate) fn found(&mut self, mut c: Found_) {
        let n = self.controllers.len();
        if c.kind.is_empty() {
            c.kind = if c.name.is_empty() {
                format!("controller-{n}")
            } else {
                c.name.clone()
            };
        }
        if c.name.is_empty() {
            c.name = c.kind.clone();
        }
        let (file, p) = c.at;
        let o = &c.options;
        let mut said = vec![format!("controller {:?} for {}", c.name, c.kind)];
        if let Some(w) = o.workers {
            said.push(format!("MaxConcurrentReconciles {w}"));
        }
        if let Some(l) = &o.limiter {
            said.push(format!("RateLimiter {}", spelled(l)));
        }
        if let Some(pq) = o.priority_queue {
            said.push(format!("UsePriorityQueue {pq}"));
        }
        if let Some(t) = o.timeout {
            said.push(format!("ReconciliationTimeout {}", format_go_duration(t)));
        }
        if let Some(r) = o.crossplane {
            said.push(format!("Crossplane's global bucket for R = {r} ({r}/s, burst {}), its per-object backoff 1s to 1m", 10 * r));
        }
        self.note(true, file, p, said.join(", "));
        for why in &o.unread {
            self.note(
                false,
                file,
                p,
                format!("controller {:?}: {why}: the default is used", c.name),
            );
        }
        for field in &o.ignored {
            self.note(false, file, p, format!("controller {:?}: {field} is not modelled (a managed reconciler's poll is a RequeueAfter after each success): set a not_ready_until or RequeueAfter script to see it", c.name));
        }
        self.controllers.push(c);
    }
}

/// `&corev1.Pod{}` gives `Pod`.
fn type_name(e: &Expression) -> String {
    match e {
        Expression::Operation(o) => type_name(&o.x),
        Expression::CompositeLit(c) => name_of(&c.typ).unwrap_or("").to_string(),
        Expression::Call(c) => describe(&c.func),
        other => name_of(other).unwrap_or("").to_string(),
    }
}

/// A limiter in full: `max-of(exponential 250ms→5m0s, bucket 20/s burst 200)`.
fn spelled(l: &workqueue_core::LimiterConfig) -> String {
    use workqueue_core::LimiterConfig as L;
    match l {
        L::MaxOf { limiters } => format!(
            "max-of({})",
            limiters.iter().map(spelled).collect::<Vec<_>>().join(", ")
        ),
        L::WithMaxWait {
            limiter,
            max_wait_ns,
        } => {
            format!(
                "{} at most {}",
                spelled(limiter),
                format_go_duration(*max_wait_ns)
            )
        }
        other => other.label(),
    }
}

/// A controller's own options over the manager's.
pub(crate) fn merge(base: &Options, own: &Options) -> Options {
    Options {
        workers: own.workers.or(base.workers),
        limiter: own.limiter.clone().or(base.limiter.clone()),
        priority_queue: own.priority_queue.or(base.priority_queue),
        timeout: own.timeout.or(base.timeout),
        crossplane: own.crossplane.or(base.crossplane),
        // What either could not read, or does not model, is said once.
        unread: base.unread.iter().chain(&own.unread).cloned().collect(),
        ignored: base.ignored.iter().chain(&own.ignored).cloned().collect(),
    }
}
