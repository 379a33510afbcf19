//! The gate for what is done to a running scenario: one input, and a whole
//! recorded tape (a link's, a run file's, a lesson step's).

use super::*;
use crate::time::Instant;

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
                start_ns: Duration::ZERO,
                duration_ns: *duration_ns,
            };
            source_at("", &src)
        }
        Input::Resync { period_ns } => match period_ns {
            Some(p) => source_at("", &Source::Resync { period_ns: *p }),
            None => Ok(()),
        },
        Input::Decide { key: k, outcome: o } => {
            key("key", k)?;
            outcome("outcome", o)
        }
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
