#include "stages/stage_list.h"

namespace suction {

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::Leak: return "leak";
    case Stage::FreeMotion: return "free_motion";
    case Stage::Collision: return "collision";
    case Stage::Cavities: return "cavities";
    case Stage::Compliance: return "compliance";
    case Stage::Solve: return "solve";
    case Stage::Correction: return "correction";
    case Stage::Count: break;
  }
  return "?";
}

}  // namespace suction
