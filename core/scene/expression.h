// Arithmetic expressions in scene files: a number may be written as a string starting with '='
// ("=push_mm*1e-3", "=tan(angle_deg*pi/180)"), evaluated with the scene's parameters.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace suction {

/// A malformed expression, an unknown name, or a non-finite result; what() says which.
class ExpressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The deepest nesting an expression may have.
constexpr int kMaxExpressionDepth = 200;

/// Evaluates `text` (without the leading '='): numbers (1, 2.5, 1e-3), + - * /, ^ or ** (power,
/// right-associative, binds tighter than unary minus: -2^2 = -4), one comparison < <= > >= ==
/// != (1 when it holds, 0 when not; below + and -, one per expression or parentheses), parentheses, functions
/// sin cos tan asin acos atan sqrt abs exp log (1 argument) and min max (2 arguments), the
/// constant pi, and the given variables.  Throws ExpressionError, also for an expression
/// nested deeper than kMaxExpressionDepth (parentheses, calls, signs, '^' chains).
double evaluate_expression(std::string_view text, const std::map<std::string, double>& variables);

/// true for names an expression reserves (function names and constants): not usable as parameters
bool is_reserved_name(std::string_view name);

/// true for [A-Za-z_][A-Za-z0-9_]*
bool is_identifier(std::string_view name);

}  // namespace suction
