#include "report/analyze_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "report/access_picture.hpp"
#include "report/counts_report.hpp"
#include "report/html.hpp"
#include "report/metric_rows.hpp"
#include "report/svg_chart.hpp"
#include "warpscope/metric_names.hpp"
#include "warpscope/rules.hpp"

namespace warpscope::report {
namespace {

// The metric of `key` among one kernel's metrics on one architecture (metrics()).
std::optional<Metric> metric_of(const std::vector<Metric>& all, std::string_view key) {
  for (const auto& m : all)
    if (m.our_key == key) return m;
  return std::nullopt;
}

std::string shown(const std::optional<Metric>& m) {
  if (!m) return "-";
  return group_digits(format_metric_value(m->value, m->unit)) + (m->unit == "bytes" ? " B" : "");
}

// The quantities each kernel's chart shows, when some architecture has them non-zero.
struct ChartKey {
  const char* key;
  const char* label;
};
constexpr ChartKey kChartKeys[] = {
    {"global_ld.efficiency", "global loads: bytes used / bytes moved"},
    {"global_st.efficiency", "global stores: bytes used / bytes moved"},
    {"global_ld.sectors_per_request", "global loads: sectors per request"},
    {"global_ld.hit_rate", "global loads: L1 hit rate"},
    {"local_ld.hit_rate", "local loads: L1 hit rate"},
    {"readonly_ld.hit_rate", "read-only / texture loads: hit rate"},
    {"shared_ld.wavefronts_per_request", "shared loads: wavefronts per instruction"},
    {"shared_st.wavefronts_per_request", "shared stores: wavefronts per instruction"},
    {"ldsm.wavefronts_per_request", "ldmatrix: wavefronts per instruction (one per matrix ideal)"},
    {"stsm.wavefronts_per_request", "stmatrix: wavefronts per instruction (one per matrix ideal)"},
    {"l2.read_hit_rate", "L2 read hit rate"},
    {"dram.read_bytes", "DRAM bytes read"},
    {"dram.write_bytes", "DRAM bytes written"},
};

std::string kernel_chart(const AnalyzeResult& r, std::size_t k) {
  std::vector<std::vector<Metric>> per_arch;  // each architecture's metrics, computed once
  for (const auto& a : r.archs) per_arch.push_back(metrics(a.kernels[k].counters, *a.arch));
  std::vector<BarGroup> groups;
  for (const ChartKey& ck : kChartKeys) {
    BarGroup g;
    bool nonzero = false, caches = false;
    for (std::size_t a = 0; a < r.archs.size(); ++a) {
      const auto m = metric_of(per_arch[a], ck.key);
      if (!m) continue;
      nonzero |= m->value != 0;
      caches = m->depends_on_caches;
      if (m->unit == "%") g.scale = 100;
      g.bars.push_back({r.archs[a].arch->name, m->value, shown(m), a});
    }
    if (!nonzero) continue;
    g.label = fmt::format("{} ({})", ck.label, basis_name(caches));
    groups.push_back(std::move(g));
  }
  if (groups.empty()) return "";
  return "<figure>\n" + svg_bar_chart(groups) +
         "<figcaption>Each bar is one architecture; \"rules\" values follow from the access pattern alone, "
         "\"caches\" values from the modelled cache state.</figcaption>\n</figure>\n";
}

std::string kernel_metrics_table(const AnalyzeResult& r, std::size_t k, bool all) {
  std::string out = "<table>\n<tr><th class=\"l\">counter</th><th class=\"l\">from</th><th class=\"l\">profiler name</th>";
  for (const auto& a : r.archs) out += fmt::format("<th>{}</th>", html_escape(a.arch->name));
  out += "</tr>\n";
  for (const auto& row : kernel_metric_rows(r, k, all)) {
    out += fmt::format("<tr><td class=\"l mono\">{}</td><td class=\"l\">{}</td><td class=\"l mono\">{}</td>",
                       html_escape(row.our_key), basis_badge(row.depends_on_caches), html_escape(row.profiler_names));
    for (const auto& v : row.values)
      out += fmt::format("<td>{}</td>", v ? group_digits(format_metric_value(v->value, v->unit)) : "-");
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// The summary: a row per kernel and architecture, the headline numbers.
std::string summary_table(const AnalyzeResult& r, std::size_t max_kernels, std::size_t sections) {
  static constexpr std::pair<const char*, const char*> kColumns[] = {
      {"global_ld.sectors_per_request", "global ld sectors / request"},
      {"global_ld.efficiency", "global ld bytes used / moved"},
      {"global_ld.hit_rate", "L1 hit rate (global ld)"},
      {"l2.read_hit_rate", "L2 read hit rate"},
      {"dram.read_bytes", "DRAM read"},
      {"dram.write_bytes", "DRAM written"},
      {"shared_ld.bank_conflicts", "shared ld bank conflicts"},
      {"shared_st.bank_conflicts", "shared st bank conflicts"},
      {"ldsm.bank_conflicts", "ldmatrix bank conflicts"},
  };
  std::string out = "<table>\n<tr><th class=\"l\">kernel</th><th class=\"l\">arch</th><th>records</th>";
  for (const auto& [key, label] : kColumns) out += fmt::format("<th title=\"{}\">{}</th>", key, html_escape(label));
  out += "</tr>\n";
  const auto& kernels = r.archs.front().kernels;
  for (std::size_t k = 0; k < kernels.size() && k < max_kernels; ++k) {
    for (std::size_t a = 0; a < r.archs.size(); ++a) {
      const KernelResult& kr = r.archs[a].kernels[k];
      out += "<tr>";
      // Anchors by position: a kernel id launched twice has two entries.
      if (a == 0 && k < sections)
        out += fmt::format("<td class=\"l\" rowspan=\"{}\"><a href=\"#k{}\">{} {}</a></td>", r.archs.size(), k,
                           kr.info.id, html_escape(kr.info.name));
      else if (a == 0)
        out += fmt::format("<td class=\"l\" rowspan=\"{}\">{} {}</td>", r.archs.size(), kr.info.id,
                           html_escape(kr.info.name));
      out += fmt::format("<td class=\"l\">{}</td><td>{}</td>", html_escape(r.archs[a].arch->name), kr.records);
      const std::vector<Metric> all = metrics(kr.counters, *r.archs[a].arch);
      for (const auto& [key, label] : kColumns) out += fmt::format("<td>{}</td>", html_escape(shown(metric_of(all, key))));
      out += "</tr>\n";
    }
  }
  out += "</table>\n";
  if (kernels.size() > max_kernels)
    out += fmt::format("<p class=\"note\">The first {} of {} kernels; --json and --csv list every one.</p>\n",
                       max_kernels, kernels.size());
  return out;
}

// Ranks up to `pictures` link to their picture.
std::string top_table(const AnalyzeResult& r, const TraceSource& trace, const std::vector<std::size_t>& order,
                      std::size_t pictures) {
  std::string out =
      "<table>\n<tr><th>#</th><th class=\"l\">kernel</th><th>pc</th><th class=\"l\">source</th><th class=\"l\">access"
      "</th><th>executions</th>";
  for (const auto& a : r.archs) out += fmt::format("<th>{} wasted</th>", html_escape(a.arch->name));
  for (const auto& a : r.archs) out += fmt::format("<th>{} used / moved</th>", html_escape(a.arch->name));
  out += "</tr>\n";
  int rank = 0;
  for (std::size_t i : order) {
    const PcCounters& p = r.archs.front().pcs[i];
    const KernelInfo* k = trace.kernel(p.kernel);
    ++rank;
    const std::string cell = static_cast<std::size_t>(rank) <= pictures
                                 ? fmt::format("<a href=\"#pc-{0}\">{0}</a>", rank)
                                 : std::to_string(rank);
    out += fmt::format(
        "<tr><td>{}</td><td class=\"l\">{}</td><td class=\"mono\">{:#x}</td><td class=\"l mono\">{}</td><td "
        "class=\"l nw\">{}</td><td>{}</td>",
        cell, html_escape(k ? k->name : std::to_string(p.kernel)), p.pc, html_escape(source_text(k, p.pc)),
        html_escape(access_text(p)), p.executions);
    // The pcs vectors of every architecture are filled in the same order.
    for (const auto& a : r.archs) out += fmt::format("<td>{} B</td>", group_digits(std::to_string(a.pcs[i].bytes_wasted())));
    for (const auto& a : r.archs) {
      const auto& q = a.pcs[i];
      out += fmt::format("<td>{}</td>",
                         q.bytes_moved ? percent(static_cast<double>(q.bytes_needed) / static_cast<double>(q.bytes_moved))
                                       : std::string("-"));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// One instruction's first execution: the picture, and the rules engine's counts of it per architecture.
std::string instruction_section(const AnalyzeResult& r, const TraceSource& trace, std::size_t i, int rank) {
  const PcCounters& p = r.archs.front().pcs[i];
  const WarpAccess& w = p.first;
  const KernelInfo* k = trace.kernel(p.kernel);
  const std::string source = source_text(k, p.pc);
  std::string out = fmt::format("<h3 id=\"pc-{}\">#{}: {} at pc <span class=\"mono\">{:#x}</span>{} in {}</h3>\n", rank,
                                rank, html_escape(access_text(p)), p.pc,
                                source.empty() ? "" : fmt::format(" (<span class=\"mono\">{}</span>)", html_escape(source)),
                                html_escape(k ? k->name : std::to_string(p.kernel)));
  out += fmt::format("<p>{} executions. Its first execution (CTA {}, warp {}): {} active lanes ({}).</p>\n",
                     p.executions, w.cta, w.warp, w.active.count(), html_escape(lane_ranges(w.active.bits())));
  std::vector<const ArchSpec*> archs;
  for (const auto& a : r.archs) archs.push_back(a.arch);
  out += access_figure(w, archs);
  std::vector<ArchResult> counts;
  for (const auto& a : r.archs) counts.push_back({a.arch, analyze(w, *a.arch)});
  out += "<p>The rules engine's counts of this execution:</p>\n" + html_table(counts_grid(counts), 1);
  return out;
}

}  // namespace

std::string access_text(const PcCounters& p) {
  return fmt::format("{} {}{}{} {} B", to_string(p.space), to_string(p.op), p.atomic_op == AtomicOp::Unknown ? "" : ".",
                     p.atomic_op == AtomicOp::Unknown ? "" : to_string(p.atomic_op), p.size);
}

std::string dim_text(const Dim3& d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); }

std::string source_text(const KernelInfo* k, std::uint64_t pc) {
  if (!k) return "";
  auto it = k->lines.find(pc);
  return it == k->lines.end() ? "" : fmt::format("{}:{}", it->second.file, it->second.line);
}

std::vector<MetricRow> kernel_metric_rows(const AnalyzeResult& r, std::size_t k, bool all) {
  std::vector<const ArchSpec*> archs;
  std::vector<const Counters*> counters;
  for (const auto& a : r.archs) {
    archs.push_back(a.arch);
    counters.push_back(&a.kernels[k].counters);
  }
  return metric_rows(archs, counters, all);
}

std::string analyze_html(const AnalyzeResult& r, const TraceSource& trace, const AnalyzeHtmlOptions& o) {
  std::string body = fmt::format("<h1>warpscope analyze: <span class=\"mono\">{}</span></h1>\n", html_escape(o.trace_path));
  body += fmt::format("<p>{} records, {} analysed; warpscope {}.", r.records_read, r.records_analyzed, WARPSCOPE_VERSION);
  if (!o.gpu_note.empty()) body += fmt::format(" {}", html_escape(o.gpu_note));
  body += "</p>\n";
  body += "<p class=\"note\">" + basis_badge(false) +
          " values are fixed by the access pattern (coalescing, banks): the hardware counts the same where it is "
          "deterministic. " +
          basis_badge(true) +
          " values depend on the modelled cache state (hits, L2, DRAM): estimates, whose error on the H100 "
          "docs/VALIDATION.md states.</p>\n";
  for (const auto& n : o.notes) body += "<p class=\"note\">" + html_escape(n) + "</p>\n";
  body += "<h2>Memory systems</h2>\n<table>\n";
  for (const auto& a : r.archs) {
    std::string desc = a.memory_description;
    while (!desc.empty() && desc.back() == '\n') desc.pop_back();
    std::string lines;
    for (char c : html_escape(desc)) lines += c == '\n' ? std::string("<br/>") : std::string(1, c);
    body += fmt::format("<tr><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>\n", html_escape(a.arch->name), lines);
  }
  body += "</table>\n";
  if (r.archs.empty() || r.archs.front().kernels.empty()) {
    body += "<p>No kernel was analysed.</p>\n";
    return html_page("warpscope analyze " + o.trace_path, body);
  }
  const std::size_t kernels = r.archs.front().kernels.size();
  body += "<h2>Kernels</h2>\n" + summary_table(r, o.max_summary_kernels, o.max_kernel_sections);
  if (kernels > o.max_kernel_sections)
    body += fmt::format("<p class=\"note\">A section with the chart and every metric for the first {} of {} kernels; "
                        "--json and --csv have every kernel's metrics.</p>\n",
                        o.max_kernel_sections, kernels);
  for (std::size_t k = 0; k < kernels && k < o.max_kernel_sections; ++k) {
    const KernelResult& kr = r.archs.front().kernels[k];
    body += fmt::format("<h2 id=\"k{}\">kernel {} <span class=\"mono\">{}</span></h2>\n", k, kr.info.id,
                        html_escape(kr.info.name));
    body += fmt::format("<p>grid {}, block {}, {} records", dim_text(kr.info.grid), dim_text(kr.info.block), kr.records);
    for (const auto& a : r.archs)
      if (a.arch->unified_l1_shared > 0 && k < a.kernels.size())
        body += fmt::format("; {}: L1 {} KB, shared {} KB", html_escape(a.arch->name), a.kernels[k].l1_bytes / 1024,
                            a.kernels[k].shared_capacity / 1024);
    body += ".</p>\n" + kernel_chart(r, k) + kernel_metrics_table(r, k, o.all_metrics);
  }
  const auto order = rank_by_bytes_wasted(r.archs.front().pcs, static_cast<std::size_t>(std::max(o.top, 0)));
  if (!order.empty()) {
    body += fmt::format("<h2>The {} instructions that waste the most bytes on {}</h2>\n", order.size(),
                        html_escape(r.archs.front().arch->name));
    body += top_table(r, trace, order, o.max_pictures);
    if (order.size() > o.max_pictures)
      body += fmt::format("<p class=\"note\">Pictures of the first {} of these {} instructions.</p>\n", o.max_pictures,
                          order.size());
    int rank = 0;
    for (std::size_t i : order) {
      if (static_cast<std::size_t>(rank) == o.max_pictures) break;
      body += instruction_section(r, trace, i, ++rank);
    }
  }
  return html_page("warpscope analyze " + o.trace_path, body);
}

}  // namespace warpscope::report
