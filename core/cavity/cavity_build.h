// Internals of cavity detection, exposed for the tests (tests/cavity/).
#pragma once
#include "cavity_cgal/mesh_union.h"
#include "mesh/tet_mesh.h"
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// The collision surface of a slot (FEM bodies first, then rigid bodies).
const SurfaceMesh& slot_surface(const Model& model, int slot);

/// Barycentric coordinates of p projected on triangle (a, b, c), clamped to the triangle.
Vec3 barycentric_in_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

/// Whether q is inside the closed mesh (generalized winding number).
bool point_inside_mesh(const Points& x, const std::vector<Tri>& triangles, const Vec3& q);

/// The cavities of a union of meshes a (slot_a) and b (slot_b): every component but the outer
/// skin that is a void (negative volume) with faces on both bodies.  Each cavity vertex is
/// mapped to its body (the union's face origin, barycentric in that input triangle); seam
/// vertices get one copy per body, joined by a quad per seam edge; triangles oriented so that
/// the volume is positive.  Air and identity are left to the caller.
std::vector<CavityState> cavities_from_union(const std::vector<UnionComponent>& components,
                                             const UnionMesh& a, const UnionMesh& b, int slot_a,
                                             int slot_b);

/// After the correction: each cavity's volume at the new positions (and its largest volume).
void finish_cavities(const Model& model, State& state, Workspace& work);

}  // namespace suction
