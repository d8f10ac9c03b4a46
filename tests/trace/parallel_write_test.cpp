// Compressing chunks on worker threads (TraceWriteOptions::threads) writes the
// same bytes as compressing on the calling thread -- with kernels declared
// between chunks, chunks cut by size and by record count -- and a writer left
// unclosed (a dying tracer) still leaves every record it was given readable.
#include <gtest/gtest.h>

#include <random>

#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

std::vector<WarpAccess> records_of_three_kernels(std::size_t n) {
  std::vector<WarpAccess> out;
  std::mt19937_64 rng(11);
  for (std::size_t i = 0; i < n; ++i) {
    const bool scattered = i % 4 == 0;
    WarpAccess r = record(static_cast<std::uint32_t>(i * 3 / n), 0x20 * (i % 7), 0xffffffffu, [&](int l) {
      return scattered ? rng() & ~3ull : 0x10000000ull + 128 * i + 4u * unsigned(l);
    });
    r.cta = static_cast<std::uint32_t>(i / 32);
    out.push_back(r);
  }
  return out;
}

// The trace of `records`, kernel k declared just before its first record.
std::string write_with(const std::vector<WarpAccess>& records, int threads, std::uint32_t per_chunk) {
  const auto path = scratch_dir() / ("parallel_write_" + std::to_string(threads) + ".wst");
  TraceWriteOptions o;
  o.threads = threads;
  o.records_per_chunk = per_chunk;
  auto sink = create_trace(path, TraceFormat::Native, o);
  std::uint32_t declared = 0;
  for (const auto& r : records) {
    while (declared <= r.kernel) {
      KernelInfo k;
      k.name = std::string(1, 'k').append(std::to_string(declared++));
      sink->begin_kernel(k);
    }
    sink->write(r);
  }
  sink->close();
  return read_bytes(path);
}

TEST(ParallelWrite, TheFileDoesNotDependOnTheThreadCount) {
  const auto records = records_of_three_kernels(20000);
  for (std::uint32_t per_chunk : {1u, 97u, 16384u}) {
    const std::string one = write_with(records, 1, per_chunk);
    for (int threads : {2, 3, 8}) EXPECT_EQ(write_with(records, threads, per_chunk), one) << threads << " threads, " << per_chunk;
  }
  // And it reads back.
  const auto path = scratch_dir() / "parallel_write_back.wst";
  write_bytes(path, write_with(records, 4, 97));
  const TraceContent c = read_all(path);
  ASSERT_EQ(c.records.size(), records.size());
  for (std::size_t i = 0; i < records.size(); i += 997) EXPECT_EQ(c.records[i].addr[5], records[i].addr[5]) << i;
  EXPECT_EQ(c.kernels.size(), 3u);
}

TEST(ParallelWrite, AnUnclosedWriterThatKeepsItsPartialFileLosesNoRecord) {
  const auto records = records_of_three_kernels(5000);
  const auto path = scratch_dir() / "parallel_write_partial.wst";
  {
    TraceWriteOptions o;
    o.threads = 4;
    o.records_per_chunk = 100;
    o.remove_partial_on_failure = false;
    auto sink = create_trace(path, TraceFormat::Native, o);
    KernelInfo k;
    k.name = "k0";
    sink->begin_kernel(k);
    for (auto r : records) {
      r.kernel = 0;
      sink->write(r);
    }
  }  // never closed
  const auto partial = std::filesystem::path(path.string() + ".partial");
  ASSERT_TRUE(std::filesystem::exists(partial));
  const TraceContent c = read_all(partial);
  EXPECT_EQ(c.records.size(), records.size());
  EXPECT_TRUE(c.summary.recovered);
}

TEST(ParallelWrite, ANegativeThreadCountIsAnError) {
  TraceWriteOptions o;
  o.threads = -1;
  EXPECT_THROW(create_trace(scratch_dir() / "bad_threads.wst", TraceFormat::Native, o), InputError);
}

}  // namespace
}  // namespace warpscope::test
