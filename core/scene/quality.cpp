// Quality levels: the interactive quality derived from a scene (scene/quality.h).
#include "scene/quality.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "mesh/generators.h"
#include "scene/scene_build.h"

namespace suction {

const char* quality_name(Quality q) { return q == Quality::Interactive ? "interactive" : "reference"; }

Quality parse_quality(const std::string& name) {
  if (name == "reference") return Quality::Reference;
  if (name == "interactive") return Quality::Interactive;
  throw InputError("unknown quality '" + name + "'; qualities: reference, interactive");
}

namespace {

const Json* child(const Json& v, const char* key) {
  return v.is_object() && v.contains(key) ? &v[key] : nullptr;
}
bool is_finite_number(const Json* v) { return v && v->is_number() && std::isfinite(v->get<double>()); }

/// the user set `pointer` or a location above or below it
bool user_set(const std::vector<std::string>& user_pointers, const std::string& pointer) {
  for (const std::string& u : user_pointers) {
    if (u == pointer) return true;
    if (u.size() < pointer.size() && pointer.compare(0, u.size(), u) == 0 && pointer[u.size()] == '/') return true;
    if (pointer.size() < u.size() && u.compare(0, pointer.size(), pointer) == 0 && u[pointer.size()] == '/') return true;
  }
  return false;
}

/// the default "resolution" of a generator of FEM meshes that takes one; 0 for the others (a
/// box has cells; the tunnel block's resolution is its holes' shape; the tentacle is remeshed)
int default_resolution(const std::string& generator) {
  if (generator == "cup") return CupParams{}.resolution;
  if (generator == "cylinder") return kCylinderResolution;
  if (generator == "sphere") return kSphereResolution;
  return 0;
}

}  // namespace

InteractiveRules interactive_rules(const Json& doc) {
  InteractiveRules rules;
  const Json* settings = child(doc, "settings");
  const Json* v = settings ? child(*settings, "interactive") : nullptr;
  if (!v || !v->is_object()) return rules;
  if (const Json* e = child(*v, "enabled"); e && e->is_boolean()) rules.enabled = e->get<bool>();
  if (const Json* f = child(*v, "time_step_factor"); is_finite_number(f) && f->get<double>() >= 1.0)
    rules.time_step_factor = f->get<double>();
  if (const Json* m = child(*v, "max_dt"); is_finite_number(m) && m->get<double>() > 0.0)
    rules.max_dt = m->get<double>();
  if (const Json* r = child(*v, "factorization_reuse"); r && r->is_boolean())
    rules.factorization_reuse = r->get<bool>();
  if (const Json* r = child(*v, "max_resolution"); r && r->is_number_integer() && r->get<long long>() >= 6 &&
                                                     r->get<long long>() <= 1000000)
    rules.max_resolution = static_cast<int>(r->get<long long>());
  return rules;
}

std::vector<std::string> apply_interactive(Json& doc, const std::vector<std::string>& user_pointers) {
  std::vector<std::string> changes;
  if (!doc.is_object()) return changes;
  const InteractiveRules rules = interactive_rules(doc);
  if (!rules.enabled) return changes;
  if (doc.contains("settings") && !doc["settings"].is_object()) return changes;  // the reader reports it
  Json& settings = doc["settings"];  // created when absent (an empty object changes nothing)
  if (settings.is_null()) settings = Json::object();

  // the time step: dt × factor, at most max_dt (never shorter than written)
  if (!user_set(user_pointers, "/settings/dt")) {
    const Json* dt = child(settings, "dt");
    const double written = dt ? (is_finite_number(dt) ? dt->get<double>() : -1.0) : Settings{}.dt;
    if (written > 0.0) {
      const double longer = std::min(written * rules.time_step_factor, rules.max_dt);
      if (longer > written) {
        settings["dt"] = longer;
        changes.push_back("/settings/dt=" + Json(longer).dump());
      }
    }
  }
  // the kept factorization (fem/factorization.h)
  if (rules.factorization_reuse && !user_set(user_pointers, "/settings/factorization/reuse")) {
    Json& f = settings["factorization"];
    if (f.is_null()) f = Json::object();
    if (f.is_object() && !(f.contains("reuse") && f["reuse"] == true)) {
      f["reuse"] = true;
      changes.push_back("/settings/factorization/reuse=true");
    }
  }
  if (settings.empty()) doc.erase("settings");
  // coarser generated FEM meshes, only where the scene allows it
  if (rules.max_resolution > 0 && doc.contains("bodies") && doc["bodies"].is_array()) {
    Json& bodies = doc["bodies"];
    for (size_t i = 0; i < bodies.size(); ++i) {
      Json& body = bodies[i];
      const Json* type = child(body, "type");
      Json* mesh = body.is_object() && body.contains("mesh") ? &body["mesh"] : nullptr;
      if (!type || *type != "fem" || !mesh || !mesh->is_object()) continue;
      const Json* gen = child(*mesh, "generator");
      if (!gen || !gen->is_string()) continue;
      const int fallback = default_resolution(gen->get<std::string>());
      if (fallback == 0) continue;
      const std::string pointer = "/bodies/" + std::to_string(i) + "/mesh/resolution";
      if (user_set(user_pointers, pointer)) continue;
      const Json* res = child(*mesh, "resolution");
      if (res && !res->is_number_integer()) continue;  // an expression (or bad): as written
      const long long current = res ? res->get<long long>() : fallback;
      if (current > rules.max_resolution) {
        (*mesh)["resolution"] = rules.max_resolution;
        changes.push_back(pointer + "=" + std::to_string(rules.max_resolution));
      }
    }
  }
  return changes;
}

}  // namespace suction
