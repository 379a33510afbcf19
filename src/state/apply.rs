//! The transitions: what each [`Action`] does to the state, in place.

use crate::state::{LessonAction, RunAction, UiAction, WorkshopAction};
use workqueue_core::{Input, Scenario};

use super::{Action, Notice, Playground, MAX_TICK_MS};
use crate::pacing::{self, MAX_SPEED, MIN_SPEED};
use crate::settings::Settings;

impl Playground {
    /// Applies `action` to the state, in place. Returns whether anything on
    /// screen changed: only then does the revision move (and the page render).
    pub fn apply(&mut self, action: Action) -> bool {
        let rev = self.rev;
        let mut shows = self.change(action);
        // The hint to predict first says nothing once the prediction is
        // made: it goes with it (it stayed over the stage after Reveal).
        let stale = self
            .ui
            .notice
            .as_ref()
            .is_some_and(|n| n.text.starts_with(crate::lesson_state::PREDICT_FIRST))
            && !self.holds_for_prediction();
        if stale {
            self.ui.notice = None;
            shows = true;
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
            // Nothing on screen changes: no render.
            self.run.timeline.fit_budget(work_ms);
            return false;
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
                self.send(remote);
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
                self.send(crate::workshop::Remote::Pages { pages });
            }
        }
        match action {
            Action::Run(RunAction::FrameWork(_)) => return false, // handled above
            Action::Run(RunAction::Tick(real_ms)) => {
                let lesson_before = self.lessons.current.clone();
                let carried = self.carry_kept_press(real_ms);
                // Whether to play this frame is read after a kept press was
                // carried out: a press that opened the next step paused it,
                // and the new step opens at its set-up's instant, not one
                // frame into its scene.
                let entered = carried
                    && self.lessons.current.as_ref().map(|l| (l.index, l.step))
                        != lesson_before.as_ref().map(|l| (l.index, l.step));
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
            }
            Action::Run(RunAction::TogglePlay)
            | Action::Run(RunAction::Play)
            | Action::Run(RunAction::Step)
                if self.holds_for_prediction() =>
            {
                self.run.playback.playing = false;
                self.ui.notice = Notice::info(self.predict_first_hint());
            }
            Action::Run(RunAction::TogglePlay) => {
                self.run.playback.playing = !self.run.playback.playing
            }
            Action::Run(RunAction::Play) => self.run.playback.playing = true,
            Action::Run(RunAction::Pause) => self.run.playback.playing = false,
            Action::Run(RunAction::Step) => {
                self.run.playback.playing = false;
                let stepped = self.run.timeline.step();
                match stepped {
                    Some(_) => self.ui.narration = self.narrate(),
                    None => {
                        self.ui.notice =
                            Notice::info("Nothing is scheduled: add a key to see something happen.")
                    }
                }
            }
            Action::Run(RunAction::StepBack) => {
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
                self.ui.narration = self.narrate();
            }
            Action::Run(RunAction::Seek(t)) => {
                self.run.timeline.seek(t);
            }
            Action::Run(RunAction::SetSpeed(s)) => {
                self.run.playback.speed = s.clamp(MIN_SPEED, MAX_SPEED)
            }
            Action::Run(RunAction::Faster) => {
                self.run.playback.speed = pacing::speed_step(self.run.playback.speed, true)
            }
            Action::Run(RunAction::Slower) => {
                self.run.playback.speed = pacing::speed_step(self.run.playback.speed, false)
            }
            Action::Run(RunAction::Restart) => {
                // What each reconcile returns, as last set (it may have
                // changed during the run).
                let mut scenario = self.current_scenario();
                scenario.first_mut().default_script = self.sim().spec().default_script.clone();
                let mut fresh = Playground::with(self.run.settings.clone(), scenario);
                fresh.run.provider = self.run.provider.clone();
                {
                    *self = self.carry_over(fresh);
                    return true;
                }
            }
            Action::Run(RunAction::Apply(settings)) if self.in_exercise() => {
                match settings.to_scenario() {
                    // An exercise's check runs its own keys from the start: the
                    // stage starts them over too, under the new settings.
                    Ok(scenario) => {
                        let mut fresh = self.carry_over(Playground::with(settings, scenario));
                        self.keep_exercise(&mut fresh);
                        {
                            *self = fresh;
                            return true;
                        }
                    }
                    Err(errors) => {
                        self.ui.notice = Notice::error(crate::settings::field_errors(&errors))
                    }
                }
            }
            Action::Run(RunAction::Apply(settings)) => match self.apply_settings(settings) {
                Ok(()) => {}
                Err(text) => self.ui.notice = Notice::error(text),
            },
            Action::Run(RunAction::RunManager(provider)) => match provider.to_scenario() {
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
                    {
                        *self = fresh;
                        return true;
                    }
                }
                Err(text) => self.ui.notice = Notice::error(text),
            },
            Action::Run(RunAction::ExitManager) => {
                let settings = self.run.settings.clone();
                let scenario = settings
                    .to_scenario()
                    .unwrap_or_else(|_| Scenario::new("playground"));
                let mut fresh = self.carry_over(Playground::with(settings, scenario));
                fresh.run.provider = self.run.provider.clone();
                {
                    *self = fresh;
                    return true;
                }
            }
            Action::Lesson(LessonAction::OpenFile { file, text, step }) => {
                self.open_lesson_file(file, text, step)
            }
            Action::Lesson(LessonAction::Arrived(lesson, source)) => {
                self.lesson_arrived(*lesson, source)
            }
            Action::Lesson(LessonAction::GoalFigures(index, step, figures)) => {
                // The result closes the step's narration: where it is paged,
                // the reader is shown its page.
                if let Some(l) = self
                    .lessons
                    .current
                    .as_mut()
                    .filter(|l| (l.index, l.step) == (index, step))
                {
                    l.visit.pages.go_to_end();
                }
                self.lessons.goal_figures = Some((index, step, figures));
            }
            Action::Lesson(LessonAction::DismissRefusal) => self.lessons.refused = None,
            Action::Lesson(LessonAction::Refused(refusal)) => self.lesson_refused(refusal),
            Action::Run(RunAction::SwitchQueue(queue)) => match self.switch_queue(queue) {
                Ok(fresh) => *self = fresh,
                Err(text) => self.ui.notice = Notice::error(text),
            },
            Action::Run(RunAction::Input(input)) => {
                if let Input::Add { key } | Input::Decide { key, .. } = &input {
                    self.run.selected = Some(key.clone());
                }
                self.record(input);
                self.run.playback.idle = false; // something happened
            }
            Action::Run(RunAction::Select(key)) => self.run.selected = key,
            Action::Ui(UiAction::Notify(n)) => self.ui.notice = n,
            Action::Ui(UiAction::ExpireNotice(text)) => {
                if self.ui.notice.as_ref().is_none_or(|n| n.text != text) {
                    return false;
                }
                self.ui.notice = None;
            }
            Action::Lesson(LessonAction::Start(index)) => self.start_lesson(index, 1),
            Action::Lesson(LessonAction::Step(step)) => {
                if let Some(index) = self.lessons.current.as_ref().map(|l| l.index) {
                    self.enter_step(index, step);
                }
            }
            Action::Lesson(LessonAction::Exit) => {
                self.lessons.current = None;
                self.lessons.pending = None;
            }
            Action::Lesson(LessonAction::Progress(done, total)) => {
                match &mut self.lessons.pending {
                    Some(p) => p.progress = Some((done, total)),
                    None => return false,
                }
            }
            Action::Lesson(LessonAction::Cancel) => {
                if let Some(p) = self.lessons.pending.take() {
                    self.ui.notice = Notice::info(format!("Stopped opening the lesson {}.", p.id));
                }
            }
            Action::Lesson(LessonAction::NextRemote(now_ms)) => {
                self.carry_out_press(now_ms);
            }
            Action::Lesson(LessonAction::Next(now_ms)) => {
                let press = self.clicker_next(now_ms);
                // (Where the panel fits the screen its Next button says it.)
                let fitted = self.workshop.mode.workshop || self.workshop.mode.embed;
                if press == crate::lesson_state::Press::Dwelling && !fitted {
                    self.ui.notice = Notice::info("Showing the step: it moves on in a moment.");
                }
            }
            Action::Lesson(LessonAction::Back) => self.clicker_back(),
            Action::Workshop(WorkshopAction::Blank) => self.workshop.blank = !self.workshop.blank,
            Action::Workshop(WorkshopAction::Unblank) if self.workshop.blank => {
                self.workshop.blank = false
            }
            Action::Workshop(WorkshopAction::Unblank) => return false,
            // This window's panel measured the narration, or the projector's did.
            Action::Lesson(LessonAction::NarrationPages(pages))
            | Action::Workshop(WorkshopAction::AudiencePages(pages)) => {
                if self
                    .lessons
                    .current
                    .as_ref()
                    .is_none_or(|l| l.visit.pages.of == pages.max(1))
                {
                    return false;
                }
                self.narration_pages(pages);
            }
            Action::Lesson(LessonAction::Draft(text)) => {
                if let Some(l) = &mut self.lessons.current {
                    l.visit.draft = text;
                    l.visit.refused = None;
                }
            }
            Action::Lesson(LessonAction::EnterWithoutGuess) => self.enter_without_guess(),
            Action::Lesson(LessonAction::Reveal(guess, now_ms)) => {
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
            Action::Workshop(WorkshopAction::ToggleWorkshop) => {
                self.workshop.mode.workshop = !self.workshop.mode.workshop
            }
            Action::Run(RunAction::TogglePacing) => {
                self.run.playback.pacing.on = !self.run.playback.pacing.on;
                self.run.playback.pacing.reset();
            }
            Action::Ui(UiAction::GoImport(g)) => self.ui.go_import = Some(g),
            Action::Workshop(WorkshopAction::Present) => {
                self.workshop.mode.presenter = true;
                self.workshop.mode.audience = false;
                self.workshop.mode.workshop = false;
            }
            Action::Workshop(WorkshopAction::Follow(mirror, now_ms)) => {
                match self.follow(*mirror, now_ms) {
                    Ok(()) => {}
                    Err(e) => {
                        self.ui.notice = Notice::error(format!(
                            "The presenter's window sent a state this window cannot show: {e}"
                        ))
                    }
                }
            }
            Action::Workshop(WorkshopAction::FollowClock(clock)) => self.follow_clock(clock),
            Action::Run(RunAction::Load(shared)) => {
                let mut fresh = self.carry_over(Playground::from_shared(*shared));
                fresh.run.playback.playing = false;
                if fresh.ui.notice.is_none() {
                    fresh.ui.notice = Notice::info("Scenario loaded.");
                }
                {
                    *self = fresh;
                    return true;
                }
            }
        }
        true
    }
}
