//! The lesson library: the built-in lessons (static files in `lessons/`,
//! fetched when the page starts, so their text is not in the wasm) and any
//! lesson a trainer loads from a file, a same-origin path or a link. Lessons
//! are read by `workqueue-lessons`, the same code `wqsim lesson` runs.

use std::cell::RefCell;
use std::rc::Rc;

pub use workqueue_lessons::{same_answer, Focus, Lane, Lesson, LessonError, Setup, Show, Step};

/// The built-in lessons, in the menu's order (`lessons/index.txt`).
pub const BUILT_IN: [&str; 10] = [
    "sets",
    "results",
    "backoff",
    "herd",
    "max-of",
    "forget-done",
    "fast-slow",
    "crossplane",
    "v023",
    "provider",
];

thread_local! {
    /// Append-only, so a lesson's index stays its own.
    static LIBRARY: RefCell<Rc<Vec<Lesson>>> = RefCell::new(Rc::new(initial()));
    /// The files of lessons that are not built in, by id: a share link
    /// carries them.
    static SOURCES: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
    /// Whether the built-in lessons are in (natively they always are).
    static LOADED: std::cell::Cell<bool> = const { std::cell::Cell::new(!cfg!(target_arch = "wasm32")) };
}

/// Whether the built-in lessons have arrived: until then a lesson asked for
/// by id is waited for, not refused.
pub fn loaded() -> bool {
    LOADED.with(|l| l.get())
}

/// The built-in lessons arrived (the page fetched them, in menu order).
pub fn built_ins_arrived(lessons: Vec<Lesson>) {
    add(lessons);
    LOADED.with(|l| l.set(true));
}

/// Reads a trainer's lesson file and adds it, keeping its text for links.
pub fn load(file_name: &str, text: &str) -> Result<usize, LessonError> {
    let id = id_of(file_name);
    let lesson = workqueue_lessons::lesson(&id, text)?;
    SOURCES.with(|s| {
        let mut s = s.borrow_mut();
        s.retain(|(i, _)| *i != id);
        s.push((id, text.to_string()));
    });
    Ok(add(vec![lesson])[0])
}

/// The file of a lesson that is not built in, as loaded.
pub fn source(id: &str) -> Option<String> {
    SOURCES.with(|s| s.borrow().iter().find(|(i, _)| i == id).map(|(_, t)| t.clone()))
}

/// Natively (tests, tools) the built-in files are read at build time; the
/// page fetches them instead.
#[cfg(not(target_arch = "wasm32"))]
fn initial() -> Vec<Lesson> {
    macro_rules! file {
        ($id:literal) => {
            ($id, include_str!(concat!("../lessons/", $id, ".md")))
        };
    }
    let files = [
        file!("sets"),
        file!("results"),
        file!("backoff"),
        file!("herd"),
        file!("max-of"),
        file!("forget-done"),
        file!("fast-slow"),
        file!("crossplane"),
        file!("v023"),
        file!("provider"),
    ];
    files
        .iter()
        .map(|(id, text)| workqueue_lessons::lesson(id, text).expect("a built-in lesson reads"))
        .collect()
}

#[cfg(target_arch = "wasm32")]
fn initial() -> Vec<Lesson> {
    Vec::new()
}

/// Every lesson loaded so far, in order.
pub fn all() -> Rc<Vec<Lesson>> {
    LIBRARY.with(|l| l.borrow().clone())
}

/// Adds lessons; one with the id of a loaded lesson replaces it (a trainer
/// reloading the file they edit). Returns each one's index.
pub fn add(lessons: Vec<Lesson>) -> Vec<usize> {
    LIBRARY.with(|l| {
        let mut all = (**l.borrow()).clone();
        let indices = lessons
            .into_iter()
            .map(|lesson| match all.iter().position(|x| x.id == lesson.id) {
                Some(i) => {
                    all[i] = lesson;
                    i
                }
                None => {
                    all.push(lesson);
                    all.len() - 1
                }
            })
            .collect();
        *l.borrow_mut() = Rc::new(all);
        indices
    })
}

pub fn find(id: &str) -> Option<(usize, Lesson)> {
    all().iter().cloned().enumerate().find(|(_, l)| l.id == id)
}

/// Whether `id` names a built-in lesson (whose text a link need not carry).
pub fn is_built_in(id: &str) -> bool {
    BUILT_IN.contains(&id)
}

/// A lesson's id from its file's name: `lessons/mine.md` is `mine`.
pub fn id_of(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let stem = base.strip_suffix(".md").unwrap_or(base);
    let id: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .take(64)
        .collect();
    if id.is_empty() {
        "lesson".into()
    } else {
        id
    }
}

/// The answer to step `step` of lesson `lesson`, as the page shows it.
pub fn answer(lesson: &Lesson, step: usize) -> Option<String> {
    lesson.answer(step).map(|a| match a {
        Ok(value) => value.text(),
        Err(e) => format!("(the core could not answer: {e})"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stage can show what each built-in step is about: every focus
    /// names lanes the stage has, and a focused key is one its scene holds
    /// or that the step adds.
    #[test]
    fn every_built_in_step_focuses_something_its_scene_has() {
        let all = all();
        assert_eq!(all.len(), BUILT_IN.len());
        for (l, id) in all.iter().zip(BUILT_IN) {
            assert_eq!(l.id, id);
            for (i, s) in l.steps.iter().enumerate() {
                assert!(!s.focus.lanes.is_empty(), "{id}/{}", i + 1);
                let Some(key) = &s.focus.key else { continue };
                let scene = l.setup_for(i).unwrap().scene().unwrap();
                let added_by_act = s.act.iter().flat_map(|a| &a.inputs).any(|input| {
                    matches!(input, workqueue_core::Input::Add { key: k } if k == key)
                });
                let known = scene.controllers().any(|(_, c)| c.find(key).is_some());
                assert!(known || added_by_act, "{id}/{}: {key} is not in the scene", i + 1);
            }
        }
    }

    #[test]
    fn ids_come_from_file_names() {
        assert_eq!(id_of("lessons/mine.md"), "mine");
        assert_eq!(id_of("C:\\x\\Our Provider.md"), "Our-Provider");
        assert_eq!(id_of(".md"), "lesson");
    }
}
