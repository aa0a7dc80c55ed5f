#include "dist/mpi_comm.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace winnow::dist {

namespace {

// Bytes one rank sends in one round of a large exchange. MPI counts and displacements are
// ints, so a round's whole receive buffer must stay under 2 GiB; rounds also bound the memory
// a large exchange needs beyond its own data.
size_t default_round_bytes(int ranks) {
  return std::min<size_t>(size_t{64} << 20, static_cast<size_t>(INT_MAX) / std::max(ranks, 1));
}

class MpiComm final : public Comm {
 public:
  explicit MpiComm(size_t round_bytes) {
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
    if (!finalized) MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string describe() const override {
    return "MPI rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " (" + host_ +
           ")";
  }

  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }

  std::vector<std::string> all_gather(std::string_view mine) override {
    const size_t ranks = static_cast<size_t>(size_);
    uint64_t own = mine.size();
    std::vector<uint64_t> sizes(ranks);
    MPI_Allgather(&own, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    std::vector<std::string> out(ranks);
    for (size_t r = 0; r < ranks; ++r) out[r].resize(sizes[r]);
    const uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
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
      MPI_Allgatherv(mine.data() + std::min<uint64_t>(offset, own), counts[rank_], MPI_BYTE,
                     received.data(), counts.data(), displs.data(), MPI_BYTE, MPI_COMM_WORLD);
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
    MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T,
                 MPI_COMM_WORLD);
    std::vector<std::string> in(ranks);
    for (size_t r = 0; r < ranks; ++r) in[r].resize(recv_sizes[r]);
    // Rounds until the largest message either way has gone; every rank computes the same count.
    uint64_t largest = 0;
    for (size_t r = 0; r < ranks; ++r) largest = std::max({largest, send_sizes[r], recv_sizes[r]});
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
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
      MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_BYTE, received.data(),
                    recv_counts.data(), recv_displs.data(), MPI_BYTE, MPI_COMM_WORLD);
      for (size_t r = 0; r < ranks; ++r) {
        if (recv_counts[r] > 0) {
          std::memcpy(in[r].data() + offset, received.data() + recv_displs[r], recv_counts[r]);
        }
      }
    }
    return in;
  }

 private:
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

std::unique_ptr<Comm> make_mpi_comm(int* argc, char*** argv, size_t round_bytes) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  }
  return std::make_unique<MpiComm>(round_bytes);
}

}  // namespace winnow::dist
