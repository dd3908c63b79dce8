// Line reader shared by the mesh file readers.
#include "mesh/mesh_text.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace suction::mesh_text {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open mesh file '" + path + "'");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw InputError("cannot read mesh file '" + path + "'");
  return content.str();
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) tokens.push_back(line.substr(i, j - i));
    i = j;
  }
  return tokens;
}

bool LineReader::next_line(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  size_t end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  line = text_.substr(pos_, end - pos_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  pos_ = end + 1;
  ++line_;
  return true;
}

bool LineReader::next_tokens(std::vector<std::string_view>& tokens) {
  std::string_view line;
  while (next_line(line)) {
    tokens = split(line);
    if (!tokens.empty()) return true;
  }
  return false;
}

std::vector<std::string_view> LineReader::expect_tokens(const std::string& what) {
  std::vector<std::string_view> tokens;
  if (!next_tokens(tokens)) fail("unexpected end of file, expected " + what);
  return tokens;
}

void LineReader::fail(const std::string& message) const { fail_at(line_, message); }

void LineReader::fail_at(int line, const std::string& message) const {
  throw InputError(name_ + ":" + std::to_string(line) + ": " + message);
}

long long LineReader::to_int(std::string_view token, const char* what) const {
  long long value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    fail(std::string("expected an integer ") + what + ", got '" + std::string(token.substr(0, 40)) +
         (token.size() > 40 ? "...'" : "'"));
  return value;
}

double LineReader::to_double(std::string_view token, const char* what) const {
  // strtod: floating-point from_chars is missing in older libc++ (em++)
  const std::string s(token);
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(value))
    fail(std::string("expected a finite number ") + what + ", got '" + s.substr(0, 40) +
         (s.size() > 40 ? "...'" : "'"));
  return value;
}

}  // namespace suction::mesh_text
