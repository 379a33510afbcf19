use super::*;
use crate::buckets::BucketStore;
use crate::time::{Duration, Instant};
use crate::time::{HOUR, MINUTE};
use crate::Span;

const X: ItemId = ItemId(0);
const Y: ItemId = ItemId(1);

fn whens(l: &mut Limiter, item: ItemId, n: usize, b: &mut BucketStore) -> Vec<Duration> {
    (0..n).map(|_| l.when(item, Instant::T0, b)).collect()
}

#[test]
fn exponential_doubles_to_the_cap() {
    let mut b = BucketStore::new();
    let mut l = LimiterConfig::Exponential {
        base_ns: Span::lit(5 * MILLISECOND),
        max_ns: Span::lit(1000 * SECOND),
    }
    .build(&mut b);
    let got = whens(&mut l, X, 20, &mut b);
    assert_eq!(got[0], 5 * MILLISECOND);
    assert_eq!(got[5], 160 * MILLISECOND);
    assert_eq!(got[17], 655_360 * MILLISECOND);
    assert_eq!(got[18], 1000 * SECOND);
    assert_eq!(l.num_requeues(X), 20);
    assert_eq!(l.num_requeues(Y), 0);
    l.forget(X);
    assert_eq!(l.when(X, Instant::T0, &mut b), 5 * MILLISECOND);
}

#[test]
fn exponential_edges() {
    let mut b = BucketStore::new();
    let mut big = LimiterConfig::Exponential {
        base_ns: Span::lit(MINUTE),
        max_ns: Span::lit(1000 * HOUR),
    }
    .build(&mut b);
    assert_eq!(whens(&mut big, X, 3, &mut b)[2], 4 * MINUTE);
    let mut inverted = LimiterConfig::Exponential {
        base_ns: Span::lit(10 * SECOND),
        max_ns: Span::lit(SECOND),
    }
    .build(&mut b);
    assert_eq!(inverted.when(X, Instant::T0, &mut b), SECOND);
    // base 1ns: call 64 lands exactly on 2^63, which amd64 turns into i64::MIN.
    let mut one = LimiterConfig::Exponential {
        base_ns: Span::lit(Duration::from_nanos(1)),
        max_ns: Span::lit(SECOND),
    }
    .build(&mut b);
    let got = whens(&mut one, X, 66, &mut b);
    assert_eq!(got[29], Duration::from_nanos(536_870_912));
    assert!(got[30..63].iter().all(|d| *d == SECOND));
    assert_eq!(got[63], Duration::from_nanos(i64::MIN));
    assert_eq!(got[64], SECOND);
    // base 0: NaN at exp 1024 also becomes an immediate retry.
    assert_eq!(
        Exponential::delay_for(Duration::ZERO, SECOND, 1023),
        Duration::ZERO
    );
    assert_eq!(
        Exponential::delay_for(Duration::ZERO, SECOND, 1024),
        Duration::from_nanos(i64::MIN)
    );
}

#[test]
fn fast_slow_counts_first() {
    let mut b = BucketStore::new();
    let mut l = LimiterConfig::FastSlow {
        fast_ns: Span::lit(5 * MILLISECOND),
        slow_ns: Span::lit(10 * SECOND),
        max_fast_attempts: 3,
    }
    .build(&mut b);
    let ms = 5 * MILLISECOND;
    assert_eq!(
        whens(&mut l, X, 5, &mut b),
        vec![ms, ms, ms, 10 * SECOND, 10 * SECOND]
    );
    let mut never_fast = LimiterConfig::FastSlow {
        fast_ns: Span::lit(Duration::from_nanos(1)),
        slow_ns: Span::lit(Duration::from_nanos(2)),
        max_fast_attempts: 0,
    }
    .build(&mut b);
    assert_eq!(
        never_fast.when(X, Instant::T0, &mut b),
        Duration::from_nanos(2)
    );
}

#[test]
fn max_of_takes_tokens_even_when_per_item_wins() {
    let mut b = BucketStore::new();
    let mut l = LimiterConfig::DefaultController.build(&mut b);
    for _ in 0..100 {
        l.when(X, Instant::T0, &mut b);
    }
    assert_eq!(b.tokens_at(l.bucket().unwrap(), Instant::T0), 0.0);
    assert_eq!(l.when(Y, Instant::T0, &mut b), 100 * MILLISECOND);
}

#[test]
fn with_max_wait_caps_but_counts() {
    let mut b = BucketStore::new();
    let inner = LimiterConfig::Exponential {
        base_ns: Span::lit(SECOND),
        max_ns: Span::lit(HOUR),
    };
    let mut l = LimiterConfig::WithMaxWait {
        limiter: Box::new(inner),
        max_wait_ns: Span::lit(10 * SECOND),
    }
    .build(&mut b);
    let s = SECOND;
    assert_eq!(
        whens(&mut l, X, 6, &mut b),
        vec![s, 2 * s, 4 * s, 8 * s, 10 * s, 10 * s]
    );
    assert_eq!(l.num_requeues(X), 6);
}

#[test]
fn explanation_names_the_winner() {
    let mut b = BucketStore::new();
    let mut l = LimiterConfig::DefaultController.build(&mut b);
    for _ in 0..5 {
        l.when(X, Instant::T0, &mut b);
    }
    for i in 2..97 {
        l.when(ItemId(i), Instant::T0, &mut b);
    }
    // 100 tokens are gone; X has failed 5 times: 160ms beats the bucket's 100ms.
    let a = l.when_explained(X, Instant::T0, &mut b);
    assert_eq!(a.delay, 160 * MILLISECOND);
    assert!(a.parts[0].won && !a.parts[1].won);
    assert_eq!(a.parts[1].delay, 100 * MILLISECOND);
    assert!(
        matches!(a.parts[1].kind, AnswerKind::Bucket { tokens_after, .. } if tokens_after == -1.0)
    );
}

#[test]
fn config_json_matches_conformance_format() {
    let c: LimiterConfig = serde_json::from_str(
            r#"{"type":"max_of","limiters":[{"type":"fast_slow","fast_ns":5000000,"slow_ns":"3s","max_fast_attempts":3},{"type":"default_controller"}]}"#,
        )
        .unwrap();
    let LimiterConfig::MaxOf { limiters } = &c else {
        panic!("{c:?}")
    };
    assert_eq!(
        limiters[0],
        LimiterConfig::FastSlow {
            fast_ns: Span::lit(5 * MILLISECOND),
            slow_ns: Span::lit(3 * SECOND),
            max_fast_attempts: 3
        }
    );
    let err = serde_json::from_str::<LimiterConfig>(r#"{"type":"leaky"}"#).unwrap_err();
    assert!(err.to_string().contains("unknown variant"), "{err}");
}
