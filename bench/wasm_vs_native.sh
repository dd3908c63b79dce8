#!/usr/bin/env bash
# WebAssembly (node) against native: mean wall time per step of the same scenes, same steps.
#
#   bench/wasm_vs_native.sh [NATIVE_CLI] [NODE_MODULE] [STEPS]
#     NATIVE_CLI   default build/native/native/suction          (make native)
#     NODE_MODULE  default build/wasm/wasm/suction_wasm_node.js (make wasm)
#     STEPS        timed steps per scene (default 200), after 10 warm-up steps
#   SCENES="default cup_fall" (environment) chooses the scenes/<name>.json to run.
#
# Native: `suction bench SCENE --warmup 10 --steps N --json`, its `total.mean_ms`.
# Wasm:   wasm/bench_node.js (the Simulator facade under node; step() timed with
#         performance.now()), its `total.mean_ms`.
# Prints one markdown table: scene | native ms/step | wasm ms/step | ratio (wasm / native).
# Both run single-threaded on the same machine, one after the other; timings are noisy on a
# shared machine, so compare numbers from one run.
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE=${1:-build/native/native/suction}
MODULE=${2:-build/wasm/wasm/suction_wasm_node.js}
STEPS=${3:-200}
WARMUP=10
SCENES=${SCENES:-default cup_fall}
NODE=${NODE:-node}

[[ -x $NATIVE ]] || { echo "wasm_vs_native: no native CLI at $NATIVE (make native)" >&2; exit 2; }
[[ -f $MODULE ]] || { echo "wasm_vs_native: no node module at $MODULE (make wasm)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mean_ms() {  # mean_ms FILE.json -> total.mean_ms
  "$NODE" -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
              console.log(j.total.mean_ms.toFixed(3))' "$1"
}

rows=()
for scene in $SCENES; do
  file=scenes/$scene.json
  echo "wasm_vs_native: $scene: native ..." >&2
  "$NATIVE" bench "$file" --warmup "$WARMUP" --steps "$STEPS" --json "$tmp/$scene.native.json" >/dev/null
  echo "wasm_vs_native: $scene: wasm ..." >&2
  "$NODE" wasm/bench_node.js "$MODULE" "$file" --warmup "$WARMUP" --steps "$STEPS" --json \
    > "$tmp/$scene.wasm.json"
  n=$(mean_ms "$tmp/$scene.native.json")
  w=$(mean_ms "$tmp/$scene.wasm.json")
  ratio=$(awk -v n="$n" -v w="$w" 'BEGIN { printf "%.2f", (n > 0 ? w / n : 0) }')
  rows+=("| $scene | $n | $w | $ratio |")
done

echo
echo "$STEPS steps after $WARMUP warm-up steps; node $("$NODE" --version); $(date -u +%Y-%m-%d)"
echo
echo "| scene | native ms/step | wasm ms/step | ratio |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
