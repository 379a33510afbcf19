//! What a reload keeps: the run on the stage (its scenario, everything done
//! to it, its instant, the lesson step) is written to the tab's session
//! storage when the page is hidden, and read back when the same address is
//! reloaded. A share link carries a run elsewhere; this makes a reload (F5,
//! a clicker's stray key) lose nothing. An embed keeps nothing: its state
//! is its host page's address.
//!
//! What is saved is a share link's JSON, read back through the same gate
//! ([`share::read`]): a damaged entry is refused like a damaged link.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::share::{self, Shared};
use crate::store::PlaygroundContext;

/// The storage entry: the address it was saved under, a line break, the state.
const KEY: &str = "workqueue-playground.run";
/// A run longer than this (characters) is not saved: session storage holds
/// about five million, and the page must not fail to save anything else.
pub const MAX_SAVED: usize = 2_000_000;

/// The entry for `shared` saved under `href`, or `None` when it is too long.
pub fn entry(href: &str, shared: &Shared) -> Option<String> {
    let json = share::to_json(shared);
    let text = format!("{href}\n{json}");
    (text.len() <= MAX_SAVED).then_some(text)
}

/// The run an entry holds, if it was saved under `href`.
pub fn read_entry(text: &str, href: &str) -> Option<Result<Shared, String>> {
    let (saved_href, json) = text.split_once('\n')?;
    (saved_href == href).then(|| share::read(json).map_err(|e| e.to_string()))
}

fn storage() -> Option<web_sys::Storage> {
    // Storage can be refused (a sandboxed frame, privacy settings): nothing is kept then.
    web_sys::window()?.session_storage().ok().flatten()
}

fn href() -> Option<String> {
    web_sys::window()?.location().href().ok()
}

/// Whether this page load is a reload (not a link followed or typed anew).
pub fn is_reload() -> bool {
    let Some(perf) = web_sys::window().and_then(|w| w.performance()) else {
        return false;
    };
    let entries = perf.get_entries_by_type("navigation");
    let kind = js_sys::Reflect::get(&entries.get(0), &"type".into())
        .ok()
        .and_then(|v| v.as_string());
    kind.as_deref() == Some("reload")
}

/// The run saved before this reload, if the page was reloaded at the
/// address it was saved under.
pub fn restored() -> Option<Result<Shared, String>> {
    if !is_reload() {
        return None;
    }
    let text = storage()?.get_item(KEY).ok().flatten()?;
    read_entry(&text, &href()?)
}

/// Saves `shared` (or, with `None`, forgets what was saved: the address's
/// own parameters then open the page).
pub fn save(shared: Option<&Shared>) {
    let (Some(storage), Some(href)) = (storage(), href()) else {
        return;
    };
    match shared.and_then(|s| entry(&href, s)) {
        // A full storage refuses: the stale entry must not come back instead.
        Some(text) if storage.set_item(KEY, &text).is_ok() => {}
        _ => {
            let _ = storage.remove_item(KEY);
        }
    }
}

/// Saves the run, as it is then, whenever the page is hidden or left; the
/// returned function stops listening.
pub fn save_when_hidden(context: PlaygroundContext) -> impl FnOnce() {
    let doc = web_sys::window().and_then(|w| w.document());
    let on_hide = {
        let doc = doc.clone();
        Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
            if e.type_() == "visibilitychange" && doc.as_ref().is_some_and(|d| !d.hidden()) {
                return; // a visibility change back to visible
            }
            let state = context.read();
            if state.workshop.mode.embed {
                return;
            }
            // A lesson still on its way is the address's to open again.
            match state.lessons.pending {
                Some(_) => save(None),
                None => save(Some(&state.shared())),
            }
        })
    };
    let window = web_sys::window();
    let listen = |target: Option<web_sys::EventTarget>, name: &'static str| {
        if let Some(t) = &target {
            let _ = t.add_event_listener_with_callback(name, on_hide.as_ref().unchecked_ref());
        }
        (target, name)
    };
    let targets = [
        listen(window.map(Into::into), "pagehide"),
        listen(doc.map(Into::into), "visibilitychange"),
    ];
    move || {
        for (target, name) in targets.iter() {
            if let Some(t) = target {
                let _ =
                    t.remove_event_listener_with_callback(name, on_hide.as_ref().unchecked_ref());
            }
        }
        drop(on_hide);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::{Input, Instant, SECOND};

    fn run() -> Shared {
        let scenario = crate::settings::Settings::default().to_scenario().unwrap();
        Shared {
            run: workqueue_core::Run {
                scenario,
                inputs: vec![(
                    Instant::T0,
                    Input::Add {
                        key: "default/typed".into(),
                    },
                )],
                run_to: Instant::T0 + 3 * SECOND,
            },
            lesson: None,
            selected: Some("default/typed".into()),
        }
    }

    #[test]
    fn a_saved_run_reads_back_whole_under_its_own_address_only() {
        let href = "http://localhost:8080/play/?workshop=1";
        let text = entry(href, &run()).unwrap();
        assert_eq!(read_entry(&text, href), Some(Ok(run())));
        assert_eq!(read_entry(&text, "http://localhost:8080/play/"), None);
    }

    #[test]
    fn a_damaged_entry_is_refused_by_the_links_gate() {
        let href = "http://h/";
        let text = entry(href, &run()).unwrap().replace("3000000000", "-5");
        let refused = read_entry(&text, href).unwrap().unwrap_err();
        assert!(refused.starts_with("at:"), "{refused}");
        assert_eq!(read_entry("no line break", href), None);
    }

    #[test]
    fn a_run_too_long_to_keep_is_not_saved() {
        let mut long = run();
        long.run.inputs = (0..100_000)
            .map(|i| {
                (
                    Instant::from_nanos(i),
                    Input::Add {
                        key: format!("default/key-{i}"),
                    },
                )
            })
            .collect();
        assert_eq!(entry("http://h/", &long), None);
    }
}
