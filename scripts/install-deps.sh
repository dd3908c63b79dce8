#!/usr/bin/env bash
# Installs the Debian packages the build needs (Debian 12 / bookworm). Idempotent: when
# everything is present it only runs one dpkg-query (well under a second) and no apt-get.
# Usage: scripts/install-deps.sh [--check] [--plots]
#   --check: report missing packages, exit 1 if any
#   --plots: also python3-matplotlib (the figure scripts: make convergence, scripts/*.py) and
#            xvfb + xauth (an X display for VTK's offscreen pictures: make paraview)
set -euo pipefail

# The one list of build dependencies. CGAL (header-only) needs Boost's headers and, natively,
# GMP and MPFR; the WebAssembly build uses the same CGAL/Boost headers without GMP.
PACKAGES=(
  build-essential
  cmake
  libeigen3-dev
  nlohmann-json3-dev
  libcli11-dev
  libgtest-dev
  googletest
  libbenchmark-dev
  libcgal-dev
  libgmp-dev
  libmpfr-dev
  libboost-dev
  emscripten
  nodejs
  npm               # installs three / playwright-core for web/ (skipped when some npm is on PATH)
  chromium          # headless browser for the web front end's e2e test (make test-web)
  # the ASan + UBSan build and the libFuzzer targets (make sanitize / test-sanitize / fuzz):
  clang-14          # the compiler (Debian 12's clang; with g++'s libstdc++)
  libclang-rt-14-dev  # compiler-rt: the ASan/UBSan runtimes and libFuzzer (-fsanitize=fuzzer)
  llvm-14           # llvm-symbolizer-14: file:line in sanitizer stack traces
  # design studies (docs/cluster.md): suction sweep over MPI ranks, suction fit's least squares
  libopenmpi-dev    # Open MPI: mpirun -np N suction sweep (SUCTION_WITH_MPI, found automatically)
  openmpi-bin       # mpirun, for the sweep's MPI test
  libceres-dev      # Ceres Solver: suction fit (SUCTION_WITH_CERES, found automatically)
  # ParaView output (docs/paraview.md): the frames read back by VTK's own reader in a test
  python3-vtk9
  # the scene schema (scenes/schema/scene.schema.json) checked by a JSON Schema validator in a test
  python3-jsonschema
)

CHECK=0
for arg in "$@"; do
  case "$arg" in
    --check) CHECK=1 ;;
    --plots) PACKAGES+=(python3-matplotlib xvfb xauth) ;;
    *) echo "install-deps: unknown option $arg (--check, --plots)" >&2; exit 2 ;;
  esac
done

missing=()
installed="$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2>/dev/null || true)"
for pkg in "${PACKAGES[@]}"; do
  if [[ "$pkg" == nodejs ]] && command -v node >/dev/null 2>&1; then
    continue  # any working node will do (e.g. NodeSource's or nvm's); don't replace it
  fi
  if [[ "$pkg" == npm ]] && command -v npm >/dev/null 2>&1; then
    continue  # likewise any npm (NodeSource's node ships its own)
  fi
  if ! grep -qx "$pkg installed" <<<"$installed"; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all build dependencies present"
  exit 0
fi
echo "install-deps: missing: ${missing[*]}"
if [[ "$CHECK" -eq 1 ]]; then
  exit 1
fi

SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "install-deps: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
