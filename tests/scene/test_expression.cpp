// Scene expressions: precedence, associativity, functions, parameters and every error kind.
#include <gtest/gtest.h>

#include <cmath>

#include "scene/expression.h"

namespace suction {
namespace {

constexpr double kPiTest = 3.14159265358979323846;

double eval(const std::string& text, const std::map<std::string, double>& vars = {}) {
  return evaluate_expression(text, vars);
}

std::string error_of(const std::string& text, const std::map<std::string, double>& vars = {}) {
  try {
    evaluate_expression(text, vars);
  } catch (const ExpressionError& e) {
    return e.what();
  }
  return "";
}

TEST(Expression, NumbersInEveryForm) {
  EXPECT_DOUBLE_EQ(eval("42"), 42.0);
  EXPECT_DOUBLE_EQ(eval("2.5"), 2.5);
  EXPECT_DOUBLE_EQ(eval(".5"), 0.5);
  EXPECT_DOUBLE_EQ(eval("1e-3"), 1e-3);
  EXPECT_DOUBLE_EQ(eval("1.5E+2"), 150.0);
  EXPECT_DOUBLE_EQ(eval("  7  "), 7.0);
}

TEST(Expression, PrecedenceAndAssociativity) {
  EXPECT_DOUBLE_EQ(eval("1 + 2 * 3"), 7.0);
  EXPECT_DOUBLE_EQ(eval("(1 + 2) * 3"), 9.0);
  EXPECT_DOUBLE_EQ(eval("8 / 4 / 2"), 1.0);      // left-associative
  EXPECT_DOUBLE_EQ(eval("10 - 3 - 2"), 5.0);
  EXPECT_DOUBLE_EQ(eval("2 ^ 3 ^ 2"), 512.0);    // right-associative
  EXPECT_DOUBLE_EQ(eval("2 ** 3"), 8.0);
  EXPECT_DOUBLE_EQ(eval("2 * 3 ** 2"), 18.0);
  EXPECT_DOUBLE_EQ(eval("-2 ^ 2"), -4.0);        // power binds tighter than unary minus
  EXPECT_DOUBLE_EQ(eval("2 ^ -1"), 0.5);
  EXPECT_DOUBLE_EQ(eval("--3"), 3.0);
  EXPECT_DOUBLE_EQ(eval("-9.81"), -9.81);
  EXPECT_DOUBLE_EQ(eval("+4 - -1"), 5.0);
}

TEST(Expression, AComparisonIsOneWhenItHoldsAndZeroWhenNot) {
  EXPECT_EQ(eval("1 < 2"), 1.0);
  EXPECT_EQ(eval("2 < 2"), 0.0);
  EXPECT_EQ(eval("2 <= 2"), 1.0);
  EXPECT_EQ(eval("3 > 2"), 1.0);
  EXPECT_EQ(eval("2 >= 3"), 0.0);
  EXPECT_EQ(eval("0.1 + 0.2 == 0.3"), 0.0);  // exact, as the numbers are
  EXPECT_EQ(eval("2 * 3 == 6"), 1.0);        // below + - * /: (2 * 3) == 6
  EXPECT_EQ(eval("1 != 1"), 0.0);
  EXPECT_EQ(eval("1 + 1 > 1"), 1.0);
  // a value chosen by a condition, in parentheses or as a function's argument
  EXPECT_EQ(eval("12 + 8 * (R_mm > 0)", {{"R_mm", 0.0}}), 12.0);
  EXPECT_EQ(eval("12 + 8 * (R_mm > 0)", {{"R_mm", 31.5}}), 20.0);
  EXPECT_EQ(eval("max(2, 64 * (R_mm != 0))", {{"R_mm", -20.0}}), 64.0);
  // one comparison per expression or parentheses
  EXPECT_NE(error_of("1 < 2 < 3").find("chained comparison"), std::string::npos);
  EXPECT_EQ(eval("(1 < 2) < 3"), 1.0);
  EXPECT_NE(error_of("1 < ").find("unexpected end"), std::string::npos);
  EXPECT_NE(error_of("1 = 1").find("unexpected '='"), std::string::npos);
  EXPECT_NE(error_of("!1").find("expected a number"), std::string::npos);
}

TEST(Expression, FunctionsAndConstants) {
  EXPECT_NEAR(eval("sin(pi/2)"), 1.0, 1e-15);
  EXPECT_NEAR(eval("cos(0)"), 1.0, 1e-15);
  EXPECT_NEAR(eval("tan(45*pi/180)"), 1.0, 1e-15);
  EXPECT_NEAR(eval("asin(1)"), kPiTest / 2, 1e-15);
  EXPECT_NEAR(eval("acos(1)"), 0.0, 1e-15);
  EXPECT_NEAR(eval("atan(1)*4"), kPiTest, 1e-15);
  EXPECT_DOUBLE_EQ(eval("sqrt(16)"), 4.0);
  EXPECT_DOUBLE_EQ(eval("abs(-3)"), 3.0);
  EXPECT_NEAR(eval("log(exp(2))"), 2.0, 1e-15);
  EXPECT_DOUBLE_EQ(eval("min(3, 2)"), 2.0);
  EXPECT_DOUBLE_EQ(eval("max(3, 2 + 5)"), 7.0);
  EXPECT_DOUBLE_EQ(eval("sqrt(max(4, 1)) * 2"), 4.0);
}

TEST(Expression, Parameters) {
  std::map<std::string, double> vars = {{"push_mm", 6.0}, {"angle_deg", 30.0}, {"E_2", 2.0}};
  EXPECT_DOUBLE_EQ(eval("push_mm*1e-3", vars), 6e-3);
  EXPECT_NEAR(eval("sin(angle_deg*pi/180)", vars), 0.5, 1e-15);
  EXPECT_DOUBLE_EQ(eval("E_2^2", vars), 4.0);
}

TEST(Expression, UnknownParameterIsNamed) {
  EXPECT_EQ(error_of("pusm_mm*1e-3", {{"push_mm", 6.0}}), "unknown parameter 'pusm_mm' in expression");
}

TEST(Expression, SyntaxErrorsSayWhereAndWhat) {
  EXPECT_NE(error_of("1 + * 2").find("syntax error"), std::string::npos);
  EXPECT_NE(error_of("1 + * 2").find("column 5"), std::string::npos);
  EXPECT_NE(error_of("(1 + 2").find("expected ')'"), std::string::npos);
  EXPECT_NE(error_of("1 2").find("unexpected '2'"), std::string::npos);
  EXPECT_NE(error_of("1 +").find("unexpected end"), std::string::npos);
  EXPECT_NE(error_of("3 $ 4").find("unexpected '$'"), std::string::npos);
  EXPECT_NE(error_of("1e").find("malformed exponent"), std::string::npos);
  EXPECT_EQ(error_of(""), "empty expression");
  EXPECT_EQ(error_of("   "), "empty expression");
}

TEST(Expression, FunctionErrors) {
  EXPECT_NE(error_of("foo(1)").find("unknown function 'foo'"), std::string::npos);
  EXPECT_NE(error_of("min(1)").find("takes 2 arguments, got 1"), std::string::npos);
  EXPECT_NE(error_of("sin(1, 2)").find("takes 1 argument, got 2"), std::string::npos);
  EXPECT_NE(error_of("sin + 1").find("needs an argument"), std::string::npos);
}

TEST(Expression, NonFiniteResultsAreErrors) {
  EXPECT_NE(error_of("1/0").find("not finite"), std::string::npos);
  EXPECT_NE(error_of("sqrt(-1)").find("not finite"), std::string::npos);
  EXPECT_NE(error_of("log(0)").find("not finite"), std::string::npos);
}

TEST(Expression, ReservedNamesAndIdentifiers) {
  EXPECT_TRUE(is_reserved_name("pi"));
  EXPECT_TRUE(is_reserved_name("sin"));
  EXPECT_TRUE(is_reserved_name("max"));
  EXPECT_FALSE(is_reserved_name("push_mm"));
  EXPECT_TRUE(is_identifier("push_mm"));
  EXPECT_TRUE(is_identifier("_x1"));
  EXPECT_FALSE(is_identifier("1x"));
  EXPECT_FALSE(is_identifier("a-b"));
  EXPECT_FALSE(is_identifier(""));
}

// Hostile nesting (found by fuzzing: tens of thousands of levels crashed the parser by stack
// overflow): an error naming the limit, for every kind of nesting; the limit itself parses.
TEST(Expression, NestingDeeperThanTheLimitIsAnErrorNotACrash) {
  const int deep = 50000;
  const std::string parens = std::string(deep, '(') + "1" + std::string(deep, ')');
  const std::string minus = std::string(deep, '-') + "1";
  std::string sqrts, power = "2";
  for (int i = 0; i < deep; ++i) sqrts += "sqrt(";
  sqrts += "4" + std::string(deep, ')');
  for (int i = 0; i < deep; ++i) power += "^1";
  for (const std::string* e : std::vector<const std::string*>{&parens, &minus, &sqrts, &power}) {
    try {
      eval(*e);
      ADD_FAILURE() << "no error for " << e->substr(0, 20) << "...";
    } catch (const ExpressionError& err) {
      EXPECT_NE(std::string(err.what()).find("nested deeper than 200 levels"), std::string::npos) << err.what();
    }
  }
  const int ok = kMaxExpressionDepth - 2;
  EXPECT_EQ(eval(std::string(ok, '(') + "7" + std::string(ok, ')')), 7.0);
  EXPECT_EQ(eval(std::string(ok, '-') + "7"), ok % 2 ? -7.0 : 7.0);
}

}  // namespace
}  // namespace suction
