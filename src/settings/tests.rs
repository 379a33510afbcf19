use super::*;
use workqueue_core::Instant;
use workqueue_core::{BreakerAmount, Burst, Qps, ReconcileRate, Workers};
use workqueue_core::{MILLISECOND, SECOND};

/// A script the form has no choice for (an import's outage) is shown
/// in words, and kept by every Apply that does not change it.
#[test]
fn a_script_the_form_cannot_spell_is_shown_as_loaded_and_kept() {
    for script in [
        Script::Outage {
            from_ns: workqueue_core::At::lit(Instant::T0),
            until_ns: workqueue_core::At::lit(Instant::T0 + 300 * SECOND),
            otherwise: Outcome::Success,
        },
        Script::NotReadyUntil {
            ready_ns: workqueue_core::At::lit(Instant::T0 + 120 * SECOND),
            every_ns: workqueue_core::Span::lit(30 * SECOND),
        },
        Script::Sequence {
            outcomes: vec![Outcome::Error, Outcome::Requeue],
            then: Outcome::Success,
        },
        Script::Always {
            outcome: Outcome::TerminalError,
        },
    ] {
        let mut s = Scenario::new("loaded");
        s.controllers[0].default_script = script.clone();
        let form = Settings::from_scenario(&s);
        assert_eq!(form.script, ScriptChoice::Loaded);
        let (_, label) = form.script_choices().pop().unwrap();
        assert!(label.starts_with("As loaded: "), "{label}");
        assert_eq!(form.to_scenario().unwrap().first().default_script, script);
        let mut more = form.clone();
        more.set(Field::Workers, "8".into());
        let edited = more.edit(&form, &s).unwrap();
        assert_eq!(edited.first().default_script, script, "Apply keeps it");
        assert_eq!(edited.first().controller.workers, Workers::lit(8));
    }
    let mut s = Scenario::new("outage");
    s.controllers[0].default_script = Script::Outage {
        from_ns: workqueue_core::At::lit(Instant::T0),
        until_ns: workqueue_core::At::lit(Instant::T0 + 300 * SECOND),
        otherwise: Outcome::Success,
    };
    let (_, label) = Settings::from_scenario(&s).script_choices().pop().unwrap();
    assert_eq!(
        label,
        "As loaded: fails during an outage from 0s to 5m0s, otherwise succeeds"
    );
    // The form's own scripts are not "loaded".
    assert!(Settings::default()
        .script_choices()
        .iter()
        .all(|(c, _)| *c != ScriptChoice::Loaded));
}

/// Edits not applied yet survive a change of the run's settings that
/// does not touch them; what the change touches is taken.
#[test]
fn unapplied_edits_survive_a_version_switch() {
    let before = Settings::default();
    let mut typed = before.clone();
    typed.set(Field::Burst, "7".into());
    typed.set(Field::Timeout, "1s".into());
    typed.set(Field::Workers, "3".into());
    let mut after = before.for_queue(QueueKind::Priority);
    after.set(Field::Workers, "2".into());
    let shown = typed.rebased(&before, &after);
    assert_eq!(shown.queue, QueueKind::Priority);
    assert_eq!(shown.preset, after.preset, "the version's default limiter");
    assert_eq!(
        (shown.get(Field::Burst), shown.get(Field::Timeout)),
        ("7", "1s")
    );
    assert_eq!(shown.get(Field::Workers), "2", "the run's own change wins");
    assert_eq!(
        before.rebased(&before, &after),
        after,
        "nothing typed: the new settings"
    );
}

#[test]
fn the_default_form_is_client_gos_default_limiter() {
    let s = Settings::default().to_scenario().unwrap();
    assert_eq!(
        s.first().limiter(),
        LimiterConfig::default_controller_parts()
    );
    assert_eq!(s.controllers[0].controller.reconcile_ns, 200 * MILLISECOND);
}

#[test]
fn bad_values_are_reported_on_their_field() {
    let mut f = Settings::default();
    f.set(Field::Base, "-5ms".into());
    f.set(Field::Burst, "0".into());
    f.set(Field::Workers, "many".into());
    let errors = f.to_scenario().unwrap_err();
    let fields: Vec<Field> = errors.iter().map(|(f, _)| *f).collect();
    assert!(
        fields.contains(&Field::Base) && fields.contains(&Field::Workers),
        "{errors:?}"
    );
    f.set(Field::Base, "5ms".into());
    f.set(Field::Workers, "2".into());
    let errors = f.to_scenario().unwrap_err();
    assert_eq!(errors[0].0, Field::Burst, "{errors:?}");
}

/// A time past its type's range is refused on its field, in the type's
/// words; a negative delay says so in a delay's.
#[test]
fn a_time_out_of_its_range_is_refused_on_its_field() {
    let mut f = Settings::default();
    f.set(Field::Max, "100000h".into());
    f.set(Field::Reconcile, "-1s".into());
    f.set(Field::Timeout, "90000h".into());
    let errors = f.to_scenario().unwrap_err();
    let said = |field: Field| {
        errors
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, why)| why.clone())
            .unwrap_or_else(|| panic!("{field:?} in {errors:?}"))
    };
    assert_eq!(
        said(Field::Max),
        "100000h0m0s is out of range: use 0s to 87600h0m0s"
    );
    assert_eq!(
        said(Field::Reconcile),
        "-1s is negative: a delay is 0 or more"
    );
    assert_eq!(
        said(Field::Timeout),
        "90000h0m0s is out of range: use more than 0s to 87600h0m0s"
    );
}

#[test]
fn switching_queues_follows_controller_runtimes_default_limiter() {
    let f = Settings::default().for_queue(QueueKind::Priority);
    let s = f.to_scenario().unwrap();
    assert_eq!(s.controllers[0].queue, QueueKind::Priority);
    assert_eq!(s.first().limiter(), QueueKind::Priority.default_limiter());
    let back = f.for_queue(QueueKind::ClientGo).to_scenario().unwrap();
    assert_eq!(
        back.first().limiter(),
        LimiterConfig::default_controller_parts()
    );
    assert_eq!(Settings::from_scenario(&s).queue, QueueKind::Priority);
}

#[test]
fn settings_round_trip_through_a_scenario() {
    for preset in Preset::ALL {
        let mut f = Settings {
            preset,
            ..Settings::default()
        };
        f.set(Field::Slow, "3s".into());
        let s = f.to_scenario().unwrap();
        let back = Settings::from_scenario(&s);
        assert_eq!(back.preset, preset);
        assert_eq!(back.to_scenario().unwrap(), s, "{preset:?}");
    }
    let mut f = Settings::default();
    f.set(Field::MaxWait, "2s".into());
    f.preset = Preset::WithMaxWait;
    let LimiterConfig::WithMaxWait { max_wait_ns, .. } = f.to_scenario().unwrap().first().limiter()
    else {
        panic!()
    };
    assert_eq!(max_wait_ns, 2 * SECOND);
}

/// A Crossplane run on the priority queue (a provider of today) reads as
/// one: the stage's version switch shows the queue the run is on.
#[test]
fn a_crossplane_run_keeps_the_queue_it_is_on() {
    for queue in [QueueKind::ClientGo, QueueKind::Priority] {
        let mut s = Settings::default().to_scenario().unwrap();
        s.crossplane = Some(workqueue_core::CrossplaneConfig::note_2021(
            ReconcileRate::lit(10),
        ));
        s.controllers[0].queue = queue;
        let read = Settings::from_scenario(&s);
        assert_eq!((read.preset, read.queue), (Preset::Crossplane, queue));
    }
}

/// The form names which Crossplane: a profile chosen and applied changes the
/// run's, core's breaker flags travel both ways, a bad flag is refused at
/// its own field, and a run of each profile reads back to the same form.
#[test]
fn the_form_chooses_the_crossplane_and_core_s_breaker() {
    use workqueue_core::{BreakerFlags, CrossplaneProfile};
    let before = Settings {
        preset: Preset::Crossplane,
        ..Default::default()
    };
    let run = before.to_scenario().unwrap();
    assert_eq!(run.crossplane.unwrap().profile, CrossplaneProfile::Note2021);
    let mut core = before.clone();
    core.profile = CrossplaneProfile::Core;
    core.set(Field::BreakerBurst, "40".into());
    core.set(Field::BreakerCooldown, "90s".into());
    let edited = core.edit(&before, &run).unwrap();
    let cp = edited.crossplane.unwrap();
    assert_eq!(cp.profile, CrossplaneProfile::Core);
    assert_eq!(
        cp.breaker,
        Some(BreakerFlags {
            burst: BreakerAmount::lit(40.0),
            refill_per_second: BreakerAmount::lit(1.0),
            cooldown: workqueue_core::Span::lit(90 * SECOND)
        })
    );
    // Read back: the same form, and Apply would change nothing.
    let read = Settings::from_scenario(&edited);
    assert_eq!(
        (read.preset, read.profile),
        (Preset::Crossplane, CrossplaneProfile::Core)
    );
    assert_eq!(read.get(Field::BreakerBurst), "40");
    assert_eq!(read.to_scenario().unwrap().crossplane, edited.crossplane);
    // The defaults are not written into the run.
    let mut plain = read.clone();
    plain.set(Field::BreakerBurst, "100".into());
    plain.set(Field::BreakerCooldown, "5m".into());
    assert_eq!(
        plain.to_scenario().unwrap().crossplane.unwrap().breaker,
        None
    );
    // A bad flag names its field.
    for (f, v) in [
        (Field::BreakerBurst, "-1"),
        (Field::BreakerRefill, "lots"),
        (Field::BreakerCooldown, "5"),
    ] {
        let mut bad = read.clone();
        bad.set(f, v.into());
        let errors = bad.to_scenario().unwrap_err();
        assert!(errors.iter().any(|(e, _)| *e == f), "{v}: {errors:?}");
    }
    // Back to a provider: the breaker goes, the profile is the run's.
    let mut provider = read.clone();
    provider.profile = CrossplaneProfile::Provider;
    let cp = provider.edit(&read, &edited).unwrap().crossplane.unwrap();
    assert_eq!(
        (cp.profile, cp.breaker),
        (CrossplaneProfile::Provider, None)
    );
    assert_eq!(core.unit_of(Field::Rate), "workers per controller");
}

/// The max-of preset is named client-go's default only with client-go's
/// figures: a program's own max-of (an import's 5ms to 1m, 15/s burst 150)
/// is named by its figures in the form's list.
#[test]
fn a_programs_own_max_of_is_named_by_its_figures_not_default() {
    let mut s = Scenario::new("imported");
    s.controllers[0].limiter = Some(LimiterConfig::MaxOf {
        limiters: vec![
            LimiterConfig::Exponential {
                base_ns: workqueue_core::Span::lit(5 * MILLISECOND),
                max_ns: workqueue_core::Span::lit(60 * SECOND),
            },
            LimiterConfig::Bucket {
                qps: Qps::lit(15.0),
                burst: Burst::lit(150),
            },
        ],
    });
    let form = Settings::from_scenario(&s);
    assert_eq!(form.preset, Preset::ClientGoDefault);
    let label = form.preset_label(Preset::ClientGoDefault);
    assert_eq!(label, "max-of(exponential 5ms→1m0s, bucket 15/s burst 150)");
    assert!(!label.contains("default"), "{label}");
    assert_eq!(
        form.preset_label(Preset::WithMaxWait),
        "max-of(exponential 5ms→1m0s, bucket 15/s burst 150) with max wait"
    );
    assert_eq!(form.preset_label(Preset::BucketOnly), "Token bucket only");
    // client-go's own figures, written either way: its default.
    for limiter in [
        Some(LimiterConfig::DefaultController),
        Some(LimiterConfig::default_controller_parts()),
    ] {
        s.controllers[0].limiter = limiter;
        let form = Settings::from_scenario(&s);
        assert_eq!(
            form.preset_label(Preset::ClientGoDefault),
            "client-go default (max-of)"
        );
    }
    assert_eq!(
        Settings::default().preset_label(Preset::ClientGoDefault),
        "client-go default (max-of)"
    );
}

/// client-go's default limiter read back from a file (which writes 1000s
/// as 16m40s) is still the queue's default: the version switch puts the
/// other version's default in its place.
#[test]
fn the_default_limiter_is_known_by_value_not_by_spelling() {
    let mut form = Settings::from_scenario(&Scenario::new("read back"));
    form.queue = QueueKind::ClientGo;
    form.preset = Preset::ClientGoDefault;
    form.set(Field::Base, "5ms".into());
    form.set(Field::Max, "16m40s".into());
    form.set(Field::Qps, "10".into());
    form.set(Field::Burst, "100".into());
    let switched = form.for_queue(QueueKind::Priority);
    assert_eq!(switched.preset, Preset::PerItem, "16m40s is 1000s");
}
