#!/usr/bin/env bash
# Assembles the seed corpora of the fuzz targets from the repository's own files, so that they
# are not committed twice: OUT/<target>/ (default build/fuzz/corpus) gets
#   scene:      scenes/*.json, a few of them with --set override lines appended, fuzz/corpus/scene/*
#   expression: every "=..." expression of scenes/*.json (without the '='), fuzz/corpus/expression/*
#   gmsh:       tests/data/*.msh, fuzz/corpus/gmsh/*
#   obj:        tests/data/*.obj, fuzz/corpus/obj/*
#   stl:        tests/data/*.stl, fuzz/corpus/stl/*
# plus the reproducers of past findings (fuzz/regressions/<target>/*).  Seeds are named seed-*;
# whatever libFuzzer added to OUT/<target>/ in earlier runs (named by content hash) is kept, so
# the corpora grow from one `make fuzz` to the next.  Idempotent.
# Usage: fuzz/make_corpus.sh [OUT] [--fresh]   (--fresh: empty OUT first)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/build/fuzz/corpus}
if [[ "${2:-}" == --fresh ]]; then rm -rf "$out"; fi
mkdir -p "$out"/{scene,expression,gmsh,obj,stl}

copy_seeds() {  # copy_seeds TARGET FILE...
  local t=$1; shift
  local f
  for f in "$@"; do
    [[ -f "$f" ]] || continue
    cp -f "$f" "$out/$t/seed-$(basename "$f")"
  done
}

shopt -s nullglob
copy_seeds scene "$root"/scenes/*.json "$root"/fuzz/corpus/scene/*
# scenes with overrides, as `suction run --set` passes them (fuzz_scene.cpp: "\n--set\n" + lines)
for s in default cantilever incline; do
  [[ -f "$root/scenes/$s.json" ]] || continue
  case $s in
    default)    sets=$'/parameters/push_mm=3\n/settings/dt=0.02\n/bodies/0/mesh/resolution=12' ;;
    cantilever) sets=$'/parameters/young_mpa=2\n/bodies/0/mesh/cells=[4,1,1]' ;;
    incline)    sets=$'/parameters/angle_deg=20\n/materials/plastic/friction="=mu/2"' ;;
  esac
  { cat "$root/scenes/$s.json"; printf '\n--set\n%s\n' "$sets"; } > "$out/scene/seed-$s-set.txt"
done

copy_seeds expression "$root"/fuzz/corpus/expression/*
i=0
while IFS= read -r expr; do
  i=$((i + 1))
  printf '%s' "$expr" > "$out/expression/seed-scenes-$i.txt"
done < <(grep -ho '"=[^"]*"' "$root"/scenes/*.json | sed 's/^"=//; s/"$//' | sort -u)

copy_seeds gmsh "$root"/tests/data/*.msh "$root"/fuzz/corpus/gmsh/*
copy_seeds obj "$root"/tests/data/*.obj "$root"/fuzz/corpus/obj/*
copy_seeds stl "$root"/tests/data/*.stl "$root"/fuzz/corpus/stl/*
for t in scene expression gmsh obj stl; do
  copy_seeds "$t" "$root"/fuzz/regressions/"$t"/*
done

for t in scene expression gmsh obj stl; do
  printf '%s ' "$t: $(ls "$out/$t" | wc -l)"
done
echo "(inputs in $out)"
