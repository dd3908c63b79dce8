#!/usr/bin/env python3
"""The paper's cup shapes (scenes/cup_shapes_*.json): runs the three designs, prints a table and
draws docs/img/cup_shapes.png: each cup's cross-section (the plane y = 0) at rest, pressed and
hanging, and the probes of the three runs.

Needs matplotlib (Debian: python3-matplotlib).  Exits 1 if a run fails."""
import math
import os
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from suction_cli import ROOT, run_scene, save_figure, story_args  # noqa: E402

DESIGNS = ("plunger", "octopus", "store")
FRAMES = ((0, "at rest", "0.6"), (8, "pressed (0.8 s)", "tab:blue"), (20, "hanging (2.0 s)", "tab:red"))


def read_vtu(path):
    text = open(path).read()

    def array(name):
        m = re.search(r'Name="%s"[^>]*>(.*?)</DataArray>' % name, text, re.S)
        return [float(v) for v in m.group(1).split()]

    p = array("Points")
    points = [p[i:i + 3] for i in range(0, len(p), 3)]
    conn, offsets = [int(v) for v in array("connectivity")], [int(v) for v in array("offsets")]
    cells, start = [], 0
    for end in offsets:
        cells.append(conn[start:end])
        start = end
    return points, cells


def section(points, cells):
    """the polygons where the tets cross the plane y = 0, as (x, z) lists"""
    polys = []
    for c in cells:
        if len(c) != 4:
            continue
        pts = []
        for a in range(4):
            for b in range(a + 1, 4):
                pa, pb = points[c[a]], points[c[b]]
                if (pa[1] < 0) != (pb[1] < 0):
                    s = pa[1] / (pa[1] - pb[1])
                    pts.append((pa[0] + s * (pb[0] - pa[0]), pa[2] + s * (pb[2] - pa[2])))
        if len(pts) >= 3:
            cx, cz = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
            pts.sort(key=lambda p: math.atan2(p[1] - cz, p[0] - cx))
            polys.append(pts)
    return polys


def main():
    a = story_args(__doc__, "cup_shapes")
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5))
    print("| design | roof after the press | shoulder after the press | lowest pressure | lifted | hand force hanging |")
    print("|---|---|---|---|---|---|")
    failed = False
    for k, d in enumerate(DESIGNS):
        scene = f"cup_shapes_{d}.json"
        frames = os.path.join(a.out, d)
        subprocess.run([a.suction, "run", os.path.join(ROOT, "scenes", scene), "-q", "--frames", frames,
                        "--every", "10"], check=True, capture_output=True)
        rows = run_scene(a.suction, scene, os.path.join(a.out, d + ".csv"), [], d)
        if rows is None:
            failed = True
            continue
        ax = axes[0][k]
        for f, label, colour in FRAMES:
            cup, cells = read_vtu(os.path.join(frames, f"cup_{f:06d}.vtu"))
            cube, _ = read_vtu(os.path.join(frames, f"cube_{f:06d}.vtu"))
            top = max(p[2] for p in cube)
            for i, poly in enumerate(section(cup, cells)):
                ax.fill([1e3 * p[0] for p in poly], [1e3 * (p[1] - top) for p in poly], color=colour,
                        alpha=0.3, lw=0, label=label if i == 0 else None)
        ax.axhline(0, color="k", lw=0.8)
        ax.set_aspect("equal")
        ax.set_title(d)
        ax.set_xlabel("x [mm]")
        ax.set_ylabel("height above the cube [mm]")
        if k == 0:
            ax.legend(loc="upper right", fontsize=8)
        t = [float(r["t"]) for r in rows]
        cube_top = [1e3 * float(r["object_z"]) + 25 for r in rows]
        axes[1][0].plot(t, [1e3 * float(r["roof_z"]) - c for r, c in zip(rows, cube_top)], label=d)
        axes[1][1].plot(t, [1e3 * float(r["shoulder_z"]) - c for r, c in zip(rows, cube_top)], label=d)
        axes[1][2].plot(t, [float(r["pressure"]) / 1e3 for r in rows], label=d)
        i8 = min(range(len(t)), key=lambda i: abs(t[i] - 0.8))
        roof, shoulder = (1e3 * float(rows[i8]["roof_z"]) - cube_top[i8]) / (1e3 * float(rows[0]["roof_z"]) - 50), \
            (1e3 * float(rows[i8]["shoulder_z"]) - cube_top[i8]) / (1e3 * float(rows[0]["shoulder_z"]) - 50)
        tail = [float(r["hand_force"]) for r in rows if float(r["t"]) > t[-1] - 0.3]
        print(f"| {d} | {roof:.2f} of its height | {shoulder:.2f} | {min(float(r['pressure']) for r in rows) / 1e3:.1f} kPa "
              f"| {cube_top[-1] - 50:.1f} mm | {sum(tail) / len(tail):.3f} N |")
    for ax, title in zip(axes[1], ("roof (axis) above the cube [mm]", "shoulder (70-80 % radius) above the cube [mm]",
                                   "cavity pressure [kPa]")):
        ax.set_title(title)
        ax.set_xlabel("t [s]")
        ax.legend(fontsize=8)
    save_figure(fig, a.figure, "cup_shapes")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
