// CSV time series of a run: one row per recorded step (the native CLI's --csv).  Numbers are
// written in the shortest form that reads back to the identical double (std::to_chars), so two
// runs of the same scene and build give byte-identical files (Box2D's determinism test).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "model/model.h"
#include "sim/simulation.h"

namespace suction {

/// shortest decimal text that parses back to exactly x ("nan", "inf", "-inf" for non-finite)
std::string format_double(double x);

/// a CSV field, quoted (RFC 4180) when it contains a comma, a quote or a line break
std::string csv_field(const std::string& text);

/// The per-step columns of a row that do not come from the cavities or the probes.
struct CsvStep {
  long step = 0;
  double time = 0.0;
  int contacts = 0;
  int solver_iterations = 0;     // the solver's iterations in the step (0: no constraint)
  double solver_residual = 0.0;  // the common residual of its forces (natural_residual)
};

/// the header of a run's CSV: the columns below, in order
std::vector<std::string> csv_columns(const Model& model);

/// Writes the columns
///   step, t [s], contacts, cavities, pressure_min [Pa], volume_total [m³], air_total [J],
///   holding_force [N] (Σ (P_atm − P)·A over the active cavities, probes/probes.h),
///   pgs_iterations and pgs_residual (the step's contact/pressure solve: sweeps used and the
///   final relative change, solver/pgs.h), with a gas law that is not isothermal
///   temperature_min and temperature_max [K] (the active cavities' air, docs/method.md §6.8),
///   then one column per probe of the model (named after it, in model order).
/// The header row is written by the constructor.
class CsvRecorder {
 public:
  CsvRecorder(std::ostream& out, const Model& model);

  /// one row for the simulation's current state (profile() of the step that led to it)
  void record(const Simulation& sim);
  /// the same row from its parts; probes: one value per model probe
  void record_row(const CsvStep& step, const CavitySummary& cavities, const std::vector<double>& probes);
  void flush() { out_.flush(); }

  long rows() const { return rows_; }  // data rows written (header not counted)
  const std::vector<std::string>& columns() const { return columns_; }

 private:
  std::ostream& out_;
  std::vector<std::string> columns_;
  long rows_ = 0;
  bool temperatures_ = false;  // the two temperature columns (a non-isothermal gas law)
  size_t probes_ = 0;          // the probe columns, the last ones
};

}  // namespace suction
