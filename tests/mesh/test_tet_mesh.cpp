// Tet-mesh geometry: boundary extraction, quality, validation of tet meshes and surfaces.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/tet_mesh.h"

namespace suction {
namespace {

TetMesh unit_tet() {
  TetMesh m;
  m.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  m.tets = {{0, 1, 2, 3}};
  return m;
}

// the message of the InputError thrown by f ("" if none)
template <class F>
std::string tet_input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TetMesh, SignedVolumeOfUnitTet) {
  const TetMesh m = unit_tet();
  EXPECT_DOUBLE_EQ(tet_signed_volume(m.nodes[0], m.nodes[1], m.nodes[2], m.nodes[3]), 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(tet_signed_volume(m.nodes[0], m.nodes[2], m.nodes[1], m.nodes[3]), -1.0 / 6.0);
  EXPECT_DOUBLE_EQ(total_volume(m), 1.0 / 6.0);
}

TEST(TetMesh, BoundaryOfOneTetIsFourOutwardTriangles) {
  const TetMesh m = unit_tet();
  const BoundarySurface b = extract_boundary(m);
  ASSERT_EQ(b.surface.triangles.size(), 4u);
  ASSERT_EQ(b.surface.vertices.size(), 4u);
  const Vec3 centroid = (m.nodes[0] + m.nodes[1] + m.nodes[2] + m.nodes[3]) / 4.0;
  for (const Tri& t : b.surface.triangles) {
    const Vec3 &a = b.surface.vertices[t[0]], &p = b.surface.vertices[t[1]], &c = b.surface.vertices[t[2]];
    const Vec3 normal = (p - a).cross(c - a);
    EXPECT_GT(normal.dot((a + p + c) / 3.0 - centroid), 0.0) << "face points inward";
  }
  for (int v = 0; v < 4; ++v) EXPECT_EQ(b.surface.vertices[v], m.nodes[b.node_of_vertex[v]]);
  EXPECT_NO_THROW(validate_closed_surface(b.surface, "tet"));
  EXPECT_NEAR(enclosed_volume(b.surface), 1.0 / 6.0, 1e-15);
}

TEST(TetMesh, BoundaryOfBoxExcludesInteriorFaces) {
  const TetMesh m = make_box(Vec3(1, 1, 1), 2, 2, 2);
  const BoundarySurface b = extract_boundary(m);
  // each of the 6 sides: 2×2 squares, 2 triangles each
  EXPECT_EQ(b.surface.triangles.size(), 6u * 8u);
  EXPECT_EQ(b.surface.vertices.size(), 27u - 1u);  // all nodes but the centre
  EXPECT_NEAR(enclosed_volume(b.surface), 1.0, 1e-12);
}

TEST(TetMesh, RadiusRatioIsOneForRegularAndZeroForFlat) {
  const Vec3 a(1, 1, 1), b(1, -1, -1), c(-1, 1, -1), d(-1, -1, 1);
  EXPECT_NEAR(tet_radius_ratio(a, b, c, d), 1.0, 1e-12);
  EXPECT_NEAR(tet_radius_ratio(a, c, b, d), 1.0, 1e-12);  // orientation does not matter
  EXPECT_EQ(tet_radius_ratio(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)), 0.0);
  // a sliver is poor
  EXPECT_LT(tet_radius_ratio(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 1e-3)), 0.01);
}

TEST(TetMesh, ValidateAcceptsGoodMesh) {
  EXPECT_NO_THROW(validate_tet_mesh(unit_tet(), "tet"));
  EXPECT_NO_THROW(validate_tet_mesh(make_box(Vec3(1, 2, 3), 2, 3, 4), "box"));
}

TEST(TetMesh, ValidateRejectsFlatAndNearlyFlatTets) {
  // the fourth node at 0, ±1e-12 and 1e-11 off the plane of the other three
  for (double offset : {0.0, 1e-12, -1e-12, 1e-11}) {
    TetMesh m = unit_tet();
    m.nodes[3] = Vec3(0.3, 0.3, offset);
    const std::string msg = tet_input_error_of([&] { validate_tet_mesh(m, "cup"); });
    EXPECT_NE(msg.find("cup"), std::string::npos) << msg;
    EXPECT_NE(msg.find("tet 0 is degenerate"), std::string::npos) << "offset " << offset << ": " << msg;
  }
  // 1e-6 off the plane is a valid (poor) tet at the default tolerance
  TetMesh m = unit_tet();
  m.nodes[3] = Vec3(0.3, 0.3, 1e-6);
  EXPECT_NO_THROW(validate_tet_mesh(m, "cup"));
}

TEST(TetMesh, ValidateNamesTheInvertedTet) {
  TetMesh m = make_box(Vec3(1, 1, 1), 2, 2, 2);
  std::swap(m.tets[17][0], m.tets[17][1]);
  const std::string msg = tet_input_error_of([&] { validate_tet_mesh(m, "body 'cup'"); });
  EXPECT_NE(msg.find("body 'cup'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tet 17 is inverted"), std::string::npos) << msg;
}

TEST(TetMesh, ValidateRejectsBadIndicesRepeatsAndUnusedNodes) {
  TetMesh m = unit_tet();
  m.tets[0][2] = 99;
  EXPECT_NE(tet_input_error_of([&] { validate_tet_mesh(m, "x"); }).find("node index 99 out of range"),
            std::string::npos);
  m = unit_tet();
  m.tets[0][2] = 1;
  EXPECT_NE(tet_input_error_of([&] { validate_tet_mesh(m, "x"); }).find("tet 0 is degenerate"), std::string::npos);
  m = unit_tet();
  m.nodes.push_back(Vec3(5, 5, 5));
  EXPECT_NE(tet_input_error_of([&] { validate_tet_mesh(m, "x"); }).find("node 4 is not used"), std::string::npos);
  m = unit_tet();
  m.nodes[1].x() = std::nan("");
  EXPECT_NE(tet_input_error_of([&] { validate_tet_mesh(m, "x"); }).find("non-finite"), std::string::npos);
  EXPECT_THROW(validate_tet_mesh(TetMesh{}, "empty"), InputError);
}

TEST(TetMesh, ValidateClosedSurfaceDetectsDefects) {
  const SurfaceMesh good = make_box_surface(Vec3(1, 2, 3));
  EXPECT_NO_THROW(validate_closed_surface(good, "box"));
  EXPECT_NEAR(enclosed_volume(good), 6.0, 1e-12);

  SurfaceMesh open = good;
  open.triangles.pop_back();
  EXPECT_NE(tet_input_error_of([&] { validate_closed_surface(open, "box"); }).find("not closed"), std::string::npos);

  SurfaceMesh flipped_one = good;
  std::swap(flipped_one.triangles[0][0], flipped_one.triangles[0][1]);
  EXPECT_NE(tet_input_error_of([&] { validate_closed_surface(flipped_one, "box"); }).find("inconsistent"),
            std::string::npos);

  SurfaceMesh inside_out = good;
  for (Tri& t : inside_out.triangles) std::swap(t[1], t[2]);
  EXPECT_NE(tet_input_error_of([&] { validate_closed_surface(inside_out, "box"); }).find("inside out"),
            std::string::npos);

  // two tetrahedra sharing one edge: that edge has 4 triangles
  SurfaceMesh bowtie;
  bowtie.vertices = {Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(-1, 0, 0), Vec3(0, -1, 0)};
  for (int base : {2, 4}) {
    TetMesh t;
    t.nodes = bowtie.vertices;
    t.tets = {{0, base, base + 1, 1}};
    if (total_volume(t) < 0) std::swap(t.tets[0][2], t.tets[0][3]);
    const BoundarySurface b = extract_boundary(t);
    for (const Tri& f : b.surface.triangles)
      bowtie.triangles.push_back({b.node_of_vertex[f[0]], b.node_of_vertex[f[1]], b.node_of_vertex[f[2]]});
  }
  EXPECT_NE(tet_input_error_of([&] { validate_closed_surface(bowtie, "bowtie"); }).find("not manifold"),
            std::string::npos);

  SurfaceMesh bad_index = good;
  bad_index.triangles[3][1] = 42;
  EXPECT_NE(tet_input_error_of([&] { validate_closed_surface(bad_index, "box"); }).find("out of range"),
            std::string::npos);
}

TEST(TetMesh, BoundingBoxAndTransform) {
  Points p = {Vec3(1, 2, 3), Vec3(-1, 0, 5)};
  const Aabb box = bounding_box(p);
  EXPECT_EQ(box.lo, Vec3(-1, 0, 3));
  EXPECT_EQ(box.hi, Vec3(1, 2, 5));
  const Mat3 rz = Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()).toRotationMatrix();
  transform_points(p, rz, Vec3(0, 0, 1));
  EXPECT_TRUE(p[0].isApprox(Vec3(-2, 1, 4), 1e-12));
}

}  // namespace
}  // namespace suction
