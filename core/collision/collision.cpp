#include "collision/collision.h"

namespace suction {

void detect_collisions(const Model&, const State&, Workspace& work) { work.num_contacts = 0; }

}  // namespace suction
