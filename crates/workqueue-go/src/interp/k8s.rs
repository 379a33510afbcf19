//! Kubernetes' own helper packages a set-up leans on, read as they behave:
//! component-base's feature gates (`featuregate.NewFeatureGate()`, `Add`,
//! `AddVersioned`, `Enabled`: a gate is its default, the command line being
//! one the reader does not see), apimachinery's sets (`sets.New`, `Insert`,
//! `Has`, `Delete`, `sets.List`) and a `runtime.Scheme`'s `Default` and
//! `Convert` (the defaulting functions the files declare by defaulter-gen's
//! names, `SetObjectDefaults_T` else `SetDefaults_T`; fields copied by name).

use gosyn::ast::{Call, Declaration, Element, Expression, LiteralValue};

use super::expr::same;
use super::val::{Func, Kind, Obj, Ty, V};
use super::{Ctx, Global, Interp};

const GATE: &str = "k8s.io/component-base/featuregate";
const SETS: &str = "k8s.io/apimachinery/pkg/util/sets";
const SCHEME: &str = "k8s.io/apimachinery/pkg/runtime";

fn ty(name: &str, path: &str) -> Ty {
    Ty {
        pkg: None,
        path: path.to_string(),
        name: name.to_string(),
    }
}

impl<'a> Interp<'a> {
    fn is(&self, v: &V<'a>, name: &str, path: &str) -> Option<usize> {
        let id = v.obj()?;
        let t = &self.heap[id].ty;
        (t.pkg.is_none() && t.name == name && t.path == path).then_some(id)
    }

    /// A function of featuregate, sets or runtime the reader knows.
    pub(crate) fn k8s_fn(
        &mut self,
        cx: &Ctx<'a>,
        path: &str,
        name: &str,
        c: &'a Call,
    ) -> Option<V<'a>> {
        match (path, name) {
            (GATE, "NewFeatureGate") => {
                self.args(cx, c);
                Some(V::Ref(self.alloc(Obj::new(
                    ty("FeatureGate", GATE),
                    Kind::Map(Vec::new()),
                ))))
            }
            (SETS, n) if n == "New" || (n.starts_with("New") && n.len() <= 9) => {
                let items = self.args(cx, c);
                let id = self.alloc(Obj::new(ty("Set", SETS), Kind::Map(Vec::new())));
                self.set_insert(id, items);
                Some(V::Ref(id))
            }
            (SETS, "List") => {
                let args = self.args(cx, c);
                let set = args.first().and_then(|a| self.is(a, "Set", SETS));
                Some(match set {
                    Some(id) => self.set_list(id, true),
                    None => V::unknown("sets.List of a set the reader does not hold"),
                })
            }
            (SCHEME, "NewScheme") => {
                self.args(cx, c);
                Some(V::Ref(
                    self.alloc(Obj::new(ty("Scheme", SCHEME), Kind::Plain)),
                ))
            }
            _ => None,
        }
    }

    /// A method of a gate, a set or a scheme the reader made.
    pub(crate) fn k8s_method(
        &mut self,
        cx: &Ctx<'a>,
        recv: &V<'a>,
        name: &str,
        c: &'a Call,
    ) -> Option<V<'a>> {
        let site = (cx.file, c.pos.0);
        if let Some(id) = self.is(recv, "FeatureGate", GATE) {
            return Some(self.gate_method(cx, id, name, c));
        }
        if let Some(id) = self.is(recv, "Set", SETS) {
            return self.set_method(cx, id, name, c);
        }
        self.is(recv, "Scheme", SCHEME)?;
        match name {
            "Default" if c.args.len() == 1 => {
                let obj = self.eval(cx, &c.args[0]);
                Some(self.scheme_default(obj, site))
            }
            "Convert" if c.args.len() >= 2 => {
                let args = self.args(cx, c);
                let (Some(from), Some(to)) = (args[0].obj(), args[1].obj()) else {
                    return Some(V::unknown(
                        "a conversion of values the reader does not hold",
                    ));
                };
                let fields = self.heap[from].fields.clone();
                for (k, v) in fields {
                    let v = self.copy(v);
                    self.heap[to].set(&k, v);
                }
                let (a, b) = (
                    self.heap[from].ty.name.clone(),
                    self.heap[to].ty.name.clone(),
                );
                self.note(
                    true,
                    site.0,
                    site.1,
                    format!("scheme.Convert: the {a}'s fields copied by name into the {b} (what generated conversions do for fields of the same name)"),
                );
                Some(V::Nil)
            }
            _ => None,
        }
    }

    fn gate_method(&mut self, cx: &Ctx<'a>, id: usize, name: &str, c: &'a Call) -> V<'a> {
        let site = (cx.file, c.pos.0);
        match name {
            "Add" | "AddVersioned" => {
                let Some(arg) = c.args.first() else {
                    return V::Nil;
                };
                let Some((file, lit)) = self.map_literal(cx, arg) else {
                    self.args(cx, c);
                    self.note(
                        false,
                        site.0,
                        site.1,
                        "feature gates added from a value that is not a map literal of the files: their defaults are not known".into(),
                    );
                    return V::Nil;
                };
                let fcx = Ctx {
                    file,
                    pkg: self.file_pkg[file],
                    scope: super::scope::root(),
                };
                for el in &lit.values {
                    let (Some(Element::Expr(k)), Element::LitValue(spec)) = (&el.key, &el.val)
                    else {
                        continue;
                    };
                    let key = self.eval(&fcx, k);
                    // A versioned gate's specs run oldest to newest: the
                    // newest one is the binary's.
                    let spec = match name {
                        "AddVersioned" => spec.values.iter().rev().find_map(|e| match &e.val {
                            Element::LitValue(l) => Some(l),
                            _ => None,
                        }),
                        _ => Some(spec),
                    };
                    let default = spec
                        .and_then(|s| {
                            s.values.iter().find_map(|e| match (&e.key, &e.val) {
                                (Some(Element::Expr(Expression::Ident(i))), Element::Expr(v))
                                    if i.name == "Default" =>
                                {
                                    Some(v)
                                }
                                _ => None,
                            })
                        })
                        .map_or(V::Bool(false), |v| self.eval(&fcx, v));
                    let at = crate::found::pos(k);
                    let entry = self.alloc(Obj::new(Ty::default(), Kind::Plain));
                    self.heap[entry].set("Default", default);
                    self.heap[entry].set("$file", V::Num(file as f64));
                    self.heap[entry].set("$pos", V::Num(at as f64));
                    if let Kind::Map(kv) = &mut self.heap[id].kind {
                        kv.retain(|(k, _)| !same(k, &key));
                        kv.push((key, V::Ref(entry)));
                    }
                }
                V::Nil
            }
            "Enabled" => {
                let key = c.args.first().map(|a| self.eval(cx, a)).unwrap_or(V::Nil);
                let entry = match &self.heap[id].kind {
                    Kind::Map(kv) => kv
                        .iter()
                        .find(|(k, _)| same(k, &key))
                        .map(|(_, v)| v.clone()),
                    _ => None,
                };
                let gate = match &key {
                    V::Str(s) => s.clone(),
                    k => super::expr::short(k),
                };
                let Some(e) = entry.and_then(|e| e.obj()) else {
                    return V::unknown(format!(
                        "the feature gate {gate} is not added where the reader can see it"
                    ));
                };
                let on = self.heap[e]
                    .field("Default")
                    .cloned()
                    .unwrap_or(V::Bool(false));
                let at = match (self.heap[e].field("$file"), self.heap[e].field("$pos")) {
                    (Some(V::Num(f)), Some(V::Num(p))) => {
                        let (f, l) = self.at(*f as usize, *p as usize);
                        format!("{f}:{l}")
                    }
                    _ => String::new(),
                };
                let text = match &on {
                    V::Bool(true) => format!("feature gate {gate}: on by default ({at}); --feature-gates={gate}=false turns off what it guards here"),
                    V::Bool(false) => format!("feature gate {gate}: off by default ({at}): what it guards here does not run (--feature-gates={gate}=true would run it)"),
                    _ => format!("feature gate {gate}: its default is not known ({at})"),
                };
                self.note(true, site.0, site.1, text);
                on
            }
            _ => {
                // Set, SetFromMap, AddFlag, …: flags and files the reader
                // does not see leave every gate at its default.
                self.args(cx, c);
                V::Nil
            }
        }
    }

    /// The map literal a gate's `Add` is given: written in place, or a
    /// package variable of the files.
    fn map_literal(&self, cx: &Ctx<'a>, arg: &'a Expression) -> Option<(usize, &'a LiteralValue)> {
        let (pkg, name, file) = match arg {
            Expression::CompositeLit(l) => return Some((cx.file, &l.val)),
            Expression::Ident(i) => (cx.pkg, i.name.as_str(), cx.file),
            Expression::Selector(s) => match &*s.x {
                Expression::Ident(p) => (
                    self.package_of(cx.file, &p.name)?,
                    s.sel.name.as_str(),
                    cx.file,
                ),
                _ => return None,
            },
            _ => return None,
        };
        let _ = file;
        if !matches!(
            self.pkgs[pkg].globals.get(name),
            Some(Global::Pending { .. } | Global::Done(_))
        ) {
            return None;
        }
        for (f, s) in self.sources.iter().enumerate() {
            if self.file_pkg.get(f) != Some(&pkg) {
                continue;
            }
            for d in &s.file.decl {
                let Declaration::Variable(v) = d else {
                    continue;
                };
                for spec in &v.specs {
                    if let Some(at) = spec.name.iter().position(|n| n.name == name) {
                        if let Some(Expression::CompositeLit(l)) = spec.values.get(at) {
                            return Some((f, &l.val));
                        }
                    }
                }
            }
        }
        None
    }

    fn set_insert(&mut self, id: usize, items: Vec<V<'a>>) {
        // `sets.Set[T]{}` written as a literal is an empty set.
        if matches!(self.heap[id].kind, Kind::Plain) {
            self.heap[id].kind = Kind::Map(Vec::new());
        }
        if let Kind::Map(kv) = &mut self.heap[id].kind {
            for it in items {
                if !kv.iter().any(|(k, _)| same(k, &it)) {
                    kv.push((it, V::Bool(true)));
                }
            }
        }
    }

    fn set_list(&mut self, id: usize, sorted: bool) -> V<'a> {
        let mut items: Vec<V<'a>> = match &self.heap[id].kind {
            Kind::Map(kv) => kv.iter().map(|(k, _)| k.clone()).collect(),
            _ => Vec::new(),
        };
        if sorted {
            items.sort_by(|a, b| match (a, b) {
                (V::Str(x), V::Str(y)) => x.cmp(y),
                (V::Num(x), V::Num(y)) => x.total_cmp(y),
                _ => std::cmp::Ordering::Equal,
            });
        }
        V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Slice(items))))
    }

    fn set_method(&mut self, cx: &Ctx<'a>, id: usize, name: &str, c: &'a Call) -> Option<V<'a>> {
        let args = self.args(cx, c);
        let items: Vec<V<'a>> = match &self.heap[id].kind {
            Kind::Map(kv) => kv.iter().map(|(k, _)| k.clone()).collect(),
            _ => Vec::new(),
        };
        let unknown = items.iter().find_map(|k| match k {
            V::Unknown(w) => Some(w.clone()),
            _ => None,
        });
        let has = |x: &V<'a>| -> V<'a> {
            if let V::Unknown(w) = x {
                return V::Unknown(w.clone());
            }
            match (items.iter().any(|k| same(k, x)), &unknown) {
                (true, _) => V::Bool(true),
                (false, Some(w)) => V::unknown(format!("a set holding a value not known: {w}")),
                (false, None) => V::Bool(false),
            }
        };
        Some(match name {
            "Insert" => {
                self.set_insert(id, args);
                V::Ref(id)
            }
            "Delete" => {
                if let Kind::Map(kv) = &mut self.heap[id].kind {
                    kv.retain(|(k, _)| !args.iter().any(|a| same(k, a)));
                }
                V::Ref(id)
            }
            "Has" if args.len() == 1 => has(&args[0]),
            "HasAny" => {
                let answers: Vec<V<'a>> = args.iter().map(has).collect();
                match answers.iter().find(|a| matches!(a, V::Bool(true))) {
                    Some(_) => V::Bool(true),
                    None => answers
                        .into_iter()
                        .find(|a| matches!(a, V::Unknown(_)))
                        .unwrap_or(V::Bool(false)),
                }
            }
            "HasAll" => {
                let answers: Vec<V<'a>> = args.iter().map(has).collect();
                match answers.iter().find(|a| matches!(a, V::Bool(false))) {
                    Some(_) => V::Bool(false),
                    None => answers
                        .into_iter()
                        .find(|a| matches!(a, V::Unknown(_)))
                        .unwrap_or(V::Bool(true)),
                }
            }
            "Len" => V::Num(items.len() as f64),
            "UnsortedList" => self.set_list(id, false),
            _ => return None,
        })
    }

    /// `scheme.Default(obj)`: the files' defaulting function for obj's
    /// type, by defaulter-gen's names.
    fn scheme_default(&mut self, obj: V<'a>, site: (usize, usize)) -> V<'a> {
        let Some(id) = obj.obj() else {
            self.note(
                false,
                site.0,
                site.1,
                "scheme.Default of a value the reader does not hold: no defaults are filled".into(),
            );
            return V::Nil;
        };
        let t = self.heap[id].ty.clone();
        let mut found: Option<Func<'a>> = None;
        'names: for prefix in ["SetObjectDefaults_", "SetDefaults_"] {
            let fname = format!("{prefix}{}", t.name);
            for p in 0..self.pkgs.len() {
                if let Some(Global::Func(file, decl)) = self.pkgs[p].globals.get(&fname).cloned() {
                    if self.param_is(file, decl, &t) {
                        found = Some(Func::Decl {
                            file,
                            decl,
                            recv: None,
                        });
                        break 'names;
                    }
                }
            }
        }
        let Some(f) = found else {
            self.note(
                false,
                site.0,
                site.1,
                format!("scheme.Default of a {}: no SetDefaults_{} among the files: its fields keep their zero values", t.name, t.name),
            );
            return V::Nil;
        };
        if let Func::Decl { file, decl, .. } = &f {
            let (fname, line) = self.at(*file, decl.name.pos);
            self.note(
                true,
                site.0,
                site.1,
                format!(
                    "scheme.Default: {} ({fname}:{line}) fills the {}'s defaults",
                    decl.name.name, t.name
                ),
            );
        }
        self.call_func(&f, vec![V::Ref(id)], site, false);
        V::Nil
    }

    /// Whether a function's first parameter is (a pointer to) type `t`.
    fn param_is(&self, file: usize, decl: &'a gosyn::ast::FuncDecl, t: &Ty) -> bool {
        let Some(p) = decl.typ.params.list.first() else {
            return false;
        };
        let mut e = &p.typ;
        loop {
            e = match e {
                Expression::Star(s) => &s.right,
                Expression::TypePointer(p) => &p.typ,
                _ => break,
            };
        }
        match e {
            Expression::Ident(i) => {
                i.name == t.name && (t.pkg.is_none() || t.pkg == Some(self.file_pkg[file]))
            }
            Expression::Selector(s) => {
                let Expression::Ident(alias) = &*s.x else {
                    return false;
                };
                s.sel.name == t.name
                    && (t.path.is_empty()
                        || self
                            .imports
                            .get(file)
                            .and_then(|m| m.get(&alias.name))
                            .is_none_or(|p| *p == t.path)
                        || t.pkg.is_some())
            }
            _ => false,
        }
    }
}
