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
    pub mode: Mode,
    /// The projector is blanked (a clicker's `b` or `.`).
    pub blank: bool,
    /// An audience window's blank key, shown at once and kept until its
    /// presenter's state says the same (a state sent before the key must
    /// not undo it).
    pub blank_asked: Option<bool>,
    /// In an audience window: what a person did here, numbered, for the
    /// presenter's window to carry out (the newest few; see
    /// [`crate::presenter`]).
    pub outbox: Vec<(u64, crate::workshop::Remote)>,
    /// What the presenter's window said of a lesson step that has not
    /// arrived here yet: put on it when it does.
    pub pending_ui: Option<(crate::workshop::LessonUi, f64)>,
}

/// How the page was opened (`?embed=1`, `?workshop=1`, `?presenter=1`,
/// `?audience=1`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Mode {
    pub embed: bool,
    pub workshop: bool,
    /// The trainer's window of a workshop on two screens: notes, the next
    /// step, the clicker, a small stage.
    pub presenter: bool,
    /// The projector's window: the stage and the narration, in step with
    /// the presenter's window.
    pub audience: bool,
}

impl Mode {
    /// A room's screens (the single workshop window, the projector's
    /// window and its presenter's): a step's figure takes the stage's place.
    pub fn room(self) -> bool {
        self.workshop || self.audience || self.presenter
    }

    /// Whether `step`'s figure takes the stage's place (and hides its run).
    pub fn figure_on_stage(self, step: &crate::lessons::StepView) -> bool {
        self.room() && step.compare_limiters
    }
}
