#pragma once
// CUDA_VISIBLE_DEVICES as the CUDA runtime reads it, without linking CUDA: a comma-separated
// list of device ordinals or UUIDs ("GPU-8932f937-..."; "MIG-..." for MIG instances). The
// runtime stops at the first entry it cannot read, so "0,1,bad,2" exposes two devices and
// "" or "-1" exposes none. Used to count the devices a run may use (pipeline/resources.h)
// without touching the driver.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

// The entries the runtime would honour, in order; nullopt when the variable is unset (every
// device is visible). Duplicated ordinals end the list, as in the runtime.
std::optional<std::vector<std::string>> parse_visible_devices(const char* value);

// parse_visible_devices(getenv("CUDA_VISIBLE_DEVICES")).
std::optional<std::vector<std::string>> visible_devices_from_environment();

}  // namespace winnow
