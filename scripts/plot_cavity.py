#!/usr/bin/python3
"""Plots a suction run's CSV (suction run SCENE --csv FILE): cavity pressure, volume and air
against time, plus a force probe, like the paper's Fig. 4.  Needs matplotlib
(Debian: apt-get install python3-matplotlib); used to make the PNGs under docs/img/.

usage: scripts/plot_cavity.py run.csv out.png "title" [force_probe] [extra_probe]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src, out, title = sys.argv[1], sys.argv[2], sys.argv[3]
    force = sys.argv[4] if len(sys.argv) > 4 else None
    extra = sys.argv[5] if len(sys.argv) > 5 else None
    rows = list(csv.DictReader(open(src)))
    t = [float(r["t"]) for r in rows]
    active = [int(r["cavities"]) > 0 for r in rows]

    def series(col, scale=1.0, only_active=True):
        return [float(r[col]) * scale if (a or not only_active) else float("nan")
                for r, a in zip(rows, active)]

    n = 4 if extra else 3
    fig, ax = plt.subplots(n, 1, sharex=True, figsize=(7, 2.0 * n + 0.6))
    ax[0].plot(t, series("pressure_min", 1e-3), color="tab:blue")
    ax[0].axhline(float(rows[0]["pressure_min"]) * 1e-3, color="gray", lw=0.8, ls="--")
    ax[0].set_ylabel("pressure [kPa]")
    ax[1].plot(t, series("volume_total", 1e9), color="tab:green", label="volume [mm³]")
    ax[1].set_ylabel("volume [mm³]")
    a2 = ax[1].twinx()
    a2.plot(t, series("air_total", 1e3), color="tab:red", label="air N [mJ]")
    a2.set_ylabel("air N = PV [mJ]", color="tab:red")
    if force:
        ax[2].plot(t, series(force, 1.0, False), color="black")
        ax[2].set_ylabel(force + " [N]")
        ax[2].axhline(0, color="gray", lw=0.8)
    if extra:
        ax[3].plot(t, series(extra, 1e3, False), color="tab:purple")
        ax[3].set_ylabel(extra + " [mm]")
    ax[-1].set_xlabel("time [s]")
    ax[0].set_title(title)
    for a in ax:
        a.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
