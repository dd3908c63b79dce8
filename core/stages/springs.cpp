// Springs' rows (docs/method.md §8.6), after the cavity rows: each spring becomes one soft
// bilateral row along the line of its ends (three, x y z, for a zero-length spring) whose force
// the solver finds together with the contacts and pressures.  The row's force is the spring's
// force on end a at the end of the step, −k (L + h u − L0) − c u with u its rate of extension:
// implicit Euler, stable for any stiffness, with the bodies' implicit responses in W.
#include "model/springs.h"
#include "stages/stages.h"

namespace suction {

namespace {

// adds sign·(end's Jacobian for direction d) to `row`; returns the end's free velocity
Vec3 add_end_terms(const Model& m, const State& s, Workspace& w, const SpringEnd& end, double sign,
                   const Vec3& d, int row) {
  if (end.body.type == BodyType::Fem) {
    const FemBody& body = m.fem[end.body.index];
    const Points& v = w.fem_v_free[end.body.index];
    Vec3 velocity = Vec3::Zero();
    for (size_t i = 0; i < end.nodes.size(); ++i) {
      const int node = end.nodes[i];
      velocity += end.weights[i] * v[node];
      if (body.node_constraint[node] == kNodeFree)  // held nodes: no degree of freedom
        w.rows.fem_terms.push_back({row, end.body.index, node, sign * end.weights[i] * d});
    }
    return velocity;
  }
  const RigidWork& r = w.rigid[end.body.index];
  const Vec3 arm = s.rigid[end.body.index].orientation * end.local;
  if (m.rigid[end.body.index].kind == RigidKind::Dynamic)
    w.rows.rigid_terms.push_back({row, end.body.index, sign * d, sign * arm.cross(d)});
  return r.v_free + r.w_free.cross(arm);
}

}  // namespace

void add_spring_rows(const Model& model, const State& state, Workspace& work) {
  ConstraintLayout& layout = work.rows.layout;
  work.soft_rows.clear();
  layout.spring_rows = 0;
  if (model.springs.empty()) return;
  const double h = model.settings.dt;
  int total = 0;
  for (const Spring& s : model.springs) total += s.rows();
  const int first = layout.spring_row(0);
  work.u_free.conservativeResize(first + total);
  layout.spring_rows = total;
  int row = first;
  for (size_t k = 0; k < model.springs.size(); ++k) {
    const Spring& s = model.springs[k];
    const SpringGeometry g = spring_geometry(model, state, static_cast<int>(k));
    const double inv = 1.0 / (s.stiffness * h + s.damping);  // the row's compliance
    for (int j = 0; j < s.rows(); ++j, ++row) {
      const Vec3 d = s.zero_length() ? Vec3(Vec3::Unit(j)) : g.axis;
      const Vec3 va = add_end_terms(model, state, work, s.a, +1.0, d, row);
      const Vec3 vb = add_end_terms(model, state, work, s.b, -1.0, d, row);
      work.u_free[row] = d.dot(va - vb);
      const double extension = s.zero_length() ? g.delta[j] : g.length - s.rest_length;
      work.soft_rows.push_back({inv, s.stiffness * extension * inv});
    }
  }
}

void record_springs(const Model& model, State& state, const Workspace& work) {
  int row = work.rows.layout.spring_row(0);
  for (size_t k = 0; k < model.springs.size(); ++k) {
    const Spring& s = model.springs[k];
    Vec3 f = Vec3::Zero();
    for (int j = 0; j < s.rows(); ++j) f[j] = work.lambda[row++];
    state.spring_force[k] = f;
  }
}

void update_spring_axes(const Model& model, State& state) {
  for (size_t k = 0; k < model.springs.size(); ++k)
    state.spring_axis[k] = spring_geometry(model, state, static_cast<int>(k)).axis;
}

}  // namespace suction
