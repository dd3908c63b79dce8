// Stage 5a, compliance (docs/method.md §7): W = h H A⁻¹ Hᵀ through the model's backend
// (backends/compliance_backend.h).  This file is the only place that turns the Workspace
// into a backend's input.
#include "common/error.h"
#include "stages/stages.h"

namespace suction {

void init_compliance(const Model& model, Workspace& work) {
  // the backend is chosen once per model: a name it does not know is a clear error here
  work.compliance = make_compliance_backend(model.settings.compliance_backend);
  const FactorizationReuse& f = model.settings.factorization;
  if (f.reuse && f.follow_rotation && !work.compliance->applies_rotation())
    throw InputError("settings.factorization.follow_rotation: the '" + std::string(work.compliance->name()) +
                     "' compliance backend does not turn a kept factorization with its body; use the cpu "
                     "backend, or set follow_rotation to false");
  work.solver = make_constraint_solver(model.settings.solver.method);  // (the solve stage's)
  ComplianceSetup setup;
  for (const FemSystem& sys : work.fem) setup.fem.push_back({&sys.free_index, sys.num_free});
  setup.num_rigid = static_cast<int>(model.rigid.size());
  work.compliance->init(setup);
}

namespace {
ComplianceInput systems_input(const Model& model, const Workspace& work) {
  ComplianceInput in;
  in.h = model.settings.dt;
  in.factorizations_reused = model.settings.factorization.reuse;
  for (const FemSystem& sys : work.fem)
    in.fem.push_back({&sys.free_index, sys.num_free, in.factorizations_reused ? &sys.A_factored : &sys.A,
                      sys.solver.get(), sys.factor_generation,
                      model.settings.factorization.follow_rotation && in.factorizations_reused ? &sys.rotation : nullptr});
  return in;
}
}  // namespace

void prepare_compliance(const Model& model, const State&, Workspace& work) {
  work.compliance->prepare(systems_input(model, work));
}

void build_compliance(const Model& model, const State&, Workspace& work) {
  if (work.rows.count() == 0) {
    work.W.resize(0, 0);
    return;
  }
  ComplianceInput in = systems_input(model, work);
  in.rows = &work.rows;
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    const RigidBody& b = model.rigid[i];
    ComplianceRigidBody r;
    r.dynamic = b.kind == RigidKind::Dynamic;
    if (r.dynamic) {
      r.mass = b.mass;
      r.inverse_inertia = work.rigid[i].inertia_inv;
    }
    in.rigid.push_back(r);
  }
  work.compliance->build(in, work.W);
}

}  // namespace suction
