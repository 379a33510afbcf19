//! The split module must compute what the whole one computes. Both run in an
//! interpreter; the host links the secondary the way static/split-loader.js
//! does: eagerly, or from inside the first placeholder that is called.

use std::collections::BTreeSet;

use wasmi::{Caller, Engine, ExternType, Instance, Linker, Module, Store, Table};

/// Kept: `main`, `kept_helper`, `triple`, `sp` (indices 1, 2, 6, 8; the import is 0).
/// Moved: `moved_entry` (called directly), `moved_inner` (reached only from moved
/// code), `double` (in the table), `later` (exported).
const WAT: &str = r#"
(module
  (import "env" "log" (func $log (param i32)))
  (type $unary (func (param i32) (result i32)))
  (memory (export "memory") 1)
  (global $sp (mut i32) (i32.const 1024))
  (table $t 3 3 funcref)
  (elem (i32.const 1) $double $triple)
  (func $main (export "main") (param i32) (result i32)
    (i32.add
      (i32.add (call $moved_entry (local.get 0))
               (call_indirect (type $unary) (local.get 0) (i32.const 1)))
      (call_indirect (type $unary) (local.get 0) (i32.const 2))))
  (func $kept_helper (param i32) (result i32) (i32.mul (local.get 0) (i32.const 10)))
  (func $moved_entry (param i32) (result i32)
    (global.set $sp (i32.sub (global.get $sp) (i32.const 16)))
    (i32.store (global.get $sp) (local.get 0))
    (call $log (local.get 0))
    (call $moved_inner (call $kept_helper (i32.load (global.get $sp)))))
  (func $moved_inner (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
  (func $double (param i32) (result i32) (i32.shl (local.get 0) (i32.const 1)))
  (func $triple (param i32) (result i32) (i32.mul (local.get 0) (i32.const 3)))
  (func $later (export "later") (param i32) (result i32) (call $double (local.get 0)))
  (func (export "sp") (result i32) (global.get $sp)))
"#;

fn ran() -> BTreeSet<u32> {
    [1, 2, 6, 8].into()
}

#[derive(Default)]
struct Host {
    log: Vec<i32>,
    placeholder_calls: Vec<u32>,
    /// The secondary and a linker holding the primary's exports, until linked.
    pending: Option<(Linker<Host>, Module)>,
    table: Option<Table>,
}

#[derive(Debug, PartialEq)]
struct Outcome {
    main: i32,
    later: i32,
    sp: i32,
    log: Vec<i32>,
}

fn env(engine: &Engine) -> Linker<Host> {
    let mut linker = Linker::new(engine);
    linker
        .func_wrap("env", "log", |mut caller: Caller<'_, Host>, x: i32| {
            caller.data_mut().log.push(x)
        })
        .unwrap();
    linker
}

fn outcome(store: &mut Store<Host>, instance: Instance) -> Outcome {
    let main = instance
        .get_typed_func::<i32, i32>(&*store, "main")
        .unwrap();
    let later = instance
        .get_typed_func::<i32, i32>(&*store, "later")
        .unwrap();
    let sp = instance.get_typed_func::<(), i32>(&*store, "sp").unwrap();
    let main = main.call(&mut *store, 5).unwrap();
    let later = later.call(&mut *store, 7).unwrap();
    let sp = sp.call(&mut *store, ()).unwrap();
    Outcome {
        main,
        later,
        sp,
        log: store.data().log.clone(),
    }
}

fn run_whole(wasm: &[u8]) -> Outcome {
    let engine = Engine::default();
    let module = Module::new(&engine, wasm).unwrap();
    let mut store = Store::new(&engine, Host::default());
    let instance = env(&engine)
        .instantiate_and_start(&mut store, &module)
        .unwrap();
    outcome(&mut store, instance)
}

/// Links the secondary if it is still pending (what the page's loader does).
fn link(caller: &mut Caller<'_, Host>) -> Result<(), wasmi::Error> {
    if let Some((linker, module)) = caller.data_mut().pending.take() {
        linker.instantiate_and_start(&mut *caller, &module)?;
    }
    Ok(())
}

/// Instantiates the primary with placeholders that link the secondary on
/// first use and call through the table; links at once if `eager`.
fn run_split(primary: &[u8], secondary: &[u8], eager: bool) -> (Outcome, Vec<u32>) {
    let engine = Engine::default();
    let primary = Module::new(&engine, primary).unwrap();
    let secondary = Module::new(&engine, secondary).unwrap();
    let mut linker = env(&engine);
    for import in primary
        .imports()
        .filter(|i| i.module() == wasm_split::PLACEHOLDER)
    {
        let ExternType::Func(ty) = import.ty() else {
            panic!("placeholder {} is not a function", import.name())
        };
        let slot: u32 = import.name().parse().unwrap();
        linker
            .func_new(
                wasm_split::PLACEHOLDER,
                import.name(),
                ty.clone(),
                move |mut caller, params, results| {
                    caller.data_mut().placeholder_calls.push(slot);
                    link(&mut caller)?;
                    let table = caller.data().table.unwrap();
                    let entry = table.get(&caller, u64::from(slot)).unwrap();
                    let func = *entry
                        .unwrap_func()
                        .val()
                        .expect("the secondary filled the slot");
                    func.call(&mut caller, params, results)
                },
            )
            .unwrap();
    }
    let mut store = Store::new(&engine, Host::default());
    let instance = linker.instantiate_and_start(&mut store, &primary).unwrap();
    let mut secondary_linker = env(&engine);
    for export in instance.exports(&store) {
        secondary_linker
            .define(wasm_split::PRIMARY, export.name(), export.into_extern())
            .unwrap();
    }
    store.data_mut().table = instance.get_table(&store, wasm_split::TABLE_EXPORT);
    store.data_mut().pending = Some((secondary_linker, secondary));
    if eager {
        let (linker, module) = store.data_mut().pending.take().unwrap();
        linker.instantiate_and_start(&mut store, &module).unwrap();
    }
    let outcome = outcome(&mut store, instance);
    (outcome, store.data().placeholder_calls.clone())
}

fn defined_functions(wasm: &[u8]) -> u32 {
    wasmparser::Parser::new(0)
        .parse_all(wasm)
        .filter_map(|p| match p.unwrap() {
            wasmparser::Payload::FunctionSection(s) => Some(s.count()),
            _ => None,
        })
        .sum()
}

#[test]
fn both_halves_validate_and_hold_their_functions() {
    let wasm = wat::parse_str(WAT).unwrap();
    let split = wasm_split::split(&wasm, &ran()).unwrap();
    for part in [&split.primary, &split.secondary] {
        wasmparser::Validator::new().validate_all(part).unwrap();
    }
    assert_eq!((split.kept, split.moved), (4, 4));
    assert_eq!(defined_functions(&split.primary), 4);
    assert_eq!(defined_functions(&split.secondary), 4);
    // Placeholders: `double`'s table slot, and new slots for `moved_entry` and `later`.
    assert_eq!(split.slots, 3);
}

#[test]
fn the_split_module_computes_what_the_whole_one_does() {
    let wasm = wat::parse_str(WAT).unwrap();
    let whole = run_whole(&wasm);
    assert_eq!(
        whole,
        Outcome {
            main: 51 + 10 + 15,
            later: 14,
            sp: 1008,
            log: vec![5]
        }
    );
    let split = wasm_split::split(&wasm, &ran()).unwrap();
    let (eager, calls) = run_split(&split.primary, &split.secondary, true);
    assert_eq!(eager, whole);
    // Linked up front, only the export that moved still enters through its placeholder.
    assert_eq!(calls.len(), 1);
    let (lazy, calls) = run_split(&split.primary, &split.secondary, false);
    assert_eq!(lazy, whole);
    // The first call into moved code links the secondary; later calls go
    // straight through the table, so only `later`'s export adds one more.
    assert_eq!(calls.len(), 2, "placeholder calls: {calls:?}");
}

#[test]
fn the_profile_keeps_what_ran_and_nothing_else() {
    let wasm = wat::parse_str(WAT).unwrap();
    let all: BTreeSet<u32> = (0..9).collect();
    let split = wasm_split::split(&wasm, &all).unwrap();
    assert_eq!((split.kept, split.moved, split.slots), (8, 0, 0));
    assert_eq!(
        run_split(&split.primary, &split.secondary, false).0,
        run_whole(&wasm)
    );
    let instrumented = wasm_split::instrument(&wasm).unwrap();
    wasmparser::Validator::new()
        .validate_all(&instrumented)
        .unwrap();
    assert!(wasm_split::read_profile("3\n1\n\n2\n").unwrap() == [1, 2, 3].into());
    assert!(wasm_split::read_profile("3\nmain\n")
        .unwrap_err()
        .to_string()
        .contains("\"main\""));
}

#[test]
fn the_instrumented_module_marks_each_function_once_and_computes_the_same() {
    let wasm = wat::parse_str(WAT).unwrap();
    let instrumented = wasm_split::instrument(&wasm).unwrap();
    let engine = Engine::default();
    let module = Module::new(&engine, &instrumented).unwrap();
    let mut linker = env(&engine);
    linker
        .func_wrap(
            wasm_split::PROFILE,
            "mark",
            |mut caller: Caller<'_, Host>, f: i32| {
                caller.data_mut().placeholder_calls.push(f as u32)
            },
        )
        .unwrap();
    let mut store = Store::new(&engine, Host::default());
    let instance = linker.instantiate_and_start(&mut store, &module).unwrap();
    let sp = instance.get_typed_func::<(), i32>(&store, "sp").unwrap();
    sp.call(&mut store, ()).unwrap();
    assert_eq!(store.data().placeholder_calls, vec![8]);
    let result = outcome(&mut store, instance);
    assert_eq!(result, run_whole(&wasm));
    let mut marked = store.data().placeholder_calls.clone();
    marked.sort();
    // Every defined function ran once main, later and sp had run; none twice.
    assert_eq!(marked, vec![1, 2, 3, 4, 5, 6, 7, 8]);
}
