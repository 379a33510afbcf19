//! Lessons from files: a trainer's file asked for, arrived or refused, and
//! an exercise's settings kept on its own keys.

use workqueue_core::Instant;

use crate::lessons;
use crate::notice::Notice;
use crate::state::Playground;

impl Playground {
    /// A trainer's file (an upload, a `?lesson-file=` path): the lesson
    /// worker reads it, and it opens at `step` (from 1) when it arrives.
    pub(crate) fn open_lesson_file(&mut self, file: String, text: String, step: usize) {
        self.lessons.pending = Some(crate::lesson_state::PendingLesson {
            id: workqueue_lessons::parse::id_of(&file),
            step,
            replay: true,
            source: Some((file, text)),
            progress: None,
            ticket: self.rev,
        });
        self.resolve_pending_lesson();
    }

    /// The lesson worker sent a lesson: into the library, and open it if it
    /// was waited for.
    pub(crate) fn lesson_arrived(
        &mut self,
        lesson: workqueue_lessons::view::LessonView,
        source: Option<String>,
    ) {
        // Its text has been read: what waits for it now opens it.
        if let Some(p) = self.lessons.pending.as_mut().filter(|p| p.id == lesson.id) {
            p.source = None;
        }
        self.lessons.library.arrived(lesson, source);
        self.lessons.refused = None;
        self.resolve_pending_lesson();
    }

    /// A refused file: said in the notice, and shown beside its lines.
    pub(crate) fn lesson_refused(&mut self, refusal: lessons::Refusal) {
        let more = match refusal.mistakes.len() {
            0 | 1 => String::new(),
            n => format!(" (and {} more, listed beside the file)", n - 1),
        };
        if let Some(m) = refusal.mistakes.first() {
            self.ui.notice = Notice::error(format!(
                "The lesson {} was refused: line {}: {}: {}{more}",
                refusal.file, m.line, m.field, m.reason
            ));
        }
        self.lessons.pending = None;
        self.lessons.refused = Some(refusal);
    }

    /// Whether the open step is an exercise (a goal for the settings).
    pub(crate) fn in_exercise(&self) -> bool {
        self.lessons.current.as_ref().is_some_and(|ls| {
            self.lessons
                .library
                .get(ls.index)
                .is_some_and(|l| l.steps.get(ls.step).is_some_and(|s| s.goal.is_some()))
        })
    }

    /// New settings during an exercise: the exercise stays open, and the
    /// learner's settings run on the step's own keys, ready to be checked.
    pub(crate) fn keep_exercise(&self, fresh: &mut Playground) {
        let Some(ls) = self.lessons.current.clone() else {
            return;
        };
        let Some(lesson) = self.lessons.library.get(ls.index) else {
            return;
        };
        if !self.in_exercise() {
            return;
        }
        let Some(setup) = lessons::setup_for(&lesson, ls.step) else {
            return;
        };
        for (_, input) in setup
            .run
            .inputs
            .into_iter()
            .filter(|(at, _)| *at == Instant::T0)
        {
            let _ = fresh.run.timeline.record(input);
        }
        fresh.run.playback.idle = false;
        fresh.lessons.current = Some(ls);
        fresh.ui.notice =
            Notice::info("New settings applied to the exercise's keys: press Check my settings.");
    }
}
