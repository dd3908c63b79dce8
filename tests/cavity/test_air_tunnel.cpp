// The paper's Fig. 13, the air tunnel (scenes/air_tunnel.json, docs/scenes.md): a soft block
// with two holes in its top face joined by a U-shaped tunnel.  One cup over one hole does not
// seal (the air goes through the tunnel and out of the other hole) and the block stays down;
// two cups, one over each hole, enclose ONE cavity with the block (three bodies: cup A, the
// block, cup B), the tunnel part of it, and lift the block.
//
// Oracles, not snapshots:
//  - the cavity's volume, at the first sealed step and at the end of the hold (P ≈ P_atm, the
//    cups' shape set by the push), exceeds the volume the same cups enclose on a SOLID block of
//    the same size, pushed the same way, by the volume of the holes and the tunnel: the volume
//    the block's tet mesh lacks from the box, sx·sy·sz − Σ tet volumes, and within 5 % by the
//    analytic volume of the generator's surface, sx·sy·sz − tunnel_block_volume (1.256 cm³):
//    the mesh's facets, kept within 0.15 mm of the surface, cut the 5 mm tunnel's 12-gon
//    section by 3.5 % (printed);
//  - one cavity, bounded by three bodies, so both cups feel the one pressure;
//  - a force balance on the cups while the block hangs (constant-speed pull, quasi-static):
//    hand_k + C_k = W_k + (P_atm − P)·A_k per cup, with A_k the area the cup's own walls of the
//    cavity project along z (the area its sealing ring encloses) and C_k the contact force
//    the block pushes on its lip; summed: Σ (P_atm − P)·A_k = Σ hand − W_cups + Σ C_k.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

#include "cavity/story.h"
#include "common/parallel.h"
#include "mesh/generators.h"
#include "mesh/tet_mesh.h"
#include "model/body_slots.h"
#include "probes/probes.h"
#include "scene/scene.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

Model load(const std::vector<std::string>& sets = {}) {
  std::vector<SceneOverride> o;
  for (const auto& s : sets) o.push_back(parse_override(s));
  return load_scene_file(std::string(SUCTION_SCENES_DIR) + "/air_tunnel.json", o);
}

// The issue 49 press: the big cup over both holes driven 9.4 mm (k x 5 mm) into the block, its
// lip 2.8 mm (k x 1.5 mm), with or without contact.keep_side.
Model deep_press(bool keep_side = false) {
  Model m = load({"/parameters/config==both_holes", "/parameters/big_push_mm=9.4", "/parameters/big_lip_mm=2.8"});
  m.settings.contact.collision.keep_side = keep_side;
  return m;
}

// The warnings of the first `steps` steps that contain `text`, each with its step.
std::vector<std::string> warnings_with(Model model, int steps, const std::string& text) {
  Simulation sim(std::move(model));
  std::vector<std::string> found;
  for (int i = 0; i < steps; ++i) {
    sim.step();
    for (const std::string& w : sim.warnings())
      if (w.find(text) != std::string::npos) found.push_back(w);
  }
  return found;
}

int fem_index(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.fem.size(); ++i)
    if (m.fem[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no FEM body " << name;
  return 0;
}

double param(const Model& m, const std::string& name) {
  for (const auto& p : m.parameters)
    if (p.name == name) return p.value;
  ADD_FAILURE() << "no parameter " << name;
  return 0.0;
}

/// Σ volumes of the active cavities [m³]
double total_volume(const Simulation& sim) { return sim.cavity_summary().volume_total; }

/// the signed area cup `slot`'s own walls of cavity `c` project along z [m²]: its triangles
/// (all three vertices on the cup, seam excluded), outward from the cavity, i.e. into the cup
double cup_area(const Simulation& sim, const CavityState& c, int slot) {
  const Points x = cavity_world_vertices(sim.model(), sim.state(), c);
  double a = 0.0;
  for (int t = 0; t < c.seam_begin; ++t) {
    const Tri& tri = c.triangles[t];
    if (c.vertices[tri[0]].slot != slot || c.vertices[tri[1]].slot != slot || c.vertices[tri[2]].slot != slot)
      continue;
    a += 0.5 * (x[tri[1]] - x[tri[0]]).cross(x[tri[2]] - x[tri[0]]).z();
  }
  return std::abs(a);
}

const Vec3 kBlockSize(0.09, 0.08, 0.025);  // scenes/air_tunnel.json, the block's "size"

/// the volume of the holes and the tunnel: what the generator's surface removes from the box [m³]
double path_volume_exact(const Model& m) {
  const double d = 1e-3 * param(m, "hole_mm"), s = 1e-3 * param(m, "spacing_mm"), depth = 1e-3 * param(m, "depth_mm");
  return kBlockSize.prod() - tunnel_block_volume(kBlockSize, d, s, depth, 12);
}
/// ... and what the block's tet mesh lacks from the box [m³]
double path_volume_meshed(const Model& m, int block) { return kBlockSize.prod() - total_volume(m.fem[block].rest); }

constexpr double kHoldEnd = 0.8;  // push 0.5 s + hold 0.3 s (the drivers' segments)

}  // namespace

TEST(AirTunnelStory, TwoCupsShareOneCavityThroughTheTunnelAndLiftTheBlock) {
  // the reference: the same cups pushed the same way on a solid block of the same size
  double v_solid = 0.0, v_solid_first = 0.0;
  {
    Simulation ref(load({"/bodies/2/mesh={\"generator\": \"box\", \"size\": [0.09, 0.08, 0.025], \"cells\": [18, 16, 5]}"}));
    while (ref.state().time < kHoldEnd - 1e-9) {
      ref.step();
      if (v_solid_first == 0.0 && ref.cavity_summary().count == 2) v_solid_first = total_volume(ref);
    }
    EXPECT_EQ(ref.cavity_summary().count, 2) << "on a solid block each cup has its own cavity";
    v_solid = total_volume(ref);
  }

  Simulation sim(load());
  const Model& m = sim.model();
  const double p_atm = m.settings.p_atm, g = m.settings.gravity.norm();
  const int a = fem_index(m, "cup_a"), b = fem_index(m, "cup_b"), blk = fem_index(m, "block");
  const BodySlots slots(m);
  const int sa = slots.slot({BodyType::Fem, a}), sb = slots.slot({BodyType::Fem, b}),
            sk = slots.slot({BodyType::Fem, blk});
  const double w_cups = (story::fem_mass(m, a) + story::fem_mass(m, b)) * g, w_block = story::fem_mass(m, blk) * g;
  const int pha = story::probe(m, "hand_a_force"), phb = story::probe(m, "hand_b_force"),
            pz = story::probe(m, "object_z"), ppa = story::probe(m, "pressure_a"), ppb = story::probe(m, "pressure_b");
  const double z0 = sim.probe_values()[pz];
  const double duration = m.settings.duration;
  const long steps = std::lround(duration / m.settings.dt);

  double v_hold = 0.0, v_first = 0.0;
  int n = 0;
  double hands = 0.0, suction = 0.0, contact = 0.0, core_hold = 0.0, pressure = 0.0;
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const double t = sim.state().time;
    const auto v = sim.probe_values();
    // nothing goes through anything (before the crossing rule of method §5.2, a block vertex
    // went through cup A's lip at 0.51 s and stayed on its far side for the rest of the run)
    for (const std::string& w : sim.warnings()) ADD_FAILURE() << w;
    if (v_first == 0.0 && sim.cavity_summary().count > 0) {
      ASSERT_EQ(sim.cavity_summary().count, 1) << "t = " << t << ": the cups seal one cavity through the tunnel";
      v_first = total_volume(sim);
    }
    if (std::abs(t - kHoldEnd) < 1e-9) {
      ASSERT_EQ(sim.cavity_summary().count, 1) << "pushed and held: one cavity through the tunnel";
      v_hold = total_volume(sim);
      EXPECT_NEAR(sim.state().book.cavities.at(0).pressure, p_atm, 0.01 * p_atm) << "the push expelled air at P_atm";
    }
    if (t > 1.0 + 1e-9) {  // the block hangs: one cavity of three bodies, below P_atm
      ASSERT_EQ(sim.cavity_summary().count, 1) << "t = " << t;
      const CavityState& c = sim.state().book.cavities.at(0);
      ASSERT_EQ(c.slots.size(), 3u) << "t = " << t << ": cup A, the block and cup B bound one cavity";
      EXPECT_EQ(c.slots, (std::vector<int>{sa, sb, sk})) << "t = " << t;
      EXPECT_LT(c.pressure, p_atm - 5000.0) << "t = " << t;
      EXPECT_DOUBLE_EQ(v[ppa], c.pressure) << "t = " << t << ": both cups' pressure probes read the one cavity";
      EXPECT_DOUBLE_EQ(v[ppb], c.pressure) << "t = " << t;
    }
    if (t > duration - 0.3 + 1e-9) {
      const CavityState& c = sim.state().book.cavities.at(0);
      hands += v[pha] + v[phb];
      suction += (p_atm - c.pressure) * (cup_area(sim, c, sa) + cup_area(sim, c, sb));
      contact += body_contact_force(m, sim.state(), BodyRef{BodyType::Fem, a}).z() +
                 body_contact_force(m, sim.state(), BodyRef{BodyType::Fem, b}).z();
      core_hold += sim.cavity_summary().holding_force;
      pressure += c.pressure;
      ++n;
    }
  }
  ASSERT_GT(n, 0);
  hands /= n, suction /= n, contact /= n, core_hold /= n, pressure /= n;
  const double lift = sim.probe_values()[pz] - z0;
  const double v_path = path_volume_meshed(m, blk), v_exact = path_volume_exact(m);
  std::printf("air tunnel, two cups: holes + tunnel %.4f cm^3 as meshed, %.4f cm^3 exact (generator)\n", 1e6 * v_path,
              1e6 * v_exact);
  std::printf("air tunnel, two cups: first sealed step: cavity %.4f cm^3, on a solid block %.4f cm^3: difference "
              "%.4f cm^3 (%+.1f %% of the meshed path)\n",
              1e6 * v_first, 1e6 * v_solid_first, 1e6 * (v_first - v_solid_first),
              100.0 * ((v_first - v_solid_first) / v_path - 1.0));
  std::printf("air tunnel, two cups: end of the hold: cavity %.4f cm^3, on a solid block %.4f cm^3: difference "
              "%.4f cm^3 (%+.1f %% of the meshed path)\n",
              1e6 * v_hold, 1e6 * v_solid, 1e6 * (v_hold - v_solid), 100.0 * ((v_hold - v_solid) / v_path - 1.0));
  std::printf("air tunnel, two cups: lifted %.1f mm at P %.1f kPa; hands %.3f N for cups %.3f N + block %.3f N; "
              "(P_atm - P) A over the cups %.2f N = hands - W_cups + lip contact %.2f N = %.2f N; "
              "core holding force %.2f N\n",
              1e3 * lift, 1e-3 * pressure, hands, w_cups, w_block, suction, contact, hands - w_cups + contact,
              core_hold);
  EXPECT_NEAR(v_path, v_exact, 0.05 * v_exact) << "the block's mesh keeps the holes and the tunnel";
  EXPECT_NEAR(v_first - v_solid_first, v_path, 0.03 * v_path) << "the tunnel and the holes are part of the cavity";
  EXPECT_NEAR(v_first - v_solid_first, v_exact, 0.05 * v_exact) << "... by their analytic volume";
  // pushed 5 mm, the soft block's top under the lips sags differently on the two meshes:
  // measured +5 % at the end of the hold
  EXPECT_NEAR(v_hold - v_solid, v_path, 0.08 * v_path) << "and stay part of it through the push";
  EXPECT_GT(lift, 0.020) << "the block hangs under the cups";
  EXPECT_NEAR(hands, w_cups + w_block, 0.05 * (w_cups + w_block)) << "the hands carry cups and block";
  EXPECT_NEAR(suction, hands - w_cups + contact, 0.10 * suction) << "the suction on the cups balances their loads";
  EXPECT_GT(suction - contact, 0.9 * w_block) << "the suction, less what presses the lips, carries the block";
  // the core's holding force is the cavity's net pull on the cups, not its shadow: the tunnel
  // under the holes overhangs (it read 32.65 N against 28.79 N of net pull before issue 49)
  EXPECT_NEAR(core_hold, suction, 0.01 * suction) << "the holding force is the net pull on the cups";
}

TEST(AirTunnelStory, OneCupOverOneHoleLeaksThroughTheTunnelAndTheBlockStays) {
  Simulation sim(load({"/parameters/config==one_hole"}));
  const Model& m = sim.model();
  const int pha = story::probe(m, "hand_a_force"), pz = story::probe(m, "object_z");
  const double z0 = sim.probe_values()[pz];
  const long steps = std::lround(m.settings.duration / m.settings.dt);
  double push = 0.0, z_max = z0;
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const auto v = sim.probe_values();
    push = std::min(push, v[pha]);
    z_max = std::max(z_max, v[pz]);
    for (const CavityState& c : sim.state().book.cavities)
      EXPECT_TRUE(c.dormant || std::abs(c.pressure - m.settings.p_atm) < 1.0)
          << "t = " << sim.state().time << ": nothing seals, the air escapes through the other hole";
    EXPECT_EQ(sim.cavity_summary().count, 0) << "t = " << sim.state().time;
  }
  std::printf("air tunnel, one hole: pressed with %.1f N, block centre rose at most %.3f mm\n", -push,
              1e3 * (z_max - z0));
  EXPECT_LT(push, -5.0) << "the cup was pressed on the block";
  EXPECT_LT(z_max - z0, 0.002) << "the block is not lifted";
}

// both_holes: one big cup (the standard one scaled by k = 33/17.5, pressed k x 5 mm = 9.4 mm
// with its lip k x 1.5 mm = 2.8 mm, as the paper scales its cup) over both holes; the tunnel is
// part of its cavity, and the block is lifted by suction, with no union failing on the way (the
// tangled lip of earlier versions failed dozens: docs/scenes.md).  While the block's flat
// underside peels off the flat ground a second cavity holds air under it (0.86-1.02 s): from
// the moment the block has risen 1 mm there is one.
TEST(AirTunnelStory, OneBigCupOverBothHolesSealsTheTunnelAndLiftsTheBlock) {
  const std::string both = "/parameters/config==both_holes";
  // the reference: the same cup pressed on a solid block of the same size, to its first seal
  double v_solid_first = 0.0;
  {
    Simulation ref(load({both, "/bodies/2/mesh={\"generator\": \"box\", \"size\": [0.09, 0.08, 0.025], \"cells\": [18, 16, 5]}"}));
    while (v_solid_first == 0.0 && ref.state().time < 0.3) {
      ref.step();
      if (ref.cavity_summary().count > 0) v_solid_first = total_volume(ref);
    }
    ASSERT_GT(v_solid_first, 0.0) << "the big cup seals on a solid block";
  }

  Simulation sim(load({both}));
  const Model& m = sim.model();
  const double p_atm = m.settings.p_atm, g = m.settings.gravity.norm();
  const int a = fem_index(m, "cup_a"), blk = fem_index(m, "block");
  const BodySlots slots(m);
  const int sa = slots.slot({BodyType::Fem, a}), sk = slots.slot({BodyType::Fem, blk});
  const double w_cup = story::fem_mass(m, a) * g, w_block = story::fem_mass(m, blk) * g;
  const int pha = story::probe(m, "hand_a_force"), pz = story::probe(m, "object_z"), ppa = story::probe(m, "pressure_a");
  const double z0 = sim.probe_values()[pz];
  const double duration = m.settings.duration;
  const long steps = std::lround(duration / m.settings.dt);
  double v_first = 0.0;
  int n = 0;
  double hand = 0.0, suction = 0.0, contact = 0.0, pressure = 0.0;
  for (long i = 0; i < steps; ++i) {
    sim.step();
    const double t = sim.state().time;
    const auto v = sim.probe_values();
    if (v_first == 0.0 && sim.cavity_summary().count > 0) {
      ASSERT_EQ(sim.cavity_summary().count, 1) << "t = " << t << ": the cup seals one cavity through the tunnel";
      v_first = total_volume(sim);
    }
    if (v[pz] - z0 > 1e-3) {  // the block hangs: one cavity of cup and block, below P_atm
      ASSERT_EQ(sim.cavity_summary().count, 1) << "t = " << t;
      const CavityState& c = sim.state().book.cavities.at(0);
      EXPECT_EQ(c.slots, (std::vector<int>{sa, sk})) << "t = " << t;
      EXPECT_LT(c.pressure, p_atm - 5000.0) << "t = " << t;
      EXPECT_DOUBLE_EQ(v[ppa], c.pressure) << "t = " << t;
    }
    if (t > duration - 0.3 + 1e-9) {
      const CavityState& c = sim.state().book.cavities.at(0);
      hand += v[pha];
      suction += (p_atm - c.pressure) * cup_area(sim, c, sa);
      contact += body_contact_force(m, sim.state(), BodyRef{BodyType::Fem, a}).z();
      pressure += c.pressure;
      ++n;
    }
  }
  ASSERT_GT(n, 0);
  hand /= n, suction /= n, contact /= n, pressure /= n;
  const double lift = sim.probe_values()[pz] - z0;
  const double v_path = path_volume_meshed(m, blk), v_exact = path_volume_exact(m);
  std::printf("air tunnel, both holes: first sealed step: cavity %.4f cm^3, on a solid block %.4f cm^3: difference "
              "%.4f cm^3 (%+.1f %% of the meshed path %.4f, %+.1f %% of the exact %.4f)\n",
              1e6 * v_first, 1e6 * v_solid_first, 1e6 * (v_first - v_solid_first),
              100.0 * ((v_first - v_solid_first) / v_path - 1.0), 1e6 * v_path,
              100.0 * ((v_first - v_solid_first) / v_exact - 1.0), 1e6 * v_exact);
  std::printf("air tunnel, both holes: lifted %.1f mm at P %.1f kPa; hand %.3f N for cup %.3f N + block %.3f N; "
              "(P_atm - P) A over the cup %.2f N = hand - W_cup + lip contact %.2f N = %.2f N; union failures %ld\n",
              1e3 * lift, 1e-3 * pressure, hand, w_cup, w_block, suction, contact, hand - w_cup + contact,
              sim.union_failures());
  EXPECT_EQ(sim.union_failures(), 0) << "no tangled surfaces";
  EXPECT_NEAR(v_first - v_solid_first, v_path, 0.03 * v_path) << "the tunnel and the holes are part of the cavity";
  EXPECT_NEAR(v_first - v_solid_first, v_exact, 0.05 * v_exact) << "... by their analytic volume";
  EXPECT_GT(lift, 0.020) << "the block hangs under the cup";
  EXPECT_NEAR(hand, w_cup + w_block, 0.05 * (w_cup + w_block)) << "the hand carries cup and block";
  EXPECT_NEAR(suction, hand - w_cup + contact, 0.10 * suction) << "the suction on the cup balances its loads";
  EXPECT_GT(suction - contact, 0.9 * w_block) << "the suction, less what presses the lip, carries the block";
}

// The issue-49 press: the big cup driven 9.4 mm into the block with its lip 2.8 mm.  With the
// nearest-surface rule alone, from 0.16 s block vertices the free motion took past the middle of
// the cup's lip were pushed out through its far face, the skirt then went through its own lip,
// both surfaces crossed themselves from 0.40 s and every union of the group failed (24 of the
// steps to 0.94 s; up to 12 cavities where there is one); the union's repair (mesh_union.h,
// UnionRepair) then built them, 26 times over the run.  Held by the face they crossed (the
// collision stage, method §5.2), no vertex goes through the lip: in the first 0.5 s nothing
// crosses itself, nothing is repaired, no union fails, the watchdog reports nothing inside or
// through, and there is never more than one cavity.
TEST(AirTunnelStory, ADeepPressNeitherTanglesNorFoldsTheCup) {
  Simulation sim(deep_press());
  int most = 0;
  std::vector<std::string> through;
  for (int i = 0; i < 50; ++i) {
    sim.step();
    for (const std::string& w : sim.warnings())
      if (w.find("inside '") != std::string::npos || w.find("far side") != std::string::npos ||
          w.find("crosses itself") != std::string::npos)
        through.push_back(w);
    most = std::max(most, sim.cavity_summary().count);
  }
  std::printf("air tunnel, 9.4 mm press: %ld surface repairs, at most %d cavities, %ld failed unions in 50 steps\n",
              sim.surface_repairs(), most, sim.union_failures());
  for (const std::string& w : through) ADD_FAILURE() << w;
  EXPECT_EQ(sim.union_failures(), 0) << "every union is built";
  EXPECT_EQ(sim.surface_repairs(), 0) << "no surface crossed itself";
  EXPECT_LE(most, 1) << "one cup on one block: never more than one cavity";
}

// contact.keep_side on the same press (method §5.2) changes none of that: with it too, no
// vertex of the cup ends inside the block in the first 0.36 s (the nearest-surface rule alone
// put two of them 2.26 mm inside at 0.30 s; without keep_side the test above checks it).  The
// watchdog's interpenetration warning (deeper than the alarm distance) is the measure.
TEST(AirTunnelStory, NoVertexOfTheDeepPressedCupEndsInsideTheBlock) {
  const std::vector<std::string> inside = warnings_with(deep_press(true), 36, "inside 'block'");
  EXPECT_TRUE(inside.empty()) << inside.front();
}

// The same numbers whatever the machine is doing (issue 49): the big cup driven 9.4 mm into the
// block with holes, its lip 2.8 mm, three bodies in one union every step, a seal the solved
// shape opens (the step solved again) at step 34 — the run that gave another CSV from step 35
// on another thread count, under load, or after other allocations, because CGAL's corefinement
// orders its output by the addresses of its arrays (mesh_union.cpp, split_components).  Run on
// one thread, then on two with allocations left behind between the steps (another heap) and
// two threads spinning beside them (the load): every step's positions, pressures and volumes
// the same, to the bit.
TEST(AirTunnelStory, ADeepPressGivesTheSameNumbersOnAnyThreadCountAndUnderLoad) {
  const Model model = deep_press();
  const int steps = 38, old_threads = thread_count();
  struct Run {
    std::vector<Points> x;
    std::vector<double> volume, air, pressure;
    int unions = 0;
  };
  auto run = [&](int threads, bool load_beside, bool heap_changed) {
    set_thread_count(threads);
    std::atomic<bool> stop{false};
    std::vector<std::thread> spinners;
    if (load_beside)
      for (int i = 0; i < 2; ++i)
        spinners.emplace_back([&stop] {
          volatile double s = 0.0;
          while (!stop.load(std::memory_order_relaxed)) s = s + 1.0;
        });
    std::vector<std::vector<char>> left;  // allocations left behind between the steps
    Run r;
    Simulation sim(model);
    for (int i = 0; i < steps; ++i) {
      if (heap_changed) left.emplace_back(static_cast<size_t>(64 + 997 * i % 70000), 'x');
      sim.step();
      r.unions += sim.profile().cavity_unions;
      r.x.push_back(sim.state().fem[0].x);
      r.volume.push_back(sim.cavity_summary().volume_total);
      r.air.push_back(sim.cavity_summary().air_total);
      r.pressure.push_back(sim.cavity_summary().pressure_min);
    }
    stop = true;
    for (std::thread& t : spinners) t.join();
    return r;
  };
  const Run base = run(1, false, false);
  set_thread_count(old_threads);
  EXPECT_GE(base.unions, 15) << "the cavity is united again on many of the steps";
  const char* names[] = {"2 threads, another heap, 2 busy threads beside them"};
  const Run others[] = {run(2, true, true)};
  set_thread_count(old_threads);
  for (int k = 0; k < 1; ++k) {
    const Run& o = others[k];
    for (int i = 0; i < steps; ++i) {
      ASSERT_EQ(base.volume[i], o.volume[i]) << names[k] << ", step " << i + 1;
      ASSERT_EQ(base.air[i], o.air[i]) << names[k] << ", step " << i + 1;
      ASSERT_EQ(base.pressure[i], o.pressure[i]) << names[k] << ", step " << i + 1;
      for (size_t n = 0; n < base.x[i].size(); ++n)
        ASSERT_EQ(base.x[i][n], o.x[i][n]) << names[k] << ", step " << i + 1 << ", node " << n;
    }
  }
}
