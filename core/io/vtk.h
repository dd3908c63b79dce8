// ParaView output: one XML UnstructuredGrid (.vtu, ASCII) per body and frame, and a
// series.pvd collection that lists every frame so ParaView opens the whole run as one
// time series (File > Open > series.pvd).
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

/// Writes <dir>/<body>_<frame:06d>.vtu for every body at each write_frame, and <dir>/series.pvd.
///   FEM bodies: the tetrahedra (VTK_TETRA = 10) at the current node positions, point data
///               "velocity" [m/s].
///   rigid bodies (dynamic, fixed, kinematic): the surface triangles (VTK_TRIANGLE = 5) moved to
///               world by the body's pose (x = R p + c), point data "velocity" = v + ω × R p.
/// Bodies are numbered FEM first, then rigid, in model order; the number is the pvd "part".
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
    double time;
    int part;
    std::string file;  // relative to dir_
  };
  std::string dir_;
  const Model& model_;
  std::vector<std::string> stems_;
  std::vector<FrameFile> written_;
  int frames_ = 0;
};

/// One body's unstructured grid as .vtu XML text.
/// points: #points×3 [m]; velocities: #points×3 [m/s] (empty: no point data);
/// cells: flattened node indices, nodes_per_cell of them per cell; cell_type: VTK type id.
std::string vtu_text(const Points& points, const Points& velocities, const std::vector<int>& cells,
                     int nodes_per_cell, int cell_type);

}  // namespace suction
