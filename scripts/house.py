#!/usr/bin/env python3
"""The house's two rules, checked in the test command:

1. No source file over 700 lines (tests included): a file one can hold in
   one's head.
2. No import circles between a crate's top-level modules: for each crate, a
   graph of its modules (src/X.rs with src/X/), an edge X -> Y where code of
   X names crate::Y; a strongly connected group of two or more is a circle.
   A circle listed in scripts/house-circles.txt is known and being taken
   apart; any other fails, and so does a listed one that is gone (strike it
   from the list).
"""
import os,re,sys
root=sys.argv[1] if len(sys.argv)>1 else '.'
MAX_LINES=700
long=[]
for dirpath,dirs,files in os.walk(root):
    dirs[:]=[d for d in dirs if d not in ('target','node_modules','.git')]
    for f in files:
        if f.endswith('.rs'):
            path=os.path.join(dirpath,f)
            n=sum(1 for _ in open(path,encoding='utf-8'))
            if n>MAX_LINES: long.append((n,path))
for n,path in sorted(long,reverse=True):
    print(f'{os.path.relpath(path,root)}: {n} lines, more than {MAX_LINES}: split it by concept')
known=set()
listed=os.path.join(root,'scripts','house-circles.txt')
if os.path.exists(listed):
    for line in open(listed):
        line=line.split('#')[0].strip()
        if line: known.add(line)
found=set()
crates={'workqueue-playground':'src'}
for c in os.listdir(os.path.join(root,'crates')):
    if os.path.isdir(os.path.join(root,'crates',c,'src')): crates[c]=os.path.join('crates',c,'src')
bad=0
for crate,src in sorted(crates.items()):
    src=os.path.join(root,src)
    mods={}
    for dirpath,_,files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'): continue
            rel=os.path.relpath(os.path.join(dirpath,f),src)
            top=rel.split(os.sep)[0]
            top=top[:-3] if top.endswith('.rs') else top
            if top in ('lib','main','bin'): continue
            # Tests may use anything: only a module's own code counts.
            if f == 'tests.rs' or os.sep+'tests'+os.sep in rel: continue
            mods.setdefault(top,[]).append(os.path.join(dirpath,f))
    edges={m:set() for m in mods}
    for m,files in mods.items():
        for f in files:
            text=open(f).read()
            text=re.sub(r'//[^\n]*','',text)
            for t in re.findall(r'\bcrate::(\w+)',text):
                if t in mods and t!=m: edges[m].add(t)
            # `use crate::{a, b::c}` groups
            for grp in re.findall(r'use crate::\{([^}]*)\}',text):
                for t in re.findall(r'(?:^|[,{\s])(\w+)',grp):
                    if t in mods and t!=m: edges[m].add(t)
            # a component's `super::x` in src/components/*: within components, not top level
    # Tarjan
    index={}; low={}; st=[]; on=set(); sccs=[]; c=[0]
    def strong(v):
        index[v]=low[v]=c[0]; c[0]+=1; st.append(v); on.add(v)
        for w in edges[v]:
            if w not in index: strong(w); low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],index[w])
        if low[v]==index[v]:
            comp=[]
            while True:
                w=st.pop(); on.discard(w); comp.append(w)
                if w==v: break
            if len(comp)>1: sccs.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index: strong(v)
    for s in sccs:
        name=f'{crate}: {" ".join(s)}'
        found.add(name)
        if name in known:
            print(f'known circle (scripts/house-circles.txt): {name}')
            continue
        bad+=1
        print(f'{crate}: import circle among {", ".join(s)}')
        for a in s:
            print(f'    {a} -> {", ".join(sorted(edges[a] & set(s)))}')
for gone in sorted(known-found):
    bad+=1
    print(f'{gone}: listed in scripts/house-circles.txt but no longer a circle: strike it from the list')
print(f'house: {len(long)} file(s) over {MAX_LINES} lines, {bad} problem(s) with import circles')
sys.exit(1 if (bad or long) else 0)
