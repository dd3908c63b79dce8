// Constraint rows H (docs/method.md §5–§7): each row maps the bodies' velocities to one
// scalar constraint velocity u_r = Σ coeff·v_node (FEM nodes) + Σ (linear·v + angular·ω)
// (rigid bodies); Hᵀλ maps row forces back.  ConstraintLayout is the one place that knows
// where each kind of row lives.
#pragma once
#include "common/types.h"

namespace suction {

/// A half-open range of rows [begin, end).
struct RowRange {
  int begin = 0, end = 0;
  int size() const { return end - begin; }
};

/// The order of the rows of one step: contact blocks first (3 rows each: normal, tangent 1,
/// tangent 2), then the joint-limit blocks (frictionless: solved as contacts whose normal row
/// is the joint's angle and whose tangent rows move nothing), then one pressure row per active
/// cavity, then the soft and equality rows: the springs' (1 per axial spring, 3 per zero-length
/// one), then the joints' (5 per revolute joint and 1 more for its drive, 3 per welded node).
/// A new kind of row gets a count here and a range after the last one; every stage, the
/// solver and the backends ask the layout.
struct ConstraintLayout {
  static constexpr int kRowsPerContact = 3;
  int contacts = 0;     // contact blocks
  int cavities = 0;     // cavity pressure rows
  int spring_rows = 0;  // soft spring rows (all springs together)
  int limits = 0;       // joint-limit blocks (after the contact blocks)
  int joint_rows = 0;   // joint equality and drive rows (after the spring rows)

  /// first row of contact k's block (its normal); +1, +2 are the tangents
  int contact_row(int k) const { return kRowsPerContact * k; }
  /// the normal row of joint-limit block j
  int limit_row(int j) const { return kRowsPerContact * (contacts + j); }
  /// blocks the contact methods see: the contacts, then the limits
  int unilateral_blocks() const { return contacts + limits; }
  /// the pressure row of cavity k
  int cavity_row(int k) const { return kRowsPerContact * unilateral_blocks() + k; }
  /// the j-th soft spring row
  int spring_row(int j) const { return kRowsPerContact * unilateral_blocks() + cavities + j; }
  /// the j-th joint row
  int joint_row(int j) const { return spring_row(spring_rows) + j; }
  RowRange contact_rows() const { return {0, kRowsPerContact * contacts}; }
  RowRange cavity_rows() const { return {cavity_row(0), cavity_row(cavities)}; }
  /// the linear rows eliminated before the method runs: springs and joints
  RowRange soft_rows() const { return {spring_row(0), count()}; }
  int count() const { return spring_row(0) + spring_rows + joint_rows; }
};

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
  ConstraintLayout layout;
  std::vector<FemTerm> fem_terms;
  std::vector<RigidTerm> rigid_terms;

  int count() const { return layout.count(); }
  void clear() {
    layout = ConstraintLayout{};
    fem_terms.clear();
    rigid_terms.clear();
  }
};

/// Orthonormal tangents t1, t2 of a unit normal n (deterministic, continuous away from ±x).
void tangent_basis(const Vec3& n, Vec3& t1, Vec3& t2);

}  // namespace suction
