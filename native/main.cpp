// suction: the native command-line tool.  Subcommands run, bench, soak, info, validate, mesh, sweep,
// fit
// (docs/cli.md).  Exit codes: 0 success, 1 simulation failure, 2 bad input.
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli_common.h"

#ifndef SUCTION_VERSION
#define SUCTION_VERSION "unknown"
#endif

namespace {

using namespace suction;
using namespace suction::cli;

/// runs one subcommand, turning every exception into a message and an exit code
template <class Command>
int guarded(const std::string& scene, Command&& command) {
  try {
    return command();
  } catch (const SceneError& e) {
    print_scene_issues(scene, e.issues());
    return kExitBadInput;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << '\n';
    return kExitBadInput;
  } catch (const SimulationError& e) {
    std::cerr << "simulation failed: " << e.what() << '\n';
    return kExitSimulationFailed;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return kExitSimulationFailed;
  } catch (...) {
    std::cerr << "error: unknown exception\n";
    return kExitSimulationFailed;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"suction: simulator of passive suction cups "
               "(Bernardin et al., ACM TOG 42(1), 2023)",
               "suction"};
  app.set_version_flag("--version", "suction " SUCTION_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  RunOptions run_options;
  BenchOptions bench_options;
  SoakOptions soak_options;
  SceneOptions info_options;
  ValidateOptions validate_options;
  MeshOptions mesh_options;
  SweepOptions sweep_options;
  FitOptions fit_options;
  QualityOptions quality_options;
  CLI::App *run = nullptr, *bench = nullptr, *soak = nullptr, *info = nullptr, *validate = nullptr,
           *mesh = nullptr, *sweep = nullptr, *fit = nullptr, *quality = nullptr;
  add_run_command(app, run_options, run);
  add_bench_command(app, bench_options, bench);
  add_soak_command(app, soak_options, soak);
  add_info_command(app, info_options, info);
  add_validate_command(app, validate_options, validate);
  add_mesh_command(app, mesh_options, mesh);
  add_sweep_command(app, sweep_options, sweep);
  add_fit_command(app, fit_options, fit);
  add_quality_command(app, quality_options, quality);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every real parse error is bad input
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return kExitBadInput;
  }

  if (run->parsed())
    return guarded(run_options.scene.scene, [&] { return run_command(run_options); });
  if (bench->parsed())
    return guarded(bench_options.scene.scene, [&] { return bench_command(bench_options); });
  if (soak->parsed())
    return guarded(soak_options.scene.scene, [&] { return soak_command(soak_options); });
  if (info->parsed())
    return guarded(info_options.scene, [&] { return info_command(info_options); });
  if (validate->parsed())
    return guarded(validate_options.scene.scene, [&] { return validate_command(validate_options); });
  if (mesh->parsed())
    return guarded(mesh_options.scene.scene, [&] { return mesh_command(mesh_options); });
  if (sweep->parsed())
    return guarded(sweep_options.scene.scene, [&] { return sweep_command(sweep_options); });
  if (fit->parsed())
    return guarded(fit_options.scene.scene, [&] { return fit_command(fit_options); });
  if (quality->parsed())
    return guarded(quality_options.scene.scene, [&] { return quality_command(quality_options); });
  std::cerr << app.help();
  return kExitBadInput;
}
