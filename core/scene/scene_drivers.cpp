// Scene drivers (keyframes, segments, targets) and probes.
#include <algorithm>
#include <sstream>

#include "model/springs.h"
#include "scene/scene.h"
#include "scene/scene_build.h"

namespace suction {

/// the node set `name` of a fem body; issue at ptr when unknown
const std::vector<int>* find_node_set(SceneBuild& b, const SceneBodyEntry& body, const std::string& name,
                                      const std::string& ptr) {
  const auto& names = body.node_set_names;
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    b.reader.issue(ptr, "unknown node set '" + name + "' of body '" + body.name + "'; " +
                            (names.empty() ? "the body declares no node_sets" : "node sets: " + join_names(names)));
    return nullptr;
  }
  if (!body.built) return nullptr;
  return &b.model.fem[body.ref.index].node_sets.at(name);
}

const SceneBodyEntry* find_body_issue(SceneBuild& b, const std::string& name, const std::string& ptr) {
  const SceneBodyEntry* body = b.find_body(name);
  if (!body) {
    auto names = b.body_names();
    b.reader.issue(ptr, "unknown body '" + name + "'; " +
                            (names.empty() ? "the scene has no bodies" : "bodies: " + join_names(names)));
  }
  return body;
}

const char* body_type_phrase(const std::string& type) {
  return type == "rigid" ? "a dynamic rigid" : type == "fixed" ? "a fixed" : type == "kinematic" ? "a kinematic" : "an fem";
}

namespace {

/// times >= 0 and strictly increasing; time_pointer(i) names keyframe i's time
template <class PointerOf>
bool check_times(JsonReader& r, const std::vector<double>& t, PointerOf time_pointer) {
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] < 0) {
      r.issue(time_pointer(i), "keyframe times must be >= 0, got " + format_number(t[i]));
      return false;
    }
    if (i > 0 && !(t[i] > t[i - 1])) {
      r.issue(time_pointer(i), "keyframe times must be strictly increasing: t = " + format_number(t[i]) +
                                   " follows t = " + format_number(t[i - 1]));
      return false;
    }
  }
  return true;
}

/// "keyframes": [[t, x, y, z], ...] or {"t": [...], "value": [[x, y, z], ...]}
std::optional<Keyframes> read_keyframes(JsonReader& r, const Json& v, const std::string& ptr) {
  Keyframes k;
  size_t issues_before = r.issue_count();
  if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i) {
      std::string p = pointer_child(ptr, i);
      if (!v[i].is_array() || v[i].size() != 4) {
        r.issue(p, "expected a keyframe [t, x, y, z], got " + describe_json(v[i]));
        continue;
      }
      auto xs = r.numbers(v[i], p, 4);
      if (!xs) continue;
      k.times.push_back((*xs)[0]);
      k.values.emplace_back((*xs)[1], (*xs)[2], (*xs)[3]);
    }
    if (r.issue_count() != issues_before) return std::nullopt;
    if (!check_times(r, k.times, [&](size_t i) { return pointer_child(pointer_child(ptr, i), size_t{0}); }))
      return std::nullopt;
  } else if (v.is_object()) {
    ObjectView o(r, v, ptr, {"t", "value"});
    const Json* t = o.require("t");
    const Json* value = o.require("value");
    if (!t || !value) return std::nullopt;
    if (!expect_array(r, *t, o.at("t"), "an array of times [s]") ||
        !expect_array(r, *value, o.at("value"), "an array of [x, y, z] values"))
      return std::nullopt;
    for (size_t i = 0; i < t->size(); ++i)
      k.times.push_back(r.number((*t)[i], pointer_child(o.at("t"), i)).value_or(0.0));
    for (size_t i = 0; i < value->size(); ++i)
      k.values.push_back(r.vec3((*value)[i], pointer_child(o.at("value"), i)).value_or(Vec3::Zero()));
    if (r.issue_count() != issues_before) return std::nullopt;
    if (t->size() != value->size()) {
      r.issue(o.at("value"), "expected " + std::to_string(t->size()) + " values (one per time), got " +
                                 std::to_string(value->size()));
      return std::nullopt;
    }
    if (!check_times(r, k.times, [&](size_t i) { return pointer_child(o.at("t"), i); }))
      return std::nullopt;
  } else {
    r.issue(ptr, "expected an array of keyframes [t, x, y, z] or an object {\"t\": [...], "
                 "\"value\": [[x, y, z], ...]}, got " + describe_json(v));
    return std::nullopt;
  }
  if (k.times.empty()) {
    r.issue(ptr, "expected at least one keyframe");
    return std::nullopt;
  }
  return k;
}

/// "segments": [{"move": [dx, dy, dz], "duration": s}, {"hold": s},
/// {"press": [fx, fy, fz], "duration": s, "gain": g, "max_speed": v}, ...] -> position keyframes
/// starting at (t = 0, displacement 0); press segments hold the keyframes still and go to presses
std::optional<Keyframes> read_segments(JsonReader& r, const Json& v, const std::string& ptr,
                                       std::vector<PressSegment>& presses) {
  const char* expected =
      "a segment {\"move\": [dx, dy, dz], \"duration\": s}, {\"hold\": s} or "
      "{\"press\": [fx, fy, fz], \"duration\": s}";
  if (!expect_array(r, v, ptr, (std::string("an array of segments: ") + expected).c_str())) return std::nullopt;
  Keyframes k;
  k.times.push_back(0.0);
  k.values.push_back(Vec3::Zero());
  size_t issues_before = r.issue_count();
  for (size_t i = 0; i < v.size(); ++i) {
    ObjectView o(r, v[i], pointer_child(ptr, i), {"move", "duration", "hold", "press", "gain", "max_speed"}, expected);
    if (!o.valid()) continue;
    if (int(o.has("hold")) + int(o.has("move")) + int(o.has("press")) != 1) {
      r.issue(o.pointer(), "expected exactly one of 'move' (with 'duration'), 'hold' or 'press' (with 'duration')");
      continue;
    }
    if (!o.has("press"))
      for (const char* key : {"gain", "max_speed"})
        if (o.has(key)) r.issue(o.at(key), std::string("'") + key + "' belongs to a press segment");
    if (o.has("hold")) {
      if (o.has("duration")) r.issue(o.at("duration"), "a hold segment gives its duration as \"hold\": s");
      auto hold = o.required_number("hold", Bounds::positive());
      if (!hold) continue;
      k.times.push_back(k.times.back() + *hold);
      k.values.push_back(k.values.back());
    } else if (o.has("press")) {
      auto force = r.vec3(*o.find("press"), o.at("press"));
      auto duration = o.required_number("duration", Bounds::positive());
      PressSegment p;
      p.gain = o.number("gain", p.gain, Bounds::positive());
      p.max_speed = o.number("max_speed", p.max_speed, Bounds::positive());
      if (!force || !duration) continue;
      p.t0 = k.times.back();
      p.t1 = p.t0 + *duration;
      p.force = *force;
      presses.push_back(p);
      k.times.push_back(p.t1);
      k.values.push_back(k.values.back());
    } else {
      auto move = r.vec3(*o.find("move"), o.at("move"));
      auto duration = o.required_number("duration", Bounds::positive());
      if (!move || !duration) continue;
      k.times.push_back(k.times.back() + *duration);
      k.values.push_back(k.values.back() + *move);
    }
  }
  if (r.issue_count() != issues_before) return std::nullopt;
  return k;
}



/// resolves a driver's target: an fem node set (marking the nodes it moves), a kinematic body
/// (motion drivers) or a dynamic rigid body (force drivers); motion_type: position or velocity
/// driver (nullopt: the type was invalid, only the names are checked)
void bind_driver_target(SceneBuild& b, ObjectView& o, Driver& d, int index, std::optional<bool> motion_type) {
  JsonReader& r = b.reader;
  auto body_name = o.required_string("body");
  auto node_set = o.optional_string("node_set");
  const SceneBodyEntry* body = body_name ? find_body_issue(b, *body_name, o.at("body")) : nullptr;
  if (body && !body->type.empty() && motion_type) {
    const bool motion = *motion_type;
    d.body = body->ref;
    if (body->type == "fem") {
      if (motion && !node_set && !o.has("node_set"))
        r.issue(o.at("node_set"), "missing required key 'node_set' (motion drivers on fem bodies move a node set)");
      const std::vector<int>* nodes = nullptr;
      std::vector<int> all;
      if (node_set) {
        d.node_set = *node_set;
        nodes = find_node_set(b, *body, *node_set, o.at("node_set"));
      } else if (!motion && body->built) {
        for (size_t i = 0; i < b.model.fem[body->ref.index].rest.nodes.size(); ++i)
          all.push_back(static_cast<int>(i));
        nodes = &all;
      }
      if (nodes) {
        d.nodes = *nodes;
        // a node follows at most one motion driver and is not also fixed
        auto& constraint = b.model.fem[body->ref.index].node_constraint;
        for (int n : d.nodes) {
          if (!motion) break;
          int c = constraint[n];
          if (c == kNodeFixed || c >= 0) {
            r.issue(o.at("node_set"), "node " + std::to_string(n) + " of node set '" + d.node_set + "' is already " +
                                          (c == kNodeFixed ? std::string("fixed (fixed_nodes)")
                                                   : "driven by driver '" + b.model.drivers[c].name + "'"));
            break;
          }
          constraint[n] = index;
        }
      }
    } else {
      if (o.has("node_set"))
        r.issue(o.at("node_set"), "node_set is only for fem bodies; '" + body->name + "' is " + body_type_phrase(body->type) + " body");
      if (motion && body->type != "kinematic") {
        r.issue(o.at("body"), "position and velocity drivers move fem node sets or kinematic bodies; '" + body->name +
                                  "' is " + body_type_phrase(body->type) + " body");
      } else if (!motion && body->type != "rigid") {
        r.issue(o.at("body"), "force drivers push fem node sets or dynamic (\"rigid\") bodies; '" + body->name +
                                  "' is " + body_type_phrase(body->type) + " body");
      } else if (motion && body->built) {
        int& driver = b.model.rigid[body->ref.index].driver;
        if (driver >= 0)
          r.issue(o.at("body"), "body '" + body->name + "' is already moved by driver '" + b.model.drivers[driver].name + "'");
        else driver = index;
      }
    }
  }
}

/// driver `index` (its position in "drivers"); always appended so that indices match the array
void read_driver(SceneBuild& b, const Json& v, const std::string& ptr, int index) {
  JsonReader& r = b.reader;
  Driver d;
  ObjectView o(r, v, ptr, {"name", "type", "body", "node_set", "keyframes", "segments"}, "a driver object");
  if (!o.valid()) { b.model.drivers.push_back(d); return; }
  if (auto name = o.required_string("name")) {
    d.name = *name;
    for (int j = 0; j < index; ++j)
      if (b.model.drivers[j].name == *name)
        r.issue(o.at("name"), "duplicate driver name '" + *name + "' (also /drivers/" + std::to_string(j) + ")");
  }
  auto type = o.choice("type", {"position", "velocity", "force"});
  if (type) d.kind = *type == "position" ? DriverKind::Position : *type == "velocity" ? DriverKind::Velocity : DriverKind::Force;
  std::optional<bool> motion;  // unknown when the type is invalid
  if (type) motion = *type != "force";

  // keyframes, or segments (position drivers)
  if (o.has("keyframes") == o.has("segments")) {
    r.issue(o.has("keyframes") ? o.pointer() : o.at("keyframes"),
            o.has("keyframes") ? "expected either 'keyframes' or 'segments', not both"
                               : "missing required key 'keyframes' (or 'segments' for position drivers)");
  } else if (o.has("segments")) {
    if (type && *type != "position")
      r.issue(o.at("segments"), "segments are only for position drivers; use keyframes");
    else if (auto k = read_segments(r, *o.find("segments"), o.at("segments"), d.presses)) d.keyframes = *k;
  } else if (auto k = read_keyframes(r, *o.find("keyframes"), o.at("keyframes"))) {
    d.keyframes = *k;
  }

  bind_driver_target(b, o, d, index, motion);
  b.model.drivers.push_back(std::move(d));
}

/// The probe types: adding one is adding a row (and its ProbeKind).
struct ProbeType {
  const char* name;
  ProbeKind kind;
  bool body;       // needs "body"
  bool node_set;   // needs "node_set" (fem body)
  bool driver;     // needs "driver"
  bool component;  // a vector quantity: "component" selects x, y, z or norm
  bool direction = false;  // needs "direction": a vector to project on
  bool cavity = false;     // takes "cavity": which active cavity (0 = the oldest)
  bool spring = false;     // needs "spring": a spring's name
  bool joint = false;      // needs "joint": a revolute joint's name
};
const ProbeType kProbeTypes[] = {
    {"position", ProbeKind::Position, true, false, false, true},
    {"velocity", ProbeKind::Velocity, true, false, false, true},
    {"node_set_position", ProbeKind::NodeSetPosition, true, true, false, true},
    {"driver_force", ProbeKind::DriverForce, false, false, true, true},
    {"time", ProbeKind::Time, false, false, false, false},
    {"displacement", ProbeKind::Displacement, true, false, false, false, true},
    {"contact_force", ProbeKind::ContactForce, true, false, false, true},
    {"cavity_pressure", ProbeKind::CavityPressure, false, false, false, false, false, true},
    {"cavity_volume", ProbeKind::CavityVolume, false, false, false, false, false, true},
    {"cavity_air", ProbeKind::CavityAir, false, false, false, false, false, true},
    {"cavity_temperature", ProbeKind::CavityTemperature, false, false, false, false, false, true},
    {"cavity_holding_force", ProbeKind::CavityHoldingForce, false, false, false, false, false, true},
    {"cavity_count", ProbeKind::CavityCount, false, false, false, false},
    {"spring_force", ProbeKind::SpringForce, false, false, false, false, false, false, true},
    {"spring_length", ProbeKind::SpringLength, false, false, false, false, false, false, true},
    {"joint_angle", ProbeKind::JointAngle, false, false, false, false, false, false, false, true},
    {"joint_torque", ProbeKind::JointTorque, false, false, false, false, false, false, false, true},
};
}  // namespace

const char* probe_type_name(ProbeKind kind) {
  for (const ProbeType& t : kProbeTypes)
    if (t.kind == kind) return t.name;
  return "?";
}

namespace {

/// columns the CSV writer always emits; probe names must differ
const std::vector<std::string> kReservedColumns = {"step", "t", "contacts", "cavities", "pressure_min",
                                                   "volume_total", "air_total", "holding_force",
                                                   "pgs_iterations", "pgs_residual", "temperature_min",
                                                   "temperature_max"};

void read_probe(SceneBuild& b, const Json& v, const std::string& ptr, std::vector<std::string>& names) {
  JsonReader& r = b.reader;
  std::vector<std::string> type_names;
  for (const auto& t : kProbeTypes) type_names.push_back(t.name);
  // the type decides which keys are allowed
  const ProbeType* spec = nullptr;
  if (v.is_object() && v.contains("type") && v["type"].is_string())
    for (const auto& t : kProbeTypes)
      if (v["type"].get<std::string>() == t.name) spec = &t;
  std::vector<std::string> keys = {"name", "type", "scale"};
  if (!spec || spec->body || spec->cavity) keys.push_back("body");
  if (!spec || spec->node_set) keys.push_back("node_set");
  if (!spec || spec->driver) keys.push_back("driver");
  if (!spec || spec->component) keys.push_back("component");
  if (!spec || spec->direction) keys.push_back("direction");
  if (!spec || spec->cavity) keys.push_back("cavity");
  if (!spec || spec->spring) keys.push_back("spring");
  if (!spec || spec->joint) keys.push_back("joint");
  ObjectView o(r, v, ptr, keys, "a probe object");
  if (!o.valid()) return;

  Probe p;
  if (auto name = o.required_string("name")) {
    p.name = *name;
    if (std::find(names.begin(), names.end(), *name) != names.end())
      r.issue(o.at("name"), "duplicate probe name '" + *name + "'");
    else if (std::find(kReservedColumns.begin(), kReservedColumns.end(), *name) != kReservedColumns.end())
      r.issue(o.at("name"), "probe name '" + *name + "' clashes with a fixed CSV column (" +
                                join_names(kReservedColumns) + ")");
    names.push_back(*name);
  }
  o.choice("type", type_names);
  p.scale = o.number("scale", 1.0);
  if (!spec) return;
  p.kind = spec->kind;
  if (spec->component) {
    const std::vector<std::string> comps = {"x", "y", "z", "norm"};
    auto c = o.choice("component", comps, "z");
    if (c) p.component = static_cast<int>(std::find(comps.begin(), comps.end(), *c) - comps.begin());
  }
  if (spec->cavity) {
    p.cavity = o.integer("cavity", 0, Bounds::at_least(0));
    // "body": only the cavities that body bounds (a cup's own cavity, shared or not)
    if (o.has("body"))
      if (auto body_name = o.required_string("body"))
        if (const SceneBodyEntry* body = find_body_issue(b, *body_name, o.at("body"))) {
          p.body = body->ref;
          p.cavity_of_body = true;
        }
  }
  if (spec->direction) {
    if (o.require("direction")) {
      if (auto d = o.direction("direction", Vec3::Zero(), "a direction")) p.direction = *d;
    }
  }
  if (spec->body) {
    auto body_name = o.required_string("body");
    const SceneBodyEntry* body = body_name ? find_body_issue(b, *body_name, o.at("body")) : nullptr;
    if (body) p.body = body->ref;
    if (spec->node_set) {
      auto set = o.required_string("node_set");
      if (body && set && !body->type.empty()) {
        if (body->type != "fem")
          r.issue(o.at("body"), "node_set_position probes need an fem body; '" + body->name + "' is " +
                                    body_type_phrase(body->type) + " body");
        else if (const auto* nodes = find_node_set(b, *body, *set, o.at("node_set")))
          p.nodes = *nodes;
      }
    }
  }
  if (spec->driver) {
    if (auto driver = o.required_string("driver")) {
      auto& ds = b.model.drivers;
      auto it = std::find_if(ds.begin(), ds.end(), [&](const Driver& d) { return d.name == *driver; });
      if (it == ds.end()) {
        std::vector<std::string> known;
        for (const auto& d : ds) known.push_back(d.name);
        r.issue(o.at("driver"), "unknown driver '" + *driver + "'; " +
                                    (known.empty() ? "the scene has no drivers" : "drivers: " + join_names(known)));
      } else {
        p.driver = static_cast<int>(it - ds.begin());
        p.body = it->body;
      }
    }
  }
  if (spec->spring) {
    if (auto spring = o.required_string("spring")) {
      const auto& ss = b.model.springs;
      auto it = std::find_if(ss.begin(), ss.end(), [&](const Spring& s) { return s.name == *spring; });
      if (it == ss.end()) {
        std::vector<std::string> known;
        for (const auto& s : ss) known.push_back(s.name);
        r.issue(o.at("spring"), "unknown spring '" + *spring + "'; " +
                                    (known.empty() ? "the scene has no springs" : "springs: " + join_names(known)));
      } else {
        p.spring = static_cast<int>(it - ss.begin());
      }
    }
  }
  if (spec->joint) {
    if (auto joint = o.required_string("joint")) {
      const auto& js = b.model.joints;
      auto it = std::find_if(js.begin(), js.end(), [&](const Joint& j) { return j.name == *joint; });
      std::vector<std::string> hinges;
      for (const auto& j : js)
        if (j.kind == JointKind::Revolute) hinges.push_back(j.name);
      if (it == js.end() || it->kind != JointKind::Revolute) {
        r.issue(o.at("joint"), (it == js.end() ? "unknown joint '" : "joint '") + *joint +
                                   (it == js.end() ? "'; " : "' is a weld, which has no angle; ") +
                                   (hinges.empty() ? "the scene has no revolute joints"
                                                   : "revolute joints: " + join_names(hinges)));
      } else {
        p.joint = static_cast<int>(it - js.begin());
      }
    }
  }
  b.model.probes.push_back(std::move(p));
}

/// one end of a spring: {"body": name, "node_set": set} (fem) or {"body": name, "point": [x, y, z]}
/// (rigid, fixed or kinematic; the point in world coordinates at t = 0, default the centre of mass)
std::optional<SpringEnd> read_spring_end(SceneBuild& b, const Json& v, const std::string& ptr, bool& at_centre) {
  at_centre = false;
  JsonReader& r = b.reader;
  ObjectView o(r, v, ptr, {"body", "node_set", "point"},
               "a spring end {\"body\": name, \"node_set\": set} (fem) or {\"body\": name, \"point\": [x, y, z]}");
  if (!o.valid()) return std::nullopt;
  const size_t issues_before = r.issue_count();
  auto body_name = o.required_string("body");
  const SceneBodyEntry* body = body_name ? find_body_issue(b, *body_name, o.at("body")) : nullptr;
  SpringEnd end;
  if (!body || body->type.empty()) return std::nullopt;
  end.body = body->ref;
  if (body->type == "fem") {
    if (o.has("point"))
      r.issue(o.at("point"), "an fem body's spring end is a node set (\"node_set\"), not a point");
    auto set = o.required_string("node_set");
    if (!set) return std::nullopt;
    end.node_set = *set;
    const std::vector<int>* nodes = find_node_set(b, *body, *set, o.at("node_set"));
    if (!nodes) return std::nullopt;
    if (nodes->empty()) {
      r.issue(o.at("node_set"), "node set '" + *set + "' of body '" + body->name + "' is empty");
      return std::nullopt;
    }
    const FemBody& fem = b.model.fem[body->ref.index];
    double mass = 0.0;
    for (int n : *nodes) mass += fem.node_mass[n];
    end.nodes = *nodes;
    for (int n : *nodes) end.weights.push_back(fem.node_mass[n] / mass);
  } else {
    if (o.has("node_set"))
      r.issue(o.at("node_set"), "node sets belong to fem bodies; '" + body->name + "' is " + body_type_phrase(body->type) +
                                    " body: give its end as \"point\": [x, y, z]");
    if (!body->built) return std::nullopt;
    const RigidBody& rigid = b.model.rigid[body->ref.index];
    at_centre = !o.has("point");
    const Vec3 point = o.vec3("point", rigid.initial_position);
    end.local = rigid.initial_orientation.conjugate() * (point - rigid.initial_position);
  }
  if (r.issue_count() != issues_before) return std::nullopt;
  return end;
}

void read_spring(SceneBuild& b, const Json& v, const std::string& ptr, std::vector<std::string>& names) {
  JsonReader& r = b.reader;
  ObjectView o(r, v, ptr, {"name", "a", "b", "stiffness", "damping", "rest_length"},
               "a spring object {\"name\", \"a\", \"b\", \"stiffness\", \"damping\", \"rest_length\"}");
  if (!o.valid()) return;
  const size_t issues_before = r.issue_count();
  Spring s;
  if (auto name = o.required_string("name")) {
    s.name = *name;
    if (std::find(names.begin(), names.end(), *name) != names.end())
      r.issue(o.at("name"), "duplicate spring name '" + *name + "'");
    names.push_back(*name);
  }
  const Json* a = o.require("a");
  const Json* bj = o.require("b");
  bool a_at_centre = false, b_at_centre = false;  // a rigid end without "point"
  std::optional<SpringEnd> end_a = a ? read_spring_end(b, *a, o.at("a"), a_at_centre) : std::nullopt;
  std::optional<SpringEnd> end_b = bj ? read_spring_end(b, *bj, o.at("b"), b_at_centre) : std::nullopt;
  auto stiffness = o.required_number("stiffness", Bounds::at_least(0.0));
  s.damping = o.number("damping", 0.0, Bounds::at_least(0.0));
  const bool has_rest = o.has("rest_length");  // absent: the ends' distance at t = 0
  const double rest = o.number("rest_length", 0.0, Bounds::at_least(0.0));
  if (stiffness) s.stiffness = *stiffness;
  if (stiffness && *stiffness == 0.0 && s.damping == 0.0)
    r.issue(o.at("stiffness"), "a spring needs a stiffness > 0 or a damping > 0 (both are 0)");
  if (!end_a || !end_b || r.issue_count() != issues_before) return;
  s.a = *end_a;
  s.b = *end_b;
  if (s.a.body.type == BodyType::Rigid && s.b.body.type == BodyType::Rigid && s.a.body.index == s.b.body.index) {
    r.issue(o.at("b"), "both ends are on rigid body '" + b.model.rigid[s.a.body.index].name +
                           "': a spring inside one rigid body exerts no net force");
    return;
  }
  auto initial = [&](const SpringEnd& e) { return spring_end_initial_position(b.model, e); };
  // a zero-length spring attaches: a rigid end given without a point sits where the other end
  // starts (when the other end has a point or is a node set), so the attachment starts unstressed
  if (has_rest && rest == 0.0) {
    auto place = [&](SpringEnd& e, const SpringEnd& other) {
      const RigidBody& rb = b.model.rigid[e.body.index];
      e.local = rb.initial_orientation.conjugate() * (initial(other) - rb.initial_position);
    };
    if (b_at_centre && !a_at_centre) place(s.b, s.a);
    else if (a_at_centre && !b_at_centre) place(s.a, s.b);
  }
  const double length = (initial(s.a) - initial(s.b)).norm();
  s.rest_length = has_rest ? rest : length;
  if (s.rest_length > 0.0 && !(length > 1e-9 * s.rest_length)) {
    r.issue(has_rest ? o.at("rest_length") : o.at("b"),
            "the ends start at the same point, so the spring has no direction; place them apart or give "
            "\"rest_length\": 0 (a zero-length spring)");
    return;
  }
  b.model.springs.push_back(std::move(s));
}

}  // namespace

void read_springs(SceneBuild& b, const Json& springs, const std::string& ptr) {
  if (!expect_array(b.reader, springs, ptr, "an array of springs")) return;
  std::vector<std::string> names;
  for (size_t i = 0; i < springs.size(); ++i) read_spring(b, springs[i], pointer_child(ptr, i), names);
}

void read_drivers(SceneBuild& b, const Json& drivers, const std::string& ptr) {
  if (!expect_array(b.reader, drivers, ptr, "an array of drivers")) return;
  for (size_t i = 0; i < drivers.size(); ++i)
    read_driver(b, drivers[i], pointer_child(ptr, i), static_cast<int>(i));
}

void read_probes(SceneBuild& b, const Json& probes, const std::string& ptr) {
  if (!expect_array(b.reader, probes, ptr, "an array of probes")) return;
  std::vector<std::string> names;
  for (size_t i = 0; i < probes.size(); ++i) read_probe(b, probes[i], pointer_child(ptr, i), names);
}

}  // namespace suction
