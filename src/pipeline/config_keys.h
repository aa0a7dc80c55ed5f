#pragma once
// Every key a pipeline file may hold, declared once. The loader (pipeline_config.cpp) accepts a
// key in a section only if it is declared here, and `winnow reference` prints docs/reference.md
// from the same table, so the reference cannot leave a key out or name one the loader refuses.
// Each key's default is read from a default PipelineConfig, not written down a second time.
#include <set>
#include <span>
#include <string>
#include <string_view>

namespace winnow {

struct PipelineConfig;

struct ConfigKey {
  // Where it goes: "" the top level, "input", "input.warc", "output", "autoscale", or
  // "stages[]" (the keys every stage entry takes besides its own parameters).
  std::string_view section;
  std::string_view name;
  std::string_view takes;  // the values it accepts, in words
  // Its value in `config`, as YAML text; null for a key with no default of its own (a map of
  // further keys, or a stage entry's keys).
  std::string (*value_in)(const PipelineConfig& config);
  std::string_view no_default;  // what holds when it is not given, where value_in is null
  std::string_view help;
  std::string_view flag;  // the command-line option that replaces it for one run, if any
};

// In the order the reference lists them.
std::span<const ConfigKey> config_keys();
// The names declared in one section.
std::set<std::string> config_keys_in(std::string_view section);
// The sections that are maps of further keys, in the reference's order.
std::span<const std::string_view> config_sections();

}  // namespace winnow
