//! How long the Go reader takes to refuse the hostile files of its limits
//! (thousands of operators, terms, selectors, calls; helpers calling each
//! other 4^25 times; 80,000 flags read): `name value` lines, in ms, the
//! best of five. Run by `scripts/bench.sh`.

use std::time::Instant;

fn main() {
    let mut helpers = String::from("package main\n\nfunc h25() int { return 1 }\n");
    for i in (0..25).rev() {
        let next = vec![format!("h{}()", i + 1); 4].join(" + ");
        helpers += &format!("func h{i}() int {{ return {next} }}\n");
    }
    helpers += "\nvar workers = h0()\n";
    let mut flags = String::from("package main\n\nfunc main() {\n");
    for i in 0..80_000 {
        flags += &format!("\tflag.IntVar(&v{i}, \"flag-{i}\", {i}, \"\")\n");
    }
    flags += "}\n";
    let var = |e: String| format!("package main\n\nvar x = {e}\n");
    let cases = [
        (
            "go_reader_2000_unary_ms",
            var(format!("{}1", "^".repeat(2000))),
        ),
        (
            "go_reader_5000_terms_ms",
            var(format!("1{}", "+1".repeat(5000))),
        ),
        (
            "go_reader_5000_selectors_ms",
            var(format!("a{}", ".b".repeat(5000))),
        ),
        (
            "go_reader_5000_calls_ms",
            var(format!("f{}", "()".repeat(5000))),
        ),
        ("go_reader_helpers_4pow25_ms", helpers),
        ("go_reader_80000_flags_ms", flags),
    ];
    for (name, text) in cases {
        let files = vec![("main.go".to_string(), text)];
        let best = (0..5)
            .map(|_| {
                let t = Instant::now();
                let _ = workqueue_go::import(&files);
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min);
        println!("{name} {best:.1}");
    }
}
