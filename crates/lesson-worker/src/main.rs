//! The worker's entry point: each message is a request (JSON text), each
//! reply is posted back as JSON text.

#[cfg(target_arch = "wasm32")]
fn main() {
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let library = RefCell::new(lesson_worker::Library::default());
    let reply_to = scope.clone();
    let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let request = e.data().as_string().unwrap_or_default();
        // Progress goes out as it is made: the page shows it, and can cancel.
        let reply = library.borrow_mut().respond_with(&request, |p| {
            let _ = reply_to.post_message(&JsValue::from_str(p));
        });
        let _ = reply_to.post_message(&JsValue::from_str(&reply));
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    // Messages that arrive before a handler exists are lost: the page
    // holds its requests until it hears this.
    let _ = scope.post_message(&JsValue::from_str(lesson_worker::READY));
}

/// Natively there is nothing to run: the library is tested as a library.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}
