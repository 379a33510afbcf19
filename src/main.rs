fn main() {
    workqueue_playground::install_panic_hook();
    yew::Renderer::<workqueue_playground::App>::new().render();
}
