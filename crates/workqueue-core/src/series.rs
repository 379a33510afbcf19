//! The run's time series: fixed-width samples of counters and state, merged
//! pairwise past a bound so memory stays flat however long the run.

use serde::Serialize;

use crate::time::{Duration, Instant};

/// Counters per time-series sample, and the state at the sample's end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Sample {
    /// Keys re-entering the queue from AddAfter/AddRateLimited (what the seeds call requeues).
    pub requeues: u32,
    /// Accepted AddAfter calls (`workqueue_retries_total` increments).
    pub retries: u32,
    pub adds: u32,
    pub reconciles: [u32; 4],
    /// Reconciles whose own Reconcile ran: all of them, except those
    /// Crossplane's global bucket turned away with a RequeueAfter. Read by
    /// the stage; left out of exports and digests, which it does not change.
    #[serde(skip)]
    pub ran: u32,
    pub depth: u32,
    pub waiting: u32,
    pub processing: u32,
    pub tokens: f32,
}

/// Fixed-width samples; past `MAX_SAMPLES` pairs merge and the width doubles,
/// so memory stays bounded however long the run.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub width: Duration,
    pub samples: Vec<Sample>,
    #[serde(skip)]
    pub(crate) closed_until: Instant,
}

pub(crate) const MAX_SAMPLES: usize = 4096;

impl Series {
    pub(crate) fn new(width: Duration) -> Self {
        Series {
            width,
            samples: vec![Sample::default()],
            closed_until: Instant::T0,
        }
    }

    pub(crate) fn current(&mut self, at: Instant) -> &mut Sample {
        let i = (at.since_t0() / self.width) as usize;
        let i = i.min(self.samples.len() - 1);
        &mut self.samples[i]
    }

    pub(crate) fn compact(&mut self) {
        let merged = self
            .samples
            .chunks(2)
            .map(|c| {
                let mut s = *c.last().unwrap_or(&c[0]);
                if c.len() == 2 {
                    s.requeues = s.requeues.saturating_add(c[0].requeues);
                    s.retries = s.retries.saturating_add(c[0].retries);
                    s.adds = s.adds.saturating_add(c[0].adds);
                    s.ran = s.ran.saturating_add(c[0].ran);
                    for k in 0..4 {
                        s.reconciles[k] = s.reconciles[k].saturating_add(c[0].reconciles[k]);
                    }
                }
                s
            })
            .collect();
        self.samples = merged;
        self.width = self.width.saturating_mul(2);
    }

    /// Reconciles that ran (see [`Sample::ran`]) per second over the whole samples that ended in the last
    /// `window` before `now` (at least one sample): `None` before one ended.
    pub fn reconciles_per_second(&self, now: Instant, window: Duration) -> Option<f64> {
        let width = self.width.max(Duration::NANOSECOND);
        let closed = ((now.since_t0() / width) as usize).min(self.samples.len());
        let take = ((window / width) as usize).clamp(1, closed.max(1));
        let recent = self.samples.get(closed.checked_sub(take)?..closed)?;
        if recent.is_empty() {
            return None;
        }
        let total: u64 = recent.iter().map(|s| u64::from(s.ran)).sum();
        Some(total as f64 * 1e9 / (recent.len() as f64 * self.width.as_nanos() as f64))
    }

    /// Sample `i` covers `[i·width, (i+1)·width)`.
    pub fn start_of(&self, i: usize) -> Instant {
        Instant::T0.saturating_add(self.width.saturating_mul(i as i64))
    }

    /// The requeues counted in the samples that start in `from..until`.
    pub fn requeues_between(&self, from: Instant, until: Instant) -> u64 {
        (0..self.samples.len())
            .filter(|&i| (from..until).contains(&self.start_of(i)))
            .map(|i| u64::from(self.samples[i].requeues))
            .sum()
    }
}

/// API requests by the sample of the instant they are sent (a request
/// waits for its client reservation: it is sent at its time to act, maybe
/// samples after it was reserved), and by kind (the index of the
/// controller's requests by kind). Kept beside the [`Series`]: its sample
/// indexes are at the series' width, halved when the series compacts, so
/// a request reserved past the last sample lands in the right one
/// whatever compactions come before it is sent. Cells are sorted by
/// (sample, kind); there is one per sample and kind that sends, so as
/// many as the series' samples, and the requests reserved ahead (which
/// the workers wait on: a few per worker) past them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Sent {
    cells: Vec<SentCell>,
}

/// Requests of one kind sent in one sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SentCell {
    pub sample: u64,
    pub kind: u32,
    pub requests: u64,
}

impl Sent {
    /// `n` requests of `kind` sent in sample `sample`.
    pub(crate) fn add(&mut self, sample: u64, kind: u32, n: u64) {
        if n == 0 {
            return;
        }
        // Nearly always at the end (now, or just ahead of it).
        let key = (sample, kind);
        let at = self
            .cells
            .iter()
            .rposition(|c| (c.sample, c.kind) <= key)
            .map_or(0, |i| i + 1);
        match at.checked_sub(1).map(|i| &mut self.cells[i]) {
            Some(c) if (c.sample, c.kind) == key => c.requests = c.requests.saturating_add(n),
            _ => self.cells.insert(
                at,
                SentCell {
                    sample,
                    kind,
                    requests: n,
                },
            ),
        }
    }

    /// The series' samples merged pairwise: sample `i` is now `i / 2`.
    pub(crate) fn compact(&mut self) {
        for c in &mut self.cells {
            c.sample /= 2;
        }
        // Halving keeps the samples in order; a sample's kinds may now
        // come twice, out of order: sorted again, and merged.
        self.cells.sort_by_key(|c| (c.sample, c.kind));
        self.cells.dedup_by(|next, kept| {
            let same = (next.sample, next.kind) == (kept.sample, kept.kind);
            if same {
                kept.requests = kept.requests.saturating_add(next.requests);
            }
            same
        });
    }

    /// Every cell, by sample then kind.
    pub(crate) fn cells(&self) -> &[SentCell] {
        &self.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{MILLISECOND, SECOND};

    #[test]
    fn the_recent_rate_counts_whole_samples_only() {
        let mut s = Series::new(100 * MILLISECOND);
        assert_eq!(
            s.reconciles_per_second(Instant::T0 + 50 * MILLISECOND, SECOND),
            None
        );
        s.samples = vec![Sample::default(); 30];
        for (i, sample) in s.samples.iter_mut().enumerate() {
            // 5 reconciles a sample for the first second, then 1.
            sample.ran = if i < 10 { 5 } else { 1 };
        }
        // At 2.05 s the last whole second is samples 10..20: 10 in 1 s.
        assert_eq!(
            s.reconciles_per_second(Instant::T0 + 2_050 * MILLISECOND, SECOND),
            Some(10.0)
        );
        // Early on, the window shrinks to what has ended: 5 per 100 ms.
        assert_eq!(
            s.reconciles_per_second(Instant::T0 + 150 * MILLISECOND, SECOND),
            Some(50.0)
        );
    }

    #[test]
    fn sent_requests_stay_sorted_and_merge_when_the_series_compacts() {
        let mut sent = Sent::default();
        sent.add(3, 1, 2);
        sent.add(2, 0, 1);
        sent.add(3, 0, 4);
        sent.add(9, 0, 1);
        sent.add(3, 1, 1);
        sent.add(5, 0, 0);
        let cells = |s: &Sent| -> Vec<(u64, u32, u64)> {
            s.cells()
                .iter()
                .map(|c| (c.sample, c.kind, c.requests))
                .collect()
        };
        assert_eq!(
            cells(&sent),
            vec![(2, 0, 1), (3, 0, 4), (3, 1, 3), (9, 0, 1)]
        );
        sent.compact();
        assert_eq!(cells(&sent), vec![(1, 0, 5), (1, 1, 3), (4, 0, 1)]);
    }
}
