// Internal to the scene loader: the state shared by the parts that read a scene
// (scene.cpp: top level, parameters, settings, materials; scene_bodies.cpp; scene_drivers.cpp).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "model/model.h"
#include "scene/json_reader.h"

namespace suction {

/// the generators' default "resolution" where the reader supplies it (the cup's is CupParams')
inline constexpr int kCylinderResolution = 16;
inline constexpr int kSphereResolution = 12;
inline constexpr int kCurvedSlabResolution = 48;

/// What the loader knows about one entry of "bodies", even when its mesh failed to build
/// (so that later references to it do not cascade into "unknown body" issues).
struct SceneBodyEntry {
  std::string name;
  std::string type;      // "fem", "rigid", "fixed", "kinematic"; "" when invalid
  std::string pointer;   // e.g. "/bodies/2"
  BodyRef ref;           // valid when built
  bool built = false;    // the body exists in the model (mesh read and accepted)
  std::vector<std::string> node_set_names;  // declared, even when not evaluated
};

struct SceneBuild {
  JsonReader reader;
  Model model;
  std::string base_dir;                        // relative mesh paths resolve against it
  std::map<std::string, int> material_index;   // material name -> Model::materials index
  std::vector<SceneBodyEntry> bodies;

  const SceneBodyEntry* find_body(const std::string& name) const;
  std::vector<std::string> body_names() const;
  /// index of the material named "default", appended (with Material's defaults) when absent
  int default_material();
};

/// the body named `name`; an issue at ptr naming the scene's bodies when there is none
const SceneBodyEntry* find_body_issue(SceneBuild& b, const std::string& name, const std::string& ptr);
/// the node set `name` of an fem body; an issue at ptr naming its sets when unknown (nullptr
/// then, and when the body was not built)
const std::vector<int>* find_node_set(SceneBuild& b, const SceneBodyEntry& body, const std::string& name,
                                      const std::string& ptr);
/// "a dynamic rigid", "a fixed", "a kinematic" or "an fem": a body type in a sentence
const char* body_type_phrase(const std::string& type);

/// "bodies": array of body objects (docs/scene-format.md)
void read_bodies(SceneBuild& build, const Json& bodies, const std::string& pointer);
/// "drivers": array of driver objects; needs the bodies
void read_drivers(SceneBuild& build, const Json& drivers, const std::string& pointer);
/// "springs": array of spring objects (Model::springs); needs the bodies
void read_springs(SceneBuild& build, const Json& springs, const std::string& pointer);
/// "joints": array of joint objects (Model::joints); needs the bodies
void read_joints(SceneBuild& build, const Json& joints, const std::string& pointer);
/// "probes": array of probe objects; needs the bodies, drivers, springs and joints
void read_probes(SceneBuild& build, const Json& probes, const std::string& pointer);

}  // namespace suction
