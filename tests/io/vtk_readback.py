#!/usr/bin/env python3
"""ParaView output read back by VTK's own XML reader (Debian's python3-vtk9), with physics checks.

    vtk_readback.py SUCTION_BIN SCENES_DIR WORK_DIR

1. block_on_ground: a 1 kg block at rest.  Every frame of the three series parses; at the last
   frame the contact forces on the block sum to its weight (1 %) with no net friction, and
   `normal_force` + `friction_force` = `force` at every contact.
2. pull_test: the cup held by suction, then pulled off.  In every frame with a cavity its
   `pressure` and `volume` equal the CSV's cavity_pressure and cavity_volume of the same step
   (1e-9), the volume VTK itself computes of the written surface (vtkMassProperties) equals
   `volume` (1e-6: the surface is the closed cavity that was measured), `gauge_pressure` =
   pressure - P_atm; the cup's `von_mises` equals the von Mises stress VTK's array of the
   written `stress` tensor gives; its `displacement` is the points' motion since frame 0; and
   the cup's largest von Mises stress under vacuum exceeds the one at rest.

Collections (.pvd) are parsed with xml.etree: VTK 9.1 has no .pvd reader outside ParaView.
Exit 0 when every check passes, 1 with the failures listed, 2 when python3-vtk9 is missing.
"""
import csv
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

try:
    from vtkmodules.vtkCommonCore import vtkCommand
    from vtkmodules.vtkFiltersCore import vtkMassProperties
    from vtkmodules.vtkFiltersGeometry import vtkGeometryFilter
    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
except ImportError as e:  # the install list brings python3-vtk9 (scripts/install-deps.sh)
    print(f"vtk_readback: python3-vtk9 is missing ({e}); run scripts/install-deps.sh", file=sys.stderr)
    sys.exit(2)

FAILURES = []
P_ATM = 101325.0


def check(ok, what):
    if not ok:
        FAILURES.append(what)
    return ok


class ErrorCatcher:
    def __init__(self):
        self.errors = []

    def __call__(self, obj, event):
        self.errors.append(f"{obj.GetClassName()}: {event}")


def read_vtu(path):
    reader = vtkXMLUnstructuredGridReader()
    catcher = ErrorCatcher()
    reader.AddObserver(vtkCommand.ErrorEvent, catcher)
    reader.SetFileName(path)
    reader.Update()
    check(not catcher.errors, f"{path}: VTK reader errors {catcher.errors}")
    return reader.GetOutput()


def collection(directory, name):
    """[(time, part, grid)] of a .pvd, every file read by VTK"""
    root = ET.parse(os.path.join(directory, name)).getroot()
    check(root.get("type") == "Collection", f"{name}: not a VTK collection")
    out = []
    for ds in root.iter("DataSet"):
        path = os.path.join(directory, ds.get("file"))
        check(os.path.exists(path), f"{name}: {path} is missing")
        out.append((float(ds.get("timestep")), int(ds.get("part")), read_vtu(path)))
    return out


def array(data, name):
    a = data.GetArray(name)
    if not check(a is not None, f"array {name} missing"):
        return None
    return vtk_to_numpy(a)


def run(binary, scene, directory, every, extra=()):
    os.makedirs(directory, exist_ok=True)
    cmd = [binary, "run", scene, "--quiet", "--frames", directory, "--every", str(every),
           "--csv", os.path.join(directory, "run.csv"), *extra]
    print("vtk_readback: " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(directory, "run.csv")) as f:
        return list(csv.DictReader(f))


def block_on_ground(binary, scenes, work):
    d = os.path.join(work, "block")
    run(binary, os.path.join(scenes, "block_on_ground.json"), d, 50)
    bodies = collection(d, "series.pvd")
    cavities = collection(d, "cavities.pvd")
    contacts = collection(d, "contacts.pvd")
    check(len(bodies) == 2 * len(contacts) and len(cavities) == len(contacts) and len(contacts) >= 10,
          f"block: frames bodies {len(bodies)}, cavities {len(cavities)}, contacts {len(contacts)}")
    check(all(g.GetNumberOfCells() == 0 for _, _, g in cavities), "block: a cavity between two flat boxes")
    t, _, grid = contacts[-1]
    pd = grid.GetPointData()
    force, fn, ft, normal = (array(pd, n) for n in ("force", "normal_force", "friction_force", "normal"))
    check(grid.GetNumberOfPoints() >= 4, f"block: {grid.GetNumberOfPoints()} contacts at t = {t}")
    # the force on the block: `force` is on body a, and the normal points from b to a
    fz = sum(f[2] if n[2] > 0 else -f[2] for f, n in zip(force, normal))
    fx = sum(f[0] if n[2] > 0 else -f[0] for f, n in zip(force, normal))
    weight = 1.0 * 9.81
    print(f"vtk_readback: block at t = {t:g} s: contact force on it {fz:.4f} N (weight {weight:.4f} N), "
          f"net friction {fx:.2e} N, {grid.GetNumberOfPoints()} contacts")
    check(abs(fz - weight) < 0.01 * weight, f"block: contact force {fz} N, weight {weight} N")
    check(abs(fx) < 1e-3 * weight, f"block: net friction {fx} N at rest")
    worst = max(max(abs(a - b - c)) for a, b, c in zip(force, fn, ft))
    check(worst < 1e-9 * weight, f"block: normal + friction differs from force by {worst} N")


def von_mises(tensor):
    s = [tensor[0:3], tensor[3:6], tensor[6:9]]
    tr = (s[0][0] + s[1][1] + s[2][2]) / 3.0
    dev = sum((s[i][j] - (tr if i == j else 0.0)) ** 2 for i in range(3) for j in range(3))
    return math.sqrt(1.5 * dev)


def pull_test(binary, scenes, work):
    d = os.path.join(work, "pull")
    rows = run(binary, os.path.join(scenes, "pull_test.json"), d, 10)
    by_time = {round(float(r["t"]), 9): r for r in rows}
    bodies = collection(d, "series.pvd")
    cavities = collection(d, "cavities.pvd")
    collection(d, "contacts.pvd")
    cups = [(t, g) for t, part, g in bodies if part == 0]
    check(len(cups) == len(cavities) and len(cups) >= 30, f"pull: {len(cups)} cup frames, {len(cavities)} cavity frames")
    with_cavity = 0
    vm_rest = vm_vacuum = 0.0
    first_points = vtk_to_numpy(cups[0][1].GetPoints().GetData())
    for (t, cup), (tc, _, cav) in zip(cups, cavities):
        row = by_time.get(round(t, 9))
        if not check(row is not None and abs(tc - t) < 1e-12, f"pull: no CSV row at t = {t}"):
            continue
        # the cup: von Mises from the written tensor, displacement from frame 0
        cd = cup.GetCellData()
        vm, stress = array(cd, "von_mises"), array(cd, "stress")
        worst = max(abs(von_mises(s) - v) for s, v in zip(stress, vm))
        check(worst <= 1e-6 * max(1.0, max(vm)), f"pull t = {t}: von Mises vs stress tensor off by {worst} Pa")
        pts = vtk_to_numpy(cup.GetPoints().GetData())
        disp = array(cup.GetPointData(), "displacement")
        check(abs(disp - (pts - first_points)).max() < 1e-12 + 1e-9 * abs(pts).max(), f"pull t = {t}: displacement")
        pressure = float(row["pressure"]) if row.get("pressure") not in (None, "", "nan") else float("nan")
        if t == 0:
            vm_rest = max(vm)
        if cav.GetNumberOfCells() == 0:
            continue
        with_cavity += 1
        p, v, g = (array(cav.GetCellData(), n) for n in ("pressure", "volume", "gauge_pressure"))
        check(abs(p[0] - pressure) <= 1e-9 * P_ATM, f"pull t = {t}: cavity pressure {p[0]}, CSV {pressure}")
        check(abs(v[0] - float(row["volume"])) <= 1e-9 * abs(v[0]), f"pull t = {t}: cavity volume {v[0]}, CSV {row['volume']}")
        check(abs(g[0] - (p[0] - P_ATM)) < 1e-6, f"pull t = {t}: gauge pressure {g[0]}")
        surface = vtkGeometryFilter()
        surface.SetInputData(cav)
        mass = vtkMassProperties()
        mass.SetInputConnection(surface.GetOutputPort())
        mass.Update()
        check(abs(mass.GetVolume() - v[0]) <= 1e-6 * v[0],
              f"pull t = {t}: VTK's volume of the cavity surface {mass.GetVolume()}, written {v[0]}")
        if p[0] < 0.5 * P_ATM:
            vm_vacuum = max(vm_vacuum, max(vm))
    # each cavity as its own series (cavity_<id>.pvd): every frame where the id is in cavities.pvd,
    # with the same pressure and volume
    own = sorted(f for f in os.listdir(d) if f.startswith("cavity_") and f.endswith(".pvd"))
    check(len(own) >= 1, f"pull: per-cavity series {own}")
    for name in own:
        cid = int(name[len("cavity_"):-len(".pvd")])
        series = collection(d, name)
        expect = [(tc, cav) for tc, _, cav in cavities if cav.GetNumberOfCells() > 0 and cid in array(cav.GetCellData(), "cavity_id")]
        check(len(series) == len(expect) and len(series) > 0, f"pull: {name} has {len(series)} frames, cavities.pvd {len(expect)}")
        for (t, _, g), (tc, cav) in zip(series, expect):
            ids = array(cav.GetCellData(), "cavity_id")
            p_all = array(cav.GetCellData(), "pressure")[ids == cid]
            p_own = array(g.GetCellData(), "pressure")
            check(abs(t - tc) < 1e-12 and len(p_own) == len(p_all) and abs(p_own - p_all).max() == 0,
                  f"pull: {name} at t = {t}: the cavity's own piece differs from cavities.pvd")
    print(f"vtk_readback: pull_test: {len(cups)} frames, {with_cavity} with a cavity; cup's largest von Mises "
          f"at rest {vm_rest:.4g} Pa, under vacuum {vm_vacuum:.4g} Pa")
    check(with_cavity >= 10, f"pull: only {with_cavity} frames with a cavity")
    check(vm_vacuum > vm_rest, f"pull: von Mises under vacuum {vm_vacuum} not above rest {vm_rest}")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, scenes, work = sys.argv[1:]
    block_on_ground(binary, scenes, work)
    pull_test(binary, scenes, work)
    if FAILURES:
        print("vtk_readback: FAILED", file=sys.stderr)
        for f in FAILURES[:40]:
            print("  " + f, file=sys.stderr)
        return 1
    print("vtk_readback: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
