//! Lesson files from the page's own origin: the built-in lessons (static
//! files beside the page) and `?lesson-file=` paths. Nothing is fetched from
//! another origin.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::state::{Action, Notice};

/// Whether `path` stays on the page's origin: relative, no scheme, no host.
pub fn same_origin(path: &str) -> bool {
    let p = path.trim();
    !p.is_empty()
        && !p.starts_with("//")
        && !p.starts_with('\\')
        && !p.contains('\\')
        && p.split('/').next().is_none_or(|first| !first.contains(':'))
}

/// The text at `path` (relative to the page).
pub async fn text(path: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|_| format!("{path} could not be fetched"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("{path}: HTTP {}", response.status()));
    }
    let body = response.text().map_err(|_| "no body")?;
    JsFuture::from(body)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{path} is not text"))
}

/// A `?lesson-file=` path: fetched from this origin, then read and opened
/// at `step` (from 1) like an upload.
pub async fn lesson_file(path: String, step: usize, dispatch: impl Fn(Action)) {
    if !same_origin(&path) {
        dispatch(Action::Notify(Notice::error(format!(
            "lesson-file: {path:?} is not a path on this site (lessons are only read from the page's own origin)"
        ))));
        return;
    }
    match text(&path).await {
        Ok(text) => dispatch(Action::OpenLessonFile {
            file: path,
            text,
            step,
        }),
        Err(e) => dispatch(Action::Notify(Notice::error(format!("lesson-file: {e}")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_on_this_origin() {
        assert!(same_origin("lessons/mine.md"));
        assert!(same_origin("/lessons/mine.md"));
        assert!(same_origin("../x.md"));
        for bad in [
            "https://evil.example/x.md",
            "//evil.example/x.md",
            "data:text/plain,x",
            "javascript:alert(1)",
            "",
            "\\\\host\\x",
        ] {
            assert!(!same_origin(bad), "{bad}");
        }
    }
}
