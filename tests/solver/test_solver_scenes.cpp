// Every CPU solver on whole scenes against analytic oracles (the incline's Coulomb stick and
// slide, a block's four corners carrying its weight), and the suction stories (ground's
// minimum pressure, pull_test's peak pull, rigid_lift's lift) within 1 % of the PGS at a tight
// tolerance (SolverStory: native only, by its suite name); the tentacle's solves converging with
// the sliding contacts in the subspace step (SubspaceStory).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "probes/probes.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

Model load(const std::string& name, const std::string& method, const std::vector<std::string>& sets = {}) {
  std::vector<SceneOverride> o;
  for (const auto& s : sets) o.push_back(parse_override(s));
  Model m = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + name, o);
  m.settings.solver.method = method;
  return m;
}

int probe_index(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.probes.size(); ++i)
    if (m.probes[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no probe " << name;
  return 0;
}

class SolverScenes : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(SolverScenes, TheInclineSticksBelowTheFrictionAngleAndSlidesWithCoulombAbove) {
  {
    Simulation sim(load("incline.json", GetParam(), {"/parameters/angle_deg=10", "/parameters/mu=0.3"}));
    for (int i = 0; i < 200; ++i) sim.step();  // 1 s
    EXPECT_LT(std::abs(sim.probe_values()[0]), 1e-5) << "tan 10° < 0.3: it sticks";
  }
  const double angle = 30.0 * kPi / 180.0, mu = 0.3, g = 9.81;
  Simulation sim(load("incline.json", GetParam(), {"/parameters/angle_deg=30", "/parameters/mu=0.3"}));
  const int block = sim.model().find_body("block")->index;
  const Vec3 down(std::cos(angle), 0, -std::sin(angle));
  for (int i = 0; i < 40; ++i) sim.step();
  const double v0 = sim.state().rigid[block].velocity.dot(down), t0 = sim.state().time;
  const double s0 = sim.probe_values()[0];
  int unconverged = 0;
  for (int i = 0; i < 100; ++i) {
    sim.step();
    unconverged += !sim.profile().solver_converged;
  }
  const double t = sim.state().time - t0;
  const double a = (sim.state().rigid[block].velocity.dot(down) - v0) / t;
  const double expected = g * (std::sin(angle) - mu * std::cos(angle));
  // the sliding distance over the same 0.5 s: s = v0 t + a t² / 2
  const double slid = sim.probe_values()[0] - s0;
  std::printf("%s: incline 30°: a = %.5g m/s² (Coulomb %.5g), slid %.5g m (%.5g), %d unconverged solves\n",
              GetParam().c_str(), a, expected, slid, v0 * t + 0.5 * expected * t * t, unconverged);
  EXPECT_NEAR(a, expected, 0.02 * expected);
  EXPECT_NEAR(slid, v0 * t + 0.5 * expected * t * t, 0.02 * slid);
  EXPECT_EQ(unconverged, 0);
}

TEST_P(SolverScenes, ABlockOnTheGroundRestsOnItsFourCornersWithItsWeight) {
  Simulation sim(load("block_on_ground.json", GetParam()));
  const BodyRef block = *sim.model().find_body("block");
  const double weight = sim.model().rigid[block.index].mass * 9.81;
  double worst_force = 0.0, worst_height = 0.0;
  int unconverged = 0;
  for (int i = 0; i < 400; ++i) {
    sim.step();
    unconverged += !sim.profile().solver_converged;
    worst_height = std::max(worst_height, std::abs(sim.state().rigid[block.index].position.z() - 0.05));
    if (i >= 2)
      worst_force = std::max(worst_force,
                             std::abs(body_contact_force(sim.model(), sim.state(), block).z() - weight) / weight);
  }
  std::printf("%s: block on ground: worst force error %.3g, height error %.3g m, %d unconverged solves\n",
              GetParam().c_str(), worst_force, worst_height, unconverged);
  EXPECT_LT(worst_height, 1e-5);
  EXPECT_LT(worst_force, 0.005);
  EXPECT_EQ(unconverged, 0);
}

INSTANTIATE_TEST_SUITE_P(Methods, SolverScenes, ::testing::Values("pgs", "apgd", "uzawa"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The suction stories with each method against the PGS, all at a tight tolerance (1e-8) with
// room to reach it (2000 iterations).  apgd must tell every story within 1 %.  uzawa, without
// momentum, does not reach the tolerance on most of rigid_lift's steps and moves its minimum
// pressure by 5 % (measured: docs/validation.md): there the test asserts that the method said
// so (solves reported as not converged), not a silent wrong answer; ground and pull_test must
// agree within 1 %.  Slow (three scenes per method; the PGS told once): native only.
namespace {

struct StoryNumbers {
  double p_min = kPAtm, peak = -1e30, lift = 0.0;
  long unconverged = 0, iterations = 0, steps = 0;
};

struct Story {
  const char* scene;
  const char* force_probe;
  const char* z_probe;
};
const Story kStories[] = {{"ground.json", "hand_force", "cup_z"},
                          {"pull_test.json", "pull_force", "cup_z"},
                          {"rigid_lift.json", "hand_force", "object_z"}};

StoryNumbers tell(const Story& story, const std::string& method) {
  Model model = load(story.scene, method);
  model.settings.solver.tolerance = 1e-8;
  model.settings.solver.max_iterations = 2000;
  Simulation sim(std::move(model));
  const int pf = probe_index(sim.model(), story.force_probe), pz = probe_index(sim.model(), story.z_probe),
            pp = probe_index(sim.model(), "pressure");
  StoryNumbers n;
  n.steps = std::lround(sim.model().settings.duration / sim.model().settings.dt);
  const double z0 = sim.probe_values()[pz];
  for (long i = 0; i < n.steps; ++i) {
    sim.step();
    const auto v = sim.probe_values();
    n.p_min = std::min(n.p_min, v[pp]);
    n.peak = std::max(n.peak, v[pf]);
    n.lift = std::max(n.lift, v[pz] - z0);
    n.unconverged += !sim.profile().solver_converged;
    n.iterations += sim.profile().solver_iterations;
  }
  return n;
}

/// the PGS's numbers of each story, told once for all the methods
const StoryNumbers& pgs_story(int k) {
  static std::vector<StoryNumbers> told;
  if (told.empty())
    for (const Story& s : kStories) told.push_back(tell(s, "pgs"));
  return told.at(k);
}

class SolverStory : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(SolverStory, TheSuctionStoriesAgreeWithThePgsWithinOnePercent) {
  for (int k = 0; k < 3; ++k) {
    const Story& story = kStories[k];
    const StoryNumbers& a = pgs_story(k);
    const StoryNumbers b = tell(story, GetParam());
    const double suction0 = kPAtm - a.p_min, suction1 = kPAtm - b.p_min;
    std::printf("%s with %s: P_min %.1f / %.1f Pa, peak %.4f / %.4f N, lift %.3f / %.3f mm, mean iterations "
                "%.1f / %.1f, unconverged %ld / %ld of %ld (pgs / method)\n",
                story.scene, GetParam().c_str(), a.p_min, b.p_min, a.peak, b.peak, 1e3 * a.lift, 1e3 * b.lift,
                double(a.iterations) / a.steps, double(b.iterations) / b.steps, a.unconverged, b.unconverged, b.steps);
    const bool agrees = std::abs(suction1 - suction0) <= 0.01 * suction0 &&
                        std::abs(b.peak - a.peak) <= 0.01 * std::abs(a.peak) &&
                        std::abs(b.lift - a.lift) <= 0.01 * std::max(a.lift, 1e-3);
    if (GetParam() == "uzawa" && std::string(story.scene) == "rigid_lift.json") {
      if (!agrees) EXPECT_GT(b.unconverged, b.steps / 2) << "a story told differently must come with the solves' warning";
      continue;
    }
    EXPECT_NEAR(suction1, suction0, 0.01 * suction0) << story.scene;
    EXPECT_NEAR(b.peak, a.peak, 0.01 * std::abs(a.peak)) << story.scene;
    EXPECT_NEAR(b.lift, a.lift, 0.01 * std::max(a.lift, 1e-3)) << story.scene;
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, SolverStory, ::testing::Values("apgd", "uzawa"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The sliding contacts in the subspace step (docs/method.md §8.9, issue 48): the tentacle's
// suckers slide on the object as it curls, and with only the sticking contacts held the step
// left 15 of its 205 solves at the cap (docs/validation.md, "The sliding contacts in the
// subspace step").  With them every solve converges, and the story is the same: the lowest
// pressure within 0.1 %.  (SubspaceStory: native only, by its suite name.)
TEST(SubspaceStory, TheSlidingContactsInTheStepMakeTheTentaclesSolvesConverge) {
  struct Run {
    long steps = 0, unconverged = 0;
    double p_min = 1e300;
  };
  auto run = [](bool sliding) {
    Model m = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/tentacle.json", {}, Quality::Interactive);
    EXPECT_GT(m.settings.solver.subspace_every, 0) << "the interactive quality's subspace step";
    m.settings.solver.subspace_sliding = sliding;
    Simulation sim(m);
    Run r;
    r.steps = std::lround(m.settings.duration / m.settings.dt);
    for (long k = 0; k < r.steps; ++k) {
      sim.step();
      if (!sim.profile().solver_converged) ++r.unconverged;
      for (const CavityState& c : sim.state().book.cavities)
        if (!c.dormant) r.p_min = std::min(r.p_min, c.pressure);
    }
    return r;
  };
  const Run held = run(false), sliding = run(true);
  std::printf("tentacle, interactive: unconverged solves %ld of %ld with the sliding contacts held, %ld in the step; "
              "lowest pressure %.1f / %.1f Pa\n",
              held.unconverged, held.steps, sliding.unconverged, sliding.steps, held.p_min, sliding.p_min);
  ASSERT_LT(held.p_min, 0.95 * kPAtm) << "the tentacle holds its object by suction";
  EXPECT_GE(held.unconverged, 5) << "the held sliding contacts no longer stall the solve: the test shows nothing";
  EXPECT_LE(sliding.unconverged, sliding.steps / 50);
  // measured 86 129.7 / 86 041.0 Pa (0.10 %; before the seams followed the bodies, 86 136.8 /
  // 86 128.0): the held run's 21 unconverged solves are the less accurate path
  EXPECT_NEAR(sliding.p_min, held.p_min, 2e-3 * held.p_min);
}

// Newton's step on the slip directions (docs/method.md §8.9, issue 48): rigid_lift's cup lifts a
// rigid cube on its lip, whose contacts slide a little in different directions as the cube tilts;
// with their directions held as the sweeps left them the subspace step lowered the residual by a
// few per cent each time and about a third of the solves ended at the cap (docs/validation.md,
// "Newton's step on the slip directions").  Turned by Newton's method every solve converges, and
// the story is the same: the lowest pressure and the cube's lift within 0.5 %.
TEST(SubspaceStory, NewtonsStepOnTheSlipDirectionsMakesRigidLiftsSolvesConverge) {
  struct Run {
    long steps = 0, unconverged = 0;
    double p_min = 1e300, lift = 0.0;
  };
  auto run = [](bool newton) {
    Model m = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/rigid_lift.json", {}, Quality::Interactive);
    EXPECT_GT(m.settings.solver.subspace_every, 0) << "the interactive quality's subspace step";
    EXPECT_TRUE(m.settings.solver.subspace_newton) << "on by default";
    m.settings.solver.subspace_newton = newton;
    Simulation sim(m);
    Run r;
    r.steps = std::lround(m.settings.duration / m.settings.dt);
    const std::optional<BodyRef> found = m.find_body("cube");
    EXPECT_TRUE(found && found->type == BodyType::Rigid);
    const int cube = found ? found->index : 0;
    const double z0 = sim.state().rigid[cube].position.z();
    for (long k = 0; k < r.steps; ++k) {
      sim.step();
      if (!sim.profile().solver_converged) ++r.unconverged;
      for (const CavityState& c : sim.state().book.cavities)
        if (!c.dormant) r.p_min = std::min(r.p_min, c.pressure);
    }
    r.lift = sim.state().rigid[cube].position.z() - z0;
    return r;
  };
  const Run held = run(false), turned = run(true);
  std::printf("rigid_lift, interactive: unconverged solves %ld of %ld with the slip directions held, %ld turned by "
              "Newton's method; lowest pressure %.1f / %.1f Pa; the cube lifted %.2f / %.2f mm\n",
              held.unconverged, held.steps, turned.unconverged, turned.steps, held.p_min, turned.p_min,
              1e3 * held.lift, 1e3 * turned.lift);
  ASSERT_LT(held.p_min, 0.98 * kPAtm) << "the cup holds the cube by suction";
  ASSERT_GT(held.lift, 0.01) << "and lifts it";
  EXPECT_GE(held.unconverged, held.steps / 5) << "the held directions no longer stall the solve: the test shows nothing";
  EXPECT_LE(turned.unconverged, turned.steps / 50);
  EXPECT_NEAR(turned.p_min, held.p_min, 5e-3 * held.p_min);
  EXPECT_NEAR(turned.lift, held.lift, 5e-3 * held.lift);
}
