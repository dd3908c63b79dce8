// Wet surfaces (docs/method.md §9.10): a liquid film seals a gap up to its thickness (a rigid lid
// lifted off a pocket: the seal holds while the gap is below the film and opens above it, and
// the air stays trapped until then), contacts with the wetted surface slide with the film's
// Coulomb friction (the incline), and bad film values are refused at their pointer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "common/error.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

/// A fixed 40 mm block with a 20 × 20 × 5 mm pocket in its top face (z = 0) and a stiff 30 mm FEM
/// lid 20 µm above it, lifted by its top face 0.5 mm at 1 mm/s; `film`: the block material's film
/// object ("" for none).
std::string lid_scene(const std::string& film) {
  return R"({
  "name": "lid",
  "settings": {"dt": 0.001, "gravity": [0, 0, 0]},
  "materials": {"steel": {"young": 2e11, "poisson": 0.3, "density": 7800, "friction": 0.5)" +
         (film.empty() ? "" : R"(, "film": )" + film) + R"(},
                "stiff": {"young": 1e8, "poisson": 0.3, "density": 1000, "friction": 0.5}},
  "bodies": [
    {"name": "block", "type": "fixed", "material": "steel",
     "mesh": {"generator": "pocket_block", "size": [0.04, 0.04, 0.02], "depth": 0.005,
              "outline": [[-0.01, -0.01], [0.01, -0.01], [0.01, 0.01], [-0.01, 0.01]]},
     "position": [0, 0, -0.01]},
    {"name": "lid", "type": "fem", "material": "stiff",
     "mesh": {"generator": "box", "size": [0.03, 0.03, 0.01], "cells": [3, 3, 1]}, "position": [0, 0, 0.00502],
     "node_sets": {"top": {"top": 0.0001}},
     "comment": "narrower than the block: no coplanar side faces for the union; an FEM body: a kinematic one has no contacts with a fixed one"}
  ],
  "drivers": [{"name": "lift", "type": "position", "body": "lid", "node_set": "top",
               "segments": [{"hold": 0.01}, {"move": [0, 0, 0.0005], "duration": 0.5}]}]
})";
}

struct FilmLift {
  bool sealed = false;         // a cavity at the first steps
  double open_gap = -1.0;      // the lid's gap over the block when the cavity went [m]
  double p_before_open = 0.0;  // its pressure in the last step it was there [Pa]
  double v_before_open = 0.0, v_sealed = 0.0;
};

FilmLift lift(const std::string& film) {
  Simulation sim(load_scene_text(lid_scene(film), "", {}));
  FilmLift out;
  const int lid = sim.model().find_body("lid")->index;
  for (int i = 0; i < 520; ++i) {
    sim.step();
    double bottom = 1.0;  // the lid's lowest node: its gap over the block's top face (z = 0)
    for (const Vec3& x : sim.state().fem[lid].x) bottom = std::min(bottom, x.z());
    const double gap = bottom;
    int active = 0;
    for (const CavityState& c : sim.state().book.cavities) active += !c.dormant;
    if (i == 2) {
      out.sealed = active == 1;
      if (active) out.v_sealed = sim.state().book.cavities[0].volume;
    }
    if (out.sealed && active == 0 && out.open_gap < 0.0) out.open_gap = gap;
    if (active == 1 && out.open_gap < 0.0) {
      out.p_before_open = sim.state().book.cavities[0].pressure;
      out.v_before_open = sim.state().book.cavities[0].volume;
    }
  }
  return out;
}

}  // namespace

TEST(Film, AFilmKeepsTheSealOfALiftedLidUpToItsThickness) {
  const double d_seal = 5e-5, step = 1e-6;  // the sealing distance; the lid's travel per step
  const FilmLift dry = lift("");
  ASSERT_TRUE(dry.sealed) << "the lid 20 µm over the pocket seals it";
  EXPECT_NEAR(dry.open_gap, d_seal, 2 * step) << "dry: the seal opens at the sealing distance";
  for (double h : {1e-4, 3e-4}) {
    const FilmLift wet = lift(R"({"thickness": )" + std::to_string(h) + "}");
    ASSERT_TRUE(wet.sealed);
    EXPECT_NEAR(wet.open_gap, h, 2 * step) << "wet: it opens at the film's thickness " << h;
    // sealed until then: no air came in, the trapped air expanded (Boyle)
    EXPECT_NEAR(wet.p_before_open * wet.v_before_open, kPAtm * wet.v_sealed, 1e-6 * kPAtm * wet.v_sealed);
    EXPECT_LT(wet.p_before_open, kPAtm * (1.0 - 0.5 * (h - 3e-5) / 0.005));
    std::printf("film %.0f µm: the seal opened at a gap of %.1f µm (dry: %.1f µm), P before %.0f Pa\n", h * 1e6,
                wet.open_gap * 1e6, dry.open_gap * 1e6, wet.p_before_open);
  }
}

TEST(Film, TheWettedSurfaceSlidesWithTheFilmsCoulombFriction) {
  auto load = [](const std::vector<std::string>& sets) {
    std::vector<SceneOverride> o;
    for (const auto& s : sets) o.push_back(parse_override(s));
    return load_scene_file(std::string(SUCTION_SCENES_DIR) + "/incline.json", o);
  };
  const std::vector<std::string> base = {"/parameters/angle_deg=30", "/parameters/mu=0.8"};
  {
    Simulation dry(load(base));
    for (int i = 0; i < 200; ++i) dry.step();
    EXPECT_LT(std::abs(dry.probe_values()[0]), 1e-4) << "dry, μ 0.8 > tan 30°: it sticks (it settles by 30 µm)";
  }
  std::vector<std::string> wet = base;
  wet.push_back(R"(/materials/plastic/film={"thickness": 1e-4, "friction": 0.2})");
  Simulation sim(load(wet));
  const double angle = 30.0 * kPi / 180.0, mu = 0.2, g = 9.81;
  const int block = sim.model().find_body("block")->index;
  const Vec3 down(std::cos(angle), 0, -std::sin(angle));
  for (int i = 0; i < 40; ++i) sim.step();
  const double v0 = sim.state().rigid[block].velocity.dot(down), t0 = sim.state().time;
  for (int i = 0; i < 100; ++i) sim.step();
  const double a = (sim.state().rigid[block].velocity.dot(down) - v0) / (sim.state().time - t0);
  const double expected = g * (std::sin(angle) - mu * std::cos(angle));
  EXPECT_NEAR(a, expected, 0.02 * expected) << "wet: Coulomb with the film's μ";
  // a scene's friction pair still decides over the film
  wet.push_back(R"(/settings/contact={"friction_pairs": [{"materials": ["plastic", "plastic"], "friction": 0.8}]})");
  Simulation paired(load(wet));
  for (int i = 0; i < 200; ++i) paired.step();
  EXPECT_LT(std::abs(paired.probe_values()[0]), 1e-4);
}

TEST(Film, BadFilmValuesAreRefusedAtTheirPointer) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"thickness": -1e-4})", "/materials/steel/film/thickness"},
      {R"({"thickness": 1e-4, "friction": -0.1})", "/materials/steel/film/friction"},
      {R"({"thickness": 0.002})", "/materials/steel/film/thickness"},  // beyond the alarm distance
      {R"({"depth": 1e-4})", "/materials/steel/film/depth"},
      {"0.0001", "/materials/steel/film"},
  };
  for (const auto& [film, pointer] : cases) {
    try {
      load_scene_text(lid_scene(film), "", {});
      ADD_FAILURE() << film << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find(pointer), std::string::npos) << film << ": " << e.what();
    }
  }
}
