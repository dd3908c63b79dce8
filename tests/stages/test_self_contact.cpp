// Self-contact of one FEM body (FemBody::self_contact, docs/method.md §5.2): a body whose mesh
// has two parts, a small block falling onto a larger one whose bottom is held.  Nothing but
// self-contact can stop the small block, so the force it receives is an oracle: at rest, the
// self-contacts carry its weight.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "mesh/generators.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

constexpr double kTop = 0.010;    // top of the large block (its bottom at z = 0) [m]
constexpr double kDrop = 0.004;   // the small block starts this far above it [m]
constexpr double kSmall = 0.010;  // edge of the small block [m]
constexpr double kDensity = 1000;

// writes the two blocks as one gmsh 2.2 file and returns its directory
std::filesystem::path write_two_blocks() {
  TetMesh big = make_box(Vec3(0.02, 0.02, kTop), 4, 4, 2);
  TetMesh small = make_box(Vec3(kSmall, kSmall, kSmall), 2, 2, 2);
  for (Vec3& p : big.nodes) p.z() += 0.5 * kTop;
  for (Vec3& p : small.nodes) p.z() += kTop + kDrop + 0.5 * kSmall;
  const auto dir = std::filesystem::temp_directory_path() / "suction_self_contact_test";
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / "two_blocks.msh");
  out.precision(17);
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" << big.nodes.size() + small.nodes.size() << "\n";
  int tag = 1;
  for (const Points* x : {&big.nodes, &small.nodes})
    for (const Vec3& p : *x) out << tag++ << " " << p.x() << " " << p.y() << " " << p.z() << "\n";
  out << "$EndNodes\n$Elements\n" << big.tets.size() + small.tets.size() << "\n";
  int element = 1;
  for (const Tet& t : big.tets)
    out << element++ << " 4 0 " << t[0] + 1 << " " << t[1] + 1 << " " << t[2] + 1 << " " << t[3] + 1 << "\n";
  const int offset = static_cast<int>(big.nodes.size()) + 1;
  for (const Tet& t : small.tets)
    out << element++ << " 4 0 " << t[0] + offset << " " << t[1] + offset << " " << t[2] + offset << " "
        << t[3] + offset << "\n";
  out << "$EndElements\n";
  return dir;
}

Model two_blocks(bool self_contact) {
  const auto dir = write_two_blocks();
  const std::string text = R"({
    "settings": {"dt": 0.005, "duration": 1.0, "contact": {"self_contact_exclusion": 0.0035},
                 "solver": {"tolerance": 1e-10, "max_iterations": 500}},
    "materials": {"rubber": {"young": 1e5, "poisson": 0.3, "density": )" + std::to_string(kDensity) +
                           R"(, "damping_stiffness": 0.02, "friction": 0.5}},
    "bodies": [{"name": "blocks", "type": "fem", "material": "rubber", "mesh": {"file": "two_blocks.msh"},
                "self_contact": )" + std::string(self_contact ? "true" : "false") + R"(,
                "node_sets": {"base": {"bottom": 1e-5}}, "fixed_nodes": "base"}]})";
  return load_scene_text(text, dir.string());
}

// the lowest z of the small block's nodes (those that start above the large block)
double small_block_bottom(const Simulation& sim) {
  const FemBody& body = sim.model().fem[0];
  double lowest = 1e9;
  for (size_t i = 0; i < body.rest.nodes.size(); ++i)
    if (body.rest.nodes[i].z() > kTop + 0.5 * kDrop) lowest = std::min(lowest, sim.state().fem[0].x[i].z());
  return lowest;
}

}  // namespace

TEST(SelfContact, ASmallBlockComesToRestOnItsOwnBodyCarriedBySelfContacts) {
  Simulation sim(two_blocks(true));
  for (int i = 0; i < 200; ++i) sim.step();
  // it rests on the top face, within the solver's tolerance and the block's own sag
  EXPECT_NEAR(small_block_bottom(sim), kTop, 2e-4);
  // the self-contacts carry its weight: the force on the small block is +z whichever side it is
  double lift = 0.0;
  int self = 0;
  for (const ContactForce& c : sim.state().contacts) {
    ASSERT_EQ(c.body_a, c.body_b) << "the only contacts are the body's own";
    ++self;
    lift += c.normal.z() > 0 ? c.force.z() : -c.force.z();
  }
  const double weight = kDensity * kSmall * kSmall * kSmall * sim.model().settings.gravity.norm();
  std::printf("small block bottom %.6f m (top %.3f), %d self-contacts, lift %.6f N, weight %.6f N\n",
              small_block_bottom(sim), kTop, self, lift, weight);
  EXPECT_GT(self, 4);
  EXPECT_NEAR(lift, weight, 0.02 * weight) << "the self-contacts hold the block's weight";
}

TEST(SelfContact, WithoutItTheBlockFallsThroughItsOwnBody) {
  Simulation sim(two_blocks(false));
  for (int i = 0; i < 200; ++i) sim.step();
  EXPECT_TRUE(sim.state().contacts.empty());
  EXPECT_LT(small_block_bottom(sim), -kTop) << "nothing stops it: it passes through the large block";
}
