fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    match workqueue_go::import(&files) {
        Ok(i) => {
            println!("{}", i.scenario.to_json());
            for f in &i.taken {
                println!("took {f}");
            }
            for f in &i.unread {
                println!("unread {f}");
            }
        }
        Err(e) => println!("error {e}"),
    }
}
