// libFuzzer target: the scene loader with overrides, suction::parse_override and
// suction::load_scene_text (core/scene/scene.h): JSON syntax, validation, parameters and
// expressions, mesh generators and mesh files, the model build.
//
// Input: scene JSON text, optionally followed by a line "--set" and override lines
// POINTER=VALUE (what `suction run --set` passes), i.e.
//     {...scene...}\n--set\n/parameters/push_mm=3\n/settings/dt=0.02
// Relative mesh files resolve against the scenes/ folder of the source tree (SUCTION_SCENES_DIR),
// as they would for scenes/*.json.  Clean rejections: InputError (SceneError is one) and
// SimulationError (core/common/error.h).  Any other exception escaping is a finding, and so is
// a model that loads but breaks the invariants of check_model() (finite, unit rotations).
// GPL-3.0-or-later.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "scene/scene.h"

#ifndef SUCTION_SCENES_DIR
#error "SUCTION_SCENES_DIR must name the scenes/ folder of the source tree"
#endif

namespace {

bool finite(const suction::Points& points) {
  for (const suction::Vec3& p : points)
    if (!p.allFinite()) return false;
  return true;
}

// What a model that loaded without an error must satisfy before any step runs: finite
// geometry, masses and settings, unit orientations (a placement is a rotation: a non-unit
// quaternion means the body was scaled or sheared on the way in).  A violation is a finding:
// the loader accepted something the simulation cannot run correctly.
void check_model(const suction::Model& m) {
  const char* t = "fuzz_scene";
  const auto& s = m.settings;
  if (!(std::isfinite(s.dt) && s.dt > 0) || !std::isfinite(s.duration) || !s.gravity.allFinite() ||
      !std::isfinite(s.p_atm))
    suction_fuzz::unexpected(t, "loaded model: non-finite or non-positive settings");
  for (const auto& b : m.fem) {
    if (!finite(b.rest.nodes) || !finite(b.boundary.surface.vertices))
      suction_fuzz::unexpected(t, "loaded model: non-finite FEM node");
    for (double mass : b.node_mass)
      if (!(std::isfinite(mass) && mass > 0)) suction_fuzz::unexpected(t, "loaded model: FEM node mass not finite and positive");
  }
  for (const auto& b : m.rigid) {
    if (!finite(b.surface.vertices) || !b.initial_position.allFinite() || !b.initial_velocity.allFinite() ||
        !b.initial_angular_velocity.allFinite())
      suction_fuzz::unexpected(t, "loaded model: non-finite rigid body geometry or state");
    if (!(std::abs(b.initial_orientation.norm() - 1.0) < 1e-9))
      suction_fuzz::unexpected(t, "loaded model: rigid body orientation is not a unit quaternion");
    if (b.kind == suction::RigidKind::Dynamic &&
        !(std::isfinite(b.mass) && b.mass > 0 && b.inertia_body.allFinite()))
      suction_fuzz::unexpected(t, "loaded model: dynamic rigid body mass or inertia not finite and positive");
  }
  for (const auto& p : m.probes)  // Probe::direction is documented as a unit vector
    if (!(std::abs(p.direction.norm() - 1.0) < 1e-9))
      suction_fuzz::unexpected(t, "loaded model: probe direction is not a unit vector");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  static constexpr std::string_view kSeparator = "\n--set\n";
  const std::size_t sep = input.find(kSeparator);
  const std::string json(input.substr(0, sep));
  try {
    std::vector<suction::SceneOverride> overrides;
    if (sep != std::string_view::npos) {
      std::string_view rest = input.substr(sep + kSeparator.size());
      while (!rest.empty()) {
        const std::size_t eol = rest.find('\n');
        const std::string line(rest.substr(0, eol));
        rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
        if (!line.empty()) overrides.push_back(suction::parse_override(line));
      }
    }
    const suction::Model model = suction::load_scene_text(json, SUCTION_SCENES_DIR, overrides, "fuzz.json");
    check_model(model);
  } catch (const suction::InputError&) {
  } catch (const suction::SimulationError&) {
  } catch (const std::exception& e) {
    suction_fuzz::unexpected_exception("fuzz_scene", e);
  }
  return 0;
}
