#pragma once
// dist::PollBackoff: how a rank waits for a pending MPI request without burning a core. MPI's
// blocking collectives busy-poll (Open MPI spins in opal_progress at 100% CPU, or calls
// sched_yield in a loop when oversubscribed, which still costs a core when one is free), so
// every rank that arrives early at a collective and waits for a slower one used to count its
// wait as CPU time. The MPI Comm (dist/mpi/mpi_comm.cpp) instead starts the collective's
// nonblocking form and tests it by this schedule: a few tests back to back (a collective whose
// peers are already there completes within them, as fast as before), then pauses that double
// from `first_pause` up to `longest_pause`, so a rank that waits seconds wakes about a
// thousand times a second (well under 1% of a core) and notices its peers at most
// `longest_pause` late.
#include <chrono>
#include <cstdint>

namespace winnow::dist {

struct PollBackoff {
  // Tests made back to back before the first pause.
  uint64_t spins = 100;
  // The first pause; each later one is twice the one before, up to `longest_pause`.
  std::chrono::nanoseconds first_pause{10'000};
  std::chrono::nanoseconds longest_pause{1'000'000};

  // The pause after the `failed`-th test that found the request pending (1 for the first):
  // zero while failed <= spins, then first_pause, 2 × first_pause, ... capped at longest_pause.
  std::chrono::nanoseconds pause_after(uint64_t failed) const;

  // The most tests one wait can make in `elapsed`: the n-th test comes after the pauses that
  // follow the n - 1 before it, and a pause lasts at least its length. What bounds the tests a
  // waiting rank makes (tests/dist/mpi_comm_check.cpp counts them).
  uint64_t most_tests_within(std::chrono::nanoseconds elapsed) const;
};

// Calls test() until it returns true, calling pause(d) between two calls with the schedule's
// pause d when d is not zero; returns how many times test() was called.
template <class Test, class Pause>
uint64_t poll_until(Test&& test, Pause&& pause, const PollBackoff& backoff = {}) {
  for (uint64_t tests = 1;; ++tests) {
    if (test()) return tests;
    const std::chrono::nanoseconds wait = backoff.pause_after(tests);
    if (wait.count() > 0) pause(wait);
  }
}

}  // namespace winnow::dist
