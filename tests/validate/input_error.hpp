// The message of the InputError `f` throws, "" when it throws none.
#pragma once

#include <string>

#include "warpscope/error.hpp"

namespace warpscope::test {

template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace warpscope::test
