"""Runs the suction CLI on a scene for the sweep scripts (masses, curved_surfaces, popup_toy,
pull_test) and reads its CSV."""
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
