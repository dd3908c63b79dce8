// Surface readers: Wavefront OBJ and STL (ASCII or binary), and dispatch by extension.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>

#include "mesh/mesh_io.h"
#include "mesh/mesh_text.h"

namespace suction {

namespace {

using mesh_text::LineReader;

// keeps only the vertices some triangle uses, in their original order
SurfaceMesh drop_unused_vertices(const Points& vertices, const std::vector<Tri>& triangles) {
  std::vector<int> new_index(vertices.size(), -1);
  for (const Tri& t : triangles)
    for (int v : t) new_index[v] = 0;
  SurfaceMesh s;
  for (size_t i = 0; i < vertices.size(); ++i)
    if (new_index[i] == 0) {
      new_index[i] = static_cast<int>(s.vertices.size());
      s.vertices.push_back(vertices[i]);
    }
  for (const Tri& t : triangles) s.triangles.push_back({new_index[t[0]], new_index[t[1]], new_index[t[2]]});
  return s;
}

// merges exactly coincident vertices; drops the triangles that collapse
class VertexMerger {
 public:
  int add(const Vec3& x) {
    const auto [it, inserted] = index_.emplace(std::array<double, 3>{x.x(), x.y(), x.z()},
                                               static_cast<int>(mesh_.vertices.size()));
    if (inserted) mesh_.vertices.push_back(x);
    return it->second;
  }
  void add_triangle(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Tri t = {add(a), add(b), add(c)};
    if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) mesh_.triangles.push_back(t);
  }
  SurfaceMesh take() { return drop_unused_vertices(mesh_.vertices, mesh_.triangles); }

 private:
  std::map<std::array<double, 3>, int> index_;
  SurfaceMesh mesh_;
};

// the counts of a surface read from a file, against the limits
SurfaceMesh checked(SurfaceMesh s, const std::string& name, const MeshLimits& limits) {
  check_mesh_limit(double(s.triangles.size()), limits.max_triangles, "triangles", "max_triangles", name);
  check_mesh_limit(double(s.vertices.size()), limits.max_nodes, "vertices", "max_nodes", name);
  return s;
}

SurfaceMesh parse_ascii_stl(const std::string& text, const std::string& name) {
  LineReader in(text, name);
  VertexMerger merger;
  std::vector<Vec3> loop;  // vertices of the current facet
  bool in_facet = false;
  std::vector<std::string_view> t;
  while (in.next_tokens(t)) {
    const std::string_view key = t[0];
    if (key == "solid" || key == "endsolid" || key == "outer" || key == "endloop") continue;
    if (key == "facet") {
      if (in_facet) in.fail("'facet' inside a facet (missing 'endfacet')");
      in_facet = true;
      loop.clear();
    } else if (key == "vertex") {
      if (!in_facet) in.fail("'vertex' outside a facet");
      if (t.size() < 4) in.fail("expected 'vertex x y z'");
      loop.emplace_back(in.to_double(t[1], "(x)"), in.to_double(t[2], "(y)"), in.to_double(t[3], "(z)"));
    } else if (key == "endfacet") {
      if (!in_facet) in.fail("'endfacet' without 'facet'");
      if (loop.size() < 3) in.fail("a facet needs 3 vertices, got " + std::to_string(loop.size()));
      for (size_t k = 1; k + 1 < loop.size(); ++k) merger.add_triangle(loop[0], loop[k], loop[k + 1]);
      in_facet = false;
    } else {
      in.fail("unexpected '" + std::string(key) + "' in an ASCII STL");
    }
  }
  if (in_facet) in.fail("unexpected end of file inside a facet");
  SurfaceMesh s = merger.take();
  if (s.triangles.empty()) throw InputError(name + ": no triangles");
  return s;
}

SurfaceMesh parse_binary_stl(const std::string& bytes, const std::string& name) {
  // 80-byte header, uint32 count, then per triangle: normal, 3 vertices (float32), uint16
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);  // little endian, as on every supported target
  VertexMerger merger;
  for (std::uint32_t i = 0; i < count; ++i) {
    const char* record = bytes.data() + 84 + 50 * static_cast<size_t>(i);
    Vec3 v[3];
    for (int k = 0; k < 3; ++k) {
      float xyz[3];
      std::memcpy(xyz, record + 12 + 12 * k, 12);
      v[k] = Vec3(xyz[0], xyz[1], xyz[2]);
      // NaN would also break the vertex merging (its map needs an ordering)
      if (!v[k].allFinite())
        throw InputError(name + ": triangle " + std::to_string(i) + ", vertex " + std::to_string(k) +
                         ": a coordinate is not a finite number");
    }
    merger.add_triangle(v[0], v[1], v[2]);
  }
  SurfaceMesh s = merger.take();
  if (s.triangles.empty()) throw InputError(name + ": no triangles");
  return s;
}

}  // namespace

SurfaceMesh parse_obj(const std::string& text, const std::string& name, const MeshLimits& limits) {
  LineReader in(text, name);
  Points vertices;
  std::vector<Tri> triangles;
  std::vector<std::string_view> t;
  std::vector<int> polygon;
  while (in.next_tokens(t)) {
    if (t[0] == "v") {
      if (t.size() < 4) in.fail("expected 'v x y z'");
      vertices.emplace_back(in.to_double(t[1], "(x)"), in.to_double(t[2], "(y)"), in.to_double(t[3], "(z)"));
    } else if (t[0] == "f") {
      if (t.size() < 4) in.fail("a face needs at least 3 vertices");
      // each corner is v, v/vt, v//vn or v/vt/vn; negative indices count back from the end
      polygon.clear();
      const long long n = static_cast<long long>(vertices.size());
      for (size_t k = 1; k < t.size(); ++k) {
        const std::string_view corner = t[k].substr(0, t[k].find('/'));
        const long long index = in.to_int(corner, "(vertex index)");
        const long long resolved = index < 0 ? n + index : index - 1;
        if (index == 0 || resolved < 0 || resolved >= n)
          in.fail("vertex index " + std::to_string(index) + " out of range (" + std::to_string(n) +
                  " vertices defined so far)");
        polygon.push_back(static_cast<int>(resolved));
      }
      for (size_t k = 1; k + 1 < polygon.size(); ++k)  // fan triangulation
        triangles.push_back({polygon[0], polygon[k], polygon[k + 1]});
    } else if (t[0][0] == '#') {
      continue;  // comment; vt, vn, o, g, s, usemtl, mtllib ... are ignored too
    }
  }
  if (triangles.empty()) throw InputError(name + ": no faces");
  return checked(drop_unused_vertices(vertices, triangles), name, limits);
}

SurfaceMesh parse_stl(const std::string& bytes, const std::string& name, const MeshLimits& limits) {
  // binary when the size matches the count in the header (some binary files start "solid")
  if (bytes.size() >= 84) {
    std::uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() == 84 + 50 * static_cast<size_t>(count)) {
      check_mesh_limit(count, limits.max_triangles, "triangles", "max_triangles", name);
      return checked(parse_binary_stl(bytes, name), name, limits);
    }
  }
  const size_t first = bytes.find_first_not_of(" \t\r\n");
  const bool ascii = first != std::string::npos && bytes.compare(first, 5, "solid") == 0 &&
                     bytes.find("facet") != std::string::npos;
  if (ascii) return checked(parse_ascii_stl(bytes, name), name, limits);
  if (bytes.size() < 84) throw InputError(name + ": not an STL file (too short for a binary STL)");
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);
  throw InputError(name + ": binary STL header announces " + std::to_string(count) +
                   " triangles, which needs " + std::to_string(84 + 50 * static_cast<size_t>(count)) +
                   " bytes, but the file has " + std::to_string(bytes.size()));
}

SurfaceMesh read_obj(const std::string& path, const MeshLimits& limits) {
  return parse_obj(mesh_text::read_file(path), path, limits);
}

SurfaceMesh read_stl(const std::string& path, const MeshLimits& limits) {
  return parse_stl(mesh_text::read_file(path), path, limits);
}

SurfaceMesh read_surface(const std::string& path, const MeshLimits& limits) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".obj") return read_obj(path, limits);
  if (ext == ".stl") return read_stl(path, limits);
  if (ext == ".msh") return extract_boundary(read_gmsh(path, limits)).surface;
  throw InputError("'" + path + "': unknown mesh format '" + ext + "' (expected .obj, .stl or .msh)");
}

}  // namespace suction
