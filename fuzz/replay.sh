#!/usr/bin/env bash
# Runs a libFuzzer target once over every input of the given folders (those that exist) and
# exits non-zero if any input crashes it: the ctest fuzz_replay_<target> (fuzz/CMakeLists.txt).
# Usage: replay.sh FUZZ_BINARY DIR...
set -euo pipefail
bin=$1; shift
dirs=()
for d in "$@"; do
  if [[ -d "$d" ]] && [[ -n "$(ls -A "$d")" ]]; then dirs+=("$d"); fi
done
if [[ ${#dirs[@]} -eq 0 ]]; then echo "replay: no inputs for $(basename "$bin")"; exit 0; fi
# -runs=0: execute the corpus once, no mutations; fuzz_scene builds meshes, hence the timeout
exec "$bin" -runs=0 -timeout=120 -rss_limit_mb=4096 "${dirs[@]}"
