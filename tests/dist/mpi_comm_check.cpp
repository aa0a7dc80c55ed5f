// Run under mpirun by mpi_comm_mpi_test: the MPI Comm's collectives (dist/mpi_comm.h) with
// rounds of 1000 bytes, so messages of awkward sizes cross several rounds (and some ranks send
// nothing), checked against what each rank can compute for itself. Prints "ok" on rank 0 when
// every rank agrees everything arrived; any difference names the rank, the peer and the size.
// Then the shared counter (what hands out shards): three threads per rank take values until
// 3000 are gone, while the main thread calls barriers; every value goes to exactly one
// taker of the job. Between the two, rank 1 sleeps 200 ms before a barrier: the ranks waiting
// for it sleep too, so the tests each makes of its pending barrier are at most what
// dist/poll_backoff.h's schedule allows in the time it waited (a spinning rank would make
// millions).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dist/mpi_comm.h"
#include "dist/poll_backoff.h"

namespace {

// The bytes rank `from` sends rank `to` in exchange `round`: a size that varies (0 included)
// and contents that name the pair.
std::string message(int from, int to, int round) {
  const size_t size = static_cast<size_t>((from * 7919 + to * 104729 + round * 1299709) % 5003);
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(from * 31 + to * 17 + i * 13);
  return (from + to + round) % 4 == 0 ? std::string() : bytes;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace winnow;
  std::unique_ptr<dist::Comm> comm = dist::make_mpi_comm(&argc, &argv, 1000);
  const int me = comm->rank();
  const int n = comm->size();
  std::string problems;
  for (int round = 0; round < 5; ++round) {
    std::vector<std::string> out;
    for (int to = 0; to < n; ++to) out.push_back(message(me, to, round));
    std::vector<std::string> in = comm->all_to_all(out);
    for (int from = 0; from < n; ++from) {
      if (in[static_cast<size_t>(from)] != message(from, me, round)) {
        problems += "all_to_all from " + std::to_string(from) + " round " + std::to_string(round) + "; ";
      }
    }
    std::vector<std::string> all = comm->all_gather(message(me, me, round));
    for (int from = 0; from < n; ++from) {
      if (all[static_cast<size_t>(from)] != message(from, from, round)) {
        problems += "all_gather from " + std::to_string(from) + "; ";
      }
    }
  }
  {
    comm->barrier();
    if (me == 1) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const uint64_t tests_before = dist::mpi_wait_tests();
    const auto start = std::chrono::steady_clock::now();
    comm->barrier();
    const std::chrono::nanoseconds waited = std::chrono::steady_clock::now() - start;
    const uint64_t tests = dist::mpi_wait_tests() - tests_before;
    const uint64_t bound = dist::PollBackoff{}.most_tests_within(waited);
    if (tests == 0 || tests > bound) {
      problems += "rank " + std::to_string(me) + " tested its barrier " + std::to_string(tests) +
                  " times in " + std::to_string(waited.count() / 1000) + " us (at most " +
                  std::to_string(bound) + "); ";
    }
  }
  {
    constexpr uint64_t kValues = 3000;
    std::unique_ptr<dist::SharedCounter> counter = comm->make_shared_counter();
    if (!counter) {
      problems += "no shared counter (MPI without MPI_THREAD_SERIALIZED); ";
    } else {
      std::mutex taken_mutex;
      std::string taken;  // the values this rank took, as text
      std::vector<std::thread> takers;
      for (int t = 0; t < 3; ++t) {
        takers.emplace_back([&] {
          for (uint64_t v; (v = counter->fetch_increment()) < kValues;) {
            std::lock_guard lock(taken_mutex);
            taken += std::to_string(v) + " ";
          }
        });
      }
      for (int i = 0; i < 3; ++i) comm->barrier();  // collectives between the takers' calls
      for (std::thread& t : takers) t.join();
      std::vector<int> seen(kValues, 0);
      for (const std::string& from : comm->all_gather(taken)) {
        for (size_t at = 0; at < from.size();) {
          size_t space = from.find(' ', at);
          ++seen[std::stoul(from.substr(at, space - at))];
          at = space + 1;
        }
      }
      if (std::any_of(seen.begin(), seen.end(), [](int times) { return times != 1; })) {
        problems += "shared counter: a value taken twice or never; ";
      }
    }
  }
  Status agreed = dist::agree(*comm, problems.empty() ? Status::ok() : Status::error(problems));
  std::vector<uint64_t> sums = dist::sum_over_ranks(*comm, {1, static_cast<uint64_t>(me)});
  const bool sums_ok = sums[0] == static_cast<uint64_t>(n) &&
                       sums[1] == static_cast<uint64_t>(n) * (n - 1) / 2;
  if (me == 0) {
    if (agreed.is_ok() && sums_ok && comm->size() > 1) {
      std::printf("ok %d ranks\n", n);
    } else {
      std::printf("FAILED: %s%s\n", agreed.message().c_str(), sums_ok ? "" : " (sums)");
    }
  }
  comm->barrier();
  return agreed.is_ok() && sums_ok ? 0 : 1;
}
