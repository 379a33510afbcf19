//! The event log in words: each entry as the Go calls it stands for. The
//! text lives here, apart from the driver; the run's digest reads it, so a
//! change of wording is a change of every golden digest.

use crate::circuit::Transition;
use crate::controller::Gate;
use crate::events::{LogEntry, SimEvent};
use crate::item::ItemId;
use crate::queue::QueueKind;
use crate::queue_calls::Placed;
use crate::queue_calls::{AddEffect, AddWithOptsCall, AfterEffect, QueueEvent};
use crate::sim::Controller;
use crate::time::go::format_go_duration;
use crate::time::{Duration, WideInstant};

impl Controller {
    /// One log entry as the Go calls it stands for.
    pub fn describe(&self, e: &LogEntry) -> String {
        let k = |id: &ItemId| format!("{:?}", self.key(*id));
        let d = |n: Duration| format_go_duration(n);
        // A wide instant, printed as its time since T0.
        let at = |r: WideInstant| {
            let r = r.as_nanos();
            if r > i64::MAX as i128 {
                "never (past 292 years)".to_string()
            } else {
                format!("t={}", d(Duration::from_nanos(r as i64)))
            }
        };
        match &e.event {
            SimEvent::Queue(q) => match q {
                QueueEvent::Add { item, effect } => format!(
                    "queue.Add({}) → {}",
                    k(item),
                    match effect {
                        AddEffect::Queued => "queued at the tail",
                        AddEffect::Deduplicated => "already queued: deduplicated",
                        AddEffect::MarkedDirty =>
                            "being processed: marked dirty, re-queued at Done",
                        AddEffect::Ignored => "ignored: shutting down",
                        AddEffect::CircuitOpen => "dropped: the XR's circuit is open",
                    }
                ),
                QueueEvent::AddAfter {
                    item,
                    delay,
                    effect,
                } => format!(
                    "queue.AddAfter({}, {}) → {}",
                    k(item),
                    d(*delay),
                    match effect {
                        AfterEffect::Immediate => "delay ≤ 0: added now".to_string(),
                        AfterEffect::Waiting { ready_at } =>
                            format!("waiting until {}", at(*ready_at)),
                        AfterEffect::MovedEarlier { from, ready_at } =>
                            format!("moved earlier: {} instead of {}", at(*ready_at), at(*from)),
                        AfterEffect::KeptEarlier { ready_at } =>
                            format!("already waiting until {}: discarded", at(*ready_at)),
                        AfterEffect::Ignored => "ignored: shutting down".to_string(),
                    }
                ),
                QueueEvent::RateLimited { item, delay } => {
                    format!("queue.AddRateLimited({}): When = {}", k(item), d(*delay))
                }
                QueueEvent::Released { item } => format!("waiting heap: {} is ready", k(item)),
                QueueEvent::Get { item } => format!("queue.Get() = {}", k(item)),
                QueueEvent::Done { item, requeued } => {
                    let again = match (requeued, self.queue().kind()) {
                        (false, _) => "",
                        (true, QueueKind::ClientGo) => " → dirty: pushed to the tail again",
                        (true, QueueKind::Priority) => " → unlocked: its ready record can be handed out",
                    };
                    format!("queue.Done({}){again}", k(item))
                }
                QueueEvent::Forget { item } => format!("queue.Forget({})", k(item)),
                QueueEvent::ShutDown { drain } => {
                    format!("queue.ShutDown{}()", if *drain { "WithDrain" } else { "" })
                }
                QueueEvent::AddWithOpts(call) => {
                    let AddWithOptsCall {
                        item,
                        opts,
                        when,
                        effective,
                        placed,
                        raised,
                    } = &**call;
                    let delay = match (when, opts.after) {
                        (Some(w), Duration::ZERO) => format!(": When = {}", d(*w)),
                        (Some(w), a) => {
                            format!(": min(After {}, When {}) = {}", d(a), d(*w), d(*effective))
                        }
                        (None, _) => String::new(),
                    };
                    let placed = match placed {
                        Placed::NewReady => "ready".to_string(),
                        Placed::NewWaiting { ready_at } => {
                            format!("waiting until {}", at(*ready_at))
                        }
                        Placed::StayedReady => "already ready: unchanged".to_string(),
                        Placed::DelayCancelled { was } => {
                            format!("ready now: the wait until {} is cancelled", at(*was))
                        }
                        Placed::KeptEarlier { ready_at } => {
                            format!("already waiting until {}: kept", at(*ready_at))
                        }
                        Placed::MovedEarlier { from, ready_at } => {
                            format!("moved earlier: {} instead of {}", at(*ready_at), at(*from))
                        }
                    };
                    let raised = raised.map_or(String::new(), |(from, to)| {
                        format!("; priority {from} → {to}, to the tail of its class")
                    });
                    format!(
                        "queue.AddWithOpts({}, {}){delay} → {placed}{raised}",
                        opts.go(),
                        k(item)
                    )
                }
                QueueEvent::GetWithPriority { item, priority } => {
                    format!("queue.GetWithPriority() = {}, priority {priority}", k(item))
                }
            },
            SimEvent::ReconcileStart { worker, item } => {
                format!("worker {worker}: Reconcile({}) starts", k(item))
            }
            SimEvent::ReconcileEnd {
                worker,
                item,
                outcome,
                decision,
            } => format!(
                "worker {worker}: Reconcile({}) → {} [result={}]",
                k(item),
                outcome.go_return(),
                decision.label.as_str()
            ),
            SimEvent::AwaitingDecision { worker, item } => format!(
                "worker {worker}: Reconcile({}) awaits your decision",
                k(item)
            ),
            SimEvent::Gate { item, gate, .. } => match gate {
                Gate::FreePass => format!("global limiter: {} passes (already paid for)", k(item)),
                Gate::Pass => format!("global limiter: token for {}", k(item)),
                Gate::Defer { delay } => format!(
                    "global limiter: no token for {}: RequeueAfter {}",
                    k(item),
                    d(*delay)
                ),
            },
            SimEvent::GaveUp { item, requeues } => format!(
                "giving up on {} after {requeues} requeues: queue.Forget",
                k(item)
            ),
            SimEvent::Circuit { item, transition } => format!(
                "circuit breaker for {}: {}",
                k(item),
                match transition {
                    Transition::Opened => "opened: its watch events are dropped, but one probe each 30s",
                    Transition::Closed => "closed: the cooldown has passed",
                    Transition::Reopened => "closed and opened again: the bucket had not refilled",
                    Transition::Unchanged => "unchanged",
                }
            ),
            SimEvent::TimedOut {
                worker,
                item,
                after,
            } => format!(
                "worker {worker}: Reconcile({}) still running after {}: ReconciliationTimeout fires, it returns context deadline exceeded",
                k(item),
                d(*after)
            ),
            SimEvent::Stalled { reason } => format!("stopped: {reason}"),
            SimEvent::ClientThrottled {
                worker,
                item,
                requests,
                waited,
            } => format!(
                "worker {worker}: Reconcile({}): client: Waited for {} due to client-side throttling, not priority and fairness ({requests} requests)",
                k(item),
                d(*waited)
            ),
        }
    }
}
