//! The lessons' slice of the page: the lesson open (where it is, see
//! [`LessonState`]), the library the menu lists, a trainer's course, a
//! lesson on its way or refused, a goal's figures.

use std::rc::Rc;

use workqueue_lessons::view::Figure;

use super::UiState;
use crate::lesson_state::{LessonState, PendingLesson};
use crate::lessons::{Library, Refusal};
use crate::notice::Notice;
use workqueue_lessons::view::LessonView;

/// What the lessons may be told.
pub enum LessonAction {
    /// Open lesson `index` at its first step.
    Start(usize),
    /// Go to a step of the current lesson (replaying its set-up).
    Step(usize),
    Exit,
    /// The clicker's next press (PageDown, `n`, the Next button), at this
    /// real instant (ms): the next visible thing (see [`Playground::next_press`]).
    Next(f64),
    /// A press made in an audience window, carried out in the presenter's
    /// (the audience window applied the double-press rule on its own clock).
    NextRemote(f64),
    /// The previous step, across lessons too (PageUp, `p`).
    Back,
    /// The lesson panel measured the step's narration: this many pages.
    NarrationPages(usize),
    /// What is typed in the prediction field.
    Draft(String),
    /// Record a prediction and show the core's answer, at this real instant (ms).
    Reveal(String, f64),
    /// Enter pressed in the prediction field with nothing typed: said to
    /// type first (the Reveal button shows the answer without a guess).
    EnterWithoutGuess,
    /// A lesson file to read and open at a step (from 1): an upload or a
    /// `?lesson-file=` path, with its text.
    OpenFile {
        file: String,
        text: String,
        step: usize,
    },
    /// The lesson worker sent a lesson back (with the file's text when it
    /// is not built in): redraw, and open the lesson that was waited for.
    Arrived(Box<LessonView>, Option<String>),
    /// The lesson worker checked a goal: the figures for (lesson, step).
    GoalFigures(usize, usize, Vec<Figure>),
    /// A trainer's lesson file was refused: say where, beside its text.
    Refused(Refusal),
    /// The lesson worker has answered `done` of the `total` steps of the
    /// file it is reading.
    Progress(usize, usize),
    /// Stop waiting for the lesson being read (the worker is stopped too).
    Cancel,
    DismissRefusal,
}

#[derive(Default)]
pub struct LessonsState {
    /// The lesson open, and where in it.
    pub(crate) current: Option<LessonState>,
    /// The lessons a trainer chose for the room (`?lessons=herd,provider`),
    /// in their order: the clicker goes from one to the next, and no other.
    pub(crate) course: Option<Rc<Vec<String>>>,
    /// A lesson asked for before the library arrived.
    pub(crate) pending: Option<PendingLesson>,
    /// A lesson file that was refused: shown beside its text.
    pub(crate) refused: Option<Refusal>,
    /// The lessons the menu lists, those arrived from the worker included.
    pub(crate) library: Library,
    /// The lesson worker's figures for a step's goal: (lesson, step, figures).
    pub(crate) goal_figures: Option<(usize, usize, Vec<Figure>)>,
    /// Bumped when the clicker opens the prediction field: the field takes
    /// focus (outside a workshop: a projector's field waits for a click, so
    /// the clicker's keys never type into it).
    pub(crate) focus_guess: u64,
}

impl LessonsState {
    /// Where the lesson open is: (lesson, step).
    pub(crate) fn at(&self) -> Option<(usize, usize)> {
        self.current.as_ref().map(|l| (l.index, l.step))
    }

    /// The lesson open (tests: one must be).
    #[cfg(test)]
    pub(crate) fn open(&self) -> &LessonState {
        self.current.as_ref().expect("a lesson is open")
    }

    /// The lessons' own transitions: each changes the lessons and, at most,
    /// what the page says of them. Returns whether anything on screen
    /// changed. (Moving through a lesson replays the run: those actions are
    /// coordinated by [`super::Playground::apply`] and never come here.)
    pub(crate) fn apply(&mut self, action: LessonAction, ui: &mut UiState) -> bool {
        match action {
            LessonAction::GoalFigures(index, step, figures) => {
                // The result closes the step's narration: where it is paged,
                // the reader is shown its page.
                if let Some(l) = self
                    .current
                    .as_mut()
                    .filter(|l| (l.index, l.step) == (index, step))
                {
                    l.visit.pages.go_to_end();
                }
                self.goal_figures = Some((index, step, figures));
            }
            LessonAction::DismissRefusal => self.refused = None,
            LessonAction::Exit => {
                self.current = None;
                self.pending = None;
            }
            LessonAction::Progress(done, total) => match &mut self.pending {
                Some(p) => p.progress = Some((done, total)),
                None => return false,
            },
            LessonAction::Cancel => {
                if let Some(p) = self.pending.take() {
                    ui.notice = Notice::info(format!("Stopped opening the lesson {}.", p.id));
                }
            }
            LessonAction::Draft(text) => {
                if let Some(l) = &mut self.current {
                    l.visit.draft = text;
                    l.visit.refused = None;
                }
            }
            // Coordinated across the page (see `state/apply.rs`).
            LessonAction::Start(_)
            | LessonAction::Step(_)
            | LessonAction::Next(_)
            | LessonAction::NextRemote(_)
            | LessonAction::Back
            | LessonAction::NarrationPages(_)
            | LessonAction::Reveal(..)
            | LessonAction::EnterWithoutGuess
            | LessonAction::OpenFile { .. }
            | LessonAction::Arrived(..)
            | LessonAction::Refused(_) => return false,
        }
        true
    }
}
