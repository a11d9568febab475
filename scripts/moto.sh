#!/usr/bin/env bash
# Installs moto's S3-compatible server (from PyPI, a pinned version) into a
# virtual environment under the Cargo target folder, once, and prints the
# path of its `moto_server` program. The survey's object-storage tests run
# it on loopback (crates/crawlgate-survey/tests/survey/remote.rs); they call
# this script themselves, and fail when it fails.
#
#   bash scripts/moto.sh            # prints .../target/moto-5.2.5/bin/moto_server
set -euo pipefail
cd "$(dirname "$0")/.."
version=5.2.5
target=${CARGO_TARGET_DIR:-$(cargo metadata --no-deps --format-version 1 2>/dev/null |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])' || echo target)}
venv="$target/moto-$version"
if [ ! -e "$venv/.installed" ]; then
  mkdir -p "$target"
  # One installer at a time (tests run in parallel).
  exec 9>"$target/.moto-install.lock"
  flock 9
  if [ ! -e "$venv/.installed" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 ||
      { echo "moto.sh: cannot create a virtual environment (install python3-venv)" >&2; exit 2; }
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "moto[server]==$version" >&2 ||
      { rm -rf "$venv"; echo "moto.sh: cannot install moto[server]==$version from PyPI" >&2; exit 2; }
    touch "$venv/.installed"
  fi
fi
echo "$venv/bin/moto_server"
