//! What a reader's prediction may be: a guess for a number or a time reads
//! as one (`abc` for a count is a slip, and is said to be).

use crate::state::Playground;

/// Said where Enter is pressed in the prediction field with nothing typed.
const TYPE_FIRST: &str =
    "Type what you expect first, then press Enter (Reveal shows the answer without a guess).";

impl Playground {
    /// Enter in the prediction field with nothing typed: a slip (the
    /// reader thought a button had the keyboard), said beside the field,
    /// which keeps the keyboard.
    pub(crate) fn enter_without_guess(&mut self) {
        if let Some(l) = &mut self.lessons.current {
            l.visit.refused = Some(TYPE_FIRST.to_string());
            self.lessons.focus_guess += 1;
        }
    }

    /// Why `guess` cannot be compared with the open step's answer (`abc`
    /// for a count), in the reader's words; `None` where it can, or where
    /// there is no guess (the answer is then shown alone).
    pub(crate) fn unreadable_guess(&self, guess: &str) -> Option<String> {
        let l = self.lessons.current.as_ref()?;
        let answer = l.answers.get(l.step)?.as_ref()?;
        if workqueue_lessons::readable_guess(guess, answer) {
            return None;
        }
        let (time, shown) = (
            workqueue_lessons::is_time(answer),
            workqueue_core::shown(guess.trim()),
        );
        if workqueue_lessons::negative(guess.trim()) {
            let what = if time { "a time" } else { "a count" };
            return Some(format!(
                "\u{201c}{shown}\u{201d} is below zero, and the answer is {what}: type what you expect, or press Reveal with the field empty to see the answer."
            ));
        }
        let example = if time {
            "a time, for example 1.5s"
        } else {
            "a number, for example 6"
        };
        Some(format!(
            "\u{201c}{shown}\u{201d} is not a prediction this step can check: type {example}, or press Reveal with the field empty to see the answer.",
        ))
    }
}
