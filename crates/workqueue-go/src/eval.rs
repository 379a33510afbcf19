//! The values of Go expressions where they are plain: numbers, strings,
//! durations, the rate limiters of client-go and crossplane-runtime,
//! controller options. Anything else is `Unknown`, with the reason.

use std::collections::HashMap;

use gosyn::ast::{CompositeLit, Element, Expression};
use gosyn::token::{LitKind, Operator};
use workqueue_core::{Duration, LimiterConfig, MILLISECOND, SECOND};

use crate::literal::unquote;
use crate::num::whole;
use crate::value::{Options, Value};

/// Names and their values, as the set-up assigns them.
#[derive(Default)]
pub struct Env {
    pub names: HashMap<String, Value>,
    /// Functions without parameters that return one expression
    /// (`func brokerRateLimiter() … { return workqueue.New…(…) }`): a call
    /// of one is the value of what it returns.
    pub funcs: HashMap<String, Expression>,
    /// How deep such calls go now (a function calling itself stops).
    depth: std::cell::Cell<u32>,
    /// How deep [`Env::eval`] recurses now, across such calls.
    nesting: std::cell::Cell<usize>,
    /// Evaluation steps taken, against [`MAX_STEPS`].
    steps: std::cell::Cell<u64>,
    /// The type of the method being read (`func (r *WidgetReconciler) …`):
    /// `r.Workers` is that type's field.
    pub receiver: Option<String>,
}

impl Env {
    /// A field a literal filled (`&WidgetReconciler{Workers: n}`): kept by
    /// its type, and by its name alone while no other type's literal gives
    /// the same field another value.
    pub fn bind_field(&mut self, typ: Option<&str>, field: &str, value: Value) {
        if let Some(t) = typ {
            self.names.insert(format!(".{t}.{field}"), value.clone());
        }
        let any = format!(".{field}");
        let value = match self.names.get(&any) {
            Some(old) if *old != value => Value::Unknown(format!(
                "{field} is set to different values for different types"
            )),
            _ => value,
        };
        self.names.insert(any, value);
    }

    /// The field `r.field` reads: the method's own type's, else the one
    /// value every literal gave it.
    fn field(&self, field: &str) -> Option<Value> {
        self.receiver
            .as_ref()
            .and_then(|t| self.names.get(&format!(".{t}.{field}")))
            .or_else(|| self.names.get(&format!(".{field}")))
            .cloned()
    }
}

/// The last name of a selector or identifier: `workqueue.NewTypedMaxOfRateLimiter`
/// gives `NewTypedMaxOfRateLimiter`; an instantiation `F[T]` gives `F`'s.
pub fn name_of(e: &Expression) -> Option<&str> {
    match e {
        Expression::Ident(i) => Some(&i.name),
        Expression::Selector(s) => Some(&s.sel.name),
        Expression::Index(i) => name_of(&i.left),
        Expression::IndexList(i) => name_of(&i.left),
        Expression::Paren(p) => name_of(&p.expr),
        Expression::Star(s) => name_of(&s.right),
        // A method's receiver `(r *T)`.
        Expression::TypePointer(p) => name_of(&p.typ),
        _ => None,
    }
}

/// `time.Second`'s package and name.
pub fn qualified(e: &Expression) -> Option<(&str, &str)> {
    match e {
        Expression::Selector(s) => match &*s.x {
            Expression::Ident(p) => Some((&p.name, &s.sel.name)),
            _ => None,
        },
        _ => None,
    }
}

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

/// A limiter's client-go name without `New`, `Typed` and package: the
/// typed (v0.27+) and untyped constructors read alike.
fn limiter_name(name: &str) -> String {
    name.strip_prefix("New")
        .unwrap_or(name)
        .replacen("Typed", "", 1)
}

/// Evaluation steps one import may take, all files together: each value
/// of a sub-expression computed is one, a helper function's body each
/// time it is called included. About a second of work; a set-up needs a
/// few thousand.
pub const MAX_STEPS: u64 = 1_000_000;
/// How deep evaluation may recurse, helper functions' bodies included
/// (the same bound as the parser's, [`crate::source::MAX_DEPTH`]).
pub const MAX_EVAL_DEPTH: usize = crate::source::MAX_DEPTH;

impl Env {
    /// Whether the import has used up its [`MAX_STEPS`].
    pub fn out_of_steps(&self) -> bool {
        self.steps.get() > MAX_STEPS
    }

    /// The value of `e`, within the step budget and the depth bound.
    pub fn eval(&self, e: &Expression) -> Value {
        self.steps.set(self.steps.get().saturating_add(1));
        if self.out_of_steps() {
            return Value::Unknown(format!(
                "the reader's budget of {MAX_STEPS} evaluation steps ran out"
            ));
        }
        if self.nesting.get() >= MAX_EVAL_DEPTH {
            return Value::Unknown(format!(
                "values computed from values more than {MAX_EVAL_DEPTH} deep"
            ));
        }
        self.nesting.set(self.nesting.get() + 1);
        let v = self.value(e);
        self.nesting.set(self.nesting.get() - 1);
        v
    }

    fn value(&self, e: &Expression) -> Value {
        match e {
            Expression::BasicLit(l) => match l.kind {
                LitKind::Integer => parse_int(&l.value).map_or_else(
                    || Value::Unknown(format!("the number {}", l.value)),
                    |n| Value::Num(n as f64),
                ),
                LitKind::Float => l
                    .value
                    .replace('_', "")
                    .parse()
                    .map(Value::Num)
                    .unwrap_or_else(|_| Value::Unknown(format!("the number {}", l.value))),
                LitKind::String => Value::Str(unquote(&l.value)),
                _ => Value::Unknown(format!("the literal {}", l.value)),
            },
            Expression::Ident(i) => match i.name.as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                name => self.names.get(name).cloned().unwrap_or_else(|| {
                    Value::Unknown(format!("{name} is not set where it can be read"))
                }),
            },
            Expression::Paren(p) => self.eval(&p.expr),
            // `*flagValue`: the flag's value.
            Expression::Star(s) => self.eval(&s.right),
            Expression::Selector(_) => match qualified(e) {
                Some(("time", u)) if unit(u).is_some() => {
                    Value::Dur(unit(u).unwrap_or(Duration::NANOSECOND))
                }
                Some(("handler", "LowPriority")) => Value::Num(-100.0),
                // `r.Workers`: a field the set-up filled in a literal
                // (`&Reconciler{Workers: n}`) somewhere.
                _ => match e {
                    Expression::Selector(s) => self.field(&s.sel.name),
                    _ => None,
                }
                .unwrap_or_else(|| {
                    Value::Unknown(format!("{} is a field or a package's value", describe(e)))
                }),
            },
            Expression::Operation(op) => self.operation(op.op, &op.x, op.y.as_deref()),
            Expression::Call(c) => self.call(&c.func, &c.args),
            Expression::CompositeLit(c) => self.composite(c),
            _ => Value::Unknown(format!("{} is not a plain value", describe(e))),
        }
    }

    fn operation(&self, op: Operator, x: &Expression, y: Option<&Expression>) -> Value {
        match y {
            None => crate::num::unary(op, self.eval(x)),
            Some(y) => crate::num::binary(op, self.eval(x), self.eval(y)),
        }
    }

    /// Argument `e` as `what` ("a number"): `take` reads the kinds of value
    /// that are one (`None` for the others); an unknown value keeps its reason.
    fn arg<T>(
        &self,
        e: Option<&Expression>,
        what: &str,
        take: impl FnOnce(&Value) -> Option<Result<T, String>>,
    ) -> Result<T, String> {
        match e.map(|e| self.eval(e)) {
            None => Err("an argument is missing".into()),
            Some(Value::Unknown(why)) => Err(why),
            Some(v) => take(&v).unwrap_or_else(|| Err(format!("{v:?} is not {what}"))),
        }
    }

    fn num(&self, e: Option<&Expression>) -> Result<f64, String> {
        self.arg(e, "a number", |v| match v {
            Value::Num(n) => Some(Ok(*n)),
            Value::Dur(d) => Some(Ok(d.as_nanos() as f64)),
            _ => None,
        })
    }

    fn dur(&self, e: Option<&Expression>) -> Result<Duration, String> {
        self.arg(e, "a duration", |v| match v {
            Value::Dur(d) => Some(Ok(*d)),
            Value::Num(n) => Some(crate::num::duration(*n)),
            Value::Str(s) => Some(workqueue_core::parse_go_duration(s).map_err(|e| e.to_string())),
            _ => None,
        })
    }

    fn limiter(&self, e: Option<&Expression>) -> Result<LimiterConfig, String> {
        self.arg(e, "a rate limiter", |v| match v {
            Value::Limiter(l) => Some(Ok(l.clone())),
            _ => None,
        })
    }

    fn call(&self, func: &Expression, args: &[Expression]) -> Value {
        let arg = |i: usize| args.get(i);
        let name = name_of(func).unwrap_or("");
        if let Some(("time", "Duration")) = qualified(func) {
            return match self.num(arg(0)).and_then(crate::num::duration) {
                Ok(d) => Value::Dur(d),
                Err(why) => Value::Unknown(why),
            };
        }
        if let Some(v) = self.flag_default(func, name, args) {
            return v;
        }
        if let (true, Some(body)) = (args.is_empty(), self.funcs.get(name)) {
            if self.depth.get() < 16 {
                self.depth.set(self.depth.get() + 1);
                let v = self.eval(body);
                self.depth.set(self.depth.get() - 1);
                return v;
            }
        }
        let made: Result<Value, String> = match (qualified(func), limiter_name(name).as_str()) {
            // Conversions and pointers pass their value through.
            (
                _,
                "float32" | "float64" | "int" | "int32" | "int64" | "uint" | "Limit" | "To" | "Ptr",
            )
            | (Some(("pointer" | "ptr", _)), _)
                if args.len() == 1 =>
            {
                return self.eval(&args[0])
            }
            (_, "ItemExponentialFailureRateLimiter") => (|| {
                Ok(Value::Limiter(LimiterConfig::Exponential {
                    base_ns: self.dur(arg(0))?,
                    max_ns: self.dur(arg(1))?,
                }))
            })(),
            (_, "ItemFastSlowRateLimiter") => (|| {
                Ok(Value::Limiter(LimiterConfig::FastSlow {
                    fast_ns: self.dur(arg(0))?,
                    slow_ns: self.dur(arg(1))?,
                    max_fast_attempts: whole(self.num(arg(2))?, "maxFastAttempts")?,
                }))
            })(),
            (_, "MaxOfRateLimiter") => args
                .iter()
                .map(|a| self.limiter(Some(a)))
                .collect::<Result<Vec<_>, _>>()
                .map(|limiters| Value::Limiter(LimiterConfig::MaxOf { limiters })),
            (_, "WithMaxWaitRateLimiter") => (|| {
                Ok(Value::Limiter(LimiterConfig::WithMaxWait {
                    limiter: Box::new(self.limiter(arg(0))?),
                    max_wait_ns: self.dur(arg(1))?,
                }))
            })(),
            (_, "DefaultControllerRateLimiter") => {
                Ok(Value::Limiter(LimiterConfig::DefaultController))
            }
            (Some(("rate", "NewLimiter")), _) => (|| {
                Ok(Value::Rate {
                    qps: self.num(arg(0))?,
                    burst: whole(self.num(arg(1))?, "the burst")?,
                })
            })(),
            (Some(("flowcontrol", "NewTokenBucketRateLimiter")), _) => (|| {
                Ok(Value::ClientBucket {
                    qps: self.num(arg(0))?,
                    burst: whole(self.num(arg(1))?, "the burst")?,
                })
            })(),
            // crossplane-runtime's ratelimiter package.
            (Some(("ratelimiter", "NewGlobal")), _) => {
                (|| Ok(Value::Global(whole(self.num(arg(0))?, "R")?)))()
            }
            (Some(("ratelimiter", "NewController")), _) => {
                Ok(Value::Limiter(LimiterConfig::Exponential {
                    base_ns: SECOND,
                    max_ns: 60 * SECOND,
                }))
            }
            (Some(("time", "ParseDuration")), _) => self.dur(arg(0)).map(Value::Dur),
            // `o.ForControllerRuntime()`: the options it was called on.
            (_, "ForControllerRuntime") => match func {
                Expression::Selector(s) => return self.eval(&s.x),
                _ => Err("ForControllerRuntime on an unknown value".into()),
            },
            _ => Err(format!("the call {}(…)", describe(func))),
        };
        made.unwrap_or_else(Value::Unknown)
    }

    /// A flag's value is its default: `flag.Int("name", 10, …)`, pflag's
    /// `IntP("name", "n", 10, …)`, kingpin's `Flag(…).Default("10").Int()`.
    /// (The `…Var(&x, …)` forms bind `x` where they are called.)
    fn flag_default(&self, func: &Expression, method: &str, args: &[Expression]) -> Option<Value> {
        let Expression::Selector(s) = func else {
            return None;
        };
        let base = method.strip_suffix('P').unwrap_or(method);
        if !FLAG_KINDS.contains(&base) {
            return None;
        }
        if args.is_empty() {
            // kingpin: the receiver is `….Default("10")`.
            let Expression::Call(d) = &*s.x else {
                return None;
            };
            if name_of(&d.func) != Some("Default") {
                // A kingpin flag with no Default: its type's zero value.
                return match base {
                    "Bool" => Some(Value::Bool(false)),
                    "Duration" => Some(Value::Dur(Duration::ZERO)),
                    "String" => Some(Value::Str(String::new())),
                    "Int" | "Int32" | "Int64" | "Uint" | "Float64" | "Float32" => {
                        Some(Value::Num(0.0))
                    }
                    _ => None,
                };
            }
            return Some(match self.eval(d.args.first()?) {
                Value::Str(t) => parse_text(&t),
                other => other,
            });
        }
        let at = 1 + usize::from(method.ends_with('P') && base != method);
        args.get(at).map(|d| self.eval(d))
    }

    fn composite(&self, c: &CompositeLit) -> Value {
        let ty = name_of(&c.typ).unwrap_or("");
        let field = |key: &str| {
            c.val.values.iter().find_map(|kv| match (&kv.key, &kv.val) {
                (Some(Element::Expr(Expression::Ident(k))), Element::Expr(v)) if k.name == key => {
                    Some(v)
                }
                _ => None,
            })
        };
        match limiter_name(ty).as_str() {
            "BucketRateLimiter" => match field("Limiter").map(|e| self.eval(e)) {
                Some(Value::Rate { qps, burst }) => {
                    Value::Limiter(LimiterConfig::Bucket { qps, burst })
                }
                Some(Value::Unknown(why)) => Value::Unknown(why),
                _ => Value::Unknown("a BucketRateLimiter without rate.NewLimiter(…)".into()),
            },
            "Options" | "Controller" => {
                let mut o = Options::default();
                for kv in &c.val.values {
                    let (Some(Element::Expr(Expression::Ident(k))), Element::Expr(v)) =
                        (&kv.key, &kv.val)
                    else {
                        continue;
                    };
                    let value = self.eval(v);
                    match (k.name.as_str(), value) {
                        // controller-runtime takes 0 or less as unset
                        // (the manager's value, else 1).
                        ("MaxConcurrentReconciles", Value::Num(n)) if n < 1.0 => o.unread.push(
                            format!("MaxConcurrentReconciles: {n} is not a count of workers, and controller-runtime takes it as unset")
                        ),
                        ("MaxConcurrentReconciles", Value::Num(n)) => {
                            match whole(n, "MaxConcurrentReconciles") {
                                Ok(w) => o.workers = Some(w),
                                Err(why) => o.unread.push(why),
                            }
                        }
                        ("RateLimiter", Value::Limiter(l)) => o.limiter = Some(l),
                        ("UsePriorityQueue", Value::Bool(b)) => o.priority_queue = Some(b),
                        ("ReconciliationTimeout", Value::Dur(d)) => o.timeout = Some(d),
                        ("GlobalRateLimiter", Value::Global(r)) => o.crossplane = Some(r),
                        ("PollInterval" | "SyncPeriod" | "PollJitter", _) => {
                            o.ignored.push(k.name.clone())
                        }
                        (
                            name @ ("MaxConcurrentReconciles"
                            | "RateLimiter"
                            | "UsePriorityQueue"
                            | "ReconciliationTimeout"
                            | "GlobalRateLimiter"),
                            Value::Unknown(why),
                        ) => o.unread.push(format!("{name}: {why}")),
                        _ => {}
                    }
                }
                Value::Options(o)
            }
            _ => Value::Unknown(format!("a {ty} literal")),
        }
    }
}

/// The value-returning flag constructors (their `…Var` forms bind instead).
pub const FLAG_KINDS: [&str; 9] = [
    "Int", "Int32", "Int64", "Uint", "Float64", "Float32", "Duration", "String", "Bool",
];

/// A flag default written as text (kingpin): a number, a duration or text.
fn parse_text(t: &str) -> Value {
    if let Ok(n) = t.parse::<f64>() {
        return Value::Num(n);
    }
    if let Ok(d) = workqueue_core::parse_go_duration(t) {
        return Value::Dur(d);
    }
    match t {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::Str(t.to_string()),
    }
}

/// A Go integer literal: decimal, `0x`, `0o`, `0b`, with `_` separators.
fn parse_int(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let (digits, radix) = match t.get(..2) {
        Some("0x" | "0X") => (&t[2..], 16),
        Some("0o" | "0O") => (&t[2..], 8),
        Some("0b" | "0B") => (&t[2..], 2),
        _ if t.len() > 1 && t.starts_with('0') => (&t[1..], 8),
        _ => (&t[..], 10),
    };
    i64::from_str_radix(digits, radix).ok()
}

/// An expression as a person would name it in a note: `cfg.QPS`, `newLimiter`.
pub fn describe(e: &Expression) -> String {
    match e {
        Expression::Ident(i) => i.name.clone(),
        Expression::Selector(s) => format!("{}.{}", describe(&s.x), s.sel.name),
        Expression::Call(c) => format!("{}(…)", describe(&c.func)),
        Expression::Index(i) => describe(&i.left),
        Expression::IndexList(i) => describe(&i.left),
        Expression::Star(s) => format!("*{}", describe(&s.right)),
        Expression::Paren(p) => describe(&p.expr),
        Expression::BasicLit(l) => l.value.clone(),
        _ => "an expression".into(),
    }
}
