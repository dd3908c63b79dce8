// Constraint rows H: each row maps the bodies' velocities to one scalar constraint velocity
// u_r = Σ coeff·v_node (FEM nodes) + Σ (linear·v + angular·ω) (rigid bodies).  Contacts give 3
// rows each (normal, two tangents); cavities will give one row each.  Hᵀλ maps row forces back.
#pragma once
#include "common/types.h"

namespace suction {

struct ConstraintRows {
  struct FemTerm {
    int row;     // constraint row
    int body;    // index into Model::fem
    int node;    // node of that body
    Vec3 coeff;  // u_r += coeff·v_node
  };
  struct RigidTerm {
    int row;
    int body;      // index into Model::rigid (dynamic bodies only)
    Vec3 linear;   // u_r += linear·v
    Vec3 angular;  // u_r += angular·ω
  };
  int count = 0;
  std::vector<FemTerm> fem_terms;
  std::vector<RigidTerm> rigid_terms;

  void clear() {
    count = 0;
    fem_terms.clear();
    rigid_terms.clear();
  }
};

/// Orthonormal tangents t1, t2 of a unit normal n (deterministic, continuous away from ±x).
void tangent_basis(const Vec3& n, Vec3& t1, Vec3& t2);

}  // namespace suction
