#include "dedup/semantic_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/html_escape.h"
#include "core/json_text.h"
#include "dedup/semantic_step.h"

namespace winnow {

namespace {

const char* ranking_name(SemanticRanking r) {
  switch (r) {
    case SemanticRanking::kHard:
      return "hard";
    case SemanticRanking::kEasy:
      return "easy";
    case SemanticRanking::kRandom:
      return "random";
    case SemanticRanking::kField:
      return "field";
  }
  return "?";
}

// Cluster sizes in power-of-two bins: "0" (empty), "1", "2-3", "4-7", ...
std::vector<std::pair<std::string, uint64_t>> size_histogram(const std::vector<uint64_t>& sizes) {
  std::map<int, uint64_t> bins;
  for (uint64_t s : sizes) {
    int bin = 0;
    while ((uint64_t{1} << bin) <= s) ++bin;  // 0 -> 0, 1 -> 1, 2..3 -> 2, ...
    ++bins[bin];
  }
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const auto& [bin, count] : bins) {
    if (bin <= 1) {
      out.emplace_back(std::to_string(bin), count);
    } else {
      out.emplace_back(fmt::format("{}-{}", uint64_t{1} << (bin - 1), (uint64_t{1} << bin) - 1),
                       count);
    }
  }
  return out;
}

struct SweepPoint {
  double eps;
  uint64_t removed;
};

// What the three renderings share, computed once from a summary.
struct SummaryFigures {
  std::vector<SweepPoint> sweep;  // by eps, each eps once
  uint64_t items = 0, to_remove = 0, largest = 0, empty = 0;
  std::vector<std::pair<std::string, uint64_t>> histogram;

  explicit SummaryFigures(const SemanticSummary& s) : items(s.items) {
    for (size_t t = 0; t < s.thresholds.size(); ++t) {
      double eps = t == 0 ? s.options->eps : s.options->eps_sweep[t - 1];
      if (std::none_of(sweep.begin(), sweep.end(),
                       [&](const SweepPoint& p) { return p.eps == eps; })) {
        sweep.push_back({eps, s.removed_at[t]});
      }
    }
    std::sort(sweep.begin(), sweep.end(),
              [](const SweepPoint& a, const SweepPoint& b) { return a.eps < b.eps; });
    to_remove = s.removed_at.empty() ? 0 : s.removed_at[0];
    for (uint64_t size : s.cluster_sizes) {
      largest = std::max(largest, size);
      empty += size == 0;
    }
    histogram = size_histogram(s.cluster_sizes);
  }
  double kept_fraction(uint64_t removed) const {
    return items == 0 ? 1.0 : static_cast<double>(items - removed) / static_cast<double>(items);
  }
};

void write_parameters(const SemanticOptions& o, JsonWriter& out) {
  out.key("parameters").begin_object();
  out.key("n_clusters").value(static_cast<uint64_t>(o.n_clusters));
  out.key("max_iter").value(o.max_iter);
  out.key("tol").value(o.tol);
  out.key("seed").value(o.seed);
  out.key("sample_fraction").value(o.sample_fraction);
  out.key("ranking").value(ranking_name(o.ranking));
  if (o.ranking == SemanticRanking::kField) out.key("ranking_field").value(o.ranking_field);
  out.key("eps").value(o.eps);
  out.key("embedding_field").value(o.embedding_field);
  out.key("normalize").value(o.normalize);
  out.key("spherical").value(o.spherical);
  out.key("keep_one_per_group").value(o.keep_one_per_group);
  out.key("max_points_per_centroid").value(static_cast<uint64_t>(o.max_points_per_centroid));
  out.end_object();
}

// summary.json.
std::string summary_json(const SemanticSummary& s, const SummaryFigures& f) {
  JsonWriter out(true);
  out.begin_object();
  out.key("method").value("semantic");
  write_parameters(*s.options, out);
  out.key("items").value(s.items);
  out.key("bad_embeddings").value(s.bad);
  out.key("dimension").value(static_cast<uint64_t>(s.dimension));
  out.key("clusters").value(static_cast<uint64_t>(s.clusters));
  out.key("kmeans_iterations").value(s.iterations);
  out.key("kmeans_sampled").value(static_cast<uint64_t>(s.sampled));
  out.key("kmeans_trained_on").value(static_cast<uint64_t>(s.trained_on));
  out.key("kmeans_objective").value(s.objective);
  out.key("inertia").value(s.inertia);
  out.key("largest_cluster").value(f.largest);
  out.key("empty_clusters").value(f.empty);
  out.key("cluster_size_histogram").begin_object();
  for (const auto& [bin, count] : f.histogram) out.key(bin).value(count);
  out.end_object();
  out.key("to_remove").value(f.to_remove);
  out.key("eps_sweep").begin_array();
  for (const SweepPoint& p : f.sweep) {
    out.begin_object();
    out.key("eps").value(p.eps);
    out.key("removed").value(p.removed);
    out.key("kept").value(s.items - p.removed);
    out.key("kept_fraction").value(f.kept_fraction(p.removed));
    out.end_object();
  }
  out.end_array();
  out.key("examples").begin_array();
  for (const RemovedPairExample& e : s.examples) {
    out.begin_object();
    out.key("id").value(e.id);
    out.key("matched_id").value(e.matched_id);
    out.key("similarity").value(static_cast<double>(e.similarity));
    out.key("cluster").value(static_cast<uint64_t>(e.cluster));
    out.key("text").value(e.excerpt);
    out.key("matched_text").value(e.matched_excerpt);
    out.end_object();
  }
  out.end_array();
  out.key("table").value(SemanticStep::kTable);
  out.end_object();
  return out.take();
}

// The run summary's lines.
std::string summary_text(const SemanticSummary& s, const SummaryFigures& f) {
  const SemanticOptions& o = *s.options;
  std::string text = fmt::format(
      "{} items in {} clusters ({} iterations, fit on {} points: max_points_per_centroid {}), "
      "inertia {:.4g}; {} to remove at eps {} ({:.2f}% kept){}\n",
      s.items, s.clusters, s.iterations, s.trained_on, o.max_points_per_centroid, s.inertia,
      f.to_remove, o.eps, 100 * f.kept_fraction(f.to_remove),
      s.bad > 0 ? fmt::format(", {} without a usable embedding", s.bad) : "");
  text += "      eps sweep (eps: kept fraction):";
  for (const SweepPoint& p : f.sweep) {
    text += fmt::format(" {}: {:.4f}", p.eps, f.kept_fraction(p.removed));
  }
  text += "\n      cluster sizes (size: clusters):";
  for (const auto& [bin, count] : f.histogram) text += fmt::format(" {}: {}", bin, count);
  text += fmt::format("\n      table: {}\n", SemanticStep::kTable);
  for (const std::string& message : s.bad_examples)
    text += "      bad embedding: " + message + "\n";
  return text;
}

// Kept fraction (y, 0..1) against eps (x, linear from 0 to the largest eps), as SVG.
std::string sweep_chart(const SummaryFigures& f) {
  const double width = 420, height = 200, left = 50, bottom = 30;
  const double max_eps = std::max(f.sweep.back().eps, 1e-12);
  auto px = [&](double eps) { return left + (width - left - 10) * eps / max_eps; };
  auto py = [&](double kept) { return (height - bottom) * (1 - kept) + 5; };
  std::string points;
  for (const SweepPoint& p : f.sweep) {
    points += fmt::format("{:.1f},{:.1f} ", px(p.eps), py(f.kept_fraction(p.removed)));
  }
  std::string svg = fmt::format(
      "<svg class=\"eps-sweep\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">"
      "<line x1=\"{2}\" y1=\"5\" x2=\"{2}\" y2=\"{3:.1f}\" stroke=\"#888\"/>"
      "<line x1=\"{2}\" y1=\"{3:.1f}\" x2=\"{4}\" y2=\"{3:.1f}\" stroke=\"#888\"/>"
      "<text x=\"4\" y=\"12\" font-size=\"10\">kept 1</text>"
      "<text x=\"4\" y=\"{3:.1f}\" font-size=\"10\">0</text>"
      "<text x=\"{4}\" y=\"{5}\" font-size=\"10\" text-anchor=\"end\">eps {6}</text>"
      "<polyline fill=\"none\" stroke=\"#2a6fdb\" stroke-width=\"2\" points=\"{7}\"/>",
      width, height, left, py(0), width - 10, height - 8, max_eps, points);
  for (const SweepPoint& p : f.sweep) {
    svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"#2a6fdb\"/>", px(p.eps),
                       py(f.kept_fraction(p.removed)));
  }
  return svg + "</svg>\n";
}

// report.html's fragment: the sweep as a table and a chart, the histogram, examples.
std::string summary_html(const SemanticSummary& s, const SummaryFigures& f) {
  std::string html =
      "<h4>eps sweep</h4>\n<table><tr><th>eps</th><th>threshold</th><th>removed</th>"
      "<th>kept</th><th>kept fraction</th></tr>\n";
  for (const SweepPoint& p : f.sweep) {
    html +=
        fmt::format("<tr><td>{}</td><td>{:.4f}</td><td>{}</td><td>{}</td><td>{:.4f}</td></tr>\n",
                    p.eps, 1 - p.eps, p.removed, s.items - p.removed, f.kept_fraction(p.removed));
  }
  html += "</table>\n";
  if (!f.sweep.empty()) html += sweep_chart(f);
  html += "<h4>cluster sizes</h4>\n<table><tr><th>size</th><th>clusters</th></tr>\n";
  for (const auto& [bin, count] : f.histogram) {
    html += fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", bin, count);
  }
  html += "</table>\n";
  if (!s.examples.empty()) {
    html +=
        "<h4>removed pairs nearest the threshold</h4>\n<table><tr><th>similarity</th>"
        "<th>removed</th><th>matched (ranked before it)</th></tr>\n";
    for (const RemovedPairExample& e : s.examples) {
      html += fmt::format(
          "<tr><td>{:.4f}</td><td><b>{}</b><br><code>{}</code></td><td><b>{}</b><br>"
          "<code>{}</code></td></tr>\n",
          e.similarity, escape_html(e.id), escape_html(e.excerpt), escape_html(e.matched_id),
          escape_html(e.matched_excerpt));
    }
    html += "</table>\n";
  }
  return html;
}

}  // namespace

void SemanticSummary::write(std::string& json, std::string& text, std::string& html) const {
  const SummaryFigures figures(*this);
  json = summary_json(*this, figures);
  text = summary_text(*this, figures);
  html = summary_html(*this, figures);
}

}  // namespace winnow
