#!/usr/bin/env python3
"""The press study (issue 49, `make press-study`): two cups, three lips, five presses, on six
targets, each pressed, held and pulled off; one `suction sweep` per target and cup, and a
summary of the peak pull forces with the health of every run (failed unions, interpenetrations
the watchdog saw, surfaces repaired for a union).

    python3 scripts/press_study.py [--bin build/native/native/suction] [--out build/press_study]
                                   [--jobs 2] [--quality reference] [--targets surface,soft_cube,tunnel_block]
                                   [--presses 1,3,5,7,9] [--lips 1,1.5,3]

The cups (their own materials):
  standard   the ground scene's cup: radius 17.5 mm, height 15 mm, wall 3 mm, E 4 MPa
  pull_test  the pull test's cup: radius 15.75 mm, height 14.5 mm, wall 2.5 mm, a 6.5 mm handle,
             20 segments, E 1 MPa (neoprene)
with the lip's thickness (the skirt at the lip) set to each of the lips.

The targets, each from a shipped scene with the cup replaced:
  surface       scenes/pull_test.json, R_mm = 0 (flat), 20, 31.5, 50: a fixed surface 0.2 mm
                under the lip; the hand moves the handle down press + 0.2 mm in 0.5 s, holds
                0.3 s, pulls 30 mm in 1.5 s
  soft_cube     scenes/soft_cube_lift.json (E 0.05 MPa, 100 g): push_mm = press, as shipped
  tunnel_block  scenes/air_tunnel.json, one_hole: the cup over one hole of the soft block
                (E 0.5 MPa); push_mm = press, as shipped

"press" is how far the hand moves the handle down after the lip first touches.  The sweeps
resume (an interrupted study runs only what is missing); delete the folder to start again.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CUPS = {
    "standard": {
        "mesh": {"generator": "cup", "radius": 0.0175, "height": 0.015},
        "material": {"young": 4e6, "poisson": 0.45, "density": 7160, "damping_stiffness": 0.002, "friction": 0.8},
    },
    "pull_test": {
        "mesh": {"generator": "cup", "radius": 0.01575, "height": 0.0145, "wall_thickness": 0.0025,
                 "handle_radius": 0.0065, "resolution": 20},
        "material": {"young": 1e6, "poisson": 0.45, "density": 1250, "damping_stiffness": 0.002, "friction": 0.8},
    },
}

# target -> (scene, extra --set, the press axis (pointer, value of a press in mm), more axes,
#            the driver-force column of the peak pull force, duration)
TARGETS = {
    "surface": {
        "scene": "scenes/pull_test.json",
        "sets": ['/drivers/0/segments=[{"move":[0,0,-0.0002],"duration":0.5},{"hold":0.3},'
                 '{"move":[0,0,0.03],"duration":1.5}]'],
        "press": ("/drivers/0/segments/0/move/2", lambda p: repr(-round((p + 0.2) * 1e-3, 9))),
        "axes": [("/parameters/R_mm", ["0", "20", "31.5", "50"])],
        "force": "pull_force",
        "duration": 2.3,
    },
    "soft_cube": {
        "scene": "scenes/soft_cube_lift.json",
        "sets": [],
        "press": ("/parameters/push_mm", lambda p: repr(p)),
        "axes": [],
        "force": "hand_force",
        "duration": None,
    },
    "tunnel_block": {
        "scene": "scenes/air_tunnel.json",
        "sets": ["/parameters/config==one_hole"],
        "press": ("/parameters/push_mm", lambda p: repr(p)),
        "axes": [],
        "force": "hand_a_force",
        "duration": None,
    },
}


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def run_sweep(args, target, cup, out_csv):
    t = TARGETS[target]
    c = CUPS[cup]
    cmd = [args.bin, "sweep", os.path.join(ROOT, t["scene"]), "--out", out_csv, "--jobs", str(args.jobs),
           "--quality", args.quality,
           "--set", "/materials/study_cup=" + json.dumps(c["material"], separators=(",", ":")),
           "--set", '/bodies/0/material="study_cup"',
           "--set", "/bodies/0/mesh=" + json.dumps(c["mesh"], separators=(",", ":"))]
    for s in t["sets"]:
        cmd += ["--set", s]
    if t["duration"]:
        cmd += ["--duration", str(t["duration"])]
    for pointer, values in t["axes"]:
        cmd += ["--grid", pointer + "=" + ",".join(values)]
    cmd += ["--grid", "/bodies/0/mesh/lip_thickness=" + ",".join(repr(round(l * 1e-3, 9)) for l in args.lips)]
    pointer, value = t["press"]
    cmd += ["--grid", pointer + "=" + ",".join(value(p) for p in args.presses)]
    print(f"== {target}, {cup} cup: {' '.join(cmd[1:3])} ... -> {os.path.relpath(out_csv)}", flush=True)
    rc = subprocess.run(cmd).returncode
    if rc not in (0, 1):  # 1: a run failed, which the table records
        sys.exit(f"press_study: the sweep for {target}, {cup} ended with exit status {rc}")


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fmt_force(x):
    return "—" if math.isnan(x) else f"{x:.1f}"


def summarize(args, tables):
    """tables: {(target, cup): rows}; returns the markdown report"""
    lines = [f"Press study ({args.quality} quality): peak pull force in N (the hand's force, max over the run); "
             "`u` a failed union in the run, `i` an interpenetration the watchdog saw (a vertex inside another "
             "body or gone to the far side of a thin wall), `r` a surface repaired for a union, `F` the run failed; "
             "— no seal formed (no cavity at any time).", ""]
    totals = {"runs": 0, "failed": 0, "union_runs": 0, "unions": 0, "inside_runs": 0, "repair_runs": 0,
              "sealed": 0}
    presses = args.presses
    for target in args.targets:
        t = TARGETS[target]
        press_ptr = t["press"][0]
        lip_ptr = "/bodies/0/mesh/lip_thickness"
        extra = [a[0] for a in t["axes"]]
        lines.append(f"**{target}** ({t['scene']}" + (", " + ", ".join(a[0].split('/')[-1] + " " + "/".join(a[1]) for a in t["axes"]) if t["axes"] else "") + ")")
        lines.append("")
        header = "| cup | " + "".join(f"{a.split('/')[-1]} | " for a in extra) + "lip mm | " + \
                 " | ".join(f"press {p:g} mm" for p in presses) + " |"
        lines.append(header)
        lines.append("|" + "---|" * (2 + len(extra) + len(presses)))
        for cup in args.cups:
            rows = tables.get((target, cup), [])
            by_key = {}
            for r in rows:
                by_key[tuple(r[a] for a in extra) + (r[lip_ptr], r[press_ptr])] = r
            extra_values = [a[1] for a in t["axes"]]
            combos = [[]]
            for vals in extra_values:
                combos = [c + [v] for c in combos for v in vals]
            for combo in combos:
                for lip in args.lips:
                    lip_text = repr(round(lip * 1e-3, 9))
                    cells = []
                    for p in presses:
                        r = by_key.get(tuple(combo) + (lip_text, t["press"][1](p)))
                        if r is None:
                            cells.append("(not run)")
                            continue
                        totals["runs"] += 1
                        if r["status"] != "ok":
                            totals["failed"] += 1
                            cells.append("F")
                            continue
                        force = number(r.get(t["force"] + "_max"))
                        sealed = not math.isnan(number(r.get("seal_t")))
                        totals["sealed"] += sealed
                        marks = ""
                        if number(r.get("union_failures")) > 0:
                            totals["union_runs"] += 1
                            totals["unions"] += int(number(r["union_failures"]))
                            marks += "u"
                        if number(r.get("interpenetrations")) > 0:
                            totals["inside_runs"] += 1
                            marks += "i"
                        if number(r.get("surface_repairs")) > 0:
                            totals["repair_runs"] += 1
                            marks += "r"
                        cell = fmt_force(force) if sealed else "—"
                        cells.append(cell + (f" {marks}" if marks else ""))
                    lines.append(f"| {cup} | " + "".join(f"{v} | " for v in combo) + f"{lip:g} | " +
                                 " | ".join(cells) + " |")
        lines.append("")
    lines.append(f"Runs {totals['runs']}: {totals['failed']} failed, {totals['sealed']} sealed; "
                 f"failed unions in {totals['union_runs']} runs ({totals['unions']} unions); "
                 f"interpenetrations in {totals['inside_runs']} runs; surfaces repaired in {totals['repair_runs']} runs.")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/native/native/suction"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build/press_study"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quality", default="reference", choices=["reference", "interactive"])
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--cups", default=",".join(CUPS))
    ap.add_argument("--presses", default="1,3,5,7,9")
    ap.add_argument("--lips", default="1,1.5,3")
    ap.add_argument("--report-only", action="store_true", help="summarize the tables already there")
    args = ap.parse_args()
    args.targets = [t for t in args.targets.split(",") if t]
    args.cups = [c for c in args.cups.split(",") if c]
    for t in args.targets:
        if t not in TARGETS:
            sys.exit(f"press_study: unknown target '{t}' (expected one of {', '.join(TARGETS)})")
    for c in args.cups:
        if c not in CUPS:
            sys.exit(f"press_study: unknown cup '{c}' (expected one of {', '.join(CUPS)})")
    args.presses = [float(p) for p in args.presses.split(",")]
    args.lips = [float(l) for l in args.lips.split(",")]
    if not args.report_only and not os.access(args.bin, os.X_OK):
        sys.exit(f"press_study: {args.bin} is not there: build it first (make native)")
    os.makedirs(args.out, exist_ok=True)
    start = time.time()
    tables = {}
    for target in args.targets:
        for cup in args.cups:
            path = os.path.join(args.out, f"{target}_{cup}_{args.quality}.csv")
            if not args.report_only:
                run_sweep(args, target, cup, path)
            if os.path.exists(path):
                tables[(target, cup)] = read_rows(path)
    text = summarize(args, tables)
    md = os.path.join(args.out, f"press_study_{args.quality}.md")
    with open(md, "w") as f:
        f.write(text)
    print()
    print(text)
    print(f"written {os.path.relpath(md)} in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
