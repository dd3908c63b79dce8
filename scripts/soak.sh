#!/usr/bin/env bash
# Soaks every scene (docs/reliability.md): `suction soak` on each scenes/*.json, its JSON in
# OUT_DIR, then a table (steps, loops, air books, memory growth, warnings, verdict).
# Usage: scripts/soak.sh SUCTION_BIN OUT_DIR STEPS [RSS_TOLERANCE] [SCENE...]
set -uo pipefail
bin=$1 out=$2 steps=$3 tol=${4:-0.01}
shift 4 2>/dev/null || shift $#
scenes=("$@")
[ ${#scenes[@]} -eq 0 ] && scenes=(scenes/*.json)
mkdir -p "$out"
failed=0
for f in "${scenes[@]}"; do
  name=$(basename "$f" .json)
  echo "==> soak $name ($steps steps)"
  if ! "$bin" soak "$f" --steps "$steps" --rss-tolerance "$tol" --json "$out/$name.json" -q; then
    failed=$((failed + 1))
  fi
done
/usr/bin/env python3 - "$out" "${scenes[@]}" <<'PY'
import json, os, sys
out = sys.argv[1]
print()
print("| scene | steps | loops | books closed | worst imbalance | created J | released J | heap growth | resident growth | peak growth | warnings | wall | verdict |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for f in sys.argv[2:]:
    name = os.path.splitext(os.path.basename(f))[0]
    try:
        j = json.load(open(os.path.join(out, name + ".json")))
    except Exception:
        print(f"| {name} | | | | | | | | | | | | no result |")
        continue
    pct = lambda x: f"{100 * x:+.2f} %"
    print(f"| {name} | {j['steps']} | {j['loops']} | {'yes' if j['books_broken'] == 0 else 'NO'} | {j['worst_imbalance']:.1e} | "
          f"{j['air_created_J']:.3g} | {j['air_released_J']:.3g} | {pct(j['heap_growth'])} | {pct(j['rss_growth'])} | "
          f"{pct(j['peak_growth'])} | {j['warnings']} | {j['wall_s']:.0f} s | {'PASS' if j['pass'] else 'FAIL'} |")
PY
echo
if [ "$failed" -gt 0 ]; then echo "soak: $failed scene(s) FAILED"; exit 1; fi
echo "soak: all scenes PASSED"
