#include "pipeline/report_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/html_escape.h"
#include "core/version.h"
#include "io/atomic_file.h"
#include "pipeline/report_pairs.h"
#include "pipeline/report_timelines.h"
#include "pipeline/report_pictures.h"

namespace winnow {

namespace {

// Distinguishable colours, one per step (then per drop reason in the funnel).
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
constexpr size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);
constexpr size_t kMaxPoints = 600;  // per series; longer runs are thinned evenly

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
// Ticks of a time axis from 0 to t_max: a 1, 2 or 5 step giving about five of them, labelled
// with as many decimals as the step needs (0.05 s steps for a 0.3 s run, not "0.1 0.1 0.2").
std::vector<std::pair<double, std::string>> time_ticks(double t_max) {
  double step = nice_max(t_max / 5);
  int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  std::vector<std::pair<double, std::string>> ticks;
  for (int k = 0; k * step <= t_max * (1 + 1e-9); ++k) {
    ticks.emplace_back(k * step, fmt::format("{:.{}f}s", k * step, decimals));
  }
  return ticks;
}

std::string line_chart(const std::string& title, const std::string& unit,
                       const std::vector<std::string>& names, const std::vector<RunSample>& samples,
                       const std::function<double(const StepSample&)>& value, double fixed_max) {
  // The legend is as wide as the longest step name: no name is cut.
  size_t longest = 0;
  for (const std::string& name : names) longest = std::max(longest, name.size());
  const double right = std::max(170.0, 40.0 + 7.0 * static_cast<double>(longest));
  const double w = 730 + right, h = std::max(240.0, 50 + 16.0 * static_cast<double>(names.size())),
               left = 60, top = 30, bottom = 36;
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
      w, h, escape_html(title), left);
  for (int k = 0; k <= 4; ++k) {
    double y = top + ph - ph * k / 4;
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"grid\"/>"
        "<text x=\"{}\" y=\"{:.1f}\" class=\"ax\" text-anchor=\"end\">{}</text>",
        left, y, left + pw, y, left - 6, y + 4, number(y_max * k / 4));
  }
  for (const auto& [t, label] : time_ticks(t_max)) {
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{}\" class=\"ax\" text-anchor=\"middle\">{}</text>",
        left + pw * t / t_max, top + ph + 16, label);
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"ax\">{}</text>", left + pw + 10,
                     top + ph + 30, escape_html(unit));
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
        "<text x=\"{}\" y=\"{:.1f}\" class=\"lg\">{}</text>",
        left + pw + 12, ly - 10, colour, left + pw + 30, ly, escape_html(names[i]));
  }
  return svg + "</svg>\n";
}

// Items out and dropped per step: each row is the items that reached the step, split into what
// it let through and what it dropped, by reason (a fan-out's row can be longer than its input).
std::string funnel_chart(const RunReport& report) {
  size_t longest = 0;  // the label column fits the longest step name: none is cut
  for (const StepReport& st : report.steps) longest = std::max(longest, st.name.size());
  const double label = std::max(160.0, 20 + 7.0 * static_cast<double>(longest));
  const double w = 840 + label, bar = 480, row = 30, top = 30;
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
        "<text x=\"{}\" y=\"{:.1f}\" class=\"lg\" text-anchor=\"end\">{}</text>", label - 8,
        y + 16, escape_html(st.name));
    double x = label;
    double kept_w = bar * static_cast<double>(st.kept) / total;
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" fill=\"#2ca02c\">"
        "<title>{}: kept {}</title></rect>",
        x, y + 2, kept_w, escape_html(st.name), st.kept);
    x += kept_w;
    std::string legend;
    for (const auto& [reason, n] : st.dropped) {
      double dw = bar * static_cast<double>(n) / total;
      const char* colour = kPalette[(3 + reason_colour++) % kPaletteSize];
      svg += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" fill=\"{}\">"
          "<title>{}/{}: {}</title></rect>",
          x, y + 2, std::max(dw, n > 0 ? 1.0 : 0.0), colour, escape_html(st.name), escape_html(reason), n);
      x += dw;
      legend += fmt::format("{}{}={}", legend.empty() ? "" : " ", reason, n);
    }
    std::string fan = step_activity_text(st);
    if (!fan.empty()) legend += (legend.empty() ? "" : " · ") + fan;
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"ax\">in {} out {}{}</text>",
                       label + bar + 8, y + 16, st.docs_in, st.kept,
                       legend.empty() ? "" : " · " + escape_html(legend));
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
  std::string fan = step_activity_text(st);
  return escape_html(fan.empty() ? text : text + ": " + fan);
}

// Why items went: for each drop reason and error kind, a few examples (the smallest keys) with
// the file that holds them.
std::string example_section(const RunReport& report) {
  if (report.examples.empty()) return {};
  std::string html = "<h2>Dropped items and errors, with examples</h2>\n";
  const RunCounts& t = report.totals;
  std::string current;
  for (const ReportExample& e : report.examples) {
    if (e.what != current) {
      if (!current.empty()) html += "</ul>\n";
      current = e.what;
      uint64_t n = t.dropped.count(e.what) ? t.dropped.at(e.what)
                   : t.errors.count(e.what) ? t.errors.at(e.what)
                                            : 0;
      html += fmt::format("<h3>{} ({})</h3><ul>\n", escape_html(e.what), n);
    }
    std::string where = e.file.empty() ? std::string()
                                       : fmt::format(" — <a href=\"{0}\">{0}</a>", escape_html(e.file));
    std::string score = std::isnan(e.score) ? std::string() : fmt::format(" score {}", number(e.score));
    html += fmt::format("<li><b>{}</b>{}{}<br><code>{}</code></li>\n",
                        escape_html(e.id.empty() ? "error record" : e.id), score, where,
                        escape_html(e.excerpt));
  }
  return html + "</ul>\n";
}

// Each dedup step's result as the summary prints it: groups by size, the S-curve.
std::string global_step_section(const RunReport& report) {
  if (report.global_steps.empty()) return {};
  std::string html = "<h2>Deduplication</h2>\n";
  for (const GlobalStepSummary& step : report.global_steps) {
    html += fmt::format("<h3>{}{}</h3><pre>{}</pre>\n", escape_html(step.name),
                        step.reused ? " (result reused)" : "", escape_html(step.text));
    html += step.html;  // the step's own tables and charts, already HTML
  }
  return html;
}

// Every pass on one time line, so a run with dedup shows where its time went.
std::string pass_timeline(const RunReport& report) {
  if (report.passes.size() < 2) return {};
  double total = 0;
  for (const PassRecord& pass : report.passes) total += pass.seconds;
  if (total <= 0) return {};
  size_t longest = 0;
  for (const PassRecord& pass : report.passes) longest = std::max(longest, pass.name.size());
  const double label = 20 + 7.0 * static_cast<double>(longest), bar = 600, row = 24;
  const double w = label + bar + 120, h = 40 + row * static_cast<double>(report.passes.size());
  std::string svg = fmt::format(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" role=\"img\"><title>Passes</title>"
      "<text x=\"10\" y=\"18\" class=\"ct\">Passes over the data, in order</text>",
      w, h);
  double start = 0;
  for (size_t i = 0; i < report.passes.size(); ++i) {
    const PassRecord& pass = report.passes[i];
    double y = 30 + row * static_cast<double>(i);
    svg += fmt::format(
        "<text x=\"{}\" y=\"{:.1f}\" class=\"lg\" text-anchor=\"end\">{}</text>"
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\">"
        "<title>{}: from {}</title></rect>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"ax\">{:.2f} s{}</text>",
        label - 8, y + 12, escape_html(pass.name), label + bar * start / total, y,
        std::max(1.0, bar * pass.seconds / total), kPalette[i % kPaletteSize], escape_html(pass.name),
        escape_html(pass.origin), label + bar * (start + pass.seconds) / total + 6, y + 12, pass.seconds,
        pass.stored ? ", stored its batches" : "");
    start += pass.seconds;
  }
  return svg + "</svg>\n";
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
                        escape_html(pass.name), escape_html(pass.origin), pass.seconds, busy,
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
        escape_html(name), level.created, level.kept, level.dropped, level.errors, level.fanned_out,
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
    // A step the writing pass did not run (it began from batches stored after it).
    if (now == 0 && s.workers_max == 0) return std::string("in an earlier pass");
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
      html += step_row(escape_html(st.name), workers(st.workers, st.summary, st.pinned),
                       scaling(st.summary), st.summary, fill(st.summary), st.docs_in, st.kept,
                       items_text(st), "");
      continue;
    }
    if (group->members.front() != i) continue;  // listed under its group's row
    const StepReport& last = report.steps.at(group->members.back());
    html += step_row(
        fmt::format("<b>{}</b> ({} steps fused)", escape_html(group->name), group->members.size()),
        workers(group->workers, group->summary, false), scaling(group->summary), group->summary,
        fill(group->summary), report.steps[i].docs_in, last.kept, "", " class=\"group\"");
    for (size_t k : group->members) {
      const StepReport& st = report.steps[k];
      html += step_row("&#8627; " + escape_html(st.name), "shared", "", st.summary, "", st.docs_in,
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
      ".grid{stroke:#e4e4e4}.frame{fill:none;stroke:#999}h2{font-size:16px;margin-top:24px}"
      "h3{font-size:14px;margin:12px 0 4px}li{margin:4px 0;font-size:13px}"
      "code{white-space:pre-wrap;color:#444}pre{font-size:12px;background:#f7f7f7;padding:8px}"
      "tr.group td{background:#f4f4f4}tr.member td{color:#555}tr.member td:first-child"
      "{padding-left:22px}"
      ".pictures{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0;width:140px;font-size:11px}"
      "img.thumb{max-width:128px;max-height:128px;display:block}.nothumb{width:128px;height:40px;"
      "background:#eee;color:#888;font-size:11px}.note{color:#a00}.settings{color:#555;font-size:12px;margin:0 0 4px}"
      ".pair{margin:10px 0;border-top:1px solid #ddd}.sides{display:flex;gap:12px}"
      ".side{flex:1;font-size:12px;white-space:pre-wrap;background:#f7f7f7;padding:6px;"
      "overflow-wrap:anywhere}mark.a{background:#fbb}mark.b{background:#bfb}.same{color:#888}"
      ".dupgroup{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0;padding:4px;border:1px solid "
      "#ddd}figure.survivor{outline:2px solid #2ca02c}figure.wide{width:490px}"
      "img.thumb.sheet{max-width:480px;max-height:160px}"
      "</style></head><body>\n";
  html += fmt::format(
      "<h1>winnow run: {}</h1><p>{} · {:.2f} s · budget {} CPU threads, {} GPU(s) ({}) · {} · "
      "output {}</p>\n",
      report.status.is_ok() ? "done" : report.stopped ? "stopped" : "FAILED",
      escape_html(std::string("winnow ") + kVersion),
      report.elapsed_seconds, report.threads, report.gpus,
      report.autoscaled ? fmt::format("autoscaled every {} ms, {} cycles",
                                      report.autoscale_interval_ms, report.autoscale_cycles)
                        : std::string("fixed workers"),
      report.fused ? fmt::format("stage fusion on ({} fused step(s))", report.fused_groups.size())
                   : std::string("stage fusion off"),
      escape_html(report.output_dir));
  if (!report.status.is_ok())
    html += "<p><b>error:</b> " + escape_html(report.status.message()) + "</p>\n";
  html += "<p>" + escape_html(reconcile_text(t)) + "</p>\n";
  html += funnel_chart(report);
  html += step_table(report);
  html += level_table(t);
  html += pass_table(report);
  html += pass_timeline(report);
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
  html += global_step_section(report);
  html += example_section(report);
  html += timeline_section(report.timelines);
  const std::string end = "</body></html>\n";
  // The pairs may take half the room left, the pictures the rest.
  size_t used = html.size() + end.size();
  size_t room = report.report_max_bytes > used ? report.report_max_bytes - used : 0;
  html += pair_section(report.pairs, room / 2);
  used = html.size() + end.size();
  html += picture_section(report.pictures,
                          report.report_max_bytes > used ? report.report_max_bytes - used : 0,
                          report.stage_settings);
  return html + end;
}

Status write_report_html(const RunReport& report, const std::string& path) {
  return AtomicFile::write_whole(path, render_report_html(report));
}

}  // namespace winnow
