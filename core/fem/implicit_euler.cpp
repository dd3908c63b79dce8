#include "fem/implicit_euler.h"

#include <algorithm>

#include "common/error.h"
#include "common/parallel.h"
#include "fem/corotational.h"

namespace suction {

void node_rotations(const FemBody& body, const FemSystem& sys, std::vector<Mat3>& out) {
  const TetMesh& mesh = body.rest;
  out.assign(sys.num_free, Mat3::Zero());
  for (size_t e = 0; e < mesh.tets.size(); ++e)
    for (int a = 0; a < 4; ++a) {
      const int f = sys.free_index[mesh.tets[e][a]];
      if (f >= 0) out[f] += sys.rotations[e];
    }
  for (Mat3& r : out) r = polar_rotation(r);
}

void RotatedFactorization::solve_in_place(Eigen::Ref<Eigen::VectorXd> b) const {
  const Eigen::Index nodes = b.size() / 3;
  for (Eigen::Index i = 0; i < nodes; ++i) b.segment<3>(3 * i) = q_[i].transpose() * b.segment<3>(3 * i);
  f_.solve_in_place(b);
  for (Eigen::Index i = 0; i < nodes; ++i) b.segment<3>(3 * i) = q_[i] * b.segment<3>(3 * i);
}

void RotatedFactorization::solve_many_in_place(Eigen::Ref<Eigen::MatrixXd> B) const {
  const Eigen::Index nodes = B.rows() / 3;
  for (Eigen::Index i = 0; i < nodes; ++i) B.middleRows<3>(3 * i) = (q_[i].transpose() * B.middleRows<3>(3 * i)).eval();
  f_.solve_many_in_place(B);
  for (Eigen::Index i = 0; i < nodes; ++i) B.middleRows<3>(3 * i) = (q_[i] * B.middleRows<3>(3 * i)).eval();
}

void init_fem_system(const FemBody& body, FemSystem& sys) {
  const TetMesh& mesh = body.rest;
  const int n = static_cast<int>(mesh.nodes.size());
  sys.free_index.assign(n, -1);
  sys.num_free = 0;
  for (int i = 0; i < n; ++i)
    if (body.node_constraint[i] == kNodeFree) sys.free_index[i] = sys.num_free++;
  const int ndof = 3 * sys.num_free;

  // pattern: dense 3×3 blocks for every pair of free nodes sharing a tet
  std::vector<Eigen::Triplet<double>> trip;
  trip.reserve(mesh.tets.size() * 144);
  sys.held_tets.clear();
  for (size_t e = 0; e < mesh.tets.size(); ++e) {
    bool held = false;
    for (int a = 0; a < 4; ++a) {
      const int fa = sys.free_index[mesh.tets[e][a]];
      if (fa < 0) { held = true; continue; }
      for (int b = 0; b < 4; ++b) {
        const int fb = sys.free_index[mesh.tets[e][b]];
        if (fb < 0) continue;
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) trip.emplace_back(3 * fa + r, 3 * fb + c, 0.0);
      }
    }
    if (held) sys.held_tets.push_back(static_cast<int>(e));
  }
  for (int i = 0; i < sys.num_free; ++i)
    for (int r = 0; r < 3; ++r) trip.emplace_back(3 * i + r, 3 * i + r, 0.0);
  sys.A.resize(ndof, ndof);
  sys.A.setFromTriplets(trip.begin(), trip.end());
  sys.A.makeCompressed();

  // value offset of row 3·fa in column 3·fb + c (rows of a block are contiguous in a column)
  const int* outer = sys.A.outerIndexPtr();
  const int* inner = sys.A.innerIndexPtr();
  auto offset = [&](int row, int col) {
    const int* begin = inner + outer[col];
    const int* end = inner + outer[col + 1];
    return static_cast<int>(std::lower_bound(begin, end, row) - inner);
  };
  sys.block_offset.assign(mesh.tets.size() * 48, -1);
  for (size_t e = 0; e < mesh.tets.size(); ++e)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const int fa = sys.free_index[mesh.tets[e][a]];
        const int fb = sys.free_index[mesh.tets[e][b]];
        if (fa < 0 || fb < 0) continue;
        for (int c = 0; c < 3; ++c)
          sys.block_offset[e * 48 + (a * 4 + b) * 3 + c] = offset(3 * fa, 3 * fb + c);
      }
  sys.solver = std::make_unique<BlockCholesky>();
  if (ndof > 0) sys.solver->analyze(sys.A, 3);
  sys.rotations.resize(mesh.tets.size());
  sys.element_H.resize(mesh.tets.size());
  sys.element_energy.resize(mesh.tets.size());
  sys.elastic_force.assign(n, Vec3::Zero());
  sys.rhs.resize(ndof);
  sys.dv.resize(ndof);
}

int preconditioned_cg(const SparseMatrix& A, const Factorization& M, const VecX& b, VecX& x,
                      int max_iterations, double tol, VecX& r, VecX& z, VecX& p, VecX& q) {
  // stops when the correction M⁻¹ r (≈ the error of x, M ≈ A) is below tol · ‖x‖: the
  // residual r itself has a rounding floor far above tol · ‖b‖ for a stiff A
  x = b;
  M.solve_in_place(x);
  if (b.squaredNorm() == 0.0) return 0;  // b = 0: x = 0 exactly
  r = b;
  r.noalias() -= A * x;
  z = r;
  M.solve_in_place(z);
  if (z.norm() <= tol * x.norm()) return 0;
  p = z;
  double rz = r.dot(z);
  for (int it = 1; it <= max_iterations; ++it) {
    q.noalias() = A * p;
    const double pq = p.dot(q);
    if (!(pq > 0.0)) return -1;  // A not positive definite along p (or NaN)
    const double alpha = rz / pq;
    x += alpha * p;
    r -= alpha * q;
    z = r;
    M.solve_in_place(z);
    if (z.norm() <= tol * x.norm()) return it;
    const double rz_next = r.dot(z);
    p = z + (rz_next / rz) * p;
    rz = rz_next;
  }
  return -1;
}

// conjugate gradients on the step's A preconditioned by the kept factorization, turned with the
// nodes when the reuse follows rotation (FactorizationReuse::follow_rotation)
static int cg_on_kept_factor(FemSystem& sys, const FactorizationReuse& reuse, const VecX& b, VecX& x,
                             int max_iterations) {
  const RotatedFactorization turned(*sys.solver, sys.rotation);
  const Factorization& kept = reuse.follow_rotation ? static_cast<const Factorization&>(turned) : *sys.solver;
  return preconditioned_cg(sys.A, kept, b, x, max_iterations, kCgTolerance, sys.cg_r, sys.cg_z, sys.cg_p, sys.cg_q);
}

// factorizes the step's A and records it: a new generation, age 0, and (with reuse) the copy
// of A the backends read
static void factorize_step_system(const FemBody& body, FemSystem& sys, const FactorizationReuse& reuse) {
  if (!sys.solver->factorize(sys.A))
    throw SimulationError("body '" + body.name + "': the implicit system is not positive definite");
  ++sys.factor_generation;
  sys.factor_age = 0;
  if (reuse.reuse) sys.A_factored = sys.A;
  // (follow_rotation) the nodes' rotations now are the factor's frame: Q_i = I
  if (reuse.reuse && reuse.follow_rotation) {
    sys.factor_rotation = sys.node_scratch;  // (this step's, fem_free_motion's)
    std::fill(sys.rotation.begin(), sys.rotation.end(), Mat3::Identity());
  }
}

// elements per task of the parallel element pass
constexpr int kElementChunk = 32;

void fem_free_motion(const FemBody& body, const Material& material, const Points& x,
                     const Points& v, const Points& v_held, const Points& applied, double h,
                     FemSystem& sys, Points& v_free, const FactorizationReuse& reuse) {
  const TetMesh& mesh = body.rest;
  const int n = static_cast<int>(mesh.nodes.size());
  const double alpha = material.damping_mass, beta = material.damping_stiffness;
  const double kcoef = h * beta + h * h;  // multiplies K_w in A and in b

  // per element, independent of the others (in parallel, common/parallel.h): rotation, force
  // columns and energy at the start of the step
  const int ne = static_cast<int>(mesh.tets.size());  // the per-tet arrays: init_fem_system
  parallel_for((ne + kElementChunk - 1) / kElementChunk, [&](int chunk, int) {
    const int end = std::min(ne, (chunk + 1) * kElementChunk);
    for (int e = chunk * kElementChunk; e < end; ++e) {
      const ElementElastic r = element_elastic(body.elements, mesh, x, e);
      sys.rotations[e] = r.R;
      sys.element_H[e] = r.H;
      sys.element_energy[e] = r.energy;
    }
  });
  // the sums, serially in element order: the same bits for any number of threads
  std::fill(sys.elastic_force.begin(), sys.elastic_force.end(), Vec3::Zero());
  sys.elastic_energy = 0.0;
  for (int e = 0; e < ne; ++e) {
    sys.elastic_energy += sys.element_energy[e];
    scatter_element_force(mesh, e, sys.element_H[e], sys.elastic_force);
  }
  sys.applied_force = applied;

  // b = h (f_el + f_applied − α M v) on free nodes; diagonal mass part of A
  double* values = sys.A.valuePtr();
  std::fill(values, values + sys.A.nonZeros(), 0.0);
  for (int i = 0; i < n; ++i) {
    const int fi = sys.free_index[i];
    if (fi < 0) continue;
    const double m = body.node_mass[i];
    sys.rhs.segment<3>(3 * fi) = h * (sys.elastic_force[i] + applied[i] - alpha * m * v[i]);
    for (int r = 0; r < 3; ++r) sys.A.coeffRef(3 * fi + r, 3 * fi + r) += (1.0 + h * alpha) * m;
  }

  // element blocks: A += (hβ + h²) R K_e Rᵀ;  b −= (hβ + h²) K_w v;  held coupling b −= A_fd Δv_d
  for (int e = 0; e < ne; ++e) {
    const Tet& t = mesh.tets[e];
    const Mat12 Kw = kcoef * warped_stiffness(body.elements, e, sys.rotations[e]);
    Vec12 ve, dve;
    for (int a = 0; a < 4; ++a) {
      ve.segment<3>(3 * a) = v[t[a]];
      dve.segment<3>(3 * a) = sys.free_index[t[a]] < 0 ? Vec3(v_held[t[a]] - v[t[a]]) : Vec3::Zero();
    }
    const Vec12 kv = Kw * (ve + dve);
    for (int a = 0; a < 4; ++a) {
      const int fa = sys.free_index[t[a]];
      if (fa < 0) continue;
      sys.rhs.segment<3>(3 * fa) -= kv.segment<3>(3 * a);
      for (int b = 0; b < 4; ++b) {
        const int* off = &sys.block_offset[e * 48 + (a * 4 + b) * 3];
        if (off[0] < 0) continue;
        for (int c = 0; c < 3; ++c)
          for (int r = 0; r < 3; ++r) values[off[c] + r] += Kw(3 * a + r, 3 * b + c);
      }
    }
  }

  // the step's factorization serves every other A⁻¹ product of the step: a new one, or (with
  // reuse) the last one while it still preconditions A well
  sys.cg_iterations = 0;
  // (follow_rotation) Q_i = R_i,now R_i,factorᵀ: the kept factor turned with the nodes
  if (reuse.reuse && reuse.follow_rotation && sys.num_free > 0) {
    node_rotations(body, sys, sys.node_scratch);
    if (sys.factor_rotation.size() != sys.node_scratch.size()) sys.factor_rotation = sys.node_scratch;  // (no factor yet)
    sys.rotation.resize(sys.node_scratch.size());
    for (size_t i = 0; i < sys.rotation.size(); ++i)
      sys.rotation[i] = sys.node_scratch[i] * sys.factor_rotation[i].transpose();
  }
  // (lag_drift) the kept A₀ is this step's matrix while the free motion it gives, Δv₀ = A₀⁻¹ b,
  // is within lag_drift of the step's own A⁻¹ b: its error A⁻¹ (b − A Δv₀), estimated with A₀
  // (one product with A and one solve), at most lag_drift ‖Δv₀‖
  sys.lagged = false;
  sys.lag = 0.0;
  const bool lag = reuse.reuse && reuse.lag_drift > 0.0 && !reuse.follow_rotation;
  if (lag && sys.num_free > 0 && sys.factor_age >= 0 && sys.factor_age < reuse.max_age) {
    sys.dv = sys.rhs;
    sys.solver->solve_in_place(sys.dv);
    sys.cg_r = sys.rhs;
    sys.cg_r.noalias() -= sys.A * sys.dv;
    sys.solver->solve_in_place(sys.cg_r);
    const double size = sys.dv.norm();
    sys.lag = size > 0.0 ? sys.cg_r.norm() / size : 0.0;
    if (sys.lag <= reuse.lag_drift) {
      sys.lagged = true;
      ++sys.factor_age;
    }
  }
  if (lag && sys.num_free > 0 && !sys.lagged) {  // drifted (or none yet): factorized again
    factorize_step_system(body, sys, reuse);
    sys.dv = sys.solver->solve(sys.rhs);
  } else if (sys.num_free > 0 && !sys.lagged) {
    bool fresh = !reuse.reuse || sys.factor_age < 0 || sys.factor_age >= reuse.max_age;
    // after a failed attempt the next ones wait (1, 2, 4, 8 steps): while the body moves, its
    // A changes too much per step, and each failure costs max_cg_iterations solves for nothing
    if (!fresh && sys.cg_wait > 0) {
      --sys.cg_wait;
      fresh = true;
    }
    if (!fresh) {
      const int it = cg_on_kept_factor(sys, reuse, sys.rhs, sys.dv, reuse.max_cg_iterations);
      if (it < 0) {
        fresh = true;
        sys.cg_backoff = std::min(std::max(1, 2 * sys.cg_backoff), kMaxCgBackoff);
        sys.cg_wait = sys.cg_backoff;
      } else {
        sys.cg_iterations = it;
        sys.cg_backoff = 0;
        ++sys.factor_age;
      }
    }
    if (fresh) {
      factorize_step_system(body, sys, reuse);
      sys.dv = sys.solver->solve(sys.rhs);
    }
  }
  v_free.resize(n);
  for (int i = 0; i < n; ++i) {
    const int fi = sys.free_index[i];
    v_free[i] = fi < 0 ? v_held[i] : Vec3(v[i] + sys.dv.segment<3>(3 * fi));
  }
}

void fem_solve_step_system(const FemBody& body, FemSystem& sys, const FactorizationReuse& reuse,
                           Eigen::Ref<VecX> b) {
  if (sys.num_free == 0) return;
  if (sys.factor_age > 0 && !sys.lagged) {
    sys.cg_x.resize(b.size());
    sys.cg_b = b;
    const int it = cg_on_kept_factor(sys, reuse, sys.cg_b, sys.cg_x, 3 * reuse.max_cg_iterations);
    if (it >= 0) {
      b = sys.cg_x;
      sys.cg_iterations += it;
      return;
    }
    factorize_step_system(body, sys, reuse);
  }
  sys.solver->solve_in_place(b);
}

Vec3 fem_held_reaction(const FemBody& body, const Material& material, const FemSystem& sys,
                       const Points& v_old, const Points& v_new, double h,
                       const std::vector<int>& nodes) {
  const TetMesh& mesh = body.rest;
  const double alpha = material.damping_mass, beta = material.damping_stiffness;
  // (β + h) K_w v' restricted to held nodes, from the tets that touch them
  Points kv(mesh.nodes.size(), Vec3::Zero());
  for (int e : sys.held_tets) {
    const Tet& t = mesh.tets[e];
    Vec12 ve;
    for (int a = 0; a < 4; ++a) ve.segment<3>(3 * a) = v_new[t[a]];
    const Vec12 f = (beta + h) * warped_stiffness(body.elements, e, sys.rotations[e]) * ve;
    for (int a = 0; a < 4; ++a) kv[t[a]] += f.segment<3>(3 * a);
  }
  Vec3 r = Vec3::Zero();
  for (int i : nodes) {
    const double m = body.node_mass[i];
    r += m * (v_new[i] - v_old[i]) / h + alpha * m * v_new[i] + kv[i] - sys.elastic_force[i] -
         sys.applied_force[i];
  }
  return r;
}

}  // namespace suction
