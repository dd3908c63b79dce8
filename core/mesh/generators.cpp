// Procedural box tet mesh and closed triangle surfaces (box, cylinder, sphere).
#include "mesh/generators.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "common/error.h"

namespace suction {

TetMesh make_box(const Vec3& size, int nx, int ny, int nz, const MeshLimits& limits) {
  if (!(size.minCoeff() > 0)) throw InputError("make_box: size must be positive");
  if (nx < 1 || ny < 1 || nz < 1) throw InputError("make_box: cell counts must be >= 1");
  const double cells = double(nx) * ny * nz;
  check_mesh_limit((nx + 1.0) * (ny + 1.0) * (nz + 1.0), limits.max_nodes, "nodes", "max_nodes", "box");
  check_mesh_limit(6.0 * cells, limits.max_elements, "tetrahedra", "max_elements", "box");
  TetMesh mesh;
  auto node = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        mesh.nodes.emplace_back(size.x() * (static_cast<double>(i) / nx - 0.5),
                                size.y() * (static_cast<double>(j) / ny - 0.5),
                                size.z() * (static_cast<double>(k) / nz - 0.5));
  // Kuhn/Freudenthal: one tet per monotone path from corner (0,0,0) to (1,1,1) of the cell;
  // every cell is cut along the same main diagonal, so neighbouring cells conform
  static constexpr int kPaths[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& path : kPaths) {
          std::array<int, 3> c = {i, j, k};
          Tet t;
          t[0] = node(c[0], c[1], c[2]);
          for (int step = 0; step < 3; ++step) {
            ++c[path[step]];
            t[step + 1] = node(c[0], c[1], c[2]);
          }
          if (tet_signed_volume(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]],
                                mesh.nodes[t[3]]) < 0)
            std::swap(t[2], t[3]);
          mesh.tets.push_back(t);
        }
  return mesh;
}

SurfaceMesh make_curved_slab_surface(const Vec3& size, double radius, int resolution,
                                     const MeshLimits& limits) {
  if (!(size.minCoeff() > 0)) throw InputError("make_curved_slab_surface: size must be positive");
  if (!std::isfinite(radius)) throw InputError("make_curved_slab_surface: radius must be finite");
  if (resolution < 2) throw InputError("make_curved_slab_surface: resolution must be >= 2");
  check_mesh_limit(8.0 * resolution + 8.0, limits.max_triangles, "triangles", "max_triangles", "curved_slab");
  const bool concave = radius < 0;
  const double r = std::abs(radius);
  const double half_w = r > 0 ? std::min(0.5 * size.y(), 0.95 * r) : 0.5 * size.y();
  // convex: apex line at z = 0, falling to the sides; concave: a trough, lowest line at z = 0
  auto top = [&](double y) {
    if (r == 0) return 0.0;
    const double c = std::sqrt(r * r - y * y);
    return concave ? r - c : c - r;
  };
  // the cross-section polygon in (y, z), counter-clockwise seen from +x: the bottom from left
  // to right, then the top arc from right to left.  The convex section is a convex polygon
  // (bottom corners only, end caps as fans); the concave one is not, so its bottom is sampled
  // at the arc's y values and its end caps are vertical strips.
  const double z_bottom = concave ? -size.z() : top(half_w) - size.z();
  std::vector<std::array<double, 2>> poly;
  const int n_bottom = concave ? resolution + 1 : 2;
  for (int j = 0; j < n_bottom; ++j) poly.push_back({-half_w + 2.0 * half_w * j / (n_bottom - 1), z_bottom});
  for (int i = 0; i <= resolution; ++i) {
    const double y = half_w - 2.0 * half_w * i / resolution;
    poly.push_back({y, top(y)});
  }
  const int n = static_cast<int>(poly.size());
  SurfaceMesh m;
  for (int side = 0; side < 2; ++side)
    for (const auto& q : poly) m.vertices.emplace_back(side == 0 ? -0.5 * size.x() : 0.5 * size.x(), q[0], q[1]);
  for (int i = 0; i < n; ++i) {  // side walls
    const int j = (i + 1) % n;
    m.triangles.push_back({i, j, n + j});
    m.triangles.push_back({i, n + j, n + i});
  }
  if (!concave) {
    for (int i = 1; i + 1 < n; ++i) {  // end caps (the polygon is convex): fans
      m.triangles.push_back({0, i + 1, i});               // x = -lx/2, normal -x
      m.triangles.push_back({n, n + i, n + i + 1});       // x = +lx/2, normal +x
    }
    return m;
  }
  for (int j = 0; j < resolution; ++j) {  // end caps: strip j between bottom j, j+1 and the arc above
    const int b0 = j, b1 = j + 1;
    const int t0 = n_bottom + (resolution - j), t1 = n_bottom + (resolution - j - 1);
    m.triangles.push_back({b0, t1, b1});  // x = -lx/2, normal -x
    m.triangles.push_back({b0, t0, t1});
    m.triangles.push_back({n + b0, n + b1, n + t1});  // x = +lx/2, normal +x
    m.triangles.push_back({n + b0, n + t1, n + t0});
  }
  return m;
}

namespace {
// quad q[0..3] as two triangles, in its own winding when as_given, else reversed
void push_quad(SurfaceMesh& s, const int* q, bool as_given) {
  if (as_given) {
    s.triangles.push_back({q[0], q[1], q[2]});
    s.triangles.push_back({q[0], q[2], q[3]});
  } else {
    s.triangles.push_back({q[0], q[2], q[1]});
    s.triangles.push_back({q[0], q[3], q[2]});
  }
}
}  // namespace

SurfaceMesh make_box_surface(const Vec3& size) {
  if (!(size.minCoeff() > 0)) throw InputError("make_box_surface: size must be positive");
  SurfaceMesh s;
  for (int v = 0; v < 8; ++v)  // vertex bits: x = bit 0, y = bit 1, z = bit 2
    s.vertices.emplace_back(size.x() * ((v & 1) ? 0.5 : -0.5), size.y() * ((v & 2) ? 0.5 : -0.5),
                            size.z() * ((v & 4) ? 0.5 : -0.5));
  static constexpr int kFaces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                       {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
  for (const auto& q : kFaces) {
    // orient each quad so that its normal points away from the centre
    const Vec3 centre = (s.vertices[q[0]] + s.vertices[q[2]]) / 2.0;
    const Vec3 normal = (s.vertices[q[1]] - s.vertices[q[0]]).cross(s.vertices[q[2]] - s.vertices[q[0]]);
    push_quad(s, q, normal.dot(centre) > 0);
  }
  return s;
}

SurfaceMesh make_box_surface(const Vec3& size, int nx, int ny, int nz, const MeshLimits& limits) {
  if (!(size.minCoeff() > 0)) throw InputError("make_box_surface: size must be positive");
  if (nx < 1 || ny < 1 || nz < 1) throw InputError("make_box_surface: cells must be >= 1");
  // the triangle cap also bounds the lattice index below: (nx ny nz)^2 <= (triangles / 12)^3
  check_mesh_limit(4.0 * (double(nx) * ny + double(ny) * nz + double(nz) * nx), limits.max_triangles,
                   "triangles", "max_triangles", "box surface");
  const std::array<int, 3> n = {nx, ny, nz};
  SurfaceMesh s;
  // the lattice points (i, j, k) on the boundary, numbered in i-fastest order
  std::vector<int> index(static_cast<size_t>(nx + 1) * (ny + 1) * (nz + 1), -1);
  auto at = [&](int i, int j, int k) -> int& { return index[(static_cast<size_t>(k) * (ny + 1) + j) * (nx + 1) + i]; };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        if (i > 0 && i < nx && j > 0 && j < ny && k > 0 && k < nz) continue;
        at(i, j, k) = static_cast<int>(s.vertices.size());
        s.vertices.emplace_back(size.x() * (double(i) / nx - 0.5), size.y() * (double(j) / ny - 0.5),
                                size.z() * (double(k) / nz - 0.5));
      }
  // each face: axis a fixed at 0 or n[a], a grid over the two other axes
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    for (int side = 0; side < 2; ++side)
      for (int u = 0; u < n[b]; ++u)
        for (int v = 0; v < n[c]; ++v) {
          int q[4];
          const int corners[4][2] = {{u, v}, {u + 1, v}, {u + 1, v + 1}, {u, v + 1}};
          for (int m = 0; m < 4; ++m) {
            int ijk[3];
            ijk[a] = side * n[a];
            ijk[b] = corners[m][0];
            ijk[c] = corners[m][1];
            q[m] = at(ijk[0], ijk[1], ijk[2]);
          }
          // (b, c, a) is right-handed: the quad's normal is +a; flip it on the low side
          push_quad(s, q, side == 1);
        }
  }
  return s;
}

SurfaceMesh make_cylinder_surface(double radius, double height, int resolution, const MeshLimits& limits) {
  if (!(radius > 0) || !(height > 0))
    throw InputError("make_cylinder_surface: radius and height must be positive");
  if (resolution < 3) throw InputError("make_cylinder_surface: resolution must be >= 3");
  check_mesh_limit(4.0 * resolution, limits.max_triangles, "triangles", "max_triangles", "cylinder surface");
  SurfaceMesh s;
  const int n = resolution;
  s.vertices.emplace_back(0.0, 0.0, -0.5 * height);  // 0: bottom centre
  s.vertices.emplace_back(0.0, 0.0, 0.5 * height);   // 1: top centre
  for (int side = 0; side < 2; ++side)               // 2..n+1 bottom ring, n+2..2n+1 top ring
    for (int k = 0; k < n; ++k) {
      const double theta = 2.0 * kPi * k / n;
      s.vertices.emplace_back(radius * std::cos(theta), radius * std::sin(theta),
                              side == 0 ? -0.5 * height : 0.5 * height);
    }
  for (int k = 0; k < n; ++k) {
    const int k1 = (k + 1) % n;
    const int b0 = 2 + k, b1 = 2 + k1, t0 = 2 + n + k, t1 = 2 + n + k1;
    s.triangles.push_back({0, b1, b0});  // bottom cap, seen from below
    s.triangles.push_back({1, t0, t1});  // top cap, seen from above
    s.triangles.push_back({b0, b1, t1});
    s.triangles.push_back({b0, t1, t0});
  }
  return s;
}

SurfaceMesh make_sphere_surface(double radius, int resolution, const MeshLimits& limits) {
  if (!(radius > 0)) throw InputError("make_sphere_surface: radius must be positive");
  if (resolution < 3) throw InputError("make_sphere_surface: resolution must be >= 3");
  check_mesh_limit(2.0 * resolution * std::max(2, resolution / 2), limits.max_triangles, "triangles",
                   "max_triangles", "sphere surface");
  // UV sphere: poles + (meridian - 1) rings of `resolution` vertices
  const int n = resolution, meridian = std::max(2, resolution / 2);
  SurfaceMesh s;
  s.vertices.emplace_back(0.0, 0.0, radius);   // 0: north pole
  s.vertices.emplace_back(0.0, 0.0, -radius);  // 1: south pole
  for (int l = 1; l < meridian; ++l) {
    const double phi = kPi * l / meridian;
    for (int k = 0; k < n; ++k) {
      const double theta = 2.0 * kPi * k / n;
      s.vertices.emplace_back(radius * std::sin(phi) * std::cos(theta),
                              radius * std::sin(phi) * std::sin(theta), radius * std::cos(phi));
    }
  }
  auto ring = [&](int l, int k) { return 2 + (l - 1) * n + k % n; };
  for (int k = 0; k < n; ++k) {
    s.triangles.push_back({0, ring(1, k), ring(1, k + 1)});
    for (int l = 1; l + 1 < meridian; ++l) {
      s.triangles.push_back({ring(l, k), ring(l + 1, k), ring(l + 1, k + 1)});
      s.triangles.push_back({ring(l, k), ring(l + 1, k + 1), ring(l, k + 1)});
    }
    s.triangles.push_back({1, ring(meridian - 1, k + 1), ring(meridian - 1, k)});
  }
  return s;
}

}  // namespace suction
