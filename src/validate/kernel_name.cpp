#include "validate/kernel_name.hpp"

#include "tracer/trace_session.hpp"

namespace warpscope::validate {
namespace {

bool opens(char c) { return c == '<' || c == '(' || c == '['; }
bool closes(char c) { return c == '>' || c == ')' || c == ']'; }

}  // namespace

std::string kernel_base_name(std::string_view name) {
  std::string s = name.substr(0, 2) == "_Z" ? tracer::demangle(std::string(name)) : std::string(name);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  // Drop the parameter list: the last top-level parenthesised group.
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      depth += closes(s[i]) ? 1 : opens(s[i]) ? -1 : 0;
      if (depth == 0) {
        s.resize(i);
        break;
      }
    }
  }
  // Drop the return type: everything up to the last space outside brackets.
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    depth += opens(s[i]) ? 1 : closes(s[i]) ? -1 : 0;
    if (s[i] == ' ' && depth == 0) start = i + 1;
  }
  std::string out;
  for (std::size_t i = start; i < s.size(); ++i)
    if (s[i] != ' ') out += s[i];
  return out;
}

std::string kernel_identifier(std::string_view name) {
  const std::string base = kernel_base_name(name);
  std::string out;
  int depth = 0;
  for (char c : base) {
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (depth == 0) out += c;
  }
  return out;
}

bool same_kernel(std::string_view a, std::string_view b) {
  return kernel_base_name(a) == kernel_base_name(b) || kernel_identifier(a) == kernel_identifier(b);
}

}  // namespace warpscope::validate
