use super::outcome_list::parse_outcomes;
use super::*;
use workqueue_core::SECOND;

#[test]
fn outcome_lists() {
    assert_eq!(
        parse_outcomes("error, Error, requeue-after 30s, success").unwrap(),
        vec![
            Outcome::Error,
            Outcome::Error,
            Outcome::RequeueAfter {
                after_ns: Span::lit(30 * SECOND)
            },
            Outcome::Success
        ]
    );
    assert!(parse_outcomes("explode")
        .unwrap_err()
        .contains("not an outcome"));
    assert!(parse_outcomes("requeue-after")
        .unwrap_err()
        .contains("needs a duration"));
    assert!(parse_outcomes(" , ").is_err());
}

/// The Go export of every preset, on both queues, giving up or not, with
/// a timeout or not: gofmt-clean, and read back to the same set-up.
#[test]
fn every_presets_go_reads_back_to_the_same_set_up() {
    use workqueue_go::export::{go, SetUp};
    for preset in Preset::ALL {
        for queue in [QueueKind::ClientGo, QueueKind::Priority] {
            for (give_up, timeout) in [("", ""), ("5", "1.5s")] {
                let mut f = Settings {
                    preset,
                    queue,
                    ..Settings::default()
                };
                f.set(Field::GiveUp, give_up.into());
                f.set(Field::Timeout, timeout.into());
                let s = f.to_scenario().unwrap();
                let code = go(&s);
                let name = format!("{preset:?}-{queue:?}-{give_up}");
                let back = workqueue_go::import(&[("main.go".into(), code.clone())])
                    .unwrap_or_else(|e| panic!("{name}: {e}\n{code}"));
                assert_eq!(SetUp::of(&back.scenario), SetUp::of(&s), "{name}\n{code}");
                if let Err(diff) = workqueue_go::export::gofmt_clean(&code) {
                    panic!("{name}: not gofmt-clean:\n{diff}");
                }
            }
        }
    }
}
