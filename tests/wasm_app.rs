//! Component tests: the real App mounted in headless Chromium, driven through
//! the DOM as a person would (clicks, typing), checked against the core.

#![cfg(target_arch = "wasm32")]

use gloo_timers::future::sleep;
use std::time::Duration;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

async fn mount() -> Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<workqueue_playground::app::App>::with_root(root.clone()).render();
    sleep(Duration::from_millis(60)).await;
    root
}

fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).ok().flatten()
}

fn click(root: &Element, selector: &str) {
    find(root, selector)
        .unwrap_or_else(|| panic!("{selector} is on the page"))
        .unchecked_into::<HtmlElement>()
        .click();
}

fn type_into(root: &Element, selector: &str, text: &str) {
    let input: HtmlInputElement = find(root, selector)
        .unwrap_or_else(|| panic!("{selector} exists"))
        .unchecked_into();
    input.set_value(text);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    input
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector)
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn an_added_key_waits_at_a_worker_for_a_decision_and_an_error_requeues_it() {
    let root = mount().await;
    click(&root, "[data-testid=play]"); // pause: the test steps by itself
    type_into(&root, "[data-testid=key]", "ns/test-key");
    click(&root, "[data-testid=add]");
    sleep(Duration::from_millis(40)).await;
    // Reconcile takes 200ms by default: step to its end.
    click(&root, "[data-testid=step]");
    sleep(Duration::from_millis(40)).await;
    assert!(
        find(&root, ".worker.deciding [data-key='ns/test-key']").is_some(),
        "the key awaits a decision"
    );
    click(&root, "[data-testid=outcome-error]");
    sleep(Duration::from_millis(40)).await;
    assert_eq!(text(&root, "[data-testid=num-requeues]"), "1");
    assert!(
        text(&root, "[data-testid=calls]").contains("AddRateLimited(\"ns/test-key\"): When = 5ms")
    );
    assert!(
        find(&root, "[data-testid=waiting] [data-key='ns/test-key']").is_some(),
        "it waits in the heap"
    );
}

#[wasm_bindgen_test]
async fn an_invalid_value_is_flagged_inline_and_cannot_be_applied() {
    let root = mount().await;
    type_into(&root, "#f-burst", "0");
    sleep(Duration::from_millis(30)).await;
    assert!(find(&root, ".field.invalid #f-burst").is_some());
    let apply: web_sys::HtmlButtonElement =
        find(&root, "[data-testid=apply]").unwrap().unchecked_into();
    assert!(apply.disabled());
    assert!(
        text(&root, "#f-burst-hint").contains("burst 0"),
        "{}",
        text(&root, "#f-burst-hint")
    );
    type_into(&root, "#f-burst", "50");
    sleep(Duration::from_millis(30)).await;
    assert!(!apply.disabled());
}

#[wasm_bindgen_test]
async fn the_clock_waits_for_a_first_key_then_moves_while_playing() {
    let root = mount().await;
    sleep(Duration::from_millis(200)).await;
    assert_eq!(
        text(&root, "[data-testid=clock]"),
        "0s",
        "nothing happened yet"
    );
    click(&root, "[data-testid=add]");
    sleep(Duration::from_millis(300)).await;
    assert_ne!(text(&root, "[data-testid=clock]"), "0s");
}

// `?lesson-file=` stays on this site whatever characters the URL standard
// strips or rewrites: the check reads the address the browser will fetch.
#[wasm_bindgen_test]
fn a_lesson_path_is_resolved_as_the_browser_will_then_kept_on_this_origin() {
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    for good in [
        "lessons/mine.md",
        "/lessons/mine.md",
        "../x.md",
        "%2F%2Fevil.example/x.md",
        "./a b.md",
    ] {
        let href = workqueue_playground::fetch::on_this_site(good)
            .unwrap_or_else(|e| panic!("{good:?} refused: {e}"));
        assert!(
            href.starts_with(&format!("{origin}/")),
            "{good:?} -> {href}"
        );
    }
    for bad in [
        "https://evil.example/x.md",
        "//evil.example/x.md",
        "/\t/evil.example/x.md",
        "/\n/evil.example/x.md",
        "\t//evil.example/x.md",
        "\u{1}//evil.example/x.md",
        "\u{1f}//evil.example/x.md",
        " //evil.example/x.md",
        "/\\evil.example/x.md",
        "\\\\evil.example\\x.md",
        "\\/evil.example/x.md",
        "h\tttps://evil.example/x.md",
        "data:text/plain,x",
        "javascript:alert(1)",
        "blob:https://evil.example/1",
        "",
        "   ",
    ] {
        assert!(
            workqueue_playground::fetch::on_this_site(bad).is_err(),
            "{bad:?} was let through"
        );
    }
}

// The lesson queries' bounds hold in wasm as natively: the smallest and
// largest instants are refused by field, the edges of the first week are
// answered, nothing panics.
#[wasm_bindgen_test]
fn every_query_refuses_or_answers_extreme_instants_in_wasm() {
    use workqueue_core::{Duration, Instant};
    use workqueue_lessons::query::{Query, HORIZON};
    let scenario = workqueue_core::Scenario::from_json(
        r#"{"version": 2, "controllers": [{"default_script": {"type": "fail_then_succeed", "failures": 3}, "items": [{"key": "a"}]}]}"#,
    )
    .unwrap();
    let scene = workqueue_core::Manager::new(&scenario).unwrap();
    assert!(Query::Requeues {
        from: Instant::T0,
        until: HORIZON
    }
    .answer(&scene)
    .is_ok());
    let ns = Instant::from_nanos;
    let edges = [
        Instant::MIN,
        ns(-1),
        Instant::T0,
        ns(1),
        HORIZON,
        HORIZON + Duration::NANOSECOND,
        Instant::MAX,
    ];
    for t in edges {
        for q in [
            Query::Requeues {
                from: t,
                until: Instant::MAX,
            },
            Query::Requeues {
                from: Instant::T0,
                until: t,
            },
            Query::NumRequeues {
                key: "a".into(),
                at: t,
            },
            Query::WaitForWorker {
                key: "a".into(),
                since: t,
            },
            Query::ConvergedAt { until: t },
        ] {
            let in_range = (Instant::T0..=HORIZON).contains(&t);
            match q.check() {
                // Answered (a number, or in words: "has not converged by 0s").
                Ok(()) => {
                    assert!(in_range, "{q:?} let through");
                    let _ = q.answer(&scene);
                }
                Err((field, reason)) => {
                    assert!(!field.is_empty() && !reason.is_empty(), "{q:?}");
                    assert!(q.answer(&scene).is_err(), "{q:?}");
                }
            }
        }
    }
}
