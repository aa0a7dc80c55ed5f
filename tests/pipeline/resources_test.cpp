#include "pipeline/resources.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

namespace winnow {
namespace {

using ::testing::HasSubstr;

class Env {
 public:
  Env(const char* name, const char* value) : name_(name) {
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~Env() { unsetenv(name_); }

 private:
  const char* name_;
};

TEST(Resources, GpuCountOverrideAndVisibleDevices) {
  {
    Env count("WINNOW_GPU_COUNT", "3");
    EXPECT_EQ(detect_gpus(), 3);
  }
  int detected = 0;
  {
    Env count("WINNOW_GPU_COUNT", nullptr);
    detected = detect_gpus();  // this machine's own count
  }
  // A malformed or out-of-range override is ignored: the count is the machine's, as without one.
  for (const char* bad : {"lots", "", "-1", "2x", "4097"}) {
    Env count("WINNOW_GPU_COUNT", bad);
    EXPECT_EQ(detect_gpus(), detected) << "WINNOW_GPU_COUNT=" << bad;
  }
  {
    Env count("WINNOW_GPU_COUNT", "0");
    EXPECT_EQ(detect_gpus(), 0);  // an override of 0 is honoured, not taken for "unset"
  }
  {
    Env count("WINNOW_GPU_COUNT", nullptr);
    Env visible("CUDA_VISIBLE_DEVICES", "");
    EXPECT_EQ(detect_gpus(), 0);  // every device hidden
  }
  {
    Env count("WINNOW_GPU_COUNT", nullptr);
    Env visible("CUDA_VISIBLE_DEVICES", "-1");
    EXPECT_EQ(detect_gpus(), 0);
  }
}

TEST(Resources, GpuStagesWithoutGpusFailOrFallBack) {
  ResourceBudget none{8, 0};
  auto fails = resolve_stage_resources("embed", {1, 1.0, false}, none);
  ASSERT_FALSE(fails.is_ok());
  EXPECT_THAT(fails.status().message(), HasSubstr("stage 'embed' needs a GPU"));
  auto falls_back = resolve_stage_resources("embed", {2, 0.5, true}, none);
  ASSERT_TRUE(falls_back.is_ok());
  EXPECT_EQ(falls_back->gpus, 0);
  EXPECT_EQ(falls_back->cpus, 2);
  auto fits = resolve_stage_resources("embed", {1, 0.25, false}, {8, 1});
  ASSERT_TRUE(fits.is_ok());
  EXPECT_EQ(fits->gpus, 0.25);
  EXPECT_EQ(fits->cpus, 0);  // waiting for its device holds no core's share of the budget
  EXPECT_FALSE(resolve_stage_resources("big", {1, 2, false}, {8, 1}).is_ok());
  EXPECT_THAT(resolve_stage_resources("odd", {1, 1.5, false}, {8, 2}).status().message(),
              HasSubstr("whole number"));
}

TEST(Resources, MaxWorkersPacksGpusPerDevice) {
  EXPECT_EQ(max_workers_for({1, 0, false}, {6, 0}), 6);
  EXPECT_EQ(max_workers_for({2, 0, false}, {7, 0}), 3);
  EXPECT_EQ(max_workers_for({1, 1, false}, {16, 2}), 2);
  EXPECT_EQ(max_workers_for({1, 0.25, false}, {16, 2}), 8);
  EXPECT_EQ(max_workers_for({1, 0.4, false}, {16, 2}), 4);  // 2 per device: 0.8 of each used
  EXPECT_EQ(max_workers_for({1, 2, false}, {16, 3}), 1);
}

TEST(Resources, PoolNeverLendsMoreThanTheBudget) {
  ResourcePool pool({3, 1});
  std::atomic<int> cpus_now{0}, gpus_now{0}, cpu_peak{0}, gpu_peak{0};
  auto bump = [](std::atomic<int>& now, std::atomic<int>& peak, int by) {
    int v = now += by;
    int p = peak.load();
    while (v > p && !peak.compare_exchange_weak(p, v)) {
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      StageResources needs{1, t % 2 ? 0.5 : 0.0, false};
      int gpu_units = t % 2 ? 1 : 0;  // halves
      for (int i = 0; i < 200; ++i) {
        ASSERT_TRUE(pool.acquire(needs));
        bump(cpus_now, cpu_peak, 1);
        bump(gpus_now, gpu_peak, gpu_units);
        std::this_thread::yield();
        cpus_now -= 1;
        gpus_now -= gpu_units;
        pool.release(needs);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(cpu_peak.load(), 3);
  EXPECT_LE(gpu_peak.load(), 2);  // two halves of the one GPU
  pool.cancel();
  EXPECT_FALSE(pool.acquire({1, 0, false}));
}

}  // namespace
}  // namespace winnow
