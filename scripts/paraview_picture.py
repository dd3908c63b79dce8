#!/usr/bin/env python3
"""A pull test's ParaView frames rendered by VTK offscreen: the cup cut along its axis and
coloured by von Mises stress, the trapped air coloured by its gauge pressure, the contact forces
as arrows (docs/paraview.md).

    xvfb-run -a /usr/bin/python3 scripts/paraview_picture.py FRAMES_DIR [--time T] [--out PNG]

FRAMES_DIR is what `suction run scenes/pull_test.json --frames FRAMES_DIR` wrote.  VTK's
OpenGL window needs an X display: xvfb-run gives it one (Debian: xvfb, xauth;
scripts/install-deps.sh --plots).  The frame shown is the one closest to T (default: the
cavity's lowest pressure).
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

import vtk
from vtkmodules.util.numpy_support import vtk_to_numpy


def frames(directory, name):
    root = ET.parse(os.path.join(directory, name)).getroot()
    return [(float(d.get("timestep")), int(d.get("part")), os.path.join(directory, d.get("file")))
            for d in root.iter("DataSet")]


def read(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def lowest_pressure_time(directory):
    best = (float("inf"), 0.0)
    for t, _, path in frames(directory, "cavities.pvd"):
        g = read(path)
        if g.GetNumberOfCells():
            p = vtk_to_numpy(g.GetCellData().GetArray("pressure"))[0]
            best = min(best, (p, t))
    return best[1]


def clipped(grid):
    """the half y > 0 (behind the cut, seen from the camera at y < 0)"""
    plane = vtk.vtkPlane()
    plane.SetOrigin(0, 0, 0)
    plane.SetNormal(0, 1, 0)
    clip = vtk.vtkTableBasedClipDataSet()
    clip.SetInputData(grid)
    clip.SetClipFunction(plane)
    clip.Update()
    return clip.GetOutput()


def colour_bar(actor_mapper, title, x):
    bar = vtk.vtkScalarBarActor()
    bar.SetLookupTable(actor_mapper.GetLookupTable())
    bar.SetTitle(title)
    bar.SetNumberOfLabels(5)
    bar.SetLabelFormat("%.3g")
    bar.GetPositionCoordinate().SetValue(x, 0.08)
    bar.SetWidth(0.08)
    bar.SetHeight(0.8)
    for prop in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty()):
        prop.SetColor(0.1, 0.1, 0.1)
        prop.SetFontSize(14)
        prop.ItalicOff()
        prop.ShadowOff()
    return bar


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("frames")
    ap.add_argument("--time", type=float)
    ap.add_argument("--out", default="docs/img/pull_test_paraview.png")
    args = ap.parse_args()
    t = args.time if args.time is not None else lowest_pressure_time(args.frames)
    pick = lambda name: min(frames(args.frames, name), key=lambda f: abs(f[0] - t))  # noqa: E731
    shown = pick("cavities.pvd")[0]
    bodies = [f for f in frames(args.frames, "series.pvd") if abs(f[0] - shown) < 1e-12]
    ren = vtk.vtkRenderer()
    ren.SetBackground(1, 1, 1)

    # the cup (part 0), cut in half, by von Mises stress
    cup = clipped(read([p for _, part, p in bodies if part == 0][0]))
    cup.GetCellData().SetActiveScalars("von_mises")
    vm = vtk_to_numpy(cup.GetCellData().GetArray("von_mises"))
    cup_map = vtk.vtkDataSetMapper()
    cup_map.SetInputData(cup)
    cup_map.SetScalarModeToUseCellData()
    cup_map.SetScalarRange(0, float(vm.max()))
    lut = vtk.vtkLookupTable()
    lut.SetHueRange(0.66, 0.0)
    lut.Build()
    cup_map.SetLookupTable(lut)
    cup_actor = vtk.vtkActor()
    cup_actor.SetMapper(cup_map)
    cup_actor.GetProperty().EdgeVisibilityOn()
    cup_actor.GetProperty().SetEdgeColor(0.25, 0.25, 0.25)
    cup_actor.GetProperty().SetLineWidth(0.5)
    ren.AddActor(cup_actor)

    # the surface it holds on (part 1), grey
    ground = read([p for _, part, p in bodies if part == 1][0])
    g_map = vtk.vtkDataSetMapper()
    g_map.SetInputData(ground)
    g_map.ScalarVisibilityOff()
    g_actor = vtk.vtkActor()
    g_actor.SetMapper(g_map)
    g_actor.GetProperty().SetColor(0.85, 0.85, 0.82)
    g_actor.GetProperty().SetAmbient(0.6)
    g_actor.GetProperty().SetDiffuse(0.4)
    ren.AddActor(g_actor)

    # the trapped air, cut the same way, by gauge pressure
    cav = clipped(read(pick("cavities.pvd")[2]))
    cav.GetCellData().SetActiveScalars("gauge_pressure")
    gp = vtk_to_numpy(cav.GetCellData().GetArray("gauge_pressure"))
    cav_map = vtk.vtkDataSetMapper()
    cav_map.SetInputData(cav)
    cav_map.SetScalarModeToUseCellData()
    lo = float(gp.min()) if len(gp) else -1.0
    cav_map.SetScalarRange(lo, 0.0)
    cav_lut = vtk.vtkLookupTable()
    cav_lut.SetHueRange(0.55, 0.75)
    cav_lut.SetSaturationRange(0.9, 0.2)
    cav_lut.Build()
    cav_map.SetLookupTable(cav_lut)
    cav_actor = vtk.vtkActor()
    cav_actor.SetMapper(cav_map)
    cav_actor.GetProperty().SetOpacity(0.85)
    ren.AddActor(cav_actor)

    # contact forces as arrows (normal part), scaled to a few mm
    con = clipped(read(pick("contacts.pvd")[2]))
    if con.GetNumberOfPoints():
        con.GetPointData().SetActiveVectors("normal_force")
        arrow = vtk.vtkArrowSource()
        glyph = vtk.vtkGlyph3D()
        glyph.SetInputData(con)
        glyph.SetSourceConnection(arrow.GetOutputPort())
        glyph.SetVectorModeToUseVector()
        glyph.SetScaleModeToScaleByVector()
        fmax = max(1e-9, float(abs(vtk_to_numpy(con.GetPointData().GetArray("normal_force_magnitude"))).max()))
        glyph.SetScaleFactor(0.004 / fmax)
        glyph.Update()
        a_map = vtk.vtkPolyDataMapper()
        a_map.SetInputConnection(glyph.GetOutputPort())
        a_map.ScalarVisibilityOff()
        a_actor = vtk.vtkActor()
        a_actor.SetMapper(a_map)
        a_actor.GetProperty().SetColor(0.1, 0.6, 0.1)
        ren.AddActor(a_actor)

    ren.AddActor2D(colour_bar(cup_map, "von Mises [Pa]", 0.02))
    ren.AddActor2D(colour_bar(cav_map, "P - P_atm [Pa]", 0.88))
    text = vtk.vtkTextActor()
    text.SetInput(f"pull test, t = {shown:.2f} s: cup cut along its axis, trapped air, contact forces")
    text.GetTextProperty().SetColor(0.1, 0.1, 0.1)
    text.GetTextProperty().SetFontSize(16)
    text.SetPosition(140, 12)
    ren.AddActor2D(text)

    cam = ren.GetActiveCamera()
    cam.SetFocalPoint(0, 0, 0.006)
    cam.SetPosition(0.0, -0.075, 0.045)
    cam.SetViewUp(0, 0, 1)
    ren.ResetCameraClippingRange()
    win = vtk.vtkRenderWindow()
    win.SetOffScreenRendering(1)
    win.SetSize(1100, 700)
    win.AddRenderer(ren)
    win.Render()
    shot = vtk.vtkWindowToImageFilter()
    shot.SetInput(win)
    shot.Update()
    png = vtk.vtkPNGWriter()
    png.SetFileName(args.out)
    png.SetInputConnection(shot.GetOutputPort())
    png.Write()
    print(f"paraview_picture: {args.out} (t = {shown:.3f} s; von Mises up to {vm.max():.4g} Pa; "
          f"gauge pressure {lo:.4g} Pa)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
