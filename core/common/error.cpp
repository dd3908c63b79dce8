#include "common/error.h"

namespace suction {

static std::string join_issues(const std::vector<SceneIssue>& issues) {
  std::string s;
  for (const auto& i : issues) {
    if (!s.empty()) s += "\n";
    s += (i.pointer.empty() ? std::string("/") : i.pointer) + ": " + i.message;
  }
  return s;
}

SceneError::SceneError(std::vector<SceneIssue> issues)
    : InputError(join_issues(issues)), issues_(std::move(issues)) {}

}  // namespace suction
