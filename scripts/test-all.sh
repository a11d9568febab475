#!/usr/bin/env bash
# Runs every test of the project, as CI does: formatting, lints (warnings are
# errors), unit, integration, conformance, property and differential tests
# (against the robotstxt crate and Python's urllib.robotparser), doc tests,
# the server's tests on loopback with a real Redis, headless Chromium and
# schemathesis (Google's compliance suite through the API, hostile clients,
# the memory budget), the fuzz targets' regressions and seeds (on stable: the
# fuzz crate is a member of the workspace), the examples of the
# documentation, and the Python package's suites (Protego, real Scrapy
# crawls, PySpark in local mode).
#
# On a fresh Debian machine with only the Rust toolchain, it installs what the
# tests need with apt-get when it runs as root (Python with its headers,
# Chromium and its driver, Redis, a Java runtime, and nginx, Apache, Caddy
# and HAProxy for the policy's server rules) and downloads the rest from
# the package registries (the corpus, Python packages). When it cannot, it
# stops and says what is missing: a missing piece is a failure, never a
# skipped test.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

fail() {
  echo "test-all: error: $*" >&2
  exit 2
}

step() {
  echo "test-all: [$(($(date +%s) - started)) s] $*"
}

# What the build needs from the system, as "command-or-probe:package":
# Python with its headers (PyO3's build runs python3, and the Python crate's
# Rust tests link libpython), pip and venv (the corpus download, the Python
# suites). Installed first, before anything is built.
build_needs=(
  "python3:python3"
  "pip:python3-pip"
  "venv:python3-venv"
  "libpython:python3-dev"
)
# What the tests need besides: installed in the background while the
# workspace builds, and waited for before the first test runs.
needs=(
  "chromium:chromium"
  "chromedriver:chromium-driver"
  "redis-server:redis-server"
  "java17:openjdk-17-jre-headless"
  "nginx:nginx"
  "apache2:apache2"
  "caddy:caddy"
  "haproxy:haproxy"
  # The audit's deny lists are checked by the programs that enforce them.
  "apachectl:apache2"
  "nft:nftables"
)
has() {
  case "$1" in
    pip) python3 -m pip --version >/dev/null 2>&1 ;;
    venv) python3 -c "import ensurepip, venv" >/dev/null 2>&1 ;;
    libpython) python3-config --ldflags --embed >/dev/null 2>&1 ;;
    java17)
      command -v java >/dev/null 2>&1 &&
        [ "$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)" -ge 17 ] ;;
    # Debian puts servers in /usr/sbin, which a user's PATH may lack.
    nginx | apache2 | apachectl | nft | haproxy) command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}
# Installs what is missing of the needs given ("probe:package" each), or
# fails saying what to install.
install_missing() {
  local need missing=()
  for need in "$@"; do
    has "${need%%:*}" || missing+=("${need#*:}")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      step "installing ${missing[*]} with apt-get"
      # The tests start nginx, Apache, Caddy and HAProxy themselves on free
      # loopback ports: their packages must not start them as services (two
      # on port 80 would fail the install). policy-rc.d says so while
      # apt-get runs, when none is there already.
      local guard=""
      if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && guard=yes
      fi
      # dpkg takes one install at a time: wait for its lock rather than fail.
      local installed=yes
      apt-get -o DPkg::Lock::Timeout=600 update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        installed=""
      if [ -n "$guard" ]; then rm -f /usr/sbin/policy-rc.d; fi
      [ -n "$installed" ] || fail "apt-get could not install ${missing[*]} (see its message above)"
    else
      fail "the tests need ${missing[*]}; install them (Debian: apt-get install ${missing[*]}) or run this script as root, which installs them"
    fi
  fi
  for need in "$@"; do
    has "${need%%:*}" || fail "${need#*:} is still missing after installing it"
  done
}
install_missing "${build_needs[@]}"
python3 -c "import urllib.robotparser" || fail "python3 cannot import urllib.robotparser"

# The test programs, installed in the background (see `needs`); its log is
# shown, and the run stops, if it fails.
system_log=$(mktemp)
install_missing "${needs[@]}" >"$system_log" 2>&1 &
system_pid=$!
wait_for_system() {
  if ! wait "$system_pid"; then
    cat "$system_log" >&2
    fail "the programs the tests need could not be installed (see above)"
  fi
  cat "$system_log"
}

# The real-world corpus (4,231 robots.txt files): $CRAWLGATE_CORPUS, the
# sibling ../shared/corpus/real, or a verified download into the build
# folder.
CRAWLGATE_CORPUS=$(bash scripts/corpus.sh) || fail "the robots.txt corpus is needed (see the message above)"
export CRAWLGATE_CORPUS
step "corpus at $CRAWLGATE_CORPUS"

for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    command -v rustup >/dev/null 2>&1 || fail "cargo $component is missing and rustup is not available to add it"
    rustup component add "$component"
  fi
done

# The build folder ($CARGO_TARGET_DIR, a build.target-dir setting, or
# target/) and the room the whole run needs there: the test builds, the
# release build of the Python wheel, the virtual environments and the
# tests' files came to 9.3 GB on 2026-11-27 (12 asked, for margin). A full
# disk midway through fails a suite with a confusing compiler error; this
# says it up front.
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])') ||
  fail "cargo metadata could not say where the build goes (see its message above)"
need_gb=${CRAWLGATE_NEED_GB:-12}
mkdir -p "$target_dir"
free_kb=$(df -Pk "$target_dir" | awk 'NR == 2 { print $4 }')
used_kb=$(du -sk "$target_dir" 2>/dev/null | cut -f1)
if [ $(((free_kb + used_kb) / 1024 / 1024)) -lt "$need_gb" ]; then
  fail "the run needs about $need_gb GB for $target_dir (what it holds counted): $((free_kb / 1024 / 1024)) GB are free and it holds $((used_kb / 1024 / 1024)) GB; free some space, or point CARGO_TARGET_DIR at a larger disk (CRAWLGATE_NEED_GB overrides the estimate)"
fi
step "build folder $target_dir: $((free_kb / 1024 / 1024)) GB free, $((used_kb / 1024 / 1024)) GB in use"

# Each suite runs even when one before it failed, so that one failure never
# hides another; the script fails at the end, naming every failed suite.
failed=()
suite() {
  local name=$1
  shift
  step "$name"
  if ! "$@"; then
    echo "test-all: FAILED: $name" >&2
    failed+=("$name")
  fi
}
fuzz_run() {
  if cargo +nightly --version >/dev/null 2>&1 && cargo fuzz --version >/dev/null 2>&1; then
    step "fuzzing every target for ${CRAWLGATE_FUZZ_SECONDS:-60} s (nightly and cargo-fuzz are here)"
    bash scripts/fuzz.sh "${CRAWLGATE_FUZZ_SECONDS:-60}"
  else
    step "no fuzzing run: it needs the nightly toolchain and cargo-fuzz (the replay above and the proptest suites stand in; see scripts/fuzz.sh)"
  fi
}

# Clippy lints the workspace's crates while `cargo test` builds them:
# clippy-driver is the rustc of workspace members (what `cargo clippy` runs,
# there in check mode) and warnings are errors. One build of the dependency
# tree serves both, where `cargo clippy` and then `cargo test` compiled it
# twice (metadata only, then code). The Python package's release build
# below runs without clippy.
clippy_driver="$(rustc --print sysroot)/bin/clippy-driver"
[ -x "$clippy_driver" ] || fail "clippy-driver is missing from the toolchain at $clippy_driver (rustup component add clippy)"
# The wheel's warnings are errors too: it is the one build of the survey
# and the audit without their `files` feature (the workspace's build
# unifies features and always has it), so code only that build compiles
# is checked there.
python_env=(env -u RUSTC_WORKSPACE_WRAPPER "RUSTFLAGS=${RUSTFLAGS:+$RUSTFLAGS }-D warnings")
export RUSTC_WORKSPACE_WRAPPER=$clippy_driver
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-D warnings"

# The Python package's suites, in the background beside the Rust ones:
# the wheel (a release build from its sdist, in a build folder of its own)
# and environments are prepared at the lowest CPU priority (while the
# workspace builds it mostly downloads; then it takes the CPU the tests
# leave idle), and its tests start as soon as both the wheel and the
# workspace's build are there (they run the crawlgate binary the build
# makes), beside the Rust tests: they wait on crawls, Spark and servers
# more than they compute. Their log is shown when they end.
python_log="$target_dir/python-suites.log"
build_done="$target_dir/.test-all-build-done"
rm -f "$build_done"
python_suites() {
  "${python_env[@]}" nice -n 19 bash scripts/test-python.sh prepare || {
    echo "test-all: the Python package could not be built or installed (see above)"
    return 1
  }
  # ($$ is this script: when it has stopped early, so does the wait.)
  until [ -e "$build_done" ]; do
    kill -0 $$ 2>/dev/null || return 1
    sleep 2
  done
  if [ ! -x "$target_dir/debug/crawlgate" ]; then
    echo "test-all: the workspace's build made no crawlgate binary, which the Python suites run (see the build's errors)"
    return 1
  fi
  CRAWLGATE_BIN="$target_dir/debug/crawlgate" "${python_env[@]}" bash scripts/test-python.sh run
}
python_suites >"$python_log" 2>&1 &
python_pid=$!

suite "cargo fmt --check" cargo fmt --all --check
suite "build every target, linted by clippy (warnings are errors; like cargo clippy --workspace --all-targets -- -D warnings)" \
  cargo test --workspace --all-targets --locked --no-run
touch "$build_done"
# From here the wheel is on the way to the Python suites, which run beside
# the Rust tests: it gets the same CPU priority as they do, so that it is
# ready before they end (at the lowest it waited for them, and the Python
# suites ran alone afterwards). Lowering a niceness needs root (as CI
# runs); otherwise it stays at the lowest.
descendants() {
  # Every process's parent, from /proc (procps may not be installed).
  local dir stat
  for dir in /proc/[0-9]*; do
    stat=$(cat "$dir/stat" 2>/dev/null) || continue
    stat=${stat##*) }
    echo "${dir#/proc/} ${stat#* }"
  done | awk -v root="$1" '{ parent[$1] = $2 }
    END { n = 1; queue[1] = root
      for (i = 1; i <= n; i++) for (p in parent) if (parent[p] + 0 == queue[i] + 0) { queue[++n] = p; print p } }'
}
renice -n 0 -p "$python_pid" $(descendants "$python_pid") >/dev/null 2>&1 || true
step "waiting for the programs the tests need"
wait_for_system
suite "cargo test (the server's tests start Redis and Chromium themselves and install schemathesis from PyPI into the build folder, the survey's tests moto)" cargo test --workspace --locked --no-fail-fast
suite "fuzzing" fuzz_run
# The crawlgate binary that `cargo test` built for the CLI's tests: building it
# again with `cargo build -p crawlgate-cli` would resolve features differently
# and recompile most of the tree (about 9 minutes here).
if [ -x "$target_dir/debug/crawlgate" ]; then
  export CRAWLGATE_BIN="$target_dir/debug/crawlgate"
fi
suite "the examples of the documentation against the crawlgate binary" python3 scripts/doc-examples.py README.md docs/behaviour.md docs/cli.md docs/lint.md docs/policy.md docs/audit.md docs/survey.md
python_run() {
  step "waiting for the Python package's suites, which ran beside the Rust tests (log: $python_log)"
  local status=0
  wait "$python_pid" || status=$?
  cat "$python_log"
  return "$status"
}
suite "the Python package (scripts/test-python.sh prepare, then run)" python_run
if [ "${#failed[@]}" -gt 0 ]; then
  step "FAILED: ${#failed[@]} suite(s):"
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
step "all passed"
