#include "io/warc_digest.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {
namespace {

std::string python(const std::string& code, const std::string& path) {
  std::string out;
  EXPECT_EQ(run_command("python3 -c '" + code + "' " + path, &out), 0) << out;
  return out;
}

// base32 against Python's base64.b32encode, for every length around the 5-byte group.
TEST(WarcDigest, Base32AgreesWithPython) {
  TempDir dir;
  std::mt19937 rng(9);
  EXPECT_EQ(base32_encode(""), "");
  EXPECT_EQ(base32_encode("foobar"), "MZXW6YTBOI======");  // RFC 4648's example
  // Every length's bytes in a file of its own; one Python process encodes them all, one line
  // each (a process per length took most of this test's time).
  std::vector<std::string> inputs;
  std::string paths;
  for (size_t size = 1; size <= 41; ++size) {
    std::string bytes(size, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string path = dir.file("b" + std::to_string(size));
    write_file(path, bytes);
    inputs.push_back(bytes);
    paths += " " + path;
  }
  std::vector<std::string> expected = split_lines(python(
      "import base64,sys\n"
      "for p in sys.argv[1:]: print(base64.b32encode(open(p,\"rb\").read()).decode())",
      paths));
  ASSERT_EQ(expected.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(base32_encode(inputs[i]), expected[i]) << inputs[i].size();
  }
}

// What wget writes: "sha1:" and the digest in base32, checked against Python's own.
TEST(WarcDigest, ParsesAndChecksWhatWritersWrite) {
  TempDir dir;
  std::string block = read_file("/usr/share/common-licenses/GPL-3");
  std::string path = dir.file("block");
  write_file(path, block);
  std::string b32 = python(
      "import base64,hashlib,sys; "
      "print(base64.b32encode(hashlib.sha1(open(sys.argv[1],\"rb\").read()).digest()).decode(), "
      "end=\"\")",
      path);
  std::string hex = python(
      "import hashlib,sys; print(hashlib.sha1(open(sys.argv[1],\"rb\").read()).hexdigest(), "
      "end=\"\")",
      path);
  ASSERT_EQ(b32.size(), 32u);
  for (const std::string& value : {"sha1:" + b32, "SHA1:" + b32, " sha1:" + b32 + " ",
                                   "sha1:" + hex, "sha1:" + [&] {
                                     std::string lower = b32;
                                     for (char& c : lower) c = static_cast<char>(std::tolower(c));
                                     return lower;
                                   }()}) {
    SCOPED_TRACE(value);
    auto digest = WarcDigest::parse(value);
    ASSERT_TRUE(digest.has_value());
    EXPECT_TRUE(digest->matches(block));
    EXPECT_FALSE(digest->matches(block.substr(1)));
    EXPECT_EQ(warc_digest_text(digest->digest()), "sha1:" + b32);
  }
  // Not checkable: other algorithms, bad characters, wrong lengths, no label.
  for (const std::string& value : std::vector<std::string>{
           "sha256:" + b32, "md5:0123456789abcdef0123456789abcdef", "sha1:" + b32.substr(1),
           "sha1:" + b32.substr(0, 31) + "1", b32, ""}) {
    EXPECT_FALSE(WarcDigest::parse(value).has_value()) << value;
  }
}

}  // namespace
}  // namespace winnow::testing
