//! What a person or a lesson does to a running controller: inputs,
//! checked against the caps before they change anything.

use super::*;
use crate::spans::Delay;

impl Controller {
    /// Applies an input at the current instant and records it for replay,
    /// starting at most `budget` work units of what the input sets off
    /// ([`Controller::budget_left`] tells what is left); the rest is done
    /// by the next `run_until_bounded`. The input passes the validation
    /// gate first; a refused input changes nothing.
    pub(crate) fn apply_bounded(
        &mut self,
        input: Input,
        budget: u64,
        buckets: &mut BucketStore,
    ) -> Result<(), SimError> {
        if let Some(reason) = &self.stalled {
            return Err(SimError::Stalled(reason.clone()));
        }
        validate::input(&input).map_err(SimError::Invalid)?;
        if self.resume.is_some() {
            // Finish the instant in progress first, so the input lands after it.
            self.run_until_bounded(self.now, u64::MAX, buckets);
        }
        self.work_left = budget;
        let now = self.now;
        match &input {
            Input::Add { key } => {
                self.ensure_key_room(key)?;
                let id = self.intern(key);
                self.queue.add(now, id, None);
                self.collect_queue_events();
            }
            Input::AddMany { prefix, count } => {
                self.ensure_room(count.get())?;
                self.ensure_source_room()?;
                self.add_source(Source::add_many(prefix, *count), now);
                self.process_instant(now, buckets);
            }
            Input::WatchEvents {
                key,
                per_second,
                duration_ns,
            } => {
                let source = Source::WatchEvents {
                    key: key.clone(),
                    per_second: *per_second,
                    start_ns: Delay::ZERO,
                    duration_ns: *duration_ns,
                };
                self.ensure_room(1)?;
                self.ensure_source_room()?;
                self.add_source(source, now);
                self.process_instant(now, buckets);
            }
            Input::Resync { period_ns } => {
                self.stop_sources(|s| matches!(s, Source::Resync { .. }));
                if let Some(p) = period_ns {
                    self.add_source(Source::Resync { period_ns: *p }, now);
                }
            }
            Input::Decide { key, outcome } => {
                let id = self.queue.keys().get(key);
                let w = id.and_then(|id| {
                    self.pool.states.iter().position(
                        |w| matches!(w, WorkerState::AwaitingDecision { item, .. } if *item == id),
                    )
                });
                let (Some(id), Some(w)) = (id, w) else {
                    return Err(SimError::NotAwaiting { key: key.clone() });
                };
                self.conclude(w, id, *outcome, true, buckets);
            }
            Input::SetScript { key, script } => {
                self.ensure_key_room(key)?;
                let id = self.intern(key);
                self.scripts.set(id, Some(script.clone()));
            }
            Input::DefaultScript { script } => {
                self.spec.default_script = script.clone();
                self.decide_waiting_by_script(buckets);
            }
            Input::Shutdown => {
                self.queue
                    .shutdown(now)
                    .map_err(|e| SimError::AlreadyShutDown(e.to_string()))?;
                self.collect_queue_events();
            }
        }
        if self.resume.is_none() && !self.dispatch(buckets) {
            self.resume = Some(Resume::Dispatch);
        }
        self.inputs.push((now, input));
        Ok(())
    }

    /// Room for `key` unless it already exists.
    pub(super) fn ensure_key_room(&self, key: &str) -> Result<(), SimError> {
        match self.find(key) {
            Some(_) => Ok(()),
            None => self.ensure_room(1),
        }
    }

    /// Room for one more source under the same cap as a file's.
    pub(super) fn ensure_source_room(&self) -> Result<(), SimError> {
        if self.live_sources >= crate::limits::MAX_SOURCES {
            return Err(SimError::Invalid(ScenarioError {
                field: "sources".into(),
                reason: format!(
                    "{} sources are running: at most {} at once",
                    self.live_sources,
                    crate::limits::MAX_SOURCES
                ),
                line: None,
            }));
        }
        Ok(())
    }

    pub(super) fn ensure_room(&self, extra: u64) -> Result<(), SimError> {
        let have = self.queue.keys().len() as u64;
        if have.saturating_add(extra) > self.key_limit {
            return Err(SimError::Invalid(ScenarioError {
                field: "count".into(),
                reason: format!(
                    "{have} keys exist; {extra} more would pass the limit of {}",
                    self.key_limit
                ),
                line: None,
            }));
        }
        Ok(())
    }
}
