//! A button that copies a text (a link, a snippet, Go code) to the
//! clipboard and says beside it whether it did: a copy that leaves no
//! trace on screen reads as a dead button.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

/// How long "Copied." stays beside the button.
const SAID_FOR_MS: u32 = 2500;

#[derive(Properties, PartialEq)]
pub struct CopyButtonProps {
    /// What the button copies.
    pub text: AttrValue,
    pub label: AttrValue,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Said {
    Nothing,
    Copied,
    Refused,
}

/// The clipboard's promise to write `text`, where the page may use the
/// clipboard (a secure context; an iframe the host allows).
fn write(text: &str) -> Option<js_sys::Promise> {
    let navigator = web_sys::window()?.navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok()?;
    let clipboard = clipboard.dyn_into::<web_sys::Clipboard>().ok()?;
    Some(clipboard.write_text(text))
}

#[function_component(CopyButton)]
pub fn copy_button(props: &CopyButtonProps) -> Html {
    let said = use_state_eq(|| Said::Nothing);
    let onclick = {
        let (said, text) = (said.clone(), props.text.clone());
        Callback::from(move |_: MouseEvent| {
            let said = said.clone();
            let written = write(&text);
            spawn_local(async move {
                let copied = match written {
                    Some(promise) => JsFuture::from(promise).await.is_ok(),
                    None => false,
                };
                said.set(if copied { Said::Copied } else { Said::Refused });
                gloo_timers::future::TimeoutFuture::new(SAID_FOR_MS).await;
                said.set(Said::Nothing);
            });
        })
    };
    let words = match *said {
        Said::Nothing => "",
        Said::Copied => "Copied.",
        Said::Refused => "The browser refused the clipboard: select the text above and copy it.",
    };
    html! {
        <p class="copy-row">
            <button class="primary" {onclick}>{ props.label.clone() }</button>
            <span class={classes!("copy-said", (*said == Said::Refused).then_some("refused"))} role="status" data-testid="copy-said">{ words }</span>
        </p>
    }
}
