#!/usr/bin/env bash
# trunk's post-build hook (Trunk.toml): the embed's module keeps fixed file
# names, so the page's starter asks for them with their content's hash
# (?v=…), and a host's cache never hands a new page an old module. It also
# writes the page's module size, which its loading bar counts towards.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as its post-build hook}"
version=$(cat "$dir/workqueue-embed.js" "$dir/workqueue-embed_bg.wasm" | sha256sum | cut -c1-16)
grep -q EMBED_VERSION "$dir/index.html" || { echo "embed-version: no EMBED_VERSION in index.html" >&2; exit 1; }
sed -i "s/EMBED_VERSION/$version/g" "$dir/index.html"
# The page's module size, for its loading bar (index.html's #page-wait).
page=$(ls "$dir"/workqueue-playground-*_bg.wasm)
grep -q PAGE_WASM_BYTES "$dir/index.html" || { echo "embed-version: no PAGE_WASM_BYTES in index.html" >&2; exit 1; }
sed -i "s/PAGE_WASM_BYTES/$(stat -c %s "$page")/g" "$dir/index.html"
