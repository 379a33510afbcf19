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
            let step = param("step")
                .and_then(|s| s.parse::<usize>().ok())
                .unwrap_or(1);
            p.open_lesson(&id, step);
        }
        // Embedded and lesson pages start paused unless asked to play.
        if mode.embed || p.lesson.is_some() || p.pending_lesson.is_some() {
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
            p.pending_lesson = Some(PendingLesson {
                source: pos.text.map(|text| (format!("{}.md", pos.id), text)),
                id: pos.id,
                step: pos.step.saturating_add(1),
                replay: false,
            });
            p.resolve_pending_lesson();
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
}

impl Playground {
    /// Opens lesson `id` at `step` (from 1), or waits for it.
    pub fn open_lesson(&mut self, id: &str, step: usize) {
        self.pending_lesson = Some(PendingLesson {
            id: id.to_string(),
            step,
            replay: true,
            source: None,
        });
        self.resolve_pending_lesson();
    }

    /// Opens the lesson at `index` at `step` (from 1), or waits for it.
    pub fn start_lesson(&mut self, index: usize, step: usize) {
        if let Some(id) = lessons::all().get(index).map(|e| e.id.clone()) {
            self.open_lesson(&id, step);
        }
    }

    /// Opens the lesson waited for if it is here; keeps waiting if the
    /// worker will send it; refuses an id nothing can provide.
    pub fn resolve_pending_lesson(&mut self) {
        let Some(pending) = self.pending_lesson.take() else {
            return;
        };
        let index = lessons::index_of(&pending.id);
        match index.and_then(|i| Some((i, lessons::get(i)?))) {
            Some((index, lesson)) if pending.source.is_none() => {
                let step = pending.step.clamp(1, lesson.steps.len().max(1)) - 1;
                if pending.replay {
                    // Opening keeps whether the page plays (`?autoplay=1`).
                    let playing = self.playing;
                    self.enter_step(index, step);
                    self.playing = playing;
                } else {
                    let mut ls = LessonState::new(index, step, lesson.steps.len());
                    ls.answers[step] = lessons::answer(&lesson, step);
                    self.lesson = Some(ls);
                }
            }
            // The worker reads it: a built-in file, or the text given.
            _ if index.is_some() || pending.source.is_some() => self.pending_lesson = Some(pending),
            _ => {
                self.refuse_beside(format!("There is no lesson {:?}.", pending.id));
            }
        }
    }

    /// Says a refusal without hiding one already in view (a link refused
    /// on opening stays said beside a refused `?lesson=`).
    pub fn refuse_beside(&mut self, text: String) {
        let text = match self.notice.take() {
            Some(n) if n.kind == crate::notice::NoticeKind::Error => format!("{} {text}", n.text),
            _ => text,
        };
        self.notice = Notice::error(text);
    }
}
