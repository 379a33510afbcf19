//! A list of outcomes as a person types it: `error, error, requeue-after 30s, success`.

use workqueue_core::{parse_go_duration, Outcome, SignedDelay};

/// Parses a list of outcomes as typed, e.g. `error, error, requeue-after 30s, success`.
pub fn parse_outcomes(text: &str) -> Result<Vec<Outcome>, String> {
    let mut out = Vec::new();
    for raw in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let mut words = raw.split_whitespace();
        let name = words.next().unwrap_or_default().to_ascii_lowercase();
        let arg = words.next();
        let after = |arg: Option<&str>| -> Result<SignedDelay, String> {
            let a = arg.ok_or_else(|| format!("{name} needs a duration, like {name} 30s"))?;
            let d = parse_go_duration(a).map_err(|e| e.to_string())?;
            SignedDelay::new(d).map_err(|e| e.to_string())
        };
        out.push(match name.as_str() {
            "success" | "ok" => Outcome::Success,
            "requeue" => Outcome::Requeue,
            "error" | "err" => Outcome::Error,
            "terminal" => Outcome::TerminalError,
            "requeue-after" | "requeueafter" => Outcome::RequeueAfter { after_ns: after(arg)? },
            "error-after" => Outcome::ErrorWithRequeueAfter { after_ns: after(arg)? },
            other => return Err(format!("{other:?} is not an outcome: use success, requeue, requeue-after 30s, error, terminal or error-after 30s")),
        });
    }
    if out.is_empty() {
        return Err("list at least one outcome".into());
    }
    Ok(out)
}
