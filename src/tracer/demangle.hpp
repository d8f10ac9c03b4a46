// Itanium demangling of kernel names, header-only so that the injection
// library (which does not link warpscope_core) and warpscope share it.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <string>

namespace warpscope::tracer {

// The demangled name; the input itself when it is not a mangled name.
inline std::string demangle(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return mangled;
  std::string out(d);
  std::free(d);
  return out;
}

}  // namespace warpscope::tracer
