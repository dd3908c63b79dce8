// Recursive-descent evaluator of scene expressions.  Grammar:
//   compare := expr (('<' | '<=' | '>' | '>=' | '==' | '!=') expr)?   (1 when true, else 0)
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary (('^' | '**') unary)?
//   primary := number | name | name '(' expr (',' expr)* ')' | '(' expr ')'
#include "scene/expression.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace suction {
namespace {

struct Function1 {
  const char* name;
  double (*f)(double);
};
const Function1 kFunctions1[] = {
    {"sin", [](double x) { return std::sin(x); }},   {"cos", [](double x) { return std::cos(x); }},
    {"tan", [](double x) { return std::tan(x); }},   {"asin", [](double x) { return std::asin(x); }},
    {"acos", [](double x) { return std::acos(x); }}, {"atan", [](double x) { return std::atan(x); }},
    {"sqrt", [](double x) { return std::sqrt(x); }}, {"abs", [](double x) { return std::fabs(x); }},
    {"exp", [](double x) { return std::exp(x); }},   {"log", [](double x) { return std::log(x); }},
};
struct Function2 {
  const char* name;
  double (*f)(double, double);
};
const Function2 kFunctions2[] = {
    {"min", [](double a, double b) { return std::fmin(a, b); }},
    {"max", [](double a, double b) { return std::fmax(a, b); }},
};
constexpr double kPiValue = 3.14159265358979323846;

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  Parser(std::string_view text, const std::map<std::string, double>& variables)
      : s_(text), vars_(variables) {}

  double parse() {
    skip_space();
    if (pos_ == s_.size()) throw ExpressionError("empty expression");
    double v = compare();
    skip_space();
    if (pos_ != s_.size()) fail(std::string("unexpected '") + s_[pos_] + "'");
    return v;
  }

 private:
  std::string_view s_;
  const std::map<std::string, double>& vars_;
  size_t pos_ = 0;
  int depth_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    // a long expression is quoted by its start only
    const std::string text = s_.size() <= 80 ? std::string(s_) : std::string(s_.substr(0, 60)) + "...";
    throw ExpressionError("syntax error in expression \"=" + text + "\" at column " + std::to_string(pos_ + 1) +
                          ": " + what);
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool at(std::string_view token) {
    skip_space();
    return s_.substr(pos_, token.size()) == token;
  }
  bool eat(std::string_view token) {
    if (!at(token)) return false;
    pos_ += token.size();
    return true;
  }
  void expect(char c) {
    if (!eat(std::string_view(&c, 1))) {
      fail(pos_ < s_.size() ? std::string("expected '") + c + "', got '" + s_[pos_] + "'"
                            : std::string("expected '") + c + "' before the end");
    }
  }

  // a comparison is 1 when it holds and 0 when not (one per expression or parentheses: a < b < c
  // is refused), so that a value can depend on a condition: "=12 + 8 * (R_mm > 0)"
  double compare() {
    const double a = expr();
    double (*op)(double, double) = nullptr;
    if (eat("<=")) op = [](double x, double y) { return x <= y ? 1.0 : 0.0; };
    else if (eat(">=")) op = [](double x, double y) { return x >= y ? 1.0 : 0.0; };
    else if (eat("==")) op = [](double x, double y) { return x == y ? 1.0 : 0.0; };
    else if (eat("!=")) op = [](double x, double y) { return x != y ? 1.0 : 0.0; };
    else if (eat("<")) op = [](double x, double y) { return x < y ? 1.0 : 0.0; };
    else if (eat(">")) op = [](double x, double y) { return x > y ? 1.0 : 0.0; };
    if (!op) return a;
    const double v = op(a, expr());
    if (at("<") || at(">") || at("==") || at("!=")) fail("a chained comparison: write each in its own parentheses");
    return v;
  }
  double expr() {
    double v = term();
    for (;;) {
      if (eat("+")) v += term();
      else if (eat("-")) v -= term();
      else return v;
    }
  }
  double term() {
    double v = unary();
    for (;;) {
      if (at("*") && !at("**")) { ++pos_; v *= unary(); }
      else if (eat("/")) v /= unary();
      else return v;
    }
  }
  // Every recursion (parentheses, function arguments, unary signs, '^' chains) passes through
  // unary(): its depth is capped, so a hostile expression nested tens of thousands of levels
  // deep is an error, not a stack overflow.
  double unary() {
    struct Depth {
      int& d;
      explicit Depth(int& depth) : d(depth) { ++d; }
      ~Depth() { --d; }
    } guard(depth_);
    if (depth_ > kMaxExpressionDepth)
      fail("nested deeper than " + std::to_string(kMaxExpressionDepth) + " levels");
    if (eat("-")) return -unary();
    if (eat("+")) return unary();
    return power();
  }
  double power() {
    double base = primary();
    if (eat("^") || eat("**")) return std::pow(base, unary());  // right-associative
    return base;
  }
  double primary() {
    skip_space();
    if (pos_ == s_.size()) fail("unexpected end, expected a number, a name or '('");
    char c = s_[pos_];
    if (is_digit(c) || c == '.') return number();
    if (is_name_start(c)) return name();
    if (eat("(")) {
      double v = compare();
      expect(')');
      return v;
    }
    fail(std::string("expected a number, a name or '(', got '") + c + "'");
  }

  // number := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]
  double number() {
    size_t start = pos_;
    while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    if (pos_ - start == 1 && s_[start] == '.') { pos_ = start; fail("malformed number"); }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      size_t e = pos_ + 1;
      if (e < s_.size() && (s_[e] == '+' || s_[e] == '-')) ++e;
      if (e >= s_.size() || !is_digit(s_[e])) { pos_ = e; fail("malformed exponent"); }
      while (e < s_.size() && is_digit(s_[e])) ++e;
      pos_ = e;
    }
    std::string digits(s_.substr(start, pos_ - start));
    return std::strtod(digits.c_str(), nullptr);
  }

  double name() {
    size_t start = pos_;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    std::string id(s_.substr(start, pos_ - start));
    if (at("(")) return call(id);
    for (const auto& f : kFunctions1)
      if (id == f.name) fail("function '" + id + "' needs an argument: " + id + "(x)");
    for (const auto& f : kFunctions2)
      if (id == f.name) fail("function '" + id + "' needs arguments: " + id + "(a, b)");
    if (id == "pi") return kPiValue;
    auto it = vars_.find(id);
    if (it == vars_.end()) throw ExpressionError("unknown parameter '" + id + "' in expression");
    return it->second;
  }

  double call(const std::string& id) {
    expect('(');
    std::vector<double> args{compare()};
    while (eat(",")) args.push_back(compare());
    expect(')');
    for (const auto& f : kFunctions1) {
      if (id != f.name) continue;
      if (args.size() != 1)
        throw ExpressionError("function '" + id + "' takes 1 argument, got " + std::to_string(args.size()));
      return f.f(args[0]);
    }
    for (const auto& f : kFunctions2) {
      if (id != f.name) continue;
      if (args.size() != 2)
        throw ExpressionError("function '" + id + "' takes 2 arguments, got " + std::to_string(args.size()));
      return f.f(args[0], args[1]);
    }
    throw ExpressionError("unknown function '" + id +
                          "' in expression (known: sin cos tan asin acos atan sqrt abs exp log min max)");
  }
};

}  // namespace

double evaluate_expression(std::string_view text, const std::map<std::string, double>& variables) {
  double v = Parser(text, variables).parse();
  if (!std::isfinite(v))
    throw ExpressionError("expression \"=" + std::string(text) +
                          "\" is not finite (division by zero or a function outside its domain)");
  return v;
}

bool is_reserved_name(std::string_view name) {
  if (name == "pi") return true;
  for (const auto& f : kFunctions1) if (name == f.name) return true;
  for (const auto& f : kFunctions2) if (name == f.name) return true;
  return false;
}

bool is_identifier(std::string_view name) {
  if (name.empty() || !is_name_start(name[0])) return false;
  for (char c : name) if (!is_name_char(c)) return false;
  return true;
}

}  // namespace suction
