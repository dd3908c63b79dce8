#!/usr/bin/env python3
"""Writes the small sample meshes used by tests/mesh/test_mesh_io.cpp (run from tests/data).

cube_v2.msh / cube_v41.msh: the unit cube [0,1]^3 as 6 Kuhn tetrahedra (one written inverted),
with non-contiguous node tags, an unused node and point/line/triangle elements to be ignored.
cube_ascii.stl / cube_binary.stl: the unit cube, 12 outward triangles.
"""
import itertools
import struct

corners = [((v >> 0) & 1, (v >> 1) & 1, (v >> 2) & 1) for v in range(8)]
tag = [10 * (v + 1) for v in range(8)]  # node tags 10, 20, ..., 80


def vol(a, b, c, d):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    w = [d[i] - a[i] for i in range(3)]
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
            + u[2] * (v[0] * w[1] - v[1] * w[0]))


tets = []
for perm in itertools.permutations(range(3)):
    path = [0]
    for axis in perm:
        path.append(path[-1] | (1 << axis))
    if vol(*[corners[p] for p in path]) < 0:
        path[2], path[3] = path[3], path[2]
    tets.append(path)
tets[3][2], tets[3][3] = tets[3][3], tets[3][2]  # one inverted tet: the reader must flip it

faces = [(0, 2, 6, 4), (1, 5, 7, 3), (0, 1, 5, 4), (2, 6, 7, 3), (0, 1, 3, 2), (4, 6, 7, 5)]


def outward(q):
    c = [sum(corners[v][i] for v in q) / 4 - 0.5 for i in range(3)]
    a, b, d = corners[q[0]], corners[q[1]], corners[q[2]]
    u = [b[i] - a[i] for i in range(3)]
    v = [d[i] - a[i] for i in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    return q if sum(n[i] * c[i] for i in range(3)) > 0 else tuple(reversed(q))


quads = [outward(q) for q in faces]
tris = [t for q in quads for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))]

# ---- gmsh 2.2
with open("cube_v2.msh", "w") as f:
    f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
    f.write('$PhysicalNames\n1\n3 1 "cube"\n$EndPhysicalNames\n')
    f.write("$Nodes\n9\n")
    for v in range(8):
        f.write("%d %g %g %g\n" % (tag[v], *corners[v]))
    f.write("99 5 5 5\n")  # not used by any tetrahedron
    f.write("$EndNodes\n$Elements\n%d\n" % (1 + 1 + 2 + len(tets)))
    f.write("1 15 2 0 1 %d\n" % tag[0])                       # point
    f.write("2 1 2 0 1 %d %d\n" % (tag[0], tag[1]))            # line
    f.write("3 2 2 0 1 %d %d %d\n" % tuple(tag[v] for v in tris[0]))  # triangles
    f.write("4 2 2 0 1 %d %d %d\n" % tuple(tag[v] for v in tris[1]))
    for i, t in enumerate(tets):
        f.write("%d 4 2 1 1 %s\n" % (5 + i, " ".join(str(tag[v]) for v in t)))
    f.write("$EndElements\n")

# ---- gmsh 4.1: nodes in two entity blocks, tets in two element blocks
with open("cube_v41.msh", "w") as f:
    f.write("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")
    f.write("$Entities\n1 0 0 1\n1 0 0 0 0\n1 0 0 0 1 1 1 0 0\n$EndEntities\n")
    f.write("$Nodes\n2 9 10 99\n")
    f.write("0 1 0 1\n%d\n%g %g %g\n" % (tag[0], *corners[0]))
    f.write("3 1 0 8\n")
    for v in range(1, 8):
        f.write("%d\n" % tag[v])
    f.write("99\n")
    for v in range(1, 8):
        f.write("%g %g %g\n" % corners[v])
    f.write("5 5 5\n")
    f.write("$EndNodes\n")
    f.write("$Elements\n4 9 1 9\n")
    f.write("0 1 15 1\n1 %d\n" % tag[0])
    f.write("2 1 2 2\n2 %d %d %d\n3 %d %d %d\n" % (*[tag[v] for v in tris[0]], *[tag[v] for v in tris[1]]))
    f.write("3 1 4 2\n")
    for i, t in enumerate(tets[:2]):
        f.write("%d %s\n" % (4 + i, " ".join(str(tag[v]) for v in t)))
    f.write("3 1 4 4\n")
    for i, t in enumerate(tets[2:]):
        f.write("%d %s\n" % (6 + i, " ".join(str(tag[v]) for v in t)))
    f.write("$EndElements\n")

# ---- STL, ASCII and binary (the binary header deliberately starts with "solid")
with open("cube_ascii.stl", "w") as f:
    f.write("solid cube\n")
    for t in tris:
        f.write("  facet normal 0 0 0\n    outer loop\n")
        for v in t:
            f.write("      vertex %g %g %g\n" % corners[v])
        f.write("    endloop\n  endfacet\n")
    f.write("endsolid cube\n")
with open("cube_binary.stl", "wb") as f:
    f.write(b"solid cube, binary STL written by make_mesh_samples.py".ljust(80, b" "))
    f.write(struct.pack("<I", len(tris)))
    for t in tris:
        f.write(struct.pack("<3f", 0, 0, 0))
        for v in t:
            f.write(struct.pack("<3f", *corners[v]))
        f.write(struct.pack("<H", 0))
