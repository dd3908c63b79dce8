#!/usr/bin/python3
"""The pop-up toy (scenes/popup_toy.json) at several leak rates: prints when the cup sealed and
let go, how long it held after the hand let go, and how high the base jumped; draws head and base
height, cavity pressure and holding force against time, one line per leak rate.

    popup_toy.py [--suction build/native/native/suction] [--out build/popup_toy]
                 [--figure docs/img/popup_toy.png] [--leaks 4,8,16]

Needs matplotlib (Debian: python3-matplotlib).  Exits 1 if a run fails.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import DEFAULT_CLI, ROOT, run_scene  # noqa: E402
HAND_OFF = 0.95  # s: the hand's force is zero from here (the scene's keyframes)


def run(suction, leak, duration, out):
    return run_scene(suction, "popup_toy.json", out,
                     [f"/parameters/leak_mj_per_s={leak:g}", f"/settings/duration={duration:g}"], f"leak {leak:g} mJ/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suction", default=DEFAULT_CLI)
    ap.add_argument("--out", default=os.path.join(ROOT, "build/popup_toy"))
    ap.add_argument("--figure", default=os.path.join(ROOT, "docs/img/popup_toy.png"))
    ap.add_argument("--leaks", default="4,8,16", help="leak rates [mJ/s]")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    leaks = [float(x) for x in a.leaks.split(",")]
    fig, ax = plt.subplots(4, 1, figsize=(8, 10), sharex=True)
    print("| leak | sealed at | let go at | held after the hand let go | base jump | head jump |")
    print("|---|---|---|---|---|---|")
    failed = False
    for leak in leaks:
        rows = run(a.suction, leak, 5.0 if leak < 6 else 4.0, os.path.join(a.out, f"leak{leak:g}.csv"))
        if rows is None:
            failed = True
            continue
        t = [float(r["t"]) for r in rows]
        cav = [int(r["cavities"]) for r in rows]
        head = [float(r["head_z"]) for r in rows]
        base = [float(r["base_z"]) for r in rows]
        sealed = next((t[i] for i in range(len(t)) if cav[i] > 0), None)
        let_go = next((t[i] for i in range(len(t)) if sealed is not None and t[i] > sealed and cav[i] == 0), None)
        if let_go is None:
            print(f"| {leak:g} mJ/s | {sealed} s | not within {t[-1]:.1f} s | | | |")
        else:
            after = [i for i in range(len(t)) if t[i] >= let_go]
            print(f"| {leak:g} mJ/s | {sealed:.3f} s | {let_go:.3f} s | {let_go - HAND_OFF:.2f} s | "
                  f"{max(base[i] for i in after) - base[0]:.2f} mm | {max(head[i] for i in after) - head[0]:.2f} mm |")
        label = f"leak {leak:g} mJ/s"
        ax[0].plot(t, head, label=label)
        ax[1].plot(t, base, label=label)
        ax[2].plot(t, [float(r["pressure"]) / 1e3 for r in rows], label=label)
        ax[3].plot(t, [float(r["hold"]) for r in rows], label=label)
    ax[0].set_ylabel("head centre z [mm]")
    ax[1].set_ylabel("base centre z [mm]")
    ax[2].set_ylabel("cavity pressure [kPa]")
    ax[3].set_ylabel("holding force [N]")
    ax[3].set_xlabel("t [s] (hand pushes 0.2-0.95 s)")
    for x in ax:
        x.grid(alpha=0.3)
        x.axvline(HAND_OFF, color="0.6", lw=0.8, ls="--")
    ax[0].legend()
    fig.suptitle("popup_toy: push, stick, leak, jump")
    fig.tight_layout()
    os.makedirs(os.path.dirname(a.figure), exist_ok=True)
    fig.savefig(a.figure, dpi=90)
    print(f"figure: {os.path.relpath(a.figure, ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
