#!/usr/bin/env bash
# Runs the tests of crawlgate-server (`crawlgate serve`): the API on
# loopback, Google's compliance suite through /v1/check, schemathesis (from
# PyPI, into a virtual environment under target/) over /openapi.json, slow,
# idle and greedy clients, the memory budget, two instances on a real
# Redis, restarts of the embedded store, and the tester page in headless
# Chromium. Installs what they need with
# apt-get when it is missing (chromium, chromium-driver, redis-server), and
# stops with a clear message when it cannot: a missing piece is a failure,
# never a skipped test.
#
#   scripts/test-server.sh            # the server crate's tests
#   scripts/test-server.sh --load     # and the load figures (release build)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "test-server: error: $*" >&2
  exit 2
}

load=false
for arg in "$@"; do
  case "$arg" in
    --load) load=true ;;
    *) fail "unknown argument $arg (only --load)" ;;
  esac
done

# What each test needs: the browser and its driver, and a Redis server.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
if [ "${#missing[@]}" -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "test-server: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    fail "${missing[*]} must be installed (Debian: apt-get install chromium chromium-driver redis-server)"
  fi
fi
for tool in chromium chromedriver redis-server; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is still missing after installing"
done
[ -x /usr/bin/chromium ] || fail "the browser test drives /usr/bin/chromium, which is missing"
# The test services listen on loopback only, on free ports chosen by the tests.

echo "test-server: cargo test -p crawlgate-server"
cargo test -p crawlgate-server --locked

if $load; then
  echo "test-server: load figures (cargo run --release --example load)"
  cargo run --release --locked -p crawlgate-server --example load -- --seconds 5
fi
echo "test-server: all passed"
