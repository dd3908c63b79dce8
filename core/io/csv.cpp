#include "io/csv.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <stdexcept>

namespace suction {

std::string format_double(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  // shortest %.Ng that reads back to the same double (std::to_chars for doubles is missing
  // from Emscripten 3.1.6's libc++; this gives identical text natively and in wasm)
  char buffer[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, x);
    if (std::strtod(buffer, nullptr) == x) break;
  }
  return std::string(buffer);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';  // a quote is doubled inside a quoted field
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

namespace {
/// whether a run's CSV has the temperature columns: only with a gas law other than isothermal,
/// so that every isothermal CSV keeps its columns (docs/method.md §6.8)
bool has_temperatures(const Model& model) { return !model.settings.cavity.gas.isothermal(); }
}  // namespace

std::vector<std::string> csv_columns(const Model& model) {
  std::vector<std::string> columns = {"step", "t", "contacts", "cavities", "pressure_min", "volume_total",
                                      "air_total", "holding_force", "pgs_iterations", "pgs_residual"};
  if (has_temperatures(model)) {
    columns.push_back("temperature_min");
    columns.push_back("temperature_max");
  }
  for (const Probe& probe : model.probes) columns.push_back(probe.name);
  return columns;
}

CsvRecorder::CsvRecorder(std::ostream& out, const Model& model) : out_(out) {
  columns_ = csv_columns(model);
  temperatures_ = has_temperatures(model);
  probes_ = model.probes.size();
  // header row
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i) out_ << ',';
    out_ << csv_field(columns_[i]);
  }
  out_ << '\n';
}

void CsvRecorder::record(const Simulation& sim) {
  const State& state = sim.state();
  // the initial state has no step behind it: no contacts yet
  CsvStep s;
  s.step = state.step;
  s.time = state.time;
  if (state.step > 0) {
    s.contacts = sim.profile().contacts;
    s.solver_iterations = sim.profile().solver_iterations;
    s.solver_residual = sim.profile().solver_residual;
  }
  record_row(s, sim.cavity_summary(), sim.probe_values());
}

void CsvRecorder::record_row(const CsvStep& s, const CavitySummary& cavities,
                             const std::vector<double>& probes) {
  if (probes.size() != probes_)
    throw std::logic_error("CsvRecorder: " + std::to_string(probes.size()) +
                           " probe values for " + std::to_string(probes_) + " probe columns");
  std::string row;
  row.reserve(32 * columns_.size());
  row += std::to_string(s.step);
  row += ',';
  row += format_double(s.time);
  row += ',';
  row += std::to_string(s.contacts);
  row += ',';
  row += std::to_string(cavities.count);
  row += ',';
  row += format_double(cavities.pressure_min);
  row += ',';
  row += format_double(cavities.volume_total);
  row += ',';
  row += format_double(cavities.air_total);
  row += ',';
  row += format_double(cavities.holding_force);
  row += ',';
  row += std::to_string(s.solver_iterations);
  row += ',';
  row += format_double(s.solver_residual);
  if (temperatures_) {
    row += ',';
    row += format_double(cavities.temperature_min);
    row += ',';
    row += format_double(cavities.temperature_max);
  }
  for (double value : probes) {
    row += ',';
    row += format_double(value);
  }
  row += '\n';
  out_ << row;
  ++rows_;
}

}  // namespace suction
