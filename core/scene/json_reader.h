// Typed access to a scene's JSON with JSON pointers: every read either returns a value or
// records a SceneIssue naming the pointer of the bad field and what was expected.  Issues are
// collected (the reader never throws for bad input), so a scene reports all its problems at once.
#pragma once
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/types.h"

namespace suction {

/// Objects keep their file order (parameters may use earlier parameters; issues come in order).
using Json = nlohmann::ordered_json;

/// JSON pointer of a child: escapes '~' and '/' in keys (RFC 6901).
std::string pointer_child(const std::string& parent, const std::string& key);
std::string pointer_child(const std::string& parent, size_t index);

/// A short description of a JSON value for messages: `string "abc"`, `an array of 2`, `true` ...
std::string describe_json(const Json& value);
/// a number as error messages show it (12 significant digits)
std::string format_number(double v);

/// "a, b, c"
std::string join_names(const std::vector<std::string>& names);

/// An allowed range of a number, for messages like "expected a value > 0, got -1".
struct Bounds {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;
  static Bounds any() { return {}; }
  static Bounds positive() { return {0.0, std::numeric_limits<double>::infinity(), true, false}; }
  static Bounds non_negative() { return {0.0, std::numeric_limits<double>::infinity(), false, false}; }
  static Bounds at_least(double lo) { return {lo, std::numeric_limits<double>::infinity(), false, false}; }
  static Bounds open(double lo, double hi) { return {lo, hi, true, true}; }
  bool contains(double v) const;
  std::string describe() const;  // "> 0", "in (-1, 0.5)", ">= 1"
};

/// Collects issues and converts JSON values, evaluating "=expr" strings with the parameters.
class JsonReader {
 public:
  void issue(const std::string& pointer, const std::string& message);
  const std::vector<SceneIssue>& issues() const { return issues_; }
  size_t issue_count() const { return issues_.size(); }

  std::map<std::string, double>& parameters() { return parameters_; }

  /// a number, or an expression string "=..." [unit of the field]
  std::optional<double> number(const Json& v, const std::string& ptr, Bounds b = {});
  /// an integer (a number or an expression with an integral value)
  std::optional<int> integer(const Json& v, const std::string& ptr, Bounds b = {});
  std::optional<std::string> string(const Json& v, const std::string& ptr);
  std::optional<bool> boolean(const Json& v, const std::string& ptr);
  /// an array of exactly 3 numbers
  std::optional<Vec3> vec3(const Json& v, const std::string& ptr);
  /// an array of exactly n numbers
  std::optional<std::vector<double>> numbers(const Json& v, const std::string& ptr, size_t n);
  /// one of the given strings
  std::optional<std::string> choice(const Json& v, const std::string& ptr,
                                    const std::vector<std::string>& options);

 private:
  std::vector<SceneIssue> issues_;
  std::map<std::string, double> parameters_;
};

/// A JSON object whose keys are checked against the allowed ones ("comment" and "$schema" are
/// always allowed); typed getters return the default when a key is absent and record an issue
/// (then return the default / nullopt) when it is present but bad.
class ObjectView {
 public:
  ObjectView(JsonReader& reader, const Json& value, std::string pointer,
             std::vector<std::string> allowed_keys, const std::string& what = "");
  /// false when the value was not an object (an issue has been recorded)
  bool valid() const { return valid_; }
  const std::string& pointer() const { return pointer_; }
  std::string at(const std::string& key) const { return pointer_child(pointer_, key); }
  bool has(const std::string& key) const;
  const Json* find(const std::string& key) const;
  /// records "missing required key" when absent; returns the value otherwise
  const Json* require(const std::string& key);

  double number(const std::string& key, double fallback, Bounds b = {});
  std::optional<double> required_number(const std::string& key, Bounds b = {});
  std::optional<double> optional_number(const std::string& key, Bounds b = {});
  int integer(const std::string& key, int fallback, Bounds b = {});
  bool boolean(const std::string& key, bool fallback);
  std::string string(const std::string& key, const std::string& fallback);
  std::optional<std::string> required_string(const std::string& key);
  std::optional<std::string> optional_string(const std::string& key);
  Vec3 vec3(const std::string& key, const Vec3& fallback);
  std::optional<std::string> choice(const std::string& key, const std::vector<std::string>& options,
                                    std::optional<std::string> fallback = std::nullopt);

 private:
  JsonReader& r_;
  const Json* obj_ = nullptr;
  std::string pointer_;
  bool valid_ = false;
};

/// Checks that `value` is an object used as a name -> entry map (comment keys skipped) and
/// returns its entries in file order; records an issue otherwise.
std::vector<std::pair<std::string, const Json*>> map_entries(JsonReader& reader, const Json& value,
                                                             const std::string& pointer,
                                                             const std::string& what);
/// Checks that `value` is an array; records an issue otherwise.
bool expect_array(JsonReader& reader, const Json& value, const std::string& pointer,
                  const std::string& what);

}  // namespace suction
