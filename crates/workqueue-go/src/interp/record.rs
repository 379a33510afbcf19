//! What a run of the set-up built, recorded where it was built: each
//! controller (a builder's `Complete`, `controller.New`, a client-go queue),
//! each client made from a config with the limit it has then, each manager.

use workqueue_core::{format_go_duration, LimiterConfig};

use super::val::{Kind, Origin, V};
use super::Interp;
use crate::value::Options;

/// A controller as the program builds it.
#[derive(Clone, Debug)]
pub(crate) struct CtrlRec {
    pub name: String,
    pub kind: String,
    pub options: Options,
    /// A client-go queue the program drains itself.
    pub client_go: bool,
    pub at: (usize, usize),
    /// Goroutines started that drain this queue (client-go).
    pub workers: u32,
    /// Why some workers could not be counted.
    pub workers_unknown: Option<String>,
    /// The calls it was set up through.
    pub from: Vec<(usize, usize)>,
    /// Which start of the program built it (`main`, or one of a paste's
    /// functions nothing calls).
    pub root: usize,
    /// Its workers' retry limit: give up on a key once `NumRequeues(key)`
    /// reaches it (a client-go worker's `NumRequeues(key) < N`).
    pub give_up_after: Option<u64>,
    /// Informers' handlers that add to its queue (client-go).
    pub fed_by: Vec<super::informers::Feed>,
    /// Its informer's resync, when a handler's UpdateFunc adds to it.
    pub resync: Option<workqueue_core::Duration>,
    /// A client-go queue without a name: the type that holds it, and the
    /// kind guessed from that type's name.
    pub holder: Option<(String, String)>,
}

impl CtrlRec {
    /// A controller found at `at`, as set up so far: no workers counted, no
    /// calls it came through, nothing feeding it yet.
    pub(crate) fn new(
        name: String,
        kind: String,
        options: Options,
        client_go: bool,
        at: (usize, usize),
    ) -> CtrlRec {
        CtrlRec {
            name,
            kind,
            options,
            client_go,
            at,
            workers: 0,
            workers_unknown: None,
            from: Vec::new(),
            root: 0,
            give_up_after: None,
            fed_by: Vec::new(),
            resync: None,
            holder: None,
        }
    }
}

/// A client made from a `rest.Config`, with the limit it took then.
#[derive(Clone, Debug)]
pub(crate) struct ClientRec {
    /// `kubernetes.NewForConfig`, `dynamic.NewForConfig`, …
    pub what: String,
    pub qps: Option<f64>,
    pub burst: Option<i64>,
    /// `cfg.RateLimiter`: one bucket (its id) shared by every client of it.
    pub shared: Option<(f64, i64, usize)>,
    pub origin: Origin,
    /// A typed clientset of client-go's own (one bucket when QPS > 0, one
    /// per group-version otherwise).
    pub typed: bool,
    pub at: (usize, usize),
    /// Why the limit is not known.
    pub unknown: Option<String>,
}

/// `ctrl.NewManager(cfg, opts)`.
#[derive(Clone, Debug)]
pub(crate) struct ManagerRec<'a> {
    pub mgr: V<'a>,
    pub config: V<'a>,
    pub at: (usize, usize),
}

impl<'a> Interp<'a> {
    /// Controller options from a struct (controller-runtime's
    /// `controller.Options`, the manager's `config.Controller`,
    /// crossplane-runtime's `controller.Options`, one embedded in another).
    pub(crate) fn options_of(&self, v: &V<'a>) -> Result<Options, String> {
        let id = match v {
            V::Unknown(why) => return Err(why.clone()),
            V::Nil => return Ok(Options::default()),
            other => other
                .obj()
                .ok_or_else(|| format!("{other:?} is not controller options"))?,
        };
        let obj = &self.heap[id];
        let mut o = Options::default();
        for (k, value) in &obj.fields {
            match (k.as_str(), value) {
                ("Options", inner @ (V::Struct(_) | V::Ref(_))) => {
                    let inner = self.options_of(inner)?;
                    o = super::record::merge(&inner, &o);
                }
                ("MaxConcurrentReconciles", V::Num(n)) if *n < 1.0 => o.unread.push(format!(
                    "MaxConcurrentReconciles: {n} is not a count of workers, and controller-runtime takes it as unset"
                )),
                ("MaxConcurrentReconciles", V::Num(n)) => {
                    match crate::num::whole(*n, "MaxConcurrentReconciles") {
                        Ok(w) => o.workers = Some(w),
                        Err(why) => o.unread.push(why),
                    }
                }
                ("RateLimiter", V::Limiter(l, id)) => {
                    o.limiter = Some(l.clone());
                    o.limiter_id = Some(*id);
                }
                // A limiter type the project declares itself: what it does
                // is its own code's, not one of client-go's the playground has.
                ("RateLimiter", V::Ref(r) | V::Struct(r)) if self.heap[*r].ty.pkg.is_some() => {
                    let t = &self.heap[*r].ty;
                    let dir = t.pkg.map(|p| self.pkgs[p].dir.clone()).unwrap_or_default();
                    o.unread.push(format!(
                        "RateLimiter: a {}, a limiter type the project declares ({dir}), not one of client-go's the playground models",
                        t.name
                    ))
                }
                ("UsePriorityQueue", V::Bool(b)) => o.priority_queue = Some(*b),
                ("ReconciliationTimeout", V::Dur(d)) => o.timeout = Some(*d),
                ("GlobalRateLimiter", V::Global { r, .. }) => o.crossplane = Some(*r),
                ("PollInterval" | "SyncPeriod" | "PollJitter", _) => o.ignored.push(k.clone()),
                (
                    name @ ("MaxConcurrentReconciles"
                    | "RateLimiter"
                    | "UsePriorityQueue"
                    | "ReconciliationTimeout"
                    | "GlobalRateLimiter"),
                    V::Unknown(why),
                ) => o.unread.push(format!("{name}: {why}")),
                _ => {}
            }
        }
        Ok(o)
    }

    /// The manager's options for every controller: `ctrl.Options{Controller: …}`.
    pub(crate) fn manager_defaults(&self) -> Options {
        self.managers
            .iter()
            .filter_map(|m| m.mgr.obj())
            .filter_map(|id| match &self.heap[id].kind {
                Kind::Manager { .. } => self.heap[id].field("Controller").cloned(),
                _ => None,
            })
            .find_map(|c| self.options_of(&c).ok())
            .unwrap_or_default()
    }

    /// Records a controller where the program builds it.
    pub(crate) fn found(&mut self, mut c: CtrlRec) -> usize {
        c.from = self.stack.clone();
        c.root = self.root;
        // A paste's functions are each run from nothing: one that another
        // of them also reaches builds the same controller, once.
        if let Some(i) = self
            .ctrls
            .iter()
            .position(|o| o.at == c.at && o.name == c.name && o.root != c.root)
        {
            return i;
        }
        self.ctrls.push(c);
        self.ctrls.len() - 1
    }

    /// Names what has none (a builder's lower-case kind, a queue's holder),
    /// and says what was read of each controller.
    pub(crate) fn finish(&mut self) {
        self.link_handlers();
        for n in 0..self.ctrls.len() {
            if self.ctrls[n].client_go && self.ctrls[n].kind.is_empty() {
                self.kind_from_handlers(n);
            }
            let mut c = self.ctrls[n].clone();
            if c.kind.is_empty() {
                let holder = c.holder.clone().filter(|(_, k)| !k.is_empty());
                c.kind = match (&holder, c.name.is_empty()) {
                    (Some((_, k)), _) => k.clone(),
                    (None, true) => format!("controller-{n}"),
                    (None, false) => kind_of(&c.name),
                };
                // Nothing in the files says the kind: it is a guess, said.
                let (file, p) = c.at;
                let from = match (&holder, c.name.is_empty()) {
                    (Some((ty, _)), _) => format!("the type {ty} that holds its queue"),
                    (None, true) => "a number".to_string(),
                    (None, false) => format!("the queue's name {:?}", c.name),
                };
                let text = format!("controller {:?}: its kind {} is guessed from {from} (the reader did not find the informer or lister it is fed by): set kind in the scenario to the resource it reconciles", if c.name.is_empty() { c.kind.to_lowercase() } else { c.name.clone() }, c.kind);
                self.note(false, file, p, text);
            }
            if c.name.is_empty() {
                c.name = c.kind.to_lowercase();
            }
            // One constructor run several times makes several queues of one
            // name (a client-go name is not unique): each keeps its own.
            if c.client_go && self.ctrls[..n].iter().any(|o| o.name == c.name) {
                let base = c.name.clone();
                let k = (2..)
                    .find(|k| {
                        !self.ctrls[..n]
                            .iter()
                            .any(|o| o.name == format!("{base}-{k}"))
                    })
                    .unwrap_or(2);
                c.name = format!("{base}-{k}");
                self.note(
                    false,
                    c.at.0,
                    c.at.1,
                    format!(
                        "the queue {base:?} is built again here: this one is named {:?}",
                        c.name
                    ),
                );
            }
            let (file, p) = c.at;
            let o = &c.options;
            let mut said = vec![format!("controller {:?} for {}", c.name, c.kind)];
            if let Some(w) = o.workers {
                said.push(format!("MaxConcurrentReconciles {w}"));
            }
            if c.client_go && c.workers > 0 {
                said.push(format!(
                    "{} workers (goroutines draining its queue)",
                    c.workers
                ));
            }
            if let Some(l) = &o.limiter {
                said.push(format!("RateLimiter {}", spelled(l)));
            }
            if let Some(n) = c.give_up_after {
                said.push(format!("gives up on a key after {n} requeues"));
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
            if !c.from.is_empty() {
                let from: Vec<String> = c
                    .from
                    .iter()
                    .map(|(f, p)| {
                        let (name, line) = self.at(*f, *p);
                        format!("{name}:{line}")
                    })
                    .collect();
                said.push(format!("set up from {}", from.join(" -> ")));
            }
            self.note(true, file, p, said.join(", "));
            for why in o.unread.clone() {
                self.note(
                    false,
                    file,
                    p,
                    format!("controller {:?}: {why}: the default is used", c.name),
                );
            }
            for field in o.ignored.clone() {
                self.note(false, file, p, format!("controller {:?}: {field} is not modelled (a managed reconciler's poll is a RequeueAfter after each success): set a not_ready_until or RequeueAfter script to see it", c.name));
            }
            if c.client_go {
                match (&c.workers_unknown, c.workers) {
                    (Some(why), w) => self.note(false, file, p, format!("controller {:?}: its workers are started in a loop whose count the reader cannot tell ({why}): {} assumed", c.name, w.max(1))),
                    (None, 0) => self.note(false, file, p, format!("controller {:?}: a client-go queue: its workers are the goroutines draining it, and none was found started: 1 worker assumed", c.name)),
                    _ => {}
                }
            }
            self.ctrls[n] = c;
        }
    }
}

/// A kind from a queue's name: `"Decks"` gives `Deck`, `"seal-issuer"` `SealIssuer`.
fn kind_of(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: String = words
        .iter()
        .map(|w| {
            let mut cs = w.chars();
            cs.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + cs.as_str()
            })
        })
        .collect();
    if words.len() == 1 && out.ends_with('s') && !out.ends_with("ss") && out.len() > 3 {
        out.pop();
    }
    match out.is_empty() {
        true => "Object".into(),
        false => out,
    }
}

/// A limiter in full: `max-of(exponential 250ms→5m0s, bucket 20/s burst 200)`.
pub(crate) fn spelled(l: &LimiterConfig) -> String {
    use workqueue_core::LimiterConfig as L;
    match l {
        L::MaxOf { limiters } => format!(
            "max-of({})",
            limiters.iter().map(spelled).collect::<Vec<_>>().join(", ")
        ),
        L::WithMaxWait {
            limiter,
            max_wait_ns,
        } => format!(
            "{} at most {}",
            spelled(limiter),
            format_go_duration(max_wait_ns.get())
        ),
        other => other.label(),
    }
}

/// A controller's own options over the manager's.
pub(crate) fn merge(base: &Options, own: &Options) -> Options {
    Options {
        workers: own.workers.or(base.workers),
        limiter: own.limiter.clone().or(base.limiter.clone()),
        limiter_id: match own.limiter {
            Some(_) => own.limiter_id,
            None => base.limiter_id,
        },
        priority_queue: own.priority_queue.or(base.priority_queue),
        timeout: own.timeout.or(base.timeout),
        crossplane: own.crossplane.or(base.crossplane),
        // What either could not read, or does not model, is said once.
        unread: base.unread.iter().chain(&own.unread).cloned().collect(),
        ignored: base.ignored.iter().chain(&own.ignored).cloned().collect(),
    }
}
