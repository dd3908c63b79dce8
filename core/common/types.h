// Basic numeric types shared by every module.  SI units throughout: m, kg, s, N, Pa.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <vector>

namespace suction {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;
using VecX = Eigen::VectorXd;
using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;

/// positions or vectors of a point set: #points×3, contiguous (std::vector<Vec3> is dense)
using Points = std::vector<Vec3>;
using Tet = std::array<int, 4>;
using Tri = std::array<int, 3>;

/// cross-product matrix: skew(w) v = w × v
inline Mat3 skew(const Vec3& w) {
  Mat3 W;
  W << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  return W;
}

constexpr double kPAtm = 101325.0;  // ambient pressure [Pa]
constexpr double kTAmbient = 293.15;  // ambient temperature [K] (20 °C)
constexpr double kPi = 3.14159265358979323846;

}  // namespace suction
