// ContactDetector: boxes resting on, above, into and across a ground; edge–edge contacts of a
// rigid edge on a finely meshed surface; determinism; pair selection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "collision/detector.h"
#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/tet_mesh.h"
#include "support/transformed.h"

namespace suction {
namespace {

using test::transformed;

// big ground box, top face at z = 0
const SurfaceMesh& ground() {
  static const SurfaceMesh g = [] {
    SurfaceMesh s = make_box_surface(Vec3(4, 4, 1));
    for (Vec3& p : s.vertices) p.z() -= 0.5;
    return s;
  }();
  return g;
}

const SurfaceMesh& unit_box() {
  static const SurfaceMesh b = make_box_surface(Vec3(1, 1, 1));
  return b;
}

// body 0: a movable box (vertices at x_box), body 1: the fixed ground
ContactDetector box_on_ground() {
  ContactDetector d;
  d.set_bodies({unit_box().triangles, ground().triangles}, {true, false});
  return d;
}

// unit box with its bottom at height g
Points box_at_height(double g) {
  return transformed(unit_box().vertices, Mat3::Identity(), Vec3(0, 0, 0.5 + g));
}

int count_kind(const std::vector<Contact>& c, int count_a) {
  int n = 0;
  for (const Contact& k : c) n += k.a.count == count_a;
  return n;
}

bool same_contacts(const std::vector<Contact>& x, const std::vector<Contact>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const Contact& a = x[k];
    const Contact& b = y[k];
    const auto side = [](const ContactSide& s) {
      return std::tie(s.body, s.count, s.vertex, s.weight);
    };
    if (side(a.a) != side(b.a) || side(a.b) != side(b.b) || a.normal != b.normal ||
        a.point_a != b.point_a || a.point_b != b.point_b || a.gap != b.gap || a.key != b.key)
      return false;
  }
  return true;
}

TEST(Detector, BoxRestingAboveGroundGivesFourVertexContacts) {
  CollisionSettings s;
  s.alarm_distance = 1e-3;
  s.contact_distance = 1e-4;
  for (double g : {0.0, 1e-4, 5e-4, 1.1e-3 - 1e-7}) {
    ContactDetector d = box_on_ground();
    const auto& c = d.detect({box_at_height(g), ground().vertices}, s);
    ASSERT_EQ(c.size(), 4u) << "g = " << g;
    for (const Contact& k : c) {
      EXPECT_EQ(k.a.body, 0);
      EXPECT_EQ(k.b.body, 1);
      EXPECT_EQ(k.a.count, 1);
      EXPECT_EQ(k.b.count, 3);
      EXPECT_NEAR(k.gap, g - s.contact_distance, 1e-12);
      EXPECT_LT((k.normal - Vec3::UnitZ()).norm(), 1e-12);
      EXPECT_NEAR(k.point_a.z() - k.point_b.z(), g, 1e-12);
      EXPECT_NEAR(k.point_a.z(), g, 1e-12);  // a bottom vertex
      Vec3 q = Vec3::Zero();
      for (int v = 0; v < 3; ++v) q += k.b.weight[v] * ground().vertices[k.b.vertex[v]];
      EXPECT_LT((q - k.point_b).norm(), 1e-12);
    }
  }
  // farther than contact + alarm: nothing
  for (double g : {1.1e-3 + 1e-7, 2e-3, 0.1}) {
    ContactDetector d = box_on_ground();
    EXPECT_TRUE(d.detect({box_at_height(g), ground().vertices}, s).empty()) << "g = " << g;
  }
}

TEST(Detector, PenetratingBoxGivesNegativeGap) {
  CollisionSettings s;  // alarm 1 mm, contact distance 0
  ContactDetector d = box_on_ground();
  const auto& c = d.detect({box_at_height(-2e-4), ground().vertices}, s);
  ASSERT_EQ(c.size(), 4u);
  for (const Contact& k : c) {
    EXPECT_NEAR(k.gap, -2e-4, 1e-12);
    EXPECT_LT((k.normal - Vec3::UnitZ()).norm(), 1e-12);
  }
  // deeper than max_penetration (3 × alarm): lost
  ContactDetector deep = box_on_ground();
  EXPECT_TRUE(deep.detect({box_at_height(-0.02), ground().vertices}, s).empty());
}

TEST(Detector, VertexOverTheGroundsEdgeGetsTheEdgeNormal) {
  // a small box beside the ground's +x side, its bottom corners 0.3 mm out and 0.4 mm up
  CollisionSettings s;
  const SurfaceMesh small = make_box_surface(Vec3(0.1, 0.1, 0.1));
  const Points x = transformed(small.vertices, Mat3::Identity(), Vec3(2.0503, 0, 0.0504));
  ContactDetector d;
  d.set_bodies({small.triangles, ground().triangles}, {true, false});
  const auto& c = d.detect({x, ground().vertices}, s);
  ASSERT_EQ(c.size(), 2u);
  for (const Contact& k : c) {
    EXPECT_EQ(k.a.count, 1);
    EXPECT_NEAR(k.gap, 5e-4, 1e-12);
    EXPECT_LT((k.normal - Vec3(0.6, 0, 0.8)).norm(), 1e-9);
    EXPECT_NEAR(k.point_b.x(), 2.0, 1e-12);
    EXPECT_NEAR(k.point_b.z(), 0.0, 1e-12);
  }
  EXPECT_NE(c[0].a.vertex[0], c[1].a.vertex[0]);
}

// a 1 mm thin fixed plate (z in [−0.5, 0.5] mm) and a small box under it: the nearest surface
// decides, a farther one behind the vertex makes no contact
TEST(Detector, ThinBodyNearestSurfaceDecides) {
  CollisionSettings s;  // alarm 1 mm: max_penetration 3 mm reaches the plate's top face
  const SurfaceMesh plate = make_box_surface(Vec3(1, 1, 1e-3));
  const SurfaceMesh small = make_box_surface(Vec3(0.1, 0.1, 0.1));
  for (double top : {-2e-3, -2e-4}) {
    ContactDetector d;
    d.set_bodies({small.triangles, plate.triangles}, {true, false});
    const Points x = transformed(small.vertices, Mat3::Identity(), Vec3(0, 0, top - 0.05));
    const auto& c = d.detect({x, plate.vertices}, s);
    if (top < -1.5e-3) {
      // 1.5 mm below the bottom face (beyond the alarm), 2.5 mm behind the top face: nothing
      EXPECT_TRUE(c.empty());
      continue;
    }
    // 0.3 mm into the plate from below: pushed back down through the bottom face
    EXPECT_EQ(count_kind(c, 1), 4);
    for (const Contact& k : c) {
      EXPECT_LT((k.normal + Vec3::UnitZ()).norm(), 1e-12);
      EXPECT_NEAR(k.gap, -3e-4, 1e-12);
    }
  }
}

// A vertex keeps the side it came from (issue 49, method §5.2).  A box pressed 0.7 mm into a
// 1 mm plate from above is nearer the plate's bottom face: alone, the nearest surface decides
// and pushes it out through the bottom (the tangle of a lip pressed past its middle).  Told that
// its vertices touched the plate from above in the last step, the detector holds them by the
// top face, 0.7 mm deep; told they came from below, by the bottom one; told nothing, or with
// keep_side off (the default), as before.  A side listed for another body changes nothing.
TEST(Detector, AVertexKeepsTheSideItCameFromThroughAThinWall) {
  CollisionSettings s;  // alarm 1 mm: the reach, 3 mm, sees both faces
  s.keep_side = true;
  const SurfaceMesh plate = make_box_surface(Vec3(1, 1, 1e-3));  // z in [-0.5, 0.5] mm
  const SurfaceMesh small = make_box_surface(Vec3(0.1, 0.1, 0.1));
  const Points x = transformed(small.vertices, Mat3::Identity(), Vec3(0, 0, 0.5e-3 - 0.7e-3 + 0.05));
  ContactDetector d;
  d.set_bodies({small.triangles, plate.triangles}, {true, false});
  std::vector<int> bottom;  // the box's vertices inside the plate
  for (int v = 0; v < static_cast<int>(x.size()); ++v)
    if (x[v].z() < 0.0) bottom.push_back(v);
  ASSERT_EQ(bottom.size(), 4u);
  const auto sides_from = [&](int other, const Vec3& n) {
    std::vector<VertexSide> sides;
    for (int v : bottom) sides.push_back({0, v, other, n});
    std::sort(sides.begin(), sides.end());
    return sides;
  };
  const auto expect_all = [&](const std::vector<Contact>& c, const Vec3& n, double gap, const char* what) {
    ASSERT_EQ(count_kind(c, 1), 4) << what;
    for (const Contact& k : c) {
      EXPECT_LT((k.normal - n).norm(), 1e-12) << what;
      EXPECT_NEAR(k.gap, gap, 1e-12) << what;
    }
  };
  expect_all(d.detect({x, plate.vertices}, s), -Vec3::UnitZ(), -3e-4, "no sides: out through the far face");
  const std::vector<VertexSide> above = sides_from(1, Vec3::UnitZ()), below = sides_from(1, -Vec3::UnitZ());
  expect_all(d.detect({x, plate.vertices}, s, &above), Vec3::UnitZ(), -7e-4, "came from above: held by the top");
  expect_all(d.detect({x, plate.vertices}, s, &below), -Vec3::UnitZ(), -3e-4, "came from below: by the bottom");
  const std::vector<VertexSide> other = sides_from(2, Vec3::UnitZ()), none;
  expect_all(d.detect({x, plate.vertices}, s, &other), -Vec3::UnitZ(), -3e-4, "a side with another body");
  expect_all(d.detect({x, plate.vertices}, s, &none), -Vec3::UnitZ(), -3e-4, "an empty list");
  CollisionSettings off = s;
  off.keep_side = false;
  expect_all(d.detect({x, plate.vertices}, off, &above), -Vec3::UnitZ(), -3e-4, "keep_side off");
}

// A vertex the free motion takes deeper than half of what it enters (a cup crushed on a 10 mm
// slab: 7.5 mm in) is nearest the slab's far face there, and the nearest surface would push it
// out through the bottom.  From where it was at the start of the step, the face it crossed is
// found: the top, its gap the whole 7.5 mm; from below, the bottom; a vertex already inside at
// the start crossed nothing and gets none.
TEST(Detector, AVertexIsHeldByTheFaceItCrossedNotTheNearest) {
  CollisionSettings s;  // alarm 1 mm, reach 3 mm
  const SurfaceMesh slab = make_box_surface(Vec3(1, 1, 10e-3));  // z in [-5, 5] mm
  const SurfaceMesh small = make_box_surface(Vec3(0.1, 0.1, 0.1));
  ContactDetector d;
  d.set_bodies({small.triangles, slab.triangles}, {true, false});
  // the small box with its bottom face at z (its top 0.1 m higher)
  const auto bottom_at = [&](double z) { return transformed(small.vertices, Mat3::Identity(), Vec3(0, 0, z + 0.05)); };
  // each of the box's contacts at `to`, and the face its vertex crossed from `from`
  const auto check = [&](const Points& from, const Points& to, const Vec3& nearest, const Vec3& normal, double gap,
                         const char* what) {
    const std::vector<Contact> c = d.detect({to, slab.vertices}, s);
    int n = 0;
    for (const Contact& k : c) {
      if (k.a.body != 0 || k.a.count != 1) continue;
      ++n;
      EXPECT_LT((k.normal - nearest).norm(), 1e-12) << what << ": the nearest surface";
      const int v = k.a.vertex[0];
      Contact crossed;
      const bool found = d.crossing_contact(0, v, 1, {from, slab.vertices}, {to, slab.vertices}, s, crossed);
      if (normal.isZero()) {
        EXPECT_FALSE(found) << what;
        continue;
      }
      if (!found) {
        ADD_FAILURE() << what << ": no face crossed";
        continue;
      }
      EXPECT_LT((crossed.normal - normal).norm(), 1e-12) << what;
      EXPECT_NEAR(crossed.gap, gap, 1e-12) << what;
      EXPECT_EQ(crossed.a.vertex[0], v);
      EXPECT_EQ(crossed.b.body, 1);
      EXPECT_LT((crossed.point_a - to[v]).norm(), 1e-15) << what;
      EXPECT_NEAR((crossed.point_a - crossed.point_b).dot(crossed.normal), gap, 1e-12) << what;
    }
    return n;
  };
  // from 1 mm above to 7.5 mm in: the nearest face is the bottom, 2.5 mm away; crossed, the top
  EXPECT_EQ(check(bottom_at(6e-3), bottom_at(-2.5e-3), -Vec3::UnitZ(), Vec3::UnitZ(), -7.5e-3, "from above"), 4);
  // the box's top face from 1 mm below the slab to 7.5 mm in: the nearest the top, crossed the bottom
  EXPECT_EQ(check(bottom_at(-6e-3 - 0.1), bottom_at(2.5e-3 - 0.1), Vec3::UnitZ(), -Vec3::UnitZ(), -7.5e-3, "from below"), 4);
  // already inside at the start (5 mm deep, lost): it crossed nothing
  EXPECT_EQ(check(bottom_at(0.0), bottom_at(-2.5e-3), -Vec3::UnitZ(), Vec3::Zero(), 0.0, "inside at the start"), 4);
}

// unit box turned 45° about z, then tilted about its edge 0–2 (now along (−1, 1, 0)) so that
// this edge is the lowest; the edge's midpoint is put at (offset along the edge, height g)
Points edge_down_box(double g, double along) {
  const Mat3 rz = Eigen::AngleAxisd(kPi / 4, Vec3::UnitZ()).toRotationMatrix();
  const Vec3 axis = Vec3(-1, 1, 0).normalized();
  for (double sign : {1.0, -1.0}) {
    const Mat3 r = Eigen::AngleAxisd(sign * 0.35, axis).toRotationMatrix() * rz;
    Points x = transformed(unit_box().vertices, r, Vec3::Zero());
    double zmin = INFINITY;
    for (const Vec3& p : x) zmin = std::min(zmin, p.z());
    if (std::abs(x[0].z() - zmin) > 1e-12 || std::abs(x[2].z() - zmin) > 1e-12) continue;
    const Vec3 mid = 0.5 * (x[0] + x[2]);
    return transformed(x, Mat3::Identity(), Vec3(-mid.x(), -mid.y(), g - mid.z()) + along * axis);
  }
  ADD_FAILURE() << "no tilt puts edge 0-2 lowest";
  return {};
}

TEST(Detector, TiltedBoxEdgeOnGround) {
  CollisionSettings s;
  s.contact_distance = 1e-4;
  const double g = 3e-4;
  // the edge crosses the ground's top diagonal (4–7, along (1, 1)) at its middle: two vertex
  // contacts at its ends and none at the crossing, the diagonal being flat (no feature)
  ContactDetector d = box_on_ground();
  const auto& c = d.detect({edge_down_box(g, 0.0), ground().vertices}, s);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(count_kind(c, 1), 2);
  EXPECT_EQ(c[0].a.vertex[0], 0);
  EXPECT_EQ(c[1].a.vertex[0], 2);
  for (const Contact& k : c) {
    EXPECT_NEAR(k.gap, g - s.contact_distance, 1e-12);
    EXPECT_LT((k.normal - Vec3::UnitZ()).norm(), 1e-9);
  }
}

TEST(Detector, BoxCornerDownGivesOneVertexContact) {
  CollisionSettings s;
  const Mat3 r = (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) *
                  Quat::FromTwoVectors(Vec3(1, 1, 1), Vec3::UnitZ()))
                     .toRotationMatrix();
  Points x = transformed(unit_box().vertices, r, Vec3::Zero());
  x = transformed(x, Mat3::Identity(), Vec3(0.3, -0.2, 2e-4) - x[0]);
  ContactDetector d = box_on_ground();
  const auto& c = d.detect({x, ground().vertices}, s);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].a.vertex[0], 0);
  EXPECT_NEAR(c[0].gap, 2e-4, 1e-12);
  EXPECT_LT((c[0].normal - Vec3::UnitZ()).norm(), 1e-12);
}

// two boxes whose sharp edges cross (a ridge under a blade): one edge–edge contact holds them
TEST(Detector, CrossedSharpEdgesGiveOneEdgeEdgeContact) {
  CollisionSettings s;
  // lower box turned 45° about x: its top edge runs along x; upper box turned 45° about y:
  // its bottom edge runs along y; the edges cross above the origin, 0.5 m from every corner
  const Mat3 rx = Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()).toRotationMatrix();
  const Mat3 ry = Eigen::AngleAxisd(kPi / 4, Vec3::UnitY()).toRotationMatrix();
  auto placed = [&](const Mat3& r, bool top_edge, double z) {
    Points x = transformed(unit_box().vertices, r, Vec3::Zero());
    double zext = top_edge ? -INFINITY : INFINITY;
    for (const Vec3& p : x) zext = top_edge ? std::max(zext, p.z()) : std::min(zext, p.z());
    return transformed(x, Mat3::Identity(), Vec3(0, 0, z - zext));
  };
  for (double g : {4e-4, -2e-4}) {
    ContactDetector d;
    d.set_bodies({unit_box().triangles, unit_box().triangles}, {true, true});
    const auto& c = d.detect({placed(rx, true, 0.0), placed(ry, false, g)}, s);
    ASSERT_EQ(c.size(), 1u) << "g = " << g;
    const Contact& k = c[0];
    EXPECT_EQ(k.a.count, 2);  // edge–edge
    EXPECT_EQ(k.b.count, 2);
    EXPECT_EQ(k.a.body, 0);
    // normal from the upper box (b) to the lower one (a): down
    EXPECT_LT((k.normal + Vec3::UnitZ()).norm(), 1e-9) << "g = " << g;
    EXPECT_NEAR(k.gap, g, 1e-12);
    EXPECT_NEAR(k.point_a.norm(), 0.0, 1e-12);
  }
}

TEST(Detector, DeterministicAcrossCallsAndBuildPositions) {
  const BoundarySurface cup = extract_boundary(make_cup(CupParams{}));
  const Points x_cup = transformed(cup.surface.vertices, Mat3::Identity(), Vec3(0, 0, 1e-4));
  const std::vector<Points> x = {x_cup, ground().vertices, edge_down_box(2e-4, 0.0)};
  const std::vector<std::vector<Tri>> tris = {cup.surface.triangles, ground().triangles,
                                              unit_box().triangles};
  CollisionSettings s;
  ContactDetector d1;
  d1.set_bodies(tris, {true, false, true});
  const std::vector<Contact> first = d1.detect(x, s);
  EXPECT_GT(first.size(), 10u);
  EXPECT_TRUE(same_contacts(first, d1.detect(x, s)));
  // a detector whose BVHs were built at other positions (moved, turned, scaled up)
  const Mat3 r = Eigen::AngleAxisd(1.0, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  std::vector<Points> other;
  for (const Points& p : x) other.push_back(transformed(p, 3.0 * r, Vec3(5, -2, 1)));
  ContactDetector d2;
  d2.set_bodies(tris, {true, false, true});
  d2.detect(other, s);
  EXPECT_TRUE(same_contacts(first, d2.detect(x, s)));
  // keys are unique
  std::vector<std::uint64_t> keys;
  for (const Contact& k : first) keys.push_back(k.key);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
  // every lip contact of the cup pushes it up; the lip's inner ring (at z = 0) is 0.1 mm up
  int lip_contacts = 0;
  for (const Contact& k : first)
    if (k.a.body == 0 && k.b.body == 1) {
      EXPECT_LT((k.normal - Vec3::UnitZ()).norm(), 1e-12);
      EXPECT_GE(k.gap, 1e-4 - 1e-12);
      lip_contacts += std::abs(k.gap - 1e-4) < 1e-12;
    }
  EXPECT_GE(lip_contacts, CupParams{}.resolution);
}

TEST(Detector, ExcludedAndImmovablePairsAreSkipped) {
  CollisionSettings s;
  const std::vector<Points> x = {box_at_height(1e-4), ground().vertices};
  ContactDetector excluded = box_on_ground();
  excluded.exclude_pair(1, 0);
  EXPECT_TRUE(excluded.detect(x, s).empty());
  ContactDetector fixed;
  fixed.set_bodies({unit_box().triangles, ground().triangles}, {false, false});
  EXPECT_TRUE(fixed.detect(x, s).empty());
  // the ground first, the box movable: the box's vertices are still side a
  ContactDetector reversed;
  reversed.set_bodies({ground().triangles, unit_box().triangles}, {false, true});
  const auto& c = reversed.detect({ground().vertices, box_at_height(1e-4)}, s);
  ASSERT_EQ(c.size(), 4u);
  for (const Contact& k : c) {
    EXPECT_EQ(k.a.body, 1);
    EXPECT_EQ(k.b.body, 0);
    EXPECT_LT((k.normal - Vec3::UnitZ()).norm(), 1e-12);
  }
}

TEST(Detector, RejectsMismatchedPositions) {
  ContactDetector d = box_on_ground();
  CollisionSettings s;
  EXPECT_THROW(d.detect({box_at_height(0)}, s), InputError);
  EXPECT_THROW(d.detect({Points(3), ground().vertices}, s), InputError);
}

// A thin strip (40 × 10 × 2 mm, centred) folded in two by a half turn about the line
// x = 0, z = 1 mm + gap/2 (parallel to y): the half x > 0 lies upside down on the half x < 0,
// its former top face `gap` above the other half's top face.
Points folded_strip(const SurfaceMesh& strip, double gap) {
  Points x = strip.vertices;
  for (Vec3& p : x)
    if (p.x() > 1e-12) p = Vec3(-p.x(), p.y(), 0.002 + gap - p.z());
  return x;
}

TEST(Detector, SelfContactOfAFoldedStripHasTheGapOfItsTwoHalves) {
  const SurfaceMesh strip = make_box_surface(Vec3(0.04, 0.01, 0.002), 20, 5, 1);
  CollisionSettings s;  // alarm 1 mm: reach 3 mm, more than the 2 mm thickness
  const double exclusion = 1.5 * detection_reach(s);
  ContactDetector d;
  d.set_bodies({strip.triangles}, {true});
  // without self-contact a body never touches itself
  EXPECT_TRUE(d.detect({folded_strip(strip, 5e-4)}, s).empty());
  d.enable_self_contact(0, strip.vertices, exclusion);
  // at rest: nothing, although the two faces are 2 mm apart, within reach
  EXPECT_TRUE(d.detect({strip.vertices}, s).empty());
  for (double gap : {5e-4, -5e-4}) {  // apart, and the halves 0.5 mm into each other
    const Points x = folded_strip(strip, gap);
    const auto& c = d.detect({x}, s);
    std::vector<int> touched(strip.vertices.size(), 0);
    for (const Contact& k : c) {
      EXPECT_EQ(k.a.body, 0);
      EXPECT_EQ(k.b.body, 0);
      ASSERT_EQ(k.a.count, 1);
      ++touched[k.a.vertex[0]];
      const Vec3& rest = strip.vertices[k.a.vertex[0]];
      // near the fold any shape; on the sides and the far end, inside the other half, a side
      // face is as near as the facing one
      if (std::abs(rest.x()) < exclusion + 2e-3 || std::abs(rest.x()) > 0.019 ||
          std::abs(rest.y()) > 0.004)
        continue;
      EXPECT_NEAR(k.gap, gap, 1e-12);
      EXPECT_NEAR(std::abs(k.normal.z()), 1.0, 1e-12);
      EXPECT_NEAR(k.normal.dot(k.point_a - k.point_b), gap, 1e-12);
      EXPECT_EQ(k.normal.z() < 0, rest.x() < 0);  // the lower half is pushed down
    }
    // every vertex of the two facing faces, away from the fold, touches exactly once
    for (std::size_t v = 0; v < strip.vertices.size(); ++v) {
      const Vec3& rest = strip.vertices[v];
      if (std::abs(rest.x()) < exclusion + 2e-3) continue;
      EXPECT_EQ(touched[v], rest.z() > 0 ? 1 : 0) << "vertex " << v << " at rest x " << rest.x();
    }
  }
}

TEST(Detector, SelfContactExclusionBelowTheReachSeesTheOtherSideOfAWall) {
  // why the exclusion must exceed the reach: with 1 mm, a vertex of the 2 mm strip sees the
  // triangles of the opposite face 2 mm behind it, within 3 alarms, as a penetration
  const SurfaceMesh strip = make_box_surface(Vec3(0.04, 0.01, 0.002), 20, 5, 1);
  CollisionSettings s;
  ContactDetector d;
  d.set_bodies({strip.triangles}, {true});
  d.enable_self_contact(0, strip.vertices, 1e-3);
  const auto& c = d.detect({strip.vertices}, s);
  ASSERT_FALSE(c.empty());
  for (const Contact& k : c) EXPECT_NEAR(k.gap, -0.002, 1e-12);
  EXPECT_THROW(d.enable_self_contact(0, strip.vertices, 0.0), InputError);
  EXPECT_THROW(d.enable_self_contact(1, strip.vertices, 1e-3), InputError);
}

}  // namespace
}  // namespace suction
