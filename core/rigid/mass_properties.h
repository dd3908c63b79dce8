// Mass, centre of mass and inertia of a homogeneous solid bounded by a closed triangle surface
// (divergence theorem over the tetrahedra joining each triangle to the origin; Mirtich 1996,
// Tonon 2004).
#pragma once
#include "mesh/tet_mesh.h"

namespace suction {

struct MassProperties {
  double volume = 0.0;              // [m³]
  double mass = 0.0;                // [kg]
  Vec3 center = Vec3::Zero();       // centre of mass [m]
  Mat3 inertia = Mat3::Zero();      // about the centre of mass [kg m²]
};

/// surface: closed, outward oriented; density [kg/m³]
MassProperties compute_mass_properties(const SurfaceMesh& surface, double density);

}  // namespace suction
