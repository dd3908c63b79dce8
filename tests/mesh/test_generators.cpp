// Procedural meshes: valid, well shaped, conforming, closed genus-0 boundaries, right volume.
#include <gtest/gtest.h>

#include <array>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/mesh_checks.h"

namespace suction {
namespace {

using mesh_checks::euler_characteristic;
using mesh_checks::max_tets_per_face;
using mesh_checks::min_radius_ratio;

// every generated tet mesh: valid, well shaped, conforming, closed genus-0 boundary
void expect_good_solid(const TetMesh& m, const std::string& name, double min_quality = 0.1) {
  SCOPED_TRACE(name);
  EXPECT_NO_THROW(validate_tet_mesh(m, name));
  EXPECT_GT(min_radius_ratio(m), min_quality);
  EXPECT_LE(max_tets_per_face(m), 2);
  const BoundarySurface b = extract_boundary(m);
  EXPECT_NO_THROW(validate_closed_surface(b.surface, name));
  EXPECT_EQ(euler_characteristic(b.surface), 2);
  EXPECT_NEAR(enclosed_volume(b.surface), total_volume(m), 1e-12 * std::abs(total_volume(m)));
}

// exact volume of a polygonal solid of revolution with n planar wedges: the wedge between
// directions e_k, e_k+1 is {r((1-s)e_k + s e_k+1), z}, Jacobian r sin(2π/n), so
// V = n sin(2π/n) ∫∫ r dA over the (r, z) profile
double revolved_volume(double integral_r_dA, int n) { return n * std::sin(2 * kPi / n) * integral_r_dA; }

TEST(Generators, BoxIsExact) {
  const TetMesh m = make_box(Vec3(0.1, 0.2, 0.3), 3, 4, 5);
  expect_good_solid(m, "box", 0.5);
  EXPECT_EQ(m.nodes.size(), 4u * 5u * 6u);
  EXPECT_EQ(m.tets.size(), 6u * 3u * 4u * 5u);
  EXPECT_NEAR(total_volume(m), 0.1 * 0.2 * 0.3, 1e-15);
  const Aabb box = bounding_box(m.nodes);
  EXPECT_TRUE(box.lo.isApprox(Vec3(-0.05, -0.1, -0.15)));
  EXPECT_TRUE(box.hi.isApprox(Vec3(0.05, 0.1, 0.15)));
  expect_good_solid(make_box(Vec3(1, 1, 1), 1, 1, 1), "one cell", 0.5);
}

TEST(Generators, CylinderVolumeIsThePolygonalOne) {
  for (int res : {6, 16, 32}) {
    const double r = 0.01, h = 0.02;
    const TetMesh m = make_cylinder(r, h, res);
    expect_good_solid(m, "cylinder " + std::to_string(res), 0.3);
    // the profile rectangle: ∫∫ r dA = h r²/2
    EXPECT_NEAR(total_volume(m), revolved_volume(h * r * r / 2, res), 1e-12 * total_volume(m));
    const Aabb box = bounding_box(m.nodes);
    EXPECT_NEAR(box.hi.z(), h / 2, 1e-15);
    EXPECT_NEAR(box.hi.x(), r, 1e-15);
  }
}

TEST(Generators, SphereVolumeIsThePolygonalOne) {
  double previous_error = 1.0;
  for (int res : {8, 16, 32}) {
    const double radius = 0.02;
    const TetMesh m = make_sphere(radius, res);
    expect_good_solid(m, "sphere " + std::to_string(res), 0.3);
    // the profile is the half polygon with res/2 sides inscribed in the circle: sum over the
    // triangles (origin, p_l, p_l+1) of area × centroid radius
    const int meridian = res / 2;
    double integral = 0.0;
    for (int l = 0; l < meridian; ++l) {
      const double a = kPi * l / meridian, b = kPi * (l + 1) / meridian;
      const double area = 0.5 * radius * radius * std::sin(b - a);
      integral += area * (radius * std::sin(a) + radius * std::sin(b)) / 3.0;
    }
    const double v = total_volume(m);
    EXPECT_NEAR(v, revolved_volume(integral, res), 1e-12 * v);
    const double error = 1.0 - v / (4.0 / 3.0 * kPi * radius * radius * radius);
    EXPECT_GT(error, 0.0);  // inscribed
    EXPECT_LT(error, previous_error / 3.0);  // second order: ~1/4 per halving of h
    previous_error = error;
  }
}

TEST(Generators, CupHasTheRequestedShape) {
  const CupParams p;
  const TetMesh m = make_cup(p);
  expect_good_solid(m, "cup", 0.2);
  // about the size of the paper's 434-node cup
  EXPECT_GT(m.nodes.size(), 300u);
  EXPECT_LT(m.nodes.size(), 600u);
  const Aabb box = bounding_box(m.nodes);
  EXPECT_NEAR(box.lo.z(), 0.0, 1e-12);       // the lip rests on z = 0
  EXPECT_NEAR(box.hi.z(), p.height, 1e-12);  // top of the handle
  EXPECT_NEAR(box.hi.x(), p.radius, 1e-12);  // outer lip radius (node at angle 0)
  double r_max = 0.0, r_top = 0.0;
  for (const Vec3& x : m.nodes) {
    const double r = std::hypot(x.x(), x.y());
    r_max = std::max(r_max, r);
    if (x.z() > p.height - 1e-12) r_top = std::max(r_top, r);
    // nothing under the skirt: every node low down is near the lip
    if (x.z() < 0.25 * p.lip_thickness) {
      EXPECT_GT(r, 0.8 * p.radius);
    }
    // the axis is solid only from the bottom of the flat top up
    if (r < 1e-12) {
      EXPECT_GE(x.z(), p.height - p.handle_height - p.wall_thickness - 1e-12);
    }
  }
  EXPECT_NEAR(r_max, p.radius, 1e-12);
  EXPECT_NEAR(r_top, p.handle_radius, 1e-12);
  // volume: more than the handle and flat top, less than the bounding cylinder
  const double handle = revolved_volume(p.handle_height * p.handle_radius * p.handle_radius / 2, p.resolution);
  EXPECT_GT(total_volume(m), handle * (1.0 + p.wall_thickness / p.handle_height));
  EXPECT_LT(total_volume(m), kPi * p.radius * p.radius * p.height);
}

TEST(Generators, CupRefinesAndStaysWellShaped) {
  CupParams p;
  double previous = 0.0;
  for (auto [res, layers] : {std::pair{8, 1}, std::pair{16, 2}, std::pair{28, 3}, std::pair{32, 4}}) {
    p.resolution = res;
    p.layers = layers;
    const TetMesh m = make_cup(p);
    expect_good_solid(m, "cup " + std::to_string(res) + "x" + std::to_string(layers), 0.1);
    if (res == 28) {  // the finer cup of the paper's Table 2 has ~1600 nodes
      EXPECT_GT(m.nodes.size(), 1400u);
      EXPECT_LT(m.nodes.size(), 1800u);
    }
    EXPECT_GT(total_volume(m), previous);  // inscribed polygons grow with the resolution
    previous = total_volume(m);
  }
}

TEST(Generators, CupVariantsStayValid) {
  CupParams p;
  p.lip_angle_deg = 10.0;
  expect_good_solid(make_cup(p), "flat lip");
  p = CupParams{};
  p.lip_angle_deg = 60.0;
  p.handle_radius = 0.003;
  expect_good_solid(make_cup(p), "steep lip, thin handle");
  p = CupParams{};
  p.radius = 0.05;
  p.height = 0.03;
  p.handle_height = 0.01;
  p.resolution = 24;
  expect_good_solid(make_cup(p), "large cup");
}

// ∫ r dA over a simple polygon in the (r, z) plane (shoelace form of the first moment)
double first_moment(const std::vector<std::array<double, 2>>& poly) {
  double m = 0.0;
  for (size_t i = 0; i < poly.size(); ++i) {
    const auto& a = poly[i];
    const auto& b = poly[(i + 1) % poly.size()];
    m += (a[0] + b[0]) * (a[0] * b[1] - b[0] * a[1]);
  }
  return std::abs(m) / 6.0;
}

TEST(Generators, AProfileCupHasThePappusVolumeOfItsCrossSection) {
  // a straight skirt from (r0, z0) to the lip (r1, z1), 2 mm thick, under a 5 mm handle:
  // the cross-section is the handle's rectangle and the skirt's polygon, mitred at the
  // first point; Pappus: V = 2π ∫ r dA, the sweep's 64-gon removing (2π/64)²/6 = 0.16 %
  const double r0 = 0.006, z0 = 0.012, r1 = 0.02, z1 = 0.002, t = 0.002, hh = 0.005;
  CupParams p;
  p.profile = {{r0, z0, t}, {r1, z1, t}};
  p.handle_height = hh;
  p.resolution = 64;
  p.layers = 2;
  const TetMesh m = make_cup(p);
  expect_good_solid(m, "straight profile", 0.05);
  const double len = std::hypot(r1 - r0, z1 - z0);
  const double nr = (z0 - z1) / len, nz = (r1 - r0) / len;  // the skirt's upward normal
  const double mr = nr / (1.0 + nz), mz = 1.0;               // miter of +z and that normal
  const double dz = 0.5 * t * nz;                            // the lip's lowest corner -> z = 0
  const double shift = -(z1 - dz);
  auto P = [&](double r, double z) { return std::array<double, 2>{r, z + shift}; };
  const std::vector<std::array<double, 2>> skirt = {
      P(0, z0 - t / 2), P(r0 - t / 2 * mr, z0 - t / 2 * mz), P(r1 - t / 2 * nr, z1 - t / 2 * nz),
      P(r1 + t / 2 * nr, z1 + t / 2 * nz), P(r0 + t / 2 * mr, z0 + t / 2 * mz), P(0, z0 + t / 2)};
  const std::vector<std::array<double, 2>> handle = {P(0, z0 + t / 2), P(r0 + t / 2 * mr, z0 + t / 2),
                                                     P(r0 + t / 2 * mr, z0 + t / 2 + hh), P(0, z0 + t / 2 + hh)};
  const double pappus = 2.0 * kPi * (first_moment(skirt) + first_moment(handle));
  EXPECT_NEAR(total_volume(m), pappus, 0.005 * pappus);
  EXPECT_LT(total_volume(m), pappus);  // the inscribed 64-gon
  double zmin = 1e9, zmax = -1e9, rmax = 0;
  for (const Vec3& x : m.nodes) {
    zmin = std::min(zmin, x.z());
    zmax = std::max(zmax, x.z());
    rmax = std::max(rmax, std::hypot(x.x(), x.y()));
  }
  EXPECT_NEAR(zmin, 0.0, 1e-12) << "the lip's lowest corner rests at z = 0";
  EXPECT_NEAR(zmax, z0 + t / 2 + hh + shift, 1e-12) << "the handle's top";
  EXPECT_NEAR(rmax, r1 + t / 2 * nr, 1e-12) << "the lip's outer corner";
}

TEST(Generators, TheSceneCupProfilesAreGoodSolids) {
  // the three designs of scenes/cup_shapes_*.json, and a wall -> lip thickness law
  CupParams plunger, octopus, store;
  plunger.profile = {{0.005, 0.021, 0}, {0.009, 0.0205, 0}, {0.0125, 0.0185, 0}, {0.015, 0.015, 0},
                     {0.0163, 0.0105, 0}, {0.0168, 0.006, 0}, {0.0172, 0.0025, 0}, {0.0185, 0.0, 0}};
  plunger.wall_thickness = 0.0025;
  octopus.profile = {{0.004, 0.022, 0.0012}, {0.0085, 0.0215, 0.001}, {0.0095, 0.016, 0.001}, {0.0098, 0.009, 0.0012},
                     {0.012, 0.0055, 0.0035}, {0.0165, 0.003, 0.004}, {0.018, 0.002, 0.0035}};
  store.profile = {{0.005, 0.0065, 0}, {0.009, 0.0055, 0}, {0.014, 0.0035, 0}, {0.0185, 0.0012, 0}, {0.0205, 0.0003, 0}};
  store.lip_thickness = 0.0008;
  expect_good_solid(make_cup(plunger), "plunger", 0.05);
  expect_good_solid(make_cup(octopus), "octopus", 0.05);
  expect_good_solid(make_cup(store), "store", 0.05);
}

TEST(Generators, BadProfilesAreInputErrors) {
  auto bad = [](std::vector<std::array<double, 3>> pts, const std::string& what) {
    CupParams p;
    p.profile = std::move(pts);
    try {
      make_cup(p);
      ADD_FAILURE() << "no error for " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  bad({{0.005, 0.01, 0}}, "at least 2 points");
  bad({{0.0, 0.01, 0}, {0.02, 0.0, 0}}, "r must be > 0");
  bad({{0.005, 0.01, 0.002}, {0.02, 0.0, 0}}, "on every point or on none");
  bad({{0.005, 0.01, 0}, {0.005, 0.01, 0}, {0.02, 0.0, 0}}, "repeats the previous point");
  bad({{0.005, 0.01, 0}, {0.02, 0.0, 0}, {0.01, 0.02, 0}, {0.012, -0.005, 0}}, "crosses itself");
  bad({{0.005, 0.01, 0}, {0.02, 0.0, 0}, {0.021, 0.008, 0}}, "the lip must be the cup's lowest point");
  bad({{0.005, 0.01, 0}, {0.02, 0.0, 0}, {0.006, 0.0005, 0}}, "turns by more than 120 degrees");
  // absurd sizes hit the mesh limits before anything is allocated or overflows
  bad({{1e12, 0.01, 0}, {2e12, 0.0, 0}}, "max_nodes");
  bad({{0.005, 1e12, 0}, {0.02, 0.0, 0}}, "max_nodes");
}

TEST(Generators, BadParametersAreInputErrors) {
  CupParams p;
  p.handle_height = p.height;  // no room for the skirt
  EXPECT_THROW(make_cup(p), InputError);
  p = CupParams{};
  p.resolution = 4;
  EXPECT_THROW(make_cup(p), InputError);
  p = CupParams{};
  p.handle_radius = p.radius;
  EXPECT_THROW(make_cup(p), InputError);
  EXPECT_THROW(make_box(Vec3(1, 0, 1), 1, 1, 1), InputError);
  EXPECT_THROW(make_box(Vec3(1, 1, 1), 0, 1, 1), InputError);
  EXPECT_THROW(make_cylinder(-1, 1, 16), InputError);
  EXPECT_THROW(make_sphere(1, 3), InputError);
}

TEST(Generators, SurfacesAreClosedAndOutward) {
  const SurfaceMesh box = make_box_surface(Vec3(1, 2, 3));
  EXPECT_NO_THROW(validate_closed_surface(box, "box"));
  EXPECT_EQ(euler_characteristic(box), 2);
  EXPECT_NEAR(enclosed_volume(box), 6.0, 1e-12);

  const SurfaceMesh cylinder = make_cylinder_surface(0.5, 2.0, 20);
  EXPECT_NO_THROW(validate_closed_surface(cylinder, "cylinder"));
  EXPECT_EQ(euler_characteristic(cylinder), 2);
  EXPECT_NEAR(enclosed_volume(cylinder), revolved_volume(2.0 * 0.25 / 2, 20), 1e-12);

  for (int res : {8, 16, 32}) {
    const SurfaceMesh sphere = make_sphere_surface(0.3, res);
    EXPECT_NO_THROW(validate_closed_surface(sphere, "sphere"));
    EXPECT_EQ(euler_characteristic(sphere), 2);
    // same vertices on the sphere and planar quads as make_sphere: the same volume
    EXPECT_NEAR(enclosed_volume(sphere), total_volume(make_sphere(0.3, res)), 1e-12);
  }
}

TEST(Generators, RefinedBoxSurfaceIsClosedOutwardAndOnTheBox) {
  const Vec3 size(0.05, 0.04, 0.03);
  for (const auto& [nx, ny, nz] : {std::array<int, 3>{1, 1, 1}, {5, 5, 5}, {3, 2, 7}}) {
    const SurfaceMesh s = make_box_surface(size, nx, ny, nz);
    EXPECT_NO_THROW(validate_closed_surface(s, "refined box"));
    EXPECT_EQ(euler_characteristic(s), 2);
    EXPECT_NEAR(enclosed_volume(s), size.prod(), 1e-15);  // > 0: outward
    EXPECT_EQ(static_cast<int>(s.vertices.size()), 2 * (nx * ny + ny * nz + nz * nx) + 2);
    EXPECT_EQ(static_cast<int>(s.triangles.size()), 4 * (nx * ny + ny * nz + nz * nx));
    for (const Vec3& v : s.vertices) {  // every vertex on a face of the box
      const Vec3 d = (v.cwiseAbs() - size / 2).cwiseAbs();
      EXPECT_LT(d.minCoeff(), 1e-15);
    }
  }
  EXPECT_THROW(make_box_surface(size, 0, 1, 1), InputError);
}

TEST(Generators, CurvedSlabsConvexAndConcaveAreClosedWithTheirPolygonVolume) {
  // cross-section: the arc sampled at `res` chords over |y| <= w, and a flat bottom t below the
  // lowest top point; volume = length × the polygon's area (chords, not the arc)
  const double L = 0.08, W = 0.06, t = 0.01;
  const int res = 24;
  for (double radius : {0.05, 0.025, -0.05, -0.025, 0.0}) {
    SCOPED_TRACE(radius);
    const SurfaceMesh s = make_curved_slab_surface(Vec3(L, W, t), radius, res);
    EXPECT_NO_THROW(validate_closed_surface(s, "slab"));
    const double r = std::abs(radius);
    const double w = r > 0 ? std::min(W / 2, 0.95 * r) : W / 2;
    auto top = [&](double y) { return r == 0 ? 0.0 : radius > 0 ? std::sqrt(r * r - y * y) - r : r - std::sqrt(r * r - y * y); };
    const double z_bottom = radius > 0 ? top(w) - t : -t;
    double area = 0.0;  // trapezoids under each chord
    for (int i = 0; i < res; ++i) {
      const double y0 = -w + 2 * w * i / res, y1 = -w + 2 * w * (i + 1) / res;
      area += (y1 - y0) * (0.5 * (top(y0) + top(y1)) - z_bottom);
    }
    EXPECT_NEAR(enclosed_volume(s), L * area, 1e-12 * L * area);
    // the lowest top point is at z = 0 for concave slabs, the highest for convex ones
    double zmax = -1, zmin = 1;
    for (const Vec3& p : s.vertices) {
      if (p.z() > z_bottom + 1e-12) zmin = std::min(zmin, p.z());
      zmax = std::max(zmax, p.z());
    }
    if (radius > 0) EXPECT_NEAR(zmax, 0.0, 1e-15);
    if (radius < 0) EXPECT_NEAR(zmin, 0.0, 1e-15);
  }
}

}  // namespace
}  // namespace suction
