// CSV recorder: header, row formatting, and exact round-trip of every number.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "io/csv.h"

namespace suction {
namespace {

Model model_with_probes(std::vector<std::string> names) {
  Model model;
  model.name = "tiny";
  for (auto& name : names) {
    Probe probe;
    probe.name = name;
    model.probes.push_back(probe);
  }
  return model;
}

std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream ss(line);
  std::string field;
  while (std::getline(ss, field, ',')) fields.push_back(field);
  return fields;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

TEST(Csv, HeaderNamesEveryColumnAndProbe) {
  std::ostringstream out;
  Model model = model_with_probes({"cup_z"});
  CsvRecorder recorder(out, model);
  EXPECT_EQ(out.str(), "step,t,contacts,cavities,pressure_min,volume_total,air_total,holding_force,pgs_iterations,pgs_residual,cup_z\n");
  EXPECT_EQ(recorder.columns().size(), 11u);
  EXPECT_EQ(recorder.rows(), 0);
}

TEST(Csv, ProbeNameWithCommaIsQuoted) {
  std::ostringstream out;
  Model model = model_with_probes({"force, z", "say \"hi\""});
  CsvRecorder recorder(out, model);
  EXPECT_EQ(out.str(),
            "step,t,contacts,cavities,pressure_min,volume_total,air_total,holding_force,pgs_iterations,"
            "pgs_residual,\"force, z\",\"say \"\"hi\"\"\"\n");
}

TEST(Csv, RowFormatting) {
  std::ostringstream out;
  Model model = model_with_probes({"cup_z"});
  CsvRecorder recorder(out, model);
  out.str("");
  CavitySummary cavities;
  cavities.count = 1;
  cavities.pressure_min = 90000.5;
  cavities.volume_total = 2.5e-6;
  cavities.air_total = 0.25;
  cavities.holding_force = 12.5;
  recorder.record_row({3, 0.03, 5, 42, 2.5e-7}, cavities, {-0.0125});
  EXPECT_EQ(out.str(), "3,0.03,5,1,90000.5,2.5e-06,0.25,12.5,42,2.5e-07,-0.0125\n");
  EXPECT_EQ(recorder.rows(), 1);

  // the initial row: no cavity, P_atm
  out.str("");
  recorder.record_row({}, CavitySummary{}, {0.0});
  EXPECT_EQ(out.str(), "0,0,0,0,101325,0,0,0,0,0,0\n");
}

TEST(Csv, WrongProbeCountThrows) {
  std::ostringstream out;
  Model model = model_with_probes({"a", "b"});
  CsvRecorder recorder(out, model);
  EXPECT_THROW(recorder.record_row({}, CavitySummary{}, {1.0}), std::logic_error);
}

TEST(Csv, FormatDoubleRoundTripsExactly) {
  std::vector<double> values = {0.0,
                                -0.0,
                                0.1 + 0.2,
                                1.0 / 3.0,
                                kPAtm,
                                1e-300,
                                std::numeric_limits<double>::denorm_min(),
                                std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::lowest(),
                                std::numeric_limits<double>::epsilon()};
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 20000; ++i) {
    // random bit patterns cover every exponent; skip NaN and infinity
    std::uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof(x));
    if (std::isfinite(x)) values.push_back(x);
  }
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int i = 0; i < 5000; ++i) values.push_back(uniform(rng));
  for (double x : values) {
    const std::string text = format_double(x);
    const double back = std::strtod(text.c_str(), nullptr);
    ASSERT_TRUE(same_bits(x, back)) << text;
  }
  EXPECT_EQ(format_double(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_double(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_double(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(Csv, RowParsesBackToIdenticalDoubles) {
  std::ostringstream out;
  Model model = model_with_probes({"p0", "p1", "p2"});
  CsvRecorder recorder(out, model);
  out.str("");
  CavitySummary cavities;
  cavities.count = 2;
  cavities.pressure_min = 101325.0 - 1.0 / 7.0;
  cavities.volume_total = 1.234567890123456789e-7;
  cavities.air_total = std::sqrt(2.0);
  cavities.holding_force = std::cbrt(3.0);
  const std::vector<double> probes = {std::exp(-1.0), -std::acos(-1.0) * 1e-5, 6.02214076e23};
  const double t = 0.01 * 37;
  recorder.record_row({37, t, 12, 7, 1.0 / 3.0}, cavities, probes);
  std::string line = out.str();
  ASSERT_FALSE(line.empty());
  ASSERT_EQ(line.back(), '\n');
  line.pop_back();
  const auto fields = split_row(line);
  ASSERT_EQ(fields.size(), 13u);
  EXPECT_EQ(fields[0], "37");
  EXPECT_TRUE(same_bits(std::strtod(fields[1].c_str(), nullptr), t));
  EXPECT_EQ(fields[2], "12");
  EXPECT_EQ(fields[3], "2");
  EXPECT_TRUE(same_bits(std::strtod(fields[4].c_str(), nullptr), cavities.pressure_min));
  EXPECT_TRUE(same_bits(std::strtod(fields[5].c_str(), nullptr), cavities.volume_total));
  EXPECT_TRUE(same_bits(std::strtod(fields[6].c_str(), nullptr), cavities.air_total));
  EXPECT_TRUE(same_bits(std::strtod(fields[7].c_str(), nullptr), cavities.holding_force));
  EXPECT_EQ(fields[8], "7");
  EXPECT_TRUE(same_bits(std::strtod(fields[9].c_str(), nullptr), 1.0 / 3.0));
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(same_bits(std::strtod(fields[10 + i].c_str(), nullptr), probes[i])) << i;
}

}  // namespace
}  // namespace suction
