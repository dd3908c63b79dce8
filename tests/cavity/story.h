// Shared by the scene story tests (tests/cavity/test_*.cpp that run a file of scenes/): the
// index of a named probe, and an FEM body's mass.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "model/model.h"

namespace suction::story {

/// index of the probe `name` in the model's probes (a test failure and 0 when there is none)
inline int probe(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.probes.size(); ++i)
    if (m.probes[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no probe " << name;
  return 0;
}

/// Σ lumped node masses of FEM body `body` [kg]
inline double fem_mass(const Model& m, int body) {
  double mass = 0.0;
  for (double x : m.fem[body].node_mass) mass += x;
  return mass;
}

}  // namespace suction::story
