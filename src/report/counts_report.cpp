#include "report/counts_report.hpp"

#include <fmt/format.h>

#include <functional>

#include "report/text_table.hpp"

namespace warpscope::report {
namespace {

using C = InstructionCounts;

struct Row {
  const char* label;
  C::Key key;
  std::function<std::string(const C&)> cell;
};

std::string num(std::uint32_t v) { return std::to_string(v); }

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {"requests", C::kRequests, [](const C& c) { return num(c.requests); }},
      {"  split into", C::kRequests,
       [](const C& c) { return c.sub_requests > 1 ? num(c.sub_requests) : std::string("-"); }},
      {"transactions", C::kTransactions, [](const C& c) { return num(c.transactions); }},
      {"  sizes (32/64/128 B)", C::kTransactions,
       [](const C& c) {
         return c.path == MemoryPath::Dram ? fmt::format("{}/{}/{}", c.tx32, c.tx64, c.tx128) : std::string("-");
       }},
      {"sectors (32 B)", C::kSectors, [](const C& c) { return num(c.sectors); }},
      {"bytes needed", C::kBytes, [](const C& c) { return num(c.bytes_needed); }},
      {"bytes moved", C::kBytes, [](const C& c) { return num(c.bytes_moved); }},
      {"bus utilization", C::kBytes,  // nothing moved (no active lane): no ratio to show
       [](const C& c) { return c.bytes_moved == 0 ? std::string("-") : percent(c.bus_utilization()); }},
      {"replays", C::kReplays, [](const C& c) { return num(c.replays); }},
      {"shared wavefronts", C::kWavefronts,
       [](const C& c) { return fmt::format("{} (ideal {})", c.wavefronts, c.ideal_wavefronts); }},
      {"bank conflicts", C::kWavefronts, [](const C& c) { return num(c.bank_conflicts); }},
      {"constant serialization", C::kSerialization, [](const C& c) { return num(c.serialization); }},
  };
  return r;
}

}  // namespace

std::string percent(double ratio) {
  std::string s = fmt::format("{:.3f}", ratio * 100.0);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + "%";
}

std::vector<std::vector<std::string>> counts_grid(const std::vector<ArchResult>& results) {
  std::vector<std::vector<std::string>> grid;
  std::vector<std::string> header{"counter"};
  for (const auto& r : results) header.push_back(r.arch->name);
  grid.push_back(header);
  std::vector<std::string> path{"path"};
  for (const auto& r : results) path.push_back(std::string(to_string(r.counts.path)));
  grid.push_back(path);
  for (const auto& row : rows()) {
    bool any = false;
    std::vector<std::string> cells{row.label};
    for (const auto& r : results) {
      bool has = r.counts.has(row.key);
      any |= has;
      cells.push_back(has ? row.cell(r.counts) : "-");
    }
    if (any && std::any_of(cells.begin() + 1, cells.end(), [](const std::string& s) { return s != "-"; }))
      grid.push_back(cells);
  }
  return grid;
}

std::string counts_table(const std::vector<ArchResult>& results) {
  const auto grid = counts_grid(results);
  TextTable t(grid.front());
  for (std::size_t i = 1; i < grid.size(); ++i) t.add_row(grid[i]);
  return t.render();
}

nlohmann::json counts_json(const ArchResult& r) {
  const C& c = r.counts;
  nlohmann::json j;
  j["arch"] = r.arch->name;
  j["path"] = std::string(to_string(c.path));
  j["requests"] = c.requests;
  if (c.sub_requests > 0) j["sub_requests"] = c.sub_requests;
  if (c.has(C::kTransactions)) j["transactions"] = c.transactions;
  if (c.has(C::kTransactions) && c.path == MemoryPath::Dram)
    j["transaction_sizes"] = {{"32", c.tx32}, {"64", c.tx64}, {"128", c.tx128}};
  if (c.has(C::kSectors)) j["sectors"] = c.sectors;
  if (c.has(C::kBytes)) {
    j["bytes_needed"] = c.bytes_needed;
    j["bytes_moved"] = c.bytes_moved;
    j["bus_utilization"] = c.bus_utilization();
  }
  if (c.has(C::kReplays)) j["replays"] = c.replays;
  if (c.has(C::kWavefronts)) {
    j["wavefronts"] = c.wavefronts;
    j["ideal_wavefronts"] = c.ideal_wavefronts;
    j["bank_conflicts"] = c.bank_conflicts;
  }
  if (c.has(C::kSerialization)) j["serialization"] = c.serialization;
  return j;
}

}  // namespace warpscope::report
