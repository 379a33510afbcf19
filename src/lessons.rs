//! The lesson library. Lessons are files: the built-in ones beside the page
//! (`lessons/<id>.md`), a trainer's from an upload, a same-origin path or a
//! link. The lesson worker reads them and answers their questions; the page
//! holds what it sent back (`LessonView`), so the reader is not part of
//! the page's first load. Natively (tests, tools) the same code runs in
//! place of the worker.

use std::rc::Rc;

use workqueue_lessons::view::LessonView;
use workqueue_lessons::{Act, BUILT_IN};

/// The built-in lessons' titles, for the menu before any lesson is read
/// (a test checks them against the files).
pub const BUILT_IN_TITLES: [&str; 10] = [
    "1. Three sets and deduplication",
    "2. Requeue, RequeueAfter and errors",
    "3. Per-item backoff and the first second",
    "4. The token bucket and 10,000 failing keys",
    "5. Max-of: who wins?",
    "6. Forget, Done, and giving up",
    "7. Fast/slow and with-max-wait",
    "8. Crossplane's two layers, then and now",
    "9. What changed in controller-runtime v0.23",
    "10. One provider, three kinds",
];

/// One entry of the library: the menu knows it before it is read.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub id: String,
    pub title: String,
    /// Read and answered (by the worker); `None` until then.
    pub lesson: Option<Rc<LessonView>>,
    /// The file's text for a lesson that is not built in: links carry it.
    pub source: Option<String>,
}

/// The lessons the menu lists, in order: the built-in ones, then those
/// loaded. A value in the page's state: a lesson arriving makes a new one.
#[derive(Clone, Debug)]
pub struct Library(Rc<Vec<Entry>>);

impl PartialEq for Library {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Default for Library {
    fn default() -> Self {
        Library(Rc::new(initial()))
    }
}

impl Library {
    /// Every entry, in the menu's order.
    pub fn entries(&self) -> &[Entry] {
        &self.0
    }

    /// The read lesson at `index`, if it has arrived.
    pub fn get(&self, index: usize) -> Option<Rc<LessonView>> {
        self.0.get(index).and_then(|e| e.lesson.clone())
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.0.iter().position(|e| e.id == id)
    }

    /// A lesson arrived from the worker: stored under its id (a trainer
    /// reloading the file they edit replaces it). Returns its index.
    pub fn arrived(&mut self, lesson: LessonView, source: Option<String>) -> usize {
        let all = Rc::make_mut(&mut self.0);
        let entry = Entry {
            id: lesson.id.clone(),
            title: lesson.title.clone(),
            source: source.filter(|_| !is_built_in(&lesson.id)),
            lesson: Some(Rc::new(lesson)),
        };
        match all.iter().position(|e| e.id == entry.id) {
            Some(i) => {
                all[i] = entry;
                i
            }
            None => {
                all.push(entry);
                all.len() - 1
            }
        }
    }

    /// The file of a lesson that is not built in, as loaded.
    pub fn source(&self, id: &str) -> Option<String> {
        self.0
            .iter()
            .find(|e| e.id == id)
            .and_then(|e| e.source.clone())
    }
}

fn initial() -> Vec<Entry> {
    BUILT_IN
        .iter()
        .zip(BUILT_IN_TITLES)
        .map(|(id, title)| Entry {
            id: id.to_string(),
            title: title.to_string(),
            lesson: built_in_natively(id).map(Rc::new),
            source: None,
        })
        .collect()
}

/// Natively the built-in files are read at build time and answered in
/// place: the tests walk lessons without a worker.
#[cfg(not(target_arch = "wasm32"))]
fn built_in_natively(id: &str) -> Option<LessonView> {
    // Read once per process: every fresh page state starts from them.
    static READ: std::sync::OnceLock<Vec<(&str, LessonView)>> = std::sync::OnceLock::new();
    let read = READ.get_or_init(|| {
        workqueue_lessons::BUILT_IN_FILES
            .iter()
            .map(|(id, text)| {
                let lesson = workqueue_lessons::lesson(id, text).expect("a built-in lesson reads");
                (*id, workqueue_lessons::view::view(&lesson))
            })
            .collect()
    });
    read.iter().find(|(i, _)| *i == id).map(|(_, v)| v.clone())
}

#[cfg(target_arch = "wasm32")]
fn built_in_natively(_: &str) -> Option<LessonView> {
    None
}

/// Whether `id` names a built-in lesson (whose text a link need not carry).
pub fn is_built_in(id: &str) -> bool {
    BUILT_IN.contains(&id)
}

/// The set-up step `step` plays (its own, or the nearest before it), read
/// as a link's state is: its scenario, inputs at their instants, instant.
pub fn setup_for(lesson: &LessonView, step: usize) -> Option<crate::share::Shared> {
    let text = lesson
        .steps
        .get(..=step)?
        .iter()
        .rev()
        .find_map(|s| s.setup.as_ref())?;
    crate::share::read(text).ok()
}

/// What step `step` asks to be done, if anything.
pub fn act(lesson: &LessonView, step: usize) -> Option<Act> {
    let text = lesson.steps.get(step)?.act.as_ref()?;
    crate::share::read_document(text).ok()
}

/// The answer to step `step`'s question, as the worker computed it.
pub fn answer(lesson: &LessonView, step: usize) -> Option<String> {
    lesson
        .steps
        .get(step)?
        .question
        .as_ref()
        .map(|q| q.answer.clone())
}

/// A lesson's title as the lesson panel shows it: in a course of the
/// trainer's choosing, without the library's number ("5. Max-of…" as the
/// second of three read "lesson 2 of 3" beside a 5).
pub fn course_title(title: &str, in_course: bool) -> String {
    let numbered = title
        .split_once(". ")
        .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    match numbered {
        Some((_, rest)) if in_course => rest.to_string(),
        _ => title.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_course_drops_the_library_s_number_and_nothing_else() {
        assert_eq!(
            course_title("5. Max-of: the larger delay wins", true),
            "Max-of: the larger delay wins"
        );
        assert_eq!(
            course_title("5. Max-of: the larger delay wins", false),
            "5. Max-of: the larger delay wins"
        );
        assert_eq!(
            course_title("v0.23. What changed", true),
            "v0.23. What changed"
        );
        assert_eq!(
            course_title("A trainer's lesson. Part 2", true),
            "A trainer's lesson. Part 2"
        );
        assert_eq!(course_title("12. Twelve", true), "Twelve");
    }

    /// The menu's titles are the files' own, and every built-in step shows
    /// something its scene has.
    #[test]
    fn the_menu_and_the_files_agree() {
        for (i, e) in Library::default().entries().iter().enumerate() {
            let l = e.lesson.as_ref().expect("read natively");
            assert_eq!(l.title, BUILT_IN_TITLES[i], "{}", e.id);
            for (n, s) in l.steps.iter().enumerate() {
                assert!(!s.focus.lanes.is_empty(), "{}/{}", e.id, n + 1);
                assert!(setup_for(l, n).is_some(), "{}/{} has a scene", e.id, n + 1);
            }
        }
    }
}

/// A refused lesson file: its name, and each mistake with the lines around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub file: String,
    pub mistakes: Vec<Mistake>,
}

/// One mistake of a refused file, where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    pub line: usize,
    pub field: String,
    pub reason: String,
    /// (line number, text) around the refused line.
    pub excerpt: Vec<(usize, String)>,
}

impl Refusal {
    pub fn new(file: &str, text: &str, mistakes: Vec<workqueue_lessons::LessonError>) -> Refusal {
        let lines: Vec<&str> = text.lines().collect();
        let mistakes = mistakes
            .into_iter()
            .map(|e| {
                let from = e.line.saturating_sub(3).max(1);
                let excerpt = lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (i + 1, l.chars().take(200).collect()))
                    .skip(from - 1)
                    .take(5)
                    .collect();
                Mistake {
                    line: e.line,
                    field: e.field,
                    reason: e.reason,
                    excerpt,
                }
            })
            .collect();
        Refusal {
            file: file.to_string(),
            mistakes,
        }
    }
}
