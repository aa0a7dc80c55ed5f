#pragma once
// The GPU a worker thread is bound to. The executor binds each worker of a GPU stage to one
// device (pipeline/device_placement.h) before its setup_worker() runs; a stage's GPU code reads
// it to choose the device its kernels, models and buffers live on. Device numbers are the
// CUDA runtime's, after CUDA_VISIBLE_DEVICES (0 is the first visible device).
namespace winnow {

// -1 when the calling thread is not a GPU worker.
int worker_gpu_device();
void set_worker_gpu_device(int device);

}  // namespace winnow
