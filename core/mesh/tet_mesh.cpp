// Tet-mesh geometry: volumes, quality, boundary extraction and validation.
#include "mesh/tet_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdio>
#include <sstream>

#include "common/error.h"

namespace suction {

void check_mesh_limit(double count, double cap, const char* noun, const char* key, const std::string& what) {
  if (!(count <= cap)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", count);
    throw InputError(what + ": " + buf + " " + noun + ", more than the limit of " +
                     std::to_string(static_cast<long long>(cap)) + " (settings.limits." + key +
                     " raises it for big runs)");
  }
}

double tet_signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

// the 4 faces of a positively oriented tet (0,1,2,3), each counter-clockwise seen from
// outside, i.e. with its normal pointing away from the opposite node
static constexpr int kOutwardFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

BoundarySurface extract_boundary(const TetMesh& mesh) {
  // every face once per tet, keyed by its sorted node triple
  struct FaceRecord {
    Tri key;   // sorted node indices
    Tri face;  // outward oriented node indices
  };
  std::vector<FaceRecord> faces;
  faces.reserve(mesh.tets.size() * 4);
  for (const Tet& t : mesh.tets) {
    const bool positive = tet_signed_volume(mesh.nodes[t[0]], mesh.nodes[t[1]],
                                            mesh.nodes[t[2]], mesh.nodes[t[3]]) >= 0.0;
    for (const auto& f : kOutwardFace) {
      Tri face = {t[f[0]], t[f[1]], t[f[2]]};
      if (!positive) std::swap(face[1], face[2]);  // inverted tet: flip to keep it outward
      Tri key = face;
      std::sort(key.begin(), key.end());
      faces.push_back({key, face});
    }
  }
  std::stable_sort(faces.begin(), faces.end(),
                   [](const FaceRecord& x, const FaceRecord& y) { return x.key < y.key; });

  // faces whose key occurs exactly once are on the boundary
  std::vector<Tri> boundary;
  for (size_t i = 0; i < faces.size();) {
    size_t j = i + 1;
    while (j < faces.size() && faces[j].key == faces[i].key) ++j;
    if (j - i == 1) boundary.push_back(faces[i].face);
    i = j;
  }

  // surface vertices: the boundary nodes in increasing node order
  std::vector<int> vertex_of_node(mesh.nodes.size(), -1);
  for (const Tri& f : boundary)
    for (int n : f) vertex_of_node[n] = 0;
  BoundarySurface out;
  for (size_t n = 0; n < mesh.nodes.size(); ++n) {
    if (vertex_of_node[n] < 0) continue;
    vertex_of_node[n] = static_cast<int>(out.node_of_vertex.size());
    out.node_of_vertex.push_back(static_cast<int>(n));
    out.surface.vertices.push_back(mesh.nodes[n]);
  }
  out.surface.triangles.reserve(boundary.size());
  for (const Tri& f : boundary)
    out.surface.triangles.push_back({vertex_of_node[f[0]], vertex_of_node[f[1]], vertex_of_node[f[2]]});
  return out;
}

double tet_radius_ratio(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const double volume = std::abs(tet_signed_volume(a, b, c, d));
  if (!(volume > 0.0)) return 0.0;
  // inradius r_in = 3 V / (sum of face areas)
  const double area = 0.5 * ((b - a).cross(c - a).norm() + (b - a).cross(d - a).norm() +
                             (c - a).cross(d - a).norm() + (c - b).cross(d - b).norm());
  const double r_in = 3.0 * volume / area;
  // circumcentre relative to a: (|u|² v×w + |v|² w×u + |w|² u×v) / (2 u·(v×w))
  const Vec3 u = b - a, v = c - a, w = d - a;
  const Vec3 centre = (u.squaredNorm() * v.cross(w) + v.squaredNorm() * w.cross(u) +
                       w.squaredNorm() * u.cross(v)) / (2.0 * u.dot(v.cross(w)));
  const double r_circ = centre.norm();
  return 3.0 * r_in / r_circ;
}

void validate_tet_mesh(const TetMesh& mesh, const std::string& what, double rel_tol) {
  const int n_nodes = static_cast<int>(mesh.nodes.size());
  auto fail = [&](const std::string& msg) { throw InputError(what + ": " + msg); };
  if (mesh.tets.empty()) fail("the mesh has no tetrahedra");
  for (int i = 0; i < n_nodes; ++i)
    if (!mesh.nodes[i].allFinite()) fail("node " + std::to_string(i) + " has a non-finite coordinate");

  std::vector<char> used(n_nodes, 0);
  for (size_t t = 0; t < mesh.tets.size(); ++t) {
    const Tet& tet = mesh.tets[t];
    const std::string name = "tet " + std::to_string(t);
    for (int k = 0; k < 4; ++k) {
      if (tet[k] < 0 || tet[k] >= n_nodes)
        fail(name + ": node index " + std::to_string(tet[k]) + " out of range (mesh has " +
             std::to_string(n_nodes) + " nodes)");
      used[tet[k]] = 1;
    }
    for (int k = 0; k < 4; ++k)
      for (int l = k + 1; l < 4; ++l)
        if (tet[k] == tet[l])
          fail(name + " is degenerate (node " + std::to_string(tet[k]) + " appears twice)");

    const Vec3 &a = mesh.nodes[tet[0]], &b = mesh.nodes[tet[1]], &c = mesh.nodes[tet[2]],
               &d = mesh.nodes[tet[3]];
    const double mean_edge = ((b - a).norm() + (c - a).norm() + (d - a).norm() +
                              (c - b).norm() + (d - b).norm() + (d - c).norm()) / 6.0;
    const double volume = tet_signed_volume(a, b, c, d);
    const double tol = rel_tol * mean_edge * mean_edge * mean_edge;
    std::ostringstream vol;
    vol << volume << " m³";
    if (std::abs(volume) <= tol) {
      std::ostringstream limit;
      limit << tol << " m³";
      fail(name + " is degenerate (volume " + vol.str() + ", tolerance " + limit.str() + ")");
    }
    if (volume < 0.0) fail(name + " is inverted (negative volume " + vol.str() + ")");
  }
  for (int i = 0; i < n_nodes; ++i)
    if (!used[i]) fail("node " + std::to_string(i) + " is not used by any tetrahedron");
}

double total_volume(const TetMesh& mesh) {
  double v = 0.0;
  for (const Tet& t : mesh.tets)
    v += tet_signed_volume(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]]);
  return v;
}

double enclosed_volume(const SurfaceMesh& surface) {
  // divergence theorem: V = Σ a·(b×c)/6 over outward triangles
  double v = 0.0;
  for (const Tri& t : surface.triangles)
    v += surface.vertices[t[0]].dot(surface.vertices[t[1]].cross(surface.vertices[t[2]])) / 6.0;
  return v;
}

void validate_closed_surface(const SurfaceMesh& surface, const std::string& what) {
  auto fail = [&](const std::string& msg) { throw InputError(what + ": " + msg); };
  const int n_vertices = static_cast<int>(surface.vertices.size());
  if (surface.triangles.empty()) fail("the surface has no triangles");

  // directed edge counts per undirected edge (lo, hi): how often lo->hi and hi->lo occur
  std::map<std::pair<int, int>, std::array<int, 2>> edges;
  for (size_t t = 0; t < surface.triangles.size(); ++t) {
    const Tri& tri = surface.triangles[t];
    for (int k = 0; k < 3; ++k) {
      if (tri[k] < 0 || tri[k] >= n_vertices)
        fail("triangle " + std::to_string(t) + ": vertex index " + std::to_string(tri[k]) +
             " out of range (surface has " + std::to_string(n_vertices) + " vertices)");
    }
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
      fail("triangle " + std::to_string(t) + " is degenerate (repeated vertex)");
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3];
      auto& count = edges[{std::min(a, b), std::max(a, b)}];
      ++count[a < b ? 0 : 1];
    }
  }

  int open = 0, non_manifold = 0, inconsistent = 0;
  std::pair<int, int> first_open, first_non_manifold, first_inconsistent;
  for (const auto& [edge, count] : edges) {
    const int total = count[0] + count[1];
    if (total == 1) {
      if (open++ == 0) first_open = edge;
    } else if (total > 2) {
      if (non_manifold++ == 0) first_non_manifold = edge;
    } else if (count[0] != 1) {
      if (inconsistent++ == 0) first_inconsistent = edge;
    }
  }
  auto edge_name = [](std::pair<int, int> e) {
    return "(" + std::to_string(e.first) + ", " + std::to_string(e.second) + ")";
  };
  if (open > 0)
    fail("the surface is not closed: " + std::to_string(open) +
         " boundary edge(s) belong to a single triangle, e.g. edge " + edge_name(first_open));
  if (non_manifold > 0)
    fail("the surface is not manifold: " + std::to_string(non_manifold) +
         " edge(s) shared by more than two triangles, e.g. edge " + edge_name(first_non_manifold));
  if (inconsistent > 0)
    fail("inconsistent triangle orientation: " + std::to_string(inconsistent) +
         " edge(s) traversed twice in the same direction, e.g. edge " +
         edge_name(first_inconsistent));
  const double volume = enclosed_volume(surface);
  if (!(volume > 0.0)) {
    std::ostringstream vol;
    vol << volume;
    fail("the surface is inside out (enclosed volume " + vol.str() +
         " m³ is not positive): normals must point outward");
  }
}

Aabb bounding_box(const Points& points) {
  Aabb box;
  for (const Vec3& p : points) box.extend(p);
  return box;
}

void transform_points(Points& points, const Mat3& rotation, const Vec3& translation) {
  for (Vec3& p : points) p = rotation * p + translation;
}

}  // namespace suction
