// Cavity tracking (core/cavity/tracking.cpp): cavities are related across recomputations by
// the body surface they share, whatever their shape (docs/method.md §9).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "cavity/tracking.h"

namespace suction {
namespace {

/// A thin shell of air wrapped around a cylinder (axis y): between radius R (the rigid
/// surface, slot 1) and R + t (the cup, slot 0), over angles [a0, a1] and y in [0, L].  Its
/// centroid lies outside it (towards the axis), as for a cup sealed on a curved surface.
/// Surface points carry a triangle label of where they are: base + the index of a fixed
/// angular band (0.025 rad on the cup) × 2 + the axial half, so shells over the same place
/// share labels.
struct Shell {
  CavityState state;
  Points x;
};
Shell wrapped_shell(double R, double t, double a0, double a1, int cup_tri0, int ground_tri0,
                    double ground_band = 0.025) {
  const int m = 24, n = 2;  // cells around and along
  const double L = 0.02;
  Shell s;
  s.state.slots = {0, 1};
  auto id = [&](int layer, int i, int j) { return layer * (m + 1) * (n + 1) + i * (n + 1) + j; };
  for (int layer = 0; layer < 2; ++layer)  // 0: inner (ground), 1: outer (cup)
    for (int i = 0; i <= m; ++i)
      for (int j = 0; j <= n; ++j) {
        const double a = a0 + (a1 - a0) * i / m, r = layer ? R + t : R;
        s.x.emplace_back(r * std::cos(a), L * j / n, r * std::sin(a));
        SurfacePoint p;
        p.slot = layer ? 0 : 1;
        const double mid = a0 + (a1 - a0) * (std::min(i, m - 1) + 0.5) / m;
        const double band = layer ? 0.025 : ground_band;  // a coarse rigid mesh: wide bands
        p.triangle = (layer ? cup_tri0 : ground_tri0) + static_cast<int>(std::floor(mid / band)) * n +
                     std::min(j, n - 1);
        p.bary = Vec3(1, 0, 0);
        s.state.vertices.push_back(p);
      }
  auto quad = [&](int p, int q, int r, int u) {
    s.state.triangles.push_back({p, q, r});
    s.state.triangles.push_back({p, r, u});
  };
  for (int layer = 0; layer < 2; ++layer)  // the walls on the two bodies
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        if (layer)
          quad(id(1, i, j), id(1, i + 1, j), id(1, i + 1, j + 1), id(1, i, j + 1));
        else
          quad(id(0, i, j), id(0, i, j + 1), id(0, i + 1, j + 1), id(0, i + 1, j));
      }
  s.state.seam_begin = static_cast<int>(s.state.triangles.size());
  for (int i = 0; i < m; ++i) {  // the seam: the two ends along y
    quad(id(0, i, 0), id(0, i + 1, 0), id(1, i + 1, 0), id(1, i, 0));
    quad(id(0, i, n), id(1, i, n), id(1, i + 1, n), id(0, i + 1, n));
  }
  for (int j = 0; j < n; ++j) {  // and the two ends around
    quad(id(0, 0, j), id(1, 0, j), id(1, 0, j + 1), id(0, 0, j + 1));
    quad(id(0, m, j), id(0, m, j + 1), id(1, m, j + 1), id(1, m, j));
  }
  // outward orientation: flip everything if the enclosed volume came out negative
  if (cavity_geometry(s.x, s.state).volume < 0)
    for (Tri& tri : s.state.triangles) std::swap(tri[1], tri[2]);
  return s;
}

TEST(CavityTracking, AThinCavityWrappedOnACylinderKeepsItsIdentityAndAir) {
  const double R = 0.0315, t = 2e-4;
  Shell old = wrapped_shell(R, t, 0.9, 2.2, 0, 100000);
  const CavityGeometry go = cavity_geometry(old.x, old.state);
  ASSERT_GT(go.volume, 0.0);
  // the centroid of the wall lies outside the thin shell
  EXPECT_LT(go.centroid.norm(), R) << "the test needs a cavity whose centroid is outside it";
  old.state.id = 7;
  old.state.air = 0.6 * kPAtm * go.volume;  // sealed, under-pressure
  old.state.max_volume = go.volume;

  // recomputed one step later: the same surface, 10 % thinner
  Shell fresh = wrapped_shell(R, 0.9 * t, 0.9, 2.2, 0, 100000);
  const CavityGeometry gn = cavity_geometry(fresh.x, fresh.state);
  int next_id = 8;
  const std::vector<CavityState> out =
      track_cavities({&old.state}, {go}, {fresh.state}, {gn}, TrackingSettings{}, next_id);
  ASSERT_EQ(out.size(), 1u) << "one cavity, not the old one dropped and a new one";
  EXPECT_EQ(out[0].id, 7);
  EXPECT_FALSE(out[0].dormant);
  EXPECT_DOUBLE_EQ(out[0].air, old.state.air) << "the trapped air is handed on, not reset to ambient";
  EXPECT_NEAR(out[0].pressure, old.state.air / gn.volume, 1e-9 * kPAtm);
  EXPECT_EQ(next_id, 8);
}

TEST(CavityTracking, CavitiesOnDifferentCupSurfaceAreNotRelatedEvenOnTheSameRigidTriangles) {
  // two suckers of one body on one coarse rigid surface: the same rigid triangles, distinct
  // cup triangles; the old cavity under one sucker must not give its air to the other's
  const double R = 0.0315, t = 2e-4;
  Shell a = wrapped_shell(R, t, 0.9, 1.4, 0, 100000, 10.0);
  Shell b = wrapped_shell(R, t, 1.7, 2.2, 5000, 100000, 10.0);  // other cup labels, the same ground's
  const CavityGeometry ga = cavity_geometry(a.x, a.state), gb = cavity_geometry(b.x, b.state);
  a.state.id = 1;
  a.state.air = 0.5 * kPAtm * ga.volume;
  a.state.max_volume = ga.volume;
  int next_id = 2;
  const std::vector<CavityState> out =
      track_cavities({&a.state}, {ga}, {b.state}, {gb}, TrackingSettings{}, next_id);
  ASSERT_EQ(out.size(), 1u) << "a is dropped (its seal is gone), b is new";
  EXPECT_EQ(out[0].id, 2);
  EXPECT_NEAR(out[0].air, kPAtm * gb.volume, 1e-12 * kPAtm * gb.volume) << "b starts with ambient air";
}

TEST(CavityTracking, AMergeSumsTheAirAndASplitSharesItByVolume) {
  const double R = 0.0315, t = 2e-4;
  // two old cavities on neighbouring cup triangles merge into one spanning both
  Shell a = wrapped_shell(R, t, 0.9, 1.5, 0, 100000);
  Shell b = wrapped_shell(R, t, 1.5, 2.1, 0, 100000);
  Shell ab = wrapped_shell(R, t, 0.9, 2.1, 0, 100000);  // over a's and b's places
  const CavityGeometry ga = cavity_geometry(a.x, a.state), gb = cavity_geometry(b.x, b.state),
                       gab = cavity_geometry(ab.x, ab.state);
  a.state.id = 1;
  a.state.air = 0.5 * kPAtm * ga.volume;
  b.state.id = 2;
  b.state.air = 0.7 * kPAtm * gb.volume;
  a.state.temperature = 260.0;  // air of two temperatures (docs/method.md §6.8)
  b.state.temperature = 320.0;
  a.state.max_volume = ga.volume;
  b.state.max_volume = gb.volume;
  int next_id = 3;
  AirLedger books;
  std::vector<CavityState> merged =
      track_cavities({&a.state, &b.state}, {ga, gb}, {ab.state}, {gab}, TrackingSettings{}, next_id, &books);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(books.merges, 1);  // a merge moves air, it creates and releases none
  EXPECT_EQ(books.splits, 0);
  EXPECT_EQ(books.created, 0.0);
  EXPECT_EQ(books.released, 0.0);
  EXPECT_NEAR(merged[0].air, a.state.air + b.state.air, 1e-12 * merged[0].air);
  EXPECT_EQ(merged[0].id, 1);
  // the mixture keeps the internal energy c_v Σ N T: T = Σ N T / Σ N, and P V = N T / T_ambient
  const double t_mix = (a.state.air * 260.0 + b.state.air * 320.0) / (a.state.air + b.state.air);
  EXPECT_NEAR(merged[0].temperature, t_mix, 1e-12 * t_mix);
  EXPECT_NEAR(merged[0].pressure * gab.volume, merged[0].air * t_mix / kTAmbient, 1e-12 * merged[0].air);

  // and split again: the air is shared by volume, the larger part keeps the id
  CavityState whole = merged[0];
  Shell a2 = wrapped_shell(R, t, 0.9, 1.5, 0, 100000);
  Shell b2 = wrapped_shell(R, 1.5 * t, 1.5, 2.1, 0, 100000);
  const CavityGeometry ga2 = cavity_geometry(a2.x, a2.state), gb2 = cavity_geometry(b2.x, b2.state);
  AirLedger split_books;
  std::vector<CavityState> split = track_cavities({&whole}, {gab}, {a2.state, b2.state}, {ga2, gb2},
                                                  TrackingSettings{}, next_id, &split_books);
  ASSERT_EQ(split.size(), 2u);
  EXPECT_EQ(split_books.splits, 1);
  EXPECT_EQ(split_books.merges, 0);
  EXPECT_EQ(split_books.created + split_books.released, 0.0);
  const double total = ga2.volume + gb2.volume;
  EXPECT_NEAR(split[0].air + split[1].air, whole.air, 1e-12 * whole.air);
  EXPECT_NEAR(split[0].air, whole.air * ga2.volume / total, 1e-12 * whole.air);
  EXPECT_EQ(split[0].temperature, whole.temperature) << "the parts of a split keep the temperature";
  EXPECT_EQ(split[1].temperature, whole.temperature);
  EXPECT_EQ(split[1].id, 1) << "the larger part keeps the id";
}

TEST(CavityTracking, TheLedgerCountsNewAirAndAirLostWithASeal) {
  const double R = 0.0315, t = 2e-4;
  // an old cavity that vanished while large (its seal is lost) and an unrelated new one
  Shell gone = wrapped_shell(R, t, 0.9, 1.5, 0, 100000);
  Shell fresh = wrapped_shell(R, t, 2.5, 3.0, 5000, 200000);
  const CavityGeometry gg = cavity_geometry(gone.x, gone.state), gf = cavity_geometry(fresh.x, fresh.state);
  gone.state.id = 1;
  gone.state.air = 0.4 * kPAtm * gg.volume;
  gone.state.max_volume = gg.volume;
  int next_id = 2;
  AirLedger books;
  auto out = track_cavities({&gone.state}, {gg}, {fresh.state}, {gf}, TrackingSettings{}, next_id, &books);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].id, 2);
  EXPECT_NEAR(books.released, gone.state.air, 1e-15);
  EXPECT_NEAR(books.created, kPAtm * gf.volume, 1e-12 * kPAtm * gf.volume);
  // the books close: Σ air after = before + created − released
  books.start = gone.state.air;
  books.end = out[0].air;
  EXPECT_NEAR(books.imbalance(), 0.0, 1e-12 * kPAtm * gf.volume);
  // a flattened one is kept dormant with its air: nothing released
  gone.state.max_volume = 100.0 * gg.volume;
  AirLedger kept;
  auto dormant = track_cavities({&gone.state}, {gg}, {}, {}, TrackingSettings{}, next_id, &kept);
  ASSERT_EQ(dormant.size(), 1u);
  EXPECT_TRUE(dormant[0].dormant);
  EXPECT_EQ(kept.released, 0.0);
}

// A box of air [lo, hi] whose corners lie on given bodies: corner k (bit 0: x, bit 1: y, bit 2:
// z high) on slot[k] at surface triangle tri[k].
Shell box_cavity(const Vec3& lo, const Vec3& hi, const std::array<int, 8>& slot, const std::array<int, 8>& tri) {
  Shell s;
  for (int k = 0; k < 8; ++k) {
    s.x.emplace_back(k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(), k & 4 ? hi.z() : lo.z());
    SurfacePoint p;
    p.slot = slot[k];
    p.triangle = tri[k];
    p.bary = Vec3(1, 0, 0);
    s.state.vertices.push_back(p);
  }
  for (int sl : slot) s.state.slots.push_back(sl);
  std::sort(s.state.slots.begin(), s.state.slots.end());
  s.state.slots.erase(std::unique(s.state.slots.begin(), s.state.slots.end()), s.state.slots.end());
  s.state.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 5}, {0, 5, 4},
                       {1, 3, 7}, {1, 7, 5}, {3, 2, 6}, {3, 6, 7}, {2, 0, 4}, {2, 4, 6}};
  s.state.seam_begin = 12;
  return s;
}

// A cavity bounded by three bodies (a block, slot 1, under two cups, slots 0 and 2) that splits
// in two, one under each cup: each part lies on common surface of two bodies with the old one,
// so both inherit its air, shared by volume; none is created or lost, and the ledger counts one
// split.  A new cavity that shares the block's surface alone (under a third cup) is new air.
TEST(CavityTracking, ACavityOfThreeBodiesSplitsWithItsAirConserved) {
  // old: x in [0, 3] mm; block triangles 10 (x < 1 mm) and 11 (beyond); cups 0 (left), 2 (right)
  Shell old = box_cavity(Vec3(0, 0, 0), Vec3(3e-3, 1e-3, 1e-3), {1, 1, 1, 1, 0, 2, 0, 2},
                         {10, 11, 10, 11, 20, 30, 20, 30});
  ASSERT_EQ(old.state.slots, (std::vector<int>{0, 1, 2}));
  const CavityGeometry go = cavity_geometry(old.x, old.state);
  ASSERT_NEAR(go.volume, 3e-9, 1e-20);
  old.state.id = 4;
  old.state.air = 0.7 * kPAtm * go.volume;
  old.state.max_volume = go.volume;
  // new: the left part (1 mm wide, on cup 0 and block triangle 10), the right part (2 mm, on cup 2
  // and block triangle 11), and a third cavity on block triangle 11 under another cup (slot 3)
  Shell left = box_cavity(Vec3(0, 0, 0), Vec3(1e-3, 1e-3, 1e-3), {1, 1, 1, 1, 0, 0, 0, 0},
                          {10, 10, 10, 10, 20, 20, 20, 20});
  Shell right = box_cavity(Vec3(1e-3, 0, 0), Vec3(3e-3, 1e-3, 1e-3), {1, 1, 1, 1, 2, 2, 2, 2},
                           {11, 11, 11, 11, 30, 30, 30, 30});
  Shell other = box_cavity(Vec3(5e-3, 0, 0), Vec3(6e-3, 1e-3, 1e-3), {1, 1, 1, 1, 3, 3, 3, 3},
                           {11, 11, 11, 11, 40, 40, 40, 40});
  std::vector<CavityState> fresh = {left.state, right.state, other.state};
  std::vector<CavityGeometry> gn = {cavity_geometry(left.x, left.state), cavity_geometry(right.x, right.state),
                                    cavity_geometry(other.x, other.state)};
  int next_id = 9;
  AirLedger books;
  const auto out = track_cavities({&old.state}, {go}, fresh, gn, TrackingSettings{}, next_id, &books);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].id, 9) << "the smaller part gets a new id";
  EXPECT_EQ(out[1].id, 4) << "the larger part keeps the old id";
  EXPECT_EQ(out[2].id, 10);
  EXPECT_NEAR(out[0].air + out[1].air, old.state.air, 1e-15 * old.state.air) << "the split conserves the air";
  EXPECT_NEAR(out[1].air, 2.0 * out[0].air, 1e-12 * old.state.air) << "shared by volume";
  EXPECT_NEAR(out[0].pressure, 0.7 * kPAtm, 1e-9 * kPAtm);
  EXPECT_NEAR(out[2].air, kPAtm * 1e-9, 1e-12 * kPAtm * 1e-9) << "on the block alone: new ambient air";
  EXPECT_EQ(books.splits, 1);
  EXPECT_EQ(books.merges, 0);
  EXPECT_NEAR(books.created, out[2].air, 1e-20);
  EXPECT_EQ(books.released, 0.0);
  // and back: the two parts merge into one cavity of the three bodies, the air summed
  std::vector<const CavityState*> parts = {&out[0], &out[1]};
  std::vector<CavityGeometry> gp = {gn[0], gn[1]};
  AirLedger merge_books;
  const auto merged = track_cavities(parts, gp, {old.state}, {go}, TrackingSettings{}, next_id, &merge_books);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].slots, (std::vector<int>{0, 1, 2}));
  EXPECT_NEAR(merged[0].air, old.state.air, 1e-15 * old.state.air);
  EXPECT_EQ(merge_books.merges, 1);
}

}  // namespace
}  // namespace suction
