#include "core/worker_wait.h"

namespace winnow {

namespace {
thread_local CpuLease* t_lease = nullptr;
thread_local int t_depth = 0;
}  // namespace

void set_worker_cpu_lease(CpuLease* lease) {
  t_lease = lease;
  t_depth = 0;
}

WorkerWait::WorkerWait() {
  if (t_lease && t_depth++ == 0) t_lease->lend();
}

WorkerWait::~WorkerWait() {
  if (t_lease && --t_depth == 0) t_lease->take_back();
}

}  // namespace winnow
