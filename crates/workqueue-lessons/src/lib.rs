//! # workqueue-lessons
//!
//! Lessons as files a trainer writes in a text editor: Markdown prose with
//! one ```` ```step ```` block of JSON per step ([`parse`]), set-ups in the
//! scenario files' own schema, and questions from a small vocabulary of
//! queries the core answers ([`query`]). The page, `wqsim lesson` and the
//! tests read the same files through the same code.
// What is `pub` is reachable from this root; the rest says `pub(crate)`.
#![warn(unreachable_pub)]

pub mod cost;
pub mod layout;
pub mod model;
pub mod parse;
pub mod query;
mod scene;
pub mod storm;
pub mod tally;
pub mod view;

pub use model::{Act, Focus, Lane, Lesson, LessonError, Setup, Show, Step, Wait};
pub use parse::{lesson, lesson_or_mistakes};
pub use query::{
    check, is_time, negative, readable_guess, same_answer, Condition, Goal, Query, Question, Value,
};

/// Both lists of the built-in lessons from one: their ids, and their
/// files as the build read them.
macro_rules! built_in {
    ($($id:literal),* $(,)?) => {
        /// The built-in lessons (`lessons/<id>.md`), in the menu's order.
        pub const BUILT_IN: [&str; 10] = [$($id),*];
        /// The built-in lessons' files, read at build time, for tools and
        /// tests that read them in place (the page fetches them instead).
        pub const BUILT_IN_FILES: [(&str, &str); 10] = [$(
            ($id, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../lessons/", $id, ".md")))
        ),*];
    };
}

built_in!(
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
);
