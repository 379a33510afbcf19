#!/usr/bin/env python3
"""Where the page's wasm weighs: code bytes per crate and the top functions,
read from the name section of the unoptimised (pre wasm-opt) build.
Usage: wasm_sizes.py FILE.wasm [N]"""
import re
import sys
from collections import Counter


def leb(b, i):
    r = s = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def main():
    # Quiet when piped into head.
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    data = open(sys.argv[1], "rb").read()
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    i, imports, sizes, names = 8, 0, [], {}
    while i < len(data):
        sid = data[i]
        size, i = leb(data, i + 1)
        end = i + size
        if sid == 2:  # imports: functions come first in the index space
            n, j = leb(data, i)
            for _ in range(n):
                for _ in range(2):
                    ln, j = leb(data, j)
                    j += ln
                kind = data[j]
                j += 1
                if kind == 0:
                    _, j = leb(data, j)
                    imports += 1
                elif kind == 1:
                    j += 1
                    flag, j = leb(data, j)
                    _, j = leb(data, j)
                    if flag & 1:
                        _, j = leb(data, j)
                elif kind == 2:
                    flag, j = leb(data, j)
                    _, j = leb(data, j)
                    if flag & 1:
                        _, j = leb(data, j)
                else:
                    j += 2
        elif sid == 10:  # code
            n, j = leb(data, i)
            for _ in range(n):
                sz, j = leb(data, j)
                sizes.append(sz)
                j += sz
        elif sid == 0:  # custom: the name section
            ln, j = leb(data, i)
            if data[j:j + ln] == b"name":
                j += ln
                while j < end:
                    sub = data[j]
                    ssz, j = leb(data, j + 1)
                    if sub == 1:
                        n, k = leb(data, j)
                        for _ in range(n):
                            idx, k = leb(data, k)
                            nl, k = leb(data, k)
                            names[idx] = data[k:k + nl].decode("utf8", "replace")
                            k += nl
                    j += ssz
        i = end
    per_fn = [(sz, names.get(imports + k, f"func{imports + k}")) for k, sz in enumerate(sizes)]
    crates = Counter()
    for sz, name in per_fn:
        # Legacy mangling: _ZN<len><crate><len><module>..., or an impl
        # block _ZN<n>_$LT$<crate>..<path>: the first path segment is the crate.
        m = re.search(r"(?:_ZN\d+|\$LT\$|^)_?([a-z][a-z0-9_]*?)(?:\d+[a-zA-Z_]|\.\.)", name)
        crates[m.group(1) if m else "(other)"] += sz
    total = sum(sizes)
    print(f"code bytes {total}")
    for crate, sz in crates.most_common(top):
        print(f"crate {crate:28s} {sz:8d} {100 * sz / total:5.1f}%")
    for sz, name in sorted(per_fn, reverse=True)[:top]:
        print(f"fn {sz:8d} {name[:100]}")


main()
