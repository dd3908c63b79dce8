# Project-wide settings for WebAssembly builds (included from the top-level CMakeLists.txt
# when EMSCRIPTEN is set). See docs/building.md for the reasons behind each flag.

option(SUCTION_WASM_SIMD "Compile with -msimd128 (measure first: Eigen 3.4 has no wasm SIMD backend)" OFF)
option(SUCTION_WASM_THREADS "Compile and link with -pthread (needs COOP/COEP in browsers)" OFF)
set(SUCTION_WASM_STACK_SIZE 5242880 CACHE STRING
    "Wasm stack size in bytes (3.1.6 default; emcc >= 3.1.25 defaults to only 64 KiB)")

# Exceptions are used for error reporting (and by CGAL's filtered predicates): JS-based
# exception handling, at compile AND link time. -fwasm-exceptions with -pthread is broken
# in 3.1.6, so it is not used.
add_compile_options(-fexceptions)
add_link_options(-fexceptions)

if(SUCTION_WASM_SIMD)
  add_compile_options(-msimd128)
endif()
if(SUCTION_WASM_THREADS)
  add_compile_options(-pthread)
  add_link_options(-pthread)
endif()

# The link-time optimizer of the modules only node runs in a test build (suction_tests and
# suction_wasm_node: tests/CMakeLists.txt, wasm/CMakeLists.txt).  At the build type's -O3,
# binaryen's wasm-opt took 68 s of one module's link on the 2-core machine, at -O1 3.6 s
# (the page's module, 2026-11-28); the code itself is compiled at -O3 either way, so only
# wasm-opt's rewriting is left out.  `make wasm` (the test build) sets -O1; the default, empty,
# keeps the build type's flags (the page's module and `make bench-wasm`'s are never affected).
set(SUCTION_WASM_TEST_LINK_OPT "" CACHE STRING
    "link-time optimization level of the node-only test modules (empty: the build type's)")

if(EMSCRIPTEN_VERSION AND EMSCRIPTEN_VERSION VERSION_GREATER_EQUAL 3.1.25)
  add_link_options("-sSTACK_SIZE=${SUCTION_WASM_STACK_SIZE}")
else()
  add_link_options("-sTOTAL_STACK=${SUCTION_WASM_STACK_SIZE}")
endif()

# Debian's emcc runs tools/acorn-optimizer.js at link time, and Debian's node does not look
# in /usr/share/nodejs for `acorn` (TOOLCHAIN.md #1). Give every link NODE_PATH, so a plain
# `cmake --build` works from any shell (the Makefile and the wasm preset also export it).
if(EXISTS /usr/share/nodejs/acorn AND NOT CMAKE_CXX_LINKER_LAUNCHER)
  set(_node_path "/usr/share/nodejs")
  if(DEFINED ENV{NODE_PATH} AND NOT "$ENV{NODE_PATH}" STREQUAL "")
    string(APPEND _node_path ":$ENV{NODE_PATH}")
  endif()
  set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=${_node_path}")
endif()

# Node runs the tests. `emcmake` (3.1.6) adds --experimental-wasm-threads, which node >= 16
# rejects; threads need no flag in current node, so drop it.
if(CMAKE_CROSSCOMPILING_EMULATOR MATCHES "--experimental-wasm-threads")
  list(FILTER CMAKE_CROSSCOMPILING_EMULATOR EXCLUDE REGEX "^--experimental-wasm-threads$")
  set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CROSSCOMPILING_EMULATOR}" CACHE FILEPATH
      "Path to the emulator for the target system." FORCE)
endif()
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(SUCTION_NODE NAMES node nodejs REQUIRED)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${SUCTION_NODE}" CACHE FILEPATH
      "Path to the emulator for the target system." FORCE)
endif()
message(STATUS "suction wasm: emcc ${EMSCRIPTEN_VERSION}, simd=${SUCTION_WASM_SIMD}, "
               "threads=${SUCTION_WASM_THREADS}, emulator=${CMAKE_CROSSCOMPILING_EMULATOR}")
