//! Moving through a lesson: where it is, what was predicted and answered at
//! each step, and the one rule for leaving a step.

use workqueue_core::Span;
use workqueue_core::WorkerState;
use workqueue_core::{Input, Instant, Outcome, ResultLabel};
use workqueue_lessons::Wait;

use crate::lesson_state::{LessonState, Press, PressFrom, MIN_DWELL_MS};
use crate::lessons;
use crate::notice::Notice;
use crate::settings::Settings;
use crate::state::Playground;
use scene::scene;

use crate::lesson_state::{ReadLesson, StepShown, TallyShown};

impl Playground {
    /// The current step's focus, where the stage gives way to it: in
    /// workshop mode and in embeds.
    pub(crate) fn focus(&self) -> Option<workqueue_lessons::Focus> {
        if !(self.workshop.mode.workshop || self.workshop.mode.embed) {
            return None;
        }
        let l = self.lessons.current.as_ref()?;
        self.lessons
            .library
            .get(l.index)?
            .steps
            .get(l.step)
            .map(|s| s.focus.clone())
    }

    /// Moves a lesson to `step`, rebuilding the run from the nearest step at
    /// or before it that sets one up, so "back" is exact.
    pub(crate) fn enter_step(&mut self, index: usize, step: usize) {
        let Some(lesson) = self.lessons.library.get(index) else {
            return;
        };
        self.run.playback.idle = false; // a lesson's scene is never a first visit
        let step = step.min(lesson.steps.len().saturating_sub(1));
        // However the step is reached (the clicker, Back, a link, a reload,
        // the presenter), it opens at its set-up's instant: the nearest set-up
        // at or before it, rebuilt, never the previous step's scene played on.
        let from = (0..=step).rev().find(|i| lesson.steps[*i].setup.is_some());
        if let Some(i) = from {
            let setup = lessons::setup_for(&lesson, i);
            match setup
                .as_ref()
                .ok_or_else(|| "its set-up does not read".to_string())
                .and_then(scene)
            {
                Ok((scenario, timeline)) => {
                    self.run.settings = Settings::from_scenario(&scenario);
                    self.run.timeline = timeline;
                    let inputs = setup.map(|s| s.run.inputs).unwrap_or_default();
                    self.run.selected = inputs.iter().rev().find_map(|(_, i)| match i {
                        Input::Add { key } => Some(key.clone()),
                        _ => None,
                    });
                }
                Err(e) => {
                    self.ui.notice = Notice::error(format!("This step's scene cannot run: {e}"))
                }
            }
            // A step without a set-up of its own continues the steps before
            // it as the clicker plays them, exactly: never where a dwell or a
            // frame happened to leave the scene.
            for j in i..step {
                self.replay_step(&lesson, j);
            }
        }
        if let Some(key) = &lesson.steps[step].focus.key {
            self.run.selected = Some(key.clone());
        }
        self.run.playback.playing = false;
        self.run.playback.until_wait = false;
        let mut ls = match self.lessons.current.take() {
            Some(mut l) if l.index == index => {
                l.entered(step);
                l
            }
            _ => {
                // A new lesson plays at its own pace: a speed slowed for the
                // last one's scene does not carry over silently.
                self.run.playback.speed = 1.0;
                LessonState::new(index, step, lesson.steps.len())
            }
        };
        if ls.answers[step].is_none() {
            ls.answers[step] = lessons::answer(&lesson, step);
        }
        // (A large scene still being built opens where it is going.)
        ls.visit.start = self
            .run
            .timeline
            .pending()
            .unwrap_or(self.run.timeline.now());
        self.lessons.current = Some(ls);
    }

    /// Step `j`'s scene as the clicker plays it, to the instant it may go
    /// on: its action, then event by event until what it waits for has
    /// happened (making the choice it waits for), at most
    /// [`MAX_REPLAY_EVENTS`] events. A step that waits for nothing ends
    /// where it began.
    fn replay_step(&mut self, lesson: &workqueue_lessons::view::LessonView, j: usize) {
        while self.run.timeline.pending().is_some() {
            self.run.timeline.catch_up();
        }
        if let Some(act) = lessons::act(lesson, j) {
            for input in act.inputs {
                if let Err(e) = self.run.timeline.record(input) {
                    self.ui.notice = Notice::error(e.to_string());
                }
            }
        }
        self.run_to_wait(lesson, j);
    }

    /// Runs step `j`'s scene on from now, event by event, until what it
    /// waits for has happened (making the choice it waits for): the exact
    /// instant, at most [`MAX_REPLAY_EVENTS`] events on.
    fn run_to_wait(&mut self, lesson: &workqueue_lessons::view::LessonView, j: usize) {
        let Some(step) = lesson.steps.get(j) else {
            return;
        };
        while self.run.timeline.pending().is_some() {
            self.run.timeline.catch_up();
        }
        let Some(wait) = step.wait.clone() else {
            return;
        };
        if let Wait::Time(t) = wait {
            while !self.run.timeline.advance_to(t) {}
            return;
        }
        for _ in 0..MAX_REPLAY_EVENTS {
            if wait.met(self.run.timeline.sim()) {
                return;
            }
            if let Some((key, outcome)) = self.suggested_decision(step) {
                if self
                    .run
                    .timeline
                    .record(Input::Decide { key, outcome })
                    .is_err()
                {
                    return;
                }
                continue;
            }
            if self.run.timeline.step().is_none() {
                return;
            }
        }
    }

    /// What one press of the clicker (PageDown, `n`, the Next button) would
    /// do now: the next visible thing. An open prediction is asked for,
    /// then revealed (with the typed guess or without one); a paused scene
    /// is played, or played on until what the step waits for happens; once
    /// it has played for [`MIN_DWELL_MS`], the next step opens, and after the
    /// last step the next lesson.
    pub(crate) fn next_press(&self, now_ms: f64) -> Press {
        let Some(l) = &self.lessons.current else {
            return Press::AtEnd;
        };
        let Some(lesson) = self.lessons.library.get(l.index) else {
            return Press::AtEnd;
        };
        let Some(step) = lesson.steps.get(l.step) else {
            return Press::AtEnd;
        };
        // An audience window says what its presenter's window said.
        if let Some(told) = l.visit.told.filter(|_| self.workshop.mode.audience) {
            return if l.visit.kept.is_some() {
                Press::Dwelling
            } else {
                told.at(now_ms)
            };
        }
        if l.visit.pages.more() {
            return Press::Page;
        }
        if step.question.is_some() && l.guess().is_none() {
            return if l.visit.asked || !l.visit.draft.trim().is_empty() {
                Press::Revealed
            } else {
                Press::Asked
            };
        }
        let waiting = step
            .wait
            .as_ref()
            .is_some_and(|w| !w.met(self.run.timeline.sim()));
        if waiting && self.suggested_decision(step).is_some() {
            return Press::Decided;
        }
        // A step's own action (its button) counts as playing it.
        // (A figure in the stage's place hides the run: nothing to play.)
        let run_shown = !self.workshop.mode.figure_on_stage(step);
        let playable =
            (run_shown && self.run.timeline.next_instant().is_some()) || step.act.is_some();
        // (A scene already playing by hand still gets the press: the step's
        // own action runs, and the dwell starts.)
        if (waiting && !self.run.playback.playing) || (l.visit.played_at.is_none() && playable) {
            return Press::Played;
        }
        if waiting {
            return Press::Skipped;
        }
        // (The course's end says so at once: there is nowhere to move on to.)
        let last_step = l.step + 1 >= lesson.steps.len();
        if last_step && self.next_lesson(l.index).is_none() {
            return Press::AtEnd;
        }
        // (An audience window says "Moving on…" until its presenter's
        // window has carried the kept press out and says where it went.)
        let kept_there = self.workshop.mode.audience && l.visit.kept.is_some();
        if kept_there || l.dwell_since().is_some_and(|t| now_ms - t < MIN_DWELL_MS) {
            return Press::Dwelling;
        }
        Press::Moved
    }

    /// The figure the open step shows in place of the stage in a room (the
    /// articles' storm under four limiters), as the lesson was read with it.
    pub(crate) fn figure_shown(&self) -> Option<Vec<workqueue_lessons::storm::Plot>> {
        let ls = self.lessons.current.as_ref()?;
        let lesson = self.lessons.library.get(ls.index)?;
        let step = lesson.steps.get(ls.step)?;
        self.workshop
            .mode
            .figure_on_stage(step)
            .then(|| step.compared.clone())
    }

    /// The count the open step's question asks about, as the stage shows
    /// it: `None` where the question has no count; its value only once the
    /// room's guess is in (before, the stage keeps its place with "?").
    pub(crate) fn tally_shown(&self) -> Option<TallyShown> {
        let ls = self.lessons.current.as_ref()?;
        let lesson = self.lessons.library.get(ls.index)?;
        let question = lesson.steps.get(ls.step)?.question.as_ref()?;
        let tally = question.tally.as_ref()?;
        let run = self.engine();
        let past = tally.until().is_some_and(|t| run.now() > t);
        // Past the question's instant the run counts on: the stage then
        // keeps the count at that instant, which is the core's answer.
        let value = match ls.guess() {
            None => None,
            Some(_) if past => ls.answer().cloned(),
            Some(_) => tally.value(run).map(crate::format::count),
        };
        Some(TallyShown {
            label: tally.label(),
            value,
            past,
            // (The count climbs to the answer: room for its digits from the
            // first frame, so the box never grows as the scene plays.)
            width: ls.answer().map_or(1, |a| a.chars().count()).max(1),
        })
    }

    /// The open step as the lesson panel shows it at real instant `now_ms`
    /// (ms): each figure asked only where the panel's words need it.
    pub(crate) fn step_shown(&self, now_ms: f64) -> Option<StepShown> {
        let ls = self.lessons.current.as_ref()?;
        let lesson = self.lessons.library.get(ls.index)?;
        let step = &lesson.steps[ls.step];
        let press = self.next_press(now_ms);
        let last_step = ls.step + 1 >= lesson.steps.len();
        // (Next's words name the course's end only where no press names them.)
        let unnamed =
            press == Press::Moved || (press == Press::Dwelling && ls.visit.kept.is_none());
        Some(StepShown {
            waiting: step.wait.as_ref().is_some_and(|w| !w.met(self.sim())),
            decision: (press == Press::Decided)
                .then(|| self.suggested_decision(step).map(|(_, outcome)| outcome))
                .flatten(),
            at_start: ls.step == 0
                && ls.visit.pages.at == 0
                && self.previous_lesson(ls.index).is_none(),
            at_end: unnamed && last_step && self.next_lesson(ls.index).is_none(),
            figures: step
                .goal
                .as_ref()
                .and(self.lessons.goal_figures.as_ref())
                .filter(|(i, s, _)| (*i, *s) == (ls.index, ls.step))
                .map(|(_, _, f)| f.clone()),
            press,
            lesson: ReadLesson(lesson),
        })
    }

    /// [`Playground::next_press`] now, and once the dwell (if it dwells)
    /// is over: the press is the same until the state changes, but for that.
    pub(crate) fn press_from(&self, now_ms: f64) -> PressFrom {
        let press = self.next_press(now_ms);
        let dwell = match (press, &self.lessons.current) {
            (Press::Dwelling, Some(l)) => l
                .dwell_since()
                .map(|since| (since, self.next_press(f64::INFINITY))),
            _ => None,
        };
        PressFrom { press, dwell }
    }

    /// Does what [`Playground::next_press`] says, and returns it. A press
    /// within [`DOUBLE_PRESS_MS`](crate::lesson_state::DOUBLE_PRESS_MS) of the one before does nothing.
    pub(crate) fn clicker_next(&mut self, now_ms: f64) -> Press {
        if self
            .lessons
            .current
            .as_mut()
            .is_some_and(|l| l.double_press(now_ms))
        {
            return Press::Dwelling;
        }
        self.carry_out_press(now_ms)
    }

    /// The press [`Playground::next_press`] names, done now.
    pub(crate) fn carry_out_press(&mut self, now_ms: f64) -> Press {
        const TYPE_A_PREDICTION: &str =
            "Type a prediction and press Reveal (with no prediction, Reveal just shows the answer).";
        let press = self.next_press(now_ms);
        if press == Press::Revealed {
            let draft = self
                .lessons
                .current
                .as_ref()
                .map(|l| l.visit.draft.clone())
                .unwrap_or_default();
            if let Some(why) = self.unreadable_guess(&draft) {
                // The field stays open with what was typed, and says why
                // beside it (not over the stage).
                if let Some(l) = self.lessons.current.as_mut() {
                    l.visit.refused = Some(why);
                }
                self.lessons.focus_guess += 1;
                return Press::Asked;
            }
        }
        let decision = match (press, &self.lessons.current) {
            (Press::Decided, Some(l)) => self
                .lessons
                .library
                .get(l.index)
                .and_then(|x| x.steps.get(l.step).cloned())
                .and_then(|s| self.suggested_decision(&s)),
            _ => None,
        };
        let holds = self.holds_for_prediction();
        let Some(l) = self.lessons.current.as_mut() else {
            return press;
        };
        match press {
            Press::Page => {
                l.visit.pages.turned(l.visit.pages.at + 1);
                // The question's page shows its field: off a projector it is
                // asked for at once (the main button then says Reveal) and
                // the keyboard goes there.
                let room = self.workshop.mode.workshop
                    || self.workshop.mode.audience
                    || self.workshop.mode.presenter;
                if holds && !l.visit.pages.more() && !room {
                    l.visit.asked = true;
                    self.lessons.focus_guess += 1;
                }
            }
            Press::Asked => {
                l.visit.asked = true;
                // A projector's field waits for the trainer's click: the
                // clicker's other keys (`b`, `.`) must not type into it.
                if !(self.workshop.mode.workshop
                    || self.workshop.mode.audience
                    || self.workshop.mode.presenter)
                {
                    self.lessons.focus_guess += 1;
                }
                if !(self.workshop.mode.workshop || self.workshop.mode.embed) {
                    self.ui.notice = Notice::info(TYPE_A_PREDICTION);
                }
            }
            Press::Revealed => {
                let guess = std::mem::take(&mut l.visit.draft);
                l.reveal(guess, now_ms);
                // The hint to predict has done its work: it does not stay
                // over the answer.
                if self
                    .ui
                    .notice
                    .as_ref()
                    .is_some_and(|n| n.text == TYPE_A_PREDICTION)
                {
                    self.ui.notice = None;
                }
            }
            Press::Played => self.play_the_step(now_ms),
            Press::Decided => {
                if let Some((key, outcome)) = decision {
                    l.visit.played_at.get_or_insert(now_ms);
                    if let Err(e) = self.run.timeline.record(Input::Decide { key, outcome }) {
                        self.ui.notice = Notice::error(e.to_string());
                    }
                    self.run.playback.playing = true;
                    self.run.playback.until_wait = true;
                }
            }
            Press::Moved => {
                // Nothing of this step's scene plays on into the next one.
                self.run.playback.playing = false;
                let (index, step) = (l.index, l.step);
                let steps = self.lessons.library.get(index).map_or(0, |l| l.steps.len());
                if step + 1 < steps {
                    self.enter_step(index, step + 1);
                } else if let Some(next) = self.next_lesson(index) {
                    self.start_lesson(next, 1);
                }
            }
            Press::Skipped => {
                let (index, step) = (l.index, l.step);
                if let Some(lesson) = self.lessons.library.get(index) {
                    self.run_to_wait(&lesson, step);
                }
                self.run.playback.playing = false;
                self.run.playback.until_wait = false;
            }
            Press::Dwelling => l.visit.kept = Some(now_ms),
            Press::AtEnd => {}
        }
        press
    }

    /// Real time passed (ms): a press kept during the dwell is carried out
    /// once the step may go on. Whether anything changed.
    pub(crate) fn carry_kept_press(&mut self, real_ms: f64) -> bool {
        let Some(at) = self.lessons.current.as_ref().and_then(|l| l.visit.kept) else {
            return false;
        };
        // An audience window only shows the press its presenter keeps.
        if self.workshop.mode.audience {
            return false;
        }
        let now = at + real_ms.max(0.0);
        if self.next_press(now) == Press::Dwelling {
            if let Some(l) = self.lessons.current.as_mut() {
                l.visit.kept = Some(now);
            }
            return false;
        }
        if let Some(l) = self.lessons.current.as_mut() {
            l.visit.kept = None;
        }
        self.carry_out_press(now);
        true
    }

    /// The panel measured the narration: it takes `pages` pages here.
    pub(crate) fn narration_pages(&mut self, pages: usize) {
        if let Some(l) = self.lessons.current.as_mut() {
            l.visit.pages.measured(pages);
        }
    }

    /// The decision a step waits for, when a reconcile is waiting for it
    /// now: the key on the first deciding worker and the outcome the step's
    /// wait names (RequeueAfter with the decision panel's 30s).
    pub(crate) fn suggested_decision(
        &self,
        step: &workqueue_lessons::view::StepView,
    ) -> Option<(String, Outcome)> {
        let Some(Wait::Results { label, .. }) = &step.wait else {
            return None;
        };
        let outcome = match label {
            ResultLabel::Error => Outcome::Error,
            ResultLabel::RequeueAfter => Outcome::RequeueAfter {
                after_ns: Span::lit(30 * workqueue_core::SECOND),
            },
            ResultLabel::Requeue => Outcome::Requeue,
            ResultLabel::Success => Outcome::Success,
        };
        let sim = self.sim();
        let key = sim.workers().iter().find_map(|w| match w {
            WorkerState::AwaitingDecision { item, .. } => Some(sim.key(*item).to_string()),
            _ => None,
        })?;
        Some((key, outcome))
    }

    /// What to do on a step that holds for a prediction, naming the
    /// buttons the lesson shows now (its one button reads "Read on",
    /// "Predict…" or "Reveal").
    pub(crate) fn predict_first_hint(&self) -> &'static str {
        match self.next_press(0.0) {
            Press::Page => "This step asks for a prediction first: press Read on to reach the question, answer it, then press Reveal.",
            Press::Asked => "This step asks for a prediction first: press Predict…, type your answer, then press Reveal.",
            _ => "This step asks for a prediction first: type your answer and press Reveal (with no answer, Reveal just shows it).",
        }
    }

    /// A step whose prediction is still open holds the clock: the room
    /// predicts before the scene moves, however the step was entered.
    pub(crate) fn holds_for_prediction(&self) -> bool {
        let Some(l) = &self.lessons.current else {
            return false;
        };
        self.lessons
            .library
            .get(l.index)
            .and_then(|x| x.steps.get(l.step).map(|s| s.question.is_some()))
            .unwrap_or(false)
            && l.guess().is_none()
    }

    /// The step's own Play (its button, or a link that plays on opening):
    /// its act the first time, then the scene, to where it ends.
    pub(crate) fn play_the_step(&mut self, now_ms: f64) {
        let Some(l) = self.lessons.current.as_mut() else {
            return;
        };
        let first = l.visit.played_at.is_none();
        l.visit.played_at.get_or_insert(now_ms);
        if first {
            self.do_act();
        }
        self.run.playback.playing = true;
        self.run.playback.until_wait = true;
    }

    /// What the current step asks to be done (its button in the lesson
    /// panel): run the provider's manager, or apply its inputs.
    fn do_act(&mut self) {
        let Some(l) = &self.lessons.current else {
            return;
        };
        let Some(act) = self
            .lessons
            .library
            .get(l.index)
            .and_then(|x| lessons::act(&x, l.step))
        else {
            return;
        };
        for input in act.inputs {
            if let Err(e) = self.run.timeline.record(input) {
                self.ui.notice = Notice::error(e.to_string());
            }
        }
    }

    /// The clicker's back press: the previous step, or the previous
    /// lesson's last step.
    pub(crate) fn clicker_back(&mut self) {
        let Some(l) = self.lessons.current.clone() else {
            return;
        };
        if l.visit.pages.at > 0 {
            if let Some(l) = self.lessons.current.as_mut() {
                l.visit.pages.turned(l.visit.pages.at - 1);
            }
        } else if l.step > 0 {
            self.enter_step(l.index, l.step - 1);
        } else if let Some(before) = self.previous_lesson(l.index) {
            match self.lessons.library.get(before) {
                Some(prev) => self.enter_step(before, prev.steps.len().saturating_sub(1)),
                // Not read yet: it opens at its end once the worker sends it.
                None => self.start_lesson(before, usize::MAX),
            }
        }
    }

    /// The lesson after `index`: the next of the room's course where the
    /// trainer chose one (`?lessons=`), else the next in the menu.
    pub(crate) fn next_lesson(&self, index: usize) -> Option<usize> {
        self.neighbour_lesson(index, 1)
    }

    /// The lesson before `index`, the same way.
    pub(crate) fn previous_lesson(&self, index: usize) -> Option<usize> {
        self.neighbour_lesson(index, -1)
    }

    /// The lesson `by` places from `index` in the room's order.
    fn neighbour_lesson(&self, index: usize, by: isize) -> Option<usize> {
        let order: Vec<usize> = match &self.lessons.course {
            Some(course) => course
                .iter()
                .filter_map(|id| self.lessons.library.index_of(id))
                .collect(),
            // An embed is a guest in someone's post about one lesson: it
            // ends with that lesson (a `lessons=` course goes on).
            None if self.workshop.mode.embed => vec![index],
            None => (0..self.lessons.library.entries().len()).collect(),
        };
        let at = order.iter().position(|&i| i == index)?;
        order.get(at.checked_add_signed(by)?).copied()
    }

    /// The instant a step played until its wait stops at, where it waits
    /// for a time: no frame runs past it (a frame's step is coarse, the
    /// narration names the instant).
    pub(crate) fn scene_stop(&self) -> Option<Instant> {
        if !self.run.playback.until_wait {
            return None;
        }
        let l = self.lessons.current.as_ref()?;
        match self
            .lessons
            .library
            .get(l.index)?
            .steps
            .get(l.step)?
            .wait
            .as_ref()?
        {
            Wait::Time(t) => Some(*t),
            _ => None,
        }
    }

    /// After a frame of play: a step played until what it waits for has
    /// happened pauses there, for the room to look.
    pub(crate) fn pause_when_waited(&mut self) {
        if !self.run.playback.until_wait {
            return;
        }
        let Some(l) = &self.lessons.current else {
            return;
        };
        // Only a step that waits for something pauses by itself.
        let met = self
            .lessons
            .library
            .get(l.index)
            .and_then(|x| x.steps.get(l.step).and_then(|s| s.wait.clone()))
            .is_some_and(|w| w.met(self.run.timeline.sim()));
        if met {
            self.run.playback.playing = false;
            self.run.playback.until_wait = false;
        }
    }
}

/// Events a step's scene is replayed through, at most, to reach what it
/// waits for when a later step without a set-up of its own is entered.
const MAX_REPLAY_EVENTS: usize = 200_000;

#[cfg(test)]
mod field_tests;
mod files;
mod guess;
#[cfg(test)]
mod reader_tests;
mod scene;
#[cfg(test)]
mod scene_tests;
#[cfg(test)]
mod tests;
