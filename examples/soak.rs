//! Soak: the 10,000-key failure storm plus watch sources and a resync, for
//! one virtual hour, driven through the page's own reducer in frame-sized
//! slices (16.7 ms ticks at 1000x). Prints the heap held by the simulation,
//! its log, its series and the rewind checkpoints after 5 and after 60
//! virtual minutes, measured with a counting allocator, and the ratio of the
//! two totals (memory must stay flat: within 10%).
//!
//! `cargo run --release --example soak` (part of `bash scripts/bench.sh`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use workqueue_core::Span;
use workqueue_core::{EventRate, KeyCount};
use workqueue_playground::state::RunAction;

use workqueue_core::Source;
use workqueue_core::{
    Duration, Instant, LimiterConfig, Manager, QueueKind, Scenario, MINUTE, SECOND,
};
use workqueue_playground::settings::Settings;
use workqueue_playground::state::{Action, Playground};

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Bytes a value holds on the heap: what a deep copy of it allocates.
fn held<T: Clone>(value: &T) -> isize {
    let before = live();
    let copy = value.clone();
    let bytes = live() - before;
    drop(copy);
    bytes
}

/// Bytes of key names `engine` holds that `beside` does not share: a
/// clone shares its names (see `Interner`), so [`held`] leaves them out.
fn names_not_shared(engine: &Manager, beside: Option<&Manager>) -> isize {
    engine
        .controllers()
        .enumerate()
        .filter(|(i, (_, c))| {
            let other = beside.and_then(|b| b.controller(*i));
            !other.is_some_and(|o| o.queue().keys().shares_names_with(c.queue().keys()))
        })
        .map(|(_, (_, c))| c.queue().keys().heap_bytes() as isize)
        .sum()
}

fn scenario() -> Scenario {
    let mut s = Scenario::failing_keys(LimiterConfig::DefaultController, KeyCount::lit(10_000));
    s.duration_ns = Span::lit(2 * 60 * MINUTE);
    for (i, rate) in [50.0, 20.0, 5.0].into_iter().enumerate() {
        s.controllers[0].sources.push(Source::WatchEvents {
            key: format!("prod/hot-{i}"),
            per_second: EventRate::new(rate).unwrap(),
            start_ns: Span::lit(Duration::ZERO),
            duration_ns: Span::lit(60 * MINUTE),
        });
    }
    s.controllers[0].sources.push(Source::Resync {
        period_ns: Span::lit(10 * MINUTE),
    });
    s
}

fn report(p: &Playground, label: &str) -> isize {
    let sim = p.sim();
    let total_sim = held(sim) + sim.queue().keys().heap_bytes() as isize;
    let log = held(sim.log());
    let series = held(sim.series());
    let live = p.engine();
    let timeline = &p.run.timeline;
    let checkpoints: isize = timeline
        .checkpoints()
        .iter()
        .map(|c| held(c) + names_not_shared(c, Some(live)))
        .sum();
    let total = total_sim + checkpoints;
    println!(
        "soak_{label}_simulation_kb {:.0}\nsoak_{label}_log_kb {:.0}\nsoak_{label}_series_kb {:.0}\nsoak_{label}_checkpoints_kb {:.0} ({} checkpoints)\nsoak_{label}_total_kb {:.0}",
        (total_sim - log - series) as f64 / 1024.0,
        log as f64 / 1024.0,
        series as f64 / 1024.0,
        checkpoints as f64 / 1024.0,
        timeline.checkpoints().len(),
        total as f64 / 1024.0,
    );
    total
}

/// The memory the rewind timeline holds after 10 virtual minutes of the
/// 100,000-key storm (per-item limiter, instant reconciles) at 1000x, on
/// `queue`; figures are prefixed with `prefix`.
fn timeline_of_the_100k_storm(queue: QueueKind, prefix: &str) {
    let per_item = LimiterConfig::Exponential {
        base_ns: Span::lit(5 * workqueue_core::MILLISECOND),
        max_ns: Span::lit(1000 * SECOND),
    };
    let mut s = Scenario::failing_keys(per_item, KeyCount::lit(100_000));
    s.first_mut().queue = queue;
    s.duration_ns = Span::lit(20 * MINUTE);
    let mut p = Playground::with(Settings::from_scenario(&s), s);
    p.apply(Action::Run(RunAction::SetSpeed(1000.0)));
    let mut frames = 0u64;
    while p.now() < Instant::T0 + 10 * MINUTE {
        p.apply(Action::Run(RunAction::Tick(1000.0 / 60.0)));
        frames += 1;
        assert!(
            p.run.playback.playing,
            "the 100k storm stopped: {:?}",
            p.ui.notice
        );
    }
    let live = p.engine();
    let timeline = &p.run.timeline;
    // A checkpoint as it costs: a copy of the whole run, less the key names
    // it shares with the live run; the live run with its names.
    let checkpoint_bytes = |c: &Manager| held(c) + names_not_shared(c, Some(live));
    let live_bytes = held(live) + names_not_shared(live, None);
    let held_kb = timeline
        .checkpoints()
        .iter()
        .map(checkpoint_bytes)
        .sum::<isize>() as f64
        / 1024.0;
    println!("{prefix}timeline_100k_10min_frames {frames}");
    println!(
        "{prefix}timeline_100k_10min_checkpoints {}",
        timeline.checkpoints().len()
    );
    println!(
        "{prefix}timeline_100k_10min_key_copies {}",
        workqueue_playground::timeline::timeline_keys(timeline.checkpoints())
    );
    println!("{prefix}timeline_100k_10min_kb {held_kb:.0}");
    println!(
        "{prefix}timeline_100k_10min_simulation_kb {:.0}",
        live_bytes as f64 / 1024.0
    );
    // Per key: one checkpoint (what rewinding keeps) and the live run as
    // the page holds it (log and series included).
    let keys = live.key_total() as f64;
    let checkpoint = timeline.checkpoints().last().map_or(0, checkpoint_bytes) as f64;
    println!(
        "{prefix}checkpoint_bytes_per_key {:.0} (budget 200)",
        checkpoint / keys
    );
    println!(
        "{prefix}live_bytes_per_key {:.0} (budget 300)",
        live_bytes as f64 / keys
    );
}

fn main() {
    let s = scenario();
    let mut p = Playground::with(Settings::from_scenario(&s), s);
    p.apply(Action::Run(RunAction::SetSpeed(1000.0)));
    let mut totals = Vec::new();
    for (label, until) in [("5min", 5 * MINUTE), ("60min", 60 * MINUTE)] {
        let mut frames = 0u64;
        while p.now() < Instant::T0 + until {
            p.apply(Action::Run(RunAction::Tick(1000.0 / 60.0)));
            frames += 1;
            assert!(
                p.run.playback.playing,
                "the soak run stopped: {:?}",
                p.ui.notice
            );
        }
        println!(
            "soak_{label}_frames {frames} (virtual {:.0} s)",
            p.now().as_nanos() as f64 / SECOND.as_nanos() as f64
        );
        totals.push(report(&p, label));
    }
    let ratio = totals[1] as f64 / totals[0] as f64;
    println!("soak_memory_60min_over_5min {ratio:.3}");
    timeline_of_the_100k_storm(QueueKind::ClientGo, "");
    timeline_of_the_100k_storm(QueueKind::Priority, "v0_23_");
    if !(0.9..=1.1).contains(&ratio) {
        eprintln!("soak: memory grew by more than 10% between 5 and 60 virtual minutes");
        std::process::exit(1);
    }
}
