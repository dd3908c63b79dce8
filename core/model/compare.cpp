#include "model/compare.h"

namespace suction {

namespace {

bool same_ref(const BodyRef& a, const BodyRef& b) { return a.type == b.type && a.index == b.index; }

std::string count_text(const char* what, size_t a, size_t b) {
  return std::string("the number of ") + what + " (" + std::to_string(a) + ", now " + std::to_string(b) + ")";
}

}  // namespace

std::string running_difference(const Model& running, const Model& next) {
  const Model& a = running;
  const Model& b = next;
  if (a.fem.size() != b.fem.size()) return count_text("FEM bodies", a.fem.size(), b.fem.size());
  if (a.rigid.size() != b.rigid.size()) return count_text("rigid bodies", a.rigid.size(), b.rigid.size());
  for (size_t i = 0; i < a.fem.size(); ++i) {
    const FemBody& x = a.fem[i];
    const FemBody& y = b.fem[i];
    const std::string body = "body '" + x.name + "': ";
    if (x.name != y.name) return "FEM body " + std::to_string(i) + ": its name";
    if (x.rest.nodes != y.rest.nodes || x.rest.tets != y.rest.tets) return body + "its mesh";
    if (x.node_constraint != y.node_constraint) return body + "its fixed or driven nodes";
    if (x.self_contact != y.self_contact) return body + "its self-contact";
  }
  for (size_t i = 0; i < a.rigid.size(); ++i) {
    const RigidBody& x = a.rigid[i];
    const RigidBody& y = b.rigid[i];
    const std::string body = "body '" + x.name + "': ";
    if (x.name != y.name) return "rigid body " + std::to_string(i) + ": its name";
    if (x.kind != y.kind) return body + "its kind";
    if (x.surface.vertices != y.surface.vertices || x.surface.triangles != y.surface.triangles)
      return body + "its mesh";
    if (x.driver != y.driver) return body + "its driver";
  }
  if (a.drivers.size() != b.drivers.size()) return count_text("drivers", a.drivers.size(), b.drivers.size());
  for (size_t i = 0; i < a.drivers.size(); ++i) {
    const Driver& x = a.drivers[i];
    const Driver& y = b.drivers[i];
    if (x.kind != y.kind || !same_ref(x.body, y.body) || x.nodes != y.nodes)
      return "driver '" + x.name + "': its kind or what it moves";
  }
  if (a.springs.size() != b.springs.size()) return count_text("springs", a.springs.size(), b.springs.size());
  for (size_t i = 0; i < a.springs.size(); ++i) {
    const Spring& x = a.springs[i];
    const Spring& y = b.springs[i];
    if (!same_ref(x.a.body, y.a.body) || !same_ref(x.b.body, y.b.body) || x.a.nodes != y.a.nodes ||
        x.b.nodes != y.b.nodes || x.rows() != y.rows())
      return "spring '" + x.name + "': its ends or its rows";
  }
  if (a.joints.size() != b.joints.size()) return count_text("joints", a.joints.size(), b.joints.size());
  for (size_t i = 0; i < a.joints.size(); ++i) {
    const Joint& x = a.joints[i];
    const Joint& y = b.joints[i];
    if (x.kind != y.kind || !same_ref(x.a.body, y.a.body) || !same_ref(x.b.body, y.b.body) ||
        x.a.nodes != y.a.nodes || x.b.nodes != y.b.nodes)
      return "joint '" + x.name + "': its kind or its bodies";
  }
  if (a.probes.size() != b.probes.size()) return count_text("probes", a.probes.size(), b.probes.size());
  for (size_t i = 0; i < a.probes.size(); ++i)
    if (a.probes[i].name != b.probes[i].name) return "probe " + std::to_string(i) + ": its name";
  return "";
}

}  // namespace suction
