#!/usr/bin/env python3
"""The paper's Table 1: per-step timings of the simulation stages on its seven scenes.

    table1.py [--bin build/native/native/suction] [--backend cpu] [--threads 1]
              [--steps N] [--warmup N] [--scenes ground,soft_cube,bunny,toy,robot,cube_halves,tentacle]
              [--scenes-dir scenes] [--out build/table1] [--no-interactive]

For every row, `suction bench SCENE --warmup W --steps 150 --json FILE` times 150 steps
around the suction phenomenon, as the paper averages its Table 1: the
window (W untimed steps, then 150 timed ones) is chosen per scene below, with why.  It prints
a plain-text table: FEM nodes, collision nodes, mean constraint rows, the window, and the mean
ms per step of each stage (free motion, collision, cavities, compliance, solve, and `other`:
leak + correction, which the paper does not list) with its share of the total, next to the
paper's numbers for the row ("?" where the repository does not have them).  A third line per
row, `interactive`, times the same stretch of simulated time at the interactive quality (the
page's: `suction bench --quality interactive`, its window in its own steps, which are longer
where the quality doubles the time step); --no-interactive leaves it out.  The last column is
the real-time factor: the time step over the ms per step (the paper's: 10 ms over its total).  A row whose scene
file does not exist yet prints "—" in every measured column; that is not an error.

Files in --out: table1.txt (the table), table1.json (every row: window, our numbers, the
paper's, the bench JSON), table1.csv (one line per row and source), and per row the bench's
JSON and stdout (bench_<row>.json, bench_<row>.txt).  Progress goes to stderr.  Exit status:
0, or 1 when a bench failed (the others still run and print), 2 for bad options.

FEM nodes, collision nodes and mean rows come from the bench JSON (`fem_nodes`,
`collision_nodes`: Σ boundary vertices of the FEM bodies + every rigid body's surface vertices,
ground and plates included; `mean_constraints`: the constraint rows per step, contacts,
cavities and springs).
"""
import argparse
import csv
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = 150  # the paper's window length

# the paper's five columns, then ours: leak + correction
STAGES = ["free_motion", "collision", "cavities", "compliance", "solve"]
HEADINGS = {"free_motion": "free motion", "collision": "collision", "cavities": "cavities",
            "compliance": "compliance", "solve": "solve", "other": "other"}


class Row:
    def __init__(self, key, label, scene, warmup, why, paper):
        self.key, self.label, self.scene, self.warmup, self.why, self.paper = key, label, scene, warmup, why, paper


# The paper's Table 1 (i9-9980HK laptop, 2.4 GHz, one thread; h = 10 ms, PGS capped at 50
# iterations): FEM nodes, collision nodes, mean constraint rows, ms per step and per stage.
# `other` is derived: the total − the five stages.
def paper(fem=None, coll=None, rows=None, total=None, **stages):
    return {"fem_nodes": fem, "collision_nodes": coll, "mean_rows": rows, "total_ms": total,
            "stages_ms": {s: stages.get(s) for s in STAGES}}


# The windows: 150 steps around each scene's suction, read off `suction run SCENE --csv`
# (columns cavities, pressure_min and the scene's probes; docs/scenes.md).  Step k is the
# step that ends at t = k dt; bench runs `warmup` untimed steps, then times steps
# warmup+1 .. warmup+150.
ROWS = [
    Row("ground", "ground", "ground.json", 5,
        "180 steps of 10 ms: push 1-50, hold 51-80, pull from 81. The lip touches at step 5, the "
        "cavity forms at 8, falls below ambient from 81 (24.1 kPa at 134) and lets go at 134: "
        "steps 6-155 hold its whole life, from the seal to 21 steps after the release.",
        paper(434, 135, 122.75, 38.51, free_motion=9.02, collision=0.40, cavities=3.13,
              compliance=21.31, solve=1.33)),
    Row("soft_cube", "soft cube", "soft_cube_lift.json", 75,
        "240 steps of 10 ms: the cup sits on the jelly cube (cavity from step 1), push 1-50, hold "
        "51-80, pull from 81. The pressure falls from 81 to 93.4 kPa at 107, the cube leaves the "
        "ground at about 110 and is lifted to the end: steps 76-225 are the end of the hold, the "
        "pull and 115 steps of the cube hanging from the sealed, pulling cavity.",
        paper(820, 325, 111.96, 56.55, free_motion=16.52, collision=0.57, cavities=6.91,
              compliance=26.58, solve=1.96)),
    Row("bunny", "bunny", "organic_object.json", 105,
        "340 steps of 10 ms: press (5 N) 1-80, hold 81-110, pull from 111. The cavity forms at "
        "15 and falls below ambient at 111 (91.8 kPa), the bunny leaves the ground at about 125 "
        "and is lifted 34 mm by 310: steps 106-255 are the end of the hold, the pull and the "
        "bunny hanging tilted from the pulling cavity (23 mm up at 255).",
        paper(434, 572, 182.00, 67.59, free_motion=9.10, collision=0.94, cavities=6.33,
              compliance=41.67, solve=3.01)),
    Row("toy", "toy", "popup_toy.json", 440,
        "2000 steps of 2 ms: the hand pushes the head down 0.2-0.9 s (the cavity forms at step "
        "202), lets go over 0.90-0.95 s (steps 450-475); the spring pulls the head up, the cavity "
        "expands and holds it (below ambient from 452, 94.6 kPa at 477) until the leak lets it "
        "go at 1160. Steps 441-590: the hand letting go and the first 115 steps of the cavity "
        "holding the head against the spring.",
        paper(628, 212, 234.72, 86.48, free_motion=19.12, collision=0.76, cavities=1.62,
              compliance=56.22, solve=2.17)),
    Row("robot", "robot", "pick_and_place.json", 175,
        "700 steps of 10 ms: the arm lowers the cup onto the apple (the cavity seals at about "
        "step 124), presses and holds, lifts from about 160 (96.1 kPa at "
        "175), carries it over the box from 300 and lowers it into a compartment by 480; the "
        "push against the wall opens the seal at 592. Steps 176-325: the apple hanging from the "
        "sealed cup while the arm lifts it and starts the carry.",
        paper(434, 507, 262.64, 87.96, free_motion=15.24, collision=2.44, cavities=9.06,
              compliance=51.17, solve=3.15)),
    Row("cube_halves", "cube halves", "cube_halves.json", 75,
        "280 steps of 10 ms: the upper half pushed onto the lower one 1-50 (the pocket's cavity "
        "from step 1), hold 51-80, lift 81-230, hold 231-280. The pressure falls from 81 to "
        "98.5 kPa at 96, the lower half leaves the ground at about 105: steps 76-225 are the end "
        "of the hold, the pull and the lower half carried up by the sealed pocket.",
        paper(644, 801, 705.16, 390.04, free_motion=14.31, collision=1.91, cavities=2.92,
              compliance=343.85, solve=18.21)),
    Row("tentacle", "tentacle", "tentacle.json", 100,
        "410 steps of 10 ms: the free half of the arm lands on the can (the first cavity at step "
        "3), the root is lowered and pressed 31-70 (all seven suckers sealed by 45), held 71-90, "
        "the press let go 91-140 (the pressures fall, the can leaves the ground at 122), held "
        "141-160, lifted 161-360, held 361-410. Steps 101-250: the release, the can taken off "
        "the ground by seven cavities, and the first second of the lift.",
        paper(1585, 2044, 249.70, 427.61, free_motion=36.56, collision=1.83, cavities=98.30,
              compliance=263.15, solve=3.24)),
]
BY_KEY = {r.key: r for r in ROWS}
ALIASES = {os.path.splitext(r.scene)[0]: r.key for r in ROWS}  # scene names work too


def log(msg):
    print("table1: " + msg, file=sys.stderr, flush=True)


def scene_steps(path):
    with open(path) as f:
        settings = json.load(f).get("settings", {})
    return round(settings.get("duration", 1.0) / settings.get("dt", 0.01))


def auto_window(args, row, path, steps):
    """the warm-up that centres `steps` timed steps on the scene's cavities (cavities > 0 in
    `suction run --csv`), or on the scene when it has none"""
    total = scene_steps(path)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.csv")
        cmd = [args.bin, "run", path, "-q", "--csv", out]
        log(f"{row.key}: no window chosen; finding its cavities: " + " ".join(cmd))
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        cav = []
        if os.path.exists(out):
            with open(out) as f:
                cav = [int(r["step"]) for r in csv.DictReader(f) if int(r["cavities"]) > 0]
        if p.returncode != 0:
            log(f"{row.key}: the run failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    first, last = (cav[0], cav[-1]) if cav else (1, total)
    warmup = max(0, min((first + last) // 2 - steps // 2, total - steps))
    why = (f"{row.why} Centred on its cavities, steps {first}-{last}: warmup {warmup}." if cav
           else f"{row.why} No cavity: the scene's middle, warmup {warmup}.")
    return warmup, why


def bench(args, row, path, warmup, steps, quality="reference"):
    tag = row.key if quality == "reference" else f"{row.key}_{quality}"
    js = os.path.join(args.out, f"bench_{tag}.json")
    cmd = [args.bin, "bench", path, "--warmup", str(warmup), "--steps", str(steps),
           "--threads", str(args.threads), "--quality", quality, "--json", js]
    if args.backend:
        cmd += ["--backend", args.backend]
    log(" ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with open(os.path.join(args.out, f"bench_{tag}.txt"), "w") as f:
        f.write(p.stdout + p.stderr)
    if p.returncode != 0:
        log(f"{tag}: bench failed ({p.returncode}): {p.stderr.strip()[-400:]}")
        return None
    with open(js) as f:
        return json.load(f)


def interactive_dt(args, path):
    """the interactive quality's time step of a scene (a one-step bench reads it)"""
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "probe.json")
        p = subprocess.run([args.bin, "bench", path, "--quality", "interactive", "--steps", "1", "--warmup", "0",
                            "--json", js], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0 or not os.path.exists(js):
            return None
        with open(js) as f:
            return json.load(f)["dt"]


def ours_from(b):
    total = b["total"]["mean_ms"]
    stages = {s: b["stages"][s]["mean_ms"] for s in STAGES}
    stages["other"] = b["other"]["mean_ms"]
    return {"fem_nodes": b["fem_nodes"], "collision_nodes": b["collision_nodes"],
            "mean_rows": b["mean_constraints"], "max_rows": b["max_constraints"],
            "mean_cavities": b["mean_cavities"], "cavity_unions": b["cavity_unions"],
            "mean_solver_iterations": b["mean_solver_iterations"],
            "dt": b["dt"], "real_time_factor": b["real_time_factor"], "quality": b.get("quality"),
            "quality_changes": b.get("quality_changes", []),
            "stages_ms": stages, "total_ms": total,
            "stages_percent": {s: (100.0 * v / total if total > 0 else None) for s, v in stages.items()}}


def paper_full(p):
    """the paper's row with `other` (total − the five stages, when all five are known) and the
    percentages it allows"""
    stages = dict(p["stages_ms"])
    known = [stages[s] for s in STAGES if stages[s] is not None]
    stages["other"] = (round(p["total_ms"] - sum(known), 2)
                       if p["total_ms"] is not None and len(known) == len(STAGES) else None)
    pct = {s: (100.0 * v / p["total_ms"] if v is not None and p["total_ms"] else None) for s, v in stages.items()}
    rtf = PAPER_DT_MS / p["total_ms"] if p["total_ms"] else None
    return dict(p, stages_ms=stages, stages_percent=pct, real_time_factor=rtf)


PAPER_DT_MS = 10.0  # the paper's time step (its Table 1: h = 10 ms)


# --- the plain-text table -----------------------------------------------------------------
DASH = "—"


def num(v, fmt):
    return "?" if v is None else format(v, fmt)


def cell(ms, pct):
    if ms is None:
        return "?"
    return f"{ms:.2f} {pct:4.1f}%" if pct is not None else f"{ms:.2f}"


def table_lines(results):
    cols = ["row", "", "steps", "FEM nodes", "coll. nodes", "rows"] + \
           [HEADINGS[s] for s in STAGES + ["other"]] + ["total ms", "paper/ours", "real time"]
    body = []
    for r in results:
        p, o = r["paper"], r["ours"]
        body.append([r["label"], "paper", "", num(p["fem_nodes"], "d"), num(p["collision_nodes"], "d"),
                     num(p["mean_rows"], "g")] +
                    [cell(p["stages_ms"][s], p["stages_percent"][s]) for s in STAGES + ["other"]] +
                    [num(p["total_ms"], ".2f"), "", num(p["real_time_factor"], ".2f") + ("x" if p["real_time_factor"] else "")])
        lines = [("ours", o, r["warmup"], r["steps"], r["status"])]
        if "interactive" in r:
            i = r["interactive"]
            lines.append(("interactive", i["ours"], i["warmup"], i["steps"], i["status"]))
        for name, d, warmup, steps, status in lines:
            if d is None:
                what = DASH if status == "no scene" else "failed"
                window = f"{warmup + 1}-{warmup + steps}" if warmup is not None else DASH
                body.append(["", name, window] + [what] * (len(cols) - 3))
                continue
            ratio = (f"{p['total_ms'] / d['total_ms']:.1f}x" if p["total_ms"] else "?")
            body.append(["", name, f"{warmup + 1}-{warmup + steps}", str(d["fem_nodes"]),
                         str(d["collision_nodes"]), f"{d['mean_rows']:.2f}"] +
                        [cell(d["stages_ms"][s], d["stages_percent"][s]) for s in STAGES + ["other"]] +
                        [f"{d['total_ms']:.2f}", ratio, f"{d['real_time_factor']:.2f}x"])
    widths = [max(len(line[i]) for line in [cols] + body) for i in range(len(cols))]
    fmt = lambda line: "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))).rstrip()
    out = [fmt(cols), fmt(["-" * w for w in widths])]
    for line in body:
        out.append(fmt(line))
    return out


CSV_HEAD = ["row", "scene", "source", "status", "warmup", "steps", "fem_nodes", "collision_nodes", "mean_rows"] + \
           [s + "_ms" for s in STAGES + ["other"]] + ["total_ms", "real_time_factor"]


def csv_rows(r):
    out = []
    sources = [("paper", r["paper"], "paper", None, None), ("ours", r["ours"], r["status"], r["warmup"], r["steps"])]
    if "interactive" in r:
        i = r["interactive"]
        sources.append(("interactive", i["ours"], i["status"], i["warmup"], i["steps"]))
    for source, d, status, warmup, steps in sources:
        line = {"row": r["key"], "scene": r["scene"], "source": source, "status": status,
                "warmup": "" if warmup is None else warmup, "steps": "" if warmup is None else steps,
                "real_time_factor": "" if d is None or d.get("real_time_factor") is None else d["real_time_factor"]}
        for k in ("fem_nodes", "collision_nodes", "mean_rows", "total_ms"):
            line[k] = "" if d is None or d[k] is None else d[k]
        for s in STAGES + ["other"]:
            line[s + "_ms"] = "" if d is None or d["stages_ms"][s] is None else d["stages_ms"][s]
        out.append(line)
    return out


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "node": platform.node()}


def main():
    try:
        sys.stdout.reconfigure(encoding="utf-8")
    except AttributeError:
        pass
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", help="the suction CLI (default build/native/native/suction, "
                    "build/cuda/native/suction with --backend cuda)")
    ap.add_argument("--backend", default="cpu", help="compliance backend: cpu (default) or cuda")
    ap.add_argument("--threads", type=int, default=1, help="suction bench --threads (default 1)")
    ap.add_argument("--steps", type=int, default=STEPS, help=f"timed steps per row (default {STEPS}, the paper's)")
    ap.add_argument("--warmup", type=int, help="untimed steps first, for every row (default: each row's window)")
    ap.add_argument("--scenes", default=",".join(r.key for r in ROWS),
                    help="rows, comma-separated (row names or scene names; default all seven)")
    ap.add_argument("--scenes-dir", default=os.path.join(ROOT, "scenes"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "table1"), help="output folder (default build/table1)")
    ap.add_argument("--no-interactive", action="store_true",
                    help="leave out each row's interactive line (the page's quality over the same simulated time)")
    args = ap.parse_args()
    if args.bin is None:
        args.bin = os.path.join(ROOT, "build", "cuda" if args.backend == "cuda" else "native", "native", "suction")
    if not os.access(args.bin, os.X_OK):
        ap.error(f"no suction CLI at {args.bin} (make native{', make cuda' if args.backend == 'cuda' else ''})")
    if args.steps < 1 or (args.warmup is not None and args.warmup < 0) or args.threads < 1:
        ap.error("--steps and --threads must be >= 1, --warmup >= 0")
    rows = []
    for name in args.scenes.split(","):
        key = ALIASES.get(name.strip(), name.strip())
        if key not in BY_KEY:
            ap.error(f"unknown row '{name}'; rows: {', '.join(BY_KEY)} (or their scene names)")
        rows.append(BY_KEY[key])
    os.makedirs(args.out, exist_ok=True)

    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    load_before = os.getloadavg()
    results, failed = [], False
    for row in rows:
        path = os.path.join(args.scenes_dir, row.scene)
        res = {"key": row.key, "label": row.label, "scene": os.path.join("scenes", row.scene),
               "paper": paper_full(row.paper), "ours": None, "bench": None, "why": row.why,
               "warmup": None, "steps": args.steps}
        if not os.path.exists(path):
            log(f"{row.key}: {path} does not exist yet: {DASH}")
            res["status"] = "no scene"
        else:
            if args.warmup is not None:
                warmup, why = args.warmup, row.why + f" (--warmup {args.warmup} given)"
            elif row.warmup is None:
                warmup, why = auto_window(args, row, path, args.steps)
            else:
                warmup, why = row.warmup, row.why
            res["warmup"], res["why"] = warmup, why
            b = bench(args, row, path, warmup, args.steps)
            if b is None:
                res["status"], failed = "failed", True
            else:
                res["status"], res["bench"], res["ours"] = "ok", b, ours_from(b)
        if not args.no_interactive:
            # the same simulated time at the interactive quality, in its own (longer) steps
            inter = {"status": res["status"], "warmup": None, "steps": None, "ours": None, "bench": None}
            if res["status"] == "ok":
                dt_i = interactive_dt(args, path)
                if dt_i is None:
                    inter["status"], failed = "failed", True
                else:
                    scale = res["bench"]["dt"] / dt_i
                    inter["warmup"] = int(round(warmup * scale))
                    inter["steps"] = max(1, int(round(args.steps * scale)))
                    bi = bench(args, row, path, inter["warmup"], inter["steps"], "interactive")
                    if bi is None:
                        inter["status"], failed = "failed", True
                    else:
                        inter["bench"], inter["ours"] = bi, ours_from(bi)
            res["interactive"] = inter
        results.append(res)

    lines = table_lines(results)
    head = (f"Table 1: mean ms per step over the window (steps: timed steps of `suction bench`), "
            f"backend {args.backend}, {args.threads} thread{'s' if args.threads > 1 else ''}; "
            f"stage cells: ms and share of the total; paper/ours: the paper's total over ours; "
            f"real time: the time step over the ms per step (the paper's: 10 ms over its total); "
            f"interactive: the page's quality over the same simulated time; "
            f"paper: i9-9980HK laptop, one thread")
    text = head + "\n" + "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(args.out, "table1.txt"), "w") as f:
        f.write(text)
    meta = {"started": started, "machine": machine(), "load_before": load_before, "load_after": os.getloadavg(),
            "bin": args.bin, "backend": args.backend, "threads": args.threads, "steps": args.steps}
    try:
        meta["commit"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                                        text=True).stdout.strip()
    except OSError:
        pass
    with open(os.path.join(args.out, "table1.json"), "w") as f:
        json.dump({"meta": meta, "rows": results}, f, indent=2)
        f.write("\n")
    with open(os.path.join(args.out, "table1.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_HEAD)
        w.writeheader()
        for r in results:
            w.writerows(csv_rows(r))
    log(f"wrote {os.path.join(args.out, 'table1.txt')}, table1.json, table1.csv")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
