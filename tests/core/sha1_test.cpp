#include "core/sha1.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "test_support.h"

namespace winnow::testing {
namespace {

std::string hex(const Sha1Digest& digest) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (uint8_t b : digest) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

// The examples of FIPS 180-4 (and its classic million-'a' message).
TEST(Sha1, StandardVectors) {
  EXPECT_EQ(hex(sha1("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(hex(sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex(sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(hex(sha1(std::string(1000000, 'a'))), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

// Real files against sha1sum, and random bytes of awkward sizes (around the 64-byte block and
// its padding) against Python's hashlib: two implementations independent of this one.
TEST(Sha1, AgreesWithSha1sumAndPythonsHashlib) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/share/common-licenses")) {
    if (!entry.is_regular_file()) continue;
    std::string path = entry.path().string();
    std::string out;
    ASSERT_EQ(run_command("sha1sum '" + path + "'", &out), 0) << out;
    EXPECT_EQ(hex(sha1(read_file(path))), out.substr(0, 40)) << path;
    ++checked;
  }
  EXPECT_GT(checked, 5);

  TempDir dir;
  std::mt19937 rng(5);
  for (size_t size : {1u, 55u, 56u, 63u, 64u, 65u, 119u, 120u, 127u, 128u, 1000u, 65537u}) {
    std::string bytes(size, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string path = dir.file("random-" + std::to_string(size));
    write_file(path, bytes);
    std::string out;
    ASSERT_EQ(run_command("python3 -c 'import hashlib,sys; "
                          "print(hashlib.sha1(open(sys.argv[1],\"rb\").read()).hexdigest())' " +
                              path,
                          &out),
              0)
        << out;
    EXPECT_EQ(hex(sha1(bytes)), out.substr(0, 40)) << size;
  }
}

}  // namespace
}  // namespace winnow::testing
