"""Runs the suction CLI on a scene for the sweep scripts (masses, curved_surfaces, popup_toy,
pull_test, cup_shapes, low_friction, organic_object) and reads its CSV; the story scripts'
common options."""
import argparse
import csv
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
