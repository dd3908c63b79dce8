// ParaView output: XML UnstructuredGrids (.vtu, ASCII) per frame and .pvd collections that list
// every frame, so ParaView opens a whole run as time series (File > Open > series.pvd,
// cavities.pvd, contacts.pvd; docs/paraview.md).
#pragma once
#include <string>
#include <vector>

#include "model/model.h"
#include "model/state.h"

namespace suction {

class Simulation;

/// a body name made safe for a file name: every character outside [A-Za-z0-9_-] becomes '_'
/// ("body" when the name is empty)
std::string sanitize_file_name(const std::string& name);

/// Writes, at each write_frame, three series into dir:
///   series.pvd    one <body>_<frame:06d>.vtu per body, each a pvd "part" (bodies numbered FEM
///                 first, then rigid, in model order):
///     FEM bodies: the tetrahedra (VTK_TETRA = 10) at the current node positions; point data
///                 "velocity" [m/s] and "displacement" (from the rest shape) [m]; cell data
///                 "von_mises" [Pa], "equivalent_strain" [-] and "stress" (the co-rotated
///                 stress rotated to world, R σ Rᵀ, 9 components) [Pa] (fem/corotational.h:
///                 ElementStress).
///     rigid bodies (dynamic, fixed, kinematic): the surface triangles (VTK_TRIANGLE = 5) moved
///                 to world by the body's pose (x = R p + c), point data "velocity" = v + ω × R p.
///   cavities.pvd  cavities_<frame>.vtu: every tracked cavity's surface (triangles at the end of
///                 the step), cell data "cavity_id", "pressure" (absolute) and "gauge_pressure"
///                 (P − P_atm) [Pa], "volume" [m³], "air" (N = P V) [J], "dormant" (0/1).
///   cavity_<id>.pvd  each cavity as its own time series (the frames where it exists), the
///                 same surface and data: cavity_series/cavity_<id>_<frame>.vtu (a folder of
///                 their own, so no body's file name can collide with them).
///   contacts.pvd  contacts_<frame>.vtu: the last step's contacts as points (VTK_VERTEX = 1) at
///                 the contact point on body b, point data "normal" (unit, b → a), "force" (on
///                 body a, world), "normal_force" and "friction_force" (its normal and tangential
///                 parts) [N], "normal_force_magnitude" (λ_n) [N], "body_a", "body_b" (slots).
class VtkSeriesWriter {
 public:
  /// creates dir (and its parents) when missing; throws InputError when that fails.
  /// model must outlive the writer.
  VtkSeriesWriter(std::string dir, const Model& model);
  ~VtkSeriesWriter();  // calls finish(), never throws
  VtkSeriesWriter(const VtkSeriesWriter&) = delete;
  VtkSeriesWriter& operator=(const VtkSeriesWriter&) = delete;

  /// writes one frame of every body (frame number = number of frames written before)
  void write_frame(const Simulation& sim);
  void write_frame(const State& state);
  /// (re)writes series.pvd with every frame written so far; may be called repeatedly
  void finish();

  int frames() const { return frames_; }
  const std::string& dir() const { return dir_; }
  /// the file-name stem of each body (FEM first, then rigid), unique within the model
  const std::vector<std::string>& body_stems() const { return stems_; }

 private:
  struct FrameFile {
    int series;  // 0 bodies (series.pvd), 1 cavities, 2 contacts, 3 one cavity (part = its id)
    double time;
    int part;
    std::string file;  // relative to dir_
  };
  void write_bodies(const State& state, int frame);
  void write_cavities(const State& state, int frame);
  /// one piece of the given cavities' surfaces with their data
  std::string cavities_vtu(const State& state, const std::vector<const CavityState*>& cavities) const;
  /// the folder (in dir) of the per-cavity series' pieces
  static constexpr const char* kCavitySeriesDir = "cavity_series";
  void write_contacts(const State& state, int frame);
  std::string dir_;
  const Model& model_;
  std::vector<std::string> stems_;
  std::vector<FrameFile> written_;
  int frames_ = 0;
};

/// A named data array of a .vtu piece: `components` values per point or cell.
struct VtuArray {
  std::string name;
  int components = 1;
  bool integer = false;  // Int32 instead of Float64
  std::vector<double> values;
};

/// An unstructured grid as .vtu XML text, with point and cell data arrays.
std::string vtu_text(const Points& points, const std::vector<int>& cells, int nodes_per_cell,
                     int cell_type, const std::vector<VtuArray>& point_data,
                     const std::vector<VtuArray>& cell_data);

/// One body's unstructured grid as .vtu XML text.
/// points: #points×3 [m]; velocities: #points×3 [m/s] (empty: no point data);
/// cells: flattened node indices, nodes_per_cell of them per cell; cell_type: VTK type id.
std::string vtu_text(const Points& points, const Points& velocities, const std::vector<int>& cells,
                     int nodes_per_cell, int cell_type);

}  // namespace suction
