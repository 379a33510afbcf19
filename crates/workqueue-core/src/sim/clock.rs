//! Time: the one place a run moves. The next instant comes from the timer
//! table ([`crate::timer`]: the waiting heap, the reconciles' ends, the
//! sources, the adds, an instant that carries on); each instant is processed in a fixed order, so a run never
//! depends on how time was sliced.

use super::*;
use crate::timer::{Deadline, Timer, TimerTable};

impl Controller {
    pub(super) fn add_source(&mut self, source: Source, now: Instant) {
        let (next, interval, end) = match &source {
            Source::WatchEvents {
                per_second,
                start_ns,
                duration_ns,
                ..
            } => {
                // `as` saturates: a validated rate gives at most 1000s.
                let interval = Duration::from_nanos(
                    (SECOND.as_nanos() as f64 / per_second.get()).round() as i64,
                )
                .max(Duration::NANOSECOND);
                let start = after(now, start_ns.get());
                (Some(start), interval, after(start, duration_ns.get()))
            }
            Source::AddMany { at_ns, .. } => {
                (Some(after(now, at_ns.get())), Duration::ZERO, Instant::MAX)
            }
            Source::Resync { period_ns } => (
                Some(after(now, period_ns.get())),
                period_ns.get(),
                Instant::MAX,
            ),
        };
        let slot = self.sources.len() as u32;
        if let Some(at) = next {
            self.timers.source_at(at, slot);
            self.live_sources += 1;
        }
        self.sources.push(SourceState {
            source,
            key_id: None,
            next,
            interval,
            end,
            cursor: 0,
        });
    }

    // ----- driving -----

    /// The next deadline, from the one timer table: when, and what it is
    /// for. None when nothing is scheduled, or the run is stuck (a stuck
    /// run promises nothing more).
    pub fn next_deadline(&self) -> Option<Deadline> {
        self.timer_table()?.next(self.now)
    }

    /// The instant of the next event, if any (the next deadline's, read
    /// without its kind).
    pub fn next_event_at(&self) -> Option<Instant> {
        self.timer_table()?.next_at(self.now)
    }

    /// The one timer table as it stands; None for a stuck run (it promises
    /// nothing more). An instant that ran out of budget carries on at once.
    fn timer_table(&self) -> Option<TimerTable> {
        if self.stalled.is_some() {
            return None;
        }
        let resume = self.resume.map(|_| self.now);
        Some(self.timers.table(self.queue.next_ready_at(), resume))
    }

    /// Whether the next event comes from event sources alone (watch events,
    /// a resync, an add-many): nothing is released from the heap and no
    /// reconcile ends then. Pacing plays such stretches at the chosen speed.
    pub fn next_is_sources_only(&self) -> bool {
        // The table gives a tie to every other kind before the sources.
        self.next_deadline()
            .is_some_and(|d| d.timer == Timer::Source)
    }

    /// Handles everything due at the next event's instant. Returns that
    /// instant, or `None` when nothing is scheduled (or the run is stuck).
    pub(crate) fn step(&mut self, buckets: &mut BucketStore) -> Option<Instant> {
        self.step_bounded(u64::MAX, buckets)
    }

    /// Like [`Controller::step`], spending at most `budget` work units: a
    /// pass that runs out is finished by the next call, at the same instant.
    pub(crate) fn step_bounded(
        &mut self,
        budget: u64,
        buckets: &mut BucketStore,
    ) -> Option<Instant> {
        let t = self.next_event_at()?;
        self.work_left = budget;
        self.process_instant(t, buckets);
        Some(t)
    }

    /// Handles every event due up to and including `t`, then sets the clock to `t`.
    pub(crate) fn run_until(&mut self, t: Instant, buckets: &mut BucketStore) {
        while !self.run_until_bounded(t, u64::MAX, buckets) && self.stalled.is_none() {}
    }

    /// Like [`Controller::run_until`], but spends at most `budget` work units
    /// (an instant, a key added, an item handed to a worker: each one unit),
    /// so a caller with a frame to render is never stuck behind a storm. Every
    /// loop inside the call draws on the same budget. Returns whether `t` was
    /// reached; if not, a later call carries on exactly where this one stopped.
    pub(crate) fn run_until_bounded(
        &mut self,
        t: Instant,
        budget: u64,
        buckets: &mut BucketStore,
    ) -> bool {
        self.work_left = budget;
        loop {
            if self.stalled.is_some() {
                // A stuck run stays at the instant it got stuck at.
                return false;
            }
            match self.next_event_at() {
                Some(next) if next <= t => {
                    if self.work_left == 0 {
                        return false;
                    }
                    self.process_instant(next, buckets);
                }
                _ => {
                    if t > self.now {
                        self.set_time(t, buckets);
                    }
                    return true;
                }
            }
        }
    }

    /// Work units the last bounded call left unspent.
    pub fn budget_left(&self) -> u64 {
        self.work_left
    }

    /// Takes one work unit; false when the call's budget is spent.
    pub(super) fn spend(&mut self) -> bool {
        if self.work_left == 0 {
            return false;
        }
        self.work_left -= 1;
        true
    }

    /// The event sources with the instant each fires next (`None`: done).
    pub fn sources(&self) -> impl Iterator<Item = (&Source, Option<Instant>)> {
        self.sources
            .iter()
            .filter(|s| s.next.is_some())
            .map(|s| (&s.source, s.next))
    }

    /// Runs until the scenario's duration (or until nothing more can happen).
    pub(crate) fn run_to_end(&mut self, buckets: &mut BucketStore) {
        self.run_until(Instant::T0 + self.duration_ns, buckets);
    }

    pub(super) fn set_time(&mut self, t: Instant, buckets: &BucketStore) {
        // The driver's one clock never runs backwards.
        debug_assert!(t >= self.now, "time went back from {:?} to {t:?}", self.now);
        // Close every sample that ended by `t` with the state as it stands (the
        // state is constant between events).
        loop {
            let end = after(self.series.closed_until, self.series.width);
            // `end == closed_until` only at the saturated end of time.
            if end > t || end == self.series.closed_until {
                break;
            }
            let tokens = self.bucket_tokens_at(buckets, end).unwrap_or(0.0) as f32;
            let (depth, waiting, processing) = (
                self.queue.len() as u32,
                self.queue.waiting_len() as u32,
                self.queue.processing_count() as u32,
            );
            let last = self.series.current(end - NANOSECOND);
            last.depth = depth;
            last.waiting = waiting;
            last.processing = processing;
            last.tokens = tokens;
            self.series.closed_until = end;
            if self.series.samples.len() >= MAX_SAMPLES {
                self.series.compact();
                self.sent.compact();
            }
            self.series.samples.push(Sample {
                depth,
                waiting,
                processing,
                tokens,
                ..Default::default()
            });
        }
        self.now = t;
    }

    #[inline(always)]
    pub(super) fn process_instant(&mut self, t: Instant, buckets: &mut BucketStore) {
        let resume = self.resume.take();
        // A fresh instant costs a unit; a resumed one was paid for, so all
        // of a small budget goes to the work left (it always moves on).
        if resume.is_none() {
            self.spend();
            if !self.begin_instant(t, buckets) {
                return;
            }
        }
        if matches!(resume, None | Some(Resume::Settle)) && !self.settle_instant(t, buckets) {
            self.resume = Some(Resume::Settle);
            return;
        }
        if resume != Some(Resume::Dispatch) && !self.fire_due_sources(t) {
            self.resume = Some(Resume::Sources);
            return;
        }
        if !self.dispatch(buckets) {
            self.resume = Some(Resume::Dispatch);
        }
    }

    /// The first part of an instant: the stall guard and the clock. False if
    /// the run is stuck.
    pub(super) fn begin_instant(&mut self, t: Instant, buckets: &BucketStore) -> bool {
        let keys = self.queue.keys().len() as u64;
        if self.stall_guard.pass(t, keys) {
            let reason = format!(
                "{} passes at {} in which no key moved on: a zero-delay retry loop with instant reconciles",
                crate::time::format_count(self.stall_guard.idle_passes - 1),
                format_go_duration(t.since_t0())
            );
            self.push_log(SimEvent::Stalled {
                reason: reason.clone(),
            });
            self.stalled = Some(reason);
            return false;
        }
        self.set_time(t, buckets);
        true
    }

    /// The waiting heap's releases, finished reconciles and scheduled adds,
    /// a unit per key released or added (a storm of a quarter of a million
    /// keys due at one instant is released over several frames, not in one).
    /// False if the budget ran out: the next call carries on, and since each
    /// part resumes from its own cursor (the heap, the reconcile ends, the
    /// list of adds), in the same order.
    pub(super) fn settle_instant(&mut self, t: Instant, buckets: &mut BucketStore) -> bool {
        // One bounded call: it stops early only once nothing due is left
        // (a release never makes another key due).
        let max = usize::try_from(self.work_left).unwrap_or(usize::MAX);
        let released = self.queue.advance_bounded(t, max);
        self.work_left -= released as u64;
        self.collect_queue_events();
        if self.queue.next_ready_at().is_some_and(|at| at <= t) {
            return false;
        }
        // Reconciles that end now, in worker order: `t` is the next event,
        // so every due end is at `t` and the heap yields them by worker.
        while let Some(w) = self.timers.ended_by(t) {
            self.finish(w as usize, buckets);
        }
        while let Some(id) = self.timers.add_due_by(t) {
            if !self.spend() {
                return false;
            }
            self.timers.add_made();
            if self.admitted(t, id, false) {
                self.queue.add(t, id, initial_list_priority(t));
                self.collect_queue_events();
            }
        }
        true
    }

    /// Fires every source due by `t`, in the order they started. Only the
    /// due ones are visited (taken from the timer table); each event or key
    /// a source makes is one work unit. False if the budget ran out: the
    /// source in progress keeps its cursor, and it and those after it go
    /// back in the table.
    pub(super) fn fire_due_sources(&mut self, t: Instant) -> bool {
        let mut due = std::mem::take(&mut self.due_sources);
        due.clear();
        while let Some((at, slot)) = self.timers.source_due_by(t) {
            // A stopped source's entry is stale: dropped here, not searched
            // for when it stops.
            if self.sources[slot as usize].next == Some(at) {
                due.push(slot);
            }
        }
        // The next event is `t` itself, so every due source is due at `t`:
        // the table hands them out by slot, the order they started in.
        debug_assert!(due.windows(2).all(|w| w[0] < w[1]));
        let mut complete = true;
        'due: for &slot in &due {
            let s = slot as usize;
            while self.sources[s].next.is_some_and(|n| n <= t) {
                if !self.fire_source(s) {
                    complete = false;
                    break 'due;
                }
            }
        }
        for &slot in &due {
            match self.sources[slot as usize].next {
                Some(at) => self.timers.source_at(at, slot),
                None => self.live_sources -= 1,
            }
        }
        self.due_sources = due;
        self.drop_stale_timers();
        complete
    }

    /// Stops every source that `stop` picks (a resync replaced or turned off).
    pub(super) fn stop_sources(&mut self, stop: impl Fn(&Source) -> bool) {
        for state in &mut self.sources {
            if state.next.is_some() && stop(&state.source) {
                state.next = None;
                self.live_sources -= 1;
            }
        }
        self.drop_stale_timers();
    }

    /// Drops stopped sources' entries from the top of the timer table, so
    /// the next firing it shows is a real one (deeper stale entries are
    /// dropped when they surface: after each pop).
    pub(super) fn drop_stale_timers(&mut self) {
        let sources = &self.sources;
        self.timers
            .drop_stale_sources(|at, slot| sources[slot as usize].next != Some(at));
    }

    /// Fires source `s` once. False if the budget ran out part-way through
    /// an add-many or a resync (it resumes from its cursor).
    pub(super) fn fire_source(&mut self, s: usize) -> bool {
        // A watch event is one unit; add-many and resync pay per key below.
        if matches!(self.sources[s].source, Source::WatchEvents { .. }) && !self.spend() {
            return false;
        }
        let now = self.now;
        let state = &mut self.sources[s];
        match &state.source {
            Source::WatchEvents { key, .. } => {
                let next = after(state.next.unwrap_or(now), state.interval);
                state.next = (next < state.end).then_some(next);
                // Interned on first use (not when added) so key ids keep their order.
                let id = match state.key_id {
                    Some(id) => id,
                    None => {
                        let id = self.queue.key(key);
                        self.sources[s].key_id = Some(id);
                        id
                    }
                };
                self.totals.watch_events += 1;
                // A watch event is an Update of the object.
                let effect = match self.admitted(now, id, true) {
                    true => self.queue.add(now, id, None),
                    false => AddEffect::CircuitOpen,
                };
                if self.arrivals.len() == crate::events::ARRIVALS_KEPT {
                    self.arrivals.pop_front();
                }
                self.arrivals.push_back(crate::events::Arrival {
                    seq: self.totals.watch_events,
                    at: now,
                    item: id,
                    effect,
                });
            }
            Source::AddMany {
                prefix,
                count,
                script,
                ..
            } => {
                let (prefix, count, script) = (prefix.clone(), count.get(), script.clone());
                let room = self
                    .key_limit
                    .saturating_sub(self.queue.keys().len() as u64);
                let end = count.min(self.sources[s].cursor.saturating_add(room));
                while let Some(i) = self.next_key(s, end) {
                    let id = self.intern(&format!("{prefix}{i}"));
                    if script.is_some() {
                        self.scripts.set(id, script.clone());
                    }
                    // Keys added at once are Creates.
                    if self.admitted(now, id, false) {
                        self.queue.add(now, id, initial_list_priority(now));
                    }
                }
                if self.sources[s].cursor < end {
                    self.collect_queue_events();
                    return false;
                }
                self.sources[s].next = None;
            }
            Source::Resync { .. } => {
                let keys = self.queue.keys().len() as u64;
                while let Some(i) = self.next_key(s, keys) {
                    // A resync is an update with an unchanged resourceVersion.
                    let id = ItemId(i as u32);
                    if self.admitted(now, id, true) {
                        self.queue.add(now, id, Some(LOW_PRIORITY));
                    }
                }
                if self.sources[s].cursor < keys {
                    self.collect_queue_events();
                    return false;
                }
                let state = &mut self.sources[s];
                state.cursor = 0;
                // At the saturated end of time there is no later instant:
                // the resync is over (it would otherwise fire for ever).
                state.next = state
                    .next
                    .map(|n| (n, after(n, state.interval)))
                    .and_then(|(n, later)| (later > n).then_some(later));
            }
        }
        self.collect_queue_events();
        true
    }

    /// The next key index of an add-many or a resync, `s`, below `end`,
    /// paid for with one unit of the budget (its cursor moves past it).
    /// `None` at `end`, or when the budget ran out first: the cursor is then
    /// short of `end`, and the source resumes there.
    fn next_key(&mut self, s: usize, end: u64) -> Option<u64> {
        if self.sources[s].cursor >= end || !self.spend() {
            return None;
        }
        let i = self.sources[s].cursor;
        self.sources[s].cursor += 1;
        Some(i)
    }

    /// Whether a watch event for `id` reaches the queue: always, except in
    /// Crossplane core, whose XR circuit breaker decides (the XR's own
    /// watch). An Update runs the map function twice, on the old object and
    /// on the new, and is enqueued if either call keeps it; a Create once.
    /// Requeues and a direct `queue.Add` never pass through it.
    pub(super) fn admitted(&mut self, now: Instant, id: ItemId, update: bool) -> bool {
        let Some(breaker) = self.breaker.as_mut() else {
            return true;
        };
        let (enqueues, transitions) = if update {
            let u = breaker.admit_update(now, Watch::Own, id, (), false, false);
            (u.enqueues(), [u.old.transition, u.new.transition])
        } else {
            let a = breaker.admit(now, Watch::Own, id, (), false);
            (a.verdict.enqueues(), [a.transition, Transition::Unchanged])
        };
        for transition in transitions {
            if transition != Transition::Unchanged {
                self.push_log(SimEvent::Circuit {
                    item: id,
                    transition,
                });
            }
        }
        enqueues
    }
}
