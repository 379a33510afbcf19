//! An embed's first paint: index.html draws the frame as the app will
//! (`#first-paint`, filled from the build's first words of each step) and
//! marks the body `embed-wait`, which keeps the app out of sight while it
//! starts. Yew clears the body when it mounts, so the drawing is taken out
//! while the app mounts and put back over it; it goes, and the app shows
//! in its place, once the lesson panel is on the page.

const ID: &str = "first-paint";

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// Runs `mount` (the app mounting on the body) with the first paint kept.
pub fn kept_over(mount: impl FnOnce()) {
    let doc = document();
    let paint = doc.as_ref().and_then(|d| d.get_element_by_id(ID));
    if let Some(p) = &paint {
        p.remove();
    }
    mount();
    if let (Some(p), Some(body)) = (paint, doc.and_then(|d| d.body())) {
        let _ = body.append_child(&p);
    }
}

/// The app shows its own: the first paint goes.
pub fn done() {
    if let Some(p) = document().and_then(|d| d.get_element_by_id(ID)) {
        p.remove();
    }
}
