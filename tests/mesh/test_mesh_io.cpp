// Mesh readers: Gmsh v2/v4 ASCII, OBJ, STL ASCII/binary; errors name the file and line.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/mesh_io.h"

namespace suction {
namespace {

const std::string kData = SUCTION_TEST_DATA_DIR;

template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_unit_cube_tets(const TetMesh& m, const std::string& name) {
  SCOPED_TRACE(name);
  EXPECT_EQ(m.nodes.size(), 8u);  // the unused node 99 is dropped
  EXPECT_EQ(m.tets.size(), 6u);   // points, lines and triangles are ignored
  EXPECT_NO_THROW(validate_tet_mesh(m, name));  // the inverted tet was flipped
  EXPECT_NEAR(total_volume(m), 1.0, 1e-14);
  EXPECT_NO_THROW(validate_closed_surface(extract_boundary(m).surface, name));
}

void expect_unit_cube_surface(const SurfaceMesh& s, const std::string& name) {
  SCOPED_TRACE(name);
  EXPECT_EQ(s.vertices.size(), 8u);
  EXPECT_EQ(s.triangles.size(), 12u);
  EXPECT_NO_THROW(validate_closed_surface(s, name));
  EXPECT_NEAR(enclosed_volume(s), 1.0, 1e-14);
}

TEST(MeshIo, ReadsGmshV2) { expect_unit_cube_tets(read_gmsh(kData + "/cube_v2.msh"), "v2"); }

TEST(MeshIo, ReadsGmshV41) { expect_unit_cube_tets(read_gmsh(kData + "/cube_v41.msh"), "v4.1"); }

TEST(MeshIo, ReadsGmshV40AndCrLf) {
  const std::string v40 =
      "$MeshFormat\r\n4 0 8\r\n$EndMeshFormat\r\n$Nodes\r\n1 4\r\n1 3 0 4\r\n"
      "7 0 0 0\r\n8 1 0 0\r\n9 0 1 0\r\n10 0 0 1\r\n$EndNodes\r\n"
      "$Elements\r\n1 1\r\n1 3 4 1\r\n1 7 9 8 10\r\n$EndElements\r\n";
  const TetMesh m = parse_gmsh(v40, "v40.msh");
  ASSERT_EQ(m.tets.size(), 1u);
  EXPECT_NEAR(total_volume(m), 1.0 / 6.0, 1e-15);  // given inverted, flipped
}

// The writer's text reads back as the same mesh, bit for bit: what a scene ships as a file
// (a mesh made once, read by the native and the WebAssembly builds alike) is the mesh it was.
TEST(MeshIo, WrittenGmshReadsBackBitForBit) {
  TetMesh m = make_sphere(0.0123, 6);
  for (Vec3& x : m.nodes) x += Vec3(0.1, -1.0 / 3.0, 2e-7);  // digits that need all 17
  const TetMesh back = parse_gmsh(format_gmsh(m), "written.msh");
  ASSERT_EQ(back.nodes.size(), m.nodes.size());
  ASSERT_EQ(back.tets.size(), m.tets.size());
  for (size_t i = 0; i < m.nodes.size(); ++i) ASSERT_EQ(back.nodes[i], m.nodes[i]) << "node " << i;
  for (size_t k = 0; k < m.tets.size(); ++k) ASSERT_EQ(back.tets[k], m.tets[k]) << "tet " << k;
  const std::string msg = input_error_of([&] { write_gmsh("/nonexistent-dir/x.msh", m); });
  EXPECT_NE(msg.find("/nonexistent-dir/x.msh"), std::string::npos) << msg;
}

TEST(MeshIo, GmshErrorsNameFileAndLine) {
  const std::string msg = input_error_of([&] { read_gmsh(kData + "/bad_tet.msh"); });
  EXPECT_NE(msg.find("bad_tet.msh:13: expected 4 node tags for a tetrahedron"), std::string::npos) << msg;

  const std::string header = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string unknown_node = header +
                                   "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n"
                                   "$Elements\n1\n1 4 0 1 2 3 5\n$EndElements\n";
  EXPECT_NE(input_error_of([&] { parse_gmsh(unknown_node, "a.msh"); }).find("a.msh:13: tetrahedron refers to unknown node tag 5"),
            std::string::npos);
  const std::string bad_number = header + "$Nodes\n1\n1 0 zero 0\n$EndNodes\n";
  EXPECT_NE(input_error_of([&] { parse_gmsh(bad_number, "b.msh"); }).find("b.msh:6: expected a finite number"),
            std::string::npos);
  const std::string truncated = header + "$Nodes\n2\n1 0 0 0\n";
  EXPECT_NE(input_error_of([&] { parse_gmsh(truncated, "c.msh"); }).find("unexpected end of file"),
            std::string::npos);
  const std::string binary = "$MeshFormat\n4.1 1 8\n\x01\x00\x00\x00\n$EndMeshFormat\n";
  EXPECT_NE(input_error_of([&] { parse_gmsh(binary, "d.msh"); }).find("d.msh:2: binary .msh not supported, save as ASCII"),
            std::string::npos);
  const std::string no_tets = header + "$Nodes\n1\n1 0 0 0\n$EndNodes\n$Elements\n1\n1 15 0 1\n$EndElements\n";
  EXPECT_NE(input_error_of([&] { parse_gmsh(no_tets, "e.msh"); }).find("no tetrahedra"), std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_gmsh("$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", "f.msh"); })
                .find("unsupported .msh version 3.0"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { read_gmsh(kData + "/does_not_exist.msh"); }).find("cannot open"),
            std::string::npos);
}

TEST(MeshIo, ReadsObjWithAllFaceForms) { expect_unit_cube_surface(read_obj(kData + "/cube.obj"), "obj"); }

TEST(MeshIo, ObjFanTriangulatesAndRejectsBadIndices) {
  const SurfaceMesh pentagon = parse_obj("v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\nf 1 2 3 4 5\n", "p.obj");
  EXPECT_EQ(pentagon.triangles.size(), 3u);
  const std::string msg = input_error_of([&] { parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n", "t.obj"); });
  EXPECT_NE(msg.find("t.obj:5: vertex index 4 out of range"), std::string::npos) << msg;
  EXPECT_NE(input_error_of([&] { parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "z.obj"); }).find("z.obj:4"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", "n.obj"); }).find("n.obj:4"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_obj("v 0 0\n", "c.obj"); }).find("c.obj:1: expected 'v x y z'"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_obj("v 0 0 0\n", "e.obj"); }).find("no faces"), std::string::npos);
}

TEST(MeshIo, ReadsAsciiStl) { expect_unit_cube_surface(read_stl(kData + "/cube_ascii.stl"), "ascii stl"); }

TEST(MeshIo, ReadsBinaryStlWhoseHeaderStartsWithSolid) {
  expect_unit_cube_surface(read_stl(kData + "/cube_binary.stl"), "binary stl");
}

TEST(MeshIo, StlErrors) {
  std::string bytes = std::string(80, ' ') + std::string("\x05\x00\x00\x00", 4) + std::string(50, '\0');
  EXPECT_NE(input_error_of([&] { parse_stl(bytes, "short.stl"); }).find("announces 5 triangles"), std::string::npos);
  const std::string bad = "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0\n";
  EXPECT_NE(input_error_of([&] { parse_stl(bad, "bad.stl"); }).find("bad.stl:5: expected 'vertex x y z'"),
            std::string::npos);
}

// a binary STL of the given triangles (normal left zero)
std::string binary_stl(const std::vector<std::array<float, 9>>& triangles) {
  std::string bytes(80, ' ');
  const std::uint32_t n = static_cast<std::uint32_t>(triangles.size());
  bytes.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : triangles) {
    bytes.append(12, '\0');
    bytes.append(reinterpret_cast<const char*>(t.data()), 36);
    bytes.append(2, '\0');
  }
  return bytes;
}

TEST(MeshIo, NonFiniteCoordinatesAreRejected) {
  // NaN in a binary STL used to end as "no triangles" after NaN keys in the vertex-merging map
  // (undefined behaviour: NaN breaks its ordering)
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::string bytes = binary_stl({{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, nan, 0, 0, 0, 1, 0}});
  EXPECT_NE(input_error_of([&] { parse_stl(bytes, "nan.stl"); })
                .find("nan.stl: triangle 1, vertex 1: a coordinate is not a finite number"),
            std::string::npos);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_NE(input_error_of([&] { parse_stl(binary_stl({{0, 0, 0, 1, 0, 0, 0, inf, 0}}), "inf.stl"); })
                .find("triangle 0, vertex 2"),
            std::string::npos);
  // the text formats: nan, inf and numbers beyond a double
  const std::string ascii = "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex nan 0 0\n";
  EXPECT_NE(input_error_of([&] { parse_stl(ascii, "a.stl"); }).find("a.stl:5: expected a finite number (x), got 'nan'"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_obj("v 0 0 1e999\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "o.obj"); })
                .find("o.obj:1: expected a finite number (z), got '1e999'"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_gmsh("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 inf 0 0\n", "g.msh"); })
                .find("g.msh:6: expected a finite number (x), got 'inf'"),
            std::string::npos);
}

TEST(MeshIo, CountsBeyondTheLimitsAreRejected) {
  MeshLimits limits;
  limits.max_triangles = 11;  // the unit cube has 12
  EXPECT_NE(input_error_of([&] { read_stl(kData + "/cube_binary.stl", limits); })
                .find("12 triangles, more than the limit of 11 (settings.limits.max_triangles"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { read_obj(kData + "/cube.obj", limits); }).find("more than the limit of 11"),
            std::string::npos);
  limits = MeshLimits();
  limits.max_nodes = 7;  // 8 corners
  EXPECT_NE(input_error_of([&] { read_gmsh(kData + "/cube_v2.msh", limits); })
                .find("8 nodes, more than the limit of 7 (settings.limits.max_nodes"),
            std::string::npos);
  limits = MeshLimits();
  limits.max_elements = 5;  // 6 tetrahedra
  EXPECT_NE(input_error_of([&] { read_gmsh(kData + "/cube_v41.msh", limits); }).find("6 tetrahedra"),
            std::string::npos);
  limits.max_elements = 6;
  EXPECT_NO_THROW(read_gmsh(kData + "/cube_v41.msh", limits));
}

TEST(MeshIo, HugeElementTagCountIsAnErrorNotAnOverflow) {
  // 3 + n_tags overflowed a signed integer (undefined behaviour) before the check
  const std::string text = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Elements\n1\n1 4 9223372036854775807 1 2 3 4\n";
  EXPECT_NE(input_error_of([&] { parse_gmsh(text, "t.msh"); }).find("t.msh:6: bad number of element tags"),
            std::string::npos);
}

TEST(MeshIo, ReadSurfaceDispatchesOnExtension) {
  expect_unit_cube_surface(read_surface(kData + "/cube.obj"), "obj");
  expect_unit_cube_surface(read_surface(kData + "/cube_binary.stl"), "stl");
  expect_unit_cube_surface(read_surface(kData + "/cube_v41.msh"), "msh boundary");
  EXPECT_THROW(read_surface(kData + "/cube.ply"), InputError);
}

}  // namespace
}  // namespace suction
