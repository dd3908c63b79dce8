#!/usr/bin/env bash
# Runs the libFuzzer targets one after the other, each for SECONDS (-max_total_time), on the
# corpora of fuzz/make_corpus.sh, and prints one line per target: executions, exec/s, new
# corpus size and the findings (crash-/leak-/timeout-/oom- files libFuzzer wrote into
# ARTIFACTS/<target>/).  Exit status 1 if any target produced a finding.  `make fuzz` and the
# smoke run of `make test` call it (docs/fuzzing.md).
#
# Usage: fuzz/run_fuzz.sh BUILD_DIR CORPUS_DIR ARTIFACTS_DIR SECONDS [TARGET...]
#   BUILD_DIR:  the SUCTION_FUZZ build (build/sanitize), holding fuzz/fuzz_<target>
#   TARGET:     scene expression gmsh obj stl (default: all)
# Environment: FUZZ_ARGS (more libFuzzer flags, e.g. -seed=1, or -fork=1 -ignore_crashes=1 to
# go on after a finding), FUZZ_LOG_DIR (default ARTIFACTS_DIR/../logs).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$1 corpus=$2 artifacts=$3 seconds=$4; shift 4
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(scene expression gmsh obj stl)
logs=${FUZZ_LOG_DIR:-$(dirname "$artifacts")/logs}
mkdir -p "$logs"
read -r -a extra <<<"${FUZZ_ARGS:-}"

# Per target: the longest input (scene files are up to 5 kB; meshes are built, keep it modest)
# and the time one input may take before it counts as a hang (the scene loader builds meshes).
max_len() { case $1 in scene) echo 8192 ;; expression) echo 512 ;; *) echo 4096 ;; esac; }
timeout_s() { case $1 in scene) echo 20 ;; *) echo 5 ;; esac; }

# ASan/UBSan settings for the run (libFuzzer itself sets detect_leaks from -detect_leaks)
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# the artifacts that are findings; libFuzzer also writes slow-unit-* (an input that took more
# than 10 s, -report_slow_units): listed, not a finding (-timeout decides what is a hang)
count_findings() { ls "$1" | grep -cE '^(crash|leak|timeout|oom)-'; }
count_slow() { ls "$1" | grep -c '^slow-unit-'; }

status=0
printf '%-11s %10s %8s %8s %9s  %s\n' target executions "exec/s" corpus findings "log"
for t in "${targets[@]}"; do
  bin=$build/fuzz/fuzz_$t
  if [[ ! -x "$bin" ]]; then echo "run_fuzz: $bin missing (make sanitize)" >&2; status=1; continue; fi
  mkdir -p "$artifacts/$t" "$corpus/$t"
  before=$(count_findings "$artifacts/$t")
  slow_before=$(count_slow "$artifacts/$t")
  log=$logs/$t.log
  dict=()
  [[ -f "$root/fuzz/$t.dict" ]] && dict=(-dict="$root/fuzz/$t.dict")
  "$bin" "$corpus/$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
    -timeout="$(timeout_s "$t")" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t/" "${dict[@]}" "${extra[@]}" > "$log" 2>&1
  rc=$?
  after=$(count_findings "$artifacts/$t")
  slow=$(( $(count_slow "$artifacts/$t") - slow_before ))
  execs=$(grep -ho 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -ho 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  if [[ -z "$execs" ]]; then  # -fork=N prints no final stats: take its last status line
    last=$(grep -E '^#[0-9]+: .*exec/s' "$log" | tail -1)
    execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
    rate=$(sed -nE 's/.*exec\/s:? ([0-9]+).*/\1/p' <<<"$last")
  fi
  size=$(ls "$corpus/$t" | wc -l)
  found=$((after - before))
  printf '%-11s %10s %8s %8s %9s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$size" "$found" "$log"
  if [[ $slow -gt 0 ]]; then echo "  fuzz_$t: $slow slow input(s) (over 10 s; not findings): $artifacts/$t/slow-unit-*"; fi
  if [[ $rc -ne 0 || $found -gt 0 ]]; then
    status=1
    echo "  fuzz_$t: exit $rc, new artifacts in $artifacts/$t/:" >&2
    ls -t "$artifacts/$t" | grep -E '^(crash|leak|timeout|oom)-' | head -n "$((found > 0 ? found : 1))" | sed 's/^/    /' >&2
    grep -m3 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|FINDING|SUMMARY' "$log" | sed 's/^/    /' >&2
  fi
done
exit $status
