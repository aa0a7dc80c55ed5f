#pragma once
// CUDA error handling shared by the .cu files of gpu/ (internal: only .cu files include it, so
// no plain .h of gpu/ carries a CUDA header).
//
// Two kinds of failure: an ordinary one (out of memory, a bad argument) leaves the context
// usable, and the call that met it only has to be cleared; a sticky one (a kernel's illegal
// address, a hardware fault) poisons the device's context for the rest of the process, and
// every later call on it fails the same way. A sticky error retires the device
// (gpu_runtime.h retire_device): its hashers and contexts are not reused, and the callers run
// on the CPU with one line saying why.
#include <cuda_runtime.h>

#include <string>

#include "gpu/gpu_runtime.h"

namespace winnow::gpu::detail {

// The errors the CUDA runtime documents as leaving the context unusable ("the process must
// be terminated and relaunched to continue using CUDA").
inline bool is_sticky_error(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

// Records `e` (not cudaSuccess) in `error`, clears it from the thread's last error, and
// retires `device` when the error is sticky. Returns whether it was sticky.
inline bool note_error(int device, cudaError_t e, std::string& error) {
  error = cudaGetErrorString(e);
  cudaGetLastError();  // clears an ordinary error; a sticky one stays whatever is done
  // An error that survives the clearing is sticky whatever its code says.
  const bool sticky = is_sticky_error(e) || is_sticky_error(cudaPeekAtLastError());
  if (sticky) {
    error += " (sticky: the device is retired for this process)";
    retire_device(device, cudaGetErrorString(e));
  }
  return sticky;
}

// "" when `device` may be used; else why not.
inline std::string unusable_reason(int device) {
  std::string why = retired_reason(device);
  return why.empty() ? why : "device " + std::to_string(device) + " was retired: " + why;
}

}  // namespace winnow::gpu::detail
