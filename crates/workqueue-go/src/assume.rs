//! What a controller's Go set-up does not say, said by its author: how many
//! objects each controller has, how long a reconcile takes, an outage at
//! the start, and the API requests each reconcile sends. The page's dialog
//! and `wqsim import`'s options put them on an imported scenario the same
//! way.

use std::collections::BTreeMap;
use workqueue_core::{At, Span};

use workqueue_core::limits::MAX_REQUESTS_PER_RECONCILE;
use workqueue_core::{
    Duration, Instant, KeyCount, OutOfRange, Outcome, Requests, Scenario, ScenarioError, Script,
};

/// The author's figures; `None` keeps what the import assumed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Assumptions {
    /// Objects per controller (the keys its informer lists at the start).
    pub objects: Option<u64>,
    pub reconcile_ns: Option<Duration>,
    /// Every reconcile ending in this window (from, until) fails (a
    /// webhook, an external API down); an empty window: none.
    pub outage: Option<(Duration, Duration)>,
    /// Per controller, by name (`""`: every controller): writes to its own
    /// kind, and to other kinds by kind.
    pub writes: Vec<(String, Option<u32>, BTreeMap<String, u32>)>,
    /// A reconcile that fails sends none of its requests.
    pub errors_write_nothing: bool,
    /// Per controller, by name (`""`: every controller): the writes a
    /// failing reconcile still sends, by kind.
    pub failure_writes: Vec<(String, BTreeMap<String, u32>)>,
}

/// Time an outage's run goes on after it ends, to see the recovery.
const AFTER_OUTAGE: Duration = Duration::from_nanos(10 * 60 * workqueue_core::SECOND.as_nanos());

impl Assumptions {
    /// The imported scenario with these figures, checked by the core's
    /// gate; a refusal names the figure.
    pub fn apply(&self, s: &Scenario) -> Result<Scenario, ScenarioError> {
        let mut s = s.clone();
        for name in self
            .writes
            .iter()
            .map(|w| &w.0)
            .chain(self.failure_writes.iter().map(|w| &w.0))
        {
            if !name.is_empty() && !s.controllers.iter().any(|c| c.name == *name) {
                let names: Vec<&str> = s.controllers.iter().map(|c| c.name.as_str()).collect();
                return Err(ScenarioError {
                    field: "writes".into(),
                    reason: format!(
                        "there is no controller {name:?} (the set-up has {})",
                        names.join(", ")
                    ),
                    line: None,
                });
            }
        }
        for (i, c) in s.controllers.iter_mut().enumerate() {
            // Each figure in its range, named as a file names it.
            let at = |field: String| move |e: OutOfRange| e.at(format!("controllers[{i}].{field}"));
            if let Some(objects) = self.objects {
                for (j, src) in c.sources.iter_mut().enumerate() {
                    if let workqueue_core::Source::AddMany { count, .. } = src {
                        *count =
                            KeyCount::new(objects).map_err(at(format!("sources[{j}].count")))?;
                    }
                }
            }
            if let Some(d) = self.reconcile_ns {
                c.controller.reconcile_ns =
                    Span::new(d).map_err(at("controller.reconcile_ns".into()))?;
            }
            if let Some((from, until)) = self.outage.filter(|(f, u)| u > f) {
                c.default_script = Script::Outage {
                    from_ns: At::new(Instant::T0 + from)
                        .map_err(at("default_script.from_ns".into()))?,
                    until_ns: At::new(Instant::T0 + until)
                        .map_err(at("default_script.until_ns".into()))?,
                    otherwise: Outcome::Success,
                };
            }
            for (name, own, other) in &self.writes {
                if name.is_empty() || *name == c.name {
                    if let Some(own) = own {
                        c.requests_per_reconcile =
                            Requests::new(*own).map_err(at("requests_per_reconcile".into()))?;
                    }
                    c.writes = other
                        .iter()
                        .map(|(kind, n)| {
                            let n = Requests::new(*n).map_err(at(format!("writes.{kind}")))?;
                            Ok((kind.clone(), n))
                        })
                        .collect::<Result<_, ScenarioError>>()?;
                }
            }
            c.errors_write_nothing |= self.errors_write_nothing;
            for (name, sent) in &self.failure_writes {
                if name.is_empty() || *name == c.name {
                    c.failure_writes = Some(sent.clone());
                }
            }
        }
        if let Some((_, until)) = self.outage.filter(|(f, u)| u > f) {
            // The run goes on past the outage (at most to its longest).
            s.duration_ns = s
                .duration_ns
                .max(Span::saturating(until.saturating_add(AFTER_OUTAGE)));
        }
        s.validate()?;
        Ok(s)
    }
}

/// "Secret 1, ConfigMap 2" (or `Secret=1`, `Secret: 1`; a kind alone is
/// one write): writes by kind.
pub fn writes_of(text: &str) -> Result<BTreeMap<String, u32>, String> {
    let mut out = BTreeMap::new();
    for part in text
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let spaced = part.replace(['=', ':'], " ");
        let words: Vec<&str> = spaced.split_whitespace().collect();
        let shown = workqueue_core::shown(part);
        let (kind, n) = match words.as_slice() {
            [kind] => (*kind, 1),
            [kind, count] => match count.parse::<u32>() {
                Ok(n) if n <= MAX_REQUESTS_PER_RECONCILE => (*kind, n),
                _ => {
                    return Err(format!(
                        "\"{shown}\": {} is not a number of writes: write a whole number from 0 to {MAX_REQUESTS_PER_RECONCILE}, as in Secret 1",
                        workqueue_core::shown(count)
                    ))
                }
            },
            _ => {
                return Err(format!(
                    "\"{shown}\" is not one kind and its count: write it as Secret 1, ConfigMap 2"
                ))
            }
        };
        if kind.parse::<f64>().is_ok() {
            return Err(format!(
                "\"{shown}\" names no kind: write it as Secret 1, ConfigMap 2"
            ));
        }
        let m: &mut u32 = out.entry(kind.to_string()).or_default();
        *m = m.saturating_add(n);
    }
    Ok(out)
}

/// An outage window: `10s..100s` (from, until), or `5m` (from the start).
/// A bound without a unit is refused, as Go's `time.ParseDuration` does.
pub fn window_of(text: &str) -> Result<(Duration, Duration), String> {
    let t = text.trim();
    let (from, until) = match t.split_once("..") {
        Some((a, b)) => (duration_of(a)?, duration_of(b)?),
        None => (Duration::ZERO, duration_of(t)?),
    };
    if until == from {
        return Err(format!(
            "{:?}: the outage is empty, it ends where it starts: write FROM..TO, as in 10s..100s",
            workqueue_core::shown(t)
        ));
    }
    if until < from {
        return Err(format!(
            "{:?}: the outage ends before it starts: write FROM..TO, as in 10s..100s",
            workqueue_core::shown(t)
        ));
    }
    Ok((from, until))
}

/// `750ms`, `5m`, `1h30m`: a Go duration. As Go's `time.ParseDuration`, a
/// number without a unit is refused (except 0).
pub fn duration_of(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if t == "0" {
        return Ok(Duration::ZERO);
    }
    if !t.is_empty()
        && t.trim_start_matches(['-', '+'])
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.')
    {
        let t = workqueue_core::shown(t);
        return Err(format!("{t:?} has no unit (write {t}s or {t}ms)"));
    }
    workqueue_core::parse_go_duration(t).map_err(|e| {
        format!(
            "{:?} is not a duration ({e}): write 750ms, 5m or 1h",
            workqueue_core::shown(t)
        )
    })
}

/// Objects per controller: a whole number, 1 or more (a controller's
/// informer lists at least one object; the scenario's keys start at one).
pub fn objects_of(text: &str) -> Result<u64, String> {
    let t = text.trim();
    match t.parse::<i128>() {
        Ok(n) if n >= 1 => {
            u64::try_from(n).map_err(|_| format!("{:?} is too many", workqueue_core::shown(t)))
        }
        Ok(_) => Err(format!(
            "{:?}: the number of objects must be 1 or more",
            workqueue_core::shown(t)
        )),
        Err(_) => Err(format!(
            "{:?} is not a whole number of objects (1 or more)",
            workqueue_core::shown(t)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workqueue_core::{KeyCount, Requests};
    use workqueue_core::{MILLISECOND, SECOND};

    #[test]
    fn writes_read_as_kinds_and_counts_in_the_ways_people_type_them() {
        let w = writes_of("Secret 1, ConfigMap=2; Event: 3\nDeployment").unwrap();
        let got: Vec<(&str, u32)> = w.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        assert_eq!(
            got,
            vec![
                ("ConfigMap", 2),
                ("Deployment", 1),
                ("Event", 3),
                ("Secret", 1)
            ]
        );
        assert_eq!(writes_of("  ").unwrap().len(), 0);
        assert_eq!(writes_of("Secret 1, Secret 2").unwrap()["Secret"], 3);
        assert!(writes_of("Secret 1, 4").unwrap_err().starts_with("\"4\""));
        // A count that is not a whole number of writes is refused, never
        // glued onto the kind.
        for bad in [
            "Secret 1e3",
            "Secret -1",
            "Secret 99999999999999999999",
            "Secret 1001",
            "Secret 2.5",
        ] {
            let e = writes_of(bad).unwrap_err();
            assert!(e.contains("is not a number of writes"), "{bad}: {e}");
        }
        let e = writes_of("<img src=x onerror=alert(1)> 2").unwrap_err();
        assert!(e.contains("is not one kind and its count"), "{e}");
    }

    #[test]
    fn the_figures_land_on_every_controller_or_the_one_named() {
        let mut s = Scenario::of(
            "two",
            vec![
                workqueue_core::ControllerSpec::new("a"),
                workqueue_core::ControllerSpec::new("b"),
            ],
        );
        for c in &mut s.controllers {
            c.sources.push(workqueue_core::Source::AddMany {
                prefix: format!("{}-", c.name),
                count: KeyCount::lit(100),
                at_ns: Span::lit(Duration::ZERO),
                script: None,
            });
        }
        let a = Assumptions {
            objects: Some(400),
            reconcile_ns: Some(duration_of("50ms").unwrap()),
            outage: Some(window_of("5m").unwrap()),
            writes: vec![
                (String::new(), Some(1), BTreeMap::new()),
                ("b".into(), Some(1), writes_of("Secret 1").unwrap()),
            ],
            errors_write_nothing: true,
            failure_writes: Vec::new(),
        };
        let got = a.apply(&s).unwrap();
        for c in &got.controllers {
            assert!(matches!(
                c.sources[0],
                workqueue_core::Source::AddMany { count, .. } if count.get() == 400
            ));
            assert_eq!(c.controller.reconcile_ns, 50 * MILLISECOND);
            assert!(
                matches!(c.default_script, Script::Outage { until_ns, .. } if until_ns == At::lit(Instant::T0 + 300 * SECOND))
            );
            assert!(c.errors_write_nothing);
            assert_eq!(c.requests_per_reconcile, Requests::lit(1));
        }
        assert!(got.controllers[0].writes.is_empty());
        assert_eq!(got.controllers[1].writes["Secret"], Requests::lit(1));
        assert!(got.duration_ns >= 15 * 60 * SECOND);
        // An outage anywhere in the run: from 10s until 100s.
        let window = Assumptions {
            outage: Some(window_of("10s..100s").unwrap()),
            ..Assumptions::default()
        };
        let got = window.apply(&s).unwrap();
        assert!(matches!(
            got.controllers[0].default_script,
            Script::Outage { from_ns, until_ns, .. }
                if from_ns == At::lit(Instant::T0 + 10 * SECOND) && until_ns == At::lit(Instant::T0 + 100 * SECOND)
        ));
        assert!(window_of("100s..10s")
            .unwrap_err()
            .contains("ends before it starts"));
        // Go's ParseDuration: a number needs its unit (0 aside); an empty
        // window is said to be empty.
        assert_eq!(
            window_of("20..80").unwrap_err(),
            "\"20\" has no unit (write 20s or 20ms)"
        );
        assert!(duration_of("200").unwrap_err().contains("has no unit"));
        assert!(duration_of("1.5").unwrap_err().contains("has no unit"));
        assert_eq!(duration_of("0").unwrap(), Duration::ZERO);
        assert_eq!(window_of("0..80s").unwrap(), (Duration::ZERO, 80 * SECOND));
        assert!(window_of("20s..20s")
            .unwrap_err()
            .contains("empty, it ends where it starts"));
        assert_eq!(objects_of(" 600 ").unwrap(), 600);
        for bad in ["-5", "0"] {
            assert!(
                objects_of(bad).unwrap_err().contains("must be 1 or more"),
                "{bad}"
            );
        }
        assert!(objects_of("lots")
            .unwrap_err()
            .contains("not a whole number"));
        assert_eq!(window_of("5m").unwrap(), (Duration::ZERO, 300 * SECOND));
        let wrong = Assumptions {
            writes: vec![("c".into(), None, BTreeMap::new())],
            ..Assumptions::default()
        };
        assert!(wrong
            .apply(&s)
            .unwrap_err()
            .reason
            .contains("no controller \"c\""));
    }
}
