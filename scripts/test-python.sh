#!/usr/bin/env bash
# Builds the crawlgate-robots Python package as it is published and runs
# the Python suites against the installed package:
#
# 1. the sdist, and the wheel pip builds from it alone in an empty folder:
#    maturin with zig as the linker, manylinux2014 (glibc 2.17) x86_64,
#    abi3 for CPython 3.9 and later, stripped, with the licences;
# 2. that wheel installed into a virtual environment of the pinned
#    requirements (crates/crawlgate-python/requirements-test.txt), and
#    alone into a virtual environment of its own;
# 3. pytest over the whole suite with the installed wheel and no Rust
#    toolchain on PATH (the API and its errors, the wheel's tags, Arrow and
#    Polars batches, the Protego drop-in against Protego and Protego's own
#    tests, real Scrapy crawls against servers on 127.0.0.1, PySpark in
#    local mode against `crawlgate batch`, mypy --strict), on four
#    pytest-xdist workers, and at the same time the Scrapy suite again on
#    Scrapy 2.11. Each suite runs whatever the other does; the script
#    fails at the end, naming each failed suite.
#
# `bash scripts/test-python.sh` does all of it; `prepare` does the builds
# and installs only (1 and 2; scripts/test-all.sh runs it in the background,
# at low priority, while the workspace builds and its tests run) and `run`
# the tests only (3), on what `prepare` left (test-all.sh starts it beside
# the Rust tests once the workspace's build is done).
#
# Everything goes under the Cargo target directory (found with `cargo
# metadata`: $CARGO_TARGET_DIR or target/), in python/. Installs
# python3-venv and a Java runtime with apt-get when they are missing and it
# runs as root; otherwise a missing piece stops it with a message saying
# what to install.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
started=$(date +%s)
crate=$root/crates/crawlgate-python

phase=${1:-all}
case "$phase" in
  all | prepare | run) ;;
  *)
    echo "test-python: error: unknown phase '$phase' (usage: scripts/test-python.sh [prepare|run])" >&2
    exit 2
    ;;
esac

fail() {
  echo "test-python: error: $*" >&2
  exit 2
}

step() {
  echo "test-python: [$(($(date +%s) - started)) s] $*"
}

can_apt() {
  command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]
}

apt_install() {
  echo "test-python: installing $* with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

command -v cargo >/dev/null 2>&1 || fail "cargo is needed to build the extension (install Rust with rustup)"
if ! command -v python3 >/dev/null 2>&1; then
  can_apt || fail "python3 is needed (apt-get install python3 python3-venv)"
  apt_install python3 python3-venv python3-pip
fi
probe=$(mktemp -d)
if ! python3 -m venv "$probe/venv" >/dev/null 2>&1; then
  can_apt || fail "python3 cannot create virtual environments: install python3-venv (apt-get install python3-venv)"
  apt_install python3-venv
  python3 -m venv "$probe/venv" >/dev/null 2>&1 || fail "python3 -m venv still fails after installing python3-venv"
fi
rm -rf "$probe"

# PySpark 4 runs on Java 17 or later.
java_major() {
  java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1
}
if ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ]; then
  can_apt || fail "Java 17 or later is needed by PySpark (apt-get install openjdk-17-jre-headless)"
  apt_install openjdk-17-jre-headless
  command -v java >/dev/null 2>&1 || fail "java is still missing after installing openjdk-17-jre-headless"
fi

CRAWLGATE_CORPUS=$(bash scripts/corpus.sh) || fail "the robots.txt corpus is needed (see the message above)"
export CRAWLGATE_CORPUS

# The build's folder, wherever Cargo puts it ($CARGO_TARGET_DIR, a
# build.target-dir setting, or target/).
target=$(cargo metadata --format-version 1 --no-deps --locked |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])') ||
  fail "cargo metadata could not say where the build goes (see its message above)"
work=$target/python
mkdir -p "$work"
export CARGO_TARGET_DIR=$target
export CRAWLGATE_TARGET=$target

# A virtual environment with a requirements file installed; made again
# when the file changes.
venv() {
  local dir=$1 requirements=$2 stamp
  stamp=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ ! -x "$dir/bin/python" ] || [ "$(cat "$dir/.requirements" 2>/dev/null)" != "$stamp" ]; then
    echo "test-python: creating $dir from $requirements"
    rm -rf "$dir"
    python3 -m venv "$dir" || fail "could not create $dir"
    "$dir/bin/python" -m pip install --quiet --upgrade pip || fail "could not upgrade pip in $dir"
    "$dir/bin/python" -m pip install --quiet -r "$requirements" ||
      fail "could not install $requirements into $dir (see pip's message above)"
    echo "$stamp" >"$dir/.requirements"
  fi
}
# The sdist and the wheel built from it (see prepare).
build_wheel() {
  # One release build, from the sdist: maturin makes the sdist, and pip builds
  # the wheel from it alone in an empty folder (the repository out of reach),
  # through maturin's PEP 517 backend with the pinned maturin and zig
  # (MATURIN_PEP517_ARGS: zig as the linker, manylinux2014). Every suite then
  # runs on that wheel, so the sdist is proven to build and install. (A second,
  # isolated build would compile every crate again in release mode: about ten
  # minutes of CI for the same code.)
  step "building the sdist, then the wheel from it in an empty folder (maturin --zig, manylinux2014, abi3, stripped)"
  rm -rf "$work/dist"
  mkdir -p "$work/dist"
  PATH="$work/build-venv/bin:$PATH" maturin sdist --manifest-path "$crate/Cargo.toml" --out "$work/dist" ||
    fail "maturin could not build the sdist (see its message above)"
  sdist=$(ls "$work"/dist/crawlgate_robots-*.tar.gz)
  sdist_dir=$(mktemp -d)
  cp "$sdist" "$sdist_dir/"
  # A build folder of its own: the wheel shares nothing with the test build
  # (another target, the release profile), and `cargo test`, which may be
  # running beside it, holds the lock of the workspace's build folder.
  (cd "$sdist_dir" && PATH="$work/build-venv/bin:$PATH" \
    CARGO_TARGET_DIR="$work/wheel-target" \
    MATURIN_PEP517_ARGS="--zig --compatibility manylinux2014" \
    "$work/build-venv/bin/python" -m pip wheel --quiet --no-deps --no-build-isolation \
    "./$(basename "$sdist")" -w "$work/dist") ||
    fail "pip could not build the wheel from the sdist (see its message above)"
  rm -rf "$sdist_dir"
}

prepare() {
  venv "$work/build-venv" "$crate/requirements-build.txt"
  # The wheel builds while the test environments are made: they mostly
  # download, and the build is the longest part of the whole run.
  local wheel_log=$work/wheel-build.log wheel_pid
  build_wheel >"$wheel_log" 2>&1 &
  wheel_pid=$!
  venv "$work/venv" "$crate/requirements-test.txt"
  venv "$work/venv-scrapy-2.11" "$crate/requirements-scrapy-2.11.txt"
  if ! wait "$wheel_pid"; then
    cat "$wheel_log" >&2
    fail "the wheel could not be built (its log is above)"
  fi
  cat "$wheel_log"
  sdist=$(ls "$work"/dist/crawlgate_robots-*.tar.gz)
  wheel=$(ls "$work"/dist/crawlgate_robots-*.whl)
  "$work/build-venv/bin/auditwheel" show "$wheel" >"$work/dist/auditwheel.txt" ||
    fail "auditwheel could not read $wheel"
  export CRAWLGATE_WHEEL=$wheel CRAWLGATE_SDIST=$sdist CRAWLGATE_AUDITWHEEL=$work/dist/auditwheel.txt

  # The wheel built from the sdist, in a virtual environment of its own with
  # nothing else installed.
  rm -rf "$work/sdist-venv"
  python3 -m venv "$work/sdist-venv" || fail "could not create $work/sdist-venv"
  "$work/sdist-venv/bin/python" -m pip install --quiet --no-deps "$wheel" ||
    fail "could not install $wheel into $work/sdist-venv"
  export CRAWLGATE_SDIST_PYTHON=$work/sdist-venv/bin/python

  # The wheel with every extra: pip checks that the pinned packages satisfy
  # them, and downloads nothing more.
  extras="arrow,spark,polars,duckdb,scrapy"
  for dir in "$work/venv" "$work/venv-scrapy-2.11"; do
    "$dir/bin/python" -m pip uninstall --quiet --yes crawlgate crawlgate-robots >/dev/null 2>&1
    "$dir/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel" ||
      fail "could not install $wheel into $dir"
  done
  "$work/venv/bin/python" -m pip install --quiet "$wheel[$extras]" ||
    fail "the pinned requirements do not satisfy the extras [$extras] (see pip's message above)"

  # Protego's own tests, from its sdist on PyPI (checked against its hash).
  step "downloading Protego's sdist for its own tests"
  rm -rf "$work/protego-sdist"
  "$work/venv/bin/python" -m pip download --quiet --no-deps --no-binary :all: --require-hashes \
    -r "$crate/requirements-protego-sdist.txt" -d "$work/protego-sdist" ||
    fail "could not download Protego's sdist (see pip's message above)"
  CRAWLGATE_PROTEGO_SDIST=$(ls "$work"/protego-sdist/protego-*.tar.gz)
  export CRAWLGATE_PROTEGO_SDIST
}

# What `prepare` left, for the tests.
artifacts() {
  wheel=$(ls "$work"/dist/crawlgate_robots-*.whl 2>/dev/null)
  sdist=$(ls "$work"/dist/crawlgate_robots-*.tar.gz 2>/dev/null)
  CRAWLGATE_PROTEGO_SDIST=$(ls "$work"/protego-sdist/protego-*.tar.gz 2>/dev/null)
  [ -n "$wheel" ] && [ -n "$sdist" ] && [ -n "$CRAWLGATE_PROTEGO_SDIST" ] && [ -x "$work/sdist-venv/bin/python" ] ||
    fail "the wheel, sdist and environments are not in $work: run scripts/test-python.sh prepare first"
  export CRAWLGATE_WHEEL=$wheel CRAWLGATE_SDIST=$sdist CRAWLGATE_AUDITWHEEL=$work/dist/auditwheel.txt
  export CRAWLGATE_SDIST_PYTHON=$work/sdist-venv/bin/python CRAWLGATE_PROTEGO_SDIST
}

if [ "$phase" != run ]; then
  prepare
fi
if [ "$phase" = prepare ]; then
  step "prepared: the wheel, the sdist and the environments are in $work"
  exit 0
fi
artifacts

# The crawlgate command for the Spark and survey tests: $CRAWLGATE_BIN when
# set (test-all.sh passes the one `cargo test` built), else built here.
if [ -n "${CRAWLGATE_BIN:-}" ]; then
  [ -x "$CRAWLGATE_BIN" ] || fail "CRAWLGATE_BIN=$CRAWLGATE_BIN is not an executable"
  export CRAWLGATE_CLI=$CRAWLGATE_BIN
else
  step "building the crawlgate command (for the Spark and survey tests)"
  cargo build --quiet --locked -p crawlgate-cli || fail "cargo could not build crawlgate-cli"
  export CRAWLGATE_CLI=$target/debug/crawlgate
fi

# PATH without the Rust toolchain: the tests run on the installed wheel
# alone (tests/test_packaging.py checks that cargo and rustc are absent).
no_rust=""
IFS=: read -r -a path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
  if [ -n "$dir" ] && [ ! -e "$dir/cargo" ] && [ ! -e "$dir/rustc" ]; then
    no_rust="${no_rust:+$no_rust:}$dir"
  fi
done

# The suites run at once, each into a log of its own that is shown when it
# ends, in order: they wait on crawls, Spark and servers far more than they
# compute (alone, the whole suite kept one core 45 % busy for 78 s), and the
# main one spreads its files over four pytest-xdist workers (a file's tests
# stay on one worker, so a module's Spark session or crawl lab is made
# once).
failed=()
names=()
pids=()
logs=()
suite() {
  local name=$1 log
  shift
  log=$(mktemp)
  (cd "$crate" && export PATH="$no_rust" && "$@") >"$log" 2>&1 &
  names+=("$name")
  pids+=("$!")
  logs+=("$log")
}
pytest_in() {
  local dir=$1
  shift
  "$dir/bin/python" -m pytest -q -p no:cacheprovider "$@"
}
scrapy_of() {
  "$1/bin/python" -c 'import scrapy; print(scrapy.__version__)'
}
step "the suites, at once"
suite "pytest, the whole suite (Scrapy $(scrapy_of "$work/venv")), on 4 workers" \
  pytest_in "$work/venv" -n 4 --dist loadfile tests
suite "pytest tests/test_scrapy.py (Scrapy $(scrapy_of "$work/venv-scrapy-2.11"))" \
  pytest_in "$work/venv-scrapy-2.11" tests/test_scrapy.py
for i in "${!pids[@]}"; do
  status=0
  wait "${pids[$i]}" || status=$?
  step "${names[$i]}: ended"
  cat "${logs[$i]}"
  rm -f "${logs[$i]}"
  if [ "$status" != 0 ]; then
    echo "test-python: FAILED: ${names[$i]}" >&2
    failed+=("${names[$i]}")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  step "FAILED: ${#failed[@]} suite(s):"
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
step "all passed"
