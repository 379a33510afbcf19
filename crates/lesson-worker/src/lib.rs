//! The lesson engine behind the page: it reads lesson files (Markdown and
//! step blocks), answers every question with the core, and checks goals on
//! the learner's runs; and it reads a controller's Go set-up into a
//! scenario (`workqueue-go`), off the page's thread too. It runs in a web worker, so the reader and a second
//! copy of the core load only when a lesson opens, and answers are computed
//! off the page's thread. Requests and replies are JSON
//! ([`workqueue_lessons::view::Request`], [`workqueue_lessons::view::Reply`]).

use workqueue_core::{Instant, Scenario};
use workqueue_lessons::parse::id_of;
use workqueue_lessons::view::{view_with, Figure, Reply, Request};
use workqueue_lessons::{check, lesson_or_mistakes, Lesson, Setup};

/// Work a learner's run may take to check a goal (a worker can afford more
/// than a frame, but not for ever).
pub const CHECK_BUDGET: u64 = 50_000_000;

/// What the worker says once it listens.
pub const READY: &str = "ready";

/// The lessons read so far, by id.
#[derive(Default)]
pub struct Library {
    lessons: Vec<Lesson>,
}

impl Library {
    /// Answers one request (JSON in, JSON out).
    pub fn respond(&mut self, request: &str) -> String {
        self.respond_with(request, |_| {})
    }

    /// [`Library::respond`], handing `progress` a [`Reply::Progress`] (as
    /// JSON) after each step of a lesson being read.
    pub fn respond_with(&mut self, request: &str, mut progress: impl FnMut(&str)) -> String {
        let reply = match serde_json::from_str::<Request>(request) {
            Ok(Request::Open { seq, file, text }) => {
                self.open(seq, &file, &text, &mut |done, total| {
                    let p = Reply::Progress { seq, done, total };
                    progress(&serde_json::to_string(&p).unwrap_or_default());
                })
            }
            Ok(Request::Check {
                seq,
                id,
                step,
                scenario,
            }) => self.check(seq, &id, step, &scenario),
            Ok(Request::ImportGo { seq, files }) => match workqueue_go::import(&files) {
                Ok(got) => Reply::Imported {
                    seq,
                    scenario: got.scenario.to_json(),
                    taken: got.taken.iter().map(ToString::to_string).collect(),
                    unread: got.unread.iter().map(ToString::to_string).collect(),
                },
                Err(e) => Reply::Failed {
                    seq,
                    reason: e.to_string(),
                },
            },
            Err(e) => Reply::Failed {
                seq: 0,
                reason: format!("not a request: {e}"),
            },
        };
        serde_json::to_string(&reply).unwrap_or_default()
    }

    fn open(
        &mut self,
        seq: u64,
        file: &str,
        text: &str,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Reply {
        match lesson_or_mistakes(&id_of(file), text) {
            Ok(l) => {
                let shown = view_with(&l, progress);
                self.lessons.retain(|x| x.id != l.id);
                self.lessons.push(l);
                Reply::Lesson { seq, lesson: shown }
            }
            Err(mistakes) => Reply::Refused {
                seq,
                file: file.to_string(),
                mistakes,
            },
        }
    }

    fn check(&self, seq: u64, id: &str, step: usize, scenario: &str) -> Reply {
        let failed = |reason: String| Reply::Failed { seq, reason };
        let Some(l) = self.lessons.iter().find(|l| l.id == id) else {
            return failed(format!("no lesson {id:?} was opened"));
        };
        let Some(goal) = l.steps.get(step).and_then(|s| s.goal.as_ref()) else {
            return failed(format!("step {} sets no goal", step + 1));
        };
        let scenario = match Scenario::from_json(scenario) {
            Ok(s) => s,
            Err(e) => return failed(e.to_string()),
        };
        let setup = Setup {
            scenario,
            inputs: l
                .setup_for(step)
                .map(|s| s.inputs.clone())
                .unwrap_or_default(),
            run_to: Instant::T0,
        };
        let scene = match setup.scene_within(CHECK_BUDGET) {
            Ok(scene) => scene,
            Err(e) => return failed(e),
        };
        let figures = goal
            .conditions
            .iter()
            .zip(check(goal, &scene))
            .map(|(c, (value, met))| Figure {
                text: match value {
                    Ok(v) => {
                        let bounds: Vec<String> = [
                            ("at most", c.at_most.map(|b| b.value())),
                            ("at least", c.at_least.map(|b| b.value())),
                        ]
                        .into_iter()
                        .filter_map(|(word, b)| b.map(|b| format!("{word} {}", v.like(b).text())))
                        .collect();
                        format!("{} ({})", v.text(), bounds.join(", "))
                    }
                    Err(e) => e,
                },
                met,
            })
            .collect();
        Reply::Figures { seq, figures }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request to open `text` as `file`, numbered `seq`.
    fn open_request(seq: u64, file: &str, text: &str) -> String {
        serde_json::to_string(&Request::Open {
            seq,
            file: file.into(),
            text: text.into(),
        })
        .unwrap()
    }

    fn open(lib: &mut Library, file: &str, text: &str) -> Reply {
        serde_json::from_str(&lib.respond(&open_request(7, file, text))).unwrap()
    }

    /// The built-in herd lesson's file.
    fn herd() -> String {
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../lessons/herd.md"
        ))
        .unwrap()
    }

    #[test]
    fn a_lesson_comes_back_answered_and_a_goal_is_checked() {
        let mut lib = Library::default();
        let Reply::Lesson { seq: 7, lesson } = open(&mut lib, "lessons/herd.md", &herd()) else {
            panic!("the herd lesson opens")
        };
        assert_eq!(lesson.id, "herd");
        assert_eq!(lesson.steps[0].question.as_ref().unwrap().answer, "70,000");
        let step = lesson.steps.iter().position(|s| s.goal.is_some()).unwrap();
        let setup: serde_json::Value =
            serde_json::from_str(lesson.steps[step].setup.as_ref().unwrap()).unwrap();
        let scenario = setup["scenario"].to_string();
        let request = serde_json::to_string(&Request::Check {
            seq: 8,
            id: "herd".into(),
            step,
            scenario,
        })
        .unwrap();
        let Reply::Figures { seq: 8, figures } =
            serde_json::from_str(&lib.respond(&request)).unwrap()
        else {
            panic!("figures")
        };
        assert_eq!(figures.len(), 2);
        assert!(
            figures[0].text.contains("(at most t=40s)") && !figures[0].met,
            "{figures:?}"
        );
        assert!(figures[1].met, "{figures:?}");
    }

    #[test]
    fn a_refusal_names_the_file_line_and_field_of_every_mistake() {
        let mut lib = Library::default();
        let reply = open(
            &mut lib,
            "mine.md",
            "# T\n\n## S\n\n```step\n{\"focus\": {\"lanes\": [\"nowhere\"]}}\n```\n\n## U\n\n```step\n{\"focus\": {\"lanes\": []}}\n```\n",
        );
        let Reply::Refused { file, mistakes, .. } = reply else {
            panic!("{reply:?}")
        };
        assert_eq!(file, "mine.md");
        let found: Vec<_> = mistakes
            .iter()
            .map(|e| (e.line, e.field.as_str()))
            .collect();
        assert_eq!(
            found,
            [(6, "focus.lanes[0]"), (12, "focus.lanes")],
            "{mistakes:?}"
        );
        let reply: Reply = serde_json::from_str(&lib.respond("nonsense")).unwrap();
        assert!(matches!(reply, Reply::Failed { .. }));
    }

    /// A lesson being read says how far it is, step by step, before its
    /// answer comes.
    #[test]
    fn reading_a_lesson_reports_its_progress_step_by_step() {
        let mut lib = Library::default();
        let request = open_request(4, "herd.md", &herd());
        let mut seen = Vec::new();
        let last = lib.respond_with(&request, |p| {
            seen.push(serde_json::from_str::<Reply>(p).unwrap())
        });
        let expected: Vec<Reply> = (1..=5)
            .map(|done| Reply::Progress {
                seq: 4,
                done,
                total: 5,
            })
            .collect();
        assert_eq!(seen, expected);
        assert!(matches!(
            serde_json::from_str::<Reply>(&last).unwrap(),
            Reply::Lesson { seq: 4, .. }
        ));
    }
}
