#include "gpu/gpu_runtime.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace winnow::gpu {
namespace {

using ::testing::HasSubstr;

TEST(GpuRuntime, FallbackMessageNamesWhatAndWhy) {
  EXPECT_EQ(cpu_fallback_message("fuzzy_dedup's MinHash", "no CUDA driver"),
            "winnow: no usable GPU (no CUDA driver): fuzzy_dedup's MinHash runs on the CPU");
}

// Whatever the machine: no device comes with a reason, a device with none; every device
// counted has a name and memory, the ordinal past the last has none; a build without CUDA never
// has one.
TEST(GpuRuntime, DeviceCountAndReasonAgree) {
  const int devices = device_count();
  EXPECT_EQ(device_count(), devices);  // probed once: the same answer for the whole process
  for (int d = 0; d < devices; ++d) {
    EXPECT_FALSE(device_info(d).name.empty()) << "device " << d;
    EXPECT_GT(device_info(d).memory_bytes, 0u) << "device " << d;
  }
  EXPECT_TRUE(device_info(devices).name.empty());
  if (devices == 0) {
    EXPECT_FALSE(unavailable_reason().empty());
    EXPECT_TRUE(device_info(0).name.empty());
  } else {
    EXPECT_TRUE(unavailable_reason().empty());
    EXPECT_FALSE(device_info(0).name.empty());
  }
  if (!built_with_cuda()) {
    EXPECT_EQ(devices, 0);
    EXPECT_THAT(unavailable_reason(), HasSubstr("without CUDA"));
  }
  EXPECT_TRUE(device_info(-1).name.empty());
}

// The fallback line is printed once per process, and only by a build with CUDA.
TEST(GpuRuntime, FallbackIsSaidOnceAndOnlyWithCuda) {
  testing::internal::CaptureStderr();
  note_cpu_fallback("a", "first reason");
  note_cpu_fallback("b", "second reason");
  std::string said = testing::internal::GetCapturedStderr();
  if (built_with_cuda()) {
    EXPECT_EQ(said, "winnow: no usable GPU (first reason): a runs on the CPU\n");
  } else {
    EXPECT_EQ(said, "");
  }
}

// A retired device (a sticky CUDA error met it) stays retired with its first reason, said once
// on stderr; other devices are untouched, and no memory is reported free on it.
TEST(GpuRuntime, RetiredDeviceKeepsItsFirstReason) {
  EXPECT_EQ(retired_reason(40), "");
  testing::internal::CaptureStderr();
  retire_device(40, "an illegal memory access was encountered");
  retire_device(40, "something later");
  std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(said,
            "winnow: GPU 40 retired after a sticky CUDA error (an illegal memory access was "
            "encountered): its work runs on the CPU\n");
  EXPECT_EQ(retired_reason(40), "an illegal memory access was encountered");
  EXPECT_EQ(retired_reason(41), "");
  EXPECT_EQ(free_memory(40), 0u);
}

}  // namespace
}  // namespace winnow::gpu
