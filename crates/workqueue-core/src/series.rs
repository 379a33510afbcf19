//! The run's time series: fixed-width samples of counters and state, merged
//! pairwise past a bound so memory stays flat however long the run.

use serde::Serialize;

use crate::time::Nanos;

/// Counters per time-series sample, and the state at the sample's end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Sample {
    /// Keys re-entering the queue from AddAfter/AddRateLimited (what the seeds call requeues).
    pub requeues: u32,
    /// Accepted AddAfter calls (`workqueue_retries_total` increments).
    pub retries: u32,
    pub adds: u32,
    pub reconciles: [u32; 4],
    pub depth: u32,
    pub waiting: u32,
    pub processing: u32,
    pub tokens: f32,
}

/// Fixed-width samples; past `MAX_SAMPLES` pairs merge and the width doubles,
/// so memory stays bounded however long the run.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub width: Nanos,
    pub samples: Vec<Sample>,
    #[serde(skip)]
    pub(crate) closed_until: Nanos,
}

pub const MAX_SAMPLES: usize = 4096;

impl Series {
    pub(crate) fn new(width: Nanos) -> Self {
        Series {
            width,
            samples: vec![Sample::default()],
            closed_until: 0,
        }
    }

    pub(crate) fn current(&mut self, at: Nanos) -> &mut Sample {
        let i = (at / self.width) as usize;
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

    /// Sample `i` covers `[i·width, (i+1)·width)`.
    pub fn start_of(&self, i: usize) -> Nanos {
        (i as Nanos).saturating_mul(self.width)
    }
}
