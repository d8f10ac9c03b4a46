// Tensor-copy rows in traces (types.hpp kTensorRowMask; docs/TRACE_FORMAT.md "Tensor copies"): a tma_ld / tma_st
// record with mask f whose lanes are the row's global address, shared address, byte count (any, up to 1 MiB) and
// flags (1: a row after the copy's first, 2: a load's row out of bounds above dimension 0, 4: promoted). Both formats give back
// every field; both writers refuse a row that cannot be one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "trace/trace_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

WarpAccess tensor_row(Op op, std::uint64_t pc, std::uint64_t global, std::uint64_t shared, std::uint64_t bytes,
                      std::uint64_t flags) {
  WarpAccess r = record(0, pc, kTensorRowMask, [](int) { return 0u; });
  r.op = op;
  r.size = 16;
  r.addr[0] = global;
  r.addr[1] = shared;
  r.addr[2] = bytes;
  r.addr[3] = flags;
  return r;
}

std::vector<WarpAccess> rows_and_neighbours() {
  constexpr std::uint64_t kG = 0x7f0000000000ull;
  std::vector<WarpAccess> out;
  // A load of four rows: flags 0, 1, then 1 | 2 twice (rows below the tensor); CTA, warp and SM of their own.
  for (std::uint64_t r = 0; r < 4; ++r) {
    WarpAccess x = tensor_row(Op::BulkLoad, 0x100, kG + 16 + 256 * r, 0x400 + 64 * r, 64, r == 0 ? 0 : r == 1 ? 1 : 3);
    x.cta = 7;
    x.warp = 3;
    x.sm = 131;
    out.push_back(x);
  }
  // A load whose first row is above the tensor (flag 2 alone), its global address below the tensor's start.
  out.push_back(tensor_row(Op::BulkLoad, 0x110, kG - 528, 0x800, 64, 2));
  out.push_back(tensor_row(Op::BulkLoad, 0x110, kG - 272, 0x840, 64, 3));
  // Rows of a map with L2 promotion (flag 4), the second also out of bounds (4 | 2 | 1).
  out.push_back(tensor_row(Op::BulkLoad, 0x118, kG + 0x2000, 0x900, 128, 4));
  out.push_back(tensor_row(Op::BulkLoad, 0x118, kG + 0x3000, 0x980, 128, 7));
  out.push_back(tensor_row(Op::BulkLoad, 0x11c, kG + 0x4000, 0xa00, 128, 15));  // a 256-byte promotion (8 | 4)
  // A store clipped to 14 floats (56 bytes) and to one float (4 bytes): counts that are no multiple of 16.
  out.push_back(tensor_row(Op::BulkStore, 0x120, kG + 0x3c0, 0x1000, 56, 0));
  out.push_back(tensor_row(Op::BulkStore, 0x120, kG + 0x4c0, 0x1040, 4, 1));
  // A store wholly out of bounds: one row of 0 bytes.
  out.push_back(tensor_row(Op::BulkStore, 0x130, kG, 0x1000, 0, 0));
  // The largest row; a row whose lanes 0x30, 0x20, 0x10, 0 fall by 16 (a stride to the native writer); one whose
  // lanes are all 0 (a broadcast); one at the top of the address space with a count of 1.
  out.push_back(tensor_row(Op::BulkLoad, 0x140, kG + 0x100000, 0, kMaxBulkBytes, 0));
  out.push_back(tensor_row(Op::BulkLoad, 0x150, 0x30, 0x20, 16, 0));
  out.push_back(tensor_row(Op::BulkStore, 0x160, 0, 0, 0, 0));
  out.push_back(tensor_row(Op::BulkLoad, 0x170, 0xfffffffffffffff0ull, 0xfff0, 1, 3));
  // A cp.async.bulk (mask 7) and a plain load after the rows keep what they are.
  WarpAccess bulk = record(0, 0x180, kBulkMask, [](int) { return 0u; });
  bulk.op = Op::BulkLoad;
  bulk.size = 16;
  bulk.addr[0] = kG + 0x100;
  bulk.addr[1] = 0x200;
  bulk.addr[2] = 256;
  out.push_back(bulk);
  out.push_back(record(0, 0x190, 0xffffffffu, [](int l) { return 0x10000u + 4u * static_cast<unsigned>(l); }));
  return out;
}

class TensorRowTrace : public ::testing::TestWithParam<TraceFormat> {
 protected:
  std::filesystem::path path(const char* stem) const {
    return scratch_dir() / (std::string(stem) + (GetParam() == TraceFormat::Text ? ".txt" : ".wst"));
  }
};

TEST_P(TensorRowTrace, RowsComeBackWithEveryFlagAndCount) {
  const auto p = path("tensor_rows");
  const auto records = rows_and_neighbours();
  const std::vector<KernelInfo> kernels(1);
  write_all(p, GetParam(), kernels, records);
  const TraceContent got = read_all(p);
  expect_same_records(got.records, records);
  EXPECT_EQ(got.summary.records, records.size());
  // What the rows say once read: rows 0, 4, 6, 8, 9 and 11-14 are executions, rows 2-5, 7 and 15 outside, rows 6-8
  // promoted (8 to pairs of lines).
  EXPECT_TRUE(counts_execution(got.records[0]));
  EXPECT_FALSE(counts_execution(got.records[1]));
  EXPECT_FALSE(tensor_row_outside(got.records[1]));
  EXPECT_TRUE(tensor_row_outside(got.records[2]));
  EXPECT_TRUE(counts_execution(got.records[4]));
  EXPECT_TRUE(tensor_row_outside(got.records[4]));
  EXPECT_TRUE(tensor_row_promoted(got.records[6]));
  EXPECT_FALSE(tensor_row_outside(got.records[6]));
  EXPECT_TRUE(tensor_row_promoted(got.records[7]));
  EXPECT_TRUE(tensor_row_outside(got.records[7]));
  EXPECT_FALSE(counts_execution(got.records[7]));
  EXPECT_FALSE(tensor_row_promoted(got.records[0]));
  EXPECT_TRUE(tensor_row_promoted_pair(got.records[8]));
  EXPECT_FALSE(tensor_row_promoted_pair(got.records[7]));
  EXPECT_EQ(bulk_bytes(got.records[9]), 56u);
  EXPECT_EQ(bulk_bytes(got.records[10]), 4u);
  EXPECT_TRUE(is_tensor_row(got.records[11]));
  EXPECT_FALSE(is_tensor_row(got.records[16]));  // the mask-7 copy
  for (std::size_t i = 0; i < 16; ++i) EXPECT_TRUE(bulk_record_ok(got.records[i])) << i;
}

// Neither writer takes a row that cannot be one: flags above 31, 8 without 4 or 16 without 1, addresses that are no multiple of 16, a count over
// 1 MiB, a record that is not 16 bytes global, five lanes. The message names the record and the rule.
TEST_P(TensorRowTrace, WritersRefuseRowsThatCannotBeOne) {
  const auto p = path("bad_tensor_row");
  const std::vector<KernelInfo> kernels(1);
  const WarpAccess good = tensor_row(Op::BulkLoad, 0x100, 0x7f0000000010ull, 0x400, 56, 1);
  write_all(p, GetParam(), kernels, {good});  // the row itself is fine
  std::vector<WarpAccess> bad;
  for (std::uint64_t flags : {8u, 9u, 16u, 18u, 32u, 33u}) {
    WarpAccess r = good;
    r.addr[3] = flags;
    bad.push_back(r);
  }
  WarpAccess r = good;
  r.addr[0] = 0x7f0000000018ull;
  bad.push_back(r);
  r = good;
  r.addr[1] = 0x408;
  bad.push_back(r);
  r = good;
  r.addr[2] = kMaxBulkBytes + 1;
  bad.push_back(r);
  r = good;
  r.size = 8;
  bad.push_back(r);
  r = good;
  r.space = Space::Shared;
  bad.push_back(r);
  r = good;
  r.active = LaneMask(0x1fu);
  r.addr[4] = 0x40;
  bad.push_back(r);
  for (std::size_t i = 0; i < bad.size(); ++i) {
    try {
      write_all(p, GetParam(), kernels, {bad[i]});
      ADD_FAILURE() << "case " << i << ": no error";
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("cannot write a trace record of kernel 0 at PC 0x100"), std::string::npos) << i << ": " << m;
      EXPECT_NE(m.find(kBulkRecordRule), std::string::npos) << i << ": " << m;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, TensorRowTrace, ::testing::Values(TraceFormat::Native, TraceFormat::Text),
                         [](const auto& p) { return std::string(to_string(p.param)); });

}  // namespace
}  // namespace warpscope::test
