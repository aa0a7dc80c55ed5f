#include "dist/mpi_comm.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "dist/poll_backoff.h"

namespace winnow::dist {

namespace {

// Bytes one rank sends in one round of a large exchange. MPI counts and displacements are
// ints, so a round's whole receive buffer must stay under 2 GiB; rounds also bound the memory
// a large exchange needs beyond its own data.
size_t default_round_bytes(int ranks) {
  return std::min<size_t>(size_t{64} << 20, static_cast<size_t>(INT_MAX) / std::max(ranks, 1));
}

// How the ranks wait for each other. MPI's blocking collectives busy-poll: Open MPI spins in
// opal_progress at 100% CPU (with mpi_yield_when_idle, its default when oversubscribed, it
// calls sched_yield in the loop, which still takes a whole core whenever one is free), so a
// rank that reached a collective early counted all its waiting for the others as CPU time. An
// MCA parameter cannot change that (Open MPI 4.1 has none that sleeps in a collective; yielding
// is all mpi_yield_when_idle does, and an OMPI_MCA_ variable holds only where whoever launches
// the job sets it, and not under another MPI); so every collective where a rank may wait is
// started in its nonblocking form (MPI 3) and tested by dist/poll_backoff.h's schedule, the
// Comm's lock released during each pause so that worker threads' shared-counter calls go
// through meanwhile.
//
// The bulk rounds of a large exchange stay blocking: a large message needs both sides to call
// into MPI repeatedly (a rendezvous, and over TCP every fragment), which a sleeping rank would
// throttle to one step per pause. They are entered only after a small nonblocking collective
// tested by the prompt schedule, whose pauses of at most 50 us bring every rank into the round
// within about a tenth of a millisecond of the others, so what they spin is the transfer.
//
// Patient: the first collective of a call, where a rank may wait seconds for a slower one.
constexpr PollBackoff kPatient{};
// Prompt: a collective that follows one every rank has posted, just before blocking rounds.
constexpr PollBackoff kPrompt{100, std::chrono::nanoseconds{10'000},
                              std::chrono::nanoseconds{50'000}};

std::atomic<uint64_t> tests_made{0};  // mpi_wait_tests()

// Tests `request` by `backoff` until it completes, holding `mpi` only during each test.
void wait_for(std::mutex& mpi, MPI_Request& request, const PollBackoff& backoff) {
  const uint64_t tests = poll_until(
      [&] {
        std::lock_guard lock(mpi);
        int done = 0;
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        return done != 0;
      },
      [](std::chrono::nanoseconds pause) { std::this_thread::sleep_for(pause); }, backoff);
  tests_made.fetch_add(tests, std::memory_order_relaxed);
}

// Every rank has reached this point (MPI_Ibarrier waited on by `backoff`).
void arrive(std::mutex& mpi, const PollBackoff& backoff) {
  MPI_Request request = MPI_REQUEST_NULL;
  {
    std::lock_guard lock(mpi);
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
  }
  wait_for(mpi, request, backoff);
}

// One int64 in rank 0's memory that every rank adds to with MPI_Fetch_and_op, without rank 0
// taking part (passive target: on one node the atomics go straight to shared memory; across
// nodes the network's atomics, or rank 0's next MPI call where it has none: while rank 0
// waits in a collective, its next test). Calls are serialised with the Comm's other MPI calls
// (MPI_THREAD_SERIALIZED). Creating and freeing the window are collective: the ranks first
// meet in a sleeping barrier, so none spins inside MPI_Win_allocate or MPI_Win_free.
class MpiCounter final : public SharedCounter {
 public:
  explicit MpiCounter(std::mutex& mpi) : mpi_(mpi) {
    arrive(mpi_, kPatient);
    {
      std::lock_guard lock(mpi_);
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      const MPI_Aint bytes = rank == 0 ? sizeof(int64_t) : 0;
      int64_t* base = nullptr;
      MPI_Win_allocate(bytes, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &window_);
      if (rank == 0) *base = 0;
    }
    arrive(mpi_, kPatient);  // rank 0's zero is in place before anyone adds
    std::lock_guard lock(mpi_);
    MPI_Win_lock_all(0, window_);
  }
  ~MpiCounter() override {
    {
      std::lock_guard lock(mpi_);
      MPI_Win_unlock_all(window_);
    }
    arrive(mpi_, kPatient);
    std::lock_guard lock(mpi_);
    MPI_Win_free(&window_);  // collective: every rank's handle goes at the same point
  }
  uint64_t fetch_increment() override {
    std::lock_guard lock(mpi_);
    const int64_t one = 1;
    int64_t before = 0;
    MPI_Fetch_and_op(&one, &before, MPI_INT64_T, 0, 0, MPI_SUM, window_);
    MPI_Win_flush(0, window_);
    return static_cast<uint64_t>(before);
  }

 private:
  std::mutex& mpi_;
  MPI_Win window_ = MPI_WIN_NULL;
};

class MpiComm final : public Comm {
 public:
  MpiComm(size_t round_bytes, bool serialized) : serialized_(serialized) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    host_.assign(name, static_cast<size_t>(std::max(length, 0)));
    chunk_ = round_bytes > 0 ? std::min(round_bytes, default_round_bytes(size_))
                             : default_round_bytes(size_);
  }
  ~MpiComm() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    // MPI_Finalize waits for every rank (Open MPI: a fence polled every 100 us); rank 0 may
    // still be writing the run's stats, so the others wait here, asleep.
    arrive(mpi_, kPatient);
    MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string describe() const override {
    return "MPI rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " (" + host_ +
           ")";
  }

  void barrier() override { arrive(mpi_, kPatient); }

  std::unique_ptr<SharedCounter> make_shared_counter() override {
    if (!serialized_) return nullptr;  // worker threads may not call this MPI
    return std::make_unique<MpiCounter>(mpi_);
  }

  std::vector<std::string> all_gather(std::string_view mine) override {
    const size_t ranks = static_cast<size_t>(size_);
    uint64_t own = mine.size();
    std::vector<uint64_t> sizes(ranks);
    MPI_Request request = MPI_REQUEST_NULL;
    {
      std::lock_guard lock(mpi_);
      MPI_Iallgather(&own, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD,
                     &request);
    }
    wait_for(mpi_, request, kPatient);
    std::vector<std::string> out(ranks);
    for (size_t r = 0; r < ranks; ++r) out[r].resize(sizes[r]);
    const uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
    if (largest == 0) return out;  // every rank sees the same sizes: none goes on
    arrive(mpi_, kPrompt);  // every rank into the blocking rounds together
    const size_t chunk = chunk_;
    std::vector<int> counts(ranks), displs(ranks);
    std::string received;
    for (uint64_t offset = 0; offset < largest; offset += chunk) {
      size_t total = 0;
      for (size_t r = 0; r < ranks; ++r) {
        counts[r] = static_cast<int>(std::min<uint64_t>(chunk, sizes[r] - std::min(offset, sizes[r])));
        displs[r] = static_cast<int>(total);
        total += static_cast<size_t>(counts[r]);
      }
      received.resize(total);
      {
        std::lock_guard lock(mpi_);
        MPI_Allgatherv(mine.data() + std::min<uint64_t>(offset, own), counts[rank_], MPI_BYTE,
                       received.data(), counts.data(), displs.data(), MPI_BYTE, MPI_COMM_WORLD);
      }
      for (size_t r = 0; r < ranks; ++r) {
        if (counts[r] > 0) std::memcpy(out[r].data() + offset, received.data() + displs[r], counts[r]);
      }
    }
    return out;
  }

  std::vector<std::string> all_to_all(std::vector<std::string> outgoing) override {
    const size_t ranks = static_cast<size_t>(size_);
    outgoing.resize(ranks);
    std::vector<uint64_t> send_sizes(ranks), recv_sizes(ranks);
    for (size_t r = 0; r < ranks; ++r) send_sizes[r] = outgoing[r].size();
    MPI_Request request = MPI_REQUEST_NULL;
    {
      std::lock_guard lock(mpi_);
      MPI_Ialltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T,
                    MPI_COMM_WORLD, &request);
    }
    wait_for(mpi_, request, kPatient);
    std::vector<std::string> in(ranks);
    for (size_t r = 0; r < ranks; ++r) in[r].resize(recv_sizes[r]);
    // Rounds until the largest message either way has gone; every rank computes the same count.
    // This small collective also brings every rank into the blocking rounds together.
    uint64_t largest = 0;
    for (size_t r = 0; r < ranks; ++r) largest = std::max({largest, send_sizes[r], recv_sizes[r]});
    {
      std::lock_guard lock(mpi_);
      MPI_Iallreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &request);
    }
    wait_for(mpi_, request, kPrompt);
    const size_t chunk = chunk_;
    std::vector<int> send_counts(ranks), send_displs(ranks), recv_counts(ranks), recv_displs(ranks);
    std::string send, received;
    for (uint64_t offset = 0; offset < largest; offset += chunk) {
      send.clear();
      size_t received_total = 0;
      for (size_t r = 0; r < ranks; ++r) {
        uint64_t from = std::min(offset, send_sizes[r]);
        size_t count = static_cast<size_t>(std::min<uint64_t>(chunk, send_sizes[r] - from));
        send_displs[r] = static_cast<int>(send.size());
        send_counts[r] = static_cast<int>(count);
        send.append(outgoing[r], from, count);
        recv_counts[r] = static_cast<int>(
            std::min<uint64_t>(chunk, recv_sizes[r] - std::min(offset, recv_sizes[r])));
        recv_displs[r] = static_cast<int>(received_total);
        received_total += static_cast<size_t>(recv_counts[r]);
      }
      received.resize(received_total);
      {
        std::lock_guard lock(mpi_);
        MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_BYTE,
                      received.data(), recv_counts.data(), recv_displs.data(), MPI_BYTE,
                      MPI_COMM_WORLD);
      }
      for (size_t r = 0; r < ranks; ++r) {
        if (recv_counts[r] > 0) {
          std::memcpy(in[r].data() + offset, received.data() + recv_displs[r], recv_counts[r]);
        }
      }
    }
    return in;
  }

 private:
  // Every MPI call of the process goes through this lock: under MPI_THREAD_SERIALIZED only one
  // thread may be in MPI at a time (the workers' counter calls beside the main thread's
  // collectives, which let go of it while they wait).
  std::mutex mpi_;
  bool serialized_ = false;
  int rank_ = 0;
  int size_ = 1;
  size_t chunk_ = 0;
  std::string host_;
};

}  // namespace

bool started_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK",
                           "MPI_LOCALNRANKS", "HYDRA_CONTROL_FD"}) {
    if (std::getenv(name)) return true;
  }
  return false;
}

uint64_t mpi_wait_tests() { return tests_made.load(std::memory_order_relaxed); }

std::unique_ptr<Comm> make_mpi_comm(int* argc, char*** argv, size_t round_bytes) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  int provided = MPI_THREAD_SINGLE;
  if (!initialized) {
    // Serialized: the readers' workers take shards from a shared counter (dist/shard_queue.h)
    // while the main thread is between collectives; every call holds the Comm's lock.
    MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  } else {
    MPI_Query_thread(&provided);
  }
  return std::make_unique<MpiComm>(round_bytes, provided >= MPI_THREAD_SERIALIZED);
}

}  // namespace winnow::dist
