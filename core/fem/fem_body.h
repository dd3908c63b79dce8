// A deformable body as the FEM kernels see it: its material, rest mesh, per-element rest data
// and lumped masses (read-only during a step), and its state (positions, velocities).
// The Model (core/model) holds a list of these; nothing here knows about the Model.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "common/types.h"
#include "fem/corotational.h"
#include "mesh/tet_mesh.h"

namespace suction {

/// A material of the scene (FEM bodies use all of it; rigid bodies their density and friction).
struct Material {
  std::string name;
  double young = 1e6;             // Young's modulus E [Pa]
  double poisson = 0.45;          // Poisson ratio ν [-]
  double density = 1000.0;        // ρ [kg/m³]
  double damping_mass = 0.0;      // Rayleigh α [1/s]:  B = -(α M + β K)
  double damping_stiffness = 0.0; // Rayleigh β [s]
  double friction = 0.5;          // Coulomb μ used when no pair value is given [-]
  /// a liquid film on the surface (docs/method.md §9.10): it seals a gap up to its thickness,
  /// and contacts with the wetted surface take its friction; 0: dry
  double film_thickness = 0.0;    // [m]
  double film_friction = 0.0;     // Coulomb μ on the wetted surface [-] (with film_thickness > 0)
};

/// node_constraint values of FemBody (k ≥ 0: the node follows driver k)
constexpr int kNodeFree = -1;
constexpr int kNodeFixed = -2;

/// A deformable body: co-rotational linear tetrahedra (docs/method.md §2).
struct FemBody {
  std::string name;
  int material = 0;                   // index into Model::materials
  TetMesh rest;                       // rest (and initial) configuration, world frame [m]
  BoundarySurface boundary;           // collision / visual surface (boundary of rest)
  ElasticElements elements;           // per-tet rest data (fem/corotational.h)
  std::vector<double> node_mass;      // lumped mass per node [kg]
  std::map<std::string, std::vector<int>> node_sets;  // named node index lists
  /// per node: kNodeFree, kNodeFixed, or k >= 0: follows driver k (position/velocity driver)
  std::vector<int> node_constraint;
  Vec3 initial_velocity = Vec3::Zero();  // [m/s]
  /// contacts of the surface with itself (a cup whose skirt folds onto its lip), off by default:
  /// the collision detector then also tests the body's vertices against its own triangles
  bool self_contact = false;
};

struct FemBodyState {
  Points x;  // #nodes×3 positions [m]
  Points v;  // #nodes×3 velocities [m/s]
};

}  // namespace suction
