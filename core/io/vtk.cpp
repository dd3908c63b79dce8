#include "io/vtk.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "common/error.h"
#include "io/csv.h"
#include "sim/simulation.h"

namespace suction {

namespace fs = std::filesystem;

namespace {

constexpr int kVtkTriangle = 5;
constexpr int kVtkTetra = 10;

void write_vectors(std::string& out, const Points& points) {
  for (const Vec3& p : points) {
    out += "          ";
    out += format_double(p.x());
    out += ' ';
    out += format_double(p.y());
    out += ' ';
    out += format_double(p.z());
    out += '\n';
  }
}

void write_text_file(const fs::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  if (!file) throw InputError("cannot write " + path.string());
}

std::string frame_file_name(const std::string& stem, int frame) {
  char number[16];
  std::snprintf(number, sizeof(number), "%06d", frame);
  return stem + "_" + number + ".vtu";
}

}  // namespace

std::string sanitize_file_name(const std::string& name) {
  if (name.empty()) return "body";
  std::string safe = name;
  for (char& c : safe) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) c = '_';
  }
  return safe;
}

std::string vtu_text(const Points& points, const Points& velocities, const std::vector<int>& cells,
                     int nodes_per_cell, int cell_type) {
  const size_t num_cells = nodes_per_cell > 0 ? cells.size() / nodes_per_cell : 0;
  std::string out;
  out.reserve(80 * (points.size() + num_cells) + 1024);
  out += "<?xml version=\"1.0\"?>\n";
  out += "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  out += "  <UnstructuredGrid>\n";
  out += "    <Piece NumberOfPoints=\"" + std::to_string(points.size()) + "\" NumberOfCells=\"" +
         std::to_string(num_cells) + "\">\n";
  // point data
  if (!velocities.empty()) {
    out += "      <PointData Vectors=\"velocity\">\n";
    out += "        <DataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\" "
           "format=\"ascii\">\n";
    write_vectors(out, velocities);
    out += "        </DataArray>\n";
    out += "      </PointData>\n";
  }
  // points
  out += "      <Points>\n";
  out += "        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" "
         "format=\"ascii\">\n";
  write_vectors(out, points);
  out += "        </DataArray>\n";
  out += "      </Points>\n";
  // cells: connectivity, offsets (end of each cell in connectivity), types
  out += "      <Cells>\n";
  out += "        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n";
  for (size_t c = 0; c < num_cells; ++c) {
    out += "          ";
    for (int k = 0; k < nodes_per_cell; ++k) {
      if (k) out += ' ';
      out += std::to_string(cells[c * nodes_per_cell + k]);
    }
    out += '\n';
  }
  out += "        </DataArray>\n";
  out += "        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n";
  for (size_t c = 0; c < num_cells; ++c) {
    out += "          " + std::to_string((c + 1) * nodes_per_cell) + '\n';
  }
  out += "        </DataArray>\n";
  out += "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
  const std::string type_line = "          " + std::to_string(cell_type) + '\n';
  for (size_t c = 0; c < num_cells; ++c) out += type_line;
  out += "        </DataArray>\n";
  out += "      </Cells>\n";
  out += "    </Piece>\n";
  out += "  </UnstructuredGrid>\n";
  out += "</VTKFile>\n";
  return out;
}

VtkSeriesWriter::VtkSeriesWriter(std::string dir, const Model& model)
    : dir_(std::move(dir)), model_(model) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw InputError("cannot create the frame directory " + dir_ + ": " + ec.message());
  // unique file stems: a sanitized name that collides gets its body number appended
  std::set<std::string> used;
  auto add_stem = [&](const std::string& name, int body) {
    std::string stem = sanitize_file_name(name);
    if (used.count(stem)) stem += "-" + std::to_string(body);
    used.insert(stem);
    stems_.push_back(stem);
  };
  int body = 0;
  for (const FemBody& fem : model_.fem) add_stem(fem.name, body++);
  for (const RigidBody& rigid : model_.rigid) add_stem(rigid.name, body++);
}

VtkSeriesWriter::~VtkSeriesWriter() {
  try {
    finish();
  } catch (...) {
    // a destructor must not throw; finish() reports errors when called explicitly
  }
}

void VtkSeriesWriter::write_frame(const Simulation& sim) { write_frame(sim.state()); }

void VtkSeriesWriter::write_frame(const State& state) {
  if (state.fem.size() != model_.fem.size() || state.rigid.size() != model_.rigid.size())
    throw std::logic_error("VtkSeriesWriter: state does not match the model");
  const int frame = frames_;
  int part = 0;
  // FEM bodies: tetrahedra at the current positions
  for (size_t b = 0; b < model_.fem.size(); ++b, ++part) {
    const FemBody& body = model_.fem[b];
    const FemBodyState& body_state = state.fem[b];
    std::vector<int> cells;
    cells.reserve(4 * body.rest.tets.size());
    for (const Tet& tet : body.rest.tets) cells.insert(cells.end(), tet.begin(), tet.end());
    const std::string file = frame_file_name(stems_[part], frame);
    write_text_file(fs::path(dir_) / file,
                    vtu_text(body_state.x, body_state.v, cells, 4, kVtkTetra));
    written_.push_back({state.time, part, file});
  }
  // rigid bodies: the surface in world, x = R p + c, v = v_c + ω × R p
  for (size_t b = 0; b < model_.rigid.size(); ++b, ++part) {
    const RigidBody& body = model_.rigid[b];
    const RigidBodyState& pose = state.rigid[b];
    const Mat3 rotation = pose.orientation.normalized().toRotationMatrix();
    Points world(body.surface.vertices.size());
    Points velocity(body.surface.vertices.size());
    for (size_t i = 0; i < world.size(); ++i) {
      const Vec3 arm = rotation * body.surface.vertices[i];
      world[i] = arm + pose.position;
      velocity[i] = pose.velocity + pose.angular_velocity.cross(arm);
    }
    std::vector<int> cells;
    cells.reserve(3 * body.surface.triangles.size());
    for (const Tri& tri : body.surface.triangles) cells.insert(cells.end(), tri.begin(), tri.end());
    const std::string file = frame_file_name(stems_[part], frame);
    write_text_file(fs::path(dir_) / file, vtu_text(world, velocity, cells, 3, kVtkTriangle));
    written_.push_back({state.time, part, file});
  }
  ++frames_;
}

void VtkSeriesWriter::finish() {
  std::string out;
  out += "<?xml version=\"1.0\"?>\n";
  out += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  out += "  <Collection>\n";
  for (const FrameFile& f : written_) {
    out += "    <DataSet timestep=\"" + format_double(f.time) + "\" group=\"\" part=\"" +
           std::to_string(f.part) + "\" file=\"" + f.file + "\"/>\n";
  }
  out += "  </Collection>\n";
  out += "</VTKFile>\n";
  write_text_file(fs::path(dir_) / "series.pvd", out);
}

}  // namespace suction
