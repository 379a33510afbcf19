//! What was read, made a scenario in the files' own schema: the client's
//! limit, a shared bucket, every controller with its queue, limiter and
//! workers, and what Go does not say assumed and said.

use super::*;

impl Reader<'_> {
    pub(super) fn scenario(mut self) -> Result<Imported, ImportError> {
        if self.controllers.is_empty() {
            return Err(ImportError::NoController);
        }
        let mut s = Scenario::new("imported");
        s.duration_ns = 10 * 60 * workqueue_core::SECOND;
        let crossplane = self.controllers.iter().find_map(|c| c.options.crossplane);
        s.crossplane = crossplane.map(CrossplaneConfig::note_2021);
        s.client = match (self.shared_client, self.qps, self.burst) {
            (Some((qps, burst)), _, _) => Some(ClientLimit {
                qps,
                burst,
                per: ClientScope::Shared,
            }),
            (None, Some((q, _, _)), _) if q < 0.0 => None,
            (None, Some((q, f, p)), burst) => {
                let b = burst.map_or(10, |(b, _, _)| b);
                self.note(true, f, p, format!("rest.Config.QPS {q}, Burst {b}"));
                let per = if self.clientset {
                    ClientScope::Clientset
                } else {
                    ClientScope::Kind
                };
                Some(ClientLimit {
                    qps: q,
                    burst: b,
                    per,
                })
            }
            (None, None, _) => {
                self.unread.push(Found { file: self.main_file(), line: 1, text: "rest.Config QPS is not set: controller-runtime's config loader turns client-side limiting off (since v0.21): no client limit".into() });
                None
            }
        };
        // A bucket held in a variable and put first in a controller's
        // max-of is the one object the controllers share.
        let shared = |l: &Option<LimiterConfig>| match l {
            Some(LimiterConfig::MaxOf { limiters }) if limiters.len() == 2 => match limiters[0] {
                LimiterConfig::Bucket { qps, burst }
                    if self.bucket_vars.contains(&(qps, burst)) =>
                {
                    Some((BucketSpec { qps, burst }, limiters[1].clone()))
                }
                _ => None,
            },
            _ => None,
        };
        s.shared_bucket = self
            .controllers
            .iter()
            .find_map(|c| shared(&c.options.limiter))
            .map(|(b, _)| b);
        s.controllers = self
            .controllers
            .iter()
            .map(|c| {
                let sharing =
                    shared(&c.options.limiter).filter(|(b, _)| Some(*b) == s.shared_bucket);
                (c, sharing)
            })
            .map(|(c, sharing)| ControllerSpec {
                name: c.name.clone(),
                queue: if c.queue_client_go
                    || c.options.priority_queue == Some(false)
                    || (self.default_client_go && c.options.priority_queue.is_none())
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
                    workers: c.options.workers.unwrap_or(1).max(1),
                    reconcile_ns: 50 * MILLISECOND,
                    give_up_after: None,
                    reconcile_timeout_ns: c.options.timeout.filter(|t| *t > Duration::ZERO),
                    reconcile_jitter_ns: None,
                },
                default_script: Script::Always {
                    outcome: Outcome::Success,
                },
                items: Vec::new(),
                sources: vec![KeySource::AddMany {
                    prefix: format!("{}-", c.kind.to_lowercase()),
                    count: OBJECTS,
                    at_ns: Duration::ZERO,
                    script: None,
                }],
                // A status update: the write nearly every reconcile makes.
                requests_per_reconcile: 1,
                kind: c.kind.clone(),
                writes: Default::default(),
                errors_write_nothing: false,
                shares_bucket: sharing.is_some(),
            })
            .collect();
        s.crossplane = self.crossplane_profile(&s);
        if !self.default_client_go
            && self
                .controllers
                .iter()
                .any(|c| !c.queue_client_go && c.options.priority_queue.is_none())
        {
            self.unread.push(Found { file: self.main_file(), line: 1, text: "UsePriorityQueue is not set: the priority queue, controller-runtime v0.23's default (a go.mod among the files says which version)".into() });
        }
        self.unread.push(Found {
            file: self.main_file(),
            line: 1,
            text: format!("not in the code, assumed: {OBJECTS} objects per controller, each reconcile takes 50ms, succeeds and writes once to its own kind (a status update); reads from the cache cost no request; set them in the scenario (the page's dialog asks for them)"),
        });
        s.validate().map_err(|e| ImportError::Unusable {
            file: self.main_file(),
            reason: match e.reason.contains("names two controllers") {
                // A folder read with a copy of itself inside.
                true => format!("{e} (were the same files read twice?)"),
                false => e.to_string(),
            },
        })?;
        Ok(Imported {
            scenario: s,
            taken: self.taken,
            unread: self.unread,
        })
    }
}

impl Reader<'_> {
    /// Which Crossplane the program is, from its go.mod and its code, said
    /// in a note at the go.mod's line: core with a global bucket is the 2021
    /// design (before v2.1), core without one is core since v2.1 (R: the
    /// largest `MaxConcurrentReconciles` read, else the flag's default of
    /// 100); a program on crossplane-runtime with the global bucket is a
    /// provider of today when every controller runs on the priority queue,
    /// and the 2021 design as it ran on client-go's queue otherwise.
    fn crossplane_profile(&mut self, s: &Scenario) -> Option<CrossplaneConfig> {
        let found = s.crossplane;
        let Some((file, line, core)) = self.crossplane_module.clone() else {
            return found;
        };
        let (config, text) = match (core, found) {
            (true, Some(cp)) => (cp, "Crossplane core with its global bucket: the 2021 design, as core ran it before v2.1 (profile note-2021)".to_string()),
            (true, None) => {
                let r = self.controllers.iter().filter_map(|c| c.options.workers).max().unwrap_or(100);
                (
                    CrossplaneConfig { max_reconcile_rate: r, profile: CrossplaneProfile::Core },
                    format!("Crossplane core without a global bucket: core since v2.1 (profile core): {r} workers per controller, no client limit, the XR circuit breaker"),
                )
            }
            (false, None) => return None,
            (false, Some(cp)) if s.controllers.iter().all(|c| c.queue == QueueKind::Priority) => (
                CrossplaneConfig { profile: CrossplaneProfile::Provider, ..cp },
                "crossplane-runtime on the priority queue: a provider of today (profile provider): the global bucket in the reconciler wrapper, 1s to 1m per object, the client at 5R/10R".to_string(),
            ),
            (false, Some(cp)) => (cp, "crossplane-runtime on client-go's queue: the 2021 design as it ran (profile note-2021)".to_string()),
        };
        self.taken.push(Found { file, line, text });
        Some(config)
    }
}
