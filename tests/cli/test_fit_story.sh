#!/usr/bin/env bash
# suction fit recovers two known parameters of a synthetic pull-test curve (issue 36): the
# coarse pull test (20 -> 12 segments of the cup) with a leaky lip (leak_rate 0.02 J/s) pressed
# with 10 N makes the "measured" curve; the fit starts 30 % off in both (0.014 J/s, 7 N) and must
# land within 2 %, with the fitted scene, the curves and the JSON summary written.  A story (a
# minute of simulations): run natively, not under the sanitizers (ctest name *_story).
# Usage: test_fit_story.sh SUCTION_BIN SCENES_DIR
set -u
bin="$1"
scenes="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() {
  local what="$1"
  shift
  if "$@"; then echo "ok   $what"; pass=$((pass + 1)); else echo "FAIL $what"; fail=$((fail + 1)); fi
}
coarse=(--set /bodies/0/mesh/resolution=12)
"$bin" run "$scenes/pull_test.json" "${coarse[@]}" --set /settings/cavity/leak_rate=0.02 --set /parameters/press_N=10 \
  --csv "$tmp/measured.csv" -q > /dev/null
check "the synthetic curve was made" test -s "$tmp/measured.csv"
"$bin" fit "$scenes/pull_test.json" "${coarse[@]}" --data "$tmp/measured.csv" --probe pull_force --window 0.3:1.9 \
  --param /settings/cavity/leak_rate=0:0.04:0.014 --param /parameters/press_N=4:16:7 --jobs 2 \
  --prefix "$tmp/fit" --json "$tmp/summary.json" > "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
check "fit exits 0" test $rc -eq 0
python3 - "$tmp/summary.json" > "$tmp/check" 2>&1 <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
p = f["parameters"]
leak, press = p["/settings/cavity/leak_rate"], p["/parameters/press_N"]
ok = abs(leak / 0.02 - 1) < 0.02 and abs(press / 10 - 1) < 0.02 and f["runs"] > 3
print("recovered" if ok else "missed", leak, press, f["runs"], f["residual"])
PY
cat "$tmp/check"
check "fit recovers leak_rate 0.02 and press_N 10 within 2 % from 30 % off" grep -q '^recovered' "$tmp/check"
check "the fitted scene loads and holds the fitted values" bash -c "'$bin' validate '$tmp/fit.json' > /dev/null 2>&1 && grep -q 'Fitted by suction fit' '$tmp/fit.json'"
check "the summary names the fitted scene" grep -q '"fitted_scene"' "$tmp/summary.json"
check "the measured and fitted curves are written" bash -c "head -1 '$tmp/fit.csv' | grep -q '^t,measured,fitted' && grep -q '<polyline' '$tmp/fit.svg'"
echo "$pass passed, $fail failed"
test $fail -eq 0
