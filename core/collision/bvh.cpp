#include "collision/bvh.h"

#include <algorithm>

#include "common/error.h"

namespace suction {

void TriangleBvh::build(std::vector<Tri> triangles, const Points& x) {
  triangles_ = std::move(triangles);
  nodes_.clear();
  depth_ = 0;
  const int n = static_cast<int>(triangles_.size());
  order_.resize(n);
  boxes_.resize(n);
  if (n == 0) return;
  std::vector<Vec3> centroids(n);
  for (int t = 0; t < n; ++t) {
    for (int v : triangles_[t])
      if (v < 0 || v >= static_cast<int>(x.size()))
        throw InputError("TriangleBvh: triangle " + std::to_string(t) + " has vertex index " +
                         std::to_string(v) + " outside 0.." + std::to_string(x.size()));
    order_[t] = t;
    const Tri& tri = triangles_[t];
    centroids[t] = (x[tri[0]] + x[tri[1]] + x[tri[2]]) / 3.0;
  }
  nodes_.reserve(2 * (n / kLeafSize + 1));
  build_node(0, n, centroids, 1);
  refit(x);
}

int TriangleBvh::build_node(int first, int count, const std::vector<Vec3>& centroids, int level) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  depth_ = std::max(depth_, level);
  if (count <= kLeafSize) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  // split at the median centroid along the longest axis of the centroids' box; ties by index
  // so that the topology depends on the input only
  Aabb cbox;
  for (int k = first; k < first + count; ++k) cbox.extend(centroids[order_[k]]);
  int axis = 0;
  (cbox.hi - cbox.lo).maxCoeff(&axis);
  const int half = count / 2;
  auto begin = order_.begin() + first;
  std::nth_element(begin, begin + half, begin + count, [&](int s, int t) {
    const double cs = centroids[s][axis], ct = centroids[t][axis];
    return cs < ct || (cs == ct && s < t);
  });
  build_node(first, half, centroids, level + 1);  // left child: index + 1
  const int right = build_node(first + half, count - half, centroids, level + 1);
  nodes_[index].right = right;
  return index;
}

void TriangleBvh::refit(const Points& x) {
  // children follow their parent: sweep backwards
  for (int i = static_cast<int>(nodes_.size()) - 1; i >= 0; --i) {
    Node& node = nodes_[i];
    Aabb box;
    if (node.right < 0) {
      for (int k = node.first; k < node.first + node.count; ++k) {
        Aabb& tri_box = boxes_[k];
        const Tri& tri = triangles_[order_[k]];
        tri_box.lo = x[tri[0]].cwiseMin(x[tri[1]]).cwiseMin(x[tri[2]]);
        tri_box.hi = x[tri[0]].cwiseMax(x[tri[1]]).cwiseMax(x[tri[2]]);
        box.extend(tri_box);
      }
    } else {
      box = nodes_[i + 1].box;
      box.extend(nodes_[node.right].box);
    }
    node.box = box;
  }
}

}  // namespace suction
