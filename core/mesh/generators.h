// Procedural meshes.  Every generator returns positively oriented, well-shaped tetrahedra
// (radius ratio bounded away from zero) with the body's natural frame: z is "up".
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mesh/tet_mesh.h"

namespace suction {

/// Box [-sx/2, sx/2]×[-sy/2, sy/2]×[-sz/2, sz/2] [m], nx×ny×nz hexahedral cells, each split in
/// 6 tetrahedra (Kuhn/Freudenthal, conforming).
TetMesh make_box(const Vec3& size, int nx, int ny, int nz, const MeshLimits& limits = {});

/// Solid cylinder of radius r, height h along z, centred at the origin (z in [-h/2, h/2]).
/// resolution: number of segments around the circumference (>= 6); the other directions are
/// meshed with a comparable element size.
TetMesh make_cylinder(double radius, double height, int resolution, const MeshLimits& limits = {});

/// Solid ball of radius r centred at the origin; resolution: segments around the equator
/// (>= 6), resolution/2 from pole to pole; its boundary has the vertices of
/// make_sphere_surface(radius, resolution).
TetMesh make_sphere(double radius, int resolution, const MeshLimits& limits = {});

/// A suction cup: a revolved profile around z.  The lip rests at z = 0, the cup opens
/// downward (towards -z), a solid handle (stem) on top ends at z = height.
struct CupParams {
  double radius = 0.0175;          // outer radius of the lip [m]
  double height = 0.015;           // total height, lip to top of the handle [m]
  double wall_thickness = 0.003;   // thickness of the skirt near the top [m]
  double lip_thickness = 0.0015;   // thickness of the skirt at the lip [m]
  double lip_angle_deg = 25.0;     // angle of the skirt to the horizontal at the lip [deg]
  double handle_radius = 0.005;    // radius of the solid handle [m]
  double handle_height = 0.005;    // height of the handle above the skirt [m]
  int resolution = 16;             // segments around the axis (>= 8)
  int layers = 2;                  // elements through the wall thickness (>= 1)
  /// Optional: the skirt's centreline drawn as a polyline in the (r, z) half plane, from where
  /// it leaves the handle (the first point: the top is flat from the axis to it, and the handle,
  /// of radius r0, sits on that flat part) to the lip (the last point, the cup's lowest).  Each
  /// point is (r, z, thickness); thickness 0 on every point means wall_thickness at the first
  /// point going linearly (in arc length) to lip_thickness at the last.  Corners keep the
  /// thickness (mitred); the lip is cut perpendicular to the last segment.  The cup is then
  /// shifted so the lip's lowest corner is at z = 0.  With a profile, radius, height,
  /// lip_angle_deg and handle_radius are not used (they follow from the points).
  std::vector<std::array<double, 3>> profile;
};
/// Profile (without `profile` points): the skirt centreline is flat from the axis to handle_radius, then a smooth curve
/// (cubic Bézier) down to the lip; the lip end is cut perpendicular to the skirt, its inner
/// corner at z = 0 and its outer corner at r = radius.  The defaults give 453 nodes (the
/// paper's standard cup has 434); resolution = 28, layers = 3 give 1603 nodes.
TetMesh make_cup(const CupParams& params, const MeshLimits& limits = {});

/// Closed triangle surfaces, outward oriented (for rigid bodies and obstacles).
/// Every generator checks its node, element and triangle counts against `limits` before it
/// allocates (InputError naming the limit).
SurfaceMesh make_box_surface(const Vec3& size);
/// The same box with its faces divided into nx × ny × nz cells (2 triangles each): 2(nx ny +
/// ny nz + nz nx) + 2 vertices, a refined collision mesh for rigid bodies (the paper's
/// Table 2).  (1, 1, 1) gives the 8 corners, triangulated unlike the overload above.
SurfaceMesh make_box_surface(const Vec3& size, int nx, int ny, int nz, const MeshLimits& limits = {});
SurfaceMesh make_cylinder_surface(double radius, double height, int resolution,
                                  const MeshLimits& limits = {});
/// A slab whose top face is a cylinder segment of radius |radius| (axis along x): convex for
/// radius > 0 (apex line at z = 0), concave for radius < 0 (a trough, its lowest line at z = 0),
/// flat for 0; size = (length along x, width along y, thickness below the lowest top point).
/// The width is capped at 1.9·|radius|.  Closed, outward triangles.
SurfaceMesh make_curved_slab_surface(const Vec3& size, double radius, int resolution,
                                     const MeshLimits& limits = {});
SurfaceMesh make_sphere_surface(double radius, int resolution, const MeshLimits& limits = {});

// --- blocks with holes, pockets and tunnels (generators_block.cpp) ------------------------------
// Closed, outward-oriented surfaces without self-intersections; FEM bodies get them
// tetrahedralized (cavity_cgal/tet_mesher.h).  The box is [-sx/2, sx/2]×[-sy/2, sy/2]×
// [-sz/2, sz/2]; the openings are in its top face (z = sz/2).

/// a point (x, y) of a planar outline [m]
using Point2 = std::array<double, 2>;

/// A deterministic random polygon, star-shaped about the origin, counter-clockwise: n_points
/// (>= 4) vertices at angles 2π(i + j_i)/n, |j_i| <= roughness/4, and radii
/// mean_radius·(1 + roughness·u_i), |u_i| <= 1; roughness in [0, 1).  The j_i and u_i come from
/// a splitmix64 stream started at `seed` (no std:: distribution, whose output differs between
/// standard libraries), so a seed gives the same outline everywhere.
std::vector<Point2> star_outline(std::uint64_t seed, int n_points, double mean_radius, double roughness);

/// Area enclosed by a counter-clockwise polygon (shoelace) [m²].
double polygon_area(const std::vector<Point2>& outline);

/// A box of `size` with a pocket sunk `depth` (0 < depth < sz) into its top face: the pocket's
/// walls are vertical, its outline `outline` (counter-clockwise, star-shaped about the top face's
/// centre (0, 0), strictly inside the top face), its floor flat at z = sz/2 - depth.
/// Closed, genus 0; volume pocket_block_volume (exact: the surface is that polyhedron).
SurfaceMesh make_pocket_block_surface(const Vec3& size, const std::vector<Point2>& outline, double depth,
                                      const MeshLimits& limits = {});
/// sx·sy·sz - depth·polygon_area(outline) [m³]
double pocket_block_volume(const Vec3& size, const std::vector<Point2>& outline, double depth);

/// A box of `size` with a U-shaped air path: two round holes (regular polygons of `resolution`
/// >= 6 sides, circumradius hole_diameter/2) in its top face at x = ±spacing/2, y = 0, going
/// down until the path's lowest point is `depth` below the top face, joined at the bottom by a
/// horizontal tunnel along x of the same polygon section, mitred at 45° at both elbows (the
/// elbow's outer walls meet in a sharp edge).  Needs spacing > hole_diameter,
/// spacing/2 + hole_diameter/2 < sx/2, hole_diameter < sy, hole_diameter < depth < sz.
/// Closed, genus 1 (Euler characteristic 0); volume tunnel_block_volume.
SurfaceMesh make_tunnel_block_surface(const Vec3& size, double hole_diameter, double spacing, double depth,
                                      int resolution = 16, const MeshLimits& limits = {});
/// sx·sy·sz - A·(2·depth - hole_diameter + spacing), A the polygon's area
/// (resolution/2)·r²·sin(2π/resolution): each mitred leg holds A·(depth - r) (the 45° cut
/// removes as much as it adds, about the section's centroid), the tunnel A·spacing [m³]
double tunnel_block_volume(const Vec3& size, double hole_diameter, double spacing, double depth,
                           int resolution = 16);


// --- the octopus tentacle (generators_tentacle.cpp) -----------------------------------------------
// A tapered arm swept along a gently bent centreline, with cup-shaped suckers on its underside:
// a closed, outward-oriented, 2-manifold surface without self-intersections (FEM bodies get it
// tetrahedralized, cavity_cgal/tet_mesher.h).  Frame: the base's centre at the origin, the arm
// along +x, its underside (the suckers) facing -z; a positive curl bends the tip down, towards
// the suckers (an arm curling in).

/// The tentacle's shape [m, rad].  The arm's radius goes linearly from base_radius at s = 0 to
/// tip_radius at s = length (s the arc length of the centreline, a circular arc turning by
/// `curl`); the base is cut flat, the tip closed by a half ball of tip_radius beyond s = length.
/// Sucker k sits at s_k, evenly from sucker_first to sucker_last; with two rows they alternate
/// between the angles +row_angle_deg and -row_angle_deg about the underside (a zigzag).  Every
/// sucker's dimensions are scaled by r(s_k)/base_radius when scale_suckers (they shrink towards
/// the tip, as an octopus's do).  One sucker, in its own frame (its axis the arm's surface
/// normal; h measured from its sealing plane into the arm): a flat ring, the rim's sealing face,
/// of inner radius sucker_radius (the mouth) and width rim_thickness, standing rim_height out of
/// the arm's surface at the sucker's centre, joined to the arm by a flank rising at 50° (the arm,
/// the flank and the ring meet at edges gentler than the mesher's 60° feature angle: the lip,
/// where the ring meets the pocket's wall at 90°, is the sucker's one sharp edge, a closed loop
/// the mesher keeps); inside, a pocket: a straight wall up to sucker_depth - dome, then a
/// quarter-ellipse roof of height dome = min(sucker_depth/2, sucker_radius) up to h = sucker_depth.
struct TentacleParams {
  double length = 0.12;           // centreline length from the base to where the tip's half ball starts [m]
  double base_radius = 0.01;      // arm radius at the base [m]
  double tip_radius = 0.004;      // arm radius at s = length (<= base_radius) [m]
  double curl = 0.0;              // turn of the centreline over the length [rad]; > 0 towards the suckers
  int sucker_count = 6;           // suckers (>= 0)
  double sucker_radius = 0.0025;  // mouth radius (the sealing ring's inner edge, the lip) at the base's scale [m]
  double sucker_depth = 0.0025;   // from the sealing plane to the pocket's roof [m]
  double rim_thickness = 0.001;   // width of the rim's flat sealing ring [m]
  double rim_height = 0.001;      // how far the sealing ring stands out of the arm's surface [m]
  double sucker_first = 0.02;     // arc length of the first sucker's centre [m]
  double sucker_last = 0.1;       // arc length of the last sucker's centre [m]
  int rows = 1;                   // 1: on the underside; 2: a zigzag at ±row_angle_deg
  double row_angle_deg = 30.0;    // rows = 2: the rows' angle about the arm's axis from the underside [deg]
  bool scale_suckers = true;      // scale each sucker by r(s_k)/base_radius
  int resolution = 32;            // segments around the arm (>= 12)
  int sucker_resolution = 16;     // segments around a sucker (>= 8)
};

/// A problem with TentacleParams: the field (its name in the scene's mesh object) and why.
struct TentacleIssue {
  std::string key;
  std::string message;
};

/// Every problem of the parameters (empty: make_tentacle_surface builds them): non-positive or
/// non-finite lengths, tip_radius > base_radius, a curl too strong for the arm's thickness
/// (|curl|·base_radius/length > 0.5 or |curl| > π), suckers beyond the arm, wider than it
/// (sucker_radius + rim_thickness + rim_height, scaled, above 0.85 of the arm's radius there,
/// or a 50° flank that does not meet the arm before the arm rises faster across: about 0.47 of
/// the arm's radius for sucker_radius + rim_thickness + 0.84 rim_height), pockets deeper than
/// 0.6 of its radius into it, or suckers overlapping one another.
std::vector<TentacleIssue> check_tentacle(const TentacleParams& p);

/// One sucker as built, in the world frame of the generator.
struct TentacleSucker {
  double s = 0;                   // arc length of its centre [m]
  Vec3 mouth;                     // centre of the mouth, on the sealing plane [m]
  Vec3 axis;                      // unit normal of the sealing plane, out of the arm
  double radius = 0;              // mouth radius: the lip (scaled) [m]
  double rim_outer = 0;           // outer radius of the sealing ring [m]
  double depth = 0;               // sealing plane to roof [m]
  double rim_height = 0;          // the ring's stand-out from the arm's surface at the centre [m]
  double pocket_volume = 0;       // the pocket above the sealing plane, as built (polygonal rings) [m³]
};
std::vector<TentacleSucker> tentacle_suckers(const TentacleParams& p);

/// The closed surface (InputError naming the first check_tentacle issue's key when the
/// parameters are bad); deterministic.
SurfaceMesh make_tentacle_surface(const TentacleParams& p, const MeshLimits& limits = {});

}  // namespace suction
