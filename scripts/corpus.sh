#!/usr/bin/env bash
# Prints the directory of the real-world robots.txt corpus (4,231 files, one
# per site, as served), obtaining it first when needed. In order:
#   1. $CRAWLGATE_CORPUS, when set (it must be a directory);
#   2. ../shared/corpus/real beside the repository, when present;
#   3. corpus/protego-0.7.0/tests/test_data in Cargo's build folder
#      ($CARGO_TARGET_DIR, a build.target-dir setting, or target/), extracted
#      earlier;
#   4. otherwise the same files from the Protego 0.7.0 source distribution on
#      the Python package index (BSD-licensed test data): downloaded with pip,
#      checked against a pinned SHA-256, extracted there.
# Exits 2 with a clear message when none of these works.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

version=0.7.0
sha256=2c032d9736a1f4f0c4318f3558353ae34da5cd038f1a5e064ded7548df315e5a
expected_files=4231

fail() {
  echo "corpus: error: $*" >&2
  exit 2
}

if [ -n "${CRAWLGATE_CORPUS:-}" ]; then
  [ -d "$CRAWLGATE_CORPUS" ] || fail "CRAWLGATE_CORPUS=$CRAWLGATE_CORPUS is not a directory"
  cd "$CRAWLGATE_CORPUS" && pwd
  exit 0
fi

if [ -d "$root/../shared/corpus/real" ]; then
  cd "$root/../shared/corpus/real" && pwd
  exit 0
fi

# Cargo's build folder, as `cargo metadata` says (without cargo or python3,
# target/ beside the repository's root).
build_dir() {
  if command -v cargo >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    (cd "$root" && cargo metadata --format-version 1 --no-deps 2>/dev/null |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])' 2>/dev/null) && return
  fi
  echo "$root/target"
}
cache="$(build_dir)/corpus"
dir="$cache/protego-$version/tests/test_data"
if [ -f "$cache/protego-$version.complete" ] && [ -d "$dir" ]; then
  echo "$dir"
  exit 0
fi

# Only one process downloads; the others wait for it.
mkdir -p "$cache"
exec 9>"$cache/.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if [ -f "$cache/protego-$version.complete" ] && [ -d "$dir" ]; then
  echo "$dir"
  exit 0
fi

python=$(command -v python3 || true)
[ -n "$python" ] || fail "the corpus is not here and python3 (with pip) is needed to download it; install python3 and python3-pip, or set CRAWLGATE_CORPUS=/path/to/corpus"
"$python" -m pip --version >/dev/null 2>&1 ||
  fail "the corpus is not here and pip is needed to download it (apt-get install python3-pip), or set CRAWLGATE_CORPUS=/path/to/corpus"

archive="$cache/protego-$version.tar.gz"
if [ ! -f "$archive" ]; then
  echo "corpus: downloading protego==$version (source distribution) from the Python package index" >&2
  download="$cache/download"
  rm -rf "$download"
  mkdir -p "$download"
  "$python" -m pip download --quiet --no-deps --no-binary :all: \
    "protego==$version" -d "$download" >&2 ||
    fail "could not download protego==$version from the package index (offline?); set CRAWLGATE_CORPUS=/path/to/corpus instead"
  [ -f "$download/protego-$version.tar.gz" ] || fail "pip did not produce protego-$version.tar.gz"
  mv "$download/protego-$version.tar.gz" "$archive"
  rm -rf "$download"
fi

actual=$(sha256sum "$archive" | cut -d' ' -f1)
if [ "$actual" != "$sha256" ]; then
  rm -f "$archive"
  fail "protego-$version.tar.gz has SHA-256 $actual, expected $sha256; the download was removed"
fi

rm -rf "$cache/protego-$version"
tar -xzf "$archive" -C "$cache" "protego-$version/tests/test_data" ||
  fail "could not extract tests/test_data from $archive"
count=$(find "$dir" -maxdepth 1 -type f | wc -l)
[ "$count" -eq "$expected_files" ] || fail "expected $expected_files corpus files in $dir, found $count"
touch "$cache/protego-$version.complete"
echo "corpus: $count files in $dir" >&2
echo "$dir"
