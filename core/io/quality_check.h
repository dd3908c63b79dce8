// The quality check (`suction quality`, docs/cli.md): a scene's story numbers at reference and
// at interactive quality (scene/quality.h), side by side, each against its limit.  Pure numbers:
// the CLI runs the two simulations and summarizes their CSV (io/sweep.h RunSummary).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "io/sweep.h"

namespace suction {

/// the story numbers a scene without settings.interactive.compare is checked on
std::vector<std::string> default_story_numbers();

/// A summary name (io/sweep.h) that is a time: seal_t, release_t, NAME_t_min, NAME_t_max.
bool is_time_number(const std::string& name);

struct QualityLimits {
  double relative = 0.03;   // |interactive − reference| ≤ this × |reference| (3 %)
  /// times: ≤ max(relative × |reference|, time_steps × the interactive dt)
  double time_steps = 2.0;
  double interactive_dt = 0.01;  // [s]
  /// a floor of a number (not a time): the limit is relative × max(|reference|, |floor|), so
  /// that two numbers near zero (a slide that did not happen, 6 µm against 0) are compared
  /// against what the story moves, not against each other (make quality-params: a tenth of the
  /// number's reference at the scene's default parameters)
  std::map<std::string, double> floor;
};

/// One compared number.
struct QualityRow {
  std::string name;
  double reference = 0, interactive = 0;  // NaN: never happened (a release that did not come)
  double error = 0;   // interactive − reference (NaN when either is NaN)
  double limit = 0;   // the largest |error| allowed
  bool relative = true;  // the limit is a share of the reference (false: a time in seconds)
  double floor = 0;      // QualityLimits::floor (0: none given)
  bool floored = false;  // the limit is the share of the floor (above |reference|)
  bool ok = false;    // both NaN, or |error| ≤ limit (a reference of 0, no floor: the interactive is 0 too)
};

/// InputError naming a floor of `limits` that is not one of `names`, is a time, or is not finite
/// (the CLI checks its --floor options with it before any run).
void check_floors(const std::vector<std::string>& names, const QualityLimits& limits);

/// The rows for `names`, in that order.  InputError naming the missing number and those the
/// summaries have when a name is in neither summary; check_floors' errors.
std::vector<QualityRow> compare_story_numbers(const RunSummary& reference, const RunSummary& interactive,
                                              const std::vector<std::string>& names, const QualityLimits& limits);

}  // namespace suction
