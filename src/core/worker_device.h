#pragma once
// The GPU a worker thread is bound to. The executor binds each worker of a GPU stage to one
// device (pipeline/device_placement.h) before its setup_worker() runs; a stage's GPU code reads
// it to choose the device its kernels, models and buffers live on. Device numbers are the
// CUDA runtime's, after CUDA_VISIBLE_DEVICES (0 is the first visible device).
#include <cstdint>

namespace winnow {

// -1 when the calling thread is not a GPU worker.
int worker_gpu_device();
void set_worker_gpu_device(int device);

// The device a GPU user (an ONNX Runtime session, a MinHash hasher) takes for the calling
// thread, of the `devices` this process sees (under MPI, the rank's share: cli/job_ranks.h
// narrows CUDA_VISIBLE_DEVICES, so these are the rank's devices numbered from 0): the worker's
// bound device (`bound`, worker_gpu_device()); for an unbound thread, its `turn`-th use spread
// over the devices in turn, so unbound users do not all pile onto device 0. A bound device
// beyond the count (a placement wider than what is visible) wraps. -1 when there is no device.
// Pure: unit-tested without a device.
int pick_gpu_device(int bound, int devices, uint64_t turn);

}  // namespace winnow
