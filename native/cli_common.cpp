#include "cli_common.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <iostream>

#include "backends/compliance_backend.h"
#include "common/parallel.h"
#include "scene/quality.h"
#include "scene/scene.h"

namespace suction::cli {

void add_scene_options(CLI::App* command, SceneOptions& options) {
  command->add_option("SCENE", options.scene, "scene file (JSON, see docs/scene-format.md)")
      ->required()
      ->type_name("FILE");
  command
      ->add_option("--set", options.sets,
                   "override a scene value before validation, e.g. --set /settings/dt=0.005 "
                   "or --set /parameters/NAME=VALUE (repeatable)")
      ->type_name("POINTER=VALUE")
      ->allow_extra_args(false);
  command
      ->add_option("--backend", options.backend,
                   "compliance backend: cpu (always built) or cuda (a build with SUCTION_WITH_CUDA "
                   "and an NVIDIA GPU); default: the scene's settings.compliance_backend, else cpu")
      ->type_name("NAME");
  command
      ->add_option("--solver", options.solver,
                   "constraint solver: pgs (the reference), apgd, uzawa, or apgd_cuda (a build with "
                   "SUCTION_WITH_CUDA); default: the scene's settings.solver.method, else pgs")
      ->type_name("NAME");
  command
      ->add_option("--threads", options.threads,
                   "threads for the compliance and the free motion's element pass (the calling one "
                   "included; default 1): the same "
                   "numbers for any count")
      ->check(CLI::Range(1, 64))
      ->type_name("N");
  command
      ->add_option("--quality", options.quality,
                   "reference (the scene exactly as written: the default, every test and validation "
                   "number) or interactive (the page's default: the longer time step, kept factorization "
                   "and meshes the core derives within the scene's settings.interactive; "
                   "docs/validation.md, \"Quality levels\")")
      ->check(CLI::IsMember({"reference", "interactive"}))
      ->type_name("LEVEL");
}

std::string quality_line(const Model& model) {
  if (model.quality == Quality::Reference) return "";
  if (!model.quality_changes.empty()) {
    std::string line = "interactive:";
    for (size_t i = 0; i < model.quality_changes.size(); ++i)
      line += (i ? ", " : " ") + model.quality_changes[i];
    return line;
  }
  return "interactive: nothing changed (a scene with settings.interactive.enabled false plays at "
         "reference quality)";
}

std::vector<SceneOverride> scene_overrides(const SceneOptions& options) {
  std::vector<SceneOverride> overrides;
  for (const std::string& text : options.sets) overrides.push_back(parse_override(text));
  if (!options.backend.empty()) overrides.push_back({"/settings/compliance_backend", options.backend});
  return overrides;
}

Model load_model(const SceneOptions& options) {
  set_thread_count(options.threads);
  Model model = load_scene_file(options.scene, scene_overrides(options), parse_quality(options.quality));
  // --solver after loading: a scene need not have a "solver" object to point into
  if (!options.solver.empty()) {
    check_constraint_solver(options.solver);  // an InputError listing the methods built
    model.settings.solver.method = options.solver;
  }
  return model;
}

void print_scene_issues(const std::string& file, const std::vector<SceneIssue>& issues) {
  for (const SceneIssue& issue : issues) {
    if (issue.pointer.empty())
      std::cerr << file << ": " << issue.message << '\n';
    else
      std::cerr << file << ": " << issue.pointer << ": " << issue.message << '\n';
  }
}

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  const int size = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out(size > 0 ? size : 0, '\0');
  if (size > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
  va_end(args);
  return out;
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0.0;
        try {
          size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) return "'" + text + "' is not a number";
        } catch (const std::exception&) {
          return "'" + text + "' is not a number";
        }
        return std::isfinite(v) ? std::string() : "'" + text + "' must be a finite number";
      },
      "FINITE");
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 1.0) return format("%.1f ms", seconds * 1e3);
  if (seconds < 60.0) return format("%.2f s", seconds);
  const long total = std::lround(seconds);
  if (total < 3600) return format("%ld min %02ld s", total / 60, total % 60);
  return format("%ld h %02ld min", total / 3600, (total % 3600) / 60);
}

std::string body_name(const Model& model, const BodyRef& ref) {
  if (ref.type == BodyType::Fem && ref.index >= 0 && ref.index < int(model.fem.size()))
    return model.fem[ref.index].name;
  if (ref.type == BodyType::Rigid && ref.index >= 0 && ref.index < int(model.rigid.size()))
    return model.rigid[ref.index].name;
  return "?";
}

std::string body_kind_name(const Model& model, const BodyRef& ref) {
  if (ref.type == BodyType::Fem) return "FEM";
  if (ref.index < 0 || ref.index >= int(model.rigid.size())) return "?";
  switch (model.rigid[ref.index].kind) {
    case RigidKind::Dynamic: return "rigid";
    case RigidKind::Fixed: return "fixed";
    case RigidKind::Kinematic: return "kinematic";
  }
  return "?";
}

std::string wrap_text(const std::string& text, size_t width, const std::string& indent) {
  std::string out, line;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n" + indent;
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}

std::string format_value(double value) { return format("%.6g", value); }

}  // namespace suction::cli
