#!/usr/bin/env python3
"""The paper's low friction scene (scenes/low_friction.json): runs it for several friction
coefficients between the cup and the cube, prints a table and draws docs/img/low_friction.png
(the cube's height, how far its centre moved sideways, and the cavity pressure).

Needs matplotlib (Debian: python3-matplotlib).  Exits 1 if a run fails."""
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import ROOT, run_scene, save_figure, story_args  # noqa: E402


def main():
    a = story_args(__doc__, "low_friction", lambda ap: ap.add_argument("--mu", default="0,0.002,0.01,0.05,0.8"))
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    print("| mu | lifted at most | let go at | cube centre moved sideways | cube at the end |")
    print("|---|---|---|---|---|")
    failed = False
    for mu in [float(m) for m in a.mu.split(",") if m]:
        rows = run_scene(a.suction, "low_friction.json", os.path.join(a.out, f"mu{mu:g}.csv"),
                         [f"/parameters/mu={mu:g}"], f"mu {mu:g}")
        if rows is None:
            failed = True
            continue
        t = [float(r["t"]) for r in rows]
        rise = [1e3 * float(r["object_z"]) - 25 for r in rows]
        side = [1e3 * math.hypot(float(r["cube_x"]), float(r["cube_y"])) for r in rows]
        axes[0].plot(t, rise, label=f"mu = {mu:g}")
        axes[1].plot(t, side, label=f"mu = {mu:g}")
        axes[2].plot(t, [float(r["pressure"]) / 1e3 for r in rows], label=f"mu = {mu:g}")
        sealed = [i for i, r in enumerate(rows) if int(r["cavities"]) > 0]
        let_go = next((t[i] for i in range(sealed[0], len(rows)) if int(rows[i]["cavities"]) == 0), None) if sealed else None
        print(f"| {mu:g} | {max(rise):.1f} mm | {f'{let_go:.2f} s' if let_go else 'held'} | "
              f"{max(side):.2f} mm | {rise[-1]:+.1f} mm |")
    for ax, title in zip(axes, ("rise of the cube [mm]", "cube centre moved sideways [mm]", "cavity pressure [kPa]")):
        ax.set_title(title)
        ax.set_xlabel("t [s]")
        ax.legend(fontsize=8)
    save_figure(fig, a.figure, "low_friction")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
