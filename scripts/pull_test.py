#!/usr/bin/python3
"""The pull test (the paper's Fig. 14) on flat and on cylinders: runs scenes/pull_test.json for
each radius, prints the table of peak pulling force and lowest cavity pressure next to the
paper's simulated values, and draws the pulling force against time, one line per radius.

    pull_test.py [--suction build/native/native/suction] [--out build/pull_test]
                 [--figure docs/img/pull_test_radii.png] [--radii 0,50,31.5,25,20]
                 [--set POINTER=VALUE ...] [--jobs N]

The runs are one `suction sweep` over the radii (--jobs at a time; CSVs in OUT/runs, the
sweep's table in OUT/sweep.csv).  R = 0 is the flat surface.  Extra --set options go to every run (for example
--set /parameters/press_N=5 or --set /settings/cavity/sealing_distance=3e-4).
Needs matplotlib (Debian: python3-matplotlib).  Exits 1 if a run fails.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import DEFAULT_CLI, ROOT, sweep  # noqa: E402
# the paper's simulated cup (Fig. 14); no seal at R = 20 mm
PAPER = {50.0: "28.19", 31.5: "24.39", 25.0: "22.60", 20.0: "no seal"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suction", default=DEFAULT_CLI)
    ap.add_argument("--out", default=os.path.join(ROOT, "build/pull_test"))
    ap.add_argument("--figure", default=os.path.join(ROOT, "docs/img/pull_test_radii.png"))
    ap.add_argument("--radii", default="0,50,31.5,25,20")
    ap.add_argument("--set", action="append", default=[], dest="sets")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="runs at a time")
    a = ap.parse_args()
    if not os.access(a.suction, os.X_OK):
        sys.exit(f"pull_test.py: no suction CLI at {a.suction} (make native)")
    os.makedirs(a.out, exist_ok=True)
    rows, failed = [], []
    fig, ax = plt.subplots(figsize=(7, 3.6))
    radii = [float(x) for x in a.radii.split(",")]
    results = sweep(a.suction, "pull_test.json", [("/parameters/R_mm", [f"{r:g}" for r in radii])], a.out,
                    a.sets, a.jobs)
    for r in radii:
        data = results[(f"{r:g}",)]
        if data is None:
            failed.append(r)
            continue
        t = [float(x["t"]) for x in data]
        f = [float(x["pull_force"]) for x in data]
        sealed = [int(x["cavities"]) > 0 for x in data]
        peak = max(f)
        pmin = min(float(x["pressure_min"]) for x in data)
        label = "flat" if r == 0 else f"R = {r:g} mm"
        rows.append((label, r, peak if any(sealed) else None, pmin if any(sealed) else None))
        ax.plot(t, f, lw=1.2, label=label)
    ax.axhline(0, color="0.6", lw=0.6)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("pulling force [N]")
    ax.set_title("pull_test: force on the handle (press, hold, pull at constant speed)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(a.figure)), exist_ok=True)
    fig.savefig(a.figure, dpi=110)
    print("\n| surface | peak pulling force [N] | lowest pressure [kPa] | the paper's simulation [N] |")
    print("|---|---|---|---|")
    for label, r, peak, pmin in rows:
        paper = PAPER.get(r, "")
        if peak is None:
            print(f"| {label} | no seal | | {paper} |")
        else:
            print(f"| {label} | {peak:.2f} | {pmin / 1000:.1f} | {paper} |")
    print(f"\nfigure: {a.figure}")
    if failed:
        sys.exit(f"pull_test.py: runs failed for R = {', '.join(f'{r:g}' for r in failed)}")


if __name__ == "__main__":
    main()
