// Tetrahedral meshing of closed triangle surfaces with CGAL's Mesh_3 (CGAL 5.5, header-only):
// a Polyhedral_mesh_domain_with_features_3 on a Surface_mesh, its sharp edges and corners
// protected (detect_features), Delaunay refinement to the size and shape criteria, then
// sliver exudation.  See tet_mesher.h; the choice of Mesh_3 is in docs/decisions.md.
#include "cavity_cgal/cgal_exact_field.h"  // first: the exact field type without GMP

#include "cavity_cgal/tet_mesher.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Mesh_complex_3_in_triangulation_3.h>
#include <CGAL/Mesh_criteria_3.h>
#include <CGAL/Mesh_triangulation_3.h>
#include <CGAL/Polyhedral_mesh_domain_with_features_3.h>
#include <CGAL/Random.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/make_mesh_3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cavity_cgal/mesh_union.h"  // check_union_input
#include "common/error.h"

namespace suction {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Polyhedron = CGAL::Surface_mesh<Point>;
using Domain = CGAL::Polyhedral_mesh_domain_with_features_3<Kernel, Polyhedron>;
using Triangulation = CGAL::Mesh_triangulation_3<Domain, CGAL::Default, CGAL::Sequential_tag>::type;
using Complex = CGAL::Mesh_complex_3_in_triangulation_3<Triangulation, Domain::Corner_index,
                                                         Domain::Curve_index>;
using Criteria = CGAL::Mesh_criteria_3<Triangulation>;
using VertexHandle = Triangulation::Vertex_handle;

/// every length of the options resolved (the zeros replaced by their cell_size fractions),
/// checked; throws TetMeshingError naming `name` for a bad value
TetMeshingOptions resolved_options(TetMeshingOptions o, const std::string& name) {
  auto bad = [&](const std::string& what) {
    throw TetMeshingError(name + ": tetrahedral meshing: " + what);
  };
  if (!(o.cell_size > 0) || !std::isfinite(o.cell_size)) bad("cell_size must be a length > 0");
  if (o.facet_size == 0) o.facet_size = o.cell_size;
  if (o.edge_size == 0) o.edge_size = o.cell_size;
  if (o.facet_distance == 0) o.facet_distance = o.cell_size / 10;
  for (double v : {o.facet_size, o.edge_size, o.facet_distance})
    if (!(v > 0) || !std::isfinite(v)) bad("facet_size, edge_size and facet_distance must be lengths > 0");
  // Mesh_3 terminates for facet angles up to 30 degrees and radius-edge ratios down to 2
  if (!(o.facet_angle_deg > 0 && o.facet_angle_deg <= 30)) bad("facet_angle_deg must be in (0, 30]");
  if (!(o.radius_edge_ratio >= 2) || !std::isfinite(o.radius_edge_ratio)) bad("radius_edge_ratio must be >= 2");
  if (!(o.feature_angle_deg > 0 && o.feature_angle_deg < 180)) bad("feature_angle_deg must be in (0, 180)");
  if (!(o.sliver_radius_ratio >= 0 && o.sliver_radius_ratio < 1)) bad("sliver_radius_ratio must be in [0, 1)");
  if (!(o.perturb_dihedral_deg >= 0 && o.perturb_dihedral_deg < 30)) bad("perturb_dihedral_deg must be in [0, 30)");
  return o;
}

Polyhedron to_surface_mesh(const SurfaceMesh& s) {
  Polyhedron m;
  std::vector<Polyhedron::Vertex_index> v;
  v.reserve(s.vertices.size());
  for (const Vec3& x : s.vertices) v.push_back(m.add_vertex(Point(x.x(), x.y(), x.z())));
  for (const Tri& t : s.triangles) m.add_face(v[t[0]], v[t[1]], v[t[2]]);
  return m;
}

/// the four faces of tet t, each as sorted node triple
std::array<Tri, 4> sorted_faces(const Tet& t) {
  std::array<Tri, 4> f;
  for (int skip = 0; skip < 4; ++skip) {
    Tri tri{};
    for (int k = 0, j = 0; k < 4; ++k)
      if (k != skip) tri[j++] = t[k];
    std::sort(tri.begin(), tri.end());
    f[skip] = tri;
  }
  return f;
}

/// V - E + F of the boundary of m, and whether that boundary is a closed 2-manifold
/// (every edge in exactly two boundary triangles)
std::pair<long, bool> boundary_topology(const TetMesh& m) {
  const BoundarySurface b = extract_boundary(m);
  std::map<std::pair<int, int>, int> edges;
  for (const Tri& t : b.surface.triangles)
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], c = t[(k + 1) % 3];
      ++edges[{std::min(a, c), std::max(a, c)}];
    }
  bool manifold = true;
  for (const auto& [e, n] : edges) manifold = manifold && n == 2;
  const long chi = static_cast<long>(b.surface.vertices.size()) - static_cast<long>(edges.size()) +
                   static_cast<long>(b.surface.triangles.size());
  return {chi, manifold};
}

/// m without its unused nodes (indices renumbered in order of first use)
void drop_unused_nodes(TetMesh& m) {
  std::vector<int> new_index(m.nodes.size(), -1);
  Points nodes;
  for (Tet& t : m.tets)
    for (int& n : t) {
      if (new_index[n] < 0) {
        new_index[n] = static_cast<int>(nodes.size());
        nodes.push_back(m.nodes[n]);
      }
      n = new_index[n];
    }
  m.nodes = std::move(nodes);
}

/// Removes the flat tets (radius ratio < floor) with two or more faces on the boundary: the
/// slivers the exuder leaves where four surface vertices are nearly coplanar.  Removing one
/// exposes its other faces and changes the volume by its own (tiny) volume.  The removal is
/// kept only when the boundary stays a closed 2-manifold of the same Euler characteristic.
int remove_boundary_slivers(TetMesh& m, double floor) {
  if (floor <= 0) return 0;
  const auto [chi_before, manifold_before] = boundary_topology(m);
  TetMesh trial = m;
  int removed = 0;
  for (int pass = 0; pass < 4; ++pass) {
    std::map<Tri, int> face_count;
    for (const Tet& t : trial.tets)
      for (const Tri& f : sorted_faces(t)) ++face_count[f];
    std::vector<Tet> kept;
    kept.reserve(trial.tets.size());
    int removed_now = 0;
    for (const Tet& t : trial.tets) {
      const auto& x = trial.nodes;
      const double q = tet_radius_ratio(x[t[0]], x[t[1]], x[t[2]], x[t[3]]);
      int on_boundary = 0;
      if (q < floor)
        for (const Tri& f : sorted_faces(t)) on_boundary += face_count[f] == 1;
      if (on_boundary >= 2) ++removed_now;
      else kept.push_back(t);
    }
    if (removed_now == 0) break;
    trial.tets = std::move(kept);
    removed += removed_now;
  }
  if (removed == 0 || trial.tets.empty()) return 0;
  drop_unused_nodes(trial);
  const auto [chi_after, manifold_after] = boundary_topology(trial);
  if (manifold_before && (!manifold_after || chi_after != chi_before)) return 0;
  m = std::move(trial);
  return removed;
}

/// the tets of the complex (the cells inside the domain), nodes numbered in order of first use
TetMesh extract_tets(const Complex& c3t3) {
  TetMesh out;
  std::map<VertexHandle, int> index;
  for (auto c = c3t3.cells_in_complex_begin(); c != c3t3.cells_in_complex_end(); ++c) {
    Tet t{};
    for (int k = 0; k < 4; ++k) {
      const VertexHandle v = c->vertex(k);
      auto [it, inserted] = index.emplace(v, static_cast<int>(out.nodes.size()));
      if (inserted) {
        const auto& p = v->point();  // a weighted point (Mesh_3 refines a regular triangulation)
        out.nodes.emplace_back(CGAL::to_double(p.x()), CGAL::to_double(p.y()), CGAL::to_double(p.z()));
      }
      t[k] = it->second;
    }
    // CGAL's cells are positively oriented, (p1-p0)·((p2-p0)×(p3-p0)) > 0 as TetMesh wants;
    // the coordinates rounded to doubles keep the sign of all but flat tets: make sure
    const auto& x = out.nodes;
    if (tet_signed_volume(x[t[0]], x[t[1]], x[t[2]], x[t[3]]) < 0) std::swap(t[2], t[3]);
    out.tets.push_back(t);
  }
  return out;
}

/// Restores CGAL's default random generator on scope exit (the meshing seeds it).
class DefaultRandomScope {
 public:
  explicit DefaultRandomScope(unsigned int seed) : saved_(CGAL::get_default_random()) {
    CGAL::get_default_random() = CGAL::Random(seed);
  }
  ~DefaultRandomScope() { CGAL::get_default_random() = saved_; }
  DefaultRandomScope(const DefaultRandomScope&) = delete;
  DefaultRandomScope& operator=(const DefaultRandomScope&) = delete;

 private:
  CGAL::Random saved_;
};

}  // namespace

TetMesh mesh_closed_surface(const SurfaceMesh& surface, const TetMeshingOptions& options_in,
                            const std::string& name, TetMeshingReport* report) {
  const auto start = std::chrono::steady_clock::now();
  const TetMeshingOptions o = resolved_options(options_in, name);

  // the input: closed, outward, 2-manifold, no self-intersection (the union's own check)
  try {
    check_union_input(UnionMesh{surface.vertices, surface.triangles, false, {}, {}}, name);
  } catch (const MeshUnionError& e) {
    throw TetMeshingError(std::string(e.what()) + " (a tetrahedral mesh needs a closed surface "
                                                  "without self-intersections)");
  }
  // a cell_size far too small for the solid would refine for minutes: estimate the count
  // first (a regular tet of edge h has volume h³/(6√2))
  const double volume = enclosed_volume(surface);
  const double h = o.cell_size;
  const double estimated_tets = volume / (h * h * h / (6.0 * std::sqrt(2.0)));
  try {
    check_mesh_limit(estimated_tets, o.limits.max_elements, "tetrahedra (estimated from cell_size)",
                     "max_elements", name);
  } catch (const InputError& e) {
    throw TetMeshingError(e.what());
  }

  TetMesh mesh;
  try {
    DefaultRandomScope random_scope(o.seed);
    CGAL::Random domain_random(o.seed);
    const Polyhedron polyhedron = to_surface_mesh(surface);
    Domain domain(polyhedron, &domain_random);
    if (o.sharp_features) domain.detect_features(o.feature_angle_deg);

    namespace params = CGAL::parameters;
    const Criteria criteria(params::edge_size = o.edge_size, params::facet_angle = o.facet_angle_deg,
                            params::facet_size = o.facet_size,
                            params::facet_distance = o.facet_distance,
                            params::cell_radius_edge_ratio = o.radius_edge_ratio,
                            params::cell_size = o.cell_size);
    // no Lloyd / ODT smoothing; the sliver perturber (its random moves from a generator of
    // its own with a fixed seed) and the exuder (sliver removal by weights) run without a
    // time limit, so their result does not depend on the machine's speed.  Without the
    // perturber a box corner's protecting balls can leave an interior tet flat to rounding
    // (measured on the tunnel block at cell_size 2.4 mm); a bound of 10° instead of 5° cost
    // up to 6 s on the coarse tunnel block for no better worst tet.
    const auto perturb = o.perturb_dihedral_deg > 0
                             ? params::perturb(params::time_limit = 0, params::sliver_bound = o.perturb_dihedral_deg)
                             : params::no_perturb();
    const Complex c3t3 = CGAL::make_mesh_3<Complex>(domain, criteria, perturb,
                                                    params::exude(params::time_limit = 0),
                                                    params::manifold());
    mesh = extract_tets(c3t3);
  } catch (const TetMeshingError&) {
    throw;
  } catch (const std::exception& e) {
    throw TetMeshingError(name + ": tetrahedral meshing failed in CGAL Mesh_3: " + e.what());
  } catch (...) {
    throw TetMeshingError(name + ": tetrahedral meshing failed in CGAL Mesh_3 (unknown exception)");
  }
  if (mesh.tets.empty())
    throw TetMeshingError(name + ": tetrahedral meshing produced no tetrahedra (is the surface "
                                 "much smaller than cell_size, or inside out?)");

  const int removed = remove_boundary_slivers(mesh, o.sliver_radius_ratio);
  try {
    check_mesh_limit(static_cast<double>(mesh.nodes.size()), o.limits.max_nodes, "nodes", "max_nodes", name);
    check_mesh_limit(static_cast<double>(mesh.tets.size()), o.limits.max_elements, "tetrahedra",
                     "max_elements", name);
    validate_tet_mesh(mesh, name);
  } catch (const InputError& e) {
    throw TetMeshingError(std::string(e.what()) + " (after tetrahedral meshing)");
  }

  if (report) {
    report->removed_slivers = removed;
    double q = 1.0;
    for (const Tet& t : mesh.tets)
      q = std::min(q, tet_radius_ratio(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]]));
    report->min_radius_ratio = q;
    report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return mesh;
}

}  // namespace suction
