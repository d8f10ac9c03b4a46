// Cells and lines shared by the text, Markdown and JSON printers of a validation.
#pragma once

#include <string>
#include <vector>

#include "warpscope/validate.hpp"

namespace warpscope::validate {

std::string number_cell(double v);                                  // 1051392, 0.25
std::string value_cell(const CounterComparison& c, bool hardware);  // "24284 (43.31%)" for rates
std::string difference_cell(const CounterComparison& c);            // "+64", "-0.27%", "-1.69 pt"
std::string tolerance_cell(const CounterComparison& c);             // "exact", "10% or 1024", "5 pt", "-"

// Per kernel: exact matched / checked, toleranced within / checked, known,
// worst rate error, worst relative error, verdict.
std::vector<std::string> kernel_summary_header();
std::vector<std::string> kernel_summary_row(const KernelValidation& k);
// One counter of one launch: kernel, counter, hardware, model, difference,
// tolerance, verdict (with a known mismatch's reason); and that header.
std::vector<std::string> counter_row(const KernelValidation& k, const CounterComparison& c);
const std::vector<std::string>& counter_header();
// environment.txt as "gpu NVIDIA H100 ..., driver 580.159.04, ...".
std::string environment_line(const ValidationReport& r);
// The summary as lines of text (no trailing newline on each).
std::vector<std::string> summary_lines(const ValidationReport& report, const ValidationSummary& s);

}  // namespace warpscope::validate
