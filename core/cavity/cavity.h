// Trapped-air cavities (../shared/METHOD.md sections 1, 3 and 4): detection by mesh union
// (core/cavity_cgal), the cavity mesh mapped to the bodies, its volume and volume gradient,
// tracking across recomputations, and the leak.  The pressure itself is solved with the
// contacts (solver/pgs.cpp).
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 1. leak: N ← N + h Ṅ_leak for every tracked, non-dormant cavity.
void leak_cavities(const Model& model, State& state, Workspace& work);

/// 4. cavity detection (when a new contact appears or a seam has opened) and update at
/// x_free: every active cavity gets its volume V(x_free) and gradient rows in work.
void update_cavities(const Model& model, State& state, Workspace& work);

/// World position of a surface point in the given state.
Vec3 surface_point_world(const Model& model, const State& state, const SurfacePoint& p);
/// World positions of a cavity's vertices in the given state.
Points cavity_world_vertices(const Model& model, const State& state, const CavityState& c);

/// Signed volume of a closed triangle mesh by the divergence theorem: Σ (p0×p1)·p2 / 6.
double mesh_volume(const Points& x, const std::vector<Tri>& triangles);
/// ∂V/∂x per vertex: Σ over the vertex's triangles of (p1×p2)/6 (= a third of the
/// area-weighted normal for a closed mesh).
Points mesh_volume_gradient(const Points& x, const std::vector<Tri>& triangles);
/// Total area of triangles [begin, end).
double mesh_area(const Points& x, const std::vector<Tri>& triangles, size_t begin, size_t end);

}  // namespace suction
