//! client-go as a set-up uses it: the clients made from a config (each
//! with the limit the config has then), the rate limiters, and the
//! rate-limiting queues, typed or not, named or not.

use gosyn::ast::Call;
use workqueue_core::Span;
use workqueue_core::{LimiterConfig, MILLISECOND, SECOND};

use super::outside::{num, span};
use super::record::{ClientRec, CtrlRec};
use super::val::{Kind, Obj, Origin, Ty, V};
use super::{Ctx, Interp};
use crate::value::Options;

/// A limiter's client-go name without `New` and `Typed`.
fn limiter_name(name: &str) -> String {
    name.strip_prefix("New")
        .unwrap_or(name)
        .replacen("Typed", "", 1)
}

impl<'a> Interp<'a> {
    /// A client made from a config: its limit is the config's now.
    pub(crate) fn client(
        &mut self,
        cx: &Ctx<'a>,
        tail: &str,
        alias: &str,
        name: &str,
        c: &'a Call,
    ) -> V<'a> {
        let args = self.args(cx, c);
        let single = !(name == "NewForConfig"
            || name == "NewForConfigAndClient"
            || name == "NewDiscoveryClientForConfig");
        let typed =
            !matches!(tail, "dynamic" | "metadata" | "discovery") && !name.contains("Discovery");
        let mut rec = ClientRec {
            what: format!("{alias}.{name}"),
            qps: None,
            burst: None,
            shared: None,
            origin: Origin::Outside,
            typed,
            at: (cx.file, c.pos.0),
            unknown: None,
        };
        match args
            .first()
            .and_then(V::obj)
            .map(|id| (id, self.heap[id].kind.clone()))
        {
            Some((id, Kind::Config { origin, .. })) => {
                rec.origin = origin;
                let read = |it: &Self, f: &str| it.heap[id].field(f).cloned();
                match read(self, "QPS") {
                    Some(V::Num(q)) => rec.qps = Some(q),
                    Some(V::Unknown(w)) => rec.unknown = Some(format!("QPS: {w}")),
                    _ => {}
                }
                match read(self, "Burst") {
                    Some(V::Num(b)) => rec.burst = crate::num::whole(b, "Burst").ok(),
                    Some(V::Unknown(w)) => rec.unknown = Some(format!("Burst: {w}")),
                    _ => {}
                }
                match read(self, "RateLimiter") {
                    Some(V::ClientBucket { qps, burst, id }) => rec.shared = Some((qps, burst, id)),
                    Some(V::Unknown(w)) => rec.unknown = Some(format!("RateLimiter: {w}")),
                    _ => {}
                }
            }
            _ => {
                let why = match args.first() {
                    Some(V::Unknown(w)) => w.clone(),
                    _ => "a config the reader does not hold".into(),
                };
                rec.unknown = Some(why);
            }
        }
        self.clients.push(rec);
        let idx = self.clients.len() - 1;
        let v = V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Client(idx))));
        match single {
            true => v,
            false => V::Tuple(vec![v, V::Nil]),
        }
    }

    /// client-go's `workqueue` package: limiters, and the rate-limiting
    /// queues (typed or not, named or not, with a config or not).
    pub(crate) fn workqueue(&mut self, cx: &Ctx<'a>, name: &str, c: &'a Call) -> V<'a> {
        let args = self.args(cx, c);
        let lim = |v: Option<&V<'a>>| match v {
            Some(V::Limiter(l, id)) => Ok((l.clone(), *id)),
            Some(V::Unknown(w)) => Err(w.clone()),
            _ => Err("not a rate limiter".to_string()),
        };
        let made: Result<(LimiterConfig, Vec<usize>), String> = match limiter_name(name).as_str() {
            "ItemExponentialFailureRateLimiter" => (|| {
                Ok((
                    LimiterConfig::Exponential {
                        base_ns: span(args.first())?,
                        max_ns: span(args.get(1))?,
                    },
                    Vec::new(),
                ))
            })(),
            "ItemFastSlowRateLimiter" => (|| {
                Ok((
                    LimiterConfig::FastSlow {
                        fast_ns: span(args.first())?,
                        slow_ns: span(args.get(1))?,
                        max_fast_attempts: crate::num::whole(num(args.get(2))?, "maxFastAttempts")?,
                    },
                    Vec::new(),
                ))
            })(),
            "MaxOfRateLimiter" => args
                .iter()
                .map(|a| lim(Some(a)))
                .collect::<Result<Vec<_>, _>>()
                .map(|parts| {
                    let (limiters, ids) = parts.into_iter().unzip();
                    (LimiterConfig::MaxOf { limiters }, ids)
                }),
            "WithMaxWaitRateLimiter" => (|| {
                let (inner, id) = lim(args.first())?;
                Ok((
                    LimiterConfig::WithMaxWait {
                        limiter: Box::new(inner),
                        max_wait_ns: span(args.get(1))?,
                    },
                    vec![id],
                ))
            })(),
            "DefaultControllerRateLimiter" => Ok((LimiterConfig::DefaultController, Vec::new())),
            "DefaultItemBasedRateLimiter" => Ok((
                LimiterConfig::Exponential {
                    base_ns: Span::lit(5 * MILLISECOND),
                    max_ns: Span::lit(1000 * SECOND),
                },
                Vec::new(),
            )),
            q if q
                .trim_start_matches("Named")
                .starts_with("RateLimitingQueue") =>
            {
                let (limiter, limiter_id) = match lim(args.first()) {
                    Ok((l, id)) => (Some(l), Some(id)),
                    Err(why) => {
                        self.note(
                            false,
                            cx.file,
                            c.pos.0,
                            format!("the queue's rate limiter: {why}: client-go's default is used"),
                        );
                        (None, None)
                    }
                };
                let qname = match args.get(1) {
                    Some(V::Str(s)) => s.clone(),
                    Some(v) => match v.obj().and_then(|id| self.heap[id].field("Name").cloned()) {
                        Some(V::Str(s)) => s,
                        _ => String::new(),
                    },
                    None => String::new(),
                };
                let options = Options {
                    limiter,
                    limiter_id,
                    ..Options::default()
                };
                let idx = self.found(CtrlRec::new(
                    qname,
                    String::new(),
                    options,
                    true,
                    (cx.file, c.pos.0),
                ));
                return V::Ref(self.alloc(Obj::new(Ty::default(), Kind::Queue(idx))));
            }
            _ => Err(format!("workqueue.{name}(…)")),
        };
        match made {
            Ok((l, parts)) => V::Limiter(l, self.new_limiter(parts)),
            Err(why) => V::Unknown(why),
        }
    }
}
