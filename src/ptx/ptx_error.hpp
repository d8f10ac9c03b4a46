// A PTX file warpscope cannot read or run: the message names the file and line.
#pragma once

#include <cstdint>
#include <string>

#include "warpscope/error.hpp"

namespace warpscope::ptx {

class PtxError : public InputError {
 public:
  using InputError::InputError;
};

[[noreturn]] void fail_at(const std::string& path, std::uint32_t line, const std::string& message);

}  // namespace warpscope::ptx
