// Lessons checked as data (core/scene/lesson.h): the shipped ones pass, a mistake is named by
// its JSON pointer in the lesson, and the vocabulary is the page's own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "scene/json_reader.h"
#include "scene/lesson.h"

namespace suction {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string listed(const std::vector<SceneIssue>& issues) {
  std::string out;
  for (const SceneIssue& i : issues) out += "  " + i.pointer + ": " + i.message + "\n";
  return out;
}

std::set<std::string> pointers(const std::vector<SceneIssue>& issues) {
  std::set<std::string> out;
  for (const SceneIssue& i : issues) out.insert(i.pointer);
  return out;
}

const SceneIssue* at(const std::vector<SceneIssue>& issues, const std::string& pointer) {
  for (const SceneIssue& i : issues)
    if (i.pointer == pointer) return &i;
  return nullptr;
}

TEST(Lesson, EveryShippedLessonPassesWithItsScenesLoadedWithEachStepsValues) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(SUCTION_SOURCE_DIR) + "/lessons")) {
    if (e.path().extension() != ".json" || e.path().filename() == "lesson.schema.json") continue;
    const std::string text = read_text(e.path().string());
    EXPECT_TRUE(json_text_is_lesson(text)) << e.path();
    const auto issues = validate_lesson_text(text, SUCTION_SCENES_DIR, Quality::Interactive);
    EXPECT_TRUE(issues.empty()) << e.path() << ":\n" << listed(issues);
    ++n;
  }
  EXPECT_GE(n, 5);
  // a scene is not a lesson
  EXPECT_FALSE(json_text_is_lesson(read_text(std::string(SUCTION_SCENES_DIR) + "/ground.json")));
}

TEST(Lesson, AMistakeIsNamedByItsPointerAndWhatWasExpected) {
  const std::string lesson = R"({
    "title": "A lesson with mistakes",
    "summary": "Each step has one.",
    "steps": [
      { "scene": "groud", "watch": "w", "pause_at": "released", "explain": "e" },
      { "scene": "ground", "set": { "/parameters/nope": 3 }, "watch": "w", "pause_at": "released", "explain": "e" },
      { "scene": "ground", "set": { "/parameters/push_mm": 99 }, "watch": "w", "pause_at": "released", "explain": "e" },
      { "scene": "ground", "watch": "w", "explain": "e" },
      { "scene": "ground", "watch": "w", "pause_at": "relased", "explain": "e" },
      { "scene": "ground", "watch": "w", "pause_at": "t=9.5", "explain": "e" },
      { "scene": "ground", "set": { "/settings/duration": 10 }, "watch": "w", "pause_at": "t=9.5", "explain": "P {presure_kPa} and {probe.cup_z.rise*1000:1} mm" },
      { "scene": "ground", "watch": "at {t} s", "paus_at": "end", "pause_at": "end", "explain": "e",
        "predict": { "question": "q", "unit": "kPa", "answer_from": "probe.nope", "tolerance": 0.1 } },
      { "scene": "ground", "watch": "w", "pause_at": "end", "explain": "{at.sealed.volume_cm3} {at.seald.t} {last_cavity.air_mJ}",
        "predict": { "question": "q", "choices": ["a", "b", "c"], "answer": 3 }, "show": { "forces": "yes", "pv": true } }
    ]
  })";
  const auto issues = validate_lesson_text(lesson, SUCTION_SCENES_DIR, Quality::Interactive);
  const std::set<std::string> expected = {
      "/steps/0/scene",                       // unknown scene
      "/steps/1/set/~1parameters~1nope",      // not in the scene (the core's override check)
      "/steps/2/set/~1parameters~1push_mm",   // beyond the parameter's max
      "/steps/3/pause_at",                    // a step with no event
      "/steps/4/pause_at",                    // an unknown event
      "/steps/5/pause_at",                    // after the scene's end
      "/steps/6/explain",                     // an unknown quantity (the other placeholder is fine)
      "/steps/7/paus_at", "/steps/7/watch", "/steps/7/predict/answer_from",
      "/steps/8/predict/answer", "/steps/8/show/forces", "/steps/8/explain"};
  EXPECT_EQ(pointers(issues), expected) << listed(issues);
  auto message = [&](const std::string& p) { return at(issues, p) ? at(issues, p)->message : std::string("(none)"); };
  EXPECT_NE(message("/steps/0/scene").find("did you mean 'ground'"), std::string::npos) << message("/steps/0/scene");
  EXPECT_NE(message("/steps/1/set/~1parameters~1nope").find("nope"), std::string::npos);
  EXPECT_NE(message("/steps/2/set/~1parameters~1push_mm").find("14"), std::string::npos)
      << message("/steps/2/set/~1parameters~1push_mm");
  EXPECT_NE(message("/steps/3/pause_at").find("missing"), std::string::npos);
  EXPECT_NE(message("/steps/4/pause_at").find("did you mean 'released'"), std::string::npos);
  EXPECT_NE(message("/steps/5/pause_at").find("after the scene's end"), std::string::npos);
  EXPECT_NE(message("/steps/6/explain").find("did you mean 'pressure_kPa'"), std::string::npos);
  EXPECT_NE(message("/steps/7/paus_at").find("did you mean 'pause_at'"), std::string::npos);
  EXPECT_NE(message("/steps/7/predict/answer_from").find("no probe 'nope'"), std::string::npos);
  EXPECT_NE(message("/steps/8/explain").find("at.seald"), std::string::npos);
  EXPECT_EQ(std::count_if(issues.begin(), issues.end(), [](const SceneIssue& i) { return i.pointer == "/steps/8/explain"; }), 1)
      << "only {at.seald.t} is wrong there";

  // the lesson's own fields
  const auto top = validate_lesson_text(R"({ "title": "", "steps": [], "order": -1 })", SUCTION_SCENES_DIR);
  EXPECT_EQ(pointers(top), (std::set<std::string>{"/title", "/summary", "/order", "/steps"})) << listed(top);
  // not JSON: the parser's place
  const auto broken = validate_lesson_text("{ \"title\": ", SUCTION_SCENES_DIR);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_NE(broken[0].message.find("invalid JSON"), std::string::npos) << broken[0].message;
}

/// the keys of `export const NAME = Object.freeze({ key: ..., ... })` in a JavaScript file (one
/// key per line, as web/src writes them), or of a frozen array of strings
std::vector<std::string> js_keys(const std::string& js, const std::string& name) {
  const size_t start = js.find("export const " + name + " = Object.freeze(");
  EXPECT_NE(start, std::string::npos) << name;
  if (start == std::string::npos) return {};
  const size_t open = js.find_first_of("{[", start);
  const size_t close = js.find(js[open] == '{' ? "});" : "]);", open);
  const std::string body = js.substr(open + 1, close - open - 1);
  std::vector<std::string> keys;
  const std::regex re = js[open] == '{' ? std::regex(R"((?:^|\n)\s*([A-Za-z_]\w*)\s*:)") : std::regex(R"('([^']*)')");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), re); it != std::sregex_iterator(); ++it)
    keys.push_back((*it)[1].str());
  return keys;
}

TEST(Lesson, TheVocabularyIsThePagesAndTheSchemas) {
  const std::string events_js = read_text(std::string(SUCTION_SOURCE_DIR) + "/web/src/lesson_events.js");
  const std::string format_js = read_text(std::string(SUCTION_SOURCE_DIR) + "/web/src/lesson_format.js");
  ASSERT_FALSE(events_js.empty());
  ASSERT_FALSE(format_js.empty());
  EXPECT_EQ(js_keys(events_js, "EVENTS"), lesson_events());
  EXPECT_EQ(js_keys(events_js, "INSTANT"), lesson_instant_quantities());
  EXPECT_EQ(js_keys(events_js, "AGGREGATE"), lesson_aggregate_quantities());
  // PROBE_STATS is on one line
  std::vector<std::string> stats;
  {
    const size_t s = events_js.find("export const PROBE_STATS");
    const std::string line = events_js.substr(s, events_js.find('\n', s) - s);
    const std::regex re(R"(([a-z]+):)");
    for (auto it = std::sregex_iterator(line.begin(), line.end(), re); it != std::sregex_iterator(); ++it)
      stats.push_back((*it)[1].str());
  }
  EXPECT_EQ(stats, lesson_probe_stats());
  EXPECT_EQ(js_keys(format_js, "SHOW_KEYS"), lesson_show_keys());

  SceneIssue error;
  const auto schema = parse_json_strict(read_text(std::string(SUCTION_SOURCE_DIR) + "/lessons/lesson.schema.json"), &error);
  ASSERT_TRUE(schema) << error.message;
  const Json& step = (*schema)["$defs"]["step"];
  std::vector<std::string> show;
  for (const auto& item : step["properties"]["show"]["properties"].items()) show.push_back(item.key());
  EXPECT_EQ(show, lesson_show_keys());
  EXPECT_EQ(step["properties"]["pause_at"]["anyOf"][0]["enum"].get<std::vector<std::string>>(), lesson_events());
}

TEST(Lesson, QuantitiesWithProbesEventsAndTheLastCavity) {
  const std::vector<std::string> probes = {"cup_z", "hand.force"};
  for (const char* ok : {"t", "max_holding_force", "probe.cup_z", "probe.cup_z.rise", "probe.hand.force",
                         "probe.hand.force.max", "at.holding.t", "at.sealed.probe.cup_z", "last_cavity.pressure_kPa"})
    EXPECT_EQ(lesson_quantity_error(ok, &probes), "") << ok;
  for (const char* bad : {"", "pressure", "probe.cupz", "probe.cup_z.mean", "at.hold.t", "at.holding.max_dp_kPa",
                          "last_cavity.hold_s", "last_cavity.probe.nope"})
    EXPECT_NE(lesson_quantity_error(bad, &probes), "") << bad;
  // a scene not known: its probe names are not checked, the rest is
  EXPECT_EQ(lesson_quantity_error("probe.anything.max", nullptr), "");
  EXPECT_NE(lesson_quantity_error("at.hold.t", nullptr), "");
}

}  // namespace
}  // namespace suction
