// Line-by-line reading of text mesh files, with errors that name the file and the line.
// Internal to the mesh readers.
#pragma once
#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace suction::mesh_text {

/// The whole content of a file, byte for byte; throws InputError if it cannot be read.
std::string read_file(const std::string& path);

/// Reads a text one line at a time and splits lines into whitespace separated tokens.
class LineReader {
 public:
  LineReader(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {}

  /// Next line without its end of line ("\n" or "\r\n"); false at the end of the text.
  bool next_line(std::string_view& line);
  /// Tokens of the next non-blank line; false at the end of the text.
  bool next_tokens(std::vector<std::string_view>& tokens);
  /// Tokens of the next non-blank line; throws "unexpected end of file, expected <what>".
  std::vector<std::string_view> expect_tokens(const std::string& what);

  int line_number() const { return line_; }
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_at(int line, const std::string& message) const;

  long long to_int(std::string_view token, const char* what) const;
  double to_double(std::string_view token, const char* what) const;

 private:
  std::string_view text_;
  std::string name_;
  size_t pos_ = 0;
  int line_ = 0;
};

std::vector<std::string_view> split(std::string_view line);

}  // namespace suction::mesh_text
