#!/usr/bin/python3
"""The paper's masses scene: one cup lifting rigid cubes of several masses (scenes/masses.json)
and two cups lifting the heaviest (scenes/masses_two_cups.json).  Prints a table (lifted or
not, lowest cavity pressure, how high the cube ends, the hand force at the end against the
weights) and draws hand force, cavity pressure and cube height against time, one line per run.

    masses.py [--suction build/native/native/suction] [--out build/masses]
              [--figure docs/img/masses.png] [--masses 1.25,2.5,5,7] [--two 7] [--jobs N]

The runs are one `suction sweep` per scene over the masses (--jobs at a time; CSVs in
OUT/one/runs and OUT/two/runs).  Needs matplotlib (Debian: python3-matplotlib).  Exits 1 if a run fails.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import DEFAULT_CLI, ROOT, sweep  # noqa: E402
G = 9.81


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suction", default=DEFAULT_CLI)
    ap.add_argument("--out", default=os.path.join(ROOT, "build/masses"))
    ap.add_argument("--figure", default=os.path.join(ROOT, "docs/img/masses.png"))
    ap.add_argument("--masses", default="1.25,2.5,5,7")
    ap.add_argument("--two", default="7", help="masses for the two-cup scene ('' for none)")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="runs at a time")
    a = ap.parse_args()
    if not os.access(a.suction, os.X_OK):
        sys.exit(f"masses.py: no suction CLI at {a.suction} (make native)")
    os.makedirs(a.out, exist_ok=True)
    runs = [("masses.json", float(m), ["hand_force"], "one cup") for m in a.masses.split(",") if m]
    runs += [("masses_two_cups.json", float(m), ["hand_a_force", "hand_b_force"], "two cups")
             for m in a.two.split(",") if m]
    results = {}
    for scene, sub in (("masses.json", "one"), ("masses_two_cups.json", "two")):
        masses = [f"{m:g}" for s, m, _, _ in runs if s == scene]
        if masses:
            swept = sweep(a.suction, scene, [("/parameters/mass_kg", masses)], os.path.join(a.out, sub), jobs=a.jobs)
            results.update({(scene, float(m)): rows for (m,), rows in swept.items()})
    fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 7.2))
    failed = False
    print("| cups | cube | lifted | lowest pressure | cube centre at the end | hand force at the end |")
    print("|---|---|---|---|---|---|")
    for scene, mass, hands, label in runs:
        d = results[(scene, mass)]
        if d is None:
            failed = True
            continue
        t = [float(r["t"]) for r in d]
        hand = [sum(float(r[h]) for h in hands) for r in d]
        z = [1e3 * float(r["object_z"]) for r in d]
        sealed = [int(r["cavities"]) > 0 for r in d]
        p = [1e-3 * float(r["pressure_min"]) if s else float("nan") for r, s in zip(d, sealed)]
        lifted = max(z) - z[0] > 1.0
        pmin = min((x for x in p if x == x), default=float("nan"))
        tail = [h for tt, h in zip(t, hand) if tt > t[-1] - 0.3 + 1e-9]
        print(f"| {label} | {mass:g} kg | {'yes' if lifted else 'no'} | {pmin:.1f} kPa | {z[-1]:.1f} mm | "
              f"{sum(tail) / len(tail):.2f} N (last 0.3 s) |")
        name = f"{label}, {mass:g} kg"
        style = "--" if label == "two cups" else "-"
        ax[0].plot(t, hand, style, label=name)
        ax[1].plot(t, p, style, label=name)
        ax[2].plot(t, z, style, label=name)
    ax[0].set_ylabel("hand force [N]\n(+ pulling up)")
    ax[1].set_ylabel("cavity pressure [kPa]")
    ax[2].set_ylabel("cube centre z [mm]")
    ax[2].set_xlabel("time [s]")
    ax[0].legend(fontsize=8, ncol=2)
    for x in ax:
        x.grid(alpha=0.3)
    ax[0].set_title("masses: push 0.5 s, hold 0.3 s, pull 40 mm in 1.6 s")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(a.figure)), exist_ok=True)
    fig.savefig(a.figure, dpi=110)
    print(f"\nfigure: {a.figure}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
