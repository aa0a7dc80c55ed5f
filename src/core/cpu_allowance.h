#pragma once
// CpuAllowance: lets code below the pipeline (a compressor) use more threads than the one it
// runs on, only while the run's CPU budget has them free, so that `threads` stays the whole
// process's budget. try_take() takes up to `wanted` more CPU threads without waiting and says
// how many it got; they are the caller's until give_back().
namespace winnow {

class CpuAllowance {
 public:
  virtual ~CpuAllowance() = default;
  virtual int try_take(int wanted) = 0;
  virtual void give_back(int taken) = 0;
};

}  // namespace winnow
