//! Lesson files from the page's own origin: the built-in lessons (static
//! files beside the page) and `?lesson-file=` paths. Nothing is fetched from
//! another origin.

use crate::state::{LessonAction, UiAction};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::notice::Notice;
use crate::state::Action;

/// `path` resolved the way the browser will fetch it (the URL standard's
/// parser, which drops tabs, newlines and leading control characters and
/// reads backslashes as slashes), when the result is on the page's own
/// origin: the absolute address to fetch, so nothing is resolved twice.
/// Checking the text instead of the parsed address let `/\t/host/x` through.
pub fn on_this_site(path: &str) -> Result<String, String> {
    let refuse = || {
        format!("{path:?} is not a path on this site (lessons are only read from the page's own origin)")
    };
    let window = web_sys::window().ok_or("no window")?;
    let base = window
        .document()
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or("no base address")?;
    if path.trim().is_empty() {
        return Err(refuse());
    }
    let url = web_sys::Url::new_with_base(path, &base).map_err(|_| refuse())?;
    let here = window.location();
    let same = |a: Result<String, _>, b: String| a.is_ok_and(|a| a == b);
    // Protocol and host as well as origin: a file: page's origin is "null",
    // and so is a data: address's.
    let ok = same(here.protocol(), url.protocol())
        && same(here.host(), url.host())
        && same(here.origin(), url.origin());
    if ok {
        Ok(url.href())
    } else {
        Err(refuse())
    }
}

/// The response for `path` (relative to the page), refused unless it is OK.
async fn response(path: &str) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    // A redirect is refused, not followed: a path on this site that answers
    // "look over there" must not lead the page to another host.
    let init = web_sys::RequestInit::new();
    init.set_redirect(web_sys::RequestRedirect::Error);
    let response = JsFuture::from(window.fetch_with_str_and_init(path, &init))
        .await
        .map_err(|_| format!("{path} could not be fetched (a redirect is not followed)"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("{path}: HTTP {}", response.status()));
    }
    Ok(response)
}

/// The text the page's start script already asked for at `path`, taken
/// once (`window.wqPrefetched`, see Trunk.toml): an embed's lesson is asked
/// for beside the module, and asking again would fetch it twice where the
/// host's cache headers let it.
async fn prefetched(path: &str) -> Option<String> {
    let window: wasm_bindgen::JsValue = web_sys::window()?.into();
    let key = wasm_bindgen::JsValue::from_str("wqPrefetched");
    let held = js_sys::Reflect::get(&window, &key).ok()?;
    let held_path = js_sys::Reflect::get(&held, &"path".into())
        .ok()?
        .as_string()?;
    if held_path != path {
        return None;
    }
    let _ = js_sys::Reflect::delete_property(window.unchecked_ref::<js_sys::Object>(), &key);
    let promise: js_sys::Promise = js_sys::Reflect::get(&held, &"text".into())
        .ok()?
        .dyn_into()
        .ok()?;
    JsFuture::from(promise).await.ok()?.as_string()
}

/// The text at `path` (relative to the page).
pub async fn text(path: &str) -> Result<String, String> {
    if let Some(text) = prefetched(path).await {
        return Ok(text);
    }
    let body = response(path).await?.text().map_err(|_| "no body")?;
    JsFuture::from(body)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{path} is not text"))
}

/// A `?lesson-file=` path: fetched from this origin, then read and opened
/// at `step` (from 1) like an upload.
pub async fn lesson_file(path: String, step: usize, dispatch: impl Fn(Action)) {
    let href = match on_this_site(&path) {
        Ok(href) => href,
        Err(e) => {
            return dispatch(Action::Ui(UiAction::Notify(Notice::error(format!(
                "lesson-file: {e}"
            )))))
        }
    };
    let limit = workqueue_lessons::parse::MAX_FILE_BYTES;
    let bytes = match bytes_within(&href, limit).await {
        Ok(bytes) => bytes,
        Err(e) => {
            return dispatch(Action::Ui(UiAction::Notify(Notice::error(format!(
                "lesson-file: {e}"
            )))))
        }
    };
    match workqueue_lessons::parse::text_of(&bytes) {
        Ok(text) => dispatch(Action::Lesson(LessonAction::OpenFile {
            file: path,
            text: text.to_string(),
            step,
        })),
        Err(e) => dispatch(Action::Lesson(LessonAction::Refused(
            crate::lessons::Refusal::new(&path, &String::from_utf8_lossy(&bytes), vec![e]),
        ))),
    }
}

/// A file's bytes, refused unread when its declared length is over `limit`
/// (and refused after reading when it had none and was).
async fn bytes_within(path: &str, limit: usize) -> Result<Vec<u8>, String> {
    let too_large = |n: f64| {
        format!(
            "{path} is {} KB: the playground reads lesson files of at most {} KB",
            (n / 1024.0).ceil(),
            limit / 1024
        )
    };
    let response = response(path).await?;
    let declared = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|n| n.parse::<f64>().ok());
    if let Some(n) = declared.filter(|n| *n > limit as f64) {
        return Err(too_large(n));
    }
    // Read chunk by chunk, and stop as soon as it is too large: a host that
    // does not say the length (or never ends) is not read to its end.
    let Some(body) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: web_sys::ReadableStreamDefaultReader = body
        .get_reader()
        .dyn_into()
        .map_err(|_| format!("{path} could not be read"))?;
    let mut bytes = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|_| format!("{path} could not be read"))?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .map(|d| d.is_truthy())
            .unwrap_or(true);
        if done {
            return Ok(bytes);
        }
        if let Ok(value) = js_sys::Reflect::get(&chunk, &"value".into()) {
            bytes.extend(js_sys::Uint8Array::new(&value).to_vec());
        }
        if bytes.len() > limit {
            let _ = reader.cancel();
            return Err(format!(
                "{path} is more than {} KB: the playground reads lesson files of at most {} KB",
                limit / 1024,
                limit / 1024
            ));
        }
    }
}
