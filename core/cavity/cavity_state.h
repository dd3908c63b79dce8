// A trapped-air cavity as tracked across steps (docs/method.md §6 and §9): a closed triangle
// mesh whose vertices are points on the bodies' collision surfaces, and its air; the sealing
// contacts and the groups of bodies they join (§9.4).
#pragma once
#include <array>
#include <compare>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/types.h"

namespace suction {

/// A point on a body's collision surface: body slot (model/body_slots.h), surface triangle and
/// barycentric coordinates.  It follows the body as it moves and deforms.
struct SurfacePoint {
  int slot = -1;
  int triangle = -1;
  Vec3 bary = Vec3::Zero();
};

/// A seam vertex of a union: where an edge of one body's union input crosses a triangle of
/// another's.  Its two copies (cavity vertices) lie on the edge (one barycentric coordinate 0,
/// `edge_zero`) and inside the triangle; between unions both are found again where that edge
/// crosses that triangle at the current shape (cavity.follow_seal; docs/method.md §9.8).
struct SeamCrossing {
  static constexpr int kRing = 24;
  int edge_copy = -1;  // the copy on the edge's body: its triangle has the edge
  int edge_zero = -1;  // the corner of that triangle opposite the edge (its coordinate is 0)
  int face_copy = -1;  // the copy on the crossed triangle's body
  /// the triangles that share a vertex with the one the union found it in (that one first): the
  /// crossing may move onto them (where the surface is flat to second order; method §9.8)
  std::array<int, kRing> ring{};
  int ring_size = 0;
};

struct CavityState {
  int id = -1;                    // stable identity across recomputations
  std::vector<int> slots;         // the bodies that bound it (body slots, ascending; ≥ 2)
  std::vector<SurfacePoint> vertices;
  std::vector<Tri> triangles;     // outward orientation (volume > 0)
  int seam_begin = 0;             // triangles [seam_begin, end) join the seam copies
  double air = 0.0;               // N = P·V [J]
  double pressure = kPAtm;        // absolute pressure at the end of the last step [Pa]
  double temperature = kTAmbient;  // the air's temperature [K]; P·V = N·T/T_ambient (§6.8)
  double volume = 0.0;            // volume at the end of the last step [m³]
  double outflow = 0.0;           // ΔN of the last step (≤ 0: air pushed out) [J]
  double max_volume = 0.0;        // largest volume since detection [m³]
  double seam_area0 = 0.0;        // seam area when detected (the sealing offset) [m²]
  double volume0 = 0.0;           // volume at the shape it was detected at (its union's) [m³]
  bool dormant = false;           // flattened: remembered (with its air) but exerts no force
  /// every seam vertex of its union as an edge crossing a triangle, when each is one (two bodies
  /// meet there, one on an edge, one inside a triangle); empty otherwise (cavity.follow_seal)
  std::vector<SeamCrossing> crossings;
  /// the union input's displacement of the body vertices the crossings are found with (their
  /// edges' ends, their rings' corners): the sealing offset and the jitter at the union, keyed by
  /// (slot << 32 | vertex), ascending.  The seam follows the bodies' motion with them, not the
  /// changes of the seals since (those decide the next union, docs/method.md §9.8).
  std::vector<std::pair<std::uint64_t, Vec3>> seam_input;
};

/// A seal at the shape the seal is judged on, from a contact within the sealing distance: its
/// two bodies (body slots, slot_a < slot_b) and its key: for a side that is a vertex, the vertex
/// the union's offset moves into the other body (its slot and index, tagged by the top bit);
/// for an edge–edge contact, the contact's key (collision/contact.h: Contact::key) less that bit.
struct SealingContact {
  int slot_a = -1, slot_b = -1;
  std::uint64_t key = 0;
  auto operator<=>(const SealingContact&) const = default;
};

/// What the cavity stage keeps between steps, as one value: the tracked cavities, the sealing
/// contacts of the last update (the groups they join are compared with the next update's) and
/// the next cavity id.  The cavity stage's jobs take it and give it back (stages/cavities.cpp);
/// the seal check runs them on a copy.
struct CavityBook {
  std::vector<CavityState> cavities;
  std::vector<SealingContact> sealing_contacts;  // ascending
  int next_cavity_id = 0;
};

/// Bodies joined by sealing contacts: a connected component of the graph whose edges are the
/// sealing contacts (docs/method.md §9.4).  A group is united as a whole, and its cavities may
/// be bounded by any number of its bodies.
struct SealGroup {
  std::vector<int> slots;                 // ascending, ≥ 2
  std::vector<SealingContact> contacts;   // the group's sealing contacts, ascending
  bool operator==(const SealGroup&) const = default;
  /// whether every one of `s` (ascending) is a body of the group
  bool contains(const std::vector<int>& s) const;
};

/// The groups of a set of sealing contacts, ordered by their first slot.
///   contacts: any order, self-contacts excluded by the caller
std::vector<SealGroup> seal_groups(std::vector<SealingContact> contacts);

/// Where the air of all cavities went in one step (N = P·V [J]).  The books close:
///   end − start = leaked_in + created − released + outflow;
/// merges and splits move air between cavities and change no total (docs/reliability.md).
/// And the air's energy (docs/method.md §6.8): its internal energy U = Σ N θ / (γ − 1) [J]
/// (θ = T / T_ambient, γ of settings.cavity.gas), whose books close too:
///   energy_end − energy_start = energy_created − energy_released + enthalpy_in + energy_out
///                               + work + heat;
/// merges and splits mix at constant internal energy.
struct AirLedger {
  double start = 0.0;      // Σ N at the start of the step
  double end = 0.0;        // Σ N at the end of the step
  double leaked_in = 0.0;  // Ṅ_leak h over the cavities with a row
  double created = 0.0;    // new cavities: P_atm V at the shape that sealed them
  double released = 0.0;   // cavities whose seal opened (or whose pair parted): to the atmosphere
  double outflow = 0.0;    // ΔN ≤ 0: air pushed out above p_max
  int merges = 0;          // groups of old cavities that became one
  int splits = 0;          // cavities that became several
  /// what the books leave unexplained (0 up to rounding)
  double imbalance() const { return end - start - (leaked_in + created - released + outflow); }

  double energy_start = 0.0;     // Σ U at the start of the step [J]
  double energy_end = 0.0;       // Σ U at the end of the step
  double energy_created = 0.0;   // new cavities' air, at the ambient temperature
  double energy_released = 0.0;  // the air of cavities whose seal opened, at its temperature
  double enthalpy_in = 0.0;      // the leak: ambient air brings γ/(γ−1) ΔN (its enthalpy)
  double energy_out = 0.0;       // ≤ 0: the internal energy of the air pushed out above p_max
  double work = 0.0;             // done on the air along its law in the solve, −∫P dV
  double heat = 0.0;             // from the walls: Newton's cooling (exchange), what a
                                 // polytropic or isothermal law exchanges to keep to it
  /// what the energy books leave unexplained (0 up to rounding)
  double energy_imbalance() const {
    return energy_end - energy_start -
           (energy_created - energy_released + enthalpy_in + energy_out + work + heat);
  }
};

}  // namespace suction
