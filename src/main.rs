fn main() {
    workqueue_playground::install_panic_hook();
    workqueue_playground::first_paint::kept_over(|| {
        yew::Renderer::<workqueue_playground::app::App>::new().render();
    });
}
