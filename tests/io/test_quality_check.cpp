// The quality check's comparison (io/quality_check.h): a number within 3 % of the reference (or
// of its floor), a time within two interactive steps, an event that never happened, and a
// name not in the runs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/error.h"
#include "io/quality_check.h"

namespace suction {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

RunSummary summary(std::vector<std::pair<std::string, double>> values) {
  RunSummary s;
  for (auto& [n, v] : values) {
    s.names.push_back(n);
    s.values.push_back(v);
  }
  return s;
}

TEST(QualityCheck, ANumberWithinThreePercentPassesAndBeyondItFails) {
  QualityLimits limits;  // 3 %, two steps of 10 ms
  const RunSummary ref = summary({{"pressure_min_min", 20000}, {"pull_force_max", 29.0}});
  auto rows = compare_story_numbers(ref, summary({{"pressure_min_min", 20590}, {"pull_force_max", 29.0 * 0.969}}), {"pressure_min_min", "pull_force_max"}, limits);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].ok);  // +2.95 %
  EXPECT_NEAR(rows[0].error, 590, 1e-9);
  EXPECT_NEAR(rows[0].limit, 600, 1e-9);
  EXPECT_FALSE(rows[1].ok);  // −3.1 %
  rows = compare_story_numbers(ref, summary({{"pressure_min_min", 19390}, {"pull_force_max", 29}}), {"pressure_min_min"}, limits);
  EXPECT_FALSE(rows[0].ok);  // −3.05 %
  limits.relative = 0.05;
  rows = compare_story_numbers(ref, summary({{"pressure_min_min", 19390}, {"pull_force_max", 29}}), {"pressure_min_min"}, limits);
  EXPECT_TRUE(rows[0].ok);
}

TEST(QualityCheck, TimesMayDifferByTwoInteractiveSteps) {
  QualityLimits limits;
  limits.interactive_dt = 0.02;
  EXPECT_TRUE(is_time_number("seal_t"));
  EXPECT_TRUE(is_time_number("pull_force_t_max"));
  EXPECT_FALSE(is_time_number("pull_force_max"));
  const RunSummary ref = summary({{"seal_t", 0.08}, {"release_t", 2.0}});
  // 0.08 -> 0.12: 40 ms = two steps (3 % of 0.08 s is less)
  auto rows = compare_story_numbers(ref, summary({{"seal_t", 0.12}, {"release_t", 2.07}}), {"seal_t", "release_t"}, limits);
  EXPECT_TRUE(rows[0].ok);
  EXPECT_FALSE(rows[0].relative);
  EXPECT_NEAR(rows[0].limit, 0.04, 1e-15);
  EXPECT_NEAR(rows[1].limit, 0.06, 1e-15);  // 3 % of 2 s is more than two steps
  EXPECT_FALSE(rows[1].ok);                 // 70 ms
  rows = compare_story_numbers(ref, summary({{"seal_t", 0.1401}, {"release_t", 2.0}}), {"seal_t"}, limits);
  EXPECT_FALSE(rows[0].ok);
}

TEST(QualityCheck, AnEventThatNeverHappenedMustNotHappenEither) {
  const QualityLimits limits;
  const RunSummary ref = summary({{"release_t", kNaN}, {"lift_max", 0.0}});
  auto rows = compare_story_numbers(ref, summary({{"release_t", kNaN}, {"lift_max", 0.0}}), {"release_t", "lift_max"}, limits);
  EXPECT_TRUE(rows[0].ok);
  EXPECT_TRUE(std::isnan(rows[0].error));
  EXPECT_TRUE(rows[1].ok);
  // a release the reference never had, and a lift from nothing
  rows = compare_story_numbers(ref, summary({{"release_t", 0.71}, {"lift_max", 1e-6}}), {"release_t", "lift_max"}, limits);
  EXPECT_FALSE(rows[0].ok);
  EXPECT_FALSE(rows[1].ok);
  rows = compare_story_numbers(summary({{"release_t", 1.2}}), summary({{"release_t", kNaN}}), {"release_t"}, limits);
  EXPECT_FALSE(rows[0].ok);
}

// A floor (make quality-params: a tenth of the number's reference at the scene's defaults): two
// numbers near zero pass within 3 % of the floor, a number above it still within 3 % of its own.
TEST(QualityCheck, AFloorComparesNumbersNearZeroAgainstWhatTheStoryMoves) {
  QualityLimits limits;
  limits.floor = {{"slide_max", -0.02}, {"pressure_min_min", 20000}};  // 20 mm (its sign is no matter)
  const std::vector<std::string> names = {"slide_max", "pressure_min_min"};
  // no slide at reference, 6 µm at interactive: within 3 % of 20 mm (0.6 mm)
  auto rows = compare_story_numbers(summary({{"slide_max", 0.0}, {"pressure_min_min", 30000}}),
                                    summary({{"slide_max", 6e-6}, {"pressure_min_min", 30890}}), names, limits);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].ok);
  EXPECT_TRUE(rows[0].floored);
  EXPECT_NEAR(rows[0].limit, 6e-4, 1e-18);
  EXPECT_DOUBLE_EQ(rows[0].floor, 0.02);
  // a reference above its floor keeps its own 3 %: 30 000 Pa → 900 Pa, and 890 is within
  EXPECT_FALSE(rows[1].floored);
  EXPECT_NEAR(rows[1].limit, 900, 1e-9);
  EXPECT_TRUE(rows[1].ok);
  // 0.7 mm against none: beyond 3 % of the floor's 20 mm
  rows = compare_story_numbers(summary({{"slide_max", 0.0}, {"pressure_min_min", 30000}}),
                               summary({{"slide_max", 7e-4}, {"pressure_min_min", 31000}}), names, limits);
  EXPECT_FALSE(rows[0].ok);
  EXPECT_FALSE(rows[1].ok);  // +3.3 % of its own 30 000
  // without the floor, 6 µm against 0 fails (a reference of 0 wants 0)
  rows = compare_story_numbers(summary({{"slide_max", 0.0}}), summary({{"slide_max", 6e-6}}), {"slide_max"}, QualityLimits{});
  EXPECT_FALSE(rows[0].ok);
  // a floor for a number not compared, for a time, or not finite: an error naming it
  for (const auto& [name, value] : std::vector<std::pair<std::string, double>>{{"lift_max", 1.0}, {"seal_t", 0.1}, {"slide_max", kNaN}}) {
    QualityLimits bad;
    bad.floor = {{name, value}};
    try {
      compare_story_numbers(summary({{"slide_max", 0.0}, {"seal_t", 0.1}}), summary({{"slide_max", 0.0}, {"seal_t", 0.1}}),
                            {"slide_max", "seal_t"}, bad);
      ADD_FAILURE() << name << ": no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + name + "'"), std::string::npos) << e.what();
    }
    try {  // the same check before any run (the CLI's)
      check_floors({"slide_max", "seal_t"}, bad);
      ADD_FAILURE() << name << ": check_floors found no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + name + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(QualityCheck, ANameTheRunsLackIsAnErrorListingTheirs) {
  const RunSummary s = summary({{"seal_t", 0.1}, {"pressure_min_min", 2e4}});
  try {
    compare_story_numbers(s, s, {"pressure_min"}, QualityLimits{});
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'pressure_min'"), std::string::npos) << what;
    EXPECT_NE(what.find("seal_t, pressure_min_min"), std::string::npos) << what;
  }
  EXPECT_EQ(default_story_numbers(), (std::vector<std::string>{"pressure_min_min", "seal_t", "release_t"}));
}

}  // namespace
}  // namespace suction
