#!/usr/bin/env bash
# Compliance time against the number of constraint rows (the paper's Table 2 sweep): the
# default scene's cup, meshed ever finer so more lip vertices touch the ground, pushed onto it.
# Usage: bench/compliance_sweep.sh [SUCTION_BIN]   (prints one table row per resolution)
set -euo pipefail
bin=${1:-build/native/native/suction}
scene=$(dirname "$0")/../scenes/default.json
printf '%-10s %6s %9s %12s %10s %12s %9s %9s\n' resolution nodes rows "free motion" collision compliance solve total
for res in 16 24 32 40 48; do
  out=$("$bin" bench "$scene" --warmup 30 --steps 30 --set /bodies/0/mesh/resolution=$res)
  nodes=$(sed -n 's/.*FEM nodes \([0-9]*\).*/\1/p' <<<"$out")
  rows=$(sed -n 's/.*mean constraints \([0-9.]*\).*/\1/p' <<<"$out")
  read -r fm col cav comp solve other total < <(sed -n 's/^mean ms *//p' <<<"$out")
  printf '%-10s %6s %9s %12s %10s %12s %9s %9s\n' "$res" "$nodes" "$rows" "$fm" "$col" "$comp" "$solve" "$total"
done
