// Contact reduction (docs/method.md §5.7): fewer rows for the same constraints where a
// surface that never deforms takes part.  The detector takes vertex–triangle contacts both ways
// (the right thing between two soft bodies, each of whose vertices is a degree of freedom);
// where one or both bodies are rigid, some of those contacts are implied by others:
//
// 1. One pass where a soft body meets a rigid one: a vertex of the rigid body whose triangles
//    all lie in one plane (a flat vertex, e.g. inside a finely meshed box face) is dropped
//    against the soft body's triangles.  The soft body's own vertices on the rigid face hold
//    the interface: a flat soft triangle can only cross that plane where one of its vertices
//    does.  Rigid corners and edges (not flat) keep their contacts, so a sharp rigid feature
//    still presses into a coarse soft triangle.
// 2. A planar patch between two rigid bodies: the vertex–triangle contacts of one pair of
//    rigid bodies with the same normal whose gaps are an affine function of their position in
//    the contact plane (two flat faces, e.g. a box resting on the ground) keep only the
//    corners of their convex hull in that plane.  Each contact's linearized constraint
//    gap + h n·(v + ω × r) ≥ 0 is affine in the point's position in the plane, so a point
//    inside the hull is a convex combination of corners whose constraints then imply its own.
//    The total normal force and the friction capacity μ Σλ_n are unchanged; only the split of
//    an indeterminate load among coplanar points differs.
//
// Neither rule touches a contact of two soft bodies, a self-contact or an edge–edge contact,
// and neither changes the contacts the cavity stage judges seals on (the collision stage
// reduces only the rows).
#pragma once
#include <vector>

#include "collision/contact.h"

namespace suction {

/// What the reduction needs of one body (slot) of the detector.
struct ReductionBody {
  bool rigid = false;       // the surface never deforms (a rigid or fixed body)
  std::vector<char> flat;   // rigid only: per surface vertex, 1 when its triangles are coplanar
};

/// Per vertex of a closed surface: 1 when every non-degenerate triangle around it has the same
/// unit normal to within 1e-9 (n·n' ≥ 1 − 1e-9, about 45 µrad); 0 otherwise, and for a vertex
/// no triangle uses.
std::vector<char> flat_vertices(const Points& vertices, const std::vector<Tri>& triangles);

struct ReductionSettings {
  /// a planar patch: every gap within this of the plane fitted through (position, gap) [m]
  double gap_tolerance = 1e-6;
};

struct ReductionStats {
  int flat_rigid_vertices = 0;  // rule 1: contacts dropped
  int patch_interior = 0;       // rule 2: contacts dropped
};

/// Removes the implied contacts from `contacts`, keeping the order of the rest.  bodies: one
/// per detector slot (contact sides' `body`).
ReductionStats reduce_contacts(std::vector<Contact>& contacts, const std::vector<ReductionBody>& bodies,
                               const ReductionSettings& settings);

}  // namespace suction
