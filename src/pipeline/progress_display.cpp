#include "pipeline/progress_display.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace winnow {

namespace {

std::string eta_text(const RunSample& s, uint64_t total) {
  // Everything read, the last batches still in the stages: no estimate from reading speed.
  if (total > 0 && s.compressed_bytes >= total) return "finishing";
  if (total == 0 || s.compressed_bytes == 0 || s.t <= 0) return "--";
  double remaining = s.t * double(total - s.compressed_bytes) / double(s.compressed_bytes);
  int secs = static_cast<int>(remaining);
  return fmt::format("{}:{:02}", secs / 60, secs % 60);
}

}  // namespace

ProgressDisplay::ProgressDisplay(uint64_t total_compressed_bytes,
                                 std::vector<std::string> step_names, bool terminal,
                                 double log_every_seconds)
    : total_(total_compressed_bytes),
      names_(std::move(step_names)),
      terminal_(terminal),
      log_every_(log_every_seconds) {}

bool ProgressDisplay::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

std::string ProgressDisplay::render(const RunSample& s, bool terminal) const {
  double mb = s.input_bytes / 1e6;
  double rate = s.t > 0 ? mb / s.t : 0;
  double pct = total_ > 0 ? 100.0 * std::min<double>(1.0, double(s.compressed_bytes) / total_) : 0;
  std::string head =
      fmt::format("[winnow{}] {:.0f}s  {} docs  {:.1f} MB read ({:.0f}%)  {:.1f} MB/s  ETA {}",
                  pass_.empty() ? "" : " " + pass_, s.t, s.documents_done, mb, pct, rate,
                  eta_text(s, total_));
  if (!terminal) {
    std::string line = head;
    for (size_t i = 0; i < s.steps.size() && i < names_.size(); ++i) {
      const StepSample& st = s.steps[i];
      line += fmt::format(" | {} w={} busy={:.0f}% q={}/{} {:.0f} docs/s", names_[i], st.target,
                          100 * st.busy_fraction, st.input_queue, st.input_capacity, st.docs_per_s);
    }
    return line + "\n";
  }
  std::string block = head + "\n";
  size_t width = 20;  // the step column fits the longest name: none is cut
  for (const std::string& name : names_) width = std::max(width, name.size());
  block += fmt::format("  {:<{}} {:>7} {:>6} {:>9} {:>11} {:>10}\n", "step", width, "workers",
                       "busy", "queue", "docs/s", "ms/batch");
  for (size_t i = 0; i < s.steps.size() && i < names_.size(); ++i) {
    const StepSample& st = s.steps[i];
    std::string workers = fmt::format("{}", st.ready);
    if (st.starting > 0) workers += fmt::format("+{}", st.starting);
    if (st.target != st.ready + st.starting) workers += fmt::format("→{}", st.target);
    std::string bar;
    int filled = static_cast<int>(st.input_fill * 8 + 0.5);
    for (int k = 0; k < 8; ++k) bar += k < filled ? "#" : ".";
    block += fmt::format("  {:<{}} {:>7} {:>5.0f}% {:>9} {:>11.0f} {:>10.2f}\n", names_[i], width,
                         workers, 100 * st.busy_fraction, bar, st.docs_per_s, st.mean_service_ms);
  }
  return block;
}

void ProgressDisplay::update(const RunSample& sample) {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  if (observer_) {
    observer_(pass_, sample, total_);
    return;
  }
  if (!terminal_) {
    if (sample.t - last_log_ < log_every_) return;
    last_log_ = sample.t;
    std::string line = render(sample, false);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    return;
  }
  std::string out;
  // Back to the top of the block drawn last time, then redraw every line.
  if (lines_shown_ > 0) out += fmt::format("\033[{}F", lines_shown_);
  std::string block = render(sample, true);
  int lines = 0;
  size_t start = 0;
  while (start < block.size()) {
    size_t end = block.find('\n', start);
    out += "\033[2K" + block.substr(start, end - start) + "\n";
    ++lines;
    start = end + 1;
  }
  for (int extra = lines; extra < lines_shown_; ++extra) out += "\033[2K\n";
  lines_shown_ = std::max(lines, lines_shown_);
  std::fputs(out.c_str(), stderr);
  std::fflush(stderr);
}

void ProgressDisplay::stop() {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  stopped_ = true;
  if (terminal_ && lines_shown_ > 0) {
    std::string out = fmt::format("\033[{}F", lines_shown_);
    for (int i = 0; i < lines_shown_; ++i) out += "\033[2K\n";
    out += fmt::format("\033[{}F", lines_shown_);
    std::fputs(out.c_str(), stderr);
    std::fflush(stderr);
  }
}

}  // namespace winnow
