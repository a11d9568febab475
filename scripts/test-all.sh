#!/usr/bin/env bash
# Runs every test of the workspace, as CI does: formatting, lints (warnings
# are errors), unit, integration, conformance, property and differential tests
# (against the robotstxt crate and Python's urllib.robotparser), doc tests,
# and a build of the benchmarks. Installs what it needs when it can, and
# stops with a clear message when it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "test-all: error: $*" >&2
  exit 2
}

# The real-world corpus (4,231 robots.txt files) lives beside the repository
# in ../shared/corpus/real. From a clone elsewhere, look beside its origin.
if [ -z "${CRAWLGATE_CORPUS:-}" ]; then
  origin=$(git remote get-url origin 2>/dev/null || true)
  for candidate in ../shared/corpus/real "${origin%/}/../shared/corpus/real" /work/shared/corpus/real; do
    if [ -n "$candidate" ] && [ -d "$candidate" ]; then
      CRAWLGATE_CORPUS=$(cd "$candidate" && pwd)
      break
    fi
  done
fi
[ -d "${CRAWLGATE_CORPUS:-}" ] ||
  fail "the robots.txt corpus was not found beside the repository (../shared/corpus/real); set CRAWLGATE_CORPUS=/path/to/corpus/real"
export CRAWLGATE_CORPUS
echo "test-all: corpus at $CRAWLGATE_CORPUS"

# Python's urllib.robotparser is the reference of the legacy profile.
if ! command -v python3 >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "test-all: installing python3"
    apt-get update -qq && apt-get install -y -qq python3 >/dev/null
  else
    fail "python3 is needed (the legacy profile is tested against urllib.robotparser); install it, e.g. apt-get install python3"
  fi
fi
python3 -c "import urllib.robotparser" || fail "python3 cannot import urllib.robotparser"

for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    command -v rustup >/dev/null 2>&1 || fail "cargo $component is missing and rustup is not available to add it"
    rustup component add "$component"
  fi
done

echo "test-all: cargo fmt --check"
cargo fmt --all --check
echo "test-all: cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "test-all: cargo test"
cargo test --workspace --locked
echo "test-all: all passed"
