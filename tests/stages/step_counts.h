#pragma once
// A pipeline step's counters as stats.json reports them (steps[].counts of the step named
// `step`): what a stage counts beside its drops (entities found, documents changed, ...).
#include <simdjson.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace winnow::testing {

// Empty when the step is absent or counted nothing.
inline std::map<std::string, uint64_t> step_counts(const std::string& stats_json_path,
                                                   std::string_view step) {
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(stats_json_path);
  std::map<std::string, uint64_t> counts;
  for (simdjson::dom::element s : stats["steps"].get_array()) {
    simdjson::dom::object object;
    if (std::string_view(s["name"]) != step || s["counts"].get(object)) continue;
    for (auto [key, value] : object) counts[std::string(key)] = uint64_t(value);
  }
  return counts;
}

}  // namespace winnow::testing
