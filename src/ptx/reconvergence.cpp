#include "ptx/reconvergence.hpp"

#include <vector>

namespace warpscope::ptx {

void set_reconvergence(Function& f) {
  const auto n = static_cast<std::uint32_t>(f.code.size());
  if (n == 0) return;
  // Basic blocks: leaders are the first instruction, branch targets and what follows a transfer.
  std::vector<char> leader(n + 1, 0);
  leader[0] = 1;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Instruction& in = f.code[i];
    if (in.op == Opcode::Bra) {
      if (in.operands[0].label < n) leader[in.operands[0].label] = 1;
      leader[i + 1] = 1;
    } else if (in.op == Opcode::Ret || in.op == Opcode::Exit || in.op == Opcode::Trap) {
      leader[i + 1] = 1;
    }
  }
  std::vector<std::uint32_t> block_of(n + 1, 0), start;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (leader[i]) start.push_back(i);
    block_of[i] = static_cast<std::uint32_t>(start.size() - 1);
  }
  const auto blocks = static_cast<std::uint32_t>(start.size());
  const std::uint32_t exit = blocks;  // the virtual exit node
  block_of[n] = exit;
  std::vector<std::vector<std::uint32_t>> succ(blocks + 1), pred(blocks + 1);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    const std::uint32_t end = b + 1 < blocks ? start[b + 1] : n;
    const Instruction& last = f.code[end - 1];
    auto edge = [&](std::uint32_t to) {
      succ[b].push_back(to);
      pred[to].push_back(b);
    };
    const bool guarded = last.guard >= 0;
    if (last.op == Opcode::Bra) {
      edge(last.operands[0].label < n ? block_of[last.operands[0].label] : exit);
      if (guarded) edge(block_of[end]);
    } else if (last.op == Opcode::Ret || last.op == Opcode::Exit || last.op == Opcode::Trap) {
      edge(exit);
      if (guarded) edge(block_of[end]);
    } else {
      edge(block_of[end]);
    }
  }
  // Post-dominators: dominators of the reverse graph from the exit (Cooper, Harvey and Kennedy,
  // "A Simple, Fast Dominance Algorithm").
  std::vector<std::uint32_t> order;  // postorder of the reverse graph
  std::vector<std::uint32_t> number(blocks + 1, UINT32_MAX);
  {
    std::vector<std::pair<std::uint32_t, std::size_t>> stack{{exit, 0}};
    std::vector<char> seen(blocks + 1, 0);
    seen[exit] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < pred[node].size()) {
        const std::uint32_t p = pred[node][next++];
        if (!seen[p]) {
          seen[p] = 1;
          stack.push_back({p, 0});
        }
      } else {
        number[node] = static_cast<std::uint32_t>(order.size());
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  constexpr std::uint32_t kUndef = UINT32_MAX;
  std::vector<std::uint32_t> ipdom(blocks + 1, kUndef);
  ipdom[exit] = exit;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (number[a] < number[b]) a = ipdom[a];
      while (number[b] < number[a]) b = ipdom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const std::uint32_t b = *it;
      if (b == exit) continue;
      std::uint32_t best = kUndef;
      for (std::uint32_t s : succ[b]) {
        if (ipdom[s] == kUndef) continue;
        best = best == kUndef ? s : intersect(s, best);
      }
      if (best != kUndef && ipdom[b] != best) {
        ipdom[b] = best;
        changed = true;
      }
    }
  }
  for (std::uint32_t b = 0; b < blocks; ++b) {
    const std::uint32_t end = b + 1 < blocks ? start[b + 1] : n;
    Instruction& last = f.code[end - 1];
    if (last.op != Opcode::Bra) continue;
    const std::uint32_t p = ipdom[b];
    // Blocks that never reach the exit (an endless loop) have no post-dominator: no reconvergence.
    last.reconverge = (p == kUndef || p == exit) ? kNoReconvergence : start[p];
  }
}

}  // namespace warpscope::ptx
