// running_difference (model/compare.h) on hand-made models: every structural field it guards.
#include <gtest/gtest.h>

#include "model/compare.h"

using namespace suction;

namespace {

Model two_bodies() {
  Model m;
  FemBody cup;
  cup.name = "cup";
  cup.rest.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  cup.rest.tets = {{0, 1, 2, 3}};
  cup.node_constraint = {0, -1, -1, -1};
  m.fem.push_back(cup);
  RigidBody box;
  box.name = "box";
  box.surface.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  box.surface.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  m.rigid.push_back(box);
  Driver d;
  d.name = "hand";
  d.body = {BodyType::Fem, 0};
  d.nodes = {0};
  m.drivers.push_back(d);
  Probe p;
  p.name = "z";
  m.probes.push_back(p);
  return m;
}

}  // namespace

TEST(Compare, ValuesMayChangeStructureMayNot) {
  const Model a = two_bodies();
  Model b = a;
  b.settings.cavity.leak_rate = 1;
  b.settings.dt = 0.02;
  b.rigid[0].mass = 3;
  b.drivers[0].keyframes.times = {0, 1};
  b.drivers[0].keyframes.values = {Vec3::Zero(), Vec3::UnitZ()};
  EXPECT_EQ(running_difference(a, b), "");

  b = a;
  b.fem[0].rest.nodes[3].z() = 2;
  EXPECT_EQ(running_difference(a, b), "body 'cup': its mesh");
  b = a;
  b.fem[0].node_constraint[1] = 0;
  EXPECT_EQ(running_difference(a, b), "body 'cup': its fixed or driven nodes");
  b = a;
  b.rigid[0].surface.triangles[0] = {0, 1, 2};
  EXPECT_EQ(running_difference(a, b), "body 'box': its mesh");
  b = a;
  b.rigid[0].kind = RigidKind::Fixed;
  EXPECT_EQ(running_difference(a, b), "body 'box': its kind");
  b = a;
  b.drivers[0].nodes = {1};
  EXPECT_EQ(running_difference(a, b), "driver 'hand': its kind or what it moves");
  b = a;
  b.drivers.clear();
  EXPECT_EQ(running_difference(a, b), "the number of drivers (1, now 0)");
  b = a;
  b.probes[0].name = "x";
  EXPECT_EQ(running_difference(a, b), "probe 0: its name");
  b = a;
  b.rigid.push_back(a.rigid[0]);
  EXPECT_EQ(running_difference(a, b), "the number of rigid bodies (1, now 2)");
}
