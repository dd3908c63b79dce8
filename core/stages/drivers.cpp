// Stage 2a, drivers that press by force (model.h: PressSegment; docs/scene-format.md,
// "segments"): an admittance controller on the driver's offset, evaluated at the start of the
// step from the reaction the driver exerted in the step before.
#include "stages/stages.h"

namespace suction {

void press_drivers(const Model& model, State& state) {
  const double h = model.settings.dt, t = state.time;
  for (size_t d = 0; d < model.drivers.size(); ++d)
    for (const PressSegment& p : model.drivers[d].presses) {
      if (t < p.t0 || t >= p.t1) continue;
      Vec3 v = p.gain * (p.force - state.driver_reaction[d]);
      const double speed = v.norm();
      if (speed > p.max_speed) v *= p.max_speed / speed;
      state.driver_offset[d] += h * v;
    }
}

}  // namespace suction
