#!/usr/bin/env bash
# Builds the crawlgate Python package (crates/crawlgate-python, maturin)
# and runs its pytest suites: the API and its errors, Arrow batches, the
# Protego drop-in against Protego on the corpus, real Scrapy crawls against
# a local HTTP server (on the pinned Scrapy and again on Scrapy 2.11), and
# PySpark in local mode against `crawlgate batch`.
#
# Everything goes under target/: a virtual environment with the pinned
# requirements (crates/crawlgate-python/requirements-test.txt), a second
# one for Scrapy 2.11, the wheel. Installs python3-venv and a Java runtime
# with apt-get when they are missing and it runs as root; otherwise a
# missing piece stops it with a message saying what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
started=$(date +%s)
crate=crates/crawlgate-python

fail() {
  echo "test-python: error: $*" >&2
  exit 2
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

venv() {
  local dir=$1 requirements=$2
  if [ ! -x "$dir/bin/python" ]; then
    echo "test-python: creating $dir"
    python3 -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --upgrade pip
  fi
  echo "test-python: installing $requirements into $dir"
  "$dir/bin/python" -m pip install --quiet -r "$requirements" ||
    fail "could not install $requirements into $dir (see pip's message above)"
}
venv target/python-venv "$crate/requirements-test.txt"
venv target/python-venv-scrapy-2.11 "$crate/requirements-scrapy-2.11.txt"

echo "test-python: building the wheel (maturin, release)"
rm -rf target/python-wheels
PATH="$root/target/python-venv/bin:$PATH" target/python-venv/bin/python -m pip wheel --quiet \
  --no-build-isolation --no-deps "./$crate" -w target/python-wheels
wheel=$(ls target/python-wheels/crawlgate-*.whl)
for dir in target/python-venv target/python-venv-scrapy-2.11; do
  "$dir/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
done

echo "test-python: building the crawlgate command (for the Spark test)"
cargo build --quiet -p crawlgate-cli
export CRAWLGATE_CLI="$root/target/debug/crawlgate"

cd "$crate"
echo "test-python: pytest (Scrapy $(../../target/python-venv/bin/python -c 'import scrapy; print(scrapy.__version__)'))"
../../target/python-venv/bin/python -m pytest -q -p no:cacheprovider tests
echo "test-python: pytest tests/test_scrapy.py (Scrapy $(../../target/python-venv-scrapy-2.11/bin/python -c 'import scrapy; print(scrapy.__version__)'))"
../../target/python-venv-scrapy-2.11/bin/python -m pytest -q -p no:cacheprovider tests/test_scrapy.py
echo "test-python: all passed in $(($(date +%s) - started)) s"
