#!/usr/bin/python3
"""The paper's curved surfaces (scenes/curved_surfaces.json): the pull test's cup on convex and
concave cylinder segments of several radii, pressed, held and pulled off a heavy object.  Prints,
for each radius and sign, whether a seal formed, when it let go (the pull starts at 1.1 s), and
the peak pulling force; with --lift, also whether a light object (0.2 kg) is lifted.  Draws the
pulling force against time, one line per run.

    curved_surfaces.py [--suction build/native/native/suction] [--out build/curved_surfaces]
                       [--figure docs/img/curved_surfaces.png] [--radii 100,50,31.5,25,20] [--lift] [--reuse]
                       [--jobs N]

The runs are `suction sweep`s over sign x radius (--jobs at a time; CSVs in OUT/heavy/runs and
OUT/light/runs); --reuse resumes an earlier sweep in OUT instead of starting anew.  Needs matplotlib (Debian: python3-matplotlib).  Exits 1 if a run fails.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import DEFAULT_CLI, ROOT, sweep  # noqa: E402
PULL_START = 1.1  # s: press 0.8 s, hold 0.3 s (the scene's segments)


def run_all(a, radii, mass, out):
    """every sign and radius (R = 0 once: flat) at mass_kg = mass, as one sweep: {(sign, R): rows}"""
    grid = [("/parameters/sign", ["1", "-1"]), ("/parameters/R_mm", ["0"] + [f"{r:g}" for r in radii])]
    # concave flat is flat: that one extra run of the grid is not shown
    results = sweep(a.suction, "curved_surfaces.json", grid, out, [f"/parameters/mass_kg={mass:g}"], a.jobs, a.reuse)
    return {(int(s), float(r)): rows for (s, r), rows in results.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suction", default=DEFAULT_CLI)
    ap.add_argument("--out", default=os.path.join(ROOT, "build/curved_surfaces"))
    ap.add_argument("--figure", default=os.path.join(ROOT, "docs/img/curved_surfaces.png"))
    ap.add_argument("--radii", default="100,50,31.5,25,20", help="radii [mm]")
    ap.add_argument("--lift", action="store_true", help="also lift a 0.2 kg object on each")
    ap.add_argument("--reuse", action="store_true", help="resume the sweeps of an earlier run in --out instead of starting anew")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="runs at a time")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    radii = [float(r) for r in a.radii.split(",")]
    cases = [(1, 0.0)] + [(s, r) for r in radii for s in (1, -1)]
    heavy = run_all(a, radii, 10, os.path.join(a.out, "heavy"))
    light = run_all(a, radii, 0.2, os.path.join(a.out, "light")) if a.lift else {}
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
    print("| surface | seal formed | let go at | peak pull | lowest pressure |"
          + (" 0.2 kg lifted |" if a.lift else ""))
    print("|---|---|---|---|---|" + ("---|" if a.lift else ""))
    failed = False
    for sign, radius in cases:
        name = "flat" if radius == 0 else f"{'convex' if sign > 0 else 'concave'} R = {radius:g} mm"
        rows = heavy[(sign, radius)]
        if rows is None:
            failed = True
            continue
        t = [float(r["t"]) for r in rows]
        cav = [int(r["cavities"]) for r in rows]
        force = [float(r["hand_force"]) for r in rows]
        pmin = min(float(r["pressure"]) for r in rows)
        sealed = any(c > 0 for c in cav)
        first = next((i for i, c in enumerate(cav) if c > 0), None)
        last = max((i for i, c in enumerate(cav) if c > 0), default=None)  # the final release
        let_go = t[last + 1] if last is not None and last + 1 < len(t) else None
        peak = max(f for tt, f in zip(t, force) if tt > PULL_START)
        when = "no seal" if first is None else "held to the end" if let_go is None else f"{let_go:.2f} s"
        line = f"| {name} | {'yes' if sealed else 'no'} | {when} | {peak:.2f} N | {pmin / 1e3:.1f} kPa |"
        if a.lift:
            lifted_rows = light[(sign, radius)]
            lifted = lifted_rows is not None and max(float(r["object_lift"]) for r in lifted_rows) > 20
            line += f" {'yes' if lifted else 'no'} |"
        print(line)
        (ax[0] if sign > 0 else ax[1]).plot(t, force, label=name)
        if radius == 0:
            ax[1].plot(t, force, label=name, color="0.5")
    ax[0].set_title("convex (and flat)")
    ax[1].set_title("concave (and flat)")
    for x in ax:
        x.set_xlabel("t [s] (press 0-0.8 s, hold, pull from 1.1 s)")
        x.grid(alpha=0.3)
        x.legend(fontsize=8)
    ax[0].set_ylabel("pulling force on the handle [N]")
    fig.suptitle("curved_surfaces: the pull test's cup on cylinder segments")
    fig.tight_layout()
    os.makedirs(os.path.dirname(a.figure), exist_ok=True)
    fig.savefig(a.figure, dpi=90)
    print(f"figure: {os.path.relpath(a.figure, ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
