#!/usr/bin/env python3
"""The paper's organic object (scenes/organic_object.json): runs it, prints its story in numbers
and draws docs/img/organic_object.png (the bunny's rise, the cavity pressure, the hand force).

Needs matplotlib (Debian: python3-matplotlib).  Exits 1 if the run fails."""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import ROOT, run_scene, save_figure, story_args  # noqa: E402


def main():
    a = story_args(__doc__, "organic_object")
    rows = run_scene(a.suction, "organic_object.json", os.path.join(a.out, "organic_object.csv"), [], "organic_object")
    if rows is None:
        sys.exit(1)
    t = [float(r["t"]) for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    axes[0].plot(t, [1e3 * float(r["bunny_lift"]) for r in rows])
    axes[0].set_title("rise of the bunny's centre of mass [mm]")
    axes[1].plot(t, [float(r["pressure"]) / 1e3 for r in rows])
    axes[1].set_title("cavity pressure [kPa]")
    axes[2].plot(t, [float(r["hand_force"]) for r in rows], label="hand (+ = pulling)")
    axes[2].plot(t, [float(r["suction"]) for r in rows], label="suction (P_atm - P) A")
    axes[2].set_title("forces [N]")
    axes[2].legend(fontsize=8)
    for ax in axes:
        ax.set_xlabel("t [s]")
    save_figure(fig, a.figure, "organic_object")
    sealed = next((t[i] for i, r in enumerate(rows) if int(r["cavities"]) > 0), None)
    tail = [r for r in rows if float(r["t"]) > t[-1] - 0.3]
    print(f"sealed at {sealed:.2f} s; lowest pressure {min(float(r['pressure']) for r in rows) / 1e3:.1f} kPa; "
          f"lifted {1e3 * float(rows[-1]['bunny_lift']):.1f} mm; hand hanging "
          f"{sum(float(r['hand_force']) for r in tail) / len(tail):.3f} N; suction "
          f"{sum(float(r['suction']) for r in tail) / len(tail):.3f} N")


if __name__ == "__main__":
    main()
