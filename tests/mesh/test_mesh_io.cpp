// Mesh readers: Gmsh v2/v4 ASCII, OBJ, STL ASCII/binary; errors name the file and line.
#include <gtest/gtest.h>

#include "common/error.h"
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
  EXPECT_NE(input_error_of([&] { parse_gmsh(bad_number, "b.msh"); }).find("b.msh:6: expected a number"),
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

TEST(MeshIo, ReadSurfaceDispatchesOnExtension) {
  expect_unit_cube_surface(read_surface(kData + "/cube.obj"), "obj");
  expect_unit_cube_surface(read_surface(kData + "/cube_binary.stl"), "stl");
  expect_unit_cube_surface(read_surface(kData + "/cube_v41.msh"), "msh boundary");
  EXPECT_THROW(read_surface(kData + "/cube.ply"), InputError);
}

}  // namespace
}  // namespace suction
