// Scene loading: JSON text -> overrides -> parameters -> settings, materials, bodies, drivers,
// probes -> Model.  Every problem becomes a SceneIssue; a scene with issues throws SceneError.
#include "scene/scene.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "backends/compliance_backend.h"
#include "scene/expression.h"
#include "scene/quality.h"
#include "scene/scene_build.h"

namespace suction {

SceneOverride parse_override(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos)
    throw InputError("override '" + text + "': expected POINTER=VALUE, e.g. /parameters/push_mm=8");
  if (auto bad = first_invalid_utf8(text)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*bad]));
    // the text is not echoed: it is not printable as it stands
    throw InputError("override " + text.substr(0, std::min(eq, *bad)) + (eq < *bad ? "=..." : "...") +
                     ": not valid UTF-8 (byte " + byte + " at offset " + std::to_string(*bad) + ")");
  }
  SceneOverride o{text.substr(0, eq), text.substr(eq + 1)};
  if (o.pointer.empty() || o.pointer[0] != '/')
    throw InputError("override '" + text + "': the pointer must be a JSON pointer starting with '/'");
  return o;
}

namespace {

const std::vector<std::string> kTopKeys = {"name",   "description", "parameters", "settings", "materials",
                                           "bodies", "drivers",     "springs",    "joints", "probes"};

/// the override's value: JSON when it parses, a plain string otherwise; JSON that only fails the
/// strict checks (depth, duplicate keys, number range) is an issue at the override's pointer
std::optional<Json> override_value(const SceneOverride& o, JsonReader& r) {
  SceneIssue error;
  if (auto v = parse_json_strict(o.value, &error)) return v;
  if (error.message.rfind("invalid JSON", 0) != 0) {  // valid syntax, failed a strict check
    r.issue(o.pointer, "override: " + error.message);
    return std::nullopt;
  }
  return Json(o.value);
}

std::vector<std::string> declared_parameters(const Json& doc) {
  std::vector<std::string> names;
  if (doc.contains("parameters") && doc["parameters"].is_object())
    for (const auto& item : doc["parameters"].items())
      if (item.key() != "comment" && item.key() != "$schema") names.push_back(item.key());
  return names;
}

/// applies "--set POINTER=VALUE" to the parsed document, before validation
void apply_overrides(Json& doc, const std::vector<SceneOverride>& overrides, JsonReader& r) {
  for (const auto& o : overrides) {
    std::optional<Json> parsed = override_value(o, r);
    if (!parsed) continue;
    Json& value = *parsed;
    Json::json_pointer ptr;
    try {
      ptr = Json::json_pointer(o.pointer);
    } catch (const std::exception&) {
      r.issue(o.pointer, "override: not a valid JSON pointer");
      continue;
    }
    // "/parameters/NAME" sets the parameter's value
    if (ptr.parent_pointer().to_string() == "/parameters" && !ptr.empty()) {
      std::string name = ptr.back();
      auto names = declared_parameters(doc);
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        r.issue(o.pointer, "override: unknown parameter '" + name + "'; " +
                               (names.empty() ? "the scene declares no parameters"
                                              : "parameters: " + join_names(names)));
      } else if (!doc["parameters"][name].is_object()) {
        r.issue(o.pointer, "override: parameter '" + name + "' is not an object with a \"default\"");
      } else {
        doc["parameters"][name]["default"] = value;
      }
      continue;
    }
    // any other pointer: an existing location, or a new key / element of an existing container
    try {
      if (doc.contains(ptr)) {
        doc[ptr] = value;
        continue;
      }
      Json::json_pointer parent = ptr.parent_pointer();
      if (!ptr.empty() && doc.contains(parent) && doc[parent].is_object()) {
        doc[parent][ptr.back()] = value;
        continue;
      }
      if (!ptr.empty() && doc.contains(parent) && doc[parent].is_array() &&
          (ptr.back() == "-" || ptr.back() == std::to_string(doc[parent].size()))) {
        doc[parent].push_back(value);
        continue;
      }
      // a setting in a settings object the scene leaves out (/settings/solver/max_iterations in
      // a scene without "solver"): the missing objects on the way are made.  Only under
      // /settings, whose readers name every unknown key, so a misspelt one is still an error
      if (o.pointer.rfind("/settings/", 0) == 0) {
        Json::json_pointer have = parent;
        while (!have.empty() && !doc.contains(have)) have = have.parent_pointer();
        if (have.empty() || doc[have].is_object()) {
          doc[ptr] = value;  // nlohmann::json makes the missing objects of a pointer it writes
          continue;
        }
      }
    } catch (const std::exception&) {
    }
    r.issue(o.pointer, "override: no such location in the scene (neither it nor its parent object exists)");
  }
}

/// "parameters": NAME -> {"default", "unit", "doc", "min", "max"}, evaluated in file order
void read_parameters(JsonReader& r, const Json& v, const std::string& ptr, std::vector<Parameter>& out) {
  for (const auto& [name, entry] : map_entries(r, v, ptr, "an object NAME -> {\"default\": value, ...}")) {
    std::string p = pointer_child(ptr, name);
    if (!is_identifier(name) || is_reserved_name(name)) {
      r.issue(p, "parameter names must be identifiers ([A-Za-z_][A-Za-z0-9_]*) other than pi and "
                 "function names");
      continue;
    }
    ObjectView o(r, *entry, p, {"default", "unit", "doc", "min", "max"},
                 "a parameter object {\"default\": value, \"unit\": ..., \"doc\": ...}");
    if (!o.valid()) continue;
    auto unit = o.optional_string("unit");
    auto doc = o.optional_string("doc");
    auto lo = o.optional_number("min");
    auto hi = o.optional_number("max");
    auto value = o.required_number("default");
    if (!value) continue;
    if (lo && *value < *lo)
      r.issue(o.at("default"), "parameter '" + name + "' = " + format_number(*value) + " is below its min " +
                                   format_number(*lo));
    if (hi && *value > *hi)
      r.issue(o.at("default"), "parameter '" + name + "' = " + format_number(*value) + " is above its max " +
                                   format_number(*hi));
    r.parameters()[name] = *value;
    out.push_back({name, *value, lo, hi, unit.value_or(""), doc.value_or("")});
  }
}

/// "settings/cavity/gas": the air's law (docs/method.md §6.8)
void read_gas(JsonReader& r, const Json& v, const std::string& ptr, GasSettings& g) {
  ObjectView o(r, v, ptr, {"law", "gamma", "exponent", "tau", "t_ambient"},
               "a gas object {\"law\": \"isothermal\" | \"adiabatic\" | \"polytropic\" | \"exchange\", ...}");
  if (!o.valid()) return;
  const auto law = o.choice("law", {"isothermal", "adiabatic", "polytropic", "exchange"}, std::string("isothermal"));
  if (law == "adiabatic") g.law = GasSettings::Law::Adiabatic;
  else if (law == "polytropic") g.law = GasSettings::Law::Polytropic;
  else if (law == "exchange") g.law = GasSettings::Law::Exchange;
  else g.law = GasSettings::Law::Isothermal;
  g.gamma = o.number("gamma", g.gamma, Bounds{1.0, std::numeric_limits<double>::infinity(), true, false});
  g.exponent = o.number("exponent", g.exponent, Bounds::at_least(1.0));
  g.tau = o.number("tau", g.tau, Bounds::positive());
  g.t_ambient = o.number("t_ambient", g.t_ambient, Bounds::positive());
}

/// "settings"
void read_settings(JsonReader& r, const Json& v, Settings& s) {
  ObjectView o(r, v, "/settings",
               {"dt", "duration", "gravity", "p_atm", "solver", "factorization", "divergence_energy_factor",
                "contact", "compliance_backend", "cavity", "limits",
                "interactive"});  // "interactive": scene/quality.h, read by build_scene
  s.dt = o.number("dt", s.dt, Bounds::positive());
  s.duration = o.number("duration", s.duration, Bounds::positive());
  s.gravity = o.vec3("gravity", s.gravity);
  s.p_atm = o.number("p_atm", s.p_atm, Bounds::positive());
  s.divergence_energy_factor = o.number("divergence_energy_factor", s.divergence_energy_factor, Bounds::positive());
  if (const Json* limits = o.find("limits")) {
    ObjectView lo(r, *limits, o.at("limits"), {"max_nodes", "max_elements", "max_triangles"},
                  "a limits object {\"max_nodes\": n, \"max_elements\": n, \"max_triangles\": n}");
    s.limits.max_nodes = lo.number("max_nodes", s.limits.max_nodes, Bounds::at_least(4));
    s.limits.max_elements = lo.number("max_elements", s.limits.max_elements, Bounds::at_least(1));
    s.limits.max_triangles = lo.number("max_triangles", s.limits.max_triangles, Bounds::at_least(4));
  }
  if (const Json* solver = o.find("solver")) {
    ObjectView so(r, *solver, o.at("solver"),
                  {"method", "max_iterations", "tolerance", "subspace_every", "subspace_sliding", "subspace_newton"});
    s.solver.method = so.string("method", s.solver.method);
    try {  // the factory decides, as for the backend below
      check_constraint_solver(s.solver.method);
    } catch (const InputError& e) {
      r.issue(so.at("method"), e.what());
    }
    s.solver.max_iterations = so.integer("max_iterations", s.solver.max_iterations, Bounds::at_least(1));
    s.solver.tolerance = so.number("tolerance", s.solver.tolerance, Bounds::positive());
    s.solver.subspace_every = so.integer("subspace_every", s.solver.subspace_every, Bounds::at_least(0));
    if (s.solver.subspace_every > 0 && s.solver.method != "pgs")
      r.issue(so.at("subspace_every"), "the subspace step belongs to the pgs method; method '" + s.solver.method +
                                           "' has none (set it to 0 or leave it out)");
    s.solver.subspace_sliding = so.boolean("subspace_sliding", s.solver.subspace_sliding);
    s.solver.subspace_newton = so.boolean("subspace_newton", s.solver.subspace_newton);
    for (const char* key : {"subspace_sliding", "subspace_newton"})
      if (solver->is_object() && solver->contains(key) && s.solver.method != "pgs")
        r.issue(so.at(key), "the subspace step belongs to the pgs method; method '" + s.solver.method +
                                "' has none (leave it out)");
  }
  if (const Json* fac = o.find("factorization")) {
    ObjectView fo(r, *fac, o.at("factorization"),
                  {"reuse", "max_cg_iterations", "max_age", "follow_rotation", "refinements", "lag_drift"},
                  "a factorization object {\"reuse\": bool, \"max_cg_iterations\": n, \"max_age\": n, "
                  "\"follow_rotation\": bool, \"refinements\": n, \"lag_drift\": x}");
    if (fo.valid()) {
      FactorizationReuse& f = s.factorization;
      f.reuse = fo.boolean("reuse", f.reuse);
      f.max_cg_iterations = fo.integer("max_cg_iterations", f.max_cg_iterations, Bounds::at_least(1));
      f.max_age = fo.integer("max_age", f.max_age, Bounds::at_least(1));
      f.follow_rotation = fo.boolean("follow_rotation", f.follow_rotation);
      f.refinements = fo.integer("refinements", f.refinements, Bounds::at_least(0));
      f.lag_drift = fo.number("lag_drift", f.lag_drift, Bounds::non_negative());
      if (f.lag_drift > 0.0 && f.follow_rotation)
        r.issue(fo.at("lag_drift"), "a lagged matrix is the kept factor as it was made, a factor turned with its "
                                    "body is not: set lag_drift to 0 or follow_rotation to false");
    }
  }
  // the factory decides: a backend this build lacks is an error naming the build option
  s.compliance_backend = o.string("compliance_backend", s.compliance_backend);
  try {
    make_compliance_backend(s.compliance_backend);
  } catch (const InputError& e) {
    r.issue(o.at("compliance_backend"), e.what());
  }
  if (const Json* cav = o.find("cavity")) {
    ObjectView co(r, *cav, o.at("cavity"),
                  {"enabled", "p_max", "sealing_distance", "leak_rate", "remesh_seam_ratio",
                   "flattened_volume_ratio", "unite_on_ring_change", "follow_seal", "gas"},
                  "a cavity settings object");
    if (co.valid()) {
      CavitySettings& c = s.cavity;
      c.enabled = co.boolean("enabled", c.enabled);
      c.p_max = co.number("p_max", s.p_atm, Bounds::positive());
      if (c.p_max < s.p_atm)
        r.issue(co.at("p_max"), "p_max = " + format_number(c.p_max) + " Pa is below p_atm = " +
                                    format_number(s.p_atm) + " Pa (air would have to flow in)");
      c.sealing_distance = co.number("sealing_distance", c.sealing_distance, Bounds::positive());
      c.leak_rate = co.number("leak_rate", c.leak_rate, Bounds::non_negative());
      c.remesh_seam_ratio = co.number("remesh_seam_ratio", c.remesh_seam_ratio, Bounds::positive());
      c.flattened_volume_ratio =
          co.number("flattened_volume_ratio", c.flattened_volume_ratio, Bounds::non_negative());
      c.unite_on_ring_change = co.boolean("unite_on_ring_change", c.unite_on_ring_change);
      c.follow_seal = co.boolean("follow_seal", c.follow_seal);
      if (const Json* gas = co.find("gas")) read_gas(r, *gas, co.at("gas"), c.gas);
    } else {
      s.cavity.p_max = s.p_atm;
    }
  } else {
    s.cavity.p_max = s.p_atm;
  }
}

/// "settings/contact": distances and friction pairs (after the materials, which pairs name)
void read_contact_settings(SceneBuild& b, const Json& settings) {
  JsonReader& r = b.reader;
  const Json* v = settings.is_object() && settings.contains("contact") ? &settings["contact"] : nullptr;
  if (!v) return;
  ContactSettings& c = b.model.settings.contact;
  ObjectView o(r, *v, "/settings/contact",
               {"alarm_distance", "contact_distance", "friction_pairs", "penetration_warning",
                "self_contact_exclusion", "reduction", "keep_side"},
               "a contact settings object");
  if (!o.valid()) return;
  c.penetration_warning = o.number("penetration_warning", c.penetration_warning, Bounds::non_negative());
  c.collision.alarm_distance = o.number("alarm_distance", c.collision.alarm_distance, Bounds::positive());
  c.collision.contact_distance = o.number("contact_distance", c.collision.contact_distance, Bounds::non_negative());
  c.self_contact_exclusion = o.number("self_contact_exclusion", c.self_contact_exclusion, Bounds::non_negative());
  c.reduction = o.boolean("reduction", c.reduction);
  c.collision.keep_side = o.boolean("keep_side", c.collision.keep_side);
  // a shorter exclusion lets a vertex see the far side of a wall thinner than the reach as a
  // penetration (collision/detector.cpp); 0 asks for the default
  if (c.self_contact_exclusion > 0.0 && c.self_contact_exclusion <= detection_reach(c.collision)) {
    r.issue(o.at("self_contact_exclusion"),
            "expected 0 (the default: 1.5 x the reach) or more than the detector's reach, max(alarm_distance + "
            "contact_distance, 3 x alarm_distance) = " + format_number(detection_reach(c.collision)) + " m, got " +
            format_number(c.self_contact_exclusion));
    c.self_contact_exclusion = 0.0;
  }
  const Json* pairs = o.find("friction_pairs");
  if (!pairs || !expect_array(r, *pairs, o.at("friction_pairs"), "an array of {\"materials\": [a, b], \"friction\": mu}"))
    return;
  for (size_t i = 0; i < pairs->size(); ++i) {
    const std::string ptr = pointer_child(o.at("friction_pairs"), std::to_string(i));
    ObjectView po(r, (*pairs)[i], ptr, {"materials", "friction"}, "a friction pair object");
    if (!po.valid()) continue;
    FrictionPair fp;
    fp.friction = po.required_number("friction", Bounds::non_negative()).value_or(fp.friction);
    const Json* mats = po.require("materials");
    if (!mats) continue;
    if (!mats->is_array() || mats->size() != 2) {
      r.issue(po.at("materials"), "expected an array of 2 material names, got " + describe_json(*mats));
      continue;
    }
    int idx[2] = {-1, -1};
    for (int k = 0; k < 2; ++k) {
      const std::string mp = pointer_child(po.at("materials"), std::to_string(k));
      const auto name = r.string((*mats)[k], mp);
      if (!name) continue;
      const auto it = b.material_index.find(*name);
      if (it == b.material_index.end()) r.issue(mp, "unknown material '" + *name + "'");
      else idx[k] = it->second;
    }
    fp.material_a = idx[0];
    fp.material_b = idx[1];
    if (idx[0] >= 0 && idx[1] >= 0) c.friction_pairs.push_back(fp);
  }
}

/// "materials": NAME -> {"young", "poisson", "density", "damping_mass", "damping_stiffness", "friction",
/// "film": {"thickness", "friction"}}
void read_materials(SceneBuild& b, const Json& v, const std::string& ptr) {
  JsonReader& r = b.reader;
  for (const auto& [name, entry] : map_entries(r, v, ptr, "an object NAME -> material")) {
    // registered even when a field is bad, so references to it do not cascade
    Material m;
    m.name = name;
    ObjectView o(r, *entry, pointer_child(ptr, name),
                 {"young", "poisson", "density", "damping_mass", "damping_stiffness", "friction", "film"},
                 "a material object");
    if (o.valid()) {
      m.young = o.required_number("young", Bounds::positive()).value_or(m.young);
      m.poisson = o.number("poisson", m.poisson, Bounds::open(-1.0, 0.5));
      m.density = o.number("density", m.density, Bounds::positive());
      m.damping_mass = o.number("damping_mass", m.damping_mass, Bounds::non_negative());
      m.damping_stiffness = o.number("damping_stiffness", m.damping_stiffness, Bounds::non_negative());
      m.friction = o.number("friction", m.friction, Bounds::non_negative());
      if (const Json* film = o.find("film")) {
        ObjectView fo(r, *film, o.at("film"), {"thickness", "friction"},
                      "a film object {\"thickness\": m, \"friction\": mu}");
        if (fo.valid()) {
          m.film_thickness = fo.number("thickness", m.film_thickness, Bounds::non_negative());
          m.film_friction = fo.number("friction", m.friction, Bounds::non_negative());
        }
      }
    }
    b.material_index[name] = static_cast<int>(b.model.materials.size());
    b.model.materials.push_back(m);
  }
}

/// the whole pipeline on a parsed document; throws SceneError with every issue
Model build_scene(Json doc, const std::string& base_dir, const std::vector<SceneOverride>& overrides,
                  const std::string& default_name, Quality quality) {
  SceneBuild b;
  b.base_dir = base_dir;
  JsonReader& r = b.reader;
  if (!doc.is_object()) throw SceneError({{"", "expected a JSON object at the top level, got " + describe_json(doc)}});
  apply_overrides(doc, overrides, r);
  const InteractiveRules interactive = read_interactive(r, doc);
  b.model.quality = quality;
  if (quality == Quality::Interactive) {  // after the user's overrides, never over them
    std::vector<std::string> user_pointers;
    for (const auto& o : overrides) user_pointers.push_back(o.pointer);
    b.model.quality_changes = apply_interactive(doc, interactive, user_pointers);
  }

  ObjectView top(r, doc, "", kTopKeys);
  b.model.name = top.string("name", default_name);
  b.model.description = top.string("description", "");
  if (const Json* v = top.find("parameters")) read_parameters(r, *v, "/parameters", b.model.parameters);
  if (const Json* v = top.find("settings")) read_settings(r, *v, b.model.settings);
  b.model.settings.story_numbers = interactive.compare;
  if (const Json* v = top.find("materials")) read_materials(b, *v, "/materials");
  if (const Json* v = top.find("settings")) read_contact_settings(b, *v);
  // a film seals a gap up to its thickness: the detector must see contacts that far
  for (const Material& m : b.model.materials)
    if (m.film_thickness > b.model.settings.contact.collision.alarm_distance)
      r.issue(pointer_child(pointer_child(pointer_child("/materials", m.name), "film"), "thickness"),
              "a film of " + format_number(m.film_thickness) + " m is thicker than the contact alarm distance " +
                  format_number(b.model.settings.contact.collision.alarm_distance) +
                  " m (settings.contact.alarm_distance): the seal it makes could not be seen");
  if (const Json* v = top.find("bodies")) read_bodies(b, *v, "/bodies");
  if (const Json* v = top.find("drivers")) read_drivers(b, *v, "/drivers");
  if (const Json* v = top.find("springs")) read_springs(b, *v, "/springs");
  if (const Json* v = top.find("joints")) read_joints(b, *v, "/joints");
  if (const Json* v = top.find("probes")) read_probes(b, *v, "/probes");
  if (r.issue_count() > 0) throw SceneError(r.reported_issues());
  return std::move(b.model);
}

Json parse_scene_json(const std::string& text) {
  if (text.size() > kMaxSceneBytes)
    throw SceneError({{"", "the scene is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                               std::to_string(kMaxSceneBytes) + " (meshes belong in mesh files)"}});
  SceneIssue error;
  auto doc = parse_json_strict(text, &error);
  if (!doc) throw SceneError({error});
  return std::move(*doc);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError({{"", "cannot open scene file '" + path + "'"}});
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

Model load_scene_text(const std::string& json_text, const std::string& base_dir,
                      const std::vector<SceneOverride>& overrides, const std::string& name_for_errors,
                      Quality quality) {
  Json doc = parse_scene_json(json_text);
  return build_scene(std::move(doc), base_dir, overrides,
                     std::filesystem::path(name_for_errors).stem().string(), quality);
}

Model load_scene_file(const std::string& path, const std::vector<SceneOverride>& overrides, Quality quality) {
  std::string text = read_file(path);
  std::string base_dir = std::filesystem::path(path).parent_path().string();
  if (base_dir.empty()) base_dir = ".";
  return load_scene_text(text, base_dir, overrides, path, quality);
}

std::vector<SceneIssue> validate_scene_file(const std::string& path, const std::vector<SceneOverride>& overrides,
                                            Quality quality) {
  try {
    load_scene_file(path, overrides, quality);
  } catch (const SceneError& e) {
    return e.issues();
  } catch (const std::exception& e) {
    return {{"", e.what()}};
  }
  return {};
}

}  // namespace suction
