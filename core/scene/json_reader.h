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

/// JSON nested deeper than this (objects and arrays) is rejected: scenes are a few levels deep,
/// and deeper documents only exhaust the stack of whatever walks them.
constexpr int kMaxJsonDepth = 100;

/// Parses JSON text strictly: nesting deeper than max_depth, a key twice in one object and a
/// number beyond the range of a double are errors, like a syntax error.  On failure returns
/// nullopt and sets *error to the JSON pointer of the place (the value being read) and a message
/// ("invalid JSON: parse error at line 3, column 5: ..." for syntax errors, and only for them;
/// "duplicate key ...", "nested deeper than ...", "the number ... is out of range ...").
std::optional<Json> parse_json_strict(const std::string& text, SceneIssue* error,
                                      int max_depth = kMaxJsonDepth);

/// JSON pointer of a child: escapes '~' and '/' in keys (RFC 6901).
std::string pointer_child(const std::string& parent, const std::string& key);
std::string pointer_child(const std::string& parent, size_t index);

/// A short description of a JSON value for messages: `string "abc"`, `an array of 2`, `true` ...
std::string describe_json(const Json& value);
/// a number as error messages show it (12 significant digits)
std::string format_number(double v);

/// The byte offset of the first byte of `text` that is not part of well-formed UTF-8 (overlong
/// forms, surrogates and code points above U+10FFFF are ill-formed), or nullopt.
std::optional<size_t> first_invalid_utf8(const std::string& text);

/// "a, b, c"
std::string join_names(const std::vector<std::string>& names);

/// the edit (Levenshtein) distance of two strings, for "did you mean" hints
size_t edit_distance(const std::string& a, const std::string& b);

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

/// What the readers of one thread visited while a ScopedReadTrace lives: every object with the
/// keys it accepts, and every typed read with its kind, bounds, options and the default it
/// falls back to.  Only the schema test uses it (tests/scene/test_schema.cpp): it checks the
/// scene schema (scenes/schema/scene.schema.json) against what the reader really does, so the
/// two cannot drift apart.  Costs one pointer test per read when no trace is installed.
struct ReadTrace {
  struct Object {
    std::string pointer;
    std::vector<std::string> keys;  ///< the keys accepted ("comment" and "$schema" besides)
  };
  struct Field {
    std::string pointer;
    /// "number", "integer", "string", "boolean", "vec3", "numbers:N" or "choice"
    std::string kind;
    std::optional<Json> fallback;  ///< the value used when the key is absent, if any
    Bounds bounds;
    std::vector<std::string> options;  ///< for "choice"
  };
  std::vector<Object> objects;
  std::vector<Field> fields;
};

/// Installs `trace` for the JsonReaders created on this thread while it lives (not nestable).
class ScopedReadTrace {
 public:
  explicit ScopedReadTrace(ReadTrace& trace);
  ~ScopedReadTrace();
  ScopedReadTrace(const ScopedReadTrace&) = delete;
  ScopedReadTrace& operator=(const ScopedReadTrace&) = delete;
};

/// Collects issues and converts JSON values, evaluating "=expr" strings with the parameters.
class JsonReader {
 public:
  JsonReader();
  /// the trace installed when this reader was made, or nullptr
  ReadTrace* trace() const { return trace_; }
  void record(std::string pointer, std::string kind, std::optional<Json> fallback = std::nullopt,
              Bounds b = {}, std::vector<std::string> options = {});

  /// At most kMaxIssues are kept (a hostile scene can have millions); all are counted.
  static constexpr size_t kMaxIssues = 100;
  void issue(const std::string& pointer, const std::string& message);
  /// the kept issues
  const std::vector<SceneIssue>& issues() const { return issues_; }
  /// every issue recorded, kept or not
  size_t issue_count() const { return count_; }
  /// the kept issues, plus one saying how many more there were
  std::vector<SceneIssue> reported_issues() const;

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
  size_t count_ = 0;
  ReadTrace* trace_ = nullptr;
  bool in_compound_ = false;  ///< inside numbers(): its elements are not recorded one by one
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
  /// a direction: `fallback` when absent; otherwise the vector scaled to unit length, or nullopt
  /// with an issue when its length is zero or beyond the range of a double (the length is
  /// computed without overflow, so [1e300, 0, 1e300] is a fine direction)
  std::optional<Vec3> direction(const std::string& key, const Vec3& fallback, const std::string& what);
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
