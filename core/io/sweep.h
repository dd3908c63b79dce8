// Parameter sweeps (`suction sweep`, docs/cli.md): the grid of scene overrides, the summary of
// one run's CSV, and the result table, one row per run.  Pure text and numbers: the native CLI
// runs the simulations (each an independent process) and uses these to plan and to report.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace suction {

/// One axis of a grid: a JSON pointer of the scene and the values it takes, as written after
/// `--set POINTER=` (JSON scalars or "=expression").
struct SweepAxis {
  std::string pointer;
  std::vector<std::string> values;
};

/// "POINTER=V1,V2,...": InputError when there is no '=', the pointer does not start with '/',
/// or a value is empty.
SweepAxis parse_sweep_axis(const std::string& spec);

/// Every combination of the axes' values, the first axis varying slowest; each is the list of
/// values, one per axis.  InputError above max_runs combinations.
std::vector<std::vector<std::string>> sweep_combinations(const std::vector<SweepAxis>& axes, size_t max_runs = 100000);

/// The summary of one run (a `suction run --csv` table): for every column but `step` and `t`,
/// its minimum and maximum with the first time each is reached, its final value, and how far its
/// maximum is above its first value (`NAME_min`, `NAME_t_min`, `NAME_max`, `NAME_t_max`,
/// `NAME_final`, `NAME_rise`: a lift, from any origin); then `seal_t`, the first
/// time a cavity is active, and `release_t`, the first time after it with none (NaN when
/// there is no such time).  Names and values in that order.
struct RunSummary {
  std::vector<std::string> names;
  std::vector<double> values;
};
/// InputError naming `name_for_errors` for a table without `t` or `cavities`, without rows, or
/// with a field that is not a number.
RunSummary summarize_run_csv(const std::string& csv_text, const std::string& name_for_errors);

/// What a run's log (its stdout and stderr, as `suction sweep` keeps it) says about its health:
/// `warnings` (lines "warning: ..."), `interpenetrations` (the watchdog's warnings of a surface
/// vertex inside another body or gone to the far side of a thin wall: each pair of bodies once
/// per kind), `interpenetration_t` (the time of the first, NaN when none), `union_failures` and
/// `surface_repairs` (the run summary's "unions" lines; 0 when absent).  Names and values in
/// that order; a log without any of these (a quiet run that printed nothing) gives zeros.
RunSummary summarize_run_log(const std::string& log_text);

/// One row of the result table: the grid values, the outcome, and the summary of an ok run.
struct SweepRow {
  std::vector<std::string> grid;   // one value per axis, as given
  std::string status;              // "ok" or "failed"
  int exit_code = 0;               // of `suction run`
  std::string error;               // its last error line ("" when ok)
  std::vector<std::pair<std::string, std::string>> metrics;  // summary name, number text ("" for NaN)
};

/// row.metrics from a run's summary (numbers as their shortest round-trip text)
void set_metrics(SweepRow& row, const RunSummary& summary);

/// The result table as CSV: the axes' pointers, `status`, `exit_code`, `error`, then the union
/// of the rows' metric names in the order they first appear.  Rows in the given order; numbers
/// as their shortest round-trip text, so the table does not depend on how the runs were spread.
std::string format_sweep_table(const std::vector<SweepAxis>& axes, const std::vector<SweepRow>& rows);

/// Reads a table written by format_sweep_table for the same axes (resuming a sweep): its rows.
/// InputError naming the file when its first columns are not the axes' pointers or a row has
/// another number of fields than the header.
std::vector<SweepRow> parse_sweep_table(const std::string& csv_text, const std::vector<SweepAxis>& axes,
                                        const std::string& name_for_errors);

/// Splits CSV text into records of fields (RFC 4180: quoted fields may hold commas, quotes
/// doubled, line breaks); a final line break is optional.
std::vector<std::vector<std::string>> parse_csv_records(const std::string& text);

}  // namespace suction
