# Third-party dependencies, found the same way for every configuration and exposed as the
# usual imported targets (Eigen3::Eigen, nlohmann_json::nlohmann_json), so that
# core/CMakeLists.txt does not care whether it is compiled natively or with em++.

if(SUCTION_WASM)
  # em++ must NOT see /usr/include (glibc headers break it), and the Emscripten toolchain
  # restricts find_package() to its sysroot. Eigen and nlohmann-json are header-only, so
  # the host's copies are used, exposed through a directory in the build tree that holds
  # only symlinks to them (-isystem <build>/_wasm_include). Override the search with
  # -DSUCTION_EIGEN3_INCLUDE_DIR=... / -DSUCTION_NLOHMANN_JSON_INCLUDE_DIR=...
  find_path(SUCTION_EIGEN3_INCLUDE_DIR NAMES Eigen/Core signature_of_eigen3_matrix_library
            PATHS /usr/include/eigen3 /usr/local/include/eigen3 /opt/homebrew/include/eigen3
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH
            DOC "Directory containing Eigen/Core (host headers, used by em++)")
  find_path(SUCTION_NLOHMANN_JSON_INCLUDE_DIR NAMES nlohmann/json.hpp
            PATHS /usr/include /usr/local/include /opt/homebrew/include
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH
            DOC "Directory containing nlohmann/json.hpp (host headers, used by em++)")
  if(NOT SUCTION_EIGEN3_INCLUDE_DIR)
    message(FATAL_ERROR "Eigen 3 headers not found (apt-get install libeigen3-dev, or "
                        "-DSUCTION_EIGEN3_INCLUDE_DIR=...)")
  endif()
  if(NOT SUCTION_NLOHMANN_JSON_INCLUDE_DIR)
    message(FATAL_ERROR "nlohmann/json.hpp not found (apt-get install nlohmann-json3-dev, "
                        "or -DSUCTION_NLOHMANN_JSON_INCLUDE_DIR=...)")
  endif()

  set(SUCTION_WASM_INCLUDE_DIR "${CMAKE_BINARY_DIR}/_wasm_include")
  file(MAKE_DIRECTORY "${SUCTION_WASM_INCLUDE_DIR}")
  function(_suction_link_header_dir src name)
    set(dst "${SUCTION_WASM_INCLUDE_DIR}/${name}")
    if(IS_SYMLINK "${dst}")
      file(READ_SYMLINK "${dst}" cur)
      if(cur STREQUAL src)
        return()
      endif()
      file(REMOVE "${dst}")
    endif()
    if(EXISTS "${src}")
      file(CREATE_LINK "${src}" "${dst}" SYMBOLIC COPY_ON_ERROR)
    endif()
  endfunction()
  _suction_link_header_dir("${SUCTION_EIGEN3_INCLUDE_DIR}/Eigen" Eigen)
  _suction_link_header_dir("${SUCTION_EIGEN3_INCLUDE_DIR}/unsupported" unsupported)
  _suction_link_header_dir("${SUCTION_NLOHMANN_JSON_INCLUDE_DIR}/nlohmann" nlohmann)

  # Imported targets: their include dirs reach consumers as -isystem.
  add_library(Eigen3::Eigen INTERFACE IMPORTED GLOBAL)
  set_target_properties(Eigen3::Eigen PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${SUCTION_WASM_INCLUDE_DIR}")
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${SUCTION_WASM_INCLUDE_DIR}")

  # GoogleTest is compiled from source with em++ (tests/CMakeLists.txt).
  find_path(SUCTION_GTEST_SOURCE_DIR NAMES src/gtest-all.cc
            PATHS /usr/src/googletest/googletest /usr/src/gtest
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH
            DOC "GoogleTest source directory (the one holding src/gtest-all.cc)")
else()
  find_package(Eigen3 3.3 REQUIRED NO_MODULE)
  find_package(nlohmann_json 3.10 REQUIRED)
  if(SUCTION_BUILD_CLI)
    find_package(CLI11 CONFIG QUIET)  # native/CMakeLists.txt falls back to the bare headers
  endif()
  find_package(benchmark QUIET)  # optional: micro-benchmarks only
endif()
