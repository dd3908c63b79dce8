// The workspace of a model (core/stages/init_workspace.cpp): the rigid surfaces that pass the
// union's input check at reset are marked, so their unions check only around the vertices the
// offset moves (UnionMesh::rigid_motion_of_checked, tested in cavity_cgal/test_mesh_union.cpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "model/body_slots.h"
#include "scene/scene.h"
#include "stages/stages.h"

using namespace suction;

namespace {

std::vector<char> checked_slots(const Model& model) {
  Workspace work;
  init_workspace(model, work);
  return work.rigid_surface_checked;
}

}  // namespace

TEST(InitWorkspace, RigidSurfacesAreMarkedCheckedAndFemSurfacesAreNot) {
  for (const char* scene : {"ground.json", "organic_object.json"}) {
    const Model model = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + scene);
    const BodySlots slots(model);
    const std::vector<char> checked = checked_slots(model);
    ASSERT_EQ(static_cast<int>(checked.size()), slots.count()) << scene;
    int rigid = 0;
    for (int s = 0; s < slots.count(); ++s) {
      const bool is_rigid = slots.body(s).type == BodyType::Rigid;
      rigid += is_rigid;
      // an FEM surface deforms: every union checks all of it
      EXPECT_EQ(checked[s], is_rigid ? 1 : 0) << scene << " slot " << s;
    }
    EXPECT_GE(rigid, 1) << scene;
  }
}

TEST(InitWorkspace, NoCavitiesNoCheck) {
  const Model model = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/ground.json",
                                      {{"/settings/cavity/enabled", "false"}});
  for (char c : checked_slots(model)) EXPECT_EQ(c, 0);
}

// A reset or a retune passes the check as the last init found it (the surfaces cannot change
// while the simulation runs): it is taken as given, not found again; one of another size (other
// bodies) is not.
TEST(InitWorkspace, AGivenCheckOfTheSameBodiesIsTakenAsItIs) {
  const Model model = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/ground.json");
  const BodySlots slots(model);
  const std::vector<char> found = checked_slots(model);
  ASSERT_TRUE(std::find(found.begin(), found.end(), 1) != found.end());
  const std::vector<char> given(static_cast<size_t>(slots.count()), 0);  // what a check would not say
  Workspace work;
  init_workspace(model, work, &given);
  EXPECT_EQ(work.rigid_surface_checked, given);
  const std::vector<char> other(static_cast<size_t>(slots.count()) + 1, 0);
  Workspace again;
  init_workspace(model, again, &other);
  EXPECT_EQ(again.rigid_surface_checked, found);
}
