// Groups of bodies joined by sealing contacts (docs/method.md §9.4).
#include <algorithm>
#include <numeric>

#include "cavity/cavity_state.h"

namespace suction {

bool SealGroup::contains(const std::vector<int>& s) const {
  return std::includes(slots.begin(), slots.end(), s.begin(), s.end());
}

std::vector<SealGroup> seal_groups(std::vector<SealingContact> contacts) {
  std::sort(contacts.begin(), contacts.end());
  contacts.erase(std::unique(contacts.begin(), contacts.end()), contacts.end());
  // union-find over the slots that appear, by their index in `slots`
  std::vector<int> slots;
  for (const SealingContact& c : contacts) {
    slots.push_back(c.slot_a);
    slots.push_back(c.slot_b);
  }
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
  auto index = [&](int slot) {
    return static_cast<int>(std::lower_bound(slots.begin(), slots.end(), slot) - slots.begin());
  };
  std::vector<int> parent(slots.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const SealingContact& c : contacts) {
    const int a = find(index(c.slot_a)), b = find(index(c.slot_b));
    parent[std::max(a, b)] = std::min(a, b);  // the root is the group's smallest slot
  }
  // groups in the order of their smallest slot; slots and contacts stay ascending
  std::vector<int> group_of_root(slots.size(), -1);
  std::vector<SealGroup> groups;
  for (size_t i = 0; i < slots.size(); ++i) {
    const int root = find(static_cast<int>(i));
    if (group_of_root[root] < 0) {
      group_of_root[root] = static_cast<int>(groups.size());
      groups.emplace_back();
    }
    groups[group_of_root[root]].slots.push_back(slots[i]);
  }
  for (const SealingContact& c : contacts) groups[group_of_root[find(index(c.slot_a))]].contacts.push_back(c);
  return groups;
}

}  // namespace suction
