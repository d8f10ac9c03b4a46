#include <fmt/format.h>

#include "warpscope/error.hpp"
#include "warpscope/validate.hpp"

namespace warpscope {

std::string replace_generated_section(std::string_view doc, std::string_view label, std::string_view body,
                                      const std::string& doc_name) {
  const std::string begin = fmt::format("<!-- BEGIN GENERATED: {} -->", label);
  const std::string_view end = "<!-- END GENERATED -->";
  const std::size_t b = doc.find(begin);
  if (b == std::string_view::npos)
    throw InputError(fmt::format("{}: no line \"{}\" (and \"{}\" after it) to rewrite", doc_name, begin, end));
  const std::size_t body_start = doc.find('\n', b);
  const std::size_t e = body_start == std::string_view::npos ? body_start : doc.find(end, body_start);
  if (e == std::string_view::npos)
    throw InputError(fmt::format("{}: \"{}\" has no \"{}\" after it", doc_name, begin, end));
  std::string out(doc.substr(0, body_start + 1));
  out += body;
  if (!body.empty() && body.back() != '\n') out += '\n';
  out += doc.substr(e);
  return out;
}

}  // namespace warpscope
