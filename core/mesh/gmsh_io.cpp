// Gmsh .msh reader (ASCII, format 2.x, 4.0 and 4.1): the 4-node tetrahedra and their nodes;
// and a writer (ASCII 2.2) whose output the reader gives back exactly.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <unordered_map>

#include "common/error.h"
#include "mesh/mesh_io.h"
#include "mesh/mesh_text.h"

namespace suction {

namespace {

using mesh_text::LineReader;
using Tokens = std::vector<std::string_view>;

constexpr long long kTetrahedron = 4;  // gmsh element type of the 4-node tetrahedron

struct RawMesh {
  Points nodes;                                    // in file order [m]
  std::unordered_map<long long, int> node_of_tag;  // gmsh node tag -> index in nodes
  std::vector<std::array<long long, 4>> tet_tags;  // node tags of each tetrahedron
  std::vector<int> tet_line;                       // line of each tetrahedron
};

enum class Version { v2, v40, v41 };

void add_node(LineReader& in, RawMesh& raw, long long tag, const Tokens& xyz, size_t first) {
  if (xyz.size() < first + 3) in.fail("expected x y z coordinates of node " + std::to_string(tag));
  const Vec3 x(in.to_double(xyz[first], "(x)"), in.to_double(xyz[first + 1], "(y)"),
               in.to_double(xyz[first + 2], "(z)"));
  if (!raw.node_of_tag.emplace(tag, static_cast<int>(raw.nodes.size())).second)
    in.fail("duplicate node tag " + std::to_string(tag));
  raw.nodes.push_back(x);
}

// one element line "tag n1 ... nk" (after the v2 header fields, from `first` on)
void add_element(LineReader& in, RawMesh& raw, long long type, const Tokens& t, size_t first) {
  if (type != kTetrahedron) return;  // points, lines, triangles, hexahedra ... are ignored
  if (t.size() != first + 4)
    in.fail("expected 4 node tags for a tetrahedron, got " + std::to_string(t.size() - std::min(t.size(), first)));
  std::array<long long, 4> tags;
  for (int k = 0; k < 4; ++k) tags[k] = in.to_int(t[first + k], "(node tag)");
  raw.tet_tags.push_back(tags);
  raw.tet_line.push_back(in.line_number());
}

void read_nodes(LineReader& in, Version version, RawMesh& raw) {
  if (version == Version::v2) {
    // count, then "tag x y z" lines
    const long long count = in.to_int(in.expect_tokens("the node count")[0], "(node count)");
    for (long long i = 0; i < count; ++i) {
      const Tokens t = in.expect_tokens("a node line 'tag x y z'");
      add_node(in, raw, in.to_int(t[0], "(node tag)"), t, 1);
    }
  } else {
    // v4: entity blocks; 4.1 lists a block's tags first, then its coordinates
    const long long blocks = in.to_int(in.expect_tokens("the node block count")[0], "(block count)");
    for (long long b = 0; b < blocks; ++b) {
      const Tokens header = in.expect_tokens("a node block header");
      if (header.size() < 4) in.fail("expected 4 numbers in a node block header");
      const long long count = in.to_int(header[3], "(nodes in block)");
      if (version == Version::v40) {
        for (long long i = 0; i < count; ++i) {
          const Tokens t = in.expect_tokens("a node line 'tag x y z'");
          add_node(in, raw, in.to_int(t[0], "(node tag)"), t, 1);
        }
        continue;
      }
      std::vector<long long> tags;
      while (static_cast<long long>(tags.size()) < count)
        for (std::string_view token : in.expect_tokens("node tags"))
          tags.push_back(in.to_int(token, "(node tag)"));
      if (static_cast<long long>(tags.size()) != count) in.fail("too many node tags in block");
      for (long long i = 0; i < count; ++i) add_node(in, raw, tags[i], in.expect_tokens("node coordinates"), 0);
    }
  }
  const Tokens end = in.expect_tokens("$EndNodes");
  if (end[0] != "$EndNodes") in.fail("expected $EndNodes, got '" + std::string(end[0]) + "'");
}

void read_elements(LineReader& in, Version version, RawMesh& raw) {
  if (version == Version::v2) {
    // count, then "tag type n_tags tag... node..." lines
    const long long count = in.to_int(in.expect_tokens("the element count")[0], "(element count)");
    for (long long i = 0; i < count; ++i) {
      const Tokens t = in.expect_tokens("an element line");
      if (t.size() < 3) in.fail("expected 'tag type n_tags ...' in an element line");
      const long long type = in.to_int(t[1], "(element type)");
      const long long n_tags = in.to_int(t[2], "(number of tags)");
      if (n_tags < 0 || n_tags > static_cast<long long>(t.size()) - 3) in.fail("bad number of element tags");
      add_element(in, raw, type, t, static_cast<size_t>(3 + n_tags));
    }
  } else {
    // v4: entity blocks "dim entity type count" (4.0: "entity dim type count")
    const long long blocks = in.to_int(in.expect_tokens("the element block count")[0], "(block count)");
    for (long long b = 0; b < blocks; ++b) {
      const Tokens header = in.expect_tokens("an element block header");
      if (header.size() < 4) in.fail("expected 4 numbers in an element block header");
      const long long type = in.to_int(header[2], "(element type)");
      const long long count = in.to_int(header[3], "(elements in block)");
      for (long long i = 0; i < count; ++i) add_element(in, raw, type, in.expect_tokens("an element line"), 1);
    }
  }
  const Tokens end = in.expect_tokens("$EndElements");
  if (end[0] != "$EndElements") in.fail("expected $EndElements, got '" + std::string(end[0]) + "'");
}

}  // namespace

TetMesh parse_gmsh(const std::string& text, const std::string& name, const MeshLimits& limits) {
  LineReader in(text, name);
  RawMesh raw;
  bool have_format = false;
  Version version = Version::v2;
  Tokens t;
  while (in.next_tokens(t)) {
    const std::string_view section = t[0];
    if (section.empty() || section[0] != '$') in.fail("expected a section like $Nodes, got '" + std::string(section) + "'");
    if (section == "$MeshFormat") {
      const Tokens format = in.expect_tokens("'version file-type data-size'");
      if (format.size() < 2) in.fail("expected 'version file-type data-size'");
      if (format[1] != "0") in.fail("binary .msh not supported, save as ASCII");
      const std::string v(format[0]);
      if (v.rfind("2.", 0) == 0) version = Version::v2;
      else if (v == "4" || v == "4.0") version = Version::v40;
      else if (v.rfind("4.1", 0) == 0) version = Version::v41;
      else in.fail("unsupported .msh version " + v + " (expected 2.2 or 4.1)");
      have_format = true;
      const Tokens end = in.expect_tokens("$EndMeshFormat");
      if (end[0] != "$EndMeshFormat") in.fail("expected $EndMeshFormat");
    } else if (section == "$Nodes" || section == "$Elements") {
      if (!have_format) in.fail("missing $MeshFormat before " + std::string(section));
      if (section == "$Nodes") read_nodes(in, version, raw);
      else read_elements(in, version, raw);
    } else if (section == "$NOD" || section == "$ELM") {
      in.fail("gmsh format 1 not supported, save as version 2.2 or 4.1 ASCII");
    } else {
      // any other section ($PhysicalNames, $Entities, $NodeData ...) is skipped
      const std::string end = "$End" + std::string(section.substr(1));
      const int start = in.line_number();
      std::string_view line;
      bool closed = false;
      while (!closed && in.next_line(line)) {
        const Tokens l = mesh_text::split(line);
        closed = !l.empty() && l[0] == end;
      }
      if (!closed) in.fail_at(start, "section " + std::string(section) + " has no " + end);
    }
  }
  if (raw.tet_tags.empty()) throw InputError(name + ": no tetrahedra (element type 4) found");
  check_mesh_limit(double(raw.tet_tags.size()), limits.max_elements, "tetrahedra", "max_elements", name);

  // keep the nodes used by a tetrahedron, in file order
  std::vector<std::array<int, 4>> tets(raw.tet_tags.size());
  std::vector<int> new_index(raw.nodes.size(), -1);
  for (size_t e = 0; e < raw.tet_tags.size(); ++e)
    for (int k = 0; k < 4; ++k) {
      const auto it = raw.node_of_tag.find(raw.tet_tags[e][k]);
      if (it == raw.node_of_tag.end())
        in.fail_at(raw.tet_line[e], "tetrahedron refers to unknown node tag " + std::to_string(raw.tet_tags[e][k]));
      tets[e][k] = it->second;
      new_index[it->second] = 0;
    }
  TetMesh mesh;
  check_mesh_limit(double(std::count(new_index.begin(), new_index.end(), 0)), limits.max_nodes, "nodes",
                   "max_nodes", name);
  for (size_t i = 0; i < raw.nodes.size(); ++i)
    if (new_index[i] == 0) {
      new_index[i] = static_cast<int>(mesh.nodes.size());
      mesh.nodes.push_back(raw.nodes[i]);
    }
  // positive orientation: swap two nodes of the inverted tetrahedra
  for (auto& tet : tets) {
    Tet t = {new_index[tet[0]], new_index[tet[1]], new_index[tet[2]], new_index[tet[3]]};
    if (tet_signed_volume(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]]) < 0)
      std::swap(t[2], t[3]);
    mesh.tets.push_back(t);
  }
  return mesh;
}

TetMesh read_gmsh(const std::string& path, const MeshLimits& limits) {
  return parse_gmsh(mesh_text::read_file(path), path, limits);
}

std::string format_gmsh(const TetMesh& mesh) {
  std::string out = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" + std::to_string(mesh.nodes.size()) + "\n";
  char line[160];
  for (size_t i = 0; i < mesh.nodes.size(); ++i) {
    const Vec3& x = mesh.nodes[i];  // %.17g: every double read back bit for bit
    std::snprintf(line, sizeof line, "%zu %.17g %.17g %.17g\n", i + 1, x.x(), x.y(), x.z());
    out += line;
  }
  out += "$EndNodes\n$Elements\n" + std::to_string(mesh.tets.size()) + "\n";
  for (size_t k = 0; k < mesh.tets.size(); ++k) {
    const Tet& t = mesh.tets[k];  // type 4 (tetrahedron), tags: physical 0, elementary 1
    std::snprintf(line, sizeof line, "%zu 4 2 0 1 %d %d %d %d\n", k + 1, t[0] + 1, t[1] + 1, t[2] + 1, t[3] + 1);
    out += line;
  }
  out += "$EndElements\n";
  return out;
}

void write_gmsh(const std::string& path, const TetMesh& mesh) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw InputError(path + ": cannot open for writing");
  f << format_gmsh(mesh);
  f.close();
  if (!f) throw InputError(path + ": write failed");
}

}  // namespace suction
