// suction fit's pieces that are not the solver: parameters, targets, data, interpolation, the
// uncertainty (against straight-line regression's textbook formulas), the plot.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/error.h"
#include "io/fit.h"

namespace suction {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FitParameters, BoundsAndStart) {
  const FitParameter a = parse_fit_parameter("/materials/neoprene/young=0.5e6:2e6");
  EXPECT_EQ(a.pointer, "/materials/neoprene/young");
  EXPECT_DOUBLE_EQ(a.lo, 0.5e6);
  EXPECT_DOUBLE_EQ(a.hi, 2e6);
  EXPECT_FALSE(a.start.has_value());
  const FitParameter b = parse_fit_parameter("/parameters/R_mm=10:40:31.5");
  ASSERT_TRUE(b.start.has_value());
  EXPECT_DOUBLE_EQ(*b.start, 31.5);
}

TEST(FitParameters, BadSpecsSayWhy) {
  EXPECT_NE(message_of([] { parse_fit_parameter("young=1:2"); }).find("must start with '/'"), std::string::npos);
  EXPECT_NE(message_of([] { parse_fit_parameter("/a/b=1"); }).find("expected POINTER=LO:HI"), std::string::npos);
  EXPECT_NE(message_of([] { parse_fit_parameter("/a/b=2:1"); }).find("lower bound must be below"), std::string::npos);
  EXPECT_NE(message_of([] { parse_fit_parameter("/a/b=1:x"); }).find("finite numbers"), std::string::npos);
  EXPECT_NE(message_of([] { parse_fit_parameter("/a/b=1:2:3"); }).find("outside [LO, HI]"), std::string::npos);
  EXPECT_NE(message_of([] { parse_fit_parameter("/a/b=1:inf"); }).find("finite numbers"), std::string::npos);
}

TEST(FitTargets, MetricAndValue) {
  const FitTarget t = parse_fit_target("pull_force_max=25.54");
  EXPECT_EQ(t.metric, "pull_force_max");
  EXPECT_DOUBLE_EQ(t.value, 25.54);
  EXPECT_NE(message_of([] { parse_fit_target("pull_force_max"); }).find("METRIC=VALUE"), std::string::npos);
  EXPECT_NE(message_of([] { parse_fit_target("pull_force_max=nan"); }).find("finite number"), std::string::npos);
}

TEST(FitData, ReadsTheColumnWithinTheWindow) {
  const std::string csv = "step,t,force,other\n0,0,1,9\n1,0.5,2,9\n2,1,,9\n3,1.5,4,9\n";
  const FitSeries all = read_series_csv(csv, "force", "data.csv");
  ASSERT_EQ(all.t.size(), 3u);  // the empty field is skipped
  EXPECT_DOUBLE_EQ(all.t[2], 1.5);
  EXPECT_DOUBLE_EQ(all.y[2], 4.0);
  const FitSeries window = read_series_csv(csv, "force", "data.csv", 0.4, 1.6);
  ASSERT_EQ(window.t.size(), 2u);
  EXPECT_DOUBLE_EQ(window.t[0], 0.5);
}

TEST(FitData, BadDataNamesFileRowAndColumn) {
  EXPECT_NE(message_of([] { read_series_csv("t,force\n0,1\n0.1,oops\n", "force", "m.csv"); })
                .find("m.csv: row 2, column 'force': expected a finite number, got 'oops'"),
            std::string::npos);
  EXPECT_NE(message_of([] { read_series_csv("t,force\n0,1\n", "pull", "m.csv"); }).find("no column 'pull' in its header (t, force)"),
            std::string::npos);
  EXPECT_NE(message_of([] { read_series_csv("time,force\n0,1\n", "force", "m.csv"); }).find("no column 't'"),
            std::string::npos);
  EXPECT_NE(message_of([] { read_series_csv("t,force\n0,1\n0,2\n", "force", "m.csv"); }).find("does not increase"),
            std::string::npos);
  EXPECT_NE(message_of([] { read_series_csv("t,force\n0,1\n", "force", "m.csv", 5, 6); }).find("no rows"),
            std::string::npos);
  EXPECT_NE(message_of([] { read_series_csv("", "force", "m.csv"); }).find("empty"), std::string::npos);
}

TEST(FitData, LinearInterpolationAndItsSpan) {
  FitSeries s;
  s.t = {0.0, 1.0, 3.0};
  s.y = {0.0, 2.0, -2.0};
  const std::vector<double> v = interpolate_series(s, {0.0, 0.5, 2.0, 3.0, 3.004}, 0.005);
  EXPECT_DOUBLE_EQ(v[0], 0.0);
  EXPECT_DOUBLE_EQ(v[1], 1.0);
  EXPECT_DOUBLE_EQ(v[2], 0.0);
  EXPECT_DOUBLE_EQ(v[3], -2.0);
  EXPECT_DOUBLE_EQ(v[4], -2.0);  // within the slack: the end value
  EXPECT_NE(message_of([&] { interpolate_series(s, {3.1}, 0.005); }).find("outside the run's"), std::string::npos);
}

// straight-line regression y = a + b t: var(b) = s^2 / Sxx, var(a) = s^2 sum(t^2) / (m Sxx),
// cov(a, b) = -s^2 mean(t) / Sxx, s^2 = |r|^2 / (m - 2)
TEST(FitUncertainty, StraightLineRegressionTextbookFormulas) {
  const int m = 9;
  Eigen::MatrixXd J(m, 2);
  Eigen::VectorXd r(m);
  double sum_t = 0, sum_t2 = 0;
  for (int i = 0; i < m; ++i) {
    const double t = 0.3 * i + 0.1;
    J(i, 0) = 1.0;
    J(i, 1) = t;
    r(i) = 0.01 * std::sin(3.7 * i + 1.0);  // residuals of some fit
    sum_t += t;
    sum_t2 += t * t;
  }
  const double mean = sum_t / m, Sxx = sum_t2 - m * mean * mean, s2 = r.squaredNorm() / (m - 2);
  const FitUncertainty u = fit_uncertainty(J, r);
  ASSERT_TRUE(u.defined) << u.why;
  EXPECT_NEAR(u.sigma * u.sigma, s2, 1e-15);
  EXPECT_NEAR(u.stddev[1], std::sqrt(s2 / Sxx), 1e-12);
  EXPECT_NEAR(u.stddev[0], std::sqrt(s2 * sum_t2 / (m * Sxx)), 1e-12);
  EXPECT_NEAR(u.covariance(0, 1), -s2 * mean / Sxx, 1e-12);
  EXPECT_NEAR(u.correlation[1], -s2 * mean / Sxx / (u.stddev[0] * u.stddev[1]), 1e-12);
  // a given sigma replaces the estimate
  const FitUncertainty g = fit_uncertainty(J, r, 0.5);
  EXPECT_NEAR(g.stddev[1], 0.5 / std::sqrt(Sxx), 1e-12);
}

TEST(FitUncertainty, IdentifiabilityIsJudgedInEachParametersOwnScale) {
  const int m = 6;
  Eigen::MatrixXd J(m, 2);
  Eigen::VectorXd r(m);
  for (int i = 0; i < m; ++i) {
    J(i, 0) = 1e-7 * (1.0 + i);        // a modulus in Pa: tiny derivatives
    J(i, 1) = 1e3 * std::cos(0.5 * i);  // a length in m: large ones
    r(i) = 0.1 * ((i % 2) ? 1 : -1);
  }
  EXPECT_TRUE(fit_uncertainty(J, r).defined);
  J.col(1) = 4e9 * J.col(0);  // two parameters with the same effect
  const FitUncertainty u = fit_uncertainty(J, r);
  EXPECT_FALSE(u.defined);
  EXPECT_NE(u.why.find("not identifiable"), std::string::npos);
  J.col(1).setZero();  // one without any
  EXPECT_FALSE(fit_uncertainty(J, r).defined);
}

TEST(FitUncertainty, AsManyValuesAsParametersNeedsSigma) {
  Eigen::MatrixXd J(1, 1);
  J(0, 0) = 2.0;
  Eigen::VectorXd r(1);
  r(0) = 0.0;
  const FitUncertainty u = fit_uncertainty(J, r);
  EXPECT_FALSE(u.defined);
  EXPECT_NE(u.why.find("--sigma"), std::string::npos);
  const FitUncertainty g = fit_uncertainty(J, r, 0.3);
  ASSERT_TRUE(g.defined);
  EXPECT_NEAR(g.stddev[0], 0.15, 1e-15);  // sigma / |dr/dp|
}

TEST(FitVerdict, TheNoiseOfACurveIsItsScatterNotItsShapeOrItsKinks) {
  // a smooth pull curve with a drop, plus white noise of known sigma (a fixed LCG: deterministic)
  std::uint64_t state = 12345;
  auto gauss = [&] {  // Box-Muller on two uniforms
    auto uniform = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return (static_cast<double>(state >> 11) + 0.5) / 9007199254740992.0;
    };
    const double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.141592653589793 * u2);
  };
  std::vector<double> smooth, noisy;
  for (int i = 0; i < 2000; ++i) {
    const double t = i * 1e-3;
    const double y = t < 1.5 ? 20.0 * std::sin(t) : 0.0;  // a release: a drop of 20 N in one sample
    smooth.push_back(y);
    noisy.push_back(y + 0.1 * gauss());
  }
  EXPECT_LT(curve_noise(smooth), 1e-4) << "a smooth curve with one kink has no noise";
  EXPECT_NEAR(curve_noise(noisy), 0.1, 0.01) << "white noise of sigma 0.1";
  EXPECT_EQ(curve_noise({1.0, 2.0}), 0.0);
}

TEST(FitVerdict, AFitIsAnAnswerOnlyWhenItConvergedToTheNoise) {
  EXPECT_TRUE(judge_fit(true, "ok", 0.25, 0.1, 1e-9).trustworthy());
  const FitVerdict capped = judge_fit(false, "Maximum number of iterations reached.", 0.05, 0.1, 1e-9);
  EXPECT_FALSE(capped.trustworthy());
  EXPECT_NE(capped.why.find("did not converge (Maximum number of iterations"), std::string::npos) << capped.why;
  // the case: a self-made curve (no noise), an rms residual of 2.35 N left
  const FitVerdict misfit = judge_fit(true, "ok", 2.35, 1e-5, 3e-8);
  EXPECT_TRUE(misfit.misfit);
  EXPECT_FALSE(misfit.trustworthy());
  EXPECT_NE(misfit.why.find("far above what the measurements allow"), std::string::npos) << misfit.why;
  EXPECT_TRUE(judge_fit(true, "ok", 1e-9, 0.0, 3e-8).trustworthy()) << "an exact fit of noiseless data";
}

TEST(FitPlot, DrawsMeasuredPointsAndTheFittedLine) {
  FitSeries measured{"f", {0, 1, 2}, {0, 1, 4}}, fitted{"f", {0, 0.5, 1, 1.5, 2}, {0, 0.3, 1.1, 2.2, 3.9}};
  const std::string svg = fit_plot_svg(measured, fitted, "a <title>", "pull_force [N]");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("a &lt;title&gt;"), std::string::npos);
  size_t circles = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++circles;
  EXPECT_EQ(circles, 3u + 1u);  // the points and the legend's
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace suction
