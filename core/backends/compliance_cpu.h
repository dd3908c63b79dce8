// The CPU compliance backend (always built; the reference every other backend is checked against).
#pragma once
#include "backends/compliance_backend.h"

namespace suction {

std::unique_ptr<ComplianceBackend> make_cpu_compliance_backend();

}  // namespace suction
