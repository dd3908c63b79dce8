#include "scene/json_reader.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>

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

// ---------------------------------------------------------------------------------------------
// Strict parsing: nlohmann's SAX interface, building the document ourselves so that the depth,
// duplicate keys and number overflow are checked where they occur, with the pointer known.

namespace {

class StrictBuilder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit StrictBuilder(int max_depth) : max_depth_(max_depth) {}

  Json root;
  SceneIssue error;

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(number_unsigned_t v) { return put(Json(v)); }
  bool number_float(number_float_t v, const string_t&) { return put(Json(v)); }
  bool string(string_t& v) { return put(Json(std::move(v))); }
  bool binary(binary_t&) { return fail(value_pointer(), "binary values are not JSON"); }

  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& k) {
    Frame& f = frames_.back();
    if (!f.keys.insert(k).second) {
      const Json& object = *f.value;
      size_t first = 0;
      for (auto it = object.begin(); it != object.end() && it.key() != k; ++it) ++first;
      return fail(pointer_child(f.pointer, k),
                  "duplicate key \"" + k + "\": members " + std::to_string(first + 1) + " and " +
                      std::to_string(object.size() + 1) + " of " +
                      (f.pointer.empty() ? std::string("the top-level object") : "the object at '" + f.pointer + "'") +
                      " have it (JSON would keep only one of them)");
    }
    f.key = std::move(k);
    return true;
  }

  template <class Exception>
  bool parse_error(std::size_t, const std::string& token, const Exception& ex) {
    if (ex.id == 406)  // out_of_range.406: the number does not fit a double
      return fail(value_pointer(), "the number " + token.substr(0, 40) +
                                       " is out of range (a double ends near ±1.8e308)");
    std::string what = ex.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..." -> without the tag
    const size_t tag = what.find("] ");
    if (tag != std::string::npos) what = what.substr(tag + 2);
    return fail(value_pointer(), "invalid JSON: " + what);
  }

  bool failed() const { return failed_; }

 private:
  struct Frame {
    Json* value;          // the open object or array
    std::string pointer;  // its JSON pointer
    std::string key;      // objects: the key of the member being read
    std::unordered_set<std::string> keys;  // objects: the keys read so far
  };

  /// the pointer of the value about to be read
  std::string value_pointer() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    return f.value->is_array() ? pointer_child(f.pointer, f.value->size()) : pointer_child(f.pointer, f.key);
  }

  bool put(Json v) {
    insert(std::move(v));
    return true;
  }
  Json* insert(Json v) {
    if (frames_.empty()) {
      root = std::move(v);
      return &root;
    }
    Json& parent = *frames_.back().value;
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    // appended without ordered_map's linear search (key() has ruled out a duplicate)
    auto& members = parent.get_ref<Json::object_t&>();
    members.emplace_back(frames_.back().key, std::move(v));
    return &members.back().second;
  }

  bool open(Json container) {
    if (static_cast<int>(frames_.size()) >= max_depth_)
      return fail(value_pointer(), "nested deeper than " + std::to_string(max_depth_) +
                                       " levels (the limit for JSON in scenes)");
    std::string ptr = value_pointer();
    // the parent never grows while this child is open, so the pointer stays valid
    Json* slot = insert(std::move(container));
    frames_.push_back({slot, std::move(ptr), {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  bool fail(std::string pointer, std::string message) {
    if (!failed_) error = {std::move(pointer), std::move(message)};
    failed_ = true;
    return false;
  }

  int max_depth_;
  std::vector<Frame> frames_;
  bool failed_ = false;
};

}  // namespace

std::optional<Json> parse_json_strict(const std::string& text, SceneIssue* error, int max_depth) {
  StrictBuilder builder(max_depth);
  const bool ok = Json::sax_parse(text, &builder);
  if (!ok || builder.failed()) {
    if (error) *error = builder.failed() ? builder.error : SceneIssue{"", "invalid JSON"};
    return std::nullopt;
  }
  return std::move(builder.root);
}

std::string format_number(double v) {
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}

std::optional<size_t> first_invalid_utf8(const std::string& text) {
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned c = b[i];
    if (c < 0x80) { ++i; continue; }
    size_t len = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte (RFC 3629, table 3-7)
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return i;
    if (i + len > n) return i;
    if (b[i + 1] < lo || b[i + 1] > hi) return i;
    for (size_t k = 2; k < len; ++k)
      if ((b[i + k] & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::nullopt;
}

/// a string as JSON writes it; never throws: ill-formed UTF-8 (which the strict parser does not
/// let through, but a value built in code might hold) is shown as U+FFFD
static std::string json_dump(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }

/// a JSON string as messages quote it: the first 60 characters of a long one, then "..."
static std::string quoted_json_string(const Json& v) {
  constexpr size_t kShown = 60;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() <= kShown) return json_dump(v);
  size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return json_dump(Json(s.substr(0, cut))) + "... (" + std::to_string(s.size()) + " characters)";
}

std::string describe_json(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::string: return "string " + quoted_json_string(v);
    case Json::value_t::array: return "an array of " + std::to_string(v.size());
    case Json::value_t::object: return "an object";
    default: return "number " + json_dump(v);
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

namespace {
thread_local ReadTrace* t_trace = nullptr;
}

ScopedReadTrace::ScopedReadTrace(ReadTrace& trace) { t_trace = &trace; }
ScopedReadTrace::~ScopedReadTrace() { t_trace = nullptr; }

JsonReader::JsonReader() : trace_(t_trace) {}

void JsonReader::record(std::string pointer, std::string kind, std::optional<Json> fallback, Bounds b,
                        std::vector<std::string> options) {
  if (!trace_ || in_compound_) return;
  trace_->fields.push_back({std::move(pointer), std::move(kind), std::move(fallback), b, std::move(options)});
}

void JsonReader::issue(const std::string& pointer, const std::string& message) {
  ++count_;
  if (issues_.size() < kMaxIssues) issues_.push_back({pointer, message});
}

std::vector<SceneIssue> JsonReader::reported_issues() const {
  std::vector<SceneIssue> out = issues_;
  if (count_ > issues_.size())
    out.push_back({"", "... and " + std::to_string(count_ - issues_.size()) + " more issues (the first " +
                           std::to_string(kMaxIssues) + " are shown)"});
  return out;
}

std::optional<double> JsonReader::number(const Json& v, const std::string& ptr, Bounds b) {
  if (trace_) record(ptr, "number", std::nullopt, b);
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
  if (trace_) record(ptr, "integer", std::nullopt, b);
  if (!v.is_number() && !v.is_string()) {
    issue(ptr, "expected an integer, got " + describe_json(v));
    return std::nullopt;
  }
  const bool outer = in_compound_;
  in_compound_ = true;
  auto x = number(v, ptr, b);
  in_compound_ = outer;
  if (!x) return std::nullopt;
  if (std::fabs(*x - std::round(*x)) > 1e-9 || std::fabs(*x) > 2e9) {
    issue(ptr, "expected an integer, got " + format_number(*x));
    return std::nullopt;
  }
  return static_cast<int>(std::lround(*x));
}

std::optional<std::string> JsonReader::string(const Json& v, const std::string& ptr) {
  if (trace_) record(ptr, "string");
  if (!v.is_string()) {
    issue(ptr, "expected a string, got " + describe_json(v));
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<bool> JsonReader::boolean(const Json& v, const std::string& ptr) {
  if (trace_) record(ptr, "boolean");
  if (!v.is_boolean()) {
    issue(ptr, "expected true or false, got " + describe_json(v));
    return std::nullopt;
  }
  return v.get<bool>();
}

std::optional<std::vector<double>> JsonReader::numbers(const Json& v, const std::string& ptr, size_t n) {
  if (trace_) record(ptr, n == 3 ? "vec3" : "numbers:" + std::to_string(n));
  if (!v.is_array() || v.size() != n) {
    issue(ptr, "expected an array of " + std::to_string(n) + " numbers, got " + describe_json(v));
    return std::nullopt;
  }
  std::vector<double> out(n);
  bool ok = true;
  const bool outer = in_compound_;
  in_compound_ = true;
  for (size_t i = 0; i < n; ++i) {
    auto x = number(v[i], pointer_child(ptr, i));
    if (x) out[i] = *x;
    else ok = false;
  }
  in_compound_ = outer;
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
  if (trace_) record(ptr, "choice", std::nullopt, {}, options);
  if (v.is_string() && std::find(options.begin(), options.end(), v.get<std::string>()) != options.end())
    return v.get<std::string>();
  issue(ptr, "expected one of " + join_names(options) + ", got " +
                 (v.is_string() ? quoted_json_string(v) : describe_json(v)));
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// ObjectView

size_t edit_distance(const std::string& a, const std::string& b) {
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
  if (ReadTrace* t = r_.trace()) t->objects.push_back({pointer_, allowed_keys});
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
  if (valid_ && r_.trace()) r_.record(at(key), "number", Json(fallback), b);
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
  if (valid_ && r_.trace()) r_.record(at(key), "integer", Json(fallback), b);
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.integer(*v, at(key), b).value_or(fallback);
}

bool ObjectView::boolean(const std::string& key, bool fallback) {
  if (valid_ && r_.trace()) r_.record(at(key), "boolean", Json(fallback));
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.boolean(*v, at(key)).value_or(fallback);
}

std::string ObjectView::string(const std::string& key, const std::string& fallback) {
  if (valid_ && r_.trace()) r_.record(at(key), "string", Json(fallback));
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
  if (valid_ && r_.trace()) r_.record(at(key), "vec3", Json::array({fallback.x(), fallback.y(), fallback.z()}));
  const Json* v = find(key);
  if (!v) return fallback;
  return r_.vec3(*v, at(key)).value_or(fallback);
}

std::optional<Vec3> ObjectView::direction(const std::string& key, const Vec3& fallback,
                                          const std::string& what) {
  if (valid_ && r_.trace()) r_.record(at(key), "vec3", Json::array({fallback.x(), fallback.y(), fallback.z()}));
  const Json* v = find(key);
  if (!v) return fallback;
  auto d = r_.vec3(*v, at(key));
  if (!d) return std::nullopt;
  // stableNorm scales before it squares: |[1e300, 0, 1e300]| is 1.4e300, not inf, and
  // |[1e-200, 0, 0]| is 1e-200, not 0
  const double len = d->stableNorm();
  if (!(len > 0.0) || !std::isfinite(len)) {
    r_.issue(at(key), "expected " + what + ": a non-zero vector of finite length, got [" +
                          format_number(d->x()) + ", " + format_number(d->y()) + ", " +
                          format_number(d->z()) + "]");
    return std::nullopt;
  }
  return Vec3(*d / len);
}

std::optional<std::string> ObjectView::choice(const std::string& key,
                                              const std::vector<std::string>& options,
                                              std::optional<std::string> fallback) {
  if (valid_ && fallback && r_.trace()) r_.record(at(key), "choice", Json(*fallback), {}, options);
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
