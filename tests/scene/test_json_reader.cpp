// The strict JSON parser of scenes: depth, duplicate keys and number range are errors that name
// the JSON pointer where they occur, like syntax errors; a hostile document never crashes.
#include <gtest/gtest.h>

#include "scene/json_reader.h"

namespace suction {
namespace {

SceneIssue json_error_of(const std::string& text, int max_depth = kMaxJsonDepth) {
  SceneIssue error{"(none)", "(parsed)"};
  auto doc = parse_json_strict(text, &error, max_depth);
  EXPECT_FALSE(doc.has_value()) << text;
  return error;
}

TEST(JsonReader, StrictParseKeepsOrderAndValues) {
  SceneIssue error;
  auto doc = parse_json_strict(R"({"b": 1, "a": [true, null, "x", -2.5, 18446744073709551615], "c": {}})", &error);
  ASSERT_TRUE(doc.has_value()) << error.message;
  ASSERT_EQ(doc->size(), 3u);
  EXPECT_EQ(doc->begin().key(), "b");  // file order
  EXPECT_EQ((*doc)["a"][3].get<double>(), -2.5);
  EXPECT_EQ((*doc)["a"][4].get<unsigned long long>(), 18446744073709551615ull);
  EXPECT_TRUE((*doc)["c"].is_object());
  EXPECT_EQ(*doc, Json::parse(R"({"b": 1, "a": [true, null, "x", -2.5, 18446744073709551615], "c": {}})"));
  // scalars at the top level
  EXPECT_EQ(*parse_json_strict("3", &error), Json(3));
}

TEST(JsonReader, DuplicateKeysNameThePointerAndBothMembers) {
  // accepted silently before: JSON keeps one of the two values, the scene lost the other
  SceneIssue e = json_error_of(R"({"settings": {"dt": 0.01, "duration": 1, "dt": 0.001}})");
  EXPECT_EQ(e.pointer, "/settings/dt");
  EXPECT_NE(e.message.find("duplicate key \"dt\": members 1 and 3 of the object at '/settings'"), std::string::npos)
      << e.message;
  EXPECT_EQ(json_error_of(R"({"a": 1, "a": 2})").pointer, "/a");
  // the same key in different objects is fine
  SceneIssue none;
  EXPECT_TRUE(parse_json_strict(R"({"x": {"a": 1}, "y": {"a": 2}, "z": [{"a": 1}, {"a": 2}]})", &none));
}

TEST(JsonReader, NumbersBeyondADoubleNameThePointer) {
  // "1e999" escaped as an out_of_range exception: exit 1 and no pointer
  SceneIssue e = json_error_of(R"({"bodies": [{"position": [0, 0, 1e999]}]})");
  EXPECT_EQ(e.pointer, "/bodies/0/position/2");
  EXPECT_NE(e.message.find("the number 1e999 is out of range"), std::string::npos) << e.message;
  EXPECT_EQ(json_error_of("[-1e400]").pointer, "/0");
}

TEST(JsonReader, NestingDeeperThanTheLimitIsAnError) {
  // 100 000 levels: nothing may recurse that deep; the limit is named with the pointer
  const int n = 100000;
  const std::string deep = "{\"a\": " + std::string(n, '[') + std::string(n, ']') + "}";
  SceneIssue e = json_error_of(deep);
  EXPECT_NE(e.message.find("nested deeper than 100 levels"), std::string::npos) << e.message;
  EXPECT_EQ(e.pointer.rfind("/a/0/0/", 0), 0u);
  // exactly at the limit parses
  SceneIssue none;
  const std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(parse_json_strict(at_limit, &none)) << none.message;
  EXPECT_FALSE(parse_json_strict("[" + at_limit + "]", &none));
  EXPECT_EQ(json_error_of("[[[1]]]", 2).pointer, "/0/0");
}

TEST(JsonReader, SyntaxErrorsSayWhereWithoutRepeatingAName) {
  SceneIssue e = json_error_of("{\"settings\": {\"dt\": }}");
  EXPECT_EQ(e.pointer, "/settings/dt");
  EXPECT_EQ(e.message.rfind("invalid JSON: parse error at line 1, column 21", 0), 0u) << e.message;
  EXPECT_EQ(json_error_of("").message.rfind("invalid JSON", 0), 0u);
  EXPECT_EQ(json_error_of("{\"a\": 1} trailing").message.rfind("invalid JSON", 0), 0u);
}

TEST(JsonReader, LongStringsAreQuotedByTheirStart) {
  const std::string s(100000, 'x');
  const std::string d = describe_json(Json(s));
  EXPECT_LT(d.size(), 120u);
  EXPECT_NE(d.find("... (100000 characters)"), std::string::npos) << d;
  EXPECT_EQ(describe_json(Json("abc")), "string \"abc\"");
}

TEST(JsonReader, Utf8Validation) {
  EXPECT_FALSE(first_invalid_utf8("plain ascii").has_value());
  EXPECT_FALSE(first_invalid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80").has_value());  // é € 😀
  EXPECT_EQ(first_invalid_utf8("ab\xff"), 2u);
  EXPECT_EQ(first_invalid_utf8("a\xc3"), 1u);              // truncated
  EXPECT_EQ(first_invalid_utf8("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(first_invalid_utf8("\xe0\x80\xaf"), 0u);      // overlong, 3 bytes
  EXPECT_EQ(first_invalid_utf8("x\xed\xa0\x80"), 1u);     // a UTF-16 surrogate
  EXPECT_EQ(first_invalid_utf8("\xf4\x90\x80\x80"), 0u); // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("\xe2\x28\xa1"), 0u);      // bad continuation
}

TEST(JsonReader, IssuesBeyondTheCapAreCountedNotKept) {
  JsonReader r;
  for (int i = 0; i < 1000; ++i) r.issue("/x", "bad");
  EXPECT_EQ(r.issue_count(), 1000u);
  EXPECT_EQ(r.issues().size(), JsonReader::kMaxIssues);
  const auto reported = r.reported_issues();
  ASSERT_EQ(reported.size(), JsonReader::kMaxIssues + 1);
  EXPECT_NE(reported.back().message.find("and 900 more issues"), std::string::npos);
}

}  // namespace
}  // namespace suction
