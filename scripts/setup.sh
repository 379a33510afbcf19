#!/usr/bin/env bash
# Installs what the playground needs to build, serve and test, then exports the
# environment the other scripts use. Source it (`. scripts/setup.sh`) or run it.
#
# Idempotent: every step first checks whether its work is already done, so on a
# ready machine the whole script takes a few seconds. On a fresh machine it takes
# about 6 minutes: Debian's packages, a wasm32 std, trunk and wasm-bindgen.
#
# Route: the ordinary one first (rustup's wasm32 target, tools already on PATH);
# where rustup cannot fetch the wasm32 std (these machines), Debian's rustc-web
# plus a wasm32 std built from rust-web-src (see ../shared/TOOLCHAIN.md).

set -o pipefail
WQ_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WQ_TOOLS="$WQ_ROOT/target/tools"
mkdir -p "$WQ_TOOLS"
export PATH="$HOME/.cargo/bin:$WQ_ROOT/tests/e2e/node_modules/.bin:$PATH"

step() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }
fail() {
  printf '\033[1;31m[setup] FAILED:\033[0m %s\n' "$1" >&2
  printf '[setup] retry with: bash scripts/setup.sh  (each step resumes where it stopped)\n' >&2
  return 1 2>/dev/null || exit 1
}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_ready=""
apt_early_pid=""
apt_install() {
  # apt only where a package is really missing; `apt-get update` at most once.
  apt_early_wait
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || fail "missing ${missing[*]} and no apt-get: install them by hand" || return 1
  step "apt-get install ${missing[*]}"
  if [ -z "$apt_ready" ]; then as_root apt-get update -qq >/dev/null || fail "apt-get update" || return 1; apt_ready=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null \
    || fail "apt-get install ${missing[*]}" || return 1
}

# The browser and gofmt come from Debian: on a new machine their download
# starts first and goes on while the tools compile (apt_install waits for
# it, then finds nothing missing or says what failed).
apt_early() {
  local missing=()
  for p in chromium chromium-driver golang-go; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null || return 0
  step "apt-get install ${missing[*]} (beside the tools' builds)"
  ( { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}"; } \
      >"$WQ_TOOLS/apt-early.log" 2>&1 ) &
  apt_early_pid=$!
}
apt_early_wait() {
  [ -n "$apt_early_pid" ] || return 0
  wait "$apt_early_pid" || step "the early apt-get did not finish (see $WQ_TOOLS/apt-early.log): trying again"
  apt_early_pid=""
}

# The exact wasm-bindgen version Cargo.lock resolved: the CLI must match it.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' "$WQ_ROOT/Cargo.lock"
}

setup_wasm_rustc() {
  # WQ_WASM_ROUTE=debian forces the fallback (to test it on a machine where rustup works).
  local force_debian=""; [ "${WQ_WASM_ROUTE:-}" = debian ] && force_debian=1
  # 1. Ordinary route: rustup already has the target.
  if [ -z "$force_debian" ] && rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    step "wasm32 target: rustup (ready)"
    export WQ_WASM_RUSTC="$(rustup which rustc)"
    return 0
  fi
  # 2. The Debian route, if a previous run completed it.
  local sysroot_lib=/usr/lib/rustlib/wasm32-unknown-unknown/lib
  if [ -x /usr/bin/rustc ] && ls "$sysroot_lib"/libstd-*.rlib >/dev/null 2>&1 \
    && ls "$sysroot_lib"/libtest-*.rlib >/dev/null 2>&1 && [ -f "$sysroot_lib/.wq-stamp" ] \
    && [ "$(cat "$sysroot_lib/.wq-stamp")" = "$(/usr/bin/rustc --version)" ]; then
    step "wasm32 target: Debian rustc-web with a locally built std (ready)"
    export WQ_WASM_RUSTC=/usr/bin/rustc
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19
    return 0
  fi
  # 3. Try rustup (works with internet); a hang here means no route to its server.
  if [ -z "$force_debian" ] && [ ! -f "$WQ_TOOLS/rustup-target-failed" ] && command -v rustup >/dev/null; then
    step "wasm32 target: trying rustup target add (60 s at most)"
    if timeout 60 rustup target add wasm32-unknown-unknown >/dev/null 2>&1; then
      export WQ_WASM_RUSTC="$(rustup which rustc)"
      return 0
    fi
    touch "$WQ_TOOLS/rustup-target-failed"
  fi
  # 4. Fall back to Debian's rustc-web and build its wasm32 std once.
  step "wasm32 target: Debian rustc-web + wasm32 std from rust-web-src"
  apt_install rustc-web rust-web-src lld-19 || return 1
  local scratch="$WQ_TOOLS/std-build"
  rm -rf "$scratch" && mkdir -p "$scratch/src"
  printf '[package]\nname = "wq-std-build"\nversion = "0.0.0"\nedition = "2021"\n[workspace]\n' > "$scratch/Cargo.toml"
  echo 'fn main() {}' > "$scratch/src/main.rs"
  step "building the wasm32 standard library (about 1 minute)"
  (cd "$scratch" && RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS=-Cembed-bitcode=yes \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19 \
    cargo build --quiet --release --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort,test) \
    || fail "building the wasm32 std" || return 1
  as_root mkdir -p "$sysroot_lib"
  find "$scratch/target/wasm32-unknown-unknown/release/deps" -name 'lib*.rlib' ! -name 'libwq_std_build*' \
    -exec cp {} "$sysroot_lib/" \; || fail "installing the wasm32 std" || return 1
  /usr/bin/rustc --version > "$sysroot_lib/.wq-stamp"
  # Anything built against an older sysroot must go ("can't find crate for ...").
  [ -n "$force_debian" ] || rm -rf "$WQ_ROOT/target/web"
  export WQ_WASM_RUSTC=/usr/bin/rustc
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19
}

# The build tools are compiled for a fresh machine, not for speed: their
# own release profiles ask for optimised code (trunk's for fat LTO in one
# codegen unit), which is most of their install time, and their work here
# (running cargo, rewriting a module, copying files) is small beside it.
# Measured on 2 cores: trunk 114 s unoptimised without its default features
# (about 9 minutes as it ships), wasm-bindgen-cli 51 s after it, sharing its
# build directory; the unoptimised wasm-bindgen costs the wasm tests about
# 6 s. (`CARGO_PROFILE_RELEASE_*` override the installed crate's profile.)
tool_install() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo install --quiet --force --target-dir "$WQ_TOOLS/build" "$@"
}

setup_wasm_bindgen() {
  local want; want="$(wasm_bindgen_version)"
  [ -n "$want" ] || fail "no wasm-bindgen in Cargo.lock" || return 1
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" = "$want" ]; then
    step "wasm-bindgen-cli $want (ready)"; return 0
  fi
  step "cargo install wasm-bindgen-cli $want (about 1 minute)"
  tool_install wasm-bindgen-cli --version "$want" \
    || fail "cargo install wasm-bindgen-cli --version $want" || return 1
}

# trunk at one exact version: the same tool every day (an unpinned install took
# 0.22.1, whose dev server injects a reload snippet with an unfilled address).
TRUNK_VERSION=0.21.14
setup_trunk() {
  if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" = "$TRUNK_VERSION" ]; then
    step "trunk $TRUNK_VERSION (ready)"; return 0
  fi
  # Without its default features (TLS for its downloads and its server, and
  # a look for a newer version): here it runs offline over plain HTTP.
  step "cargo install trunk $TRUNK_VERSION (about 2 minutes)"
  tool_install trunk --version "=$TRUNK_VERSION" --locked --no-default-features \
    || fail "cargo install trunk --version =$TRUNK_VERSION --locked --no-default-features" || return 1
}

setup_browser() {
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null; then export WQ_CHROMIUM="$(command -v "$c")"; break; fi
  done
  if [ -z "${WQ_CHROMIUM:-}" ] || ! command -v chromedriver >/dev/null; then
    apt_install chromium chromium-driver || return 1
    export WQ_CHROMIUM=/usr/bin/chromium
  fi
  export CHROMEDRIVER="$(command -v chromedriver)"
  step "browser: $WQ_CHROMIUM (ready)"
}

setup_go() {
  # Go's gofmt checks that the page's Go export is pasted as gofmt leaves it.
  if command -v gofmt >/dev/null; then step "gofmt (ready)"; return 0; fi
  # Optional: without it the export keeps its syntactic checks.
  apt_install golang-go || step "no gofmt: the Go export gets the syntactic checks only"
  return 0
}

setup_npm() {
  # playwright-core (drives the system Chromium, never downloads one) and binaryen's wasm-opt.
  local dir="$WQ_ROOT/tests/e2e" stamp="$WQ_ROOT/tests/e2e/node_modules/.wq-stamp"
  command -v npm >/dev/null || apt_install nodejs npm || return 1
  if [ -f "$stamp" ] && cmp -s "$stamp" "$dir/package-lock.json"; then
    step "npm test tools (ready)"; return 0
  fi
  step "npm ci in tests/e2e"
  (cd "$dir" && npm ci --silent --no-audit --no-fund) || fail "npm ci in tests/e2e" || return 1
  cp "$dir/package-lock.json" "$stamp"
}

wq_setup() {
  local t0=$SECONDS
  command -v cargo >/dev/null || fail "no cargo: install Rust with rustup first (https://rustup.rs)" || return 1
  apt_early
  setup_wasm_rustc && setup_wasm_bindgen && setup_trunk && setup_browser && setup_go && setup_npm || return 1
  # Wasm builds get their own target dir: a different rustc must not evict native artefacts.
  export WQ_WASM_TARGET_DIR="$WQ_ROOT/target/web"
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
  step "ready in $((SECONDS - t0)) s"
}

# Runs a wasm32 cargo/trunk command with the wasm toolchain's environment.
# Paths in the wasm (panic locations) are written relative, so the page has
# the same bytes whatever folder it is built in.
wasm_env() {
  local cargo_home="${CARGO_HOME:-$HOME/.cargo}"
  RUSTC="$WQ_WASM_RUSTC" CARGO_TARGET_DIR="$WQ_WASM_TARGET_DIR" \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=$WQ_ROOT=. --remap-path-prefix=$cargo_home/registry/src=crates ${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-}" \
    "$@"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -eu
  wq_setup
fi
