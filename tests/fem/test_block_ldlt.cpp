// Supernodal block Cholesky: solves checked against Eigen's SimplicialLDLT on random SPD
// matrices with the 3×3-block pattern of a tet mesh, on the real implicit-Euler matrix of a cup,
// failure on non-SPD matrices, tiny sizes, and one analysis reused for many factorizations.
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <random>

#include "common/parallel.h"
#include "fem/block_kernels.h"
#include "fem/block_ldlt.h"
#include "fem/implicit_euler.h"
#include "mesh/generators.h"
#include "model/build.h"

using namespace suction;

namespace {

// Σ_e B_e B_eᵀ (B_e random 12×12) + shift·I over the tets: SPD, full symmetric 3×3-block pattern.
SparseMatrix random_spd(const TetMesh& mesh, std::mt19937& rng, double shift = 0.1) {
  std::normal_distribution<double> g(0.0, 1.0);
  const int n = 3 * static_cast<int>(mesh.nodes.size());
  std::vector<Eigen::Triplet<double>> t;
  for (const Tet& tet : mesh.tets) {
    Eigen::Matrix<double, 12, 12> B;
    for (int i = 0; i < 144; ++i) B(i) = g(rng);
    const Eigen::Matrix<double, 12, 12> K = B * B.transpose() / 12.0;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c)
            t.emplace_back(3 * tet[a] + r, 3 * tet[b] + c, K(3 * a + r, 3 * b + c));
  }
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, shift);
  SparseMatrix A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  A.makeCompressed();
  return A;
}

double residual(const SparseMatrix& A, const VecX& x, const VecX& b) {
  return (A * x - b).norm() / b.norm();
}

void expect_matches_eigen(const SparseMatrix& A, const BlockCholesky& chol, std::mt19937& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  VecX b(A.rows());
  for (int i = 0; i < b.size(); ++i) b[i] = g(rng);
  Eigen::SimplicialLDLT<SparseMatrix> ref(A);
  ASSERT_EQ(ref.info(), Eigen::Success);
  const VecX x_ref = ref.solve(b);
  const VecX x = chol.solve(b);
  EXPECT_LT(residual(A, x, b), 1e-10);
  EXPECT_LT((x - x_ref).norm() / x_ref.norm(), 1e-8);
  VecX y = b;
  chol.solve_in_place(y);
  EXPECT_LT((y - x).norm(), 1e-14 * x.norm());
}

// The implicit-Euler system matrix of the default cup at rest (E 4 MPa, h = 10 ms).
SparseMatrix cup_system_matrix() {
  Material m;
  m.young = 4e6;
  m.poisson = 0.45;
  m.density = 1100;
  const FemBody body = make_fem_body("cup", make_cup(CupParams{}), 0, m);
  FemSystem sys;
  init_fem_system(body, sys);
  const Points zero(body.rest.nodes.size(), Vec3::Zero());
  Points v_free;
  fem_free_motion(body, m, body.rest.nodes, zero, zero, zero, 0.01, sys, v_free);
  return sys.A;
}

// Bᵀ A⁻¹ B by dense solves with the factor: the oracle of inverse_quadratic_form
Eigen::MatrixXd dense_quadratic_form(const BlockCholesky& chol, const SparseMatrix& B) {
  Eigen::MatrixXd X = Eigen::MatrixXd(B);
  chol.solve_many_in_place(X);
  return Eigen::MatrixXd(B).transpose() * X;
}

}  // namespace

TEST(BlockCholesky, RandomBlockSpdMatchesEigen) {
  std::mt19937 rng(1);
  const TetMesh mesh = make_box(Vec3(1.0, 0.7, 0.5), 5, 4, 3);
  const SparseMatrix A = random_spd(mesh, rng);
  BlockCholesky chol;
  chol.analyze(A);
  EXPECT_EQ(chol.rows(), A.rows());
  ASSERT_TRUE(chol.factorize(A));
  EXPECT_GE(chol.factor_nonzeros(), static_cast<size_t>((A.nonZeros() + A.rows()) / 2));
  expect_matches_eigen(A, chol, rng);
}

TEST(BlockCholesky, ScalarBlockSizeAndMultipleRightHandSides) {
  std::mt19937 rng(2);
  const TetMesh mesh = make_box(Vec3(1.0, 1.0, 1.0), 3, 3, 3);
  const SparseMatrix A = random_spd(mesh, rng);
  for (int bs : {1, 3}) {
    BlockCholesky chol;
    chol.analyze(A, bs);
    ASSERT_TRUE(chol.factorize(A));
    expect_matches_eigen(A, chol, rng);
    const Eigen::MatrixXd B = Eigen::MatrixXd::Random(A.rows(), 4);
    const Eigen::MatrixXd X = chol.solve_many(B);
    for (int c = 0; c < 4; ++c) {
      EXPECT_LT(residual(A, X.col(c), B.col(c)), 1e-10);
      EXPECT_LT((X.col(c) - chol.solve(VecX(B.col(c)))).norm(), 1e-13 * X.col(c).norm());
    }
  }
}

TEST(BlockCholesky, ReusesAnalysisForChangedValues) {
  std::mt19937 rng(3);
  const TetMesh mesh = make_box(Vec3(1.0, 0.5, 0.5), 4, 3, 3);
  const SparseMatrix A0 = random_spd(mesh, rng);
  BlockCholesky chol;
  chol.analyze(A0);
  for (int step = 0; step < 4; ++step) {
    // same assembly order, new random values: same pattern
    const SparseMatrix A = random_spd(mesh, rng, 0.01 + step);
    ASSERT_EQ(A.nonZeros(), A0.nonZeros());
    ASSERT_TRUE(chol.factorize(A));
    expect_matches_eigen(A, chol, rng);
  }
}

TEST(BlockCholesky, NotPositiveDefiniteFails) {
  std::mt19937 rng(4);
  const TetMesh mesh = make_box(Vec3(1.0, 1.0, 1.0), 2, 2, 2);
  SparseMatrix A = random_spd(mesh, rng);
  BlockCholesky chol;
  chol.analyze(A);
  EXPECT_FALSE(chol.factorize(-A));  // negative definite
  EXPECT_FALSE(chol.factorized());
  SparseMatrix B = A;                 // indefinite: one very negative diagonal entry
  B.coeffRef(7, 7) = -100.0 * A.coeff(7, 7);
  EXPECT_FALSE(chol.factorize(B));
  SparseMatrix C = A;                 // NaN
  C.coeffRef(5, 5) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(chol.factorize(C));
  ASSERT_TRUE(chol.factorize(A));     // recovers with good values
  expect_matches_eigen(A, chol, rng);
}

TEST(BlockCholesky, TinyMatrices) {
  SparseMatrix one(1, 1);
  one.insert(0, 0) = 4.0;
  one.makeCompressed();
  BlockCholesky c1;
  c1.analyze(one);  // 1 row: block size falls back to 1
  ASSERT_TRUE(c1.factorize(one));
  EXPECT_NEAR(c1.solve(VecX::Constant(1, 2.0))[0], 0.5, 1e-15);

  Eigen::Matrix3d M;
  M << 4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2;
  SparseMatrix node = M.sparseView();
  node.makeCompressed();
  BlockCholesky c3;
  c3.analyze(node);
  ASSERT_TRUE(c3.factorize(node));
  const Eigen::Vector3d b(1, -2, 3);
  EXPECT_LT((M * c3.solve(b) - b).norm(), 1e-14);

  SparseMatrix neg = -node;
  EXPECT_FALSE(c3.factorize(neg));

  SparseMatrix empty(0, 0);
  BlockCholesky c0;
  c0.analyze(empty);
  EXPECT_TRUE(c0.factorize(empty));
  EXPECT_EQ(c0.solve(VecX()).size(), 0);
}

// The wide panels' factorization in WebAssembly (natively factorize takes Eigen's blocked LLT
// there, so it is checked here on its own): blocks of kTiledBlock columns updated by the tile
// kernel, against the column loop, on a panel with rows below its diagonal block and a last
// block narrower than the others; a pivot that is not positive in a later block fails.
TEST(BlockCholesky, TiledPanelMatchesTheColumnLoop) {
  std::mt19937 rng(11);
  std::normal_distribution<double> g(0.0, 1.0);
  const int n = 203, k = 150;  // 150 = 4 blocks of 32 + 22
  ASSERT_GT(k, 4 * block_kernels::kTiledBlock);
  Eigen::MatrixXd R(n, n + 7);
  for (Eigen::Index i = 0; i < R.size(); ++i) R(i) = g(rng);
  const Eigen::MatrixXd A = R * R.transpose() / n + 0.1 * Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd plain = A.leftCols(k), tiled = A.leftCols(k);  // n × k, leading dimension n
  std::vector<int> rel(n);
  std::vector<std::ptrdiff_t> tcol(block_kernels::kTiledBlock);
  ASSERT_TRUE(block_kernels::panel_cholesky(plain.data(), n, k));
  ASSERT_TRUE(block_kernels::panel_cholesky_tiled(tiled.data(), n, k, rel.data(), tcol.data()));
  // the top k × k block is L11 and the rows below are A21 L11⁻ᵀ, in the lower part
  double diff = 0.0, scale = 0.0;
  for (int j = 0; j < k; ++j)
    for (int i = j; i < n; ++i) {
      diff = std::max(diff, std::abs(plain(i, j) - tiled(i, j)));
      scale = std::max(scale, std::abs(plain(i, j)));
    }
  EXPECT_LT(diff, 1e-13 * scale);
  const Eigen::MatrixXd L = tiled.triangularView<Eigen::Lower>();
  EXPECT_LT((L.topRows(k) * L.topRows(k).transpose() - A.topLeftCorner(k, k)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((L.bottomRows(n - k) * L.topRows(k).transpose() - A.bottomLeftCorner(n - k, k)).cwiseAbs().maxCoeff(),
            1e-12);
  // a pivot in the fourth block that is not positive
  Eigen::MatrixXd bad = A.leftCols(k);
  bad(100, 100) = -1.0;
  EXPECT_FALSE(block_kernels::panel_cholesky_tiled(bad.data(), n, k, rel.data(), tcol.data()));
}

TEST(BlockCholesky, ImplicitEulerMatrixOfACup) {
  const SparseMatrix A = cup_system_matrix();
  BlockCholesky chol;
  chol.analyze(A);
  ASSERT_TRUE(chol.factorize(A));
  std::mt19937 rng(5);
  expect_matches_eigen(A, chol, rng);
}

// G = Bᵀ A⁻¹ B (the compliance's kernel) against a dense solve: on the cup's implicit-Euler
// matrix, with unit columns (contact rows against a rigid plane), 12-DOF columns spread over
// several nodes (their supernodes in different subtrees), one column over every node (a
// cavity row), an empty column, and more columns than one group (16).
TEST(BlockCholesky, InverseQuadraticFormMatchesADenseSolve) {
  const SparseMatrix A = cup_system_matrix();
  BlockCholesky chol;
  chol.analyze(A);
  ASSERT_TRUE(chol.factorize(A));
  const int n = static_cast<int>(A.rows()), nodes = n / 3;
  std::mt19937 rng(11);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_int_distribution<int> pick(0, nodes - 1);
  std::vector<Eigen::Triplet<double>> t;
  int col = 0;
  for (int i = 0; i < 30; ++i, ++col) t.emplace_back(3 * pick(rng) + i % 3, col, g(rng));  // unit
  for (int i = 0; i < 20; ++i, ++col)                                                     // 4 nodes
    for (int a = 0; a < 4; ++a) {
      const int node = pick(rng);
      for (int d = 0; d < 3; ++d) t.emplace_back(3 * node + d, col, g(rng));
    }
  for (int node = 0; node < nodes; ++node, col += 0)  // every node
    for (int d = 0; d < 3; ++d) t.emplace_back(3 * node + d, col, g(rng));
  ++col;
  ++col;  // an empty column
  SparseMatrix B(n, col);
  B.setFromTriplets(t.begin(), t.end());
  Eigen::MatrixXd G;
  chol.inverse_quadratic_form(B, G);
  const Eigen::MatrixXd ref = dense_quadratic_form(chol, B);
  ASSERT_EQ(G.rows(), col);
  ASSERT_EQ(G.cols(), col);
  EXPECT_LT((G - ref).norm(), 1e-10 * ref.norm());
  EXPECT_EQ((G - G.transpose()).norm(), 0.0) << "exactly symmetric";
  EXPECT_EQ(G.col(col - 1).norm(), 0.0) << "the empty column";
  // the default (dense) path of the interface agrees too
  Eigen::MatrixXd G2;
  chol.Factorization::inverse_quadratic_form(B, G2);
  EXPECT_LT((G2 - ref).norm(), 1e-10 * ref.norm());
  // and the groups and blocks spread over threads give the very same numbers
  const int old_threads = thread_count();
  for (int threads : {2, 3, 5}) {
    set_thread_count(threads);
    Eigen::MatrixXd Gt;
    chol.inverse_quadratic_form(B, Gt);
    EXPECT_EQ((Gt - G).cwiseAbs().maxCoeff(), 0.0) << threads << " threads";
  }
  set_thread_count(old_threads);
}

// The substitution takes a supernode's columns four at a time and the update tiles are 8 rows
// wide (block_ldlt.cpp): with scalar blocks (bs = 1) the supernodes have every width, so every
// remainder of those kernels runs; the quadratic form still matches dense solves.
TEST(BlockCholesky, InverseQuadraticFormOnScalarBlocksOfEveryWidth) {
  std::mt19937 rng(5);
  const TetMesh mesh = make_box(Vec3(1.0, 0.8, 0.6), 5, 4, 3);
  const SparseMatrix A = random_spd(mesh, rng);
  BlockCholesky chol;
  chol.analyze(A, 1);
  ASSERT_TRUE(chol.factorize(A));
  expect_matches_eigen(A, chol, rng);
  const int n = static_cast<int>(A.rows());
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_int_distribution<int> pick(0, n - 1);
  std::vector<Eigen::Triplet<double>> t;
  const int cols = 37;  // two groups of 16 and a short one
  for (int c = 0; c < cols; ++c)
    for (int a = 0; a < 1 + c % 5; ++a) t.emplace_back(pick(rng), c, g(rng));
  SparseMatrix B(n, cols);
  B.setFromTriplets(t.begin(), t.end());
  Eigen::MatrixXd G;
  chol.inverse_quadratic_form(B, G);
  const Eigen::MatrixXd ref = dense_quadratic_form(chol, B);
  EXPECT_LT((G - ref).norm(), 1e-10 * ref.norm());
  EXPECT_EQ((G - G.transpose()).norm(), 0.0) << "exactly symmetric";
  // the test is only as good as the widths it meets: every remainder modulo 4, and some wider
  // than a block of four columns and than a tile of eight rows
  std::vector<int> seen(4, 0);
  int widest = 0;
  for (int J = 0; J < chol.num_supernodes(); ++J) {
    ++seen[chol.supernode_columns(J) % 4];
    widest = std::max(widest, chol.supernode_columns(J));
  }
  for (int r = 0; r < 4; ++r) EXPECT_GT(seen[r], 0) << "no supernode of width " << r << " mod 4";
  EXPECT_GT(widest, 8);
}

// The scratch of inverse_quadratic_form is kept between calls, the root supernode's rows of all
// groups included (natively one matrix).  A group that reaches no supernode must not see the
// rows an earlier call left there: first every group reaches the root, then the second group is
// all empty columns.
TEST(BlockCholesky, InverseQuadraticFormKeepsNothingOfAnEarlierCall) {
  const SparseMatrix A = cup_system_matrix();
  BlockCholesky chol;
  chol.analyze(A);
  ASSERT_TRUE(chol.factorize(A));
  const int n = static_cast<int>(A.rows());
  std::mt19937 rng(17);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_int_distribution<int> pick(0, n - 1);
  std::vector<Eigen::Triplet<double>> all, half;
  for (int c = 0; c < 32; ++c) {
    const int row = pick(rng);
    const double v = g(rng);
    all.emplace_back(row, c, v);
    if (c < 16) half.emplace_back(row, c, v);
  }
  SparseMatrix B1(n, 32), B2(n, 32);
  B1.setFromTriplets(all.begin(), all.end());
  B2.setFromTriplets(half.begin(), half.end());
  Eigen::MatrixXd G1, G2;
  chol.inverse_quadratic_form(B1, G1);
  EXPECT_LT((G1 - dense_quadratic_form(chol, B1)).norm(), 1e-10 * G1.norm());
  chol.inverse_quadratic_form(B2, G2);
  EXPECT_EQ(G2.rightCols(16).norm(), 0.0) << "the empty columns";
  EXPECT_LT((G2 - dense_quadratic_form(chol, B2)).norm(), 1e-10 * G2.norm());
}
