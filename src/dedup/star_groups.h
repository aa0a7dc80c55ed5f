#pragma once
// Star groups: duplicate groups in which every removed member matches its group's survivor
// itself, for a relation that is not transitive (perceptual hashes under a Hamming threshold:
// A near B and B near C says nothing of A and C, and connected components chain distinct
// pictures through such steps). Members are visited best survivor first; an unassigned member
// becomes a centre (a survivor) and takes every unassigned member it is linked to. An item is
// therefore removed only for a survivor it matches, and a survivor is the best of what is
// left. Deterministic for a given order and link set, whatever the order of the links.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace winnow {

// The centre of each of `n` members (a centre is its own): `order` lists 0..n-1 best first;
// `links` are pairs of member indices (either way round, repeats allowed).
std::vector<uint32_t> assign_star_centres(size_t n, const std::vector<uint32_t>& order,
                                          const std::vector<std::pair<uint32_t, uint32_t>>& links);

}  // namespace winnow
