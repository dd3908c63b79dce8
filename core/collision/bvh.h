// Bounding volume hierarchy over one body's surface triangles (docs/method.md §5):
// topology built once (median split on centroids), boxes refit bottom-up every step.
#pragma once
#include <limits>
#include <utility>

#include "common/aabb.h"
#include "common/types.h"

namespace suction {


/// AABB tree over triangles (an edge can be stored as the triangle {a, b, b}, a vertex as
/// {v, v, v}).  Leaves hold up to kLeafSize triangles; nodes are in preorder (parent before
/// children), so a refit is one backward sweep.
class TriangleBvh {
 public:
  static constexpr int kLeafSize = 4;

  /// triangles: #triangles×3 vertex indices; x: positions used to split (e.g. rest) [m].
  /// Builds the topology and fits the boxes to x.
  void build(std::vector<Tri> triangles, const Points& x);
  /// Fits every box to new positions x (same vertex indexing) [m].
  void refit(const Points& x);

  bool empty() const { return nodes_.empty(); }
  int num_triangles() const { return static_cast<int>(triangles_.size()); }
  const std::vector<Tri>& triangles() const { return triangles_; }
  /// box of the whole tree (empty box when there are no triangles)
  Aabb bounds() const { return nodes_.empty() ? Aabb() : nodes_[0].box; }
  /// depth of the tree (1 for a single leaf, 0 when empty)
  int depth() const { return depth_; }

  /// Calls visit(triangle index) for every triangle whose box overlaps box (unordered).
  template <class Visit>
  void query(const Aabb& box, Visit&& visit) const;

  /// Calls visit(triangle of this, triangle of other) for every pair whose boxes are within
  /// margin of each other [m] (unordered).
  template <class Visit>
  void query_pairs(const TriangleBvh& other, double margin, Visit&& visit) const;

 private:
  struct Node {
    Aabb box;
    int right = -1;  // inner node: left child is this + 1, right child here; -1 for a leaf
    int first = 0;   // leaf: triangles order_[first, first + count)
    int count = 0;
  };
  int build_node(int first, int count, const std::vector<Vec3>& centroids, int level);

  std::vector<Tri> triangles_;
  std::vector<int> order_;  // triangle indices grouped by leaf
  std::vector<Aabb> boxes_;  // boxes_[k]: box of triangle order_[k]
  std::vector<Node> nodes_;
  int depth_ = 0;
};

template <class Visit>
void TriangleBvh::query(const Aabb& box, Visit&& visit) const {
  if (nodes_.empty()) return;
  int stack[128];  // median split: depth <= log2(#triangles) + 1
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (!node.box.overlaps(box)) continue;
    if (node.right < 0) {
      for (int k = node.first; k < node.first + node.count; ++k)
        if (boxes_[k].overlaps(box)) visit(order_[k]);
    } else {
      const int self = static_cast<int>(&node - nodes_.data());
      stack[top++] = node.right;
      stack[top++] = self + 1;
    }
  }
}

template <class Visit>
void TriangleBvh::query_pairs(const TriangleBvh& other, double margin, Visit&& visit) const {
  if (nodes_.empty() || other.nodes_.empty()) return;
  std::pair<int, int> stack[256];  // descends one side per step: <= depth + other.depth + 1
  int top = 0;
  stack[top++] = {0, 0};
  while (top > 0) {
    const auto [i, j] = stack[--top];
    const Node& a = nodes_[i];
    const Node& b = other.nodes_[j];
    if (!a.box.overlaps(b.box, margin)) continue;
    const bool a_leaf = a.right < 0, b_leaf = b.right < 0;
    if (a_leaf && b_leaf) {
      for (int k = a.first; k < a.first + a.count; ++k)
        for (int l = b.first; l < b.first + b.count; ++l)
          if (boxes_[k].overlaps(other.boxes_[l], margin)) visit(order_[k], other.order_[l]);
    } else if (b_leaf || (!a_leaf && (a.box.hi - a.box.lo).sum() >= (b.box.hi - b.box.lo).sum())) {
      stack[top++] = {a.right, j};  // split the larger box
      stack[top++] = {i + 1, j};
    } else {
      stack[top++] = {i, b.right};
      stack[top++] = {i, j + 1};
    }
  }
}

}  // namespace suction
