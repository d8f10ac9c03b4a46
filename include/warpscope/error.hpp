// Errors warpscope reports to its user. Thrown inside the library, caught once
// at the command boundary and turned into one message and an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace warpscope {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Bad user input: a flag, an expression, a configuration file. Exit code 2.
class InputError : public Error {
 public:
  using Error::Error;
};

}  // namespace warpscope
