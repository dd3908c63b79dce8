#!/usr/bin/env bash
# The sweep's speed (issue 36): the 48 runs of a pull-test study (4 radii x 4 Young's moduli x
# 3 speeds, the coarse cup) one after another, with --jobs 2, and on 2 MPI ranks (when built
# with MPI); wall times and the speed-ups, and a check that the three tables are identical.
# Usage: bench/sweep_speed.sh SUCTION_BIN [OUT_DIR]   (make bench-sweep)
set -euo pipefail
bin="$1"
out="${2:-build/bench/sweep}"
scenes="$(cd "$(dirname "${BASH_SOURCE[0]}")/../scenes" && pwd)"
mkdir -p "$out"
grid=(--set /bodies/0/mesh/resolution=12 --grid /parameters/R_mm=0,20,31.5,50
      --grid /materials/neoprene/young=0.8e6,1e6,1.2e6,1.4e6 --grid /parameters/speed_mm_s=5,10,20)
timed() {  # label, then the command: prints the wall time in s
  local label="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$out/$label.log" 2>&1 || true
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
rm -f "$out"/seq.csv "$out"/jobs2.csv "$out"/mpi2.csv
seq_s=$(timed seq "$bin" sweep "$scenes/pull_test.json" "${grid[@]}" --out "$out/seq.csv" --jobs 1)
jobs_s=$(timed jobs2 "$bin" sweep "$scenes/pull_test.json" "${grid[@]}" --out "$out/jobs2.csv" --jobs 2)
echo "| sweep of 48 pull-test runs ($(nproc) cores) | wall [s] | speed-up |"
echo "|---|---|---|"
printf '| one after another (--jobs 1) | %.1f | 1 |\n' "$seq_s"
printf '| --jobs 2 | %.1f | %.2f |\n' "$jobs_s" "$(awk -v a="$seq_s" -v b="$jobs_s" 'BEGIN { print a / b }')"
same="jobs2"
if "$bin" info "$scenes/ground.json" | grep -q '^sweep: .*MPI ranks' && command -v mpirun > /dev/null; then
  mpi_s=$(timed mpi2 env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
          mpirun -np 2 "$bin" sweep "$scenes/pull_test.json" "${grid[@]}" --out "$out/mpi2.csv")
  printf '| mpirun -np 2 | %.1f | %.2f |\n' "$mpi_s" "$(awk -v a="$seq_s" -v b="$mpi_s" 'BEGIN { print a / b }')"
  same="jobs2 mpi2"
else
  echo "| mpirun -np 2 | (not built with MPI) | |"
fi
for t in $same; do
  cmp -s "$out/seq.csv" "$out/$t.csv" && echo "table $t: identical to the sequential one" \
    || echo "table $t: DIFFERS from the sequential one"
done
echo "ok rows: $(grep -c ',ok,0,' "$out/seq.csv") of 48"
