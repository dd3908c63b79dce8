// The shipped scenes (scenes/*.json) in tests: a scene's path, and the scene loaded with
// --set-style overrides ("POINTER=VALUE").
#pragma once
#include <string>
#include <vector>

#include "scene/scene.h"

namespace suction::test {

inline std::string scene(const std::string& name) { return std::string(SUCTION_SCENES_DIR) + "/" + name; }

inline Model load(const std::string& name, const std::vector<std::string>& sets = {}) {
  std::vector<SceneOverride> overrides;
  for (const std::string& s : sets) overrides.push_back(parse_override(s));
  return load_scene_file(scene(name), overrides);
}

}  // namespace suction::test
