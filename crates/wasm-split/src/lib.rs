//! Splits the page's wasm in two, in the manner of binaryen's `wasm-split`
//! (binaryen's own tool cannot read what wasm-bindgen and wasm-opt emit today).
//!
//! - [`instrument`] adds a `wq_profile.mark(function)` call the first time each
//!   function runs, so a headless browser can record what the first screen runs.
//! - [`split`] keeps those functions in the *primary* module and moves every
//!   other one to a *secondary* module, instantiated later against the
//!   primary's memory, tables and globals.
//!
//! A call from the primary into a moved function becomes a `call_indirect`
//! through the function table. Until the secondary arrives, that slot holds a
//! placeholder import (`wq_lazy.<slot>`); the page's loader answers it by
//! loading the secondary, whose element segment writes the real functions over
//! the placeholders, and then calls through the slot again.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{bail, Context, Result};
use walrus::ir::{
    dfs_pre_order_mut, Call, CallIndirect, GlobalGet, GlobalSet, IfElse, Instr, InstrLocId,
    InstrSeq, RefFunc, ReturnCall, ReturnCallIndirect, UnaryOp, Unop, Value, VisitorMut,
};
use walrus::{
    ConstExpr, ElementItems, ElementKind, ExportItem, FunctionId, FunctionKind, GlobalKind,
    ImportKind, ImportedFunction, Module, ModuleConfig, RefType, TableId, ValType,
};

/// Namespace the secondary imports the primary's items from.
pub const PRIMARY: &str = "primary";
/// Namespace of the primary's placeholder imports, named by table slot.
pub const PLACEHOLDER: &str = "wq_lazy";
/// Namespace of the instrumented module's `mark(function)` import.
pub const PROFILE: &str = "wq_profile";
/// Name under which the primary exports its function table.
pub const TABLE_EXPORT: &str = "wq_table";

/// What [`split`] produced, with the counts its report prints.
pub struct Split {
    pub primary: Vec<u8>,
    pub secondary: Vec<u8>,
    pub kept: usize,
    pub moved: usize,
    pub slots: usize,
}

fn config() -> ModuleConfig {
    let mut config = ModuleConfig::new();
    config
        .generate_name_section(false)
        .generate_producers_section(false);
    config
}

fn parse(wasm: &[u8]) -> Result<Module> {
    Module::from_buffer_with_config(wasm, &config()).context("reading the wasm module")
}

/// A function's identity across two parses of the same bytes.
fn index(f: FunctionId) -> u32 {
    f.index() as u32
}

/// The name a table goes by between the two modules.
fn table_name(t: TableId, function_table: TableId) -> String {
    if t == function_table {
        TABLE_EXPORT.to_string()
    } else {
        format!("t{}", t.index())
    }
}

/// The module's defined functions whose index passes `keep`.
fn defined_where(module: &Module, keep: impl Fn(u32) -> bool) -> Vec<FunctionId> {
    module
        .funcs
        .iter_local()
        .map(|(id, _)| id)
        .filter(|id| keep(index(*id)))
        .collect()
}

/// Adds a guarded `wq_profile.mark(index)` at the start of every function.
pub fn instrument(wasm: &[u8]) -> Result<Vec<u8>> {
    let mut module = parse(wasm)?;
    let locals: Vec<FunctionId> = module.funcs.iter_local().map(|(id, _)| id).collect();
    let mark_ty = module.types.add(&[ValType::I32], &[]);
    let (mark, _) = module.add_import_func(PROFILE, "mark", mark_ty);
    for id in locals {
        let seen =
            module
                .globals
                .add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
        let local = module.funcs.get_mut(id).kind.unwrap_local_mut();
        let builder = local.builder_mut();
        let mut then = builder.dangling_instr_seq(None);
        then.i32_const(1)
            .instr(GlobalSet { global: seen })
            .i32_const(index(id) as i32)
            .instr(Call { func: mark });
        let consequent = then.id();
        let alternative = builder.dangling_instr_seq(None).id();
        let entry = local.entry_block();
        let prologue = [
            Instr::GlobalGet(GlobalGet { global: seen }),
            Instr::Unop(Unop {
                op: UnaryOp::I32Eqz,
            }),
            Instr::IfElse(IfElse {
                consequent,
                alternative,
            }),
        ];
        local
            .block_mut(entry)
            .instrs
            .splice(0..0, prologue.map(|i| (i, InstrLocId::default())));
    }
    Ok(module.emit_wasm())
}

/// Reads a profile: one function index per line, as the recording page writes it.
pub fn read_profile(text: &str) -> Result<BTreeSet<u32>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            l.parse::<u32>()
                .with_context(|| format!("profile line {l:?} is not a function index"))
        })
        .collect()
}

/// The funcref table every `call_indirect` of Rust code goes through.
fn function_table(module: &Module) -> Result<TableId> {
    let mut funcref = module
        .tables
        .iter()
        .filter(|t| t.element_ty == RefType::FUNCREF);
    match (funcref.next(), funcref.next()) {
        (Some(t), None) => Ok(t.id()),
        (None, _) => bail!("the module has no function table"),
        _ => bail!("the module has more than one function table"),
    }
}

/// Calls, tail calls and `ref.func`s in one function's body.
fn referenced_functions(module: &Module, f: FunctionId) -> BTreeSet<FunctionId> {
    struct Refs(BTreeSet<FunctionId>);
    impl<'i> walrus::ir::Visitor<'i> for Refs {
        fn visit_function_id(&mut self, f: &FunctionId) {
            self.0.insert(*f);
        }
    }
    let mut refs = Refs(BTreeSet::new());
    if let FunctionKind::Local(local) = &module.funcs.get(f).kind {
        walrus::ir::dfs_in_order(&mut refs, local, local.entry_block());
    }
    refs.0
}

/// A table offset that is a constant (the only kind Rust's linker emits).
fn constant_offset(offset: &ConstExpr) -> Result<u32> {
    match offset {
        ConstExpr::Value(Value::I32(o)) => Ok(*o as u32),
        other => bail!("element segment with a non-constant offset {other:?}"),
    }
}

/// Visits each (position, function) the function table's active segments write.
fn table_entries(
    module: &mut Module,
    table: TableId,
    mut visit: impl FnMut(u32, &mut FunctionId),
) -> Result<()> {
    for segment in module.elements.iter_mut() {
        let ElementKind::Active { table: t, offset } = &segment.kind else {
            continue;
        };
        if *t != table {
            continue;
        }
        let base = constant_offset(offset)?;
        match &mut segment.items {
            ElementItems::Functions(funcs) => {
                for (i, f) in funcs.iter_mut().enumerate() {
                    visit(base + i as u32, f);
                }
            }
            ElementItems::Expressions(..) => bail!("function table segment with expressions"),
        }
    }
    Ok(())
}

/// Rewrites the primary's references to moved functions: a call goes through
/// the table slot, a `ref.func` names the slot's placeholder.
struct Redirect<'a> {
    slot: &'a BTreeMap<FunctionId, (u32, FunctionId)>,
    types: &'a BTreeMap<FunctionId, walrus::TypeId>,
    table: TableId,
}

impl VisitorMut for Redirect<'_> {
    fn start_instr_seq_mut(&mut self, seq: &mut InstrSeq) {
        if !seq.instrs.iter().any(|(i, _)| self.target(i).is_some()) {
            return;
        }
        let old = std::mem::take(&mut seq.instrs);
        for (instr, loc) in old {
            let Some(f) = self.target(&instr) else {
                seq.instrs.push((instr, loc));
                continue;
            };
            let (slot, placeholder) = self.slot[&f];
            let (ty, table) = (self.types[&f], self.table);
            if let Instr::RefFunc(_) = instr {
                let func = RefFunc { func: placeholder };
                seq.instrs.push((func.into(), loc));
                continue;
            }
            let slot = walrus::ir::Const {
                value: Value::I32(slot as i32),
            };
            seq.instrs.push((slot.into(), loc));
            let call = match instr {
                Instr::Call(_) => CallIndirect { ty, table }.into(),
                _ => ReturnCallIndirect { ty, table }.into(),
            };
            seq.instrs.push((call, loc));
        }
    }
}

impl Redirect<'_> {
    fn target(&self, instr: &Instr) -> Option<FunctionId> {
        let f = match instr {
            Instr::Call(Call { func }) | Instr::ReturnCall(ReturnCall { func }) => *func,
            Instr::RefFunc(RefFunc { func }) => *func,
            _ => return None,
        };
        self.slot.contains_key(&f).then_some(f)
    }
}

/// Splits `wasm`: the functions in `ran` (indices from [`instrument`]'s
/// profile) stay in the primary, every other defined function moves.
pub fn split(wasm: &[u8], ran: &BTreeSet<u32>) -> Result<Split> {
    let mut primary = parse(wasm)?;
    let table = function_table(&primary)?;
    let moved: BTreeSet<FunctionId> = defined_where(&primary, |f| !ran.contains(&f))
        .into_iter()
        .collect();
    let kept = defined_where(&primary, |f| ran.contains(&f));

    // Moved functions the primary still reaches, and what moved code needs from it.
    let mut entries = BTreeSet::new();
    let mut needed_from_primary = BTreeSet::new();
    for f in primary.funcs.iter_local().map(|(id, _)| id) {
        for r in referenced_functions(&primary, f) {
            match (moved.contains(&f), moved.contains(&r)) {
                (false, true) => {
                    entries.insert(r);
                }
                (true, false) if matches!(primary.funcs.get(r).kind, FunctionKind::Local(_)) => {
                    needed_from_primary.insert(r);
                }
                _ => {}
            }
        }
    }
    for export in primary.exports.iter() {
        if let ExportItem::Function(f) = export.item {
            if moved.contains(&f) {
                entries.insert(f);
            }
        }
    }

    // Every table position that holds a moved function gets a placeholder;
    // entries not in the table get new positions at its end.
    let mut positions: BTreeMap<u32, FunctionId> = BTreeMap::new();
    table_entries(&mut primary, table, |p, f| {
        if moved.contains(f) {
            positions.insert(p, *f);
        }
    })?;
    let in_table: BTreeSet<FunctionId> = positions.values().copied().collect();
    let old_size = primary.tables.get(table).initial as u32;
    let appended: Vec<FunctionId> = entries
        .iter()
        .copied()
        .filter(|f| !in_table.contains(f))
        .collect();
    for (i, f) in appended.iter().enumerate() {
        positions.insert(old_size + i as u32, *f);
    }
    let types: BTreeMap<FunctionId, walrus::TypeId> = moved
        .iter()
        .map(|f| (*f, primary.funcs.get(*f).ty()))
        .collect();
    let placeholders: BTreeMap<u32, FunctionId> = positions
        .iter()
        .map(|(p, f)| {
            (
                *p,
                primary
                    .add_import_func(PLACEHOLDER, &p.to_string(), types[f])
                    .0,
            )
        })
        .collect();
    let slot: BTreeMap<FunctionId, (u32, FunctionId)> = positions
        .iter()
        .rev()
        .map(|(p, f)| (*f, (*p, placeholders[p])))
        .collect();

    // Point the table, the exports and kept code at the placeholders.
    table_entries(&mut primary, table, |p, f| {
        if moved.contains(f) {
            *f = placeholders[&p];
        }
    })?;
    if !appended.is_empty() {
        let items = (old_size..old_size + appended.len() as u32)
            .map(|p| placeholders[&p])
            .collect();
        let offset = ConstExpr::Value(Value::I32(old_size as i32));
        let id = primary.elements.add(
            ElementKind::Active { table, offset },
            ElementItems::Functions(items),
        );
        let t = primary.tables.get_mut(table);
        t.elem_segments.insert(id);
        t.initial += appended.len() as u64;
        if let Some(max) = &mut t.maximum {
            *max = (*max).max(t.initial);
        }
    }
    for export in primary.exports.iter_mut() {
        if let ExportItem::Function(f) = &mut export.item {
            if let Some((_, placeholder)) = slot.get(f) {
                *f = *placeholder;
            }
        }
    }
    let mut redirect = Redirect {
        slot: &slot,
        types: &types,
        table,
    };
    for f in &kept {
        let local = primary.funcs.get_mut(*f).kind.unwrap_local_mut();
        let entry = local.entry_block();
        dfs_pre_order_mut(&mut redirect, local, entry);
    }

    // Export what moved code uses: memory, tables, globals, kept functions.
    let memories: Vec<_> = primary.memories.iter().map(|m| m.id()).collect();
    for m in memories {
        primary.exports.add(&format!("m{}", m.index()), m);
    }
    let tables: Vec<_> = primary.tables.iter().map(|t| t.id()).collect();
    for t in tables {
        let name = table_name(t, table);
        primary.exports.add(&name, t);
    }
    let globals: Vec<_> = primary.globals.iter().map(|g| g.id()).collect();
    for g in globals {
        primary.exports.add(&format!("g{}", g.index()), g);
    }
    for f in &needed_from_primary {
        primary.exports.add(&format!("f{}", index(*f)), *f);
    }
    let moved_indices: BTreeSet<u32> = moved.iter().map(|f| index(*f)).collect();
    let table_size = primary.tables.get(table).initial;
    let table_max = primary.tables.get(table).maximum;
    let slots = positions.len();
    let positions: BTreeMap<u32, u32> = positions.iter().map(|(p, f)| (*p, index(*f))).collect();
    walrus::passes::gc::run(&mut primary);

    let secondary = secondary(wasm, &moved_indices, &positions, table_size, table_max)?;
    Ok(Split {
        primary: primary.emit_wasm(),
        secondary,
        kept: kept.len(),
        moved: moved_indices.len(),
        slots,
    })
}

/// The moved functions alone, importing all else from the primary and writing
/// themselves into the table `positions` (slot → function index).
fn secondary(
    wasm: &[u8],
    moved: &BTreeSet<u32>,
    positions: &BTreeMap<u32, u32>,
    table_size: u64,
    table_max: Option<u64>,
) -> Result<Vec<u8>> {
    let mut module = parse(wasm)?;
    let table = function_table(&module)?;
    let by_index: BTreeMap<u32, FunctionId> = module
        .funcs
        .iter()
        .map(|f| (index(f.id()), f.id()))
        .collect();

    // The secondary gets no data or element segments: moved code must not need them.
    struct Segments(bool);
    impl<'i> walrus::ir::Visitor<'i> for Segments {
        fn visit_data_id(&mut self, _: &walrus::DataId) {
            self.0 = true;
        }
        fn visit_element_id(&mut self, _: &walrus::ElementId) {
            self.0 = true;
        }
    }
    for f in moved {
        let local = module.funcs.get(by_index[f]).kind.unwrap_local();
        let mut uses = Segments(false);
        walrus::ir::dfs_in_order(&mut uses, local, local.entry_block());
        if uses.0 {
            bail!("moved function {f} uses a passive data or element segment");
        }
    }
    for f in defined_where(&module, |f| !moved.contains(&f)) {
        let ty = module.funcs.get(f).ty();
        let import =
            module
                .imports
                .add(PRIMARY, &format!("f{}", index(f)), ImportKind::Function(f));
        module.funcs.get_mut(f).kind = FunctionKind::Import(ImportedFunction { import, ty });
    }
    let data: Vec<_> = module.data.iter().map(|d| d.id()).collect();
    for d in data {
        module.data.delete(d);
    }
    let memories: Vec<_> = module.memories.iter().map(|m| m.id()).collect();
    for m in memories {
        let import = module
            .imports
            .add(PRIMARY, &format!("m{}", m.index()), ImportKind::Memory(m));
        let memory = module.memories.get_mut(m);
        memory.import = Some(import);
        memory.data_segments.clear();
    }
    let elements: Vec<_> = module.elements.iter().map(|e| e.id()).collect();
    for e in elements {
        module.elements.delete(e);
    }
    let tables: Vec<_> = module.tables.iter().map(|t| t.id()).collect();
    for t in tables {
        let name = table_name(t, table);
        let import = module.imports.add(PRIMARY, &name, ImportKind::Table(t));
        let entry = module.tables.get_mut(t);
        entry.import = Some(import);
        entry.elem_segments.clear();
        entry.init = None;
        if t == table {
            entry.initial = table_size;
            entry.maximum = table_max;
        }
    }
    let globals: Vec<_> = module.globals.iter().map(|g| g.id()).collect();
    for g in globals {
        let import = module
            .imports
            .add(PRIMARY, &format!("g{}", g.index()), ImportKind::Global(g));
        module.globals.get_mut(g).kind = GlobalKind::Import(import);
    }
    let exports: Vec<_> = module.exports.iter().map(|e| e.id()).collect();
    for e in exports {
        module.exports.delete(e);
    }
    module.start = None;
    let customs: Vec<_> = module.customs.iter().map(|(id, _)| id).collect();
    for c in customs {
        module.customs.delete(c);
    }

    // One segment per run of consecutive slots.
    let mut runs: Vec<(u32, Vec<FunctionId>)> = Vec::new();
    for (slot, f) in positions {
        match runs.last_mut() {
            Some((start, funcs)) if *start + funcs.len() as u32 == *slot => funcs.push(by_index[f]),
            _ => runs.push((*slot, vec![by_index[f]])),
        }
    }
    for (start, funcs) in runs {
        let offset = ConstExpr::Value(Value::I32(start as i32));
        let id = module.elements.add(
            ElementKind::Active { table, offset },
            ElementItems::Functions(funcs),
        );
        module.tables.get_mut(table).elem_segments.insert(id);
    }
    walrus::passes::gc::run(&mut module);
    Ok(module.emit_wasm())
}
