// Procedural meshes.  Every generator returns positively oriented, well-shaped tetrahedra
// (radius ratio bounded away from zero) with the body's natural frame: z is "up".
#pragma once
#include <array>
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

}  // namespace suction
