// Groups of bodies joined by sealing contacts (core/cavity/seal_groups.cpp; docs/method.md §9.4).
#include <gtest/gtest.h>

#include <algorithm>

#include "cavity/cavity_state.h"

namespace suction {
namespace {

TEST(SealGroups, ContactsJoinBodiesIntoConnectedComponents) {
  // 0-1 and 1-4 (a cup on a block on a cup), 2-3 apart, 5 alone (no contact)
  const std::vector<SealingContact> contacts = {
      {1, 4, 9}, {2, 3, 5}, {0, 1, 7}, {0, 1, 3}, {1, 4, 2}, {0, 1, 3}};
  const std::vector<SealGroup> g = seal_groups(contacts);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].slots, (std::vector<int>{0, 1, 4}));
  EXPECT_EQ(g[1].slots, (std::vector<int>{2, 3}));
  // each group's contacts, ascending, the repeated one once
  ASSERT_EQ(g[0].contacts.size(), 4u);
  EXPECT_EQ(g[0].contacts[0], (SealingContact{0, 1, 3}));
  EXPECT_EQ(g[0].contacts[1], (SealingContact{0, 1, 7}));
  EXPECT_EQ(g[0].contacts[2], (SealingContact{1, 4, 2}));
  EXPECT_EQ(g[0].contacts[3], (SealingContact{1, 4, 9}));
  ASSERT_EQ(g[1].contacts.size(), 1u);
  EXPECT_TRUE(g[0].contains({0, 4}));
  EXPECT_TRUE(g[0].contains({0, 1, 4}));
  EXPECT_FALSE(g[0].contains({0, 2}));
  EXPECT_FALSE(g[1].contains({2, 3, 5}));
  EXPECT_TRUE(seal_groups({}).empty());
}

TEST(SealGroups, TheGroupsDoNotDependOnTheOrderOfTheContacts) {
  std::vector<SealingContact> contacts = {{0, 5, 1}, {3, 5, 2}, {1, 2, 3}, {2, 4, 4}, {6, 7, 5}, {4, 6, 6}};
  const std::vector<SealGroup> g = seal_groups(contacts);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].slots, (std::vector<int>{0, 3, 5}));
  EXPECT_EQ(g[1].slots, (std::vector<int>{1, 2, 4, 6, 7}));
  std::reverse(contacts.begin(), contacts.end());
  EXPECT_EQ(seal_groups(contacts), g);
  // a chain closes when its middle link appears: one group
  contacts.push_back({0, 7, 8});
  const std::vector<SealGroup> one = seal_groups(contacts);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].slots, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(one[0].contacts.size(), 7u);
}

}  // namespace
}  // namespace suction
