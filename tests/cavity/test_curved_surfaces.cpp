// The paper's curved surfaces (scenes/curved_surfaces.json, docs/scenes.md): the pull test's
// cup on cylinder segments.  On a convex R = 31.5 mm ridge it seals, holds a pull of the order of
// the paper's (24.4 N there), bounded by P_atm π r², and lifts a light object; on the concave
// trough of the same radius the seal does not survive the start of the pull.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "scene/scene.h"
#include "cavity/story.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

using story::probe;

struct Pull {
  bool sealed = false, held_at_pull = false;
  double peak = 0.0, lift = 0.0;  // largest pull after 1.1 s [N], largest rise of the object [mm]
};

Pull run(int sign, double radius_mm, double mass_kg) {
  std::vector<SceneOverride> o = {parse_override("/parameters/sign=" + std::to_string(sign)),
                                  parse_override("/parameters/R_mm=" + std::to_string(radius_mm)),
                                  parse_override("/parameters/mass_kg=" + std::to_string(mass_kg))};
  Simulation sim(load_scene_file(std::string(SUCTION_SCENES_DIR) + "/curved_surfaces.json", o));
  const Model& m = sim.model();
  const int pf = probe(m, "hand_force"), pl = probe(m, "object_lift");
  const double pull_start = 1.1;  // press 0.8 s, hold 0.3 s
  Pull r;
  const long steps = std::lround(m.settings.duration / m.settings.dt);
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const auto v = sim.probe_values();
    const double t = sim.state().time;
    const int cavities = sim.cavity_summary().count;
    r.sealed = r.sealed || cavities > 0;
    if (t > pull_start + 0.02 && cavities > 0) r.held_at_pull = true;
    if (t > pull_start) r.peak = std::max(r.peak, v[pf]);
    r.lift = std::max(r.lift, v[pl]);
  }
  return r;
}

}  // namespace

TEST(CurvedSurfacesStory, AConvexRidgeHoldsAConcaveTroughOfTheSameRadiusDoesNot) {
  const Pull convex = run(1, 31.5, 10.0), concave = run(-1, 31.5, 10.0);
  std::printf("R = 31.5 mm: convex peak %.2f N (sealed %d, held at the pull %d); concave peak %.2f N (sealed %d, "
              "held at the pull %d)\n",
              convex.peak, convex.sealed, convex.held_at_pull, concave.peak, concave.sealed, concave.held_at_pull);
  const double r_lip = 0.01575, bound = kPAtm * 3.14159265358979 * r_lip * r_lip;
  EXPECT_TRUE(convex.sealed);
  EXPECT_TRUE(convex.held_at_pull);
  EXPECT_GT(convex.peak, 15.0) << "the paper's simulated cup holds 24.4 N on R = 31.5 mm";
  EXPECT_LT(convex.peak, bound) << "no more than the atmosphere on the lip's disk";
  EXPECT_LT(concave.peak, 0.2 * convex.peak) << "the trough's seal fails as soon as the pull starts";
  EXPECT_LT(convex.lift, 1.0) << "the heavy object stays down";
}

TEST(CurvedSurfacesStory, TheCupLiftsALightObjectOffAConvexRidge) {
  const Pull light = run(1, 31.5, 0.2);
  std::printf("0.2 kg on R = 31.5 mm: lifted %.1f mm, peak pull %.2f N\n", light.lift, light.peak);
  EXPECT_GT(light.lift, 30.0) << "mm of the 40 mm pull";
  EXPECT_NEAR(light.peak, 0.2 * 9.81, 1.5) << "the pull carries the object's weight (and the cup's)";
}
