//! A scenario as the Go set-up that builds it: the manager's `rest.Config`
//! limit, Crossplane's `--max-reconcile-rate`, a shared bucket, and every
//! controller with its own options, rate limiter and queue (the priority
//! queue's choice always explicit, whatever the version's default). The
//! file is gofmt-clean, and [`crate::import`] reads it back to the same
//! set-up ([`SetUp`]): what Go can say of a scenario.

use workqueue_core::{ClientScope, ControllerSpec};
use workqueue_core::{CrossplaneProfile, Duration, LimiterConfig, QueueKind, Scenario};

use crate::go_text::{duration, float, kind_types, limiter, sends};
use crate::literal::quote;

/// What a Go set-up can say of a scenario, and so what an export and an
/// import of it keep: the client's limit, Crossplane's rate, a shared
/// bucket, and each controller's name, kind (as a Go type), queue, rate
/// limiter, workers and timeout. (Keys, scripts and durations are not Go.)
#[derive(Clone, Debug, PartialEq)]
pub struct SetUp {
    pub client: Option<workqueue_core::ClientRate>,
    pub crossplane: Option<u32>,
    pub shared_bucket: Option<workqueue_core::BucketSpec>,
    pub controllers: Vec<ControllerSetUp>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ControllerSetUp {
    pub name: String,
    pub kind: String,
    pub queue: QueueKind,
    pub options: OptionsSetUp,
    pub shares_bucket: bool,
}

/// What a controller's `controller.Options` says. Under Crossplane none of
/// it is the controller's own: its limiter derives from the rate.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionsSetUp {
    pub limiter: Option<LimiterConfig>,
    pub workers: Option<u32>,
    pub timeout: Option<Duration>,
}

impl SetUp {
    pub fn of(s: &Scenario) -> SetUp {
        let kinds = kind_types(s);
        let crossplane = s.crossplane.map(|c| c.max_reconcile_rate.get());
        // A bucket one controller alone holds is shared with none: Go
        // says it as that controller's max-of(bucket, own).
        let sharers = s.controllers.iter().filter(|c| c.shares_bucket).count();
        let alone = s.shared_bucket.filter(|_| sharers == 1);
        let shared_bucket = s.shared_bucket.filter(|_| sharers > 1);
        SetUp {
            // A typed clientset's one limiter and a config's shared one are
            // the same bucket for every kind; Go says which program it is.
            client: s.client_limit().map(|c| workqueue_core::ClientRate {
                per: match c.per {
                    ClientScope::Clientset => ClientScope::Shared,
                    ClientScope::GroupVersion => ClientScope::Kind,
                    per => per,
                },
                ..c
            }),
            crossplane,
            shared_bucket,
            controllers: s
                .controllers
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let shares = c.shares_bucket && shared_bucket.is_some();
                    let own = match (alone, c.shares_bucket) {
                        (Some(b), true) => Some(LimiterConfig::MaxOf {
                            limiters: vec![
                                LimiterConfig::Bucket {
                                    qps: b.qps,
                                    burst: b.burst,
                                },
                                c.limiter
                                    .clone()
                                    .unwrap_or_else(|| c.queue.default_limiter()),
                            ],
                        }),
                        _ => c.limiter.clone(),
                    };
                    ControllerSetUp {
                        name: name_of(s, i),
                        kind: kinds[i].clone(),
                        queue: if crossplane.is_some() {
                            QueueKind::Priority
                        } else {
                            c.queue
                        },
                        options: OptionsSetUp {
                            limiter: match (crossplane, shares) {
                                (Some(_), _) => None,
                                (None, true) => Some(canonical(
                                    &own.unwrap_or_else(|| c.queue.default_limiter()),
                                )),
                                // The queue's default, written or not, is the default.
                                (None, false) => own
                                    .map(|l| canonical(&l))
                                    .filter(|l| *l != c.queue.default_limiter()),
                            },
                            workers: crossplane.is_none().then_some(c.controller.workers.get()),
                            timeout: c
                                .controller
                                .reconcile_timeout_ns
                                .map(|t| t.get())
                                .filter(|_| crossplane.is_none()),
                        },
                        shares_bucket: shares,
                    }
                })
                .collect(),
        }
    }
}

/// `gofmt -d` on `code`: `Ok(true)` when clean, `Ok(false)` when gofmt is
/// not installed, the difference otherwise. (The tests of every export use it.)
#[doc(hidden)]
pub fn gofmt_clean(code: &str) -> Result<bool, String> {
    if std::process::Command::new("gofmt")
        .arg("-h")
        .output()
        .is_err()
    {
        return Ok(false);
    }
    let dir = std::env::temp_dir().join(format!("wq-gofmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!("{:016x}.go", fnv(code)));
    std::fs::write(&path, code).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("gofmt")
        .arg("-d")
        .arg(&path)
        .output()
        .map_err(|e| e.to_string())?;
    match (out.status.success(), out.stdout.is_empty()) {
        (true, true) => Ok(true),
        (false, _) => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
        (true, false) => Err(String::from_utf8_lossy(&out.stdout).into_owned()),
    }
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// client-go's default limiter, however it is written.
fn canonical(l: &LimiterConfig) -> LimiterConfig {
    match l {
        l if *l == LimiterConfig::default_controller_parts() => LimiterConfig::DefaultController,
        LimiterConfig::MaxOf { limiters } => LimiterConfig::MaxOf {
            limiters: limiters.iter().map(canonical).collect(),
        },
        LimiterConfig::WithMaxWait {
            limiter,
            max_wait_ns,
        } => LimiterConfig::WithMaxWait {
            limiter: Box::new(canonical(limiter)),
            max_wait_ns: *max_wait_ns,
        },
        other => other.clone(),
    }
}

/// What [`go`] writes for a scenario: a Go file, or (for Crossplane core,
/// which is not code its users write) the Helm values of its flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Go,
    HelmValues,
}

impl Language {
    pub fn of(s: &Scenario) -> Language {
        match s.crossplane.map(|c| c.profile) {
            Some(CrossplaneProfile::Core) => Language::HelmValues,
            _ => Language::Go,
        }
    }

    /// What a reader is shown above the code.
    pub fn title(self) -> &'static str {
        match self {
            Language::Go => "The same setup in Go",
            Language::HelmValues => "The same setup as Crossplane's Helm values",
        }
    }
}

/// The Go file that sets `s` up, in its program's idiom: client-go's for a
/// client-go program ([`crate::export_clientgo`]), controller-runtime's
/// (and crossplane-runtime's) otherwise.
pub fn go(s: &Scenario) -> String {
    if let Some(cp) = s
        .crossplane
        .filter(|c| c.profile == CrossplaneProfile::Core)
    {
        return crate::export_core::helm_values(s, cp);
    }
    if crate::export_clientgo::is_client_go(s) {
        return crate::export_clientgo::go(s);
    }
    let mut body = String::new();
    let mut uses = Uses::default();
    body += "\tcfg := ctrl.GetConfigOrDie()\n";
    // The limit the run has: the scenario's own, or the one Crossplane's
    // rate sets (5R / 10R per kind) where the file left it out.
    match (s.client_limit(), s.crossplane) {
        (Some(c), Some(cp))
            if c.per == ClientScope::Kind
                && c.qps == 5.0 * cp.max_reconcile_rate.get() as f64
                && c.burst == 10 * cp.max_reconcile_rate.get() as i64 =>
        {
            body += "\t// 5R qps, burst 10R: one bucket per resource kind's REST client.\n";
            body += "\tcfg = ratelimiter.LimitRESTConfig(cfg, maxReconcileRate)\n";
            uses.crossplane = true;
        }
        (Some(c), _) if !c.per.by_kind() => {
            body += &format!(
                "\t// One limiter, shared by every client made from this config.\n\tcfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter({}, {})\n",
                float(c.qps),
                c.burst
            );
            uses.flowcontrol = true;
        }
        (Some(c), _) => {
            body += &format!(
                "\t// controller-runtime's client: one bucket per resource kind.\n\tcfg.QPS = {}\n\tcfg.Burst = {}\n",
                float(c.qps),
                c.burst
            );
        }
        (None, _) => body += "\t// No client-side limit.\n\tcfg.QPS = -1\n",
    }
    body += "\tmgr, err := ctrl.NewManager(cfg, ctrl.Options{})\n\tif err != nil {\n\t\tpanic(err)\n\t}\n";
    if s.crossplane
        .is_some_and(|c| c.profile == CrossplaneProfile::Note2021)
    {
        body += "\t// The 2021 design, as today's crossplane-runtime builds it: the same\n\t// bucket, backoff and client limit, on controller-runtime v0.23's\n\t// priority queue (a provider's run).\n";
    }
    if s.crossplane.is_some() {
        uses.crossplane = true;
        body += "\to := controller.Options{\n\t\tMaxConcurrentReconciles: maxReconcileRate,\n\t\tGlobalRateLimiter:       ratelimiter.NewGlobal(maxReconcileRate),\n\t}\n";
    }
    if let Some(b) = s.shared_bucket {
        uses.rate = true;
        uses.workqueue = true;
        body += &format!(
            "\t// One bucket passed to every controller that shares it.\n\tshared := &workqueue.TypedBucketRateLimiter[reconcile.Request]{{Limiter: rate.NewLimiter(rate.Limit({}), {})}}\n",
            float(b.qps.get()),
            b.burst
        );
    }
    let kinds = kind_types(s);
    for (i, c) in s.controllers.iter().enumerate() {
        body += &controller(s, i, c, &kinds[i], &mut uses);
    }
    body += "\tif err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {\n\t\tpanic(err)\n\t}\n";
    let consts = match s.crossplane {
        Some(cp) => format!(
            "\n\n// --max-reconcile-rate\nconst maxReconcileRate = {}",
            cp.max_reconcile_rate
        ),
        None => String::new(),
    };
    format!(
        "package main\n\nimport (\n{}){consts}\n\n// reconciler is your Reconcile.\nvar reconciler reconcile.Reconciler\n\nfunc main() {{\n{body}}}\n",
        uses.imports()
    )
}

fn controller(s: &Scenario, i: usize, c: &ControllerSpec, kind: &str, uses: &mut Uses) -> String {
    let mut out = String::new();
    let options = if s.crossplane.is_some() {
        "o.ForControllerRuntime()".to_string()
    } else {
        let mut fields: Vec<(&str, String)> =
            vec![("MaxConcurrentReconciles", c.controller.workers.to_string())];
        // The limiter in a variable of its own: every option then fits one
        // line, and gofmt aligns them.
        let shared = c.shares_bucket && s.shared_bucket.is_some();
        let own = match (&c.limiter, shared) {
            // The priority queue's own default needs no option at all.
            (Some(l), false)
                if c.queue == QueueKind::Priority && *l == c.queue.default_limiter() =>
            {
                None
            }
            (Some(l), _) => Some(l.clone()),
            (None, true) => Some(c.queue.default_limiter()),
            (None, false) => None,
        };
        if own.is_none() && c.queue == QueueKind::Priority {
            out += "\t// No rate limiter option: the priority queue's default, which backs off 5ms to 1000s per item.\n";
        }
        if let Some(l) = own {
            let code = if shared {
                format!(
                    "workqueue.NewTypedMaxOfRateLimiter(\n\t\tshared,\n\t\t{},\n\t)",
                    limiter(&l, "\t\t")
                )
            } else {
                limiter(&l, "\t")
            };
            uses.workqueue = true;
            uses.note_limiter(&code);
            out += &format!("\tlimiter{i} := {code}\n");
            fields.push(("RateLimiter", format!("limiter{i}")));
        }
        uses.ptr = true;
        fields.push((
            "UsePriorityQueue",
            format!("ptr.To({})", c.queue == QueueKind::Priority),
        ));
        if let Some(t) = c.controller.reconcile_timeout_ns {
            uses.time = true;
            fields.push((
                "ReconciliationTimeout",
                duration(t.get()).replace('*', " * "),
            ));
        }
        let width = fields.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        let lines: String = fields
            .iter()
            .map(|(k, v)| format!("\t\t\t{k}:{}{v},\n", " ".repeat(width - k.len() + 1)))
            .collect();
        format!("controller.Options{{\n{lines}\t\t}}")
    };
    if let Some(list) = sends(s, i) {
        let failing = if c.errors_write_nothing {
            " when it succeeds"
        } else {
            ""
        };
        out += &format!(
            "\t// Each Reconcile sends API requests{failing}: {list} (reads from the cache send none).\n"
        );
    }
    if let Some(n) = c.controller.give_up_after {
        out += &format!(
            "\t// Giving up after {n} requeues is up to its Reconcile:\n\t//\n\t//\tif err != nil && r.queue.NumRequeues(req) >= {n} {{\n\t//\t\treturn ctrl.Result{{}}, reconcile.TerminalError(err)\n\t//\t}}\n"
        );
    }
    // Under Crossplane the global bucket gates a reconciler only through
    // crossplane-runtime's wrapper: the pasted code runs as the stage does.
    let name = quote(&name_of(s, i));
    let reconciler = match s.crossplane {
        Some(_) => format!("ratelimiter.NewReconciler({name}, reconciler, o.GlobalRateLimiter)"),
        None => "reconciler".to_string(),
    };
    out += &format!(
        "\tif err := ctrl.NewControllerManagedBy(mgr).\n\t\tNamed({name}).\n\t\tFor(&apiv1.{kind}{{}}).\n\t\tWithOptions({options}).\n\t\tComplete({reconciler}); err != nil {{\n\t\tpanic(err)\n\t}}\n"
    );
    out
}

/// A controller's name: its own, or (left out) its kind's.
fn name_of(s: &Scenario, i: usize) -> String {
    match s.controllers[i].name.as_str() {
        "" => s.controller_kind(i),
        n => n.to_string(),
    }
}

/// The packages a file uses, written as goimports sorts them.
#[derive(Default)]
struct Uses {
    time: bool,
    rate: bool,
    workqueue: bool,
    flowcontrol: bool,
    clientset: bool,
    ptr: bool,
    crossplane: bool,
}

impl Uses {
    fn note_limiter(&mut self, code: &str) {
        self.time |= code.contains("time.");
        self.rate |= code.contains("rate.NewLimiter");
    }

    fn imports(&self) -> String {
        let mut std = Vec::new();
        if self.time {
            std.push("\t\"time\"\n");
        }
        let mut rest = Vec::new();
        if self.crossplane {
            rest.push("\t\"github.com/crossplane/crossplane-runtime/v2/pkg/controller\"\n");
            rest.push("\t\"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter\"\n");
        }
        if self.rate {
            rest.push("\t\"golang.org/x/time/rate\"\n");
        }
        if self.clientset {
            rest.push("\t\"k8s.io/client-go/kubernetes\"\n");
        }
        if self.workqueue {
            rest.push("\t\"k8s.io/client-go/util/workqueue\"\n");
        }
        if self.flowcontrol {
            rest.push("\t\"k8s.io/client-go/util/flowcontrol\"\n");
        }
        if self.ptr {
            rest.push("\t\"k8s.io/utils/ptr\"\n");
        }
        rest.push("\tctrl \"sigs.k8s.io/controller-runtime\"\n");
        if !self.crossplane {
            rest.push("\t\"sigs.k8s.io/controller-runtime/pkg/controller\"\n");
        }
        rest.push("\t\"sigs.k8s.io/controller-runtime/pkg/reconcile\"\n");
        rest.sort_by_key(|l| {
            l.trim()
                .trim_start_matches("ctrl ")
                .trim_matches('"')
                .to_string()
        });
        let ours = "\n\tapiv1 \"example.com/project/api/v1\"\n";
        let std = if std.is_empty() {
            String::new()
        } else {
            std.concat() + "\n"
        };
        format!("{std}{}{ours}", rest.concat())
    }
}
