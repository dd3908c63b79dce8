#!/usr/bin/env python3
"""Plans scenes/pick_and_place.json: the joint keyframes of a four-joint arm (waist, shoulder,
elbow, wrist) that picks an apple from a table with the standard suction cup, carries it over a
box of two compartments, lowers it into one and lets go of it by pushing it against the
compartment's far wall.  The keyframes come from inverse kinematics of Cartesian waypoints of
the cup's top (where it is welded to the hand); the wrist keeps the cup pointing down.

  python3 scripts/pick_and_place_plan.py            # the waypoints and the keyframes
  python3 scripts/pick_and_place_plan.py --write    # and (re)writes scenes/pick_and_place.json
                                                    # and scenes/meshes/apple.obj

The arm (every length in metres; the world's z is up, the base stands at the origin):

  base       fixed cylinder, r 40 mm, z 0 .. 0.10
  waist      rigid cylinder, r 30 mm, z 0.10 .. 0.16, turns about z through (0, 0, 0.10)
  upper arm  rigid bar 20 x 20 x L1, from the shoulder S = (0, 0, 0.16) (axis y at t = 0)
  forearm    rigid bar L2 x 20 x 20, from the elbow to the wrist (axis y at t = 0)
  hand       rigid bar 20 x 20 x L3, hangs from the wrist; the cup's top is welded to its
             underside, so the "tool point" C (the cup's top centre) is L3 below the wrist
  L1 = 0.20, L2 = 0.20, L3 = 0.05; links of aluminium (2700 kg/m^3; the bars are solid)

At t = 0 (every joint angle 0) the upper arm is vertical, the forearm horizontal along +x and
the hand vertical, so C = (L2, 0, 0.16 + L1 - L3).  A joint angle is the right-handed rotation
of its child link about the joint's axis since t = 0 (the axes turn with the waist).  In the arm's
vertical plane, with elevations α (from the horizontal, up positive) of the upper arm α1 and of
the forearm α2 (elbow up), the angles are θ_shoulder = 90° − α1, θ_elbow = −α2 − θ_shoulder,
θ_wrist = −(θ_shoulder + θ_elbow) (the hand stays vertical), θ_waist = atan2(y, x) of the wrist.

The Cartesian waypoints of C (waypoints(); the script prints them with their times):

  approach     over the apple (on the table at (0.25, 0)), the lip 15 mm above its first touch
  hold_before  (the shoulder's torque without the apple)
  press        the lip 3 mm below its first touch
  seal, lift   hold; back up to the approach pose
  hold_after   (the same pose: the shoulder's torque with the apple hanging)
  raise        the apple's bottom 30 mm above the box's walls
  carry        over the centre of the target compartment (x 2.5..100 mm, y 195..325 mm)
  lower        the apple's bottom 4 mm above the compartment's floor
  settle, to_wall   hold; the apple 3 mm short of touching the far wall (y = 325 mm)
  push         24 mm past the touch (27 mm in 0.8 s)
  retreat      60 mm up, 20 mm back; rest

Each motion is sampled every 0.05 s with a smooth (quintic) progress along a straight Cartesian
line; the keyframes are linear in between (a hard servo follows them exactly); a hold repeats
the last pose at its end.
"""
import argparse
import json
import math
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = os.path.join(ROOT, "scenes", "pick_and_place.json")

# --- the arm -------------------------------------------------------------------------------
BASE_TOP = 0.10           # the waist's axis stands on the base's top
SHOULDER = (0.0, 0.0, 0.16)
L1, L2, L3 = 0.20, 0.20, 0.05
BAR = 0.02                # the links' square section [m]
ALUMINIUM = 2700.0        # [kg/m^3]

# --- the cup (the "cup" generator's defaults, as rigid_lift.json) --------------------------
CUP_R, CUP_H = 0.0175, 0.015
LIP_INNER_R = 0.01687     # the lip's inner corner (the generated mesh's, `suction mesh`): it touches first

# --- the apple: a revolved apple-like surface written to scenes/meshes/apple.obj (no generator
# revolves a profile for a rigid body; the "sphere" generator's UV sphere balances on its bottom
# pole and, once let go, rolls round that pole's fan of triangles without end). Lengths from its
# flat bottom (the mesh's origin); the widest ring is APPLE_A at APPLE_ZW. --------------------
APPLE_A = 0.038           # its largest radius [m] (76 mm across)
APPLE_ZW = 0.034          # the widest ring's height above the bottom [m]
APPLE_BB, APPLE_PB = 0.036, 2.2   # lower part: superellipse half height and exponent (cut flat at z = 0)
APPLE_BT, APPLE_PT = 0.030, 2.4   # upper part: to the top at APPLE_ZW + APPLE_BT (64 mm)
DIMPLE_D, DIMPLE_R = 0.004, 0.009  # the stem's hollow: depth and radius [m]
APPLE_SEGMENTS = 48       # around (the lip ring's chords stay within 0.04 mm of its circle)
APPLE_G = 175.0           # [g]
APPLE_OBJ = os.path.join(ROOT, "scenes", "meshes", "apple.obj")

# --- the world --------------------------------------------------------------------------------
TABLE_TOP = 0.08
TABLE_CENTRE = (0.25, 0.0)
TABLE_SIZE = (0.16, 0.16)
BOX_FLOOR = 0.01          # the compartments' floor (a 10 mm plate on the ground)
WALL_TOP = 0.08
WALL_T = 0.005
BOX_X = (-0.105, 0.105)   # outside of the box
BOX_Y = (0.19, 0.33)
# target compartment: between the divider (x = ±2.5 mm) and the right wall, the near and far walls
TARGET = ((0.0025, BOX_X[1] - WALL_T), (BOX_Y[0] + WALL_T, BOX_Y[1] - WALL_T))

# --- the motion -------------------------------------------------------------------------------
PRESS = 0.003             # the lip is moved this far below its first touch of the apple [m]
                          # (the standard cup's 3 mm press; until 2026-11-29 1 mm, because deeper the
                          # unions failed: docs/validation.md, "The press study")
APPROACH = 0.015          # the lip this far above the apple before and after the pick [m]
HANG_GAP = 0.004          # the apple's lowest point this far above the compartment's floor [m]
WALL_GAP = 0.003          # the apple is brought this close to the far wall, then pushed slowly [m]
PUSH_PAST = 0.024         # the cup moves this far past where the apple would touch the far wall [m]
                          # (pressed 3 mm the seal holds 82.8 kPa and opens at a 5.9 N push: 15 mm
                          # past the touch never reach it, 18 mm open it at 5.97 s, 24 mm at 5.81 s)
TRAVEL_CLEARANCE = 0.03   # the apple's lowest point above the walls' top while carried [m]
SAMPLE = 0.05             # [s] between keyframes in a motion


def apple_top(r):
    """the upper surface's height at radius r (the dimple included) [m]"""
    z = APPLE_ZW + APPLE_BT * max(0.0, 1 - (r / APPLE_A) ** APPLE_PT) ** (1 / APPLE_PT)
    if r < DIMPLE_R:
        z -= DIMPLE_D * (1 - (r / DIMPLE_R) ** 2) ** 2
    return z


def apple_profile():
    """the meridian from the top's centre to the bottom's: [(r, z)], every 2 mm on the top (where
    the cup seals) and 4 mm on the sides and under it; the bottom is flat"""
    dense = []
    for i in range(2001):  # the upper part, r from 0 to A, then the lower, back in to the cut
        r = APPLE_A * i / 2000
        dense.append((r, apple_top(r)))
    for i in range(1, 2001):
        u = i / 2000  # depth below the widest ring, as a share of the lower half height
        z = APPLE_ZW - APPLE_BB * u
        if z < 0:
            break
        dense.append((APPLE_A * (1 - u ** APPLE_PB) ** (1 / APPLE_PB), z))
    r_cut = APPLE_A * (1 - (APPLE_ZW / APPLE_BB) ** APPLE_PB) ** (1 / APPLE_PB)
    dense.append((r_cut, 0.0))
    out, run = [dense[0]], 0.0
    for p, q in zip(dense, dense[1:]):
        run += math.dist(p, q)
        step = 0.002 if q[1] > APPLE_ZW + 0.01 else 0.004
        if run >= step:
            out.append(q)
            run = 0.0
    if out[-1] != dense[-1]:
        out.append(dense[-1])
    out.append((0.0, 0.0))  # the flat bottom: a fan to its centre
    return out


def write_apple_obj(path):
    """the revolved surface, outward oriented, as OBJ (metres, its flat bottom at z = 0)"""
    prof, n = apple_profile(), APPLE_SEGMENTS
    verts = [(0.0, 0.0, prof[0][1])]
    rings = []
    for r, z in prof[1:-1]:
        rings.append(len(verts))
        verts += [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n), z) for k in range(n)]
    verts.append((0.0, 0.0, 0.0))
    top, bottom = 0, len(verts) - 1
    tris = [(top, rings[0] + k, rings[0] + (k + 1) % n) for k in range(n)]
    for a, b in zip(rings, rings[1:]):
        for k in range(n):
            k1 = (k + 1) % n
            tris += [(a + k, b + k, b + k1), (a + k, b + k1, a + k1)]
    tris += [(bottom, rings[-1] + (k + 1) % n, rings[-1] + k) for k in range(n)]
    vol = sum((verts[a][0] * (verts[b][1] * verts[c][2] - verts[b][2] * verts[c][1]) -
               verts[a][1] * (verts[b][0] * verts[c][2] - verts[b][2] * verts[c][0]) +
               verts[a][2] * (verts[b][0] * verts[c][1] - verts[b][1] * verts[c][0])) / 6 for a, b, c in tris)
    assert vol > 0, "outward oriented"
    with open(path, "w") as f:
        f.write(f"# generated by scripts/pick_and_place_plan.py: a revolved apple, {len(verts)} vertices, "
                f"{len(tris)} triangles, {vol * 1e6:.2f} cm^3, metres, its flat bottom at z = 0, z up\n")
        for v in verts:
            f.write("v %.7f %.7f %.7f\n" % v)
        for t in tris:
            f.write("f %d %d %d\n" % tuple(i + 1 for i in t))
    return len(verts), len(tris), vol


APPLE_H = max(apple_top(APPLE_A * i / 1000) for i in range(1001))  # its height (the dimple's rim)
APPLE_D = apple_top(LIP_INNER_R)               # the lip's first touch above its bottom (a ring)
APPLE_TOUCH = TABLE_TOP + APPLE_D              # ... on the table
CUP_ABOVE_APPLE = CUP_H + APPLE_D              # C − the apple's bottom, the cup unloaded (hanging)


def ik(c):
    """joint angles [deg] (waist, shoulder, elbow, wrist) putting the tool point at c"""
    wx, wy, wz = c[0], c[1], c[2] + L3
    waist = math.atan2(wy, wx)
    rho, dz = math.hypot(wx, wy), wz - SHOULDER[2]
    dist = math.hypot(rho, dz)
    if not (abs(L1 - L2) < dist < L1 + L2):
        raise ValueError(f"out of reach: {c}")
    a1 = math.atan2(dz, rho) + math.acos((L1 * L1 + dist * dist - L2 * L2) / (2 * L1 * dist))
    ex, ez = L1 * math.cos(a1), L1 * math.sin(a1)
    a2 = math.atan2(dz - ez, rho - ex)
    shoulder = math.pi / 2 - a1
    elbow = -a2 - shoulder
    wrist = -(shoulder + elbow)
    return [math.degrees(x) for x in (waist, shoulder, elbow, wrist)]


def fk(angles):
    """the tool point of joint angles [deg] (a check of ik)"""
    waist, s, e, _ = (math.radians(x) for x in angles)
    a1 = math.pi / 2 - s
    a2 = a1 - math.pi / 2 - e  # the forearm's elevation: 0 at t = 0, down by the shoulder and elbow
    rho = L1 * math.cos(a1) + L2 * math.cos(a2)
    z = SHOULDER[2] + L1 * math.sin(a1) + L2 * math.sin(a2) - L3
    return (rho * math.cos(waist), rho * math.sin(waist), z)


def waypoints():
    """[(name, t_end, C or None for a hold)], the home pose at t = 0"""
    ax, ay = TABLE_CENTRE
    above = APPLE_TOUCH + APPROACH + CUP_H
    press = APPLE_TOUCH - PRESS + CUP_H
    tx = 0.5 * (TARGET[0][0] + TARGET[0][1])
    ty = 0.5 * (TARGET[1][0] + TARGET[1][1])
    travel = WALL_TOP + TRAVEL_CLEARANCE + CUP_ABOVE_APPLE
    low = BOX_FLOOR + HANG_GAP + CUP_ABOVE_APPLE
    touch_y = TARGET[1][1] - APPLE_A             # the apple's axis when it touches the far wall
    return [
        ("approach", 0.6, (ax, ay, above)),
        ("hold_before", 0.9, None),
        ("press", 1.3, (ax, ay, press)),
        ("seal", 1.5, None),
        ("lift", 1.9, (ax, ay, above)),
        ("hold_after", 2.4, None),
        ("raise", 2.8, (ax, ay, travel)),
        ("carry", 4.4, (tx, ty, travel)),
        ("lower", 4.9, (tx, ty, low)),
        ("settle", 5.0, None),
        ("to_wall", 5.3, (tx, touch_y - WALL_GAP, low)),
        ("push", 6.1, (tx, touch_y + PUSH_PAST, low)),
        ("retreat", 6.4, (tx, touch_y + PUSH_PAST - 0.02, low + 0.06)),
        ("rest", 7.0, None),
    ]


def quintic(s):
    return s * s * s * (10 - 15 * s + 6 * s * s)


def keyframes():
    home = (L2, 0.0, SHOULDER[2] + L1 - L3)
    frames = [(0.0, [0.0, 0.0, 0.0, 0.0])]
    t0, c0 = 0.0, home
    for name, t1, c1 in waypoints():
        if c1 is None:  # a hold: the same angles at its end
            frames.append((t1, frames[-1][1]))
            t0 = t1
            continue
        k = max(1, round((t1 - t0) / SAMPLE))
        for i in range(1, k + 1):
            s = quintic(i / k)
            c = tuple(a + s * (b - a) for a, b in zip(c0, c1))
            frames.append((round(t0 + (t1 - t0) * i / k, 4), ik(c)))
        t0, c0 = t1, c1
    return frames


def scene(frames):
    r = lambda x: round(x, 6)

    def joint_frames(j):
        return [[t, round(a[j], 4)] for t, a in frames]

    s0, hand_top = SHOULDER[2], SHOULDER[2] + L1
    tx = TARGET[0]
    ty = TARGET[1]
    walls = {
        "wall_near": ((BOX_X[0], BOX_X[1]), (BOX_Y[0], BOX_Y[0] + WALL_T)),
        "wall_far": ((BOX_X[0], BOX_X[1]), (BOX_Y[1] - WALL_T, BOX_Y[1])),
        "wall_left": ((BOX_X[0], BOX_X[0] + WALL_T), (BOX_Y[0] + WALL_T, BOX_Y[1] - WALL_T)),
        "wall_right": ((BOX_X[1] - WALL_T, BOX_X[1]), (BOX_Y[0] + WALL_T, BOX_Y[1] - WALL_T)),
        "divider": ((-0.0025, 0.0025), (BOX_Y[0] + WALL_T, BOX_Y[1] - WALL_T)),
    }

    def fixed_box(name, xs, ys, zs, comment=None):
        b = {"name": name, "type": "fixed", "material": "wood",
             "mesh": {"generator": "box", "size": [r(xs[1] - xs[0]), r(ys[1] - ys[0]), r(zs[1] - zs[0])]},
             "position": [r((xs[0] + xs[1]) / 2), r((ys[0] + ys[1]) / 2), r((zs[0] + zs[1]) / 2)]}
        if comment:
            b["comment"] = comment
        return b

    bodies = [
        {"name": "cup", "type": "fem", "material": "silicone",
         "mesh": {"generator": "cup", "radius": CUP_R, "height": CUP_H},
         "position": [L2, 0, r(hand_top - L3 - CUP_H)],
         "comment": "the standard cup (rigid_lift's); its top is welded to the hand's underside",
         "node_sets": {"top": {"top": 0.0005}}},
        {"name": "base", "type": "fixed", "material": "aluminium",
         "mesh": {"generator": "cylinder", "radius": 0.04, "height": BASE_TOP, "resolution": 16},
         "position": [0, 0, BASE_TOP / 2]},
        {"name": "waist", "type": "rigid", "material": "aluminium",
         "mesh": {"generator": "cylinder", "radius": 0.03, "height": r(s0 - BASE_TOP), "resolution": 16},
         "position": [0, 0, r((BASE_TOP + s0) / 2)]},
        {"name": "upper_arm", "type": "rigid", "material": "aluminium",
         "mesh": {"generator": "box", "size": [BAR, BAR, L1]}, "position": [0, 0, r(s0 + L1 / 2)],
         "comment": "vertical at t = 0: from the shoulder up to the elbow"},
        {"name": "forearm", "type": "rigid", "material": "aluminium",
         "mesh": {"generator": "box", "size": [L2, BAR, BAR]}, "position": [r(L2 / 2), 0, r(hand_top)],
         "comment": "horizontal at t = 0: from the elbow along +x to the wrist"},
        {"name": "hand", "type": "rigid", "material": "aluminium",
         "mesh": {"generator": "box", "size": [BAR, BAR, L3]}, "position": [L2, 0, r(hand_top - L3 / 2)],
         "comment": "hangs from the wrist; the cup is welded under it"},
        {"name": "apple", "type": "rigid", "material": "apple",
         "mesh": {"file": "meshes/apple.obj"},
         "position": [TABLE_CENTRE[0], TABLE_CENTRE[1], TABLE_TOP],
         "mass": "=apple_g*1e-3",
         "comment": f"a revolved apple (scripts/pick_and_place_plan.py writes the file): 76 mm across, "
                    f"{1e3 * APPLE_H:.1f} mm tall, its flat bottom on the table; the lip first touches its top "
                    f"{1e3 * APPLE_D:.2f} mm above the bottom"},
        fixed_box("floor", (-0.2, 0.45), (-0.15, 0.45), (-0.05, 0.0), "50 mm thick: a falling apple does not tunnel"),
        fixed_box("table", (TABLE_CENTRE[0] - TABLE_SIZE[0] / 2, TABLE_CENTRE[0] + TABLE_SIZE[0] / 2),
                  (TABLE_CENTRE[1] - TABLE_SIZE[1] / 2, TABLE_CENTRE[1] + TABLE_SIZE[1] / 2), (0.0, TABLE_TOP)),
        fixed_box("box_floor", BOX_X, BOX_Y, (0.0, BOX_FLOOR), "the compartments' floor"),
    ]
    for name, (xs, ys) in walls.items():
        bodies.append(fixed_box(name, xs, ys, (BOX_FLOOR, WALL_TOP)))
    bodies[-1]["comment"] = "the target compartment is x in [0.0025, 0.1], y in [0.195, 0.325] (right of the divider)"
    wp = {name: (t, c) for name, t, c in waypoints()}
    joints = [
        {"name": "waist", "type": "revolute", "a": "base", "b": "waist", "anchor": [0, 0, BASE_TOP],
         "axis": [0, 0, 1], "drive": {"position_deg": joint_frames(0)}},
        {"name": "shoulder", "type": "revolute", "a": "waist", "b": "upper_arm", "anchor": list(SHOULDER),
         "axis": [0, 1, 0], "drive": {"position_deg": joint_frames(1)}},
        {"name": "elbow", "type": "revolute", "a": "upper_arm", "b": "forearm", "anchor": [0, 0, r(hand_top)],
         "axis": [0, 1, 0], "drive": {"position_deg": joint_frames(2)}},
        {"name": "wrist", "type": "revolute", "a": "forearm", "b": "hand", "anchor": [L2, 0, r(hand_top)],
         "axis": [0, 1, 0], "drive": {"position_deg": joint_frames(3)}},
        {"name": "mount", "type": "weld", "a": "hand", "b": "cup", "node_set": "top"},
    ]
    timeline = ", ".join(f"{n} to {t:g} s" for n, t, _ in waypoints())
    return {
        "$schema": "schema/scene.schema.json",
        "name": "pick_and_place",
        "description": "A four-joint arm (waist, shoulder, elbow, wrist: hard position servos) with the standard "
                       "suction cup welded under its hand picks a 175 g apple from a table, carries it over a box "
                       "of two compartments, lowers it into the right one and lets go of it by pushing it "
                       "against the compartment's far wall: the wall stops the apple, the cup goes on, and "
                       "the lip peels open. Generated by scripts/pick_and_place_plan.py --write (the keyframes "
                       "are its inverse kinematics).",
        "comment": "timeline: " + timeline,
        "parameters": {
            "apple_g": {"default": APPLE_G, "unit": "g", "doc": "mass of the apple (76 mm across, 64 mm tall)", "min": 1},
            "young_mpa": {"default": 4, "unit": "MPa", "doc": "Young's modulus of the cup", "min": 0.01},
            "wall_mu": {"default": 0.5, "doc": "friction between the apple and the box (walls and floor)",
                        "min": 0},
        },
        "settings": {
            "interactive": {
                "comment": "plays at reference quality: no cheaper setting measured kept this story (docs/validation.md, "
                           "'Where bodies turn'; measured with the 1 mm press of before 2026-11-29): at 20 ms the apple let "
                           "go 0.2 s late, the kept factorization alone opened the cavity for two steps in the press, turned "
                           "with its nodes it kept the four numbers but saved only 11 % of wall time, and with 8 CG "
                           "iterations allowed the cup let go at 2.94 s; with the 3 mm press (2026-11-29, 'The second "
                           "core'): at 10 ms without the kept factorization the subspace step loses the seal in the press "
                           "(whose solves converge at neither quality) and the apple is never lifted, and without it the "
                           "four numbers hold but the run saves 8 %; turned with its nodes and refined (2026-11-29), the "
                           "press's seal is open from 1.41 s and closes on 21 % more air, so the minimum pressure is +9.9 %; "
                           "with the lagged matrix (2026-12-01, part 14): at 10 ms without the subspace step the four "
                           "numbers hold at the defaults (1.46x less time per step) but not over the parameters (at "
                           "young_mpa 8 the apple is never lifted, at wall_mu 0.25 it is let go 4.6 s late), with it the "
                           "press's seal opens (+9.9 %), and at 20 ms the cup never seals",
                "enabled": False,
                "compare": ["pressure_min_min", "object_z_rise", "seal_t", "release_t"],
            },
            "dt": 0.01, "duration": wp["rest"][0], "gravity": [0, 0, -9.81], "p_atm": 101325,
            "solver": {"max_iterations": 300, "tolerance": 1e-06},
            "contact": {"friction_pairs": [{"materials": ["apple", "wood"], "friction": "=wall_mu"}]},
            "cavity": {"p_max": 101325, "sealing_distance": 5e-05, "leak_rate": 0},
        },
        "materials": {
            "silicone": {"comment": "rigid_lift's cup: an effective density for the paper's 20 g cup",
                         "young": "=young_mpa*1e6", "poisson": 0.45, "density": 7160,
                         "damping_stiffness": 0.002, "friction": 0.8},
            "aluminium": {"young": 7e10, "poisson": 0.33, "density": ALUMINIUM, "friction": 0.5},
            "apple": {"young": 5e6, "poisson": 0.35, "density": 825, "friction": 0.8},
            "wood": {"young": 1e10, "poisson": 0.3, "density": 700, "friction": 0.8},
        },
        "bodies": bodies,
        "joints": joints,
        "probes": [
            {"name": "object_z", "type": "position", "body": "apple", "component": "z",
             "comment": "the apple's centre of mass"},
            {"name": "apple_x", "type": "position", "body": "apple", "component": "x"},
            {"name": "apple_y", "type": "position", "body": "apple", "component": "y"},
            {"name": "apple_speed", "type": "velocity", "body": "apple", "component": "norm"},
            {"name": "pressure_cup", "type": "cavity_pressure", "body": "cup"},
            {"name": "volume_cup", "type": "cavity_volume", "body": "cup"},
            {"name": "holding_cup", "type": "cavity_holding_force", "body": "cup"},
            {"name": "wall_force", "type": "contact_force", "body": "wall_far", "component": "norm",
             "comment": "the far wall of the target compartment, which the apple is pushed against"},
            {"name": "table_force", "type": "contact_force", "body": "table", "component": "z"},
            {"name": "shoulder_angle", "type": "joint_angle", "joint": "shoulder"},
            {"name": "shoulder_torque", "type": "joint_torque", "joint": "shoulder"},
        ],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", nargs="?", const=SCENE, help="write the scene (default scenes/pick_and_place.json)")
    ap.add_argument("--press-mm", type=float, default=PRESS * 1e3,
                    help="how far below its first touch of the apple the lip is moved (default %(default)g mm)")
    ap.add_argument("--push-mm", type=float, default=PUSH_PAST * 1e3,
                    help="how far past the apple's touch of the far wall the cup is moved (default %(default)g mm)")
    a = ap.parse_args()
    globals()["PRESS"] = a.press_mm * 1e-3
    globals()["PUSH_PAST"] = a.push_mm * 1e-3
    print(f"apple: {1e3 * APPLE_H:.2f} mm tall, {2e3 * APPLE_A:.0f} mm across; the lip "
          f"touches it {1e3 * APPLE_D:.3f} mm above its bottom (z = {1e3 * APPLE_TOUCH:.3f} mm on the table)")
    print("waypoints of the tool point C (the cup's top centre) [m]:")
    t0 = 0.0
    for name, t, c in waypoints():
        what = "hold" if c is None else "to (%.4f, %.4f, %.4f)" % c
        if c is not None:
            back = fk(ik(c))
            assert max(abs(x - y) for x, y in zip(back, c)) < 1e-12, (c, back)
        print(f"  {name:12s} {t0:4.2f} .. {t:4.2f} s  {what}")
        t0 = t
    frames = keyframes()
    print("keyframes [t s: waist, shoulder, elbow, wrist deg]:")
    for t, ang in frames:
        print(f"  {t:5.2f}: " + ", ".join(f"{x:9.4f}" for x in ang))
    if a.write:
        nv, nt, vol = write_apple_obj(APPLE_OBJ)
        print(f"wrote {APPLE_OBJ}: {nv} vertices, {nt} triangles, {vol * 1e6:.2f} cm^3")
        text = json.dumps(scene(frames), indent=2, ensure_ascii=False)
        # arrays of numbers (and the keyframe lists) on one line each
        text = re.sub(r"\[\s*([-0-9.e+, \n]*?)\s*\]", lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]", text)
        text = re.sub(r"\[\s*((?:\[[^\[\]]*\],?\s*)+)\]", lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]", text)
        with open(a.write, "w") as f:
            f.write(text + "\n")
        print("wrote", a.write)


if __name__ == "__main__":
    main()
