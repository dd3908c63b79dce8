// The scene schema (scenes/schema/scene.schema.json, JSON Schema 2020-12) against the reader.
// Every shipped scene and every scene of tests/data/schema/ is loaded with a ReadTrace, which
// records each object the reader visits with the keys it accepts, and each read with its kind,
// bounds, choices and the default it falls back to.  Each is looked up in the schema (walking
// the scene and the schema together, "oneOf" branches chosen by their "const" discriminator)
// and must agree: the same keys, the same kind, the same bounds, the same default, the same
// required keys.  Then every object of the schema must have been visited by some scene (its
// keys then equal the reader's) and every default applied: a key the schema names but the
// reader ignores fails here.  (The other direction,
// that a JSON Schema validator accepts the shipped scenes and rejects mistyped keys, is
// tests/scene/validate_schema.py, run by ctest with Debian's python3-jsonschema.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "scene/json_reader.h"
#include "scene/scene.h"

namespace suction {
namespace {

const std::string kSchemaPath = std::string(SUCTION_SCENES_DIR) + "/schema/scene.schema.json";

Json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream s;
  s << in.rdbuf();
  return Json::parse(s.str());
}

std::vector<std::string> tokens(const std::string& pointer) {
  std::vector<std::string> out;
  if (pointer.empty()) return out;
  size_t i = 1;
  while (true) {
    size_t j = pointer.find('/', i);
    std::string t = pointer.substr(i, j == std::string::npos ? std::string::npos : j - i);
    std::string u;
    for (size_t k = 0; k < t.size(); ++k) {
      if (t[k] == '~' && k + 1 < t.size()) {
        u += t[k + 1] == '1' ? '/' : '~';
        ++k;
      } else {
        u += t[k];
      }
    }
    out.push_back(u);
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

/// The schema with its walk: nodes are identified by their JSON pointer in the schema file.
class Schema {
 public:
  explicit Schema(Json root) : root_(std::move(root)) {}
  const Json& root() const { return root_; }

  /// follows local "$ref"s ("#/$defs/NAME") to the node that holds "properties", "items", ...
  /// A reference to a leaf kind (number, integer, vec3) with siblings (its bounds, default) is
  /// the leaf itself: it is returned as it is.  Returns the node and its schema pointer.
  std::pair<const Json*, std::string> deref(const Json* node, std::string at) const {
    for (int guard = 0; guard < 16 && node->is_object() && node->contains("$ref"); ++guard) {
      const std::string ref = (*node)["$ref"].get<std::string>();
      if (node->size() > 1 && is_leaf_def(ref)) break;
      at = ref.substr(1);
      node = &root_.at(Json::json_pointer(at));
    }
    return {node, at};
  }
  static bool is_leaf_def(const std::string& ref) {
    return ref == "#/$defs/number" || ref == "#/$defs/integer" || ref == "#/$defs/vec3";
  }

  /// the branch of a "oneOf" that fits `value`: for an array the one array branch; for an
  /// object the one object branch whose "const" properties match (an absent one must not be
  /// required) and whose required keys are all present.  nullptr when none or several fit.
  std::pair<const Json*, std::string> select(const Json* node, std::string at, const Json* value) const {
    std::tie(node, at) = deref(node, at);
    if (!node->is_object() || !node->contains("oneOf") || node->contains("properties") || !value || !(value->is_object() || value->is_array()))
      return {node, at};
    std::vector<std::pair<const Json*, std::string>> fits;
    const Json& branches = (*node)["oneOf"];
    for (size_t i = 0; i < branches.size(); ++i) {
      auto [b, bat] = deref(&branches[i], at + "/oneOf/" + std::to_string(i));
      if (value->is_array()) {
        if (b->value("type", "") == "array") fits.push_back({b, bat});
        continue;
      }
      if (!b->contains("properties")) continue;
      const Json required = b->value("required", Json::array());
      bool ok = true;
      for (const auto& key : required) ok = ok && value->contains(key.get<std::string>());
      for (const auto& [key, prop] : (*b)["properties"].items())
        if (prop.is_object() && prop.contains("const") && value->contains(key)) ok = ok && (*value)[key] == prop["const"];
      if (ok) fits.push_back({b, bat});
    }
    if (fits.size() == 1) return fits[0];
    return {nullptr, at};
  }

  /// the schema node of the value at `pointer` of `doc` (the value may be absent: a default);
  /// nullptr and *why when the schema has no place for it
  std::pair<const Json*, std::string> at(const Json& doc, const std::string& pointer, std::string* why) const {
    const Json* value = &doc;
    auto [node, at] = select(&root_, "", value);
    for (const std::string& t : tokens(pointer)) {
      if (!node) break;
      const Json* child_value = nullptr;
      if (value && value->is_object() && value->contains(t)) child_value = &(*value)[t];
      if (value && value->is_array() && !t.empty() && std::all_of(t.begin(), t.end(), ::isdigit) &&
          std::stoul(t) < value->size())
        child_value = &(*value)[std::stoul(t)];
      const Json* next = nullptr;
      std::string next_at;
      if (node->contains("properties") && (*node)["properties"].contains(t)) {
        next = &(*node)["properties"][t];
        next_at = at + "/properties/" + t;
      } else if (node->contains("additionalProperties") && (*node)["additionalProperties"].is_object()) {
        next = &(*node)["additionalProperties"];
        next_at = at + "/additionalProperties";
      } else if (node->contains("prefixItems") && value && value->is_array() &&
                 std::all_of(t.begin(), t.end(), ::isdigit) && std::stoul(t) < (*node)["prefixItems"].size()) {
        next = &(*node)["prefixItems"][std::stoul(t)];
        next_at = at + "/prefixItems/" + t;
      } else if (node->contains("items") && value && value->is_array()) {
        next = &(*node)["items"];
        next_at = at + "/items";
      }
      if (!next) {
        *why = "the schema node " + at + " has no place for '" + t + "'";
        return {nullptr, at};
      }
      std::tie(node, at) = select(next, next_at, child_value);
      if (!node) {
        *why = "no single \"oneOf\" branch of " + next_at + " fits the scene's value";
        return {nullptr, next_at};
      }
      value = child_value;
    }
    return {node, at};
  }

 private:
  Json root_;
};

/// the kinds a leaf schema allows: "number", "integer", "vec3", "numbers:N", "string",
/// "boolean", "choice", "object", "array" (a "oneOf" allows each branch's)
std::set<std::string> leaf_kinds(const Schema& s, const Json& node, const std::string& at = "") {
  std::set<std::string> out;
  for (const char* def : {"number", "integer", "vec3"})
    if (at == std::string("/$defs/") + def) return {def};
  if (node.contains("oneOf")) {
    for (const auto& b : node["oneOf"]) {
      auto k = leaf_kinds(s, b);
      out.insert(k.begin(), k.end());
    }
    return out;
  }
  if (node.contains("$ref")) {
    const std::string ref = node["$ref"];
    const std::string name = ref.substr(ref.rfind('/') + 1);
    if (name == "number" || name == "integer" || name == "vec3") out.insert(name);
    else {
      auto k = leaf_kinds(s, s.root().at(Json::json_pointer(ref.substr(1))));
      out.insert(k.begin(), k.end());
    }
    return out;
  }
  if (node.contains("enum") || node.contains("const")) out.insert("choice");
  if (node.contains("x-numbers")) out.insert("numbers:" + std::to_string(node["x-numbers"].get<int>()));
  if (node.contains("type") && node["type"].is_string()) {
    const std::string t = node["type"];
    if (t == "string" && !node.contains("enum")) out.insert("string");
    if (t == "boolean") out.insert("boolean");
    if (t == "object") out.insert("object");
    if (t == "array" && !node.contains("x-numbers")) out.insert("array");
  }
  return out;
}

std::string bound_text(const Json& node) {
  std::string s;
  for (const char* k : {"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"})
    if (node.contains(k)) s += std::string(k) + " " + format_number(node[k].get<double>()) + " ";
  return s.empty() ? "none" : s;
}

std::string bound_text(const Bounds& b) {
  std::string s;
  if (std::isfinite(b.lo)) s += std::string(b.lo_open ? "exclusiveMinimum " : "minimum ") + format_number(b.lo) + " ";
  if (std::isfinite(b.hi)) s += std::string(b.hi_open ? "exclusiveMaximum " : "maximum ") + format_number(b.hi) + " ";
  return s.empty() ? "none" : s;
}

bool same_json(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!same_json(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

/// The values of `key`'s "const" over every branch of the "oneOf" that has the branch at
/// `branch` (a schema pointer, referenced or inline): the variants a discriminator names.
void variant_consts(const Json& root, const Json& node, const std::string& at, const std::string& branch,
                    const std::string& key, std::set<std::string>& out) {
  if (node.is_object()) {
    if (node.contains("oneOf")) {
      const Json& bs = node["oneOf"];
      bool has = false;
      for (size_t i = 0; i < bs.size(); ++i)
        has = has || bs[i].value("$ref", "") == "#" + branch || at + "/oneOf/" + std::to_string(i) == branch;
      if (has)
        for (const auto& b0 : bs) {
          const Json& b = b0.contains("$ref") ? root.at(Json::json_pointer(b0["$ref"].get<std::string>().substr(1))) : b0;
          if (b.contains("properties") && b["properties"].contains(key) && b["properties"][key].contains("const"))
            out.insert(b["properties"][key]["const"].get<std::string>());
        }
    }
    for (const auto& [k, v] : node.items()) variant_consts(root, v, at + "/" + k, branch, key, out);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) variant_consts(root, node[i], at + "/" + std::to_string(i), branch, key, out);
  }
}

/// every scene the test reads: the shipped ones and the coverage scenes of tests/data/schema/
std::vector<std::string> corpus() {
  std::vector<std::string> files;
  for (const char* dir : {SUCTION_SCENES_DIR, SUCTION_TEST_DATA_DIR "/schema"})
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

struct Visits {
  std::set<std::string> objects;     // schema pointers of visited object nodes
  std::set<std::string> defaults;    // schema pointers whose default the reader applied
  std::set<std::string> required_tried;  // schema properties whose removal was tried
};

/// A corpus scene loaded with a trace, and how long the load took.
struct Traced {
  std::string file, name;
  Json doc;
  ReadTrace trace;
  double ms = 0;
};

/// Checks one scene's trace against the schema; returns the problems.
std::vector<std::string> check_scene(const Schema& schema, const std::string& file, Visits& visits, Traced& out) {
  std::vector<std::string> problems;
  ReadTrace& trace = out.trace;
  std::string error;
  const auto t0 = std::chrono::steady_clock::now();
  {
    ScopedReadTrace scope(trace);
    try {
      load_scene_file(file);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const std::string name = std::filesystem::path(file).filename().string();
  out.file = file;
  out.name = name;
  if (!error.empty()) return {name + ": does not load: " + error};
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  out.doc = Json::parse(text.str());
  const Json& doc = out.doc;

  for (const auto& o : trace.objects) {
    std::string why;
    auto [node, at] = schema.at(doc, o.pointer, &why);
    if (!node) {
      problems.push_back(name + " " + o.pointer + ": object not in the schema: " + why);
      continue;
    }
    visits.objects.insert(at);
    std::set<std::string> reader(o.keys.begin(), o.keys.end()), schema_keys;
    reader.erase("comment");
    if (node->contains("properties"))
      for (const auto& [k, v] : (*node)["properties"].items())
        if (k != "comment" && k != "$schema") schema_keys.insert(k);
    for (const auto& k : reader)
      if (!schema_keys.count(k)) problems.push_back(name + " " + o.pointer + ": the reader accepts '" + k + "', the schema (" + at + ") does not name it");
    for (const auto& k : schema_keys)
      if (!reader.count(k)) problems.push_back(name + " " + o.pointer + ": the schema (" + at + ") names '" + k + "', the reader does not accept it");
    if (!node->contains("additionalProperties") || (*node)["additionalProperties"] != false)
      problems.push_back(name + " " + o.pointer + ": the schema (" + at + ") must say \"additionalProperties\": false (the reader rejects unknown keys)");
  }

  std::map<std::string, std::set<std::string>> accepted;  // object pointer -> its keys
  for (const auto& o : trace.objects) accepted[o.pointer].insert(o.keys.begin(), o.keys.end());
  for (const auto& f : trace.fields) {
    std::string why;
    {  // a key the object does not accept for its variant (angular_velocity of an FEM body) is
       // read for its fallback only: it cannot be in the scene
      const size_t slash = f.pointer.rfind('/');
      auto it = accepted.find(f.pointer.substr(0, slash));
      if (it != accepted.end() && !it->second.count(tokens(f.pointer).back())) continue;
    }
    auto [node, at] = schema.at(doc, f.pointer, &why);
    if (!node) {
      problems.push_back(name + " " + f.pointer + ": read as " + f.kind + ", not in the schema: " + why);
      continue;
    }
    const auto kinds = leaf_kinds(schema, *node, at);
    if (!kinds.count(f.kind))
      problems.push_back(name + " " + f.pointer + ": read as " + f.kind + ", the schema (" + at + ") allows " +
                         (kinds.empty() ? std::string("no kind") : join_names({kinds.begin(), kinds.end()})));
    if (f.kind == "number" || f.kind == "integer") {
      if (bound_text(*node) != bound_text(f.bounds))
        problems.push_back(name + " " + f.pointer + ": bounds: reader " + bound_text(f.bounds) + ", schema (" + at + ") " + bound_text(*node));
    }
    if (f.kind == "choice" && node->contains("const")) {  // a variant's discriminator: the
      // variants of its "oneOf" are exactly the reader's choices
      const size_t cut = at.rfind("/properties/");
      std::set<std::string> consts;
      if (cut != std::string::npos)
        variant_consts(schema.root(), schema.root(), "", at.substr(0, cut), at.substr(cut + 12), consts);
      if (consts != std::set<std::string>(f.options.begin(), f.options.end()))
        problems.push_back(name + " " + f.pointer + ": the reader's choices are " + join_names(f.options) +
                           ", the variants of the schema's \"oneOf\" with " + at + " are " +
                           join_names({consts.begin(), consts.end()}));
    } else if (f.kind == "choice" && !f.options.empty()) {
      const Json* e = node->contains("enum") ? &(*node)["enum"] : nullptr;
      if (!e || std::set<std::string>(e->begin(), e->end()) != std::set<std::string>(f.options.begin(), f.options.end()))
        problems.push_back(name + " " + f.pointer + ": choices: reader " + join_names(f.options) + ", schema (" + at + ") " +
                           (e ? e->dump() : "no enum"));
    }
    if (f.fallback) {
      visits.defaults.insert(at);
      if (node->contains("x-default"))
        continue;  // a default the reader derives from other values, described in words
      if (!node->contains("default"))
        problems.push_back(name + " " + f.pointer + ": the reader defaults to " + f.fallback->dump() + ", the schema (" + at + ") gives no default");
      else if (!same_json((*node)["default"], *f.fallback))
        problems.push_back(name + " " + f.pointer + ": the reader defaults to " + f.fallback->dump() + ", the schema (" + at + ") says " + (*node)["default"].dump());
    }
  }
  return problems;
}

/// Required keys: each key a scene has, taken out once per place of the schema, must make the
/// reader report "missing required key" exactly where the schema lists it as required.
std::vector<std::string> check_required(const Schema& schema, const Traced& scene, Visits& visits) {
  std::vector<std::string> problems;
  const std::string& name = scene.name;
  const Json& doc = scene.doc;
  const ReadTrace& trace = scene.trace;
  const std::string dir = std::filesystem::path(scene.file).parent_path().string();
  for (const auto& o : trace.objects) {
    std::string why;
    auto [node, at] = schema.at(doc, o.pointer, &why);
    if (!node) continue;
    const Json required = node->value("required", Json::array());
    const Json& value = doc.at(Json::json_pointer(o.pointer));
    for (const auto& [key, v] : value.items()) {
      if (key == "comment" || key == "$schema" || !visits.required_tried.insert(at + "/properties/" + key).second) continue;
      Json cut = doc;
      cut.at(Json::json_pointer(o.pointer)).erase(key);
      // a cut inside a mesh gets the smallest mesh limits: the generators and the mesher stop at
      // once with an issue of their own instead of building a changed mesh (seconds each); the
      // mesh's keys are read before
      if (o.pointer.find("/mesh") != std::string::npos) {
        if (!cut.contains("settings")) cut["settings"] = Json::object();
        cut["settings"]["limits"] = {{"max_nodes", 4}, {"max_elements", 1}, {"max_triangles", 4}};
      }
      const std::string key_ptr = pointer_child(o.pointer, key);
      bool reported = false;
      try {
        load_scene_text(cut.dump(), dir, {}, name);
      } catch (const SceneError& e) {
        for (const auto& is : e.issues())  // at the key, or at its object naming the key
          reported = reported || (is.pointer == key_ptr && is.message.rfind("missing required key", 0) == 0) ||
                     (is.pointer == o.pointer && is.message.rfind("missing required key", 0) == 0 &&
                      is.message.find("'" + key + "'") != std::string::npos);
      } catch (const std::exception&) {
      }
      const bool listed = std::find(required.begin(), required.end(), key) != required.end();
      // "x-required-when": required only in some cases the schema cannot tell (a driver's
      // node_set: for an FEM body), said in words: the reader may or may not report it
      const bool conditional = node->contains("properties") && (*node)["properties"].contains(key) &&
                               (*node)["properties"][key].contains("x-required-when");
      if (reported != listed && !(conditional && !listed))
        problems.push_back(name + " " + key_ptr + ": without it the reader " +
                           (reported ? "reports a missing required key" : "loads or reports something else") +
                           ", the schema (" + at + ") " + (listed ? "lists" : "does not list") + " it as required");
    }
  }
  return problems;
}

/// every object node (with "properties") and every property reachable from the root
void schema_places(const Json& root, const Json& node, const std::string& at, std::set<std::string>& objects,
                   std::set<std::string>& properties, std::set<std::string>& with_default, int depth = 0) {
  if (depth > 40 || !node.is_object()) return;
  // a "$ref" is followed also with siblings (its "description", "x-type", ...), except to a
  // leaf kind (number, integer, vec3), whose siblings are the property's bounds and default
  if (node.contains("$ref") && (node.size() == 1 || !Schema::is_leaf_def(node["$ref"].get<std::string>()))) {
    const std::string ref = node["$ref"];
    schema_places(root, root.at(Json::json_pointer(ref.substr(1))), ref.substr(1), objects, properties, with_default, depth + 1);
    return;
  }
  if (node.contains("default") && !node.contains("x-default")) with_default.insert(at);
  if (node.contains("properties")) {
    objects.insert(at);
    for (const auto& [k, v] : node["properties"].items()) {
      if (k == "comment" || k == "$schema") continue;
      properties.insert(at + "/properties/" + k);
      schema_places(root, v, at + "/properties/" + k, objects, properties, with_default, depth + 1);
    }
  }
  if (node.contains("additionalProperties") && node["additionalProperties"].is_object())
    schema_places(root, node["additionalProperties"], at + "/additionalProperties", objects, properties, with_default, depth + 1);
  if (node.contains("items") && node["items"].is_object())
    schema_places(root, node["items"], at + "/items", objects, properties, with_default, depth + 1);
  if (node.contains("oneOf"))
    for (size_t i = 0; i < node["oneOf"].size(); ++i)
      schema_places(root, node["oneOf"][i], at + "/oneOf/" + std::to_string(i), objects, properties, with_default, depth + 1);
}

std::string list(const std::vector<std::string>& v, size_t max = 60) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < max; ++i) s += "\n  " + v[i];
  if (v.size() > max) s += "\n  ... and " + std::to_string(v.size() - max) + " more";
  return s;
}

TEST(SceneSchema, IsJsonSchema2020_12WithTypesDescriptionsAndUnits) {
  const Json s = read_json(kSchemaPath);
  EXPECT_EQ(s.value("$schema", ""), "https://json-schema.org/draft/2020-12/schema");
  ASSERT_TRUE(s.contains("$defs"));
  for (const char* def : {"number", "integer", "vec3"}) EXPECT_TRUE(s["$defs"].contains(def)) << def;
  // every property says what it is: a description, and a number its unit ("x-unit", "" for none)
  std::set<std::string> objects, properties, defaults;
  schema_places(s, s, "", objects, properties, defaults);
  std::vector<std::string> bare;
  for (const auto& p : properties) {
    const Json& node = s.at(Json::json_pointer(p));
    if (!node.contains("description") || node["description"].get<std::string>().size() < 8) bare.push_back(p + ": no description");
    if (node.value("$ref", "") == "#/$defs/number" && !node.contains("x-unit")) bare.push_back(p + ": a number without \"x-unit\"");
  }
  EXPECT_TRUE(bare.empty()) << bare.size() << " properties:" << list(bare);
  EXPECT_GT(properties.size(), 100u) << "the schema names every key of the scene format";
}

TEST(SceneSchema, AgreesWithTheReaderOnEveryScene) {
  const Schema schema(read_json(kSchemaPath));
  Visits visits;
  std::vector<std::string> problems;
  const auto files = corpus();
  ASSERT_GT(files.size(), 20u);
  std::vector<Traced> traced(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    auto p = check_scene(schema, files[i], visits, traced[i]);
    problems.insert(problems.end(), p.begin(), p.end());
  }
  // each place of the schema is cut once, in the scene that loads fastest (what is checked
  // does not depend on which scene it is; the suite's time does: 4.4 s in file order, natively)
  std::stable_sort(traced.begin(), traced.end(), [](const Traced& a, const Traced& b) { return a.ms < b.ms; });
  for (const auto& t : traced) {
    if (t.doc.is_null()) continue;
    auto p = check_required(schema, t, visits);
    problems.insert(problems.end(), p.begin(), p.end());
  }
  // one line per distinct problem text after the scene name (the same key in many scenes)
  std::sort(problems.begin(), problems.end());
  problems.erase(std::unique(problems.begin(), problems.end()), problems.end());
  EXPECT_TRUE(problems.empty()) << problems.size() << " disagreements:" << list(problems);

  // everything the schema names was visited by some scene: a key the reader ignores, or a
  // default it never applies, cannot hide in the schema
  std::set<std::string> objects, properties, defaults;
  schema_places(schema.root(), schema.root(), "", objects, properties, defaults);
  std::vector<std::string> unvisited;
  for (const auto& o : objects)
    if (!o.empty() && !visits.objects.count(o)) unvisited.push_back("object " + o);
  for (const auto& d : defaults)
    if (!visits.defaults.count(d)) unvisited.push_back("default of " + d + " (the reader never fell back to it)");
  EXPECT_TRUE(unvisited.empty()) << unvisited.size() << " places of the schema no scene of the corpus reaches "
                                 << "(add a scene to tests/data/schema/ that uses them, or remove them):" << list(unvisited);
}

TEST(SceneSchema, EveryShippedSceneNamesIt) {
  for (const auto& e : std::filesystem::directory_iterator(SUCTION_SCENES_DIR)) {
    if (e.path().extension() != ".json") continue;
    const Json doc = read_json(e.path().string());
    EXPECT_EQ(doc.value("$schema", ""), "schema/scene.schema.json") << e.path().filename();
  }
}

}  // namespace
}  // namespace suction
