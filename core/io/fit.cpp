// Identifying scene parameters: bounds, data, residuals, uncertainty, plot (fit.h).
#include "io/fit.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <Eigen/Dense>

#include "common/error.h"
#include "io/sweep.h"

namespace suction {

namespace {

/// a whole string as a finite number, or nothing
std::optional<double> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(begin, &end);
  if (end != begin + s.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}

std::string text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

/// about `count` round tick values covering [lo, hi]
std::vector<double> ticks(double lo, double hi, int count) {
  const double span = hi - lo;
  if (!(span > 0)) return {lo};
  const double raw = span / count, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  std::vector<double> out;
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) out.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);
  return out;
}

}  // namespace

FitParameter parse_fit_parameter(const std::string& spec) {
  const std::string usage = "--param '" + spec + "': expected POINTER=LO:HI or POINTER=LO:HI:START (e.g. "
                            "/materials/neoprene/young=0.5e6:2e6)";
  const size_t eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0) throw InputError(usage);
  FitParameter p;
  p.pointer = spec.substr(0, eq);
  if (p.pointer[0] != '/') throw InputError("--param '" + spec + "': the pointer must start with '/' (a JSON pointer into the scene)");
  std::vector<std::string> fields;
  const std::string rest = spec.substr(eq + 1);
  size_t start = 0;
  while (true) {
    const size_t colon = rest.find(':', start);
    fields.push_back(rest.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (fields.size() < 2 || fields.size() > 3) throw InputError(usage);
  const auto lo = number(fields[0]), hi = number(fields[1]);
  if (!lo || !hi) throw InputError(usage + ": the bounds must be finite numbers");
  if (!(*lo < *hi)) throw InputError("--param '" + spec + "': the lower bound must be below the upper one");
  p.lo = *lo;
  p.hi = *hi;
  if (fields.size() == 3) {
    const auto s = number(fields[2]);
    if (!s) throw InputError(usage + ": START must be a finite number");
    if (*s < p.lo || *s > p.hi) throw InputError("--param '" + spec + "': START lies outside [LO, HI]");
    p.start = *s;
  }
  return p;
}

FitTarget parse_fit_target(const std::string& spec) {
  const size_t eq = spec.rfind('=');
  const std::string usage = "--target '" + spec + "': expected METRIC=VALUE (a column of suction sweep's table, "
                            "e.g. pull_force_max=25.54)";
  if (eq == std::string::npos || eq == 0) throw InputError(usage);
  const auto v = number(spec.substr(eq + 1));
  if (!v) throw InputError(usage + ": VALUE must be a finite number");
  return {spec.substr(0, eq), *v};
}

FitSeries read_series_csv(const std::string& csv_text, const std::string& column, const std::string& name,
                          double t0, double t1) {
  const auto records = parse_csv_records(csv_text);
  if (records.empty()) throw InputError(name + ": empty (expected a CSV with the columns 't' and '" + column + "')");
  const std::vector<std::string>& header = records[0];
  int t_col = -1, y_col = -1;
  for (size_t j = 0; j < header.size(); ++j) {
    if (header[j] == "t") t_col = static_cast<int>(j);
    if (header[j] == column) y_col = static_cast<int>(j);
  }
  if (t_col < 0) throw InputError(name + ": no column 't' (the time in s) in its header");
  if (y_col < 0) {
    std::string names;
    for (const std::string& h : header) names += (names.empty() ? "" : ", ") + h;
    throw InputError(name + ": no column '" + column + "' in its header (" + names + ")");
  }
  FitSeries s;
  s.name = column;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& row = records[r];
    if (row.size() == 1 && row[0].empty()) continue;  // a blank line
    if (row.size() != header.size())
      throw InputError(name + ": row " + std::to_string(r) + " has " + std::to_string(row.size()) +
                       " fields, the header " + std::to_string(header.size()));
    if (row[static_cast<size_t>(y_col)].empty()) continue;
    const auto t = number(row[static_cast<size_t>(t_col)]), y = number(row[static_cast<size_t>(y_col)]);
    if (!t) throw InputError(name + ": row " + std::to_string(r) + ", column 't': expected a finite number, got '" +
                             row[static_cast<size_t>(t_col)] + "'");
    if (!y) throw InputError(name + ": row " + std::to_string(r) + ", column '" + column +
                             "': expected a finite number, got '" + row[static_cast<size_t>(y_col)] + "'");
    if (!s.t.empty() && !(*t > s.t.back()))
      throw InputError(name + ": row " + std::to_string(r) + ": t = " + row[static_cast<size_t>(t_col)] +
                       " does not increase (times must increase strictly)");
    if (*t < t0 || *t > t1) continue;
    s.t.push_back(*t);
    s.y.push_back(*y);
  }
  if (s.t.empty()) throw InputError(name + ": no rows with a value of '" + column + "'" + (t0 > -1e300 || t1 < 1e300 ? " in the time window" : ""));
  return s;
}

std::vector<double> interpolate_series(const FitSeries& s, const std::vector<double>& t, double slack) {
  std::vector<double> out;
  out.reserve(t.size());
  for (double x : t) {
    if (x < s.t.front() - slack || x > s.t.back() + slack)
      throw InputError("the data's time " + text(x) + " s lies outside the run's " + text(s.t.front()) + " to " +
                       text(s.t.back()) + " s (a longer --duration, or a --window)");
    const auto it = std::upper_bound(s.t.begin(), s.t.end(), x);
    if (it == s.t.begin()) {
      out.push_back(s.y.front());
    } else if (it == s.t.end()) {
      out.push_back(s.y.back());
    } else {
      const size_t i = static_cast<size_t>(it - s.t.begin());
      const double w = (x - s.t[i - 1]) / (s.t[i] - s.t[i - 1]);
      out.push_back((1 - w) * s.y[i - 1] + w * s.y[i]);
    }
  }
  return out;
}

FitUncertainty fit_uncertainty(const Eigen::MatrixXd& J, const Eigen::VectorXd& r, double sigma) {
  FitUncertainty u;
  const long m = J.rows(), n = J.cols();
  if (sigma > 0) {
    u.sigma = sigma;
  } else if (m > n) {
    u.sigma = std::sqrt(r.squaredNorm() / static_cast<double>(m - n));
  } else {
    u.why = "as many measured values as parameters (" + std::to_string(m) +
            "): the scatter cannot be estimated; give --sigma, the measurement's standard deviation";
    return u;
  }
  const Eigen::MatrixXd JtJ = J.transpose() * J;
  // identifiability in the parameters' own scale: the conditioning of J^T J with its columns
  // normalized (the correlation of the parameters' effects), not of J^T J in mixed units
  Eigen::VectorXd scale(n);
  for (long j = 0; j < n; ++j) scale(j) = JtJ(j, j) > 0 ? 1.0 / std::sqrt(JtJ(j, j)) : 0.0;
  if ((scale.array() == 0.0).any()) {
    u.why = "a parameter does not change the residuals (its column of the Jacobian is zero): it is not identifiable "
            "from these data";
    return u;
  }
  const Eigen::MatrixXd C = scale.asDiagonal() * JtJ * scale.asDiagonal();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(C);
  const double smax = svd.singularValues()(0), smin = svd.singularValues()(n - 1);
  if (!(smin > 1e-10 * smax)) {
    u.why = "the parameters are not identifiable from these data (two or more change the residuals alike: J^T J is "
            "singular)";
    return u;
  }
  u.covariance = u.sigma * u.sigma * JtJ.inverse();
  u.defined = true;
  for (long i = 0; i < n; ++i) u.stddev.push_back(std::sqrt(u.covariance(i, i)));
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j)
      u.correlation.push_back(u.covariance(i, j) / (u.stddev[static_cast<size_t>(i)] * u.stddev[static_cast<size_t>(j)]));
  return u;
}

double curve_noise(const std::vector<double>& y) {
  if (y.size() < 3) return 0.0;
  std::vector<double> d;
  d.reserve(y.size() - 2);
  for (size_t i = 1; i + 1 < y.size(); ++i) d.push_back(std::abs(y[i + 1] - 2.0 * y[i] + y[i - 1]));
  const size_t mid = d.size() / 2;
  std::nth_element(d.begin(), d.begin() + static_cast<long>(mid), d.end());
  double median = d[mid];
  if (d.size() % 2 == 0) median = 0.5 * (median + *std::max_element(d.begin(), d.begin() + static_cast<long>(mid)));
  return 1.4826 * median / std::sqrt(6.0);
}

FitVerdict judge_fit(bool converged, const std::string& solver_message, double rms, double noise, double floor) {
  FitVerdict v;
  v.converged = converged;
  v.misfit = rms > 3.0 * noise + floor;
  char buf[256];
  if (!converged)
    v.why = "the fit did not converge (" + solver_message + ")";
  if (v.misfit) {
    std::snprintf(buf, sizeof buf,
                  "its rms residual %.4g is far above what the measurements allow, %.4g (3 x their noise %.4g + %.4g)",
                  rms, 3.0 * noise + floor, noise, floor);
    v.why += (v.why.empty() ? "" : "; ") + std::string(buf);
  }
  return v;
}

std::string fit_plot_svg(const FitSeries& measured, const FitSeries& fitted, const std::string& title,
                         const std::string& y_label) {
  const double W = 720, H = 420, left = 70, right = 20, top = 40, bottom = 50;
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const FitSeries* s : {&measured, &fitted})
    for (size_t i = 0; i < s->t.size(); ++i) {
      x0 = std::min(x0, s->t[i]), x1 = std::max(x1, s->t[i]);
      y0 = std::min(y0, s->y[i]), y1 = std::max(y1, s->y[i]);
    }
  if (!(x1 > x0)) x0 -= 0.5, x1 += 0.5;
  if (!(y1 > y0)) y0 -= 0.5, y1 += 0.5;
  const double pad = 0.05 * (y1 - y0);
  y0 -= pad, y1 += pad;
  auto X = [&](double x) { return left + (x - x0) / (x1 - x0) * (W - left - right); };
  auto Y = [&](double y) { return H - bottom - (y - y0) / (y1 - y0) * (H - top - bottom); };
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + text(W) + "\" height=\"" + text(H) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + text(W / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" + xml_escape(title) + "</text>\n";
  for (double v : ticks(x0, x1, 8))
    svg += "<line x1=\"" + text(X(v)) + "\" y1=\"" + text(top) + "\" x2=\"" + text(X(v)) + "\" y2=\"" +
           text(H - bottom) + "\" stroke=\"#e4e4e4\"/><text x=\"" + text(X(v)) + "\" y=\"" + text(H - bottom + 16) +
           "\" text-anchor=\"middle\">" + text(v) + "</text>\n";
  for (double v : ticks(y0, y1, 6))
    svg += "<line x1=\"" + text(left) + "\" y1=\"" + text(Y(v)) + "\" x2=\"" + text(W - right) + "\" y2=\"" +
           text(Y(v)) + "\" stroke=\"#e4e4e4\"/><text x=\"" + text(left - 6) + "\" y=\"" + text(Y(v) + 4) +
           "\" text-anchor=\"end\">" + text(v) + "</text>\n";
  svg += "<rect x=\"" + text(left) + "\" y=\"" + text(top) + "\" width=\"" + text(W - left - right) + "\" height=\"" +
         text(H - top - bottom) + "\" fill=\"none\" stroke=\"black\"/>\n";
  svg += "<text x=\"" + text((left + W - right) / 2) + "\" y=\"" + text(H - 12) + "\" text-anchor=\"middle\">t [s]</text>\n";
  svg += "<text transform=\"translate(18," + text((top + H - bottom) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         xml_escape(y_label) + "</text>\n";
  // measured: points (at most ~400 drawn); fitted: a line
  const size_t every = std::max<size_t>(1, measured.t.size() / 400);
  for (size_t i = 0; i < measured.t.size(); i += every)
    svg += "<circle cx=\"" + text(X(measured.t[i])) + "\" cy=\"" + text(Y(measured.y[i])) + "\" r=\"2.2\" fill=\"#1f77b4\"/>\n";
  std::string points;
  for (size_t i = 0; i < fitted.t.size(); ++i) points += text(X(fitted.t[i])) + "," + text(Y(fitted.y[i])) + " ";
  svg += "<polyline fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.8\" points=\"" + points + "\"/>\n";
  svg += "<circle cx=\"" + text(left + 16) + "\" cy=\"" + text(top + 14) + "\" r=\"3\" fill=\"#1f77b4\"/><text x=\"" +
         text(left + 26) + "\" y=\"" + text(top + 18) + "\">measured</text>\n";
  svg += "<line x1=\"" + text(left + 8) + "\" y1=\"" + text(top + 32) + "\" x2=\"" + text(left + 22) + "\" y2=\"" +
         text(top + 32) + "\" stroke=\"#d62728\" stroke-width=\"2\"/><text x=\"" + text(left + 26) + "\" y=\"" +
         text(top + 36) + "\">fitted</text>\n</svg>\n";
  return svg;
}

}  // namespace suction
