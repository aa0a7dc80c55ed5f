#include "pipeline/report_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/version.h"
#include "io/atomic_file.h"

namespace winnow {

namespace {

// Distinguishable colours, one per step (then per drop reason in the funnel).
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
constexpr size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);
constexpr size_t kMaxPoints = 600;  // per series; longer runs are thinned evenly

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A label cut to at most `max` bytes (on a UTF-8 boundary) with an ellipsis, so a long step
// name (a fused group's "fused(first..last)") stays inside its legend or label column; the
// full name goes in the element's <title>.
std::string short_label(const std::string& name, size_t max) {
  if (name.size() <= max) return name;
  size_t cut = max - 1;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
  return name.substr(0, cut) + "\u2026";
}

std::string number(double v) {
  if (std::fabs(v) >= 1e6) return fmt::format("{:.1f}M", v / 1e6);
  if (std::fabs(v) >= 1e4) return fmt::format("{:.1f}k", v / 1e3);
  if (v == std::floor(v)) return fmt::format("{:.0f}", v);
  return fmt::format("{:.2f}", v);
}

// A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten.
double nice_max(double v) {
  if (v <= 0) return 1;
  double p = std::pow(10, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= v) return m * p;
  }
  return 10 * p;
}

// One chart: a series per step over the run's time.
std::string line_chart(const std::string& title, const std::string& unit,
                       const std::vector<std::string>& names, const std::vector<RunSample>& samples,
                       const std::function<double(const StepSample&)>& value, double fixed_max) {
  const double w = 900, h = 240, left = 60, right = 170, top = 30, bottom = 36;
  const double pw = w - left - right, ph = h - top - bottom;
  size_t stride = std::max<size_t>(1, (samples.size() + kMaxPoints - 1) / kMaxPoints);
  double t_max = samples.empty() ? 1 : std::max(samples.back().t, 1e-3);
  double y_max = fixed_max;
  if (y_max <= 0) {
    for (const auto& s : samples) {
      for (const auto& st : s.steps) y_max = std::max(y_max, value(st));
    }
    y_max = nice_max(y_max * 1.05);
  }
  std::string svg = fmt::format(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\"><title>{2}</title>"
      "<text x=\"{3}\" y=\"18\" class=\"ct\">{2}</text>",
      w, h, escape(title), left);
  for (int k = 0; k <= 4; ++k) {
    double y = top + ph - ph * k / 4;
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"grid\"/>"
        "<text x=\"{}\" y=\"{:.1f}\" class=\"ax\" text-anchor=\"end\">{}</text>",
        left, y, left + pw, y, left - 6, y + 4, number(y_max * k / 4));
  }
  for (int k = 0; k <= 5; ++k) {
    double x = left + pw * k / 5;
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{}\" class=\"ax\" text-anchor=\"middle\">{:.1f}s</text>", x,
        top + ph + 16, t_max * k / 5);
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"ax\">{}</text>", left + pw + 10,
                     top + ph + 30, escape(unit));
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>", left,
                     top, pw, ph);
  for (size_t i = 0; i < names.size(); ++i) {
    const char* colour = kPalette[i % kPaletteSize];
    std::string points;
    for (size_t k = 0; k < samples.size(); k += stride) {
      if (i >= samples[k].steps.size()) continue;
      double v = std::clamp(value(samples[k].steps[i]), 0.0, y_max);
      points += fmt::format("{:.1f},{:.1f} ", left + pw * samples[k].t / t_max,
                            top + ph - ph * v / y_max);
    }
    if (!points.empty()) {
      svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
                         points, colour);
    }
    double ly = top + 10 + 16 * static_cast<double>(i);
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/>"
        "<text x=\"{}\" y=\"{:.1f}\" class=\"lg\"><title>{}</title>{}</text>",
        left + pw + 12, ly - 10, colour, left + pw + 30, ly, escape(names[i]),
        escape(short_label(names[i], 19)));
  }
  return svg + "</svg>\n";
}

// What a step did besides keeping and dropping: "fanned out 12 into 80 children", "merged 80
// into 12"; empty for other steps.
std::string fan_text(const StepReport& st) {
  std::string text;
  if (st.fanned_out || st.children) {
    text += fmt::format("fanned out {} into {} children", st.fanned_out, st.children);
  }
  if (st.merged || st.merge_results) {
    text += fmt::format("{}merged {} into {}", text.empty() ? "" : ", ", st.merged,
                        st.merge_results);
  }
  return text;
}

// Items out and dropped per step: each row is the items that reached the step, split into what
// it let through and what it dropped, by reason (a fan-out's row can be longer than its input).
std::string funnel_chart(const RunReport& report) {
  const double w = 1000, label = 160, bar = 480, row = 30, top = 30;
  uint64_t total = std::max<uint64_t>(1, report.totals.documents);
  for (const StepReport& st : report.steps) total = std::max({total, st.docs_in, st.kept});
  double h = top + row * static_cast<double>(report.steps.size()) + 30;
  std::string svg = fmt::format(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\"><title>Item funnel</title>"
      "<text x=\"10\" y=\"18\" class=\"ct\">Item funnel: let through (green) and dropped per "
      "reason, per step</text>",
      w, h);
  size_t reason_colour = 0;
  for (size_t i = 0; i < report.steps.size(); ++i) {
    const StepReport& st = report.steps[i];
    double y = top + row * static_cast<double>(i);
    svg += fmt::format(
        "<text x=\"{}\" y=\"{:.1f}\" class=\"lg\" text-anchor=\"end\"><title>{}</title>{}</text>",
        label - 8, y + 16, escape(st.name), escape(short_label(st.name, 22)));
    double x = label;
    double kept_w = bar * static_cast<double>(st.kept) / total;
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" fill=\"#2ca02c\">"
        "<title>{}: kept {}</title></rect>",
        x, y + 2, kept_w, escape(st.name), st.kept);
    x += kept_w;
    std::string legend;
    for (const auto& [reason, n] : st.dropped) {
      double dw = bar * static_cast<double>(n) / total;
      const char* colour = kPalette[(3 + reason_colour++) % kPaletteSize];
      svg += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" fill=\"{}\">"
          "<title>{}/{}: {}</title></rect>",
          x, y + 2, std::max(dw, n > 0 ? 1.0 : 0.0), colour, escape(st.name), escape(reason), n);
      x += dw;
      legend += fmt::format("{}{}={}", legend.empty() ? "" : " ", reason, n);
    }
    std::string fan = fan_text(st);
    if (!fan.empty()) legend += (legend.empty() ? "" : " · ") + fan;
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"ax\">in {} out {}{}</text>",
                       label + bar + 8, y + 16, st.docs_in, st.kept,
                       legend.empty() ? "" : " · " + escape(legend));
  }
  return svg + "</svg>\n";
}

std::string step_row(const std::string& name, const std::string& workers,
                     const std::string& scaling, const StepSummary& s, const std::string& fill,
                     uint64_t in, uint64_t kept, const std::string& items,
                     const char* row_class) {
  return fmt::format(
      "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{:.2f}</td><td>{:.2f}</td>"
      "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
      row_class, name, workers, scaling, 100 * s.busy_fraction, s.mean_service_ms, s.setup_seconds,
      fill, in, kept, items);
}

// "documents", "documents → images", and what a fan-out or fan-in made.
std::string items_text(const StepReport& st) {
  std::string text = st.kind_in == st.kind_out ? st.kind_in + "s"
                                                 : st.kind_in + "s → " + st.kind_out + "s";
  std::string fan = fan_text(st);
  return escape(fan.empty() ? text : text + ": " + fan);
}

// One row per pass over the data: where it began, how long it took, whether it stored its
// batches for the passes after it.
std::string pass_table(const RunReport& report) {
  if (report.passes.empty()) return {};
  std::string html =
      "<table><tr><th>pass</th><th>from</th><th>seconds</th><th>busy s</th><th>stored</th>"
      "</tr>\n";
  for (const PassRecord& pass : report.passes) {
    double busy = 0;
    for (const PartTotal& part : pass.parts) busy += part.busy_ns / 1e9;
    html += fmt::format("<tr><td>{}</td><td>{}</td><td>{:.2f}</td><td>{:.2f}</td><td>{}</td></tr>\n",
                        escape(pass.name), escape(pass.origin), pass.seconds, busy,
                        pass.stored ? "yes" : "");
  }
  return html + "</table>\n";
}

// One row per level of fan-out and item kind: the items made there and how each ended.
std::string level_table(const RunCounts& t) {
  std::string html =
      "<table><tr><th>items (kind@depth)</th><th>made</th><th>kept</th><th>dropped</th>"
      "<th>errors</th><th>fanned out</th><th>merged</th><th></th></tr>\n";
  for (const auto& [name, level] : t.levels) {
    html += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td></tr>\n",
        escape(name), level.created, level.kept, level.dropped, level.errors, level.fanned_out,
        level.merged, level.reconciles() ? "reconciled" : "DOES NOT RECONCILE");
  }
  return html + "</table>\n";
}

// One row per executed step; a fused group's row is followed by a row per member stage (its
// share of the group's busy time, its own ms per batch, documents in and kept).
std::string step_table(const RunReport& report) {
  std::string html =
      "<table><tr><th>step</th><th>workers (min–max)</th><th>scale ups / downs</th>"
      "<th>busy</th><th>ms / batch</th><th>setup s</th><th>input fill</th><th>in</th>"
      "<th>out</th><th>items</th></tr>\n";
  auto workers = [](int now, const StepSummary& s, bool pinned) {
    return fmt::format("{} ({}–{}){}", now, s.workers_min, s.workers_max, pinned ? " pinned" : "");
  };
  auto scaling = [](const StepSummary& s) {
    return fmt::format("{} / {}", s.scale_ups, s.scale_downs);
  };
  auto fill = [](const StepSummary& s) { return fmt::format("{:.0f}%", 100 * s.mean_input_fill); };
  auto group_of = [&](size_t i) {
    return std::find_if(report.fused_groups.begin(), report.fused_groups.end(),
                        [i](const FusedGroupReport& g) {
                          return std::find(g.members.begin(), g.members.end(), i) !=
                                 g.members.end();
                        });
  };
  for (size_t i = 0; i < report.steps.size(); ++i) {
    auto group = group_of(i);
    if (group == report.fused_groups.end()) {
      const StepReport& st = report.steps[i];
      html += step_row(escape(st.name), workers(st.workers, st.summary, st.pinned),
                       scaling(st.summary), st.summary, fill(st.summary), st.docs_in, st.kept,
                       items_text(st), "");
      continue;
    }
    if (group->members.front() != i) continue;  // listed under its group's row
    const StepReport& last = report.steps.at(group->members.back());
    html += step_row(
        fmt::format("<b>{}</b> ({} steps fused)", escape(group->name), group->members.size()),
        workers(group->workers, group->summary, false), scaling(group->summary), group->summary,
        fill(group->summary), report.steps[i].docs_in, last.kept, "", " class=\"group\"");
    for (size_t k : group->members) {
      const StepReport& st = report.steps[k];
      html += step_row("&#8627; " + escape(st.name), "shared", "", st.summary, "", st.docs_in,
                       st.kept, items_text(st), " class=\"member\"");
    }
  }
  return html + "</table>\n";
}

}  // namespace

std::string render_report_html(const RunReport& report) {
  const std::vector<std::string>& names = report.executor_steps;
  const RunCounts& t = report.totals;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>winnow run report</title><style>"
      "body{font-family:sans-serif;margin:24px;color:#222;background:#fff}"
      "h1{font-size:20px}table{border-collapse:collapse;margin:12px 0}"
      "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:right}"
      "th:first-child,td:first-child{text-align:left}"
      ".chart{display:block;margin:10px 0}.ct{font-size:14px;font-weight:bold}"
      ".ax{font-size:11px;fill:#555}.lg{font-size:12px}"
      ".grid{stroke:#e4e4e4}.frame{fill:none;stroke:#999}"
      "tr.group td{background:#f4f4f4}tr.member td{color:#555}tr.member td:first-child"
      "{padding-left:22px}"
      "</style></head><body>\n";
  html += fmt::format(
      "<h1>winnow run: {}</h1><p>{} · {:.2f} s · budget {} CPU threads, {} GPU(s) ({}) · {} · "
      "output {}</p>\n",
      report.status.is_ok() ? "done" : report.stopped ? "stopped" : "FAILED",
      escape(std::string("winnow ") + kVersion),
      report.elapsed_seconds, report.threads, report.gpus,
      report.autoscaled ? fmt::format("autoscaled every {} ms, {} cycles",
                                      report.autoscale_interval_ms, report.autoscale_cycles)
                        : std::string("fixed workers"),
      report.fused ? fmt::format("stage fusion on ({} fused step(s))", report.fused_groups.size())
                   : std::string("stage fusion off"),
      escape(report.output_dir));
  if (!report.status.is_ok())
    html += "<p><b>error:</b> " + escape(report.status.message()) + "</p>\n";
  html += "<p>" + escape(reconcile_text(t)) + "</p>\n";
  html += funnel_chart(report);
  html += step_table(report);
  html += level_table(t);
  html += pass_table(report);
  const auto& samples = report.samples;
  html += line_chart(
      "Workers per step (target)", "workers", names, samples,
      [](const StepSample& s) { return double(s.target); }, 0);
  html += line_chart(
      "Busy fraction per step", "busy (0–1)", names, samples,
      [](const StepSample& s) { return s.busy_fraction; }, 1.0);
  html += line_chart(
      "Input queue occupancy per step", "fill (0–1)", names, samples,
      [](const StepSample& s) { return s.input_fill; }, 1.0);
  html += line_chart(
      "Throughput per step", "source docs / s", names, samples,
      [](const StepSample& s) { return s.docs_per_s; }, 0);
  html += "</body></html>\n";
  return html;
}

Status write_report_html(const RunReport& report, const std::string& path) {
  return AtomicFile::write_whole(path, render_report_html(report));
}

}  // namespace winnow
