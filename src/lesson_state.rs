//! Where a lesson is, as plain data: the step, what was predicted and
//! answered there, what the clicker's next press does, and a lesson asked
//! for that has not arrived yet; and what the lesson panels show of it,
//! cheap to compare. (Moving through a lesson is `lesson_nav`.)

use std::ops::Deref;
use std::rc::Rc;

use workqueue_core::Outcome;
use workqueue_lessons::view::{Figure, LessonView};

/// Real time a step's scene plays before a clicker may leave it (ms), so
/// the room sees what the step is about.
pub const MIN_DWELL_MS: f64 = 2000.0;
/// Two presses closer than this are one (a clicker pressed twice by a
/// nervous hand).
pub const DOUBLE_PRESS_MS: f64 = 300.0;
/// How the hint to predict first begins (it goes once the prediction is made).
pub const PREDICT_FIRST: &str = "This step asks for a prediction first";

/// The narration's page on screen, of how many it takes where the panel
/// has a fixed height (workshop, embed): the panel measures and says, and
/// the clicker turns the pages before anything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pages {
    pub at: usize,
    pub of: usize,
    /// What was just added closes the narration (a goal's result): the
    /// page on screen is the last, however many the panel then measures.
    pub to_end: bool,
}

impl Default for Pages {
    fn default() -> Self {
        Pages {
            at: 0,
            of: 1,
            to_end: false,
        }
    }
}

impl Pages {
    /// Whether a page follows the one on screen.
    pub fn more(self) -> bool {
        self.at + 1 < self.of
    }

    /// The narration now takes `of` pages: the page on screen stays, or
    /// becomes the last there is.
    pub fn measured(&mut self, of: usize) {
        self.of = of.max(1);
        self.at = match self.to_end {
            true => self.of - 1,
            false => self.at.min(self.of - 1),
        };
    }

    /// Shows the last page, and keeps it shown as the panel measures again.
    pub fn go_to_end(&mut self) {
        self.at = self.of - 1;
        self.to_end = true;
    }

    /// The reader turned a page: the page on screen is theirs again. The
    /// last page stays the last however the panel measures next (a window
    /// resized or made full screen passes through other sizes): the
    /// question on it stays in view.
    pub fn turned(&mut self, at: usize) {
        self.at = at;
        self.to_end = at + 1 >= self.of;
    }

    /// The words of a button that turns the page. An audience window is
    /// told to turn when its presenter's (narrower) panel has more pages
    /// than its own: it counts only pages it has.
    pub fn read_on(self) -> String {
        match self.more() {
            true => format!("Read on ({}/{}) ↓", self.at + 2, self.of),
            false => "Read on ↓".to_string(),
        }
    }
}

/// One visit of a step: what the clicker and the panel know of the step
/// on screen. Entering a step, the visit starts afresh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Visit {
    /// What is typed in the prediction field, not yet revealed.
    pub draft: String,
    /// Why the draft was not taken as a prediction (`abc` for a count),
    /// said beside the field until the reader types again.
    pub refused: Option<String>,
    /// The clicker opened the prediction field at this step: the next press
    /// reveals, with the draft or without a guess.
    pub asked: bool,
    /// When (real ms) this step's scene started playing, if it did.
    pub played_at: Option<f64>,
    /// When (real ms) this step's answer was revealed, if it was.
    pub revealed_at: Option<f64>,
    pub pages: Pages,
    /// A press made while the step was still being shown (the dwell, or
    /// its wait not yet met): kept, with the real instant (ms) it has
    /// reached, and carried out once the step may go on.
    pub kept: Option<f64>,
    /// In an audience window: what the presenter's window said the next
    /// press does (it holds the workshop; this window only shows it).
    pub told: Option<PressFrom>,
    /// The run's instant where the step opened: stepping back stops there
    /// (before it is another step's scene, or none).
    pub start: workqueue_core::Instant,
}

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
    /// What the page knows of this visit of the step.
    pub visit: Visit,
    /// When (real ms) the clicker was last pressed: a second press right
    /// after it (a nervous double press) is the same press.
    pub pressed_at: Option<f64>,
}

/// What one press of the clicker does (the Next button says it in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Press {
    /// Turned the narration to its next page.
    Page,
    /// Opened the prediction field (a second press reveals).
    Asked,
    Revealed,
    /// Started the step's scene (or played on until what it waits for).
    Played,
    /// Made the decision the step waits for (its suggested choice), so a
    /// clicker never sticks on a step that waits for the room's decisions.
    Decided,
    /// The scene plays on toward what the step waits for: the press takes
    /// the core there at once (a press never waits on a long scene).
    Skipped,
    /// Too soon after the scene started: the room has not seen it yet.
    Dwelling,
    Moved,
    /// Nothing further: the last step of the last lesson.
    AtEnd,
}

impl Press {
    /// Its name in the page (`data-press` on the Next button).
    pub fn id(self) -> &'static str {
        match self {
            Press::Page => "page",
            Press::Asked => "asked",
            Press::Revealed => "revealed",
            Press::Played => "played",
            Press::Decided => "decided",
            Press::Skipped => "skipped",
            Press::Dwelling => "dwelling",
            Press::Moved => "moved",
            Press::AtEnd => "at-end",
        }
    }
}

/// What the clicker's next press does from an instant on: a dwell ends by
/// itself, so a view with a clock of its own (the presenter's) says what
/// the press does once it is over without asking the state again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PressFrom {
    /// The press at the instant it was asked.
    pub press: Press,
    /// While `press` is [`Press::Dwelling`]: when the dwell started (real
    /// ms, see [`LessonState::dwell_since`]) and the press once it is over.
    pub dwell: Option<(f64, Press)>,
}

impl PressFrom {
    /// The press at real instant `now_ms` (ms), by the dwell's own rule.
    pub fn at(&self, now_ms: f64) -> Press {
        match self.dwell {
            Some((since, then)) if now_ms - since >= MIN_DWELL_MS => then,
            _ => self.press,
        }
    }
}

impl LessonState {
    pub fn new(index: usize, step: usize, steps: usize) -> LessonState {
        LessonState {
            index,
            step,
            guesses: vec![None; steps],
            answers: vec![None; steps],
            visit: Visit::default(),
            pressed_at: None,
        }
    }

    /// A step was entered: what the clicker knew of the previous one goes.
    pub(crate) fn entered(&mut self, step: usize) {
        self.step = step;
        self.visit = Visit::default();
    }

    /// When the step's dwell started (real ms): the later of the scene's
    /// start and the reveal.
    pub fn dwell_since(&self) -> Option<f64> {
        [self.visit.played_at, self.visit.revealed_at]
            .into_iter()
            .flatten()
            .reduce(f64::max)
    }

    /// Whether a press at real instant `now_ms` is the same press as the
    /// one before (a nervous double press); if not, it is noted as the last.
    pub fn double_press(&mut self, now_ms: f64) -> bool {
        let double = self
            .pressed_at
            .is_some_and(|t| (0.0..DOUBLE_PRESS_MS).contains(&(now_ms - t)));
        if !double {
            self.pressed_at = Some(now_ms);
        }
        double
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
    pub fn reveal(&mut self, guess: String, now_ms: f64) {
        if let Some(g) = self.guesses.get_mut(self.step) {
            g.get_or_insert(guess);
        }
        self.visit.draft.clear();
        self.visit.refused = None;
        self.visit.asked = false;
        self.visit.revealed_at.get_or_insert(now_ms);
    }
}

/// A lesson asked for (by the menu, a link, the address or a file) that the
/// lesson worker has not sent yet: opened when it arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingLesson {
    pub id: String,
    /// From 1, as in `?step=` (`usize::MAX`: the last step).
    pub step: usize,
    /// Replays the step's set-up; a shared link keeps its own run.
    pub replay: bool,
    /// A file to read (its name and text), for a lesson that is not built in.
    pub source: Option<(String, String)>,
    /// Steps answered so far, of how many, while the worker reads it.
    pub progress: Option<(usize, usize)>,
    /// Which asking this is (the page's revision when it was asked): the
    /// worker is asked once per ticket, whatever else changes meanwhile.
    pub ticket: u64,
}

/// A read lesson, compared by identity: the library makes a new one only
/// when a lesson arrives, so its steps are never compared while rendering.
#[derive(Clone, Debug)]
pub struct ReadLesson(pub Rc<LessonView>);

impl PartialEq for ReadLesson {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for ReadLesson {
    type Target = LessonView;

    fn deref(&self) -> &LessonView {
        &self.0
    }
}

/// A lesson on its way from the lesson worker, as the lesson panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub id: String,
    /// Steps answered so far, of how many.
    pub progress: Option<(usize, usize)>,
    /// A file is being read (not a built-in lesson fetched).
    pub file: bool,
}

impl Opening {
    pub fn of(p: &PendingLesson) -> Opening {
        Opening {
            id: p.id.clone(),
            progress: p.progress,
            file: p.source.is_some(),
        }
    }

    /// The worker is reading it: it keeps the panel's place, over the open lesson.
    pub fn reading(&self) -> bool {
        self.file || self.progress.is_some()
    }
}

/// The open step as the lesson panel shows it: what the state says of it
/// beyond the lesson's own text (see `Playground::step_shown`).
#[derive(Clone, Debug, PartialEq)]
pub struct StepShown {
    pub lesson: ReadLesson,
    /// It waits for something that has not happened yet.
    pub waiting: bool,
    /// What the clicker's next press does now.
    pub press: Press,
    /// The outcome the step waits for, when the press decides it.
    pub decision: Option<Outcome>,
    /// Back has nowhere to go: the course's first page.
    pub at_start: bool,
    /// The course's last step, where Next's words say so.
    pub at_end: bool,
    /// The lesson worker's figures for this step's goal.
    pub figures: Option<Vec<Figure>>,
}

/// A question's count on the stage ([`crate::state::Playground::tally_shown`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TallyShown {
    pub label: String,
    /// The count now (at the question's instant once the run is past it);
    /// `None` until the room has guessed.
    pub value: Option<String>,
    /// The run is past the instant the question asks about.
    pub past: bool,
    /// Characters the count takes at most (the answer's).
    pub width: usize,
}

#[cfg(test)]
mod tests {
    use super::Pages;

    #[test]
    fn read_on_counts_only_pages_there_are() {
        let mut pages = Pages::default();
        pages.measured(3);
        assert_eq!(pages.read_on(), "Read on (2/3) ↓");
        pages.turned(1);
        assert_eq!(pages.read_on(), "Read on (3/3) ↓");
        // Told to turn past its last page (a presenter's narrower panel):
        // no "(4/3)", no "(2/1)".
        pages.turned(2);
        assert_eq!(pages.read_on(), "Read on ↓");
        assert_eq!(Pages::default().read_on(), "Read on ↓");
    }

    #[test]
    fn the_last_page_turned_to_stays_the_last_through_a_resize() {
        let mut pages = Pages::default();
        pages.measured(2);
        pages.turned(1);
        // Full screen: one page for a moment, then two again.
        pages.measured(1);
        pages.measured(2);
        assert_eq!((pages.at, pages.of), (1, 2));
        // A smaller window: more pages, still the last.
        pages.measured(3);
        assert_eq!((pages.at, pages.of), (2, 3));
        // A page before the last keeps its place, as far as there are pages.
        let mut early = Pages::default();
        early.measured(3);
        early.turned(1);
        early.measured(4);
        assert_eq!((early.at, early.of), (1, 4));
        // A step opens on its first page, however many it measures.
        let mut fresh = Pages::default();
        fresh.measured(3);
        assert_eq!(fresh.at, 0);
    }
}
