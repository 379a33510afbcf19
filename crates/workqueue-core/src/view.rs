//! What the page draws, handed out by the core: one [`StageView`] snapshot
//! per frame (lanes, the waiting heap's head, workers, the bucket) and the
//! latest watch-event [`Arrival`]s. The page reads these instead of reaching
//! into the queue, the limiter or the middleware, so the picture has one
//! source and any queue (client-go's, or controller-runtime's priority
//! queue) can stand behind it.

use serde::Serialize;

use crate::buckets::BucketStore;
use crate::controller::Script;
use crate::events::WorkerState;
use crate::item::ItemId;
use crate::queue::QueueKind;
use crate::queue_calls::AddEffect;
use crate::scenario::Source;
use crate::sim::Controller;
use crate::time::{Duration, Instant, WideInstant};

mod alone;

/// What happened to a watch event, in the stage's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    /// A new copy joined the queue's tail.
    Queued,
    /// Merged into the copy already queued (deduplicated).
    Merged,
    /// The key is being reconciled: marked dirty, it re-enters at Done.
    MarkedDirty,
    /// The queue is shutting down, or Crossplane core's circuit breaker
    /// is open for the key: dropped.
    Dropped,
}

impl From<AddEffect> for Landing {
    fn from(e: AddEffect) -> Landing {
        match e {
            AddEffect::Queued => Landing::Queued,
            AddEffect::Deduplicated => Landing::Merged,
            AddEffect::MarkedDirty => Landing::MarkedDirty,
            AddEffect::Ignored | AddEffect::CircuitOpen => Landing::Dropped,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArrivalView {
    pub seq: u64,
    pub at: Instant,
    pub key: String,
    pub landing: Landing,
}

/// One key as a chip on the stage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyView {
    pub key: String,
    /// Re-added while a worker holds it: it re-enters the queue at Done.
    pub dirty: bool,
    /// Crossplane: already paid for its next pass through the global bucket.
    pub paid: bool,
    /// Events merged into this one copy since a worker last took it.
    pub absorbed: u64,
    /// `NumRequeues`: failures counted by the limiter.
    pub failures: u64,
    /// The priority its record carries, or the one it was handed out with
    /// (`None` on a client-go queue, which has no priorities).
    pub priority: Option<i64>,
    /// Priority queue: a ready record whose key is being reconciled; the
    /// hand-out skips it until `Done`.
    pub skipped: bool,
}

/// A key in the waiting heap with its countdown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WaitingView {
    pub key: KeyView,
    pub ready_at: WideInstant,
    /// When this wait began: the countdown's full length is `ready_at - from`.
    pub from: Instant,
    /// The wait comes from a token bucket (not the key's own backoff).
    pub on_bucket: bool,
}

impl WaitingView {
    /// Time left at `now` (never negative).
    pub fn left(&self, now: Instant) -> Duration {
        let left = self.ready_at - now.wide();
        Duration::from_nanos(left.clamp(0, Duration::MAX.as_nanos() as i128) as i64)
    }

    /// The part of the wait still to run, from 1 (just parked) to 0 (due).
    pub fn fraction_left(&self, now: Instant) -> f64 {
        let total = self.ready_at - self.from.wide();
        if total <= 0 {
            return 0.0;
        }
        (self.left(now).as_nanos() as f64 / total as f64).clamp(0.0, 1.0)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum WorkerView {
    Idle,
    Reconciling {
        key: KeyView,
        started: Instant,
        until: Instant,
        /// The reconcile ends when its `ReconciliationTimeout` fires.
        times_out: bool,
    },
    /// Reconcile returned; the user picks its result.
    Deciding {
        key: KeyView,
        started: Instant,
    },
}

/// Whose bucket gates this controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BucketOwner {
    /// The queue's rate limiter (client-go's default, or a bucket preset).
    Controller,
    /// Crossplane's global bucket, in the middleware before the reconciler.
    Crossplane,
    /// A manager's bucket, passed to several controllers.
    Shared,
    /// The API client's rate limiter.
    Client,
}

/// How many XRs the stage shows of the breaker: the open ones first, then
/// those nearest to opening.
pub(crate) const BREAKER_TARGETS: usize = 3;

/// Crossplane core's XR circuit breaker as the stage draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BreakerView {
    pub burst: f64,
    pub refill_per_second: f64,
    pub cooldown: Duration,
    /// XRs with a state (each has seen a watch event).
    pub tracked: usize,
    /// Rows the stage keeps for XRs however many have come yet: as many as
    /// the run can have, up to [`BREAKER_TARGETS`].
    pub rows: usize,
    /// Up to [`BREAKER_TARGETS`]: open first (longest open first), then
    /// fewest tokens.
    pub targets: Vec<BreakerTargetView>,
    pub open: usize,
    pub allowed: u64,
    pub probes: u64,
    pub dropped: u64,
    pub opens: u64,
    pub closes: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BreakerTargetView {
    pub key: String,
    /// Tokens its next event would find.
    pub tokens: f64,
    /// When open: from when an event would close it (opened + cooldown).
    pub closes_from: Option<Instant>,
    /// Its reconciles so far.
    pub reconciles: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BucketView {
    pub owner: BucketOwner,
    /// Level at `now`: below zero it is debt (reservations into the future).
    pub tokens: f64,
    pub burst: i64,
    pub qps: f64,
    /// Keys in the waiting heap whose wait the bucket decided.
    pub waiting_on_bucket: usize,
}

impl BucketView {
    pub fn debt(&self) -> f64 {
        (-self.tokens).max(0.0)
    }

    /// How far the refill is toward the next whole token, from 0 to 1:
    /// `None` when the bucket is full or never refills.
    pub fn refill_progress(&self) -> Option<f64> {
        (self.qps > 0.0 && self.tokens < self.burst as f64)
            .then(|| self.tokens - self.tokens.floor())
    }

    /// How long until a whole token is free (a failure then would not wait):
    /// `None` when one is free now or the bucket never refills.
    pub fn next_token_in(&self) -> Option<Duration> {
        if self.tokens >= 1.0 || self.qps <= 0.0 {
            return None;
        }
        let ns = ((1.0 - self.tokens) / self.qps * 1e9).ceil();
        Some(if ns >= Duration::MAX.as_nanos() as f64 {
            Duration::MAX
        } else {
            Duration::from_nanos(ns as i64)
        })
    }
}

/// Where a key is, in the queue's own terms (a key may be in two places:
/// being reconciled, and queued again).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "place", rename_all = "snake_case")]
pub enum Place {
    /// Handed out and not yet `Done` (priority queue: with this priority).
    Reconciling { priority: Option<i64> },
    /// client-go: dirty (queued) while not being processed.
    Queued,
    /// client-go: re-added while being processed; queued again at `Done`.
    DirtyInFlight,
    /// Priority queue: a ready record; `skipped` while its key is in flight.
    Ready { priority: i64, skipped: bool },
    /// In the waiting heap (or the priority queue's waiting tree).
    Waiting {
        ready_at: WideInstant,
        priority: Option<i64>,
    },
    /// Dropped by a terminal error or "give up after N".
    Dropped,
    /// Nowhere: nothing to do for it.
    Idle,
}

/// "Why is this key here?": everything the inspector shows about one key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyReport {
    pub key: String,
    pub places: Vec<Place>,
    pub num_requeues: u64,
    pub reconciles: u64,
    pub errors: u64,
    pub script: crate::controller::Script,
    /// Rate-limited requeues so far; the latest of them, and every
    /// limiter's answer to it, while the run still holds its details (see
    /// [`crate::DETAILED_KEYS`]).
    pub retries: u64,
    pub last_retry: Option<crate::records::Retry>,
    pub answer: Option<crate::limiter::Answer>,
    /// What its latest result did, as Go calls (the log, from its
    /// `ReconcileEnd` to its `Done`).
    pub calls: Vec<String>,
    /// The latest requeues, newest first.
    pub history: Vec<crate::records::Retry>,
    /// Why it waits, across levels.
    pub holding: Vec<Holder>,
}

/// What holds a key back, across the levels of a manager.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "holder", rename_all = "snake_case")]
pub enum Holder {
    /// Its own per-item backoff (or a RequeueAfter it asked for).
    OwnBackoff,
    /// A token bucket in its queue's limiter (shared or not).
    Bucket,
    /// Crossplane's global bucket: the middleware answered RequeueAfter and
    /// the next pass is paid for.
    GlobalBucket,
    /// Its latest reconcile waited this long for the API client's bucket
    /// that serves `kinds` (one kind, or every kind when they share one).
    Client {
        waited: Duration,
        kinds: Vec<String>,
    },
}

/// Calls shown for one result: a result causes at most Forget, the add
/// (with the limiter's answer) and Done.
const CALLS_SHOWN: usize = 6;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum SourceView {
    Watch {
        key: String,
        per_second: f64,
        next: Instant,
    },
    Resync {
        period: Duration,
        next: Instant,
    },
    AddMany {
        prefix: String,
        count: u64,
    },
}

/// A lane of the stage: the first of what it holds, as many as are drawn,
/// and how many it holds in all.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaneView<T> {
    pub first: Vec<T>,
    pub total: usize,
}

impl<T> LaneView<T> {
    /// How many the lane holds beyond those drawn.
    pub fn rest(&self) -> usize {
        self.total.saturating_sub(self.first.len())
    }
}

/// Everything the stage draws at one instant. Lanes hold at most the
/// number of chips asked for; the totals say how many more there are.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageView {
    pub now: Instant,
    pub queue: QueueKind,
    pub sources: Vec<SourceView>,
    pub watch_events_total: u64,
    /// The latest watch events, oldest first.
    pub arrivals: Vec<ArrivalView>,
    /// The FIFO, head first.
    pub queued: LaneView<KeyView>,
    /// Keys re-added while being reconciled (dirty, not in the FIFO).
    pub dirty_in_flight: usize,
    pub workers: LaneView<WorkerView>,
    pub busy: usize,
    /// The waiting heap, soonest first.
    pub waiting: LaneView<WaitingView>,
    pub bucket: Option<BucketView>,
    /// Crossplane core's XR circuit breaker, where the run has it.
    pub breaker: Option<BreakerView>,
    /// Reconciles wait for a person's choice (the default script is live):
    /// a stage that must not move keeps room for the choice's buttons.
    pub asks: bool,
    /// Keys the run has met so far (a lane that must not move keeps room
    /// for as many chips as could come to it).
    pub keys: usize,
}

impl Controller {
    /// One key as the stage shows it.
    pub fn key_view(&self, id: ItemId) -> KeyView {
        let q = self.queue();
        let info = self.item(id);
        let priority_queue = q.kind() == QueueKind::Priority;
        let priority = priority_queue.then(|| q.last_priority(id));
        KeyView {
            key: self.key(id).to_string(),
            dirty: q.is_dirty(id) && q.is_processing(id),
            paid: self.middleware().is_some_and(|m| m.is_limited(id)),
            absorbed: info.absorbed,
            failures: q.num_requeues(id),
            priority,
            skipped: false,
        }
    }

    /// A key as drawn in its worker's hands: the priority it was handed out
    /// with (its new record, if any, is drawn in the ready lane).
    fn worker_key_view(&self, w: usize, id: ItemId) -> KeyView {
        let mut k = self.key_view(id);
        if k.priority.is_some() {
            k.priority = Some(self.worker_priority(w));
        }
        k
    }

    /// The stage at this instant, with at most `chips` keys per lane and
    /// `workers` workers drawn; its buckets read in the run's `buckets`.
    pub fn stage_view(&self, buckets: &BucketStore, chips: usize, workers: usize) -> StageView {
        self.stage_view_keeping(buckets, chips, workers, None)
    }

    /// [`Self::stage_view`], with `kept` always among the waiting chips
    /// while it waits (in place of the last of the soonest): the key a
    /// lesson's step follows never hides behind "+N more".
    pub fn stage_view_keeping(
        &self,
        buckets: &BucketStore,
        chips: usize,
        workers: usize,
        kept: Option<&str>,
    ) -> StageView {
        let now = self.now();
        let q = self.queue();
        let mut soonest = q.waiting_soonest(chips);
        let kept = kept
            .and_then(|k| self.find(k))
            .and_then(|id| Some((id, q.waiting_until(id)?)));
        if let Some((id, at)) =
            kept.filter(|(id, _)| chips > 0 && !soonest.iter().any(|(x, _)| x == id))
        {
            soonest.pop();
            soonest.push((id, at));
        }
        let waiting = soonest
            .into_iter()
            .map(|(id, ready_at)| WaitingView {
                key: self.key_view(id),
                ready_at,
                from: self.item(id).wait_from,
                on_bucket: self.waits_on_bucket(id),
            })
            .collect();
        let worker_view = |(w, state): (usize, &WorkerState)| match *state {
            WorkerState::Idle => WorkerView::Idle,
            WorkerState::Reconciling {
                item,
                started,
                until,
                times_out,
            } => WorkerView::Reconciling {
                key: self.worker_key_view(w, item),
                started,
                until,
                times_out,
            },
            WorkerState::AwaitingDecision { item, started } => WorkerView::Deciding {
                key: self.worker_key_view(w, item),
                started,
            },
        };
        let dirty_in_flight = self
            .workers()
            .iter()
            .filter(|w| match w {
                WorkerState::Reconciling { item, .. }
                | WorkerState::AwaitingDecision { item, .. } => q.is_dirty(*item),
                WorkerState::Idle => false,
            })
            .count();
        StageView {
            now,
            queue: q.kind(),
            sources: self.source_views(),
            watch_events_total: self.watch_events_total(),
            arrivals: self
                .arrivals()
                .map(|a| ArrivalView {
                    seq: a.seq,
                    at: a.at,
                    key: self.key(a.item).to_string(),
                    landing: a.effect.into(),
                })
                .collect(),
            queued: LaneView {
                first: q
                    .queued()
                    .take(chips)
                    .map(|id| KeyView {
                        skipped: q.kind() == QueueKind::Priority && q.is_processing(id),
                        ..self.key_view(id)
                    })
                    .collect(),
                total: q.len(),
            },
            dirty_in_flight,
            workers: LaneView {
                first: self
                    .workers()
                    .iter()
                    .enumerate()
                    .take(workers)
                    .map(worker_view)
                    .collect(),
                total: self.workers().len(),
            },
            busy: self.controller_metrics().active_workers as usize,
            waiting: LaneView {
                first: waiting,
                total: q.waiting_len(),
            },
            bucket: self.bucket_view(buckets),
            breaker: self.breaker_view(BREAKER_TARGETS),
            asks: matches!(self.spec().default_script, Script::Live),
            keys: q.keys().len(),
        }
    }

    /// The delay `key`'s next failure would get (the queue limiter's `When`,
    /// asked without touching the run), or `None` for a key not yet seen.
    pub fn next_delay(&self, buckets: &BucketStore, key: &str) -> Option<Duration> {
        let id = self.find(key)?;
        Some(self.queue().limiter().peek(id, self.now(), buckets))
    }

    /// "Why is this key here?" for `id`. Finds the calls of its last result
    /// by their log position: no scan of the log.
    pub fn key_report(&self, id: ItemId) -> KeyReport {
        let q = self.queue();
        let info = self.item(id);
        let priority_queue = q.kind() == QueueKind::Priority;
        let mut places = Vec::new();
        if q.is_processing(id) {
            places.push(Place::Reconciling {
                priority: priority_queue.then(|| self.handed_priority(id)),
            });
        }
        match (priority_queue, q.priority_of(id), q.waiting_until(id)) {
            (true, Some(priority), None) => places.push(Place::Ready {
                priority,
                skipped: q.is_processing(id),
            }),
            (true, priority, Some(ready_at)) => places.push(Place::Waiting { ready_at, priority }),
            _ => {
                if q.is_dirty(id) {
                    places.push(if q.is_processing(id) {
                        Place::DirtyInFlight
                    } else {
                        Place::Queued
                    });
                }
                if let Some(ready_at) = q.waiting_until(id) {
                    places.push(Place::Waiting {
                        ready_at,
                        priority: None,
                    });
                }
            }
        }
        if places.is_empty() {
            places.push(if info.gave_up {
                Place::Dropped
            } else {
                Place::Idle
            });
        }
        let detail = self.details(id);
        let log = self.log();
        let calls = match (info.last_end_seq, log.front()) {
            (Some(end), Some(first)) if end.get() >= first.seq => {
                let end = end.get();
                // Its own entries, from its ReconcileEnd to its Done.
                let mut calls = Vec::new();
                for e in log.iter().skip((end - first.seq) as usize) {
                    if e.event.item() != Some(id) {
                        continue;
                    }
                    calls.push(self.describe(e));
                    let done = matches!(&e.event, crate::events::SimEvent::Queue(crate::QueueEvent::Done { item, .. }) if *item == id);
                    if done || calls.len() == CALLS_SHOWN {
                        break;
                    }
                }
                calls
            }
            _ => Vec::new(),
        };
        KeyReport {
            key: self.key(id).to_string(),
            places,
            num_requeues: q.num_requeues(id),
            reconciles: info.reconciles,
            errors: info.errors,
            script: self.script_of(id).clone(),
            retries: info.retries_total,
            last_retry: detail.and_then(|d| d.retries.back().copied()),
            answer: detail.and_then(|d| d.answer.clone()),
            calls,
            history: detail.map_or(Vec::new(), |d| d.retries.iter().rev().copied().collect()),
            holding: self.holders(id),
        }
    }

    fn holders(&self, id: ItemId) -> Vec<Holder> {
        let info = self.item(id);
        let mut out = Vec::new();
        if self.queue().waiting_until(id).is_some() {
            if self.middleware().is_some_and(|m| m.is_limited(id)) {
                out.push(Holder::GlobalBucket);
            } else if info.bucket_bound {
                out.push(Holder::Bucket);
            } else {
                out.push(Holder::OwnBackoff);
            }
        }
        let waited = self.last_client_wait(id);
        if waited > Duration::ZERO {
            out.push(Holder::Client {
                waited,
                kinds: self.client_kinds(id).to_vec(),
            });
        }
        out
    }

    fn waits_on_bucket(&self, id: ItemId) -> bool {
        self.item(id).bucket_bound || self.middleware().is_some_and(|m| m.is_limited(id))
    }

    /// The XR circuit breaker at `now`, with at most `shown` of its XRs.
    pub fn breaker_view(&self, shown: usize) -> Option<BreakerView> {
        let b = self.breaker()?;
        let now = self.now();
        let config = b.config();
        let mut targets: Vec<_> = b.targets_at(now).collect();
        let open = targets
            .iter()
            .filter(|(_, t)| t.opened_at.is_some())
            .count();
        // Open first, longest open first; then fewest tokens; then by key.
        // (A run may track thousands of XRs: the few shown are picked out
        // before they are sorted.)
        let by = |(ka, a): &(&ItemId, crate::circuit::TargetAt),
                  (kb, b): &(&ItemId, crate::circuit::TargetAt)| {
            let order = |t: &crate::circuit::TargetAt| (t.opened_at.is_none(), t.opened_at);
            order(a)
                .cmp(&order(b))
                .then(a.tokens.total_cmp(&b.tokens))
                .then(self.key(**ka).cmp(self.key(**kb)))
        };
        if targets.len() > shown && shown > 0 {
            targets.select_nth_unstable_by(shown - 1, by);
            targets.truncate(shown);
        }
        targets.sort_by(by);
        let m = b.metrics();
        Some(BreakerView {
            burst: config.burst,
            refill_per_second: config.refill_per_second,
            cooldown: config.cooldown,
            tracked: b.tracked(),
            rows: crate::validate::controller_keys(self.spec())
                .map_or(shown, |n| n.min(shown as u64) as usize)
                .max(1),
            targets: targets
                .into_iter()
                .take(shown)
                .map(|(k, t)| BreakerTargetView {
                    key: self.key(*k).to_string(),
                    tokens: t.tokens,
                    closes_from: t.opened_at.map(|at| at + config.cooldown),
                    reconciles: self.item(*k).reconciles,
                })
                .collect(),
            open,
            allowed: m.allowed,
            probes: m.half_open_allowed,
            dropped: m.dropped,
            opens: m.opens,
            closes: m.closes,
        })
    }

    /// The bucket that gates this controller, if any: Crossplane's global
    /// one, or the queue limiter's.
    pub fn bucket_view(&self, buckets: &BucketStore) -> Option<BucketView> {
        let now = self.now();
        let owner = match self.middleware() {
            Some(_) => BucketOwner::Crossplane,
            None => BucketOwner::Controller,
        };
        let bucket = buckets.get(self.gate_bucket()?);
        let waiting_on_bucket = self
            .queue()
            .waiting_ids()
            .filter(|id| self.waits_on_bucket(*id))
            .count();
        Some(BucketView {
            owner,
            tokens: bucket.tokens_at(now),
            burst: bucket.burst(),
            qps: bucket.limit(),
            waiting_on_bucket,
        })
    }

    fn source_views(&self) -> Vec<SourceView> {
        self.sources()
            .filter_map(|(s, next)| {
                let next = next?;
                Some(match s {
                    Source::WatchEvents {
                        key, per_second, ..
                    } => SourceView::Watch {
                        key: key.clone(),
                        per_second: per_second.get(),
                        next,
                    },
                    Source::Resync { period_ns } => SourceView::Resync {
                        period: period_ns.get(),
                        next,
                    },
                    Source::AddMany { prefix, count, .. } => SourceView::AddMany {
                        prefix: prefix.clone(),
                        count: count.get(),
                    },
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
