// Checks of meshes shared by the mesh, mesher and generator tests: the Euler characteristic of a
// surface, conformity and the worst quality of a tet mesh.
#pragma once
#include <algorithm>
#include <map>

#include "mesh/tet_mesh.h"

namespace suction::mesh_checks {

/// V - E + F of a triangle surface (2 for a sphere, 0 for a torus)
inline int euler_characteristic(const SurfaceMesh& s) {
  std::map<std::pair<int, int>, int> edges;
  for (const Tri& t : s.triangles)
    for (int k = 0; k < 3; ++k) edges[{std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])}]++;
  return static_cast<int>(s.vertices.size()) - static_cast<int>(edges.size()) +
         static_cast<int>(s.triangles.size());
}

/// the most tets sharing one face (a conforming mesh has at most two)
inline int max_tets_per_face(const TetMesh& m) {
  std::map<Tri, int> count;
  for (const Tet& t : m.tets)
    for (int skip = 0; skip < 4; ++skip) {
      Tri f;
      for (int k = 0, j = 0; k < 4; ++k)
        if (k != skip) f[j++] = t[k];
      std::sort(f.begin(), f.end());
      ++count[f];
    }
  int most = 0;
  for (const auto& [face, n] : count) most = std::max(most, n);
  return most;
}

/// the smallest radius ratio over the tets (1 regular, 0 flat)
inline double min_radius_ratio(const TetMesh& m) {
  double q = 1.0;
  for (const Tet& t : m.tets)
    q = std::min(q, tet_radius_ratio(m.nodes[t[0]], m.nodes[t[1]], m.nodes[t[2]], m.nodes[t[3]]));
  return q;
}

}  // namespace suction::mesh_checks
