//! Reading a run: what the stage, the metrics, the summary and the
//! digest see. Nothing here changes the run.

use super::*;

impl Controller {
    pub fn now(&self) -> Instant {
        self.now
    }

    /// This controller's part of the scenario.
    pub fn spec(&self) -> &ControllerSpec {
        &self.spec
    }

    /// Lowers the most keys this run may hold (never above the core's
    /// [`MAX_ITEMS`]): the page keeps what it can draw and rewind.
    pub fn set_key_limit(&mut self, limit: u64) {
        self.key_limit = limit.min(MAX_ITEMS);
    }

    /// Time keys spent in the waiting heap, by cause: `[backoff, bucket,
    /// requeue_after]`.
    pub fn heap_waited(&self) -> [Duration; 3] {
        self.totals.heap_waited
    }

    /// The most keys the queue held at once.
    pub fn deepest_queue(&self) -> usize {
        self.totals.deepest_queue
    }

    /// API requests sent through the client, and the time they waited in all.
    pub fn client_totals(&self) -> (u64, Duration) {
        let failed = self
            .failure_by_kind
            .iter()
            .fold(0u64, |n, (_, r)| n.saturating_add(*r as u64));
        let sent = self
            .totals
            .api_calls
            .saturating_mul(self.requests_per_call as u64)
            .saturating_add(self.totals.failed_api_calls.saturating_mul(failed));
        (sent, self.totals.client_waited)
    }

    /// The API requests one reconcile sends, by kind, own kind first.
    pub(crate) fn requests_per_reconcile(&self) -> &[(String, u32)] {
        &self.requests_by_kind
    }

    /// API requests by the sample they are sent in, and kind (the index of
    /// [`Self::requests_per_reconcile`]).
    pub(crate) fn sent(&self) -> &crate::series::Sent {
        &self.sent
    }

    /// API requests sent so far, by kind, own kind first.
    pub fn requests_by_kind(&self) -> Vec<(String, u64)> {
        self.requests_by_kind
            .iter()
            .zip(&self.failure_by_kind)
            .map(|((k, n), (_, f))| {
                let sent = self.totals.api_calls.saturating_mul(*n as u64);
                let failed = self.totals.failed_api_calls.saturating_mul(*f as u64);
                (k.clone(), sent.saturating_add(failed))
            })
            .collect()
    }

    /// The kinds whose requests share the client bucket `id`'s latest
    /// reconcile waited longest on (else this controller's own kind's).
    pub fn client_kinds(&self, id: ItemId) -> &[String] {
        let d = self.last_client_wait.get(id).1;
        self.client
            .get(d)
            .or(self.client.first())
            .map_or(&[], |c| c.kinds.as_slice())
    }

    /// The API client's buckets this controller's reconcile draws from, in
    /// the run's store, its own kind's first.
    pub fn client_buckets(&self) -> impl Iterator<Item = BucketId> + '_ {
        self.client.iter().map(|c| c.bucket)
    }

    /// Calls of the user's `Reconcile` (with Crossplane, only those the
    /// global bucket let through).
    pub fn inner_reconciles(&self) -> u64 {
        self.totals.inner_reconciles
    }

    /// When the last key converged: the last success, if nothing is left
    /// to do (no key queued, waiting or in flight).
    pub fn converged_at(&self) -> Option<Instant> {
        let idle = self.queue.is_empty()
            && self.queue.waiting_len() == 0
            && self.queue.processing_count() == 0;
        idle.then_some(self.totals.last_success_at).flatten()
    }

    /// The priority `id` was last handed out with (0 on a client-go queue).
    pub fn handed_priority(&self, id: ItemId) -> i64 {
        let in_flight = self.pool.states.iter().position(|s| s.item() == Some(id));
        match in_flight {
            Some(w) => self.worker_priority(w),
            None => self.queue.last_priority(id),
        }
    }

    /// The priority worker `w`'s key was handed out with.
    pub fn worker_priority(&self, w: usize) -> i64 {
        self.pool.priority[w]
    }

    pub fn queue(&self) -> &ControllerQueue {
        &self.queue
    }

    pub fn workers(&self) -> &[WorkerState] {
        &self.pool.states
    }

    /// How long `id`'s latest reconcile waited for the API client.
    pub fn last_client_wait(&self, id: ItemId) -> Duration {
        self.last_client_wait.get(id).0
    }

    pub fn item(&self, id: ItemId) -> &ItemInfo {
        self.items.get(id)
    }

    /// The key's retry history and latest answer, if still held (see
    /// [`crate::DETAILED_KEYS`]).
    pub fn details(&self, id: ItemId) -> Option<&KeyDetail> {
        self.details.get(id)
    }

    pub fn key(&self, id: ItemId) -> &str {
        self.queue.key_name(id)
    }

    pub fn find(&self, key: &str) -> Option<ItemId> {
        self.queue.keys().get(key)
    }

    pub fn script_of(&self, id: ItemId) -> &Script {
        self.scripts
            .get(id)
            .as_ref()
            .unwrap_or(&self.spec.default_script)
    }

    pub fn controller_metrics(&self) -> &ControllerMetrics {
        &self.metrics
    }

    pub fn middleware(&self) -> Option<&Middleware> {
        self.middleware.as_ref()
    }

    /// Crossplane core's XR circuit breaker, when the profile has one: its
    /// metrics, and each XR's state (`state(&key_id)`).
    pub fn breaker(&self) -> Option<&CircuitBreaker<ItemId, ()>> {
        self.breaker.as_ref()
    }

    /// The effective limiter (Crossplane's per-object one when that preset is on).
    pub fn limiter_config(&self) -> &LimiterConfig {
        self.queue.limiter_config()
    }

    /// The bucket that gates this controller (the queue limiter's first,
    /// or Crossplane's global one), in the run's store.
    pub fn gate_bucket(&self) -> Option<BucketId> {
        match &self.middleware {
            Some(mw) => Some(mw.global),
            None => self.queue.limiter().bucket(),
        }
    }

    /// Tokens in the bucket that gates this controller at `t` (see
    /// [`Controller::gate_bucket`]), read in the run's `buckets`.
    pub fn bucket_tokens_at(&self, buckets: &BucketStore, t: Instant) -> Option<f64> {
        self.gate_bucket().map(|b| buckets.tokens_at(b, t))
    }

    pub fn log(&self) -> &VecDeque<LogEntry> {
        &self.log
    }

    pub fn log_total(&self) -> u64 {
        self.log_total
    }

    /// How many log entries to keep (0 keeps none; counting goes on).
    pub fn set_log_capacity(&mut self, capacity: usize) {
        self.log_capacity = capacity;
        while self.log.len() > capacity {
            self.log.pop_front();
        }
    }

    pub fn series(&self) -> &Series {
        &self.series
    }

    pub fn requeues_total(&self) -> u64 {
        self.totals.requeues
    }

    /// Watch events delivered by all sources so far.
    pub fn watch_events_total(&self) -> u64 {
        self.totals.watch_events
    }

    /// The latest watch events, oldest first (at most `ARRIVALS_KEPT`).
    pub fn arrivals(&self) -> impl DoubleEndedIterator<Item = &crate::events::Arrival> + '_ {
        self.arrivals.iter()
    }

    pub fn inputs(&self) -> &[(Instant, Input)] {
        &self.inputs
    }

    pub fn stalled(&self) -> Option<&str> {
        self.stalled.as_deref()
    }

    pub fn metrics_snapshot(&self) -> MetricsSnapshot {
        let m = self.queue.metrics();
        let m = m.as_ref();
        let (unfinished, longest) = self.queue.work_gauges(self.now);
        MetricsSnapshot {
            at: self.now,
            workqueue_depth: m.map_or(0, |m| m.depth),
            workqueue_depth_by_priority: m.map_or(Vec::new(), |m| m.depth_by_priority.clone()),
            workqueue_adds_total: m.map_or(0, |m| m.adds_total),
            workqueue_retries_total: m.map_or(0, |m| m.retries_total),
            workqueue_queue_duration_seconds_count: m.map_or(0, |m| m.queue_duration.count),
            workqueue_queue_duration_seconds_sum: m.map_or(0.0, |m| m.queue_duration.sum),
            workqueue_work_duration_seconds_count: m.map_or(0, |m| m.work_duration.count),
            workqueue_work_duration_seconds_sum: m.map_or(0.0, |m| m.work_duration.sum),
            workqueue_unfinished_work_seconds: unfinished,
            workqueue_longest_running_processor_seconds: longest,
            controller: self.metrics.clone(),
            requeues_total: self.totals.requeues,
            len: self.queue.len(),
            waiting: self.queue.waiting_len(),
        }
    }

    /// A fingerprint of the whole observable run: every metric, the time
    /// series and the retained log, hashed with FNV-1a. Equal digests on two
    /// platforms mean the same run.
    pub fn digest(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= *b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(serde_json::to_string(&self.metrics_snapshot())
            .unwrap_or_default()
            .as_bytes());
        eat(serde_json::to_string(&self.series)
            .unwrap_or_default()
            .as_bytes());
        eat(&self.log_total.to_le_bytes());
        // The data, not the words the page says it in: the keys once (an
        // event names its key by id), then each event as it is recorded.
        for (_, key) in self.queue.keys().iter() {
            eat(key.as_bytes());
            eat(&[0]);
        }
        for e in &self.log {
            eat(serde_json::to_string(e).unwrap_or_default().as_bytes());
        }
        h
    }
}
