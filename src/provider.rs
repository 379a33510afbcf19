//! The manager form: several controllers in one process, what they share,
//! and the API client's limit, turned into a manager scenario. Plain Rust,
//! tested natively.

use workqueue_core::Span;
use workqueue_core::{
    BucketSpec, ClientLimit, ClientScope, ControllerConfig, ControllerSpec, Source,
};
use workqueue_core::{Burst, ClientQps, Failures, KeyCount, OutOfRange, Qps, ReconcileRate};
use workqueue_core::{CrossplaneConfig, Requests, Script, Workers};
use workqueue_core::{LimiterConfig, QueueKind, Scenario, MILLISECOND, SECOND};

/// What the controllers share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sharing {
    /// A Crossplane provider: the global bucket (R/s, burst 10R) in front of
    /// every reconciler, per-object backoff 1s→60s, R workers each.
    Crossplane { r: u32 },
    /// One `BucketRateLimiter` passed to every controller (max-of with its
    /// own per-item backoff), as a seed suggests for a shared external API.
    Bucket { qps: f64, burst: i64 },
    /// Nothing: each controller has its version's default limiter of its own.
    Nothing,
}

/// The API client's limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClientChoice {
    /// controller-runtime v0.21 and later: no client-side limit.
    Off,
    /// controller-runtime v0.20 and earlier: 20 qps, burst 30.
    V020,
    /// Crossplane's 5R qps, burst 10R (needs Crossplane sharing).
    Crossplane,
    Custom {
        qps: f64,
        burst: i64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    pub name: String,
    pub objects: u64,
    /// With a shared bucket: whether this controller is passed it.
    pub shares_bucket: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Provider {
    pub kinds: Vec<Kind>,
    pub sharing: Sharing,
    pub client: ClientChoice,
    /// One client bucket per kind (controller-runtime's client), or one
    /// for all (a clientset, an explicit `Config.RateLimiter`).
    pub client_per: ClientScope,
    pub requests_per_reconcile: u32,
    /// Each reconcile fails this many times, then succeeds.
    pub failures: u32,
    pub reconcile_ms: i64,
    pub seconds: i64,
    /// Which controller-runtime every controller runs (the stage's switch).
    pub queue: QueueKind,
}

/// Most controllers the form offers (the core takes up to 16).
pub const MAX_KINDS: usize = 6;

impl Default for Provider {
    /// The issue's provider: R = 10, three kinds of 1,000 objects, three
    /// API requests per reconcile, a few failures each.
    fn default() -> Self {
        Provider {
            kinds: ["bucket", "queue", "topic"]
                .iter()
                .map(|k| Kind {
                    name: format!("{k}s"),
                    objects: 1_000,
                    shares_bucket: true,
                })
                .collect(),
            sharing: Sharing::Crossplane { r: 10 },
            client: ClientChoice::Crossplane,
            client_per: ClientScope::Kind,
            requests_per_reconcile: 3,
            failures: 3,
            reconcile_ms: 50,
            seconds: 60,
            queue: QueueKind::ClientGo,
        }
    }
}

impl Provider {
    /// The manager scenario, checked by the core's validation gate.
    pub fn to_scenario(&self) -> Result<Scenario, String> {
        let mut s = Scenario::new("manager");
        s.seed = 7;
        s.duration_ns = ranged(
            "duration_ns",
            Span::new(SECOND.saturating_mul(self.seconds)),
        )?;
        let reconcile_ns = ranged(
            "controllers[0].controller.reconcile_ns",
            Span::new(MILLISECOND.saturating_mul(self.reconcile_ms)),
        )?;
        match self.sharing {
            Sharing::Crossplane { r } => {
                let r = ranged("crossplane.max_reconcile_rate", ReconcileRate::new(r))?;
                s.crossplane = Some(CrossplaneConfig::note_2021(r));
            }
            Sharing::Bucket { qps, burst } => {
                s.shared_bucket = Some(BucketSpec {
                    qps: ranged("shared_bucket.qps", Qps::new(qps))?,
                    burst: ranged("shared_bucket.burst", Burst::new(burst))?,
                })
            }
            Sharing::Nothing => {}
        }
        let client = |qps: f64, burst: i64| -> Result<ClientLimit, String> {
            Ok(ClientLimit {
                qps: ranged("client.qps", ClientQps::new(qps))?,
                burst: ranged("client.burst", Burst::new(burst))?,
                per: self.client_per,
            })
        };
        s.client = match (self.client, self.sharing) {
            (ClientChoice::Off, _) => None,
            (ClientChoice::V020, _) => Some(ClientLimit {
                per: self.client_per,
                ..ClientLimit::V0_20
            }),
            (ClientChoice::Crossplane, Sharing::Crossplane { r }) => {
                Some(client(5.0 * r as f64, 10 * r as i64)?)
            }
            (ClientChoice::Crossplane, _) => {
                return Err("API client limit: 5R / 10R is Crossplane's: choose Crossplane sharing, or another client limit".into())
            }
            (ClientChoice::Custom { qps, burst }, _) => Some(client(qps, burst)?),
        };
        let script = Script::FailThenSucceed {
            failures: ranged(
                "controllers[0].default_script.failures",
                Failures::new(self.failures),
            )?,
        };
        let requests = ranged(
            "controllers[0].requests_per_reconcile",
            Requests::new(self.requests_per_reconcile),
        )?;
        let bucket = matches!(self.sharing, Sharing::Bucket { .. });
        let mut objects = Vec::with_capacity(self.kinds.len());
        for (i, k) in self.kinds.iter().enumerate() {
            let field = format!("controllers[{i}].sources[0].count");
            objects.push(ranged(&field, KeyCount::new(k.objects))?);
        }
        s.controllers = self
            .kinds
            .iter()
            .zip(objects)
            .map(|(k, count)| (k, count, bucket && k.shares_bucket))
            .map(|(k, count, shares)| ControllerSpec {
                name: k.name.clone(),
                queue: self.queue,
                // Passed the shared bucket: max-of it and a per-item
                // backoff. Otherwise no RateLimiter: the version's default.
                limiter: shares.then_some(LimiterConfig::Exponential {
                    base_ns: Span::lit(5 * MILLISECOND),
                    max_ns: Span::lit(1000 * SECOND),
                }),
                controller: ControllerConfig {
                    workers: Workers::lit(1),
                    reconcile_ns,
                    give_up_after: None,
                    reconcile_timeout_ns: None,
                    reconcile_jitter_ns: None,
                },
                default_script: script.clone(),
                items: Vec::new(),
                sources: vec![Source::AddMany {
                    prefix: format!("{}-", k.name.trim_end_matches('s')),
                    count,
                    at_ns: workqueue_core::Delay::ZERO,
                    script: None,
                }],
                requests_per_reconcile: requests,
                kind: String::new(),
                writes: Default::default(),
                errors_write_nothing: false,
                failure_writes: None,
                shares_bucket: shares,
            })
            .collect();
        if s.controllers.is_empty() {
            return Err("Controllers: a manager needs at least one controller".into());
        }
        let keys = s.key_count();
        if keys > crate::timeline::PAGE_MAX_KEYS {
            return Err(format!(
                "Objects each: {keys} keys in all is too many for the page: at most {}",
                crate::timeline::PAGE_MAX_KEYS
            ));
        }
        s.validate()
            .map_err(|e| format!("{}: {}", label(&e.field), e.reason))?;
        Ok(s)
    }
}

impl Provider {
    /// The form that builds `s` exactly, if one does: a manager reopened
    /// from a link, a file or a reload shows the form it was run from. A
    /// scenario the form cannot build (a file's own limiters, keys, kinds)
    /// gives `None`, and the form keeps its values.
    pub fn from_scenario(s: &Scenario) -> Option<Provider> {
        let first = s.controllers.first()?;
        let sharing = match (&s.crossplane, s.shared_bucket) {
            (Some(cp), _) => Sharing::Crossplane {
                r: cp.max_reconcile_rate.get(),
            },
            (None, Some(b)) => Sharing::Bucket {
                qps: b.qps.get(),
                burst: b.burst.get(),
            },
            (None, None) => Sharing::Nothing,
        };
        let client = match (s.client, sharing) {
            (None, _) => ClientChoice::Off,
            (Some(c), _)
                if (c.qps, c.burst) == (ClientLimit::V0_20.qps, ClientLimit::V0_20.burst) =>
            {
                ClientChoice::V020
            }
            (Some(c), Sharing::Crossplane { r })
                if (c.qps.get(), c.burst.get()) == (5.0 * r as f64, 10 * r as i64) =>
            {
                ClientChoice::Crossplane
            }
            (Some(c), _) => ClientChoice::Custom {
                qps: c.qps.get(),
                burst: c.burst.get(),
            },
        };
        let failures = match first.default_script {
            Script::FailThenSucceed { failures } => failures.get(),
            _ => return None,
        };
        let kinds = s
            .controllers
            .iter()
            .map(|c| match c.sources.as_slice() {
                [Source::AddMany { count, .. }] => Some(Kind {
                    name: c.name.clone(),
                    objects: count.get(),
                    // Only a shared bucket asks who is passed it.
                    shares_bucket: c.shares_bucket || !matches!(sharing, Sharing::Bucket { .. }),
                }),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let form = Provider {
            kinds,
            sharing,
            client,
            client_per: s.client.map(|c| c.per).unwrap_or_default(),
            requests_per_reconcile: first.requests_per_reconcile.get(),
            failures,
            reconcile_ms: first.controller.reconcile_ns.get() / MILLISECOND,
            seconds: s.duration_ns.get() / SECOND,
            queue: first.queue,
        };
        // Only a form that builds this very scenario (its name and seed aside).
        let built = form.to_scenario().ok()?;
        let same = Scenario {
            name: built.name.clone(),
            seed: built.seed,
            ..s.clone()
        };
        (built == same).then_some(form)
    }
}

/// A number of the form in its range, or the form's refusal of it.
fn ranged<T>(field: &str, r: Result<T, OutOfRange>) -> Result<T, String> {
    r.map_err(|e| format!("{}: {e}", label(field)))
}

/// The form's label for a field of the scenario it builds: a refusal
/// names what the user typed into. Every controller is built alike, so the
/// first one is where a refusal lands.
fn label(field: &str) -> &str {
    match field {
        "client.qps" => "Client qps",
        "client.burst" => "Client burst",
        "shared_bucket.qps" => "Bucket qps",
        "shared_bucket.burst" => "Bucket burst",
        "controllers[0].requests_per_reconcile" => "API requests per reconcile",
        "controllers[0].controller.reconcile_ns" => "Reconcile takes (ms)",
        "duration_ns" => "Run for (s)",
        _ => field,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::Manager;
    use workqueue_core::{Burst, ClientQps, Qps, ReconcileRate, Requests};

    /// Every form the manager panel can hold reopens as itself, and a
    /// scenario the form cannot build is not mistaken for one.
    #[test]
    fn a_forms_scenario_reads_back_as_the_form() {
        let forms = [
            Provider::default(),
            Provider {
                sharing: Sharing::Bucket {
                    qps: 7.5,
                    burst: 40,
                },
                client: ClientChoice::V020,
                client_per: ClientScope::Shared,
                ..Provider::default()
            },
            Provider {
                sharing: Sharing::Nothing,
                client: ClientChoice::Custom { qps: 3.0, burst: 4 },
                queue: QueueKind::Priority,
                client_per: ClientScope::Clientset,
                failures: 0,
                reconcile_ms: 120,
                seconds: 30,
                kinds: vec![Kind {
                    name: "disks".into(),
                    objects: 12,
                    shares_bucket: true,
                }],
                ..Provider::default()
            },
        ];
        for form in forms {
            let s = form.to_scenario().unwrap();
            assert_eq!(Provider::from_scenario(&s), Some(form));
        }
        let mut s = Provider::default().to_scenario().unwrap();
        s.controllers[1].requests_per_reconcile = Requests::lit(9);
        assert_eq!(
            Provider::from_scenario(&s),
            None,
            "controllers unlike each other"
        );
        let mut s = Provider::default().to_scenario().unwrap();
        s.controllers[0].limiter = Some(LimiterConfig::Bucket {
            qps: Qps::lit(1.0),
            burst: Burst::lit(1),
        });
        assert_eq!(Provider::from_scenario(&s), None, "a limiter of its own");
    }

    #[test]
    fn the_default_is_the_issues_provider() {
        let s = Provider::default().to_scenario().unwrap();
        assert_eq!(s.controllers.len(), 3);
        assert_eq!(
            s.crossplane.unwrap().max_reconcile_rate,
            ReconcileRate::lit(10)
        );
        assert_eq!(
            s.client_limit(),
            Some(ClientLimit::per_kind(ClientQps::lit(50.0), Burst::lit(100)).into())
        );
        let m = Manager::new(&s).unwrap();
        assert!(
            m.controllers().all(|(_, c)| c.workers().len() == 10),
            "R workers each"
        );
    }

    #[test]
    fn a_shared_bucket_is_passed_to_every_controller() {
        let p = Provider {
            sharing: Sharing::Bucket {
                qps: 10.0,
                burst: 100,
            },
            client: ClientChoice::Off,
            ..Provider::default()
        };
        let s = p.to_scenario().unwrap();
        assert!(s.controllers.iter().all(|c| c.shares_bucket));
        assert_eq!(s.client, None);
        // A controller that is not passed the bucket keeps its own limiter.
        let mut p = p;
        p.kinds[1].shares_bucket = false;
        let s = p.to_scenario().unwrap();
        let sharing: Vec<bool> = s.controllers.iter().map(|c| c.shares_bucket).collect();
        assert_eq!(sharing, vec![true, false, true]);
        assert_eq!(s.controllers[1].limiter, None, "the version's default");
    }

    #[test]
    fn bad_choices_are_refused_by_name() {
        let p = Provider {
            sharing: Sharing::Nothing,
            client: ClientChoice::Crossplane,
            ..Provider::default()
        };
        assert!(p
            .to_scenario()
            .unwrap_err()
            .starts_with("API client limit: "));
        let p = Provider {
            kinds: Vec::new(),
            ..Provider::default()
        };
        assert!(p.to_scenario().unwrap_err().starts_with("Controllers: "));
        let mut p = Provider::default();
        p.kinds[0].objects = 249_000;
        assert!(p
            .to_scenario()
            .unwrap_err()
            .starts_with("Objects each: 251000 keys in all is too many"));
    }

    /// What the core refuses is named by the form's label, never by the
    /// scenario file's path (`client.qps`, `shared_bucket.burst`).
    #[test]
    fn refusals_name_the_forms_labels() {
        let refused = |p: Provider| p.to_scenario().unwrap_err();
        let custom = |qps, burst| Provider {
            client: ClientChoice::Custom { qps, burst },
            ..Provider::default()
        };
        let bucket = |qps, burst| Provider {
            sharing: Sharing::Bucket { qps, burst },
            client: ClientChoice::Off,
            ..Provider::default()
        };
        let cases = [
            (refused(custom(0.0, 1)), "Client qps: "),
            (refused(custom(10.0, -1)), "Client burst: "),
            (refused(bucket(-1.0, 10)), "Bucket qps: "),
            (refused(bucket(10.0, -5)), "Bucket burst: "),
            (
                refused(Provider {
                    requests_per_reconcile: 1_000_000,
                    ..Provider::default()
                }),
                "API requests per reconcile: ",
            ),
            (
                refused(Provider {
                    reconcile_ms: -5,
                    ..Provider::default()
                }),
                "Reconcile takes (ms): ",
            ),
        ];
        for (text, label) in cases {
            assert!(
                text.starts_with(label),
                "{text:?} should start with {label:?}"
            );
            assert!(!text.contains("_ns") && !text.contains("client."), "{text}");
        }
    }
}
