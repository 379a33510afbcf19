//! Files the page hands out (a scenario, a chart's PNG), saved through a
//! temporary link: nothing leaves the browser.

use wasm_bindgen::JsCast;

/// Saves `data` as a file through a temporary link.
pub fn download(name: &str, mime: &str, data: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&data.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    download_url(&doc, name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

pub fn download_url(doc: &web_sys::Document, name: &str, url: &str) {
    if let Ok(a) = doc
        .create_element("a")
        .map(|e| e.unchecked_into::<web_sys::HtmlAnchorElement>())
    {
        a.set_href(url);
        a.set_download(name);
        if let Some(body) = doc.body() {
            let _ = body.append_child(&a);
            a.click();
            let _ = body.remove_child(&a);
        }
    }
}
