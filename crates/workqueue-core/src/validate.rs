//! The one validation gate: everything that enters the core (scenario files,
//! live inputs, a share link's recorded inputs, lesson set-ups) passes these
//! checks first, so the simulation only ever sees numbers inside the ranges
//! below. A refusal names the field and states the allowed range.
//! A value whose range is its type (a number: workers, a bucket's qps and
//! burst, a client's qps, events per second, keys added at once, failures,
//! requests, Crossplane's R and breaker, an error probability; a time: a
//! delay, a run's length, a sample, a resync, an instant) is refused as it
//! is read: see [`crate::ranges`] and [`crate::spans`]. What is left here
//! are the rules between values, and the sizes of lists.
//!
//! | what                               | allowed                         |
//! |------------------------------------|---------------------------------|
//! | events of one watch source         | at most 1,000,000               |
//! | keys in all                        | at most 1,000,000               |
//! | requests of one reconcile, in all  | at most 1,000                   |
//! | outcomes in one sequence           | at most 1,000                   |
//! | limiters in one tree               | at most 32                      |
//! | event sources                      | at most 1,000                   |
//! | an outage                          | ends after it starts            |
//! | a key (add-many: prefix and index) | 1 to 253 characters             |

use crate::controller::{CrossplaneConfig, Script};
use crate::events::Input;
use crate::limiter::LimiterConfig;
use crate::ranges::KeyCount;
use crate::scenario::{ControllerSpec, Scenario, ScenarioError, Source, SCENARIO_VERSION};
use crate::time::go::format_go_duration as go;
use crate::time::{Instant, SECOND};

use crate::limits::*;
use crate::scenario::bad;

/// At most `max` of `what` (a list's length, a tree's size).
fn at_most(
    field: impl Into<String>,
    n: usize,
    max: usize,
    what: &str,
) -> Result<(), ScenarioError> {
    if n > max {
        return Err(bad(field, format!("{n} {what} is too many: at most {max}")));
    }
    Ok(())
}

pub fn key(field: &str, key: &str) -> Result<(), ScenarioError> {
    if key.trim().is_empty() {
        return Err(bad(
            field,
            format!("a key cannot be empty: use 1 to {MAX_KEY_LEN} characters"),
        ));
    }
    // Characters, not bytes: a CJK key is as long as it reads.
    let chars = key.chars().count();
    if chars > MAX_KEY_LEN {
        return Err(bad(
            field,
            format!("a key is at most {MAX_KEY_LEN} characters, this one has {chars}"),
        ));
    }
    Ok(())
}

/// An add-many's prefix and count: the longest key it makes (the prefix
/// and the last index) is a key like any other.
fn add_many(prefix_field: &str, prefix: &str, count: KeyCount) -> Result<(), ScenarioError> {
    key(prefix_field, prefix)?;
    let last = (count.get() - 1).to_string();
    let longest = prefix.chars().count() + last.len();
    if longest > MAX_KEY_LEN {
        return Err(bad(
            prefix_field,
            format!(
                "the last key, the prefix and {last}, has {longest} characters: a key is at most {MAX_KEY_LEN}"
            ),
        ));
    }
    Ok(())
}

fn limiter_nodes(l: &LimiterConfig) -> usize {
    match l {
        LimiterConfig::MaxOf { limiters } => 1 + limiters.iter().map(limiter_nodes).sum::<usize>(),
        LimiterConfig::WithMaxWait { limiter, .. } => 1 + limiter_nodes(limiter),
        _ => 1,
    }
}

pub fn limiter(field: &str, l: &LimiterConfig) -> Result<(), ScenarioError> {
    at_most(
        field,
        limiter_nodes(l),
        MAX_LIMITERS,
        "limiters in one tree",
    )?;
    limiter_node(field, l)
}

fn limiter_node(field: &str, l: &LimiterConfig) -> Result<(), ScenarioError> {
    let f = |name: &str| format!("{field}.{name}");
    match l {
        // Their delays, qps and burst are in range by their types.
        LimiterConfig::Exponential { .. }
        | LimiterConfig::FastSlow { .. }
        | LimiterConfig::Bucket { .. } => Ok(()),
        LimiterConfig::MaxOf { limiters } => {
            if limiters.is_empty() {
                return Err(bad(
                    f("limiters"),
                    format!("max-of needs 1 to {MAX_LIMITERS} limiters"),
                ));
            }
            for (i, l) in limiters.iter().enumerate() {
                limiter_node(&format!("{field}.limiters[{i}]"), l)?;
            }
            Ok(())
        }
        LimiterConfig::WithMaxWait { limiter, .. } => limiter_node(&f("limiter"), limiter),
        LimiterConfig::DefaultController => Ok(()),
    }
}

/// A script's own rules (its outcomes, times and numbers are in range by
/// their types): a sequence's length, and an outage that ends after it
/// starts.
pub fn script(field: &str, s: &Script) -> Result<(), ScenarioError> {
    match s {
        Script::Sequence { outcomes, .. } => at_most(
            format!("{field}.outcomes"),
            outcomes.len(),
            MAX_SEQUENCE,
            "outcomes",
        ),
        Script::Outage {
            from_ns, until_ns, ..
        } => {
            if until_ns <= from_ns {
                return Err(bad(
                    format!("{field}.until_ns"),
                    format!(
                        "{} is not after from_ns ({}): an outage ends after it starts",
                        go(until_ns.since_t0()),
                        go(from_ns.since_t0())
                    ),
                ));
            }
            Ok(())
        }
        Script::Always { .. }
        | Script::Random { .. }
        | Script::NotReadyUntil { .. }
        | Script::FailThenSucceed { .. }
        | Script::Live => Ok(()),
    }
}

/// One event source (`i` is its place in `sources`).
pub fn source(i: usize, s: &Source) -> Result<(), ScenarioError> {
    source_at(&format!("sources[{i}]."), s)
}

/// One event source, its fields named `{prefix}per_second` and so on (a
/// live input's fields have no prefix).
fn source_at(prefix: &str, s: &Source) -> Result<(), ScenarioError> {
    let f = |name: &str| format!("{prefix}{name}");
    match s {
        Source::WatchEvents {
            key: k,
            per_second,
            duration_ns,
            ..
        } => {
            key(&f("key"), k)?;
            let events =
                per_second.get() * (duration_ns.as_nanos() as f64 / SECOND.as_nanos() as f64);
            if events > MAX_EVENTS_PER_SOURCE as f64 {
                return Err(bad(
                    f("duration_ns"),
                    format!(
                        "{} events is too many: at most {}",
                        crate::time::format_count(events as u64),
                        crate::time::format_count(MAX_EVENTS_PER_SOURCE)
                    ),
                ));
            }
        }
        Source::AddMany {
            prefix,
            count,
            script: sc,
            ..
        } => {
            add_many(&f("prefix"), prefix, *count)?;
            if let Some(sc) = sc {
                script(&f("script"), sc)?;
            }
        }
        // Its period is in range by its type.
        Source::Resync { .. } => {}
    }
    Ok(())
}

/// The number of distinct keys a scenario may create, or `None` past `u64`.
pub(crate) fn key_count(s: &Scenario) -> Option<u64> {
    s.controllers
        .iter()
        .try_fold(0u64, |sum, c| sum.checked_add(controller_keys(c)?))
}

/// The keys one controller may create, or `None` past `u64`.
pub(crate) fn controller_keys(c: &ControllerSpec) -> Option<u64> {
    c.sources.iter().try_fold(c.items.len() as u64, |sum, src| {
        sum.checked_add(match src {
            Source::AddMany { count, .. } => count.get(),
            Source::WatchEvents { .. } => 1,
            Source::Resync { .. } => 0,
        })
    })
}

/// A whole scenario: the manager's parts under their own names, then each
/// controller under `controllers[i].`. The same limits hold for a manager
/// of one as for a manager of many.
pub fn scenario(s: &Scenario) -> Result<(), ScenarioError> {
    if s.version != SCENARIO_VERSION {
        return Err(bad(
            "version",
            format!(
                "version {} is not supported: this playground reads version {SCENARIO_VERSION}",
                s.version
            ),
        ));
    }
    if s.controllers.is_empty() || s.controllers.len() > MAX_CONTROLLERS {
        return Err(bad(
            "controllers",
            format!(
                "{} controllers: a scenario has 1 to {MAX_CONTROLLERS}",
                s.controllers.len()
            ),
        ));
    }
    if let Some(cp) = &s.crossplane {
        crossplane(cp)?;
    }
    let mut keys: u64 = 0;
    for (i, c) in s.controllers.iter().enumerate() {
        let at = |e: ScenarioError| bad(format!("controllers[{i}].{}", e.field), e.reason);
        if c.name.chars().count() > 63 {
            return Err(bad(
                format!("controllers[{i}].name"),
                "a controller's name has at most 63 characters",
            ));
        }
        if s.controllers[..i].iter().any(|o| o.name == c.name) {
            return Err(bad(
                format!("controllers[{i}].name"),
                format!("{:?} names two controllers: names are unique", c.name),
            ));
        }
        controller(c, s.crossplane.is_some()).map_err(at)?;
        if c.shares_bucket && s.shared_bucket.is_none() {
            return Err(at(bad(
                "shares_bucket",
                "there is no shared_bucket to share: declare one in the manager",
            )));
        }
        keys = keys.saturating_add(controller_keys(c).unwrap_or(u64::MAX));
        if keys > MAX_ITEMS {
            let field = if s.controllers.len() == 1 {
                format!("controllers[{i}].items")
            } else {
                "controllers".to_string()
            };
            let n = controller_keys(c)
                .filter(|_| s.controllers.len() == 1)
                .map_or_else(|| format!("{keys} or more"), |n| n.to_string());
            return Err(bad(
                field,
                format!("{n} keys is too many: at most {MAX_ITEMS} in all"),
            ));
        }
    }
    Ok(())
}

/// One controller's own fields (named as within it). Under Crossplane its
/// limiter and workers are derived from R, so its own are not used.
fn controller(c: &ControllerSpec, crossplane: bool) -> Result<(), ScenarioError> {
    if !crossplane {
        limiter("limiter", &c.limiter())?;
    }
    script("default_script", &c.default_script)?;
    if c.writes.len() > MAX_WRITE_KINDS {
        return Err(bad(
            "writes",
            format!(
                "{} kinds is too many: a reconcile writes at most {MAX_WRITE_KINDS}",
                c.writes.len()
            ),
        ));
    }
    let mut total = u64::from(c.requests_per_reconcile.get());
    for (kind, n) in &c.writes {
        let field = format!("writes.{kind}");
        let len = kind.chars().count();
        if kind.trim().is_empty() || len > MAX_KIND_LEN {
            return Err(bad(
                field,
                format!("a kind's name is 1 to {MAX_KIND_LEN} characters, this one has {len}"),
            ));
        }
        total += u64::from(n.get());
    }
    if total > MAX_REQUESTS_PER_RECONCILE as u64 {
        return Err(bad(
            "writes",
            format!("{total} requests per reconcile in all is too many: at most {MAX_REQUESTS_PER_RECONCILE}, own kind and writes together"),
        ));
    }
    if let Some(fw) = &c.failure_writes {
        if c.errors_write_nothing {
            return Err(bad(
                "failure_writes",
                "errors_write_nothing says a failure sends nothing: say one or the other",
            ));
        }
        for (kind, n) in fw {
            let sent = if *kind == c.kind {
                c.requests_per_reconcile.get()
            } else {
                0
            }
            .saturating_add(c.writes.get(kind).map_or(0, |n| n.get()));
            if *n > sent {
                return Err(bad(
                    format!("failure_writes.{}", crate::shown(kind)),
                    format!("{n} writes to {} when a reconcile fails, but it sends {sent} when it succeeds: a failure sends some of its writes, never more", crate::shown(kind)),
                ));
            }
        }
    }
    at_most("sources", c.sources.len(), MAX_SOURCES, "sources")?;
    let mut seen = std::collections::HashSet::with_capacity(c.items.len());
    for (i, it) in c.items.iter().enumerate() {
        key(&format!("items[{i}].key"), &it.key)?;
        if !seen.insert(it.key.as_str()) {
            return Err(bad(
                format!("items[{i}].key"),
                format!("{:?} is listed twice: each key has one entry", it.key),
            ));
        }
        if let Some(sc) = &it.script {
            script(&format!("items[{i}].script"), sc)?;
        }
    }
    for (i, src) in c.sources.iter().enumerate() {
        source(i, src)?;
    }
    Ok(())
}

/// The checks, asked of a scenario.
impl Scenario {
    /// The number of distinct keys the scenario would create (at most),
    /// saturating rather than wrapping.
    pub fn key_count(&self) -> u64 {
        key_count(self).unwrap_or(u64::MAX)
    }

    /// Checks a key typed by a user.
    pub fn check_input_key(key: &str) -> Result<(), ScenarioError> {
        self::key("key", key)
    }

    /// Checks one event source (`i` is its place in `sources`).
    pub fn check_source(i: usize, s: &Source) -> Result<(), ScenarioError> {
        source(i, s)
    }

    /// Every field against its stated range (see [`crate::validate`]).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        scenario(self)
    }
}

// The gate for what is done to a running scenario: one input, and a whole
// recorded tape (a link's, a run file's, a lesson step's).

/// A live input, before it touches the run. Field names are the input's own
/// (`per_second`, `count`, `script.error_probability`), as the forms show them.
pub fn input(i: &Input) -> Result<(), ScenarioError> {
    match i {
        Input::Add { key: k } => key("key", k),
        Input::AddMany { prefix, count } => add_many("prefix", prefix, *count),
        Input::WatchEvents {
            key: k,
            per_second,
            duration_ns,
        } => {
            let src = Source::WatchEvents {
                key: k.clone(),
                per_second: *per_second,
                start_ns: crate::spans::Delay::ZERO,
                duration_ns: *duration_ns,
            };
            source_at("", &src)
        }
        Input::Resync { period_ns } => match period_ns {
            Some(p) => source_at("", &Source::Resync { period_ns: *p }),
            None => Ok(()),
        },
        // Its outcome is in range by its types.
        Input::Decide { key: k, .. } => key("key", k),
        Input::SetScript { key: k, script: s } => {
            key("key", k)?;
            script("script", s)
        }
        Input::DefaultScript { script: s } => script("script", s),
        Input::Shutdown => Ok(()),
    }
}

/// A recorded tape of inputs (a share link's, or a lesson's): each input
/// valid, instants in order and inside a run, and not absurdly many.
pub fn tape(inputs: &[(Instant, Input)]) -> Result<(), ScenarioError> {
    const MAX_TAPE: usize = 100_000;
    at_most("inputs", inputs.len(), MAX_TAPE, "recorded inputs")?;
    let mut last = Instant::T0;
    for (n, (at, i)) in inputs.iter().enumerate() {
        if *at < last || *at > Instant::T0 + MAX_RUN {
            return Err(bad(
                format!("inputs[{n}].at"),
                format!(
                    "{} is out of range: inputs are in time order, from {} to {}",
                    go(*at - Instant::T0),
                    go(last - Instant::T0),
                    go(MAX_RUN)
                ),
            ));
        }
        last = *at;
        input(i).map_err(|e| bad(format!("inputs[{n}].{}", e.field), e.reason))?;
    }
    // The same caps as a file's: a link cannot start more sources or name
    // more keys by recording them as inputs.
    let sources = inputs
        .iter()
        .filter(|(_, i)| matches!(i, Input::WatchEvents { .. } | Input::AddMany { .. }))
        .count();
    if sources > MAX_SOURCES {
        return Err(bad(
            "inputs",
            format!("{sources} inputs start event sources: at most {MAX_SOURCES}, as in a file"),
        ));
    }
    let keys = inputs.iter().fold(0u64, |sum, (_, i)| {
        sum.saturating_add(match i {
            Input::AddMany { count, .. } => count.get(),
            Input::Add { .. } | Input::WatchEvents { .. } | Input::SetScript { .. } => 1,
            _ => 0,
        })
    });
    if keys > MAX_ITEMS {
        return Err(bad(
            "inputs",
            format!("the inputs add {keys} keys or more: at most {MAX_ITEMS}, as in a file"),
        ));
    }
    Ok(())
}

// The gate for Crossplane's part of a scenario: core's breaker flags only
// where there is a breaker (R and the breaker's numbers are in range by
// their types: `ranges`).

pub fn crossplane(cp: &CrossplaneConfig) -> Result<(), ScenarioError> {
    // R, and the breaker's burst and refill, are in range by their types.
    let Some(_b) = cp.breaker else { return Ok(()) };
    if cp.profile != crate::CrossplaneProfile::Core {
        return Err(bad(
            "crossplane.breaker",
            format!(
                "only Crossplane core (profile \"core\") has the XR circuit breaker; this scenario's profile is \"{}\"",
                cp.profile.name()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
