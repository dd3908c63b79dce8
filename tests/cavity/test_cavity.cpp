// Cavities: volume and its gradient, the gas-law quadratic, Boyle's law with a rigid piston,
// detection by mesh union (dome shells on a plate; two domes over the ends of a tunnel: a cavity
// of three bodies) and tracking through a forced remesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>

#include "cavity/cavity_mesh.h"
#include "model/body_slots.h"
#include "probes/probes.h"
#include "mesh/generators.h"
#include "scene/scene.h"
#include "sim/simulation.h"
#include "solver/pgs.h"
#include "support/piston.h"

using namespace suction;

namespace {


/// Surface of revolution about z of the polyline `profile` (r, z), `n` segments around.
/// Ends with r = 0 become poles; otherwise the profile is a closed loop (last joins first).
SurfaceMesh revolve(const std::vector<std::array<double, 2>>& profile, int n) {
  SurfaceMesh m;
  const int np = static_cast<int>(profile.size());
  const bool pole0 = profile.front()[0] == 0.0, pole1 = profile.back()[0] == 0.0;
  std::vector<std::vector<int>> ring(np);
  for (int i = 0; i < np; ++i) {
    const auto [r, z] = profile[i];
    if (r == 0.0) {
      ring[i].assign(n, static_cast<int>(m.vertices.size()));
      m.vertices.emplace_back(0.0, 0.0, z);
      continue;
    }
    for (int k = 0; k < n; ++k) {
      const double a = 2.0 * kPi * k / n;
      ring[i].push_back(static_cast<int>(m.vertices.size()));
      m.vertices.emplace_back(r * std::cos(a), r * std::sin(a), z);
    }
  }
  const bool closed_loop = !pole0 && !pole1;
  const int segments = closed_loop ? np : np - 1;
  for (int i = 0; i < segments; ++i) {
    const std::vector<int>& p = ring[i];
    const std::vector<int>& q = ring[(i + 1) % np];
    for (int k = 0; k < n; ++k) {
      const int k1 = (k + 1) % n;
      if (q[k] != q[k1]) m.triangles.push_back({p[k], q[k1], q[k]});
      if (p[k] != p[k1]) m.triangles.push_back({p[k], p[k1], q[k1]});
    }
  }
  if (mesh_volume(m.vertices, m.triangles) < 0.0)  // make the orientation outward
    for (Tri& t : m.triangles) std::swap(t[1], t[2]);
  return m;
}

double hemisphere_z(double radius, double r) { return std::sqrt(std::max(0.0, radius * radius - r * r)); }

/// A dome shell (inner radius ri, outer ro) standing on z = z0, optionally with a hole of
/// radius hole through its top.
SurfaceMesh dome(double ri, double ro, double z0, double hole = 0.0, int n = 48, int arcs = 16) {
  std::vector<std::array<double, 2>> prof;
  // inner surface from the top (pole or hole edge) down to the rim, then the annulus, then the
  // outer surface up: with these directions the revolved triangles face outward
  const double a_in = hole > 0 ? std::asin(hole / ri) : 0.0;
  const double a_out = hole > 0 ? std::asin(hole / ro) : 0.0;
  for (int i = 0; i <= arcs; ++i) {
    const double a = a_in + (kPi / 2 - a_in) * i / arcs;  // angle from the axis
    prof.push_back({ri * std::sin(a), z0 + ri * std::cos(a)});
  }
  for (int i = 0; i <= arcs; ++i) {
    const double a = kPi / 2 - (kPi / 2 - a_out) * i / arcs;
    prof.push_back({ro * std::sin(a), z0 + ro * std::cos(a)});
  }
  if (hole == 0.0) {
    prof.front()[0] = 0.0;
    prof.back()[0] = 0.0;
  }
  return revolve(prof, n);
}

/// The volume a dome's inner surface encloses with the plane z = z0 (the exact cavity of the
/// tessellation): the inner hemisphere closed by its rim polygon.
double inner_volume(double ri, double z0, int n = 48, int arcs = 16) {
  double v = 0.0;
  // stack of frusta between rings of the tessellated hemisphere: each ring is a regular n-gon
  auto ngon_area = [&](double r) { return 0.5 * n * r * r * std::sin(2 * kPi / n); };
  for (int i = 0; i < arcs; ++i) {
    const double a0 = kPi / 2 * i / arcs, a1 = kPi / 2 * (i + 1) / arcs;
    const double r0 = ri * std::sin(a0), r1 = ri * std::sin(a1);
    const double h = ri * (std::cos(a0) - std::cos(a1));
    const double A0 = ngon_area(r0), A1 = ngon_area(r1);
    v += h / 3.0 * (A0 + A1 + std::sqrt(A0 * A1));
  }
  (void)z0;
  return v;
}

UnionMesh as_union(const SurfaceMesh& s) { return UnionMesh{s.vertices, s.triangles}; }

SurfaceMesh merge(const SurfaceMesh& a, const SurfaceMesh& b) {
  SurfaceMesh m = a;
  const int off = static_cast<int>(a.vertices.size());
  for (const Vec3& v : b.vertices) m.vertices.push_back(v);
  for (const Tri& t : b.triangles) m.triangles.push_back({t[0] + off, t[1] + off, t[2] + off});
  return m;
}

/// Moves every vertex of `m` within `d` of the plane z = top down by `d` (the sealing offset).
UnionMesh sealed(const SurfaceMesh& m, double top, double d) {
  UnionMesh u = as_union(m);
  for (Vec3& v : u.vertices)
    if (v.z() - top <= d + 1e-12) v.z() -= d;
  return u;
}

SurfaceMesh plate(double top) {
  SurfaceMesh p = make_box_surface(Vec3(0.2, 0.2, 0.01));
  for (Vec3& v : p.vertices) v.z() += top - 0.005;
  return p;
}

/// Cavity vertex positions from its mapping onto the unmoved meshes a (slot 0) and b (slot 1).
Points mapped(const CavityState& c, const SurfaceMesh& a, const SurfaceMesh& b) {
  Points x;
  for (const SurfacePoint& p : c.vertices) {
    const SurfaceMesh& m = p.slot == 0 ? a : b;
    const Tri& t = m.triangles[p.triangle];
    x.push_back(p.bary[0] * m.vertices[t[0]] + p.bary[1] * m.vertices[t[1]] + p.bary[2] * m.vertices[t[2]]);
  }
  return x;
}

bool is_closed(const std::vector<Tri>& tris) {
  std::map<std::pair<int, int>, int> edges;
  for (const Tri& t : tris)
    for (int e = 0; e < 3; ++e) edges[{t[e], t[(e + 1) % 3]}]++;
  for (const auto& [e, count] : edges) {
    if (count != 1) return false;
    const auto twin = edges.find({e.second, e.first});
    if (twin == edges.end() || twin->second != 1) return false;
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// volume and gradient

TEST(CavityVolume, BoxVolumeAndGradientMatchFiniteDifferences) {
  SurfaceMesh box = make_box_surface(Vec3(0.02, 0.03, 0.05));
  EXPECT_NEAR(mesh_volume(box.vertices, box.triangles), 0.02 * 0.03 * 0.05, 1e-15);
  // a distorted closed mesh: a sphere with random vertex jitter
  SurfaceMesh s = make_sphere_surface(0.01, 10);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1e-3, 1e-3);
  for (Vec3& v : s.vertices) v += Vec3(u(rng), u(rng), u(rng));
  const Points g = mesh_volume_gradient(s.vertices, s.triangles);
  double worst = 0.0, scale = 0.0;
  const double eps = 1e-7;
  for (size_t i = 0; i < s.vertices.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      Points xp = s.vertices, xm = s.vertices;
      xp[i][k] += eps;
      xm[i][k] -= eps;
      const double fd = (mesh_volume(xp, s.triangles) - mesh_volume(xm, s.triangles)) / (2 * eps);
      worst = std::max(worst, std::abs(fd - g[i][k]));
      scale = std::max(scale, std::abs(g[i][k]));
    }
  EXPECT_LT(worst / scale, 1e-6) << "worst relative error of dV/dx";
  // translation invariance: Σ ∂V/∂x = 0 for a closed mesh
  Vec3 sum = Vec3::Zero();
  for (const Vec3& gi : g) sum += gi;
  EXPECT_LT(sum.norm(), 1e-12 * scale * g.size());
}

// ---------------------------------------------------------------------------------------------
// the gas-law quadratic

TEST(CavityPressure, QuadraticSatisfiesTheGasLawClampsAndVacuum) {
  const double p_atm = 101325.0;
  for (double a : {1e-15, 1e-12, 1e-10}) {
    for (double v : {1e-6, 5e-6, 2e-5}) {
      CavityRow row;
      row.air = p_atm * 1e-5;  // N of 10 cm³ at ambient
      row.p_atm = p_atm;
      row.p_max = 1e9;
      const double p = cavity_pressure(a, v, row);
      EXPECT_GE(p, 0.0);
      EXPECT_NEAR(p * (v + a * (p - p_atm)), row.air, 1e-9 * row.air) << "a " << a << " V " << v;
      EXPECT_EQ(row.outflow, 0.0);
    }
  }
  // compressed beyond P_max: clamped, and the air that leaves makes the law hold at P_max
  CavityRow row;
  row.air = p_atm * 1e-5;
  row.p_atm = p_atm;
  row.p_max = p_atm;
  const double a = 1e-12, v = 5e-6;
  const double p = cavity_pressure(a, v, row);
  EXPECT_EQ(p, p_atm);
  EXPECT_LT(row.outflow, 0.0);
  EXPECT_NEAR(p * (v + a * (p - p_atm)), row.air + row.outflow, 1e-9 * row.air);
  // an expanding cavity never draws air in
  CavityRow grow = row;
  const double pg = cavity_pressure(a, 2e-5, grow);
  EXPECT_LT(pg, p_atm);
  EXPECT_EQ(grow.outflow, 0.0);
  // vacuum
  CavityRow empty = row;
  empty.air = 0.0;
  EXPECT_EQ(cavity_pressure(a, v, empty), 0.0);
}

// ---------------------------------------------------------------------------------------------
// Boyle's law: a rigid piston driven into a sealed rigid cylinder (isothermal compression)

TEST(CavityPressure, BoylesLawWithARigidPiston) {
  Simulation sim(load_scene_text(
      test::piston_scene(R"({"p_max": 1e7})", R"([{"move": [0, 0, -0.012], "duration": 2.4}, {"hold": 0.6}])"), "",
      {}));
  const Model& m = sim.model();
  ASSERT_TRUE(test::seal_piston_bore(sim));
  const double area = test::kBoreArea;
  const double v0 = area * test::kBoreHeight;
  const CavityState& c = sim.state().book.cavities.at(0);
  ASSERT_NEAR(c.volume, v0, 1e-15);
  const double n0 = c.air;
  double worst = 0.0;
  ASSERT_EQ(sim.state().book.cavities.size(), 1u);
  for (int i = 0; i < 1500; ++i) {  // 3 s
    sim.step();
    ASSERT_EQ(sim.state().book.cavities.size(), 1u) << "step " << i;
    const CavityState& k = sim.state().book.cavities.at(0);
    worst = std::max(worst, std::abs(k.pressure * k.volume - n0) / n0);
    ASSERT_EQ(k.air, n0) << "no outflow, no leak: the air is constant";
  }
  EXPECT_LT(worst, 0.005) << "P·V = N at every step (Boyle)";
  // driven from 20 mm to 8 mm: P = P_atm · 20/8, and the volume follows the piston
  const CavityState& k = sim.state().book.cavities.at(0);
  const double p_end = m.settings.p_atm * 20.0 / 8.0;
  EXPECT_NEAR(k.volume, area * 0.008, 1e-9 * area * 0.008);
  EXPECT_NEAR(k.pressure, p_end, 0.005 * p_end);
  std::printf("Boyle piston: worst |PV - N|/N = %.2e, P_end = %.1f Pa (expected %.1f)\n", worst,
              k.pressure, p_end);
  // the holding force is (P_atm − P) times the bore's cross-section (negative: the air pushes)
  const CavityHold hold = cavity_hold(m, sim.state(), k);
  EXPECT_NEAR(std::abs(hold.normal.z()), 1.0, 1e-9) << "the seal ring lies across the bore";
  EXPECT_NEAR(hold.area, area, 1e-9 * area);
  EXPECT_NEAR(hold.force, (m.settings.p_atm - k.pressure) * area, 1e-6 * std::abs(hold.force));
  EXPECT_NEAR(sim.cavity_summary().holding_force, hold.force, 1e-12 * std::abs(hold.force));
}

// ---------------------------------------------------------------------------------------------
// detection

// The holding area is the net pull on the bodies, not the cavity's shadow (issue 49: the
// two cups over the air tunnel reported 32.65 N where the cups were pulled by 28.79 N).  A
// chamber 6 × 2 × 1 under a block's top, reached through square shafts 1 × 1 closed by lids:
// the chamber's ceiling overhangs its floor, so the block's walls pull it by floor − ceiling =
// the shafts' area, and each lid by its own area.  Triangles on an integer grid: exact.
namespace {
struct Soup {
  Points x;
  std::vector<Tri> tris;
  std::vector<int> body;
  // the rectangle from corner o along u and v (unit cells), its normal u×v out of the cavity
  void rect(const Vec3& o, const Vec3& u, const Vec3& v, int b) {
    const int i = static_cast<int>(x.size());
    x.insert(x.end(), {o, o + u, o + u + v, o + v});
    tris.push_back({i, i + 1, i + 2});
    tris.push_back({i, i + 2, i + 3});
    body.insert(body.end(), {b, b});
  }
};
// the chamber x ∈ [−3, 3], y ∈ [−1, 1], z ∈ [−2, −1] of body 1, shafts over the cells whose
// lower corners are `shafts` (x, y), each up to z = 0, closed there by a lid of body `lid0 + k`
Soup chamber_with_shafts(const std::vector<std::array<int, 2>>& shafts, int lid0) {
  Soup s;
  const Vec3 X = Vec3::UnitX(), Y = Vec3::UnitY(), Z = Vec3::UnitZ();
  for (int i = -3; i < 3; ++i)
    for (int j = -1; j < 1; ++j) {
      s.rect(Vec3(i, j, -2), Y, X, 1);  // floor: out of the cavity is −z
      const bool shaft = std::find(shafts.begin(), shafts.end(), std::array<int, 2>{i, j}) != shafts.end();
      if (!shaft) s.rect(Vec3(i, j, -1), X, Y, 1);  // ceiling: +z
    }
  s.rect(Vec3(-3, -1, -2), Z * 1.0, Y * 2.0, 1);  // the chamber's sides
  s.rect(Vec3(3, -1, -2), Y * 2.0, Z * 1.0, 1);
  s.rect(Vec3(-3, -1, -2), X * 6.0, Z * 1.0, 1);
  s.rect(Vec3(-3, 1, -2), Z * 1.0, X * 6.0, 1);
  for (size_t k = 0; k < shafts.size(); ++k) {
    const Vec3 o(shafts[k][0], shafts[k][1], -1);
    s.rect(o, Z, Y, 1);  // the shaft's four sides
    s.rect(o + X, Y, Z, 1);
    s.rect(o, X, Z, 1);
    s.rect(o + Y, Z, X, 1);
    s.rect(o + Z, X, Y, lid0 + static_cast<int>(k));  // the lid: +z
  }
  return s;
}
}  // namespace

TEST(CavityGeometry, TheHoldingAreaIsTheNetPullOnTheBodiesWhenAWallOverhangs) {
  // one lid over one shaft: the lid is pulled by its cell, the block by floor − ceiling, the same
  const Soup one = chamber_with_shafts({{{-2, 0}}}, 2);
  EXPECT_DOUBLE_EQ(holding_area(one.x, one.tris, one.body, static_cast<int>(one.tris.size())), 1.0);
  EXPECT_DOUBLE_EQ(projected_area(one.x, one.tris, Vec3::UnitZ()), 12.0)
      << "the shadow is the chamber's footprint: the overhang counted twice";
  // two lids over two shafts into one chamber (the air tunnel's two cups): both lids' areas
  const Soup two = chamber_with_shafts({{{-2, 0}}, {{1, -1}}}, 2);
  EXPECT_DOUBLE_EQ(holding_area(two.x, two.tris, two.body, static_cast<int>(two.tris.size())), 2.0);
  // turned, the same; a body marked −1 (the seam) and the triangles past `count` are left out
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, -2, 3).normalized()).toRotationMatrix();
  Soup turned = two;
  for (Vec3& p : turned.x) p = R * p;
  EXPECT_NEAR(holding_area(turned.x, turned.tris, turned.body, static_cast<int>(turned.tris.size())), 2.0, 1e-12);
  Soup seam = one;
  seam.rect(Vec3(10, 10, 10), Vec3(5, 0, 0), Vec3(0, 5, 0), -1);
  EXPECT_DOUBLE_EQ(holding_area(seam.x, seam.tris, seam.body, static_cast<int>(seam.tris.size())), 1.0);
  EXPECT_DOUBLE_EQ(holding_area(seam.x, seam.tris, seam.body, 2), 0.5) << "the first floor cell alone";
}

TEST(CavityDetection, DomePressedOnAPlateGivesOneCavityOfTheEnclosedVolume) {
  const double ri = 0.02, ro = 0.024, d = 5e-5;
  const SurfaceMesh a = dome(ri, ro, 0.0);
  const SurfaceMesh b = plate(0.0);
  const UnionMesh ua = sealed(a, 0.0, d), ub = as_union(b);
  const auto comps = mesh_union_components(ua, ub);
  const auto cavs = cavities_from_union(comps, ua, ub, 0, 1);
  ASSERT_EQ(cavs.size(), 1u);
  const CavityState& c = cavs[0];
  EXPECT_TRUE(is_closed(c.triangles)) << "walls + seam quads form a closed mesh";
  EXPECT_LT(c.seam_begin, static_cast<int>(c.triangles.size())) << "the seam has quads";
  const Points x = mapped(c, a, b);
  const double v = mesh_volume(x, c.triangles);
  const double exact = inner_volume(ri, 0.0);
  EXPECT_NEAR(v, exact, 0.01 * exact);
  EXPECT_NEAR(exact, 2.0 / 3.0 * kPi * ri * ri * ri, 0.02 * exact) << "the tessellation is fine";
  // every vertex lies on its body: dome vertices on the dome's surface, plate ones at z = 0
  bool both[2] = {false, false};
  for (size_t i = 0; i < x.size(); ++i) {
    both[c.vertices[i].slot] = true;
    if (c.vertices[i].slot == 1) EXPECT_NEAR(x[i].z(), 0.0, 1e-12);
    else EXPECT_GE(x[i].z(), -1e-12);
  }
  EXPECT_TRUE(both[0] && both[1]);
  std::printf("dome cavity: %.6e m^3 (enclosed %.6e, %+.3f %%), %zu triangles\n", v, exact,
              100 * (v - exact) / exact, c.triangles.size());

  // the area the pressure difference acts on: the dome's footprint π r_i², seen along the
  // sealing ring's normal (+z), also when the whole configuration is tilted
  const auto ring = seam_ring_edges(c);
  EXPECT_GE(ring.size(), 48u) << "one ring per body, 48 segments each";
  const Vec3 n = seam_ring_normal(x, c, ring);
  EXPECT_NEAR(n.z(), 1.0, 1e-9);
  const double footprint = kPi * ri * ri;
  EXPECT_NEAR(projected_area(x, c.triangles, n), footprint, 0.01 * footprint);
  const Mat3 R = Eigen::AngleAxisd(0.5, Vec3(1, 2, 0).normalized()).toRotationMatrix();
  Points xr = x;
  for (Vec3& p : xr) p = R * p;
  const Vec3 nr = seam_ring_normal(xr, c, ring);
  EXPECT_NEAR(nr.dot(R * Vec3::UnitZ()), 1.0, 1e-9);
  EXPECT_NEAR(projected_area(xr, c.triangles, nr), projected_area(x, c.triangles, n), 1e-12 * footprint);
  EXPECT_LT(projected_area(xr, c.triangles, Vec3::UnitZ()), 0.95 * footprint) << "tilted: a smaller shadow on z";
}

// The union's input jitter (method §9.2): the dome sealed on the plate, both surfaces moved by
// up to 5 nm, gives the same cavity: its volume within 1e-5 of the unjittered one, every
// vertex on its real body (the plate's at z = 0 to 1e-12: barycentric in the input
// triangles); the jitter is deterministic and bounded by its amplitude.
TEST(CavityDetection, AJitteredUnionGivesTheSameCavityOnTheRealSurfaces) {
  const double ri = 0.02, ro = 0.024, d = 5e-5, amp = 1e-4 * d;
  const SurfaceMesh a = dome(ri, ro, 0.0);
  const SurfaceMesh b = plate(0.0);
  const UnionMesh ua = sealed(a, 0.0, d), ub = as_union(b);
  UnionMesh ja = ua, jb = ub, ja2 = ua;
  jitter_vertices(ja, amp, 1);
  jitter_vertices(jb, amp, 2);
  jitter_vertices(ja2, amp, 1);
  double moved = 0.0;
  for (size_t i = 0; i < ua.vertices.size(); ++i) {
    ASSERT_EQ(ja.vertices[i], ja2.vertices[i]) << "deterministic";
    moved = std::max(moved, (ja.vertices[i] - ua.vertices[i]).cwiseAbs().maxCoeff());
  }
  EXPECT_LE(moved, amp);
  EXPECT_GT(moved, 0.5 * amp) << "it does move the vertices";
  const auto plain = cavities_from_union(mesh_union_components(ua, ub), ua, ub, 0, 1);
  const auto jittered = cavities_from_union(mesh_union_components(ja, jb), ja, jb, 0, 1);
  ASSERT_EQ(plain.size(), 1u);
  ASSERT_EQ(jittered.size(), 1u);
  const double v0 = mesh_volume(mapped(plain[0], a, b), plain[0].triangles);
  const Points x = mapped(jittered[0], a, b);
  const double v1 = mesh_volume(x, jittered[0].triangles);
  EXPECT_NEAR(v1, v0, 1e-5 * v0);
  for (size_t i = 0; i < x.size(); ++i)
    if (jittered[0].vertices[i].slot == 1) EXPECT_NEAR(x[i].z(), 0.0, 1e-12);
  std::printf("dome cavity: %.9e m^3 plain, %.9e m^3 jittered (%+.2e)\n", v0, v1, (v1 - v0) / v0);
}

// ---------------------------------------------------------------------------------------------
// a seam that follows its bodies between unions (cavity.follow_seal, method §9.8)

namespace {

/// m widened about the z axis by `scale` and lifted by `lift`
SurfaceMesh moved(SurfaceMesh m, double scale, double lift) {
  for (Vec3& v : m.vertices) v = Vec3(scale * v.x(), scale * v.y(), v.z() + lift);
  return m;
}

/// The union's input of a dome on a plate as the cavity stage makes it: the dome's vertices
/// within d of the plate moved d into it, both jittered (amplitude 1e-4 d).
std::array<UnionMesh, 2> union_input(const SurfaceMesh& dome_surface, const SurfaceMesh& plate_surface, double d) {
  std::array<UnionMesh, 2> in{sealed(dome_surface, 0.0, d), as_union(plate_surface)};
  jitter_vertices(in[0], 1e-4 * d, 1);
  jitter_vertices(in[1], 1e-4 * d, 2);
  return in;
}

struct Followed {
  int lost = 0, left = 0;
  double followed = 0.0, held = 0.0, fresh = 0.0;  // volumes on the moved real surfaces
  int moved_on = 0;                                // crossings now on another triangle
  int fresh_cavities = 0;                          // the fresh union's
};

/// A dome sealed on a plate, united; the dome then widened by `scale` and lifted by `lift` (the
/// plate still), the cavity's seam followed onto the new union input, and its volume compared
/// with a fresh union's there and with the cavity's unfollowed (held) one.
Followed follow_a_moved_dome(const SurfaceMesh& plate_surface, double scale, double lift) {
  const double ri = 0.02, ro = 0.024, d = 5e-5;
  const SurfaceMesh a = dome(ri, ro, 0.0);
  const std::array<UnionMesh, 2> in = union_input(a, plate_surface, d);
  const auto cavs = cavities_from_union(mesh_union_components(in[0], in[1]), in[0], in[1], 0, 1);
  EXPECT_EQ(cavs.size(), 1u);
  if (cavs.size() != 1) return {};
  CavityState c = cavs[0];
  EXPECT_FALSE(c.crossings.empty()) << "every seam vertex is an edge crossing a triangle";
  for (const SeamCrossing& x : c.crossings) EXPECT_NE(c.vertices[x.edge_copy].slot, c.vertices[x.face_copy].slot);

  const SurfaceMesh a2 = moved(a, scale, lift);
  const std::array<UnionMesh, 2> in2 = union_input(a2, plate_surface, d);
  Followed f;
  f.held = mesh_volume(mapped(c, a2, plate_surface), c.triangles);
  std::vector<int> faces;
  for (const SeamCrossing& x : c.crossings) faces.push_back(c.vertices[x.face_copy].triangle);
  const SeamFollowed sf = follow_seam(c, {0, 1}, {&in2[0].triangles, &in2[1].triangles},
                                     [&](int body, int v) { return in2[body].vertices[v]; });
  f.lost = sf.lost;
  f.left = sf.left;
  for (size_t i = 0; i < faces.size(); ++i) f.moved_on += c.vertices[c.crossings[i].face_copy].triangle != faces[i];
  f.followed = mesh_volume(mapped(c, a2, plate_surface), c.triangles);
  const auto fresh = cavities_from_union(mesh_union_components(in2[0], in2[1]), in2[0], in2[1], 0, 1);
  f.fresh_cavities = static_cast<int>(fresh.size());
  if (fresh.size() == 1) f.fresh = mesh_volume(mapped(fresh[0], a2, plate_surface), fresh[0].triangles);
  std::printf("dome widened by %.4f and lifted by %.1e m: %zu crossings, %d lost, %d on another triangle; volume "
              "followed %+.2e, held %+.2e from a fresh union's\n",
              scale, lift, c.crossings.size(), f.lost, f.moved_on, f.followed / f.fresh - 1.0,
              f.held / f.fresh - 1.0);
  return f;
}

}  // namespace

// The dome widened by 0.2 % (its lip slides out by 40 µm, as a pressed cup's does) and lifted
// by half the sealing distance: every seam vertex stays on its edge of the dome and its
// triangle of the plate, and the followed cavity is the one a fresh union of the moved input
// finds, to rounding, where the cavity held at the union's points is off by far more.
TEST(CavitySeam, AFollowedSeamIsTheFreshUnionsWhileItsVerticesKeepTheirTriangles) {
  const Followed f = follow_a_moved_dome(plate(0.0), 1.002, 2.5e-5);
  ASSERT_EQ(f.fresh_cavities, 1);
  EXPECT_EQ(f.lost, 0);
  EXPECT_EQ(f.left, 0);
  EXPECT_EQ(f.moved_on, 0) << "the plate's top is two triangles";
  EXPECT_NEAR(f.followed, f.fresh, 1e-12 * f.fresh);
  EXPECT_GT(std::abs(f.held / f.fresh - 1.0), 1e-6) << "held at the union's points it is not";
}

// On a plate of 3.8 mm cells (53 across: no grid vertex on the dome's rims) a wider slide
// (0.5 %, 0.1 mm) takes seam vertices onto neighbouring triangles of the plate (the ring around
// the union's); the plate is flat, so the followed cavity is still the fresh union's to rounding.
TEST(CavitySeam, ASeamVertexMovesOntoTheNeighbouringTriangleItNowCrosses) {
  SurfaceMesh fine = make_box_surface(Vec3(0.2, 0.2, 0.01), 53, 53, 1);
  for (Vec3& v : fine.vertices) v.z() -= 0.005;
  const Followed f = follow_a_moved_dome(fine, 1.005, 2.5e-5);
  ASSERT_EQ(f.fresh_cavities, 1);
  EXPECT_EQ(f.lost, 0);
  EXPECT_GT(f.moved_on, 0) << "some crossed a cell's edge";
  EXPECT_NEAR(f.followed, f.fresh, 1e-12 * f.fresh);
}

// Lifted off by twice the sealing distance the dome's edges no longer reach the plate (and a
// union finds no cavity): every crossing is lost and keeps its place (the cavity is the held one).
TEST(CavitySeam, ASeamWhoseEdgesLeaveTheSurfaceIsLostAndKeepsItsPlace) {
  const Followed f = follow_a_moved_dome(plate(0.0), 1.0, 1e-4);
  EXPECT_EQ(f.fresh_cavities, 0);
  EXPECT_EQ(f.lost, 98) << "all of them";
  // the dome's 96 edges (two per segment of its inner wall) no longer reach the plate; the
  // plate's diagonal, which crossed the wall twice, still meets the wall's planes, below it
  EXPECT_EQ(f.left, 96);
  EXPECT_EQ(f.followed, f.held);
}

TEST(CavityDetection, DomeLiftedBeyondTheSealingDistanceHasNoCavity) {
  const double d = 5e-5;
  const SurfaceMesh a = dome(0.02, 0.024, 2.5 * d);  // lifted 2.5 d: the offset does not reach
  const UnionMesh ua = sealed(a, 0.0, d), ub = as_union(plate(0.0));
  EXPECT_TRUE(cavities_from_union(mesh_union_components(ua, ub), ua, ub, 0, 1).empty());
}

TEST(CavityDetection, DomeWithAHoleHasNoCavity) {
  const double d = 5e-5;
  const SurfaceMesh a = dome(0.02, 0.024, 0.0, 0.004);
  const UnionMesh ua = sealed(a, 0.0, d), ub = as_union(plate(0.0));
  const auto comps = mesh_union_components(ua, ub);
  EXPECT_EQ(comps.size(), 1u) << "the inside is connected to the outside through the hole";
  EXPECT_TRUE(cavities_from_union(comps, ua, ub, 0, 1).empty());
}

TEST(CavityDetection, TwoDomesOnOnePlateGiveTwoCavities) {
  const double d = 5e-5;
  SurfaceMesh left = dome(0.01, 0.012, 0.0, 0.0, 32, 12), right = dome(0.015, 0.018, 0.0, 0.0, 32, 12);
  for (Vec3& v : left.vertices) v.x() -= 0.03;
  for (Vec3& v : right.vertices) v.x() += 0.03;
  const SurfaceMesh a = merge(left, right);
  const UnionMesh ua = sealed(a, 0.0, d), ub = as_union(plate(0.0));
  const auto cavs = cavities_from_union(mesh_union_components(ua, ub), ua, ub, 0, 1);
  ASSERT_EQ(cavs.size(), 2u);
  std::vector<double> vols;
  for (const CavityState& c : cavs) vols.push_back(mesh_volume(mapped(c, a, plate(0.0)), c.triangles));
  std::sort(vols.begin(), vols.end());
  EXPECT_NEAR(vols[0], inner_volume(0.01, 0, 32, 12), 0.02 * vols[0]);
  EXPECT_NEAR(vols[1], inner_volume(0.015, 0, 32, 12), 0.02 * vols[1]);
}

// ---------------------------------------------------------------------------------------------
// detection over a group of bodies (docs/method.md §9.4): a cavity bounded by three bodies

namespace {

/// A washer: the block with a round tunnel through it, radius rt to R, z in [0, h] (genus 1).
SurfaceMesh washer(double rt, double R, double h, int n = 48) {
  return revolve({{rt, 0.0}, {R, 0.0}, {R, h}, {rt, h}}, n);
}

/// A dome shell (as dome()) upside down, hanging from the plane z = z0.
SurfaceMesh hanging_dome(double ri, double ro, double z0, int n = 48, int arcs = 16) {
  SurfaceMesh m = dome(ri, ro, 0.0, 0.0, n, arcs);
  for (Vec3& v : m.vertices) v.z() = z0 - v.z();
  for (Tri& t : m.triangles) std::swap(t[1], t[2]);  // the mirror turned it inside out
  return m;
}

/// Cavity vertex positions from its mapping onto the unmoved meshes (meshes[slot]).
Points mapped_on(const CavityState& c, const std::vector<SurfaceMesh>& meshes) {
  Points x;
  for (const SurfacePoint& p : c.vertices) {
    const SurfaceMesh& m = meshes[p.slot];
    const Tri& t = m.triangles[p.triangle];
    x.push_back(p.bary[0] * m.vertices[t[0]] + p.bary[1] * m.vertices[t[1]] + p.bary[2] * m.vertices[t[2]]);
  }
  return x;
}

}  // namespace

// Two domes over the two ends of a tunnel through a block: no pair of the three bodies encloses
// any air (each dome sees the tunnel open at the other end), the union of all three encloses
// one cavity: both domes' insides and the tunnel, bounded by the three bodies.
TEST(CavityDetection, ThreeBodiesEncloseACavityThatNoPairOfThemDoes) {
  const double ri = 0.01, ro = 0.012, rt = 0.004, R = 0.02, h = 0.015, d = 5e-5;
  const int n = 48;
  const SurfaceMesh top = dome(ri, ro, h), block = washer(rt, R, h, n), bottom = hanging_dome(ri, ro, 0.0);
  // the seals: each dome's rim moved by d into the block
  UnionMesh u_top = sealed(top, h, d), u_block = as_union(block), u_bottom = as_union(bottom);
  for (Vec3& v : u_bottom.vertices)
    if (v.z() >= -d - 1e-12) v.z() += d;
  for (const auto& [x, y] : {std::pair{&u_top, &u_block}, {&u_bottom, &u_block}, {&u_top, &u_bottom}})
    EXPECT_TRUE(cavities_from_union(mesh_union_components(*x, *y), *x, *y, 0, 1).empty())
        << "a pair alone encloses nothing";

  const std::vector<UnionMesh> group = {u_top, u_block, u_bottom};
  const std::vector<int> slots = {0, 1, 2};
  const auto cavs = cavities_from_union(mesh_union_components(group), group, slots);
  ASSERT_EQ(cavs.size(), 1u);
  const CavityState& c = cavs[0];
  EXPECT_EQ(c.slots, slots) << "bounded by all three bodies";
  EXPECT_TRUE(is_closed(c.triangles));
  const Points x = mapped_on(c, {top, block, bottom});
  // exact for the tessellation: two domes' insides and the n-gon prism of the tunnel
  const double tunnel = 0.5 * n * rt * rt * std::sin(2 * kPi / n) * h;
  const double exact = 2.0 * inner_volume(ri, 0.0) + tunnel;
  const double v = mesh_volume(x, c.triangles);
  EXPECT_NEAR(v, exact, 0.01 * exact);
  EXPECT_GT(v, 2.0 * inner_volume(ri, 0.0) + 0.9 * tunnel) << "the tunnel is part of it";
  // every vertex lies on its body: the block's on its faces (z = 0, z = h, or r = rt)
  for (size_t i = 0; i < x.size(); ++i) {
    if (c.vertices[i].slot != 1) continue;
    const double r = std::hypot(x[i].x(), x[i].y());
    const bool on_face = std::abs(x[i].z()) < 1e-12 || std::abs(x[i].z() - h) < 1e-12 || r < rt + 1e-9;
    EXPECT_TRUE(on_face) << "vertex " << i << " at r = " << r << ", z = " << x[i].z();
  }
  // the same union, the meshes in another order: the same cavity
  const std::vector<UnionMesh> shuffled = {u_block, u_bottom, u_top};
  const auto again = cavities_from_union(mesh_union_components(shuffled), shuffled, {1, 2, 0});
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].slots, slots);
  EXPECT_NEAR(mesh_volume(mapped_on(again[0], {top, block, bottom}), again[0].triangles), v, 1e-9 * v);
  std::printf("three-body cavity: %.6e m^3 (exact %.6e, %+.3f %%; tunnel %.3e), %zu triangles\n", v, exact,
              100 * (v - exact) / exact, tunnel, c.triangles.size());
}

// A group of three bodies, two domes on one plate: two cavities, each bounded by its dome and
// the plate only, of each dome's enclosed volume.
TEST(CavityDetection, AGroupOfThreeBodiesKeepsSeparateCavitiesSeparate) {
  const double d = 5e-5;
  SurfaceMesh left = dome(0.01, 0.012, 0.0, 0.0, 32, 12), right = dome(0.015, 0.018, 0.0, 0.0, 32, 12);
  for (Vec3& v : left.vertices) v.x() -= 0.03;
  for (Vec3& v : right.vertices) v.x() += 0.03;
  const SurfaceMesh base = plate(0.0);
  const std::vector<UnionMesh> group = {sealed(left, 0.0, d), as_union(base), sealed(right, 0.0, d)};
  const auto cavs = cavities_from_union(mesh_union_components(group), group, {0, 1, 2});
  ASSERT_EQ(cavs.size(), 2u);
  std::map<int, double> volume_by_dome;
  for (const CavityState& c : cavs) {
    ASSERT_EQ(c.slots.size(), 2u);
    ASSERT_TRUE(c.slots == std::vector<int>({0, 1}) || c.slots == std::vector<int>({1, 2})) << "a dome on the plate";
    EXPECT_TRUE(is_closed(c.triangles));
    const int dome_slot = c.slots[0] == 0 ? 0 : 2;
    volume_by_dome[dome_slot] = mesh_volume(mapped_on(c, {left, base, right}), c.triangles);
  }
  ASSERT_EQ(volume_by_dome.size(), 2u);
  EXPECT_NEAR(volume_by_dome[0], inner_volume(0.01, 0, 32, 12), 0.02 * volume_by_dome[0]);
  EXPECT_NEAR(volume_by_dome[2], inner_volume(0.015, 0, 32, 12), 0.02 * volume_by_dome[2]);
}

namespace {

/// Half of dome(ri, ro, 0): the profile revolved over the angles [theta0, theta0 + π] (m
/// segments) and closed by its two flat cut faces.
SurfaceMesh half_dome(double ri, double ro, double theta0, int m = 24, int arcs = 12) {
  std::vector<std::array<double, 2>> prof;  // inner arc from the pole down, then the outer one up
  for (int i = 0; i <= arcs; ++i) {
    const double a = kPi / 2 * i / arcs;
    prof.push_back({ri * std::sin(a), ri * std::cos(a)});
  }
  for (int i = 0; i <= arcs; ++i) {
    const double a = kPi / 2 - kPi / 2 * i / arcs;
    prof.push_back({ro * std::sin(a), ro * std::cos(a)});
  }
  prof.front()[0] = 0.0;
  prof.back()[0] = 0.0;
  const int np = static_cast<int>(prof.size());
  SurfaceMesh s;
  std::vector<std::vector<int>> ring(np);
  for (int i = 0; i < np; ++i) {
    const auto [r, z] = prof[i];
    for (int k = 0; k <= m; ++k) {
      if (r == 0.0 && k > 0) {
        ring[i].push_back(ring[i][0]);
        continue;
      }
      const double t = theta0 + kPi * k / m;
      ring[i].push_back(static_cast<int>(s.vertices.size()));
      s.vertices.emplace_back(r * std::cos(t), r * std::sin(t), z);
    }
  }
  for (int i = 0; i + 1 < np; ++i)  // the revolved sides, as revolve() makes them
    for (int k = 0; k < m; ++k) {
      const std::vector<int>& p = ring[i];
      const std::vector<int>& q = ring[i + 1];
      if (q[k] != q[k + 1]) s.triangles.push_back({p[k], q[k + 1], q[k]});
      if (p[k] != p[k + 1]) s.triangles.push_back({p[k], p[k + 1], q[k + 1]});
    }
  // the cut faces: rungs from inner point i to outer point np-1-i, a quad between two rungs
  for (int i = 0; i < arcs; ++i) {
    const int a = i, b = i + 1, c = np - 2 - i, d = np - 1 - i;
    s.triangles.push_back({ring[a][0], ring[b][0], ring[c][0]});
    s.triangles.push_back({ring[a][0], ring[c][0], ring[d][0]});
    s.triangles.push_back({ring[a][m], ring[c][m], ring[b][m]});
    s.triangles.push_back({ring[a][m], ring[d][m], ring[c][m]});
  }
  if (mesh_volume(s.vertices, s.triangles) < 0.0)
    for (Tri& t : s.triangles) std::swap(t[1], t[2]);
  return s;
}

}  // namespace

// A dome cut in two halves (two bodies) standing on a plate: one cavity of three bodies, whose
// wall has two points where the three meet (the cut's ends on the plate).  There the seam quads
// leave a small loop open, which the cavity mesh closes: the mesh is closed (its volume does not
// depend on the origin), also when the halves move apart.
TEST(CavityDetection, ACavityWhereThreeBodiesMeetIsAClosedMesh) {
  const double ri = 0.01, ro = 0.012, d = 5e-5;
  const SurfaceMesh left = half_dome(ri, ro, kPi / 2), right = half_dome(ri, ro, -kPi / 2);
  ASSERT_TRUE(is_closed(left.triangles));
  ASSERT_TRUE(is_closed(right.triangles));
  ASSERT_NEAR(mesh_volume(left.vertices, left.triangles), mesh_volume(right.vertices, right.triangles), 1e-15);
  const SurfaceMesh base = plate(0.0);
  UnionMesh ul = sealed(left, 0.0, d), ur = sealed(right, 0.0, d);
  for (Vec3& v : ur.vertices) v.x() -= d;  // the two cut faces overlap by d: sealed on each other
  const std::vector<UnionMesh> group = {ul, as_union(base), ur};
  const auto cavs = cavities_from_union(mesh_union_components(group), group, {0, 1, 2});
  ASSERT_EQ(cavs.size(), 1u);
  const CavityState& c = cavs[0];
  EXPECT_EQ(c.slots, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(is_closed(c.triangles)) << "the junctions are closed";
  const Points x = mapped_on(c, {left, base, right});
  const double v = mesh_volume(x, c.triangles);
  // the inside of the dome, less the slice of width d the overlap takes (half a disc of radius
  // ri, the cut's section)
  const double expected = inner_volume(ri, 0.0, 2 * 24, 12) - d * 0.5 * kPi * ri * ri;
  EXPECT_NEAR(v, expected, 0.01 * expected);
  // the halves move apart by 1 mm: the mesh still encloses a volume, the same from any origin
  Points apart = x;
  for (size_t i = 0; i < apart.size(); ++i)
    if (c.vertices[i].slot == 2) apart[i].x() += 1e-3;
  Points shifted = apart;
  for (Vec3& p : shifted) p += Vec3(0.3, -0.2, 0.1);
  const double va = mesh_volume(apart, c.triangles), vs = mesh_volume(shifted, c.triangles);
  EXPECT_GT(va, v) << "the gap between the halves adds to the cavity";
  EXPECT_NEAR(vs, va, 1e-9 * va) << "a closed mesh: the volume does not depend on the origin";
  std::printf("cavity of two half domes and a plate: %.6e m^3 (expected %.6e), %.6e m^3 1 mm apart\n", v,
              expected, va);
}

TEST(CavityDetection, WindingNumberInsideTest) {
  const SurfaceMesh s = make_sphere_surface(0.01, 12);
  EXPECT_TRUE(point_inside_mesh(s.vertices, s.triangles, Vec3(0.001, 0.002, -0.003)));
  EXPECT_FALSE(point_inside_mesh(s.vertices, s.triangles, Vec3(0.02, 0, 0)));
  EXPECT_FALSE(point_inside_mesh(s.vertices, s.triangles, Vec3(0, 0, 0.0101)));
}
