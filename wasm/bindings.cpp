// Embind layer of the simulator for JavaScript: glue only.  Everything is implemented by
// suction::wasm::Facade (facade.h); this file converts its results to JS values.  The API is
// documented in docs/wasm-api.md (and typed in suction_wasm.d.ts).
//
// Typed arrays (Float32Array, Uint32Array, Float64Array) are views onto wasm memory, not
// copies: they are valid until the next load/setOverride/step/reset (or the next call of the
// same getter), and memory growth detaches them.  Re-acquire them after every such call.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/parallel.h"
#include "facade.h"

#ifndef SUCTION_VERSION
#define SUCTION_VERSION "0.1.0"
#endif

using emscripten::val;
using suction::wasm::Facade;

namespace {

std::string version() { return SUCTION_VERSION; }
// the compliance's thread count (common/parallel.h); 1 in a module built without -pthread
int set_threads(int n) {
  suction::set_thread_count(n);
  return suction::thread_count();
}
int threads() { return suction::thread_count(); }

/// writes a file into the module's file system (MEMFS in the browser), e.g. a mesh that a
/// scene references relative to its baseDir, creating its folders; '' or the error
std::string write_file(const std::string& path, const std::string& data) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) return "cannot create '" + parent.string() + "': " + ec.message();
  std::ofstream out(path, std::ios::binary);
  if (!out) return "cannot open '" + path + "' for writing";
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  return out ? "" : "cannot write '" + path + "'";
}

template <typename T>
val view(const std::vector<T>& v) {
  return val(emscripten::typed_memory_view(v.size(), v.data()));
}

/// a JS array of the elements (a copy): vectors of numbers or strings, std::array
template <typename Range>
val to_array(const Range& r) {
  val a = val::array();
  for (const auto& x : r) a.call<void>("push", x);
  return a;
}

// --- Simulator methods that need a conversion ------------------------------------------
val surface_positions(Facade& f, int i) { return view(f.surface_positions(i)); }
val surface_indices(Facade& f, int i) { return view(f.surface_indices(i)); }
val cavity_positions(Facade& f, int k) { return view(f.cavity_positions(k)); }
val cavity_indices(Facade& f, int k) { return view(f.cavity_indices(k)); }
val cavity_seam(Facade& f, int k) { return view(f.cavity_seam(k)); }
val contacts(Facade& f) { return view(f.contacts()); }
val springs(Facade& f) { return view(f.springs()); }
val probe_values(Facade& f) { return view(f.probe_values()); }
val probe_names(const Facade& f) { return to_array(f.probe_names()); }
val overrides(const Facade& f) { return to_array(f.overrides()); }
val quality_changes(const Facade& f) { return to_array(f.quality_changes()); }
val take_warnings(Facade& f) { return to_array(f.take_warnings()); }
val driver_offset(const Facade& f, int k) { return to_array(f.driver_offset(k)); }
val body_center_of_mass(const Facade& f, int i) { return to_array(f.body_center_of_mass(i)); }
val body_contact_counts(const Facade& f) { return to_array(f.body_contact_counts()); }
val driver_reaction(const Facade& f, int k) { return to_array(f.driver_reaction(k)); }
double step_count(const Facade& f) { return static_cast<double>(f.step_count()); }

// the fields Embind cannot take as they are: vectors become JS arrays, an absent bound null
val cavity_bodies(const suction::wasm::CavityInfo& c) { return to_array(c.bodies); }
val cavity_normal(const suction::wasm::CavityInfo& c) { return to_array(c.normal); }
val parameter_min(const suction::wasm::ParameterInfo& p) { return p.min ? val(*p.min) : val::null(); }
val parameter_max(const suction::wasm::ParameterInfo& p) { return p.max ? val(*p.max) : val::null(); }
// value objects are only ever returned to JavaScript: their setters are never called
template <typename T>
void read_only(T&, val) {}

val parameters(const Facade& f) {
  val a = val::array();
  for (const suction::wasm::ParameterInfo& p : f.parameters()) a.call<void>("push", val(p));
  return a;
}

}  // namespace

EMSCRIPTEN_BINDINGS(suction) {
  using suction::wasm::CavityInfo;
  using suction::wasm::ParameterInfo;
  using suction::wasm::ProfileInfo;
  // Each structure JavaScript sees is registered here once, as a plain object with camelCase
  // fields (suction_wasm.d.ts declares the same; wasm/tests/test_dts.js checks the two agree).
  emscripten::value_object<ProfileInfo>("ProfileInfo")
      .field("leakMs", &ProfileInfo::leak_ms)
      .field("freeMotionMs", &ProfileInfo::free_motion_ms)
      .field("collisionMs", &ProfileInfo::collision_ms)
      .field("cavitiesMs", &ProfileInfo::cavities_ms)
      .field("complianceMs", &ProfileInfo::compliance_ms)
      .field("solveMs", &ProfileInfo::solve_ms)
      .field("correctionMs", &ProfileInfo::correction_ms)
      .field("totalMs", &ProfileInfo::total_ms)
      .field("contacts", &ProfileInfo::contacts)
      .field("constraints", &ProfileInfo::constraints)
      .field("cavities", &ProfileInfo::cavities)
      .field("iterations", &ProfileInfo::iterations)
      .field("residual", &ProfileInfo::residual)
      .field("factorizations", &ProfileInfo::factorizations)
      .field("cgIterations", &ProfileInfo::cg_iterations);
  emscripten::value_object<CavityInfo>("CavityInfo")
      .field("id", &CavityInfo::id)
      .field("pressure", &CavityInfo::pressure)
      .field("volume", &CavityInfo::volume)
      .field("air", &CavityInfo::air)
      .field("outflow", &CavityInfo::outflow)
      .field("temperature", &CavityInfo::temperature)
      .field("dormant", &CavityInfo::dormant)
      .field("bodies", &cavity_bodies, &read_only<CavityInfo>)
      .field("area", &CavityInfo::area)
      .field("normal", &cavity_normal, &read_only<CavityInfo>)
      .field("holdingForce", &CavityInfo::holding_force);
  emscripten::value_object<ParameterInfo>("Parameter")
      .field("name", &ParameterInfo::name)
      .field("value", &ParameterInfo::value)
      .field("min", &parameter_min, &read_only<ParameterInfo>)
      .field("max", &parameter_max, &read_only<ParameterInfo>)
      .field("unit", &ParameterInfo::unit)
      .field("doc", &ParameterInfo::doc);

  emscripten::function("version", &version);
  emscripten::function("writeFile", &write_file);
  emscripten::function("setThreads", &set_threads);
  emscripten::function("threads", &threads);

  emscripten::class_<Facade>("Simulator")
      .constructor<>()
      // scene and simulation
      .function("load", &Facade::load)
      .function("setOverride", &Facade::set_override)
      .function("tune", &Facade::tune)
      .function("clearOverrides", &Facade::clear_overrides)
      .function("overrides", &overrides)
      .function("setQuality", &Facade::set_quality)
      .function("quality", &Facade::quality)
      .function("qualityChanges", &quality_changes)
      .function("step", &Facade::step)
      .function("takeWarnings", &take_warnings)
      .function("reset", &Facade::reset)
      .function("loaded", &Facade::loaded)
      .function("time", &Facade::time)
      .function("stepCount", &step_count)
      .function("dt", &Facade::dt)
      .function("duration", &Facade::duration)
      .function("pAtm", &Facade::p_atm)
      .function("gravity", &Facade::gravity)
      .function("sceneName", &Facade::scene_name)
      .function("sceneDescription", &Facade::scene_description)
      // bodies
      .function("bodyCount", &Facade::body_count)
      .function("bodyName", &Facade::body_name)
      .function("bodyIsSoft", &Facade::body_is_soft)
      .function("bodyIsFixed", &Facade::body_is_fixed)
      .function("bodyKind", &Facade::body_kind)
      .function("surfaceVertexCount", &Facade::surface_vertex_count)
      .function("surfaceTriangleCount", &Facade::surface_triangle_count)
      .function("surfacePositions", &surface_positions)
      .function("surfaceIndices", &surface_indices)
      .function("bodyMass", &Facade::body_mass)
      .function("bodyCenterOfMass", &body_center_of_mass)
      // cavities
      .function("cavityCount", &Facade::cavity_count)
      .function("cavityInfo", &Facade::cavity_info)
      .function("cavityPositions", &cavity_positions)
      .function("cavityIndices", &cavity_indices)
      .function("cavitySeam", &cavity_seam)
      // contacts
      .function("contactCount", &Facade::contact_count)
      .function("contacts", &contacts)
      .function("bodyContactCounts", &body_contact_counts)
      // springs
      .function("springCount", &Facade::spring_count)
      .function("springs", &springs)
      // probes, profile
      .function("probeNames", &probe_names)
      .function("probeValues", &probe_values)
      .function("profile", &Facade::profile)
      // drivers
      .function("driverCount", &Facade::driver_count)
      .function("driverName", &Facade::driver_name)
      .function("driverBody", &Facade::driver_body)
      .function("setDriverOffset", &Facade::set_driver_offset)
      .function("driverOffset", &driver_offset)
      .function("driverReaction", &driver_reaction)
      // parameters, CSV
      .function("parameters", &parameters)
      .function("csvHeader", &Facade::csv_header)
      .function("csvRow", &Facade::csv_row);
}
