// A strict check of the markup the HTML reports write: every element closed
// and properly nested, no stray '<' or unescaped '&' in text, one root <html>.
// The reports write XHTML-compatible markup so that this stays this simple.
#pragma once

#include <string>
#include <vector>

namespace warpscope::test {

// "" when `page` is well formed; otherwise what is wrong and where.
inline std::string html_problem(const std::string& page) {
  std::vector<std::string> open;
  std::size_t i = 0, roots = 0;
  const auto skip_past = [&](const char* end) {
    const std::size_t e = page.find(end, i);
    i = e == std::string::npos ? page.size() : e + std::string(end).size();
  };
  while (i < page.size()) {
    const char c = page[i];
    if (c == '&') {
      const std::size_t semi = page.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "unescaped & at " + std::to_string(i);
      i = semi + 1;
      continue;
    }
    if (c != '<') {
      if (c == '>') return "stray > at " + std::to_string(i);
      ++i;
      continue;
    }
    if (page.compare(i, 4, "<!--") == 0) {
      skip_past("-->");
      continue;
    }
    if (page.compare(i, 2, "<!") == 0) {  // <!DOCTYPE html>
      skip_past(">");
      continue;
    }
    // Inside <style> no markup: skip to its end.
    const std::size_t end = page.find('>', i);
    if (end == std::string::npos) return "unclosed tag at " + std::to_string(i);
    std::string tag = page.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag at " + std::to_string(i);
    const bool closing = !tag.empty() && tag[0] == '/';
    const bool self = !tag.empty() && tag.back() == '/';
    std::string name = tag.substr(closing ? 1 : 0);
    name = name.substr(0, name.find_first_of(" /\n"));
    if (name.empty()) return "empty tag at " + std::to_string(i);
    i = end + 1;
    if (self) continue;
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> at " + std::to_string(end) + " closes <" + (open.empty() ? "nothing" : open.back()) + ">";
      open.pop_back();
      continue;
    }
    if (open.empty()) {
      if (name != "html") return "<" + name + "> outside <html>";
      ++roots;
    }
    open.push_back(name);
    if (name == "style" || name == "title") {  // text only up to the closing tag
      const std::size_t close = page.find("</" + name + ">", i);
      if (close == std::string::npos) return "<" + name + "> never closed";
      i = close;
    }
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  if (roots != 1) return "expected one <html> root";
  return "";
}

// How many times `needle` occurs in `text`.
inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + needle.size())) ++n;
  return n;
}

}  // namespace warpscope::test
