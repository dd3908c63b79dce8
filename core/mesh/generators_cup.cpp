// The suction cup: a revolved profile made of a thick skirt (a strip around a smooth
// centreline) and a solid handle on top.
//
// Profile in the (r, z) half plane:
//   - the skirt centreline is flat from the axis to r = handle_radius at height
//     z_c = height - handle_height - wall_thickness/2, then a cubic Bézier leaves it
//     horizontally and reaches the lip descending at lip_angle_deg to the horizontal;
//   - the skirt thickness is wall_thickness on the flat part and goes linearly (in arc
//     length) to lip_thickness at the lip; the lip is cut perpendicular to the centreline,
//     its lowest (inner) corner at z = 0 and its outer corner at r = radius;
//   - the handle is the rectangle r <= handle_radius, height - handle_height <= z <= height.
// The space under the skirt is left empty: the cup is one genus-0 solid (a bowl with a stem).
//
// With CupParams::profile the centreline is instead the user's polyline (the implied flat top
// from the axis, then the points), the thickness given per point or wall -> lip, mitred at the
// corners; the same rows across the wall and the same handle are then built and swept.
#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/revolve.h"

namespace suction {

namespace {

using Vec2 = Eigen::Vector2d;

struct Bezier {
  Vec2 p0, p1, p2, p3;
  Vec2 point(double t) const {
    const double s = 1.0 - t;
    return s * s * s * p0 + 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t * p3;
  }
  Vec2 tangent(double t) const {
    const double s = 1.0 - t;
    return 3 * s * s * (p1 - p0) + 6 * s * t * (p2 - p1) + 3 * t * t * (p3 - p2);
  }
};

// curve parameter t at arc length fraction `fraction` of a polyline sampling of the curve
double parameter_at_fraction(const std::vector<double>& cumulative_length, double fraction) {
  const int n = static_cast<int>(cumulative_length.size()) - 1;
  const double target = fraction * cumulative_length.back();
  const auto it = std::lower_bound(cumulative_length.begin(), cumulative_length.end(), target);
  const int i = std::clamp(static_cast<int>(it - cumulative_length.begin()), 1, n);
  const double seg = cumulative_length[i] - cumulative_length[i - 1];
  const double local = seg > 0 ? (target - cumulative_length[i - 1]) / seg : 0.0;
  return (i - 1 + local) / n;
}

void check_cup_params(const CupParams& p) {
  auto require = [](bool ok, const char* msg) {
    if (!ok) throw InputError(std::string("make_cup: ") + msg);
  };
  require(p.radius > 0 && p.height > 0, "radius and height must be positive");
  require(p.wall_thickness > 0 && p.lip_thickness > 0, "wall and lip thickness must be positive");
  require(p.lip_angle_deg > 0 && p.lip_angle_deg < 90, "lip_angle_deg must be in (0, 90)");
  require(p.handle_radius > 0 && p.handle_height > 0, "handle radius and height must be positive");
  require(p.resolution >= 8, "resolution must be >= 8");
  require(p.layers >= 1, "layers must be >= 1");
  const double alpha = p.lip_angle_deg * kPi / 180.0;
  const double lip_r = p.radius - 0.5 * p.lip_thickness * std::sin(alpha);
  const double lip_z = 0.5 * p.lip_thickness * std::cos(alpha);
  const double centre_z = p.height - p.handle_height - 0.5 * p.wall_thickness;
  require(p.handle_radius + p.wall_thickness < lip_r, "handle_radius too large for the cup radius");
  require(centre_z - lip_z > p.wall_thickness,
          "height - handle_height leaves no room for the skirt (needs > 1.5 wall thickness + lip)");
}

// One station along the skirt: its centreline point, the direction across the wall (unit on
// smooth parts, a miter at the profile's corners: its projection on both neighbouring
// segments' normals is 1, so the wall keeps its thickness) and the wall's thickness there.
struct Station {
  Vec2 centre;
  Vec2 normal;
  double thickness;
};

// The cup from its skirt stations (the first n_flat + 1 are the flat top, from the axis to
// the handle's radius) and the handle on top of them: rows of layers + 1 nodes across the
// wall, the handle's columns above the flat part's top nodes, swept around z.
TetMesh build_cup(const std::vector<Station>& stations, int n_flat, double skirt_top, double handle_radius,
                  double handle_height, int layers, int resolution, const MeshLimits& limits) {
  Profile2D profile;
  auto add_node = [&](double r, double z) {
    profile.nodes.emplace_back(r, z);
    return static_cast<int>(profile.nodes.size()) - 1;
  };

  // skirt: one row of layers+1 nodes across the thickness per station along the centreline
  std::vector<std::vector<int>> skirt;
  for (size_t i = 0; i < stations.size(); ++i) {
    const Station& s = stations[i];
    std::vector<int> row;
    for (int l = 0; l <= layers; ++l) {
      const Vec2 x = s.centre + (static_cast<double>(l) / layers - 0.5) * s.thickness * s.normal;
      row.push_back(add_node(i == 0 ? 0.0 : x.x(), x.y()));  // exact zero on the axis
    }
    skirt.push_back(row);
  }
  triangulate_grid(skirt, profile);

  // the skirt must not fold: every triangle of its grid turns the same way
  int positive = 0, negative = 0;
  for (const Tri& t : profile.triangles)
    (signed_area2(profile.nodes[t[0]], profile.nodes[t[1]], profile.nodes[t[2]]) > 0 ? positive : negative)++;
  if (positive > 0 && negative > 0)
    throw InputError("make_cup: the skirt folds on itself (thickness too large for its curvature)");

  // handle: rows above the top surface of the flat part of the skirt, in the columns of its
  // top nodes, with a spacing close to theirs
  const int n_handle = std::max(1, static_cast<int>(std::lround(handle_height / (handle_radius / n_flat))));
  std::vector<std::vector<int>> handle(1);
  for (int i = 0; i <= n_flat; ++i) handle[0].push_back(skirt[i][layers]);
  for (int q = 1; q <= n_handle; ++q) {
    std::vector<int> row;
    for (int i = 0; i <= n_flat; ++i)
      row.push_back(add_node(profile.nodes[skirt[i][layers]].x(), skirt_top + handle_height * q / n_handle));
    handle.push_back(row);
  }
  triangulate_grid(handle, profile);

  return revolve_profile(profile, resolution, limits, "cup");
}

// the profile's node count before it is built, checked against the limits
void check_cup_counts(double stations, double n_flat, double handle_height, double handle_radius,
                      const CupParams& p, const MeshLimits& limits) {
  const double handle = std::max(1.0, std::round(handle_height / (handle_radius / n_flat)));
  const double profile_nodes = stations * (p.layers + 1.0) + handle * (n_flat + 1.0);
  check_mesh_limit(profile_nodes * p.resolution, limits.max_nodes, "nodes", "max_nodes", "cup");
  check_mesh_limit(6.0 * profile_nodes * p.resolution, limits.max_elements, "tetrahedra", "max_elements", "cup");
}

// whether segments ab and cd cross at a point inside both (touching is not crossing)
bool segments_cross(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const double o1 = signed_area2(a, b, c), o2 = signed_area2(a, b, d), o3 = signed_area2(c, d, a),
               o4 = signed_area2(c, d, b);
  return ((o1 > 0) != (o2 > 0)) && ((o3 > 0) != (o4 > 0)) && o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0;
}

// A cup whose skirt centreline is the polyline p.profile (CupParams::profile).
TetMesh make_profile_cup(const CupParams& p, const MeshLimits& limits) {
  auto require = [](bool ok, const std::string& msg) {
    if (!ok) throw InputError("make_cup: profile: " + msg);
  };
  const size_t n = p.profile.size();
  require(n >= 2, "needs at least 2 points (where the skirt leaves the handle, and the lip)");
  require(p.handle_height > 0, "handle_height must be positive");
  require(p.resolution >= 8, "resolution must be >= 8");
  require(p.layers >= 1, "layers must be >= 1");
  std::vector<Vec2> pts;
  const bool given = p.profile[0][2] != 0.0;
  for (size_t k = 0; k < n; ++k) {
    const auto& q = p.profile[k];
    const std::string at = "point " + std::to_string(k);
    require(std::isfinite(q[0]) && std::isfinite(q[1]) && std::isfinite(q[2]), at + " is not finite");
    require(q[0] > 0, at + ": r must be > 0 (the flat top from the axis to the first point is implied)");
    require((q[2] != 0.0) == given, "give a thickness on every point or on none");
    require(q[2] >= 0, at + ": thickness must be > 0");
    pts.emplace_back(q[0], q[1]);
    if (k > 0) require((pts[k] - pts[k - 1]).norm() > 0, at + " repeats the previous point");
  }
  if (!given) require(p.wall_thickness > 0 && p.lip_thickness > 0, "wall and lip thickness must be positive");
  // the centreline with its implied flat start on the axis must not cross itself
  std::vector<Vec2> line{Vec2(0.0, pts[0].y())};
  line.insert(line.end(), pts.begin(), pts.end());
  for (size_t a = 0; a + 1 < line.size(); ++a)
    for (size_t b = a + 2; b + 1 < line.size(); ++b)
      require(!segments_cross(line[a], line[a + 1], line[b], line[b + 1]),
              "the centreline crosses itself (segments " + std::to_string(a) + " and " + std::to_string(b) + ")");
  // thickness at each point: given, or wall -> lip linear in arc length
  std::vector<double> s(n, 0.0);
  for (size_t k = 1; k < n; ++k) s[k] = s[k - 1] + (pts[k] - pts[k - 1]).norm();
  std::vector<double> thick;
  for (size_t k = 0; k < n; ++k)
    thick.push_back(given ? p.profile[k][2]
                          : p.wall_thickness + (p.lip_thickness - p.wall_thickness) * s[k] / s[n - 1]);
  // unit normals of the segments (tangent turned +90 deg: up / outward for a skirt going out
  // and down), the flat start's normal being +z
  auto seg_normal = [&](size_t k) {  // segment line[k] -> line[k + 1]
    const Vec2 t = (line[k + 1] - line[k]).normalized();
    return Vec2(-t.y(), t.x());
  };
  auto miter = [&](size_t k) {  // at line[k], between segments k - 1 and k
    const Vec2 a = seg_normal(k - 1), b = seg_normal(k);
    require(a.dot(b) > -0.5, "the centreline turns by more than 120 degrees at point " + std::to_string(k - 1));
    return Vec2((a + b) / (1.0 + a.dot(b)));
  };

  // element size along the skirt as for the default cup, with the first point's thickness as
  // the wall and the last point's radius as the cup's
  const double spacing = 1.15 * std::sqrt(thick[0] / p.layers * kPi * pts.back().x() / p.resolution);
  // counts as doubles first: a huge profile must hit the limits, not overflow an int
  const double flat = std::max(1.0, std::round(pts[0].x() / spacing));
  check_mesh_limit(flat, limits.max_nodes, "nodes", "max_nodes", "cup");
  const int n_flat = static_cast<int>(flat);
  std::vector<int> subdivisions;
  double stations = n_flat + 1.0;
  for (size_t k = 1; k < n; ++k) {
    const double count = std::max(1.0, std::round((pts[k] - pts[k - 1]).norm() / spacing));
    check_mesh_limit(count, limits.max_nodes, "nodes", "max_nodes", "cup");
    subdivisions.push_back(static_cast<int>(count));
    stations += count;
  }
  check_cup_counts(stations, n_flat, p.handle_height, pts[0].x(), p, limits);

  std::vector<Station> st;
  for (int i = 0; i <= n_flat; ++i)
    st.push_back({Vec2(pts[0].x() * i / n_flat, pts[0].y()), i == n_flat ? miter(1) : Vec2(0.0, 1.0), thick[0]});
  for (size_t k = 1; k < n; ++k) {
    const int m = subdivisions[k - 1];
    for (int j = 1; j <= m; ++j) {
      const double f = static_cast<double>(j) / m;
      const Vec2 normal = j < m ? seg_normal(k) : (k + 1 < n ? miter(k + 1) : seg_normal(k));
      st.push_back({j == m ? pts[k] : Vec2((1 - f) * pts[k - 1] + f * pts[k]), normal,
                    (1 - f) * thick[k - 1] + f * thick[k]});
    }
  }
  // the lip's lowest corner at z = 0, and nothing below it
  const Station& lip = st.back();
  const double lip_low = std::min(lip.centre.y() - 0.5 * lip.thickness * lip.normal.y(),
                                  lip.centre.y() + 0.5 * lip.thickness * lip.normal.y());
  for (Station& x : st) x.centre.y() -= lip_low;
  const double tolerance = 1e-9 * (std::abs(lip_low) + pts.back().x());
  for (const Station& x : st)
    for (double side : {-0.5, 0.5})
      require(x.centre.y() + side * x.thickness * x.normal.y() >= -tolerance,
              "the lip must be the cup's lowest point");
  return build_cup(st, n_flat, st[0].centre.y() + 0.5 * st[0].thickness, pts[0].x(), p.handle_height,
                   p.layers, p.resolution, limits);
}

}  // namespace

TetMesh make_cup(const CupParams& p, const MeshLimits& limits) {
  if (!p.profile.empty()) return make_profile_cup(p, limits);
  check_cup_params(p);
  const double alpha = p.lip_angle_deg * kPi / 180.0;
  const Vec2 lip_direction(std::cos(alpha), -std::sin(alpha));  // centreline tangent at the lip
  const double skirt_top = p.height - p.handle_height;
  const double centre_z = skirt_top - 0.5 * p.wall_thickness;

  // centreline: flat to the handle radius, then a Bézier to the lip centre
  const Vec2 start(p.handle_radius, centre_z);
  const Vec2 lip(p.radius - 0.5 * p.lip_thickness * std::sin(alpha),
                 0.5 * p.lip_thickness * std::cos(alpha));
  const double chord = (lip - start).norm();
  const Bezier curve{start, start + Vec2(0.45 * chord, 0.0), lip - 0.45 * chord * lip_direction, lip};
  constexpr int kSamples = 512;
  std::vector<double> cumulative(kSamples + 1, 0.0);
  for (int i = 1; i <= kSamples; ++i)
    cumulative[i] = cumulative[i - 1] +
                    (curve.point(static_cast<double>(i) / kSamples) -
                     curve.point(static_cast<double>(i - 1) / kSamples)).norm();
  const double curve_length = cumulative.back();

  // element size along the skirt: ~ geometric mean of the through-thickness spacing and the
  // circumferential spacing at mid radius (factor 1.15: 453 nodes at the defaults, close to
  // the paper's 434-node cup; resolution 28, layers 3 gives 1603 nodes)
  const double spacing =
      1.15 * std::sqrt(p.wall_thickness / p.layers * kPi * p.radius / p.resolution);
  // the counts before the profile is built (its rows could already be too many)
  {
    const double flat = std::max(1.0, std::round(p.handle_radius / spacing));
    const double curve = std::max(2.0, std::round(curve_length / spacing));
    check_cup_counts(flat + curve + 1.0, flat, p.handle_height, p.handle_radius, p, limits);
  }
  const int n_flat = std::max(1, static_cast<int>(std::lround(p.handle_radius / spacing)));
  const int n_curve = std::max(2, static_cast<int>(std::lround(curve_length / spacing)));


  std::vector<Station> stations;
  for (int i = 0; i <= n_flat + n_curve; ++i) {
    Vec2 centre, normal;
    double thickness;
    if (i <= n_flat) {
      centre = Vec2(p.handle_radius * i / n_flat, centre_z);
      normal = Vec2(0.0, 1.0);
      thickness = p.wall_thickness;
    } else {
      const double fraction = static_cast<double>(i - n_flat) / n_curve;
      const double t = parameter_at_fraction(cumulative, fraction);
      centre = i == n_flat + n_curve ? lip : curve.point(t);
      const Vec2 tangent = curve.tangent(t).normalized();
      normal = Vec2(-tangent.y(), tangent.x());  // tangent turned +90°: points up / outward
      // thickness linear in arc length: wall -> lip   (the flat part keeps the wall thickness)
      thickness = p.wall_thickness + (p.lip_thickness - p.wall_thickness) * fraction;
    }
    stations.push_back({centre, normal, thickness});
  }
  return build_cup(stations, n_flat, skirt_top, p.handle_radius, p.handle_height, p.layers, p.resolution,
                   limits);
}

}  // namespace suction
