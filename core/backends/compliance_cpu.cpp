// CPU compliance backend (docs/method.md §7): W = h H A⁻¹ Hᵀ, exact for the step's A.
// FEM bodies: G = H_b A⁻¹ H_bᵀ from the step's factorization with H_b sparse (a contact row
// touches at most 12 DOFs); the supernodal Cholesky computes it as Yᵀ Y, Y = L⁻¹ P H_bᵀ, over
// the supernodes each row reaches (fem/block_ldlt.h); rigid bodies: analytic J M⁻¹ Jᵀ.
#include "backends/compliance_cpu.h"

#include <algorithm>
#include <cstdint>

namespace suction {

namespace {

class CpuCompliance final : public ComplianceBackend {
 public:
  const char* name() const override { return "cpu"; }
  bool applies_rotation() const override { return true; }

  void init(const ComplianceSetup&) override { cache_.clear(); }  // a new model: nothing kept

  void build(const ComplianceInput& in, Eigen::MatrixXd& W) override {
    const ConstraintRows& rows = *in.rows;
    W.setZero(rows.count(), rows.count());
    add_fem_blocks(in, rows, W);
    add_rigid_blocks(in, rows, W);
  }

 private:
  // per FEM body: Z = A⁻¹ H_bᵀ (one column per row touching b), W[r,s] += h H_b[r]·Z[:,s]
  void add_fem_blocks(const ComplianceInput& in, const ConstraintRows& rows, Eigen::MatrixXd& W) {
    const double h = in.h;
    for (size_t b = 0; b < in.fem.size(); ++b) {
      const ComplianceFemSystem& sys = in.fem[b];
      const std::vector<int>& free_index = *sys.free_index;
      // rows touching this body's free nodes, in increasing order
      row_local_.assign(rows.count(), -1);
      body_rows_.clear();
      terms_.clear();
      for (const auto& t : rows.fem_terms) {
        if (t.body != static_cast<int>(b) || free_index[t.node] < 0) continue;
        terms_.push_back(&t);
        if (row_local_[t.row] < 0) {
          row_local_[t.row] = 0;
          body_rows_.push_back(t.row);
        }
      }
      if (body_rows_.empty()) continue;
      std::sort(body_rows_.begin(), body_rows_.end());
      for (size_t k = 0; k < body_rows_.size(); ++k) row_local_[body_rows_[k]] = static_cast<int>(k);
      const int k_rows = static_cast<int>(body_rows_.size());
      if (in.factorizations_reused) {
        add_fem_block_cached(sys, b, h, W);
        continue;
      }
      // B = H_bᵀ restricted to the body's free DOFs (one column per row), G = Bᵀ A⁻¹ B
      triplets_.clear();
      for (const auto* t : terms_)
        for (int d = 0; d < 3; ++d)
          if (t->coeff[d] != 0.0) triplets_.emplace_back(3 * free_index[t->node] + d, row_local_[t->row], t->coeff[d]);
      B_.resize(3 * sys.num_free, k_rows);
      B_.setFromTriplets(triplets_.begin(), triplets_.end());
      sys.factorization->inverse_quadratic_form(B_, G_);
      for (int s = 0; s < k_rows; ++s)
        for (int r = 0; r < k_rows; ++r) W(body_rows_[r], body_rows_[s]) += h * G_(r, s);
    }
  }

  // With a factorization kept across steps (ComplianceInput::factorizations_reused), A⁻¹ on the
  // DOFs of the nodes that narrow rows (contacts, at most kNarrow terms) touch is kept per body:
  // G = Eᵀ A⁻¹ E, E the unit columns of those nodes' DOFs, recomputed only when the
  // factorization changes or a new node appears (nodes stay until then, so a contact that comes
  // and goes costs nothing).  A narrow row pair then costs cᵣᵀ G cₛ over their terms.  Wide rows
  // (a cavity's pressure row touches its whole wall) take one solve z = A⁻¹ bₚ each.  Exact for
  // the factorized A: the same W as the direct path to rounding (tests/backends).
  static constexpr int kNarrow = 4;
  struct NodeCache {
    bool valid = false;
    std::uint64_t generation = 0;
    std::vector<int> slot;   // per free node: its slot in G, -1 when not kept
    std::vector<int> nodes;  // per slot: the free node
    Eigen::MatrixXd G;       // 3·slots square
  };

  void add_fem_block_cached(const ComplianceFemSystem& sys, size_t b, double h, Eigen::MatrixXd& W) {
    if (cache_.size() <= b) cache_.resize(b + 1);
    NodeCache& c = cache_[b];
    const std::vector<int>& free_index = *sys.free_index;
    if (!c.valid || c.generation != sys.factor_generation || static_cast<int>(c.slot.size()) != sys.num_free) {
      c.valid = true;
      c.generation = sys.factor_generation;
      c.slot.assign(sys.num_free, -1);
      c.nodes.clear();
      c.G.resize(0, 0);
    }
    const int k_rows = static_cast<int>(body_rows_.size());
    // the body's terms grouped by local row
    row_start_.assign(k_rows + 1, 0);
    for (const auto* t : terms_) ++row_start_[row_local_[t->row] + 1];
    for (int r = 0; r < k_rows; ++r) row_start_[r + 1] += row_start_[r];
    row_terms_.resize(terms_.size());
    fill_.assign(row_start_.begin(), row_start_.end() - 1);
    for (const auto* t : terms_) row_terms_[fill_[row_local_[t->row]]++] = t;
    // the rows' coefficients in the kept factor's frame: W = h H (Q A_f⁻¹ Qᵀ) Hᵀ, so a term of
    // free node f enters as Q_fᵀ c (follow_rotation; without it as it is)
    coeff_.resize(row_terms_.size());
    for (size_t i = 0; i < row_terms_.size(); ++i)
      coeff_[i] = sys.rotation ? Vec3((*sys.rotation)[free_index[row_terms_[i]->node]].transpose() * row_terms_[i]->coeff)
                               : row_terms_[i]->coeff;
    auto narrow = [&](int r) { return row_start_[r + 1] - row_start_[r] <= kNarrow; };
    // new nodes of narrow rows: G again over all kept nodes
    bool grown = false;
    for (int r = 0; r < k_rows; ++r) {
      if (!narrow(r)) continue;
      for (int i = row_start_[r]; i < row_start_[r + 1]; ++i) {
        const int f = free_index[row_terms_[i]->node];
        if (c.slot[f] >= 0) continue;
        c.slot[f] = static_cast<int>(c.nodes.size());
        c.nodes.push_back(f);
        grown = true;
      }
    }
    if (grown) {
      triplets_.clear();
      for (size_t k = 0; k < c.nodes.size(); ++k)
        for (int d = 0; d < 3; ++d) triplets_.emplace_back(3 * c.nodes[k] + d, static_cast<int>(3 * k + d), 1.0);
      B_.resize(3 * sys.num_free, static_cast<int>(3 * c.nodes.size()));
      B_.setFromTriplets(triplets_.begin(), triplets_.end());
      sys.factorization->inverse_quadratic_form(B_, c.G);
    }
    // narrow × narrow: v_r = G c_r (3·slots), W_rs = c_sᵀ v_r, each pair once (s ≥ r) into a
    // local block wl_, then added to W column by column.  W is column-major: adding W(r, s)
    // beside W(s, r) pair by pair stored across a column of W at every s: this loop was 0.66 s
    // of pull_test's 4.9 s at interactive quality (perf), 0.52 s now.  The same w still goes to
    // both entries, once each, so W is exactly symmetric, and bit for bit as before where one
    // body has the rows (with two, a multiply-add may now be fused: 1e-16 relative).
    narrow_.clear();
    for (int r = 0; r < k_rows; ++r)
      if (narrow(r)) narrow_.push_back(r);
    slot_off_.resize(row_terms_.size());  // per term of a narrow row: its node's offset in G
    for (int r : narrow_)
      for (int i = row_start_[r]; i < row_start_[r + 1]; ++i)
        slot_off_[i] = 3 * c.slot[free_index[row_terms_[i]->node]];
    const int m3 = static_cast<int>(c.G.rows());
    const int kn = static_cast<int>(narrow_.size());
    vr_.resize(m3);
    const int ld = kn | 1;  // odd: no power-of-two stride across wl_'s columns
    wl_.resize(static_cast<size_t>(ld) * kn);
    for (int a = 0; a < kn; ++a) {
      const int r = narrow_[a];
      vr_.setZero();
      for (int i = row_start_[r]; i < row_start_[r + 1]; ++i)
        vr_.noalias() += c.G.middleCols<3>(slot_off_[i]) * coeff_[i];
      double* col = wl_.data() + static_cast<size_t>(a) * ld;
      for (int b = a; b < kn; ++b) {
        const int s = narrow_[b];
        double w = 0.0;
        for (int i = row_start_[s]; i < row_start_[s + 1]; ++i) w += coeff_[i].dot(vr_.segment<3>(slot_off_[i]));
        col[b] = w;
      }
    }
    // W column by column, eight at a time: column a takes w(b, a) for b ≥ a from wl_'s column a
    // and w(a, b) for b < a across wl_'s columns, eight adjacent entries of each at once
    wrow_.resize(kn);
    for (int b = 0; b < kn; ++b) wrow_[b] = body_rows_[narrow_[b]];
    const int* wrow = wrow_.data();
    constexpr int kCols = 8;
    double* Wc[kCols];
    for (int a0 = 0; a0 < kn; a0 += kCols) {
      const int na = std::min(kCols, kn - a0);
      for (int j = 0; j < na; ++j) Wc[j] = &W(0, wrow[a0 + j]);
      for (int b = 0; b < a0; ++b) {
        const double* src = wl_.data() + static_cast<size_t>(b) * ld + a0;
        for (int j = 0; j < na; ++j) Wc[j][wrow[b]] += h * src[j];
      }
      for (int j = 0; j < na; ++j) {
        const int a = a0 + j;
        for (int b = a0; b < a; ++b) Wc[j][wrow[b]] += h * wl_[static_cast<size_t>(b) * ld + a];
        const double* col = wl_.data() + static_cast<size_t>(a) * ld;
        double* __restrict Wa = Wc[j];
        for (int b = a; b < kn; ++b) Wa[wrow[b]] += h * col[b];
      }
    }
    // wide rows: z = A⁻¹ b_p, W_pq = b_qᵀ z for wide q ≥ p and c_rᵀ z for narrow r
    wide_.clear();
    for (int r = 0; r < k_rows; ++r)
      if (!narrow(r)) wide_.push_back(r);
    if (wide_.empty()) return;
    wide_b_.setZero(3 * sys.num_free, static_cast<Eigen::Index>(wide_.size()));
    for (size_t k = 0; k < wide_.size(); ++k)
      for (int i = row_start_[wide_[k]]; i < row_start_[wide_[k] + 1]; ++i)
        wide_b_.col(k).segment<3>(3 * free_index[row_terms_[i]->node]) += coeff_[i];
    for (size_t k = 0; k < wide_.size(); ++k) {
      const int p = wide_[k];
      z_ = wide_b_.col(k);
      sys.factorization->solve_in_place(z_);
      for (size_t l = k; l < wide_.size(); ++l) {
        const double w = wide_b_.col(l).dot(z_);
        W(body_rows_[p], body_rows_[wide_[l]]) += h * w;
        if (l != k) W(body_rows_[wide_[l]], body_rows_[p]) += h * w;
      }
      for (int r = 0; r < k_rows; ++r) {
        if (!narrow(r)) continue;
        double w = 0.0;
        for (int i = row_start_[r]; i < row_start_[r + 1]; ++i)
          w += coeff_[i].dot(z_.segment<3>(3 * free_index[row_terms_[i]->node]));
        W(body_rows_[p], body_rows_[r]) += h * w;
        W(body_rows_[r], body_rows_[p]) += h * w;
      }
    }
  }

  // per dynamic rigid body b with terms (rows) r, s: W[r,s] += h (l_r·l_s / m + a_rᵀ I_w⁻¹ a_s),
  // as one product J M⁻¹ Jᵀ per body (J: the body's terms × 6) rather than a loop over all
  // pairs of terms of all bodies
  void add_rigid_blocks(const ComplianceInput& in, const ConstraintRows& rows, Eigen::MatrixXd& W) {
    const double h = in.h;
    for (size_t b = 0; b < in.rigid.size(); ++b) {
      rigid_terms_.clear();
      for (const auto& t : rows.rigid_terms)
        if (t.body == static_cast<int>(b)) rigid_terms_.push_back(&t);
      if (rigid_terms_.empty()) continue;
      const ComplianceRigidBody& body = in.rigid[b];
      const int nt = static_cast<int>(rigid_terms_.size());
      J_.resize(nt, 6);
      MJ_.resize(nt, 6);  // rows of J M⁻¹
      for (int i = 0; i < nt; ++i) {
        const auto& t = *rigid_terms_[i];
        J_.block<1, 3>(i, 0) = t.linear.transpose();
        J_.block<1, 3>(i, 3) = t.angular.transpose();
        MJ_.block<1, 3>(i, 0) = t.linear.transpose() / body.mass;
        MJ_.block<1, 3>(i, 3) = (body.inverse_inertia * t.angular).transpose();
      }
      S_.noalias() = MJ_ * J_.transpose();
      for (int j = 0; j < nt; ++j)
        for (int i = 0; i < nt; ++i) W(rigid_terms_[i]->row, rigid_terms_[j]->row) += h * S_(i, j);
    }
  }

  std::vector<NodeCache> cache_;  // per FEM body
  std::vector<int> row_start_, fill_, wide_, narrow_, slot_off_, wrow_;
  std::vector<const ConstraintRows::FemTerm*> row_terms_;
  std::vector<Vec3> coeff_;  // per row_terms_: the coefficient in the factor's frame
  Eigen::VectorXd vr_, z_;
  Eigen::MatrixXd wide_b_;
  std::vector<double> wl_;  // the narrow rows' block of W (leading dimension odd)
  std::vector<int> row_local_, body_rows_;
  std::vector<const ConstraintRows::FemTerm*> terms_;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseMatrix<double> B_;
  Eigen::MatrixXd G_;
  std::vector<const ConstraintRows::RigidTerm*> rigid_terms_;
  Eigen::Matrix<double, Eigen::Dynamic, 6> J_, MJ_;
  Eigen::MatrixXd S_;
};

}  // namespace

std::unique_ptr<ComplianceBackend> make_cpu_compliance_backend() { return std::make_unique<CpuCompliance>(); }

}  // namespace suction
