// The paper's low friction scene (scenes/low_friction.json, docs/scenes.md): the cup, pressed
// 3 mm off the centre of a rigid cube, lifts it.  Lifted, the cube hangs tilted; on a
// frictionless top the tilt makes the cup slide toward the corner it was shifted to, until the
// seal breaks and the cube drops back.  With friction the cup stays where it was pressed and
// the hand carries the cup and the cube (a Coulomb stick/slip pair, checked in the cube's own
// frame: where the lip sits on its top face).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "probes/probes.h"
#include "scene/scene.h"
#include "cavity/story.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

struct Slide {
  double offset0 = 0.0;      // the lip's centre on the cube's top, distance from its centre [mm]
  double offset_max = 0.0;   // the largest while sealed
  double direction_deg = 0;  // where it went: angle of its largest offset from the +x+y diagonal
  double reach = 0.0;        // then: how far the lip reaches on the face in that direction [mm]
  double edge = 0.0;         // and how far the face's edge is in that direction [mm]
  bool lifted = false;       // the cube rose > 2 mm
  bool dropped = false;      // no cavity at the end, the cube back on the ground
  double z_end = 0.0;        // rise of the cube at the end [mm]
  double hand = 0.0, weights = 0.0;  // mean hand force over the last 0.3 s; cup + cube weights [N]
};

Slide slide_run(double mu, double dt = 0.0) {
  std::vector<SceneOverride> o = {parse_override("/parameters/mu=" + std::to_string(mu))};
  if (dt > 0) o.push_back(parse_override("/settings/dt=" + std::to_string(dt)));
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/low_friction.json", o));
  const Model& m = sim.model();
  const std::vector<int>& lip = m.fem[0].node_sets.at("lip");
  const double cup_mass = story::fem_mass(m, 0);
  const double g = m.settings.gravity.norm();
  Slide s;
  s.weights = (cup_mass + m.rigid[0].mass) * g;
  // the lip ring's centre in the cube's frame (its top face at z = +25 mm)
  auto on_cube = [&](const Vec3& x) {
    const RigidBodyState& cube = sim.state().rigid[0];
    return Vec3(cube.orientation.conjugate() * (x - cube.position));
  };
  auto lip_on_cube = [&]() {
    Vec3 c = Vec3::Zero();
    for (int i : lip) c += sim.state().fem[0].x[i];
    return on_cube(c / static_cast<double>(lip.size()));
  };
  const double z0 = sim.state().rigid[0].position.z();
  const Vec3 start = lip_on_cube();
  s.offset0 = 1e3 * std::hypot(start.x(), start.y());
  Vec3 farthest = start;
  const long steps = std::lround(m.settings.duration / m.settings.dt), tail = std::lround(0.3 / m.settings.dt);
  for (long i = 1; i <= steps; ++i) {
    sim.step();
    const double rise = 1e3 * (sim.state().rigid[0].position.z() - z0);
    s.lifted = s.lifted || rise > 2.0;
    if (sim.cavity_summary().count > 0) {
      const Vec3 p = lip_on_cube();
      if (std::hypot(p.x(), p.y()) > std::hypot(farthest.x(), farthest.y())) {
        farthest = p;
        const Vec3 u = Vec3(p.x(), p.y(), 0.0).normalized();  // the lip's farthest point that way
        double r = 0.0;
        for (int k : lip) r = std::max(r, (on_cube(sim.state().fem[0].x[k]) - p).dot(u));
        s.reach = 1e3 * (std::hypot(p.x(), p.y()) + r);
        s.edge = 1e3 * 0.025 / std::max(std::abs(u.x()), std::abs(u.y()));
      }
    }
    if (i > steps - tail) s.hand += sim.probe_values()[0] / tail;
    s.z_end = rise;
  }
  s.offset_max = 1e3 * std::hypot(farthest.x(), farthest.y());
  s.direction_deg = std::abs(std::atan2(farthest.y(), farthest.x()) * 180.0 / kPi - 45.0);
  s.dropped = sim.cavity_summary().count == 0 && std::abs(s.z_end) < 0.5;
  std::printf("low_friction mu %.3g dt %.3g: the lip's centre %.2f mm from the cube's centre, at most %.2f mm "
              "(%.1f deg off the diagonal) while sealed, the lip reaching %.1f mm where the edge is at %.1f mm; lifted %d, dropped %d, cube at %+.1f mm; hand %.3f N "
              "for weights %.3f N\n",
              mu, m.settings.dt, s.offset0, s.offset_max, s.direction_deg, s.reach, s.edge, s.lifted, s.dropped, s.z_end, s.hand,
              s.weights);
  return s;
}

}  // namespace

TEST(LowFrictionStory, OnAFrictionlessTopTheCupSlidesTowardTheCornerAndTheCubeDrops) {
  for (double dt : {0.01, 0.005}) {
    SCOPED_TRACE(dt);
    const Slide s = slide_run(0.0, dt);
    EXPECT_NEAR(s.offset0, 3.0, 0.3) << "pressed 3 mm off the centre";
    EXPECT_TRUE(s.lifted) << "the cube leaves the ground first";
    EXPECT_GT(s.offset_max, s.offset0 + 3.0) << "then the cup slides over its top";
    EXPECT_LT(s.direction_deg, 30.0) << "toward the corner it was shifted to";
    // the skirt beside the lip is levered up where it hangs over the edge, so the seal is lost
    // a little before the lip itself gets there: 2.2 mm at 5 ms, 2.9 mm at 10 ms (until the
    // crossing rule of method §5.2 those skirt vertices were pushed out through the cube's side
    // face, around the corner, and the lip got within 2 mm)
    EXPECT_NEAR(s.reach, s.edge, 3.5) << "mm: the seal holds until the lip runs over the edge";
    EXPECT_TRUE(s.dropped) << "the seal breaks and the cube falls back";
  }
}

TEST(LowFrictionStory, WithFrictionTheCupStaysAndTheCubeHangs) {
  for (double mu : {0.8, 0.05}) {
    SCOPED_TRACE(mu);
    const Slide s = slide_run(mu);
    EXPECT_LT(s.offset_max - s.offset0, 1.0) << "mm: the lip sticks where it was pressed";
    EXPECT_GT(s.z_end, 30.0) << "mm of the 40 mm pull";
    EXPECT_NEAR(s.hand, s.weights, 0.02 * s.weights) << "hanging, the hand carries the cup and the cube";
  }
}

namespace {

struct Lift {
  double rise = 0.0;    // the cube's highest rise [m]
  double p_min = 1e300;  // the lowest cavity pressure [Pa]
};

Lift lift_run(Quality quality, const std::vector<SceneOverride>& o) {
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/low_friction.json", o, quality));
  const Model& m = sim.model();
  const double z0 = sim.state().rigid[0].position.z();
  Lift l;
  for (long i = std::lround(m.settings.duration / m.settings.dt); i > 0; --i) {
    sim.step();
    l.rise = std::max(l.rise, sim.state().rigid[0].position.z() - z0);
    for (const CavityState& c : sim.state().book.cavities)
      if (!c.dormant) l.p_min = std::min(l.p_min, c.pressure);
  }
  return l;
}

}  // namespace

// The seam held at its union's points decides how high the shipped reference lifts the cube
// (docs/validation.md, "A seam that follows the bodies"): with the seam rule ten times finer
// (remesh_seam_ratio 0.001, so the held seam is united again before it drifts) the reference
// lifts it 3.3 % less (3.6131 → 3.4955 mm), and the interactive quality with its seam following
// the bodies, at the shipped rule, gives that finer reference's lift and lowest pressure
// (measured 3.4925 mm, −0.09 %; 71 873.8 against 71 725.4 Pa, +0.21 %).  The scene keeps the
// seam held at interactive quality, and so the shipped reference's numbers.
TEST(SeamStory, AFollowedSeamGivesTheLiftOfAReferenceWithAFinerSeamRule) {
  const Lift shipped = lift_run(Quality::Reference, {});
  const Lift fine = lift_run(Quality::Reference, {parse_override("/settings/cavity/remesh_seam_ratio=0.001")});
  const Lift followed = lift_run(Quality::Interactive, {parse_override("/settings/cavity/follow_seal=true")});
  const Lift held = lift_run(Quality::Interactive, {});
  std::printf("low_friction: the cube lifted %.4f mm (reference), %.4f mm (reference, seam rule 0.001), %.4f mm "
              "(interactive, seam followed), %.4f mm (interactive, as shipped); lowest pressure %.1f / %.1f / %.1f / "
              "%.1f Pa\n",
              1e3 * shipped.rise, 1e3 * fine.rise, 1e3 * followed.rise, 1e3 * held.rise, shipped.p_min, fine.p_min,
              followed.p_min, held.p_min);
  ASSERT_GT(fine.rise, 2e-3) << "the cube is lifted";
  EXPECT_NEAR(followed.rise, fine.rise, 3e-3 * fine.rise);
  EXPECT_NEAR(followed.p_min, fine.p_min, 3e-3 * fine.p_min);
  EXPECT_GT(std::abs(shipped.rise / fine.rise - 1.0), 0.02) << "the held seam's drift decides the shipped lift";
  EXPECT_NEAR(held.rise, shipped.rise, 0.01 * shipped.rise) << "the scene keeps the reference's held seam";
}
