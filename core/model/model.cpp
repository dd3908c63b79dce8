#include "model/model.h"

#include <algorithm>

namespace suction {

Vec3 Keyframes::value(double t) const {
  if (times.empty()) return Vec3::Zero();
  if (t <= times.front()) return values.front();
  if (t >= times.back()) return values.back();
  // first keyframe strictly after t
  const auto it = std::upper_bound(times.begin(), times.end(), t);
  const size_t k = static_cast<size_t>(it - times.begin());
  const double s = (t - times[k - 1]) / (times[k] - times[k - 1]);
  return (1.0 - s) * values[k - 1] + s * values[k];
}

Vec3 Keyframes::integral(double t) const {
  if (times.empty() || t <= 0.0) return Vec3::Zero();
  Vec3 sum = Vec3::Zero();
  double t_prev = 0.0;
  // constant value[0] before the first keyframe
  if (times.front() > 0.0) {
    const double t_end = std::min(t, times.front());
    sum += (t_end - t_prev) * values.front();
    t_prev = t_end;
  }
  // trapezoids over each linear segment
  for (size_t k = 1; k < times.size() && t_prev < t; ++k) {
    const double a = std::max(times[k - 1], t_prev), b = std::min(times[k], t);
    if (b <= a) continue;
    sum += 0.5 * (b - a) * (value(a) + value(b));
    t_prev = b;
  }
  // constant last value after the last keyframe
  if (t > t_prev) sum += (t - t_prev) * value(t);
  return sum;
}

Vec3 Driver::displacement(double t) const {
  return kind == DriverKind::Velocity ? keyframes.integral(t) : keyframes.value(t);
}

std::optional<BodyRef> Model::find_body(const std::string& name) const {
  for (size_t i = 0; i < fem.size(); ++i)
    if (fem[i].name == name) return BodyRef{BodyType::Fem, static_cast<int>(i)};
  for (size_t i = 0; i < rigid.size(); ++i)
    if (rigid[i].name == name) return BodyRef{BodyType::Rigid, static_cast<int>(i)};
  return std::nullopt;
}

const Parameter* Model::find_parameter(const std::string& name) const {
  for (const Parameter& p : parameters)
    if (p.name == name) return &p;
  return nullptr;
}

int Model::num_fem_nodes() const {
  int n = 0;
  for (const auto& b : fem) n += static_cast<int>(b.rest.nodes.size());
  return n;
}

}  // namespace suction
