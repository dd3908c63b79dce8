#!/usr/bin/env bash
# WebAssembly (node) against native: mean wall time per step of the same scenes, same steps.
#
#   bench/wasm_vs_native.sh [NATIVE_CLI] [NODE_MODULE] [STEPS]
#     NATIVE_CLI   default build/native/native/suction          (make native)
#     NODE_MODULE  default build/wasm/wasm/suction_wasm_node.js (make wasm)
#     STEPS        timed steps per scene (default 200), after WARMUP warm-up steps; `whole`:
#                  each scene from t = 0 to its settings.duration (duration / dt steps, no
#                  warm-up), the steps the browser bench (bench/browser_rtf.mjs) runs
#   Environment:
#     SCENES="default cup_fall"  the scenes/<name>.json to run (default: default cup_fall),
#                  e.g. SCENES="ground rigid_lift pull_test" STEPS whole, as `make bench` does
#     WARMUP=10    untimed steps first (default 10; 0 with STEPS whole)
#     NATIVE_SAME_WIDTH=build/native-sse/native/suction  also a native CLI built with
#                  SUCTION_NATIVE_ARCH=none (SSE2: the vector width of wasm's SIMD128), and the
#                  ratio against it next to the one against the default (AVX2 + FMA) build
#
# Native: `suction bench SCENE --warmup W --steps N --json`, its `total.mean_ms`.
# Wasm:   wasm/bench_node.js (the Simulator facade under node; step() timed with
#         performance.now()), its `total.mean_ms`.
# Prints two markdown tables: scene | native ms/step | wasm ms/step | ratio (wasm / native),
# then the ratio per stage (the columns of the paper's Table 1; `other` = leak + correction).
# Both run single-threaded on the same machine, one after the other; timings are noisy on a
# shared machine, so compare numbers from one run.
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE=${1:-build/native/native/suction}
MODULE=${2:-build/wasm/wasm/suction_wasm_node.js}
STEPS=${3:-200}
SCENES=${SCENES:-default cup_fall}
NODE=${NODE:-node}
if [[ $STEPS == whole ]]; then WARMUP=${WARMUP:-0}; else WARMUP=${WARMUP:-10}; fi
[[ $STEPS == whole || $STEPS =~ ^[1-9][0-9]*$ ]] || { echo "wasm_vs_native: STEPS must be a positive number or 'whole', got '$STEPS'" >&2; exit 2; }
[[ $WARMUP =~ ^[0-9]+$ ]] || { echo "wasm_vs_native: WARMUP must be a number >= 0, got '$WARMUP'" >&2; exit 2; }

[[ -x $NATIVE ]] || { echo "wasm_vs_native: no native CLI at $NATIVE (make native)" >&2; exit 2; }
[[ -f $MODULE ]] || { echo "wasm_vs_native: no node module at $MODULE (make wasm)" >&2; exit 2; }
for scene in $SCENES; do
  [[ -f scenes/$scene.json ]] || { echo "wasm_vs_native: no scene scenes/$scene.json" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mean_ms() {  # mean_ms FILE.json -> total.mean_ms
  "$NODE" -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
              console.log(j.total.mean_ms.toFixed(3))' "$1"
}

scene_steps() {  # scene_steps FILE -> its duration / dt (through the node module)
  "$NODE" -e 'const path = require("path"), fs = require("fs");
    const r = require(path.resolve(process.argv[1]))();
    Promise.resolve(r.ready || r).then(M => {
      const sim = new M.Simulator(), f = process.argv[2];
      const err = sim.load(fs.readFileSync(f, "utf8"), path.dirname(path.resolve(f)));
      if (err) { console.error(f + ": " + err); process.exit(2); }
      console.log(Math.round(sim.duration() / sim.dt())); sim.delete();
    });' "$MODULE" "$1"
}
stage_ratios() {  # stage_ratios NATIVE.json WASM.json -> "| r | r | ... |" per Table 1 column
  "$NODE" -e 'const fs = require("fs");
    const [n, w] = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f, "utf8")));
    const ms = (j, k) => k === "other" ? j.stages.leak.mean_ms + j.stages.correction.mean_ms : j.stages[k].mean_ms;
    const cols = ["free_motion", "collision", "cavities", "compliance", "solve", "other"];
    const r = cols.map(k => ms(n, k) > 0.005 ? (ms(w, k) / ms(n, k)).toFixed(2) : "–");
    console.log(`| ${r.join(" | ")} |`);' "$1" "$2"
}

SAME=${NATIVE_SAME_WIDTH:-}
[[ -z $SAME || -x $SAME ]] || { echo "wasm_vs_native: no native CLI at NATIVE_SAME_WIDTH=$SAME (make native-sse)" >&2; exit 2; }
rows=()
stage_rows=()
for scene in $SCENES; do
  file=scenes/$scene.json
  steps=$STEPS
  [[ $STEPS == whole ]] && steps=$(scene_steps "$file")
  echo "wasm_vs_native: $scene: native ($steps steps) ..." >&2
  "$NATIVE" bench "$file" --warmup "$WARMUP" --steps "$steps" --json "$tmp/$scene.native.json" >/dev/null
  echo "wasm_vs_native: $scene: wasm ($steps steps) ..." >&2
  "$NODE" wasm/bench_node.js "$MODULE" "$file" --warmup "$WARMUP" --steps "$steps" --json \
    > "$tmp/$scene.wasm.json"
  n=$(mean_ms "$tmp/$scene.native.json")
  w=$(mean_ms "$tmp/$scene.wasm.json")
  ratio=$(awk -v n="$n" -v w="$w" 'BEGIN { printf "%.2f", (n > 0 ? w / n : 0) }')
  if [[ -n $SAME ]]; then
    echo "wasm_vs_native: $scene: native, same vector width ($steps steps) ..." >&2
    "$SAME" bench "$file" --warmup "$WARMUP" --steps "$steps" --json "$tmp/$scene.same.json" >/dev/null
    s=$(mean_ms "$tmp/$scene.same.json")
    same_ratio=$(awk -v n="$s" -v w="$w" 'BEGIN { printf "%.2f", (n > 0 ? w / n : 0) }')
    rows+=("| $scene | $n | $s | $w | $ratio | $same_ratio |")
  else
    rows+=("| $scene | $n | $w | $ratio |")
  fi
  stage_rows+=("| $scene $(stage_ratios "$tmp/$scene.native.json" "$tmp/$scene.wasm.json")")
done

echo
if [[ $STEPS == whole ]]; then
  echo "each scene from t = 0 to its duration (duration / dt steps, $WARMUP warm-up steps first); node $("$NODE" --version); $(date -u +%Y-%m-%d)"
else
  echo "$STEPS steps after $WARMUP warm-up steps; node $("$NODE" --version); $(date -u +%Y-%m-%d)"
fi
echo
if [[ -n $SAME ]]; then
  echo "| scene | native ms/step | native SSE2 ms/step | wasm ms/step | ratio | ratio, same width (target <= 1.3) |"
  echo "|---|---:|---:|---:|---:|---:|"
else
  echo "| scene | native ms/step | wasm ms/step | ratio |"
  echo "|---|---:|---:|---:|"
fi
printf '%s\n' "${rows[@]}"
echo
echo "wasm / native per stage (mean ms per step; – where native is under 5 µs):"
echo
echo "| scene | free motion | collision | cavities | compliance | solve | other |"
echo "|---|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${stage_rows[@]}"
