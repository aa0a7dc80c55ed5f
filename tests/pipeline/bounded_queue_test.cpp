#include "pipeline/bounded_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace winnow {
namespace {

using namespace std::chrono_literals;

// How long a blocked call is given to (wrongly) complete; a short wait can only make a
// broken queue pass by luck, never make a correct one fail.
constexpr auto kStillBlocked = 50ms;
// How long a released call is given to complete: generous, as only a bug makes it matter.
constexpr auto kReleased = 10s;

TEST(BoundedQueue, KeepsFifoOrder) {
  BoundedQueue<int> queue(8);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(queue.push(i));
  EXPECT_EQ(queue.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    auto item = queue.pop();
    ASSERT_TRUE(item.has_value());
    EXPECT_EQ(*item, i);
  }
  EXPECT_EQ(queue.size(), 0u);
}

TEST(BoundedQueue, CapacityIsAtLeastOne) {
  BoundedQueue<int> queue(0);
  EXPECT_EQ(queue.capacity(), 1u);
  EXPECT_EQ(BoundedQueue<int>(3).capacity(), 3u);
}

TEST(BoundedQueue, CarriesMoveOnlyItems) {
  BoundedQueue<std::unique_ptr<int>> queue(2);
  ASSERT_TRUE(queue.push(std::make_unique<int>(7)));
  auto item = queue.pop();
  ASSERT_TRUE(item.has_value());
  ASSERT_NE(*item, nullptr);
  EXPECT_EQ(**item, 7);
}

TEST(BoundedQueue, PushBlocksWhileFullUntilAPop) {
  BoundedQueue<int> queue(2);
  ASSERT_TRUE(queue.push(1));
  ASSERT_TRUE(queue.push(2));
  auto pushed = std::async(std::launch::async, [&] { return queue.push(3); });
  EXPECT_EQ(pushed.wait_for(kStillBlocked), std::future_status::timeout)
      << "push completed on a full queue";
  EXPECT_EQ(queue.size(), 2u);

  auto first = queue.pop();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, 1);
  ASSERT_EQ(pushed.wait_for(kReleased), std::future_status::ready) << "push never woke up";
  EXPECT_TRUE(pushed.get());
  EXPECT_EQ(*queue.pop(), 2);
  EXPECT_EQ(*queue.pop(), 3);
}

TEST(BoundedQueue, PopBlocksWhileEmptyUntilAPush) {
  BoundedQueue<int> queue(2);
  auto popped = std::async(std::launch::async, [&] { return queue.pop(); });
  EXPECT_EQ(popped.wait_for(kStillBlocked), std::future_status::timeout);
  ASSERT_TRUE(queue.push(42));
  ASSERT_EQ(popped.wait_for(kReleased), std::future_status::ready);
  auto item = popped.get();
  ASSERT_TRUE(item.has_value());
  EXPECT_EQ(*item, 42);
}

TEST(BoundedQueue, CloseDrainsThenEnds) {
  BoundedQueue<int> queue(4);
  ASSERT_TRUE(queue.push(1));
  ASSERT_TRUE(queue.push(2));
  queue.close();
  EXPECT_FALSE(queue.finished());  // items still to come out
  EXPECT_EQ(queue.pop(), std::optional<int>(1));
  EXPECT_FALSE(queue.finished());
  EXPECT_EQ(queue.pop(), std::optional<int>(2));
  EXPECT_TRUE(queue.finished());
  EXPECT_EQ(queue.pop(), std::nullopt);
  EXPECT_EQ(queue.pop(), std::nullopt);  // and stays ended
}

TEST(BoundedQueue, CloseWakesABlockedPopper) {
  BoundedQueue<int> queue(2);
  auto popped = std::async(std::launch::async, [&] { return queue.pop(); });
  EXPECT_EQ(popped.wait_for(kStillBlocked), std::future_status::timeout);
  queue.close();
  ASSERT_EQ(popped.wait_for(kReleased), std::future_status::ready);
  EXPECT_EQ(popped.get(), std::nullopt);
}

TEST(BoundedQueue, CancelWakesBlockedPushersAndDropsItems) {
  BoundedQueue<int> queue(1);
  ASSERT_TRUE(queue.push(1));
  auto pushed = std::async(std::launch::async, [&] { return queue.push(2); });
  EXPECT_EQ(pushed.wait_for(kStillBlocked), std::future_status::timeout);
  queue.cancel();
  ASSERT_EQ(pushed.wait_for(kReleased), std::future_status::ready)
      << "cancel left a pusher blocked";
  EXPECT_FALSE(pushed.get());
  EXPECT_EQ(queue.size(), 0u);
  EXPECT_TRUE(queue.finished());
  EXPECT_EQ(queue.pop(), std::nullopt);
  EXPECT_FALSE(queue.push(3));
  EXPECT_EQ(queue.size(), 0u);
}

TEST(BoundedQueue, CancelWakesBlockedPoppers) {
  BoundedQueue<int> queue(1);
  auto a = std::async(std::launch::async, [&] { return queue.pop(); });
  auto b = std::async(std::launch::async, [&] { return queue.pop(); });
  EXPECT_EQ(a.wait_for(kStillBlocked), std::future_status::timeout);
  queue.cancel();
  ASSERT_EQ(a.wait_for(kReleased), std::future_status::ready);
  ASSERT_EQ(b.wait_for(kReleased), std::future_status::ready);
  EXPECT_EQ(a.get(), std::nullopt);
  EXPECT_EQ(b.get(), std::nullopt);
}

TEST(BoundedQueue, CancelDropsQueuedItemsEvenAfterClose) {
  BoundedQueue<int> queue(4);
  ASSERT_TRUE(queue.push(1));
  queue.close();
  queue.cancel();
  EXPECT_EQ(queue.pop(), std::nullopt);
}

TEST(BoundedQueue, PopUntilTimesOutWhileNotFinished) {
  BoundedQueue<int> queue(2);
  auto start = std::chrono::steady_clock::now();
  auto item = queue.pop_until(start + 30ms);
  auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(item, std::nullopt);
  EXPECT_GE(waited, 30ms);         // did not give up early
  EXPECT_FALSE(queue.finished());  // a time-out, not the end of the stream

  // It still works afterwards, and returns an available item even past its deadline.
  ASSERT_TRUE(queue.push(5));
  EXPECT_EQ(queue.pop_until(std::chrono::steady_clock::now() - 1s), std::optional<int>(5));
}

TEST(BoundedQueue, PopUntilReturnsAnItemPushedBeforeTheDeadline) {
  BoundedQueue<int> queue(2);
  auto popped = std::async(std::launch::async, [&] {
    return queue.pop_until(std::chrono::steady_clock::now() + kReleased);
  });
  EXPECT_EQ(popped.wait_for(kStillBlocked), std::future_status::timeout);
  ASSERT_TRUE(queue.push(9));
  ASSERT_EQ(popped.wait_for(kReleased), std::future_status::ready);
  EXPECT_EQ(popped.get(), std::optional<int>(9));
}

TEST(BoundedQueue, PopUntilEndsAtCloseBeforeTheDeadline) {
  BoundedQueue<int> queue(2);
  queue.close();
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(queue.pop_until(start + kReleased), std::nullopt);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_TRUE(queue.finished());
}

TEST(BoundedQueue, ManyProducersAndConsumersDeliverEveryItemOnce) {
  constexpr int kProducers = 4, kConsumers = 4, kPerProducer = 2000;
  BoundedQueue<int> queue(3);
  std::mutex mutex;
  std::vector<int> received;
  std::vector<std::thread> consumers;
  for (int c = 0; c < kConsumers; ++c) {
    consumers.emplace_back([&] {
      while (auto item = queue.pop()) {
        std::lock_guard lock(mutex);
        received.push_back(*item);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) ASSERT_TRUE(queue.push(p * kPerProducer + i));
    });
  }
  for (auto& t : producers) t.join();
  queue.close();
  for (auto& t : consumers) t.join();
  ASSERT_EQ(received.size(), static_cast<size_t>(kProducers * kPerProducer));
  std::sort(received.begin(), received.end());
  for (int i = 0; i < kProducers * kPerProducer; ++i) ASSERT_EQ(received[i], i);
}

TEST(BoundedQueue, EachProducersItemsStayInOrder) {
  BoundedQueue<int> queue(2);
  std::thread producer([&] {
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(queue.push(i));
    queue.close();
  });
  int expected = 0;
  while (auto item = queue.pop()) EXPECT_EQ(*item, expected++);
  producer.join();
  EXPECT_EQ(expected, 1000);
}

}  // namespace
}  // namespace winnow
