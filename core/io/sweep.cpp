// Parameter sweeps: grid, run summary, result table (sweep.h).
#include "io/sweep.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>

#include "common/error.h"
#include "io/csv.h"

namespace suction {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// a CSV field as a number; InputError naming the table, the row and the column
double to_number(const std::string& s, const std::string& name, size_t row, const std::string& column) {
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(begin, &end);
  if (s.empty() || end != begin + s.size())
    throw InputError(name + ": row " + std::to_string(row) + ", column '" + column + "': expected a number, got '" +
                     s + "'");
  return x;
}

std::string metric_text(double x) { return std::isnan(x) ? "" : format_double(x); }

}  // namespace

void set_metrics(SweepRow& row, const RunSummary& summary) {
  row.metrics.clear();
  for (size_t i = 0; i < summary.names.size(); ++i) row.metrics.emplace_back(summary.names[i], metric_text(summary.values[i]));
}

SweepAxis parse_sweep_axis(const std::string& spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--grid '" + spec + "': expected POINTER=V1,V2,... (e.g. /parameters/R_mm=20,25,31.5)");
  SweepAxis axis;
  axis.pointer = spec.substr(0, eq);
  if (axis.pointer[0] != '/')
    throw InputError("--grid '" + spec + "': the pointer must start with '/' (a JSON pointer into the scene)");
  const std::string list = spec.substr(eq + 1);
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    const std::string v = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (v.empty()) throw InputError("--grid '" + spec + "': an empty value (values are separated by single commas)");
    axis.values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return axis;
}

std::vector<std::vector<std::string>> sweep_combinations(const std::vector<SweepAxis>& axes, size_t max_runs) {
  size_t total = 1;
  for (const SweepAxis& a : axes) {
    if (a.values.empty()) throw InputError("--grid " + a.pointer + ": no values");
    if (total > max_runs / a.values.size())
      throw InputError("the grid has more than " + std::to_string(max_runs) + " combinations");
    total *= a.values.size();
  }
  std::vector<std::vector<std::string>> out;
  out.reserve(total);
  std::vector<size_t> index(axes.size(), 0);
  for (size_t k = 0; k < total; ++k) {
    std::vector<std::string> combo;
    for (size_t i = 0; i < axes.size(); ++i) combo.push_back(axes[i].values[index[i]]);
    out.push_back(std::move(combo));
    for (size_t i = axes.size(); i-- > 0;) {  // the last axis varies fastest
      if (++index[i] < axes[i].values.size()) break;
      index[i] = 0;
    }
  }
  return out;
}

std::vector<std::vector<std::string>> parse_csv_records(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (any || !field.empty() || !record.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return records;
}

RunSummary summarize_run_csv(const std::string& csv_text, const std::string& name) {
  const auto records = parse_csv_records(csv_text);
  if (records.size() < 2) throw InputError(name + ": no rows (expected a header and at least one row)");
  const std::vector<std::string>& header = records[0];
  int t_col = -1, cav_col = -1;
  for (size_t j = 0; j < header.size(); ++j) {
    if (header[j] == "t") t_col = static_cast<int>(j);
    if (header[j] == "cavities") cav_col = static_cast<int>(j);
  }
  if (t_col < 0 || cav_col < 0) throw InputError(name + ": expected the columns 't' and 'cavities' (suction run --csv)");
  struct Column {
    std::string name;
    size_t index;
    double min = kNaN, t_min = kNaN, max = kNaN, t_max = kNaN, final = kNaN, first = kNaN;
  };
  std::vector<Column> columns;
  for (size_t j = 0; j < header.size(); ++j)
    if (header[j] != "step" && header[j] != "t") columns.push_back({header[j], j});
  double seal = kNaN, release = kNaN;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& row = records[r];
    if (row.size() != header.size())
      throw InputError(name + ": row " + std::to_string(r) + " has " + std::to_string(row.size()) + " fields, the header " +
                       std::to_string(header.size()));
    const double t = to_number(row[t_col], name, r, "t");
    for (Column& c : columns) {
      const double x = to_number(row[c.index], name, r, c.name);
      if (std::isnan(x)) continue;
      if (std::isnan(c.first)) c.first = x;
      if (std::isnan(c.min) || x < c.min) c.min = x, c.t_min = t;
      if (std::isnan(c.max) || x > c.max) c.max = x, c.t_max = t;
      c.final = x;
    }
    const double cavities = to_number(row[cav_col], name, r, "cavities");
    if (std::isnan(seal) && cavities > 0) seal = t;
    else if (!std::isnan(seal) && std::isnan(release) && cavities == 0) release = t;
  }
  RunSummary s;
  for (const Column& c : columns) {
    for (const char* suffix : {"_min", "_t_min", "_max", "_t_max", "_final", "_rise"}) s.names.push_back(c.name + suffix);
    s.values.insert(s.values.end(), {c.min, c.t_min, c.max, c.t_max, c.final, c.max - c.first});
  }
  s.names.insert(s.names.end(), {"seal_t", "release_t"});
  s.values.insert(s.values.end(), {seal, release});
  return s;
}

RunSummary summarize_run_log(const std::string& log) {
  double warnings = 0, inside = 0, inside_t = kNaN, failures = 0, repairs = 0;
  size_t begin = 0;
  while (begin < log.size()) {
    size_t end = log.find('\n', begin);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(begin, end - begin);
    begin = end + 1;
    if (line.rfind("warning: ", 0) == 0) {
      ++warnings;
      const bool through = line.find("' is inside '") != std::string::npos ||
                           line.find("' are inside '") != std::string::npos ||
                           line.find("' went to the far side of '") != std::string::npos;
      if (!through) continue;
      ++inside;
      // "warning: step N (t = X s): ..."
      const size_t at = line.find("(t = ");
      if (std::isnan(inside_t) && at != std::string::npos) {
        char* stop = nullptr;
        const double t = std::strtod(line.c_str() + at + 5, &stop);
        if (stop != line.c_str() + at + 5) inside_t = t;
      }
    } else if (line.rfind("unions ", 0) == 0) {
      const double n = std::strtod(line.c_str() + 6, nullptr);
      if (line.find("mesh unions failed") != std::string::npos) failures = n;
      else if (line.find("crossed themselves") != std::string::npos) repairs = n;
    }
  }
  RunSummary s;
  s.names = {"warnings", "interpenetrations", "interpenetration_t", "union_failures", "surface_repairs"};
  s.values = {warnings, inside, inside_t, failures, repairs};
  return s;
}

std::string format_sweep_table(const std::vector<SweepAxis>& axes, const std::vector<SweepRow>& rows) {
  // metric columns: the union, in the order of first appearance
  std::vector<std::string> metrics;
  std::map<std::string, size_t> column;
  for (const SweepRow& r : rows)
    for (const auto& [name, value] : r.metrics)
      if (column.emplace(name, metrics.size()).second) metrics.push_back(name);
  std::string out;
  for (const SweepAxis& a : axes) out += csv_field(a.pointer) + ",";
  out += "status,exit_code,error";
  for (const std::string& m : metrics) {
    out += ',';  // (not "," + field: gcc 12's -Wrestrict misfires on it)
    out += csv_field(m);
  }
  out += "\n";
  for (const SweepRow& r : rows) {
    for (const std::string& v : r.grid) out += csv_field(v) + ",";
    out += r.status;
    out += ',';
    out += std::to_string(r.exit_code);
    out += ',';
    out += csv_field(r.error);
    std::vector<std::string> fields(metrics.size());
    for (const auto& [name, value] : r.metrics) fields[column.at(name)] = value;
    for (const std::string& f : fields) {
      out += ',';
      out += csv_field(f);
    }
    out += "\n";
  }
  return out;
}

std::vector<SweepRow> parse_sweep_table(const std::string& csv_text, const std::vector<SweepAxis>& axes,
                                        const std::string& name) {
  const auto records = parse_csv_records(csv_text);
  if (records.empty()) return {};
  const std::vector<std::string>& header = records[0];
  const size_t k = axes.size();
  bool same = header.size() >= k + 3;
  for (size_t i = 0; same && i < k; ++i) same = header[i] == axes[i].pointer;
  same = same && header[k] == "status" && header[k + 1] == "exit_code" && header[k + 2] == "error";
  if (!same) {
    std::string expected;
    for (const SweepAxis& a : axes) expected += a.pointer + ",";
    throw InputError(name + ": not this sweep's table (its first columns should be " + expected +
                     "status,exit_code,error); give another --out or remove the file");
  }
  std::vector<SweepRow> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& f = records[r];
    if (f.size() == 1 && f[0].empty()) continue;  // a blank line
    if (f.size() != header.size())
      throw InputError(name + ": row " + std::to_string(r) + " has " + std::to_string(f.size()) + " fields, the header " +
                       std::to_string(header.size()));
    SweepRow row;
    row.grid.assign(f.begin(), f.begin() + static_cast<long>(k));
    row.status = f[k];
    row.exit_code = static_cast<int>(to_number(f[k + 1], name, r, "exit_code"));
    row.error = f[k + 2];
    for (size_t j = k + 3; j < header.size(); ++j)
      if (!f[j].empty() || row.status == "ok") row.metrics.emplace_back(header[j], f[j]);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace suction
