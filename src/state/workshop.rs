//! The workshop's slice of the page: how the page was opened, a blanked
//! projector, and what an audience window sends to and holds from the
//! presenter's window (see [`crate::presenter`]).

/// What the workshop may be told.
pub enum WorkshopAction {
    /// A clicker's blank-screen key (`b`, `.`): the projector goes black, or
    /// shows again.
    Blank,
    /// Escape: a blank screen shows again.
    Unblank,
    ToggleWorkshop,
    /// This window becomes the presenter's (an audience window opens).
    Present,
    /// The presenter's workshop, for this window to show (see [`crate::presenter`]).
    /// The presenter's state, received at a real instant (ms).
    Follow(Box<crate::workshop::Mirror>, f64),
    /// The presenter's clock while it plays.
    FollowClock(crate::workshop::Clock),
    /// An audience window's narration takes this many pages.
    AudiencePages(usize),
}

#[derive(Default)]
pub struct WorkshopState {
    pub(crate) mode: Mode,
    /// The projector is blanked (a clicker's `b` or `.`).
    pub(crate) blank: bool,
    /// An audience window's blank key, shown at once and kept until its
    /// presenter's state says the same (a state sent before the key must
    /// not undo it).
    pub(crate) blank_asked: Option<bool>,
    /// In an audience window: what a person did here, numbered, for the
    /// presenter's window to carry out (the newest few; see
    /// [`crate::presenter`]).
    pub(crate) outbox: Vec<(u64, crate::workshop::Remote)>,
    /// What the presenter's window said of a lesson step that has not
    /// arrived here yet: put on it when it does.
    pub(crate) pending_ui: Option<(crate::workshop::LessonUi, f64)>,
}

impl WorkshopState {
    /// The workshop's own transitions: the projector's blank screen and
    /// the window's mode. Returns whether anything on screen changed. (A
    /// presenter's state to follow, or an audience's narration pages, reach
    /// into the run and the lesson: coordinated by
    /// [`super::Playground::apply`], they never come here.)
    pub(crate) fn apply(&mut self, action: WorkshopAction) -> bool {
        match action {
            WorkshopAction::Blank => self.blank = !self.blank,
            WorkshopAction::Unblank if self.blank => self.blank = false,
            WorkshopAction::Unblank => return false,
            WorkshopAction::ToggleWorkshop => self.mode.workshop = !self.mode.workshop,
            WorkshopAction::Present => {
                self.mode.presenter = true;
                self.mode.audience = false;
                self.mode.workshop = false;
            }
            // Coordinated across the page (see `state/apply.rs`).
            WorkshopAction::Follow(..)
            | WorkshopAction::FollowClock(_)
            | WorkshopAction::AudiencePages(_) => return false,
        }
        true
    }

    /// An audience window sends what a person does to the presenter's.
    pub(crate) fn send(&mut self, remote: crate::workshop::Remote) {
        /// Sent at once: only the last few are ever still unsent.
        const KEPT: usize = 16;
        let seq = self.outbox.last().map_or(1, |(n, _)| n + 1);
        self.outbox.push((seq, remote));
        if self.outbox.len() > KEPT {
            self.outbox.remove(0);
        }
    }
}

/// How the page was opened (`?embed=1`, `?workshop=1`, `?presenter=1`,
/// `?audience=1`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Mode {
    pub(crate) embed: bool,
    pub(crate) workshop: bool,
    /// The trainer's window of a workshop on two screens: notes, the next
    /// step, the clicker, a small stage.
    pub(crate) presenter: bool,
    /// The projector's window: the stage and the narration, in step with
    /// the presenter's window.
    pub(crate) audience: bool,
}

impl Mode {
    /// A room's screens (the single workshop window, the projector's
    /// window and its presenter's): a step's figure takes the stage's place.
    pub(crate) fn room(self) -> bool {
        self.workshop || self.audience || self.presenter
    }

    /// Whether `step`'s figure takes the stage's place (and hides its run).
    pub(crate) fn figure_on_stage(self, step: &workqueue_lessons::view::StepView) -> bool {
        self.room() && step.compare_limiters
    }
}
