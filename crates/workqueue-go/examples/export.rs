fn main() {
    let path = std::env::args().nth(1).unwrap();
    let s = workqueue_core::Scenario::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    print!("{}", workqueue_go::export::go(&s));
}
