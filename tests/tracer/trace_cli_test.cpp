// `warpscope trace` end to end without a GPU: a stand-in application writes a
// recorded message stream to the socket the command hands it
// (WARPSCOPE_TRACE_FD) or, as the injection library does, into the
// shared-memory channel (WARPSCOPE_TRACE_SHM_FD; tests/tracer/channel_sender.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/run_cli.hpp"
#include "tracer/stream_builder.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::test {
namespace {

namespace fs = std::filesystem;

class TraceCli : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("warpscope_trace_cli_" + std::to_string(::getpid()));
  fs::path stream = dir / "stream.bin";
  fs::path trace = dir / "out.wst";
  void SetUp() override {
    fs::create_directories(dir);
    StreamBuilder b;
    b.hello().device().module(0x10, "not a cubin").launch(0, 0x10, 0x1000, "_Z4copyPKfPf");
    std::vector<StreamBuilder::Rec> recs(6);
    for (std::uint32_t i = 0; i < recs.size(); ++i) {
      recs[i].pc = 0x1000 + 0x60;
      recs[i].cta = i;
      recs[i].base = 0x100000 + 128 * i;
    }
    b.records(recs).launch_end(0, 6, 6).bye(6);
    std::ofstream(stream, std::ios::binary) << b.bytes;
  }
  void TearDown() override { fs::remove_all(dir); }
  // A stand-in for the application: sends `bytes` of the stream, then runs `then`.
  std::string app(const std::string& send, const std::string& then = "") const {
    return "-- bash -c '" + send + " \"" + stream.string() + "\" >&\"$WARPSCOPE_TRACE_FD\"" + then + "'";
  }
  std::string base() const {
    // Any existing file stands in for the injection library: the stand-in ignores it.
    return "trace -o " + trace.string() + " --injection-library " + stream.string() + " ";
  }
};

TEST_F(TraceCli, WritesTheRecordsTheApplicationSends) {
  const auto r = run_cli(base() + app("cat"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("6 records of 1 traced kernel launch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("copy(float const*, float*)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bash exited with status 0"), std::string::npos) << r.err;
  auto src = open_trace(trace);
  WarpAccess rec;
  std::uint64_t n = 0;
  while (src->next(rec)) {
    EXPECT_EQ(rec.pc, 0x60u);
    EXPECT_EQ(rec.addr[1], 0x100000u + 128 * rec.cta + 4);
    ++n;
  }
  EXPECT_EQ(n, 6u);
  ASSERT_EQ(src->kernels().size(), 1u);
  EXPECT_EQ(src->kernels()[0].arch, "sm_90");
}

TEST_F(TraceCli, ACrashingApplicationLeavesAValidTraceAndItsStatus) {
  const auto size = fs::file_size(stream);
  // Everything but the last messages (LaunchEnd, Bye) and part of the records, then SIGSEGV.
  const auto r = run_cli(base() + "-- bash -c 'head -c " + std::to_string(size - 60) + " \"" + stream.string() +
                         "\" >&\"$WARPSCOPE_TRACE_FD\"; kill -SEGV $$'");
  EXPECT_EQ(r.exit_code, 128 + 11) << r.err;
  EXPECT_NE(r.err.find("killed by signal 11"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("INCOMPLETE"), std::string::npos) << r.err;
  auto src = open_trace(trace);  // closed and readable: no .partial left behind
  WarpAccess rec;
  while (src->next(rec)) {
  }
  EXPECT_FALSE(src->summary().recovered);
  EXPECT_FALSE(fs::exists(trace.string() + ".partial"));
}

TEST_F(TraceCli, RecordsMissingAgainstTheGpusCountAreAnError) {
  StreamBuilder b;  // the GPU counted 9 warp instructions, 6 records arrived
  b.hello().device().module(0x10, "x").launch(0, 0x10, 0x1000, "_Z4copyPKfPf");
  b.records(std::vector<StreamBuilder::Rec>(6)).launch_end(0, 9, 6).bye(6);
  std::ofstream(stream, std::ios::binary | std::ios::trunc) << b.bytes;
  auto r = run_cli(base() + app("cat"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("RECORDS LOST: the GPU executed 9 warp instructions, 6 records arrived"), std::string::npos)
      << r.err;
  // With --max-records the same numbers are a truncation, not a loss.
  r = run_cli(base() + "--max-records 6 " + app("cat"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("truncated by --max-records (6 of 9 written)"), std::string::npos) << r.err;
}

TEST_F(TraceCli, TheApplicationsExitStatusIsReported) {
  const auto r = run_cli(base() + app("cat", "; exit 3"));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("exited with status 3"), std::string::npos) << r.err;
}

TEST_F(TraceCli, AnApplicationThatNeverTalksGetsAWarning) {
  const auto r = run_cli(base() + "-- true");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("never reported"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(trace));  // an empty but valid trace
}

TEST_F(TraceCli, GarbageOnTheSocketIsOneErrorAndKeepsTheTrace) {
  std::ofstream(stream, std::ios::binary | std::ios::app) << std::string(16, '\x7f');
  const auto r = run_cli(base() + app("cat", "; sleep 5"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("unknown message type"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("error"), r.err.rfind("error")) << "one error line: " << r.err;
  EXPECT_TRUE(fs::exists(trace));
}

TEST_F(TraceCli, BadArgumentsAreOneErrorAndExit2) {
  auto r = run_cli("trace -o " + trace.string() + " --injection-library /nonexistent/lib.so -- true");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/lib.so: no such file"), std::string::npos) << r.err;
  r = run_cli(base() + "--kernel '(' -- true");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a valid regular expression"), std::string::npos) << r.err;
  r = run_cli(base() + "--ring-records 1000 -- true");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("power of two"), std::string::npos) << r.err;
  r = run_cli(base() + "--buffer-mb 3 -- true");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--buffer-mb 3: must be 0 or a power of two"), std::string::npos) << r.err;
  r = run_cli("trace -o " + trace.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(fs::exists(trace));
  r = run_cli("trace -o - -- true");  // the application's own output would mix into the trace
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o -: the traced application writes to standard output too"), std::string::npos) << r.err;
}

std::string channel_app(const fs::path& stream, const std::string& bytes_and_then = "") {
  return std::string("-- ") + WARPSCOPE_CHANNEL_SENDER + " " + stream.string() + " " + bytes_and_then;
}

std::uint64_t count_records(const fs::path& trace) {
  auto src = open_trace(trace);
  WarpAccess rec;
  std::uint64_t n = 0;
  while (src->next(rec)) {
    EXPECT_EQ(rec.addr[1], 0x100000u + 128 * rec.cta + 4);
    ++n;
  }
  return n;
}

TEST_F(TraceCli, TheSharedMemoryChannelCarriesTheStream) {
  // 1 MiB, the smallest channel: the sender waits for room and wraps around.
  StreamBuilder b;
  b.hello().device().module(0x10, "x").launch(0, 0x10, 0x1000, "_Z4copyPKfPf");
  std::vector<StreamBuilder::Rec> recs(30000);
  for (std::uint32_t i = 0; i < recs.size(); ++i) {
    recs[i].pc = 0x1060;
    recs[i].cta = i;
    recs[i].base = 0x100000 + 128 * i;
  }
  b.records(recs).launch_end(0, recs.size(), recs.size()).bye(recs.size());
  ASSERT_GT(b.bytes.size(), 1u << 20);
  std::ofstream(stream, std::ios::binary | std::ios::trunc) << b.bytes;
  const auto r = run_cli(base() + "--buffer-mb 1 " + channel_app(stream));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("30000 records of 1 traced kernel launch"), std::string::npos) << r.err;
  EXPECT_EQ(count_records(trace), 30000u);
}

TEST_F(TraceCli, WhatACrashingApplicationPutInTheChannelIsKept) {
  // The sender dies right after writing, in the middle of LaunchEnd: the
  // records it wrote before are read after its death.
  const auto size = fs::file_size(stream);
  const auto r = run_cli(base() + channel_app(stream, std::to_string(size - 40) + " segv"));
  EXPECT_EQ(r.exit_code, 128 + 11) << r.err;
  EXPECT_NE(r.err.find("INCOMPLETE"), std::string::npos) << r.err;
  EXPECT_EQ(count_records(trace), 6u);
  EXPECT_FALSE(fs::exists(trace.string() + ".partial"));
}

TEST_F(TraceCli, BytesOnBothTheChannelAndTheSocketAreOneError) {
  const auto r = run_cli(base() + channel_app(stream, "1000000 socket"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bytes arrived on both the shared-memory channel and the socket"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(trace));
}

TEST_F(TraceCli, WithoutAChannelTheStreamComesDownTheSocket) {
  const auto r = run_cli(base() + "--buffer-mb 0 " + channel_app(stream));
  EXPECT_EQ(r.exit_code, 4) << r.err;  // the stand-in finds no channel
  EXPECT_NE(r.err.find("never reported"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace warpscope::test
