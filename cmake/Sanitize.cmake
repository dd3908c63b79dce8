# Sanitizer and fuzzing builds (docs/fuzzing.md), included from the top-level CMakeLists.txt.
#
#   SUCTION_SANITIZE  AddressSanitizer + UndefinedBehaviorSanitizer for everything compiled here
#                     (core, CLI, tests, fuzz targets); any UB report aborts the process.
#   SUCTION_FUZZ      the libFuzzer targets of fuzz/ (clang only, needs SUCTION_SANITIZE).  The
#                     core libraries are then also compiled with -fsanitize=fuzzer-no-link
#                     (coverage instrumentation, no libFuzzer main); only the fuzz executables
#                     link libFuzzer (-fsanitize=fuzzer).  The tests and the CLI link fine
#                     against the instrumented core: the ASan runtime defines the coverage
#                     callbacks as no-ops when libFuzzer is not linked.
#
# Meant for a build dir of its own configured with clang, e.g.
#   CC=clang-14 CXX=clang++-14 cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
#       -DSUCTION_SANITIZE=ON -DSUCTION_FUZZ=ON
# (`make sanitize`).  Both options are OFF by default: the native, wasm and cuda builds do not
# see any of this.

option(SUCTION_SANITIZE "Build with -fsanitize=address,undefined (ASan + UBSan)" OFF)
option(SUCTION_FUZZ "Build the libFuzzer targets of fuzz/ (clang; needs SUCTION_SANITIZE)" OFF)

if(NOT SUCTION_SANITIZE AND NOT SUCTION_FUZZ)
  return()
endif()

if(SUCTION_WASM OR SUCTION_WITH_CUDA)
  message(FATAL_ERROR "SUCTION_SANITIZE / SUCTION_FUZZ are for a native host build only "
                      "(not with Emscripten or SUCTION_WITH_CUDA)")
endif()
if(SUCTION_FUZZ AND NOT SUCTION_SANITIZE)
  message(FATAL_ERROR "SUCTION_FUZZ needs SUCTION_SANITIZE=ON (a fuzzer without ASan/UBSan "
                      "finds only outright crashes)")
endif()
if(SUCTION_FUZZ AND NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "SUCTION_FUZZ needs clang (libFuzzer): configure with "
                      "CC=clang-14 CXX=clang++-14 (Debian: clang-14 libclang-rt-14-dev)")
endif()

# Everything in this build dir: compile and link flags of every target, defined before any
# add_subdirectory().  -fno-sanitize-recover=undefined turns every UBSan report into an abort,
# so a test or a fuzz run fails on it instead of printing and carrying on.
set(SUCTION_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
add_compile_options(${SUCTION_SANITIZE_FLAGS})
# Line tables only, not full debug info: the reports' stacks keep file:line and inlined frames
# (what llvm-symbolizer needs), and the build is faster: ASan's instrumented CGAL mesher took
# 224 s to compile with -g, 194 s with this, and its object 89 -> 23 MB (clang-14, 2026-11-27).
# Later than RelWithDebInfo's -g on the command line, so it wins.
add_compile_options(-gline-tables-only)
add_link_options(-fsanitize=address,undefined)
message(STATUS "suction: ASan + UBSan build (${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION})")

# suction_fuzz_instrument_core(): called after add_subdirectory(core).  Adds libFuzzer's
# coverage instrumentation (-fsanitize=fuzzer-no-link) to the core libraries that take apart
# untrusted input (SUCTION_FUZZ_COVERAGE_MODULES; names as core/CMakeLists.txt declares them).
# The numeric kernels (fem, solver, ...) stay under ASan + UBSan but get no coverage: their
# branches follow numbers, not the structure of the input, so their edges guide the fuzzer
# nowhere, and tracing every comparison of Eigen's inner loops took three quarters of the time
# per input of fuzz_scene (perf, 2026-11-23: __sanitizer_cov_trace_*cmp8 and libFuzzer's feature
# bookkeeping under the element matrices of the model build).
set(SUCTION_FUZZ_COVERAGE_MODULES common mesh model scene io CACHE STRING
    "core modules compiled with libFuzzer coverage instrumentation (SUCTION_FUZZ)")
function(suction_fuzz_instrument_core)
  if(NOT SUCTION_FUZZ)
    return()
  endif()
  get_property(_modules GLOBAL PROPERTY SUCTION_CORE_MODULES)
  set(_names "")
  foreach(_m IN LISTS _modules)
    string(REGEX REPLACE ":.*" "" _name "${_m}")
    list(APPEND _names ${_name})
  endforeach()
  foreach(_name IN LISTS SUCTION_FUZZ_COVERAGE_MODULES)
    if(NOT _name IN_LIST _names)
      message(FATAL_ERROR "SUCTION_FUZZ_COVERAGE_MODULES: no core module '${_name}' (modules: ${_names})")
    endif()
    target_compile_options(suction_${_name} PRIVATE -fsanitize=fuzzer-no-link
      -fsanitize-coverage-ignorelist=${PROJECT_SOURCE_DIR}/fuzz/coverage_ignorelist.txt)
  endforeach()
  message(STATUS "suction: libFuzzer coverage instrumentation in ${SUCTION_FUZZ_COVERAGE_MODULES}")
endfunction()
