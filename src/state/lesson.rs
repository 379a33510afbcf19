//! The lessons' slice of the page: the lesson open (where it is, see
//! [`LessonState`]), the library the menu lists, a trainer's course, a
//! lesson on its way or refused, a goal's figures.

use std::rc::Rc;

use workqueue_lessons::view::Figure;

use crate::lesson_state::{LessonState, PendingLesson};
use crate::lessons::{Library, Refusal};

#[derive(Default)]
pub struct LessonsState {
    /// The lesson open, and where in it.
    pub current: Option<LessonState>,
    /// The lessons a trainer chose for the room (`?lessons=herd,provider`),
    /// in their order: the clicker goes from one to the next, and no other.
    pub course: Option<Rc<Vec<String>>>,
    /// A lesson asked for before the library arrived.
    pub pending: Option<PendingLesson>,
    /// A lesson file that was refused: shown beside its text.
    pub refused: Option<Refusal>,
    /// The lessons the menu lists, those arrived from the worker included.
    pub library: Library,
    /// The lesson worker's figures for a step's goal: (lesson, step, figures).
    pub goal_figures: Option<(usize, usize, Vec<Figure>)>,
    /// Bumped when the clicker opens the prediction field: the field takes
    /// focus (outside a workshop: a projector's field waits for a click, so
    /// the clicker's keys never type into it).
    pub focus_guess: u64,
}
