//! What the run built, made a scenario in the files' own schema: the
//! client's limit (the manager's config for a controller-runtime program,
//! the clients for a client-go one), a shared bucket, every controller with
//! its queue, limiter and workers, and what Go does not say assumed and said.

use workqueue_core::Span;
use workqueue_core::{
    BucketSpec, Burst, ClientLimit, ClientQps, ClientRate, ClientScope, ControllerConfig,
    ControllerSpec, CrossplaneConfig, CrossplaneProfile, Duration, KeyCount, LimiterConfig,
    OutOfRange, Outcome, Qps, QueueKind, ReconcileRate, Requests, Scenario, Script,
    Source as KeySource, Workers, MILLISECOND,
};

use super::{Client, Found, ImportError, Imported, Reader, OBJECTS};
use crate::interp::record::ClientRec;
use crate::interp::val::{Kind, Origin, V};

impl Reader<'_> {
    pub(super) fn scenario(mut self) -> Result<Imported, ImportError> {
        self.it.finish();
        if self.it.ctrls.is_empty() {
            return Err(self.nothing_found());
        }
        let mut s = Scenario::new("imported");
        s.duration_ns = Span::lit(10 * 60 * workqueue_core::SECOND);
        let clients = self.clients();
        let client = match self.it.managers.first().map(|m| m.config.clone()) {
            Some(config) => self.manager_client(&config),
            None => self.client_go_client(),
        };
        s.client = match client {
            Some(c) => Some(ClientLimit {
                qps: self.ranged("client.qps", ClientQps::new(c.qps))?,
                burst: self.ranged("client.burst", Burst::new(c.burst))?,
                per: c.per,
            }),
            None => None,
        };
        let crossplane = self.it.ctrls.iter().find_map(|c| c.options.crossplane);
        let crossplane = match crossplane {
            Some(r) => Some(self.ranged("crossplane.max_reconcile_rate", ReconcileRate::new(r))?),
            None => None,
        };
        let default_client_go = self.minor().is_some_and(|m| m < 23);
        let sharing = self.sharing();
        s.shared_bucket = sharing.iter().flatten().next().map(|(b, _)| *b);
        let mut workers = Vec::with_capacity(self.it.ctrls.len());
        for (i, c) in self.it.ctrls.iter().enumerate() {
            let n = match c.client_go {
                true => c.workers.max(1),
                false => c.options.workers.unwrap_or(1).max(1),
            };
            let field = format!("controllers[{i}].controller.workers");
            workers.push(self.ranged(&field, Workers::new(n))?);
        }
        s.controllers = self
            .it
            .ctrls
            .iter()
            .zip(sharing)
            .zip(workers)
            .map(|((c, sharing), workers)| ControllerSpec {
                name: c.name.clone(),
                queue: if c.client_go
                    || c.options.priority_queue == Some(false)
                    || (default_client_go && c.options.priority_queue.is_none())
                {
                    QueueKind::ClientGo
                } else {
                    QueueKind::Priority
                },
                limiter: match &sharing {
                    Some((_, own)) => Some(own.clone()),
                    None => c.options.limiter.clone(),
                },
                controller: ControllerConfig {
                    workers,
                    reconcile_ns: Span::lit(50 * MILLISECOND),
                    give_up_after: c.give_up_after,
                    // (Past ten years a deadline is never reached in a run.)
                    reconcile_timeout_ns: c
                        .options
                        .timeout
                        .filter(|t| *t > Duration::ZERO)
                        .map(Span::saturating),
                    reconcile_jitter_ns: None,
                },
                default_script: Script::Always {
                    outcome: Outcome::Success,
                },
                items: Vec::new(),
                sources: std::iter::once(KeySource::AddMany {
                    prefix: format!("{}-", c.kind.to_lowercase()),
                    count: KeyCount::lit(OBJECTS),
                    at_ns: workqueue_core::Delay::ZERO,
                    script: None,
                })
                // (Past ten years a resync is never, in a run of a week at most.)
                .chain(c.resync.map(|period_ns| KeySource::Resync {
                    period_ns: Span::saturating(period_ns),
                }))
                .collect(),
                // A status update: the write nearly every reconcile makes.
                requests_per_reconcile: Requests::lit(1),
                kind: c.kind.clone(),
                writes: Default::default(),
                errors_write_nothing: false,
                failure_writes: None,
                shares_bucket: sharing.is_some(),
            })
            .collect();
        s.crossplane = crossplane.map(CrossplaneConfig::note_2021);
        let profile = self.crossplane_profile(&s);
        s.crossplane = self.ranged("crossplane.max_reconcile_rate", profile)?;
        let main = self.main_file();
        let mut globals = self.it.global_buckets.clone();
        globals.sort_unstable();
        globals.dedup();
        if globals.len() > 1 {
            self.it.unread.push(Found { file: main.clone(), line: 1, text: format!("{} Crossplane global buckets (each ratelimiter.NewGlobal call is one, for the controllers given its options): the playground has one, shared by every controller", globals.len()) });
        }
        if !default_client_go
            && self
                .it
                .ctrls
                .iter()
                .any(|c| !c.client_go && c.options.priority_queue.is_none())
        {
            self.it.unread.push(Found { file: main.clone(), line: 1, text: "UsePriorityQueue is not set: the priority queue, controller-runtime v0.23's default (a go.mod among the files says which version)".into() });
        }
        self.it.unread.push(Found {
            file: main.clone(),
            line: 1,
            text: format!("not in the code, assumed: {OBJECTS} objects per controller, each reconcile takes 50ms, succeeds and writes once to its own kind (a status update); reads from the cache cost no request; set them in the scenario (the page's dialog asks for them)"),
        });
        s.validate().map_err(|e| ImportError::Unusable {
            file: main,
            reason: match e.reason.contains("names two controllers") {
                // A folder read with a copy of itself inside.
                true => format!("{e} (were the same files read twice?)"),
                false => e.to_string(),
            },
        })?;
        Ok(Imported {
            scenario: s,
            taken: self.it.taken,
            unread: self.it.unread,
            clients,
        })
    }

    /// A number Go took that a scenario cannot hold: the import is refused
    /// naming it, as a file's reader would.
    fn ranged<T>(&self, field: &str, r: Result<T, OutOfRange>) -> Result<T, ImportError> {
        r.map_err(|e| ImportError::Unusable {
            file: self.main_file(),
            reason: e.at(field).to_string(),
        })
    }

    /// No controller: the calls the reader could not follow because their
    /// package's files were not given, when there are any.
    fn nothing_found(&self) -> ImportError {
        let it = &self.it;
        if it.not_given.is_empty() {
            return ImportError::NoController;
        }
        let calls = it
            .not_given
            .iter()
            .take(super::MAX_NOT_GIVEN_SAID)
            .map(|(call, path, (f, p))| {
                let (file, line) = it.at(*f, *p);
                format!("{call} at {file}:{line} from package {path:?}: its files were not given")
            })
            .collect();
        let more = it
            .not_given
            .len()
            .saturating_sub(super::MAX_NOT_GIVEN_SAID)
            .saturating_add(it.not_given_more);
        ImportError::NotGiven { calls, more }
    }

    /// The bucket the controllers share, for each controller that shares
    /// it, with the rest of its limiter: one limiter instance (a bucket, a
    /// max-of with one, client-go's default) that reaches two queues is one
    /// Go object. Its per-item failures are shared too, which the scenario
    /// cannot say: said in a note.
    fn sharing(&mut self) -> Vec<Option<(BucketSpec, LimiterConfig)>> {
        // Per controller: the bucket instances its limiter holds, each with
        // the limiter without it (none: a bare bucket).
        type Held = Vec<(usize, BucketSpec, Option<LimiterConfig>)>;
        let held: Vec<Held> = self
            .it
            .ctrls
            .iter()
            .map(|c| {
                let (Some(l), Some(id)) = (&c.options.limiter, c.options.limiter_id) else {
                    return Vec::new();
                };
                let parts = self.it.limiters.get(id).cloned().unwrap_or_default();
                match l {
                    LimiterConfig::Bucket { qps, burst } => vec![(
                        id,
                        BucketSpec {
                            qps: *qps,
                            burst: *burst,
                        },
                        None,
                    )],
                    // client-go's default: max-of(exponential 5ms..1000s,
                    // bucket 10/s burst 100), its bucket inside the instance.
                    LimiterConfig::DefaultController => vec![(
                        id,
                        BucketSpec {
                            qps: Qps::lit(10.0),
                            burst: Burst::lit(100),
                        },
                        Some(LimiterConfig::Exponential {
                            base_ns: Span::lit(5 * MILLISECOND),
                            max_ns: Span::lit(1000 * workqueue_core::SECOND),
                        }),
                    )],
                    LimiterConfig::MaxOf { limiters } if parts.len() == limiters.len() => limiters
                        .iter()
                        .enumerate()
                        .filter_map(|(i, part)| match part {
                            LimiterConfig::Bucket { qps, burst } => {
                                let mut rest: Vec<LimiterConfig> = limiters.clone();
                                rest.remove(i);
                                let own = match rest.len() {
                                    0 => None,
                                    1 => rest.pop(),
                                    _ => Some(LimiterConfig::MaxOf { limiters: rest }),
                                };
                                let b = BucketSpec {
                                    qps: *qps,
                                    burst: *burst,
                                };
                                Some((parts[i], b, own))
                            }
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                }
            })
            .collect();
        let users = |id: usize| -> Vec<usize> {
            (0..held.len())
                .filter(|&c| held[c].iter().any(|(b, _, _)| *b == id))
                .collect()
        };
        let mut shared: Vec<usize> = held
            .iter()
            .flatten()
            .map(|(id, _, _)| *id)
            .filter(|id| users(*id).len() > 1)
            .collect();
        shared.dedup();
        let mut out = vec![None; held.len()];
        let names = |it: &crate::interp::Interp<'_>, cs: &[usize]| -> String {
            cs.iter()
                .map(|&c| format!("{:?}", it.ctrls[c].name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(&id) = shared.first() {
            let cs = users(id);
            let at = self.it.ctrls[cs[0]].at;
            let mut bare = Vec::new();
            let mut spec = None;
            for &c in &cs {
                if let Some((_, b, own)) = held[c].iter().find(|(b, _, _)| *b == id) {
                    spec = Some(*b);
                    match own {
                        Some(own) => out[c] = Some((*b, own.clone())),
                        None => bare.push(c),
                    }
                }
            }
            if let Some(b) = spec {
                let text = format!("one token bucket ({} per second, burst {}), one limiter value that reaches the queues of {}: shared by them (shared_bucket)", b.qps, b.burst, names(&self.it, &cs));
                self.it.note(true, at.0, at.1, text);
            }
            if !bare.is_empty() {
                let text = format!("the shared bucket is the whole limiter of {}: the playground shares a bucket only beside a controller's own limiter; each is given its own bucket", names(&self.it, &bare));
                self.it.note(false, at.0, at.1, text);
            }
            for &other in &shared[1..] {
                let cs = users(other);
                let at = self.it.ctrls[cs[0]].at;
                let text = format!("another token bucket shared by {}: the playground has one shared bucket; these controllers are each given their own", names(&self.it, &cs));
                self.it.note(false, at.0, at.1, text);
            }
        }
        // One whole limiter instance in several queues: its per-item
        // failure counts are one map too.
        let mut seen = Vec::new();
        for c in 0..self.it.ctrls.len() {
            let Some(id) = self.it.ctrls[c].options.limiter_id else {
                continue;
            };
            if seen.contains(&id) {
                continue;
            }
            seen.push(id);
            let cs: Vec<usize> = (0..self.it.ctrls.len())
                .filter(|&o| self.it.ctrls[o].options.limiter_id == Some(id))
                .collect();
            let per_item = !matches!(
                self.it.ctrls[c].options.limiter,
                Some(LimiterConfig::Bucket { .. }) | None
            );
            if cs.len() > 1 && per_item {
                let at = self.it.ctrls[cs[1]].at;
                let text = format!("one limiter value reaches the queues of {}: in Go its per-item failure counts are one map too (a key of the same namespace/name failing in one backs off in the other, and Forget in one clears it for both); the playground gives each controller its own", names(&self.it, &cs));
                self.it.note(false, at.0, at.1, text);
            }
        }
        out
    }

    /// The file general notes are about: the one with `func main`, or the first.
    fn main_file(&self) -> String {
        let has_main = |s: &&crate::source::Source| {
            s.file.decl.iter().any(|d| matches!(d, gosyn::ast::Declaration::Function(f) if f.name.name == "main" && f.recv.is_none()))
        };
        self.it
            .sources
            .iter()
            .find(has_main)
            .unwrap_or(&self.it.sources[0])
            .name
            .clone()
    }

    /// A controller-runtime program: the manager's config, as it is when the
    /// manager starts. Its client has one bucket per kind.
    fn manager_client(&mut self, config: &V<'_>) -> Option<ClientRate> {
        let Some(id) = config.obj() else {
            let why = match config {
                V::Unknown(w) => w.clone(),
                _ => "not a rest.Config".into(),
            };
            let at = self.it.managers[0].at;
            self.it.note(false, at.0, at.1, format!("the manager's rest.Config: {why}: no client limit assumed; set it in the scenario"));
            return None;
        };
        let (origin, at) = match &self.it.heap[id].kind {
            Kind::Config { origin, at } => (*origin, *at),
            _ => (Origin::Outside, self.it.managers[0].at),
        };
        let field = |name: &str| self.it.heap[id].field(name).cloned();
        let (qps, burst, limiter) = (field("QPS"), field("Burst"), field("RateLimiter"));
        if let Some(V::ClientBucket { qps, burst, .. }) = limiter {
            self.it.note(true, at.0, at.1, format!("rest.Config.RateLimiter: one client bucket of {qps} qps, burst {burst}, shared by every client made from the config"));
            return Some(ClientRate {
                qps,
                burst,
                per: ClientScope::Shared,
            });
        }
        if let Some(V::Unknown(why)) = limiter {
            self.it.note(
                false,
                at.0,
                at.1,
                format!("rest.Config.RateLimiter: {why}: no client limit assumed; set it in the scenario"),
            );
            // A limiter set but not read: no rule of QPS applies.
            return None;
        }
        let burst = match burst {
            Some(V::Num(b)) if b > 0.0 => crate::num::whole::<i64>(b, "Burst").ok(),
            Some(V::Unknown(why)) => {
                self.it.note(
                    false,
                    at.0,
                    at.1,
                    format!("rest.Config.Burst: {why}: set the client limit in the scenario"),
                );
                None
            }
            _ => None,
        };
        match qps {
            Some(V::Num(q)) if q < 0.0 => {
                self.it.note(
                    true,
                    at.0,
                    at.1,
                    format!("rest.Config.QPS {q}: no client-side limit"),
                );
                None
            }
            Some(V::Num(q)) if q > 0.0 => {
                let b = burst.unwrap_or(10);
                self.it.note(
                    true,
                    at.0,
                    at.1,
                    format!(
                        "rest.Config.QPS {q}, Burst {b}: the manager's client, one bucket per kind"
                    ),
                );
                Some(ClientRate {
                    qps: q,
                    burst: b,
                    per: ClientScope::Kind,
                })
            }
            Some(V::Unknown(why)) => {
                self.it.note(
                    false,
                    at.0,
                    at.1,
                    format!("rest.Config.QPS: {why}: set the client limit in the scenario"),
                );
                None
            }
            _ => match origin {
                Origin::Loader if self.minor().is_some_and(|m| m < 21) => {
                    self.it.note(true, at.0, at.1, "rest.Config QPS is not set: controller-runtime's config loader before v0.21 fills QPS 20, burst 30: one bucket per kind".into());
                    Some(ClientRate {
                        qps: 20.0,
                        burst: 30,
                        per: ClientScope::Kind,
                    })
                }
                Origin::Loader => {
                    self.it.note(false, at.0, at.1, "rest.Config QPS is not set: controller-runtime's config loader turns client-side limiting off (since v0.21): no client limit".into());
                    None
                }
                Origin::ClientGo => {
                    let b = burst.unwrap_or(10);
                    self.it.note(true, at.0, at.1, format!("rest.Config QPS is not set on a client-go config: client-go's defaults, 5 qps, burst {b}, one bucket per kind"));
                    Some(ClientRate {
                        qps: 5.0,
                        burst: b,
                        per: ClientScope::Kind,
                    })
                }
                Origin::Outside => {
                    self.it.note(false, at.0, at.1, "the manager's rest.Config comes from a function outside the files: its limit is not known; no client limit assumed: set it in the scenario".into());
                    None
                }
            },
        }
    }

    /// A client-go program: the controllers write through the first typed
    /// clientset (each client has its own limiter; the others are listed).
    fn client_go_client(&mut self) -> Option<ClientRate> {
        let recs = self.it.clients.clone();
        let Some(first) = recs
            .iter()
            .find(|c| c.typed && c.unknown.is_none())
            .or(recs.first())
        else {
            let main = self.main_file();
            self.it.unread.push(Found {
                file: main,
                line: 1,
                text: "no client made from a rest.Config was found: no client limit".into(),
            });
            return None;
        };
        if recs.len() > 1 {
            let (f, l) = self.it.at(first.at.0, first.at.1);
            self.it.note(false, first.at.0, first.at.1, format!("{} clients, each with its own limiter: the playground's controllers write through one, {} ({f}:{l})", recs.len(), first.what));
        }
        let (qps, burst, per) = self.limit_of(first)?;
        Some(ClientRate { qps, burst, per })
    }

    /// A client's limit and scope, by client-go's rules.
    fn limit_of(&self, c: &ClientRec) -> Option<(f64, i64, ClientScope)> {
        if let Some((q, b, _)) = c.shared {
            return Some((q, b, ClientScope::Shared));
        }
        if c.unknown.is_some() {
            return None;
        }
        let burst = c.burst.filter(|b| *b > 0).unwrap_or(10);
        match c.qps.unwrap_or(0.0) {
            q if q < 0.0 => None,
            q if q > 0.0 => Some((q, burst, ClientScope::Clientset)),
            _ => match c.origin {
                Origin::Loader if self.minor().is_some_and(|m| m < 21) => {
                    Some((20.0, 30, ClientScope::Clientset))
                }
                Origin::Loader | Origin::Outside => None,
                // QPS unset: a typed clientset's group-versions each make
                // their own 5/10 bucket; one REST client makes one.
                Origin::ClientGo if c.typed => Some((5.0, burst, ClientScope::GroupVersion)),
                Origin::ClientGo => Some((5.0, burst, ClientScope::Clientset)),
            },
        }
    }

    /// Every client made, listed and said.
    fn clients(&mut self) -> Vec<Client> {
        let recs = self.it.clients.clone();
        let mut out = Vec::new();
        for c in &recs {
            let (file, line) = self.it.at(c.at.0, c.at.1);
            let limit = self.limit_of(c);
            let per = match (&c.unknown, limit) {
                (Some(_), _) => "unknown",
                (None, None) => "none",
                (None, Some((_, _, ClientScope::Shared))) => "shared",
                (None, Some((_, _, ClientScope::Kind | ClientScope::GroupVersion))) => {
                    "group-version"
                }
                (None, Some((_, _, ClientScope::Clientset))) => "clientset",
            };
            let text = match (&c.unknown, limit) {
                (Some(why), _) => format!("{}: its limit is not known ({why})", c.what),
                (None, None) => format!("{}: no client-side limit", c.what),
                (None, Some((q, b, ClientScope::Shared))) => format!("{}: the config's RateLimiter, one bucket of {q} qps, burst {b} shared by every client of the config", c.what),
                (None, Some((q, b, ClientScope::Kind | ClientScope::GroupVersion))) => format!("{}: QPS unset, client-go's defaults: {q} qps, burst {b} for each API group-version it serves", c.what),
                (None, Some((q, b, ClientScope::Clientset))) => format!("{}: one bucket of {q} qps, burst {b}", c.what),
            };
            self.it.note(c.unknown.is_none(), c.at.0, c.at.1, text);
            out.push(Client {
                what: c.what.clone(),
                qps: limit.map(|l| l.0),
                burst: limit.map(|l| l.1),
                per: per.into(),
                file,
                line,
            });
        }
        out
    }

    /// Which Crossplane the program is, from its go.mod and its code, said
    /// in a note at the go.mod's line: core with a global bucket is the 2021
    /// design (before v2.1), core without one is core since v2.1 (R: the
    /// largest `MaxConcurrentReconciles` read, else the flag's default of
    /// 100); a program on crossplane-runtime with the global bucket is a
    /// provider of today when every controller runs on the priority queue,
    /// and the 2021 design as it ran on client-go's queue otherwise.
    fn crossplane_profile(&mut self, s: &Scenario) -> Result<Option<CrossplaneConfig>, OutOfRange> {
        let found = s.crossplane;
        let Some((file, line, core)) = self.crossplane_module.clone() else {
            return Ok(found);
        };
        let (config, text) = match (core, found) {
            (true, Some(cp)) => (cp, "Crossplane core with its global bucket: the 2021 design, as core ran it before v2.1 (profile note-2021)".to_string()),
            (true, None) => {
                let r = self.it.ctrls.iter().filter_map(|c| c.options.workers).max().unwrap_or(100);
                (
                    CrossplaneConfig { max_reconcile_rate: ReconcileRate::new(r)?, profile: CrossplaneProfile::Core, breaker: None },
                    format!("Crossplane core without a global bucket: core since v2.1 (profile core): {r} workers per controller, no client limit, the XR circuit breaker"),
                )
            }
            (false, None) => return Ok(None),
            (false, Some(cp)) if s.controllers.iter().all(|c| c.queue == QueueKind::Priority) => (
                CrossplaneConfig { profile: CrossplaneProfile::Provider, ..cp },
                "crossplane-runtime on the priority queue: a provider of today (profile provider): the global bucket in the reconciler wrapper, 1s to 1m per object, the client at 5R/10R".to_string(),
            ),
            (false, Some(cp)) => (cp, "crossplane-runtime on client-go's queue: the 2021 design as it ran (profile note-2021)".to_string()),
        };
        self.it.taken.push(Found { file, line, text });
        Ok(Some(config))
    }
}
