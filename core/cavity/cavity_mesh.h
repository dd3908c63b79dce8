// Cavity geometry (docs/method.md §6 and §9): a cavity mesh from a mesh union, its volume,
// volume gradient and area, and the point-in-mesh test used by tracking.  Plain meshes and
// CavityState in, no Model/State/Workspace.
#pragma once
#include <functional>
#include <cstdint>

#include "cavity/cavity_state.h"
#include "cavity_cgal/mesh_union.h"

namespace suction {

/// Signed volume of a closed triangle mesh by the divergence theorem: Σ (p0×p1)·p2 / 6 [m³].
///   x: #vertices×3 [m]
double mesh_volume(const Points& x, const std::vector<Tri>& triangles);
/// ∂V/∂x per vertex: Σ over the vertex's triangles of (p1×p2)/6 (= a third of the
/// area-weighted normal for a closed mesh): #vertices×3 [m²].
Points mesh_volume_gradient(const Points& x, const std::vector<Tri>& triangles);
/// Total area of triangles [begin, end) [m²].
double mesh_area(const Points& x, const std::vector<Tri>& triangles, size_t begin, size_t end);

/// The sealing ring of a cavity: the edges of its seam triangles whose two ends lie on one
/// body (one ring per body), each once, in triangle order.  Pairs of vertex indices.
std::vector<std::array<int, 2>> seam_ring_edges(const CavityState& c);
/// Unit normal of the sealing ring: the vector area ½ Σ (a − m)×(b − m) of body a's ring
/// (the ring edges on c.slots.front(); the two bodies' rings run in opposite directions) about its
/// vertex mean m, turned towards +z (then +y, then +x) so that its sign is stable; +z when
/// degenerate.   x: #vertices×3 [m]; ring: seam_ring_edges(c)
Vec3 seam_ring_normal(const Points& x, const CavityState& c, const std::vector<std::array<int, 2>>& ring);
/// Area of a closed mesh's shadow along the unit direction n: ¼ Σ |n·(e1×e2)| [m²] (each
/// point of the shadow is covered twice).
double projected_area(const Points& x, const std::vector<Tri>& triangles, const Vec3& n);
/// The area that sets the net force of a cavity's air on its bodies [m²]: each body's walls of
/// the cavity summed as one vector area S_k = ½ Σ e1×e2 (triangles [0, count) whose
/// triangle_body[t] is k; a negative body is skipped: the seam), and half of Σ_k |S_k|.  The
/// pressure difference pulls body k by (P_atm − P)·|S_k|, and the walls of a closed cavity sum
/// to zero, so for a cup on a surface |S_cup| = |S_surface| is the area its ring encloses and
/// the half-sum is that area; a wall that overhangs (a tunnel under the cup, an undercut)
/// counts with its sign, where the shadow of the whole cavity (projected_area) counts it again.
/// With three bodies (two cups over a tunnel through a block) it is the cups' pull, Σ |S_cup|,
/// when both pull the same way.
double holding_area(const Points& x, const std::vector<Tri>& triangles, const std::vector<int>& triangle_body,
                    int count);

/// Barycentric coordinates of p projected on triangle (a, b, c), clamped to the triangle.
Vec3 barycentric_in_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

/// Whether q is inside the closed mesh (generalized winding number, Jacobson et al. 2013).
bool point_inside_mesh(const Points& x, const std::vector<Tri>& triangles, const Vec3& q);

/// Moves every vertex of m by a deterministic pseudo-random amount in [-amplitude, amplitude)
/// per coordinate (splitmix64 of the vertex index and salt): the union's input conditioning
/// (docs/method.md §9.2).  A revolved cup on a plane cuts it in rings of nearly cocircular
/// points whose predicates CGAL's filters cannot decide; each undecided one throws and is redone
/// exactly (tens of µs per throw in WebAssembly).  Cavity vertices stay barycentric in the
/// input triangles, so evaluated at the bodies' real positions they lie on them exactly.
void jitter_vertices(UnionMesh& m, double amplitude, std::uint64_t salt);

/// A union input's vertex: body (the index in the group's slots) and vertex index -> its
/// position (offset and jittered as for the union, stages/cavities.cpp).
using UnionVertexAt = std::function<Vec3(int body, int vertex)>;

/// What follow_seam found: the crossings found nowhere (`lost`: kept at their last place), and
/// of them those whose edge no longer reaches the plane of their triangle (`left`: the surface
/// moved off that edge, a change of the cavity's boundary that may open it).
struct SeamFollowed {
  int lost = 0;
  int left = 0;
};

/// Moves a cavity's seam with its bodies (settings.cavity.follow_seal, docs/method.md §9.8):
/// each of c.crossings is found again where its edge crosses its triangle in the union input
/// given by `at` and `triangles` (triangles[b]: body slots[b]'s), and both its copies are put
/// there, so that while no crossing leaves its edge or triangle the cavity is the one a union of
/// that input would find (its volume to rounding).  A crossing whose edge now crosses the plane
/// outside its triangle moves to the triangle of its ring (SeamCrossing::ring) that the edge
/// does cross; one that finds none keeps its last place (SeamFollowed).
SeamFollowed follow_seam(CavityState& c, const std::vector<int>& slots,
                         const std::vector<const std::vector<Tri>*>& triangles, const UnionVertexAt& at);

/// The cavities of a union of the meshes of one group of bodies (meshes[i] is body slot
/// slots[i]; components from mesh_union_components(meshes)): every component but the outer
/// skin that is a void (negative volume) with faces on at least two bodies.  Each cavity vertex
/// is mapped to its body (the union's face origin, barycentric in that input triangle); seam
/// vertices get one copy per body whose faces use them, and every union edge between faces of
/// two bodies gets a quad joining their copies; triangles oriented so that the volume is
/// positive.  CavityState::slots lists the bodies it touches.  Air and identity are left to
/// the caller (cavity/tracking.h).
std::vector<CavityState> cavities_from_union(const std::vector<UnionComponent>& components,
                                             const std::vector<UnionMesh>& meshes,
                                             const std::vector<int>& slots);
/// The same for two meshes a (slot_a) and b (slot_b).
std::vector<CavityState> cavities_from_union(const std::vector<UnionComponent>& components,
                                             const UnionMesh& a, const UnionMesh& b, int slot_a,
                                             int slot_b);

}  // namespace suction
