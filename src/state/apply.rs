//! The transitions: what each [`Action`] does to the state, in place.
//! Each concern's own actions go to its reducer (`RunState::apply`,
//! `LessonsState::apply`, `WorkshopState::apply`, `UiState::apply`), which
//! changes its slice and is handed what it needs of the others; the
//! actions that span concerns (a frame that may carry out a lesson's
//! press, a step that replays the run's set-up, a new run that keeps the
//! lesson) are coordinated here.

use crate::state::{LessonAction, RunAction, WorkshopAction};
use workqueue_core::Scenario;

use super::{Action, Notice, Playground, MAX_TICK_MS};
use crate::settings::Settings;

impl Playground {
    /// Applies `action` to the state, in place. Returns whether anything on
    /// screen changed: only then does the revision move (and the page render).
    pub fn apply(&mut self, action: Action) -> bool {
        let rev = self.rev;
        let mut shows = self.change(action);
        // The hint to predict first says nothing once the prediction is
        // made: it goes with it (it stayed over the stage after Reveal).
        // Before that it names what to press now (a reader who pressed
        // Read on as it said is not told to press Read on again).
        let hint = self
            .ui
            .notice
            .as_ref()
            .filter(|n| n.text.starts_with(crate::lesson_state::PREDICT_FIRST))
            .map(|n| n.text.clone());
        if let Some(said) = hint {
            let now = self.predict_first_hint();
            if !self.holds_for_prediction() {
                self.ui.notice = None;
                shows = true;
            } else if said != now {
                self.ui.notice = Notice::info(now);
                shows = true;
            }
        }
        // A state made afresh carries the revision over (see `carry_over`).
        self.rev = if shows { rev + 1 } else { rev };
        shows
    }

    fn change(&mut self, action: Action) -> bool {
        // On a blank screen a clicker's Next or Back shows the screen again
        // and moves nothing the room has not seen.
        let action = match action {
            Action::Lesson(LessonAction::Next(_))
            | Action::Lesson(LessonAction::NextRemote(_))
            | Action::Lesson(LessonAction::Back)
                if self.workshop.blank =>
            {
                Action::Workshop(WorkshopAction::Unblank)
            }
            action => action,
        };
        if let Action::Run(RunAction::FrameWork(work_ms)) = action {
            // Before the audience's rule: a frame's cost is this window's own.
            return self.run.apply(RunAction::FrameWork(work_ms), &mut self.ui);
        }
        if self.workshop.mode.audience {
            // A nervous double press is one press here, on this window's
            // clock (the presenter's receives them at its own pace); a press
            // after typing the room's guess reveals it, however soon.
            if let (Action::Lesson(LessonAction::Next(now_ms)), Some(l)) =
                (&action, self.lessons.current.as_mut())
            {
                let typed = l.visit.asked && !l.visit.draft.trim().is_empty();
                if typed {
                    l.pressed_at = Some(*now_ms);
                } else if l.double_press(*now_ms) {
                    return false;
                }
            }
            // The presenter's window holds the workshop: what is done here
            // is done there, and comes back with its state.
            if let Some(remote) = crate::workshop::Remote::of(&action) {
                // A guess typed here goes with the press that reveals it.
                let typed = self
                    .lessons
                    .current
                    .as_ref()
                    .filter(|l| l.visit.asked && !l.visit.draft.trim().is_empty())
                    .map(|l| l.visit.draft.clone());
                let remote = match (remote, typed) {
                    (crate::workshop::Remote::Next, Some(guess)) => {
                        crate::workshop::Remote::Reveal { guess }
                    }
                    (remote, _) => remote,
                };
                self.workshop.send(remote);
                // A blank screen answers its key at once on the projector
                // (the presenter's state then says the same).
                if let Action::Workshop(WorkshopAction::Blank)
                | Action::Workshop(WorkshopAction::Unblank) = action
                {
                    // (`Blank` turns it over, as in the presenter's window.)
                    self.workshop.blank = matches!(action, Action::Workshop(WorkshopAction::Blank))
                        && !self.workshop.blank;
                    self.workshop.blank_asked = Some(self.workshop.blank);
                }
                return true;
            }
            if let Action::Lesson(LessonAction::NarrationPages(pages)) = action {
                self.workshop.send(crate::workshop::Remote::Pages { pages });
            }
        }
        match action {
            Action::Run(a) => self.run_action(a),
            Action::Lesson(a) => self.lesson_action(a),
            Action::Workshop(a) => self.workshop_action(a),
            Action::Ui(a) => self.ui.apply(a),
        }
    }

    /// The run's actions: those that reach into the lesson or make the
    /// page afresh here, the rest in [`super::RunState::apply`].
    fn run_action(&mut self, action: RunAction) -> bool {
        match action {
            RunAction::Tick(real_ms) => return self.frame(real_ms),
            RunAction::TogglePlay | RunAction::Play | RunAction::Step
                if self.holds_for_prediction() =>
            {
                self.run.playback.playing = false;
                self.ui.notice = Notice::info(self.predict_first_hint());
            }
            RunAction::StepBack => {
                self.run.playback.playing = false;
                // In a lesson, back as far as the step's own start: before
                // it is another step's scene.
                let floor = self.lessons.current.as_ref().map(|l| l.visit.start);
                match floor {
                    Some(start) if self.now() <= start => {}
                    Some(start) => {
                        self.run.timeline.step_back();
                        if self.now() < start {
                            self.run.timeline.seek(start);
                        }
                    }
                    None => self.run.timeline.step_back(),
                }
                self.ui.narration = self.run.narrate();
            }
            RunAction::Restart => {
                // What each reconcile returns, as last set (it may have
                // changed during the run).
                let mut scenario = self.current_scenario();
                scenario.first_mut().default_script = self.sim().spec().default_script.clone();
                let mut fresh = Playground::with(self.run.settings.clone(), scenario);
                fresh.run.provider = self.run.provider.clone();
                *self = self.carry_over(fresh);
            }
            RunAction::Apply(settings) if self.in_exercise() => match settings.to_scenario() {
                // An exercise's check runs its own keys from the start: the
                // stage starts them over too, under the new settings.
                Ok(scenario) => {
                    let mut fresh = self.carry_over(Playground::with(settings, scenario));
                    self.keep_exercise(&mut fresh);
                    *self = fresh;
                }
                Err(errors) => {
                    self.ui.notice = Notice::error(crate::settings::field_errors(&errors))
                }
            },
            RunAction::Apply(settings) => match self.apply_settings(settings) {
                Ok(()) => {}
                Err(text) => self.ui.notice = Notice::error(text),
            },
            RunAction::RunManager(provider) => match provider.to_scenario() {
                Ok(scenario) => {
                    // The form shows the manager's first controller, as it
                    // does when the run is reopened (a reload, a link).
                    let settings = Settings::from_scenario(&scenario);
                    let mut fresh = self.carry_over(Playground::with(settings, scenario));
                    fresh.run.provider = provider;
                    fresh.run.playback.playing = true;
                    fresh.run.playback.idle = false;
                    fresh.ui.notice = Notice::info(
                        "A manager: its controllers side by side, sharing what they share.",
                    );
                    *self = fresh;
                }
                Err(text) => self.ui.notice = Notice::error(text),
            },
            RunAction::ExitManager => {
                let settings = self.run.settings.clone();
                let scenario = settings
                    .to_scenario()
                    .unwrap_or_else(|_| Scenario::new("playground"));
                let mut fresh = self.carry_over(Playground::with(settings, scenario));
                fresh.run.provider = self.run.provider.clone();
                *self = fresh;
            }
            RunAction::SwitchQueue(queue) => match self.switch_queue(queue) {
                Ok(fresh) => *self = fresh,
                Err(text) => self.ui.notice = Notice::error(text),
            },
            RunAction::Load(shared) => {
                let mut fresh = self.carry_over(Playground::from_shared(*shared));
                fresh.run.playback.playing = false;
                if fresh.ui.notice.is_none() {
                    fresh.ui.notice = Notice::info("Scenario loaded.");
                }
                *self = fresh;
            }
            action => return self.run.apply(action, &mut self.ui),
        }
        true
    }

    /// One animation frame: a press the lesson kept may be carried out,
    /// a seek goes on, or the run plays.
    fn frame(&mut self, real_ms: f64) -> bool {
        let lesson_before = self.lessons.current.clone();
        let carried = self.carry_kept_press(real_ms);
        // Whether to play this frame is read after a kept press was
        // carried out: a press that opened the next step paused it,
        // and the new step opens at its set-up's instant, not one
        // frame into its scene.
        let entered =
            carried && self.lessons.at() != lesson_before.as_ref().map(|l| (l.index, l.step));
        let (was_playing, held) = (self.run.playback.playing, self.holds_for_prediction());
        if self.run.timeline.pending().is_some() {
            // A seek or a link too big for one frame goes on first.
            self.run.timeline.catch_up();
            if let Some(pair) = &mut self.run.other_run {
                pair.settle(self.run.timeline.engine());
            }
        } else if was_playing && !held && !entered {
            self.tick(real_ms.clamp(0.0, MAX_TICK_MS));
            self.pause_when_waited();
        } else if !carried && self.lessons.current == lesson_before {
            return false;
        }
        true
    }

    /// The lessons' actions: moving through a lesson (which replays the
    /// run) and a guess here, the rest in [`super::LessonsState::apply`].
    fn lesson_action(&mut self, action: LessonAction) -> bool {
        match action {
            LessonAction::OpenFile { file, text, step } => self.open_lesson_file(file, text, step),
            LessonAction::Arrived(lesson, source) => self.lesson_arrived(*lesson, source),
            LessonAction::Refused(refusal) => self.lesson_refused(refusal),
            LessonAction::Start(index) => self.start_lesson(index, 1),
            LessonAction::Step(step) => {
                if let Some(index) = self.lessons.current.as_ref().map(|l| l.index) {
                    self.enter_step(index, step);
                }
            }
            LessonAction::NextRemote(now_ms) => {
                self.carry_out_press(now_ms);
            }
            LessonAction::Next(now_ms) => {
                let press = self.clicker_next(now_ms);
                // (Where the panel fits the screen its Next button says it.)
                let fitted = self.workshop.mode.workshop || self.workshop.mode.embed;
                if press == crate::lesson_state::Press::Dwelling && !fitted {
                    self.ui.notice = Notice::info("Showing the step: it moves on in a moment.");
                }
            }
            LessonAction::Back => self.clicker_back(),
            // This window's panel measured the narration.
            LessonAction::NarrationPages(pages) => return self.measured_pages(pages),
            LessonAction::EnterWithoutGuess => self.enter_without_guess(),
            LessonAction::Reveal(guess, now_ms) => {
                // The field keeps what was typed, and says why beside it.
                let refused = self.unreadable_guess(&guess);
                if let Some(l) = &mut self.lessons.current {
                    match refused {
                        Some(why) => {
                            l.visit.refused = Some(why);
                            self.lessons.focus_guess += 1;
                        }
                        None => {
                            l.visit.refused = None;
                            l.reveal(guess, now_ms);
                        }
                    }
                }
            }
            action => return self.lessons.apply(action, &mut self.ui),
        }
        true
    }

    /// The narration takes `pages` pages (as this window's panel or the
    /// projector's measured it).
    fn measured_pages(&mut self, pages: usize) -> bool {
        if self
            .lessons
            .current
            .as_ref()
            .is_none_or(|l| l.visit.pages.of == pages.max(1))
        {
            return false;
        }
        self.narration_pages(pages);
        true
    }

    /// The workshop's actions: following the presenter's window (its run
    /// and its lesson) and the projector's pages here, the rest in
    /// [`super::WorkshopState::apply`].
    fn workshop_action(&mut self, action: WorkshopAction) -> bool {
        match action {
            WorkshopAction::AudiencePages(pages) => return self.measured_pages(pages),
            WorkshopAction::Follow(mirror, now_ms) => match self.follow(*mirror, now_ms) {
                Ok(()) => {}
                Err(e) => {
                    self.ui.notice = Notice::error(format!(
                        "The presenter's window sent a state this window cannot show: {e}"
                    ))
                }
            },
            WorkshopAction::FollowClock(clock) => self.follow_clock(clock),
            action => return self.workshop.apply(action),
        }
        true
    }
}
