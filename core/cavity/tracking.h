// Cavity tracking across recomputations (docs/method.md §9): relates the cavities a new mesh
// union found for one group of bodies to the ones tracked before, and hands their air on.
// Plain CavityState and point lists in; the cavities stage (stages/cavities.cpp) calls it.
#pragma once
#include "cavity/cavity_state.h"
#include "common/aabb.h"

namespace suction {

/// A cavity's shape at the positions the tracker compares (x_t, the shape the seal is judged on).
struct CavityGeometry {
  Points x;                      // #vertices×3 [m]
  double volume = 0.0;           // [m³]
  Vec3 centroid = Vec3::Zero();  // area-weighted centroid of the wall (non-seam) triangles [m]
  Aabb box;
};
CavityGeometry cavity_geometry(const Points& x, const CavityState& c);

struct TrackingSettings {
  double p_atm = kPAtm;                  // air of a new cavity: P_atm·V [Pa]
  double t_ambient = kTAmbient;          // temperature of a new cavity's air [K]
  double gamma = 1.4;                    // the air's c_p/c_v: its internal energy N θ / (γ − 1)
  double sealing_distance = 5e-5;        // [m]
  double flattened_volume_ratio = 0.05;  // a vanished cavity below this share of its largest
                                         // volume is kept dormant, otherwise dropped
  /// a dormant cavity is related to a new one whose centroid lies within its box grown by
  /// this share of the box diagonal (plus the sealing distance)
  double dormant_box_margin = 0.1;
};

/// One group's update.  old: the group's tracked cavities with their geometry at x_t;
/// fresh: the union's cavities (vertices and triangles only) with theirs.  Returns the group's
/// cavities after the update: old ones kept dormant (flattened, with their air), then the
/// fresh ones with identity and air:
///  - fresh cavities with no volume are discarded;
///  - old i and new j are related when they lie on common surface: their vertices map to at
///    least one common surface triangle of each of at least two bodies (a dormant old cavity also
///    when the new centroid lies within its box); related cavities form groups.  (Centroids
///    alone fail for a thin cavity wrapped on a curved surface: its centroid is outside it.)
///  - a group's air is the sum of its old cavities' air, shared by its new ones by volume;
///    its largest new cavity keeps the first old cavity's id;
///  - an unrelated new cavity starts with ambient air and a new id (next_id is advanced);
///  - an unrelated old cavity is kept dormant when it was dormant or had shrunk below
///    flattened_volume_ratio of its largest volume, and dropped otherwise (its seal is lost).
/// The ledger, when given, gets the created and the dropped (released) air, merges and splits.
std::vector<CavityState> track_cavities(const std::vector<const CavityState*>& old,
                                        const std::vector<CavityGeometry>& old_geometry,
                                        std::vector<CavityState> fresh,
                                        std::vector<CavityGeometry> fresh_geometry,
                                        const TrackingSettings& settings, int& next_id,
                                        AirLedger* ledger = nullptr);

}  // namespace suction
