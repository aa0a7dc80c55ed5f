#include "text/pii_name_fakes.h"

#include <array>

namespace winnow {

namespace {

constexpr std::array<std::string_view, 16> kFirstNames = {
    "Alex",  "Robin", "Sam",   "Kim",  "Jordan", "Taylor", "Morgan", "Casey",
    "Jamie", "Riley", "Avery", "Noor", "Mika",   "Sasha",  "Dana",   "Luca",
};
constexpr std::array<std::string_view, 16> kSurnames = {
    "Smith",    "Novak",  "Garcia", "Okafor", "Larsen", "Tanaka", "Moreau",  "Silva",
    "Kowalski", "Haddad", "Jensen", "Rossi",  "Petrov", "Nguyen", "Fischer", "Kaya",
};
constexpr std::array<std::string_view, 16> kCities = {
    "Springfield", "Riverton",  "Lakeside",  "Fairview", "Greenville", "Brookfield",
    "Clearwater",  "Ashford",   "Millbrook", "Westport", "Oakridge",   "Hillcrest",
    "Stonebridge", "Maplewood", "Northgate", "Eastwick",
};
constexpr std::array<std::string_view, 16> kOrganizationNames = {
    "Acme",   "Globex",    "Initech", "Umbrella",  "Hooli",    "Vandelay", "Stark",   "Wonka",
    "Tyrell", "Cyberdyne", "Soylent", "Gringotts", "Aperture", "Oscorp",   "Massive", "Dynamic",
};
constexpr std::array<std::string_view, 4> kOrganizationSuffixes = {"Inc.", "Ltd", "Group",
                                                                   "Corporation"};

template <size_t N>
std::string_view pick(const std::array<std::string_view, N>& list, uint64_t draw) {
  return list[draw % N];
}

bool has_space(std::string_view s) {
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') return true;
  }
  return false;
}

}  // namespace

void append_name_fake(PiiEntity entity, std::string_view original, uint64_t draw,
                      std::string& out) {
  switch (entity) {
    case PiiEntity::kPerson:
      if (has_space(original)) {
        out += pick(kFirstNames, draw);
        out += ' ';
      }
      out += pick(kSurnames, draw >> 8);
      return;
    case PiiEntity::kLocation:
      out += pick(kCities, draw);
      return;
    case PiiEntity::kOrganization:
      out += pick(kOrganizationNames, draw);
      out += ' ';
      out += pick(kOrganizationSuffixes, draw >> 8);
      return;
    default:
      return;
  }
}

}  // namespace winnow
