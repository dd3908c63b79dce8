"""Runs the suction CLI on a scene for the sweep scripts (masses, curved_surfaces, popup_toy,
pull_test, cup_shapes, low_friction, organic_object) and reads its CSV; the story scripts'
common options.  Scripts whose runs form a grid go through `suction sweep` (sweep() below): its
processes, --jobs at a time, and its table of outcomes."""
import argparse
import csv
import itertools
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CLI = os.path.join(ROOT, "build/native/native/suction")


def run_scene(suction, scene, out, sets, label, reuse=False):
    """`suction run scenes/SCENE -q --csv OUT --set S ...`; the CSV's rows, or None (reported on
    stderr under `label`) when the run fails.  reuse: read OUT if it exists instead of running."""
    if not (reuse and os.path.exists(out)):
        cmd = [suction, "run", os.path.join(ROOT, "scenes", scene), "-q", "--csv", out]
        for s in sets:
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{label}: failed (exit {p.returncode}): {p.stderr.strip()[-400:]}", file=sys.stderr)
            return None
    with open(out) as f:
        return list(csv.DictReader(f))


def sweep(suction, scene, grid, out, sets=(), jobs=1, reuse=False):
    """`suction sweep scenes/SCENE --grid P=V1,V2,... --out OUT/sweep.csv --runs-dir OUT/runs
    --jobs N [--set S ...]`: every combination of grid (a list of (pointer, [values])), the first
    axis varying slowest.  Returns {values tuple (as strings): the run's CSV rows, or None when it
    failed (reported on stderr with its error)}.  reuse: keep the table of an earlier sweep in
    OUT, so only the combinations missing from it run (suction sweep resumes); else start anew."""
    table = os.path.join(out, "sweep.csv")
    runs = os.path.join(out, "runs")
    os.makedirs(runs, exist_ok=True)
    if not reuse and os.path.exists(table):
        os.remove(table)
    cmd = [suction, "sweep", os.path.join(ROOT, "scenes", scene), "--out", table, "--runs-dir", runs,
           "--jobs", str(jobs)]
    for pointer, values in grid:
        cmd += ["--grid", f"{pointer}=" + ",".join(str(v) for v in values)]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd)  # its progress lines go to the terminal
    if p.returncode not in (0, 1):  # 1: some run failed (a row says which)
        sys.exit(f"suction sweep failed (exit {p.returncode}): {' '.join(cmd)}")
    with open(table) as f:
        rows = list(csv.DictReader(f))
    pointers = [pointer for pointer, _ in grid]
    by_values = {tuple(r[q] for q in pointers): r for r in rows}
    result = {}
    for k, values in enumerate(itertools.product(*[[str(v) for v in vs] for _, vs in grid])):
        row = by_values.get(values)
        label = " ".join(f"{q}={v}" for q, v in zip(pointers, values))
        if row is None or row["status"] != "ok":
            print(f"{label}: failed" + (f" (exit {row['exit_code']}): {row['error']}" if row else ""), file=sys.stderr)
            result[values] = None
            continue
        with open(os.path.join(runs, f"run_{k}.csv")) as f:
            result[values] = list(csv.DictReader(f))
    return result


def story_args(doc, name, extra=None):
    """The options of a story script NAME: --suction (the CLI, which must exist), --out
    (build/NAME, created) and --figure (docs/img/NAME.png); `extra(parser)` adds its own."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--suction", default=DEFAULT_CLI)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", name))
    ap.add_argument("--figure", default=os.path.join(ROOT, "docs", "img", name + ".png"))
    if extra:
        extra(ap)
    a = ap.parse_args()
    if not os.access(a.suction, os.X_OK):
        sys.exit(f"{name}.py: no suction CLI at {a.suction} (make native)")
    os.makedirs(a.out, exist_ok=True)
    return a


def save_figure(fig, path, name):
    """tight layout, 80 dpi, and the path printed"""
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    print(f"{name}.py: {path}")
