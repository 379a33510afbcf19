//! An embed's entry: the same page, drawing only an embed's layout (the
//! snippet's frame loads this module; see index.html's starter).
fn main() {
    workqueue_playground::install_panic_hook();
    workqueue_playground::first_paint::kept_over(|| {
        yew::Renderer::<workqueue_playground::embed::EmbedApp>::new().render();
    });
}
