// Scene joints (Model::joints, docs/scene-format.md "Joints"): revolute hinges between rigid
// bodies or a rigid body and the world, with limits and a drive, and welds of an FEM node set
// to a rigid body.
#include <algorithm>
#include <cmath>

#include "model/joints.h"
#include "scene/scene_build.h"

namespace suction {

namespace {

constexpr double kDegree = 3.14159265358979323846 / 180.0;

/// [[t, value], ...] in degrees (or degrees per second) -> radians in x of the keyframes
std::optional<Keyframes> read_angle_keyframes(JsonReader& r, const Json& v, const std::string& ptr) {
  if (!expect_array(r, v, ptr, "an array of keyframes [t, value in degrees]")) return std::nullopt;
  Keyframes k;
  const size_t issues_before = r.issue_count();
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string p = pointer_child(ptr, i);
    if (!v[i].is_array() || v[i].size() != 2) {
      r.issue(p, "expected a keyframe [t, value in degrees], got " + describe_json(v[i]));
      continue;
    }
    auto xs = r.numbers(v[i], p, 2);
    if (!xs) continue;
    const double t = (*xs)[0];
    if (t < 0.0) r.issue(pointer_child(p, size_t{0}), "keyframe times must be >= 0, got " + format_number(t));
    else if (!k.times.empty() && !(t > k.times.back()))
      r.issue(pointer_child(p, size_t{0}), "keyframe times must be strictly increasing: t = " + format_number(t) +
                                               " follows t = " + format_number(k.times.back()));
    k.times.push_back(t);
    k.values.emplace_back((*xs)[1] * kDegree, 0.0, 0.0);
  }
  if (r.issue_count() != issues_before) return std::nullopt;
  if (k.times.empty()) {
    r.issue(ptr, "expected at least one keyframe");
    return std::nullopt;
  }
  return k;
}

/// "drive": {"position_deg": [[t, θ], ...] | "velocity_deg": [[t, ω], ...], "stiffness", "damping"}
void read_drive(JsonReader& r, const Json& v, const std::string& ptr, Joint& j) {
  ObjectView o(r, v, ptr, {"position_deg", "velocity_deg", "stiffness", "damping"},
               "a drive {\"position_deg\": [[t, angle], ...]} or {\"velocity_deg\": [[t, speed], ...]}");
  if (!o.valid()) return;
  if (o.has("position_deg") == o.has("velocity_deg")) {
    r.issue(ptr, "expected exactly one of 'position_deg' (a servo to target angles) or 'velocity_deg' (a motor "
                 "to target speeds)");
    return;
  }
  const bool position = o.has("position_deg");
  const char* key = position ? "position_deg" : "velocity_deg";
  if (auto k = read_angle_keyframes(r, *o.find(key), o.at(key))) j.target = *k;
  j.mode = position ? JointTargetMode::Position : JointTargetMode::Velocity;
  j.stiffness = o.number("stiffness", 0.0, Bounds::at_least(0.0));
  j.damping = o.number("damping", 0.0, Bounds::at_least(0.0));
  if (!position && o.has("stiffness"))
    r.issue(o.at("stiffness"), "a velocity drive has no stiffness (its 'damping' is the motor's gain)");
  if (position && (j.stiffness > 0.0) != (j.damping > 0.0) && j.stiffness == 0.0)
    r.issue(o.at("damping"), "a servo with damping needs a stiffness > 0 too (or neither, for a hard servo)");
}

/// a joint end "a" / "b": a body name; "world" (or absent, for "a") is the world
std::optional<JointEnd> read_end(SceneBuild& b, ObjectView& o, const char* key, bool world_allowed,
                                 const SceneBodyEntry** entry) {
  JsonReader& r = b.reader;
  *entry = nullptr;
  JointEnd end;
  if (!o.has(key)) {
    if (world_allowed) return end;  // the world
    o.require(key);
    return std::nullopt;
  }
  auto name = o.required_string(key);
  if (!name) return std::nullopt;
  if (*name == "world" && !b.find_body("world")) {
    if (world_allowed) return end;
    r.issue(o.at(key), "'b' is the body the joint moves; it cannot be the world");
    return std::nullopt;
  }
  const SceneBodyEntry* body = find_body_issue(b, *name, o.at(key));
  if (!body || !body->built) return std::nullopt;
  *entry = body;
  end.body = body->ref;
  return end;
}

void read_joint(SceneBuild& b, const Json& v, const std::string& ptr, std::vector<std::string>& names) {
  JsonReader& r = b.reader;
  const bool weld = v.is_object() && v.contains("type") && v["type"] == "weld";
  std::vector<std::string> keys = {"name", "type", "a", "b", "comment"};
  if (weld) keys.push_back("node_set");
  else keys.insert(keys.end(), {"anchor", "axis", "limits_deg", "drive"});
  ObjectView o(r, v, ptr, keys, "a joint object {\"name\", \"type\": \"revolute\" | \"weld\", \"a\", \"b\", ...}");
  if (!o.valid()) return;
  const size_t issues_before = r.issue_count();
  Joint j;
  if (auto name = o.required_string("name")) {
    j.name = *name;
    if (std::find(names.begin(), names.end(), *name) != names.end())
      r.issue(o.at("name"), "duplicate joint name '" + *name + "'");
    names.push_back(*name);
  }
  o.choice("type", {"revolute", "weld"});
  j.kind = weld ? JointKind::Weld : JointKind::Revolute;
  const SceneBodyEntry *ea = nullptr, *eb = nullptr;
  auto a = read_end(b, o, "a", !weld, &ea);
  auto bb = read_end(b, o, "b", false, &eb);
  if (!a || !bb || r.issue_count() != issues_before) return;
  j.a = *a;
  j.b = *bb;
  auto dynamic = [&](const SceneBodyEntry* e) { return e && e->type == "rigid"; };
  if (weld) {
    if (ea->type == "fem") {
      r.issue(o.at("a"), "a weld's 'a' is a rigid body (dynamic, fixed or kinematic); '" + ea->name + "' is an fem body");
      return;
    }
    if (eb->type != "fem") {
      r.issue(o.at("b"), "a weld's 'b' is the fem body whose node set is welded; '" + eb->name + "' is " +
                             body_type_phrase(eb->type) + " body (join rigid bodies with a revolute joint)");
      return;
    }
    auto set = o.required_string("node_set");
    const std::vector<int>* nodes = set ? find_node_set(b, *eb, *set, o.at("node_set")) : nullptr;
    if (!nodes) return;
    if (nodes->empty()) {
      r.issue(o.at("node_set"), "node set '" + *set + "' of body '" + eb->name + "' is empty");
      return;
    }
    j.b.nodes = *nodes;
    const JointEndPose pa = joint_end_initial_pose(b.model, j.a);
    for (int n : *nodes)
      j.weld_points.push_back(pa.orientation.conjugate() * (b.model.fem[j.b.body.index].rest.nodes[n] - pa.position));
    b.model.joints.push_back(std::move(j));
    return;
  }
  for (const auto& [e, key] : {std::pair{ea, "a"}, std::pair{eb, "b"}})
    if (e && e->type == "fem") {
      r.issue(o.at(key), std::string("a revolute joint joins rigid bodies; '") + e->name +
                             "' is an fem body (attach it to a rigid body with a weld)");
      return;
    }
  if (!j.a.world() && j.a.body.index == j.b.body.index) {
    r.issue(o.at("b"), "'a' and 'b' are the same body '" + eb->name + "'");
    return;
  }
  if (!dynamic(ea) && !dynamic(eb)) {
    r.issue(o.at("b"), "neither end moves freely ('" + eb->name + "' is " + body_type_phrase(eb->type) +
                           " body): a joint needs a dynamic rigid body");
    return;
  }
  const Json* anchor = o.require("anchor");
  std::optional<Vec3> axis;
  if (o.require("axis")) axis = o.direction("axis", Vec3::UnitZ(), "a hinge axis");
  auto p = anchor ? r.vec3(*anchor, o.at("anchor")) : std::nullopt;
  if (!p || !axis) return;
  const JointEndPose pa = joint_end_initial_pose(b.model, j.a), pb = joint_end_initial_pose(b.model, j.b);
  j.anchor_a = pa.orientation.conjugate() * (*p - pa.position);
  j.anchor_b = pb.orientation.conjugate() * (*p - pb.position);
  j.axis_a = pa.orientation.conjugate() * *axis;
  j.axis_b = pb.orientation.conjugate() * *axis;
  j.rest_relative = pa.orientation.conjugate() * pb.orientation;
  if (const Json* lim = o.find("limits_deg")) {
    if (auto xs = r.numbers(*lim, o.at("limits_deg"), 2)) {
      j.limited = true;
      j.lower = (*xs)[0] * kDegree;
      j.upper = (*xs)[1] * kDegree;
      if (!(j.lower <= 0.0 && 0.0 <= j.upper))
        r.issue(o.at("limits_deg"), "expected [lower, upper] with lower <= 0 <= upper (the angle is 0 as the scene "
                                    "places the bodies), got [" + format_number((*xs)[0]) + ", " +
                                    format_number((*xs)[1]) + "]");
    }
  }
  if (const Json* d = o.find("drive")) read_drive(r, *d, o.at("drive"), j);
  if (r.issue_count() != issues_before) return;
  b.model.joints.push_back(std::move(j));
}

}  // namespace

void read_joints(SceneBuild& b, const Json& joints, const std::string& ptr) {
  if (!expect_array(b.reader, joints, ptr, "an array of joints")) return;
  std::vector<std::string> names;
  for (size_t i = 0; i < joints.size(); ++i) read_joint(b, joints[i], pointer_child(ptr, i), names);
}

}  // namespace suction
