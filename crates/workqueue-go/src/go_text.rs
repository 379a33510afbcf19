//! Go text the exports share: durations, floats, limiters and kinds as Go
//! writes them.

use workqueue_core::{Duration, LimiterConfig, Scenario};

/// A duration as Go writes it in an argument: `5*time.Millisecond`.
pub(crate) fn duration(d: Duration) -> String {
    const UNITS: [(Duration, &str); 6] = [
        (workqueue_core::HOUR, "time.Hour"),
        (workqueue_core::MINUTE, "time.Minute"),
        (workqueue_core::SECOND, "time.Second"),
        (workqueue_core::MILLISECOND, "time.Millisecond"),
        (workqueue_core::MICROSECOND, "time.Microsecond"),
        (Duration::NANOSECOND, "time.Nanosecond"),
    ];
    if d == Duration::ZERO {
        return "0".into();
    }
    let (unit, name) = UNITS
        .iter()
        .find(|(u, _)| d.as_nanos() % u.as_nanos() == 0)
        .copied()
        .unwrap_or((Duration::NANOSECOND, "time.Nanosecond"));
    match d / unit {
        1 => name.to_string(),
        n => format!("{n}*{name}"),
    }
}

/// A float as Go reads it back to the same value (`10`, `7.5`). Rates are
/// validated finite (0.001 to 1e9) before a scenario reaches the export; a
/// value that is not a number would not be Go, so it is written as 0.
pub(crate) fn float(x: f64) -> String {
    match x.is_finite() {
        true => format!("{x}"),
        false => "0".into(),
    }
}

/// A limiter expression, indented by `indent` for its nested lines.
pub(crate) fn limiter(l: &LimiterConfig, indent: &str) -> String {
    let inner = format!("{indent}\t");
    // client-go's default, spelled out, is its constructor.
    if *l == LimiterConfig::default_controller_parts() {
        return limiter(&LimiterConfig::DefaultController, indent);
    }
    match l {
        LimiterConfig::Exponential { base_ns, max_ns } => format!(
            "workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request]({}, {})",
            duration(base_ns.get()),
            duration(max_ns.get())
        ),
        LimiterConfig::FastSlow {
            fast_ns,
            slow_ns,
            max_fast_attempts,
        } => format!(
            "workqueue.NewTypedItemFastSlowRateLimiter[reconcile.Request]({}, {}, {max_fast_attempts})",
            duration(fast_ns.get()),
            duration(slow_ns.get())
        ),
        LimiterConfig::Bucket { qps, burst } => format!(
            "&workqueue.TypedBucketRateLimiter[reconcile.Request]{{Limiter: rate.NewLimiter(rate.Limit({}), {burst})}}",
            float(qps.get())
        ),
        LimiterConfig::MaxOf { limiters } => format!(
            "workqueue.NewTypedMaxOfRateLimiter(\n{}{indent})",
            limiters
                .iter()
                .map(|l| format!("{inner}{},\n", limiter(l, &inner)))
                .collect::<String>()
        ),
        LimiterConfig::WithMaxWait {
            limiter: l,
            max_wait_ns,
        } => format!(
            "workqueue.NewTypedWithMaxWaitRateLimiter(\n{inner}{},\n{inner}{},\n{indent})",
            limiter(l, &inner),
            duration(max_wait_ns.get())
        ),
        LimiterConfig::DefaultController => {
            "workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]()".into()
        }
    }
}

/// A Go identifier for a kind: letters and digits, starting upper-case
/// (`widgets.v1` gives `WidgetsV1`).
fn type_name(kind: &str) -> String {
    let mut out: String = kind
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert_str(0, "Kind");
    }
    out
}

/// Each controller's kind as the Go type the export writes: its
/// [`type_name`], made distinct where two different kinds would share one
/// (`a-b` and `a_b` give `AB` and `AB2`), so that every kind keeps its own
/// client bucket through an export and an import. Two controllers of one
/// kind share its type. A scenario read back from its export gives the
/// same types: they are already distinct, and each is its own type name.
pub fn kind_types(s: &Scenario) -> Vec<String> {
    let mut given: Vec<(String, String)> = Vec::new();
    (0..s.controllers.len())
        .map(|i| {
            let kind = s.controller_kind(i);
            if let Some((_, t)) = given.iter().find(|(k, _)| *k == kind) {
                return t.clone();
            }
            let base = type_name(&kind);
            let t = std::iter::once(base.clone())
                .chain((2u64..).map(|n| format!("{base}{n}")))
                .find(|t| given.iter().all(|(_, g)| g != t))
                .unwrap_or(base);
            given.push((kind, t.clone()));
            t
        })
        .collect()
}

/// The API requests controller `i`'s reconcile sends, for a comment:
/// `2 to "Secret", 1 to "Event"` (kinds quoted, so none can end the
/// comment); `None` when it sends none.
pub(crate) fn sends(s: &Scenario, i: usize) -> Option<String> {
    let sends = s.requests_by_kind(i);
    if sends.is_empty() {
        return None;
    }
    let list: Vec<String> = sends
        .iter()
        .map(|(k, n)| format!("{n} to {}", crate::literal::quote(k)))
        .collect();
    Some(list.join(", "))
}
