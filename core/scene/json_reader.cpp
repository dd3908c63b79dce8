#include "scene/json_reader.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scene/expression.h"

namespace suction {

std::string pointer_child(const std::string& parent, const std::string& key) {
  std::string escaped;
  for (char c : key) {
    if (c == '~') escaped += "~0";
    else if (c == '/') escaped += "~1";
    else escaped += c;
  }
  return parent + "/" + escaped;
}

std::string pointer_child(const std::string& parent, size_t index) {
  return parent + "/" + std::to_string(index);
}

std::string format_number(double v) {
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}

std::string describe_json(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::string: return "string " + v.dump();
    case Json::value_t::array: return "an array of " + std::to_string(v.size());
    case Json::value_t::object: return "an object";
    default: return "number " + v.dump();
  }
}

std::string join_names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool Bounds::contains(double v) const {
  bool lo_ok = lo_open ? v > lo : v >= lo;
  bool hi_ok = hi_open ? v < hi : v <= hi;
  return lo_ok && hi_ok;
}

std::string Bounds::describe() const {
  bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
  if (has_lo && has_hi)
    return std::string("in ") + (lo_open ? "(" : "[") + format_number(lo) + ", " + format_number(hi) +
           (hi_open ? ")" : "]");
  if (has_lo) return (lo_open ? "> " : ">= ") + format_number(lo);
  if (has_hi) return (hi_open ? "< " : "<= ") + format_number(hi);
  return "any number";
}

// ---------------------------------------------------------------------------------------------
// JsonReader

void JsonReader::issue(const std::string& pointer, const std::string& message) {
  issues_.push_back({pointer, message});
}

std::optional<double> JsonReader::number(const Json& v, const std::string& ptr, Bounds b) {
  double x = 0;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string() && !v.get<std::string>().empty() && v.get<std::string>()[0] == '=') {
    // an expression "=..." evaluated with the parameters
    try {
      x = evaluate_expression(std::string_view(v.get<std::string>()).substr(1), parameters_);
    } catch (const ExpressionError& e) {
      issue(ptr, e.what());
      return std::nullopt;
    }
  } else {
    std::string hint = v.is_string() ? " (expressions start with '=')" : "";
    issue(ptr, "expected a number, got " + describe_json(v) + hint);
    return std::nullopt;
  }
  if (!b.contains(x)) {
    issue(ptr, "expected a value " + b.describe() + ", got " + format_number(x));
    return std::nullopt;
  }
  return x;
}

std::optional<int> JsonReader::integer(const Json& v, const std::string& ptr, Bounds b) {
  if (!v.is_number() && !v.is_string()) {
    issue(ptr, "expected an integer, got " + describe_json(v));
    return std::nullopt;
  }
  auto x = number(v, ptr, b);
  if (!x) return std::nullopt;
  if (std::fabs(*x - std::round(*x)) > 1e-9 || std::fabs(*x) > 2e9) {
    issue(ptr, "expected an integer, got " + format_number(*x));
    return std::nullopt;
  }
  return static_cast<int>(std::lround(*x));
}

std::optional<std::string> JsonReader::string(const Json& v, const std::string& ptr) {
  if (!v.is_string()) {
    issue(ptr, "expected a string, got " + describe_json(v));
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<bool> JsonReader::boolean(const Json& v, const std::string& ptr) {
  if (!v.is_boolean()) {
    issue(ptr, "expected true or false, got " + describe_json(v));
    return std::nullopt;
  }
  return v.get<bool>();
}

std::optional<std::vector<double>> JsonReader::numbers(const Json& v, const std::string& ptr, size_t n) {
  if (!v.is_array() || v.size() != n) {
    issue(ptr, "expected an array of " + std::to_string(n) + " numbers, got " + describe_json(v));
    return std::nullopt;
  }
  std::vector<double> out(n);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    auto x = number(v[i], pointer_child(ptr, i));
    if (x) out[i] = *x;
    else ok = false;
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<Vec3> JsonReader::vec3(const Json& v, const std::string& ptr) {
  auto xs = numbers(v, ptr, 3);
  if (!xs) return std::nullopt;
  return Vec3((*xs)[0], (*xs)[1], (*xs)[2]);
}

std::optional<std::string> JsonReader::choice(const Json& v, const std::string& ptr,
                                              const std::vector<std::string>& options) {
  if (v.is_string() && std::find(options.begin(), options.end(), v.get<std::string>()) != options.end())
    return v.get<std::string>();
  issue(ptr, "expected one of " + join_names(options) + ", got " +
                 (v.is_string() ? v.dump() : describe_json(v)));
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// ObjectView

/// edit distance, for "did you mean" hints on unknown keys
static size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

static bool is_comment_key(const std::string& key) { return key == "comment" || key == "$schema"; }

ObjectView::ObjectView(JsonReader& reader, const Json& value, std::string pointer,
                       std::vector<std::string> allowed_keys, const std::string& what)
    : r_(reader), pointer_(std::move(pointer)) {
  if (!value.is_object()) {
    r_.issue(pointer_, "expected " + (what.empty() ? std::string("an object") : what) + ", got " +
                           describe_json(value));
    return;
  }
  obj_ = &value;
  valid_ = true;
  // unknown keys are errors: they are usually typos
  for (const auto& item : value.items()) {
    const std::string& key = item.key();
    if (is_comment_key(key)) continue;
    if (std::find(allowed_keys.begin(), allowed_keys.end(), key) != allowed_keys.end()) continue;
    std::string hint;
    for (const auto& k : allowed_keys)
      if (edit_distance(key, k) <= std::max<size_t>(1, std::min<size_t>(2, k.size() / 3))) {
        hint = "did you mean '" + k + "'? ";
        break;
      }
    r_.issue(at(key), "unknown key; " + hint + "expected one of " + join_names(allowed_keys));
  }
}

bool ObjectView::has(const std::string& key) const { return find(key) != nullptr; }

const Json* ObjectView::find(const std::string& key) const {
  if (!obj_) return nullptr;
  auto it = obj_->find(key);
  return it == obj_->end() ? nullptr : &*it;
}

const Json* ObjectView::require(const std::string& key) {
  const Json* v = find(key);
  if (!v && valid_) r_.issue(at(key), "missing required key '" + key + "'");
  return v;
}

double ObjectView::number(const std::string& key, double fallback, Bounds b) {
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.number(*v, at(key), b).value_or(fallback);
}

std::optional<double> ObjectView::required_number(const std::string& key, Bounds b) {
  const Json* v = require(key);
  return v ? r_.number(*v, at(key), b) : std::nullopt;
}

std::optional<double> ObjectView::optional_number(const std::string& key, Bounds b) {
  const Json* v = find(key);
  return v ? r_.number(*v, at(key), b) : std::nullopt;
}

int ObjectView::integer(const std::string& key, int fallback, Bounds b) {
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.integer(*v, at(key), b).value_or(fallback);
}

bool ObjectView::boolean(const std::string& key, bool fallback) {
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.boolean(*v, at(key)).value_or(fallback);
}

std::string ObjectView::string(const std::string& key, const std::string& fallback) {
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.string(*v, at(key)).value_or(fallback);
}

std::optional<std::string> ObjectView::required_string(const std::string& key) {
  const Json* v = require(key);
  return v ? r_.string(*v, at(key)) : std::nullopt;
}

std::optional<std::string> ObjectView::optional_string(const std::string& key) {
  const Json* v = find(key);
  return v ? r_.string(*v, at(key)) : std::nullopt;
}

Vec3 ObjectView::vec3(const std::string& key, const Vec3& fallback) {
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.vec3(*v, at(key)).value_or(fallback);
}

std::optional<std::string> ObjectView::choice(const std::string& key,
                                              const std::vector<std::string>& options,
                                              std::optional<std::string> fallback) {
  const Json* v = fallback ? find(key) : require(key);
  if (!v) return fallback;
  return r_.choice(*v, at(key), options);
}

std::vector<std::pair<std::string, const Json*>> map_entries(JsonReader& reader, const Json& value,
                                                             const std::string& pointer,
                                                             const std::string& what) {
  std::vector<std::pair<std::string, const Json*>> out;
  if (!value.is_object()) {
    reader.issue(pointer, "expected " + what + ", got " + describe_json(value));
    return out;
  }
  for (const auto& item : value.items())
    if (!is_comment_key(item.key())) out.emplace_back(item.key(), &item.value());
  return out;
}

bool expect_array(JsonReader& reader, const Json& value, const std::string& pointer,
                  const std::string& what) {
  if (value.is_array()) return true;
  reader.issue(pointer, "expected " + what + ", got " + describe_json(value));
  return false;
}

}  // namespace suction
