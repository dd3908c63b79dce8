// Boolean union of closed triangle meshes with CGAL's Polygon Mesh Processing corefinement
// (CGAL 5.5, Surface_mesh, Exact_predicates_inexact_constructions_kernel).
// CGAL is included only in this target, core/cavity_cgal (see mesh_union.h).
//
// Provenance of the output faces: every input face carries an integer property
// "f:suction_origin" = K * (input triangle index) + body, K the number of meshes.
// Corefinement splits input faces in place (the visitor copies the property of the split face
// onto its subfaces), then copies the faces that bound the union into the output mesh (the
// visitor copies the property across).  A group of K > 2 meshes is united one mesh at a time
// into the running union, whose faces keep their codes through every corefinement.
#include "cavity_cgal/mesh_union.h"

// first: the exact field type CGAL uses without GMP (the WebAssembly build), which must be the
// same in every translation unit of this target (cgal_exact_field.h says why)
#include "cavity_cgal/cgal_exact_field.h"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/connected_components.h>
#include <CGAL/Polygon_mesh_processing/corefinement.h>
#include <CGAL/Polygon_mesh_processing/orientation.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/box_intersection_d.h>
#include <CGAL/boost/graph/helpers.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace suction {
namespace {

namespace PMP = CGAL::Polygon_mesh_processing;
namespace params = CGAL::parameters;

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Mesh = CGAL::Surface_mesh<Point>;
using VertexIndex = Mesh::Vertex_index;
using FaceIndex = Mesh::Face_index;
using OriginMap = Mesh::Property_map<FaceIndex, int>;

constexpr const char* kOriginProperty = "f:suction_origin";
constexpr int kUntracked = -1;

OriginMap origin_map(Mesh& m) {
  return m.add_property_map<FaceIndex, int>(kOriginProperty, kUntracked).first;
}

// Whether m (built from in) self-intersects: every pair of faces, or for a rigid motion of a
// checked mesh (UnionMesh::rigid_motion_of_checked) only the faces around the moved vertices.
// Their faces are the only ones that changed, so an intersection the offset created is between
// one of them and a face whose box meets its box: those faces are checked, pairwise.
bool self_intersects(const UnionMesh& in, const Mesh& m) {
  if (!in.rigid_motion_of_checked) return PMP::does_self_intersect(m);
  if (in.moved.empty()) return false;
  std::vector<char> moved(in.vertices.size(), 0);
  for (int v : in.moved)
    if (v >= 0 && v < static_cast<int>(moved.size())) moved[v] = 1;
  using Box = CGAL::Box_intersection_d::Box_with_info_d<double, 3, std::size_t>;
  std::vector<Box> all, changed;
  all.reserve(in.triangles.size());
  for (std::size_t f = 0; f < in.triangles.size(); ++f) {
    const Tri& t = in.triangles[f];
    CGAL::Bbox_3 box;
    for (int v : t) box += CGAL::Bbox_3(in.vertices[v].x(), in.vertices[v].y(), in.vertices[v].z(),
                                        in.vertices[v].x(), in.vertices[v].y(), in.vertices[v].z());
    all.emplace_back(box, f);
    if (moved[t[0]] || moved[t[1]] || moved[t[2]]) changed.emplace_back(box, f);
  }
  if (changed.empty()) return false;
  std::vector<char> near(in.triangles.size(), 0);
  for (const Box& b : changed) near[b.info()] = 1;
  CGAL::box_intersection_d(changed.begin(), changed.end(), all.begin(), all.end(),
                           [&](const Box&, const Box& b) { near[b.info()] = 1; });
  std::vector<FaceIndex> faces;
  for (std::size_t f = 0; f < near.size(); ++f)
    if (near[f]) faces.push_back(FaceIndex(static_cast<Mesh::size_type>(f)));
  return PMP::does_self_intersect(faces, m);
}

// The pairs of m's triangles that cross, and the mean centroid of the triangles in them.
std::pair<std::vector<std::array<int, 2>>, Vec3> crossings(const Mesh& m) {
  std::vector<std::pair<FaceIndex, FaceIndex>> pairs;
  PMP::self_intersections(m, std::back_inserter(pairs));
  std::vector<std::array<int, 2>> out;
  Vec3 sum = Vec3::Zero();
  for (const auto& [f, g] : pairs) {
    const int a = static_cast<int>(f.idx()), b = static_cast<int>(g.idx());
    out.push_back({std::min(a, b), std::max(a, b)});
    for (FaceIndex h : {f, g})
      for (VertexIndex v : CGAL::vertices_around_face(m.halfedge(h), m)) {
        const Point& q = m.point(v);
        sum += Vec3(CGAL::to_double(q.x()), CGAL::to_double(q.y()), CGAL::to_double(q.z())) / 3.0;
      }
  }
  std::sort(out.begin(), out.end());
  return {out, out.empty() ? sum : Vec3(sum / (2.0 * static_cast<double>(out.size())))};
}

// Undoes the crossings of m's triangles by smoothing the patch around them, in the union's copy
// only: each round moves every vertex of a crossing triangle (and, from the fourth round on, its
// neighbours) halfway to the mean of its neighbours, all at once (Jacobi: the order of the
// vertices does not matter), until no two triangles cross.  A crossing of a deformed surface is
// a pleat of a few triangles (a skirt folded through its lip), which this flattens; the faces
// keep their input triangles, and the cavity built on them is evaluated at the real positions.
bool untangle(Mesh& m, double& max_move) {
  constexpr int kRounds = 12;
  std::vector<Point> start;
  for (VertexIndex v : m.vertices()) start.push_back(m.point(v));
  const auto moved_most = [&] {
    double most = 0.0;
    for (VertexIndex v : m.vertices())
      most = std::max(most, std::sqrt(CGAL::squared_distance(m.point(v), start[v.idx()])));
    return most;
  };
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::pair<FaceIndex, FaceIndex>> pairs;
    PMP::self_intersections(m, std::back_inserter(pairs));
    if (pairs.empty()) {
      max_move = moved_most();
      return true;
    }
    std::vector<char> patch(m.number_of_vertices(), 0);
    for (const auto& [f, g] : pairs)
      for (FaceIndex h : {f, g})
        for (VertexIndex v : CGAL::vertices_around_face(m.halfedge(h), m)) patch[v.idx()] = 1;
    if (round >= 3) {  // grow the patch by a ring
      std::vector<char> grown = patch;
      for (VertexIndex v : m.vertices())
        if (patch[v.idx()])
          for (VertexIndex w : CGAL::vertices_around_target(m.halfedge(v), m)) grown[w.idx()] = 1;
      patch.swap(grown);
    }
    std::vector<std::pair<VertexIndex, Point>> moved;
    for (VertexIndex v : m.vertices()) {
      if (!patch[v.idx()]) continue;
      double x = 0, y = 0, z = 0;
      int k = 0;
      for (VertexIndex w : CGAL::vertices_around_target(m.halfedge(v), m)) {
        const Point& q = m.point(w);
        x += q.x(), y += q.y(), z += q.z();
        ++k;
      }
      if (k == 0) continue;
      const Point& p = m.point(v);
      moved.emplace_back(v, Point(0.5 * (p.x() + x / k), 0.5 * (p.y() + y / k), 0.5 * (p.z() + z / k)));
    }
    for (const auto& [v, p] : moved) m.point(v) = p;
  }
  max_move = moved_most();
  return !PMP::does_self_intersect(m);
}

std::string crossing_text(std::size_t pairs, const Vec3& where) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu %s of its triangles cross, around (%.1f, %.1f, %.1f) mm", pairs,
                pairs == 1 ? "pair" : "pairs", 1e3 * where.x(), 1e3 * where.y(), 1e3 * where.z());
  return buf;
}

// Builds a Surface_mesh from `in`, tagging each face with its origin code; throws
// MeshUnionError naming the mesh when the input is not a closed, self-intersection-free,
// outward-oriented 2-manifold.  With `repairs`, a mesh whose triangles cross is made valid
// (untangle) and the repair appended.
void build_input(const UnionMesh& in, int body, int bodies, const std::string& fallback_name, Mesh& m,
                 std::vector<UnionRepair>* repairs = nullptr) {
  const std::string& name = in.name.empty() ? fallback_name : in.name;
  const int nv = static_cast<int>(in.vertices.size());
  m.reserve(static_cast<Mesh::size_type>(nv), static_cast<Mesh::size_type>(3 * in.triangles.size() / 2),
            static_cast<Mesh::size_type>(in.triangles.size()));
  for (const Vec3& p : in.vertices) {
    if (!p.allFinite()) throw MeshUnionError(name + " has a non-finite vertex coordinate");
    m.add_vertex(Point(p.x(), p.y(), p.z()));
  }
  OriginMap origin = origin_map(m);
  for (std::size_t t = 0; t < in.triangles.size(); ++t) {
    const Tri& tri = in.triangles[t];
    for (int i : tri)
      if (i < 0 || i >= nv)
        throw MeshUnionError(name + ": triangle " + std::to_string(t) + " has an invalid vertex index");
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
      throw MeshUnionError(name + ": triangle " + std::to_string(t) + " repeats a vertex");
    const FaceIndex f = m.add_face(VertexIndex(tri[0]), VertexIndex(tri[1]), VertexIndex(tri[2]));
    if (f == Mesh::null_face())
      throw MeshUnionError(name + " is not an oriented 2-manifold (triangle " + std::to_string(t) +
                           " cannot be added)");
    origin[f] = bodies * static_cast<int>(t) + body;
  }
  if (in.triangles.empty()) throw MeshUnionError(name + " is empty");
  if (!CGAL::is_closed(m)) throw MeshUnionError(name + " is not closed");
  if (self_intersects(in, m)) {
    const auto [pairs, where] = crossings(m);
    if (!repairs) throw MeshUnionError(name + " self-intersects (" + crossing_text(pairs.size(), where) + ")");
    double max_move = 0.0;
    if (!untangle(m, max_move))
      throw MeshUnionError(name + " self-intersects (" + crossing_text(pairs.size(), where) +
                           ") and smoothing the crossing patch did not undo it");
    repairs->push_back({body, static_cast<int>(pairs.size()), where, max_move});
  }
  if (!PMP::is_outward_oriented(m)) throw MeshUnionError(name + " is not outward oriented");
}

// Propagates the origin property through corefinement: subfaces of a split input face inherit
// its origin; faces copied into the output keep the origin of their source face.
struct OriginVisitor : public PMP::Corefinement::Default_visitor<Mesh> {
  struct Shared {
    std::map<const Mesh*, OriginMap> maps;
    int current = kUntracked;  // origin of the face being split
  };
  std::shared_ptr<Shared> s;  // the visitor is copied by value inside CGAL

  explicit OriginVisitor(std::shared_ptr<Shared> shared) : s(std::move(shared)) {}

  OriginMap& map_of(const Mesh& m) const {
    auto it = s->maps.find(&m);
    if (it == s->maps.end()) it = s->maps.emplace(&m, origin_map(const_cast<Mesh&>(m))).first;
    return it->second;
  }

  void before_subface_creations(FaceIndex f_split, Mesh& tm) { s->current = map_of(tm)[f_split]; }
  void after_subface_created(FaceIndex f_new, Mesh& tm) { map_of(tm)[f_new] = s->current; }
  void after_face_copy(FaceIndex f_src, const Mesh& tm_src, FaceIndex f_tgt, Mesh& tm_tgt) {
    map_of(tm_tgt)[f_tgt] = map_of(tm_src)[f_src];
  }
};

// out = a ∪ b, the origin codes carried across by the visitor
void corefine_union(Mesh& a, Mesh& b, Mesh& out, OriginVisitor& visitor) {
  bool ok = false;
  try {
    ok = PMP::corefine_and_compute_union(a, b, out, params::visitor(visitor),
                                         params::default_values(), params::default_values());
  } catch (const MeshUnionError&) {
    throw;
  } catch (const std::exception& e) {
    throw MeshUnionError(std::string("mesh union: CGAL corefinement failed: ") + e.what());
  } catch (...) {
    throw MeshUnionError("mesh union: CGAL corefinement failed (unknown exception)");
  }
  if (!ok)
    throw MeshUnionError(
        "mesh union: CGAL corefinement could not build the union as a manifold surface");
}

// The connected components of `out`, faces traced to (body, input triangle) by their codes.
std::vector<UnionComponent> split_components(Mesh& out, int bodies);

}  // namespace

void check_union_input(const UnionMesh& m, const std::string& name) {
  Mesh checked;
  build_input(m, 0, 1, name, checked);
}

std::vector<std::array<int, 2>> self_intersecting_triangles(const UnionMesh& in) {
  Mesh m;
  for (const Vec3& p : in.vertices) m.add_vertex(Point(p.x(), p.y(), p.z()));
  for (const Tri& t : in.triangles) m.add_face(VertexIndex(t[0]), VertexIndex(t[1]), VertexIndex(t[2]));
  return crossings(m).first;
}

std::vector<UnionComponent> mesh_union_components(const UnionMesh& a, const UnionMesh& b,
                                                  std::vector<UnionRepair>* repairs) {
  // one array: the meshes' addresses rise with their roles (see the k-mesh union below)
  std::vector<Mesh> m(3);
  Mesh &ma = m[0], &mb = m[1], &out = m[2];
  build_input(a, 0, 2, "mesh a", ma, repairs);
  build_input(b, 1, 2, "mesh b", mb, repairs);

  auto shared = std::make_shared<OriginVisitor::Shared>();
  shared->maps.emplace(&ma, origin_map(ma));
  shared->maps.emplace(&mb, origin_map(mb));
  shared->maps.emplace(&out, origin_map(out));
  OriginVisitor visitor(shared);
  corefine_union(ma, mb, out, visitor);
  return split_components(out, 2);
}

std::vector<UnionComponent> mesh_union_components(const std::vector<UnionMesh>& meshes,
                                                  std::vector<UnionRepair>* repairs) {
  if (meshes.empty()) throw MeshUnionError("mesh union: no meshes");
  if (meshes.size() == 2) return mesh_union_components(meshes[0], meshes[1], repairs);
  const int k = static_cast<int>(meshes.size());
  // The inputs and the running unions in one array, inputs first, so that the meshes' addresses
  // come in the order of their roles whatever the allocator did: CGAL's corefinement keys
  // several maps by them (Corefinement/Visitor.h, Face_graph_output_builder.h).  This alone did
  // not make the numbers independent of the heap (issue 49): the boxes CGAL sorts are keyed by
  // their own addresses, in arrays of its own; the canonical order of split_components did.
  std::vector<Mesh> all(2 * meshes.size() - 1);
  const auto in = [&](int i) -> Mesh& { return all[static_cast<std::size_t>(i)]; };
  const auto running = [&](int i) -> Mesh& { return all[static_cast<std::size_t>(k + i)]; };
  for (int i = 0; i < k; ++i) build_input(meshes[i], i, k, "mesh " + std::to_string(i), in(i), repairs);
  if (k == 1) return split_components(in(0), 1);
  // ((m0 ∪ m1) ∪ m2) ∪ ...: each step corefines the running union with the next mesh
  auto shared = std::make_shared<OriginVisitor::Shared>();
  for (Mesh& m : all) shared->maps.emplace(&m, origin_map(m));
  OriginVisitor visitor(shared);
  corefine_union(in(0), in(1), running(0), visitor);
  for (int i = 2; i < k; ++i) corefine_union(running(i - 2), in(i), running(i - 1), visitor);
  return split_components(running(k - 2), k);
}

namespace {

// The components in a canonical order.  CGAL's corefinement finds the pairs of intersecting
// faces with box_intersection_d, which breaks ties between equal box coordinates by the boxes'
// addresses (Box_intersection_d::ID_FROM_BOX_ADDRESS, hard-wired in the corefinement): two
// bodies that share a plane or an edge's coordinate (a block on the ground, a lip on a plate)
// tie, and the order in which the pairs come, and so the order of the output's vertices and
// faces, followed where the allocator had put two vectors.  Every sum over a component (its
// volume here, the cavity's ∂V/∂x and its tracking downstream) then changed in its last digits
// with the heap's history: with the thread count, with the load (issue 49).  The faces are
// therefore sorted by what they are — the body they lie on, then their corners' exact
// coordinates, each triangle turned to start at its smallest corner (then the input face, for
// two bodies' faces on the same corners) — and the vertices numbered in the order the sorted
// faces reach them: the order no longer depends on how the inputs were listed either.
std::vector<UnionComponent> split_components(Mesh& out, int bodies) {
  const OriginMap origin = origin_map(out);
  Mesh::Property_map<FaceIndex, std::size_t> component =
      out.add_property_map<FaceIndex, std::size_t>("f:suction_component", 0).first;
  const std::size_t n_components = PMP::connected_components(out, component);

  struct Face {
    int body = 0, source = 0;
    std::array<VertexIndex, 3> v;
    std::array<Vec3, 3> p;
  };
  auto less_point = [](const Vec3& a, const Vec3& b) {
    return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
  };
  std::vector<std::vector<Face>> faces(n_components);
  for (FaceIndex f : out.faces()) {
    const int code = origin[f];
    if (code < 0)
      throw MeshUnionError("mesh union: an output face could not be traced back to an input face");
    Face face;
    face.body = code % bodies;
    face.source = code / bodies;
    int k = 0;
    for (VertexIndex v : CGAL::vertices_around_face(out.halfedge(f), out)) {
      if (k < 3) {
        const Point& q = out.point(v);
        face.v[k] = v;
        face.p[k] = Vec3(CGAL::to_double(q.x()), CGAL::to_double(q.y()), CGAL::to_double(q.z()));
      }
      ++k;
    }
    if (k != 3) throw MeshUnionError("mesh union: CGAL returned a non-triangular face");
    // the same triangle, the same orientation, starting at its smallest corner
    int first = 0;
    for (int i = 1; i < 3; ++i)
      if (less_point(face.p[i], face.p[first])) first = i;
    std::rotate(face.v.begin(), face.v.begin() + first, face.v.end());
    std::rotate(face.p.begin(), face.p.begin() + first, face.p.end());
    faces[component[f]].push_back(face);
  }
  auto less_face = [&](const Face& a, const Face& b) {
    if (a.body != b.body) return a.body < b.body;
    for (int i = 0; i < 3; ++i) {
      if (less_point(a.p[i], b.p[i])) return true;
      if (less_point(b.p[i], a.p[i])) return false;
    }
    return a.source < b.source;
  };

  std::vector<UnionComponent> result(n_components);
  std::vector<int> local(out.number_of_vertices() + out.number_of_removed_vertices(), -1);
  for (std::size_t c = 0; c < n_components; ++c) {
    std::vector<Face>& fc = faces[c];
    std::sort(fc.begin(), fc.end(), less_face);
    UnionComponent& uc = result[c];
    uc.triangles.reserve(fc.size());
    for (const Face& face : fc) {
      Tri tri{};
      for (int i = 0; i < 3; ++i) {
        int& idx = local[static_cast<std::size_t>(face.v[i].idx())];
        if (idx < 0) {
          idx = static_cast<int>(uc.vertices.size());
          uc.vertices.push_back(face.p[i]);
        }
        tri[i] = idx;
      }
      uc.triangles.push_back(tri);
      uc.face_body.push_back(face.body);
      uc.face_source.push_back(face.source);
    }
    for (const Face& face : fc)  // a vertex pinched between two components is in both
      for (VertexIndex v : face.v) local[static_cast<std::size_t>(v.idx())] = -1;
    // divergence theorem, relative to a vertex of the component (less cancellation)
    const Vec3 o = uc.vertices.empty() ? Vec3::Zero() : uc.vertices.front();
    double six_v = 0.0;
    for (const Tri& t : uc.triangles)
      six_v += (uc.vertices[t[0]] - o).cross(uc.vertices[t[1]] - o).dot(uc.vertices[t[2]] - o);
    uc.volume = six_v / 6.0;
  }
  // largest first; equal volumes by their first face (a component has at least one face)
  std::vector<std::size_t> order(n_components);
  for (std::size_t c = 0; c < n_components; ++c) order[c] = c;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const double vx = std::abs(result[x].volume), vy = std::abs(result[y].volume);
    if (vx != vy) return vx > vy;
    return less_face(faces[x].front(), faces[y].front());
  });
  std::vector<UnionComponent> sorted;
  sorted.reserve(n_components);
  for (std::size_t c : order) sorted.push_back(std::move(result[c]));
  return sorted;
}

}  // namespace

}  // namespace suction
