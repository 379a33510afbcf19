//! client-go's informers, as far as they say what a queue is fed: a
//! shared informer factory (client-go's own or a generated clientset's,
//! with its default resync), its group, version and typed informer
//! (`factory.Core().V1().ConfigMaps()`: kind ConfigMap), the typed
//! informers' and `cache`'s own constructors, and the event handlers
//! registered on a shared informer. A handler whose functions add to a
//! client-go queue gives that queue its kind, and its resync: every
//! object delivered again as an Update each period.

use std::rc::Rc;

use gosyn::ast::{Call, Expression};
use workqueue_core::{format_go_duration, Duration, SECOND};

use super::outside::dur;
use super::val::{Func, Kind, Obj, Ty, V};
use super::{Ctx, Interp};

/// The longest resync put in a run (a scenario's runs are far shorter).
const LONGEST_RESYNC: Duration = Duration::from_nanos(365 * 24 * 3600 * SECOND.as_nanos());

/// Handlers recorded at most (each registration is a step too).
const MAX_HANDLERS: usize = 256;

/// Where in a factory's chain a value is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Stage {
    Factory,
    Group,
    Version,
    /// `….ConfigMaps()`: a typed informer (its `Informer()`, `Lister()`).
    Typed,
    /// A `cache.SharedIndexInformer`: handlers are added to it.
    Shared,
}

/// An informer or the factory it comes from.
#[derive(Clone, Debug)]
pub(crate) struct Informer {
    pub stage: Stage,
    /// The kind its objects are (empty before the typed informer).
    pub kind: String,
    /// Its default resync: zero for none, or why it is not known.
    pub resync: Result<Duration, String>,
    /// How the program wrote it (`factory.Core().V1().ConfigMaps()`).
    pub chain: String,
}

/// One `AddEventHandler` on a shared informer.
#[derive(Clone, Debug)]
pub(crate) struct Handler<'a> {
    pub kind: String,
    pub chain: String,
    /// The handler's resync period: zero for none, or why not known.
    pub resync: Result<Duration, String>,
    /// Its functions by name (`AddFunc`, `UpdateFunc`, `DeleteFunc`).
    pub funcs: Vec<(&'static str, Rc<Func<'a>>)>,
    pub at: (usize, usize),
}

/// What feeds a client-go queue: a handler (its index) and which of its
/// functions add to the queue.
#[derive(Clone, Debug)]
pub(crate) struct Feed {
    pub handler: usize,
    pub funcs: Vec<&'static str>,
}

/// The kind of a typed informer's method (`ConfigMaps` → `ConfigMap`):
/// informer-gen's plural read backwards.
pub(crate) fn singular(plural: &str) -> String {
    if plural == "Endpoints" {
        return plural.to_string();
    }
    if let Some(s) = plural.strip_suffix("ies").filter(|s| !s.is_empty()) {
        return format!("{s}y");
    }
    for es in ["sses", "xes", "zzes", "ches", "shes", "tuses"] {
        if plural.ends_with(es) {
            return plural[..plural.len() - 2].to_string();
        }
    }
    plural
        .strip_suffix('s')
        .filter(|s| !s.is_empty())
        .unwrap_or(plural)
        .to_string()
}

/// `V1`, `V1alpha1`, `V2beta3`: an API version's method.
fn is_version(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('V') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty()
        || ["alpha", "beta"].iter().any(|p| {
            tail.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}

impl<'a> Interp<'a> {
    fn informer_value(&mut self, inf: Informer) -> V<'a> {
        V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Informer(Box::new(inf)))))
    }

    /// A constructor of informers: `informers.NewSharedInformerFactory`
    /// (…`WithOptions`, `NewFilteredSharedInformerFactory`), a typed
    /// informer's `NewConfigMapInformer`, `cache.NewSharedIndexInformer`.
    pub(crate) fn informer_fn(
        &mut self,
        cx: &Ctx<'a>,
        path: &str,
        alias: &str,
        name: &str,
        c: &'a Call,
    ) -> Option<V<'a>> {
        let informers = path.split('/').any(|p| p == "informers");
        let cache = path == "k8s.io/client-go/tools/cache";
        // What it makes, and which argument is its resync period.
        let (stage, kind, resync_at) = if informers
            && matches!(
                name,
                "NewSharedInformerFactory"
                    | "NewSharedInformerFactoryWithOptions"
                    | "NewFilteredSharedInformerFactory"
            ) {
            (Stage::Factory, String::new(), 1)
        } else if informers && name.starts_with("New") && name.ends_with("Informer") {
            let kind = &name["New".len()..name.len() - "Informer".len()];
            let kind = kind.strip_prefix("Filtered").unwrap_or(kind);
            if kind.is_empty() {
                return None;
            }
            (Stage::Shared, kind.to_string(), 2)
        } else if cache && matches!(name, "NewSharedIndexInformer" | "NewSharedInformer") {
            (Stage::Shared, self.example_kind(cx, c.args.get(1)), 2)
        } else {
            return None;
        };
        let args = self.args(cx, c);
        let resync = dur(args.get(resync_at));
        Some(self.informer_value(Informer {
            stage,
            kind,
            resync,
            chain: format!("{alias}.{name}(…)"),
        }))
    }

    /// The kind of an informer's example object (`&corev1.ConfigMap{}`).
    fn example_kind(&self, cx: &Ctx<'a>, e: Option<&'a Expression>) -> String {
        let mut e = e;
        for _ in 0..4 {
            e = match e {
                Some(Expression::Operation(o)) if o.y.is_none() => Some(&*o.x),
                Some(Expression::Paren(p)) => Some(&*p.expr),
                Some(Expression::CompositeLit(l)) => return self.type_of(cx, &l.typ).name,
                _ => return String::new(),
            };
        }
        String::new()
    }

    /// A method of an informer or its factory; `None` for one the reader
    /// does not follow (its value is unknown, as for any call outside).
    pub(crate) fn informer_method(
        &mut self,
        cx: &Ctx<'a>,
        id: usize,
        name: &str,
        c: &'a Call,
    ) -> Option<V<'a>> {
        let Kind::Informer(inf) = &self.heap[id].kind else {
            return None;
        };
        let inf = (**inf).clone();
        let next = |stage: Stage, kind: String| Informer {
            stage,
            kind,
            resync: inf.resync.clone(),
            chain: format!("{}.{name}()", inf.chain),
        };
        let starts_upper = name.chars().next().is_some_and(char::is_uppercase);
        let made = match (inf.stage, name) {
            (Stage::Factory, "Start" | "Shutdown") => {
                self.args(cx, c);
                return Some(V::Nil);
            }
            (Stage::Factory, "WaitForCacheSync" | "InformerFor" | "ForResource") => return None,
            (Stage::Factory, _) if c.args.is_empty() && starts_upper => {
                next(Stage::Group, String::new())
            }
            (Stage::Group, _) if c.args.is_empty() && is_version(name) => {
                next(Stage::Version, String::new())
            }
            (Stage::Version, _) if c.args.is_empty() && starts_upper => {
                next(Stage::Typed, singular(name))
            }
            (Stage::Typed, "Informer") if c.args.is_empty() => {
                next(Stage::Shared, inf.kind.clone())
            }
            (
                Stage::Shared,
                "AddEventHandler"
                | "AddEventHandlerWithResyncPeriod"
                | "AddEventHandlerWithOptions",
            ) => {
                let args = self.args(cx, c);
                self.add_handler(&inf, name, &args, (cx.file, c.pos.0));
                return Some(V::Tuple(vec![
                    V::unknown("the handler's registration"),
                    V::Nil,
                ]));
            }
            _ => return None,
        };
        Some(self.informer_value(made))
    }

    /// Records a handler added to a shared informer of `inf`'s kind.
    fn add_handler(&mut self, inf: &Informer, how: &str, args: &[V<'a>], at: (usize, usize)) {
        if self.handlers.len() >= MAX_HANDLERS {
            return;
        }
        let resync = match how {
            "AddEventHandlerWithResyncPeriod" => dur(args.get(1)),
            "AddEventHandlerWithOptions" => {
                match args
                    .get(1)
                    .and_then(V::obj)
                    .and_then(|o| self.heap[o].field("ResyncPeriod").cloned())
                {
                    None | Some(V::Nil) => inf.resync.clone(),
                    Some(v) => dur(Some(&v)),
                }
            }
            _ => inf.resync.clone(),
        }
        // client-go raises a period under a second to its minimum.
        .map(|d| match d > Duration::ZERO {
            true => d.max(SECOND),
            false => Duration::ZERO,
        });
        let funcs = self.handler_funcs(args.first());
        self.handlers.push(super::informers::Handler {
            kind: inf.kind.clone(),
            chain: inf.chain.clone(),
            resync,
            funcs,
            at,
        });
    }

    /// A handler's functions: `cache.ResourceEventHandlerFuncs{AddFunc: …}`
    /// (inside a `FilteringResourceEventHandler`'s `Handler`), or a value
    /// of the files' with `OnAdd`, `OnUpdate`, `OnDelete` methods.
    fn handler_funcs(&self, h: Option<&V<'a>>) -> Vec<(&'static str, Rc<Func<'a>>)> {
        let mut cur = h.cloned();
        for _ in 0..4 {
            let Some(v) = cur.take() else { break };
            let Some(id) = v.obj() else { break };
            let mut out = Vec::new();
            for (field, method, name) in [
                ("AddFunc", "OnAdd", "AddFunc"),
                ("UpdateFunc", "OnUpdate", "UpdateFunc"),
                ("DeleteFunc", "OnDelete", "DeleteFunc"),
            ] {
                match self.heap[id].field(field) {
                    Some(V::Func(f)) => out.push((name, f.clone())),
                    _ => {
                        if let Some(f) = self.method(&v, method) {
                            out.push((name, Rc::new(f)));
                        }
                    }
                }
            }
            if !out.is_empty() {
                return out;
            }
            cur = self.heap[id].field("Handler").cloned();
        }
        Vec::new()
    }

    /// Which queues each handler feeds: recorded on the controllers.
    pub(crate) fn link_handlers(&mut self) {
        for h in 0..self.handlers.len() {
            let funcs = self.handlers[h].funcs.clone();
            for (name, f) in funcs {
                if self.exhausted() {
                    return;
                }
                for q in self.feeds(&f) {
                    let Some(c) = self.ctrls.get_mut(q) else {
                        continue;
                    };
                    match c.fed_by.iter_mut().find(|f| f.handler == h) {
                        Some(feed) => feed.funcs.push(name),
                        None => c.fed_by.push(Feed {
                            handler: h,
                            funcs: vec![name],
                        }),
                    }
                }
            }
        }
    }

    /// A controller fed by informers' handlers: its kind, and its resync,
    /// each said.
    pub(crate) fn kind_from_handlers(&mut self, n: usize) {
        let c = self.ctrls[n].clone();
        let Some(first) = c.fed_by.first() else {
            return;
        };
        let h = self.handlers[first.handler].clone();
        if h.kind.is_empty() {
            return;
        }
        let (file, p) = c.at;
        let where_ = |it: &Self, at: (usize, usize)| {
            let (f, l) = it.at(at.0, at.1);
            format!("{f}:{l}")
        };
        let name = match c.name.is_empty() {
            true => h.kind.to_lowercase(),
            false => c.name.clone(),
        };
        self.note(
            true,
            file,
            p,
            format!(
                "controller {name:?}: kind {}, the informer {} whose handler ({}) adds to its queue ({})",
                h.kind,
                h.chain,
                first.funcs.join(", "),
                where_(self, h.at)
            ),
        );
        let others: Vec<String> = c
            .fed_by
            .iter()
            .skip(1)
            .map(|f| &self.handlers[f.handler])
            .filter(|o| o.kind != h.kind && !o.kind.is_empty())
            .map(|o| format!("{} ({})", o.kind, where_(self, o.at)))
            .collect();
        if !others.is_empty() {
            self.note(false, file, p, format!("controller {name:?}: its queue is also fed by handlers of {}: the playground gives a controller one kind, {}, the first registered", others.join(", "), h.kind));
        }
        self.ctrls[n].kind = h.kind.clone();
        // The resync: each handler of this kind whose UpdateFunc adds to the
        // queue is given every object again as an Update each period.
        let mut resync: Option<Duration> = None;
        for f in &c.fed_by {
            let hh = self.handlers[f.handler].clone();
            if hh.kind != h.kind {
                continue;
            }
            let period = match &hh.resync {
                Ok(d) if *d == Duration::ZERO => continue,
                Ok(d) => *d,
                Err(why) => {
                    self.note(false, hh.at.0, hh.at.1, format!("the informer's resync of {} is not in the run: its period is not known ({why}); add a resync source to the scenario if it has one", hh.kind));
                    continue;
                }
            };
            let every = format_go_duration(period);
            let at = where_(self, hh.at);
            if period > LONGEST_RESYNC {
                self.note(false, hh.at.0, hh.at.1, format!("the informer's resync every {every} is not in the run: a period past a year is beyond any run"));
                continue;
            }
            if !f.funcs.contains(&"UpdateFunc") {
                self.note(true, hh.at.0, hh.at.1, format!("controller {name:?}: the informer's resync every {every} adds nothing to the queue: a resync delivers Updates, and the handler ({at}) has no UpdateFunc that adds"));
                continue;
            }
            let filtered = hh
                .funcs
                .iter()
                .find(|(n, _)| *n == "UpdateFunc")
                .is_some_and(|(_, uf)| compares_versions(uf));
            if filtered {
                self.note(false, hh.at.0, hh.at.1, format!("the informer's resync every {every} is not in the run: the handler's UpdateFunc ({at}) reads ResourceVersion, and a resync's old and new objects are the same (it likely drops them); add a resync source to the scenario if it does not"));
                continue;
            }
            resync = Some(resync.map_or(period, |r: Duration| r.min(period)));
        }
        if let Some(period) = resync {
            self.note(true, file, p, format!("controller {name:?}: the informer's resync every {}: every object is added to the queue again each period (source resync)", format_go_duration(period)));
            self.ctrls[n].resync = Some(period);
        }
    }
}

/// Whether an UpdateFunc reads the objects' ResourceVersion (to drop a
/// resync, whose old and new are the same object).
fn compares_versions(f: &Func<'_>) -> bool {
    let body = match f {
        Func::Decl { decl, .. } => match &decl.body {
            Some(b) => &b.list,
            None => return false,
        },
        Func::Lit { lit, .. } => &lit.body.list,
    };
    let mut found = false;
    super::workers::visit_block(body, &mut |e| {
        if let Expression::Selector(s) = e {
            found |= matches!(
                s.sel.name.as_str(),
                "ResourceVersion" | "GetResourceVersion"
            );
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::{is_version, singular};

    #[test]
    fn kinds_from_informer_gen_plurals() {
        for (p, k) in [
            ("ConfigMaps", "ConfigMap"),
            ("Foos", "Foo"),
            ("Ingresses", "Ingress"),
            ("NetworkPolicies", "NetworkPolicy"),
            ("Endpoints", "Endpoints"),
            ("Leases", "Lease"),
            ("ComponentStatuses", "ComponentStatus"),
            ("StorageClasses", "StorageClass"),
            ("Patches", "Patch"),
        ] {
            assert_eq!(singular(p), k, "{p}");
        }
        assert!(is_version("V1") && is_version("V1alpha1") && is_version("V2beta3"));
        assert!(!is_version("Core") && !is_version("V") && !is_version("V1alpha"));
    }
}
