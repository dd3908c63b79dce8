// The quality check's comparison (io/quality_check.h).
#include "io/quality_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.h"

namespace suction {

std::vector<std::string> default_story_numbers() { return {"pressure_min_min", "seal_t", "release_t"}; }

bool is_time_number(const std::string& name) {
  auto ends_with = [&](const char* s) {
    const std::string suffix(s);
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return name == "seal_t" || name == "release_t" || ends_with("_t_min") || ends_with("_t_max");
}

namespace {
double value_of(const RunSummary& s, const std::string& name, bool& found) {
  for (size_t i = 0; i < s.names.size(); ++i)
    if (s.names[i] == name) {
      found = true;
      return s.values[i];
    }
  found = false;
  return std::numeric_limits<double>::quiet_NaN();
}
}  // namespace

void check_floors(const std::vector<std::string>& names, const QualityLimits& limits) {
  for (const auto& [name, value] : limits.floor) {
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw InputError("floor of '" + name + "': not one of the compared story numbers");
    if (is_time_number(name)) throw InputError("floor of '" + name + "': a time has its own limit (two interactive steps)");
    if (!std::isfinite(value)) throw InputError("floor of '" + name + "': expected a finite number");
  }
}

std::vector<QualityRow> compare_story_numbers(const RunSummary& reference, const RunSummary& interactive,
                                              const std::vector<std::string>& names, const QualityLimits& limits) {
  check_floors(names, limits);
  std::vector<QualityRow> rows;
  for (const std::string& name : names) {
    QualityRow row;
    row.name = name;
    bool in_ref = false, in_int = false;
    row.reference = value_of(reference, name, in_ref);
    row.interactive = value_of(interactive, name, in_int);
    if (!in_ref || !in_int) {
      std::string known;
      for (const std::string& n : reference.names) known += (known.empty() ? "" : ", ") + n;
      throw InputError("story number '" + name + "': not in the run's summary; the summary has " + known);
    }
    row.relative = !is_time_number(name);
    row.limit = std::isnan(row.reference) ? 0.0 : limits.relative * std::abs(row.reference);
    if (!row.relative) row.limit = std::max(row.limit, limits.time_steps * limits.interactive_dt);
    if (const auto f = limits.floor.find(name); f != limits.floor.end()) {
      row.floor = std::abs(f->second);
      row.floored = !std::isnan(row.reference) && row.floor > std::abs(row.reference);
      if (row.floored) row.limit = limits.relative * row.floor;
    }
    const bool ref_nan = std::isnan(row.reference), int_nan = std::isnan(row.interactive);
    row.error = row.interactive - row.reference;
    if (ref_nan || int_nan) row.ok = ref_nan && int_nan;
    else if (row.relative && row.reference == 0.0 && !row.floored) row.ok = row.interactive == 0.0;
    else row.ok = std::abs(row.error) <= row.limit * (1 + 1e-12);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace suction
