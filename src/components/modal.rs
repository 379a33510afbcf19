//! A dialog over the page: a title, a close button, Escape closes it.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ModalProps {
    pub title: AttrValue,
    pub onclose: Callback<MouseEvent>,
    pub children: Html,
}

#[function_component(Modal)]
pub fn modal(props: &ModalProps) -> Html {
    {
        // Escape closes the dialog, as any dialog does.
        let onclose = props.onclose.clone();
        use_effect_with((), move |_| {
            let listener = crate::hooks::KeyListener::new(move |e: KeyboardEvent| {
                if e.key() == "Escape" {
                    if let Ok(click) = MouseEvent::new("click") {
                        onclose.emit(click);
                    }
                }
            });
            move || drop(listener)
        });
    }
    html! {
        <div class="modal-backdrop">
            <div class="modal" role="dialog" aria-modal="true" aria-label={props.title.clone()}>
                <div class="panel-head">
                    <h2>{ props.title.clone() }</h2>
                    <button class="icon small" onclick={props.onclose.clone()} aria-label="Close">{"×"}</button>
                </div>
                { props.children.clone() }
            </div>
        </div>
    }
}
