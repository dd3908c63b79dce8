// Embind facade of the simulator for JavaScript. Minimal for now: a later issue adds the
// scene/simulation API.
#include <emscripten/bind.h>

#include <string>

#ifndef SUCTION_VERSION
#define SUCTION_VERSION "0.1.0"
#endif

namespace {
std::string version() { return SUCTION_VERSION; }
}  // namespace

EMSCRIPTEN_BINDINGS(suction) {
  emscripten::function("version", &version);
}
