#pragma once
// WorkerWait: marks a pipeline worker as waiting for something no CPU of this machine does (a
// network reply, a retry's back-off). A worker holds a share of the run's CPU budget while it
// runs a batch; for the length of a WorkerWait it lends that share back, so CPU steps run
// meanwhile, and takes it again when the wait ends (blocking until a share is free). So
// `threads` counts cores doing work, not threads waiting. Outside a worker, or in a worker that
// holds no CPU share (one on a GPU), it does nothing. Scopes may nest: the outermost counts.
namespace winnow {

// What a worker holds, as the executor lends and takes it back (pipeline/stage_runner.cpp).
class CpuLease {
 public:
  virtual ~CpuLease() = default;
  virtual void lend() = 0;
  virtual void take_back() = 0;
};

// The calling thread's lease while it runs a batch; null otherwise.
void set_worker_cpu_lease(CpuLease* lease);

class WorkerWait {
 public:
  WorkerWait();
  ~WorkerWait();
  WorkerWait(const WorkerWait&) = delete;
  WorkerWait& operator=(const WorkerWait&) = delete;
};

}  // namespace winnow
