#include "core/worker_device.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/rank_devices.h"
#include "pipeline/device_placement.h"

namespace winnow {
namespace {

TEST(WorkerDevice, BindingIsPerThread) {
  EXPECT_EQ(worker_gpu_device(), -1);
  set_worker_gpu_device(2);
  int other = 0;
  std::thread([&] { other = worker_gpu_device(); }).join();
  EXPECT_EQ(other, -1);
  EXPECT_EQ(worker_gpu_device(), 2);
  set_worker_gpu_device(-1);
}

TEST(WorkerDevice, PicksTheBoundDeviceElseSpreadsInTurn) {
  EXPECT_EQ(pick_gpu_device(-1, 0, 0), -1);  // no device at all
  EXPECT_EQ(pick_gpu_device(3, 0, 0), -1);
  EXPECT_EQ(pick_gpu_device(0, 4, 7), 0);  // bound: the turn does not matter
  EXPECT_EQ(pick_gpu_device(3, 4, 0), 3);
  EXPECT_EQ(pick_gpu_device(5, 4, 0), 1);  // a binding wider than what is visible wraps
  // Unbound users take the devices in turn, not all device 0.
  std::vector<int> picked;
  for (uint64_t turn = 0; turn < 6; ++turn) picked.push_back(pick_gpu_device(-1, 3, turn));
  EXPECT_EQ(picked, (std::vector<int>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(pick_gpu_device(-1, 3, (uint64_t{1} << 40) + 1), 2);  // 2^40 = 1 (mod 3)
}

// The whole chain on one node of 8 GPUs, 4 ranks, each rank's GPU stage with workers of a
// whole GPU each: the rank takes its share of CUDA_VISIBLE_DEVICES (rank_devices.h), the
// executor binds each worker to one of the rank's devices (device_placement.h), and the
// session or hasher picks the worker's device. Every (rank, worker) lands on its own physical
// GPU, none of them shared and none left idle.
TEST(WorkerDevice, EachWorkerOfEachRankGetsItsOwnPhysicalDevice) {
  const std::vector<std::string> node = {"0", "1", "2", "3", "4", "5", "6", "7"};
  const int ranks = 4;
  std::multiset<std::string> used;
  for (int rank = 0; rank < ranks; ++rank) {
    const std::vector<std::string> mine = devices_of_rank(node, LocalRank{rank, ranks});
    ASSERT_EQ(mine.size(), 2u);
    DevicePlacement placement(static_cast<double>(mine.size()));
    for (int worker = 0; worker < 2; ++worker) {
      const int bound = placement.bind(1.0);
      ASSERT_GE(bound, 0);
      const int device = pick_gpu_device(bound, static_cast<int>(mine.size()), 0);
      ASSERT_GE(device, 0);
      used.insert(mine[static_cast<size_t>(device)]);
    }
  }
  EXPECT_EQ(used, std::multiset<std::string>(node.begin(), node.end()));
}

// Fewer devices than ranks: each rank shares device (rank mod devices), and its workers, bound
// to the rank's one visible device, all use it (device 0 of the rank, not the node's device 0).
TEST(WorkerDevice, RanksSharingADeviceUseTheirShareNotDeviceZero) {
  const std::vector<std::string> node = {"GPU-a", "GPU-b"};
  for (int rank = 0; rank < 4; ++rank) {
    const std::vector<std::string> mine = devices_of_rank(node, LocalRank{rank, 4});
    ASSERT_EQ(mine.size(), 1u);
    DevicePlacement placement(1.0);
    for (int worker = 0; worker < 4; ++worker) {
      const int bound = placement.bind(0.25);
      ASSERT_EQ(bound, 0);
      EXPECT_EQ(mine[static_cast<size_t>(pick_gpu_device(bound, 1, 0))],
                node[static_cast<size_t>(rank % 2)]);
    }
  }
}

}  // namespace
}  // namespace winnow
