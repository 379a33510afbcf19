//! The stage of a controller that runs alone, read with its own buckets.

use super::{BucketView, StageView};
use crate::sim::alone::Simulation;
use crate::time::Duration;

impl Simulation {
    /// The bucket that gates this controller, as the stage shows it.
    pub fn bucket_view(&self) -> Option<BucketView> {
        self.controller().bucket_view(self.buckets())
    }

    /// The stage at this instant (see [`crate::Controller::stage_view`]).
    pub fn stage_view(&self, chips: usize, workers: usize) -> StageView {
        self.controller().stage_view(self.buckets(), chips, workers)
    }

    /// The stage, keeping `kept` in sight (see
    /// [`crate::Controller::stage_view_keeping`]).
    pub fn stage_view_keeping(
        &self,
        chips: usize,
        workers: usize,
        kept: Option<&str>,
    ) -> StageView {
        self.controller()
            .stage_view_keeping(self.buckets(), chips, workers, kept)
    }

    /// The delay `key`'s next failure would get (see
    /// [`crate::Controller::next_delay`]).
    pub fn next_delay(&self, key: &str) -> Option<Duration> {
        self.controller().next_delay(self.buckets(), key)
    }
}
