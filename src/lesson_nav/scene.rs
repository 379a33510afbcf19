//! A step's scene: its set-up built as a shared link's run is, at once
//! when it is small, over the next frames when it is not.

use crate::share::Shared;
use crate::timeline::Timeline;
use workqueue_core::Scenario;

/// Estimated work (see `workqueue_lessons::cost`) up to which a step's
/// scene is built at once; a larger one is built over the next frames, as a
/// long link is, so the page keeps drawing while it comes.
const SCENE_AT_ONCE: f64 = 500_000.0;
/// The scene a step's set-up describes, built as a shared link's run is:
/// each input at its instant, then paused at its instant (the order the
/// worker used to answer the questions).
pub(super) fn scene(setup: &Shared) -> Result<(Scenario, Timeline), String> {
    let mut inputs = setup.run.inputs.clone();
    inputs.sort_by_key(|(at, _)| *at);
    let costed = workqueue_lessons::Setup {
        scenario: setup.run.scenario.clone(),
        inputs: inputs.clone(),
        run_to: setup.run.run_to,
    };
    // The set-up's inputs on the tape: those up to its instant applied, the
    // later ones left for the scene to play (a step opens at its set-up's
    // instant, never at its last input's).
    let mut t = Timeline::replayed(setup.run.scenario.clone(), inputs, setup.run.run_to)
        .map_err(|e| e.to_string())?;
    if workqueue_lessons::cost::scene(&costed) <= SCENE_AT_ONCE {
        while t.pending().is_some() {
            t.catch_up();
        }
    }
    // (A larger scene: one frame's budget now, the rest as the frames go;
    // see Tick.)
    Ok((setup.run.scenario.clone(), t))
}
