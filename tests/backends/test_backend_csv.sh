#!/usr/bin/env bash
# Whole-scene runs with the cpu and cuda compliance backends give the same CSV to 1e-6
# relative (scripts/compare_csv.py).  Registered with ctest in CUDA builds only; exits 77
# (ctest: skipped) with the reason when no device is visible.
#   test_backend_csv.sh SUCTION_BINARY SCENES_DIR COMPARE_SCRIPT
set -uo pipefail
bin=$1 scenes=$2 compare=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! reason=$("$bin" validate "$scenes/ground.json" --backend cuda 2>&1 >/dev/null); then
  echo "SKIPPED: $reason"
  exit 77
fi
status=0
# (not soft_cube_lift or cube_grasp: there the contact and seal decisions amplify
# rounding-level differences in W; on the CPU alone a 1e-13 change of dt moved them by 1e-4;
# docs/validation.md, "The CUDA compliance backend")
for spec in "ground.json" "rigid_lift.json"; do
  read -r scene extra <<<"$spec"
  name=${scene%.json}
  for backend in cpu cuda; do
    # shellcheck disable=SC2086
    "$bin" run "$scenes/$scene" $extra --backend $backend --csv "$out/$name.$backend.csv" -q || status=1
  done
  echo -n "$spec: "
  python3 "$compare" "$out/$name.cpu.csv" "$out/$name.cuda.csv" --rtol 1e-6 || status=1
done
exit $status
