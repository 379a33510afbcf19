#!/usr/bin/env python3
"""`pub` only where another crate uses it.

For each library crate (core, go, lessons, charts): the items its lib.rs
makes public (its `pub use` re-exports, its own `pub` items, and the
top-level `pub` items of its `pub mod`s), and whether any other code of the
workspace names them: the other crates, the page (src/, src/bin), the
workspace's examples and tests. An item no one else names should be
`pub(crate)`: it is printed, and the script fails.

An item that only the crate's own tests/, examples/ or benches/ name stays
public (they are other crates to the compiler); `-v` lists those. An item
listed in KEPT below is public because a public item's signature shows it
(making it `pub(crate)` would be a private type in a public interface).

Cheap and by text: a use is the item's name in a path or `use` group that
starts at the crate (`workqueue_core::Workqueue`, `use workqueue_core::{..}`)
or, for a public module's item, after the module (`validate::input`).
Usage: python3 scripts/surface.py [ROOT] [-v]
"""
import os, re, sys

args = [a for a in sys.argv[1:] if not a.startswith('-')]
verbose = '-v' in sys.argv[1:]
root = args[0] if args else '.'

LIBS = {
    'workqueue-core': 'workqueue_core',
    'workqueue-go': 'workqueue_go',
    'workqueue-lessons': 'workqueue_lessons',
    'workqueue-charts': 'workqueue_charts',
}

# Public because a public signature shows them: named by no other crate, but
# reached through what they name (a field's type, a function's argument).
KEPT = {
    'workqueue-core': {
        'AddWithOptsCall': 'QueueEvent::AddWithOpts holds it',
        'AfterEffect': 'Workqueue::add_after returns it; QueueEvent::AddAfter holds it',
        'Admission': 'CircuitBreaker::admit returns it',
        'BreakerMetrics': 'CircuitBreaker::metrics returns it',
        'CircuitState': 'CircuitBreaker::state returns it',
        'BucketId': "BucketStore's calls and Limiter::Bucket take it",
        'ControllerQueue': 'Controller::queue returns it',
        'DurationError': "parse_go_duration's error",
        'HeldBack': "a Summary's field",
        'KindRequests': "a Summary's field",
        'RequestSeries': "a Summary's field",
        'TimeSpent': "a Summary's field",
        'LaneView': "StageView's lanes",
        'QueueMetrics': 'Workqueue::metrics returns it',
        'ResyncPeriod': "Source::Resync's period",
        'Period': "Script::NotReadyUntil's every_ns, a reconcile's timeout",
        'RunLength': "Scenario's duration_ns",
        'SampleWidth': "Scenario's sample_ns",
    },
    'workqueue-go': {
        'Client': "Imported's clients",
        'export::ControllerSetUp': "SetUp's controllers",
        'export::OptionsSetUp': "ControllerSetUp's options",
    },
    'workqueue-lessons': {
        'Step': "a Lesson's steps", 'model::Step': "a Lesson's steps",
        'Show': "a Step's field", 'model::Show': "a Step's field",
        'Question': "a Step's field", 'query::Question': "a Step's field",
        'Goal': "a Question's field", 'query::Goal': "a Question's field",
        'Condition': "a Goal's conditions", 'query::Condition': "a Goal's conditions",
        'query::Bound': "a Condition's bounds",
        'Value': 'Query::answer returns it', 'query::Value': 'Query::answer returns it',
        'view::QuestionView': "a StepView's field",
        'view::GoalView': "a StepView's field",
        'tally::Tally': "a QuestionView's field",
    },
    'workqueue-charts': {
        'ChartResult': 'every draw function returns it',
    },
}

ITEM = re.compile(r'^pub (?:const |unsafe )?(?:fn|struct|enum|const|type|trait|static|mod|union)\s+(\w+)', re.M)
# The same, indented: inside a macro that makes items (lessons' `built_in!`).
MACRO_ITEM = re.compile(r'^\s+pub (?:const|static) (\w+)\s*:', re.M)


def strip(text):
    """The code without comments (line and block)."""
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def module_file(src, path):
    """The file of module `path` (a list of names) below `src`."""
    base = os.path.join(src, *path)
    for f in (base + '.rs', os.path.join(base, 'mod.rs')):
        if os.path.exists(f):
            return f
    return None


def names_in_group(group):
    """Every identifier of a `use` tree's text (`{a, b::{c, d}}`)."""
    return set(re.findall(r'\b(\w+)\b', group)) - {'self', 'crate', 'super', 'as'}


def surface(src):
    """(name, module-or-None) for every public item of the crate's root."""
    lib = strip(open(os.path.join(src, 'lib.rs')).read())
    items = set()
    made = ''.join(re.findall(r'macro_rules!.*?\n\}\n', lib, re.S))
    for name in ITEM.findall(lib) + MACRO_ITEM.findall(made):
        items.add((name, None))
    for mod in re.findall(r'^pub mod (\w+);', lib, re.M):
        items.discard((mod, None))
        f = module_file(src, [mod])
        for name in ITEM.findall(strip(open(f).read())):
            items.add((name, mod))
    for tree in re.findall(r'^pub use ([^;]+);', lib, re.M):
        tree = ' '.join(tree.split())
        m = re.match(r'([\w:]+)::\*$', tree)
        if m:  # a glob: the module's own public items
            f = module_file(src, m.group(1).split('::'))
            for name in ITEM.findall(strip(open(f).read())):
                if not name.endswith('mod'):
                    items.add((name, None))
            continue
        m = re.match(r'([\w:]+)::\{(.*)\}$', tree)
        if m:
            for part in m.group(2).split(','):
                part = part.strip()
                if part:
                    items.add((part.split('::')[-1], None))
        else:
            items.add((tree.split('::')[-1], None))
    # a module re-exported whole is not an item of its own
    return {(n, m) for n, m in items if not re.match(r'^(pub|mod)$', n)}


def rust_files(top, skip=()):
    for dirpath, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in ('target', 'node_modules', '.git', 'fixtures')]
        if any(os.path.abspath(dirpath).startswith(os.path.abspath(s)) for s in skip):
            continue
        for f in files:
            if f.endswith('.rs'):
                yield os.path.join(dirpath, f)


def named(text, ident):
    """The names a file's code takes from crate `ident`: (name, via module)."""
    out = set()
    # `use ident::...;` trees, and paths `ident::a::b::Name` in code
    for tree in re.findall(r'\b' + ident + r'::([^;]*?);', text, re.S):
        for n in names_in_group(tree):
            out.add(n)
    for path in re.findall(r'\b' + ident + r'((?:::\w+)+)', text):
        out.update(path.strip(':').split('::'))
    return out


def module_paths(text):
    """`m::Name` pairs in code (an item reached through its module)."""
    return set(re.findall(r'\b(\w+)::(\w+)\b', text))


def main():
    unused_total = 0
    everything = [(p, strip(open(p, encoding='utf-8').read()))
                  for p in rust_files(root, skip=[os.path.join(root, 'target')])]
    for crate, ident in sorted(LIBS.items()):
        cdir = os.path.join(root, 'crates', crate)
        src = os.path.join(cdir, 'src')
        own_src = os.path.abspath(src) + os.sep
        own = os.path.abspath(cdir) + os.sep
        others, own_tests = set(), set()
        others_mod, own_tests_mod = set(), set()
        for p, text in everything:
            ap = os.path.abspath(p)
            if ap.startswith(own_src):
                continue
            if ident not in text:
                continue
            names, mods = named(text, ident), module_paths(text)
            if ap.startswith(own):
                own_tests |= names; own_tests_mod |= mods
            else:
                others |= names; others_mod |= mods
        unused, tests_only = [], []
        for name, mod in sorted(surface(src), key=lambda x: (x[1] or '', x[0])):
            if mod is None:
                used, in_tests = name in others, name in own_tests
            else:
                used = (mod, name) in others_mod or name in others
                in_tests = (mod, name) in own_tests_mod or name in own_tests
            where = f'{mod}::{name}' if mod else name
            if where in KEPT.get(crate, {}):
                continue
            if not used:
                (tests_only if in_tests else unused).append(where)
        for where in unused:
            print(f'{crate}: {where}: public, and no other crate names it (make it pub(crate))')
        if verbose:
            for where in tests_only:
                print(f'{crate}: {where}: public for its own tests/examples only')
        unused_total += len(unused)
    sys.exit(1 if unused_total else 0)


main()
