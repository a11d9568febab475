#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for a bounded time (default 60 seconds
# each), seeded with the real-world robots.txt corpus, the hand-made seeds
# (fuzz/seeds) and the target's regressions. New inputs are kept in
# fuzz/corpus/<target>, crashes in fuzz/artifacts/<target>/, the libFuzzer
# output in fuzz/artifacts/<target>.log.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Needs the nightly toolchain and cargo-fuzz; says which is missing and
# exits 2 otherwise. Exits 1 when a target found a crash (a panic: a broken
# promise), an out-of-memory input or a hang (one input running past 20 s).
# Inputs that took 10 s or more (libFuzzer's slow units) are listed as worth
# a look, without failing: their time depends on the machine's load. FUZZ_FLAGS adds libFuzzer flags, e.g.
# FUZZ_FLAGS="-fork=1 -ignore_crashes=1" to keep going past a crash.
# The stable replay of regressions and seeds is part of the workspace's tests:
#   cargo test -p crawlgate-fuzz
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

fail() {
  echo "fuzz: error: $*" >&2
  exit 2
}

seconds=${1:-60}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] ||
  fail "SECONDS must be a positive whole number, got '$seconds' (usage: scripts/fuzz.sh [SECONDS] [TARGET...])"
shift $(($# > 0 ? 1 : 0))
all_targets=(parse decide render lint search_console)
targets=("${@:-${all_targets[@]}}")
for target in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] || fail "unknown target '$target' (targets: ${all_targets[*]})"
done

command -v rustup >/dev/null 2>&1 || fail "rustup is needed to find the nightly toolchain (https://rustup.rs)"
cargo +nightly --version >/dev/null 2>&1 ||
  fail "the nightly toolchain is missing (cargo-fuzz needs it for coverage instrumentation): rustup toolchain install nightly"
cargo fuzz --version >/dev/null 2>&1 || fail "cargo-fuzz is missing: cargo install cargo-fuzz --locked"
command -v timeout >/dev/null 2>&1 || fail "timeout (GNU coreutils) is needed to bound each run"

corpus=$(bash scripts/corpus.sh) || fail "the real-world corpus seeds every target (see the message above)"

# Optimised, with debug assertions and overflow checks (cargo-fuzz's
# default). No sanitizer: crawlgate has no unsafe code, and AddressSanitizer
# would slow every execution several times over.
mkdir -p fuzz/artifacts
echo "fuzz: building the targets (cargo +nightly fuzz build -s none --features libfuzzer; log: fuzz/artifacts/build.log)"
# The release profile's link-time optimisation is for the installed
# binary: fuzz targets build faster without it, and sanitizer coverage
# passes do not need it.
if ! CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  cargo +nightly fuzz build --fuzz-dir fuzz -s none --features libfuzzer >fuzz/artifacts/build.log 2>&1; then
  tail -n 30 fuzz/artifacts/build.log >&2
  fail "building the fuzz targets failed (the end of fuzz/artifacts/build.log is above)"
fi
# The workspace's build folder ($CARGO_TARGET_DIR, a build.target-dir
# setting, or target/): the fuzz crate is a member of the workspace.
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])') ||
  fail "cargo metadata could not say where the build goes"
bin=$target_dir/x86_64-unknown-linux-gnu/release

# Real-world files up to 64 KiB seed every target (4,156 of the 4,231): the
# few larger ones would make replaying the seeds, which libFuzzer does before
# its clock starts, take minutes. The stable replay test reads them all.
seeds=$target_dir/fuzz-real-seeds
if [ ! -f "$seeds/.complete" ]; then
  rm -rf "$seeds"
  mkdir -p "$seeds"
  find "$corpus" -maxdepth 1 -type f -size -65537c -exec cp -t "$seeds" {} +
  touch "$seeds/.complete"
fi

# Inputs up to this length: room for the 70,000-character agent and URL seed.
max_len=150000
# One input running longer than this is a finding (a hang, or worse than
# linear time).
per_input=20

status=0
for target in "${targets[@]}"; do
  # A target without regressions yet has no folder in git, which libFuzzer
  # would refuse.
  mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target" "fuzz/regressions/$target"
  log="fuzz/artifacts/$target.log"
  echo "fuzz: $target for ${seconds}s (log: $log)"
  stamp=$(mktemp)
  # libFuzzer's own clock starts after the seeds are replayed: `timeout`
  # bounds the whole run, interrupting it (exit 72 after its final stats)
  # when the seeds take long.
  set +e
  timeout -s INT -k 30 $((seconds * 3 + 60)) "$bin/$target" \
    -artifact_prefix="fuzz/artifacts/$target/" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout="$per_input" -rss_limit_mb=4096 \
    -print_final_stats=1 -dict=fuzz/robots.dict ${FUZZ_FLAGS:-} \
    "fuzz/corpus/$target" fuzz/seeds "fuzz/regressions/$target" "$seeds" >"$log" 2>&1
  code=$?
  set -e
  # What libFuzzer wrote this run: crash-, oom- and timeout- files are
  # findings; slow-unit- files are inputs that took 10 s or more.
  new_artifacts=$(find "fuzz/artifacts/$target" -type f -newer "$stamp" ! -name 'slow-unit-*' -printf '%f\n' | sort)
  slow=$(find "fuzz/artifacts/$target" -type f -newer "$stamp" -name 'slow-unit-*' -printf '%f\n' | sort)
  rm -f "$stamp"
  found=$(grep -c . <<<"$new_artifacts" || true)
  if [ -n "$slow" ]; then
    echo "fuzz: $target: inputs that took 10 s or more (fuzz/artifacts/$target/), worth a look:"
    sed 's/^/  /' <<<"$slow"
  fi
  runs=$(awk '/^stat::number_of_executed_units/ {print $2}' "$log")
  speed=$(awk '/^stat::average_exec_per_sec/ {print $2}' "$log")
  if [ -z "$runs" ]; then
    # Fork mode prints no final statistics: read its last progress line.
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1 || true)
    runs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
    speed=$(sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p' <<<"$last")
  fi
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
  if [[ ($code == 0 || $code == 72) && $found == 0 ]]; then
    echo "fuzz: $target: no finding; ${runs:-?} executions, ${speed:-?}/s, ${cov:-coverage unknown}"
  else
    status=1
    echo "fuzz: $target: FINDING (exit $code, $found new inputs in fuzz/artifacts/$target/);" \
      "${runs:-?} executions, ${speed:-?}/s, ${cov:-coverage unknown}; the end of $log:" >&2
    sed 's/^/  /' <<<"$new_artifacts" >&2
    tail -n 25 "$log" >&2
    echo "fuzz: minimise with: cargo +nightly fuzz tmin --fuzz-dir fuzz -s none $target <artifact>," \
      "then add it under fuzz/regressions/$target/ (see fuzz/README.md)" >&2
  fi
done
exit "$status"
