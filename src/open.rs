//! Opening the page: its URL's parameters (`?embed=1&workshop=1&lesson=ID&step=N&autoplay=1`)
//! and a share link's fragment. A refused link opens a working default and
//! says why; a refused lesson parameter adds its own notice beside it.

use crate::lesson_state::LessonState;
use crate::lesson_state::PendingLesson;
use crate::lessons;
use crate::notice::Notice;
use crate::settings::Settings;
use crate::share::{self, Shared};
use crate::state::{Mode, Playground};
use crate::timeline::Timeline;

impl Playground {
    /// The page's initial state from its URL and fragment.
    pub(crate) fn from_url(search: &str, hash: &str) -> Playground {
        match share::decode(hash) {
            Ok(shared) => Playground::from_shared(shared),
            Err(share::ShareError::Empty) => Playground::default(),
            Err(e) => Playground::default().noticed(Notice::error(format!(
                "This link could not be opened: {e}. Here is a fresh playground instead."
            ))),
        }
        .opened_at(search)
    }

    /// The page its query string opens, with no share link: a lesson, a
    /// course, the mode (an embed's own entry reads only this).
    pub(crate) fn from_address(search: &str) -> Playground {
        Playground::default().opened_at(search)
    }

    /// `p` in the query string's mode, lesson and course.
    fn opened_at(self, search: &str) -> Playground {
        let mut p = self;
        let param = |name: &str| param(search, name);
        let flag = |name: &str| flag(search, name);
        let mode = mode_of(search);
        p.workshop.mode = mode;
        p.reopen_unanswered_question();
        // `?lessons=herd,forget-done,provider`: the room's course, in order.
        if let Some(list) = param("lessons") {
            let ids: Vec<String> = list
                .split(',')
                .map(|id| id.trim().to_string())
                .filter(|id| !id.is_empty())
                .collect();
            let unknown: Vec<&str> = ids
                .iter()
                .filter(|id| p.lessons.library.index_of(id).is_none())
                .map(String::as_str)
                .collect();
            if !unknown.is_empty() {
                p.ui.notice = Notice::error(format!(
                    "lessons: {} is not a built-in lesson (the menu lists them); the course goes on without it",
                    unknown.join(", ")
                ));
            }
            let ids: Vec<String> = ids
                .into_iter()
                .filter(|id| p.lessons.library.index_of(id).is_some())
                .collect();
            if !ids.is_empty() {
                if param("lesson").is_none() {
                    p.open_lesson(&ids[0], 1);
                }
                p.lessons.course = Some(std::rc::Rc::new(ids));
            }
        }
        if let Some(id) = param("lesson") {
            let step = param("step")
                .and_then(|s| s.parse::<usize>().ok())
                .unwrap_or(1);
            p.open_lesson(&id, step);
        }
        // Embedded and lesson pages start paused unless asked to play.
        if mode.embed || p.lessons.current.is_some() || p.lessons.pending.is_some() {
            p.run.playback.playing = flag("autoplay");
        }
        p
    }

    /// The page reopened by a reload: the run as it was left (see
    /// [`crate::session`]), in this address's mode and course.
    pub(crate) fn reloaded(self, saved: Result<Shared, String>) -> Playground {
        match saved {
            Ok(shared) => {
                let mut p = Playground::from_shared(shared);
                p.workshop.mode = self.workshop.mode;
                p.lessons.course = self.lessons.course;
                p.reopen_unanswered_question();
                p
            }
            Err(e) => self.noticed(Notice::error(format!(
                    "The run before the reload could not be reopened ({e}); the address's own settings are shown instead."
                ))),
        }
    }

    /// The page at a shared state: its scenario, replayed through its inputs
    /// to its instant (as far as one frame goes; the rest plays on), paused.
    pub(crate) fn from_shared(shared: Shared) -> Playground {
        let settings = Settings::from_scenario(&shared.run.scenario);
        let provider = crate::provider::Provider::from_scenario(&shared.run.scenario);
        let timeline =
            match Timeline::replayed(shared.run.scenario, shared.run.inputs, shared.run.run_to) {
                Ok(t) => t,
                Err(e) => {
                    return Playground::default()
                        .noticed(Notice::error(format!("This scenario cannot run here: {e}")))
                }
            };
        let mut p = Playground::on(settings, timeline, None);
        p.run.provider = provider.unwrap_or_default();
        p.run.playback.idle = false; // opened from a link or a file: not a first visit
        p.run.playback.playing = false;
        p.run.selected = shared.selected;
        if let Some(pos) = shared.lesson {
            p.lessons.pending = Some(PendingLesson {
                source: pos.text.map(|text| (format!("{}.md", pos.id), text)),
                id: pos.id,
                step: pos.step.saturating_add(1),
                replay: false,
                progress: None,
                ticket: p.rev,
            });
            p.resolve_pending_lesson();
        }
        p
    }
}

/// The colours a snippet chose (`theme=light|dark`), carried to the whole
/// playground its embed opens; `auto` or none follows the reader's system.
pub(crate) fn chosen_theme(search: &str) -> Option<&'static str> {
    match param(search, "theme").as_deref() {
        Some("light") => Some("light"),
        Some("dark") => Some("dark"),
        _ => None,
    }
}

/// A parameter of the query string `search`.
fn param(search: &str, name: &str) -> Option<String> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// A yes/no parameter: present and not `0` or `false`.
fn flag(search: &str, name: &str) -> bool {
    param(search, name).is_some_and(|v| v != "0" && v != "false")
}

/// The page's mode from its query string.
pub fn mode_of(search: &str) -> Mode {
    let embed = flag(search, "embed");
    // An embed is a guest in someone's page: never one of a workshop's windows.
    let audience = !embed && flag(search, "audience");
    let presenter = !embed && !audience && flag(search, "presenter");
    Mode {
        embed,
        // The projector's window is in workshop type; the presenter's has
        // its own layout.
        workshop: audience || (!presenter && flag(search, "workshop")),
        presenter,
        audience,
    }
}

/// The room a presenter's or audience window is in: the value of
/// `?presenter=` or `?audience=` (`1` unless named), which the windows of
/// one workshop share.
pub fn room_of(search: &str) -> Option<String> {
    let mode = mode_of(search);
    let name = if mode.audience {
        "audience"
    } else if mode.presenter {
        "presenter"
    } else {
        return None;
    };
    param(search, name).filter(|v| !v.is_empty())
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

/// `search` with `lesson` and `step` set to the lesson step on screen, where
/// the address names a built-in lesson (a file's lesson, an embed's host
/// address and a link's fragment are left as they are).
pub fn with_lesson_step(search: &str, id: &str, step: usize) -> String {
    let params: Vec<String> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| match kv.split('=').next() {
            Some("lesson") => format!("lesson={id}"),
            Some("step") => format!("step={step}"),
            _ => kv.to_string(),
        })
        .collect();
    let named =
        |params: &[String], k: &str| params.iter().any(|kv| kv.split('=').next() == Some(k));
    if !named(&params, "lesson") || named(&params, "lesson-file") {
        return search.to_string();
    }
    let mut params = params;
    if !named(&params, "step") {
        params.push(format!("step={step}"));
    }
    format!("?{}", params.join("&"))
}

impl Playground {
    /// Opens lesson `id` at `step` (from 1), or waits for it.
    pub(crate) fn open_lesson(&mut self, id: &str, step: usize) {
        self.lessons.pending = Some(PendingLesson {
            id: id.to_string(),
            step,
            replay: true,
            source: None,
            progress: None,
            ticket: self.rev,
        });
        self.resolve_pending_lesson();
    }

    /// In a room (a workshop, a presenter's window), a question not answered
    /// yet opens at its step's set-up instant however the run was left: a
    /// reload after Play would otherwise show the scene's answer under the
    /// question. (A link shared from the free page keeps its run as it was.)
    pub(crate) fn reopen_unanswered_question(&mut self) {
        // (Not a projector's window: it shows its presenter's run as that
        // window holds it, which has reopened the question itself; a
        // version switched there stays switched here.)
        if !(self.workshop.mode.workshop || self.workshop.mode.presenter)
            || self.workshop.mode.audience
        {
            return;
        }
        let Some(l) = &self.lessons.current else {
            return;
        };
        let Some(lesson) = self.lessons.library.get(l.index) else {
            return;
        };
        let asks = lesson
            .steps
            .get(l.step)
            .is_some_and(|s| s.question.is_some());
        if asks && l.guess().is_none() {
            let (index, step, visit) = (l.index, l.step, l.visit.clone());
            self.enter_step(index, step);
            if let Some(l) = self.lessons.current.as_mut() {
                l.visit = visit;
            }
        }
    }

    /// Opens the lesson at `index` at `step` (from 1), or waits for it.
    pub(crate) fn start_lesson(&mut self, index: usize, step: usize) {
        if let Some(id) = self
            .lessons
            .library
            .entries()
            .get(index)
            .map(|e| e.id.clone())
        {
            self.open_lesson(&id, step);
        }
    }

    /// Opens the lesson waited for if it is here; keeps waiting if the
    /// worker will send it; refuses an id nothing can provide.
    pub(crate) fn resolve_pending_lesson(&mut self) {
        let Some(pending) = self.lessons.pending.take() else {
            return;
        };
        let index = self.lessons.library.index_of(&pending.id);
        match index.and_then(|i| Some((i, self.lessons.library.get(i)?))) {
            Some((index, lesson)) if pending.source.is_none() => {
                let steps = lesson.steps.len().max(1);
                let step = pending.step.clamp(1, steps) - 1;
                // A step the lesson does not have (a hand-edited address):
                // the nearest it has opens, and the reader is told which.
                if pending.step != step + 1 {
                    self.ui.notice = Notice::info(format!(
                        "step={}: the lesson {:?} has steps 1 to {steps}; step {} is shown.",
                        pending.step,
                        pending.id,
                        step + 1
                    ));
                }
                if pending.replay {
                    // Opening keeps whether the page plays (`?autoplay=1`).
                    let playing = self.run.playback.playing;
                    self.enter_step(index, step);
                    // ...but never before the room has predicted; and it
                    // plays as the step's own Play does (its act, then the
                    // scene to where it ends, where it pauses).
                    self.run.playback.playing = false;
                    if playing && !self.holds_for_prediction() {
                        self.play_the_step(0.0);
                    }
                } else {
                    let mut ls = LessonState::new(index, step, lesson.steps.len());
                    ls.answers[step] = lessons::answer(&lesson, step);
                    // What the presenter's window said of this step while
                    // the lesson was on its way.
                    if let Some((ui, at)) = self.workshop.pending_ui.take() {
                        ui.apply(&mut ls, at);
                    }
                    self.lessons.current = Some(ls);
                    self.reopen_unanswered_question();
                }
            }
            // The worker reads it: a built-in file, or the text given.
            _ if index.is_some() || pending.source.is_some() => {
                self.lessons.pending = Some(pending)
            }
            _ => {
                self.refuse_beside(format!("There is no lesson {:?}.", pending.id));
            }
        }
    }

    /// Says a refusal without hiding one already in view (a link refused
    /// on opening stays said beside a refused `?lesson=`).
    pub(crate) fn refuse_beside(&mut self, text: String) {
        let text = match self.ui.notice.take() {
            Some(n) if n.kind == crate::notice::NoticeKind::Error => format!("{} {text}", n.text),
            _ => text,
        };
        self.ui.notice = Notice::error(text);
    }
}

#[cfg(test)]
mod tests {
    use workqueue_core::{EventRate, KeyCount};
    /// The address follows the step on screen where it names a built-in
    /// lesson, and keeps every other parameter.
    #[test]
    fn the_address_names_the_step_on_screen() {
        use super::with_lesson_step;
        assert_eq!(
            with_lesson_step("?lesson=backoff&step=1&workshop=1", "backoff", 3),
            "?lesson=backoff&step=3&workshop=1"
        );
        assert_eq!(
            with_lesson_step("?workshop=1&lessons=a,b&lesson=a", "b", 2),
            "?workshop=1&lessons=a,b&lesson=b&step=2"
        );
        // A file's lesson, a page without a lesson: as they were.
        for search in ["?lesson-file=mine.md&lesson=x", "?workshop=1", ""] {
            assert_eq!(with_lesson_step(search, "x", 2), search);
        }
    }

    use super::*;
    use crate::provider::{ClientChoice, Kind, Provider, Sharing};
    use crate::timeline::FRAME_BUDGET;
    use workqueue_core::Rng;
    use workqueue_core::{Duration, Input, Instant, Outcome, SECOND};

    fn env_u64(name: &str, default: u64) -> u64 {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    /// A manager link as a person could make or garble one: a provider of
    /// up to six kinds (now and then 100,000 keys in all), every way of
    /// sharing, inputs at any instants, a lesson position, and sometimes a
    /// digit of its JSON changed before it is packed.
    fn manager_link(rng: &mut Rng) -> String {
        let mut below = |n: u64| rng.next_u64() % n.max(1);
        let big = below(20) == 0;
        let kinds = 1 + below(6) as usize;
        let objects = if big {
            100_000 / kinds as u64
        } else {
            below(3_000)
        };
        let provider = Provider {
            kinds: (0..kinds)
                .map(|i| Kind {
                    name: format!("kind{i}"),
                    objects,
                    shares_bucket: below(3) > 0,
                })
                .collect(),
            sharing: match below(3) {
                0 => Sharing::Crossplane {
                    r: below(60) as u32,
                },
                1 => Sharing::Bucket {
                    qps: below(2_000) as f64 / 10.0,
                    burst: below(500) as i64,
                },
                _ => Sharing::Nothing,
            },
            client: match below(4) {
                0 => ClientChoice::Off,
                1 => ClientChoice::V020,
                2 => ClientChoice::Crossplane,
                _ => ClientChoice::Custom {
                    qps: below(100_000) as f64 / 10.0,
                    burst: below(2_000) as i64,
                },
            },
            client_per: if below(2) == 0 {
                workqueue_core::ClientScope::Kind
            } else {
                workqueue_core::ClientScope::Shared
            },
            requests_per_reconcile: below(30) as u32,
            failures: below(6) as u32,
            reconcile_ms: below(300) as i64,
            seconds: 1 + below(120) as i64,
            queue: if below(2) == 0 {
                workqueue_core::QueueKind::ClientGo
            } else {
                workqueue_core::QueueKind::Priority
            },
        };
        let Ok(scenario) = provider.to_scenario() else {
            return "#v2.garbage".into();
        };
        let mut at = Instant::T0;
        let inputs: Vec<(Instant, Input)> = (0..below(30))
            .map(|_| {
                at += Duration::from_nanos(below(3_000) as i64 * 10_000_000);
                let key = format!("kind0/obj-{}", below(objects + 5));
                let input = match below(7) {
                    0 => Input::Add { key },
                    1 => Input::AddMany {
                        prefix: format!("x{}/", below(9)),
                        // A number out of its range cannot be made: its type refuses it.
                        count: KeyCount::new(below(if big { 50_000 } else { 2_000 }))
                            .unwrap_or(KeyCount::lit(1)),
                    },
                    2 => Input::WatchEvents {
                        key,
                        per_second: EventRate::new(below(100_000) as f64 / 10.0)
                            .unwrap_or(EventRate::lit(0.001)),
                        duration_ns: workqueue_core::Span::saturating(
                            below(20) as i64 * SECOND / 2,
                        ),
                    },
                    3 => Input::Resync {
                        period_ns: (below(3) > 0)
                            .then(|| Duration::from_nanos((1 + below(30_000) as i64) * 1_000_000))
                            .map(workqueue_core::Span::saturating),
                    },
                    4 => Input::Decide {
                        key,
                        outcome: Outcome::Error,
                    },
                    5 if below(10) == 0 => Input::Shutdown,
                    _ => Input::Add { key },
                };
                (at, input)
            })
            .collect();
        let shared = share::Shared {
            run: workqueue_core::Run {
                scenario,
                inputs,
                run_to: Instant::T0 + below(150) as i64 * SECOND,
            },
            lesson: (below(4) == 0).then(|| share::LessonPosition {
                id: "provider".into(),
                step: below(4) as usize,
                text: None,
            }),
            selected: None,
        };
        let link = share::encode(&shared);
        if below(4) > 0 {
            return link;
        }
        // A changed digit: a legal link of another size, or a refused one.
        let json = share::decode(&link).map(|s| serde_json::to_string(&s).unwrap());
        let mut json = json.unwrap_or_default().into_bytes();
        let digits: Vec<usize> = (0..json.len())
            .filter(|&i| json[i].is_ascii_digit())
            .collect();
        if !digits.is_empty() {
            let i = digits[below(digits.len() as u64) as usize];
            json[i] = b'0' + below(10) as u8;
        }
        let packed = miniz_oxide::deflate::compress_to_vec(&json, 6);
        format!(
            "v2.{}",
            base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, packed)
        )
    }

    /// Whole manager links opened as the page opens them, then replayed
    /// frame by frame: no panic, a refusal names its part, no frame does
    /// much more work than its budget, and under `WQ_FUZZ_WALL_MS` (set by
    /// scripts/fuzz.sh, an optimised build) none takes longer than that.
    #[test]
    fn arbitrary_manager_links_open_frame_by_frame_within_budget() {
        let cases = env_u64("WQ_FUZZ_CASES", 40_000) / 1_000;
        let wall_ms = env_u64("WQ_FUZZ_WALL_MS", 0);
        let mut rng = Rng::new(0x11_4b5);
        // Natively the built-in lessons are read (and their answers run) on
        // first use, which the page leaves to its worker: not a frame's work.
        {
            let library = crate::lessons::Library::default();
            library.index_of("provider").and_then(|i| library.get(i))
        };
        let (mut opened, mut refused, mut frames, mut slowest) = (0u64, 0u64, 0u64, 0f64);
        for n in 0..cases {
            let link = manager_link(&mut rng);
            let started = std::time::Instant::now();
            let mut p = Playground::from_url("", &format!("#{link}"));
            let mut ms = started.elapsed().as_secs_f64() * 1e3;
            if let Some(notice) =
                p.ui.notice
                    .as_ref()
                    .filter(|n| n.kind == crate::notice::NoticeKind::Error)
            {
                assert!(notice.text.len() > 40, "case {n}: {}", notice.text);
                refused += 1;
                continue;
            }
            opened += 1;
            let work = |p: &Playground| {
                p.engine()
                    .controllers()
                    .map(|(_, c)| c.log_total())
                    .sum::<u64>()
            };
            let keys = p.engine().key_total() as u64;
            for frame in 0.. {
                assert!(
                    wall_ms == 0 || ms <= wall_ms as f64,
                    "case {n}: frame {frame} took {ms:.1} ms"
                );
                slowest = slowest.max(ms);
                frames += 1;
                if p.run.timeline.pending().is_none() {
                    break;
                }
                assert!(frame < 10_000, "case {n}: the link never finished opening");
                let before = work(&p);
                let started = std::time::Instant::now();
                p.run.timeline.catch_up();
                ms = started.elapsed().as_secs_f64() * 1e3;
                let done = work(&p) - before;
                assert!(
                    done <= 16 * (2 * FRAME_BUDGET + keys + 64),
                    "case {n}: {done} events in one frame of budget {FRAME_BUDGET}"
                );
            }
        }
        println!("fuzz manager links: {cases} cases ({opened} opened in {frames} frames, {refused} refused), slowest frame {slowest:.2} ms");
        assert!(opened > 0, "no link opened");
    }

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
        assert!(p.workshop.mode.workshop && p.lessons.current.is_some());
    }

    /// An embed's own entry reads only the query string: the same lesson,
    /// step, mode and pace as the whole page opens from it.
    #[test]
    fn an_embeds_entry_opens_what_the_page_opens_from_the_same_query() {
        for search in [
            "?embed=1&lesson=herd&step=2",
            "?embed=1&lesson=results&step=3&autoplay=1",
            "?embed=1&lesson=nope",
            "?embed=1&lessons=herd,sets",
        ] {
            let (page, embed) = (
                Playground::from_url(search, ""),
                Playground::from_address(search),
            );
            assert_eq!(page.workshop.mode, embed.workshop.mode, "{search}");
            assert_eq!(
                page.run.playback.playing, embed.run.playback.playing,
                "{search}"
            );
            assert_eq!(page.ui.notice, embed.ui.notice, "{search}");
            assert_eq!(lesson_at(&page), lesson_at(&embed), "{search}");
        }
        let opened = Playground::from_address("?embed=1&lesson=herd&step=2");
        assert_eq!(lesson_at(&opened), Some(("herd".to_string(), 1)));
    }

    /// A step the lesson does not have opens the nearest it has, and says
    /// so (a hand-edited `step=` is not shown as if it were right).
    #[test]
    fn a_step_past_the_lesson_is_named() {
        let herd = Playground::from_address("?lesson=herd");
        let opened = herd.lessons.current.as_ref().expect("herd opens");
        let steps = herd
            .lessons
            .library
            .get(opened.index)
            .expect("herd is built in")
            .steps
            .len();
        assert_eq!(herd.ui.notice, None, "a real step says nothing");
        let past = Playground::from_address(&format!("?embed=1&lesson=herd&step={}", steps + 1));
        assert_eq!(lesson_at(&past), Some(("herd".to_string(), steps - 1)));
        let said = past.ui.notice.expect("the reader is told").text;
        assert!(said.contains(&format!("step={}", steps + 1)), "{said}");
        assert!(said.contains(&format!("steps 1 to {steps}")), "{said}");
        let zero = Playground::from_address("?lesson=herd&step=0");
        assert_eq!(lesson_at(&zero), Some(("herd".to_string(), 0)));
        assert!(zero
            .ui
            .notice
            .is_some_and(|n| n.text.contains("step 1 is shown")));
    }

    /// The snippet's colours reach the whole playground its embed opens;
    /// anything else follows the reader's system.
    #[test]
    fn only_a_chosen_theme_is_carried() {
        use super::chosen_theme;
        assert_eq!(chosen_theme("?embed=1&theme=light"), Some("light"));
        assert_eq!(chosen_theme("?theme=dark&embed=1"), Some("dark"));
        for search in ["?embed=1", "?theme=auto", "?theme=<b>", "?theme=light%22"] {
            assert_eq!(chosen_theme(search), None, "{search}");
        }
    }

    /// The lesson and step a page shows, or the lesson it waits for.
    fn lesson_at(p: &Playground) -> Option<(String, usize)> {
        match (&p.lessons.current, &p.lessons.pending) {
            (Some(l), _) => Some((p.lessons.library.get(l.index)?.id.clone(), l.step)),
            (None, Some(w)) => Some((w.id.clone(), usize::MAX)),
            _ => None,
        }
    }
}
