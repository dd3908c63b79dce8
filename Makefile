# suction: top-level driver. `make test` is THE test command (native, wasm, web, sanitize).
# Every step is incremental: a second `make test` only re-checks and re-runs the tests.
#
#   make deps     install missing Debian packages (scripts/install-deps.sh)
#   make native   configure + build build/native (Release)
#   make wasm     configure + build build/wasm (em++, Release, threads + SIMD): the page's module,
#                 the node module and the test suite (the one WebAssembly build)
#   make wasm-web build only the page's module of build/wasm
#   make test     make builds, then native ctest, wasm ctest under node, test-web and
#                 test-sanitize-suite (each suite first builds what is left)
#   make builds   the native, wasm and sanitize trees built together (one jobserver, JOBS slots)
#   make demo     the browser simulator: deps, wasm-web, web, then serve build/web on
#                 http://localhost:8080/ (PORT=... overrides)
#   make demo-native  native build, then: suction run scenes/default.json (a text summary)
#   make web      assemble build/web (web/ + three.js + the wasm-web module + scenes/)
#   make test-web node unit tests of web/ (node --test web/test/) + the chromium e2e test
#   make bunny-mesh  scenes/meshes/bunny.obj from the npm package bunny (web/tools/bunny_mesh.mjs)
#   make bench    native build, then: suction bench on cup_fall, default, ground, rigid_lift,
#                 pull_test (per-stage tables), and the page's five scenes at interactive quality;
#                 the compliance sweep; wasm (node) against native
#                 over the whole of ground, rigid_lift, pull_test; then bench-browser
#   make bench-wasm   wasm (node, the page's SIMD build in build/wasm-bench) against native and
#                 against a native build of the same vector width (build/native-sse, SSE2),
#                 200 steps of default and cup_fall (a table)
#   make bench-browser  wasm-web, web, then bench/browser_rtf.mjs: the real-time factor in
#                 headless chromium of ground, rigid_lift, pull_test, soft_cube_lift, organic_object,
#                 each at interactive then at reference quality (a table; JSON in build/bench)
#   make soak     native build, then every scene looped SOAK_STEPS (20000) steps by `suction soak`
#                 (finite, closed air books, memory flat; table in build/soak), and a short soak
#                 under ASan+UBSan when build/sanitize exists
#   make soak-browser  wasm-web, web, then bench/browser_soak.mjs: SOAK_MINUTES (10) of play of
#                 SOAK_SCENE (ground) in headless chromium, looping, memory sampled after a forced
#                 GC; fails if wasm memory or JS objects grow > 1 % after the warm-up (docs/web.md)
#   make cuda     configure + build build/cuda (SUCTION_WITH_CUDA=ON, sm_90; compile only here)
#   make table2   cuda build, then scripts/table2.py: the paper's Table 2 sweep, cpu and cuda
#   make bench-sweep  native build, then bench/sweep_speed.sh: a 48-run pull-test sweep one after
#                 another, with --jobs 2 and on 2 MPI ranks (wall times, the tables identical)
#   make quality  native build, then scripts/quality_table.py: every scene at reference and at
#                 interactive quality (suction quality), its story numbers side by side; exit 1 when
#                 one exceeds its limit (~7 min here; table and JSON in build/quality)
#   make solvers  native build, then scripts/solver_table.py: the constraint solvers side by side
#                 (pgs, apgd, uzawa: iterations, residual, ms per solve and per step) on ground,
#                 rigid_lift, pull_test, soft_cube_lift and cube_grasp at 1, 8, 13, 17 cells
#                 (contact reduction off: the rows grow with the cells) and at 17 as written
#                 (~15 min here; SOLVER_TABLE_ARGS adds flags, e.g. --backend cuda
#                 --methods pgs,apgd_cuda --bin build/cuda/native/suction on a GPU machine)
#   make table1   native build, then scripts/table1.py: the paper's Table 1 (ms per step and per
#                 stage with shares, FEM / collision nodes, mean rows) on its seven scenes (ground,
#                 soft cube, bunny, toy, robot, cube halves, tentacle), 150 steps around each one's
#                 suction, next to the paper's numbers; a row without its scene prints "—" (~30 s
#                 here; table, JSON and CSV in build/table1; TABLE1_ARGS adds flags, e.g. --threads 2
#                 or --backend cuda --bin build/cuda/native/suction on a GPU machine)
#   make gas-speed  native build, then scripts/gas_speed.py: the pull test at R = 31.5 mm with the
#                 fitted cup (E 1.124 MPa) pulled at 5-100 mm/s with each gas law (isothermal,
#                 exchange, adiabatic): the detachment force table and docs/img/gas_speed.png (~10 min)
#   make convergence  native build, then scripts/convergence.py: the paper's Fig. 9 study (mesh
#                 size and time step on scenes/ground.json) -> docs/img/convergence.png
#   make paraview  native build, then a pull test's frames (bodies with von Mises stress, the
#                 cavity with its pressure, contact forces) in build/paraview and the VTK picture of
#                 them, docs/img/pull_test_paraview.png (docs/paraview.md)
#   make scene-docs  docs/scene-format.md's key tables rewritten from scenes/schema/scene.schema.json
#   make sanitize configure + build build/sanitize (clang-14, ASan + UBSan, libFuzzer targets)
#   make test-sanitize  sanitize build, then its ctest under ASan + UBSan (gtest suite, CLI
#                 test, replay of fuzz/corpus + fuzz/regressions); SANITIZE_CTEST_ARGS adds flags
#   make fuzz     sanitize build, then each libFuzzer target FUZZ_SECONDS (60) on build/fuzz/corpus;
#                 findings in build/fuzz/artifacts/<target>/ (docs/fuzzing.md)
#   make fuzz-smoke  FUZZ_SMOKE_SECONDS (5) per target on fresh seed corpora, fixed seed
#   make test-sanitize-suite  test-sanitize without the slow stories (suites named *Story)
#                 + fuzz-smoke: the fourth suite of make test
#   make clean    remove build/
#
# Variables: JOBS (parallel jobs, default 2), BUILD_TYPE (default Release), CMAKE_ARGS
# (extra -D options for every configure), NODE (node for the wasm tests), FUZZ_SECONDS,
# FUZZ_SMOKE_SECONDS, FUZZ_TARGETS, FUZZ_ARGS (libFuzzer flags), SANITIZE_CXX (clang++-14).

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
# Written after a successful configure, holding the configure command: a failed configure is
# retried by the next make, and a tree configured with other options is configured again.
STAMP       := .configured
# `cmake --build`'s job count for the native, wasm and sanitize trees; empty in `make builds`,
# where their makes share one jobserver of JOBS slots (a make given -jN makes its own; the
# recipes' `+` hands them the jobserver, and also runs them under `make -n`)
BUILD_J     ?= -j $(JOBS)
# $(call build_tag,NAME): in `make builds` (TAG_BUILDS=1) each line of a tree's build output
# starts with [NAME], so the three interleaved logs stay readable
build_tag    = $(if $(TAG_BUILDS),2>&1 | sed -u 's/^/[$(1)] /')

# Emscripten's node-side tools need acorn etc. from Debian's node modules.
ifeq ($(filter /usr/share/nodejs,$(subst :, ,$(NODE_PATH))),)
export NODE_PATH := /usr/share/nodejs$(if $(NODE_PATH),:$(NODE_PATH))
endif
# No interactive prompts anywhere (CI has no stdin).
export DEBIAN_FRONTEND := noninteractive
# ctest: show the output of failing tests.
export CTEST_OUTPUT_ON_FAILURE := 1

.PHONY: all test deps native wasm cuda table1 table2 solvers press-study quality-params convergence gas-speed paraview scene-docs demo bench clean \
        test-native test-wasm configure-native configure-wasm configure-cuda \
        wasm-web bench-wasm wasm-bench configure-wasm-bench bench-browser \
        web web-deps serve demo-native native-cli test-web test-web-unit test-web-e2e bunny-mesh \
        configure-native-sse native-sse

all: native  ## plain `make`: the native build

deps:
	@if [ -z "$(SUCTION_DEPS_CHECKED)" ]; then scripts/install-deps.sh; fi

# --- native -----------------------------------------------------------------------------
# Configure only once (until it succeeds); afterwards `cmake --build` re-runs cmake by
# itself whenever a CMakeLists.txt (or a globbed source list) changes.
# $(call configure_once,DIR,LABEL,CMAKE COMMAND WITH OPTIONS): configure DIR unless its stamp
# exists (written only after a successful configure) and holds this very command; CMAKE_ARGS
# come last
define configure_once
	@cmd='$(strip $(3)) -S . -B $(1) $(CMAKE_ARGS)'; \
	if [ ! -f $(1)/$(STAMP) ] || [ "$$(cat $(1)/$(STAMP))" != "$$cmd" ]; then \
	  echo "==> configure $(strip $(2)) ($(1))"; \
	  $(3) -S . -B $(1) $(CMAKE_ARGS) && printf '%s' "$$cmd" > $(1)/$(STAMP); \
	fi
endef

configure-native: deps
	$(call configure_once,$(NATIVE_DIR),native,$(CMAKE) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE))

native: configure-native
	@echo "==> build native"
	+$(CMAKE) --build $(NATIVE_DIR) $(BUILD_J) $(call build_tag,native)

test-native: native
	@echo "==> test native"
	cd $(NATIVE_DIR) && $(CTEST) --output-on-failure -j $(JOBS) -LE long

# the long stories make test leaves out (ctest label `long`: suction fit's synthetic pull test,
# 3.5 min; docs/validation.md "Identifying a cup")
.PHONY: test-long
test-long: native
	@echo "==> test long"
	cd $(NATIVE_DIR) && $(CTEST) --output-on-failure -L long

# --- wasm -------------------------------------------------------------------------------
# emcmake supplies Emscripten's toolchain file (from whichever emcc is on PATH: Debian's or
# emsdk's); its default emulator adds a node flag node 20 rejects, hence the override.
# One WebAssembly build, threads + SIMD (docs/wasm-api.md): build/wasm holds the page's module
# (suction_wasm.js/.wasm/.worker.js: ES6 factory createSuction, -pthread, -msimd128,
# ENVIRONMENT=web,worker, + suction_wasm.d.ts in build/wasm/wasm), the same code as a CommonJS
# node module (suction_wasm_node.js: tests, parity) and the GoogleTest suite run by node: the
# tests run the very objects the page runs, and CI compiles the core for wasm once, not twice
# (a separate single-threaded test tree cost about 8 minutes of CI's two cores).
configure-wasm: deps
	$(call configure_once,$(WASM_DIR),wasm,$(EMCMAKE) $(CMAKE) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_CROSSCOMPILING_EMULATOR=$(NODE) -DSUCTION_WASM_THREADS=ON -DSUCTION_WASM_SIMD=ON \
	  -DSUCTION_WASM_TEST_LINK_OPT=-O1)

wasm: configure-wasm
	@echo "==> build wasm"
	+$(CMAKE) --build $(WASM_DIR) $(BUILD_J) $(call build_tag,wasm)

test-wasm: wasm
	@echo "==> test wasm (node $$($(NODE) --version))"
	cd $(WASM_DIR) && $(CTEST) --output-on-failure -j $(JOBS)

# --- wasm-web: only the page's module of build/wasm (make demo, make web) ---------------------
wasm-web: configure-wasm
	@echo "==> build wasm (the page's module)"
	$(CMAKE) --build $(WASM_DIR) -j $(JOBS) --target suction_wasm suction_wasm_files

# --- sanitizers and fuzzing (docs/fuzzing.md) --------------------------------------------
# build/sanitize: everything (core, CLI, tests) with ASan + UBSan, compiled by clang-14, plus the
# libFuzzer targets of fuzz/ (cmake/Sanitize.cmake).  test-sanitize runs its ctest (the whole
# GoogleTest suite, the CLI end-to-end test, the replay of fuzz/corpus and fuzz/regressions);
# fuzz runs each target FUZZ_SECONDS on the corpora fuzz/make_corpus.sh assembles in
# build/fuzz/corpus (kept and grown between runs), findings in build/fuzz/artifacts/<target>/.
SANITIZE_DIR        := $(BUILD_DIR)/sanitize
FUZZ_DIR            := $(BUILD_DIR)/fuzz
SANITIZE_CC         ?= clang-14
SANITIZE_CXX        ?= clang++-14
SANITIZE_BUILD_TYPE ?= RelWithDebInfo
FUZZ_SECONDS        ?= 60
FUZZ_SMOKE_SECONDS  ?= 5
FUZZ_TARGETS        ?= scene expression gmsh obj stl
SANITIZE_CTEST_ARGS ?=
# GoogleTest filter for test-sanitize (GTEST_FILTER; empty: the whole suite)
SANITIZE_GTEST_FILTER ?=
# Slow stories are named, not listed: a test whose suite name ends in `Story`
# (TEST(SuctionScenesStory, ...)) simulates a whole scene (1.5 to 14 s natively, 25 to 40 times
# that under ASan + UBSan with the fuzzer's coverage instrumentation, 3 to 5 times under node).
# Stories run natively (test-native) and in `make test-sanitize`; make test's sanitize suite and
# the wasm suite under node (tests/CMakeLists.txt) leave them out with this filter. The
# simulation code they run stays covered there by the other SuctionScenes / ContactScenes /
# PressDrivers / Watchdog tests, the parity test and the CLI test (docs/fuzzing.md).
STORY_FILTER := -*Story.*
SANITIZE_QUICK_FILTER := $(STORY_FILTER)
# the same rule for ctest's script tests: a test named *_story (tests/cli/test_fit_story.sh)
STORY_CTEST_EXCLUDE := _story
# any report aborts the process (a failed test), with its stack (file:line, inlined frames
# through llvm-14's symbolizer, which is not on PATH); leaks are reported at exit
SANITIZE_SYMBOLIZER ?= /usr/lib/llvm-14/bin/llvm-symbolizer
SANITIZE_ENV := ASAN_OPTIONS=halt_on_error=1:print_stacktrace=1:detect_leaks=1 \
                UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
                $(if $(wildcard $(SANITIZE_SYMBOLIZER)),ASAN_SYMBOLIZER_PATH=$(SANITIZE_SYMBOLIZER))

.PHONY: sanitize configure-sanitize test-sanitize fuzz fuzz-smoke test-sanitize-suite

# MPI off here: the sanitized CLI test checks the build without MPI (its refusal under a launcher),
# the native one checks mpirun; ASan and Open MPI runtimes are not mixed
configure-sanitize: deps
	$(call configure_once,$(SANITIZE_DIR),sanitize with $(SANITIZE_CXX): ASan + UBSan + libFuzzer,\
	  CC=$(SANITIZE_CC) CXX=$(SANITIZE_CXX) $(CMAKE) -DCMAKE_BUILD_TYPE=$(SANITIZE_BUILD_TYPE) \
	  -DSUCTION_SANITIZE=ON -DSUCTION_FUZZ=ON -DSUCTION_WITH_MPI=OFF)

sanitize: configure-sanitize
	@echo "==> build sanitize"
	+$(CMAKE) --build $(SANITIZE_DIR) $(BUILD_J) $(call build_tag,sanitize)

test-sanitize: sanitize
	@echo "==> test sanitize (ASan + UBSan)"
	cd $(SANITIZE_DIR) && $(SANITIZE_ENV) $(if $(SANITIZE_GTEST_FILTER),GTEST_FILTER='$(SANITIZE_GTEST_FILTER)') \
	  $(CTEST) --output-on-failure -j $(JOBS) $(SANITIZE_CTEST_ARGS)

fuzz: sanitize
	@echo "==> fuzz: $(FUZZ_SECONDS) s per target ($(FUZZ_TARGETS))"
	fuzz/make_corpus.sh $(FUZZ_DIR)/corpus
	$(SANITIZE_ENV) fuzz/run_fuzz.sh $(SANITIZE_DIR) $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# the short run of `make test`: fresh seed corpora, a fixed seed, FUZZ_SMOKE_SECONDS per target
fuzz-smoke: sanitize
	@echo "==> fuzz smoke: $(FUZZ_SMOKE_SECONDS) s per target"
	fuzz/make_corpus.sh $(FUZZ_DIR)/smoke-corpus --fresh
	$(SANITIZE_ENV) FUZZ_ARGS="-seed=1 $(FUZZ_ARGS)" FUZZ_LOG_DIR=$(FUZZ_DIR)/smoke-logs fuzz/run_fuzz.sh $(SANITIZE_DIR) \
	  $(FUZZ_DIR)/smoke-corpus $(FUZZ_DIR)/smoke-artifacts $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# the fourth suite of `make test`: test-sanitize without the stories (STORY_FILTER), then fuzz-smoke;
# both always run; fails if either failed
test-sanitize-suite: deps
	@tests=PASS; smoke=PASS; \
	$(MAKE) test-sanitize SUCTION_DEPS_CHECKED=1 SANITIZE_GTEST_FILTER='$(SANITIZE_QUICK_FILTER)' \
	  SANITIZE_CTEST_ARGS='-E $(STORY_CTEST_EXCLUDE) $(SANITIZE_CTEST_ARGS)' || tests=FAIL; \
	$(MAKE) fuzz-smoke SUCTION_DEPS_CHECKED=1 || smoke=FAIL; \
	echo "test-sanitize-suite: tests: $$tests, fuzz smoke: $$smoke"; \
	[ $$tests = PASS ] && [ $$smoke = PASS ]

# --- the test command -------------------------------------------------------------------
# `make builds`: the native, wasm and sanitize trees built together, their makes sharing one
# jobserver of JOBS slots (configures included).  Built one after the other, each tree left CI's
# two cores partly idle at its ends (a long CGAL file compiling alone, links, configures); built
# together, one tree's files fill the other's gaps.  -k: a tree that fails to build stops only
# itself (its suite then builds again and fails in its turn).
.PHONY: builds
builds: deps
	@echo "==> build native, wasm and sanitize together ($(JOBS) jobs in all; lines tagged by tree)"
	@$(MAKE) -j$(JOBS) -k native wasm sanitize BUILD_J= TAG_BUILDS=1 SUCTION_DEPS_CHECKED=1

# All four suites (native, wasm, web, sanitize) always run; the exit status is non-zero if any failed.
# First the three builds together (`make builds`); each suite then builds whatever is left (nothing
# when they all built) and runs.  Each step's wall time is printed at the end: CI's budget is watched.
test: deps
	@native=PASS; wasm=PASS; web=PASS; sanitize=PASS; t0=$$(date +%s); \
	$(MAKE) builds SUCTION_DEPS_CHECKED=1 || echo "make test: a build failed (its suite will say which)"; tb=$$(date +%s); \
	$(MAKE) test-native SUCTION_DEPS_CHECKED=1 || native=FAIL; t1=$$(date +%s); \
	$(MAKE) test-wasm SUCTION_DEPS_CHECKED=1 || wasm=FAIL; t2=$$(date +%s); \
	$(MAKE) test-web SUCTION_DEPS_CHECKED=1 || web=FAIL; t3=$$(date +%s); \
	$(MAKE) test-sanitize-suite SUCTION_DEPS_CHECKED=1 || sanitize=FAIL; t4=$$(date +%s); \
	echo; \
	echo "make test: wall time: builds $$((tb - t0)) s, then native $$((t1 - tb)) s, wasm $$((t2 - t1)) s, web $$((t3 - t2)) s, sanitize $$((t4 - t3)) s; $$((t4 - t0)) s in all"; \
	if [ $$native = PASS ] && [ $$wasm = PASS ] && [ $$web = PASS ] && [ $$sanitize = PASS ]; then \
	  echo "make test: ALL PASSED (native: $$native, wasm: $$wasm, web: $$web, sanitize: $$sanitize)"; \
	else \
	  echo "make test: FAILED (native: $$native, wasm: $$wasm, web: $$web, sanitize: $$sanitize)"; exit 1; \
	fi

# --- running the CLI --------------------------------------------------------------------
demo-native: native
	$(SUCTION_BIN) run scenes/default.json

# the scenes of the issue "Real time in the browser": per-stage tables, wasm/native, browser RTF
BENCH_SCENES := ground rigid_lift pull_test
# the page's real-time scenes (docs/validation.md, "Quality levels"): the browser bench at both
# qualities, and native per-stage tables of their whole duration at interactive quality
BROWSER_SCENES := ground rigid_lift pull_test soft_cube_lift organic_object

bench: native
	$(SUCTION_BIN) bench scenes/cup_fall.json
	$(SUCTION_BIN) bench scenes/default.json
	$(SUCTION_BIN) bench scenes/ground.json
	$(SUCTION_BIN) bench scenes/rigid_lift.json
	$(SUCTION_BIN) bench scenes/pull_test.json
	for s in $(BROWSER_SCENES); do $(SUCTION_BIN) bench scenes/$$s.json --quality interactive --steps 0 --warmup 0; done
	bench/compliance_sweep.sh $(SUCTION_BIN)
	@$(MAKE) bench-wasm SUCTION_DEPS_CHECKED=1 BENCH_WASM_SCENES="$(BENCH_SCENES)" BENCH_WASM_STEPS=whole
	@$(MAKE) bench-browser SUCTION_DEPS_CHECKED=1

# the sweep's speed: 48 pull-test runs one after another, --jobs 2 and mpirun -np 2 (a table;
# logs and the three tables, which must be identical, in build/bench/sweep; ~4 min here)
.PHONY: bench-sweep
bench-sweep: native
	bench/sweep_speed.sh $(SUCTION_BIN) $(BUILD_DIR)/bench/sweep

# every scene at reference and at interactive quality, its story numbers side by side, exit 1 when
# one exceeds its limit (docs/validation.md, "Quality levels"; table and JSON in build/quality)
.PHONY: quality
quality: native
	python3 scripts/quality_table.py --check --bin $(SUCTION_BIN) --out $(BUILD_DIR)/quality

# the interactive quality over the scenes' parameters (scripts/quality_params.py; docs/validation.md,
# "The interactive quality over the parameters"): each parameter at half and twice its default,
# reference against interactive; a long study, not part of make test. QUALITY_PARAMS_ARGS: scenes,
# --param NAME=V1,V2, --only, --jobs
QUALITY_PARAMS_ARGS ?=
quality-params: native
	python3 scripts/quality_params.py --bin $(SUCTION_BIN) --out $(BUILD_DIR)/quality-params $(QUALITY_PARAMS_ARGS)

# the press study (issue 49; docs/validation.md, "The press study"): two cups, lips 1, 1.5 and
# 3 mm, pressed 1-9 mm on flat and curved surfaces, the soft cube and the tunnel block, held and
# pulled; peak forces, failed unions and interpenetrations (~15 min on 2 cores; build/press_study, resumed)
PRESS_STUDY_ARGS ?=
press-study: native
	python3 scripts/press_study.py --bin $(SUCTION_BIN) --out $(BUILD_DIR)/press_study --jobs $(JOBS) $(PRESS_STUDY_ARGS)

# the constraint solvers side by side (docs/validation.md, "The constraint solvers")
SOLVER_TABLE_ARGS ?=
solvers: native
	python3 scripts/solver_table.py --bin $(SUCTION_BIN) $(SOLVER_TABLE_ARGS)

# the paper's Table 1: ms per step and per stage on its seven scenes, 150 steps around each
# one's suction (scripts/table1.py; table, JSON and CSV in build/table1)
TABLE1_ARGS ?=
table1: native
	python3 scripts/table1.py --bin $(SUCTION_BIN) $(TABLE1_ARGS)

# the paper's Fig. 9: ground.json over 4 cup meshes and 3 time steps, sequential (~15 min);
# CSVs and the table in build/convergence, the figure in docs/img/convergence.png
gas-speed: native
	@scripts/install-deps.sh --plots
	/usr/bin/python3 scripts/gas_speed.py --suction $(SUCTION_BIN) --speeds 5,10,20,50,100 \
	  --set /materials/neoprene/young=1.124e6 --jobs $(JOBS)

convergence: native
	@scripts/install-deps.sh --plots
	/usr/bin/python3 scripts/convergence.py --suction $(SUCTION_BIN)

# docs/scene-format.md's key tables rewritten from the scene schema (scenes/schema/
# scene.schema.json; ctest's suction_scene_schema_docs fails while they differ)
scene-docs:
	/usr/bin/python3 scripts/scene_schema_docs.py

# a pull test's ParaView frames (build/paraview) and the picture of them rendered by VTK
# offscreen under xvfb (docs/paraview.md -> docs/img/pull_test_paraview.png; ~20 s)
paraview: native
	@scripts/install-deps.sh --plots
	$(SUCTION_BIN) run scenes/pull_test.json --quiet --frames $(BUILD_DIR)/paraview --every 10
	xvfb-run -a /usr/bin/python3 scripts/paraview_picture.py $(BUILD_DIR)/paraview --out docs/img/pull_test_paraview.png

# WebAssembly (node) against native, ms/step on default and cup_fall (a markdown table);
# BENCH_WASM_SCENES (the script's SCENES) and BENCH_WASM_STEPS (a count, or `whole`) override
BENCH_WASM_SCENES ?=
BENCH_WASM_STEPS  ?=
# the node module with the page's code generation (-msimd128; node runs it on one thread) for
# bench-wasm: the test build (build/wasm) has no SIMD, and Eigen's kernels differ without it
WASM_BENCH_DIR := $(BUILD_DIR)/wasm-bench
configure-wasm-bench: deps
	$(call configure_once,$(WASM_BENCH_DIR),wasm-bench,$(EMCMAKE) $(CMAKE) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_CROSSCOMPILING_EMULATOR=$(NODE) -DSUCTION_WASM_SIMD=ON)

wasm-bench: configure-wasm-bench
	@echo "==> build wasm-bench (the node module with SIMD)"
	$(CMAKE) --build $(WASM_BENCH_DIR) -j $(JOBS) --target suction_wasm_node

# a native CLI of wasm's vector width (SSE2, SUCTION_NATIVE_ARCH=none): the ratio the target is set on
NATIVE_SSE_DIR := $(BUILD_DIR)/native-sse
configure-native-sse: deps
	$(call configure_once,$(NATIVE_SSE_DIR),native-sse,$(CMAKE) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DSUCTION_NATIVE_ARCH=none -DSUCTION_BUILD_TESTS=OFF)

native-sse: configure-native-sse
	@echo "==> build native-sse (the CLI at SSE2, the vector width of wasm SIMD128)"
	$(CMAKE) --build $(NATIVE_SSE_DIR) -j $(JOBS) --target suction

bench-wasm: native native-sse wasm-bench
	$(if $(BENCH_WASM_SCENES),SCENES="$(BENCH_WASM_SCENES)") NATIVE_SAME_WIDTH=$(NATIVE_SSE_DIR)/native/suction \
	  bench/wasm_vs_native.sh $(SUCTION_BIN) \
	  $(WASM_BENCH_DIR)/wasm/suction_wasm_node.js $(BENCH_WASM_STEPS)

# the browser's real-time factor: each scene's whole duration in headless chromium at the page's
# highest speed (bench/browser_rtf.mjs; needs the page, built as for test-web-e2e).
# BENCH_BROWSER_ARGS: more options, e.g. --timeout pull_test=300
BENCH_BROWSER_ARGS ?=
bench-browser: wasm-web web
	@echo "==> bench: browser real-time factor (chromium, bench/browser_rtf.mjs)"
	$(NODE) bench/browser_rtf.mjs $(BROWSER_SCENES) --json $(BUILD_DIR)/bench/browser_rtf.json $(BENCH_BROWSER_ARGS)

# the issue "long runs": SOAK_MINUTES of play of SOAK_SCENE in headless chromium, the scene looping
# (reset + play at its end), memory sampled after a forced GC (bench/browser_soak.mjs). Exit 1 if
# the wasm memory or the page's or the worker's JS objects grew more than 1 % after the warm-up.
# SOAK_ARGS: more options, e.g. --sample-seconds 30 --warmup-minutes 3
SOAK_MINUTES ?= 10
SOAK_SCENE   ?= ground
SOAK_ARGS    ?=
# every scene looped natively for SOAK_STEPS steps (suction soak: finite steps, closed air
# books, memory flat after the warm-up); JSON and a table in build/soak (scripts/soak.sh).
# SOAK_SCENES: a subset (paths). With a sanitizer build (make sanitize), also SOAK_SANITIZE_STEPS
# steps of each under ASan+UBSan (memory growth not judged there: the quarantine holds memory).
SOAK_STEPS          ?= 20000
SOAK_SANITIZE_STEPS ?= 300
SOAK_SCENES         ?=
.PHONY: soak
soak: native
	scripts/soak.sh $(SUCTION_BIN) $(BUILD_DIR)/soak $(SOAK_STEPS) 0.01 $(SOAK_SCENES)
	@if [ -x $(BUILD_DIR)/sanitize/native/suction ]; then \
	  echo "==> soak under ASan+UBSan ($(SOAK_SANITIZE_STEPS) steps each)"; \
	  scripts/soak.sh $(BUILD_DIR)/sanitize/native/suction $(BUILD_DIR)/soak-sanitize $(SOAK_SANITIZE_STEPS) -1 $(SOAK_SCENES); \
	else echo "(no build/sanitize: make sanitize adds the soak under the sanitizers)"; fi

.PHONY: soak-browser
soak-browser: wasm-web web
	@echo "==> soak: $(SOAK_MINUTES) min of $(SOAK_SCENE) in chromium, memory flat? (bench/browser_soak.mjs)"
	$(NODE) bench/browser_soak.mjs --scene $(SOAK_SCENE) --minutes $(SOAK_MINUTES) \
	  --json $(BUILD_DIR)/bench/browser_soak_$(SOAK_SCENE).json $(SOAK_ARGS)

# --- CUDA (compile-only where no GPU is present) ----------------------------------------
configure-cuda: deps
	$(call configure_once,$(CUDA_DIR),cuda,$(CMAKE) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DSUCTION_WITH_CUDA=ON \
	  -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH) -DCMAKE_CUDA_COMPILER=$(NVCC))

cuda: configure-cuda
	@echo "==> build cuda"
	$(CMAKE) --build $(CUDA_DIR) -j $(JOBS)

# the paper's Table 2, cpu and cuda compliance side by side (needs an NVIDIA GPU at run time)
table2: cuda
	python3 scripts/table2.py --bin $(CUDA_DIR)/native/suction

clean:
	rm -rf $(BUILD_DIR)

# --- the browser front end (web/, docs/web.md) -----------------------------------------
# npm ci only when web/node_modules is missing or package.json / package-lock.json changed
# (the stamp lives inside node_modules, so removing node_modules also re-installs).
WEB_DIR       := $(BUILD_DIR)/web
WASM_WEB_OUT  := $(WASM_DIR)/wasm
WEB_NPM_STAMP := web/node_modules/.suction-npm-ci.stamp
PORT          ?= 8080

$(WEB_NPM_STAMP): web/package.json web/package-lock.json
	@echo "==> npm ci (web/)"
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web-deps: $(WEB_NPM_STAMP)

# build/web: the static files of web/, three.js, the page's wasm module of build/wasm,
# scenes/*.json and a generated scenes/index.json.
web: web-deps wasm-web
	@echo "==> assemble $(WEB_DIR)"
	$(NODE) web/build.mjs --out $(WEB_DIR) --wasm $(WASM_WEB_OUT)

serve:
	PORT=$(PORT) $(NODE) scripts/serve.mjs $(WEB_DIR)

demo: deps
	@$(MAKE) wasm-web SUCTION_DEPS_CHECKED=1
	@$(MAKE) web SUCTION_DEPS_CHECKED=1
	@echo "==> the browser simulator: open http://localhost:$(PORT)/ (Ctrl-C stops the server)"
	PORT=$(PORT) $(NODE) scripts/serve.mjs $(WEB_DIR)

# scenes/meshes/bunny.obj from the npm package bunny (web/tools/bunny_mesh.mjs; the unit test
# web/test/bunny_mesh.test.mjs checks that the committed file is what this makes)
bunny-mesh: web-deps
	$(NODE) web/tools/bunny_mesh.mjs scenes/meshes/bunny.obj

test-web-unit: web-deps
	@echo "==> test web: unit tests (node --test web/test/)"
	$(NODE) --test --test-reporter=spec web/test/

# the e2e compares every lesson's pauses with the native CLI's CSV of the same run: the CLI only
native-cli: configure-native
	$(CMAKE) --build $(NATIVE_DIR) -j $(JOBS) --target suction

test-web-e2e: wasm-web web native-cli
	@echo "==> test web: e2e (chromium, tests/web/e2e.mjs)"
	$(NODE) tests/web/e2e.mjs

# both always run; fails if either failed
test-web: deps
	@unit=PASS; e2e=PASS; \
	$(MAKE) test-web-unit SUCTION_DEPS_CHECKED=1 || unit=FAIL; \
	$(MAKE) test-web-e2e SUCTION_DEPS_CHECKED=1 || e2e=FAIL; \
	echo "test-web: unit: $$unit, e2e: $$e2e"; \
	[ $$unit = PASS ] && [ $$e2e = PASS ]
