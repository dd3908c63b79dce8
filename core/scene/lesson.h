// Lessons: the page's guided explorations (lessons/NAME.json, schema lessons/lesson.schema.json,
// docs/web.md "Lessons") checked as data, like scenes, for `suction validate LESSON`.  The page
// checks a lesson with web/src/lesson_format.js; this is the same check in the core's words (the
// keys, the types, the events, the quantities of "explain" and "answer_from"), and one the page
// cannot make: each step's scene is loaded by the core with the step's values (its "set"), so a
// value the scene refuses is named at its pointer in the lesson.  The vocabulary (events, show
// keys, quantities) is the page's; tests/scene/test_lesson.cpp reads web/src/lesson_events.js and
// lesson_format.js and fails when the two lists differ.
#pragma once
#include <string>
#include <vector>

#include "common/error.h"
#include "scene/quality.h"

namespace suction {

/// the events a step may pause at (besides t=SECONDS)
const std::vector<std::string>& lesson_events();
/// the keys of a step's "show"
const std::vector<std::string>& lesson_show_keys();
/// quantities of one sample ({pressure_kPa}); also after at.EVENT. and last_cavity.
const std::vector<std::string>& lesson_instant_quantities();
/// quantities over the run so far ({max_holding_force})
const std::vector<std::string>& lesson_aggregate_quantities();
/// suffixes of probe.NAME. ({probe.object_z.rise})
const std::vector<std::string>& lesson_probe_stats();

/// '' when NAME is a quantity a lesson may show with the scene's probes, else what is wrong
/// (probe_names null: the scene is not known, its probe names are not checked)
std::string lesson_quantity_error(const std::string& name, const std::vector<std::string>* probe_names);

/// True when a parsed JSON document is a lesson rather than a scene: an object with "steps" and
/// without "bodies" (what `suction validate` checks it as).
bool json_text_is_lesson(const std::string& text);

/// The issues of a lesson (empty: good).  scenes_dir: the folder of the shipped scenes (a step's
/// "scene": NAME is scenes_dir/NAME.json); each step's scene is loaded at `quality` with the
/// step's "set" as overrides, and what it refuses is reported at /steps/K/set/POINTER (or at
/// /steps/K/set when it shows elsewhere in the scene).  Never throws for bad input.
std::vector<SceneIssue> validate_lesson_text(const std::string& text, const std::string& scenes_dir,
                                             Quality quality = Quality::Interactive);
/// The same for a file (unreadable: one issue with an empty pointer).
std::vector<SceneIssue> validate_lesson_file(const std::string& path, const std::string& scenes_dir,
                                             Quality quality = Quality::Interactive);

}  // namespace suction
