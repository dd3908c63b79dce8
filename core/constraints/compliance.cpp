#include "constraints/compliance.h"

namespace suction {

void build_compliance(const Model&, const State&, Workspace& work) { work.num_constraints = 0; }

}  // namespace suction
