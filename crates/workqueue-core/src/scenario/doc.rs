//! Reading a scenario document of either version: its `version` first, then
//! version 1's top-level controller fields upgraded into version 2's list.

use super::*;

/// A scenario document's `version`, read before anything else (`None`
/// when it has none; the document's reader says what a failure means).
pub(crate) fn written_version(text: &str) -> Result<Option<u32>, serde_json::Error> {
    #[derive(Deserialize)]
    struct Versioned {
        version: Option<u32>,
    }
    // Only the version is read here (any other field is skipped); the
    // document itself is then read whole, with every field checked.
    serde_json::from_str::<Versioned>(text).map(|v| v.version)
}

/// Whether this build reads a document of `version`.
pub(crate) fn check_version(version: Option<u32>) -> Result<u32, ScenarioError> {
    match version {
        None => Err(bad(
            "version",
            format!("missing: a scenario starts with \"version\": {SCENARIO_VERSION}"),
        )),
        Some(v @ (1 | SCENARIO_VERSION)) => Ok(v),
        Some(v) => Err(bad(
            "version",
            format!("version {v} is not supported: this playground reads versions 1 and {SCENARIO_VERSION}"),
        )),
    }
}

/// A scenario document as written, in either version: version 2's fields,
/// and version 1's (one controller's fields at the top level, or, for a
/// manager, `controllers` beside them, whose top-level controller fields
/// version 1 ignored). One reader for both, so the page holds one decoder;
/// [`ScenarioDoc::into_scenario`] upgrades version 1 (to the same run: the
/// first controller's seed is the scenario's, as it was) and refuses
/// version 1's fields in a version 2 document by name.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioDoc {
    version: u32,
    #[serde(default)]
    name: String,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    controllers: Option<Vec<ControllerSpec>>,
    #[serde(default)]
    crossplane: Option<CrossplaneConfig>,
    #[serde(default)]
    client: Option<ClientLimit>,
    #[serde(default)]
    shared_bucket: Option<BucketSpec>,
    #[serde(default = "default_duration")]
    duration_ns: Duration,
    #[serde(default = "default_sample")]
    sample_ns: Duration,
    // Version 1 only: the one controller's fields.
    #[serde(default)]
    queue: Option<QueueKind>,
    #[serde(default)]
    limiter: Option<LimiterConfig>,
    #[serde(default)]
    controller: Option<ControllerConfig>,
    #[serde(default)]
    default_script: Option<Script>,
    #[serde(default)]
    items: Option<Vec<ItemSpec>>,
    #[serde(default)]
    sources: Option<Vec<Source>>,
    #[serde(default)]
    requests_per_reconcile: Option<Requests>,
    #[serde(default)]
    shares_bucket: Option<bool>,
}

impl ScenarioDoc {
    /// The scenario this document describes, upgraded from version 1.
    pub fn into_scenario(self) -> Result<Scenario, ScenarioError> {
        check_version(Some(self.version))?;
        let v1 = self.version == 1;
        let own = [
            ("queue", self.queue.is_some()),
            ("limiter", self.limiter.is_some()),
            ("controller", self.controller.is_some()),
            ("default_script", self.default_script.is_some()),
            ("items", self.items.is_some()),
            ("sources", self.sources.is_some()),
            (
                "requests_per_reconcile",
                self.requests_per_reconcile.is_some(),
            ),
            ("shares_bucket", self.shares_bucket.is_some()),
        ];
        if let (false, Some((field, _))) = (v1, own.iter().find(|(_, set)| *set)) {
            return Err(bad(
                *field,
                "in version 2 a controller's fields go in its entry of controllers",
            ));
        }
        // A version 1 file with both forms: neither is dropped in silence.
        if let (true, Some(list), Some((field, _))) = (
            v1,
            self.controllers.as_ref().filter(|l| !l.is_empty()),
            own.iter().find(|(_, set)| *set),
        ) {
            return Err(bad(
                *field,
                format!(
                    "this file sets {field} for one controller and also lists {} controller(s) in controllers: keep one form (put {field} in each controller's entry)",
                    list.len()
                ),
            ));
        }
        let controllers = match self.controllers {
            Some(list) if !(v1 && list.is_empty()) => list,
            None if !v1 => {
                return Err(bad(
                    "controllers",
                    "missing: a scenario lists its controllers",
                ))
            }
            _ => vec![ControllerSpec {
                name: String::new(),
                queue: self.queue.unwrap_or_default(),
                limiter: self.limiter,
                controller: self.controller.unwrap_or_default(),
                default_script: self.default_script.unwrap_or_default(),
                items: self.items.unwrap_or_default(),
                sources: self.sources.unwrap_or_default(),
                requests_per_reconcile: self.requests_per_reconcile.unwrap_or_default(),
                kind: String::new(),
                writes: BTreeMap::new(),
                errors_write_nothing: false,
                failure_writes: None,
                shares_bucket: self.shares_bucket.unwrap_or_default(),
            }],
        };
        Ok(Scenario {
            version: SCENARIO_VERSION,
            name: self.name,
            seed: self.seed,
            controllers,
            crossplane: self.crossplane,
            client: self.client,
            shared_bucket: self.shared_bucket,
            duration_ns: self.duration_ns,
            sample_ns: self.sample_ns,
        })
    }
}
