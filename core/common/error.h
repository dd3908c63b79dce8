// Errors the core reports.  Bad input (exit code 2 in the CLI) and simulation failure
// (exit code 1) are distinct types so that callers can tell them apart.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace suction {

/// Bad input: a malformed scene, a mesh that is not closed, a degenerate tetrahedron ...
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One problem found while validating a scene: where (JSON pointer) and what was expected.
struct SceneIssue {
  std::string pointer;  // e.g. "/materials/silicone/young"
  std::string message;  // e.g. "expected a number, got string \"abc\""
};

/// A scene failed validation; carries every issue found (at least one).
class SceneError : public InputError {
 public:
  explicit SceneError(std::vector<SceneIssue> issues);
  const std::vector<SceneIssue>& issues() const { return issues_; }

 private:
  std::vector<SceneIssue> issues_;
};

/// The simulation failed: a diverging step (NaN, exploding energy), an inverted element ...
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace suction
