//! New settings for a running scene, and which controller-runtime the stage
//! runs. Neither starts over: what was done is replayed under the new
//! settings to the same instant, or (a change of what each reconcile returns)
//! applied from now on. A version switch keeps the run left behind as its
//! headline figures, beside this run's at the same instant.

use workqueue_core::{Input, Instant, QueueKind, Scenario};

use crate::headline::{Headline, SideBySide};
use crate::notice::Notice;
use crate::settings::{field_errors, Settings};
use crate::state::Playground;
use crate::timeline::Timeline;

impl Playground {
    /// The same run on `queue`: the settings for that queue, the recorded
    /// inputs replayed to the same instant, this run's figures kept beside it.
    pub(crate) fn switch_queue(&self, queue: QueueKind) -> Result<Playground, String> {
        let before = Headline::of(self.engine());
        let mut fresh = match self.is_manager() {
            true => self.manager_on(queue)?,
            false => self.replayed_under(self.run.settings.for_queue(queue))?,
        };
        let mut pair = SideBySide {
            before,
            after: None,
        };
        pair.settle(fresh.engine());
        fresh.run.other_run = Some(pair);
        fresh.ui.notice = Notice::info(
            "The same run on the other queue: what you did is replayed to the same instant.",
        );
        Ok(fresh)
    }

    /// New settings for the scene on the stage, without starting over. A
    /// change of what each reconcile returns only applies from now on (a
    /// drained bucket can then be watched refilling); any other change
    /// replays what was done under the new settings, to the same instant.
    pub(crate) fn apply_settings(&mut self, settings: Settings) -> Result<(), String> {
        let mut same_but_script = settings.clone();
        same_but_script.script = self.run.settings.script;
        let script_only = same_but_script == self.run.settings;
        if script_only && self.run.timeline.now() > Instant::T0 {
            let scenario = settings.to_scenario().map_err(|e| field_errors(&e))?;
            // (The script input goes to the stage's first controller.)
            let input = Input::DefaultScript {
                script: scenario.first().default_script.clone(),
            };
            self.run.timeline.record(input).map_err(|e| e.to_string())?;
            self.ui.notice = Notice::info(format!(
                "From now on each reconcile: {}. What happened before stays as it was.",
                settings.script.label()
            ));
            self.run.settings = settings;
            self.run.playback.idle = false;
            return Ok(());
        }
        let mut fresh = self.replayed_under(settings)?;
        fresh.ui.notice = Notice::info(if self.run.timeline.tape().is_empty() {
            "New settings applied."
        } else {
            "New settings: what you did is replayed under them, to the same instant."
        });
        *self = fresh;
        Ok(())
    }

    /// A manager on `queue`: every controller's queue changes, and each
    /// keeps its limiter; one left unset takes the version's default, as
    /// controller-runtime builds it only where `RateLimiter` is nil.
    fn manager_on(&self, queue: QueueKind) -> Result<Playground, String> {
        let mut scenario = self.current_scenario();
        for c in &mut scenario.controllers {
            c.queue = queue;
        }
        let mut settings = self.run.settings.clone();
        settings.queue = queue;
        let mut fresh = self.replayed_on(settings, scenario)?;
        fresh.run.provider = crate::provider::Provider {
            queue,
            ..self.run.provider.clone()
        };
        Ok(fresh)
    }

    /// This run's recorded inputs replayed, to its instant, on its scenario
    /// as `settings` edit it (everything they do not change is kept).
    fn replayed_under(&self, settings: Settings) -> Result<Playground, String> {
        let scenario = settings
            .edit(&self.run.settings, &self.current_scenario())
            .map_err(|e| field_errors(&e))?;
        self.replayed_on(settings, scenario)
    }

    /// This run's recorded inputs replayed, to its instant, on `scenario`.
    fn replayed_on(&self, settings: Settings, scenario: Scenario) -> Result<Playground, String> {
        let (tape, at) = {
            let t = &self.run.timeline;
            let at = t.now();
            let done = t.tape().iter().filter(|(when, _)| *when <= at);
            (done.cloned().collect::<Vec<_>>(), at)
        };
        let t = Timeline::replayed(scenario, tape, at).map_err(|e| e.to_string())?;
        let mut fresh = self.carry_over(Playground::on(settings, t, None));
        fresh.run.selected = self.run.selected.clone();
        fresh.run.playback.idle = self.run.playback.idle;
        // The same scene under other settings: a lesson open on it goes on
        // (a step may ask for the version switch), where it was.
        // (A goal's figures were checked on the settings left behind: they
        // go, and Check asks again on these.)
        fresh.lessons.current = self.lessons.current.clone();
        Ok(fresh)
    }
}

#[cfg(test)]
mod tests {
    use workqueue_core::{Burst, ClientQps, Qps, Requests};

    use workqueue_core::{Input, ResultLabel};

    use super::*;
    use crate::settings::Settings;
    use crate::state::fixtures::{crowd, failing, reduce};
    use crate::state::Action;
    use crate::state::RunAction;

    /// A manager switches every controller: each keeps its limiter and
    /// everything else, one left unset takes the new version's default, and
    /// the figures beside it are every controller's together.
    #[test]
    fn a_manager_switches_every_controller_and_keeps_the_rest() {
        use crate::provider::{Provider, Sharing};
        let provider = Provider {
            sharing: Sharing::Bucket {
                qps: 5.0,
                burst: 20,
            },
            client: crate::provider::ClientChoice::V020,
            ..Provider::default()
        };
        let mut form = provider.clone();
        form.kinds[1].shares_bucket = false;
        let mut p = Playground::default();
        p = reduce(p, Action::Run(RunAction::RunManager(form.clone())));
        for _ in 0..30 {
            p = reduce(p, Action::Run(RunAction::Step));
        }
        let (at, before) = (p.now(), p.current_scenario());
        p = reduce(p, Action::Run(RunAction::SwitchQueue(QueueKind::Priority)));
        while p.run.timeline.pending().is_some() {
            p = reduce(p, Action::Run(RunAction::Tick(16.0)));
        }
        let after = p.current_scenario();
        assert_eq!(p.now(), at, "the same instant");
        let mut expected = before.clone();
        for c in &mut expected.controllers {
            c.queue = QueueKind::Priority;
        }
        assert_eq!(after, expected, "only the queues changed");
        assert_eq!(after.controllers[1].limiter, None);
        assert_eq!(
            after.queue_limiter(&after.controllers[1]),
            QueueKind::Priority.default_limiter(),
            "the unset limiter is the new version's default"
        );
        assert_eq!(
            p.run.provider,
            Provider {
                queue: QueueKind::Priority,
                ..form
            },
            "the manager's form is kept, on the new version"
        );
        let pair = p.run.other_run.clone().unwrap();
        let engine = p.engine();
        let reconciles: u64 = engine
            .controllers()
            .map(|(_, c)| c.inner_reconciles())
            .sum();
        assert_eq!(pair.after.unwrap().reconciles, reconciles);
    }

    /// Switching the version replays what was done on the other queue, to
    /// the same instant, and keeps the first run's figures beside it.
    #[test]
    fn switching_the_version_replays_the_same_run_on_the_other_queue() {
        let mut p = crowd(failing(Some("0s"), None), 300);
        for _ in 0..40 {
            p = reduce(p, Action::Run(RunAction::Step));
        }
        let (at, before) = (p.now(), p.sim().requeues_total());
        assert!(before > 0);
        p = reduce(p, Action::Run(RunAction::SwitchQueue(QueueKind::Priority)));
        while p.run.timeline.pending().is_some() {
            p = reduce(p, Action::Run(RunAction::Tick(16.0)));
        }
        assert_eq!(p.sim().spec().queue, QueueKind::Priority);
        assert_eq!(p.now(), at, "the same instant");
        assert_eq!(p.sim().queue().keys().len(), 300, "the same keys");
        let other = p
            .run
            .other_run
            .clone()
            .expect("the first run's figures are kept");
        let after = other
            .after
            .clone()
            .expect("this run's figures at the same instant");
        assert_eq!(
            (after.queue, after.at),
            (QueueKind::Priority, at),
            "one instant"
        );
        let other = other.before;
        assert_eq!(
            (other.queue, other.at, other.requeues),
            (QueueKind::ClientGo, at, before)
        );
        assert_ne!(
            p.sim().requeues_total(),
            before,
            "a different queue, a different run"
        );
    }

    fn settle(mut p: Playground) -> Playground {
        while p.run.timeline.pending().is_some() {
            p = reduce(p, Action::Run(RunAction::Tick(16.0)));
        }
        p
    }

    fn failing_run() -> Playground {
        let p = failing(Some("20ms"), Some(crate::settings::Preset::BucketOnly));
        let mut p = crowd(
            reduce(
                p,
                Action::Run(RunAction::Input(Input::Add { key: "mine".into() })),
            ),
            300,
        );
        for _ in 0..400 {
            p = reduce(p, Action::Run(RunAction::Step));
        }
        p
    }

    /// Every settings change keeps the scene: any setting but what each
    /// reconcile returns replays what was done, to the same instant.
    #[test]
    fn new_settings_keep_the_keys_and_the_instant() {
        for change in [
            |s: &mut Settings| s.set(crate::settings::Field::Workers, "3".into()),
            |s: &mut Settings| s.preset = crate::settings::Preset::ClientGoDefault,
            |s: &mut Settings| s.set(crate::settings::Field::Reconcile, "50ms".into()),
        ] {
            let p = failing_run();
            let (at, keys) = (p.now(), p.sim().queue().keys().len());
            assert!(at > Instant::T0);
            let mut next = p.run.settings.clone();
            change(&mut next);
            let p = settle(reduce(p, Action::Run(RunAction::Apply(next.clone()))));
            assert_eq!(p.run.settings, next);
            assert_eq!(p.now(), at, "the same instant");
            assert_eq!(p.sim().queue().keys().len(), keys, "the same keys");
            assert!(p.sim().find("mine").is_some());
            assert!(p
                .ui
                .notice
                .as_ref()
                .is_some_and(|n| n.text.contains("replayed")));
        }
    }

    /// A change of what each reconcile returns applies from now on: the
    /// drained bucket stays drained, then refills as the keys succeed; a
    /// restart keeps the new choice.
    #[test]
    fn a_new_result_applies_from_now_on() {
        let p = failing_run();
        let at = p.now();
        let errors = p.sim().controller_metrics().total(ResultLabel::Error);
        let drained = p.sim().bucket_tokens_at(p.buckets(), at).unwrap();
        assert!(drained < 50.0, "drained: {drained}");
        let mut next = p.run.settings.clone();
        next.script = crate::settings::ScriptChoice::Success;
        let mut p = reduce(p, Action::Run(RunAction::Apply(next)));
        assert_eq!(p.now(), at);
        assert_eq!(
            p.sim().bucket_tokens_at(p.buckets(), at).unwrap(),
            drained,
            "nothing replayed"
        );
        assert_eq!(
            p.sim().controller_metrics().total(ResultLabel::Error),
            errors
        );
        for _ in 0..2000 {
            p = reduce(p, Action::Run(RunAction::Step));
        }
        assert_eq!(
            p.sim().controller_metrics().total(ResultLabel::Error),
            errors
        );
        assert!(
            p.sim().bucket_tokens_at(p.buckets(), p.now()).unwrap() > drained,
            "it refills"
        );
        let p = reduce(p, Action::Run(RunAction::Restart));
        assert_eq!(
            p.sim().spec().default_script,
            workqueue_core::Script::Always {
                outcome: workqueue_core::Outcome::Success
            }
        );
    }

    /// Every action keeps what the user set: a scenario with keys of its
    /// own, a client limit, requests per reconcile and a limiter the form
    /// cannot show, plus keys typed on the page, through any sequence of
    /// version switches, settings changes (workers, seed, what each
    /// reconcile returns) and restarts.
    #[cfg(not(target_arch = "wasm32"))]
    mod every_action_keeps_what_was_set {
        use proptest::prelude::*;
        use workqueue_core::{ClientLimit, ItemSpec};
        use workqueue_core::{LimiterConfig, Scenario, MILLISECOND, SECOND};

        use super::*;
        use crate::settings::{Field, ScriptChoice};

        #[derive(Clone, Debug)]
        enum Act {
            Switch,
            Workers(u32),
            Seed(u64),
            Script(u8),
            Typed(u8),
            Step,
        }

        fn act() -> impl Strategy<Value = Act> {
            prop_oneof![
                Just(Act::Switch),
                (1u32..6).prop_map(Act::Workers),
                (1u64..100).prop_map(Act::Seed),
                (0u8..4).prop_map(Act::Script),
                (0u8..20).prop_map(Act::Typed),
                Just(Act::Step),
            ]
        }

        fn start(client: f64, requests: u32, items: usize) -> Playground {
            let mut s = Scenario::new("mine");
            s.client = Some(ClientLimit::per_kind(
                ClientQps::new(client).unwrap(),
                Burst::lit(10),
            ));
            let c = s.first_mut();
            c.requests_per_reconcile = Requests::new(requests).unwrap();
            c.limiter = Some(LimiterConfig::MaxOf {
                limiters: vec![
                    LimiterConfig::FastSlow {
                        fast_ns: workqueue_core::Span::lit(5 * MILLISECOND),
                        slow_ns: workqueue_core::Span::lit(10 * SECOND),
                        max_fast_attempts: 3,
                    },
                    LimiterConfig::Bucket {
                        qps: Qps::lit(3.0),
                        burst: Burst::lit(4),
                    },
                ],
            });
            c.items = (0..items)
                .map(|i| ItemSpec {
                    key: format!("file/{i}"),
                    script: None,
                    reconcile_ns: None,
                    add_at_ns: Some(workqueue_core::At::lit(Instant::T0)),
                })
                .collect();
            let settings = Settings::from_scenario(&s);
            Playground::with(settings, s)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]
            #[test]
            fn through_any_actions(client in 1.0f64..50.0, requests in 1u32..4, items in 1usize..5,
                                   acts in proptest::collection::vec(act(), 1..10)) {
                let mut p = start(client, requests, items);
                let limiter = p.current_scenario().first().limiter.clone();
                let mut typed: Vec<String> = Vec::new();
                for a in &acts {
                    let mut next = p.run.settings.clone();
                    p = match a {
                        Act::Switch => {
                            let other = match p.run.settings.queue {
                                QueueKind::ClientGo => QueueKind::Priority,
                                QueueKind::Priority => QueueKind::ClientGo,
                            };
                            reduce(p, Action::Run(RunAction::SwitchQueue(other)))
                        }
                        Act::Workers(n) => {
                            next.set(Field::Workers, n.to_string());
                            reduce(p, Action::Run(RunAction::Apply(next)))
                        }
                        Act::Seed(n) => {
                            next.set(Field::Seed, n.to_string());
                            reduce(p, Action::Run(RunAction::Apply(next)))
                        }
                        Act::Script(k) => {
                            next.script = [ScriptChoice::Success, ScriptChoice::AlwaysError, ScriptChoice::FailThenSucceed, ScriptChoice::Random][*k as usize];
                            reduce(p, Action::Run(RunAction::Apply(next)))
                        }
                        Act::Typed(k) => {
                            let key = format!("typed/{k}");
                            typed.push(key.clone());
                            reduce(p, Action::Run(RunAction::Input(Input::Add { key })))
                        }
                        Act::Step => reduce(p, Action::Run(RunAction::Step)),
                    };
                    while p.run.timeline.pending().is_some() {
                        p = reduce(p, Action::Run(RunAction::Tick(16.0)));
                    }
                    let s = p.current_scenario();
                    prop_assert_eq!(s.client.map(|c| c.qps.get()), Some(client), "the client limit, after {:?}", a);
                    prop_assert_eq!(s.first().requests_per_reconcile.get(), requests, "requests per reconcile, after {:?}", a);
                    prop_assert_eq!(s.first().items.len(), items, "the file's keys, after {:?}", a);
                    prop_assert_eq!(&s.first().limiter, &limiter, "the limiter, after {:?}", a);
                    for key in typed.iter().chain(s.first().items.iter().map(|i| &i.key)) {
                        prop_assert!(p.sim().find(key).is_some(), "{} is on the stage after {:?}", key, a);
                    }
                }
            }
        }
    }
}
