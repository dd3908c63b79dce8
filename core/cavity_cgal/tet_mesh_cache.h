// The tetrahedral mesher's result kept in a file that every build reads (docs/decisions.md,
// "One mesh for both builds").  CGAL's Mesh_3 is deterministic within a build, but the native
// and the WebAssembly builds mesh the same surface differently (other allocator, Boost's
// multiprecision instead of GMP): a scene would not be the same program in the page.  So a
// scene may name a cache file next to "tetrahedralize"; the file holds the tets together with the
// fingerprint of the surface and the options they were made from.  A file whose fingerprint
// matches is read instead of meshing; one that does not (the scene's parameters changed the
// surface) is ignored and the surface meshed at load, as without a cache.
// No CGAL here: this file is plain text handling and hashing.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "cavity_cgal/tet_mesher.h"
#include "mesh/tet_mesh.h"

namespace suction {

/// A 64-bit fingerprint (16 hex digits) of what mesh_closed_surface would be given: the surface's
/// vertices (rounded to 1e-9 m, so that the last-bit differences of two builds' sin and cos do
/// not matter) and triangles, and every option that shapes the mesh (not the limits).
std::string meshing_fingerprint(const SurfaceMesh& surface, const TetMeshingOptions& options);

/// A cache file's text: the mesh as Gmsh ASCII 2.2 (format_gmsh, exact to the bit) followed by a
/// $SuctionMeshing section with the fingerprint (Gmsh and other readers skip the section).
std::string format_tet_cache(const TetMesh& mesh, const std::string& fingerprint);

/// What a cache file holds: its tets and the fingerprint they were made from ("" when the file
/// has no $SuctionMeshing section: a plain .msh, never taken as a match).
struct TetCache {
  TetMesh mesh;
  std::string fingerprint;
};

/// Reads a cache file.  nullopt when it does not exist; InputError naming the file and line when
/// it exists but is not a valid mesh (a broken cache is reported, not silently re-meshed).
std::optional<TetCache> read_tet_cache(const std::string& path, const MeshLimits& limits = {});

}  // namespace suction
