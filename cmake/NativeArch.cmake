# The x86 instruction-set level of native builds (docs/building.md, docs/decisions.md).
#
# SUCTION_NATIVE_ARCH:
#   auto (default)  -march=x86-64-v3 (AVX2, FMA, BMI2) when the compiler accepts it and the CPU
#                   of the machine that configures has those instructions; otherwise nothing
#   none            the compiler's default (x86-64: SSE2 only)
#   anything else   passed as -march=<value> (native, x86-64-v3, x86-64-v4, ...)
# The compliance's dense products and the factorization's kernels run about twice as fast with
# AVX2 and FMA.  A binary built with it does not start on a CPU without them (pre-2013 x86):
# build with SUCTION_NATIVE_ARCH=none to ship one.  WebAssembly builds ignore it.
set(SUCTION_NATIVE_ARCH "auto" CACHE STRING
    "Native -march: auto (x86-64-v3 when this CPU has AVX2+FMA), none, or a -march value")
set(SUCTION_ARCH_FLAGS "")
if(NOT SUCTION_WASM AND NOT SUCTION_NATIVE_ARCH STREQUAL "none")
  if(SUCTION_NATIVE_ARCH STREQUAL "auto")
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
      include(CheckCXXCompilerFlag)
      check_cxx_compiler_flag("-march=x86-64-v3" SUCTION_HAS_MARCH_X86_64_V3)
      if(SUCTION_HAS_MARCH_X86_64_V3 AND NOT CMAKE_CROSSCOMPILING)
        set(_src "${CMAKE_BINARY_DIR}/CMakeFiles/suction_cpu_check.cpp")
        file(WRITE "${_src}" "int main() {\n  __builtin_cpu_init();\n  return (__builtin_cpu_supports(\"avx2\") && __builtin_cpu_supports(\"fma\") && __builtin_cpu_supports(\"bmi2\")) ? 0 : 1;\n}\n")
        try_run(_run_result _compile_result "${CMAKE_BINARY_DIR}/CMakeFiles/suction_cpu_check" "${_src}")
        if(_compile_result AND _run_result EQUAL 0)
          set(SUCTION_ARCH_FLAGS "-march=x86-64-v3")
        endif()
      endif()
    endif()
  else()
    set(SUCTION_ARCH_FLAGS "-march=${SUCTION_NATIVE_ARCH}")
  endif()
endif()
if(SUCTION_ARCH_FLAGS)
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${SUCTION_ARCH_FLAGS}>")
  message(STATUS "suction: native instruction set ${SUCTION_ARCH_FLAGS} (SUCTION_NATIVE_ARCH=${SUCTION_NATIVE_ARCH})")
elseif(NOT SUCTION_WASM)
  message(STATUS "suction: native instruction set: the compiler's default (SUCTION_NATIVE_ARCH=${SUCTION_NATIVE_ARCH})")
endif()
