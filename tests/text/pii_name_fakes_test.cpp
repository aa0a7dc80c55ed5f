// text/pii_name_fakes: stand-ins for persons, locations and organisations, by their shapes.
#include "text/pii_name_fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "text/pii_fakes.h"

namespace winnow {
namespace {

std::string fake(PiiEntity entity, std::string_view original, uint64_t seed) {
  std::string out;
  append_pii_fake(entity, original, seed, out);
  return out;
}

TEST(PiiNameFakes, ShapesFollowTheOriginal) {
  using ::testing::MatchesRegex;
  EXPECT_THAT(fake(PiiEntity::kPerson, "Alice Smith", 1), MatchesRegex("[A-Z][a-z]+ [A-Z][a-z]+"));
  EXPECT_THAT(fake(PiiEntity::kPerson, "Smith", 1), MatchesRegex("[A-Z][a-z]+"));
  EXPECT_THAT(fake(PiiEntity::kLocation, "New York", 1), MatchesRegex("[A-Z][a-z]+"));
  EXPECT_THAT(fake(PiiEntity::kOrganization, "Acme Corp", 1),
              MatchesRegex("[A-Z][a-z]+ (Inc\\.|Ltd|Group|Corporation)"));
}

TEST(PiiNameFakes, StableAndSeeded) {
  EXPECT_EQ(fake(PiiEntity::kPerson, "Alice Smith", 1), fake(PiiEntity::kPerson, "Alice Smith", 1));
  // Over many originals and seeds the stand-ins vary (16 first names x 16 surnames).
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 64; ++seed) seen.insert(fake(PiiEntity::kPerson, "Ann Lee", seed));
  EXPECT_GT(seen.size(), 20u);
}

}  // namespace
}  // namespace winnow
