// suction validate FILE: loads and checks a scene without simulating it, or checks a lesson of
// the page (a file with "steps" and no "bodies": core/scene/lesson.h), each step's scene loaded
// with the step's values.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "backends/compliance_backend.h"
#include "cli_common.h"
#include "common/error.h"
#include "scene/lesson.h"
#include "scene/quality.h"
#include "scene/scene.h"

namespace suction::cli {

void add_validate_command(CLI::App& app, ValidateOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "validate",
      "check a scene, or a lesson of the page (lessons/NAME.json: every field, its scenes loaded "
      "with each step's values, its events and quantities): prints \"OK: FILE\" and exits 0, or "
      "prints every issue as FILE: POINTER: MESSAGE on stderr and exits 2");
  add_scene_options(command, options.scene);
  options.quality = command->get_option("--quality");
  command
      ->add_option("--scenes", options.scenes_dir,
                   "a lesson's scenes folder (its steps' \"scene\": NAME is DIR/NAME.json); default: "
                   "the scenes folder beside the lesson's folder (lessons/../scenes), else ./scenes")
      ->type_name("DIR");
}

namespace {

/// the scenes a lesson's steps name: --scenes, else ../scenes from the lesson's folder, else ./scenes
std::string lesson_scenes_dir(const ValidateOptions& options) {
  if (!options.scenes_dir.empty()) return options.scenes_dir;
  namespace fs = std::filesystem;
  const fs::path beside = fs::path(options.scene.scene).parent_path() / ".." / "scenes";
  std::error_code ec;
  if (fs::is_directory(beside, ec)) return beside.lexically_normal().string();
  return "scenes";
}

int validate_lesson(const ValidateOptions& options, const std::string& text) {
  const SceneOptions& o = options.scene;
  if (!o.sets.empty() || !o.solver.empty() || !o.backend.empty())
    throw InputError("--set, --solver and --backend are for scenes; a lesson sets its values in its steps (\"set\")");
  // the page plays lessons at interactive quality unless asked otherwise
  const Quality quality = options.quality && options.quality->count() ? parse_quality(o.quality) : Quality::Interactive;
  const std::string dir = lesson_scenes_dir(options);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError("no scenes folder '" + dir + "' for the lesson's steps (--scenes DIR)");
  const std::vector<SceneIssue> issues = validate_lesson_text(text, dir, quality);
  if (!issues.empty()) {
    print_scene_issues(o.scene, issues);
    return kExitBadInput;
  }
  std::cout << "OK: " << o.scene << " (a lesson; its scenes in " << dir << " loaded at " << quality_name(quality)
            << " quality with each step's values)\n";
  return kExitOk;
}

}  // namespace

int validate_command(const ValidateOptions& options) {
  const SceneOptions& o = options.scene;
  {
    std::ifstream in(o.scene, std::ios::binary);
    if (in) {
      std::ostringstream s;
      s << in.rdbuf();
      if (s.str().size() <= kMaxSceneBytes && json_text_is_lesson(s.str())) return validate_lesson(options, s.str());
    }
  }
  const std::vector<SceneOverride> overrides = scene_overrides(o);
  std::vector<SceneIssue> issues = validate_scene_file(o.scene, overrides, parse_quality(o.quality));
  if (!o.solver.empty()) {  // --solver is applied after loading (cli_common.cpp): checked here
    try {
      check_constraint_solver(o.solver);
    } catch (const InputError& e) {
      issues.push_back({"", std::string("--solver: ") + e.what()});
    }
  }
  if (!issues.empty()) {
    print_scene_issues(o.scene, issues);
    return kExitBadInput;
  }
  std::cout << "OK: " << o.scene << '\n';
  return kExitOk;
}

}  // namespace suction::cli
