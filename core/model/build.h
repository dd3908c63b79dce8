// Helpers that turn meshes and materials into Model bodies (used by the scene loader and tests).
#pragma once
#include "model/model.h"

namespace suction {

/// Builds an FEM body from a tet mesh placed in the world: validates the mesh (InputError on a
/// degenerate tet), extracts its boundary, precomputes elements and lumped masses.  Every node
/// starts free (node_constraint = kNodeFree).
FemBody make_fem_body(const std::string& name, TetMesh mesh, int material_index,
                      const Material& material);

/// Builds a rigid body from a closed surface given in world coordinates: validates it
/// (InputError if not closed), computes mass and inertia from density (or rescales to the
/// given mass when mass > 0), and re-expresses the surface in the centre-of-mass frame.
/// Fixed and kinematic bodies get mass properties too (used only for reporting).
RigidBody make_rigid_body(const std::string& name, RigidKind kind, SurfaceMesh surface_world,
                          int material_index, double density, double mass = 0.0);

}  // namespace suction
