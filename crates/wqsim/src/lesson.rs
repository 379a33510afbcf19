//! `wqsim lesson FILE.md...`: reads each lesson file as the page does,
//! prints one line per question (`answer <lesson>/<step>: <value> <unit>`)
//! and one per exercise (its goal, checked on the step's own set-up), and
//! fails if any file is refused or a question cannot be answered.
//!
//! `wqsim lesson --views DIR FILE.md...` also writes each lesson as the page
//! shows it (`DIR/<id>.json`, the lesson worker's reply): the build ships
//! the built-in lessons read and answered, so a visit that opens one never
//! loads the worker's second copy of the core.

use std::process::ExitCode;

use crate::run::shown;

use workqueue_lessons::parse::{id_of, text_of, too_large, MAX_FILE_BYTES};
use workqueue_lessons::view::{view, Reply};
use workqueue_lessons::{check, lesson_or_mistakes, Lesson};

pub fn main(args: &[String]) -> ExitCode {
    let (views, files) = match args {
        [flag, dir, rest @ ..] if flag == "--views" => (Some(dir.as_str()), rest),
        _ => (None, args),
    };
    if files.is_empty() {
        eprintln!("usage: wqsim lesson [--views DIR] FILE.md...");
        return ExitCode::from(2);
    }
    if let Some(dir) = views {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("cannot write {dir}: {e}");
            return ExitCode::from(2);
        }
    }
    let mut worst = 0u8;
    for path in files {
        // The size first: a file too large is refused before it is read.
        let size = std::fs::metadata(path).map(|m| m.len());
        let read = match size {
            Ok(n) if n > MAX_FILE_BYTES as u64 => Ok(Err(vec![too_large(n as usize)])),
            _ => std::fs::read(path).map(|bytes| {
                text_of(&bytes)
                    .map_err(|e| vec![e])
                    .and_then(|text| lesson_or_mistakes(&id_of(path), text))
            }),
        };
        let code = match read {
            Ok(Ok(l)) => report(path, &l).max(views.map_or(0, |dir| write_view(dir, &l))),
            Ok(Err(mistakes)) => {
                for e in mistakes {
                    eprintln!("{}", shown(&format!("{path}: {e}")));
                }
                1
            }
            Err(e) => {
                eprintln!("cannot read {}: {e}", shown(path));
                2
            }
        };
        worst = worst.max(code);
    }
    ExitCode::from(worst)
}

/// Prints a lesson's answers and goals; 1 if the core could not answer one.
/// (A step no screen can show is refused when the file is read.)
fn report(path: &str, l: &Lesson) -> u8 {
    let mut code = 0;

    for (i, step) in l.steps.iter().enumerate() {
        let at = format!("{}/{}", l.id, i + 1);
        if let Some(q) = &step.question {
            match l.answer(i) {
                Some(Ok(v)) => println!(
                    "{}",
                    shown(format!("answer {at}: {} {}", v.text(), q.unit).trim_end())
                ),
                Some(Err(e)) => {
                    eprintln!(
                        "{}",
                        shown(&format!(
                            "{path}: line {}: question: the core cannot answer it: {e}",
                            step.line
                        ))
                    );
                    code = 1;
                }
                None => {}
            }
        }
        if let Some(goal) = &step.goal {
            let scene = l
                .setup_for(i)
                .map(|s| s.scene_within(workqueue_lessons::query::STEP_BUDGET));
            let Some(Ok(scene)) = scene else {
                eprintln!(
                    "{path}: line {}: goal: the step has no scene to check",
                    step.line
                );
                code = 1;
                continue;
            };
            let figures = check(goal, &scene);
            let met = figures.iter().all(|(_, m)| *m);
            let figures_said: Vec<String> = figures
                .iter()
                .map(|(v, _)| match v {
                    Ok(v) => v.text(),
                    Err(e) => e.clone(),
                })
                .collect();
            println!(
                "{}",
                shown(&format!(
                    "goal {at}: {}: {} with the step's own set-up ({})",
                    goal.describe,
                    if met { "met" } else { "not met" },
                    figures_said.join(", ")
                ))
            );
        }
    }
    // Speaker notes are for the presenter's window: a trainer sees at once
    // which steps still have none.
    let bare: Vec<String> = (1..=l.steps.len())
        .filter(|i| l.steps[i - 1].notes.is_empty())
        .map(|i| i.to_string())
        .collect();
    println!(
        "notes {}: {} of {} steps{}",
        shown(&l.id),
        l.steps.len() - bare.len(),
        l.steps.len(),
        if bare.is_empty() {
            String::new()
        } else {
            format!(" (none at step {})", bare.join(", "))
        }
    );
    code
}

/// Writes the lesson as the worker would send it to the page.
fn write_view(dir: &str, l: &Lesson) -> u8 {
    let reply = Reply::Lesson {
        seq: 0,
        lesson: view(l),
    };
    let path = std::path::Path::new(dir).join(format!("{}.json", l.id));
    let written = serde_json::to_string(&reply)
        .map_err(|e| e.to_string())
        .and_then(|json| std::fs::write(&path, json).map_err(|e| e.to_string()));
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("cannot write {}: {e}", path.display());
            2
        }
    }
}
