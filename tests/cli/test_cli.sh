#!/usr/bin/env bash
# End-to-end checks of the `suction` executable: exit codes, error messages naming JSON
# pointers, CSV header and determinism.  Usage: test_cli.sh SUCTION_BIN SCENES_DIR [mpi|nompi]
# (nompi: a build without MPI; its refusal under a launcher is checked instead of mpirun)
set -u
bin=$1 scenes=$2 mpi=${3:-mpi}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); echo "FAIL $name"; fi
}

# a Young's modulus replaced by a string: exit 2, names /materials/silicone/young
sed 's/"young": "=young_mpa\*1e6"/"young": "soft"/' "$scenes/default.json" > "$tmp/bad.json"
"$bin" validate "$tmp/bad.json" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "validate bad scene exits 2" test $rc -eq 2
check "validate names the pointer" grep -q '/materials/silicone/young: expected a number, got string "soft"' "$tmp/err"
"$bin" run "$tmp/bad.json" --steps 1 > /dev/null 2>&1; rc=$?
check "run bad scene exits 2" test $rc -eq 2

# a mistyped key (the scene schema's additionalProperties: false, as the reader): exit 2, its
# pointer, and the key it resembles
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["settings"].setdefault("cavity", {})["leak_rat"] = 0.1; json.dump(d, open(sys.argv[2], "w"))' \
  "$scenes/ground.json" "$tmp/typo.json"
"$bin" validate "$tmp/typo.json" > /dev/null 2> "$tmp/err"; rc=$?
check "a mistyped key exits 2" test $rc -eq 2
check "a mistyped key is named by its pointer, with the key it resembles" \
  grep -q "/settings/cavity/leak_rat: unknown key; did you mean 'leak_rate'?" "$tmp/err"
"$bin" validate "$scenes/default.json" > /dev/null 2>&1; rc=$?
check "validate good scene exits 0" test $rc -eq 0
"$bin" validate "$tmp/missing.json" > /dev/null 2>&1; rc=$?
check "missing file exits 2" test $rc -eq 2
"$bin" run "$scenes/default.json" --steps 2 --set /parameters/nope=3 > /dev/null 2> "$tmp/err"; rc=$?
check "unknown parameter override exits 2" test $rc -eq 2
check "unknown parameter override names it" grep -q '/parameters/nope' "$tmp/err"
"$bin" frobnicate > /dev/null 2>&1; rc=$?
check "unknown subcommand exits 2" test $rc -eq 2

# CSV: fixed columns then probes; two runs identical
"$bin" run "$scenes/default.json" --steps 20 --csv "$tmp/a.csv" --quiet > /dev/null; rc=$?
check "run exits 0" test $rc -eq 0
"$bin" run "$scenes/default.json" --steps 20 --csv "$tmp/b.csv" --quiet > /dev/null
check "csv header" grep -q '^step,t,contacts,cavities,pressure_min,volume_total,air_total,holding_force,pgs_iterations,pgs_residual,hand_force,cup_z$' "$tmp/a.csv"
check "csv has 21 data rows" test "$(($(wc -l < "$tmp/a.csv") - 1))" -eq 21
check "two runs give identical CSV" cmp -s "$tmp/a.csv" "$tmp/b.csv"
"$bin" run "$scenes/default.json" --steps 20 --csv "$tmp/t3.csv" --quiet --threads 3 > /dev/null
check "three threads give the identical CSV" cmp -s "$tmp/a.csv" "$tmp/t3.csv"
"$bin" run "$scenes/default.json" --steps 2 --threads 0 > /dev/null 2> "$tmp/err"; rc=$?
check "--threads 0 exits 2" test $rc -eq 2
check "--threads 0 names the option" grep -q -- '--threads' "$tmp/err"

# a diverging run exits 1 and keeps the rows written so far
"$bin" run "$scenes/default.json" --steps 50 --dt 1e3 --set /settings/divergence_energy_factor=1e-30 --csv "$tmp/d.csv" --quiet > /dev/null 2> "$tmp/err"; rc=$?
check "diverging run exits 1" test $rc -eq 1
check "diverging run says diverged" grep -qi 'diverg' "$tmp/err"
check "diverging run kept its csv header" grep -q '^step,t' "$tmp/d.csv"

# --strict: a warning (here a block dropped with a 300 ms step: the watchdog's deep contact)
# makes the exit status 1 after a complete run; without it the same run exits 0
"$bin" run "$scenes/block_on_ground.json" --steps 3 --dt 0.3 --csv "$tmp/w.csv" --quiet > /dev/null 2> "$tmp/err"; rc=$?
check "a run with warnings exits 0" test $rc -eq 0
check "and says warning" grep -q '^warning: ' "$tmp/err"
"$bin" run "$scenes/block_on_ground.json" --steps 3 --dt 0.3 --csv "$tmp/ws.csv" --quiet --strict > /dev/null 2> "$tmp/err"; rc=$?
check "--strict: a run with warnings exits 1" test $rc -eq 1
check "--strict says why" grep -q '^strict: .* warning' "$tmp/err"
check "--strict: the run went to its end" cmp -s "$tmp/w.csv" "$tmp/ws.csv"
"$bin" run "$scenes/block_on_ground.json" --steps 3 --quiet --strict > /dev/null 2>&1; rc=$?
check "--strict: a clean run exits 0" test $rc -eq 0

# frames and bench
"$bin" run "$scenes/cup_fall.json" --steps 4 --frames "$tmp/frames" --every 2 --quiet > /dev/null; rc=$?
check "frames run exits 0" test $rc -eq 0
check "pvd series written" test -f "$tmp/frames/series.pvd"
check "cavity and contact series written" test -f "$tmp/frames/cavities.pvd" -a -f "$tmp/frames/contacts.pvd" \
  -a -f "$tmp/frames/cavities_000002.vtu" -a -f "$tmp/frames/contacts_000002.vtu"
check "FEM frames carry the von Mises stress" grep -q 'Name="von_mises"' "$tmp/frames/cup_000002.vtu"
# live tuning: --tune T:POINTER=VALUE applies from the step at T on; another mesh is refused
# before the run, naming the body; a malformed one names what was expected
"$bin" run "$scenes/incline.json" --steps 60 --set /parameters/angle_deg=10 --tune 0.1:/parameters/mu=0.1 \
  --csv "$tmp/tune.csv" --quiet > "$tmp/out" 2> "$tmp/err"; rc=$?
check "tune run exits 0" test $rc -eq 0
check "tune is announced at its step" grep -q 'tuned at t = 0.1 s: /parameters/mu=0.1' "$tmp/err"
check "tune is listed in the summary" grep -q -- '--tune 0.1:/parameters/mu=0.1' "$tmp/out"
"$bin" run "$scenes/incline.json" --steps 5 --tune 0.01:/parameters/angle_deg=30 --quiet > /dev/null 2> "$tmp/err"; rc=$?
check "tune of a mesh exits 2" test $rc -eq 2
check "tune of a mesh names the body" grep -q "body 'incline': its mesh differs" "$tmp/err"
"$bin" run "$scenes/incline.json" --steps 5 --tune /parameters/mu=0.1 --quiet > /dev/null 2> "$tmp/err"; rc=$?
check "tune without a time exits 2" test $rc -eq 2
check "tune without a time says what it expects" grep -q 'expected T:POINTER=VALUE' "$tmp/err"
"$bin" bench "$scenes/cup_fall.json" --steps 5 --warmup 1 --json "$tmp/bench.json" > "$tmp/out"; rc=$?
check "bench exits 0" test $rc -eq 0
check "bench json has free_motion" grep -q 'free_motion' "$tmp/bench.json"

# scripts/table1.py (make table1): a row benched for 2 steps, a row whose scene does not exist
# prints "—" (not an error); the table, JSON and CSV are written
mkdir -p "$tmp/t1scenes" && cp "$scenes/ground.json" "$tmp/t1scenes/"
python3 "$scenes/../scripts/table1.py" --bin "$bin" --scenes-dir "$tmp/t1scenes" --scenes ground,robot \
  --steps 2 --warmup 0 --out "$tmp/table1" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "table1.py exits 0" test $rc -eq 0
check "table1.py times ground over steps 1-2" grep -Eq '^ +ours +1-2 +[0-9]+ +[0-9]+ ' "$tmp/out"
check "table1.py prints — for a row without its scene" grep -Eq '^ +ours +— +— +— ' "$tmp/out"
check "table1.py has the paper's ground total" grep -Eq '^ground +paper .* 38\.51' "$tmp/out"
check "table1.py times ground's interactive quality over the same time (one 20 ms step)" \
  grep -Eq '^ +interactive +1-1 +[0-9]+ +[0-9]+ .* [0-9.]+x$' "$tmp/out"
check "table1.py gives the paper's real-time factor (10 ms / 38.51 ms)" grep -Eq '^ground +paper .* 0\.26x$' "$tmp/out"
python3 - "$tmp/table1" > "$tmp/err" 2>&1 <<'PY'; rc=$?
import csv, json, os, sys
d = json.load(open(os.path.join(sys.argv[1], "table1.json")))
ground, robot = d["rows"]
o = ground["ours"]
assert ground["status"] == "ok" and ground["bench"]["steps"] == 2, ground["status"]
assert o["fem_nodes"] > 0 and o["collision_nodes"] > 0 and o["mean_rows"] >= 0, o
assert 90 < sum(o["stages_percent"].values()) <= 100 + 1e-9, o["stages_percent"]  # the rest: outside the stages
assert robot["status"] == "no scene" and robot["ours"] is None and robot["paper"]["total_ms"] == 87.96
i = ground["interactive"]
assert i["status"] == "ok" and i["steps"] == 1 and i["bench"]["quality"] == "interactive", i["status"]
assert abs(i["ours"]["dt"] - 2 * o["dt"]) < 1e-12 and i["ours"]["real_time_factor"] > 0, i["ours"]
assert robot["interactive"]["status"] == "no scene"
assert len(list(csv.DictReader(open(os.path.join(sys.argv[1], "table1.csv"))))) == 6
PY
check "table1.py json and csv" test $rc -eq 0

# flags: not finite, or more steps than a run takes, is bad input (exit 2) with a message,
# never silently ignored (--dt nan ran at the scene's dt) or run as 0 steps (--duration 1e17)
for a in "--dt nan" "--dt inf" "--duration nan" "--duration 1e17" "--steps 99999999999" "--dt 1e-300 --duration 1"; do
  "$bin" run "$scenes/default.json" $a --quiet > /dev/null 2> "$tmp/err"; rc=$?
  check "run $a exits 2" test $rc -eq 2
  check "run $a says why" grep -qiE 'finite|at most|range' "$tmp/err"
done
"$bin" bench "$scenes/default.json" --steps 99999999999 > /dev/null 2> "$tmp/err"; rc=$?
check "bench --steps 99999999999 exits 2" test $rc -eq 2
"$bin" run "$scenes/default.json" --duration 0.03 --quiet > "$tmp/out" 2>&1; rc=$?
check "run --duration 0.03 exits 0" test $rc -eq 0
check "run --duration 0.03 takes 3 steps" grep -q '3 x 10 ms' "$tmp/out"

# hostile scene files: a number overflow, a duplicate key and deep nesting are exit 2 with the
# pointer (1e999 was exit 1 from run, with no pointer; duplicates passed silently)
sed 's/"dt": 0.01/"dt": 1e999/' "$scenes/default.json" > "$tmp/ovf.json"
"$bin" run "$tmp/ovf.json" --steps 1 > /dev/null 2> "$tmp/err"; rc=$?
check "number overflow exits 2" test $rc -eq 2
check "number overflow names the pointer" grep -q '/settings/dt: the number 1e999 is out of range' "$tmp/err"
printf '{"name": "a", "name": "b"}' > "$tmp/dup.json"
"$bin" validate "$tmp/dup.json" > /dev/null 2> "$tmp/err"; rc=$?
check "duplicate key exits 2" test $rc -eq 2
check "duplicate key names both members" grep -q '/name: duplicate key "name": members 1 and 2' "$tmp/err"
python3 -c 'print("{\"a\": " + "["*100000 + "]"*100000 + "}")' > "$tmp/deep.json"
"$bin" info "$tmp/deep.json" > /dev/null 2> "$tmp/err"; rc=$?
check "deep nesting exits 2" test $rc -eq 2
check "deep nesting names the limit" grep -q 'nested deeper than 100 levels' "$tmp/err"
"$bin" validate "$scenes/ground.json" --set /bodies/0/mesh/layers=300 > /dev/null 2> "$tmp/err"; rc=$?
check "oversized mesh exits 2" test $rc -eq 2
check "oversized mesh names the limit" grep -q 'settings.limits.max_nodes' "$tmp/err"

# mesh: an FEM body's mesh written to a file reads back as the same body (the same run, bit for bit)
"$bin" mesh "$scenes/ground.json" --body cup --out "$tmp/cup.msh" > "$tmp/out" 2>&1; rc=$?
check "mesh exits 0" test $rc -eq 0
check "mesh reports the counts" grep -q "nodes, .* tetrahedra of 'cup'" "$tmp/out"
python3 - "$scenes/ground.json" "$tmp/cup.msh" "$tmp/ground_file.json" <<'PY'
import json, sys
scene = json.load(open(sys.argv[1]))
scene["bodies"][0]["mesh"] = {"file": sys.argv[2]}
json.dump(scene, open(sys.argv[3], "w"))
PY
"$bin" run "$scenes/ground.json" --steps 30 --csv "$tmp/gen.csv" -q > /dev/null 2>&1
"$bin" run "$tmp/ground_file.json" --steps 30 --csv "$tmp/file.csv" -q > /dev/null 2>&1; rc=$?
check "a scene reading the written mesh runs" test $rc -eq 0
check "the written mesh gives the identical CSV" cmp -s "$tmp/gen.csv" "$tmp/file.csv"
"$bin" mesh "$scenes/ground.json" --body ground --out "$tmp/x.msh" > /dev/null 2> "$tmp/err"; rc=$?
check "mesh of a body that is not fem exits 2" test $rc -eq 2
check "mesh names the fem bodies" grep -q "its FEM bodies: cup" "$tmp/err"

# soak: a short loop of ground closes its air books; bad step counts are bad input
"$bin" soak "$scenes/ground.json" --steps 400 --json "$tmp/soak.json" -q > "$tmp/out" 2>&1; rc=$?
check "soak exits 0" test $rc -eq 0
check "soak books closed" grep -q 'books closed every step: yes' "$tmp/out"
check "soak json written" grep -q '"books_broken": 0' "$tmp/soak.json"
"$bin" soak "$scenes/ground.json" --steps 0 > /dev/null 2>&1; rc=$?
check "soak --steps 0 exits 2" test $rc -eq 2

# quality levels: --quality on the scene commands, and `suction quality` (both runs compared)
"$bin" info "$scenes/ground.json" --quality interactive > "$tmp/out" 2>&1; rc=$?
check "info --quality interactive exits 0" test $rc -eq 0
check "info says what the interactive quality changed" grep -q '^quality     interactive: /settings/dt=0.02, /settings/factorization/reuse=true, /settings/factorization/lag_drift=0.01, /settings/solver/subspace_every=10, /settings/cavity/unite_on_ring_change=false, /settings/cavity/follow_seal=true$' "$tmp/out"
"$bin" info "$scenes/ground.json" > "$tmp/out" 2>&1
check "info at reference quality has no quality line" bash -c "! grep -q '^quality' '$tmp/out'"
"$bin" run "$scenes/ground.json" --steps 1 --quality fast > /dev/null 2> "$tmp/err"; rc=$?
check "--quality fast exits 2" test $rc -eq 2
check "--quality fast names the levels" grep -q 'reference,interactive' "$tmp/err"
"$bin" run "$scenes/cup_fall.json" --quality interactive --csv "$tmp/qi.csv" --quiet > "$tmp/out"; rc=$?
check "run --quality interactive exits 0" test $rc -eq 0
check "run --quality interactive takes 20 ms steps" test "$(($(wc -l < "$tmp/qi.csv") - 1))" -eq 26
"$bin" quality "$scenes/cup_fall.json" --set '/settings/interactive={}' --json "$tmp/q.json" > "$tmp/out" 2>&1; rc=$?
check "quality of cup_fall exits 0" test $rc -eq 0
check "quality compares the default story numbers" grep -q '^verdict   interactive within its limits on all 3 numbers' "$tmp/out"
check "quality json says ok" python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['ok'] and [n['name'] for n in j['numbers']]==['pressure_min_min','seal_t','release_t'] else 1)" "$tmp/q.json"
"$bin" quality "$scenes/cup_fall.json" --set '/settings/interactive={"compare": ["cup_z_min"]}' --tolerance 1e-9 > "$tmp/out" 2>&1; rc=$?
check "quality beyond its limit exits 1" test $rc -eq 1
check "quality says which number exceeds" grep -q '^cup_z_min .*EXCEEDS$' "$tmp/out"
"$bin" quality "$scenes/cup_fall.json" --set '/settings/interactive={"compare": ["cup_height_max"]}' > /dev/null 2> "$tmp/err"; rc=$?
check "quality with an unknown story number exits 2" test $rc -eq 2
check "quality names the compare list and the numbers there are" grep -q "/settings/interactive/compare: story number 'cup_height_max': not in the run's summary; the summary has .*cup_z_min" "$tmp/err"
# --floor: a number near zero (incline at 10°: no slide in either quality, µm against 0)
"$bin" quality "$scenes/incline.json" --set /parameters/angle_deg=10 > "$tmp/out" 2>&1; rc=$?
check "quality of a slide that did not happen, without a floor, exits 1" test $rc -eq 1
"$bin" quality "$scenes/incline.json" --set /parameters/angle_deg=10 --floor slide_distance_max=0.02964 --json "$tmp/qs.json" > "$tmp/out" 2>&1; rc=$?
check "quality with a tenth of the defaults' slide as its floor exits 0" test $rc -eq 0
check "quality says which numbers the floor limits" grep -q '^floor     slide_distance_max 0.02964: the limit is 3 % of the floor' "$tmp/out"
check "quality json carries the floor and its limit" python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['numbers'][0]; sys.exit(0 if n['floor']==0.02964 and abs(n['limit']-0.0008892)<1e-12 else 1)" "$tmp/qs.json"
"$bin" quality "$scenes/incline.json" --floor seal_t=1 > /dev/null 2> "$tmp/err"; rc=$?
check "quality --floor of a number not compared exits 2" test $rc -eq 2
check "quality --floor names it" grep -q "floor of 'seal_t': not one of the compared story numbers" "$tmp/err"
"$bin" quality "$scenes/incline.json" --floor slide_distance_max=abc > /dev/null 2> "$tmp/err"; rc=$?
check "quality --floor without a number exits 2" test $rc -eq 2
"$bin" quality "$scenes/pick_and_place.json" > "$tmp/out" 2>&1; rc=$?
check "quality of a scene that turns it off exits 0 without runs" test $rc -eq 0
check "quality says both qualities are one run" grep -q '^verdict   one run' "$tmp/out"
"$bin" sweep "$scenes/cup_fall.json" --quality interactive --grid /settings/duration=0.1 --out "$tmp/swq.csv" -q > /dev/null 2>&1; rc=$?
check "sweep --quality interactive exits 0" test $rc -eq 0
"$bin" run "$scenes/cup_fall.json" --quality interactive --duration 0.1 --csv "$tmp/rq.csv" --quiet > /dev/null
"$bin" run "$scenes/cup_fall.json" --duration 0.1 --csv "$tmp/rr.csv" --quiet > /dev/null
check "sweep passes --quality to its runs" python3 -c "
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
q = list(csv.DictReader(open(sys.argv[2])))[-1]
r = list(csv.DictReader(open(sys.argv[3])))[-1]
sys.exit(0 if float(row['cup_vz_final']) == float(q['cup_vz']) != float(r['cup_vz']) else 1)" "$tmp/swq.csv" "$tmp/rq.csv" "$tmp/rr.csv"

# constraint solvers: listed by info, chosen by --solver, an unknown one is bad input naming the built ones
"$bin" info "$scenes/ground.json" > "$tmp/out" 2>&1
check "info lists the solvers" grep -q '^solvers: pgs, apgd, uzawa' "$tmp/out"
"$bin" run "$scenes/ground.json" --steps 30 --solver apgd --csv "$tmp/apgd.csv" -q > /dev/null 2>&1; rc=$?
check "run --solver apgd exits 0" test $rc -eq 0
"$bin" run "$scenes/ground.json" --steps 30 --solver apgd --csv "$tmp/apgd2.csv" -q > /dev/null 2>&1
check "two apgd runs give identical CSV" cmp -s "$tmp/apgd.csv" "$tmp/apgd2.csv"
"$bin" bench "$scenes/ground.json" --steps 5 --warmup 20 --solver uzawa > "$tmp/out" 2>&1; rc=$?
check "bench --solver uzawa exits 0" test $rc -eq 0
check "bench reports the solver's residual" grep -q '^solver: mean iterations' "$tmp/out"
"$bin" run "$scenes/ground.json" --steps 3 --solver newton > /dev/null 2> "$tmp/err"; rc=$?
check "unknown --solver exits 2" test $rc -eq 2
check "unknown --solver lists the methods" grep -q "unknown solver 'newton'; available: pgs, apgd, uzawa" "$tmp/err"
"$bin" validate "$scenes/ground.json" --solver newton > /dev/null 2> "$tmp/err"; rc=$?
check "validate --solver newton exits 2" test $rc -eq 2

# a lesson of the page (lessons/NAME.json) is checked by validate too: each step's scene loaded
# with the step's values; a mistake is named by its pointer in the lesson (issue 50)
lessons="$scenes/../lessons"
"$bin" validate "$lessons/why_it_sticks.json" > "$tmp/out" 2>&1; rc=$?
check "validate a shipped lesson exits 0" test $rc -eq 0
check "validate says it checked a lesson at interactive quality" grep -q '^OK: .*why_it_sticks.json (a lesson; its scenes in .* loaded at interactive quality' "$tmp/out"
mkdir -p "$tmp/lessons"
sed -e 's/"pause_at": "released"/"pause_at": "relased"/' -e 's#"scene": "ground",#"scene": "ground", "set": { "/parameters/push_mm": 99 },#' \
  "$lessons/why_it_sticks.json" > "$tmp/lessons/bad.json"
"$bin" validate "$tmp/lessons/bad.json" --scenes "$scenes" > /dev/null 2> "$tmp/err"; rc=$?
check "validate a lesson with mistakes exits 2" test $rc -eq 2
check "validate names a lesson's unknown event by its pointer" grep -q "bad.json: /steps/2/pause_at: unknown event \"relased\"; did you mean 'released'?" "$tmp/err"
check "validate names a value the scene refuses at the step's pointer" grep -q 'bad.json: /steps/0/set/~1parameters~1push_mm: ' "$tmp/err"
abs_bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
(cd "$tmp" && "$abs_bin" validate lessons/bad.json > /dev/null 2> "$tmp/err"); rc=$?
check "validate a lesson without its scenes folder exits 2 and says so" test $rc -eq 2
check "validate a lesson without its scenes folder names it" grep -q "no scenes folder 'scenes'" "$tmp/err"
"$bin" validate "$lessons/why_it_sticks.json" --set /parameters/push_mm=3 > /dev/null 2> "$tmp/err"; rc=$?
check "validate a lesson with --set exits 2" test $rc -eq 2

# sweep: every combination as its own run, one table; the same table whatever --jobs; resumed;
# a failing run is a row, not the end; its metrics are those of the same run made by hand
sw=(--grid /parameters/push_mm=3,7 --grid /settings/cavity/leak_rate=0,1e-6 --duration 0.1)
"$bin" sweep "$scenes/ground.json" "${sw[@]}" --out "$tmp/sw1.csv" --jobs 1 -q > /dev/null 2>&1; rc=$?
check "sweep exits 0" test $rc -eq 0
check "sweep table has the grid, outcome and metrics columns" grep -q '^/parameters/push_mm,/settings/cavity/leak_rate,status,exit_code,error,contacts_min,' "$tmp/sw1.csv"
check "sweep table has 4 ok rows" test "$(grep -c ',ok,0,' "$tmp/sw1.csv")" -eq 4
check "sweep rows in grid order" test "$(cut -d, -f1,2 "$tmp/sw1.csv" | tr '\n' ' ')" = "/parameters/push_mm,/settings/cavity/leak_rate 3,0 3,1e-6 7,0 7,1e-6 "
"$bin" sweep "$scenes/ground.json" "${sw[@]}" --out "$tmp/sw2.csv" --jobs 3 -q > /dev/null 2>&1
check "sweep table identical with 3 jobs" cmp -s "$tmp/sw1.csv" "$tmp/sw2.csv"
"$bin" sweep "$scenes/ground.json" "${sw[@]}" --out "$tmp/sw2.csv" --jobs 2 > "$tmp/out" 2>&1; rc=$?
check "resumed sweep exits 0" test $rc -eq 0
check "resumed sweep runs nothing" grep -q '4 runs (4 already in' "$tmp/out"
check "resumed sweep keeps the table" cmp -s "$tmp/sw1.csv" "$tmp/sw2.csv"
# the same sweep over 3 MPI ranks (rank 0 hands the runs out and writes the table): the same
# table; resumed from a partial table; a failed run is a row there too (make test installs Open MPI)
if [ "$mpi" = mpi ]; then
  check "suction is built with MPI (Open MPI installed by make deps)" bash -c "'$bin' info '$scenes/ground.json' | grep -q '^sweep: .*MPI ranks'"
  mpirun_=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
           mpirun --oversubscribe -np 3)
  "${mpirun_[@]}" "$bin" sweep "$scenes/ground.json" "${sw[@]}" --out "$tmp/swm.csv" > "$tmp/out" 2>&1; rc=$?
  check "mpirun -np 3 sweep exits 0" test $rc -eq 0
  check "mpirun sweep says it runs on 3 ranks" grep -q '3 MPI ranks' "$tmp/out"
  check "sweep table identical under mpirun -np 3" cmp -s "$tmp/sw1.csv" "$tmp/swm.csv"
  head -n 3 "$tmp/sw1.csv" > "$tmp/swm.csv"
  "${mpirun_[@]}" "$bin" sweep "$scenes/ground.json" "${sw[@]}" --out "$tmp/swm.csv" > "$tmp/out" 2>&1; rc=$?
  check "mpirun sweep resumes a partial table" grep -q '4 runs (2 already in' "$tmp/out"
  check "resumed mpirun sweep exits 0 with the whole table" bash -c "test $rc -eq 0 && cmp -s '$tmp/sw1.csv' '$tmp/swm.csv'"
  # a fit over 3 MPI ranks (rank 0 fits, every rank runs): the same fit as on one machine
  fa=(fit "$scenes/ground.json" --duration 0.3 --param /parameters/push_mm=3:7:4 --target air_total_final=0.2612180488073965)
  "$bin" "${fa[@]}" --prefix "$tmp/fitl" --json "$tmp/fitl_sum.json" > /dev/null 2>&1; rc=$?
  check "a one-parameter fit of ground's final air converges (exit 0)" test $rc -eq 0
  "${mpirun_[@]}" "$bin" "${fa[@]}" --prefix "$tmp/fitm" --json "$tmp/fitm_sum.json" > "$tmp/out" 2>&1; rc=$?
  check "mpirun -np 3 fit exits 0 and says it runs on 3 ranks" bash -c "test $rc -eq 0 && grep -q 'on each of 3 MPI ranks' '$tmp/out'"
  check "the mpirun fit gives the same fit (values, runs, residual)" bash -c "diff <(grep -v 'fitted_scene\\|\"scene\"' '$tmp/fitl_sum.json') <(grep -v 'fitted_scene\\|\"scene\"' '$tmp/fitm_sum.json')"
else
  # a build without MPI (the sanitizer build is configured so): it says so, and refuses to run
  # under a launcher with several processes, each of which would run the whole sweep
  check "suction says it is built without MPI" bash -c "'$bin' info '$scenes/ground.json' | grep -q '^sweep: *local processes, no MPI'"
  env OMPI_COMM_WORLD_SIZE=3 "$bin" sweep "$scenes/ground.json" "${sw[@]}" --out "$tmp/swm.csv" > /dev/null 2> "$tmp/err"; rc=$?
  check "a sweep under a 3-process launcher without MPI exits 2 and says why" bash -c "test $rc -eq 2 && grep -q 'built without MPI' '$tmp/err' && test ! -e '$tmp/swm.csv'"
  env OMPI_COMM_WORLD_SIZE=3 "$bin" fit "$scenes/ground.json" --param /parameters/push_mm=3:7 --target air_total_final=0.26 > /dev/null 2> "$tmp/err"; rc=$?
  check "a fit under a 3-process launcher without MPI exits 2 and says why" bash -c "test $rc -eq 2 && grep -q 'fit: .*built without MPI' '$tmp/err'"
fi
"$bin" run "$scenes/ground.json" --set /parameters/push_mm=7 --set /settings/cavity/leak_rate=1e-6 --duration 0.1 --csv "$tmp/one.csv" -q > /dev/null
python3 - "$tmp/sw1.csv" "$tmp/one.csv" > "$tmp/out" 2>&1 <<'PY'
import csv, sys
row = [r for r in csv.DictReader(open(sys.argv[1])) if r['/parameters/push_mm'] == '7' and r['/settings/cavity/leak_rate'] == '1e-6'][0]
run = list(csv.DictReader(open(sys.argv[2])))
p = [float(r['pressure_min']) for r in run]
k = p.index(min(p))
seal = next(float(r['t']) for r in run if int(r['cavities']) > 0)
ok = (float(row['pressure_min_min']) == min(p) and float(row['pressure_min_t_min']) == float(run[k]['t'])
      and float(row['hand_force_final']) == float(run[-1]['hand_force']) and float(row['seal_t']) == seal)
print('match' if ok else 'mismatch', row['pressure_min_min'], min(p), row['seal_t'], seal)
PY
check "sweep metrics are the run's own" grep -q '^match' "$tmp/out"
# the run's health from its log: a step of 300 ms lets the block through the ground (the
# watchdog's warning), 10 ms does not; neither has an interpenetration or a union to fail
"$bin" sweep "$scenes/block_on_ground.json" --grid /settings/dt=0.01,0.3 --duration 0.9 --out "$tmp/swh.csv" -q > /dev/null 2>&1; rc=$?
check "sweep of block_on_ground exits 0" test $rc -eq 0
check "sweep table counts each run's warnings, interpenetrations and unions" python3 - "$tmp/swh.csv" <<'PY'
import csv, sys
rows = {r['/settings/dt']: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows['0.01']['warnings'] == '0' and rows['0.3']['warnings'] == '1', rows
for r in rows.values():
    assert r['interpenetrations'] == '0' and r['interpenetration_t'] == '' and r['union_failures'] == '0' and r['surface_repairs'] == '0', r
PY
"$bin" sweep "$scenes/ground.json" --grid /parameters/push_mm=3,99 --duration 0.05 --out "$tmp/sw3.csv" -q > /dev/null 2>&1; rc=$?
check "sweep with a failed run exits 1" test $rc -eq 1
check "the failed run is a row with its exit code and error" grep -q '^99,failed,2,.*push_mm' "$tmp/sw3.csv"
check "the other run is ok" grep -q '^3,ok,0,' "$tmp/sw3.csv"
# a resumed sweep runs again a row whose run was killed by a signal (the OOM killer's SIGKILL),
# not one that failed on its input (push_mm=99 stays as it is)
python3 - "$tmp/sw3.csv" "$tmp/sw5.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
for r in rows[1:]:
    if r[0] == '3':  # the ok run, as if the OOM killer had stopped it: no metrics
        r[head.index('status')], r[head.index('exit_code')], r[head.index('error')] = 'failed', '137', 'killed by signal 9'
        for i in range(head.index('error') + 1, len(r)): r[i] = ''
csv.writer(open(sys.argv[2], 'w', newline=''), lineterminator='\n').writerows(rows)
PY
"$bin" sweep "$scenes/ground.json" --grid /parameters/push_mm=3,99 --duration 0.05 --out "$tmp/sw5.csv" > "$tmp/out" 2>&1; rc=$?
check "a resumed sweep runs again the row killed by a signal, not the one that failed on its input" bash -c "test $rc -eq 1 && grep -q '2 runs (1 already in' '$tmp/out' && cmp -s '$tmp/sw3.csv' '$tmp/sw5.csv'"
if [ "$mpi" = mpi ]; then
  "${mpirun_[@]}" "$bin" sweep "$scenes/ground.json" --grid /parameters/push_mm=3,99 --duration 0.05 --out "$tmp/swm3.csv" -q > /dev/null 2>&1; rc=$?
  check "mpirun sweep with a failed run: exit 1 and the same table" bash -c "test $rc -eq 1 && cmp -s '$tmp/sw3.csv' '$tmp/swm3.csv'"
fi
"$bin" sweep "$scenes/ground.json" --grid push_mm=3 --out "$tmp/sw4.csv" > /dev/null 2> "$tmp/err"; rc=$?
check "sweep with a bad --grid exits 2" test $rc -eq 2
check "bad --grid says what is expected" grep -q "must start with '/'" "$tmp/err"
"$bin" sweep "$scenes/ground.json" --grid /parameters/pull_mm=10 --out "$tmp/sw1.csv" > /dev/null 2> "$tmp/err"; rc=$?
check "sweep into another grid's table exits 2" test $rc -eq 2

# fit: bad input is exit 2 with the reason, before any simulation (the identification itself is
# the story test tests/cli/test_fit_story.sh)
printf 't,pull_force\n0,0\n0.1,oops\n' > "$tmp/bad.csv"
fitp=(--param /materials/neoprene/young=0.5e6:2e6)
"$bin" fit "$scenes/pull_test.json" "${fitp[@]}" --data "$tmp/nothere.csv" --probe pull_force > /dev/null 2> "$tmp/err"; rc=$?
check "fit with a missing data file exits 2" test $rc -eq 2
check "fit names the missing data file" grep -q 'nothere.csv: no such file' "$tmp/err"
"$bin" fit "$scenes/pull_test.json" "${fitp[@]}" --data "$tmp/bad.csv" --probe pull_force > /dev/null 2> "$tmp/err"; rc=$?
check "fit with a bad data file exits 2" test $rc -eq 2
check "fit names the bad field's row and column" grep -q "row 2, column 'pull_force': expected a finite number, got 'oops'" "$tmp/err"
"$bin" fit "$scenes/pull_test.json" "${fitp[@]}" --data "$tmp/bad.csv" --probe force > /dev/null 2> "$tmp/err"; rc=$?
check "fit with data lacking the probe's column exits 2" bash -c "test $rc -eq 2 && grep -q \"no column 'force'\" '$tmp/err'"
printf 't,pull_force\n0,0\n0.1,1\n' > "$tmp/good.csv"
"$bin" fit "$scenes/pull_test.json" --param /materials/rubber/young=0.5e6:2e6:1e6 --data "$tmp/good.csv" --probe pull_force > /dev/null 2> "$tmp/err"; rc=$?
check "fit with an unknown pointer exits 2" test $rc -eq 2
check "fit names the unknown pointer" grep -q '/materials/rubber/young' "$tmp/err"
printf 't,force\n0,0\n0.1,1\n' > "$tmp/force.csv"
"$bin" fit "$scenes/pull_test.json" "${fitp[@]}" --data "$tmp/force.csv" --probe force > /dev/null 2> "$tmp/err"; rc=$?
check "fit with a probe the scene lacks exits 2" bash -c "test $rc -eq 2 && grep -q 'not a column of the scene' '$tmp/err'"
"$bin" fit "$scenes/pull_test.json" --param /materials/neoprene/young=2e6:0.5e6 --target pull_force_max=25 > /dev/null 2> "$tmp/err"; rc=$?
check "fit with reversed bounds exits 2" bash -c "test $rc -eq 2 && grep -q 'lower bound must be below' '$tmp/err'"
"$bin" fit "$scenes/pull_test.json" --param /materials/neoprene/young=2e6:3e6 --target pull_force_max=25 > /dev/null 2> "$tmp/err"; rc=$?
check "fit starting outside its bounds exits 2" bash -c "test $rc -eq 2 && grep -q 'lies outside' '$tmp/err'"
"$bin" fit "$scenes/pull_test.json" "${fitp[@]}" --data "$tmp/good.csv" --probe pull_force --target pull_force_max=25 > /dev/null 2> "$tmp/err"; rc=$?
check "fit with both --data and --target exits 2" test $rc -eq 2
"$bin" fit "$scenes/pull_test.json" "${fitp[@]}" --target pull_force_max=25 --prefix "$tmp/f" --json "$tmp/f.json" > /dev/null 2> "$tmp/err"; rc=$?
check "fit whose --json is its fitted scene's file exits 2" bash -c "test $rc -eq 2 && grep -q 'give the summary another name' '$tmp/err'"

echo "$pass passed, $fail failed"
test $fail -eq 0
