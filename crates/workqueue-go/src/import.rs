//! From Go files to a scenario. Two passes over every function of every
//! file: the first evaluates what the set-up assigns (flags with their
//! defaults, constants, variables, the `rest.Config`'s limit), the second
//! finds the controllers (`ctrl.NewControllerManagedBy(mgr)…`,
//! `controller.New`, client-go's rate-limiting queues) and reads their
//! options with what the first pass knows.

use gosyn::ast::{self, DeclStmt, Declaration, Element, Expression, Statement};
use gosyn::token::Operator;
use serde::Serialize;
use workqueue_core::{
    format_go_duration, Duration, LimiterConfig, QueueKind, Scenario, MILLISECOND,
};
use workqueue_core::{
    BucketSpec, ClientLimit, ClientScope, ControllerConfig, ControllerSpec, Source as KeySource,
};
use workqueue_core::{CrossplaneConfig, CrossplaneProfile, Outcome, Script};

use crate::eval::{name_of, qualified, Env, FLAG_KINDS};
use crate::gomod::Version;
use crate::paste::{is_go_mod, pieces, without_bom, Piece};
use crate::source::Source;
use crate::value::{Options, Value};

mod scenario;

/// The most Go read at once, all files together (a provider's set-up is a
/// few hundred kilobytes at most).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;
/// Objects each imported controller is given: the code does not say.
const OBJECTS: u64 = 100;

/// A scenario read from Go, with what was taken and what was not.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Imported {
    pub scenario: Scenario,
    /// Every value taken, where it was written.
    pub taken: Vec<Found>,
    /// What the reader met and did not understand, and what it assumed.
    pub unread: Vec<Found>,
}

/// A place in the files and what was found there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Found {
    pub file: String,
    pub line: usize,
    pub text: String,
}

impl std::fmt::Display for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.text)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("{file}: line {line}: not Go this reader can parse: {reason}")]
    Parse {
        file: String,
        line: usize,
        reason: String,
    },
    #[error("{file}: the set-up reads as a scenario that cannot run: {reason}")]
    Unusable { file: String, reason: String },
    #[error("the files hold {bytes} bytes: at most {MAX_BYTES} are read")]
    TooBig { bytes: usize },
    #[error("{file}: line {line}: the set-up asks more work than the reader does: its budget of {limit} evaluation steps ran out here")]
    Budget {
        file: String,
        line: usize,
        limit: u64,
    },
    #[error("no controller found: the reader looks for ctrl.NewControllerManagedBy(…), controller.New(…) and workqueue.NewTypedRateLimitingQueue(…)")]
    NoController,
}

/// A controller found in the code.
pub(crate) struct Found_ {
    pub(crate) name: String,
    pub(crate) kind: String,
    pub(crate) options: Options,
    pub(crate) queue_client_go: bool,
    pub(crate) at: (usize, usize),
}

pub(crate) struct Reader<'a> {
    pub(crate) sources: &'a [Source],
    pub(crate) env: Env,
    pub(crate) taken: Vec<Found>,
    pub(crate) unread: Vec<Found>,
    /// What `taken` and `unread` hold (a note is said once, and looked up
    /// in constant time: a file may have tens of thousands of flags).
    pub(crate) said: std::collections::HashSet<(bool, Found)>,
    /// Where the evaluation budget ran out, if it did.
    pub(crate) out_of_steps: Option<(String, usize)>,
    /// `rest.Config`'s limit as set: qps, burst, an explicit limiter.
    pub(crate) qps: Option<(f64, usize, usize)>,
    pub(crate) burst: Option<(i64, usize, usize)>,
    pub(crate) shared_client: Option<(f64, i64)>,
    /// A typed clientset was made: one limiter for every resource it serves.
    pub(crate) clientset: bool,
    /// go.mod names a controller-runtime older than v0.23.
    pub(crate) default_client_go: bool,
    /// go.mod's file and line when it is Crossplane core's (`true`) or
    /// requires crossplane-runtime (`false`).
    pub(crate) crossplane_module: Option<(String, usize, bool)>,
    /// Variables holding a token bucket (a bucket passed to several
    /// controllers is one object: a shared bucket).
    pub(crate) bucket_vars: Vec<(f64, i64)>,
    /// Options for every controller (`ctrl.Options{Controller: …}`), and the
    /// last options value assigned anywhere (a provider passes it to each Setup).
    pub(crate) manager_options: Options,
    pub(crate) last_options: Option<Options>,
    pub(crate) controllers: Vec<Found_>,
}

/// Reads `files` (name, text) into a scenario.
pub fn import(files: &[(String, String)]) -> Result<Imported, ImportError> {
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    if bytes > MAX_BYTES {
        return Err(ImportError::TooBig { bytes });
    }
    // go.mod says which controller-runtime: before v0.23, client-go's
    // queue is the default.
    // Each file's pieces; a go.mod pasted among Go files is a piece too.
    let all: Vec<(&String, Piece)> = files
        .iter()
        .flat_map(|(name, text)| {
            let split = match name.ends_with("go.mod") {
                true => vec![(without_bom(text).to_string(), 0)],
                false => pieces(text),
            };
            split.into_iter().map(move |p| (name, p))
        })
        .collect();
    let module = all
        .iter()
        .filter(|(_, (text, _))| is_go_mod(text))
        .find_map(|(name, (text, offset))| {
            let at = |line: usize| (line as isize + offset) as usize;
            crate::gomod::controller_runtime(text).map(|v| match v {
                Version::Minor { line, minor } => (*name, at(line), Ok(minor)),
                Version::Unknown { line, said } => (*name, at(line), Err(said)),
            })
        });
    // And whether it is Crossplane core, or a program on crossplane-runtime.
    let crossplane_module = all
        .iter()
        .filter(|(_, (text, _))| is_go_mod(text))
        .find_map(|(name, (text, offset))| {
            let at = |line: usize| (line as isize + offset) as usize;
            crate::gomod::crossplane(text).map(|c| match c {
                crate::gomod::Crossplane::Core { line } => ((*name).clone(), at(line), true),
                crate::gomod::Crossplane::Runtime { line } => ((*name).clone(), at(line), false),
            })
        });
    let sources = all
        .iter()
        .filter(|(_, (text, _))| !is_go_mod(text))
        .map(|(name, (text, offset))| (*name, (text.clone(), *offset)))
        .map(|(name, (text, offset))| {
            Source::parse(name, &text, offset).map_err(|(line, reason)| ImportError::Parse {
                file: name.clone(),
                line,
                reason,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if sources.is_empty() {
        return Err(ImportError::NoController);
    }
    let mut r = Reader {
        sources: &sources,
        env: Env::default(),
        taken: Vec::new(),
        unread: Vec::new(),
        said: Default::default(),
        out_of_steps: None,
        qps: None,
        burst: None,
        shared_client: None,
        clientset: false,
        default_client_go: false,
        crossplane_module,
        bucket_vars: Vec::new(),
        manager_options: Options::default(),
        last_options: None,
        controllers: Vec::new(),
    };
    // Helper functions that build a limiter or options: `return` of one
    // expression, no parameters.
    for s in &sources {
        for d in &s.file.decl {
            if let Declaration::Function(f) = d {
                let returned = f.body.as_ref().and_then(|b| match b.list.as_slice() {
                    [Statement::Return(r)] if r.ret.len() == 1 => Some(r.ret[0].clone()),
                    _ => None,
                });
                if let (true, Some(e)) = (f.typ.params.list.is_empty(), returned) {
                    r.env.funcs.insert(f.name.name.clone(), e);
                }
            }
        }
    }
    match module {
        Some((name, line, Ok(minor))) => {
            r.default_client_go = minor < 23;
            r.taken.push(Found {
                file: name.clone(),
                line,
                text: format!(
                    "controller-runtime v0.{minor}: {}",
                    if minor < 23 {
                        "client-go's queue unless UsePriorityQueue says otherwise (the priority queue is the default from v0.23)"
                    } else {
                        "the priority queue unless UsePriorityQueue says otherwise"
                    }
                ),
            });
        }
        Some((name, line, Err(said))) => r.unread.push(Found {
            file: name.clone(),
            line,
            text: format!("controller-runtime {said}: which release this is is not known; the priority queue (the default from v0.23) unless UsePriorityQueue says otherwise"),
        }),
        None => {}
    }
    for pass in [Pass::Values, Pass::Controllers] {
        for (i, s) in sources.iter().enumerate() {
            for d in &s.file.decl {
                r.declaration(i, d, pass);
                if r.out_of_steps.is_none() && r.env.out_of_steps() {
                    r.out_of_steps = Some((s.name.clone(), s.line(declared_at(d))));
                }
                if let Some((file, line)) = r.out_of_steps.take() {
                    return Err(ImportError::Budget {
                        file,
                        line,
                        limit: crate::eval::MAX_STEPS,
                    });
                }
            }
        }
    }
    r.scenario()
}

#[derive(Clone, Copy, PartialEq)]
enum Pass {
    Values,
    Controllers,
}

/// Where a declaration starts: its (first) name.
fn declared_at(d: &Declaration) -> usize {
    match d {
        Declaration::Function(f) => f.name.pos,
        Declaration::Const(c) => c
            .specs
            .first()
            .and_then(|s| s.name.first())
            .map_or(0, |n| n.pos),
        Declaration::Variable(v) => v
            .specs
            .first()
            .and_then(|s| s.name.first())
            .map_or(0, |n| n.pos),
        _ => 0,
    }
}

/// Where an expression starts.
pub(crate) fn pos(e: &Expression) -> usize {
    match e {
        Expression::Call(c) => c.pos.0,
        Expression::Ident(i) => i.pos,
        Expression::Selector(s) => s.pos,
        Expression::BasicLit(l) => l.pos,
        Expression::CompositeLit(c) => c.val.pos.0,
        Expression::Operation(o) => o.pos,
        Expression::Paren(p) => p.pos.0,
        Expression::Star(s) => s.pos,
        Expression::Index(i) => i.pos.0,
        Expression::IndexList(i) => i.pos.0,
        _ => 0,
    }
}

impl Reader<'_> {
    fn at(&self, file: usize, p: usize) -> (String, usize) {
        let s = &self.sources[file];
        (s.name.clone(), s.line(p))
    }

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

    fn declaration(&mut self, file: usize, d: &Declaration, pass: Pass) {
        match d {
            Declaration::Const(c) if pass == Pass::Values => {
                for spec in &c.specs {
                    self.bind(file, &spec.name, &spec.values);
                }
            }
            Declaration::Variable(v) if pass == Pass::Values => {
                for spec in &v.specs {
                    self.bind(file, &spec.name, &spec.values);
                }
            }
            Declaration::Function(f) => {
                // A method reads its own type's fields (`r.Workers`).
                let receiver = f
                    .recv
                    .as_ref()
                    .and_then(|r| r.list.first())
                    .and_then(|field| crate::eval::name_of(&field.typ))
                    .map(str::to_string);
                let outer = std::mem::replace(&mut self.env.receiver, receiver);
                if let Some(body) = &f.body {
                    self.block(file, &body.list, pass);
                }
                self.env.receiver = outer;
            }
            _ => {}
        }
    }

    /// Notes where the evaluation budget ran out, the first time it has.
    fn budget(&mut self, file: usize, e: &Expression) {
        if self.env.out_of_steps() && self.out_of_steps.is_none() {
            self.out_of_steps = Some(self.at(file, pos(e)));
        }
    }

    fn bind(&mut self, file: usize, names: &[ast::Ident], values: &[Expression]) {
        for (n, v) in names.iter().zip(values) {
            let value = self.env.eval(v);
            self.budget(file, v);
            if let Value::Options(o) = &value {
                self.last_options = Some(o.clone());
            }
            self.env.names.insert(n.name.clone(), value);
        }
    }

    fn block(&mut self, file: usize, list: &[Statement], pass: Pass) {
        for s in list {
            self.statement(file, s, pass);
        }
    }

    fn statement(&mut self, file: usize, s: &Statement, pass: Pass) {
        match s {
            Statement::Assign(a) => {
                if pass == Pass::Values {
                    self.assign(file, a);
                }
                for e in &a.right {
                    self.expression(file, e, pass);
                }
            }
            Statement::Declaration(DeclStmt::Variable(v)) => {
                for spec in &v.specs {
                    if pass == Pass::Values {
                        self.bind(file, &spec.name, &spec.values);
                    }
                    for e in &spec.values {
                        self.expression(file, e, pass);
                    }
                }
            }
            Statement::Declaration(DeclStmt::Const(c)) if pass == Pass::Values => {
                for spec in &c.specs {
                    self.bind(file, &spec.name, &spec.values);
                }
            }
            Statement::Expr(e) => self.expression(file, &e.expr, pass),
            Statement::Return(r) => {
                for e in &r.ret {
                    self.expression(file, e, pass);
                }
            }
            Statement::If(i) => {
                if let Some(init) = &i.init {
                    self.statement(file, init, pass);
                }
                self.expression(file, &i.cond, pass);
                self.block(file, &i.body.list, pass);
                if let Some(e) = &i.else_ {
                    self.statement(file, e, pass);
                }
            }
            Statement::Block(b) => self.block(file, &b.list, pass),
            Statement::For(f) => self.block(file, &f.body.list, pass),
            Statement::Range(r) => self.block(file, &r.body.list, pass),
            Statement::Switch(sw) => {
                for c in &sw.block.body {
                    self.block(file, &c.body, pass);
                }
            }
            Statement::Go(g) => self.expression(file, &Expression::Call(g.call.clone()), pass),
            Statement::Defer(_) => {}
            _ => {}
        }
    }

    /// `x := v`, `x = v`, `cfg.QPS = v`, `cfg.Burst = v`, `cfg.RateLimiter = v`.
    fn assign(&mut self, file: usize, a: &ast::AssignStmt) {
        if !matches!(a.op, Operator::Assign | Operator::Define) {
            return;
        }
        for (left, right) in a.left.iter().zip(&a.right) {
            let value = self.env.eval(right);
            self.budget(file, right);
            match left {
                Expression::Ident(n) => {
                    if let Value::Options(o) = &value {
                        self.last_options = Some(o.clone());
                    }
                    if let Value::Limiter(workqueue_core::LimiterConfig::Bucket { qps, burst }) =
                        &value
                    {
                        self.bucket_vars.push((*qps, *burst));
                    }
                    self.env.names.insert(n.name.clone(), value);
                }
                Expression::Selector(s) => self.config_field(file, &s.sel.name, right, value),
                _ => {}
            }
        }
    }

    fn config_field(&mut self, file: usize, field: &str, right: &Expression, value: Value) {
        let p = pos(right);
        let (f, line) = self.at(file, p);
        match (field, value) {
            ("QPS", Value::Num(q)) => self.qps = Some((q, file, p)),
            ("Burst", Value::Num(b)) => match crate::num::whole(b, "Burst") {
                Ok(b) => self.burst = Some((b, file, p)),
                Err(why) => self.note(
                    false,
                    file,
                    p,
                    format!("rest.Config.Burst: {why}: set the client limit in the scenario"),
                ),
            },
            ("RateLimiter", Value::ClientBucket { qps, burst }) => {
                self.shared_client = Some((qps, burst));
                self.note(true, file, p, format!("rest.Config.RateLimiter: one client bucket of {qps} qps, burst {burst}, shared by every client made from the config"));
            }
            ("QPS" | "Burst" | "RateLimiter", Value::Unknown(why)) => {
                self.unread.push(Found {
                    file: f,
                    line,
                    text: format!(
                        "rest.Config.{field}: {why}: set the client limit in the scenario"
                    ),
                });
            }
            _ => {}
        }
    }

    /// Looks into an expression for what sets things up: flags (first
    /// pass), controllers and Crossplane's client limit (second pass).
    fn expression(&mut self, file: usize, e: &Expression, pass: Pass) {
        if self.out_of_steps.is_some() {
            return;
        }
        match e {
            Expression::Call(c) => {
                if pass == Pass::Values {
                    self.values_in_call(file, c);
                    self.budget(file, e);
                } else if self.call_chain(file, e) {
                    // A controller's chain: its links are read with it.
                    return;
                }
                for a in &c.args {
                    self.expression(file, a, pass);
                }
                if let Expression::Selector(s) = &*c.func {
                    self.expression(file, &s.x, pass);
                }
            }
            Expression::CompositeLit(c) => {
                let typ = crate::eval::name_of(&c.typ).map(str::to_string);
                for kv in &c.val.values {
                    if let Element::Expr(v) = &kv.val {
                        // A field filled here (`Workers: n`) is what
                        // `r.Workers` reads elsewhere.
                        if let (Pass::Values, Some(Element::Expr(Expression::Ident(k)))) =
                            (pass, &kv.key)
                        {
                            match self.env.eval(v) {
                                Value::Unknown(_) | Value::Options(_) => {}
                                value => self.env.bind_field(typ.as_deref(), &k.name, value),
                            }
                        }
                        self.expression(file, v, pass);
                    }
                }
            }
            Expression::Operation(o) => {
                self.expression(file, &o.x, pass);
                if let Some(y) = &o.y {
                    self.expression(file, y, pass);
                }
            }
            Expression::Paren(p) => self.expression(file, &p.expr, pass),
            Expression::Star(s) => self.expression(file, &s.right, pass),
            Expression::FuncLit(f) => self.block(file, &f.body.list, pass),
            _ => {}
        }
    }

    /// What a call sets up for every controller: flags, Crossplane's client
    /// limit, a typed clientset, the manager's controller options.
    fn values_in_call(&mut self, file: usize, c: &ast::Call) {
        self.flag(file, c);
        if let Some(("ratelimiter", "LimitRESTConfig")) = qualified(&c.func) {
            let r = match self.env.eval(c.args.get(1).unwrap_or(&c.func)) {
                Value::Num(r) => crate::num::whole::<u32>(r, "R").map_err(Value::Unknown),
                other => Err(other),
            };
            match r {
                Ok(r) => {
                    let (qps, burst) = (5.0 * r as f64, 10 * r as i64);
                    self.qps = Some((qps, file, c.pos.0));
                    self.burst = Some((burst, file, c.pos.0));
                    self.note(true, file, c.pos.0, format!("ratelimiter.LimitRESTConfig: the client's QPS {qps} and burst {burst} (5R and 10R for R = {r})"));
                }
                Err(Value::Unknown(why)) => self.note(
                    false,
                    file,
                    c.pos.0,
                    format!("ratelimiter.LimitRESTConfig: R: {why}"),
                ),
                _ => {}
            }
        }
        if let Some(("kubernetes", "NewForConfig" | "NewForConfigOrDie")) = qualified(&c.func) {
            self.clientset = true;
            self.note(true, file, c.pos.0, "kubernetes.NewForConfig: a typed clientset, one client limiter for every resource it serves".into());
        }
        if name_of(&c.func) == Some("NewManager") {
            if let Some(Value::Options(o)) = c.args.get(1).map(|a| self.manager_opts(a)) {
                self.manager_options = o;
            }
        }
    }

    /// `ctrl.Options{Controller: config.Controller{…}}`: the manager's
    /// defaults for its controllers.
    fn manager_opts(&self, e: &Expression) -> Value {
        let Expression::CompositeLit(c) = e else {
            return Value::Unknown("manager options".into());
        };
        c.val
            .values
            .iter()
            .find_map(|kv| match (&kv.key, &kv.val) {
                (Some(Element::Expr(Expression::Ident(k))), Element::Expr(v))
                    if k.name == "Controller" =>
                {
                    Some(self.env.eval(v))
                }
                _ => None,
            })
            .unwrap_or(Value::Options(Options::default()))
    }

    /// A flag's default becomes its variable's value: the standard `flag`
    /// package and pflag (`IntVar(&x, "name", 10, …)`, `x := Int("name", 10, …)`,
    /// the `P` forms with a shorthand), kingpin's `.Default("10")`.
    fn flag(&mut self, file: usize, c: &ast::Call) {
        let Some(method) = name_of(&c.func) else {
            return;
        };
        let short = method.ends_with('P');
        let base = method.trim_end_matches('P');
        let Some(kind) = base.strip_suffix("Var") else {
            // `x := flag.Int("name", 10, …)`: the value is the default (eval);
            // kingpin's `app.Flag("name", …).Default("10").Int()` names it first.
            if FLAG_KINDS.contains(&base) && matches!(&*c.func, Expression::Selector(_)) {
                let name = match c.args.first() {
                    Some(e) => Some(self.env.eval(e)),
                    None => kingpin_name(&c.func).map(Value::Str),
                };
                if let Some(Value::Str(flag)) = name {
                    let value = self.env.eval(&Expression::Call(c.clone()));
                    self.note(
                        true,
                        file,
                        c.pos.0,
                        format!("flag --{flag}: its default, {}", shown(&value)),
                    );
                }
            }
            return;
        };
        if !FLAG_KINDS.contains(&kind) || !matches!(&*c.func, Expression::Selector(_)) {
            return;
        }
        let (Some(Value::Str(flag)), Some(default)) = (
            c.args.get(1).map(|e| self.env.eval(e)),
            c.args.get(2 + usize::from(short)),
        ) else {
            return;
        };
        let value = self.env.eval(default);
        self.note(
            true,
            file,
            c.pos.0,
            format!("flag --{flag}: its default, {}", shown(&value)),
        );
        let target = match c.args.first() {
            Some(Expression::Operation(o)) if o.y.is_none() => name_of(&o.x),
            other => other.and_then(name_of),
        };
        if let Some(target) = target {
            self.env.names.insert(target.to_string(), value);
        }
    }

    /// The file general notes are about: the one with `func main`, or the first.
    fn main_file(&self) -> String {
        let has_main = |s: &&Source| {
            s.file.decl.iter().any(|d| matches!(d, Declaration::Function(f) if f.name.name == "main" && f.recv.is_none()))
        };
        self.sources
            .iter()
            .find(has_main)
            .unwrap_or(&self.sources[0])
            .name
            .clone()
    }
}

/// The name in a kingpin chain's `Flag("name", …)`.
fn kingpin_name(e: &Expression) -> Option<String> {
    let mut cur = e;
    loop {
        match cur {
            Expression::Selector(s) => cur = &s.x,
            Expression::Call(c) => {
                if name_of(&c.func) == Some("Flag") {
                    return match c.args.first() {
                        Some(Expression::BasicLit(l)) => Some(crate::literal::unquote(&l.value)),
                        _ => None,
                    };
                }
                cur = &c.func;
            }
            _ => return None,
        }
    }
}

fn shown(v: &Value) -> String {
    match v {
        Value::Num(n) => n.to_string(),
        Value::Dur(d) => format_go_duration(*d),
        Value::Str(s) => format!("{s:?}"),
        Value::Bool(b) => b.to_string(),
        Value::Unknown(why) => format!("unknown ({why})"),
        other => format!("{other:?}"),
    }
}
