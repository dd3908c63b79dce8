# suction: top-level driver. `make test` is THE test command (native + WebAssembly suites).
# Every step is incremental: a second `make test` only re-checks and re-runs the tests.
#
#   make deps     install missing Debian packages (scripts/install-deps.sh)
#   make native   configure + build build/native (Release)
#   make wasm     configure + build build/wasm (em++, Release)
#   make test     native build + ctest, then wasm build + ctest under node
#   make demo     native build, then: suction run scenes/default.json
#   make bench    native build, then: suction bench on cup_fall and default, compliance sweep
#   make cuda     configure + build build/cuda (SUCTION_WITH_CUDA=ON, sm_90; compile only here)
#   make clean    remove build/
#
# Variables: JOBS (parallel jobs, default 2), BUILD_TYPE (default Release), CMAKE_ARGS
# (extra -D options for every configure), NODE (node for the wasm tests).

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := all
# quieter logs: no "Entering directory" lines from the nested makes (cmake's included)
MAKEFLAGS += --no-print-directory

JOBS        ?= 2
BUILD_TYPE  ?= Release
CMAKE       ?= cmake
CTEST       ?= ctest
EMCMAKE     ?= emcmake
NODE        ?= $(shell command -v node 2>/dev/null || echo /usr/bin/node)
CMAKE_ARGS  ?=
CUDA_ARCH   ?= 90
NVCC        ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)

BUILD_DIR   := build
NATIVE_DIR  := $(BUILD_DIR)/native
WASM_DIR    := $(BUILD_DIR)/wasm
CUDA_DIR    := $(BUILD_DIR)/cuda
SUCTION_BIN := $(NATIVE_DIR)/native/suction
# Written after a successful configure: a failed configure is retried by the next make.
STAMP       := .configured

# Emscripten's node-side tools need acorn etc. from Debian's node modules.
ifeq ($(filter /usr/share/nodejs,$(subst :, ,$(NODE_PATH))),)
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
endif
# No interactive prompts anywhere (CI has no stdin).
export DEBIAN_FRONTEND := noninteractive
# ctest: show the output of failing tests.
export CTEST_OUTPUT_ON_FAILURE := 1

.PHONY: all test deps native wasm cuda demo bench clean \
        test-native test-wasm configure-native configure-wasm configure-cuda

all: native  ## plain `make`: the native build

deps:
	@if [ -z "$(SUCTION_DEPS_CHECKED)" ]; then scripts/install-deps.sh; fi

# --- native -----------------------------------------------------------------------------
# Configure only once (until it succeeds); afterwards `cmake --build` re-runs cmake by
# itself whenever a CMakeLists.txt (or a globbed source list) changes.
configure-native: deps
	@if [ ! -f $(NATIVE_DIR)/$(STAMP) ]; then \
	  echo "==> configure native ($(NATIVE_DIR))"; \
	  $(CMAKE) -S . -B $(NATIVE_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS); \
	  touch $(NATIVE_DIR)/$(STAMP); \
	fi

native: configure-native
	@echo "==> build native"
	$(CMAKE) --build $(NATIVE_DIR) -j $(JOBS)

test-native: native
	@echo "==> test native"
	cd $(NATIVE_DIR) && $(CTEST) --output-on-failure -j $(JOBS)

# --- wasm -------------------------------------------------------------------------------
# emcmake supplies Emscripten's toolchain file (from whichever emcc is on PATH: Debian's or
# emsdk's); its default emulator adds a node flag node 20 rejects, hence the override.
configure-wasm: deps
	@if [ ! -f $(WASM_DIR)/$(STAMP) ]; then \
	  echo "==> configure wasm ($(WASM_DIR))"; \
	  $(EMCMAKE) $(CMAKE) -S . -B $(WASM_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	    -DCMAKE_CROSSCOMPILING_EMULATOR=$(NODE) $(CMAKE_ARGS); \
	  touch $(WASM_DIR)/$(STAMP); \
	fi

wasm: configure-wasm
	@echo "==> build wasm"
	$(CMAKE) --build $(WASM_DIR) -j $(JOBS)

test-wasm: wasm
	@echo "==> test wasm (node $$($(NODE) --version))"
	cd $(WASM_DIR) && $(CTEST) --output-on-failure

# --- the test command -------------------------------------------------------------------
# Both suites always run; the exit status is non-zero if either failed.
test: deps
	@native=PASS; wasm=PASS; \
	$(MAKE) test-native SUCTION_DEPS_CHECKED=1 || native=FAIL; \
	$(MAKE) test-wasm SUCTION_DEPS_CHECKED=1 || wasm=FAIL; \
	echo; \
	if [ $$native = PASS ] && [ $$wasm = PASS ]; then \
	  echo "make test: ALL PASSED (native: $$native, wasm: $$wasm)"; \
	else \
	  echo "make test: FAILED (native: $$native, wasm: $$wasm)"; exit 1; \
	fi

# --- running the CLI --------------------------------------------------------------------
demo: native
	$(SUCTION_BIN) run scenes/default.json

bench: native
	$(SUCTION_BIN) bench scenes/cup_fall.json
	$(SUCTION_BIN) bench scenes/default.json
	bench/compliance_sweep.sh $(SUCTION_BIN)

# --- CUDA (compile-only where no GPU is present) ----------------------------------------
configure-cuda: deps
	@if [ ! -f $(CUDA_DIR)/$(STAMP) ]; then \
	  echo "==> configure cuda ($(CUDA_DIR))"; \
	  $(CMAKE) -S . -B $(CUDA_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DSUCTION_WITH_CUDA=ON \
	    -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH) -DCMAKE_CUDA_COMPILER=$(NVCC) $(CMAKE_ARGS); \
	  touch $(CUDA_DIR)/$(STAMP); \
	fi

cuda: configure-cuda
	@echo "==> build cuda"
	$(CMAKE) --build $(CUDA_DIR) -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR)
