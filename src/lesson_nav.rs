//! Moving through a lesson: where it is, what was predicted and answered at
//! each step, and the one rule for leaving a step.

use workqueue_core::Input;

use crate::lessons;
use crate::state::{Notice, Playground};
use crate::timeline::Timeline;

/// Where a lesson is, and what was predicted and answered at each step.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonState {
    pub index: usize,
    pub step: usize,
    /// Per step, the prediction made there (kept when going back and forth).
    pub guesses: Vec<Option<String>>,
    /// Per step, the core's answer: computed once, from the step's own
    /// set-up, when the step is first entered; never recomputed.
    pub answers: Vec<Option<String>>,
}

impl LessonState {
    pub fn new(index: usize, step: usize, steps: usize) -> LessonState {
        LessonState {
            index,
            step,
            guesses: vec![None; steps],
            answers: vec![None; steps],
        }
    }

    /// The prediction made at the current step, if any.
    pub fn guess(&self) -> Option<&String> {
        self.guesses.get(self.step).and_then(Option::as_ref)
    }

    /// The core's answer to the current step's prediction.
    pub fn answer(&self) -> Option<&String> {
        self.answers.get(self.step).and_then(Option::as_ref)
    }

    /// Records the prediction at the current step (the first one stays).
    pub fn reveal(&mut self, guess: String) {
        if let Some(g) = self.guesses.get_mut(self.step) {
            g.get_or_insert(guess);
        }
    }
}

impl Playground {
    /// Moves a lesson to `step`, rebuilding the run from the nearest step at
    /// or before it that sets one up, so "back" is exact.
    pub fn enter_step(&mut self, index: usize, step: usize) {
        let all = lessons::all();
        let Some(lesson) = all.get(index) else { return };
        self.idle = false; // a lesson's scene is never a first visit
        let step = step.min(lesson.steps.len().saturating_sub(1));
        let here = self.lesson.as_ref().is_some_and(|l| l.index == index);
        let from = (0..=step).rev().find(|i| lesson.steps[*i].setup.is_some());
        let rebuild = match from {
            Some(i) => {
                !here
                    || i == step
                    || self
                        .lesson
                        .as_ref()
                        .is_some_and(|l| l.step > step || l.step < i)
            }
            None => false,
        };
        if let (true, Some(i)) = (rebuild, from) {
            let setup = lesson.steps[i].setup.as_ref().expect("found above");
            if let Some(timeline) = scene(setup) {
                self.settings = setup.settings.clone();
                self.timeline = std::rc::Rc::new(std::cell::RefCell::new(timeline));
                self.selected = setup.inputs.iter().rev().find_map(|i| match i {
                    Input::Add { key } => Some(key.clone()),
                    _ => None,
                });
            }
        }
        self.playing = false;
        let mut ls = match self.lesson.take() {
            Some(mut l) if l.index == index => {
                l.step = step;
                l
            }
            _ => LessonState::new(index, step, lesson.steps.len()),
        };
        if ls.answers[step].is_none() {
            ls.answers[step] = lesson.answer(step);
        }
        self.lesson = Some(ls);
    }

    /// Whether the lesson may move on from its current step (the keyboard
    /// shortcuts ask this; the lesson panel asks [`Playground::step_done`]
    /// with the step it already has).
    pub fn can_advance(&self) -> bool {
        let Some(l) = &self.lesson else { return false };
        let all = lessons::all();
        all.get(l.index)
            .and_then(|x| x.steps.get(l.step))
            .is_some_and(|step| self.step_done(step))
    }

    /// The one rule for leaving a lesson step, for the Next buttons and the
    /// keys alike: what the step waits for has happened, and its prediction
    /// was made.
    pub fn step_done(&self, step: &lessons::Step) -> bool {
        let waited = step
            .wait
            .as_ref()
            .is_none_or(|w| w.met(self.timeline.borrow().sim()));
        let predicted =
            step.predict.is_none() || self.lesson.as_ref().is_some_and(|l| l.guess().is_some());
        waited && predicted
    }

    /// The next step, or the next lesson's first; refused with a notice
    /// while the step still waits.
    pub fn lesson_next(&mut self) {
        let Some(l) = self.lesson.clone() else { return };
        if !self.can_advance() {
            self.notice = Notice::info(
                "Not yet: this step is waiting for something, or for your prediction.",
            );
            return;
        }
        let count = lessons::all().get(l.index).map_or(0, |x| x.steps.len());
        if l.step + 1 < count {
            self.enter_step(l.index, l.step + 1);
        } else if l.index + 1 < lessons::all().len() {
            self.enter_step(l.index + 1, 0);
        }
    }

    /// The previous step.
    pub fn lesson_back(&mut self) {
        if let Some(l) = self.lesson.clone().filter(|l| l.step > 0) {
            self.enter_step(l.index, l.step - 1);
        }
    }
}

/// The scene a step's set-up describes, built as the page builds any run:
/// inputs at t=0, later inputs at their instants, then paused at `run_to`.
/// Lesson scenes are small, so each call reaches its instant.
fn scene(setup: &lessons::Setup) -> Option<Timeline> {
    let mut t = Timeline::new(setup.settings.to_scenario().ok()?).ok()?;
    for input in &setup.inputs {
        t.record(input.clone()).ok()?;
    }
    for (at, input) in &setup.later {
        while !t.advance_to(*at) {}
        t.record(input.clone()).ok()?;
    }
    while !t.advance_to(setup.run_to) {}
    Some(t)
}
