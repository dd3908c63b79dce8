#include "io/vtk.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "common/error.h"
#include "fem/corotational.h"
#include "model/body_slots.h"
#include "io/csv.h"
#include "sim/simulation.h"

namespace suction {

namespace fs = std::filesystem;

namespace {

constexpr int kVtkVertex = 1;
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

VtuArray vector_array(const std::string& name, const Points& vectors) {
  VtuArray a{name, 3, false, {}};
  a.values.reserve(3 * vectors.size());
  for (const Vec3& v : vectors) a.values.insert(a.values.end(), {v.x(), v.y(), v.z()});
  return a;
}

// <PointData> / <CellData> with the arrays (nothing when there are none); the first scalar and
// the first vector array are the section's defaults (ParaView colours by them first)
void write_data(std::string& out, const char* section, const std::vector<VtuArray>& arrays) {
  if (arrays.empty()) return;
  out += std::string("      <") + section;
  for (const VtuArray& a : arrays)
    if (a.components == 1 && !a.integer) {
      out += " Scalars=\"" + a.name + "\"";
      break;
    }
  for (const VtuArray& a : arrays)
    if (a.components == 3) {
      out += " Vectors=\"" + a.name + "\"";
      break;
    }
  out += ">\n";
  for (const VtuArray& a : arrays) {
    out += std::string("        <DataArray type=\"") + (a.integer ? "Int32" : "Float64") + "\" Name=\"" +
           a.name + "\" NumberOfComponents=\"" + std::to_string(a.components) + "\" format=\"ascii\">\n";
    const size_t per_line = a.components == 9 ? 9 : a.components == 3 ? 3 : 6;
    for (size_t i = 0; i < a.values.size(); ++i) {
      out += i % per_line == 0 ? "          " : " ";
      if (a.integer)
        out += std::to_string(static_cast<long long>(a.values[i]));
      else
        out += format_double(a.values[i]);
      if (i % per_line == per_line - 1 || i + 1 == a.values.size()) out += '\n';
    }
    out += "        </DataArray>\n";
  }
  out += std::string("      </") + section + ">\n";
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

std::string vtu_text(const Points& points, const std::vector<int>& cells, int nodes_per_cell,
                     int cell_type, const std::vector<VtuArray>& point_data,
                     const std::vector<VtuArray>& cell_data) {
  const size_t num_cells = nodes_per_cell > 0 ? cells.size() / nodes_per_cell : 0;
  std::string out;
  out.reserve(80 * (points.size() + num_cells) + 1024);
  out += "<?xml version=\"1.0\"?>\n";
  out += "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  out += "  <UnstructuredGrid>\n";
  out += "    <Piece NumberOfPoints=\"" + std::to_string(points.size()) + "\" NumberOfCells=\"" +
         std::to_string(num_cells) + "\">\n";
  write_data(out, "PointData", point_data);
  write_data(out, "CellData", cell_data);
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

std::string vtu_text(const Points& points, const Points& velocities, const std::vector<int>& cells,
                     int nodes_per_cell, int cell_type) {
  std::vector<VtuArray> point_data;
  if (!velocities.empty()) point_data.push_back(vector_array("velocity", velocities));
  return vtu_text(points, cells, nodes_per_cell, cell_type, point_data, {});
}

VtkSeriesWriter::VtkSeriesWriter(std::string dir, const Model& model)
    : dir_(std::move(dir)), model_(model) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw InputError("cannot create the frame directory " + dir_ + ": " + ec.message());
  // unique file stems: a sanitized name that collides gets its body number appended
  std::set<std::string> used = {"cavities", "contacts"};  // the other two series' stems
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
  bool match = state.fem.size() == model_.fem.size() && state.rigid.size() == model_.rigid.size();
  for (size_t b = 0; match && b < model_.fem.size(); ++b)
    match = state.fem[b].x.size() == model_.fem[b].rest.nodes.size() &&
            model_.fem[b].elements.dm_inv.size() == model_.fem[b].rest.tets.size();
  if (!match) throw std::logic_error("VtkSeriesWriter: state does not match the model");
  write_bodies(state, frames_);
  write_cavities(state, frames_);
  write_contacts(state, frames_);
  ++frames_;
}

void VtkSeriesWriter::write_bodies(const State& state, int frame) {
  int part = 0;
  // FEM bodies: tetrahedra at the current positions, their stress and strain
  for (size_t b = 0; b < model_.fem.size(); ++b, ++part) {
    const FemBody& body = model_.fem[b];
    const FemBodyState& body_state = state.fem[b];
    std::vector<int> cells;
    cells.reserve(4 * body.rest.tets.size());
    for (const Tet& tet : body.rest.tets) cells.insert(cells.end(), tet.begin(), tet.end());
    std::vector<VtuArray> point_data = {vector_array("velocity", body_state.v)};
    Points displacement(body_state.x.size());
    for (size_t i = 0; i < displacement.size(); ++i) displacement[i] = body_state.x[i] - body.rest.nodes[i];
    point_data.push_back(vector_array("displacement", displacement));
    VtuArray von_mises{"von_mises", 1, false, {}}, strain{"equivalent_strain", 1, false, {}},
        stress{"stress", 9, false, {}};
    for (int e = 0; e < static_cast<int>(body.rest.tets.size()); ++e) {
      const Mat3 F = deformation_gradient(body.elements, body.rest, body_state.x, e);
      const ElementStress st = stress_of_deformation(body.elements, F);
      von_mises.values.push_back(st.von_mises);
      strain.values.push_back(st.equivalent_strain);
      const Mat3 R = polar_rotation(F);  // (stress_of_deformation's own R, again: output only)
      const Mat3 world = R * st.stress * R.transpose();
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) stress.values.push_back(world(i, j));
    }
    const std::vector<VtuArray> cell_data = {std::move(von_mises), std::move(strain), std::move(stress)};
    const std::string file = frame_file_name(stems_[part], frame);
    write_text_file(fs::path(dir_) / file, vtu_text(body_state.x, cells, 4, kVtkTetra, point_data, cell_data));
    written_.push_back({0, state.time, part, file});
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
    written_.push_back({0, state.time, part, file});
  }
}

void VtkSeriesWriter::write_cavities(const State& state, int frame) {
  // every cavity in one piece (cavities.pvd), then each in its own series (cavity_<id>.pvd)
  std::vector<const CavityState*> all;
  for (const CavityState& c : state.book.cavities) all.push_back(&c);
  const std::string file = frame_file_name("cavities", frame);
  write_text_file(fs::path(dir_) / file, cavities_vtu(state, all));
  written_.push_back({1, state.time, 0, file});
  for (const CavityState* c : all) {
    const std::string own = std::string(kCavitySeriesDir) + "/" + frame_file_name("cavity_" + std::to_string(c->id), frame);
    fs::create_directories(fs::path(dir_) / kCavitySeriesDir);
    write_text_file(fs::path(dir_) / own, cavities_vtu(state, {c}));
    written_.push_back({3, state.time, c->id, own});
  }
}

std::string VtkSeriesWriter::cavities_vtu(const State& state, const std::vector<const CavityState*>& cavities) const {
  Points points;
  std::vector<int> cells;
  VtuArray id{"cavity_id", 1, true, {}}, pressure{"pressure", 1, false, {}},
      gauge{"gauge_pressure", 1, false, {}}, volume{"volume", 1, false, {}}, air{"air", 1, false, {}},
      dormant{"dormant", 1, true, {}};
  for (const CavityState* cp : cavities) {
    const CavityState& c = *cp;
    const int base = static_cast<int>(points.size());
    const Points x = cavity_world_vertices(model_, state, c);
    points.insert(points.end(), x.begin(), x.end());
    for (const Tri& t : c.triangles) {
      cells.insert(cells.end(), {base + t[0], base + t[1], base + t[2]});
      id.values.push_back(c.id);
      pressure.values.push_back(c.pressure);
      gauge.values.push_back(c.pressure - model_.settings.p_atm);
      volume.values.push_back(c.volume);
      air.values.push_back(c.air);
      dormant.values.push_back(c.dormant ? 1 : 0);
    }
  }
  return vtu_text(points, cells, 3, kVtkTriangle, {},
                  {std::move(gauge), std::move(pressure), std::move(volume), std::move(air), std::move(id),
                   std::move(dormant)});
}

void VtkSeriesWriter::write_contacts(const State& state, int frame) {
  Points points, normal, force, normal_force, friction_force;
  VtuArray magnitude{"normal_force_magnitude", 1, false, {}}, body_a{"body_a", 1, true, {}},
      body_b{"body_b", 1, true, {}};
  std::vector<int> cells;
  for (const ContactForce& c : state.contacts) {
    cells.push_back(static_cast<int>(points.size()));
    points.push_back(c.point);
    normal.push_back(c.normal);
    force.push_back(c.force);
    const Vec3 fn = c.force.dot(c.normal) * c.normal;
    normal_force.push_back(fn);
    friction_force.push_back(c.force - fn);
    magnitude.values.push_back(c.local.x());
    body_a.values.push_back(c.body_a);
    body_b.values.push_back(c.body_b);
  }
  const std::string file = frame_file_name("contacts", frame);
  write_text_file(fs::path(dir_) / file,
                  vtu_text(points, cells, 1, kVtkVertex,
                           {std::move(magnitude), vector_array("normal_force", normal_force),
                            vector_array("friction_force", friction_force), vector_array("force", force),
                            vector_array("normal", normal), std::move(body_a), std::move(body_b)},
                           {}));
  written_.push_back({2, state.time, 0, file});
}

void VtkSeriesWriter::finish() {
  // series.pvd, cavities.pvd, contacts.pvd, then cavity_<id>.pvd for every cavity id written
  const char* names[] = {"series.pvd", "cavities.pvd", "contacts.pvd"};
  auto collection = [&](const std::string& name, auto&& take) {
    std::string out;
    out += "<?xml version=\"1.0\"?>\n";
    out += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
    out += "  <Collection>\n";
    for (const FrameFile& f : written_) {
      if (!take(f)) continue;
      const int part = f.series == 3 ? 0 : f.part;
      out += "    <DataSet timestep=\"" + format_double(f.time) + "\" group=\"\" part=\"" +
             std::to_string(part) + "\" file=\"" + f.file + "\"/>\n";
    }
    out += "  </Collection>\n";
    out += "</VTKFile>\n";
    write_text_file(fs::path(dir_) / name, out);
  };
  for (int series = 0; series < 3; ++series)
    collection(names[series], [&](const FrameFile& f) { return f.series == series; });
  std::set<int> ids;
  for (const FrameFile& f : written_)
    if (f.series == 3) ids.insert(f.part);
  for (int id : ids)
    collection("cavity_" + std::to_string(id) + ".pvd", [&](const FrameFile& f) { return f.series == 3 && f.part == id; });
}

}  // namespace suction
