// VTK series writer: point and cell counts, balanced XML, rigid poses, the .pvd collection.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fem/corotational.h"
#include "io/vtk.h"
#include "model/body_slots.h"

namespace suction {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

/// the numbers inside the first <DataArray ... Name="name" ...> element
std::vector<double> data_array(const std::string& xml, const std::string& name) {
  const size_t tag = xml.find("Name=\"" + name + "\"");
  if (tag == std::string::npos) return {};
  const size_t begin = xml.find('>', tag) + 1;
  const size_t end = xml.find("</DataArray>", begin);
  std::istringstream in(xml.substr(begin, end - begin));
  std::vector<double> values;
  for (double v; in >> v;) values.push_back(v);
  return values;
}

void expect_balanced_vtu(const std::string& xml) {
  EXPECT_EQ(xml.rfind("<?xml", 0), 0u);
  EXPECT_EQ(count(xml, "<VTKFile"), 1);
  EXPECT_EQ(count(xml, "</VTKFile>"), 1);
  EXPECT_EQ(count(xml, "<UnstructuredGrid>"), 1);
  EXPECT_EQ(count(xml, "</UnstructuredGrid>"), 1);
  EXPECT_EQ(count(xml, "<Piece "), 1);
  EXPECT_EQ(count(xml, "</Piece>"), 1);
  EXPECT_EQ(count(xml, "<Points>"), 1);
  EXPECT_EQ(count(xml, "</Points>"), 1);
  EXPECT_EQ(count(xml, "<Cells>"), 1);
  EXPECT_EQ(count(xml, "</Cells>"), 1);
  EXPECT_EQ(count(xml, "<DataArray "), count(xml, "</DataArray>"));
  EXPECT_EQ(count(xml, "<"), count(xml, ">"));
}

struct Scene {
  Model model;
  State state;
};

Scene two_body_scene() {
  Scene s;
  FemBody cup;
  cup.name = "cup #1";  // sanitized to cup__1
  cup.rest.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 1, 1)};
  cup.rest.tets = {{0, 1, 2, 3}, {1, 4, 2, 3}};
  cup.elements = make_elastic_elements(cup.rest, 1e6, 0.25);
  s.model.fem.push_back(cup);
  RigidBody box;
  box.name = "box";
  box.surface.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  box.surface.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  s.model.rigid.push_back(box);

  FemBodyState fem_state;
  fem_state.x = cup.rest.nodes;
  fem_state.v.assign(cup.rest.nodes.size(), Vec3(0, 0, -1));
  s.state.fem.push_back(fem_state);
  RigidBodyState pose;
  pose.position = Vec3(10, 0, 0);
  pose.orientation = Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()));  // x -> y
  pose.velocity = Vec3(1, 0, 0);
  pose.angular_velocity = Vec3(0, 0, 2);
  s.state.rigid.push_back(pose);
  return s;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("suction_test_vtk_" + name);
  fs::remove_all(dir);
  return dir;
}

TEST(Vtk, SanitizeFileName) {
  EXPECT_EQ(sanitize_file_name("cup #1/a"), "cup__1_a");
  EXPECT_EQ(sanitize_file_name("Cup-2_b"), "Cup-2_b");
  EXPECT_EQ(sanitize_file_name(""), "body");
  EXPECT_EQ(sanitize_file_name("../x"), "___x");
}

TEST(Vtk, VtuTextCounts) {
  const Points points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  const std::string xml = vtu_text(points, points, {0, 1, 2}, 3, 5);
  expect_balanced_vtu(xml);
  EXPECT_NE(xml.find("NumberOfPoints=\"3\" NumberOfCells=\"1\""), std::string::npos);
  EXPECT_EQ(data_array(xml, "Points").size(), 9u);
  EXPECT_EQ(data_array(xml, "velocity").size(), 9u);
  EXPECT_EQ(data_array(xml, "offsets"), std::vector<double>({3}));
  EXPECT_EQ(data_array(xml, "types"), std::vector<double>({5}));
  // without velocities there is no point data
  const std::string bare = vtu_text(points, {}, {0, 1, 2}, 3, 5);
  EXPECT_EQ(bare.find("PointData"), std::string::npos);
  expect_balanced_vtu(bare);
}

TEST(Vtk, SeriesWritesEveryBodyAndFrame) {
  Scene s = two_body_scene();
  const fs::path dir = fresh_dir("series") / "nested";  // parents are created
  {
    VtkSeriesWriter writer(dir.string(), s.model);
    EXPECT_EQ(writer.body_stems(), std::vector<std::string>({"cup__1", "box"}));
    for (int frame = 0; frame < 3; ++frame) {
      s.state.time = 0.01 * frame;
      s.state.step = frame;
      writer.write_frame(s.state);
    }
    EXPECT_EQ(writer.frames(), 3);
  }  // the destructor writes series.pvd

  // FEM body: 5 points, 2 tetrahedra (type 10), velocity point data
  const std::string fem = read_file(dir / "cup__1_000002.vtu");
  expect_balanced_vtu(fem);
  EXPECT_NE(fem.find("NumberOfPoints=\"5\" NumberOfCells=\"2\""), std::string::npos);
  EXPECT_EQ(data_array(fem, "connectivity"), std::vector<double>({0, 1, 2, 3, 1, 4, 2, 3}));
  EXPECT_EQ(data_array(fem, "offsets"), std::vector<double>({4, 8}));
  EXPECT_EQ(data_array(fem, "types"), std::vector<double>({10, 10}));
  const auto fem_velocity = data_array(fem, "velocity");
  ASSERT_EQ(fem_velocity.size(), 15u);
  EXPECT_EQ(fem_velocity[2], -1.0);

  // rigid body: 4 points, 4 triangles (type 5), moved by the pose
  const std::string box = read_file(dir / "box_000001.vtu");
  expect_balanced_vtu(box);
  EXPECT_NE(box.find("NumberOfPoints=\"4\" NumberOfCells=\"4\""), std::string::npos);
  EXPECT_EQ(data_array(box, "types"), std::vector<double>({5, 5, 5, 5}));
  const auto points = data_array(box, "Points");
  ASSERT_EQ(points.size(), 12u);
  // vertex 1 = (1,0,0) rotated 90° about z -> (0,1,0), plus (10,0,0)
  EXPECT_NEAR(points[3], 10.0, 1e-12);
  EXPECT_NEAR(points[4], 1.0, 1e-12);
  EXPECT_NEAR(points[5], 0.0, 1e-12);
  // its velocity: v + ω × r = (1,0,0) + (0,0,2) × (0,1,0) = (-1,0,0)
  const auto velocity = data_array(box, "velocity");
  ASSERT_EQ(velocity.size(), 12u);
  EXPECT_NEAR(velocity[3], -1.0, 1e-12);
  EXPECT_NEAR(velocity[4], 0.0, 1e-12);

  // the collection lists 3 frames × 2 bodies, each file present
  const std::string pvd = read_file(dir / "series.pvd");
  EXPECT_EQ(count(pvd, "<VTKFile type=\"Collection\""), 1);
  EXPECT_EQ(count(pvd, "<Collection>"), 1);
  EXPECT_EQ(count(pvd, "</Collection>"), 1);
  EXPECT_EQ(count(pvd, "<DataSet "), 6);
  EXPECT_EQ(count(pvd, "part=\"0\""), 3);
  EXPECT_EQ(count(pvd, "part=\"1\""), 3);
  EXPECT_NE(pvd.find("timestep=\"0.02\" group=\"\" part=\"1\" file=\"box_000002.vtu\""),
            std::string::npos)
      << pvd;
  for (int frame = 0; frame < 3; ++frame) {
    for (const char* stem : {"cup__1", "box"}) {
      char name[64];
      std::snprintf(name, sizeof(name), "%s_%06d.vtu", stem, frame);
      EXPECT_TRUE(fs::exists(dir / name)) << name;
      EXPECT_NE(pvd.find(std::string("file=\"") + name + "\""), std::string::npos) << name;
    }
  }
  fs::remove_all(dir.parent_path());
}

TEST(Vtk, CollidingNamesGetDistinctStems) {
  Scene s = two_body_scene();
  s.model.fem[0].name = "a b";
  s.model.rigid[0].name = "a_b";
  const fs::path dir = fresh_dir("collide");
  VtkSeriesWriter writer(dir.string(), s.model);
  ASSERT_EQ(writer.body_stems().size(), 2u);
  EXPECT_NE(writer.body_stems()[0], writer.body_stems()[1]);
  writer.finish();
  // a body called like the other two series does not overwrite them
  s.model.fem[0].name = "cavities";
  s.model.rigid[0].name = "contacts";
  VtkSeriesWriter reserved(dir.string(), s.model);
  EXPECT_EQ(reserved.body_stems(), std::vector<std::string>({"cavities-0", "contacts-1"}));
  EXPECT_TRUE(fs::exists(dir / "series.pvd"));
  fs::remove_all(dir);
}

TEST(Vtk, MismatchedStateThrows) {
  Scene s = two_body_scene();
  const fs::path dir = fresh_dir("mismatch");
  VtkSeriesWriter writer(dir.string(), s.model);
  State empty;
  EXPECT_THROW(writer.write_frame(empty), std::logic_error);
  State fewer_nodes = s.state;
  fewer_nodes.fem[0].x.pop_back();
  EXPECT_THROW(writer.write_frame(fewer_nodes), std::logic_error);
  fs::remove_all(dir);
}

// The FEM body's stress and strain: a uniaxial strain ε_xx = e of the cup's tetrahedra gives
// von Mises 2μ e and equivalent strain 2e/3 in every cell (the analytic oracle of
// tests/fem/test_corotational.cpp), the world stress tensor σ_xx = (λ + 2μ) e, and the
// displacement e x.
TEST(Vtk, FemFramesCarryStressStrainAndDisplacement) {
  Scene s = two_body_scene();
  const double e = 0.02;
  for (Vec3& x : s.state.fem[0].x) x.x() *= 1 + e;
  const fs::path dir = fresh_dir("stress");
  VtkSeriesWriter writer(dir.string(), s.model);
  writer.write_frame(s.state);
  writer.finish();
  const std::string fem = read_file(dir / "cup__1_000000.vtu");
  expect_balanced_vtu(fem);
  const ElasticElements& el = s.model.fem[0].elements;
  const auto vm = data_array(fem, "von_mises");
  const auto strain = data_array(fem, "equivalent_strain");
  const auto stress = data_array(fem, "stress");
  ASSERT_EQ(vm.size(), 2u);
  ASSERT_EQ(strain.size(), 2u);
  ASSERT_EQ(stress.size(), 18u);
  for (int c = 0; c < 2; ++c) {
    EXPECT_NEAR(vm[c], 2 * el.mu * e, 1e-9 * el.mu);
    EXPECT_NEAR(strain[c], 2 * e / 3, 1e-9);
    EXPECT_NEAR(stress[9 * c], (el.lambda + 2 * el.mu) * e, 1e-9 * el.mu);
    EXPECT_NEAR(stress[9 * c + 4], el.lambda * e, 1e-9 * el.mu);
    EXPECT_NEAR(stress[9 * c + 1], 0.0, 1e-9 * el.mu);
  }
  const auto displacement = data_array(fem, "displacement");
  ASSERT_EQ(displacement.size(), 15u);
  EXPECT_NEAR(displacement[3], e, 1e-12);  // node 1 = (1, 0, 0)
  EXPECT_NEAR(displacement[4], 0.0, 1e-12);
  EXPECT_NE(fem.find("<CellData Scalars=\"von_mises\""), std::string::npos);
  fs::remove_all(dir);
}

// Cavities and contacts are series of their own: a cavity's triangles at its bodies' current
// positions with its pressure, gauge pressure, volume and air on every cell; a contact's point
// with its force split into the normal and the friction part.
TEST(Vtk, CavityAndContactSeries) {
  Scene s = two_body_scene();
  s.model.settings.p_atm = 101325;
  CavityState c;
  c.id = 7;
  c.slots = {0, 1};
  // three vertices on the cup's surface (its first triangle) and one on the box's
  s.model.fem[0].boundary = extract_boundary(s.model.fem[0].rest);
  for (int k = 0; k < 3; ++k) {
    SurfacePoint p;
    p.slot = 0;
    p.triangle = 0;
    p.bary = Vec3::Zero();
    p.bary[k] = 1.0;
    c.vertices.push_back(p);
  }
  SurfacePoint q;
  q.slot = 1;
  q.triangle = 0;
  q.bary = Vec3(1, 0, 0);
  c.vertices.push_back(q);
  c.triangles = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
  c.pressure = 60000;
  c.volume = 2e-6;
  c.air = 0.12;
  s.state.book.cavities.push_back(c);
  ContactForce f;
  f.body_a = 0;
  f.body_b = 1;
  f.point = Vec3(1, 2, 3);
  f.normal = Vec3(0, 0, 1);
  f.force = Vec3(0.3, -0.4, 2.0);
  f.local = Vec3(2.0, 0.5, 0.0);
  s.state.contacts.push_back(f);

  const Points world = cavity_world_vertices(s.model, s.state, c);
  const fs::path dir = fresh_dir("cavities");
  {
    VtkSeriesWriter writer(dir.string(), s.model);
    writer.write_frame(s.state);
    s.state.time = 0.01;
    s.state.book.cavities.clear();
    s.state.contacts.clear();
    writer.write_frame(s.state);  // no cavity, no contact: empty pieces
  }
  const std::string cav = read_file(dir / "cavities_000000.vtu");
  expect_balanced_vtu(cav);
  EXPECT_NE(cav.find("NumberOfPoints=\"4\" NumberOfCells=\"4\""), std::string::npos);
  EXPECT_EQ(data_array(cav, "cavity_id"), std::vector<double>(4, 7.0));
  EXPECT_EQ(data_array(cav, "pressure"), std::vector<double>(4, 60000.0));
  EXPECT_EQ(data_array(cav, "gauge_pressure"), std::vector<double>(4, 60000.0 - 101325.0));
  EXPECT_EQ(data_array(cav, "volume"), std::vector<double>(4, 2e-6));
  EXPECT_EQ(data_array(cav, "air"), std::vector<double>(4, 0.12));
  // the points are the cavity's vertices where its bodies are (the box is moved by its pose)
  const auto points = data_array(cav, "Points");
  ASSERT_EQ(points.size(), 12u);
  for (int v = 0; v < 4; ++v)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(points[3 * v + k], world[v][k], 1e-12);

  const std::string con = read_file(dir / "contacts_000000.vtu");
  expect_balanced_vtu(con);
  EXPECT_NE(con.find("NumberOfPoints=\"1\" NumberOfCells=\"1\""), std::string::npos);
  EXPECT_EQ(data_array(con, "types"), std::vector<double>({1}));
  EXPECT_EQ(data_array(con, "normal_force"), std::vector<double>({0, 0, 2.0}));
  EXPECT_EQ(data_array(con, "friction_force"), std::vector<double>({0.3, -0.4, 0}));
  EXPECT_EQ(data_array(con, "normal_force_magnitude"), std::vector<double>({2.0}));

  expect_balanced_vtu(read_file(dir / "cavities_000001.vtu"));
  EXPECT_NE(read_file(dir / "contacts_000001.vtu").find("NumberOfPoints=\"0\" NumberOfCells=\"0\""),
            std::string::npos);
  for (const char* pvd : {"cavities.pvd", "contacts.pvd"}) {
    const std::string text = read_file(dir / pvd);
    EXPECT_EQ(count(text, "<DataSet "), 2) << pvd;
    EXPECT_NE(text.find("timestep=\"0.01\""), std::string::npos) << pvd;
  }
  // the cavity as its own series: only the frame where it existed, the same piece
  const std::string own = read_file(dir / "cavity_7.pvd");
  EXPECT_EQ(count(own, "<DataSet "), 1);
  EXPECT_NE(own.find("file=\"cavity_series/cavity_7_000000.vtu\""), std::string::npos) << own;
  EXPECT_EQ(read_file(dir / "cavity_series" / "cavity_7_000000.vtu"), cav);
  EXPECT_EQ(count(read_file(dir / "series.pvd"), "<DataSet "), 4);  // 2 frames × 2 bodies
  fs::remove_all(dir);
}


}  // namespace
}  // namespace suction
