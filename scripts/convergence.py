#!/usr/bin/python3
"""Convergence study of the ground scene (the paper's Fig. 9): mesh size and time step.

    convergence.py [--suction build/native/native/suction] [--out build/convergence]
                   [--figure docs/img/convergence.png] [--quick] [--budget 900]

Runs `suction run scenes/ground.json` (the cup pushed onto the ground, held, pulled off) for
  (a) four cup meshes (about 450, 1400, 2900 and 5600 nodes, a uniform refinement) at dt = 0.01 s, and
  (b) the default mesh (453 nodes) at dt = 0.03, 0.01 and 0.001 s,
plus the finest mesh at dt = 0.001 s when the finest mesh's measured cost per step says that
run would take less than --budget seconds (otherwise it says what it skipped and why).
The runs are sequential.  Each writes a CSV under --out; a progress line per run goes to
stdout, then a Markdown table (also written to OUT/convergence.md): minimum cavity pressure
over the run, its time, the release time (first step after the pull starts, t > 0.8 s, with no
active cavity), the peak hand force, and the spread of the minimum pressure across the runs.
One figure with three stacked panels against time (cavity pressure, cavity volume, air
N = PV), one line per run, is saved to --figure.

--quick: a smoke version (two coarse meshes at dt 0.01, the default mesh at dt 0.03, 1 s
simulated); its figure defaults to OUT/convergence_quick.png.

Exits non-zero if a run fails (after finishing the other runs and drawing what it has).
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = os.path.join(ROOT, "scenes", "ground.json")
PULL_START = 0.8   # s: the ground scene's hand pushes 0.5 s, holds 0.3 s, then pulls
DEFAULT_MESH = (16, 2)   # the cup generator's defaults: resolution 16, layers 2 (453 nodes)

# (resolution, layers): 453, 1375, 2921 and 5571 nodes.  A uniform refinement: resolution and
# layers grow together (8 segments per layer), so the elements keep their shape.  Mixing the
# two (e.g. 20/3 after 16/2) changes the elements' aspect ratio along with their size, and the
# minimum pressure then moves by up to 8 % between neighbouring meshes (docs/validation.md).
MESHES = [(16, 2), (24, 3), (32, 4), (40, 5)]
DTS = [0.03, 0.01, 0.001]
QUICK_MESHES = [(16, 2), (24, 3)]
QUICK_DTS = [0.03, 0.01]


def fail(msg, code=2):
    print(f"convergence: error: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


def mesh_args(mesh):
    res, layers = mesh
    return ["--set", f"/bodies/0/mesh/resolution={res}", "--set", f"/bodies/0/mesh/layers={layers}"]


def node_count(binary, mesh):
    cmd = [binary, "info", SCENE] + mesh_args(mesh)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr.strip()}")
    m = re.search(r"(\d+) FEM nodes", r.stdout)
    if not m:
        fail(f"cannot find the FEM node count in the output of {' '.join(cmd)}")
    return int(m.group(1))


def load_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        return None
    header = rows[0]
    data = np.array([[float(v) for v in row] for row in rows[1:]], dtype=float)
    return {name: data[:, i] for i, name in enumerate(header)}


def analyse(d):
    """Minimum pressure and its time, release time, peak hand force of one run's columns."""
    t, cav, p = d["t"], d["cavities"], d["pressure_min"]
    i = int(np.nanargmin(p))
    out = {"p_min": p[i], "t_p_min": t[i], "force_max": float(np.nanmax(d["hand_force"])),
           "release": None, "sealed": bool(np.any(cav > 0)), "note": ""}
    # sealed at the start of the pull: the cavity of the hold phase
    eps = 1e-9
    before = cav[t <= PULL_START + eps]
    if not out["sealed"]:
        out["note"] = "never sealed"
    elif before.size == 0 or before[-1] <= 0:
        out["note"] = "no cavity when the pull starts"
    after = np.nonzero((t > PULL_START + eps) & (cav <= 0))[0]
    if out["sealed"] and after.size:
        out["release"] = t[after[0]]
    elif out["sealed"]:
        out["note"] = (out["note"] + "; " if out["note"] else "") + "still sealed at the end"
    return out


def run_one(binary, mesh, nodes, dt, duration, outdir):
    res, layers = mesh
    name = f"ground_r{res}_l{layers}_dt{dt:g}"
    csv_path = os.path.join(outdir, name + ".csv")
    cmd = [binary, "run", SCENE] + mesh_args(mesh) + ["--dt", repr(dt), "--csv", csv_path, "-q"]
    if duration is not None:
        cmd += ["--duration", repr(duration)]
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    with open(os.path.join(outdir, name + ".log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
    steps = re.search(r"steps\s+(\d+) x", r.stdout)
    run = {"mesh": mesh, "nodes": nodes, "dt": dt, "wall": wall, "csv": csv_path,
           "steps": int(steps.group(1)) if steps else None, "ok": r.returncode == 0,
           "error": "", "data": None}
    if not run["ok"]:
        err = [line for line in r.stderr.strip().splitlines() if line.strip()]
        run["error"] = f"exit {r.returncode}: " + (err[-1] if err else "(no message)")
    if os.path.exists(csv_path):
        run["data"] = load_csv(csv_path)
    status = "ok" if run["ok"] else "FAILED (" + run["error"] + ")"
    print(f"run  r{res:<3d} l{layers}  {nodes:5d} nodes  dt {dt:<6g} s  wall {wall:8.1f} s  "
          f"{status}", flush=True)
    return run


def fmt(v, spec):
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def table(runs):
    lines = ["| mesh (res/layers) | nodes | dt [s] | min pressure [kPa] | t of min [s] | "
             "release [s] | peak hand force [N] | wall [s] | note |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    pmins = []
    for run in runs:
        a = run.get("analysis")
        note = "" if run["ok"] else "FAILED: " + run["error"]
        if a:
            note = "; ".join(x for x in (note, a["note"]) if x)
            pmins.append(a["p_min"])
        lines.append(
            f"| {run['mesh'][0]}/{run['mesh'][1]} | {run['nodes']} | {run['dt']:g} | "
            f"{fmt(a and a['p_min'] / 1e3, '.2f')} | {fmt(a and a['t_p_min'], '.3f')} | "
            f"{fmt(a and a['release'], '.3f')} | {fmt(a and a['force_max'], '.2f')} | "
            f"{run['wall']:.1f} | {note} |")
    lines.append("")

    def spread(values):
        values = np.asarray(values, dtype=float)
        return 100.0 * (values.max() - values.min()) / values.mean()

    if pmins:
        lines.append(f"Spread of the minimum pressure across all {len(pmins)} runs, "
                     f"(max - min) / mean: {spread(pmins):.1f} %")
        for label, sel in (("mesh series (dt 0.01 s)", lambda r: r["dt"] == 0.01),
                           ("time-step series (default mesh)",
                            lambda r: r["mesh"] == DEFAULT_MESH)):
            sub = [r["analysis"]["p_min"] for r in runs if r.get("analysis") and sel(r)]
            if len(sub) > 1:
                lines.append(f"  {label}: {spread(sub):.1f} % over {len(sub)} runs")
    return "\n".join(lines)


def figure(runs, path, title):
    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(8.0, 9.0))
    mesh_runs = [r for r in runs if r["dt"] == 0.01]
    colors = {}
    cmap = plt.get_cmap("viridis")
    for k, r in enumerate(sorted(mesh_runs, key=lambda r: r["nodes"])):
        colors[id(r)] = cmap(0.85 * k / max(1, len(mesh_runs) - 1))
    others = iter(["tab:red", "tab:orange", "tab:purple", "tab:brown", "tab:pink"])
    for r in runs:
        d = r["data"]
        if d is None:
            continue
        t = d["t"]
        p = np.where(d["cavities"] > 0, d["pressure_min"] / 1e3, np.nan)
        color = colors.get(id(r)) or next(others)
        style = "-" if r["dt"] == 0.01 else ("--" if r["dt"] > 0.01 else ":")
        label = f"{r['nodes']} nodes, dt = {r['dt']:g} s" + ("" if r["ok"] else " (failed)")
        kw = dict(color=color, linestyle=style, linewidth=1.4, label=label)
        axes[0].plot(t, p, **kw)
        axes[1].plot(t, d["volume_total"] * 1e6, **kw)
        axes[2].plot(t, d["air_total"] * 1e3, **kw)
    axes[0].set_ylabel("cavity pressure [kPa]")
    axes[1].set_ylabel("cavity volume [cm³]")
    axes[2].set_ylabel("air N = PV [mJ]")
    axes[2].set_xlabel("time [s]")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        for x in (0.5, PULL_START):   # the hand's phases: push, hold, pull
            ax.axvline(x, color="0.6", linewidth=0.8, linestyle="-.")
    for x, txt in ((0.0, "push"), (0.5, "hold"), (PULL_START, "pull")):
        axes[1].annotate(txt, (x, 1.0), xycoords=("data", "axes fraction"),
                         xytext=(3, -12), textcoords="offset points", fontsize=8, color="0.4")
    axes[0].legend(fontsize=8, loc="lower left", ncol=2)
    axes[0].set_title(title, fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suction", default=os.path.join(ROOT, "build", "native", "native", "suction"),
                    help="the suction CLI (default: build/native/native/suction)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "convergence"),
                    help="folder for the CSVs, logs and table (default: build/convergence)")
    ap.add_argument("--figure", default=None,
                    help="the figure (default: docs/img/convergence.png; "
                         "OUT/convergence_quick.png with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help="smoke version: two coarse meshes, dt 0.01 and 0.03, 1 s simulated")
    ap.add_argument("--budget", type=float, default=900.0,
                    help="largest estimated wall time [s] of the finest mesh at dt 0.001 "
                         "before it is skipped (default 900)")
    args = ap.parse_args()

    binary = args.suction
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        fail(f"suction binary not found or not executable: {binary} (build it: make native)")
    os.makedirs(args.out, exist_ok=True)
    figure_path = args.figure or (os.path.join(args.out, "convergence_quick.png") if args.quick
                                  else os.path.join(ROOT, "docs", "img", "convergence.png"))
    meshes, dts = (QUICK_MESHES, QUICK_DTS) if args.quick else (MESHES, DTS)
    duration = 1.0 if args.quick else None
    fine_dt = min(dts)

    nodes = {m: node_count(binary, m) for m in meshes}
    print("meshes: " + ", ".join(f"resolution {m[0]} layers {m[1]} -> {nodes[m]} nodes"
                                 for m in meshes), flush=True)

    # (a) every mesh at dt 0.01, then (b) the default mesh at the other time steps
    plan = [(m, 0.01) for m in meshes] + [(DEFAULT_MESH, dt) for dt in dts if dt != 0.01]
    runs = [run_one(binary, m, nodes[m], dt, duration, args.out) for m, dt in plan]

    finest = max(meshes, key=lambda m: nodes[m])
    if not args.quick and finest != DEFAULT_MESH:
        ref = next(r for r in runs if r["mesh"] == finest and r["dt"] == 0.01)
        if ref["ok"] and ref["steps"]:
            per_step = ref["wall"] / ref["steps"]
            steps = math.ceil(1.8 / fine_dt - 1e-9)
            estimate = per_step * steps
            if estimate <= args.budget:
                print(f"finest mesh at dt {fine_dt:g}: {per_step:.2f} s/step measured, "
                      f"~{estimate / 60:.0f} min estimated: running it", flush=True)
                runs.append(run_one(binary, finest, nodes[finest], fine_dt, duration, args.out))
            else:
                print(f"skipped: {nodes[finest]} nodes at dt {fine_dt:g} s: {per_step:.2f} s/step "
                      f"measured at dt 0.01, {steps} steps -> ~{estimate / 60:.0f} min estimated, "
                      f"over the budget of {args.budget / 60:.0f} min (--budget)", flush=True)
        else:
            print(f"skipped: {nodes[finest]} nodes at dt {fine_dt:g} s: its dt 0.01 run failed",
                  flush=True)

    for r in runs:
        if r["data"] is not None:
            r["analysis"] = analyse(r["data"])

    text = table(runs)
    print()
    print(text, flush=True)
    with open(os.path.join(args.out, "convergence.md"), "w") as f:
        f.write(text + "\n")

    title = ("Convergence, scenes/ground.json: push 0.5 s, hold 0.3 s, pull"
             + (" (quick)" if args.quick else ""))
    figure(runs, figure_path, title)
    print(f"\nfigure: {figure_path}", flush=True)

    failed = [r for r in runs if not r["ok"]]
    if failed:
        for r in failed:
            print(f"convergence: error: run failed: {r['nodes']} nodes, dt {r['dt']:g} s: "
                  f"{r['error']} (log: {r['csv'][:-4]}.log)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
