# Toolchain wrapper for the `wasm` preset: locates Emscripten's own toolchain file and
# includes it, so the preset works with Debian's emscripten (/usr/share/emscripten) and
# with a newer emcc from emsdk on PATH, without hard-coding either.
#
# Search order: -DSUCTION_EMSCRIPTEN_ROOT=..., $EMSCRIPTEN_ROOT, $EMSDK/upstream/emscripten,
# the real directory of `emcc` on PATH, `em-config EMSCRIPTEN_ROOT`, /usr/share/emscripten.
# (`emcmake cmake ...` works too: it passes Emscripten.cmake directly.)

set(_suction_em_rel "cmake/Modules/Platform/Emscripten.cmake")

if(NOT SUCTION_EMSCRIPTEN_ROOT AND DEFINED ENV{SUCTION_EMSCRIPTEN_ROOT_FOUND})
  # try_compile() sub-projects re-read this file: reuse what the main project found.
  set(SUCTION_EMSCRIPTEN_ROOT "$ENV{SUCTION_EMSCRIPTEN_ROOT_FOUND}")
endif()

if(NOT SUCTION_EMSCRIPTEN_ROOT)
  set(_cands)
  if(DEFINED ENV{EMSCRIPTEN_ROOT})
    list(APPEND _cands "$ENV{EMSCRIPTEN_ROOT}")
  endif()
  if(DEFINED ENV{EMSDK})
    list(APPEND _cands "$ENV{EMSDK}/upstream/emscripten")
  endif()
  find_program(_suction_emcc NAMES emcc NO_CACHE)
  if(_suction_emcc)
    get_filename_component(_emcc_real "${_suction_emcc}" REALPATH)
    get_filename_component(_emcc_dir "${_emcc_real}" DIRECTORY)
    list(APPEND _cands "${_emcc_dir}")
  endif()
  foreach(_c IN LISTS _cands)
    if(EXISTS "${_c}/${_suction_em_rel}")
      set(SUCTION_EMSCRIPTEN_ROOT "${_c}")
      break()
    endif()
  endforeach()
  if(NOT SUCTION_EMSCRIPTEN_ROOT)
    find_program(_suction_emconfig NAMES em-config NO_CACHE)
    if(_suction_emconfig)
      execute_process(COMMAND "${_suction_emconfig}" EMSCRIPTEN_ROOT
                      OUTPUT_VARIABLE _r OUTPUT_STRIP_TRAILING_WHITESPACE
                      RESULT_VARIABLE _rc ERROR_QUIET)
      if(_rc EQUAL 0 AND EXISTS "${_r}/${_suction_em_rel}")
        set(SUCTION_EMSCRIPTEN_ROOT "${_r}")
      endif()
    endif()
  endif()
  if(NOT SUCTION_EMSCRIPTEN_ROOT AND EXISTS "/usr/share/emscripten/${_suction_em_rel}")
    set(SUCTION_EMSCRIPTEN_ROOT "/usr/share/emscripten")
  endif()
endif()

if(NOT SUCTION_EMSCRIPTEN_ROOT OR NOT EXISTS "${SUCTION_EMSCRIPTEN_ROOT}/${_suction_em_rel}")
  message(FATAL_ERROR "Emscripten not found: install it (scripts/install-deps.sh), put emcc on "
                      "PATH, or pass -DSUCTION_EMSCRIPTEN_ROOT=<dir containing emcc>.")
endif()
set(ENV{SUCTION_EMSCRIPTEN_ROOT_FOUND} "${SUCTION_EMSCRIPTEN_ROOT}")
include("${SUCTION_EMSCRIPTEN_ROOT}/${_suction_em_rel}")
