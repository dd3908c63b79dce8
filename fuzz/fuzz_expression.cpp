// libFuzzer target: suction::evaluate_expression (core/scene/expression.h), the "=..." numbers
// of scene files, on arbitrary text with a few parameters defined.  Clean rejection:
// ExpressionError.  Also checked: the documented contract that a returned value is finite
// (a non-finite result must be an ExpressionError).  GPL-3.0-or-later.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "scene/expression.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::map<std::string, double> variables = {
      {"push_mm", 6.0}, {"pull_mm", 20.0}, {"young_mpa", 4.0}, {"angle_deg", 30.0},
      {"mu", 0.8},      {"length", 0.1},   {"n", 3.0},         {"x", -1.5},
      {"zero", 0.0},
  };
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const double v = suction::evaluate_expression(text, variables);
    if (!std::isfinite(v)) suction_fuzz::unexpected("fuzz_expression", "evaluate_expression returned a non-finite value");
  } catch (const suction::ExpressionError&) {
  } catch (const std::exception& e) {
    suction_fuzz::unexpected_exception("fuzz_expression", e);
  }
  return 0;
}
