//! What the interpreter computes: Go's plain values, the objects a set-up
//! builds (structs, maps, slices, a `rest.Config`, a manager, a builder, a
//! client-go queue), functions with what they close over, or the reason a
//! value is unknown.

use std::rc::Rc;

use gosyn::ast::{FuncDecl, FuncLit};
use workqueue_core::{Duration, LimiterConfig};

use super::scope::Scope;

/// An index into the interpreter's heap.
pub(crate) type ObjId = usize;

/// A value the set-up computes.
#[derive(Clone, Debug)]
pub(crate) enum V<'a> {
    Nil,
    Num(f64),
    Dur(Duration),
    Str(String),
    Bool(bool),
    /// A rate limiter and its instance (an index of `Interp::limiters`):
    /// one value passed to two queues is one Go object.
    Limiter(LimiterConfig, usize),
    /// `rate.NewLimiter(qps, burst)`, before a `BucketRateLimiter` wraps it.
    Rate {
        qps: f64,
        burst: i64,
        /// The bucket's instance (an index of `Interp::limiters`).
        id: usize,
    },
    /// `flowcontrol.NewTokenBucketRateLimiter(qps, burst)`: a client's bucket,
    /// one object per call (`id`).
    ClientBucket {
        qps: f64,
        burst: i64,
        id: usize,
    },
    /// crossplane-runtime's `ratelimiter.NewGlobal(R)`: one bucket per call.
    Global {
        r: u32,
        id: usize,
    },
    /// A pointer to, or a reference type's handle on, a heap object.
    Ref(ObjId),
    /// A struct value: copied when it is bound or passed.
    Struct(ObjId),
    Func(Rc<Func<'a>>),
    /// A call's several results.
    Tuple(Vec<V<'a>>),
    Unknown(String),
}

impl V<'_> {
    pub(crate) fn unknown(why: impl Into<String>) -> Self {
        V::Unknown(why.into())
    }
    pub(crate) fn obj(&self) -> Option<ObjId> {
        match self {
            V::Ref(id) | V::Struct(id) => Some(*id),
            _ => None,
        }
    }
    /// The first of a call's results (`x, err := f()` reads `x`).
    pub(crate) fn first(self) -> Self {
        match self {
            V::Tuple(mut v) if !v.is_empty() => v.swap_remove(0),
            V::Tuple(_) => V::unknown("a call that returns nothing"),
            v => v,
        }
    }
}

/// A function value: a declared function or method (with its receiver
/// bound), or a function literal with the scope it closes over.
#[derive(Debug)]
pub(crate) enum Func<'a> {
    Decl {
        file: usize,
        decl: &'a FuncDecl,
        recv: Option<V<'a>>,
    },
    Lit {
        file: usize,
        lit: &'a FuncLit,
        scope: Scope<'a>,
    },
}

/// A type's name and where it is declared: one of the files' packages,
/// or a package outside them (its import path).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Ty {
    pub pkg: Option<usize>,
    pub path: String,
    pub name: String,
}

/// Where a `rest.Config` came from: it decides what an unset QPS means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Origin {
    /// controller-runtime's loader (`ctrl.GetConfig*`).
    Loader,
    /// client-go's (`clientcmd`, `rest.InClusterConfig`, a literal).
    ClientGo,
    /// A function of another module: its limit is not known.
    Outside,
}

/// What a heap object is.
#[derive(Clone, Debug)]
pub(crate) enum Kind<'a> {
    Plain,
    Map(Vec<(V<'a>, V<'a>)>),
    Slice(Vec<V<'a>>),
    Config {
        origin: Origin,
        at: (usize, usize),
    },
    Manager {
        config: V<'a>,
    },
    Builder(Box<Builder<'a>>),
    /// A client-go queue: its index in the interpreter's queues.
    Queue(usize),
    /// A client built from a config (its index in the clients).
    #[allow(dead_code)]
    Client(usize),
    /// A cobra command, a flag set: their methods are known by name.
    Command,
    /// client-go's informers: a factory, down to a shared informer.
    Informer(Box<super::informers::Informer>),
}

/// controller-runtime's builder as its links set it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Builder<'a> {
    pub name: Option<String>,
    pub kind: String,
    pub options: Option<V<'a>>,
    pub at: (usize, usize),
}

/// A heap object: its type, its fields in the order set, and what it is.
#[derive(Clone, Debug)]
pub(crate) struct Obj<'a> {
    pub ty: Ty,
    pub fields: Vec<(String, V<'a>)>,
    pub kind: Kind<'a>,
}

impl<'a> Obj<'a> {
    pub(crate) fn new(ty: Ty, kind: Kind<'a>) -> Self {
        Obj {
            ty,
            fields: Vec::new(),
            kind,
        }
    }
    /// A plain value of the library type `name` (a `context.Context`, a
    /// kingpin flag…): fields only, no behaviour of its own.
    pub(crate) fn plain(name: &str) -> Self {
        Obj::new(
            Ty {
                name: name.into(),
                ..Ty::default()
            },
            Kind::Plain,
        )
    }
    pub(crate) fn field(&self, name: &str) -> Option<&V<'a>> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
    pub(crate) fn set(&mut self, name: &str, v: V<'a>) {
        match self.fields.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = v,
            None => self.fields.push((name.to_string(), v)),
        }
    }
}
