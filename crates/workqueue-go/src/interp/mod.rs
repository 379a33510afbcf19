//! Go evaluated as Go does, within what a set-up needs: the program runs
//! from its package variables, its `init()`s and `main()` (or, for a paste
//! without `main`, from each function nothing else calls), and every call
//! of a function in the files binds its arguments to its parameters.
//! Names are looked up by scope (the block, the function, the package,
//! another package of the files through its import), never across files'
//! locals. Controllers are recorded where they are built at run time, and
//! client-go queues count the goroutines that drain them.
//!
//! Bounds: every value computed and every statement run is a step of
//! [`MAX_STEPS`]; evaluation, statements and calls together nest at most
//! [`MAX_DEPTH`] deep; a loop runs at most [`MAX_ITERATIONS`] times.

use std::collections::{HashMap, HashSet};

use gosyn::ast::{Declaration, Expression, FuncDecl};

use crate::found::Found;
use crate::source::Source;

mod calls;
mod clientgo;
mod expr;
mod flags;
mod informers;
mod k8s;
mod outside;
pub(crate) mod record;
mod retries;
mod runtime;
pub(crate) mod scope;
mod stmt;
pub(crate) mod val;
mod workers;

use record::{ClientRec, CtrlRec, ManagerRec};
use scope::Scope;
use val::{Obj, V};

/// Evaluation steps one import may take, all files together.
pub(crate) const MAX_STEPS: u64 = 1_000_000;
/// How deep evaluation, statements and calls may nest together.
pub(crate) const MAX_DEPTH: usize = 2 * crate::source::MAX_DEPTH;
/// How many times one loop runs at most.
pub(crate) const MAX_ITERATIONS: usize = 4096;
/// Objects one import may make (each is a step too; this bounds memory).
const MAX_OBJECTS: usize = 200_000;
/// How deep calls of the files' functions go.
const MAX_CALLS: usize = 64;

/// A package of the files: a folder's files with one `package` clause.
pub(crate) struct Pkg<'a> {
    pub name: String,
    pub dir: String,
    pub globals: HashMap<String, Global<'a>>,
    pub types: HashSet<String>,
}

/// A package-level name: a variable evaluated when first read (in
/// declaration order otherwise), a function, or a constant.
#[derive(Clone)]
pub(crate) enum Global<'a> {
    Pending {
        file: usize,
        expr: Option<&'a Expression>,
        /// Which of a call's several results.
        nth: Option<usize>,
    },
    Busy,
    Done(V<'a>),
    Func(usize, &'a FuncDecl),
}

/// Where the running code is: its file, its package, its block.
#[derive(Clone)]
pub(crate) struct Ctx<'a> {
    pub file: usize,
    pub pkg: usize,
    pub scope: Scope<'a>,
}

pub(crate) struct Interp<'a> {
    pub sources: &'a [Source],
    pub pkgs: Vec<Pkg<'a>>,
    /// Each file's package and its imports (name → path).
    pub file_pkg: Vec<usize>,
    pub imports: Vec<HashMap<String, String>>,
    /// Methods by (package, type, name).
    pub methods: HashMap<(usize, String, String), (usize, &'a FuncDecl)>,
    pub heap: Vec<Obj<'a>>,
    pub steps: u64,
    pub depth: usize,
    pub calls: usize,
    /// The outermost statement running: where a budget running out is said.
    pub anchor: (usize, usize),
    pub out_of_steps: Option<(usize, usize)>,
    pub taken: Vec<Found>,
    pub unread: Vec<Found>,
    said: HashSet<(bool, Found)>,
    pub ctrls: Vec<CtrlRec>,
    pub clients: Vec<ClientRec>,
    pub managers: Vec<ManagerRec<'a>>,
    /// Objects made so far (client buckets, global buckets): each call one.
    pub made: usize,
    /// Names and positions of the calls running (for "from" chains).
    pub stack: Vec<(usize, usize)>,
    /// Crossplane global buckets that gate a controller (each `NewGlobal` one).
    pub global_buckets: Vec<usize>,
    /// Every rate limiter instance made (`V::Limiter`'s and `V::Rate`'s
    /// index): the instances it is made of (a max-of's parts).
    pub limiters: Vec<Vec<usize>>,
    /// Whether the running call has read a block whose condition or count
    /// it could not tell (its yes/no answer then is not known).
    pub guessed: bool,
    /// Which start of the program runs now.
    pub root: usize,
    /// Why the loop running now runs a count the reader cannot tell.
    pub loop_unknown: Option<String>,
    /// Struct types' fields and their types, by (package, type).
    pub structs: HashMap<(usize, String), Vec<(String, &'a Expression)>>,
    /// Retry limits (`NumRequeues(key) < N`) the scan of a worker found.
    pub retries_seen: Vec<retries::RetrySeen>,
    /// Event handlers added to informers.
    pub handlers: Vec<informers::Handler<'a>>,
    /// Calls into packages of the program whose files were not given
    /// (`pkg.Func`, its import path, where), the first [`MAX_NOT_GIVEN`];
    /// and how many more.
    pub not_given: Vec<(String, String, (usize, usize))>,
    pub not_given_more: usize,
}

/// Calls into packages not given, kept to name them.
const MAX_NOT_GIVEN: usize = 64;

/// Module paths of libraries a set-up uses (not the program's own code,
/// whose files the user may have left out).
const LIBRARIES: &[&str] = &[
    "k8s.io/client-go/",
    "k8s.io/apimachinery/",
    "k8s.io/api/",
    "k8s.io/klog",
    "k8s.io/utils/",
    "k8s.io/component-base/",
    "k8s.io/apiextensions-apiserver/",
    "k8s.io/apiserver/",
    "sigs.k8s.io/controller-runtime",
    "sigs.k8s.io/yaml",
    "golang.org/x/",
    "google.golang.org/",
    "go.uber.org/",
    "go.opentelemetry.io/",
    "gopkg.in/",
    "github.com/spf13/",
    "github.com/go-logr/",
    "github.com/prometheus/",
    "github.com/pkg/errors",
    "github.com/crossplane/crossplane-runtime",
    "github.com/alecthomas/kingpin",
    "github.com/onsi/",
    "github.com/stretchr/",
    "github.com/google/",
];

impl<'a> Interp<'a> {
    pub(crate) fn new(sources: &'a [Source]) -> Self {
        let mut it = Interp {
            sources,
            pkgs: Vec::new(),
            file_pkg: Vec::new(),
            imports: Vec::new(),
            methods: HashMap::new(),
            heap: Vec::new(),
            steps: 0,
            depth: 0,
            calls: 0,
            anchor: (0, 0),
            out_of_steps: None,
            taken: Vec::new(),
            unread: Vec::new(),
            said: HashSet::new(),
            ctrls: Vec::new(),
            clients: Vec::new(),
            managers: Vec::new(),
            made: 0,
            stack: Vec::new(),
            global_buckets: Vec::new(),
            loop_unknown: None,
            root: 0,
            guessed: false,
            limiters: Vec::new(),
            structs: HashMap::new(),
            retries_seen: Vec::new(),
            handlers: Vec::new(),
            not_given: Vec::new(),
            not_given_more: 0,
        };
        it.index();
        it
    }

    /// Packages by folder and clause; their names, types and methods.
    fn index(&mut self) {
        for (i, s) in self.sources.iter().enumerate() {
            let dir = match s.name.rfind('/') {
                Some(at) => s.name[..at].to_string(),
                None => String::new(),
            };
            let name = s.file.pkg_name.name.clone();
            let pkg = match self
                .pkgs
                .iter()
                .position(|p| p.dir == dir && p.name == name)
            {
                Some(p) => p,
                None => {
                    self.pkgs.push(Pkg {
                        name,
                        dir,
                        globals: HashMap::new(),
                        types: HashSet::new(),
                    });
                    self.pkgs.len() - 1
                }
            };
            self.file_pkg.push(pkg);
            let imports = s
                .file
                .imports
                .iter()
                .map(|im| {
                    let path = crate::literal::unquote(&im.path.value);
                    let alias = match &im.name {
                        Some(n) => n.name.clone(),
                        None => last_name(&path),
                    };
                    (alias, path)
                })
                .collect();
            self.imports.push(imports);
            for d in &s.file.decl {
                self.declare(i, pkg, d);
            }
        }
    }

    fn declare(&mut self, file: usize, pkg: usize, d: &'a Declaration) {
        match d {
            Declaration::Function(f) => match f.recv.as_ref().and_then(|r| r.list.first()) {
                Some(recv) => {
                    let ty = crate::eval::name_of(&recv.typ).unwrap_or("").to_string();
                    self.methods
                        .insert((pkg, ty, f.name.name.clone()), (file, f));
                }
                None if f.name.name == "init" || f.name.name == "_" => {}
                None => {
                    self.pkgs[pkg]
                        .globals
                        .insert(f.name.name.clone(), Global::Func(file, f));
                }
            },
            Declaration::Variable(v) => {
                for spec in &v.specs {
                    bind_spec(&mut self.pkgs[pkg].globals, file, &spec.name, &spec.values);
                }
            }
            Declaration::Const(c) => {
                for spec in &c.specs {
                    bind_spec(&mut self.pkgs[pkg].globals, file, &spec.name, &spec.values);
                }
            }
            Declaration::Type(t) => {
                for spec in &t.specs {
                    self.pkgs[pkg].types.insert(spec.name.name.clone());
                    if let Expression::TypeStruct(st) = &spec.typ {
                        let fields = st
                            .fields
                            .iter()
                            .flat_map(|f| {
                                let names: Vec<String> = match f.name.is_empty() {
                                    // An embedded field is named by its type.
                                    true => crate::eval::name_of(&f.typ)
                                        .map(str::to_string)
                                        .into_iter()
                                        .collect(),
                                    false => f.name.iter().map(|n| n.name.clone()).collect(),
                                };
                                names.into_iter().map(move |n| (n, &f.typ))
                            })
                            .collect();
                        self.structs.insert((pkg, spec.name.name.clone()), fields);
                    }
                }
            }
        }
    }

    /// Runs the program: package variables, `init()`s, `main()`; without
    /// a `main`, each function nothing in the files calls.
    pub(crate) fn run(&mut self) {
        for pkg in 0..self.pkgs.len() {
            let mut names: Vec<(String, (usize, usize))> = self.pkgs[pkg]
                .globals
                .iter()
                .filter_map(|(n, g)| match g {
                    Global::Pending { file, expr, .. } => {
                        Some((n.clone(), (*file, expr.map_or(0, crate::found::pos))))
                    }
                    _ => None,
                })
                .collect();
            names.sort_by_key(|(_, p)| *p);
            for (name, _) in names {
                if let Some(Global::Pending { file, expr, .. }) =
                    self.pkgs[pkg].globals.get(&name).cloned()
                {
                    self.anchor = (file, expr.map_or(0, crate::found::pos));
                    self.global(pkg, &name);
                    if self.exhausted() {
                        return;
                    }
                }
            }
        }
        let mut inits = Vec::new();
        let mut mains = Vec::new();
        for (i, s) in self.sources.iter().enumerate() {
            for d in &s.file.decl {
                if let Declaration::Function(f) = d {
                    if f.recv.is_none() && f.name.name == "init" {
                        inits.push((i, f));
                    }
                    if f.recv.is_none() && f.name.name == "main" && s.file.pkg_name.name == "main" {
                        mains.push((i, f));
                    }
                }
            }
        }
        // Packages other than main first: they are initialised before it.
        inits.sort_by_key(|(i, _)| self.sources[*i].file.pkg_name.name == "main");
        for (file, f) in inits {
            self.run_root(file, f);
        }
        if mains.is_empty() {
            for (file, f) in self.roots() {
                self.run_root(file, f);
            }
        } else {
            if mains.len() > 1 {
                let names: Vec<&str> = mains
                    .iter()
                    .map(|(i, _)| self.sources[*i].name.as_str())
                    .collect();
                self.note(
                    false,
                    mains[0].0,
                    mains[0].1.name.pos,
                    format!(
                        "{} programs (func main in {}): their controllers are read together",
                        mains.len(),
                        names.join(", ")
                    ),
                );
            }
            for (file, f) in mains {
                self.run_root(file, f);
            }
        }
    }

    /// Functions and methods no code in the files names: where a paste
    /// without `main` starts.
    fn roots(&self) -> Vec<(usize, &'a FuncDecl)> {
        let (mut funcs, mut methods) = (HashSet::new(), HashSet::new());
        for (i, s) in self.sources.iter().enumerate() {
            calls::names_used(&s.file, &self.imports[i], &mut funcs, &mut methods);
        }
        let mut out = Vec::new();
        for (i, s) in self.sources.iter().enumerate() {
            for d in &s.file.decl {
                if let Declaration::Function(f) = d {
                    let called = match f.recv {
                        Some(_) => methods.contains(&f.name.name),
                        None => funcs.contains(&f.name.name),
                    };
                    if f.name.name != "init" && !called {
                        out.push((i, f));
                    }
                }
            }
        }
        out
    }

    fn run_root(&mut self, file: usize, f: &'a FuncDecl) {
        if self.exhausted() {
            return;
        }
        self.root += 1;
        let recv = f.recv.as_ref().and_then(|r| r.list.first()).map(|field| {
            let ty = crate::eval::name_of(&field.typ).unwrap_or("").to_string();
            let ty = val::Ty {
                pkg: Some(self.file_pkg[file]),
                path: String::new(),
                name: ty,
            };
            V::Ref(self.alloc(Obj::new(ty, val::Kind::Plain)))
        });
        let func = val::Func::Decl {
            file,
            decl: f,
            recv,
        };
        let _ = self.call_func(&func, Vec::new(), (file, f.name.pos), true);
    }

    /// A file of a package (for reading its types' names).
    pub(crate) fn pkg_file(&self, pkg: usize) -> usize {
        self.file_pkg.iter().position(|p| *p == pkg).unwrap_or(0)
    }

    pub(crate) fn alloc(&mut self, o: Obj<'a>) -> val::ObjId {
        if self.heap.len() >= MAX_OBJECTS && self.out_of_steps.is_none() {
            self.out_of_steps = Some(self.anchor);
        }
        self.heap.push(o);
        self.heap.len() - 1
    }

    /// A new rate limiter instance made of `parts` (its index).
    pub(crate) fn new_limiter(&mut self, parts: Vec<usize>) -> usize {
        self.limiters.push(parts);
        self.limiters.len() - 1
    }

    /// One step of the budget; false once it has run out.
    pub(crate) fn step(&mut self) -> bool {
        self.steps = self.steps.saturating_add(1);
        if self.steps > MAX_STEPS {
            if self.out_of_steps.is_none() {
                self.out_of_steps = Some(self.anchor);
            }
            return false;
        }
        true
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.out_of_steps.is_some()
    }

    /// A file's name and the line of a position in it.
    pub(crate) fn at(&self, file: usize, p: usize) -> (String, usize) {
        let s = &self.sources[file];
        (s.name.clone(), s.line(p))
    }

    /// Says what was taken (`true`) or not read, once.
    pub(crate) fn note(&mut self, took: bool, file: usize, p: usize, text: String) {
        let (file, line) = self.at(file, p);
        let f = Found { file, line, text };
        if !self.said.insert((took, f.clone())) {
            return;
        }
        match took {
            true => self.taken.push(f),
            false => self.unread.push(f),
        }
    }

    /// The import path a package name of `file` stands for: its import,
    /// else (a paste without its imports) the package that name usually
    /// stands for in a set-up.
    pub(crate) fn path_of(&self, file: usize, alias: &str) -> Option<String> {
        if let Some(p) = self.imports.get(file).and_then(|m| m.get(alias)) {
            return Some(p.clone());
        }
        let xp = "github.com/crossplane/crossplane-runtime/pkg";
        let cr = "sigs.k8s.io/controller-runtime";
        Some(match alias {
            "ctrl" | "controllerruntime" => cr.to_string(),
            "builder" | "controller" | "manager" | "source" | "handler" | "reconcile" => {
                format!("{cr}/pkg/{alias}")
            }
            "config" => format!("{cr}/pkg/client/config"),
            "workqueue" | "flowcontrol" => format!("k8s.io/client-go/util/{alias}"),
            "kubernetes" | "dynamic" | "metadata" | "rest" | "discovery" => {
                format!("k8s.io/client-go/{alias}")
            }
            "clientcmd" => "k8s.io/client-go/tools/clientcmd".into(),
            "wait" => "k8s.io/apimachinery/pkg/util/wait".into(),
            "rate" => "golang.org/x/time/rate".into(),
            "errgroup" => "golang.org/x/sync/errgroup".into(),
            "ptr" | "pointer" => format!("k8s.io/utils/{alias}"),
            "pflag" | "cobra" => format!("github.com/spf13/{alias}"),
            "kingpin" => "github.com/alecthomas/kingpin/v2".into(),
            "ratelimiter" => format!("{xp}/ratelimiter"),
            "managed" | "providerconfig" => format!("{xp}/reconciler/{alias}"),
            "time" | "flag" | "os" | "strings" | "runtime" | "slices" | "fmt" => alias.into(),
            _ => return None,
        })
    }

    /// A call of a function of `path` the reader could not follow: kept
    /// when `path` is the program's own (not the standard library's, not
    /// a library's), to name what files to add if nothing is found.
    pub(crate) fn not_given(&mut self, path: &str, call: String, site: (usize, usize)) {
        let standard = !path.split('/').next().unwrap_or("").contains('.');
        let library = LIBRARIES
            .iter()
            .any(|l| path.starts_with(l) || path == l.trim_end_matches('/'));
        if standard
            || library
            || self
                .not_given
                .iter()
                .any(|(c, _, s)| *c == call && *s == site)
        {
            return;
        }
        match self.not_given.len() < MAX_NOT_GIVEN {
            true => self.not_given.push((call, path.to_string(), site)),
            false => self.not_given_more = self.not_given_more.saturating_add(1),
        }
    }

    /// The package an import name of `file` stands for, when it is one of
    /// the files' (the folder the path ends with, or its package name).
    pub(crate) fn package_of(&self, file: usize, alias: &str) -> Option<usize> {
        let path = self.imports.get(file)?.get(alias)?;
        let segs: Vec<&str> = path.split('/').collect();
        let mut best: Option<(usize, usize)> = None;
        for (i, p) in self.pkgs.iter().enumerate() {
            if p.name == "main" {
                continue;
            }
            let dirs: Vec<&str> = p.dir.split('/').filter(|s| !s.is_empty()).collect();
            let common = segs
                .iter()
                .rev()
                .zip(dirs.iter().rev())
                .take_while(|(a, b)| a == b)
                .count();
            let named = p.name == *alias || p.name == last_name(path);
            // A piece with nothing declared (a header before a clause) is no package.
            let content = !p.globals.is_empty() || !p.types.is_empty();
            let score = match (common, named) {
                (0, false) => continue,
                (n, named) => 4 * n + 2 * usize::from(named) + usize::from(content),
            };
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// `var a, b = x, y` and `var a, b = f()`: each name's expression.
fn bind_spec<'a>(
    globals: &mut HashMap<String, Global<'a>>,
    file: usize,
    names: &[gosyn::ast::Ident],
    values: &'a [Expression],
) {
    for (i, n) in names.iter().enumerate() {
        if n.name == "_" {
            continue;
        }
        let (expr, nth) = match (values.len() == names.len(), values.first()) {
            (true, _) => (values.get(i), None),
            (false, Some(v)) if values.len() == 1 => (Some(v), Some(i)),
            _ => (None, None),
        };
        globals.insert(n.name.clone(), Global::Pending { file, expr, nth });
    }
}

/// A package's name from its import path: the last element that is not a
/// major version (`…/kingpin/v2` is `kingpin`).
pub(crate) fn last_name(path: &str) -> String {
    let mut parts = path.rsplit('/');
    let last = parts.next().unwrap_or("");
    let is_version =
        last.len() > 1 && last.starts_with('v') && last[1..].bytes().all(|b| b.is_ascii_digit());
    match (is_version, parts.next()) {
        (true, Some(p)) => p.to_string(),
        _ => last.to_string(),
    }
    .replace('-', "_")
}
