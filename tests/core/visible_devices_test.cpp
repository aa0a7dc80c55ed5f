#include "core/visible_devices.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace winnow {
namespace {

using Devices = std::vector<std::string>;

TEST(VisibleDevices, UnsetMeansEveryDevice) { EXPECT_FALSE(parse_visible_devices(nullptr)); }

TEST(VisibleDevices, OrdinalsAndUuidsInOrder) {
  EXPECT_EQ(*parse_visible_devices("0"), Devices({"0"}));
  EXPECT_EQ(*parse_visible_devices("2,0"), Devices({"2", "0"}));
  EXPECT_EQ(*parse_visible_devices(" 1 , 3 "), Devices({"1", "3"}));
  EXPECT_EQ(*parse_visible_devices("007"), Devices({"7"}));
  EXPECT_EQ(*parse_visible_devices("GPU-8932f937-d72c-4106-c12f-20bd9faed9f6,1"),
            Devices({"GPU-8932f937-d72c-4106-c12f-20bd9faed9f6", "1"}));
  EXPECT_EQ(*parse_visible_devices("MIG-5c8b"), Devices({"MIG-5c8b"}));
}

// The runtime stops at the first entry it cannot read: nothing after it is visible.
TEST(VisibleDevices, StopsAtTheFirstInvalidEntry) {
  EXPECT_EQ(*parse_visible_devices(""), Devices{});
  EXPECT_EQ(*parse_visible_devices("-1"), Devices{});
  EXPECT_EQ(*parse_visible_devices("0,1,-1,2"), Devices({"0", "1"}));
  EXPECT_EQ(*parse_visible_devices("0,x,2"), Devices({"0"}));
  EXPECT_EQ(*parse_visible_devices("0,,1"), Devices({"0"}));
  EXPECT_EQ(*parse_visible_devices("1,1,2"), Devices({"1"}));
  EXPECT_EQ(*parse_visible_devices("GPU-,0"), Devices{});
}

TEST(VisibleDevices, ReadsTheEnvironment) {
  const char* saved = std::getenv("CUDA_VISIBLE_DEVICES");
  std::string old = saved ? saved : "";
  setenv("CUDA_VISIBLE_DEVICES", "3,1", 1);
  EXPECT_EQ(*visible_devices_from_environment(), Devices({"3", "1"}));
  unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_FALSE(visible_devices_from_environment());
  if (saved) setenv("CUDA_VISIBLE_DEVICES", old.c_str(), 1);
}

}  // namespace
}  // namespace winnow
