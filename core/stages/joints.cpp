// Joints' rows (docs/method.md §8.8).  A revolute joint is five equality rows (the anchors'
// separation in x, y, z and the axes' misalignment about two perpendiculars) and, when driven,
// a sixth about its axis: a servo to a target angle or a motor to a target speed, hard or a
// spring-damper.  A weld holds each node of an FEM node set at its point of a rigid body (three
// rows a node).  They go after the springs' soft rows and are eliminated with them, exactly,
// before the method runs: the solve is u + γλ + b = 0 on each, γ = 0 for a hard row and
// b = C/h, so the row's error C is gone at the end of the step to first order.  Limits are
// one-sided: frictionless contact blocks after the contacts, whose "gap" is the angle left to
// the limit.  After the step the rigid bodies are projected back onto their hinges (Newton
// on the position errors, mass-weighted): the rows' first-order error does not accumulate.
#include <array>
#include <cmath>
#include <tuple>

#include "constraints/rows.h"
#include "model/joints.h"
#include "rigid/rigid_dynamics.h"
#include "stages/stages.h"

namespace suction {

namespace {

bool dynamic(const Model& m, const JointEnd& e) {
  return !e.world() && e.body.type == BodyType::Rigid && m.rigid[e.body.index].kind == RigidKind::Dynamic;
}

// the free velocity of a rigid end's point at lever arm r (0 for the world)
Vec3 free_point_velocity(const Workspace& w, const JointEnd& e, const Vec3& r) {
  if (e.world()) return Vec3::Zero();
  const RigidWork& rw = w.rigid[e.body.index];
  return rw.v_free + rw.w_free.cross(r);
}
Vec3 free_angular_velocity(const Workspace& w, const JointEnd& e) {
  return e.world() ? Vec3::Zero() : w.rigid[e.body.index].w_free;
}

// sign·(the linear row d through the point at lever arm r) on a rigid end
void add_linear(const Model& m, Workspace& w, const JointEnd& e, double sign, const Vec3& d, const Vec3& r, int row) {
  if (dynamic(m, e)) w.rows.rigid_terms.push_back({row, e.body.index, sign * d, sign * r.cross(d)});
}
// sign·(the angular row d) on a rigid end
void add_angular(const Model& m, Workspace& w, const JointEnd& e, double sign, const Vec3& d, int row) {
  if (dynamic(m, e)) w.rows.rigid_terms.push_back({row, e.body.index, Vec3::Zero(), sign * d});
}

// A revolute joint's five equality rows in a state: the anchors' separation along x, y, z and
// the axes' misalignment about t1, t2 ⟂ n_a.  Row r's rate is
// lin·(v_b − v_a) + ang_b·ω_b − ang_a·ω_a and its error C; the solve's rows (add_joint_rows)
// and the projection's Jacobian (project_joints) are both read from here.
struct HingeRow {
  double C = 0.0;
  Vec3 lin = Vec3::Zero(), ang_a = Vec3::Zero(), ang_b = Vec3::Zero();
};
std::array<HingeRow, 5> hinge_rows(const Model& model, const State& state, const Joint& j) {
  const HingeFrame f = hinge_frame(model, state, j);
  std::array<HingeRow, 5> rows;
  for (int c = 0; c < 3; ++c) {  // C = p_b − p_a: (v_b + ω_b × r_b) − (v_a + ω_a × r_a)
    const Vec3 d = Vec3::Unit(c);
    rows[c] = {f.pb[c] - f.pa[c], d, f.ra.cross(d), f.rb.cross(d)};
  }
  Vec3 t[2];
  tangent_basis(f.na, t[0], t[1]);
  const Vec3 misalignment = f.na.cross(f.nb);
  for (int c = 0; c < 2; ++c)  // C = t·(n_a × n_b): t·(ω_b − ω_a) where the axes are aligned
    rows[3 + c] = {t[c].dot(misalignment), Vec3::Zero(), t[c], t[c]};
  return rows;
}

// the drive's compliance γ and bias b at the end of the step t + h (method §8.8)
SoftRow drive_row(const Joint& j, double angle, double t, double h) {
  const double target = j.target_at(t + h);
  if (j.mode == JointTargetMode::Velocity) {
    // λ = −c (u − ω*): u + λ/c − ω* = 0; hard: u = ω*
    return {j.damping > 0.0 ? 1.0 / j.damping : 0.0, -target};
  }
  if (j.stiffness == 0.0 && j.damping == 0.0) return {0.0, (angle - target) / h};  // hard: θ + h u = θ*
  // λ = −k (θ + h u − θ*) − c (u − θ̇*): a servo that damps relative to the target's speed
  const double rate = (target - j.target_at(t)) / h;
  const double inv = 1.0 / (j.stiffness * h + j.damping);
  return {inv, (j.stiffness * (angle - target) - j.damping * rate) * inv};
}

}  // namespace

void add_joint_limit_rows(const Model& model, const State& state, Workspace& work) {
  ConstraintLayout& layout = work.rows.layout;
  work.joint_limits.clear();
  layout.limits = 0;
  const double h = model.settings.dt;
  for (size_t k = 0; k < model.joints.size(); ++k) {
    const Joint& j = model.joints[k];
    if (j.kind != JointKind::Revolute || !j.limited) continue;
    const double angle = state.joint_angle[k];
    for (double side : {1.0, -1.0}) {
      // the angle left to the limit: θ − lower, upper − θ (negative when past it)
      const double left = side > 0 ? angle - j.lower : j.upper - angle;
      work.joint_limits.push_back({static_cast<int>(k), side, left});
    }
  }
  if (work.joint_limits.empty()) return;
  layout.limits = static_cast<int>(work.joint_limits.size());
  const int first = layout.limit_row(0);
  work.u_free.conservativeResize(layout.count());
  work.u_free.segment(first, 3 * layout.limits).setZero();
  for (int l = 0; l < layout.limits; ++l) {
    auto& block = work.joint_limits[l];
    const Joint& j = model.joints[block.joint];
    const HingeFrame f = hinge_frame(model, state, j);
    const int row = layout.limit_row(l);
    // normal row: the rate at which the angle left grows, side·n·(ω_b − ω_a); the tangent rows
    // move nothing (a limit has no friction)
    add_angular(model, work, j.b, +block.side, f.na, row);
    add_angular(model, work, j.a, -block.side, f.na, row);
    const double rate = f.na.dot(free_angular_velocity(work, j.b) - free_angular_velocity(work, j.a));
    work.u_free[row] = block.side * rate;
    // the solver reads the gap at the free positions (as a contact's)
    block.gap += h * block.side * rate;
  }
}

void add_joint_rows(const Model& model, const State& state, Workspace& work) {
  ConstraintLayout& layout = work.rows.layout;
  layout.joint_rows = 0;
  work.joint_drive_row.assign(model.joints.size(), -1);
  if (model.joints.empty()) return;
  const double h = model.settings.dt;
  int total = 0;
  for (const Joint& j : model.joints)
    total += j.kind == JointKind::Weld ? 3 * static_cast<int>(j.b.nodes.size())
                                       : 5 + (j.mode != JointTargetMode::None ? 1 : 0);
  const int first = layout.joint_row(0);
  layout.joint_rows = total;
  work.u_free.conservativeResize(layout.count());
  int row = first;
  auto hard = [&](double error) { work.soft_rows.push_back({0.0, error / h}); };
  for (size_t k = 0; k < model.joints.size(); ++k) {
    const Joint& j = model.joints[k];
    if (j.kind == JointKind::Weld) {
      // b: the FEM body's nodes; a: the rigid body
      const JointEndPose a = joint_end_pose(model, state, j.a);
      const FemBody& body = model.fem[j.b.body.index];
      const Points& x = state.fem[j.b.body.index].x;
      const Points& v = work.fem_v_free[j.b.body.index];
      for (size_t i = 0; i < j.b.nodes.size(); ++i) {
        const int node = j.b.nodes[i];
        const Vec3 r = a.orientation * j.weld_points[i];
        const Vec3 error = x[node] - (a.position + r);
        const Vec3 rel = v[node] - free_point_velocity(work, j.a, r);
        for (int c = 0; c < 3; ++c, ++row) {
          const Vec3 d = Vec3::Unit(c);
          if (body.node_constraint[node] == kNodeFree)
            work.rows.fem_terms.push_back({row, j.b.body.index, node, d});
          add_linear(model, work, j.a, -1.0, d, r, row);
          work.u_free[row] = rel[c];
          hard(error[c]);
        }
      }
      continue;
    }
    for (const HingeRow& r : hinge_rows(model, state, j)) {
      if (dynamic(model, j.b)) work.rows.rigid_terms.push_back({row, j.b.body.index, r.lin, r.ang_b});
      if (dynamic(model, j.a)) work.rows.rigid_terms.push_back({row, j.a.body.index, -r.lin, -r.ang_a});
      const auto rate = [&](const JointEnd& e, const Vec3& ang) {
        return e.world() ? 0.0 : r.lin.dot(work.rigid[e.body.index].v_free) + ang.dot(work.rigid[e.body.index].w_free);
      };
      work.u_free[row++] = rate(j.b, r.ang_b) - rate(j.a, r.ang_a);
      hard(r.C);
    }
    const Vec3 na = hinge_frame(model, state, j).na;
    const Vec3 w_rel = free_angular_velocity(work, j.b) - free_angular_velocity(work, j.a);
    if (j.mode != JointTargetMode::None) {
      add_angular(model, work, j.b, +1.0, na, row);
      add_angular(model, work, j.a, -1.0, na, row);
      work.u_free[row] = na.dot(w_rel);
      work.soft_rows.push_back(drive_row(j, state.joint_angle[k], state.time, h));
      work.joint_drive_row[k] = row++;
    }
  }
}

void record_joints(const Model& model, State& state, const Workspace& work) {
  for (size_t k = 0; k < model.joints.size(); ++k) {
    const int row = k < work.joint_drive_row.size() ? work.joint_drive_row[k] : -1;
    state.joint_torque[k] = row >= 0 ? work.lambda[row] : 0.0;
  }
  const ConstraintLayout& layout = work.rows.layout;
  for (int l = 0; l < layout.limits; ++l) {
    const auto& block = work.joint_limits[l];
    state.joint_torque[block.joint] += block.side * work.lambda[layout.limit_row(l)];
  }
}

namespace {

// the revolute joints' five position errors of a state (anchors, then axes), their rows'
// Jacobian on the dynamic bodies' (δx, δφ) and those bodies, for the projection
struct HingeErrors {
  VecX C;
  Eigen::MatrixXd J;
};
HingeErrors hinge_errors(const Model& model, const State& state, const std::vector<int>& joints,
                         const std::vector<int>& column_of) {
  const int n = static_cast<int>(joints.size());
  int bodies = 0;
  for (int c : column_of) bodies = std::max(bodies, c + 1);
  HingeErrors e;
  e.C.setZero(5 * n);
  e.J.setZero(5 * n, 6 * bodies);
  for (int i = 0; i < n; ++i) {
    const Joint& j = model.joints[joints[i]];
    const std::array<HingeRow, 5> rows = hinge_rows(model, state, j);
    for (int r = 0; r < 5; ++r) {
      const HingeRow& h = rows[r];
      e.C[5 * i + r] = h.C;
      for (const auto& [end, sign, ang] : {std::tuple{&j.b, 1.0, h.ang_b}, std::tuple{&j.a, -1.0, h.ang_a}}) {
        if (!dynamic(model, *end)) continue;
        const int c = column_of[end->body.index];
        e.J.block<1, 3>(5 * i + r, 6 * c) += sign * h.lin.transpose();
        e.J.block<1, 3>(5 * i + r, 6 * c + 3) += sign * ang.transpose();
      }
    }
  }
  return e;
}

}  // namespace

void project_joints(const Model& model, State& state) {
  // the revolute joints with a dynamic end, and a column block per dynamic body they move
  std::vector<int> joints;
  std::vector<int> column_of(model.rigid.size(), -1);
  std::vector<int> bodies;
  for (size_t k = 0; k < model.joints.size(); ++k) {
    const Joint& j = model.joints[k];
    if (j.kind != JointKind::Revolute || (!dynamic(model, j.a) && !dynamic(model, j.b))) continue;
    joints.push_back(static_cast<int>(k));
    for (const JointEnd* e : {&j.a, &j.b})
      if (dynamic(model, *e) && column_of[e->body.index] < 0) {
        column_of[e->body.index] = static_cast<int>(bodies.size());
        bodies.push_back(e->body.index);
      }
  }
  if (!joints.empty()) {
    // M⁻¹ of the bodies moved: 1/m and the world inverse inertia at the new pose
    const int nb = static_cast<int>(bodies.size());
    Eigen::MatrixXd Minv = Eigen::MatrixXd::Zero(6 * nb, 6 * nb);
    for (int c = 0; c < nb; ++c) {
      const RigidBody& b = model.rigid[bodies[c]];
      Minv.block<3, 3>(6 * c, 6 * c) = Mat3::Identity() / b.mass;
      Minv.block<3, 3>(6 * c + 3, 6 * c + 3) = world_inertia(b, state.rigid[bodies[c]].orientation).inverse();
    }
    // Newton on C(x) = 0 along M⁻¹Jᵀ: the smallest mass-weighted move onto the hinges
    constexpr int kIterations = 4;
    constexpr double kTolerance = 1e-13;  // [m] and [rad]
    for (int it = 0; it < kIterations; ++it) {
      const HingeErrors e = hinge_errors(model, state, joints, column_of);
      if (e.C.cwiseAbs().maxCoeff() <= kTolerance) break;
      const Eigen::MatrixXd MJt = Minv * e.J.transpose();
      Eigen::MatrixXd K = e.J * MJt;
      // a tiny regularization: redundant hinges (two on one axis) leave K singular
      K.diagonal().array() += 1e-12 * std::max(1.0, K.diagonal().maxCoeff());
      const VecX mu = K.ldlt().solve(-e.C);
      const VecX dq = MJt * mu;
      for (int c = 0; c < nb; ++c) {
        RigidBodyState& s = state.rigid[bodies[c]];
        s.position += dq.segment<3>(6 * c);
        const Vec3 dphi = dq.segment<3>(6 * c + 3);
        const double angle = dphi.norm();
        if (angle > 0.0) s.orientation = (Quat(Eigen::AngleAxisd(angle, dphi / angle)) * s.orientation).normalized();
      }
    }
  }
  for (size_t k = 0; k < model.joints.size(); ++k)
    if (model.joints[k].kind == JointKind::Revolute)
      state.joint_angle[k] = unwrap_angle(state.joint_angle[k], hinge_angle_wrapped(model, state, model.joints[k]));
}

}  // namespace suction
