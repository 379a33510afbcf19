//! Packages outside the files, as far as a set-up needs them: client-go's
//! configs, clients, queues and limiters; controller-runtime's config
//! loader, manager, builder and `controller.New`; crossplane-runtime's
//! rate limiters and controller names; time, flags, cobra, kingpin,
//! errgroup and `wait`. Anything else is evaluated for what its
//! arguments do, and its value is unknown.

use gosyn::ast::Call;
use workqueue_core::Span;
use workqueue_core::{Duration, LimiterConfig, MILLISECOND, SECOND};

use super::expr::short;
use super::record::CtrlRec;
use super::val::{Builder, Kind, Obj, Origin, Ty, V};
use super::{last_name, Ctx, Interp};
use crate::eval::describe;

fn unit(name: &str) -> Option<Duration> {
    Some(match name {
        "Nanosecond" => Duration::NANOSECOND,
        "Microsecond" => workqueue_core::MICROSECOND,
        "Millisecond" => MILLISECOND,
        "Second" => SECOND,
        "Minute" => 60 * SECOND,
        "Hour" => 3600 * SECOND,
        _ => return None,
    })
}

impl<'a> Interp<'a> {
    /// `pkg.Name` of a package outside the files.
    pub(crate) fn outside_value(&mut self, path: &str, alias: &str, sel: &str) -> V<'a> {
        let tail = last_name(path);
        match (tail.as_str(), sel) {
            ("time", u) if unit(u).is_some() => return V::Dur(unit(u).unwrap_or_default()),
            ("rest", "DefaultQPS") => return V::Num(5.0),
            ("rest", "DefaultBurst") => return V::Num(10.0),
            ("handler", "LowPriority") => return V::Num(-100.0),
            ("flag" | "pflag" | "kingpin", "CommandLine") => {
                return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Command)))
            }
            _ => {}
        }
        // crossplane's `v1alpha1.FiringGroupKind`, upjet's
        // `v1beta1.Wick_GroupVersionKind`: the kind, and the package that
        // declares its group (which keeps two scopes' kinds apart).
        for suffix in [
            "_GroupVersionKind",
            "GroupVersionKind",
            "_GroupKind",
            "GroupKind",
        ] {
            if let Some(kind) = sel.strip_suffix(suffix).filter(|k| !k.is_empty()) {
                let is_version = |p: &&str| {
                    p.starts_with('v') && p[1..].chars().next().is_some_and(|c| c.is_ascii_digit())
                };
                let parts: Vec<&str> = path.split('/').filter(|p| !is_version(p)).collect();
                // The package under `apis/` that declares it (`cluster`), else its own.
                let scope = match parts.iter().rposition(|p| *p == "apis") {
                    Some(at) if at + 1 < parts.len() => parts[at + 1].to_string(),
                    _ => parts.last().copied().unwrap_or(alias).to_string(),
                };
                return V::Str(format!("{kind}.{scope}"));
            }
        }
        V::unknown(format!(
            "{alias}.{sel} is declared in {path}, outside the files"
        ))
    }

    /// A call that reads an environment variable: its value is known only
    /// where the program runs, so it is taken as unset, and said (`then`:
    /// what follows from that). The call's arguments, read.
    fn env_unset(&mut self, cx: &Ctx<'a>, c: &'a Call, then: &str) -> Vec<V<'a>> {
        let args = self.args(cx, c);
        let var = args.first().map(short).unwrap_or_default();
        self.note(
            false,
            cx.file,
            c.pos.0,
            format!("the environment variable {var}: taken as unset{then}"),
        );
        args
    }

    /// A call of a package outside the files.
    pub(crate) fn outside_fn(
        &mut self,
        cx: &Ctx<'a>,
        path: &str,
        alias: &str,
        name: &str,
        c: &'a Call,
    ) -> V<'a> {
        let tail = last_name(path);
        let site = (cx.file, c.pos.0);
        if let Some(v) = self.flag_call(cx, name, c, matches!(tail.as_str(), "flag" | "pflag")) {
            return v;
        }
        if let Some(v) = self.k8s_fn(cx, path, name, c) {
            return v;
        }
        if let Some(v) = self.informer_fn(cx, path, alias, name, c) {
            return v;
        }
        let cr = path.starts_with("sigs.k8s.io/controller-runtime");
        let xp = path.contains("crossplane");
        match (tail.as_str(), name) {
            ("flag" | "pflag", "NArg" | "NFlag") => return V::Num(0.0),
            ("flag" | "pflag", "Arg") => return V::Str(String::new()),
            ("flag" | "pflag", "Args") => {
                return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Slice(Vec::new()))))
            }
            ("flag" | "pflag", _) => {
                self.args(cx, c);
                return V::Nil;
            }
            ("time", "Duration") => {
                return match self.args(cx, c).into_iter().next() {
                    Some(V::Num(n)) => crate::num::duration(n).map_or_else(V::Unknown, V::Dur),
                    Some(d @ V::Dur(_)) => d,
                    Some(V::Unknown(w)) => V::Unknown(w),
                    _ => V::unknown("time.Duration of a value that is not a number"),
                }
            }
            // `reflect.TypeOf(Kiln{})`: the type's name, which is all a
            // set-up asks of it (`.Name()`, a provider's kind).
            ("reflect", "TypeOf") => {
                if let Some(gosyn::ast::Expression::CompositeLit(lit)) = c.args.first() {
                    let ty = self.type_of(cx, &lit.typ);
                    if !ty.name.is_empty() {
                        return V::Str(ty.name);
                    }
                }
                self.args(cx, c);
                return V::unknown("reflect.TypeOf of a value that is not a literal");
            }
            ("time", "ParseDuration") => {
                let d = match self.args(cx, c).into_iter().next() {
                    Some(V::Str(s)) => workqueue_core::parse_go_duration(&s)
                        .map_or_else(|e| V::unknown(e.to_string()), V::Dur),
                    _ => V::unknown("a duration's text the reader does not hold"),
                };
                return V::Tuple(vec![d, V::Nil]);
            }
            ("wait", n)
                if n.starts_with("Until")
                    || n.starts_with("Jitter")
                    || n.starts_with("NonSliding")
                    || n == "Forever" =>
            {
                let args = self.args(cx, c);
                if let Some(f) = args.into_iter().find(|a| matches!(a, V::Func(_))) {
                    self.start(f, Vec::new(), site);
                }
                return V::Nil;
            }
            ("runtime", "NumCPU" | "GOMAXPROCS") => {
                return V::unknown("the machine's CPU count, known only where the program runs")
            }
            ("os", "Getenv") => {
                self.env_unset(cx, c, "");
                return V::Str(String::new());
            }
            ("slices", "Contains") => {
                let args = self.args(cx, c);
                return match (
                    args.first().and_then(V::obj).map(|id| &self.heap[id].kind),
                    args.get(1),
                ) {
                    (Some(Kind::Slice(items)), Some(x)) => {
                        V::Bool(items.iter().any(|i| super::expr::same(i, x)))
                    }
                    _ if matches!(args.first(), Some(V::Nil)) => V::Bool(false),
                    _ => V::unknown("slices.Contains of a slice the reader does not hold"),
                };
            }
            ("strings", "ToLower") => {
                return match self.args(cx, c).into_iter().next() {
                    Some(V::Str(s)) => V::Str(s.to_lowercase()),
                    Some(V::Unknown(w)) => V::Unknown(w),
                    _ => V::unknown("strings.ToLower of a value that is not text"),
                }
            }
            ("math", f @ ("Ceil" | "Floor" | "Round" | "Trunc" | "Abs" | "Min" | "Max")) => {
                let args = self.args(cx, c);
                let x = num(args.first());
                let y = num(args.get(1));
                let v = match (f, x, y) {
                    ("Ceil", Ok(x), _) => x.ceil(),
                    ("Floor", Ok(x), _) => x.floor(),
                    ("Round", Ok(x), _) => x.round(),
                    ("Trunc", Ok(x), _) => x.trunc(),
                    ("Abs", Ok(x), _) => x.abs(),
                    ("Min", Ok(x), Ok(y)) => x.min(y),
                    ("Max", Ok(x), Ok(y)) => x.max(y),
                    (_, Err(w), _) | (_, _, Err(w)) => return V::Unknown(w),
                    _ => return V::unknown("math of a value the reader does not hold"),
                };
                return V::Num(v);
            }
            ("lo", "Clamp") => {
                let args = self.args(cx, c);
                return match (num(args.first()), num(args.get(1)), num(args.get(2))) {
                    (Ok(v), Ok(lo), Ok(hi)) => V::Num(v.max(lo).min(hi)),
                    (Err(w), _, _) | (_, Err(w), _) | (_, _, Err(w)) => V::Unknown(w),
                };
            }
            // A context carries values: `WithValue(ctx, key, v)`, read back
            // by `ctx.Value(key)` (a key is its type, or its text).
            ("context", "WithValue") => {
                let args = self.args(cx, c);
                let mut o = Obj::plain("context.Context");
                if let (Some(parent), Some(k), Some(v)) = (args.first(), args.get(1), args.get(2)) {
                    o.set("parent", parent.clone());
                    o.set("key", V::Str(self.context_key(k)));
                    o.set("value", v.clone());
                }
                return V::Ref(self.alloc(o));
            }
            ("errgroup", "WithContext") => {
                self.args(cx, c);
                let g = self.alloc(Obj::new(Ty::default(), Kind::Plain));
                return V::Tuple(vec![V::Ref(g), V::unknown("a context")]);
            }
            ("rate", "NewLimiter") => {
                let args = self.args(cx, c);
                return match (num(args.first()), num(args.get(1))) {
                    (Ok(qps), Ok(b)) => match crate::num::whole::<i64>(b, "the burst") {
                        Ok(burst) => V::Rate {
                            qps,
                            burst,
                            id: self.new_limiter(Vec::new()),
                        },
                        Err(w) => V::Unknown(w),
                    },
                    (Err(w), _) | (_, Err(w)) => V::Unknown(w),
                };
            }
            ("flowcontrol", "NewTokenBucketRateLimiter") => {
                let args = self.args(cx, c);
                return match (num(args.first()), num(args.get(1))) {
                    (Ok(qps), Ok(b)) => match crate::num::whole::<i64>(b, "the burst") {
                        Ok(burst) => {
                            self.made += 1;
                            V::ClientBucket {
                                qps,
                                burst,
                                id: self.made,
                            }
                        }
                        Err(w) => V::Unknown(w),
                    },
                    (Err(w), _) | (_, Err(w)) => V::Unknown(w),
                };
            }
            ("workqueue", _) => return self.workqueue(cx, name, c),
            ("clientcmd", "BuildConfigFromFlags" | "RESTConfigFromKubeConfig")
            | ("rest", "InClusterConfig") => {
                self.args(cx, c);
                let cfg = self.config(Origin::ClientGo, site);
                return V::Tuple(vec![cfg, V::Nil]);
            }
            ("clientcmd", n) if n.ends_with("ClientConfig") => {
                self.args(cx, c);
                let o = Obj::plain("clientcmd.ClientConfig");
                return V::Ref(self.alloc(o));
            }
            ("rest", "CopyConfig") => {
                let args = self.args(cx, c);
                return match args.first().and_then(V::obj) {
                    Some(id) => {
                        let o = self.heap[id].clone();
                        V::Ref(self.alloc(o))
                    }
                    None => V::unknown("a copy of a config the reader does not hold"),
                };
            }
            ("ptr" | "pointer", _) if c.args.len() == 1 => return self.eval(cx, &c.args[0]),
            ("rate", "Limit") if c.args.len() == 1 => return self.eval(cx, &c.args[0]),
            (
                _,
                "NewForConfig"
                | "NewForConfigOrDie"
                | "NewForConfigAndClient"
                | "NewDiscoveryClientForConfig"
                | "NewDiscoveryClientForConfigOrDie",
            ) => return self.client(cx, &tail, alias, name, c),
            ("kingpin", "New") => {
                self.args(cx, c);
                return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Command)));
            }
            ("kingpin", "Flag") => {
                let app = V::Nil;
                if let Some(v) = self.kingpin(cx, &app, name, c) {
                    return v;
                }
            }
            ("env", n) if n.starts_with("WithDefault") => {
                let args = self.env_unset(cx, c, ", its default used");
                return args.into_iter().last().unwrap_or(V::Nil);
            }
            _ => {}
        }
        if xp {
            match (tail.as_str(), name) {
                ("ratelimiter", "NewGlobal") => {
                    let args = self.args(cx, c);
                    return match num(args.first()).and_then(|r| crate::num::whole::<u32>(r, "R")) {
                        Ok(r) => {
                            self.made += 1;
                            V::Global { r, id: self.made }
                        }
                        Err(w) => V::Unknown(w),
                    };
                }
                ("ratelimiter", "NewController") => {
                    self.args(cx, c);
                    let id = self.new_limiter(Vec::new());
                    return V::Limiter(
                        LimiterConfig::Exponential {
                            base_ns: Span::lit(SECOND),
                            max_ns: Span::lit(60 * SECOND),
                        },
                        id,
                    );
                }
                ("ratelimiter", "NewReconciler") => {
                    let args = self.args(cx, c);
                    let mut o = Obj::plain("ratelimiter.Reconciler");
                    if let Some(g) = args.get(2) {
                        o.set("global", g.clone());
                    }
                    return V::Ref(self.alloc(o));
                }
                ("ratelimiter", "LimitRESTConfig") => return self.limit_rest_config(cx, c),
                ("managed" | "providerconfig", "ControllerName") => {
                    let args = self.args(cx, c);
                    return match args.first() {
                        Some(V::Str(s)) => V::Str(format!("{tail}/{}", s.to_lowercase())),
                        Some(V::Unknown(w)) => V::Unknown(w.clone()),
                        _ => V::unknown("a controller name of a kind the reader does not hold"),
                    };
                }
                _ => {}
            }
        }
        if cr {
            match (tail.as_str(), name) {
                (_, "GetConfigOrDie" | "GetConfig" | "GetConfigWithContext") => {
                    self.args(cx, c);
                    let cfg = self.config(Origin::Loader, site);
                    return match name {
                        "GetConfigOrDie" => cfg,
                        _ => V::Tuple(vec![cfg, V::Nil]),
                    };
                }
                (_, "NewManager") | ("manager", "New") => return self.manager(cx, c),
                (
                    _,
                    "NewControllerManagedBy" | "ControllerManagedBy" | "TypedControllerManagedBy",
                ) => {
                    self.args(cx, c);
                    let b = Builder {
                        at: site,
                        ..Builder::default()
                    };
                    return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Builder(Box::new(b)))));
                }
                ("controller", "New" | "NewTyped" | "NewUnmanaged" | "NewTypedUnmanaged") => {
                    let args = self.args(cx, c);
                    let name = match args.first() {
                        Some(V::Str(n)) => n.clone(),
                        _ => String::new(),
                    };
                    let options = self.controller_options(args.get(2), site);
                    self.found(CtrlRec::new(name, String::new(), options, false, site));
                    return V::Tuple(vec![V::unknown("a controller"), V::Nil]);
                }
                ("source", "Kind" | "TypedKind") => {
                    let args = self.args(cx, c);
                    return args.into_iter().nth(1).unwrap_or(V::Nil);
                }
                _ => {}
            }
        }
        self.not_given(path, format!("{alias}.{name}"), site);
        let args = self.args(cx, c);
        self.callbacks(&args, (cx.file, c.pos.0), &format!("{alias}.{name}"));
        match args.iter().find_map(|a| match a {
            V::Unknown(why) => Some(why.clone()),
            _ => None,
        }) {
            Some(why) => V::unknown(format!("{alias}.{name}(…) of a value not known: {why}")),
            None => V::unknown(format!(
                "{alias}.{name}(…), a function of {path}, outside the files"
            )),
        }
    }

    /// A call of a method the files do not declare: the builder's links,
    /// the manager's, a config loader's, Crossplane's options, cobra's,
    /// kingpin's, a group's `Go`.
    pub(crate) fn outside_method(
        &mut self,
        cx: &Ctx<'a>,
        recv: V<'a>,
        name: &str,
        c: &'a Call,
    ) -> V<'a> {
        let site = (cx.file, c.pos.0);
        if let Some(v) = self.flag_call(
            cx,
            name,
            c,
            recv.obj()
                .is_some_and(|id| matches!(self.heap[id].kind, Kind::Command)),
        ) {
            return v;
        }
        if let Some(v) = self.kingpin(cx, &recv, name, c) {
            return v;
        }
        if let Some(v) = self.k8s_method(cx, &recv, name, c) {
            return v;
        }
        if let Some(id) = recv.obj() {
            if let Some(v) = self.informer_method(cx, id, name, c) {
                return v;
            }
        }
        let kind = recv.obj().map(|id| self.heap[id].kind.clone());
        // No argument is given on the command line the reader does not see.
        match name {
            "NArg" | "NFlag" if c.args.is_empty() => return V::Num(0.0),
            "Arg" if c.args.len() == 1 => return V::Str(String::new()),
            "Args" if c.args.is_empty() => {
                return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Slice(Vec::new()))))
            }
            _ => {}
        }
        match (kind, name) {
            (Some(Kind::Builder(_)), _) => return self.builder_link(cx, recv, name, c),
            // A queue read where the reader runs code, not in a worker: it
            // is shut down (a worker's loop run here ends at once).
            (Some(Kind::Queue(_)), "Get") => {
                return V::Tuple(vec![V::unknown("an item of the queue"), V::Bool(true)])
            }
            (Some(Kind::Queue(_)), "ShuttingDown") => return V::Bool(true),
            (Some(Kind::Manager { config }), "GetConfig") => return config,
            (Some(Kind::Manager { .. }), "GetControllerOptions") => {
                let id = recv.obj().unwrap_or_default();
                return self.heap[id].field("Controller").cloned().unwrap_or(V::Nil);
            }
            (
                Some(Kind::Command),
                "Execute" | "ExecuteC" | "ExecuteContext" | "ExecuteContextC",
            ) => {
                self.args(cx, c);
                let id = recv.obj().unwrap_or_default();
                for hook in [
                    "PersistentPreRunE",
                    "PersistentPreRun",
                    "PreRunE",
                    "PreRun",
                    "RunE",
                    "Run",
                ] {
                    if let Some(V::Func(f)) = self.heap[id].field(hook).cloned() {
                        self.call_func(
                            &f,
                            vec![recv.clone(), V::unknown("the command line's arguments")],
                            site,
                            false,
                        );
                    }
                }
                return V::Nil;
            }
            (Some(Kind::Command), "Flags" | "PersistentFlags" | "LocalFlags") => {
                return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Command)))
            }
            (_, "Go") => {
                let args = self.args(cx, c);
                if let Some(f) = args.into_iter().find(|a| matches!(a, V::Func(_))) {
                    self.start(f, Vec::new(), site);
                }
                return V::Nil;
            }
            (_, "ClientConfig")
                if recv
                    .obj()
                    .is_some_and(|id| self.heap[id].ty.name == "clientcmd.ClientConfig") =>
            {
                let cfg = self.config(Origin::ClientGo, site);
                return V::Tuple(vec![cfg, V::Nil]);
            }
            (Some(Kind::Plain), "ForControllerRuntime") => {
                let id = recv.obj().unwrap_or_default();
                let workers = self.member(V::Ref(id), "MaxConcurrentReconciles");
                let global = self.member(V::Ref(id), "GlobalRateLimiter");
                let mut o = Obj::new(
                    Ty {
                        name: "Options".into(),
                        path: "sigs.k8s.io/controller-runtime/pkg/controller".into(),
                        pkg: None,
                    },
                    Kind::Plain,
                );
                o.set("MaxConcurrentReconciles", workers);
                o.set(
                    "RateLimiter",
                    V::Limiter(
                        LimiterConfig::Exponential {
                            base_ns: Span::lit(SECOND),
                            max_ns: Span::lit(60 * SECOND),
                        },
                        self.new_limiter(Vec::new()),
                    ),
                );
                if let V::Global { .. } = global {
                    o.set("GlobalRateLimiter", global);
                }
                return V::Struct(self.alloc(o));
            }
            (Some(Kind::Plain), "Value")
                if recv
                    .obj()
                    .is_some_and(|id| self.heap[id].ty.name == "context.Context") =>
            {
                let Some(k) = self.args(cx, c).into_iter().next() else {
                    return V::unknown("a context value without a key");
                };
                let key = self.context_key(&k);
                let mut cur = recv.obj();
                for _ in 0..64 {
                    let Some(id) = cur.filter(|id| self.heap[*id].ty.name == "context.Context")
                    else {
                        break;
                    };
                    if matches!(self.heap[id].field("key"), Some(V::Str(k)) if *k == key) {
                        return self.heap[id].field("value").cloned().unwrap_or(V::Nil);
                    }
                    cur = self.heap[id].field("parent").and_then(V::obj);
                }
                return V::unknown("a value the context was not given where it can be read");
            }
            (_, "String" | "GroupKind") if c.args.is_empty() => {
                if let V::Str(_) = recv {
                    return recv;
                }
                // `schema.GroupKind{Group: g, Kind: k}.String()`: "k.g", or
                // the kind alone without a group (apimachinery's own rule).
                if let Some(id) = recv
                    .obj()
                    .filter(|id| self.heap[*id].ty.name == "GroupKind")
                {
                    let text = |f: &str| match self.heap[id].field(f) {
                        Some(V::Str(s)) => Some(s.clone()),
                        _ => None,
                    };
                    return match (text("Kind"), text("Group")) {
                        (Some(k), Some(g)) if !g.is_empty() => V::Str(format!("{k}.{g}")),
                        (Some(k), _) => V::Str(k),
                        _ => V::unknown("a GroupKind whose kind the reader does not hold"),
                    };
                }
            }
            // `reflect.TypeOf(Kiln{}).Name()`: the kind a provider names
            // its API types by (reflect's TypeOf below gives the name).
            (_, "Name") if c.args.is_empty() && matches!(recv, V::Str(_)) => return recv,
            // `gv.WithKind("Berth")` of a group version declared outside the
            // files: the kind, its group left open ("Berth.").
            (_, "WithKind") if matches!(recv, V::Unknown(_)) => {
                if let Some(V::Str(k)) = self.args(cx, c).first() {
                    self.note(false, cx.file, c.pos.0, format!("the group of kind {k} is declared outside the files: a key of the form {k}.<group> is matched by its kind"));
                    return V::Str(format!("{k}."));
                }
            }
            _ => {}
        }
        let args = self.args(cx, c);
        self.callbacks(&args, site, &describe(&c.func));
        match recv {
            V::Unknown(why) => V::Unknown(why),
            _ => V::unknown(format!("the call {}(…)", describe(&c.func))),
        }
    }

    /// A context key as text: its type's name, or its own text.
    fn context_key(&self, k: &V<'a>) -> String {
        match k {
            V::Str(s) => format!("text {s}"),
            other => match other.obj() {
                Some(id) => format!("type {}", self.heap[id].ty.name),
                None => format!("{other:?}"),
            },
        }
    }

    /// Function literals given to a call outside the files (a gate's
    /// `Register(func() { Setup(…) })`): the program runs them at some
    /// point, so they are read as run.
    fn callbacks(&mut self, args: &[V<'a>], site: (usize, usize), what: &str) {
        for a in args {
            if let V::Func(f) = a {
                if let super::val::Func::Lit { .. } = **f {
                    self.note(
                        false,
                        site.0,
                        site.1,
                        format!("the function given to {what}(…) is read as run"),
                    );
                    self.call_func(f, Vec::new(), site, false);
                }
            }
            // Leader election's `Callbacks: {OnStartedLeading: func(ctx) {…}}`:
            // the program's work starts there once it leads.
            let Some(id) = a.obj() else { continue };
            let mut nested = vec![id];
            let mut seen = 0;
            while let Some(o) = nested.pop() {
                seen += 1;
                if seen > 8 {
                    break;
                }
                for (k, v) in self.heap[o].fields.clone() {
                    match v {
                        V::Func(f) if k == "OnStartedLeading" => {
                            self.note(false, site.0, site.1, format!("{what}(…): the program is read as the leader: OnStartedLeading runs"));
                            self.call_func(
                                &f,
                                vec![V::unknown("the leader's context")],
                                site,
                                false,
                            );
                        }
                        V::Struct(inner) | V::Ref(inner) => nested.push(inner),
                        _ => {}
                    }
                }
            }
        }
    }
}

pub(super) fn num(v: Option<&V<'_>>) -> Result<f64, String> {
    match v {
        Some(V::Num(n)) => Ok(*n),
        Some(V::Dur(d)) => Ok(d.as_nanos() as f64),
        Some(V::Unknown(w)) => Err(w.clone()),
        Some(other) => Err(format!("{} is not a number", short(other))),
        None => Err("an argument is missing".into()),
    }
}

/// A duration argument for a field whose range is its type: refused, in
/// the type's words, where it is out of range.
pub(super) fn span<const MIN: i64, const MAX: i64>(
    v: Option<&V<'_>>,
) -> Result<workqueue_core::Span<MIN, MAX>, String> {
    dur(v).and_then(|d| workqueue_core::Span::new(d).map_err(|e| e.to_string()))
}

pub(super) fn dur(v: Option<&V<'_>>) -> Result<Duration, String> {
    match v {
        Some(V::Dur(d)) => Ok(*d),
        Some(V::Num(n)) => crate::num::duration(*n),
        Some(V::Str(s)) => workqueue_core::parse_go_duration(s).map_err(|e| e.to_string()),
        Some(V::Unknown(w)) => Err(w.clone()),
        Some(other) => Err(format!("{} is not a duration", short(other))),
        None => Err("an argument is missing".into()),
    }
}
