#include "facade.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "cavity/cavity_mesh.h"
#include "common/error.h"
#include "io/csv.h"
#include "model/body_slots.h"
#include "model/model.h"
#include "model/springs.h"
#include "model/state.h"
#include "probes/probes.h"
#include "scene/quality.h"
#include "rigid/rigid_dynamics.h"
#include "sim/simulation.h"

namespace suction::wasm {

namespace {

using OrderedJson = nlohmann::ordered_json;

/// the text of whatever exception is in flight, SceneError issues one per line
std::string current_error() {
  try {
    throw;
  } catch (const SceneError& e) {
    return format_scene_error(e);
  } catch (const InputError& e) {
    return e.what();
  } catch (const SimulationError& e) {
    return std::string("simulation failed: ") + e.what();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

void append_xyz(std::vector<float>& out, const Vec3& p) {
  out.push_back(static_cast<float>(p.x()));
  out.push_back(static_cast<float>(p.y()));
  out.push_back(static_cast<float>(p.z()));
}

std::string strip_newline(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

std::string format_scene_error(const SceneError& e) {
  std::string s;
  for (const SceneIssue& issue : e.issues()) {
    if (!s.empty()) s += '\n';
    s += issue.pointer.empty() ? issue.message : issue.pointer + ": " + issue.message;
  }
  return s.empty() ? std::string(e.what()) : s;
}

Facade::Facade() = default;
Facade::~Facade() = default;

const std::vector<ParameterInfo>& Facade::parameters() const {
  static const std::vector<ParameterInfo> none;
  return sim_ ? sim_->model().parameters : none;
}

int Facade::num_fem() const { return sim_ ? static_cast<int>(sim_->model().fem.size()) : 0; }

void Facade::invalidate() { ++generation_; }

std::string Facade::rebuild(const std::vector<SceneOverride>& overrides) {
  std::unique_ptr<Simulation> sim;
  try {
    Model model = load_scene_text(scene_text_, base_dir_, overrides, "scene", quality_);
    sim = std::make_unique<Simulation>(std::move(model));
  } catch (...) {
    return current_error();
  }
  sim_ = std::move(sim);
  overrides_ = overrides;

  // per-body buffers: indices now (constant), positions lazily
  const Model& m = sim_->model();
  const size_t nb = static_cast<size_t>(BodySlots(m).count());
  surface_positions_.assign(nb, {});
  surface_generation_.assign(nb, ~std::uint64_t{0});
  surface_indices_.assign(nb, {});
  for (size_t i = 0; i < nb; ++i) {
    const SurfaceMesh& s = slot_surface(m, static_cast<int>(i));
    auto& idx = surface_indices_[i];
    idx.reserve(3 * s.triangles.size());
    for (const Tri& t : s.triangles)
      for (int c = 0; c < 3; ++c) idx.push_back(static_cast<std::uint32_t>(t[c]));
  }
  cavity_positions_.clear();
  cavity_indices_.clear();
  cavity_seam_.clear();
  invalidate();
  return "";
}

std::string Facade::load(const std::string& scene_json, const std::string& base_dir) {
  const std::string old_text = scene_text_, old_dir = base_dir_;
  scene_text_ = scene_json;
  base_dir_ = base_dir;
  std::string err = rebuild({});
  if (!err.empty()) {
    scene_text_ = old_text;
    base_dir_ = old_dir;
  }
  return err;
}

namespace {

// `list` with pointer=value added, or replacing the value of the same pointer; throws
// InputError for a malformed override
std::vector<SceneOverride> with_override(std::vector<SceneOverride> list, const std::string& pointer,
                                         const std::string& value) {
  SceneOverride o = parse_override(pointer + "=" + value);
  // a pointer containing '=' is split at its first '=' by parse_override: keep the caller's
  o.pointer = pointer;
  o.value = value;
  auto same = std::find_if(list.begin(), list.end(),
                           [&](const SceneOverride& x) { return x.pointer == pointer; });
  if (same != list.end())
    same->value = value;
  else
    list.push_back(o);
  return list;
}

}  // namespace

std::string Facade::set_override(const std::string& pointer, const std::string& value) {
  if (!sim_) return "no scene loaded";
  std::vector<SceneOverride> list;
  try {
    list = with_override(overrides_, pointer, value);
  } catch (...) {
    return current_error();
  }
  return rebuild(list);
}

std::string Facade::tune(const std::string& pointer, const std::string& value) {
  if (!sim_) return "no scene loaded";
  std::vector<SceneOverride> list;
  try {
    list = with_override(overrides_, pointer, value);
    sim_->retune(load_scene_text(scene_text_, base_dir_, list, "scene", quality_));
  } catch (...) {
    return current_error();
  }
  overrides_ = std::move(list);
  invalidate();
  return "";
}

std::string Facade::clear_overrides() {
  if (!sim_) return "no scene loaded";
  return rebuild({});
}

std::vector<std::string> Facade::overrides() const {
  std::vector<std::string> out;
  for (const SceneOverride& o : overrides_) out.push_back(o.pointer + "=" + o.value);
  return out;
}

std::string Facade::set_quality(const std::string& name) {
  Quality q;
  try {
    q = parse_quality(name);
  } catch (...) {
    return current_error();
  }
  const Quality old = quality_;
  quality_ = q;
  if (!sim_) return "";
  std::string err = rebuild(overrides_);
  if (!err.empty()) quality_ = old;
  return err;
}

std::string Facade::quality() const { return quality_name(quality_); }

std::vector<std::string> Facade::quality_changes() const {
  return sim_ ? sim_->model().quality_changes : std::vector<std::string>{};
}

std::string Facade::step(int n) {
  if (!sim_) return "no scene loaded";
  std::string err;
  for (int i = 0; i < n; ++i) {
    try {
      sim_->step();
    } catch (...) {
      err = current_error();
      break;
    }
    constexpr size_t kMaxKept = 100;  // a page that never asks does not grow without bound
    for (const std::string& w : sim_->warnings())
      if (warnings_.size() < kMaxKept) warnings_.push_back(w);
  }
  invalidate();
  return err;
}

std::vector<std::string> Facade::take_warnings() {
  std::vector<std::string> out;
  out.swap(warnings_);
  return out;
}

void Facade::reset() {
  warnings_.clear();
  if (!sim_) return;
  sim_->reset();
  invalidate();
}

double Facade::time() const { return sim_ ? sim_->state().time : 0.0; }
long Facade::step_count() const { return sim_ ? sim_->state().step : 0; }
double Facade::dt() const { return sim_ ? sim_->model().settings.dt : 0.0; }
double Facade::duration() const { return sim_ ? sim_->model().settings.duration : 0.0; }
double Facade::p_atm() const { return sim_ ? sim_->model().settings.p_atm : kPAtm; }
double Facade::gravity() const { return sim_ ? sim_->model().settings.gravity.norm() : 0.0; }
std::string Facade::scene_name() const { return sim_ ? sim_->model().name : ""; }
std::string Facade::scene_description() const { return sim_ ? sim_->model().description : ""; }

// --- bodies -------------------------------------------------------------------------------

int Facade::body_count() const { return sim_ ? BodySlots(sim_->model()).count() : 0; }

std::string Facade::body_name(int i) const {
  if (i < 0 || i >= body_count()) return "";
  const Model& m = sim_->model();
  const BodyRef b = BodySlots(m).body(i);
  return b.type == BodyType::Fem ? m.fem[b.index].name : m.rigid[b.index].name;
}

bool Facade::body_is_soft(int i) const { return i >= 0 && i < num_fem(); }

bool Facade::body_is_fixed(int i) const {
  if (i < num_fem() || i >= body_count()) return false;
  return sim_->model().rigid[BodySlots(sim_->model()).body(i).index].kind == RigidKind::Fixed;
}

std::string Facade::body_kind(int i) const {
  if (i < 0 || i >= body_count()) return "";
  if (i < num_fem()) return "fem";
  switch (sim_->model().rigid[BodySlots(sim_->model()).body(i).index].kind) {
    case RigidKind::Dynamic: return "dynamic";
    case RigidKind::Fixed: return "fixed";
    case RigidKind::Kinematic: return "kinematic";
  }
  return "";
}

int Facade::surface_vertex_count(int i) const {
  if (i < 0 || i >= body_count()) return 0;
  return static_cast<int>(slot_surface(sim_->model(), i).vertices.size());
}

int Facade::surface_triangle_count(int i) const {
  if (i < 0 || i >= body_count()) return 0;
  return static_cast<int>(surface_indices_[i].size() / 3);
}

const std::vector<float>& Facade::surface_positions(int i) {
  if (i < 0 || i >= body_count()) return empty_float_;
  std::vector<float>& out = surface_positions_[i];
  if (surface_generation_[i] == generation_) return out;
  const Model& m = sim_->model();
  const State& s = sim_->state();
  out.clear();
  const BodyRef body = BodySlots(m).body(i);
  if (body.type == BodyType::Fem) {
    const BoundarySurface& b = m.fem[body.index].boundary;
    out.reserve(3 * b.node_of_vertex.size());
    for (int node : b.node_of_vertex) append_xyz(out, s.fem[body.index].x[node]);
  } else {
    const int r = body.index;
    const SurfaceMesh& surf = m.rigid[r].surface;
    out.reserve(3 * surf.vertices.size());
    for (const Vec3& v : surf.vertices) append_xyz(out, rigid_point(s.rigid[r], v));
  }
  surface_generation_[i] = generation_;
  return out;
}

double Facade::body_mass(int i) const {
  if (i < 0 || i >= body_count()) return 0.0;
  const Model& m = sim_->model();
  const BodyRef body = BodySlots(m).body(i);
  if (body.type == BodyType::Fem) {
    double mass = 0.0;
    for (double mi : m.fem[body.index].node_mass) mass += mi;
    return mass;
  }
  const RigidBody& r = m.rigid[body.index];
  return r.kind == RigidKind::Dynamic ? r.mass : 0.0;
}

std::vector<double> Facade::body_center_of_mass(int i) const {
  if (i < 0 || i >= body_count()) return {};
  const Vec3 c = suction::body_center_of_mass(sim_->model(), sim_->state(), BodySlots(sim_->model()).body(i));
  return {c.x(), c.y(), c.z()};
}

const std::vector<std::uint32_t>& Facade::surface_indices(int i) {
  if (i < 0 || i >= body_count()) return empty_index_;
  return surface_indices_[i];
}

// --- cavities -----------------------------------------------------------------------------

int Facade::cavity_count() const {
  return sim_ ? static_cast<int>(sim_->state().book.cavities.size()) : 0;
}

CavityInfo Facade::cavity_info(int k) const {
  CavityInfo info;
  if (k < 0 || k >= cavity_count()) return info;
  const CavityState& c = sim_->state().book.cavities[k];
  info.id = c.id;
  info.pressure = c.pressure;
  info.volume = c.volume;
  info.air = c.air;
  info.outflow = c.outflow;
  info.temperature = c.temperature;
  info.dormant = c.dormant;
  info.bodies = c.slots;
  const CavityHold hold = cavity_hold(sim_->model(), sim_->state(), c);
  info.area = hold.area;
  info.normal = {hold.normal.x(), hold.normal.y(), hold.normal.z()};
  info.holding_force = hold.force;
  return info;
}

const std::vector<float>& Facade::cavity_positions(int k) {
  if (k < 0 || k >= cavity_count()) return empty_float_;
  if (cavity_positions_.size() < static_cast<size_t>(cavity_count()))
    cavity_positions_.resize(cavity_count());
  const CavityState& c = sim_->state().book.cavities[k];
  std::vector<float>& out = cavity_positions_[k];
  out.clear();
  out.reserve(3 * c.vertices.size());
  for (const Vec3& p : cavity_world_vertices(sim_->model(), sim_->state(), c)) append_xyz(out, p);
  return out;
}

const std::vector<std::uint32_t>& Facade::cavity_indices(int k) {
  if (k < 0 || k >= cavity_count()) return empty_index_;
  if (cavity_indices_.size() < static_cast<size_t>(cavity_count()))
    cavity_indices_.resize(cavity_count());
  const CavityState& c = sim_->state().book.cavities[k];
  std::vector<std::uint32_t>& out = cavity_indices_[k];
  out.clear();
  out.reserve(3 * c.triangles.size());
  for (const Tri& t : c.triangles)
    for (int j = 0; j < 3; ++j) out.push_back(static_cast<std::uint32_t>(t[j]));
  return out;
}

const std::vector<float>& Facade::cavity_seam(int k) {
  if (k < 0 || k >= cavity_count()) return empty_float_;
  if (cavity_seam_.size() < static_cast<size_t>(cavity_count())) cavity_seam_.resize(cavity_count());
  const CavityState& c = sim_->state().book.cavities[k];
  std::vector<float>& out = cavity_seam_[k];
  out.clear();
  const auto ring = seam_ring_edges(c);
  if (ring.empty()) return out;
  const Points x = cavity_world_vertices(sim_->model(), sim_->state(), c);
  for (const auto& e : ring) {
    append_xyz(out, x[e[0]]);
    append_xyz(out, x[e[1]]);
  }
  return out;
}

// --- contacts, probes, profile ------------------------------------------------------------

int Facade::contact_count() const {
  return sim_ ? static_cast<int>(sim_->state().contacts.size()) : 0;
}

const std::vector<float>& Facade::contacts() {
  contacts_.clear();
  if (!sim_) return contacts_;
  contacts_.reserve(6 * sim_->state().contacts.size());
  for (const ContactForce& c : sim_->state().contacts) {
    append_xyz(contacts_, c.point);
    append_xyz(contacts_, c.force);
  }
  return contacts_;
}

std::vector<int> Facade::body_contact_counts() const {
  std::vector<int> counts(body_count(), 0);
  if (!sim_) return counts;
  for (const ContactForce& c : sim_->state().contacts) {
    if (c.body_a >= 0 && c.body_a < body_count()) ++counts[c.body_a];
    if (c.body_b >= 0 && c.body_b < body_count() && c.body_b != c.body_a) ++counts[c.body_b];
  }
  return counts;
}

int Facade::spring_count() const { return sim_ ? static_cast<int>(sim_->model().springs.size()) : 0; }

const std::vector<float>& Facade::springs() {
  springs_.clear();
  if (!sim_) return springs_;
  const Model& m = sim_->model();
  springs_.reserve(6 * m.springs.size());
  for (const Spring& sp : m.springs) {
    append_xyz(springs_, spring_end_position(m, sim_->state(), sp.a));
    append_xyz(springs_, spring_end_position(m, sim_->state(), sp.b));
  }
  return springs_;
}

std::vector<std::string> Facade::probe_names() const {
  std::vector<std::string> names;
  if (!sim_) return names;
  for (const Probe& p : sim_->model().probes) names.push_back(p.name);
  return names;
}

const std::vector<double>& Facade::probe_values() {
  probe_values_.clear();
  if (sim_) probe_values_ = sim_->probe_values();
  return probe_values_;
}

ProfileInfo Facade::profile() const {
  ProfileInfo p;
  if (!sim_) return p;
  const StepProfile& s = sim_->profile();
  auto ms = [&](Stage stage) { return s.ms[static_cast<int>(stage)]; };
  p.leak_ms = ms(Stage::Leak);
  p.free_motion_ms = ms(Stage::FreeMotion);
  p.collision_ms = ms(Stage::Collision);
  p.cavities_ms = ms(Stage::Cavities);
  p.compliance_ms = ms(Stage::Compliance);
  p.solve_ms = ms(Stage::Solve);
  p.correction_ms = ms(Stage::Correction);
  p.total_ms = s.total_ms;
  p.contacts = s.contacts;
  p.constraints = s.constraints;
  p.cavities = s.cavities;
  p.iterations = s.solver_iterations;
  p.residual = s.solver_residual;
  p.factorizations = s.factorizations;
  p.cg_iterations = s.cg_iterations;
  return p;
}

// --- drivers ------------------------------------------------------------------------------

int Facade::driver_count() const {
  return sim_ ? static_cast<int>(sim_->model().drivers.size()) : 0;
}

std::string Facade::driver_name(int k) const {
  if (k < 0 || k >= driver_count()) return "";
  return sim_->model().drivers[k].name;
}

int Facade::driver_body(int k) const {
  if (k < 0 || k >= driver_count()) return -1;
  return BodySlots(sim_->model()).slot(sim_->model().drivers[k].body);
}

std::string Facade::set_driver_offset(int k, double x, double y, double z) {
  if (!sim_) return "no scene loaded";
  try {
    sim_->set_driver_offset(k, Vec3(x, y, z));
  } catch (...) {
    return current_error();
  }
  return "";
}

std::vector<double> Facade::driver_offset(int k) const {
  if (k < 0 || k >= driver_count()) return {0, 0, 0};
  const auto& offsets = sim_->state().driver_offset;
  if (static_cast<size_t>(k) >= offsets.size()) return {0, 0, 0};
  const Vec3& o = offsets[k];
  return {o.x(), o.y(), o.z()};
}

std::vector<double> Facade::driver_reaction(int k) const {
  if (k < 0 || k >= driver_count()) return {0, 0, 0};
  const auto& reactions = sim_->state().driver_reaction;
  if (static_cast<size_t>(k) >= reactions.size()) return {0, 0, 0};
  const Vec3& f = reactions[k];
  return {f.x(), f.y(), f.z()};
}

// --- CSV ----------------------------------------------------------------------------------

std::string Facade::csv_header() const {
  if (!sim_) return "";
  std::ostringstream out;
  CsvRecorder csv(out, sim_->model());
  return strip_newline(out.str());
}

std::string Facade::csv_row() const {
  if (!sim_) return "";
  std::ostringstream out;
  CsvRecorder csv(out, sim_->model());
  out.str("");  // drop the header
  csv.record(*sim_);
  return strip_newline(out.str());
}

}  // namespace suction::wasm
