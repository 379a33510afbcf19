//! Opening the page: its URL's parameters (`?embed=1&workshop=1&lesson=ID&step=N&autoplay=1`)
//! and a share link's fragment. A refused link opens a working default and
//! says why; a refused lesson parameter adds its own notice beside it.

use crate::lesson_nav::LessonState;
use crate::lessons;
use crate::settings::Settings;
use crate::share::{self, Shared};
use crate::state::{Mode, Notice, Playground};
use crate::timeline::Timeline;

impl Playground {
    /// The page's initial state from its URL and fragment.
    pub fn from_url(search: &str, hash: &str) -> Playground {
        let param = |name: &str| {
            search
                .trim_start_matches('?')
                .split('&')
                .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        };
        let flag = |name: &str| param(name).is_some_and(|v| v != "0" && v != "false");
        let mode = Mode {
            embed: flag("embed"),
            workshop: flag("workshop"),
        };
        let mut p = match share::decode(hash) {
            Ok(shared) => Playground::from_shared(shared),
            Err(share::ShareError::Empty) => Playground::default(),
            Err(e) => Playground {
                notice: Notice::error(format!(
                    "This link could not be opened: {e}. Here is a fresh playground instead."
                )),
                ..Playground::default()
            },
        };
        p.mode = mode;
        if let Some(id) = param("lesson") {
            match lessons::find(&id) {
                Some((index, lesson)) => {
                    let step: usize = param("step")
                        .and_then(|s| s.parse::<usize>().ok())
                        .unwrap_or(1)
                        .clamp(1, lesson.steps.len())
                        - 1;
                    p.enter_step(index, step);
                }
                None => {
                    let missing = format!("There is no lesson {id:?}.");
                    // Keep a link's refusal in view: both are said.
                    let text = match p.notice.take() {
                        Some(n) => format!("{} {missing}", n.text),
                        None => missing,
                    };
                    p.notice = Notice::error(text);
                }
            }
        }
        // Embedded and lesson pages start paused unless asked to play.
        if mode.embed || p.lesson.is_some() {
            p.playing = flag("autoplay");
        }
        p
    }

    /// The page at a shared state: its scenario, replayed through its inputs
    /// to its instant (as far as one frame goes; the rest plays on), paused.
    pub fn from_shared(shared: Shared) -> Playground {
        let settings = Settings::from_scenario(&shared.scenario);
        let timeline = match Timeline::replayed(shared.scenario, shared.inputs, shared.at) {
            Ok(t) => t,
            Err(e) => {
                return Playground {
                    notice: Notice::error(format!("This scenario cannot run here: {e}")),
                    ..Playground::default()
                }
            }
        };
        let mut p = Playground::on(settings, timeline, None);
        p.idle = false; // opened from a link or a file: not a first visit
        p.playing = false;
        p.selected = shared.selected;
        if let Some(pos) = shared.lesson {
            if let Some((index, lesson)) = lessons::find(&pos.id) {
                let step = pos.step.min(lesson.steps.len().saturating_sub(1));
                let mut ls = LessonState::new(index, step, lesson.steps.len());
                ls.answers[step] = lesson.answer(step);
                p.lesson = Some(ls);
            }
        }
        p
    }
}

/// The page's query string with `workshop=1` set or removed, the other
/// parameters kept in order: a reload keeps the room's view.
pub fn with_workshop_param(search: &str, on: bool) -> String {
    let mut params: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && kv.split('=').next() != Some("workshop"))
        .collect();
    if on {
        params.push("workshop=1");
    }
    if params.is_empty() {
        String::new()
    } else {
        format!("?{}", params.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workshop_mode_goes_into_the_url_and_comes_back_from_it() {
        assert_eq!(with_workshop_param("", true), "?workshop=1");
        assert_eq!(
            with_workshop_param("?lesson=backoff&step=2", true),
            "?lesson=backoff&step=2&workshop=1"
        );
        assert_eq!(
            with_workshop_param("?workshop=1&lesson=herd", false),
            "?lesson=herd"
        );
        assert_eq!(with_workshop_param("?workshop=0", true), "?workshop=1");
        let p = Playground::from_url(&with_workshop_param("?lesson=herd", true), "");
        assert!(p.mode.workshop && p.lesson.is_some());
    }
}
