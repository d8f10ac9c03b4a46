// Kernel names as Nsight Compute prints them ("void ns::f<int, 4>(float *, int)")
// and as traces hold them (demangled or mangled, "_Z1fPfi"), reduced to what
// both agree on.
#pragma once

#include <string>
#include <string_view>

namespace warpscope::validate {

// The qualified function name without return type, parameters or spaces:
// "void ns::f<int, 4>(float *, int)" -> "ns::f<int,4>"; mangled names are
// demangled first.
std::string kernel_base_name(std::string_view name);
// The same without template arguments: "ns::f".
std::string kernel_identifier(std::string_view name);
// Names the same function: equal base names, or equal identifiers (template
// arguments are printed differently by different demanglers).
bool same_kernel(std::string_view a, std::string_view b);

}  // namespace warpscope::validate
