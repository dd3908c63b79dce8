#include "cavity/cavity.h"

namespace suction {

void leak_cavities(const Model&, State&, Workspace&) {}

void update_cavities(const Model&, State&, Workspace&) {}

}  // namespace suction
