//! The page's side of the lesson worker (`crates/lesson-worker`): it sends
//! lesson files to be read and goals to be checked, and turns the replies
//! into actions. The worker starts the first time a lesson is needed, so
//! the page's first load carries none of it. Lesson files come only from
//! the page's own origin (built-in files, `?lesson-file=` paths), an upload
//! or a link.

use crate::state::{LessonAction, UiAction};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use workqueue_lessons::view::{Reply, Request};
use yew::Callback;

use crate::lessons::Refusal;
use crate::notice::Notice;
use crate::state::{Action, GoImport};
use workqueue_core::Scenario;

/// What the worker was asked, by sequence number: for a reply to say it
/// in the page's terms (a refused file's text, a goal's lesson and step).
enum Asked {
    Open {
        text: String,
    },
    /// A built-in lesson the page already has (read at build time), read
    /// by the worker too so it can check the lesson's goals.
    Prime,
    Check {
        index: usize,
        step: usize,
    },
    /// A Go set-up to read into a scenario.
    Import,
}

/// The worker's message handler, kept alive as long as the worker.
#[cfg(target_arch = "wasm32")]
type OnMessage = wasm_bindgen::closure::Closure<dyn FnMut(web_sys::MessageEvent)>;
/// Its error handler (a worker that stopped on an error), the same.
#[cfg(target_arch = "wasm32")]
type OnError = wasm_bindgen::closure::Closure<dyn FnMut(wasm_bindgen::JsValue)>;

struct Client {
    /// Where replies go (the page's reducer).
    dispatch: Callback<Action>,
    #[cfg(target_arch = "wasm32")]
    worker: Option<(web_sys::Worker, OnMessage, OnError)>,
    seq: u64,
    asked: HashMap<u64, Asked>,
    /// Requests written before the worker listens (it says "ready").
    #[cfg(target_arch = "wasm32")]
    held: Option<Vec<String>>,
    /// Built-in lessons already asked for.
    fetching: Vec<String>,
    /// Built-in lessons the worker has read (for goal checks).
    primed: Vec<String>,
}

/// The page's handle on the lesson worker, made once by the app and handed
/// to the components that ask (a context). Cloning shares the one worker.
#[derive(Clone)]
pub struct LessonWorker(Rc<RefCell<Client>>);

impl PartialEq for LessonWorker {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl LessonWorker {
    /// A handle whose replies go to `dispatch`; the worker itself starts
    /// with the first request.
    pub fn new(dispatch: Callback<Action>) -> LessonWorker {
        LessonWorker(Rc::new(RefCell::new(Client {
            dispatch,
            #[cfg(target_arch = "wasm32")]
            worker: None,
            seq: 0,
            asked: HashMap::new(),
            #[cfg(target_arch = "wasm32")]
            held: None,
            fetching: Vec::new(),
            primed: Vec::new(),
        })))
    }

    fn send(&self, request: impl FnOnce(u64) -> (Request, Asked)) {
        let mut c = self.0.borrow_mut();
        c.seq += 1;
        let (request, asked) = request(c.seq);
        let seq = c.seq;
        c.asked.insert(seq, asked);
        post(&mut c, Rc::downgrade(&self.0), &request);
    }
}

#[cfg(target_arch = "wasm32")]
fn post(c: &mut Client, me: Weak<RefCell<Client>>, request: &Request) {
    use wasm_bindgen::JsCast;
    if c.worker.is_none() {
        let Ok(worker) = web_sys::Worker::new("./lesson-worker-loader.js") else {
            fail(c, "the lesson worker could not start");
            return;
        };
        // The worker's handlers hold the client weakly: the client holds them.
        let on_crash = me.clone();
        let onerror =
            wasm_bindgen::closure::Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(move |_| {
                if let Some(me) = on_crash.upgrade().map(LessonWorker) {
                    me.crashed();
                }
            });
        let onmessage = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |e: web_sys::MessageEvent| {
                let Some(me) = me.upgrade().map(LessonWorker) else {
                    return;
                };
                match e.data().as_string().as_deref() {
                    Some("ready") => me.ready(),
                    Some(text) => me.received(text),
                    None => {}
                }
            },
        );
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        c.worker = Some((worker, onmessage, onerror));
        c.held = Some(Vec::new());
    }
    let Ok(text) = serde_json::to_string(request) else {
        return;
    };
    match (&mut c.held, &c.worker) {
        (Some(held), _) => held.push(text),
        (None, Some((worker, ..))) => {
            let _ = worker.post_message(&wasm_bindgen::JsValue::from_str(&text));
        }
        _ => {}
    }
}

/// Natively there is no worker: the built-in lessons are read in place
/// (see `lessons`), and nothing else asks.
#[cfg(not(target_arch = "wasm32"))]
fn post(_: &mut Client, _: Weak<RefCell<Client>>, _: &Request) {}

/// Ends a worker: its handlers first, so no event queued for them reaches
/// a closure dropped with the worker.
#[cfg(target_arch = "wasm32")]
fn end(worker: &web_sys::Worker) {
    worker.set_onmessage(None);
    worker.set_onerror(None);
    worker.terminate();
}

#[cfg(target_arch = "wasm32")]
fn fail(c: &Client, text: &str) {
    c.dispatch.emit(Action::Ui(UiAction::Notify(Notice::error(
        text.to_string(),
    ))));
}

impl LessonWorker {
    /// The worker listens: what was held goes out.
    #[cfg(target_arch = "wasm32")]
    fn ready(&self) {
        let mut c = self.0.borrow_mut();
        let held = c.held.take().unwrap_or_default();
        if let Some((worker, ..)) = &c.worker {
            for text in held {
                let _ = worker.post_message(&wasm_bindgen::JsValue::from_str(&text));
            }
        }
    }

    /// The worker stopped on an error (a defect the reader's bounds did not
    /// catch): it is ended, whatever it was asked is answered as failed, and
    /// the next request starts a new worker. The page loses nothing.
    #[cfg(target_arch = "wasm32")]
    fn crashed(&self) {
        let (dispatch, asked) = {
            let mut c = self.0.borrow_mut();
            if let Some(ended) = c.worker.take() {
                end(&ended.0);
                // This runs inside the worker's error handler: its closure
                // is dropped once the handler has returned, not during it.
                wasm_bindgen_futures::spawn_local(async move { drop(ended) });
            }
            c.held = None;
            c.primed.clear();
            (c.dispatch.clone(), std::mem::take(&mut c.asked))
        };
        for asked in asked.into_values() {
            match asked {
                Asked::Import => dispatch.emit(Action::Ui(UiAction::GoImport(GoImport::Refused(
                    "the reader stopped on an error with these files, and nothing of them was read; the page goes on: change the files and read them again".into(),
                )))),
                Asked::Open { .. } => dispatch.emit(Action::Ui(UiAction::Notify(Notice::error(
                    "The lesson reader stopped on an error with this file; nothing of it was read. The page goes on: open another lesson or the file again.".to_string(),
                )))),
                Asked::Prime | Asked::Check { .. } => {}
            }
        }
    }

    /// Asks the worker to read a Go set-up (files by name); the answer comes
    /// back as [`UiAction::GoImport`].
    pub fn import_go(&self, files: Vec<(String, String)>) {
        self.send(|seq| (Request::ImportGo { seq, files }, Asked::Import));
    }

    /// Stops whatever the worker is reading (a lesson left or replaced while it
    /// was being read): the worker is ended, and the next request starts a new
    /// one. Goal checks and built-in lessons it had read are asked again.
    pub fn cancel(&self) {
        let dispatch = {
            let mut c = self.0.borrow_mut();
            if !c.asked.values().any(|a| matches!(a, Asked::Open { .. })) {
                return;
            }
            // A Go set-up being read is stopped with it: say so.
            let importing = c.asked.values().any(|a| matches!(a, Asked::Import));
            #[cfg(target_arch = "wasm32")]
            if let Some((worker, ..)) = c.worker.take() {
                end(&worker);
            }
            #[cfg(target_arch = "wasm32")]
            {
                c.held = None;
            }
            c.asked.clear();
            c.primed.clear();
            importing.then(|| c.dispatch.clone())
        };
        if let Some(d) = dispatch {
            d.emit(Action::Ui(UiAction::GoImport(GoImport::Refused(
                "stopped when a lesson was stopped: read it again".into(),
            ))));
        }
    }

    /// Asks the worker to read a lesson file (what it was reading before is
    /// stopped: only the latest file is waited for).
    pub fn open(&self, file: String, text: String) {
        self.cancel();
        self.send(|seq| {
            (
                Request::Open {
                    seq,
                    file: file.clone(),
                    text: text.clone(),
                },
                Asked::Open { text },
            )
        });
    }

    /// Asks the worker to check step `step`'s goal on `scenario`. A built-in
    /// lesson the page got read at build time is read by the worker first
    /// (the worker answers in order).
    pub fn check(&self, id: &str, index: usize, step: usize, scenario: String) {
        let prime = crate::lessons::is_built_in(id) && self.first_time(|c| &mut c.primed, id);
        if !prime {
            return self.ask_check(id.to_string(), index, step, scenario);
        }
        let (id, path) = (id.to_string(), format!("lessons/{id}.md"));
        let me = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match crate::fetch::text(&path).await {
                Ok(text) => {
                    me.send(|seq| {
                        (
                            Request::Open {
                                seq,
                                file: path.clone(),
                                text: text.clone(),
                            },
                            Asked::Prime,
                        )
                    });
                    me.ask_check(id, index, step, scenario);
                }
                Err(e) => me.notify_error(format!("The lesson could not be loaded: {e}")),
            }
        });
    }

    fn ask_check(&self, id: String, index: usize, step: usize, scenario: String) {
        self.send(|seq| {
            (
                Request::Check {
                    seq,
                    id: id.clone(),
                    step,
                    scenario: scenario.clone(),
                },
                Asked::Check { index, step },
            )
        });
    }

    /// Whether `id` is new to the list `which` picks (and notes it there).
    fn first_time(&self, which: impl FnOnce(&mut Client) -> &mut Vec<String>, id: &str) -> bool {
        let mut c = self.0.borrow_mut();
        let list = which(&mut c);
        let first = !list.iter().any(|x| x == id);
        if first {
            list.push(id.to_string());
        }
        first
    }

    fn notify_error(&self, text: String) {
        let dispatch = self.0.borrow().dispatch.clone();
        dispatch.emit(Action::Ui(UiAction::Notify(Notice::error(text))));
    }

    /// Fetches a built-in lesson (once): as the build read and answered it
    /// (`lessons/<id>.json`, see `wqsim lesson --views`), so no worker starts;
    /// from its file through the worker where the build did not write it.
    pub fn fetch_built_in(&self, id: &str) {
        if !self.first_time(|c| &mut c.fetching, id) {
            return;
        }
        let read = format!("lessons/{id}.json");
        #[cfg(not(feature = "built-in-only"))]
        let path = format!("lessons/{id}.md");
        let me = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(json) = crate::fetch::text(&read).await {
                if let Ok(Reply::Lesson { lesson, .. }) = serde_json::from_str::<Reply>(&json) {
                    let dispatch = me.0.borrow().dispatch.clone();
                    dispatch.emit(Action::Lesson(LessonAction::Arrived(
                        Box::new(lesson),
                        None,
                    )));
                    return;
                }
            }
            // (The embed's own entry has no worker: every built-in lesson's
            // file is written by its build.)
            #[cfg(feature = "built-in-only")]
            me.notify_error(format!("The lesson could not be loaded from {read}."));
            #[cfg(not(feature = "built-in-only"))]
            match crate::fetch::text(&path).await {
                Ok(text) => me.open(path, text),
                Err(e) => me.notify_error(format!("The lesson could not be loaded: {e}")),
            }
        });
    }

    /// A reply from the worker, as an action.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn received(&self, text: &str) {
        // The worker's replies are read with the types it wrote them with.
        let Ok(reply) = serde_json::from_str::<Reply>(text) else {
            return;
        };
        let action = self.action_for(reply);
        let dispatch = self.0.borrow().dispatch.clone();
        if let Some(action) = action {
            dispatch.emit(action);
        }
    }

    /// What a reply means to the page, given what was asked.
    fn action_for(&self, reply: Reply) -> Option<Action> {
        let mut c = self.0.borrow_mut();
        let seq = match &reply {
            Reply::Lesson { seq, .. }
            | Reply::Refused { seq, .. }
            | Reply::Figures { seq, .. }
            | Reply::Failed { seq, .. }
            | Reply::Imported { seq, .. }
            | Reply::Progress { seq, .. } => *seq,
        };
        if let Reply::Progress { done, total, .. } = reply {
            // Still reading: the request stays asked.
            let reading = matches!(c.asked.get(&seq), Some(Asked::Open { .. }));
            return reading.then_some(Action::Lesson(LessonAction::Progress(done, total)));
        }
        let asked = c.asked.remove(&seq);
        match (reply, asked) {
            (Reply::Lesson { lesson, .. }, Some(Asked::Open { text, .. })) => Some(Action::Lesson(
                LessonAction::Arrived(Box::new(lesson), Some(text)),
            )),
            (Reply::Refused { file, mistakes, .. }, Some(Asked::Open { text, .. })) => Some(
                Action::Lesson(LessonAction::Refused(Refusal::new(&file, &text, mistakes))),
            ),
            (Reply::Figures { figures, .. }, Some(Asked::Check { index, step })) => Some(
                Action::Lesson(LessonAction::GoalFigures(index, step, figures)),
            ),
            (
                Reply::Imported {
                    scenario,
                    taken,
                    unread,
                    ..
                },
                Some(Asked::Import),
            ) => Some(Action::Ui(UiAction::GoImport(match imported(&scenario) {
                Ok(s) => GoImport::Read {
                    scenario: Box::new(s),
                    taken,
                    unread,
                },
                Err(e) => GoImport::Refused(e.to_string()),
            }))),
            (Reply::Failed { reason, .. }, Some(Asked::Import)) => {
                Some(Action::Ui(UiAction::GoImport(GoImport::Refused(reason))))
            }
            (Reply::Failed { reason, .. }, _) => {
                Some(Action::Ui(UiAction::Notify(Notice::error(reason))))
            }
            (_, Some(Asked::Prime)) => None,
            _ => None,
        }
    }
}

/// The scenario the Go reader wrote. (An embed's own entry never asks the
/// worker to read Go, so it carries no reader for it.)
#[cfg(not(feature = "built-in-only"))]
fn imported(scenario: &str) -> Result<Scenario, workqueue_core::ScenarioError> {
    Scenario::from_json(scenario)
}

#[cfg(feature = "built-in-only")]
fn imported(_: &str) -> Result<Scenario, workqueue_core::ScenarioError> {
    Err(workqueue_core::ScenarioError {
        field: workqueue_core::document::WHOLE.into(),
        reason: "an embed reads no Go".into(),
        line: None,
    })
}
