// TriangleBvh: box and pair queries equal brute force on random soups, before and after a refit.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "collision/bvh.h"

namespace suction {
namespace {

struct Soup {
  Points x;
  std::vector<Tri> triangles;
};

// n small random triangles in the unit cube
Soup random_soup(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0), du(-0.05, 0.05);
  Soup s;
  for (int t = 0; t < n; ++t) {
    const Vec3 c(u(rng), u(rng), u(rng));
    for (int k = 0; k < 3; ++k) s.x.push_back(c + Vec3(du(rng), du(rng), du(rng)));
    s.triangles.push_back({3 * t, 3 * t + 1, 3 * t + 2});
  }
  return s;
}

Aabb box_of(const Soup& s, int t) {
  Aabb b;
  for (int v : s.triangles[t]) b.extend(s.x[v]);
  return b;
}

std::vector<int> query_sorted(const TriangleBvh& bvh, const Aabb& q) {
  std::vector<int> hits;
  bvh.query(q, [&](int t) { hits.push_back(t); });
  std::sort(hits.begin(), hits.end());
  return hits;
}

std::vector<int> brute_query(const Soup& s, const Aabb& q) {
  std::vector<int> hits;
  for (int t = 0; t < static_cast<int>(s.triangles.size()); ++t)
    if (box_of(s, t).overlaps(q)) hits.push_back(t);
  return hits;
}

void expect_queries_match(const TriangleBvh& bvh, const Soup& s, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.1, 1.1), r(0.0, 0.15);
  int nonempty = 0;
  for (int k = 0; k < 200; ++k) {
    const Aabb q = Aabb::around(Vec3(u(rng), u(rng), u(rng)), r(rng));
    const std::vector<int> expected = brute_query(s, q);
    EXPECT_EQ(query_sorted(bvh, q), expected);
    nonempty += !expected.empty();
  }
  EXPECT_GT(nonempty, 20);  // the test exercises hits, not only misses
}

TEST(Bvh, BoxQueryEqualsBruteForceBeforeAndAfterRefit) {
  Soup s = random_soup(500, 3);
  TriangleBvh bvh;
  bvh.build(s.triangles, s.x);
  EXPECT_EQ(bvh.num_triangles(), 500);
  EXPECT_LE(bvh.depth(), 9);  // median split: ceil(log2(500 / 4)) + 1
  expect_queries_match(bvh, s, 5);
  // move every vertex (large motions: the topology is kept, boxes loosen but stay exact)
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> d(-0.3, 0.3);
  for (Vec3& p : s.x) p += Vec3(d(rng), d(rng), d(rng));
  bvh.refit(s.x);
  expect_queries_match(bvh, s, 6);
  // root box is the box of everything
  Aabb all;
  for (const Vec3& p : s.x) all.extend(p);
  EXPECT_EQ(bvh.bounds().lo, all.lo);
  EXPECT_EQ(bvh.bounds().hi, all.hi);
}

TEST(Bvh, PairQueryEqualsBruteForceWithMargin) {
  Soup a = random_soup(300, 21), b = random_soup(200, 22);
  TriangleBvh ta, tb;
  ta.build(a.triangles, a.x);
  tb.build(b.triangles, b.x);
  for (int pass = 0; pass < 2; ++pass) {
    for (double margin : {0.0, 0.02}) {
      std::vector<std::pair<int, int>> hits, expected;
      ta.query_pairs(tb, margin, [&](int i, int j) { hits.emplace_back(i, j); });
      std::sort(hits.begin(), hits.end());
      for (int i = 0; i < 300; ++i)
        for (int j = 0; j < 200; ++j)
          if (box_of(a, i).overlaps(box_of(b, j), margin)) expected.emplace_back(i, j);
      EXPECT_EQ(hits, expected) << "pass " << pass << " margin " << margin;
      EXPECT_GT(expected.size(), 10u);
    }
    // refit both after moving b
    for (Vec3& p : b.x) p += Vec3(0.05, -0.02, 0.01);
    ta.refit(a.x);
    tb.refit(b.x);
  }
}

TEST(Bvh, DegenerateTrianglesAndEmptyTree) {
  // edges {a, b, b} and points {v, v, v} work as primitives
  Points x = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(5, 5, 5)};
  TriangleBvh bvh;
  bvh.build({{0, 1, 1}, {2, 2, 2}}, x);
  EXPECT_EQ(query_sorted(bvh, Aabb::around(Vec3(0.5, 0, 0), 0.01)), std::vector<int>{0});
  EXPECT_EQ(query_sorted(bvh, Aabb::around(Vec3(5, 5, 5), 0.0)), std::vector<int>{1});
  EXPECT_TRUE(query_sorted(bvh, Aabb::around(Vec3(2, 2, 2), 0.5)).empty());
  TriangleBvh empty;
  empty.build({}, x);
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(query_sorted(empty, Aabb::around(Vec3::Zero(), 10)).empty());
  int pairs = 0;
  bvh.query_pairs(empty, 1.0, [&](int, int) { ++pairs; });
  EXPECT_EQ(pairs, 0);
}

}  // namespace
}  // namespace suction
