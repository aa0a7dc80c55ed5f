// MappedMatrix: rows written in any order come back from the read-only mapping as written; the
// file is removed on reset; an empty matrix maps to nothing.
#include "dedup/mapped_matrix.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace winnow {
namespace {

TEST(MappedMatrix, RowsWrittenInAnyOrderReadBackMapped) {
  testing::TempDir dir;
  const std::string path = dir.file("m.f32");
  const size_t rows = 7, dims = 5;
  MappedMatrix m;
  ASSERT_TRUE(m.create(path, rows, dims).is_ok());
  for (size_t r : {3u, 0u, 6u, 1u, 5u, 2u, 4u}) {
    float row[dims];
    for (size_t j = 0; j < dims; ++j) row[j] = static_cast<float>(r * 10 + j) + 0.5f;
    ASSERT_TRUE(m.write_row(r, row).is_ok());
  }
  ASSERT_TRUE(m.map().is_ok());
  EXPECT_EQ(std::filesystem::file_size(path), rows * dims * sizeof(float));
  for (size_t r = 0; r < rows; ++r) {
    for (size_t j = 0; j < dims; ++j) EXPECT_EQ(m.row(r)[j], static_cast<float>(r * 10 + j) + 0.5f);
  }
  m.reset();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(MappedMatrix, EmptyMatrixMapsToNothing) {
  testing::TempDir dir;
  MappedMatrix m;
  ASSERT_TRUE(m.create(dir.file("e.f32"), 0, 384).is_ok());
  ASSERT_TRUE(m.map().is_ok());
  EXPECT_EQ(m.data(), nullptr);
}

TEST(MappedMatrix, UncreatableFileIsAnErrorNamingIt) {
  MappedMatrix m;
  Status s = m.create("/nonexistent-dir/x.f32", 2, 2);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("/nonexistent-dir/x.f32"), std::string::npos);
}

}  // namespace
}  // namespace winnow
