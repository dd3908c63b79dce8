// Scene bodies: meshes (generators and files), placement, node sets, FEM and rigid bodies.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "cavity_cgal/mesh_union.h"
#include "cavity_cgal/tet_mesh_cache.h"
#include "cavity_cgal/tet_mesher.h"
#include "mesh/generators.h"
#include "mesh/mesh_io.h"
#include "model/build.h"
#include "scene/scene_build.h"

namespace suction {

const SceneBodyEntry* SceneBuild::find_body(const std::string& name) const {
  for (const auto& b : bodies)
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<std::string> SceneBuild::body_names() const {
  std::vector<std::string> names;
  for (const auto& b : bodies) names.push_back(b.name);
  return names;
}

int SceneBuild::default_material() {
  auto it = material_index.find("default");
  if (it != material_index.end()) return it->second;
  Material m;
  m.name = "default";
  model.materials.push_back(m);
  return material_index["default"] = static_cast<int>(model.materials.size()) - 1;
}

namespace {

const std::vector<std::string> kBodyTypes = {"fem", "rigid", "fixed", "kinematic"};
const std::vector<std::string> kGenerators = {"box",         "cylinder",     "sphere",       "cup",
                                              "curved_slab", "pocket_block", "tunnel_block", "tentacle"};

std::vector<std::string> body_keys(const std::string& type) {
  std::vector<std::string> keys = {"name", "type", "material", "mesh", "position", "rotation"};
  const bool any = type.empty();  // invalid type: accept every body key, the type is reported
  if (any || type == "fem" || type == "rigid") keys.push_back("velocity");
  if (any || type == "rigid") keys.push_back("angular_velocity");
  if (any || type != "fem") keys.insert(keys.end(), {"density", "mass"});
  if (any || type == "fem") keys.insert(keys.end(), {"node_sets", "fixed_nodes", "self_contact"});
  return keys;
}

/// A mesh in the body's own frame: a tet mesh (fem) or a closed surface (rigid, fixed, kinematic).
struct BodyMesh {
  bool ok = false;
  TetMesh tets;
  SurfaceMesh surface;
  std::optional<TetMeshingReport> meshing;  // the tets came from the mesher or its cache (tetrahedralize)
  MeshingRecord record;                     // the cache's part of what `suction info` reports
};

/// "tetrahedralize": the mesher's options, and the cache file the scene names (tet_mesh_cache.h)
struct Tetrahedralize {
  TetMeshingOptions options;
  std::string cache_name;  // as written in the scene ("" when none)
  std::string cache_path;  // resolved against the scene's folder
  std::string cache_at;    // its JSON pointer
};

const std::vector<std::string> kTetrahedralizeKeys = {"cell_size",       "facet_size",        "facet_distance",
                                                      "edge_size",       "facet_angle_deg",   "radius_edge_ratio",
                                                      "sharp_features",  "feature_angle_deg", "cache"};

/// a path relative to the scene's folder (absolute ones as they are)
std::string resolve_scene_path(const SceneBuild& b, const std::string& file) {
  namespace fs = std::filesystem;
  fs::path path(file);
  if (path.is_relative()) path = fs::path(b.base_dir) / path;
  std::error_code ec;
  fs::path resolved = fs::absolute(path, ec).lexically_normal();
  return ec ? path.string() : resolved.string();
}

/// "tetrahedralize": {"cell_size": h, ..., "cache": FILE} (TetMeshingOptions by the same names);
/// absent: cell_size = default_cell_size (0: the key is required).  nullopt after an issue.
std::optional<Tetrahedralize> read_tetrahedralize(SceneBuild& b, ObjectView& parent, double default_cell_size,
                                                  const MeshLimits& limits) {
  JsonReader& r = b.reader;
  Tetrahedralize spec;
  TetMeshingOptions& t = spec.options;
  t.limits = limits;
  const Json* v = default_cell_size > 0 ? parent.find("tetrahedralize") : parent.require("tetrahedralize");
  if (!v) {
    if (default_cell_size <= 0) return std::nullopt;
    t.cell_size = default_cell_size;
    return spec;
  }
  const size_t issues_before = r.issue_count();
  ObjectView o(r, *v, parent.at("tetrahedralize"), kTetrahedralizeKeys,
               "an object {\"cell_size\": length, ...} (the tetrahedral mesher's options)");
  if (!o.valid()) return std::nullopt;
  if (default_cell_size > 0) t.cell_size = o.number("cell_size", default_cell_size, Bounds::positive());
  else t.cell_size = o.required_number("cell_size", Bounds::positive()).value_or(0.0);
  t.facet_size = o.number("facet_size", t.facet_size, Bounds::positive());
  t.facet_distance = o.number("facet_distance", t.facet_distance, Bounds::positive());
  t.edge_size = o.number("edge_size", t.edge_size, Bounds::positive());
  t.facet_angle_deg = o.number("facet_angle_deg", t.facet_angle_deg, {0.0, 30.0, true, false});
  t.radius_edge_ratio = o.number("radius_edge_ratio", t.radius_edge_ratio, Bounds::at_least(2.0));
  t.sharp_features = o.boolean("sharp_features", t.sharp_features);
  t.feature_angle_deg = o.number("feature_angle_deg", t.feature_angle_deg, Bounds::open(0.0, 180.0));
  if (o.has("cache")) {
    spec.cache_at = o.at("cache");
    if (const auto file = o.required_string("cache")) {
      if (file->empty()) r.issue(spec.cache_at, "expected a file name (a .msh file the mesh is kept in), got \"\"");
      spec.cache_name = *file;
      spec.cache_path = resolve_scene_path(b, *file);
    }
  }
  if (r.issue_count() != issues_before) return std::nullopt;
  return spec;
}

/// the FEM mesh of a closed surface, from the cache when its fingerprint matches, else from the
/// mesher (its errors are thrown: read_mesh makes them issues; a broken cache file is an issue
/// at "cache")
bool tetrahedralize(JsonReader& r, const SurfaceMesh& surface, const Tetrahedralize& spec, const std::string& what,
                    BodyMesh& out) {
  const TetMeshingOptions& options = spec.options;
  MeshingRecord& rec = out.record;
  rec.fingerprint = meshing_fingerprint(surface, options);
  rec.cache_file = spec.cache_path;
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<TetCache> cache;
  if (!spec.cache_path.empty()) {
    try {
      cache = read_tet_cache(spec.cache_path, options.limits);
    } catch (const std::exception& e) {
      r.issue(spec.cache_at, std::string("the mesh cache '") + spec.cache_name + "' is not a valid mesh (" + e.what() +
                                 "); delete it or write it again with `suction mesh SCENE --write-cache`");
      return false;
    }
    rec.cache_status = !cache ? "missing" : cache->fingerprint == rec.fingerprint ? "read" : "stale";
  }
  TetMeshingReport report;
  if (cache && rec.cache_status == "read") {
    out.tets = std::move(cache->mesh);
    report.min_radius_ratio = 1.0;
    for (const Tet& t : out.tets.tets)
      report.min_radius_ratio = std::min(report.min_radius_ratio, tet_radius_ratio(out.tets.nodes[t[0]], out.tets.nodes[t[1]],
                                                                                  out.tets.nodes[t[2]], out.tets.nodes[t[3]]));
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } else {
    out.tets = mesh_closed_surface(surface, options, what, &report);
    if (!spec.cache_path.empty()) rec.unsaved = out.tets;
  }
  out.meshing = report;
  // the cavities' union needs the body's boundary without self-intersections (Mesh_3's
  // boundary has none; checked here so that a failure is a load error, not a step's)
  const BoundarySurface boundary = extract_boundary(out.tets);
  check_union_input(UnionMesh{boundary.surface.vertices, boundary.surface.triangles, false, {}, {}},
                    what + " (its tetrahedral mesh's boundary)");
  return true;
}

/// "tetrahedralize" given to a body that is not meshed: an issue
void reject_tetrahedralize(JsonReader& r, ObjectView& o, const std::string& why) {
  if (o.has("tetrahedralize")) r.issue(o.at("tetrahedralize"), why);
}

/// "outline" of the pocket_block generator: [[x, y], ...] (counter-clockwise, star-shaped about
/// the top face's centre) or {"radius": r, "points": n, "roughness": q, "seed": s} (star_outline)
std::optional<std::vector<Point2>> read_outline(JsonReader& r, ObjectView& parent) {
  const Json* v = parent.require("outline");
  if (!v) return std::nullopt;
  const std::string at = parent.at("outline");
  const size_t issues_before = r.issue_count();
  std::vector<Point2> points;
  if (v->is_array()) {
    if (v->size() < 3) {
      r.issue(at, "expected at least 3 points [x, y], got " + describe_json(*v));
      return std::nullopt;
    }
    for (size_t k = 0; k < v->size(); ++k) {
      const auto xy = r.numbers((*v)[k], pointer_child(at, k), 2);
      if (xy) points.push_back({(*xy)[0], (*xy)[1]});
    }
  } else {
    ObjectView o(r, *v, at, {"radius", "points", "roughness", "seed"},
                 "an array of points [x, y] or a star {\"radius\": r, \"points\": n, \"roughness\": q, \"seed\": s}");
    if (!o.valid()) return std::nullopt;
    const auto radius = o.required_number("radius", Bounds::positive());
    const int n = o.integer("points", 12, Bounds::at_least(4));
    const double roughness = o.number("roughness", 0.3, {0.0, 1.0, false, true});
    const int seed = o.integer("seed", 0, Bounds::non_negative());
    if (r.issue_count() != issues_before || !radius) return std::nullopt;
    points = star_outline(static_cast<std::uint64_t>(seed), n, *radius, roughness);
  }
  if (r.issue_count() != issues_before) return std::nullopt;
  return points;
}

/// a vector of 3 numbers > 0 (sizes)
std::optional<Vec3> positive_vec3(JsonReader& r, ObjectView& o, const std::string& key) {
  const Json* v = o.require(key);
  if (!v) return std::nullopt;
  auto x = r.vec3(*v, o.at(key));
  if (!x) return std::nullopt;
  for (int i = 0; i < 3; ++i)
    if (!((*x)[i] > 0)) {
      r.issue(pointer_child(o.at(key), static_cast<size_t>(i)), "expected a value > 0");
      return std::nullopt;
    }
  return x;
}

/// "profile" of the cup generator: [[r, z], ...] or [[r, z, thickness], ...], the skirt's
/// centreline (CupParams::profile), and the keys it makes errors: those that follow from the
/// points, and the thickness law when the points give their thickness
void read_cup_profile(JsonReader& r, ObjectView& o, CupParams& p) {
  const Json* prof = o.find("profile");
  if (!prof) return;
  const std::string at = o.at("profile");
  if (!prof->is_array() || prof->size() < 2) {
    r.issue(at, "expected an array of at least 2 points [r, z] or [r, z, thickness], got " + describe_json(*prof));
  } else {
    const size_t arity = (*prof)[0].is_array() ? (*prof)[0].size() : 0;
    for (size_t k = 0; k < prof->size(); ++k) {
      const Json& q = (*prof)[k];
      const std::string qa = pointer_child(at, k);
      if (!q.is_array() || (q.size() != 2 && q.size() != 3) || q.size() != arity) {
        r.issue(qa, arity == 2 || arity == 3
                        ? "expected a point of " + std::to_string(arity) + " numbers like the first, got " + describe_json(q)
                        : "expected a point [r, z] or [r, z, thickness], got " + describe_json(q));
        continue;
      }
      std::array<double, 3> x{0.0, 0.0, 0.0};
      x[0] = r.number(q[0], pointer_child(qa, size_t{0}), Bounds::positive()).value_or(1.0);
      x[1] = r.number(q[1], pointer_child(qa, size_t{1})).value_or(0.0);
      if (arity == 3) x[2] = r.number(q[2], pointer_child(qa, size_t{2}), Bounds::positive()).value_or(1.0);
      p.profile.push_back(x);
    }
    if (arity == 3)
      for (const char* law : {"wall_thickness", "lip_thickness"})
        if (o.has(law)) r.issue(o.at(law), "not used when the profile's points give their thickness");
  }
  for (const char* derived : {"radius", "height", "lip_angle_deg", "handle_radius"})
    if (o.has(derived)) r.issue(o.at(derived), "not used with a profile (it follows from the profile's points)");
}

/// {"generator": "box" | "cylinder" | "sphere" | "cup", ...}
void generate_mesh(SceneBuild& b, const Json& v, const std::string& ptr, bool fem, BodyMesh& out) {
  JsonReader& r = b.reader;
  auto gen = r.choice(v["generator"], pointer_child(ptr, "generator"), kGenerators);
  if (!gen) return;
  const MeshLimits& limits = b.model.settings.limits;
  size_t issues_before = r.issue_count();
  if (*gen == "box") {
    ObjectView o(r, v, ptr, {"generator", "size", "cells"});
    auto size = positive_vec3(r, o, "size");
    if (!size) return;
    // default cells: about 4 across the shortest side, cubic-ish elsewhere
    double h = size->minCoeff() / 4.0;
    std::array<int, 3> cells;
    for (int i = 0; i < 3; ++i) cells[i] = std::max(1, static_cast<int>(std::lround((*size)[i] / h)));
    if (const Json* c = o.find("cells")) {
      if (!c->is_array() || c->size() != 3) {
        r.issue(o.at("cells"), "expected an array of 3 integers, got " + describe_json(*c));
      } else {
        for (size_t i = 0; i < 3; ++i)
          cells[i] = r.integer((*c)[i], pointer_child(o.at("cells"), i), Bounds::at_least(1)).value_or(1);
      }
    }
    if (r.issue_count() != issues_before) return;
    if (fem) out.tets = make_box(*size, cells[0], cells[1], cells[2], limits);
    else if (o.find("cells")) out.surface = make_box_surface(*size, cells[0], cells[1], cells[2], limits);
    else out.surface = make_box_surface(*size);  // the 8 corners
  } else if (*gen == "cylinder") {
    ObjectView o(r, v, ptr, {"generator", "radius", "height", "resolution"});
    auto radius = o.required_number("radius", Bounds::positive());
    auto height = o.required_number("height", Bounds::positive());
    int res = o.integer("resolution", kCylinderResolution, Bounds::at_least(6));
    if (r.issue_count() != issues_before) return;
    if (fem) out.tets = make_cylinder(*radius, *height, res, limits);
    else out.surface = make_cylinder_surface(*radius, *height, res, limits);
  } else if (*gen == "sphere") {
    ObjectView o(r, v, ptr, {"generator", "radius", "resolution"});
    auto radius = o.required_number("radius", Bounds::positive());
    int res = o.integer("resolution", kSphereResolution, Bounds::at_least(6));
    if (r.issue_count() != issues_before) return;
    if (fem) out.tets = make_sphere(*radius, res, limits);
    else out.surface = make_sphere_surface(*radius, res, limits);
  } else if (*gen == "curved_slab") {
    ObjectView o(r, v, ptr, {"generator", "size", "radius", "resolution"});
    auto size = positive_vec3(r, o, "size");
    const double radius = o.number("radius", 0.0);  // < 0: concave
    const int res = o.integer("resolution", kCurvedSlabResolution, Bounds::at_least(2));
    if (r.issue_count() != issues_before || !size) return;
    if (fem) {
      r.issue(pointer_child(ptr, "generator"), "curved_slab is a rigid-body surface (use a fixed, kinematic or dynamic body)");
      return;
    }
    out.surface = make_curved_slab_surface(*size, radius, res, limits);
  } else if (*gen == "pocket_block") {
    ObjectView o(r, v, ptr, {"generator", "size", "depth", "outline", "tetrahedralize"});
    auto size = positive_vec3(r, o, "size");
    auto depth = o.required_number("depth", Bounds::positive());
    auto outline = read_outline(r, o);
    std::optional<Tetrahedralize> meshing;
    if (fem && size) meshing = read_tetrahedralize(b, o, size->minCoeff() / 4, limits);
    if (!fem) reject_tetrahedralize(r, o, "only fem bodies are tetrahedralized");
    if (r.issue_count() != issues_before || !size || !depth || !outline) return;
    out.surface = make_pocket_block_surface(*size, *outline, *depth, limits);
    if (fem && !tetrahedralize(r, out.surface, *meshing, "pocket_block", out)) return;
  } else if (*gen == "tunnel_block") {
    ObjectView o(r, v, ptr,
                 {"generator", "size", "hole_diameter", "spacing", "depth", "resolution", "tetrahedralize"});
    auto size = positive_vec3(r, o, "size");
    auto diameter = o.required_number("hole_diameter", Bounds::positive());
    auto spacing = o.required_number("spacing", Bounds::positive());
    auto depth = o.required_number("depth", Bounds::positive());
    const int res = o.integer("resolution", 16, Bounds::at_least(6));
    std::optional<Tetrahedralize> meshing;
    if (fem && size && diameter)
      meshing = read_tetrahedralize(b, o, std::min(size->minCoeff() / 4, *diameter / 2), limits);
    if (!fem) reject_tetrahedralize(r, o, "only fem bodies are tetrahedralized");
    if (r.issue_count() != issues_before || !size || !diameter || !spacing || !depth) return;
    out.surface = make_tunnel_block_surface(*size, *diameter, *spacing, *depth, res, limits);
    if (fem && !tetrahedralize(r, out.surface, *meshing, "tunnel_block", out)) return;
  } else if (*gen == "tentacle") {  // every TentacleParams field by the same name
    ObjectView o(r, v, ptr,
                 {"generator", "length", "base_radius", "tip_radius", "curl", "sucker_count", "sucker_radius",
                  "sucker_depth", "rim_thickness", "rim_height", "sucker_first", "sucker_last", "rows",
                  "row_angle_deg", "scale_suckers", "resolution", "sucker_resolution", "tetrahedralize"});
    TentacleParams p;
    auto length = o.required_number("length", Bounds::positive());
    auto base = o.required_number("base_radius", Bounds::positive());
    auto tip = o.required_number("tip_radius", Bounds::positive());
    if (r.issue_count() != issues_before || !length || !base || !tip) return;
    p.length = *length;
    p.base_radius = *base;
    p.tip_radius = *tip;
    p.curl = o.number("curl", 0.0);
    p.sucker_count = o.integer("sucker_count", 6, Bounds::non_negative());
    p.sucker_radius = o.number("sucker_radius", 0.25 * p.base_radius, Bounds::positive());
    p.sucker_depth = o.number("sucker_depth", p.sucker_radius, Bounds::positive());
    p.rim_thickness = o.number("rim_thickness", 0.4 * p.sucker_radius, Bounds::positive());
    p.rim_height = o.number("rim_height", 0.4 * p.sucker_radius, Bounds::positive());
    p.sucker_first = o.number("sucker_first", 0.15 * p.length, Bounds::positive());
    p.sucker_last = o.number("sucker_last", 0.85 * p.length, Bounds::positive());
    p.rows = o.integer("rows", 1, {1.0, 2.0, false, false});
    p.row_angle_deg = o.number("row_angle_deg", p.row_angle_deg, Bounds::open(0, 90));
    p.scale_suckers = o.boolean("scale_suckers", p.scale_suckers);
    p.resolution = o.integer("resolution", p.resolution, Bounds::at_least(12));
    p.sucker_resolution = o.integer("sucker_resolution", p.sucker_resolution, Bounds::at_least(8));
    std::optional<Tetrahedralize> meshing;
    if (fem) meshing = read_tetrahedralize(b, o, 0.5 * p.base_radius, limits);
    if (!fem) reject_tetrahedralize(r, o, "only fem bodies are tetrahedralized");
    if (r.issue_count() != issues_before) return;
    // the shape's own checks (sizes that do not fit, overlaps), each at its key
    for (const TentacleIssue& issue : check_tentacle(p)) r.issue(o.at(issue.key), issue.message);
    if (r.issue_count() != issues_before) return;
    out.surface = make_tentacle_surface(p, limits);
    if (fem && !tetrahedralize(r, out.surface, *meshing, "tentacle", out)) return;
  } else {  // cup: every CupParams field by the same name
    ObjectView o(r, v, ptr,
                 {"generator", "radius", "height", "wall_thickness", "lip_thickness", "lip_angle_deg",
                  "handle_radius", "handle_height", "resolution", "layers", "profile"});
    CupParams p;
    read_cup_profile(r, o, p);
    p.radius = o.number("radius", p.radius, Bounds::positive());
    p.height = o.number("height", p.height, Bounds::positive());
    p.wall_thickness = o.number("wall_thickness", p.wall_thickness, Bounds::positive());
    p.lip_thickness = o.number("lip_thickness", p.lip_thickness, Bounds::positive());
    p.lip_angle_deg = o.number("lip_angle_deg", p.lip_angle_deg, Bounds::open(0, 90));
    p.handle_radius = o.number("handle_radius", p.handle_radius, Bounds::positive());
    p.handle_height = o.number("handle_height", p.handle_height, Bounds::positive());
    p.resolution = o.integer("resolution", p.resolution, Bounds::at_least(8));
    p.layers = o.integer("layers", p.layers, Bounds::at_least(1));
    if (r.issue_count() != issues_before) return;
    out.tets = make_cup(p, limits);
    // rigid cups collide with the boundary of the generated tet mesh
    if (!fem) out.surface = extract_boundary(out.tets).surface;
  }
  out.ok = true;
}

/// {"file": path, "scale": s}
void read_mesh_file(SceneBuild& b, const Json& v, const std::string& ptr, bool fem, BodyMesh& out) {
  JsonReader& r = b.reader;
  ObjectView o(r, v, ptr, {"file", "scale", "tetrahedralize"});
  auto file = o.required_string("file");
  double scale = o.number("scale", 1.0, Bounds::positive());
  if (!file) return;
  if (!fem) reject_tetrahedralize(r, o, "only fem bodies are tetrahedralized");
  namespace fs = std::filesystem;
  const fs::path resolved = resolve_scene_path(b, *file);
  std::error_code ec;
  if (!std::ifstream(resolved, std::ios::binary).is_open() || fs::is_directory(resolved, ec)) {
    r.issue(o.at("file"), "cannot open '" + *file + "' (resolved to " + resolved.string() + ")");
    return;
  }
  std::string ext = resolved.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  // a surface for a fem body is tetrahedralized ("tetrahedralize" required)
  const bool surface_file = ext == ".obj" || ext == ".stl";
  if (fem && !surface_file && ext != ".msh") {
    r.issue(o.at("file"), "fem bodies need a tetrahedral mesh (.msh) or a closed surface (.obj, .stl) with "
                          "\"tetrahedralize\", got '" + ext + "'");
    return;
  }
  if (fem && ext == ".msh") reject_tetrahedralize(r, o, "a .msh file is already tetrahedral");
  std::optional<Tetrahedralize> meshing;
  if (fem && surface_file) {
    if (!o.has("tetrahedralize")) {
      r.issue(o.at("file"), "fem bodies need a tetrahedral mesh (.msh), or \"tetrahedralize\": "
                            "{\"cell_size\": ...} next to a closed surface file ('" + ext + "')");
      return;
    }
    meshing = read_tetrahedralize(b, o, 0.0, b.model.settings.limits);
    if (!meshing) return;
  }
  if (!fem && ext != ".msh" && ext != ".obj" && ext != ".stl") {
    r.issue(o.at("file"), "expected a .msh, .obj or .stl file, got '" + ext + "'");
    return;
  }
  const MeshLimits& limits = b.model.settings.limits;
  if (fem && surface_file) {
    SurfaceMesh surface = read_surface(resolved.string(), limits);
    for (auto& x : surface.vertices) x *= scale;
    try {
      if (!tetrahedralize(r, surface, *meshing, "the surface", out)) return;
    } catch (const TetMeshingError& e) {
      r.issue(o.at("file"), "'" + *file + "': " + e.what());
      return;
    }
  } else if (fem) {
    out.tets = read_gmsh(resolved.string(), limits);
    for (auto& x : out.tets.nodes) x *= scale;
  } else {
    out.surface = read_surface(resolved.string(), limits);
    for (auto& x : out.surface.vertices) x *= scale;
  }
  // the cavities' union needs a surface without self-intersections: a file that has them is an
  // error now, not when its body first seals (generated meshes have none by construction)
  {
    UnionMesh u;
    if (fem) {
      const BoundarySurface s = extract_boundary(out.tets);
      u = UnionMesh{s.surface.vertices, s.surface.triangles, false, {}, {}};
    } else {
      u = UnionMesh{out.surface.vertices, out.surface.triangles, false, {}, {}};
    }
    try {
      check_union_input(u, "the mesh");
    } catch (const MeshUnionError& e) {
      r.issue(o.at("file"), "'" + *file + "': " + e.what());
      return;
    }
  }
  out.ok = true;
}

/// MESH: a generator or a file; errors of the generators and readers become issues at ptr
BodyMesh read_mesh(SceneBuild& b, const Json& v, const std::string& ptr, bool fem) {
  BodyMesh out;
  JsonReader& r = b.reader;
  if (!v.is_object()) {
    r.issue(ptr, "expected a mesh object {\"generator\": ...} or {\"file\": ...}, got " + describe_json(v));
    return out;
  }
  bool has_gen = v.contains("generator"), has_file = v.contains("file");
  if (has_gen == has_file) {
    r.issue(ptr, has_gen ? "expected either 'generator' or 'file', not both"
                         : "missing required key 'generator' (" + join_names(kGenerators) + ") or 'file'");
    return out;
  }
  try {
    if (has_gen) generate_mesh(b, v, ptr, fem, out);
    else read_mesh_file(b, v, ptr, fem, out);
  } catch (const SceneError&) {
    throw;
  } catch (const std::exception& e) {
    r.issue(ptr, e.what());
    out.ok = false;
  }
  return out;
}

/// "rotation": {"axis": [x, y, z], "angle_deg": a}; identity when absent
Mat3 read_rotation(JsonReader& r, const Json* v, const std::string& ptr) {
  if (!v) return Mat3::Identity();
  ObjectView o(r, *v, ptr, {"axis", "angle_deg"}, "an object {\"axis\": [x, y, z], \"angle_deg\": degrees}");
  const std::optional<Vec3> axis = o.direction("axis", Vec3(0, 0, 1), "a rotation axis");
  double angle_deg = o.number("angle_deg", 0.0);
  if (!axis) return Mat3::Identity();
  return Eigen::AngleAxisd(angle_deg * kPi / 180.0, *axis).toRotationMatrix();
}

std::string format_vec(const Vec3& x) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.6g, %.6g, %.6g]", x.x(), x.y(), x.z());
  return buf;
}

/// Every coordinate of a placed body lies within ±kMaxCoordinate of the origin: beyond, a body
/// is a mistake (a position in mm, a mesh in mm without "scale") and the arithmetic of a
/// step (squared distances, volumes) leaves the range where it is accurate.
constexpr double kMaxCoordinate = 1e4;  // [m]

/// false (and an issue at ptr) when a placed point lies beyond kMaxCoordinate
bool check_coordinates(JsonReader& r, const Points& points, const std::string& ptr) {
  for (size_t i = 0; i < points.size(); ++i)
    if (!(points[i].cwiseAbs().maxCoeff() <= kMaxCoordinate)) {
      r.issue(ptr, "the placed mesh reaches " + format_vec(points[i]) + " (vertex " + std::to_string(i) +
                       "), beyond the limit of ±" + format_number(kMaxCoordinate) +
                       " m from the origin (a length in mm where metres are expected?)");
      return false;
    }
  return true;
}

/// SELECTOR on the world-placed rest nodes (nullptr: the mesh failed, only the syntax is checked)
std::vector<int> select_nodes(JsonReader& r, const Json& v, const std::string& ptr, const Points* nodes) {
  std::vector<int> sel;
  const std::vector<std::string> kinds = {"all", "box", "top", "bottom", "nodes"};
  ObjectView o(r, v, ptr, kinds,
               "a node selector ({\"all\": true}, {\"box\": {\"min\": [..], \"max\": [..]}}, "
               "{\"top\": tol}, {\"bottom\": tol} or {\"nodes\": [..]})");
  if (!o.valid()) return sel;
  int count = 0;
  for (const auto& k : kinds) count += o.has(k);
  if (count != 1) {
    r.issue(ptr, "expected exactly one of " + join_names(kinds));
    return sel;
  }
  size_t issues_before = r.issue_count();
  const size_t n = nodes ? nodes->size() : 0;
  Aabb bounds = nodes ? bounding_box(*nodes) : Aabb{};
  if (const Json* all = o.find("all")) {
    auto flag = r.boolean(*all, o.at("all"));
    if (flag && !*flag) r.issue(o.at("all"), "expected true");
    for (size_t i = 0; i < n; ++i) sel.push_back(static_cast<int>(i));
  } else if (const Json* box = o.find("box")) {
    ObjectView bo(r, *box, o.at("box"), {"min", "max"}, "an object {\"min\": [x, y, z], \"max\": [x, y, z]}");
    const Json* lo_v = bo.require("min");
    const Json* hi_v = bo.require("max");
    auto lo = lo_v ? r.vec3(*lo_v, bo.at("min")) : std::nullopt;
    auto hi = hi_v ? r.vec3(*hi_v, bo.at("max")) : std::nullopt;
    if (lo && hi) {
      for (size_t i = 0; i < n; ++i) {
        const Vec3& x = (*nodes)[i];
        if ((x.array() >= lo->array()).all() && (x.array() <= hi->array()).all())
          sel.push_back(static_cast<int>(i));
      }
    }
  } else if (o.has("top") || o.has("bottom")) {
    // nodes within tol of the highest (lowest) z
    bool top = o.has("top");
    auto tol = o.required_number(top ? "top" : "bottom", Bounds::non_negative());
    if (tol) {
      for (size_t i = 0; i < n; ++i) {
        double z = (*nodes)[i].z();
        if (top ? z >= bounds.hi.z() - *tol : z <= bounds.lo.z() + *tol) sel.push_back(static_cast<int>(i));
      }
    }
  } else {
    const Json& list = *o.find("nodes");
    if (expect_array(r, list, o.at("nodes"), "an array of node indices")) {
      std::vector<bool> seen(n, false);
      for (size_t k = 0; k < list.size(); ++k) {
        std::string p = pointer_child(o.at("nodes"), k);
        auto idx = r.integer(list[k], p, Bounds::non_negative());
        if (!idx || !nodes) continue;
        if (*idx >= static_cast<int>(n)) {
          r.issue(p, "node index " + std::to_string(*idx) + " out of range (the mesh has " +
                         std::to_string(n) + " nodes)");
        } else if (seen[*idx]) {
          r.issue(p, "node " + std::to_string(*idx) + " listed twice");
        } else {
          seen[*idx] = true;
          sel.push_back(*idx);
        }
      }
    }
  }
  if (nodes && sel.empty() && r.issue_count() == issues_before)
    r.issue(ptr, "the selector selects no node (the body's nodes span " + format_vec(bounds.lo) +
                     " to " + format_vec(bounds.hi) + ")");
  return sel;
}

/// "node_sets" and "fixed_nodes" of a fem body (body == nullptr: its mesh failed)
void read_node_sets(SceneBuild& b, ObjectView& o, SceneBodyEntry& entry, FemBody* body) {
  JsonReader& r = b.reader;
  if (const Json* sets = o.find("node_sets")) {
    for (const auto& [name, sel] :
         map_entries(r, *sets, o.at("node_sets"), "an object NAME -> node selector")) {
      entry.node_set_names.push_back(name);
      auto nodes = select_nodes(r, *sel, pointer_child(o.at("node_sets"), name),
                                body ? &body->rest.nodes : nullptr);
      if (body) body->node_sets[name] = nodes;
    }
  }
  // fixed_nodes: a node set held in place
  if (auto fixed = o.optional_string("fixed_nodes")) {
    auto& names = entry.node_set_names;
    if (std::find(names.begin(), names.end(), *fixed) == names.end()) {
      r.issue(o.at("fixed_nodes"), "unknown node set '" + *fixed + "'; " +
                                       (names.empty() ? "the body declares no node_sets"
                                                      : "node sets of this body: " + join_names(names)));
    } else if (body) {
      for (int i : body->node_sets[*fixed]) body->node_constraint[i] = kNodeFixed;
    }
  }
}

void read_body(SceneBuild& b, const Json& v, const std::string& ptr) {
  JsonReader& r = b.reader;
  // the type decides which keys are allowed
  std::string type_peek;
  if (v.is_object() && v.contains("type") && v["type"].is_string()) {
    std::string t = v["type"].get<std::string>();
    if (std::find(kBodyTypes.begin(), kBodyTypes.end(), t) != kBodyTypes.end()) type_peek = t;
  }
  ObjectView o(r, v, ptr, body_keys(type_peek), "a body object");
  if (!o.valid()) return;

  SceneBodyEntry entry;
  entry.pointer = ptr;
  auto name = o.required_string("name");
  if (name) {
    if (name->empty()) r.issue(o.at("name"), "body names must not be empty");
    if (const SceneBodyEntry* other = b.find_body(*name))
      r.issue(o.at("name"), "duplicate body name '" + *name + "' (also " + other->pointer + ")");
    entry.name = *name;
  }
  auto type = o.choice("type", kBodyTypes);
  entry.type = type.value_or("");
  const bool fem = entry.type == "fem";

  // material: required for fem bodies, "default" otherwise
  int material = -1;
  if (auto mat = fem ? o.required_string("material") : o.optional_string("material")) {
    auto it = b.material_index.find(*mat);
    if (it != b.material_index.end()) {
      material = it->second;
    } else {
      std::vector<std::string> known;
      for (const auto& m : b.model.materials) known.push_back(m.name);
      r.issue(o.at("material"), "unknown material '" + *mat + "'; " +
                                    (known.empty() ? "the scene defines no materials"
                                                   : "materials: " + join_names(known)));
    }
  } else if (type && !fem && !o.has("material")) {
    material = b.default_material();
  }

  // placement: x_world = R x_body + position
  Vec3 position = o.vec3("position", Vec3::Zero());
  if (!(position.cwiseAbs().maxCoeff() <= kMaxCoordinate)) {
    r.issue(o.at("position"), "expected coordinates within ±" + format_number(kMaxCoordinate) +
                                  " m of the origin, got " + format_vec(position));
    position = Vec3::Zero();
  }
  Mat3 rotation = read_rotation(r, o.find("rotation"), o.at("rotation"));
  Vec3 velocity = o.vec3("velocity", Vec3::Zero());
  Vec3 angular_velocity = o.vec3("angular_velocity", Vec3::Zero());
  double density = o.number("density", material >= 0 ? b.model.materials[material].density : 1000.0,
                            Bounds::positive());
  double mass = o.optional_number("mass", Bounds::positive()).value_or(0.0);
  const bool self_contact = fem && o.boolean("self_contact", false);

  BodyMesh mesh;
  if (const Json* m = o.require("mesh"); m && type) mesh = read_mesh(b, *m, o.at("mesh"), fem);

  // build the body once its mesh and material are known
  const bool buildable = mesh.ok && material >= 0 && name;
  if (fem) {
    FemBody body;
    bool built = false;
    if (buildable) {
      transform_points(mesh.tets.nodes, rotation, position);
      if (check_coordinates(r, mesh.tets.nodes, o.at("mesh"))) try {
        body = make_fem_body(*name, std::move(mesh.tets), material, b.model.materials[material]);
        body.initial_velocity = velocity;
        body.self_contact = self_contact;
        built = true;
      } catch (const std::exception& e) {
        r.issue(o.at("mesh"), e.what());
      }
    }
    read_node_sets(b, o, entry, built ? &body : nullptr);
    if (built && mesh.meshing) {
      MeshingRecord rec = std::move(mesh.record);
      rec.body = *name;
      rec.seconds = mesh.meshing->seconds;
      rec.nodes = static_cast<int>(body.rest.nodes.size());
      rec.tets = static_cast<int>(body.rest.tets.size());
      rec.min_radius_ratio = mesh.meshing->min_radius_ratio;
      b.model.meshing.push_back(std::move(rec));
    }
    if (built) {
      entry.built = true;
      entry.ref = {BodyType::Fem, static_cast<int>(b.model.fem.size())};
      b.model.fem.push_back(std::move(body));
    }
  } else if (type && buildable) {
    RigidKind kind = entry.type == "rigid" ? RigidKind::Dynamic
                     : entry.type == "fixed" ? RigidKind::Fixed
                                             : RigidKind::Kinematic;
    transform_points(mesh.surface.vertices, rotation, position);
    if (check_coordinates(r, mesh.surface.vertices, o.at("mesh"))) try {
      // the surface is already in world orientation: make_rigid_body keeps orientation identity
      RigidBody body = make_rigid_body(*name, kind, std::move(mesh.surface), material, density, mass);
      body.initial_velocity = velocity;
      body.initial_angular_velocity = angular_velocity;
      entry.built = true;
      entry.ref = {BodyType::Rigid, static_cast<int>(b.model.rigid.size())};
      b.model.rigid.push_back(std::move(body));
    } catch (const std::exception& e) {
      r.issue(o.at("mesh"), e.what());
    }
  }
  if (name) b.bodies.push_back(std::move(entry));
}

}  // namespace

void read_bodies(SceneBuild& b, const Json& bodies, const std::string& ptr) {
  if (!expect_array(b.reader, bodies, ptr, "an array of bodies")) return;
  for (size_t i = 0; i < bodies.size(); ++i) read_body(b, bodies[i], pointer_child(ptr, i));
}

}  // namespace suction
