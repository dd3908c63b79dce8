// Collision detection between the surfaces of several bodies: a bounding volume hierarchy
// over each body's triangles (topology built once, refit every step) and proximity queries
// (vertex–triangle both ways, edge–edge) within the alarm distance.
#pragma once
#include <memory>

#include "collision/contact.h"

namespace suction {

class TriangleBvh;

class ContactDetector {
 public:
  ContactDetector();
  ~ContactDetector();
  ContactDetector(ContactDetector&&) noexcept;
  ContactDetector& operator=(ContactDetector&&) noexcept;

  /// Sets the bodies (fixed topology).  triangles[i]: body i's closed, outward-oriented
  /// surface triangles (indices into its vertex list); movable[i]: false for bodies that never
  /// move (fixed), whose pairs with other immovable bodies are skipped.
  void set_bodies(std::vector<std::vector<Tri>> triangles, std::vector<bool> movable);

  /// Pairs to test: by default every pair (i < j) with at least one movable body.
  /// exclude_pair(i, j) removes a pair (e.g. a kinematic body and a fixed one).
  void exclude_pair(int i, int j);

  /// Turns on self-contact of body `body` (an FEM surface that may fold onto itself): its
  /// vertices are also tested against its own triangles, except the pairs whose rest-shape
  /// distance is below `exclusion` (a vertex and the triangles around it, and the two sides of
  /// a wall thinner than that).  rest: the body's surface vertices at rest.  Only
  /// vertex–triangle contacts are made (no edge–edge within one body).
  void enable_self_contact(int body, const Points& rest, double exclusion);

  /// Finds the contacts at the given world positions of every body's surface vertices
  /// (positions[i]: #vertices_i×3).  Deterministic order: the pairs (i < j) first, then the
  /// self-contacts of each body (a.body == b.body).  The normal points from b to a.
  /// sides (sorted, may be null; used with settings.keep_side): the side each vertex was on
  /// (VertexSide); a vertex listed with a body takes no triangle of it whose contact normal
  /// turns more than 120° away from the listed one.
  const std::vector<Contact>& detect(const std::vector<Points>& positions,
                                     const CollisionSettings& settings,
                                     const std::vector<VertexSide>* sides = nullptr);

  const std::vector<Contact>& contacts() const { return contacts_; }

  /// The face a surface vertex crossed (method §5.2), for a contact that the last detect() (at
  /// positions `to`) gave it with a face it was behind at `from` (the start of the step): the
  /// nearest-surface rule there would push it out through the far side of what it entered.
  /// Among body b's triangles whose plane vertex v of body a was in front of at `from` (the
  /// triangle at `from`) and is behind or within the band of at `to`, the one it crosses first
  /// along the straight path, where the crossing point lies on the triangle (within the band);
  /// the contact as detect() makes it, at `to`: the face's normal, the signed distance to its
  /// plane as the gap (deep and negative: the solve pushes the vertex back out the way it came)
  /// and the vertex–triangle key.  false when there is none.  Valid after detect(to, ...).
  bool crossing_contact(int a, int v, int b, const std::vector<Points>& from, const std::vector<Points>& to,
                        const CollisionSettings& settings, Contact& out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<Contact> contacts_;
};

}  // namespace suction
