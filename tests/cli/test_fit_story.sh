#!/usr/bin/env bash
# suction fit recovers two known parameters of a synthetic pull-test curve (issue 36): the
# coarse pull test (20 -> 12 segments of the cup, E 1 MPa, friction 0.8) makes the "measured"
# curve; the fit starts 30 % off in both (1.3 MPa, 0.56) and must land within 2 %, with the
# fitted scene, the curves and the JSON summary written.  The misfit has local minima a few %
# apart (docs/validation.md: from 30 % off Levenberg-Marquardt alone stops at E 1.28 MPa), so
# the fit first runs a 3 x 3 start grid over the bounds.  A story (a few minutes of runs): run
# natively, not under the sanitizers (ctest name *_story).
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
# the runs stop at 1.95 s: the fit's window ends at 1.9 s (the steps before are the same)
coarse=(--set /bodies/0/mesh/resolution=12 --duration 1.95)
"$bin" run "$scenes/pull_test.json" "${coarse[@]}" --set /materials/neoprene/young=1e6 --set /materials/neoprene/friction=0.8 \
  --csv "$tmp/measured.csv" -q > /dev/null
check "the synthetic curve was made" test -s "$tmp/measured.csv"
"$bin" fit "$scenes/pull_test.json" "${coarse[@]}" --data "$tmp/measured.csv" --probe pull_force --window 0.3:1.9 \
  --start-grid 3 --param /materials/neoprene/young=0.6e6:1.6e6:1.3e6 --param /materials/neoprene/friction=0.3:1.2:0.56 \
  --max-iterations 30 --jobs 2 \
  --prefix "$tmp/fit" --json "$tmp/summary.json" > "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
check "fit exits 0" test $rc -eq 0
python3 - "$tmp/summary.json" > "$tmp/check" 2>&1 <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
p = f["parameters"]
young, mu = p["/materials/neoprene/young"], p["/materials/neoprene/friction"]
ok = abs(young / 1e6 - 1) < 0.02 and abs(mu / 0.8 - 1) < 0.02 and f["runs"] > 9
print("recovered" if ok else "missed", young, mu, f["runs"], f["residual"])
PY
cat "$tmp/check"
check "fit recovers E 1 MPa and friction 0.8 within 2 % from 30 % off" grep -q '^recovered' "$tmp/check"
check "the fitted scene loads and holds the fitted values" bash -c "'$bin' validate '$tmp/fit.json' > /dev/null 2>&1 && grep -q 'Fitted by suction fit' '$tmp/fit.json'"
check "the summary names the fitted scene" grep -q '"fitted_scene"' "$tmp/summary.json"
check "the measured and fitted curves are written" bash -c "head -1 '$tmp/fit.csv' | grep -q '^t,measured,fitted' && grep -q '<polyline' '$tmp/fit.svg'"
# a fit that cannot be believed says so (issue 51): from 30 % off in E alone, with the default
# options, it lands within 2 % (the coarse grid after a first attempt that is not an answer) or
# exits 3 saying it did not converge; stopped at its iteration cap it exits 3, prints no
# uncertainty and suggests a start grid
"$bin" fit "$scenes/pull_test.json" "${coarse[@]}" --data "$tmp/measured.csv" --probe pull_force --window 0.3:1.9 \
  --param /materials/neoprene/young=0.5e6:2e6:1.3e6 --jobs 2 --prefix "$tmp/fit1" --json "$tmp/one.json" > "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
python3 - "$tmp/one.json" "$rc" > "$tmp/check" 2>&1 <<'PY'
import json, sys
f, rc = json.load(open(sys.argv[1])), int(sys.argv[2])
young = f["parameters"]["/materials/neoprene/young"]
good = abs(young / 1e6 - 1) < 0.02
ok = (rc == 0 and good and f["converged"]) or (rc == 3 and not f["converged"] and f["uncertainty"]["/materials/neoprene/young"] is None)
print(("recovered" if good else "not recovered, said so") if ok else "misleading", young, rc, f["converged"], f.get("retry", ""))
PY
cat "$tmp/check"
check "from 30 % off, default options: E within 2 %, or exit 3 saying it did not converge" bash -c "grep -q '^recovered\|^not recovered, said so' '$tmp/check'"
"$bin" fit "$scenes/pull_test.json" "${coarse[@]}" --data "$tmp/measured.csv" --probe pull_force --window 0.3:1.9 \
  --param /materials/neoprene/young=0.5e6:2e6:1.3e6 --max-iterations 1 --start-grid 0 --prefix "$tmp/fit2" \
  --json "$tmp/capped.json" > "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
check "a fit stopped at its iteration cap exits 3" test $rc -eq 3
check "it says NOT CONVERGED, why, and what to try" bash -c "grep -q 'NOT CONVERGED' '$tmp/out' && grep -q 'did not converge' '$tmp/out' && grep -q 'start-grid' '$tmp/out'"
check "it gives no uncertainty" bash -c "grep -q 'uncertainty: not given' '$tmp/out' && grep -q '\"converged\": false' '$tmp/capped.json'"
echo "$pass passed, $fail failed"
test $fail -eq 0
