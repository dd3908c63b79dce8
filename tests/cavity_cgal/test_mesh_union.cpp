// CGAL mesh union (core/cavity_cgal): components, signed volumes and face provenance against
// analytic oracles (boxes; a dome shell sealed on a plate, whose cavity is a clipped
// hemisphere).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "cavity_cgal/mesh_union.h"
#include "mesh/generators.h"

namespace suction {
namespace {

UnionMesh box(const Vec3& size, const Vec3& centre) {
  const SurfaceMesh s = make_box_surface(size);
  UnionMesh m{s.vertices, s.triangles};
  for (Vec3& p : m.vertices) p += centre;
  return m;
}

// Closed solid between two hemispheres (outer radius R, inner radius r, both above the plane
// z = z0, centred at (0, 0, z0)) and the flat annulus r <= |xy| <= R at z = z0; outward
// oriented.  n: segments around, m: rings from the equator to the pole.
UnionMesh dome_shell(double R, double r, double z0, int n, int m) {
  UnionMesh d;
  auto add_hemisphere = [&](double rad) {
    const int base = static_cast<int>(d.vertices.size());
    for (int l = 0; l < m; ++l) {
      const double th = 0.5 * kPi * l / m;
      for (int k = 0; k < n; ++k) {
        const double ph = 2.0 * kPi * k / n;
        d.vertices.emplace_back(rad * std::cos(th) * std::cos(ph), rad * std::cos(th) * std::sin(ph),
                                z0 + rad * std::sin(th));
      }
    }
    d.vertices.emplace_back(0.0, 0.0, z0 + rad);  // pole
    return base;
  };
  const int o = add_hemisphere(R), in = add_hemisphere(r);
  auto O = [&](int l, int k) { return l == m ? o + m * n : o + l * n + k % n; };
  auto I = [&](int l, int k) { return l == m ? in + m * n : in + l * n + k % n; };
  for (int k = 0; k < n; ++k) {
    for (int l = 0; l < m; ++l) {
      // outer: normal away from the centre
      d.triangles.push_back({O(l, k), O(l, k + 1), O(l + 1, k + 1)});
      if (l + 1 < m) d.triangles.push_back({O(l, k), O(l + 1, k + 1), O(l + 1, k)});
      // inner: normal towards the centre
      d.triangles.push_back({I(l, k), I(l + 1, k + 1), I(l, k + 1)});
      if (l + 1 < m) d.triangles.push_back({I(l, k), I(l + 1, k), I(l + 1, k + 1)});
    }
    // bottom annulus: normal -z
    d.triangles.push_back({I(0, k), O(0, k + 1), O(0, k)});
    d.triangles.push_back({I(0, k), I(0, k + 1), O(0, k + 1)});
  }
  return d;
}

double signed_volume(const Points& v, const std::vector<Tri>& t) {
  double s = 0.0;
  for (const Tri& f : t) s += v[f[0]].cross(v[f[1]]).dot(v[f[2]]);
  return s / 6.0;
}

// every directed edge once, and its reverse once: closed and consistently oriented
bool closed_and_oriented(const UnionComponent& c) {
  std::map<std::pair<int, int>, int> directed;
  for (const Tri& t : c.triangles)
    for (int k = 0; k < 3; ++k) directed[{t[k], t[(k + 1) % 3]}]++;
  for (const auto& [e, count] : directed) {
    auto rev = directed.find({e.second, e.first});
    if (count != 1 || rev == directed.end() || rev->second != 1) return false;
  }
  return true;
}

std::set<int> bodies(const UnionComponent& c) { return {c.face_body.begin(), c.face_body.end()}; }

// every output face lies in the plane of the input triangle it names
void expect_sources_valid(const std::vector<UnionComponent>& comps, const UnionMesh& a,
                          const UnionMesh& b, double size) {
  const UnionMesh* in[2] = {&a, &b};
  double worst = 0.0;
  for (const UnionComponent& c : comps) {
    ASSERT_EQ(c.face_body.size(), c.triangles.size());
    ASSERT_EQ(c.face_source.size(), c.triangles.size());
    for (std::size_t f = 0; f < c.triangles.size(); ++f) {
      ASSERT_TRUE(c.face_body[f] == 0 || c.face_body[f] == 1);
      const UnionMesh& m = *in[c.face_body[f]];
      ASSERT_GE(c.face_source[f], 0);
      ASSERT_LT(c.face_source[f], static_cast<int>(m.triangles.size()));
      const Tri& s = m.triangles[c.face_source[f]];
      const Vec3 n = (m.vertices[s[1]] - m.vertices[s[0]]).cross(m.vertices[s[2]] - m.vertices[s[0]]).normalized();
      const Tri& t = c.triangles[f];
      for (int k = 0; k < 3; ++k)  // each vertex, hence the centroid
        worst = std::max(worst, std::abs(n.dot(c.vertices[t[k]] - m.vertices[s[0]])));
      const Vec3 centroid = (c.vertices[t[0]] + c.vertices[t[1]] + c.vertices[t[2]]) / 3.0;
      worst = std::max(worst, std::abs(n.dot(centroid - m.vertices[s[0]])));
    }
  }
  EXPECT_LT(worst, 1e-9 * size);
}

// Volume of {the polyhedron bounded by `tris` (oriented outward of it)} ∩ {z >= 0}, when the
// part of its boundary below z = 0 does not matter (it is closed by the plane): divergence
// theorem with F = (0, 0, z), which has no flux through z = 0.
double volume_above_plane(const Points& v, const std::vector<Tri>& tris) {
  double vol = 0.0;
  for (const Tri& t : tris) {
    std::vector<Vec3> poly;  // Sutherland-Hodgman against z >= 0
    for (int k = 0; k < 3; ++k) {
      const Vec3 &p = v[t[k]], &q = v[t[(k + 1) % 3]];
      if (p.z() >= 0) poly.push_back(p);
      if ((p.z() >= 0) != (q.z() >= 0)) poly.push_back(p + (q - p) * (p.z() / (p.z() - q.z())));
    }
    for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
      const Vec3 area = 0.5 * (poly[k] - poly[0]).cross(poly[k + 1] - poly[0]);
      vol += area.z() * (poly[0].z() + poly[k].z() + poly[k + 1].z()) / 3.0;
    }
  }
  return vol;
}

TEST(MeshUnion, OverlappingBoxesGiveOneComponentWithTheUnionVolume) {
  const UnionMesh a = box({2, 2, 2}, {0, 0, 0}), b = box({2, 2, 2}, {1, 1, 1});
  const auto comps = mesh_union_components(a, b);
  ASSERT_EQ(comps.size(), 1u);
  EXPECT_NEAR(comps[0].volume, 8.0 + 8.0 - 1.0, 1e-9 * 15.0);
  EXPECT_NEAR(signed_volume(comps[0].vertices, comps[0].triangles), comps[0].volume, 1e-9);
  EXPECT_EQ(bodies(comps[0]), (std::set<int>{0, 1}));
  EXPECT_TRUE(closed_and_oriented(comps[0]));
  expect_sources_valid(comps, a, b, 4.0);
}

TEST(MeshUnion, BoxesWithCoplanarFacesUnite) {
  const UnionMesh a = box({2, 2, 2}, {0, 0, 0}), b = box({2, 2, 2}, {1, 0, 0});
  const auto comps = mesh_union_components(a, b);
  ASSERT_EQ(comps.size(), 1u);
  EXPECT_NEAR(comps[0].volume, 12.0, 1e-9 * 12.0);
  EXPECT_TRUE(closed_and_oriented(comps[0]));
  expect_sources_valid(comps, a, b, 4.0);
}

TEST(MeshUnion, DisjointBoxesGiveTwoComponentsSortedByVolume) {
  const UnionMesh a = box({1, 1, 1}, {0, 0, 0}), b = box({2, 1, 1}, {5, 0, 0});
  const auto comps = mesh_union_components(a, b);
  ASSERT_EQ(comps.size(), 2u);
  EXPECT_NEAR(comps[0].volume, 2.0, 1e-12);
  EXPECT_NEAR(comps[1].volume, 1.0, 1e-12);
  EXPECT_EQ(bodies(comps[0]), std::set<int>{1});
  EXPECT_EQ(bodies(comps[1]), std::set<int>{0});
  EXPECT_EQ(comps[0].triangles.size(), 12u);
  EXPECT_EQ(comps[1].triangles.size(), 12u);
  for (const auto& c : comps) EXPECT_TRUE(closed_and_oriented(c));
  expect_sources_valid(comps, a, b, 6.0);
}

TEST(MeshUnion, DomeSealedOnAPlateEnclosesACavity) {
  // plate: top face at z = 0; dome shell: annulus at z = -d, inside the plate
  const double R = 0.01, r = 0.008, d = 0.0005;
  const int n = 64, m = 16;
  const UnionMesh dome = dome_shell(R, r, -d, n, m);
  const UnionMesh plate = box({4 * R, 4 * R, 0.005}, {0, 0, -0.0025});
  ASSERT_NEAR(signed_volume(dome.vertices, dome.triangles), 2.0 / 3.0 * kPi * (R * R * R - r * r * r),
              0.01 * 2.0 / 3.0 * kPi * (R * R * R - r * r * r));  // the builder is outward

  const auto t0 = std::chrono::steady_clock::now();
  const auto comps = mesh_union_components(dome, plate);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[   TIME   ] union of a dome (%zu triangles) and a plate: %.1f ms\n",
              dome.triangles.size(), ms);

  ASSERT_EQ(comps.size(), 2u);
  EXPECT_GT(comps[0].volume, 0.0);
  const UnionComponent& cavity = comps[1];
  EXPECT_LT(cavity.volume, 0.0);
  EXPECT_EQ(bodies(cavity), (std::set<int>{0, 1}));
  EXPECT_TRUE(closed_and_oriented(cavity));
  EXPECT_TRUE(closed_and_oriented(comps[0]));

  // exact for this tessellation: the inner hemisphere (flipped to bound the void) clipped at
  // the plate's top, z = 0
  std::vector<Tri> inner;
  for (const Tri& t : dome.triangles) {
    const double dist = (dome.vertices[t[0]] + dome.vertices[t[1]] + dome.vertices[t[2]] - Vec3(0, 0, -3 * d)).norm() / 3.0;
    const bool on_annulus = std::abs(dome.vertices[t[0]].z() + d) < 1e-15 && std::abs(dome.vertices[t[1]].z() + d) < 1e-15 &&
                            std::abs(dome.vertices[t[2]].z() + d) < 1e-15;
    if (!on_annulus && dist < 0.5 * (R + r)) inner.push_back({t[0], t[2], t[1]});
  }
  ASSERT_EQ(inner.size(), static_cast<std::size_t>(n * (2 * m - 1)));
  const double exact = volume_above_plane(dome.vertices, inner);
  EXPECT_NEAR(-cavity.volume, exact, 1e-9 * exact);
  // and the smooth sphere cap, within 1 %
  const double cap = kPi * (2.0 / 3.0 * r * r * r - r * r * d + d * d * d / 3.0);
  EXPECT_NEAR(-cavity.volume, cap, 0.01 * cap);

  // the cavity's plate faces lie in the plate's top, its dome faces on the inner sphere
  for (std::size_t f = 0; f < cavity.triangles.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      const Vec3& p = cavity.vertices[cavity.triangles[f][k]];
      if (cavity.face_body[f] == 1) EXPECT_NEAR(p.z(), 0.0, 1e-15);
      else EXPECT_NEAR((p - Vec3(0, 0, -d)).norm(), r, 5e-3 * r);
    }
  expect_sources_valid(comps, dome, plate, 4 * R);
}

// The same union whatever order CGAL meets the faces in.  Its corefinement finds the pairs of
// intersecting faces with box_intersection_d, which breaks ties between equal coordinates (a
// block standing on a plate shares its plane and its sides' coordinates with it) by the boxes'
// addresses: the output's faces came in an order that followed where the allocator had put
// CGAL's arrays, and every sum over them (the volume, ∂V/∂x) changed in its last digits with
// the thread count or the load (issue 49).  The output is put in a canonical order; listing
// each input's vertices and triangles in another order (which changes the order CGAL meets the
// pairs in, as the addresses did) must give the same components, vertex for vertex and face
// for face, and the same volumes to the bit.
UnionMesh relisted(const UnionMesh& m) {  // triangles reversed, vertices renumbered backwards
  UnionMesh r;
  const int n = static_cast<int>(m.vertices.size());
  r.vertices.assign(m.vertices.rbegin(), m.vertices.rend());
  for (auto t = m.triangles.rbegin(); t != m.triangles.rend(); ++t)
    r.triangles.push_back({n - 1 - (*t)[1], n - 1 - (*t)[2], n - 1 - (*t)[0]});  // same orientation
  return r;
}

TEST(MeshUnion, TheUnionIsTheSameWhateverOrderTheInputsAreListedIn) {
  const double R = 0.01, r = 0.008, d = 0.0005;
  // a dome sealed on a plate, and a block standing on the plate beside it (shared plane, shared
  // x coordinate of the plate's edge)
  const std::vector<UnionMesh> meshes{dome_shell(R, r, -d, 32, 8), box({4 * R, 4 * R, 0.005}, {0, 0, -0.0025}),
                                      box({0.008, 0.008, 0.01}, {1.6 * R, 0.0, 0.005})};
  std::vector<UnionMesh> other;
  for (const UnionMesh& m : meshes) other.push_back(relisted(m));
  const std::vector<UnionComponent> a = mesh_union_components(meshes), b = mesh_union_components(other);
  ASSERT_EQ(a.size(), 2u) << "the skin and the cavity under the dome";
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t c = 0; c < a.size(); ++c) {
    EXPECT_EQ(a[c].volume, b[c].volume) << "component " << c << ": to the bit";
    ASSERT_EQ(a[c].vertices, b[c].vertices) << "component " << c;
    ASSERT_EQ(a[c].triangles, b[c].triangles) << "component " << c;
    ASSERT_EQ(a[c].face_body, b[c].face_body) << "component " << c;
    for (std::size_t f = 0; f < a[c].triangles.size(); ++f) {  // the source, listed backwards
      const int nt = static_cast<int>(meshes[a[c].face_body[f]].triangles.size());
      ASSERT_EQ(a[c].face_source[f], nt - 1 - b[c].face_source[f]) << "component " << c << ", face " << f;
    }
  }
  // the two-mesh path too
  const auto p = mesh_union_components(meshes[0], meshes[1]), q = mesh_union_components(other[0], other[1]);
  ASSERT_EQ(p.size(), q.size());
  for (std::size_t c = 0; c < p.size(); ++c) {
    EXPECT_EQ(p[c].volume, q[c].volume);
    EXPECT_EQ(p[c].vertices, q[c].vertices);
    EXPECT_EQ(p[c].triangles, q[c].triangles);
  }
}

TEST(MeshUnion, OpenInputIsRejected) {
  UnionMesh a = box({1, 1, 1}, {0, 0, 0});
  a.triangles.pop_back();
  const UnionMesh b = box({1, 1, 1}, {0.5, 0.5, 0.5});
  try {
    mesh_union_components(a, b);
    FAIL() << "expected MeshUnionError";
  } catch (const MeshUnionError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh a"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not closed"), std::string::npos) << e.what();
  }
}

TEST(MeshUnion, SelfIntersectingInputIsRejected) {
  const UnionMesh a = box({1, 1, 1}, {0, 0, 0});
  UnionMesh b = box({1, 1, 1}, {3, 0, 0});
  const UnionMesh c = box({1, 1, 1}, {3.5, 0.5, 0.5});  // b and c overlap: b ∪ c self-intersects
  const int off = static_cast<int>(b.vertices.size());
  b.vertices.insert(b.vertices.end(), c.vertices.begin(), c.vertices.end());
  for (Tri t : c.triangles) b.triangles.push_back({t[0] + off, t[1] + off, t[2] + off});
  try {
    mesh_union_components(a, b);
    FAIL() << "expected MeshUnionError";
  } catch (const MeshUnionError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh b"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("self-intersect"), std::string::npos) << e.what();
  }
}

// A body folded through itself (issue 49: the big air-tunnel cup's skirt pleated through its lip
// under a 9.4 mm press made its surface cross itself and every union of its group failed).  A
// vertex of the dome's outer side pushed through the wall, past the inner side, as the skirt
// went through the lip: its fan crosses the inner side's triangles.  Without a repair the union
// refuses it and says where; with one, the patch is smoothed in the union's copy until it no
// longer crosses, the repair is reported where it was, and the cavity (bounded by the inner
// side and the plate) is the unfolded dome's, less what the smoothing took off the inner side.
TEST(MeshUnion, ASurfaceFoldedThroughItselfIsSmoothedForTheUnionAndReported) {
  const double R = 0.01, r = 0.008, d = 0.0005;
  const int n = 32, m = 8;
  const UnionMesh dome = dome_shell(R, r, -d, n, m);
  const UnionMesh plate = box({4 * R, 4 * R, 0.005}, {0, 0, -0.0025});
  UnionMesh pleated = dome;
  const int l = m / 2, k = 5;
  const int v = l * n + k;  // O(l, k) of dome_shell
  const Vec3 centre(0, 0, -d);
  pleated.vertices[v] = centre + 0.9 * r / R * (dome.vertices[v] - centre);  // inside the inner side
  const auto crossing = self_intersecting_triangles(pleated);
  ASSERT_FALSE(crossing.empty()) << "the pleat crosses the surface";
  EXPECT_TRUE(self_intersecting_triangles(dome).empty());

  try {
    mesh_union_components(pleated, plate);
    FAIL() << "expected MeshUnionError";
  } catch (const MeshUnionError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mesh a self-intersects (" + std::to_string(crossing.size()) + " pairs of its triangles cross, around ("),
              std::string::npos) << what;
  }

  std::vector<UnionRepair> repairs;
  const auto comps = mesh_union_components(pleated, plate, &repairs);
  ASSERT_EQ(repairs.size(), 1u);
  EXPECT_EQ(repairs[0].mesh, 0);
  EXPECT_EQ(repairs[0].crossing_pairs, static_cast<int>(crossing.size()));
  const double segment = 2.0 * kPi * R / n;
  EXPECT_LT((repairs[0].where - pleated.vertices[v]).norm(), 3.0 * segment) << "reported where it crossed";
  EXPECT_GT(repairs[0].max_move, r - 0.9 * r) << "the vertex went back out of the inner side";
  EXPECT_LT(repairs[0].max_move, R - 0.9 * r) << "and no farther";

  const auto plain = mesh_union_components(dome, plate);
  ASSERT_EQ(comps.size(), 2u);
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_LT(comps[1].volume, 0.0);
  EXPECT_EQ(bodies(comps[1]), (std::set<int>{0, 1}));
  EXPECT_TRUE(closed_and_oriented(comps[1]));
  std::printf("folded dome: %zu crossing pairs, smoothed by up to %.3f mm; cavity %.6e m^3, unfolded %.6e m^3\n",
              crossing.size(), 1e3 * repairs[0].max_move, -comps[1].volume, -plain[1].volume);
  EXPECT_NEAR(comps[1].volume, plain[1].volume, 0.005 * std::abs(plain[1].volume)) << "the unfolded dome's cavity";
  for (int f : comps[1].face_body) EXPECT_TRUE(f == 0 || f == 1);
}

// A rigid body's surface is checked once (check_union_input); its unions check only the faces
// around the vertices the offset moved.  A vertex pushed through the far side of the box makes
// its faces cross one they do not touch: the local check must still see it.
TEST(MeshUnion, AMovedVertexOfACheckedRigidSurfaceIsCheckedAgainstTheFacesItReaches) {
  const UnionMesh a = box({1, 1, 1}, {0, 0, 0});
  UnionMesh b = box({1, 1, 1}, {0.6, 0, 0});
  check_union_input(b, "b");  // the rest surface passes the full check
  int corner = 0;  // the corner farthest along +x+y+z
  for (int v = 1; v < static_cast<int>(b.vertices.size()); ++v)
    if (b.vertices[v].sum() > b.vertices[corner].sum()) corner = v;
  b.vertices[corner] = Vec3(0.6 - 0.8, 0.3, 0.3);  // through the face x = 0.1
  b.rigid_motion_of_checked = true;
  b.moved = {corner};
  try {
    mesh_union_components(a, b);
    FAIL() << "expected MeshUnionError";
  } catch (const MeshUnionError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh b self-intersects"), std::string::npos) << e.what();
  }
  b.rigid_motion_of_checked = false;  // the full check agrees
  EXPECT_THROW(mesh_union_components(a, b), MeshUnionError);
}

// The checks choose nothing about the result: a checked rigid surface with a vertex offset (as
// the cavity stage moves a sealing vertex) gives the same union as the full check.
TEST(MeshUnion, TheLocalCheckGivesTheSameUnionAsTheFullOne) {
  const double R = 0.02, r = 0.017;
  const UnionMesh dome = dome_shell(R, r, 0.0, 48, 12);
  UnionMesh plate = box({0.06, 0.06, 0.01}, {0.0, 0.0, -0.005 + 2e-5});  // the dome sinks 20 µm
  plate.vertices[0] += Vec3(0.0, 0.0, -1e-3);  // an offset vertex, far from the dome
  const auto full = mesh_union_components(dome, plate);
  plate.rigid_motion_of_checked = true;
  plate.moved = {0};
  const auto local = mesh_union_components(dome, plate);
  ASSERT_EQ(full.size(), local.size());
  ASSERT_EQ(full.size(), 2u);  // the skin and the cavity
  for (size_t c = 0; c < full.size(); ++c) {
    EXPECT_EQ(full[c].volume, local[c].volume);
    EXPECT_EQ(full[c].triangles, local[c].triangles);
    EXPECT_EQ(full[c].face_source, local[c].face_source);
  }
}

TEST(MeshUnion, InwardOrientedInputIsRejected) {
  UnionMesh a = box({1, 1, 1}, {0, 0, 0});
  for (Tri& t : a.triangles) std::swap(t[1], t[2]);
  EXPECT_THROW(mesh_union_components(a, box({1, 1, 1}, {0.5, 0.5, 0.5})), MeshUnionError);
}

}  // namespace
}  // namespace suction
