// Parameter sweeps' planning and reporting (core/io/sweep.h): the grid's combinations in order,
// a run's summary against values worked out by hand from a small table, the result table's
// columns and round trip, and clear errors for a bad grid or another sweep's table.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/error.h"
#include "io/sweep.h"

namespace suction {
namespace {

TEST(Sweep, GridAxesAndTheirCombinationsInOrder) {
  const SweepAxis a = parse_sweep_axis("/parameters/R_mm=20,25,31.5");
  EXPECT_EQ(a.pointer, "/parameters/R_mm");
  EXPECT_EQ(a.values, (std::vector<std::string>{"20", "25", "31.5"}));
  const SweepAxis b = parse_sweep_axis("/materials/cup/young==young_mpa*1e6,1e6");
  EXPECT_EQ(b.values, (std::vector<std::string>{"=young_mpa*1e6", "1e6"}));
  const auto c = sweep_combinations({a, b});
  ASSERT_EQ(c.size(), 6u);  // the first axis slowest
  EXPECT_EQ(c[0], (std::vector<std::string>{"20", "=young_mpa*1e6"}));
  EXPECT_EQ(c[1], (std::vector<std::string>{"20", "1e6"}));
  EXPECT_EQ(c[2], (std::vector<std::string>{"25", "=young_mpa*1e6"}));
  EXPECT_EQ(c[5], (std::vector<std::string>{"31.5", "1e6"}));
  EXPECT_EQ(sweep_combinations({}).size(), 1u);  // no axis: the scene once

  EXPECT_THROW(parse_sweep_axis("R_mm=1,2"), InputError);
  EXPECT_THROW(parse_sweep_axis("/parameters/R_mm"), InputError);
  EXPECT_THROW(parse_sweep_axis("/parameters/R_mm=1,,2"), InputError);
  EXPECT_THROW(parse_sweep_axis("/parameters/R_mm="), InputError);
  SweepAxis big{"/x", std::vector<std::string>(1000, "1")};
  EXPECT_THROW(sweep_combinations({big, big}, 100000), InputError);
}

TEST(Sweep, RunSummaryIsEachColumnsExtremesTheirTimesAndTheSealAndRelease) {
  const std::string csv =
      "step,t,contacts,cavities,pressure_min,hand_force\n"
      "0,0,0,0,101325,0\n"
      "1,0.01,4,1,101325,-2\n"
      "2,0.02,6,1,90000,-1\n"
      "3,0.03,6,1,80000,3\n"
      "4,0.04,2,0,101325,3\n"
      "5,0.05,0,1,100000,0.5\n";
  const RunSummary s = summarize_run_csv(csv, "run.csv");
  auto at = [&](const std::string& name) {
    for (size_t i = 0; i < s.names.size(); ++i)
      if (s.names[i] == name) return s.values[i];
    ADD_FAILURE() << "no " << name;
    return std::nan("");
  };
  EXPECT_EQ(s.names.size(), 4u * 6 + 2);  // step and t are not summarized
  EXPECT_EQ(at("pressure_min_min"), 80000);
  EXPECT_EQ(at("pressure_min_t_min"), 0.03);
  EXPECT_EQ(at("pressure_min_max"), 101325);
  EXPECT_EQ(at("pressure_min_t_max"), 0);  // the first time the maximum is reached
  EXPECT_EQ(at("pressure_min_final"), 100000);
  EXPECT_EQ(at("hand_force_min"), -2);
  EXPECT_EQ(at("hand_force_t_max"), 0.03);
  EXPECT_EQ(at("hand_force_rise"), 3);  // its maximum 3 above its first value 0
  EXPECT_EQ(at("pressure_min_rise"), 0);
  EXPECT_EQ(at("contacts_max"), 6);
  EXPECT_EQ(at("seal_t"), 0.01);     // the first active cavity
  EXPECT_EQ(at("release_t"), 0.04);  // the first time after it with none (not the later reseal)

  const RunSummary never = summarize_run_csv("step,t,cavities,x\n0,0,0,1\n1,0.1,0,2\n", "free.csv");
  EXPECT_TRUE(std::isnan(never.values[never.values.size() - 2])) << "no seal";
  EXPECT_TRUE(std::isnan(never.values.back())) << "no release";

  EXPECT_THROW(summarize_run_csv("step,t,cavities\n", "empty.csv"), InputError);
  EXPECT_THROW(summarize_run_csv("step,x\n0,1\n", "no_t.csv"), InputError);
  try {
    summarize_run_csv("step,t,cavities,x\n0,0,0,oops\n", "bad.csv");
    ADD_FAILURE() << "a word was taken for a number";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv: row 1, column 'x'"), std::string::npos) << e.what();
  }
}

TEST(Sweep, RunLogGivesWarningsInterpenetrationsAndUnionCounts) {
  // the lines as `suction run` prints them (core/sim/watchdog.cpp, native/cmd_run.cpp)
  const std::string log =
      "warning: step 16 (t = 0.16 s): 1 surface vertex of 'block' went to the far side of 'cup_a' (a contact "
      "normal turned by more than 120 degrees in one step): ...\n"
      "warning: step 30 (t = 0.3 s): 2 surface vertices of 'cup_a' are inside 'block', up to 2.26 mm deep, ...\n"
      "warning: step 41 (t = 0.41 s): the surface of 'cup_a' self-intersects (12 pairs of its triangles cross, "
      "around (31.4, 8.0, 27.4) mm): it was smoothed where it crosses for the union ...\n"
      "warning: step 50 (t = 0.5 s): 1 surface vertex of 'ground' is inside 'block', 1.1 mm deep, ...\n"
      "scene     air_tunnel  (scenes/air_tunnel.json)\n"
      "          a vertex 'is inside' a description line is not a warning\n"
      "unions    3 mesh unions failed (warnings above); those pairs kept their cavities\n"
      "unions    26 body surfaces that crossed themselves were repaired for a union (warnings above)\n";
  const RunSummary s = summarize_run_log(log);
  ASSERT_EQ(s.names, (std::vector<std::string>{"warnings", "interpenetrations", "interpenetration_t",
                                               "union_failures", "surface_repairs"}));
  EXPECT_EQ(s.values[0], 4);
  EXPECT_EQ(s.values[1], 3);     // the far side and the two "inside", not the repair
  EXPECT_EQ(s.values[2], 0.16);  // the first of them
  EXPECT_EQ(s.values[3], 3);
  EXPECT_EQ(s.values[4], 26);

  const RunSummary quiet = summarize_run_log("scene     ground  (scenes/ground.json)\nsteps     180 x 10 ms\n");
  EXPECT_EQ(quiet.values[0], 0);
  EXPECT_EQ(quiet.values[1], 0);
  EXPECT_TRUE(std::isnan(quiet.values[2])) << "no interpenetration: no time";
  EXPECT_EQ(quiet.values[3], 0);
  EXPECT_EQ(quiet.values[4], 0);
  EXPECT_EQ(summarize_run_log("").values[0], 0);
}

TEST(Sweep, TableHasTheGridOutcomeAndMetricsAndReadsBack) {
  const std::vector<SweepAxis> axes = {parse_sweep_axis("/parameters/a=1,2"), parse_sweep_axis("/settings/b=x,y")};
  SweepRow ok;
  ok.grid = {"1", "x"};
  ok.status = "ok";
  set_metrics(ok, RunSummary{{"p_min", "seal_t"}, {0.1 + 0.2, std::nan("")}});
  SweepRow bad;
  bad.grid = {"2", "y"};
  bad.status = "failed";
  bad.exit_code = 2;
  bad.error = "scene.json: /parameters/a: expected a number, got \"y\"";  // a quote and a comma
  const std::string table = format_sweep_table(axes, {ok, bad});
  EXPECT_EQ(table,
            "/parameters/a,/settings/b,status,exit_code,error,p_min,seal_t\n"
            "1,x,ok,0,,0.30000000000000004,\n"
            "2,y,failed,2,\"scene.json: /parameters/a: expected a number, got \"\"y\"\"\",,\n");
  const auto rows = parse_sweep_table(table, axes, "t.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].grid, ok.grid);
  EXPECT_EQ(rows[1].error, bad.error);
  EXPECT_EQ(rows[1].exit_code, 2);
  EXPECT_EQ(format_sweep_table(axes, rows), table) << "a resumed table is written back unchanged";
  EXPECT_THROW(parse_sweep_table(table, {axes[1], axes[0]}, "t.csv"), InputError) << "another grid's table";
  EXPECT_THROW(parse_sweep_table(table + "3,z,ok\n", axes, "t.csv"), InputError) << "a short row";
}

TEST(Sweep, CsvRecordsKeepQuotedCommasQuotesAndLineBreaks) {
  const auto r = parse_csv_records("a,\"b,c\",\"d\"\"e\"\r\n\"f\ng\",,h");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (std::vector<std::string>{"a", "b,c", "d\"e"}));
  EXPECT_EQ(r[1], (std::vector<std::string>{"f\ng", "", "h"}));
}

}  // namespace
}  // namespace suction
