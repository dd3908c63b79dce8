// Identifying scene parameters from measurements (`suction fit`, docs/cli.md): the pieces that
// are text and numbers — the parameters' bounds, the measured data, the residuals a run gives,
// the parameters' uncertainty from the Jacobian, the plot.  The least squares solver (Ceres)
// and the runs are the native CLI's.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace suction {

/// "POINTER=LO:HI[:START]": a scene value to identify within [LO, HI] (START: where the fit
/// starts; default the scene's own value).  InputError when malformed, LO >= HI, a bound is
/// not finite or START lies outside the bounds.
struct FitParameter {
  std::string pointer;
  double lo = 0, hi = 0;
  std::optional<double> start;
};
FitParameter parse_fit_parameter(const std::string& spec);

/// "METRIC=VALUE": a summary value of a run to match (a column of `suction sweep`'s table, e.g.
/// pull_force_max=25.54).  InputError when malformed or VALUE is not a finite number.
struct FitTarget {
  std::string metric;
  double value = 0;
};
FitTarget parse_fit_target(const std::string& spec);

/// A time series: the times and one column's values.
struct FitSeries {
  std::string name;
  std::vector<double> t, y;
};

/// The column `column` of a CSV with a column `t` (measured data, or a run's --csv): rows whose
/// `column` field is empty are skipped; times must increase strictly.  Only rows with
/// t0 <= t <= t1 are kept.  InputError naming `name_for_errors`, the row and the column for a
/// missing column, a field that is not a finite number, times that do not increase, or no row
/// left.
FitSeries read_series_csv(const std::string& csv_text, const std::string& column, const std::string& name_for_errors,
                          double t0 = -1e300, double t1 = 1e300);

/// the series linearly interpolated at the times `t`; a time outside the series' span by more
/// than `slack` is an InputError (the data are longer than the run), within it the end value
std::vector<double> interpolate_series(const FitSeries& series, const std::vector<double>& t, double slack);

/// The uncertainty of least squares parameters at the solution: the covariance
/// sigma^2 (J^T J)^-1 with J the residuals' Jacobian in the parameters' own units and sigma the
/// measurement's standard deviation: `sigma` when given (> 0), else estimated from the
/// residuals, sigma^2 = |r|^2 / (m - n), which needs more residuals than parameters.
struct FitUncertainty {
  bool defined = false;
  std::string why;                 // why not, when not defined
  double sigma = 0;                // the sigma used
  Eigen::MatrixXd covariance;      // n x n
  std::vector<double> stddev;      // sqrt of its diagonal
  std::vector<double> correlation; // n x n, row-major
};
FitUncertainty fit_uncertainty(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& residuals,
                               double sigma = 0);

/// The noise of a sampled curve, from its data alone: 1.4826 × the median of the absolute second
/// differences |y[i+1] − 2 y[i] + y[i−1]|, over √6 (the standard deviation of white noise whose
/// second differences these are; Gasser, Sroka & Jennen-Steinmetz 1986, with the median of
/// Hampel's robust scale, so that the few kinks of a smooth curve, a detachment's drop, do not
/// count).  0 for fewer than 3 values.  Assumes roughly even sampling, like a run's CSV.
double curve_noise(const std::vector<double>& y);

/// Whether a least-squares fit can be believed (`suction fit`): it must have converged (not
/// stopped at its iteration cap or by a failure) and its rms residual must not lie far above the
/// measurements' noise: rms ≤ 3 × noise + floor (floor: what counts as zero, e.g. 1e-9 of the
/// data's scale).  `why` says what is wrong, empty when it can be believed.
struct FitVerdict {
  bool converged = false;
  bool misfit = false;
  std::string why;
  bool trustworthy() const { return converged && !misfit; }
};
FitVerdict judge_fit(bool converged, const std::string& solver_message, double rms, double noise, double floor);

/// A plot of measured against fitted (an SVG document): measured as points, fitted as a line,
/// axes with ticks, the title and the y axis' label.
std::string fit_plot_svg(const FitSeries& measured, const FitSeries& fitted, const std::string& title,
                         const std::string& y_label);

}  // namespace suction
