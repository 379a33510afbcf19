//! A client-go program's set-up in its own idiom: the config from
//! clientcmd with its QPS and burst, the typed clientset made from it, and
//! per controller a rate-limiting queue with its limiter and the worker
//! loop that drains it (`Run(ctx, workers)`: one goroutine per worker). No
//! manager, no `UsePriorityQueue`. [`crate::import`] reads it back to the
//! same set-up.

use workqueue_core::{ClientScope, QueueKind, Scenario};

use crate::go_text::{kind_types, limiter, sends};
use crate::literal::quote;

/// Whether the scenario is a client-go program's: its controllers drain
/// client-go's queue themselves (no manager's timeout, no Crossplane) and
/// its client is a typed clientset's (one bucket, or one per group-version).
pub(crate) fn is_client_go(s: &Scenario) -> bool {
    s.crossplane.is_none()
        && s.shared_bucket.is_none()
        && match s.client {
            Some(c) => match c.per {
                ClientScope::Clientset => true,
                // QPS unset: the default 5 qps, whatever the burst.
                ClientScope::GroupVersion => c.qps.get() == 5.0,
                _ => false,
            },
            None => false,
        }
        && s.controllers
            .iter()
            .all(|c| c.queue == QueueKind::ClientGo && c.controller.reconcile_timeout_ns.is_none())
}

const TYPES: &str = "// controller drains one rate-limiting queue with its workers.
type controller struct {
	kind  string
	queue workqueue.TypedRateLimitingInterface[string]
}

func newController(name, kind string, limiter workqueue.TypedRateLimiter[string]) *controller {
	return &controller{
		kind: kind,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(limiter,
			workqueue.TypedRateLimitingQueueConfig[string]{Name: name}),
	}
}

// Run starts the workers: each one drains the queue until it shuts down.
func (c *controller) Run(ctx context.Context, workers int) {
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
}

func (c *controller) runWorker(ctx context.Context) {
	for c.processNextItem(ctx) {
	}
}

func (c *controller) processNextItem(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	// Your reconcile of key: on an error c.queue.AddRateLimited(key),
	// else c.queue.Forget(key).
	c.queue.Forget(key)
	return true
}
";

/// The Go file that sets `s` up as a client-go program.
pub(crate) fn go(s: &Scenario) -> String {
    let kinds = kind_types(s);
    let mut body = String::new();
    body += "\tcfg, err := clientcmd.BuildConfigFromFlags(\"\", \"\")\n\tif err != nil {\n\t\tpanic(err)\n\t}\n";
    match s.client {
        Some(c) if c.per == ClientScope::GroupVersion && c.burst.get() == 10 => {
            body += "\t// QPS unset: client-go's defaults, 5 qps and burst 10 for each API group-version.\n";
        }
        Some(c) if c.per == ClientScope::GroupVersion => {
            body += &format!(
                "\t// QPS unset: client-go's default 5 qps for each API group-version, with this burst.\n\tcfg.Burst = {}\n",
                c.burst
            );
        }
        Some(c) => {
            body += &format!(
                "\t// QPS above 0: the clientset's one bucket for every resource it serves.\n\tcfg.QPS = {}\n\tcfg.Burst = {}\n",
                c.qps, c.burst
            );
        }
        None => {}
    }
    body += "\tclient := kubernetes.NewForConfigOrDie(cfg)\n\t_ = client // what the reconciles write through\n\tctx := context.Background()\n";
    let mut rate = false;
    for (i, c) in s.controllers.iter().enumerate() {
        let name = quote(&match c.name.as_str() {
            "" => s.controller_kind(i),
            n => n.to_string(),
        });
        let l = c
            .limiter
            .clone()
            .unwrap_or_else(|| c.queue.default_limiter());
        let code = limiter(&l, "\t").replace("[reconcile.Request]", "[string]");
        rate |= code.contains("rate.NewLimiter");
        if let Some(list) = sends(s, i) {
            body += &format!(
                "\t// Each reconcile sends API requests: {list} (reads from the informer's cache send none).\n"
            );
        }
        body += &format!(
            "\tlimiter{i} := {code}\n\tc{i} := newController({name}, {}, limiter{i})\n\tgo c{i}.Run(ctx, {})\n",
            quote(&kinds[i]),
            c.controller.workers
        );
    }
    body += "\t<-ctx.Done()\n";
    let mut imports = vec![
        "\t\"k8s.io/apimachinery/pkg/util/wait\"\n",
        "\t\"k8s.io/client-go/kubernetes\"\n",
        "\t\"k8s.io/client-go/tools/clientcmd\"\n",
        "\t\"k8s.io/client-go/util/workqueue\"\n",
    ];
    if rate {
        imports.insert(0, "\t\"golang.org/x/time/rate\"\n");
    }
    format!(
        "// A client-go program: its queues, limiters, clientset and workers.\npackage main\n\nimport (\n\t\"context\"\n\t\"time\"\n\n{}\n)\n\n{TYPES}\nfunc main() {{\n{body}}}\n",
        imports.concat().trim_end_matches('\n')
    )
}
