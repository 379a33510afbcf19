//! What a run's controllers share, set up once when the run is built (a
//! [`crate::Manager`], or a [`crate::Simulation`] of one controller): the
//! API client's plan (which kinds each client bucket serves, and what each
//! controller's reconcile draws from them), and the shared buckets in the
//! run's [`BucketStore`]: Crossplane's global bucket, a limiter passed to
//! several controllers, the client's buckets.
//!
//! Upstream these are Go objects handed to several controllers by pointer
//! (one `*rate.Limiter`, one REST client per kind); here each is one bucket
//! in the store, and every controller that shares it holds its id.

use crate::buckets::{BucketId, BucketStore};
use crate::limiter::{Limiter, LimiterConfig};
use crate::rate::TokenBucket;
use crate::scenario::{ClientScope, ControllerSpec, Scenario};

/// The API client's buckets and who draws from them: see
/// [`ClientPlan::of`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientPlan {
    /// The kinds each bucket serves, in the order they first appear.
    pub kinds: Vec<Vec<String>>,
    /// Per controller, the buckets its reconcile draws from; the first is
    /// its own kind's.
    pub draws: Vec<Vec<Draw>>,
}

/// Requests one reconcile sends through one client bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The bucket, by its place in [`ClientPlan::kinds`].
    pub bucket: usize,
    pub requests: u32,
}

impl ClientPlan {
    /// The API client's buckets of `s` (one per kind, or one for all), the
    /// kinds each serves, and what each controller's reconcile draws from
    /// them. Empty without a client limit.
    pub fn of(s: &Scenario) -> ClientPlan {
        let mut plan = ClientPlan::default();
        let Some(limit) = s.client_limit() else {
            return plan;
        };
        for i in 0..s.controllers.len() {
            // The own kind gets its bucket even when it sends nothing, so
            // the stage can show the bucket the controller's kind uses.
            let own = (s.controller_kind(i), 0);
            let mut draws: Vec<Draw> = Vec::new();
            for (kind, n) in std::iter::once(own).chain(s.requests_by_kind(i)) {
                let at = match limit.per {
                    ClientScope::Kind | ClientScope::GroupVersion => {
                        plan.kinds.iter().position(|b| b[0] == kind)
                    }
                    ClientScope::Clientset | ClientScope::Shared => {
                        (!plan.kinds.is_empty()).then_some(0)
                    }
                };
                let at = at.unwrap_or_else(|| {
                    plan.kinds.push(Vec::new());
                    plan.kinds.len() - 1
                });
                if !plan.kinds[at].contains(&kind) {
                    plan.kinds[at].push(kind);
                }
                match draws.iter_mut().find(|d| d.bucket == at) {
                    Some(d) => d.requests = d.requests.saturating_add(n),
                    None => draws.push(Draw {
                        bucket: at,
                        requests: n,
                    }),
                }
            }
            plan.draws.push(draws);
        }
        plan
    }
}

/// The buckets a run's controllers share, each once in the run's store.
#[derive(Clone, Debug)]
pub(crate) struct Shared {
    /// Crossplane's global bucket (R/s, burst 10R), in front of every
    /// controller's reconciler.
    pub(crate) global: Option<BucketId>,
    /// The bucket declared once and passed to the controllers that share it.
    pub(crate) limiter: Option<BucketId>,
    /// The API client's buckets, by their place in the plan.
    pub(crate) client: Vec<BucketId>,
    pub(crate) plan: ClientPlan,
}

impl Shared {
    /// Puts the buckets `scenario`'s controllers share in `buckets`, and
    /// works out the client plan (once, for every controller).
    pub(crate) fn new(scenario: &Scenario, buckets: &mut BucketStore) -> Shared {
        let plan = ClientPlan::of(scenario);
        let limit = scenario.client_limit();
        let client = match limit {
            Some(c) => plan
                .kinds
                .iter()
                .map(|_| buckets.add(TokenBucket::new(c.qps, c.burst)))
                .collect(),
            None => Vec::new(),
        };
        debug_assert!(limit.is_some() || plan.kinds.is_empty());
        Shared {
            global: scenario
                .crossplane
                .as_ref()
                .filter(|cp| cp.derived().global_bucket)
                .map(|cp| buckets.add(cp.global_bucket())),
            limiter: scenario
                .shared_bucket
                .map(|b| buckets.add(TokenBucket::new(b.qps.get(), b.burst.get()))),
            client,
            plan,
        }
    }

    /// Controller `c`'s queue limiter ([`Scenario::queue_limiter`]) and the
    /// limiter built from it: a controller that shares the manager's
    /// bucket holds the shared bucket's id as its first part; its own
    /// parts' buckets are new in `buckets`.
    pub(crate) fn queue_limiter(
        &self,
        scenario: &Scenario,
        c: &ControllerSpec,
        buckets: &mut BucketStore,
    ) -> (LimiterConfig, Limiter) {
        let config = scenario.queue_limiter(c);
        let limiter = match (&config, self.limiter) {
            (LimiterConfig::MaxOf { limiters }, Some(shared)) if c.shares_bucket => {
                // The shared bucket is the first part (see
                // `Scenario::queue_limiter`): the one object, not a copy.
                debug_assert!(matches!(limiters[0], LimiterConfig::Bucket { .. }));
                let own = limiters[1..].iter().map(|l| l.build(buckets));
                Limiter::MaxOf(
                    std::iter::once(Limiter::Bucket(shared))
                        .chain(own)
                        .collect(),
                )
            }
            _ => config.build(buckets),
        };
        (config, limiter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranges::{Burst, Qps};
    use crate::scenario::BucketSpec;

    #[test]
    fn sharers_hold_one_bucket() {
        let mut s = Scenario::of(
            "two",
            vec![ControllerSpec::new("a"), ControllerSpec::new("b")],
        );
        s.shared_bucket = Some(BucketSpec {
            qps: Qps::lit(1.0),
            burst: Burst::lit(1),
        });
        for c in &mut s.controllers {
            c.shares_bucket = true;
        }
        let mut buckets = BucketStore::new();
        let shared = Shared::new(&s, &mut buckets);
        let firsts: Vec<_> = s
            .controllers
            .iter()
            .map(|c| shared.queue_limiter(&s, c, &mut buckets).1.bucket())
            .collect();
        assert_eq!(firsts, vec![shared.limiter; 2]);
        // Each controller's own limiter has a bucket of its own besides.
        assert_eq!(buckets.len(), 3);
    }
}
