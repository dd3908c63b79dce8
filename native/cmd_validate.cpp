// suction validate SCENE: loads and checks a scene without simulating it.
#include <iostream>

#include "backends/compliance_backend.h"
#include "cli_common.h"
#include "common/error.h"
#include "scene/quality.h"
#include "scene/scene.h"

namespace suction::cli {

void add_validate_command(CLI::App& app, SceneOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "validate",
      "check a scene: prints \"OK: SCENE\" and exits 0, or prints every issue as "
      "FILE: POINTER: MESSAGE on stderr and exits 2");
  add_scene_options(command, options);
}

int validate_command(const SceneOptions& options) {
  const std::vector<SceneOverride> overrides = scene_overrides(options);
  std::vector<SceneIssue> issues = validate_scene_file(options.scene, overrides, parse_quality(options.quality));
  if (!options.solver.empty()) {  // --solver is applied after loading (cli_common.cpp): checked here
    try {
      check_constraint_solver(options.solver);
    } catch (const InputError& e) {
      issues.push_back({"", std::string("--solver: ") + e.what()});
    }
  }
  if (!issues.empty()) {
    print_scene_issues(options.scene, issues);
    return kExitBadInput;
  }
  std::cout << "OK: " << options.scene << '\n';
  return kExitOk;
}

}  // namespace suction::cli
