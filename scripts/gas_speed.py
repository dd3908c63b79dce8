#!/usr/bin/python3
"""The air's heat against the pull speed (issue 51): the pull test on the R = 31.5 mm cylinder,
pulled at each speed with each gas law (isothermal, exchange with the thermal time constant tau,
adiabatic; docs/method.md §6.8), its peak pull (the detachment force), lowest pressure and lowest
air temperature in a table, and the peak against the speed in a figure.

    gas_speed.py [--suction build/native/native/suction] [--out build/gas_speed]
                 [--figure docs/img/gas_speed.png] [--speeds 2,5,10,20,50,100] [--tau 0.043]
                 [--set POINTER=VALUE ...] [--jobs N]

One `suction sweep` over the laws and the speeds (CSVs in OUT/runs).  --set options go to every
run (e.g. the fitted /materials/neoprene/young).  Each run pulls 25 mm at its speed (the scene's
pull is 2.2 s long whatever the speed) and ends 0.1 s after.
Needs matplotlib (Debian: python3-matplotlib).
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import save_figure, story_args, sweep  # noqa: E402

LAWS = ["isothermal", "exchange", "adiabatic"]


def extra(ap):
    ap.add_argument("--speeds", default="2,5,10,20,50,100")
    ap.add_argument("--tau", type=float, default=0.043,
                    help="exchange's thermal time constant [s] (docs/method.md §6.8: the air layer at the peak pull)")
    ap.add_argument("--set", action="append", default=[], dest="sets")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))


def main():
    a = story_args(__doc__, "gas_speed", extra)
    speeds = [float(s) for s in a.speeds.split(",")]
    # press 0.8 s and hold 0.3 s, then a pull of 25 mm at the speed (the cup lets go within about
    # 13 mm), and the run ends 0.1 s after it
    sets = ["/parameters/R_mm=31.5", '/settings/cavity/gas={"tau": %g}' % a.tau,
            '/drivers/0/segments/2={"move": [0, 0, 0.025], "duration": "=25/speed_mm_s"}',
            '/settings/duration="=1.2+25/speed_mm_s"']
    results = sweep(a.suction, "pull_test.json",
                    [("/settings/cavity/gas/law", LAWS), ("/parameters/speed_mm_s", [f"{s:g}" for s in speeds])],
                    a.out, sets + a.sets, a.jobs)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    print(f"pull test, R = 31.5 mm, tau = {a.tau * 1e3:g} ms ({' '.join(a.sets) or 'the scene as written'})")
    print("| pull speed mm/s | " + " | ".join(f"{law}: peak N, P_min kPa, T_min K" for law in LAWS) + " |")
    print("|---:|" + "---|" * len(LAWS))
    peaks = {law: [] for law in LAWS}
    failed = False
    for s in speeds:
        cells = []
        for law in LAWS:
            data = results[(law, f"{s:g}")]
            if data is None:
                failed = True
                cells.append("failed")
                peaks[law].append(float("nan"))
                continue
            peak = max(float(r["pull_force"]) for r in data)
            pmin = min(float(r["pressure_min"]) for r in data)
            tmin = min(float(r["temperature_min"]) for r in data) if "temperature_min" in data[0] else 293.15
            peaks[law].append(peak)
            cells.append(f"{peak:.2f}, {pmin / 1e3:.1f}, {tmin:.1f}")
        print(f"| {s:g} | " + " | ".join(cells) + " |")
    for law, style in zip(LAWS, ["o-", "s-", "^-"]):
        ax.plot(speeds, peaks[law], style, label=law + (f" (tau {a.tau * 1e3:g} ms)" if law == "exchange" else ""))
    ax.set_xscale("log")
    ax.set_xlabel("pull speed [mm/s]")
    ax.set_ylabel("peak pull [N]")
    ax.set_title("pull test, R = 31.5 mm: the detachment force against the pull speed")
    ax.grid(True, which="both", lw=0.3)
    ax.legend()
    save_figure(fig, a.figure, "gas_speed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
