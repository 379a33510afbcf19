//! What a reader's prediction may be: a guess for a number or a time reads
//! as one (`abc` for a count is a slip, and is said to be).

use crate::state::Playground;

impl Playground {
    /// Why `guess` cannot be compared with the open step's answer (`abc`
    /// for a count), in the reader's words; `None` where it can, or where
    /// there is no guess (the answer is then shown alone).
    pub fn unreadable_guess(&self, guess: &str) -> Option<String> {
        let l = self.lesson.as_ref()?;
        let answer = l.answers.get(l.step)?.as_ref()?;
        if workqueue_lessons::readable_guess(guess, answer) {
            return None;
        }
        let (time, shown) = (
            workqueue_lessons::is_time(answer),
            workqueue_core::shown(guess.trim()),
        );
        if workqueue_lessons::negative(guess.trim()) {
            return Some(format!(
                "\u{201c}{shown}\u{201d} is below zero, and what this step asks about never is: type what you expect, or clear the field to see the answer."
            ));
        }
        let example = if time {
            "a time, for example 1.5s"
        } else {
            "a number, for example 6"
        };
        Some(format!(
            "\u{201c}{shown}\u{201d} is not a prediction this step can check: type {example}, or clear the field to see the answer.",
        ))
    }
}
