// The issues a scene document gives when loaded, for the scene tests: all of them, printed, or
// the check that there is exactly one, at a pointer, saying something.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scene/json_reader.h"
#include "scene/scene.h"

namespace suction::scene_issues {

/// the issues of loading `doc` (none when it loads)
inline std::vector<SceneIssue> issues_of(const Json& doc, const std::string& base_dir = ".",
                                         const std::vector<SceneOverride>& overrides = {}) {
  try {
    load_scene_text(doc.dump(), base_dir, overrides);
  } catch (const SceneError& e) {
    return e.issues();
  }
  return {};
}

/// the issues of loading the scene text `text` (none when it loads)
inline std::vector<SceneIssue> issues_of_text(const std::string& text, const std::string& base_dir = ".") {
  try {
    load_scene_text(text, base_dir);
  } catch (const SceneError& e) {
    return e.issues();
  }
  return {};
}

inline std::string dump(const std::vector<SceneIssue>& issues) {
  std::string s;
  for (const auto& i : issues) s += "  " + i.pointer + ": " + i.message + "\n";
  return s;
}

/// exactly one issue, at `pointer`, whose message contains `text`
inline void expect_single_issue(const Json& doc, const std::string& pointer, const std::string& text,
                                const std::string& base_dir = ".",
                                const std::vector<SceneOverride>& overrides = {}) {
  const auto issues = issues_of(doc, base_dir, overrides);
  ASSERT_EQ(issues.size(), 1u) << dump(issues);
  EXPECT_EQ(issues[0].pointer, pointer) << dump(issues);
  EXPECT_NE(issues[0].message.find(text), std::string::npos)
      << "expected \"" << text << "\" in:\n" << dump(issues);
}

/// whether `issues` has one at `pointer` whose message contains `words` (a test failure naming
/// them all when not)
inline bool has_issue(const std::vector<SceneIssue>& issues, const std::string& pointer, const std::string& words) {
  for (const SceneIssue& i : issues)
    if (i.pointer == pointer && i.message.find(words) != std::string::npos) return true;
  ADD_FAILURE() << "no issue at " << pointer << " with '" << words << "'; issues:\n" << dump(issues);
  return false;
}

}  // namespace suction::scene_issues
