// The mesher's result in a file both builds read (tet_mesh_cache.h).
#include "cavity_cgal/tet_mesh_cache.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "mesh/mesh_io.h"

namespace suction {

namespace {

constexpr const char* kSection = "$SuctionMeshing";
constexpr const char* kSectionEnd = "$EndSuctionMeshing";
// bumped when the meaning of the hashed data changes (a new option, another rounding)
constexpr std::int64_t kFingerprintVersion = 1;

/// FNV-1a over 64-bit integers, byte by byte in a fixed (little-endian) order
struct Fnv1a {
  std::uint64_t h = 1469598103934665603ull;
  void add(std::int64_t v) {
    auto u = static_cast<std::uint64_t>(v);
    for (int k = 0; k < 8; ++k) {
      h ^= (u >> (8 * k)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  /// a length or a ratio, rounded to 1e-9 (of a metre, or of a unit ratio)
  void add_rounded(double x) { add(std::llround(x * 1e9)); }
};

}  // namespace

std::string meshing_fingerprint(const SurfaceMesh& surface, const TetMeshingOptions& o) {
  Fnv1a f;
  f.add(kFingerprintVersion);
  f.add(static_cast<std::int64_t>(surface.vertices.size()));
  for (const Vec3& x : surface.vertices)
    for (int i = 0; i < 3; ++i) f.add_rounded(x[i]);
  f.add(static_cast<std::int64_t>(surface.triangles.size()));
  for (const auto& t : surface.triangles)
    for (int i = 0; i < 3; ++i) f.add(t[i]);
  for (double v : {o.cell_size, o.facet_size, o.edge_size, o.facet_distance, o.facet_angle_deg, o.radius_edge_ratio,
                   o.feature_angle_deg, o.perturb_dihedral_deg, o.sliver_radius_ratio})
    f.add_rounded(v);
  f.add(o.sharp_features ? 1 : 0);
  f.add(static_cast<std::int64_t>(o.seed));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(f.h));
  return hex;
}

std::string format_tet_cache(const TetMesh& mesh, const std::string& fingerprint) {
  return format_gmsh(mesh) + kSection + "\nfingerprint " + fingerprint + "\n" + kSectionEnd + "\n";
}

std::optional<TetCache> read_tet_cache(const std::string& path, const MeshLimits& limits) {
  std::ifstream f(path, std::ios::binary);
  if (!f.is_open()) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  TetCache cache;
  cache.mesh = parse_gmsh(text, path, limits);  // InputError naming the file and line
  const size_t at = text.find(std::string("\n") + kSection + "\n");
  if (at != std::string::npos) {
    std::istringstream section(text.substr(at + 1 + std::string(kSection).size() + 1));
    std::string key, value;
    if (!(section >> key >> value) || key != "fingerprint" || value.size() != 16)
      throw InputError(path + ": section " + kSection + " should hold 'fingerprint' and 16 hex digits");
    cache.fingerprint = value;
  }
  return cache;
}

}  // namespace suction
