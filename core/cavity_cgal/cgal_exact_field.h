// Include first in every translation unit of suction_cavity_cgal that includes CGAL, before
// any other CGAL header: the exact field type CGAL uses without GMP (the WebAssembly build).
//
// Without GMP, CGAL 5.5 with Boost <= 1.78 makes its exact field type Quotient<cpp_int>, which
// never reduces its fractions: exact constructions then multiply numbers of thousands of bits.
// Boost's cpp_rational (gcd-normalized, CGAL's own choice for Boost > 1.78) is about 25 times
// faster (measured on the dome test of the mesh union: natively 1.9 s -> 70 ms; GMP: 19 ms).
// A template specialization must be identical in every translation unit that sees it: hence
// this one header, included by mesh_union.cpp and tet_mesher.cpp.
#pragma once
#include <CGAL/config.h>  // first: decides CGAL_USE_GMP

#if !defined(CGAL_USE_GMP) && !defined(CGAL_USE_LEDA) && !defined(CGAL_USE_GMPXX)
#include <boost/version.hpp>
#if BOOST_VERSION <= 107800
#include <boost/multiprecision/cpp_int.hpp>
#include <CGAL/boost_mp.h>
#include <CGAL/Number_types/internal/Exact_type_selector.h>
namespace CGAL::internal {
template <>
struct Exact_field_selector<double> {
  using Type = boost::multiprecision::cpp_rational;
};
}  // namespace CGAL::internal
#endif
#endif
