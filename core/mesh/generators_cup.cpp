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

}  // namespace

TetMesh make_cup(const CupParams& p, const MeshLimits& limits) {
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
  // the counts before the profile is built (its rows could already be too many): stations
  // along the skirt × (layers + 1), plus the handle's rows, each swept into `resolution` nodes
  {
    const double flat = std::max(1.0, std::round(p.handle_radius / spacing));
    const double curve = std::max(2.0, std::round(curve_length / spacing));
    const double handle = std::max(1.0, std::round(p.handle_height / (p.handle_radius / flat)));
    const double profile_nodes = (flat + curve + 1.0) * (p.layers + 1.0) + handle * (flat + 1.0);
    check_mesh_limit(profile_nodes * p.resolution, limits.max_nodes, "nodes", "max_nodes", "cup");
    check_mesh_limit(6.0 * profile_nodes * p.resolution, limits.max_elements, "tetrahedra", "max_elements", "cup");
  }
  const int n_flat = std::max(1, static_cast<int>(std::lround(p.handle_radius / spacing)));
  const int n_curve = std::max(2, static_cast<int>(std::lround(curve_length / spacing)));
  const double handle_spacing = p.handle_radius / n_flat;
  const int n_handle = std::max(1, static_cast<int>(std::lround(p.handle_height / handle_spacing)));

  Profile2D profile;
  auto add_node = [&](double r, double z) {
    profile.nodes.emplace_back(r, z);
    return static_cast<int>(profile.nodes.size()) - 1;
  };

  // skirt: one row of layers+1 nodes across the thickness per station along the centreline
  std::vector<std::vector<int>> skirt;
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
    std::vector<int> row;
    for (int l = 0; l <= p.layers; ++l) {
      const Vec2 x = centre + (static_cast<double>(l) / p.layers - 0.5) * thickness * normal;
      row.push_back(add_node(i == 0 ? 0.0 : x.x(), x.y()));  // exact zero on the axis
    }
    skirt.push_back(row);
  }
  triangulate_grid(skirt, profile);

  // the skirt must not fold: every triangle of its grid turns the same way
  int positive = 0, negative = 0;
  for (const Tri& t : profile.triangles) {
    const Vec2 u = profile.nodes[t[1]] - profile.nodes[t[0]], v = profile.nodes[t[2]] - profile.nodes[t[0]];
    (u.x() * v.y() - u.y() * v.x() > 0 ? positive : negative)++;
  }
  if (positive > 0 && negative > 0)
    throw InputError("make_cup: the skirt folds on itself (thickness too large for its curvature)");

  // handle: rows above the top surface of the flat part of the skirt
  std::vector<std::vector<int>> handle(1);
  for (int i = 0; i <= n_flat; ++i) handle[0].push_back(skirt[i][p.layers]);
  for (int q = 1; q <= n_handle; ++q) {
    std::vector<int> row;
    for (int i = 0; i <= n_flat; ++i)
      row.push_back(add_node(p.handle_radius * i / n_flat, skirt_top + p.handle_height * q / n_handle));
    handle.push_back(row);
  }
  triangulate_grid(handle, profile);

  return revolve_profile(profile, p.resolution, limits, "cup");
}

}  // namespace suction
