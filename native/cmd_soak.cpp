// suction soak SCENE: the scene looped for many steps (reset at its duration), checking what a
// long run must keep: finite state (the step's own divergence check), closed air books every
// step (AirLedger: air only from the leak and new seals, only out by lost seals and p_max), no
// negative air, and resident memory flat after the warm-up (docs/reliability.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "sim/simulation.h"

namespace suction::cli {

namespace {

/// resident set size of this process [bytes] (Linux /proc; 0 where unavailable)
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  if (!(statm >> pages_total >> pages_resident)) return 0.0;
  return static_cast<double>(pages_resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

/// bytes the allocator has handed out and not got back (glibc's mallinfo2; 0 elsewhere): what a
/// leak grows, unlike the resident size, which also holds freed memory the allocator keeps
double heap_in_use_bytes() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
#else
  return 0.0;
#endif
}

/// hands the allocator's free pages back to the system (glibc's malloc_trim; nothing elsewhere), so
/// that the resident size sampled next counts the pages the process uses, not the free memory
/// glibc keeps (on `default` that free memory took the untrimmed resident size from 21 to 26 MB
/// over 20 000 steps in steps of 1 to 5 MB while the heap in use stayed within 0.01 %)
bool release_free_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
  return true;
#else
  return false;
#endif
}

/// the peak resident set size so far [bytes] (VmHWM; 0 where unavailable)
double peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) * 1024.0;  // "VmHWM:  1234 kB"
  return 0.0;
}

}  // namespace

void add_soak_command(CLI::App& app, SoakOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "soak", "loop a scene for many steps: no NaN, closed air books every step, memory flat");
  add_scene_options(command, options.scene);
  command->add_option("--steps", options.steps, "steps in all, the scene restarting at its duration (default 20000)")
      ->check(CLI::Range(1L, kMaxRunSteps))
      ->type_name("N");
  command->add_option("--rss-tolerance", options.rss_tolerance,
                      "largest growth after the warm-up of the resident size (after malloc_trim, by its trend over the "
                      "loop starts) and of the heap in use, each as a fraction of the resident size "
                      "(default 0.01; negative: not checked, e.g. under sanitizers)")
      ->check(finite_number())
      ->type_name("F");
  command->add_option("--json", options.json, "also write the figures as JSON")->type_name("FILE");
  command->add_flag("--per-loop", options.per_loop, "print the memory figures at the start of every loop");
  command->add_flag("-q,--quiet", options.quiet, "no progress line");
}

int soak_command(const SoakOptions& options) {
  Simulation sim(load_model(options.scene));
  const Model& model = sim.model();
  const long per_loop = std::max(1L, std::lround(model.settings.duration / model.settings.dt));
  const bool progress = !options.quiet && isatty(STDERR_FILENO);
  // warm-up: a fifth of the run, at least the first loop (pools and caches of the allocator,
  // CGAL and the workspace reach their size: ground's heap in use settles after 5 loops)
  const long warmup = std::max(per_loop, options.steps / 5);

  long loops = 1, books_broken = 0, warnings = 0, steps_with_air = 0;
  double worst_energy_imbalance = 0.0;  // the energy books (docs/method.md §6.8), of the step's largest term
  double worst_imbalance = 0.0, created = 0.0, released = 0.0, leaked = 0.0, outflow = 0.0;
  int merges = 0, splits = 0;
  // memory at the same phase of every loop (its start, right after the reset): a leak grows
  // loop over loop, while what a step allocates and frees comes back at the same phase
  std::vector<std::pair<long, double>> loop_rss;  // (step, resident bytes) after the warm-up
  std::vector<double> loop_heap;                   // heap in use, likewise
  bool trimmed = false;
  double untrimmed_first = 0.0, untrimmed_last = 0.0;  // resident before the trim (reported)
  double peak_after_warmup = 0.0;
  std::string failure, first_broken;
  const auto start = std::chrono::steady_clock::now();
  long done = 0;
  try {
    for (; done < options.steps; ++done) {
      if (sim.state().step >= per_loop) {
        sim.reset();
        ++loops;
        const double untrimmed = resident_bytes();
        trimmed = release_free_memory();
        const double rss = resident_bytes(), heap = heap_in_use_bytes();
        if (done >= warmup) {
          if (loop_rss.empty()) untrimmed_first = untrimmed;
          untrimmed_last = untrimmed;
          if (loop_rss.empty()) peak_after_warmup = peak_resident_bytes();
          loop_rss.push_back({done, rss});
          loop_heap.push_back(heap);
        }
        if (options.per_loop)
          std::cout << format("loop %ld at step %ld: resident %.3f MB (%.3f MB before the trim), peak %.3f MB, heap in use %.3f MB\n", loops,
                              done, rss / 1e6, untrimmed / 1e6, peak_resident_bytes() / 1e6, heap / 1e6);
      }
      sim.step();
      warnings += static_cast<long>(sim.warnings().size());
      const AirLedger& a = sim.profile().air;
      const double scale = std::max({a.start, a.end, a.created, a.released, 1e-6});
      const double rel = std::abs(a.imbalance()) / scale;
      worst_imbalance = std::max(worst_imbalance, rel);
      const double escale = std::max({a.energy_start, a.energy_end, a.energy_created, a.energy_released,
                                      std::abs(a.work), std::abs(a.heat), 1e-6});
      const double erel = std::abs(a.energy_imbalance()) / escale;
      worst_energy_imbalance = std::max(worst_energy_imbalance, erel);
      bool negative = false;
      for (const CavityState& c : sim.state().book.cavities) negative = negative || !(c.air >= 0.0);
      if (rel > 1e-9 || erel > 1e-9 || negative) {
        if (books_broken++ == 0)
          first_broken = format("step %ld of loop %ld: imbalance %.3g J of %.3g J, energy %.3g J of %.3g J%s",
                                sim.state().step, loops, a.imbalance(), scale, a.energy_imbalance(), escale,
                                negative ? ", negative air" : "");
      }
      created += a.created;
      released += a.released;
      leaked += a.leaked_in;
      outflow += a.outflow;
      merges += a.merges;
      splits += a.splits;
      steps_with_air += a.end > 0.0;
      if (progress && (done + 1) % 100 == 0)
        std::cerr << format("\r  %ld / %ld steps, loop %ld, %.1f MB resident", done + 1, options.steps, loops,
                            resident_bytes() / 1e6)
                  << std::flush;
    }
  } catch (const SimulationError& e) {
    failure = format("step %ld of loop %ld failed: %s", sim.state().step + 1, loops, e.what());
  }
  if (progress) std::cerr << "\r" << std::string(70, ' ') << "\r";
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // after the warm-up: the resident size by its least-squares trend over the loop starts (a
  // single sample moves by a few % as the allocator trims), the peak and the heap in use
  // (exact) from the first loop start after the warm-up to the end
  constexpr size_t kMinLoopStarts = 5;  // fewer: the growth of a trend or of two samples is noise
  const bool measured = loop_rss.size() >= kMinLoopStarts && loop_rss.front().second > 0;
  const double rss_first = measured ? loop_rss.front().second : 0.0;
  const double rss_last = measured ? loop_rss.back().second : 0.0;
  const double peak_end = peak_resident_bytes();
  const double peak_growth = measured && peak_after_warmup > 0 ? (peak_end - peak_after_warmup) / peak_after_warmup : 0.0;
  double slope = 0.0;
  if (loop_rss.size() >= 2) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& [x, y] : loop_rss) {
      sx += x;
      sy += y;
      sxx += double(x) * x;
      sxy += double(x) * y;
    }
    const double n = static_cast<double>(loop_rss.size());
    const double d = n * sxx - sx * sx;
    if (d > 0) slope = (n * sxy - sx * sy) / d * 1e4;
  }
  double rss_mean = 0.0;
  for (const auto& sample : loop_rss) rss_mean += sample.second / static_cast<double>(loop_rss.size());
  const double growth =
      measured ? slope / 1e4 * static_cast<double>(loop_rss.back().first - loop_rss.front().first) / rss_mean : 0.0;
  const bool heap_measured = loop_heap.size() >= kMinLoopStarts && loop_heap.front() > 0;
  const double heap_first = heap_measured ? loop_heap.front() : 0.0, heap_last = heap_measured ? loop_heap.back() : 0.0;
  // the heap's growth is judged against the resident size: glibc's count of allocated bytes
  // drifts by a few kB as fragmentation hands out chunks a little larger than asked (incline:
  // +54 kB of a 0.2 MB heap over 80 loops while heaptrack's peak of live bytes stayed flat at
  // 170 kB from 2 000 to 8 000 steps), which is nothing against a leak of the resident size
  const double heap_growth = heap_measured ? (heap_last - heap_first) / heap_first : 0.0;
  const double heap_growth_of_resident = heap_measured && rss_mean > 0 ? (heap_last - heap_first) / rss_mean : 0.0;
  const bool check_memory = options.rss_tolerance >= 0 && measured;
  // judged: the heap in use (a leak) and the resident trend; the peak is reported only: it is
  // one step's largest transient (a mesh union, the compliance) landing on fresh pages, and
  // rises in jumps with the allocator's fragmentation, not with what is kept
  const bool memory_ok =
      !check_memory || (growth <= options.rss_tolerance && heap_growth_of_resident <= options.rss_tolerance);
  const bool ok = failure.empty() && books_broken == 0 && memory_ok;

  std::cout << format("soak      %s  (%s)\n", model.name.c_str(), options.scene.scene.c_str());
  std::cout << format("steps     %ld of %ld: %ld loops of %ld steps, wall %s\n", done, options.steps, loops, per_loop,
                      format_duration(wall).c_str());
  std::cout << format("air       books closed every step: %s (worst imbalance %.2g of the step's air, of its "
                      "energy %.2g); created %.4g J, released %.4g J, leaked in %.4g J, outflow %.4g J; %d merges, "
                      "%d splits; %ld steps with air\n",
                      books_broken == 0 ? "yes" : "NO", worst_imbalance, worst_energy_imbalance, created, released,
                      leaked, outflow, merges, splits, steps_with_air);
  if (books_broken) std::cout << "          first broken: " << first_broken << "\n";
  if (measured)
    std::cout << format("memory    after the warm-up (%ld steps), %zu loop starts: resident%s %.2f MB first, %.2f MB last, "
                        "trend %+.3f MB per 10 000 steps = %+.2f %% over the run (%s); before the trim %.2f MB first, "
                        "%.2f MB last; peak %.2f MB, %.2f MB at the end (%+.2f %%); untrimmed and peak not judged\n",
                        warmup, loop_rss.size(), trimmed ? " after malloc_trim" : "", rss_first / 1e6, rss_last / 1e6,
                        slope / 1e6, 100.0 * growth,
                        options.rss_tolerance < 0 ? "not checked"
                                                  : format("limit %+.2g %%", 100.0 * options.rss_tolerance).c_str(),
                        untrimmed_first / 1e6, untrimmed_last / 1e6, peak_after_warmup / 1e6, peak_end / 1e6,
                        100.0 * peak_growth);
  else
    std::cout << format("memory    not judged: %zu loop starts after the warm-up, fewer than %zu (raise --steps)\n",
                        loop_rss.size(), kMinLoopStarts);
  if (heap_measured)
    std::cout << format("heap      in use at the first loop start after the warm-up: %.3f MB, at the last: %.3f MB "
                        "(%+.3f %% of the heap, %+.3f %% of the resident size: judged)\n",
                        heap_first / 1e6, heap_last / 1e6, 100.0 * heap_growth, 100.0 * heap_growth_of_resident);
  std::cout << format("warnings  %ld\n", warnings);
  if (!failure.empty()) std::cout << "failure   " << failure << "\n";
  std::cout << "verdict   " << (ok ? "PASS" : "FAIL") << "\n";

  if (!options.json.empty()) {
    nlohmann::json j = {{"scene", model.name},
                        {"scene_file", options.scene.scene},
                        {"steps", done},
                        {"loops", loops},
                        {"steps_per_loop", per_loop},
                        {"wall_s", wall},
                        {"books_broken", books_broken},
                        {"worst_imbalance", worst_imbalance},
                        {"worst_energy_imbalance", worst_energy_imbalance},
                        {"air_created_J", created},
                        {"air_released_J", released},
                        {"air_leaked_in_J", leaked},
                        {"air_outflow_J", outflow},
                        {"merges", merges},
                        {"splits", splits},
                        {"warmup_steps", warmup},
                        {"rss_first_bytes", rss_first},
                        {"rss_last_bytes", rss_last},
                        {"rss_growth", growth},
                        {"rss_trimmed", trimmed},
                        {"rss_untrimmed_first_bytes", untrimmed_first},
                        {"rss_untrimmed_last_bytes", untrimmed_last},
                        {"rss_slope_bytes_per_10k_steps", slope},
                        {"peak_after_warmup_bytes", peak_after_warmup},
                        {"peak_end_bytes", peak_end},
                        {"peak_growth", peak_growth},
                        {"heap_first_bytes", heap_first},
                        {"heap_last_bytes", heap_last},
                        {"heap_growth", heap_growth},
                        {"heap_growth_of_resident", heap_growth_of_resident},
                        {"warnings", warnings},
                        {"failure", failure},
                        {"pass", ok}};
    std::ofstream out(options.json);
    if (!out) throw InputError("cannot write '" + options.json + "'");
    out << j.dump(2) << '\n';
  }
  return ok ? kExitOk : kExitSimulationFailed;
}

}  // namespace suction::cli
