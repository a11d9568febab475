#!/usr/bin/env bash
# Runs every test of the workspace, as CI does: formatting, lints (warnings
# are errors), unit, integration, conformance, property and differential tests
# (against the robotstxt crate and Python's urllib.robotparser), doc tests,
# the fuzz targets' regressions and seeds (on stable), the examples of
# docs/behaviour.md, and a build of the benchmarks. Installs what it needs
# when it can, and stops with a clear message when it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "test-all: error: $*" >&2
  exit 2
}

# Python: urllib.robotparser is the reference of the legacy profile, and pip
# downloads the corpus when it is not here.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "test-all: installing python3, pip and venv"
    apt-get update -qq && apt-get install -y -qq python3 python3-pip python3-venv >/dev/null
  else
    fail "python3 with pip is needed (the legacy profile is tested against urllib.robotparser, and pip downloads the corpus); install it, e.g. apt-get install python3 python3-pip python3-venv"
  fi
fi
python3 -c "import urllib.robotparser" || fail "python3 cannot import urllib.robotparser"

# The real-world corpus (4,231 robots.txt files): $CRAWLGATE_CORPUS, the
# sibling ../shared/corpus/real, or a verified download into target/corpus/.
CRAWLGATE_CORPUS=$(bash scripts/corpus.sh) || fail "the robots.txt corpus is needed (see the message above)"
export CRAWLGATE_CORPUS
echo "test-all: corpus at $CRAWLGATE_CORPUS"

for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    command -v rustup >/dev/null 2>&1 || fail "cargo $component is missing and rustup is not available to add it"
    rustup component add "$component"
  fi
done

echo "test-all: cargo fmt --check"
cargo fmt --all --check
cargo fmt --manifest-path fuzz/Cargo.toml --check
echo "test-all: cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "test-all: cargo test"
cargo test --workspace --locked
echo "test-all: fuzz regressions and seeds, replayed on stable (fuzz/)"
cargo test --manifest-path fuzz/Cargo.toml --no-default-features --locked
echo "test-all: the examples of docs/behaviour.md against the crawlgate binary"
python3 scripts/doc-examples.py
echo "test-all: all passed"
