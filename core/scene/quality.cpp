// Quality levels: the interactive quality derived from a scene (scene/quality.h).
#include "scene/quality.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"
#include "mesh/generators.h"
#include "scene/expression.h"
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
  if (generator == "curved_slab") return kCurvedSlabResolution;
  return 0;
}

/// f(mesh, generator, pointer of the mesh) for every body whose mesh is made by a generator:
/// the FEM bodies (fem true) or the others, whose generated mesh is a surface (fem false)
template <class F>
void for_each_generated_mesh(Json& doc, bool fem, F&& f) {
  if (!doc.contains("bodies") || !doc["bodies"].is_array()) return;
  Json& bodies = doc["bodies"];
  for (size_t i = 0; i < bodies.size(); ++i) {
    Json& body = bodies[i];
    const Json* type = child(body, "type");
    Json* mesh = body.is_object() && body.contains("mesh") ? &body["mesh"] : nullptr;
    if (!type || !type->is_string() || (*type == "fem") != fem || !mesh || !mesh->is_object()) continue;
    const Json* gen = child(*mesh, "generator");
    if (!gen || !gen->is_string()) continue;
    f(*mesh, gen->get<std::string>(), "/bodies/" + std::to_string(i) + "/mesh");
  }
}

}  // namespace

InteractiveRules read_interactive(JsonReader& r, const Json& doc) {
  InteractiveRules rules;
  const Json* settings = child(doc, "settings");
  const Json* v = settings ? child(*settings, "interactive") : nullptr;
  if (!v) return rules;
  ObjectView o(r, *v, "/settings/interactive",
               {"enabled", "time_step_factor", "max_dt", "factorization_reuse", "follow_rotation",
                "refinements", "lag_drift", "max_resolution", "max_cells", "max_surface_resolution", "solver_subspace",
                "carry_cavities", "compare"},
               "an interactive-quality object {\"enabled\": bool, \"time_step_factor\": x, \"max_dt\": s, "
               "\"factorization_reuse\": bool, \"follow_rotation\": bool, \"refinements\": n, \"lag_drift\": x, "
               "\"max_resolution\": n, \"max_cells\": n, \"max_surface_resolution\": n, \"solver_subspace\": n, \"carry_cavities\": bool, "
               "\"compare\": [...]}");
  if (!o.valid()) return rules;
  // read before the parameters are evaluated (it changes what they see): plain numbers only,
  // but for the resolution caps, which may be expressions written into the meshes
  auto plain = [&](const char* key) {
    const Json* x = o.find(key);
    if (x && x->is_string()) {
      r.issue(o.at(key), "expected a number (not an expression: the interactive quality is derived before "
                         "the parameters are evaluated), got " + describe_json(*x));
      return false;
    }
    return x != nullptr;
  };
  rules.enabled = o.boolean("enabled", rules.enabled);
  if (plain("time_step_factor")) rules.time_step_factor = o.number("time_step_factor", rules.time_step_factor, Bounds::at_least(1.0));
  if (plain("max_dt")) rules.max_dt = o.number("max_dt", rules.max_dt, Bounds::positive());
  rules.factorization_reuse = o.boolean("factorization_reuse", rules.factorization_reuse);
  rules.follow_rotation = o.boolean("follow_rotation", rules.follow_rotation);
  rules.carry_cavities = o.boolean("carry_cavities", rules.carry_cavities);
  if (plain("refinements")) rules.refinements = o.integer("refinements", rules.refinements, Bounds::at_least(0));
  if (plain("lag_drift")) rules.lag_drift = o.number("lag_drift", rules.lag_drift, Bounds::non_negative());
  // a resolution cap may be an expression of the parameters ("=12 + 8 * (R_mm > 0)"): it is
  // written into the meshes as one and evaluated with them; its syntax and names are checked here
  auto cap = [&](const char* key, ResolutionCap& out) {
    const Json* x = o.find(key);
    if (!x) return;
    if (x->is_string() && x->get<std::string>().starts_with("=")) {
      const std::string text = x->get<std::string>().substr(1);
      std::map<std::string, double> names;  // every declared parameter at its plain default, else 1
      if (const Json* ps = child(doc, "parameters"); ps && ps->is_object())
        for (const auto& [name, p] : ps->items()) {
          const Json* d = p.is_object() ? child(p, "default") : nullptr;
          names[name] = d && is_finite_number(d) ? d->get<double>() : 1.0;
        }
      try {
        evaluate_expression(text, names);
      } catch (const ExpressionError& e) {
        if (std::string(e.what()).find("not finite") == std::string::npos) {
          r.issue(o.at(key), e.what());
          return;
        }
      }
      out.expression = text;
      return;
    }
    out.value = o.integer(key, 0, Bounds::at_least(6));
  };
  cap("max_resolution", rules.max_resolution);
  if (plain("max_cells")) rules.max_cells = o.integer("max_cells", 0, Bounds::at_least(1));
  cap("max_surface_resolution", rules.max_surface_resolution);
  if (plain("solver_subspace"))
    rules.solver_subspace = o.integer("solver_subspace", rules.solver_subspace, Bounds::at_least(0));
  if (const Json* c = o.find("compare")) {
    const std::string cp = o.at("compare");
    if (!c->is_array() || c->empty()) {
      r.issue(cp, "expected a non-empty array of story-number names (e.g. [\"pressure_min_min\", \"release_t\"]), got " +
                      describe_json(*c));
    } else {
      for (size_t i = 0; i < c->size(); ++i)
        if (auto name = r.string((*c)[i], pointer_child(cp, std::to_string(i)))) rules.compare.push_back(*name);
    }
  }
  return rules;
}

std::vector<std::string> apply_interactive(Json& doc, const InteractiveRules& rules,
                                           const std::vector<std::string>& user_pointers) {
  std::vector<std::string> changes;
  if (!doc.is_object() || !rules.enabled) return changes;
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
    // turned with the body (cpu backend only: another backend the user or scene chose keeps it still)
    const Json* backend = child(settings, "compliance_backend");
    const bool cpu = !backend || (backend->is_string() && *backend == "cpu");
    if (rules.follow_rotation && cpu && f.is_object() && !user_set(user_pointers, "/settings/factorization/follow_rotation") &&
        !f.contains("follow_rotation")) {
      f["follow_rotation"] = true;
      changes.push_back("/settings/factorization/follow_rotation=true");
    }
    // the kept matrix as the step's own while its free motion is close to the step's own matrix's
    // (not with a factor turned with its body); it leaves nothing to refine
    const bool turned = f.is_object() && f.contains("follow_rotation") && f["follow_rotation"] == true;
    bool lagged = f.is_object() && f.contains("lag_drift") && is_finite_number(&f["lag_drift"]) &&
                  f["lag_drift"].get<double>() > 0.0;
    if (rules.lag_drift > 0.0 && !turned && f.is_object() && !user_set(user_pointers, "/settings/factorization/lag_drift") &&
        !f.contains("lag_drift")) {
      f["lag_drift"] = rules.lag_drift;
      changes.push_back("/settings/factorization/lag_drift=" + Json(rules.lag_drift).dump());
      lagged = true;
    }
    // the solve refined against the step's A (the exact correction's rows)
    if (rules.refinements > 0 && !lagged && f.is_object() && !user_set(user_pointers, "/settings/factorization/refinements") &&
        !f.contains("refinements")) {
      f["refinements"] = rules.refinements;
      changes.push_back("/settings/factorization/refinements=" + std::to_string(rules.refinements));
    }
  }
  // the pgs method's subspace step (solver/pgs.cpp): a solve that converges within its cap
  if (rules.solver_subspace > 0 && !user_set(user_pointers, "/settings/solver/subspace_every") &&
      !user_set(user_pointers, "/settings/solver/method")) {
    const Json* solver = child(settings, "solver");
    const Json* method = solver ? child(*solver, "method") : nullptr;
    const bool pgs = !method || (method->is_string() && *method == "pgs");
    if (pgs && (!solver || (solver->is_object() && !solver->contains("subspace_every")))) {
      Json& so = settings["solver"];
      if (so.is_null()) so = Json::object();
      so["subspace_every"] = rules.solver_subspace;
      changes.push_back("/settings/solver/subspace_every=" + std::to_string(rules.solver_subspace));
    }
  }
  // cavities carried while their seals change only within their ring, their seams following
  // the bodies (stages/cavities.cpp)
  if (rules.carry_cavities)
    for (const auto& [key, value] : {std::pair<const char*, bool>{"unite_on_ring_change", false}, {"follow_seal", true}}) {
      const std::string pointer = std::string("/settings/cavity/") + key;
      if (user_set(user_pointers, pointer)) continue;
      const Json* cavity = child(settings, "cavity");
      if (cavity && !(cavity->is_object() && !cavity->contains(key))) continue;
      Json& co = settings["cavity"];
      if (co.is_null()) co = Json::object();
      co[key] = value;
      changes.push_back(pointer + (value ? "=true" : "=false"));
    }
  if (settings.empty()) doc.erase("settings");
  // coarser generated meshes, only where the scene allows it: the FEM bodies' (max_resolution)
  // and the rigid, kinematic and fixed bodies' surfaces (max_surface_resolution)
  // (a cap written as an expression becomes the mesh's "=min(resolution, cap)", evaluated with
  // the parameters like any expression of the scene)
  auto cap_resolution = [&](const ResolutionCap& cap) {
    return [&](Json& mesh, const std::string& generator, const std::string& at) {
      const int fallback = default_resolution(generator);
      const std::string pointer = at + "/resolution";
      if (fallback == 0 || user_set(user_pointers, pointer)) return;
      const Json* res = child(mesh, "resolution");
      if (res && !res->is_number_integer()) return;  // an expression (or bad): as written
      const long long current = res ? res->get<long long>() : fallback;
      if (!cap.expression.empty()) {
        const std::string capped = "=min(" + std::to_string(current) + ", " + cap.expression + ")";
        mesh["resolution"] = capped;
        changes.push_back(pointer + "=" + capped);
      } else if (current > cap.value) {
        mesh["resolution"] = cap.value;
        changes.push_back(pointer + "=" + std::to_string(cap.value));
      }
    };
  };
  if (rules.max_resolution.set()) for_each_generated_mesh(doc, true, cap_resolution(rules.max_resolution));
  if (rules.max_surface_resolution.set())
    for_each_generated_mesh(doc, false, cap_resolution(rules.max_surface_resolution));
  // coarser generated FEM boxes: every axis's cells × max_cells / the largest axis's, rounded,
  // at least 1 (the cells' proportions kept), only where the scene allows it
  if (rules.max_cells > 0)
    for_each_generated_mesh(doc, true, [&](Json& mesh, const std::string& generator, const std::string& at) {
      const std::string pointer = at + "/cells";
      if (generator != "box" || user_set(user_pointers, pointer)) return;
      const Json* cells = child(mesh, "cells");
      if (!cells || !cells->is_array() || cells->size() != 3 ||
          !std::all_of(cells->begin(), cells->end(), [](const Json& c) { return c.is_number_integer() && c.get<long long>() >= 1; }))
        return;  // absent, an expression or bad: as written (the reader reports what is bad)
      long long largest = 0;
      for (const Json& c : *cells) largest = std::max(largest, c.get<long long>());
      if (largest <= rules.max_cells) return;
      Json coarser = Json::array();
      for (const Json& c : *cells)
        coarser.push_back(std::max(1LL, std::llround(static_cast<double>(c.get<long long>()) * rules.max_cells / largest)));
      mesh["cells"] = coarser;
      changes.push_back(pointer + "=" + coarser.dump());
    });
  return changes;
}

}  // namespace suction
