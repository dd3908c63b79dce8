// Scenes are data: a JSON file (schema: docs/scene-format.md) validated on load and turned into
// a Model.  Every error names the JSON pointer of the offending field and what was expected;
// loading stops before any simulation.
#pragma once
#include <string>
#include <vector>

#include "common/error.h"
#include "model/model.h"

namespace suction {

/// An override "--set /json/pointer=value": value is parsed as JSON when it parses (numbers,
/// true/false, arrays, quoted strings), as a plain string otherwise.
/// "/parameters/NAME=v" sets the parameter's value (its default is replaced).
struct SceneOverride {
  std::string pointer;
  std::string value;
};
/// Splits "POINTER=VALUE"; throws InputError when there is no '=' or the pointer is not
/// a JSON pointer (must start with '/').
SceneOverride parse_override(const std::string& text);

/// Scene files larger than this are rejected before parsing.
constexpr size_t kMaxSceneBytes = 16u << 20;

/// Loads, validates and builds a scene.  Relative mesh paths resolve against base_dir.
/// Throws SceneError (every issue found, each with its JSON pointer) on bad input.
/// `quality`: Interactive applies the cheaper settings the core derives (scene/quality.h) after
/// the overrides; Model::quality_changes lists them.
Model load_scene_text(const std::string& json_text, const std::string& base_dir,
                      const std::vector<SceneOverride>& overrides = {},
                      const std::string& name_for_errors = "scene", Quality quality = Quality::Reference);
Model load_scene_file(const std::string& path, const std::vector<SceneOverride>& overrides = {},
                      Quality quality = Quality::Reference);

/// The scene-format name of a probe kind ("position", "cavity_pressure", ...).
const char* probe_type_name(ProbeKind kind);

/// Validation only: the issues of a scene (empty when it loads).  Never throws for scene
/// problems (unreadable files and JSON syntax errors become issues with pointer "").
std::vector<SceneIssue> validate_scene_file(const std::string& path,
                                            const std::vector<SceneOverride>& overrides = {},
                                            Quality quality = Quality::Reference);

}  // namespace suction
