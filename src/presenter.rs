//! Two windows, one workshop: the presenter's window (notes, the next step,
//! the expected answer, a clock, the clicker) and one or more audience
//! windows on the projector. They talk over a same-origin
//! `BroadcastChannel` (no server, offline).
//!
//! The presenter's window holds the workshop. An audience window runs the
//! same deterministic simulation: it follows the presenter's state (the
//! scenario, the inputs recorded, the instant, the lesson step and what was
//! predicted there) and builds its own run from it — never a copy of
//! pixels. What a person does in an audience window (the clicker, an
//! outcome) is sent to the presenter, which carries it out and so shows it
//! in every window. A window that (re)opens says hello and is answered with
//! the state, so a reload of either loses nothing.

use crate::state::{LessonAction, RunAction, WorkshopAction};
use workqueue_core::Instant;

use crate::share::{self, Shared};
use crate::state::{Action, Playground};
use crate::workshop::{Clock, LessonUi, Mirror, Remote};

impl Remote {
    /// What an audience window sends instead of doing `action` itself;
    /// `None` for what stays in the window (a tick, a selection, a page
    /// measured).
    pub(crate) fn of(action: &Action) -> Option<Remote> {
        Some(match action {
            Action::Lesson(LessonAction::Next(_)) => Remote::Next,
            Action::Lesson(LessonAction::Back) => Remote::Back,
            Action::Lesson(LessonAction::Reveal(guess, _)) => Remote::Reveal {
                guess: guess.clone(),
            },
            Action::Run(RunAction::TogglePlay) => Remote::TogglePlay,
            Action::Run(RunAction::Play) => Remote::Play,
            Action::Run(RunAction::Pause) => Remote::Pause,
            Action::Run(RunAction::Step) => Remote::Step,
            Action::Run(RunAction::StepBack) => Remote::StepBack,
            Action::Run(RunAction::Seek(at)) => Remote::Seek { at: *at },
            Action::Run(RunAction::SetSpeed(speed)) => Remote::SetSpeed { speed: *speed },
            Action::Run(RunAction::Faster) => Remote::Faster,
            Action::Run(RunAction::Slower) => Remote::Slower,
            Action::Run(RunAction::Restart) => Remote::Restart,
            Action::Run(RunAction::Input(input)) => Remote::Input {
                input: input.clone(),
            },
            Action::Lesson(LessonAction::Step(step)) => Remote::LessonStep { step: *step },
            Action::Workshop(WorkshopAction::Blank) => Remote::Blank,
            Action::Workshop(WorkshopAction::Unblank) => Remote::Unblank,
            _ => return None,
        })
    }

    /// The action the presenter's window carries out, at its own real
    /// instant `now_ms` (a clicker's dwell is timed in one window only).
    pub(crate) fn action(self, now_ms: f64) -> Action {
        match self {
            Remote::Next => Action::Lesson(LessonAction::NextRemote(now_ms)),
            Remote::Back => Action::Lesson(LessonAction::Back),
            Remote::Reveal { guess } => Action::Lesson(LessonAction::Reveal(guess, now_ms)),
            Remote::TogglePlay => Action::Run(RunAction::TogglePlay),
            Remote::Play => Action::Run(RunAction::Play),
            Remote::Pause => Action::Run(RunAction::Pause),
            Remote::Step => Action::Run(RunAction::Step),
            Remote::StepBack => Action::Run(RunAction::StepBack),
            Remote::Seek { at } => Action::Run(RunAction::Seek(at)),
            Remote::SetSpeed { speed } => Action::Run(RunAction::SetSpeed(speed)),
            Remote::Faster => Action::Run(RunAction::Faster),
            Remote::Slower => Action::Run(RunAction::Slower),
            Remote::Restart => Action::Run(RunAction::Restart),
            Remote::Input { input } => Action::Run(RunAction::Input(input)),
            Remote::LessonStep { step } => Action::Lesson(LessonAction::Step(step)),
            Remote::Pages { pages } => Action::Workshop(WorkshopAction::AudiencePages(pages)),
            Remote::Blank => Action::Workshop(WorkshopAction::Blank),
            Remote::Unblank => Action::Workshop(WorkshopAction::Unblank),
        }
    }
}

impl Playground {
    /// The workshop as this window holds it at real instant `now_ms`.
    pub(crate) fn mirror(&self, now_ms: f64) -> Mirror {
        Mirror {
            shared: share::to_json(&self.shared()),
            lesson: self.lessons.current.as_ref().map(|l| {
                LessonUi::of(
                    l,
                    self.press_from(now_ms),
                    self.run.playback.until_wait,
                    now_ms,
                )
            }),
            clock: self.clock(),
            course: self.lessons.course.as_ref().map(|c| c.to_vec()),
            blank: self.workshop.blank,
            other_run: self.run.other_run.clone().map(Box::new),
        }
    }

    /// What changes the workshop, without the instant (which the clock
    /// says) or a lesson file's text (which never changes under a step):
    /// a new one is sent when it differs.
    pub(crate) fn mirror_signature(&self, now_ms: f64) -> String {
        let mut shared = self.shared();
        shared.run.run_to = Instant::T0;
        if let Some(l) = &mut shared.lesson {
            l.text = None;
        }
        let lesson = self.lessons.current.as_ref().map(|l| {
            LessonUi::of(
                l,
                self.press_from(now_ms),
                self.run.playback.until_wait,
                now_ms,
            )
            .untimed()
        });
        format!(
            "{}|{}|{}|{}|{:?}|{}|{:?}",
            share::to_json(&shared),
            serde_json::to_string(&lesson).unwrap_or_default(),
            self.run.playback.playing,
            self.run.playback.speed,
            self.lessons.course,
            self.workshop.blank,
            self.run.other_run
        )
    }

    pub(crate) fn clock(&self) -> Clock {
        Clock {
            at: self.now(),
            playing: self.run.playback.playing,
            speed: self.run.playback.speed,
            effective: self.run.playback.effective_speed,
        }
    }

    /// This window made to show `m`: the same run (rebuilt only when the
    /// scenario, the lesson step or past inputs differ; new inputs are
    /// recorded at their instants), the same lesson step with what was
    /// predicted there, and the same instant; received at real instant
    /// `now_ms`.
    pub(crate) fn follow(&mut self, m: Mirror, now_ms: f64) -> Result<(), String> {
        let theirs: Shared = share::read(&m.shared).map_err(|e| e.to_string())?;
        let blank_asked = self.workshop.blank_asked;
        let mine = self.shared();
        let step = |s: &Shared| s.lesson.as_ref().map(|l| (l.id.clone(), l.step));
        let known = mine.run.inputs.len();
        let same_run = mine.run.scenario == theirs.run.scenario
            && step(&mine) == step(&theirs)
            && theirs.run.inputs.get(..known) == Some(&mine.run.inputs[..]);
        if same_run {
            for (at, input) in &theirs.run.inputs[known..] {
                self.run.timeline.seek(*at);
                self.run
                    .timeline
                    .record(input.clone())
                    .map_err(|e| e.to_string())?;
            }
        } else {
            let mut fresh = self.carry_over(Playground::from_shared(theirs.clone()));
            fresh.ui.notice = None;
            *self = fresh;
        }
        let next = self;
        next.run.selected = theirs.selected.clone();
        next.run.other_run = m.other_run.map(|pair| *pair);
        next.lessons.course = m.course.map(std::rc::Rc::new);
        // A blank key pressed here holds until the presenter's state agrees.
        next.workshop.blank_asked = blank_asked.filter(|&asked| asked != m.blank);
        next.workshop.blank = next.workshop.blank_asked.unwrap_or(m.blank);
        next.run.playback.until_wait = m.lesson.as_ref().is_some_and(|ui| ui.until_wait);
        match (m.lesson, next.lessons.current.as_mut()) {
            (Some(ui), Some(l)) => ui.apply(l, now_ms),
            // The lesson is still on its way: its step's state waits for it.
            (ui, None) => next.workshop.pending_ui = ui.map(|ui| (ui, now_ms)),
            (None, Some(_)) => {}
        }
        next.follow_clock(m.clock);
        // The step's set-up is played out now, not over the next frames:
        // the projector shows the step whole at once, as its presenter's
        // window does (at most this many frames' work in one).
        const SETTLE_FRAMES: usize = 40;
        for _ in 0..SETTLE_FRAMES {
            if next.run.timeline.catch_up() {
                break;
            }
        }
        Ok(())
    }

    /// Play, pause, speed and the instant as the presenter has them. While
    /// playing, a window a frame or two apart is left to catch up by itself.
    pub(crate) fn follow_clock(&mut self, c: Clock) {
        self.run.playback.playing = c.playing;
        self.run.playback.speed = c.speed;
        let now = self.now();
        let slack = if c.playing {
            // 150 ms of real time at the speed the run moves.
            (0.15 * c.effective.max(c.speed) * 1e9) as i64
        } else {
            0
        };
        if (now - c.at).as_nanos().abs() > slack {
            self.run.timeline.seek(c.at);
        }
    }
}

#[cfg(test)]
mod tests;
