#!/usr/bin/python3
"""Plots probes of one or more suction runs' CSVs (suction run SCENE --csv FILE) against time, in
stacked panels: the story plots of docs/scenes.md (docs/img/cube_halves.png, air_tunnel.png,
pick_and_place.png).  Needs matplotlib (Debian: python3-matplotlib, scripts/install-deps.sh --plots).

usage: scripts/plot_story.py OUT.png CSV[=LABEL] ... [--title T]
                             --panel YLABEL --line EXPR[=LABEL] [--line ...] [--panel ...]
                             [--mark T=TEXT ...]

  CSV[=LABEL]     a run's CSV; with several, each line is drawn once per CSV, one colour per
                  CSV, labelled LABEL (default: the file's name)
  --panel YLABEL  starts a panel (an axis below the previous one) with that y label
  --line EXPR     a line of the current panel: a Python expression of the CSV's columns (the
                  probes' names; `first.COL` is the column's value at the first row; math's
                  functions: sqrt, hypot, ...), e.g. `object_z*1e3` or
                  `1e3*hypot(apple_x - first.apple_x, apple_y - first.apple_y)`; a constant
                  (no column) is drawn once, grey and dashed (a reference: `101.325=P_atm`)
  --mark T=TEXT   a dotted vertical line at time T on every panel, TEXT written at the top
  --title T       the figure's title

Example (docs/img/air_tunnel.png):
  scripts/plot_story.py docs/img/air_tunnel.png two.csv=two_cups one.csv=one_hole \\
      --panel "block centre z [mm]" --line "object_z*1e3" \\
      --panel "cavity pressure [kPa]" --line "pressure_a/1e3" --line "101.325=P_atm"
"""
import csv
import math
import os
import sys
import types

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FUNCS = {k: getattr(math, k) for k in ("sqrt", "hypot", "atan2", "degrees", "radians", "sin", "cos", "exp", "log")}
FUNCS.update(abs=abs, min=min, max=max)


def die(msg):
    sys.exit(f"plot_story.py: {msg}")


def parse(argv):
    o = types.SimpleNamespace(out=None, csvs=[], panels=[], marks=[], title=None)
    i = 0
    while i < len(argv):
        a = argv[i]

        def val():
            if i + 1 >= len(argv):
                die(f"{a} needs a value")
            return argv[i + 1]
        if a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif a == "--panel":
            o.panels.append((val(), []))
            i += 1
        elif a == "--line":
            if not o.panels:
                die("--line before any --panel")
            expr, _, label = val().partition("=")
            o.panels[-1][1].append((expr.strip(), label.strip() or expr.strip()))
            i += 1
        elif a == "--mark":
            t, _, text = val().partition("=")
            o.marks.append((float(t), text))
            i += 1
        elif a == "--title":
            o.title = val()
            i += 1
        elif a.startswith("-"):
            die(f"unknown option {a} (--help)")
        elif o.out is None:
            o.out = a
        else:
            path, _, label = a.partition("=")
            o.csvs.append((path, label or os.path.splitext(os.path.basename(path))[0]))
        i += 1
    if o.out is None or not o.csvs or not o.panels:
        die("usage: plot_story.py OUT.png CSV[=LABEL] ... --panel YLABEL --line EXPR ... (--help)")
    return o


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        die(f"{path}: no rows")
    return [{k: float(v) for k, v in r.items() if v not in (None, "")} for r in rows]


def series(rows, expr):
    code = compile(expr, expr, "eval")
    first = types.SimpleNamespace(**rows[0])
    out = []
    for r in rows:
        try:
            out.append(float(eval(code, {"__builtins__": {}, **FUNCS}, {**r, "first": first})))
        except NameError as e:
            die(f"--line {expr}: {e} (columns: {' '.join(rows[0])})")
    return out


def is_constant(expr, columns):
    return not (set(compile(expr, expr, "eval").co_names) & (set(columns) | {"first"}))


def main():
    o = parse(sys.argv[1:])
    runs = [(read(p), label) for p, label in o.csvs]
    n = len(o.panels)
    fig, ax = plt.subplots(n, 1, sharex=True, figsize=(7.5, 1.9 * n + 0.8), squeeze=False)
    ax = ax[:, 0]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    styles = ["-", "--", ":", "-."]
    for a, (ylabel, lines) in zip(ax, o.panels):
        k = 0
        drawn = [e for e, _ in lines if not is_constant(e, runs[0][0][0])]
        for expr, label in lines:
            if is_constant(expr, runs[0][0][0]):
                a.axhline(series(runs[0][0][:1], expr)[0], color="0.5", lw=0.9, ls="--", label=label)
                continue
            for j, (rows, run_label) in enumerate(runs):
                t = [r["t"] for r in rows]
                if len(runs) > 1:
                    colour, style = colours[j % len(colours)], styles[k % len(styles)]
                    name = run_label if len(drawn) == 1 else f"{run_label}: {label}"
                else:
                    colour, style, name = colours[k % len(colours)], "-", label
                a.plot(t, series(rows, expr), color=colour, ls=style, lw=1.3, label=name)
            k += 1
        a.set_ylabel(ylabel)
        a.grid(alpha=0.3)
        if len(runs) > 1 or len(lines) > 1:
            a.legend(fontsize=8, loc="best")
        for t, _ in o.marks:
            a.axvline(t, color="0.6", lw=0.8, ls=":")
    for t, text in o.marks:
        if text:
            ax[0].annotate(text, (t, 1.0), xycoords=("data", "axes fraction"), xytext=(0, 3),
                           textcoords="offset points", fontsize=8, color="0.35", ha="center")
    ax[-1].set_xlabel("time [s]")
    if o.title:
        ax[0].set_title(o.title, pad=14 if o.marks else 6)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(o.out)), exist_ok=True)
    fig.savefig(o.out, dpi=90)
    print(f"plot_story.py: {o.out}")


if __name__ == "__main__":
    main()
