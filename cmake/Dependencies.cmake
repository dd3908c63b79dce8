# Header-only dependencies found the same way natively and under Emscripten
# (em++ is pointed at the system include dirs; see cmake/Emscripten.cmake).
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
