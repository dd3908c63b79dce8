#include "model/build.h"

#include "common/error.h"
#include "rigid/mass_properties.h"

namespace suction {

FemBody make_fem_body(const std::string& name, TetMesh mesh, int material_index,
                      const Material& material) {
  validate_tet_mesh(mesh, "body '" + name + "'");
  FemBody b;
  b.name = name;
  b.material = material_index;
  try {
    b.elements = make_elastic_elements(mesh, material.young, material.poisson);
  } catch (const InputError& e) {
    throw InputError("body '" + name + "': " + e.what());
  }
  b.boundary = extract_boundary(mesh);
  // lumped mass: each tet gives ρV/4 to each of its nodes
  b.node_mass.assign(mesh.nodes.size(), 0.0);
  for (size_t e = 0; e < mesh.tets.size(); ++e)
    for (int n : mesh.tets[e]) b.node_mass[n] += material.density * b.elements.volume[e] / 4.0;
  b.node_constraint.assign(mesh.nodes.size(), kNodeFree);
  b.rest = std::move(mesh);
  return b;
}

RigidBody make_rigid_body(const std::string& name, RigidKind kind, SurfaceMesh surface_world,
                          int material_index, double density, double mass) {
  validate_closed_surface(surface_world, "body '" + name + "'");
  const MassProperties mp = compute_mass_properties(surface_world, density);
  RigidBody b;
  b.name = name;
  b.kind = kind;
  b.material = material_index;
  b.mass = mp.mass;
  b.inertia_body = mp.inertia;
  if (mass > 0.0 && mp.mass > 0.0) {
    b.inertia_body *= mass / mp.mass;
    b.mass = mass;
  }
  b.initial_position = mp.center;
  for (Vec3& p : surface_world.vertices) p -= mp.center;
  b.surface = std::move(surface_world);
  return b;
}

}  // namespace suction
