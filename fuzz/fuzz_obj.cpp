// libFuzzer target: suction::parse_obj (core/mesh/mesh_io.h), Wavefront OBJ (v and f lines, polygons fan-triangulated),
// on arbitrary bytes; then what the loader does with a surface (closed-surface validation,
// enclosed volume).  Clean rejection: InputError.  GPL-3.0-or-later.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_mesh_common.h"
#include "mesh/mesh_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    suction_fuzz::check_surface("fuzz_obj", suction::parse_obj(bytes, "fuzz.obj"));
  } catch (const suction::InputError&) {
  } catch (const std::exception& e) {
    suction_fuzz::unexpected_exception("fuzz_obj", e);
  }
  return 0;
}
