// Lessons checked as data (lesson.h).  The rules follow web/src/lesson_format.js, the page's
// check, rule for rule; the vocabulary is the page's (tests/scene/test_lesson.cpp compares).
#include "scene/lesson.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "scene/json_reader.h"
#include "scene/scene.h"

namespace suction {

const std::vector<std::string>& lesson_events() {
  static const std::vector<std::string> v = {"contact", "sealed", "pressing", "holding", "leaking", "released", "end"};
  return v;
}
const std::vector<std::string>& lesson_show_keys() {
  static const std::vector<std::string> v = {"forces", "contact_forces", "cavities", "contacts", "seam", "wireframe", "pv"};
  return v;
}
const std::vector<std::string>& lesson_instant_quantities() {
  static const std::vector<std::string> v = {"t",         "step",        "pressure_kPa",  "dp_kPa",     "p_atm_kPa",
                                             "volume_cm3", "air_mJ",     "pv_mJ",         "area_cm2",   "holding_force",
                                             "hand_force", "temperature_K", "contacts",   "cavities"};
  return v;
}
const std::vector<std::string>& lesson_aggregate_quantities() {
  static const std::vector<std::string> v = {"min_pressure_kPa", "max_dp_kPa",     "max_holding_force", "max_hand_force",
                                             "min_hand_force",   "max_volume_cm3", "hold_s"};
  return v;
}
const std::vector<std::string>& lesson_probe_stats() {
  static const std::vector<std::string> v = {"min", "max", "start", "rise", "drop"};
  return v;
}

namespace {

const std::vector<std::string> kLessonKeys = {"$schema", "title", "summary", "order", "steps", "comment"};
const std::vector<std::string> kStepKeys = {"title", "scene", "set", "show", "watch", "predict", "pause_at", "explain", "comment"};
const std::vector<std::string> kChoiceKeys = {"question", "choices", "answer"};
const std::vector<std::string> kNumberKeys = {"question", "unit", "answer_from", "tolerance"};

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// the closest name (web/src/lesson_events.js closest: distance <= max(2, |s|/3) and < |s|), or ""
std::string closest(const std::string& s, const std::vector<std::string>& names) {
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const std::string& n : names) {
    std::string ln = n;
    std::transform(ln.begin(), ln.end(), ln.begin(), [](unsigned char c) { return std::tolower(c); });
    const size_t d = edit_distance(lower, ln);
    if (d < best_d) best = n, best_d = d;
  }
  return !best.empty() && best_d <= std::max<size_t>(2, s.size() / 3) && best_d < s.size() ? best : "";
}

std::string did_you_mean(const std::string& s, const std::vector<std::string>& names) {
  const std::string near = closest(s, names);
  return near.empty() ? "" : "; did you mean '" + near + "'?";
}

std::string json_type(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return "a boolean";
  return "a value";
}

std::string shown(const Json& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

struct Placeholder {
  std::string raw, name;
};
/// the {NAME}, {NAME:D}, {NAME*F:D} of a text (web/src/lesson_text.js PLACEHOLDER)
std::vector<Placeholder> placeholders(const std::string& text) {
  static const std::regex re(R"(\{([A-Za-z_][\w.\-]*)(?:\*(-?[0-9]*\.?[0-9]+(?:e[-+]?\d+)?))?(?::([0-6]))?\})");
  std::vector<Placeholder> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back({(*it)[0].str(), (*it)[1].str()});
  return out;
}

/// a time event "t=SECONDS": its time, or a negative number
double time_event(const std::string& name) {
  static const std::regex re(R"(^t=(\d+(?:\.\d+)?)$)");
  std::smatch m;
  return std::regex_match(name, m, re) ? std::stod(m[1].str()) : -1.0;
}

class LessonChecker {
 public:
  LessonChecker(std::string scenes_dir, Quality quality) : scenes_dir_(std::move(scenes_dir)), quality_(quality) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(scenes_dir_, ec))
      if (e.path().extension() == ".json") scenes_.push_back(e.path().stem().string());
    std::sort(scenes_.begin(), scenes_.end());
  }

  std::vector<SceneIssue> check(const Json& doc) {
    if (!doc.is_object()) {
      err("", "expected a lesson object { \"title\", \"summary\", \"steps\" }, got " + json_type(doc));
      return issues_;
    }
    unknown_keys(doc, kLessonKeys, "");
    text(doc, "title", "", true);
    text(doc, "summary", "", true);
    if (doc.contains("order") && !(doc["order"].is_number_integer() && doc["order"].get<long long>() >= 0))
      err("/order", "expected an integer >= 0 (the place in the list of lessons, smallest first), got " + shown(doc["order"]));
    if (doc.contains("$schema") && !doc["$schema"].is_string())
      err("/$schema", "expected a string (the schema's path or URL), got " + json_type(doc["$schema"]));
    if (!doc.contains("steps")) {
      err("/steps", "missing: expected an array of steps, at least one");
      return issues_;
    }
    const Json& steps = doc["steps"];
    if (!steps.is_array() || steps.empty()) {
      err("/steps", "expected an array of steps, at least one, got " +
                        (steps.is_array() ? std::string("an empty array") : json_type(steps)));
      return issues_;
    }
    for (size_t i = 0; i < steps.size(); ++i) check_step(steps[i], "/steps/" + std::to_string(i));
    return issues_;
  }

 private:
  void err(const std::string& pointer, const std::string& message) { issues_.push_back({pointer, message}); }

  void unknown_keys(const Json& obj, const std::vector<std::string>& allowed, const std::string& path) {
    for (const auto& item : obj.items()) {
      if (contains(allowed, item.key())) continue;
      const std::string near = closest(item.key(), allowed);
      err(pointer_child(path, item.key()), "unknown key" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                                               ": expected one of " + join_names(allowed));
    }
  }

  bool text(const Json& obj, const std::string& key, const std::string& path, bool required) {
    if (!obj.contains(key)) {
      if (required) err(path + "/" + key, "missing: expected a non-empty string");
      return false;
    }
    const Json& v = obj[key];
    bool blank = true;
    if (v.is_string())
      for (char c : v.get<std::string>())
        if (!std::isspace(static_cast<unsigned char>(c))) blank = false;
    if (!v.is_string() || blank) {
      err(path + "/" + key, "expected a non-empty string, got " + shown(v));
      return false;
    }
    return true;
  }

  void check_step(const Json& step, const std::string& path) {
    if (!step.is_object()) {
      err(path, "expected a step object { \"scene\", \"watch\", \"pause_at\", \"explain\", ... }, got " + json_type(step));
      return;
    }
    unknown_keys(step, kStepKeys, path);
    text(step, "title", path, false);
    // the scene
    std::string scene;
    if (!step.contains("scene")) {
      err(path + "/scene", "missing: expected the name of a shipped scene (scenes/NAME.json without .json)");
    } else if (!step["scene"].is_string() || step["scene"].get<std::string>().empty()) {
      err(path + "/scene", "expected a scene's name, got " + shown(step["scene"]));
    } else if (!contains(scenes_, step["scene"].get<std::string>())) {
      const std::string s = step["scene"].get<std::string>();
      err(path + "/scene", "unknown scene '" + s + "'" + did_you_mean(s, scenes_) + " (the scenes in " + scenes_dir_ +
                               ": " + join_names(scenes_) + ")");
    } else {
      scene = step["scene"].get<std::string>();
    }
    // the values it sets
    std::vector<SceneOverride> overrides;
    bool sets_ok = true;
    if (step.contains("set")) {
      const Json& set = step["set"];
      if (!set.is_object()) {
        err(path + "/set", "expected an object { \"/json/pointer\": value, ... }, got " + json_type(set));
        sets_ok = false;
      } else {
        static const std::regex pointer_re(R"(^(/([^~/]|~[01])*)+$)");
        for (const auto& item : set.items()) {
          const std::string at = pointer_child(path + "/set", item.key());
          if (!std::regex_match(item.key(), pointer_re)) {
            err(at, "expected a JSON pointer such as /parameters/NAME or /settings/cavity/leak_rate ('/' between keys, "
                    "'~1' for a '/' and '~0' for a '~' in a key)");
            sets_ok = false;
          } else if (item.value().is_null()) {
            err(at, "expected a value (a number, a string, true or false, or a JSON object)");
            sets_ok = false;
          } else {
            // as the page sends it and the CLI's --set takes it: the value as JSON text
            overrides.push_back({item.key(), item.value().dump()});
          }
        }
      }
    }
    // the scene, loaded by the core with the step's values
    std::vector<std::string> probes;
    double duration = -1.0;
    bool scene_loaded = false;
    if (!scene.empty() && sets_ok) {
      const std::string file = (std::filesystem::path(scenes_dir_) / (scene + ".json")).string();
      try {
        const Model model = load_scene_file(file, overrides, quality_);
        for (const Probe& p : model.probes) probes.push_back(p.name);
        duration = model.settings.duration;
        scene_loaded = true;
      } catch (const SceneError& e) {
        for (const SceneIssue& issue : e.issues()) scene_issue(path, scene, overrides, issue);
      } catch (const std::exception& e) {
        err(path + "/scene", "scene '" + scene + "' (" + file + "): " + e.what());
      }
    }
    // what it shows
    if (step.contains("show")) {
      const Json& show = step["show"];
      if (!show.is_object()) {
        err(path + "/show", "expected an object { \"forces\": true, \"pv\": true, ... }, got " + json_type(show));
      } else {
        unknown_keys(show, lesson_show_keys(), path + "/show");
        for (const auto& item : show.items())
          if (contains(lesson_show_keys(), item.key()) && !item.value().is_boolean())
            err(pointer_child(path + "/show", item.key()), "expected true or false, got " + shown(item.value()));
      }
    }
    if (text(step, "watch", path, true)) {
      const auto ph = placeholders(step["watch"].get<std::string>());
      if (!ph.empty())
        err(path + "/watch", "'" + ph[0].raw + "': the watch text is shown before the step plays, so it has no "
                                                 "measured values (placeholders belong in \"explain\")");
    }
    const std::vector<std::string>* probe_names = scene_loaded ? &probes : nullptr;
    if (step.contains("predict")) check_predict(step["predict"], path + "/predict", probe_names);
    // the event
    if (!step.contains("pause_at")) {
      err(path + "/pause_at", "missing: every step pauses at an event: " + join_names(lesson_events()) + " or t=SECONDS");
    } else {
      const Json& ev = step["pause_at"];
      const std::string name = ev.is_string() ? ev.get<std::string>() : "";
      const double t = time_event(name);
      if (!ev.is_string() || (!contains(lesson_events(), name) && t < 0)) {
        err(path + "/pause_at", "unknown event " + shown(ev) + (ev.is_string() ? did_you_mean(name, lesson_events()) : "") +
                                    ": expected one of " + join_names(lesson_events()) + " or t=SECONDS (e.g. t=1.25)");
      } else if (t >= 0 && scene_loaded && t > duration + 1e-9) {
        err(path + "/pause_at", name + " is after the scene's end (" + scene + ": duration " + format_number(duration) +
                                    " s with this step's values)");
      }
    }
    // the answer
    if (text(step, "explain", path, true)) {
      for (const Placeholder& p : placeholders(step["explain"].get<std::string>())) {
        const std::string q = lesson_quantity_error(p.name, probe_names);
        if (!q.empty()) err(path + "/explain", "{" + p.name + "}: " + q);
      }
    }
  }

  /// a scene issue of a step's scene: at the step's value when it is about it, else at its "set"
  /// (or "scene" when it sets nothing), with the scene's pointer
  void scene_issue(const std::string& path, const std::string& scene, const std::vector<SceneOverride>& overrides,
                   const SceneIssue& issue) {
    for (const SceneOverride& o : overrides) {
      const std::string& p = issue.pointer;
      if (p == o.pointer || (p.size() > o.pointer.size() && p.compare(0, o.pointer.size(), o.pointer) == 0 &&
                             p[o.pointer.size()] == '/')) {
        err(pointer_child(path + "/set", o.pointer), "scene '" + scene + "' refuses it: " +
                                                         (p == o.pointer ? "" : p + ": ") + issue.message);
        return;
      }
    }
    err(path + (overrides.empty() ? "/scene" : "/set"),
        "scene '" + scene + "'" + (overrides.empty() ? "" : " with these values") + ": " +
            (issue.pointer.empty() ? "" : issue.pointer + ": ") + issue.message);
  }

  void check_predict(const Json& pr, const std::string& path, const std::vector<std::string>* probes) {
    if (!pr.is_object()) {
      err(path, "expected { \"question\", \"choices\", \"answer\" } or { \"question\", \"unit\", \"answer_from\", "
                "\"tolerance\" }, got " + json_type(pr));
      return;
    }
    const bool is_choice = pr.contains("choices") || pr.contains("answer");
    const bool is_number = pr.contains("answer_from") || pr.contains("tolerance") || pr.contains("unit");
    if (is_choice && is_number) {
      err(path, "expected either a choice (question, choices, answer) or a number (question, unit, answer_from, "
                "tolerance), not both");
      return;
    }
    if (!is_choice && !is_number) {
      err(path, "expected either a choice (question, choices, answer) or a number (question, unit, answer_from, tolerance)");
      text(pr, "question", path, true);
      return;
    }
    unknown_keys(pr, is_choice ? kChoiceKeys : kNumberKeys, path);
    text(pr, "question", path, true);
    if (is_choice) {
      size_t n = 0;
      if (!pr.contains("choices")) {
        err(path + "/choices", "missing: expected an array of at least two answers (strings)");
      } else if (!pr["choices"].is_array() || pr["choices"].size() < 2) {
        err(path + "/choices", "expected an array of at least two answers (strings), got " + shown(pr["choices"]));
      } else {
        n = pr["choices"].size();
        for (size_t i = 0; i < n; ++i) {
          const Json& c = pr["choices"][i];
          bool blank = true;
          if (c.is_string())
            for (char ch : c.get<std::string>())
              if (!std::isspace(static_cast<unsigned char>(ch))) blank = false;
          if (!c.is_string() || blank) err(path + "/choices/" + std::to_string(i), "expected a non-empty string, got " + shown(c));
        }
      }
      const std::string range = "0 to " + std::to_string(n >= 1 ? n - 1 : 0);
      if (!pr.contains("answer")) {
        err(path + "/answer", "missing: expected the index of the right choice (" + range + ")");
      } else {
        const Json& a = pr["answer"];
        if (!a.is_number_integer() || a.get<long long>() < 0 || (n >= 2 && a.get<long long>() >= static_cast<long long>(n)))
          err(path + "/answer", "expected the index of the right choice, an integer from " + range + ", got " + shown(a));
      }
    } else {
      if (!pr.contains("unit")) err(path + "/unit", "missing: expected the unit of the answer (a string, may be empty)");
      else if (!pr["unit"].is_string()) err(path + "/unit", "expected a string, got " + json_type(pr["unit"]));
      if (!pr.contains("answer_from")) {
        err(path + "/answer_from", "missing: expected the quantity measured at the pause that answers it (e.g. t, "
                                   "pressure_kPa, probe.NAME)");
      } else {
        const Json& q = pr["answer_from"];
        const std::string e = q.is_string() ? lesson_quantity_error(q.get<std::string>(), probes) : "expected a quantity name";
        if (!e.empty()) err(path + "/answer_from", e);
      }
      if (!pr.contains("tolerance")) {
        err(path + "/tolerance", "missing: expected the relative tolerance of a good guess, a number in (0, 1] (0.1: within 10 %)");
      } else {
        const Json& t = pr["tolerance"];
        if (!t.is_number() || !(t.get<double>() > 0 && t.get<double>() <= 1))
          err(path + "/tolerance", "expected a number in (0, 1] (0.1: within 10 %), got " + shown(t));
      }
    }
  }

  std::string scenes_dir_;
  Quality quality_;
  std::vector<std::string> scenes_;
  std::vector<SceneIssue> issues_;
};

/// probe.NAME (stats: with an optional .min/.max/... suffix): '' when fine (or when `probes` is
/// null: not checked), the message when the probe is unknown, "?" when `rest` is not probe.NAME
std::string probe_quantity(const std::string& rest, bool stats, const std::vector<std::string>* probes) {
  if (rest.rfind("probe.", 0) != 0 || rest.size() == 6) return "?";
  if (!probes) return "";
  std::string name = rest.substr(6);
  const size_t dot = name.rfind('.');
  if (stats && dot != std::string::npos && dot > 0 && contains(lesson_probe_stats(), name.substr(dot + 1)) &&
      !contains(*probes, name))
    name = name.substr(0, dot);
  if (!contains(*probes, name))
    return "no probe '" + name + "' in the scene" + did_you_mean(name, *probes) + " (its probes: " +
           (probes->empty() ? std::string("none") : join_names(*probes)) + ")";
  return "";
}

}  // namespace

std::string lesson_quantity_error(const std::string& name, const std::vector<std::string>* probes) {
  if (name.empty()) return "expected a quantity name";
  if (contains(lesson_instant_quantities(), name) || contains(lesson_aggregate_quantities(), name)) return "";
  const std::string p = probe_quantity(name, true, probes);
  if (p != "?") return p;
  const std::string instant_list = join_names(lesson_instant_quantities());
  static const std::regex at_re(R"(^at\.([a-z]+)\.(.+)$)");
  static const std::regex last_re(R"(^last_cavity\.(.+)$)");
  std::smatch m;
  if (std::regex_match(name, m, at_re)) {
    const std::string ev = m[1].str(), q = m[2].str();
    if (!contains(lesson_events(), ev)) return "at." + ev + ": expected an event (" + join_names(lesson_events()) + ")";
    if (contains(lesson_instant_quantities(), q)) return "";
    const std::string pq = probe_quantity(q, false, probes);
    return pq == "?" ? "at." + ev + "." + q + ": expected one of " + instant_list + " or probe.NAME" : pq;
  }
  if (std::regex_match(name, m, last_re)) {
    const std::string q = m[1].str();
    if (contains(lesson_instant_quantities(), q)) return "";
    const std::string pq = probe_quantity(q, false, probes);
    return pq == "?" ? "last_cavity." + q + ": expected one of " + instant_list + " or probe.NAME" : pq;
  }
  std::vector<std::string> known = lesson_instant_quantities();
  known.insert(known.end(), lesson_aggregate_quantities().begin(), lesson_aggregate_quantities().end());
  return "unknown quantity '" + name + "'" + did_you_mean(name, known) + " (the quantities: " + join_names(known) +
         "; probe.NAME[.min|.max|.start|.rise|.drop], at.EVENT.QUANTITY, last_cavity.QUANTITY)";
}

bool json_text_is_lesson(const std::string& text) {
  SceneIssue error;
  const std::optional<Json> doc = parse_json_strict(text, &error);
  return doc && doc->is_object() && doc->contains("steps") && !doc->contains("bodies");
}

std::vector<SceneIssue> validate_lesson_text(const std::string& text, const std::string& scenes_dir, Quality quality) {
  SceneIssue error;
  const std::optional<Json> doc = parse_json_strict(text, &error);
  if (!doc) return {error};
  return LessonChecker(scenes_dir, quality).check(*doc);
}

std::vector<SceneIssue> validate_lesson_file(const std::string& path, const std::string& scenes_dir, Quality quality) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {{"", "cannot read the file"}};
  std::ostringstream s;
  s << in.rdbuf();
  return validate_lesson_text(s.str(), scenes_dir, quality);
}

}  // namespace suction
