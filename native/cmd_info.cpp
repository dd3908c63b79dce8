// suction info SCENE: what a scene contains (sizes, masses, extents, materials, drivers, springs,
// probes) and roughly how much memory its model takes.
#include <iostream>

#include "cli_common.h"
#include "backends/compliance_backend.h"
#include "io/bench.h"
#include "scene/scene.h"

namespace suction::cli {

namespace {

const char* driver_kind_name(DriverKind kind) {
  switch (kind) {
    case DriverKind::Position: return "position";
    case DriverKind::Velocity: return "velocity";
    case DriverKind::Force: return "force";
  }
  return "?";
}


const char* component_name(int component) {
  static const char* names[] = {"x", "y", "z", "norm"};
  return component >= 0 && component < 4 ? names[component] : "?";
}

std::string material_name(const Model& model, int index) {
  if (index < 0 || index >= int(model.materials.size())) return "?";
  return model.materials[index].name;
}

std::string format_box(const Aabb& box) {
  const Vec3 size = box.hi - box.lo;
  return format("[%.4g, %.4g] x [%.4g, %.4g] x [%.4g, %.4g] m  (%.4g x %.4g x %.4g mm)",
                box.lo.x(), box.hi.x(), box.lo.y(), box.hi.y(), box.lo.z(), box.hi.z(),
                size.x() * 1e3, size.y() * 1e3, size.z() * 1e3);
}

std::string format_bytes(double bytes) {
  if (bytes < 1024) return format("%.0f B", bytes);
  if (bytes < 1024 * 1024) return format("%.1f KiB", bytes / 1024);
  return format("%.1f MiB", bytes / (1024 * 1024));
}

/// approximate size of the model's arrays and of one state [bytes]
double model_bytes(const Model& model) {
  double bytes = 0;
  for (const FemBody& b : model.fem) {
    const double nodes = b.rest.nodes.size(), tets = b.rest.tets.size();
    bytes += nodes * (sizeof(Vec3) + sizeof(double) + sizeof(int));         // rest, mass, constraint
    bytes += tets * (sizeof(Tet) + sizeof(Mat3) + sizeof(double) + sizeof(Mat12));  // elements
    bytes += b.boundary.surface.vertices.size() * (sizeof(Vec3) + sizeof(int));
    bytes += b.boundary.surface.triangles.size() * sizeof(Tri);
    bytes += nodes * 2 * sizeof(Vec3);  // state: x, v
  }
  for (const RigidBody& b : model.rigid)
    bytes += b.surface.vertices.size() * sizeof(Vec3) + b.surface.triangles.size() * sizeof(Tri);
  return bytes;
}

}  // namespace

void add_info_command(CLI::App& app, SceneOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "info", "describe a scene: sizes, masses, bounding boxes, materials, drivers, springs, probes");
  add_scene_options(command, options);
}

int info_command(const SceneOptions& options) {
  const Model model = load_model(options);
  const ModelCounts c = count_model(model);
  std::ostream& out = std::cout;

  out << "scene       " << (model.name.empty() ? options.scene : model.name) << '\n';
  if (!model.description.empty())
    out << "            " << wrap_text(model.description, 80, "            ") << '\n';
  out << "file        " << options.scene << '\n';
  if (const std::string q = quality_line(model); !q.empty()) out << "quality     " << q << '\n';
  const Settings& s = model.settings;
  out << format("settings    dt %.4g ms, duration %.4g s, gravity (%.4g, %.4g, %.4g) m/s^2, "
                "P_atm %.6g Pa, solver %s <= %d iterations (tol %.3g)\n",
                s.dt * 1e3, s.duration, s.gravity.x(), s.gravity.y(), s.gravity.z(), s.p_atm,
                s.solver.method.c_str(), s.solver.max_iterations, s.solver.tolerance);
  out << format("counts      %d bodies (%d FEM, %d rigid), %d FEM nodes, %d tets, "
                "%d surface triangles, %d collision nodes, %d DOFs\n",
                c.bodies, c.fem_bodies, c.rigid_bodies, c.fem_nodes, c.fem_tets,
                c.surface_triangles, c.collision_nodes, c.dofs);
  out << "memory      ~" << format_bytes(model_bytes(model)) << " (model arrays and one state)\n";
  if (!model.meshing.empty()) {
    double seconds = 0;
    size_t meshed = 0;
    for (const MeshingRecord& m : model.meshing) {
      seconds += m.seconds;
      meshed += m.cache_status != "read";
    }
    const size_t cached = model.meshing.size() - meshed;
    out << format("meshing     %.1f ms at load: %zu bod%s tetrahedralized (CGAL Mesh_3), %zu read from %s cache\n",
                  seconds * 1e3, meshed, meshed == 1 ? "y" : "ies", cached, cached == 1 ? "its" : "their");
  }
  std::string built;
  for (const std::string& b : available_compliance_backends()) {
    built += (built.empty() ? "" : ", ") + b;
    const std::string device = compliance_backend_device(b);
    if (!device.empty()) built += " [" + device + "]";
  }
  out << "backend     " << s.compliance_backend << " (built: " << built << ")\n";
  std::string solvers;
  for (const std::string& m : available_constraint_solvers()) solvers += (solvers.empty() ? "" : ", ") + m;
  out << "solvers: " << solvers << '\n';
  out << "sweep:   local processes" << (sweep_mpi_built() ? ", MPI ranks (" + sweep_mpi_library() + ")" : ", no MPI (not built)")
      << "\nfit:     " << (fit_built() ? "Ceres Solver" : "not built (no Ceres Solver)") << '\n';

  // parameters (--set /parameters/NAME=value)
  if (!model.parameters.empty()) {
    out << "\nparameters\n";
    for (const Parameter& p : model.parameters) {
      std::string range;
      if (p.min || p.max)
        range = format("  [%s, %s]", p.min ? format("%.6g", *p.min).c_str() : "",
                       p.max ? format("%.6g", *p.max).c_str() : "");
      out << format("  %-16s = %-10.6g %-6s%s", p.name.c_str(), p.value, p.unit.c_str(), range.c_str());
      if (!p.doc.empty()) out << "  " << p.doc;
      out << '\n';
    }
  }

  // bodies
  out << "\nbodies\n";
  for (const FemBody& b : model.fem) {
    double mass = 0;
    for (double m : b.node_mass) mass += m;
    int fixed = 0, driven = 0;
    for (int k : b.node_constraint) {
      if (k == kNodeFixed) ++fixed;       // fixed in place
      else if (k >= 0) ++driven;   // follows driver k
    }
    out << format("  %-16s FEM        %d nodes, %zu tets, %zu surface triangles, mass %.4g kg\n",
                  b.name.c_str(), int(b.rest.nodes.size()), b.rest.tets.size(),
                  b.boundary.surface.triangles.size(), mass);
    if (fixed || driven)
      out << format("  %-16s            %d fixed nodes, %d driven nodes\n", "", fixed, driven);
    if (!b.node_sets.empty()) {
      out << format("  %-16s            node sets:", "");
      for (const auto& [name, nodes] : b.node_sets)
        out << ' ' << name << " (" << nodes.size() << ')';
      out << '\n';
    }
    out << format("  %-16s            material %s\n", "", material_name(model, b.material).c_str());
    out << format("  %-16s            %s\n", "", format_box(bounding_box(b.rest.nodes)).c_str());
    for (const MeshingRecord& m : model.meshing)
      if (m.body == b.name) {
        if (m.cache_status == "read")
          out << format("  %-16s            read from its mesh cache %s in %.1f ms (min radius ratio %.3f)\n", "",
                        m.cache_file.c_str(), m.seconds * 1e3, m.min_radius_ratio);
        else
          out << format("  %-16s            tetrahedralized at load in %.1f ms (min radius ratio %.3f)\n", "",
                        m.seconds * 1e3, m.min_radius_ratio);
        if (m.cache_status == "missing" || m.cache_status == "stale")
          out << format("  %-16s            mesh cache %s %s: `suction mesh SCENE --write-cache` writes it\n", "",
                        m.cache_file.c_str(), m.cache_status == "missing" ? "does not exist" :
                        "was made from another surface or options");
      }
  }
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    const RigidBody& b = model.rigid[i];
    const std::string kind = body_kind_name(model, BodyRef{BodyType::Rigid, int(i)});
    out << format("  %-16s %-9s  %zu vertices, %zu triangles", b.name.c_str(), kind.c_str(),
                  b.surface.vertices.size(), b.surface.triangles.size());
    if (b.kind == RigidKind::Dynamic) out << format(", mass %.4g kg", b.mass);
    out << '\n';
    out << format("  %-16s            material %s\n", "", material_name(model, b.material).c_str());
    // the surface at the initial pose
    Points world = b.surface.vertices;
    transform_points(world, b.initial_orientation.normalized().toRotationMatrix(),
                     b.initial_position);
    out << format("  %-16s            %s\n", "", format_box(bounding_box(world)).c_str());
  }

  // materials
  out << "\nmaterials\n";
  for (const Material& m : model.materials)
    out << format("  %-16s E %.4g Pa, nu %.3g, rho %.4g kg/m^3, damping alpha %.3g 1/s "
                  "beta %.3g s, friction %.3g\n",
                  m.name.c_str(), m.young, m.poisson, m.density, m.damping_mass,
                  m.damping_stiffness, m.friction);

  // drivers
  if (!model.drivers.empty()) {
    out << "\ndrivers\n";
    for (const Driver& d : model.drivers) {
      out << format("  %-16s %-8s -> %s", d.name.c_str(), driver_kind_name(d.kind),
                    body_name(model, d.body).c_str());
      if (!d.node_set.empty()) out << " node set " << d.node_set;
      if (!d.nodes.empty()) out << " (" << d.nodes.size() << " nodes)";
      const auto& times = d.keyframes.times;
      out << format(", %zu keyframes", times.size());
      if (!times.empty()) out << format(" over [%.4g, %.4g] s", times.front(), times.back());
      out << '\n';
    }
  }

  // springs
  if (!model.springs.empty()) {
    out << "\nsprings\n";
    auto end_name = [&](const SpringEnd& e) {
      std::string n = body_name(model, e.body);
      if (!e.node_set.empty()) n += " node set " + e.node_set + format(" (%zu nodes)", e.nodes.size());
      return n;
    };
    for (const Spring& s : model.springs) {
      out << format("  %-16s %s -- %s: k %.4g N/m, c %.4g N s/m, ", s.name.c_str(), end_name(s.a).c_str(),
                    end_name(s.b).c_str(), s.stiffness, s.damping);
      out << (s.zero_length() ? std::string("zero length (x, y, z)") : format("rest length %.4g m", s.rest_length));
      out << '\n';
    }
  }

  // joints
  if (!model.joints.empty()) {
    out << "\njoints\n";
    constexpr double kDeg = 180.0 / kPi;
    auto end_name = [&](const JointEnd& e) { return e.world() ? std::string("world") : body_name(model, e.body); };
    for (const Joint& j : model.joints) {
      if (j.kind == JointKind::Weld) {
        out << format("  %-16s weld      %s -- %s (%zu nodes)\n", j.name.c_str(), end_name(j.a).c_str(),
                      end_name(j.b).c_str(), j.b.nodes.size());
        continue;
      }
      out << format("  %-16s revolute  %s -- %s", j.name.c_str(), end_name(j.a).c_str(), end_name(j.b).c_str());
      if (j.limited) out << format(", limits [%.4g, %.4g] deg", j.lower * kDeg, j.upper * kDeg);
      if (j.mode != JointTargetMode::None) {
        const bool position = j.mode == JointTargetMode::Position;
        out << (position ? ", servo" : ", motor");
        const bool hard = position ? j.stiffness == 0.0 && j.damping == 0.0 : j.damping == 0.0;
        if (hard) out << " (hard)";
        else if (position) out << format(" (k %.4g N m/rad, c %.4g N m s/rad)", j.stiffness, j.damping);
        else out << format(" (gain %.4g N m s/rad)", j.damping);
        const auto& times = j.target.times;
        out << format(", %zu keyframes", times.size());
        if (!times.empty()) out << format(" over [%.4g, %.4g] s", times.front(), times.back());
      }
      out << '\n';
    }
  }

  // probes
  if (!model.probes.empty()) {
    out << "\nprobes (CSV columns)\n";
    for (const Probe& p : model.probes) {
      out << format("  %-16s %s", p.name.c_str(), probe_type_name(p.kind));
      const bool spring = p.kind == ProbeKind::SpringForce || p.kind == ProbeKind::SpringLength;
      const bool cavity = p.kind == ProbeKind::CavityPressure || p.kind == ProbeKind::CavityVolume ||
                          p.kind == ProbeKind::CavityAir || p.kind == ProbeKind::CavityHoldingForce;
      const bool joint = p.kind == ProbeKind::JointAngle || p.kind == ProbeKind::JointTorque;
      if (p.kind == ProbeKind::DriverForce) {
        if (p.driver >= 0 && p.driver < int(model.drivers.size()))
          out << " of " << model.drivers[p.driver].name;
      } else if (spring) {
        if (p.spring >= 0 && p.spring < int(model.springs.size())) out << " of " << model.springs[p.spring].name;
      } else if (joint) {
        if (p.joint >= 0 && p.joint < int(model.joints.size())) out << " of " << model.joints[p.joint].name;
      } else if (cavity) {
        out << format(" of cavity %d (oldest first)", p.cavity);
        if (p.cavity_of_body) out << " of those " << body_name(model, p.body) << " bounds";
      } else if (p.kind != ProbeKind::Time && p.kind != ProbeKind::CavityCount) {
        out << " of " << body_name(model, p.body);
        if (p.kind == ProbeKind::NodeSetPosition) out << " (" << p.nodes.size() << " nodes)";
      }
      const bool scalar = p.kind == ProbeKind::Time || p.kind == ProbeKind::Displacement || spring || cavity ||
                          joint || p.kind == ProbeKind::CavityCount;
      if (!scalar) out << ", " << component_name(p.component);
      if (p.scale != 1.0) out << format(", x %.4g", p.scale);
      out << '\n';
    }
  }
  return kExitOk;
}

}  // namespace suction::cli
