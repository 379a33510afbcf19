//! A key's way through a worker: handed out, reconciled (the API
//! client's limit included), and its result handled as controller-runtime's
//! `reconcileHandler` does, then the queue's events recorded.

use super::*;
use crate::spans::{Period, SignedDelay};

impl Controller {
    pub(super) fn intern(&mut self, key: &str) -> ItemId {
        self.queue.key(key)
    }

    /// Idle workers take items, in worker order. A worker whose request the
    /// Crossplane middleware deferred is idle again at once and takes the next.
    /// False if the budget ran out (a later pass picks up where this stopped:
    /// the workers before are busy, so the order is the same).
    pub(super) fn dispatch(&mut self, buckets: &mut BucketStore) -> bool {
        self.queue.advance(self.now);
        // The lowest idle worker takes the next item (a worker the
        // middleware turned back is idle again at once, and goes again).
        while let Some(&Reverse(w)) = self.pool.idle.peek() {
            let w = w as usize;
            if !self.queue.can_hand_out() {
                return true;
            }
            if !self.spend() {
                return false;
            }
            let item = match self.queue.get(self.now) {
                Handed::Item(item, priority) => {
                    self.pool.priority[w] = priority;
                    item
                }
                Handed::Empty | Handed::ShutDown => return true,
            };
            self.collect_queue_events();
            self.pool.active += 1;
            self.metrics.active_workers = self.pool.active;
            self.push_log(SimEvent::ReconcileStart {
                worker: w as u32,
                item,
            });
            if let Some(mw) = &mut self.middleware {
                let gate = mw.gate(item, self.now, buckets);
                self.push_log(SimEvent::Gate {
                    worker: w as u32,
                    item,
                    gate,
                });
                if let Gate::Defer { delay } = gate {
                    // The inner reconciler is not called: an instant RequeueAfter.
                    self.pool.idle.pop(); // w, the lowest idle worker
                    self.pool.states[w] = WorkerState::AwaitingDecision {
                        item,
                        started: self.now,
                    };
                    self.conclude(
                        w,
                        item,
                        Outcome::RequeueAfter {
                            after_ns: SignedDelay::of_the_model(delay),
                        },
                        false,
                        buckets,
                    );
                    continue;
                }
            }
            let base = self
                .reconcile_ns
                .get(item)
                .unwrap_or(self.spec.controller.reconcile_ns.get());
            let duration = match self.spec.controller.reconcile_jitter_ns {
                Some(j) if j > Duration::ZERO => base.saturating_add(Duration::from_nanos(
                    (self.rng.next_u64() % (j.as_nanos() as u64 + 1)) as i64,
                )),
                _ => base,
            };
            // Where errors write nothing, the script decides now, for the
            // instant the reconcile's own work ends: a failure sends nothing.
            self.pool.decided[w] = None;
            if self.spec.errors_write_nothing || self.spec.failure_writes.is_some() {
                let attempt = self.items.get(item).reconciles;
                let script = script_of(&self.scripts, &self.spec, item);
                self.pool.decided[w] =
                    script.outcome(attempt, after(self.now, duration), &mut self.rng);
            }
            let fails = self.pool.decided[w]
                .is_some_and(|o| o.result().error != crate::controller::ErrorKind::None);
            let waited = match (fails, self.spec.errors_write_nothing) {
                (true, true) => Duration::ZERO,
                (fails, _) => self.call_api(w, item, fails, buckets),
            };
            let busy = waited.saturating_add(duration);
            // The context's deadline ends a reconcile that would run past it.
            let deadline = self
                .spec
                .controller
                .reconcile_timeout_ns
                .map(Period::get)
                .filter(|t| busy > *t);
            let times_out = deadline.is_some();
            let until = after(self.now, deadline.unwrap_or(busy));
            self.pool.idle.pop(); // w, the lowest idle worker
            self.timers.reconcile_ends(until, w as u32);
            self.pool.states[w] = WorkerState::Reconciling {
                item,
                started: self.now,
                until,
                times_out,
            };
        }
        true
    }

    /// A reconcile's time is up: its script decides, or the caller must.
    pub(super) fn finish(&mut self, w: usize, buckets: &mut BucketStore) {
        let WorkerState::Reconciling {
            item,
            started,
            times_out,
            ..
        } = self.pool.states[w]
        else {
            return;
        };
        // A reconcile ends at the instant the timer table said, never before.
        debug_assert!(
            matches!(self.pool.states[w], WorkerState::Reconciling { until, .. } if until <= self.now)
        );
        debug_assert!(started <= self.now);
        if times_out {
            // A reconciler that honours its context returns ctx.Err(): an
            // error, whatever its script would have said.
            self.metrics.reconcile_timeouts_total += 1;
            self.push_log(SimEvent::TimedOut {
                worker: w as u32,
                item,
                after: self.now - started,
            });
            self.pool.states[w] = WorkerState::AwaitingDecision { item, started };
            self.conclude(w, item, Outcome::Error, true, buckets);
            return;
        }
        // The attempt's number: the reconciles that ran before it.
        let attempt = self.items.get(item).reconciles;
        let script = script_of(&self.scripts, &self.spec, item);
        let decided = self.pool.decided[w]
            .take()
            .or_else(|| script.outcome(attempt, self.now, &mut self.rng));
        match decided {
            Some(outcome) => {
                self.pool.states[w] = WorkerState::AwaitingDecision { item, started };
                self.conclude(w, item, outcome, true, buckets);
            }
            None => {
                self.pool.states[w] = WorkerState::AwaitingDecision { item, started };
                self.push_log(SimEvent::AwaitingDecision {
                    worker: w as u32,
                    item,
                });
            }
        }
    }

    /// Reconciles held for a person's decision whose key now follows a script
    /// that decides (the default script changed): the script decides them.
    pub(super) fn decide_waiting_by_script(&mut self, buckets: &mut BucketStore) {
        for w in 0..self.pool.states.len() {
            let WorkerState::AwaitingDecision { item, .. } = self.pool.states[w] else {
                continue;
            };
            if self.scripts.get(item).is_some() {
                continue;
            }
            let attempt = self.items.get(item).reconciles;
            if let Some(outcome) =
                self.spec
                    .default_script
                    .outcome(attempt, self.now, &mut self.rng)
            {
                self.conclude(w, item, outcome, true, buckets);
            }
        }
    }

    /// The reconcile's API requests through the client's rate limiter, with
    /// x/time/rate's `Wait`: each waits for its reservation, one after the
    /// other, while the worker is held. Returns the whole wait.
    pub(super) fn call_api(
        &mut self,
        w: usize,
        item: ItemId,
        failing: bool,
        buckets: &mut BucketStore,
    ) -> Duration {
        let requests = if failing {
            self.totals.failed_api_calls += 1;
            self.failure_by_kind
                .iter()
                .fold(0u32, |n, (_, r)| n.saturating_add(*r))
        } else {
            self.totals.api_calls += 1;
            self.requests_per_call
        };
        let now = self.now;
        let by_kind = match failing {
            true => &self.failure_by_kind,
            false => &self.requests_by_kind,
        };
        let width = self.series.width.max(Duration::NANOSECOND);
        let sample_of = |at: Instant| (at.since_t0().max(Duration::ZERO) / width) as u64;
        // Each bucket's requests are reserved at one instant, in order: the
        // last reservation's delay is when that bucket's last request goes
        // out. Requests to different buckets wait side by side (a request
        // reserved later would find the other bucket refilled by as much),
        // so the reconcile waits for the slowest bucket. Each request is
        // sent at its reservation's time to act (x/time/rate's `Wait`):
        // counted in that sample, for its kind (a bucket's kinds in the
        // order the reconcile sends them).
        let (mut waited, mut slowest) = (Duration::ZERO, 0);
        for (d, draw) in self.client.iter().enumerate() {
            let n = if failing {
                draw.failure_requests
            } else {
                draw.requests
            };
            let mut kinds = by_kind
                .iter()
                .enumerate()
                .filter(|(_, (k, _))| draw.kinds.contains(k))
                .flat_map(|(i, (_, r))| std::iter::repeat_n(i, *r as usize));
            let mut delay = Duration::ZERO;
            let mut run: Option<(u64, u32, u64)> = None;
            for _ in 0..n {
                let this = buckets.reserve_delay(draw.bucket, now);
                delay = delay.max(this);
                let kind = kinds.next().unwrap_or(0);
                let key = (sample_of(now.saturating_add(this)), kind as u32);
                run = match run {
                    Some((s, k, c)) if (s, k) == key => Some((s, k, c + 1)),
                    Some((s, k, c)) => {
                        self.sent.add(s, k, c);
                        Some((key.0, key.1, 1))
                    }
                    None => Some((key.0, key.1, 1)),
                };
            }
            if let Some((s, k, c)) = run {
                self.sent.add(s, k, c);
            }
            if delay > waited {
                (waited, slowest) = (delay, d);
            }
        }
        // Requests of a kind no bucket limits go out at once.
        let at = sample_of(now);
        for (i, (kind, r)) in by_kind.iter().enumerate() {
            if !self.client.iter().any(|d| d.kinds.contains(kind)) {
                self.sent.add(at, i as u32, u64::from(*r));
            }
        }
        // Each reservation is work: a thousand requests per reconcile cost
        // a thousand units of the caller's budget, not one.
        self.work_left = self.work_left.saturating_sub(requests as u64);
        // Written only once a key has waited: without an API client limit
        // (or before its bucket runs dry) the map stays empty.
        if waited > Duration::ZERO || self.last_client_wait.get(item).0 > Duration::ZERO {
            self.last_client_wait.set(item, (waited, slowest));
        }
        if waited > Duration::ZERO {
            self.totals.client_waited = self.totals.client_waited.saturating_add(waited);
            self.push_log(SimEvent::ClientThrottled {
                worker: w as u32,
                item,
                requests,
                waited,
            });
        }
        waited
    }

    /// controller-runtime's `reconcileHandler` after `Reconcile` returned, then `Done`.
    pub(super) fn conclude(
        &mut self,
        w: usize,
        item: ItemId,
        outcome: Outcome,
        inner_ran: bool,
        buckets: &mut BucketStore,
    ) {
        let now = self.now;
        let decision = decide(outcome.result());
        let mut requeue = decision.requeue;
        if decision.label == ResultLabel::Error && requeue == Requeue::RateLimited {
            if let Some(limit) = self.spec.controller.give_up_after {
                let n = self.queue.num_requeues(item);
                if n >= limit {
                    requeue = Requeue::None;
                    self.queue.forget(item);
                    self.metrics.gave_up_total += 1;
                    self.items.get_mut(item).gave_up = true;
                    self.push_log(SimEvent::GaveUp { item, requeues: n });
                }
            }
        }
        {
            let info = self.items.get_mut(item);
            info.reconciles += inner_ran as u64;
            if decision.label == ResultLabel::Error {
                info.errors += 1;
                info.converge.failed();
            }
            if decision.terminal {
                info.gave_up = true;
            }
        }
        self.metrics.count(&decision);
        self.totals.inner_reconciles += inner_ran as u64;
        let ran = &mut self.series.current(now).ran;
        *ran = ran.saturating_add(inner_ran as u32);
        if inner_ran && decision.label == ResultLabel::Success {
            self.totals.last_success_at = Some(now);
            self.items.get_mut(item).converge.succeeded(now);
        }
        self.push_log(SimEvent::ReconcileEnd {
            worker: w as u32,
            item,
            outcome,
            decision,
        });
        if decision.forget {
            self.queue.forget(item);
        }
        // Every re-add carries Result.Priority, else the priority the key
        // was handed out with.
        let priority = Some(outcome.result().priority.unwrap_or(self.pool.priority[w]));
        // Whether the key leaves this instant: done, or back later.
        let mut moved_on = true;
        match requeue {
            Requeue::None => {}
            Requeue::RateLimited => {
                let failures_before = self.queue.num_requeues(item);
                // None: a shut-down priority queue ignores the add
                // before asking the limiter.
                if let Some((answer, delay)) =
                    self.queue.add_rate_limited(now, item, priority, buckets)
                {
                    moved_on = delay > Duration::ZERO;
                    let info = self.items.get_mut(item);
                    info.gave_up = false;
                    info.bucket_bound = delay == answer.delay && answer.decided_by_bucket();
                    info.waits_after = false;
                    info.retries_total += 1;
                    let retry = Retry {
                        at: now,
                        failures_before,
                        delay,
                    };
                    self.details.record(item, retry, answer);
                }
            }
            Requeue::After { delay } => {
                moved_on = delay > Duration::ZERO;
                let info = self.items.get_mut(item);
                // Crossplane's global bucket defers a key with a RequeueAfter
                // before the reconciler runs: that wait is the bucket's.
                info.bucket_bound = !inner_ran;
                info.waits_after = inner_ran;
                self.queue.add_after(now, item, delay, priority);
            }
        }
        self.stall_guard.moved_on += moved_on as u64;
        self.queue.done(now, item);
        self.collect_queue_events();
        self.pool.states[w] = WorkerState::Idle;
        self.pool.idle.push(Reverse(w as u32));
        self.pool.active -= 1;
        self.metrics.active_workers = self.pool.active;
        // The busy workers are those not idle, and the idle heap names each
        // idle worker once.
        debug_assert_eq!(
            self.pool.active as usize + self.pool.idle.len(),
            self.pool.states.len(),
            "every worker is busy or idle, once"
        );
    }

    pub(super) fn collect_queue_events(&mut self) {
        let mut events = std::mem::take(&mut self.event_buf);
        self.queue.swap_events(&mut events);
        // The priority queue's waiting loop moves records itself (no `Add`
        // follows a release): a release is an add there.
        let priority_queue = self.queue.kind() == QueueKind::Priority;
        for (at, e) in events.drain(..) {
            if let Some(item) = e.item() {
                let info = self.items.get_mut(item);
                info.converge.first_added.get_or_insert(at);
                // A wait in the heap ends: released, or cut short by an add.
                let ended = matches!(&e, QueueEvent::Released { .. })
                    || matches!(&e, QueueEvent::AddWithOpts(c) if matches!(c.placed, Placed::DelayCancelled { .. }));
                if ended {
                    let cause = if info.waits_after {
                        2
                    } else {
                        info.bucket_bound as usize
                    };
                    let waited = at.saturating_sub(info.wait_from);
                    self.totals.heap_waited[cause] =
                        self.totals.heap_waited[cause].saturating_add(waited);
                }
            }
            match &e {
                QueueEvent::Add {
                    item,
                    effect: AddEffect::Deduplicated,
                } => self.items.get_mut(*item).absorbed += 1,
                QueueEvent::AddWithOpts(call) if call.placed == Placed::StayedReady => {
                    self.items.get_mut(call.item).absorbed += 1
                }
                QueueEvent::Get { item } | QueueEvent::GetWithPriority { item, .. } => {
                    self.items.get_mut(*item).absorbed = 0
                }
                QueueEvent::AddAfter {
                    item,
                    effect: AfterEffect::Waiting { .. } | AfterEffect::MovedEarlier { .. },
                    ..
                } => self.items.get_mut(*item).wait_from = at,
                QueueEvent::AddWithOpts(call)
                    if matches!(
                        call.placed,
                        Placed::NewWaiting { .. } | Placed::MovedEarlier { .. }
                    ) =>
                {
                    self.items.get_mut(call.item).wait_from = at
                }
                _ => {}
            }
            let sample = self.series.current(at);
            let (requeue, retry, add) = match &e {
                QueueEvent::Released { .. } => (true, false, priority_queue),
                QueueEvent::AddAfter { effect, .. } => (
                    *effect == AfterEffect::Immediate,
                    *effect != AfterEffect::Ignored,
                    false,
                ),
                QueueEvent::Add { effect, .. } => (
                    false,
                    false,
                    matches!(effect, AddEffect::Queued | AddEffect::MarkedDirty),
                ),
                QueueEvent::AddWithOpts(call) => {
                    let became_ready = matches!(
                        call.placed,
                        Placed::NewReady | Placed::DelayCancelled { .. }
                    );
                    let delayed = call.opts.rate_limited || call.opts.after != Duration::ZERO;
                    (
                        delayed && call.effective <= Duration::ZERO && became_ready,
                        call.effective > Duration::ZERO,
                        became_ready,
                    )
                }
                _ => (false, false, false),
            };
            if requeue {
                sample.requeues = sample.requeues.saturating_add(1);
                self.totals.requeues += 1;
            }
            if retry {
                sample.retries = sample.retries.saturating_add(1);
            }
            if add {
                sample.adds = sample.adds.saturating_add(1);
            }
            if self.log_capacity > 0 {
                self.push_log(SimEvent::Queue(e));
            } else {
                self.log_total += 1;
            }
        }
        self.totals.deepest_queue = self.totals.deepest_queue.max(self.queue.len());
        self.event_buf = events;
    }

    pub(super) fn push_log(&mut self, event: SimEvent) {
        if let SimEvent::ReconcileEnd { decision, item, .. } = &event {
            let i = decision.label.index();
            let n = &mut self.series.current(self.now).reconciles[i];
            *n = n.saturating_add(1);
            // A reconcile cut by its timeout: its story starts at the firing.
            let timed_out = self.log.back().is_some_and(|e| {
                e.seq + 1 == self.log_total
                    && matches!(&e.event, SimEvent::TimedOut { item: i, .. } if i == item)
            });
            let seq = self.log_total - timed_out as u64;
            self.items.get_mut(*item).last_end_seq = std::num::NonZeroU64::new(seq);
        }
        if self.log_capacity == 0 {
            self.log_total += 1;
            return;
        }
        if self.log.len() == self.log_capacity {
            self.log.pop_front();
        }
        self.log.push_back(LogEntry {
            seq: self.log_total,
            at: self.now,
            event,
        });
        self.log_total += 1;
    }

    // ----- inputs -----
}

/// The script `item`'s reconciles follow: its own, else the controller's.
/// (Fields, not `&self`: the caller draws from the generator meanwhile.)
fn script_of<'a>(
    scripts: &'a ItemMap<Option<Script>>,
    spec: &'a ControllerSpec,
    item: ItemId,
) -> &'a Script {
    scripts.get(item).as_ref().unwrap_or(&spec.default_script)
}
