// Shared bits of the libFuzzer targets (docs/fuzzing.md).  GPL-3.0-or-later.
//
// Every target feeds its input to one entry point of the core and catches the exceptions that
// entry point documents as its clean rejection of bad input (InputError and friends).  Anything
// else is a finding: a crash or sanitizer report, or an exception of another type escaping,
// which the targets turn into an abort naming the type, so libFuzzer records the input.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

#include "common/error.h"

namespace suction_fuzz {

[[noreturn]] inline void unexpected(const char* target, const char* what) {
  std::fprintf(stderr, "\n%s: FINDING: %s\n", target, what);
  std::fflush(stderr);
  std::abort();
}

/// Call from a catch (const std::exception& e) after the clean rejections were caught.
[[noreturn]] inline void unexpected_exception(const char* target, const std::exception& e) {
  std::string msg = std::string("unexpected exception escaped: ") + typeid(e).name() + ": " + e.what();
  if (msg.size() > 2000) msg.resize(2000);
  unexpected(target, msg.c_str());
}

}  // namespace suction_fuzz
