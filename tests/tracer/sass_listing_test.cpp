// Cache operators and operations recovered from SASS listings. The listings in
// tests/tracer/data are nvdisasm 13.0 output (`nvdisasm -c -gi`) of cacheops.cu
// compiled for sm_75, sm_90 and sm_120 (the cubins are committed beside them).
// cacheops.cu loads in[i + 32k] with a different intrinsic for each k, so the
// byte offset in an instruction's address operand says which intrinsic it is:
// +0x80 __ldg, +0x100 __ldcg, +0x180 __ldcs, +0x200 __ldlu, +0x280 __ldcv,
// +0x300 __ldca; and out[i + 32k] stores: +0x80 __stcs, +0x100 __stcg, +0x180 __stwt.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "trace/trace_test_util.hpp"
#include "tracer/sass_listing.hpp"
#include "warpscope/error.hpp"

namespace warpscope::tracer {
namespace {

std::string read_data(const std::string& name) {
  return test::read_bytes(std::string(WARPSCOPE_SOURCE_DIR "/tests/tracer/data/") + name);
}

constexpr const char* kKernel = "_Z8cacheopsPKfPfPK6float4PdPi";

// The offset (/*XXXX*/) of the first line holding both `opcode_prefix` and `operand`.
std::uint64_t offset_of(const std::string& listing, const std::string& opcode_prefix, const std::string& operand) {
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(operand) == std::string::npos) continue;
    const auto op = line.find(opcode_prefix);
    const auto start = line.find("/*");
    if (op == std::string::npos || start == std::string::npos) continue;
    return std::stoull(line.substr(start + 2, 4), nullptr, 16);
  }
  ADD_FAILURE() << "no " << opcode_prefix << " with " << operand;
  return ~0ull;
}

struct Expect {
  const char* opcode_prefix;
  const char* operand;
  Op op;
  CacheOp cache;
};

class CacheOpsListing : public ::testing::TestWithParam<const char*> {};

TEST_P(CacheOpsListing, IntrinsicsMapToTheirPtxCacheOperators) {
  const std::string text = read_data(std::string("cacheops_") + GetParam() + ".sass");
  const SassListing listing = parse_sass_listing(text);
  EXPECT_EQ(listing.arch, GetParam());
  const SassFunction* f = listing.function(kKernel);
  ASSERT_NE(f, nullptr);
  const Expect expectations[] = {
      {"LDG", "+0x80]", Op::Load, CacheOp::Nc},  {"LDG", "+0x100]", Op::Load, CacheOp::Cg},
      {"LDG", "+0x180]", Op::Load, CacheOp::Cs}, {"LDG", "+0x200]", Op::Load, CacheOp::Lu},
      {"LDG", "+0x280]", Op::Load, CacheOp::Cv}, {"LDG", "+0x300]", Op::Load, CacheOp::Ca},
      {"STG", "+0x80]", Op::Store, CacheOp::Cs}, {"STG", "+0x100]", Op::Store, CacheOp::Cg},
      {"STG", "+0x180]", Op::Store, CacheOp::Wt},
  };
  for (const auto& e : expectations) {
    const auto offset = offset_of(text, e.opcode_prefix, e.operand);
    const SassInstruction* ins = f->at(offset);
    ASSERT_NE(ins, nullptr) << e.opcode_prefix << " " << e.operand;
    EXPECT_EQ(ins->op, e.op) << ins->opcode;
    EXPECT_EQ(ins->cache, e.cache) << ins->opcode << " at " << e.operand;
    EXPECT_EQ(ins->space, Space::Global);
  }
}

INSTANTIATE_TEST_SUITE_P(Generations, CacheOpsListing, ::testing::Values("sm_75", "sm_90", "sm_120"));

TEST(SassListing, PlainLoadsAndStoresKeepTheDefaultOperator) {
  const SassListing listing = parse_sass_listing(read_data("cacheops_sm_90.sass"));
  const SassFunction* plain = listing.function("_Z5plainPKfPf");
  ASSERT_NE(plain, nullptr);
  ASSERT_EQ(plain->memory.size(), 2u);  // out[i] = in[i] * 2: one LDG, one STG
  const auto& [ld_off, ld] = *plain->memory.begin();
  const auto& [st_off, st] = *plain->memory.rbegin();
  EXPECT_EQ(ld_off, 0x60u);
  EXPECT_EQ(ld.opcode, "LDG.E");
  EXPECT_EQ(ld.cache, CacheOp::Default);
  EXPECT_EQ(st_off, 0x90u);
  EXPECT_EQ(st.op, Op::Store);
  EXPECT_EQ(st.cache, CacheOp::Default);
  ASSERT_TRUE(ld.line.has_value());  // built with -lineinfo
  EXPECT_EQ(ld.line->file, "tests/tracer/data/cacheops.cu");
  EXPECT_EQ(ld.line->line, 29u);  // the line of plain() in cacheops.cu
}

// A kernel defined in a header included as "../kernels.cuh" carries that spelling in its line
// table (the H100 suite's cache_kernels.cu); analyze's source column shows one normal path.
TEST(SassListing, SourcePathsAreMadeNormal) {
  const std::string text =
      ".text._Z1fPf:\n"
      "\t//## File \"/src/suite/../kernels.cuh\", line 30\n"
      "        /*0000*/                   LDG.E R0, desc[UR4][R2.64] ;\n"
      "\t//## File \"./a/./b.cuh\", line 4 inlined at \"x/../user.cu\", line 7\n"
      "        /*0010*/                   STG.E desc[UR4][R2.64], R0 ;\n";
  const SassListing listing = parse_sass_listing(text);
  const SassFunction* f = listing.function("_Z1fPf");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->memory.size(), 2u);
  ASSERT_TRUE(f->memory.at(0).line.has_value());
  EXPECT_EQ(f->memory.at(0).line->file, "/src/kernels.cuh");
  EXPECT_EQ(f->memory.at(0).line->line, 30u);
  ASSERT_TRUE(f->memory.at(0x10).line.has_value());
  EXPECT_EQ(f->memory.at(0x10).line->file, "user.cu");  // the outermost call site
  EXPECT_EQ(f->memory.at(0x10).line->line, 7u);
}

TEST(SassListing, SharedAtomicsReductionsAndPredicates) {
  const SassListing listing = parse_sass_listing(read_data("cacheops_sm_90.sass"));
  const SassFunction* f = listing.function(kKernel);
  ASSERT_NE(f, nullptr);
  int shared_loads = 0, shared_stores = 0, shared_atomics = 0, reductions = 0;
  for (const auto& [offset, ins] : f->memory) {
    if (ins.space == Space::Shared && ins.op == Op::Load) ++shared_loads;
    if (ins.space == Space::Shared && ins.op == Op::Store) ++shared_stores;
    if (ins.space == Space::Shared && ins.op == Op::Atomic) ++shared_atomics;
    if (ins.op == Op::Reduction) {
      ++reductions;
      EXPECT_TRUE(ins.predicated) << ins.opcode;  // atomicAdd(cnt, 1) is one lane's REDG (@P0)
      EXPECT_EQ(ins.cache, CacheOp::Default) << "STRONG.GPU on an atomic is its scope";
    }
  }
  EXPECT_EQ(shared_stores, 1);   // sh[threadIdx.x] = a
  EXPECT_EQ(shared_loads, 17);   // 16 loc[] loads + the atomic's first read
  EXPECT_EQ(shared_atomics, 1);  // atomicAdd(&sh[0], 1.0f): a CAS loop (ATOMS.CAST.SPIN)
  EXPECT_EQ(reductions, 1);
}

TEST(SassListing, NonMemoryOpcodesAreNotRecorded) {
  EXPECT_FALSE(classify_memory_opcode("LDC.64"));
  EXPECT_FALSE(classify_memory_opcode("ULDC"));
  EXPECT_FALSE(classify_memory_opcode("LDSM.16.M88.4"));
  // cp.async: the memcpy-async callback reports it (its global side here); .BYPASS is .cg
  const auto cp = classify_memory_opcode("LDGSTS.E.BYPASS.128");
  ASSERT_TRUE(cp);
  EXPECT_EQ(cp->op, Op::AsyncCopy);
  EXPECT_EQ(cp->cache, CacheOp::Cg);
  EXPECT_EQ(classify_memory_opcode("LDGSTS.E.LTC128B.128")->cache, CacheOp::Ca);
  EXPECT_FALSE(classify_memory_opcode("LDGDEPBAR"));
  EXPECT_FALSE(classify_memory_opcode("FADD"));
  auto local = classify_memory_opcode("STL.64");
  ASSERT_TRUE(local);
  EXPECT_EQ(local->space, Space::Local);
  EXPECT_EQ(local->op, Op::Store);
  auto generic = classify_memory_opcode("LD.E.64");
  ASSERT_TRUE(generic);
  EXPECT_TRUE(generic->generic);
  EXPECT_EQ(classify_memory_opcode("ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU")->op, Op::Atomic);
  EXPECT_EQ(classify_memory_opcode("RED.E.ADD.STRONG.GPU")->op, Op::Reduction);
}

TEST(SassListing, OlderSassSpellsCacheOperatorsOut) {
  // Maxwell/Pascal SASS names the PTX operator itself (LDG.E.CG, LDG.E.CI for ld.global.nc).
  EXPECT_EQ(cache_op_from_modifiers("LDG.E.CI.32", Op::Load), CacheOp::Nc);
  EXPECT_EQ(cache_op_from_modifiers("LDG.E.CG.64", Op::Load), CacheOp::Cg);
  EXPECT_EQ(cache_op_from_modifiers("LDG.E.CS", Op::Load), CacheOp::Cs);
  EXPECT_EQ(cache_op_from_modifiers("LDG.E.CV", Op::Load), CacheOp::Cv);
  EXPECT_EQ(cache_op_from_modifiers("STG.E.WT", Op::Store), CacheOp::Wt);
  EXPECT_EQ(cache_op_from_modifiers("LDG.E.128.SYS", Op::Load), CacheOp::Default);  // scope only
}

// The operation of an atomic, from its opcode's modifiers (the spellings of nvdisasm 13.0 on
// sm_75-sm_120 and of the H100 listings in validation/h100).
TEST(SassListing, AtomicOperations) {
  EXPECT_EQ(atomic_op_from_modifiers("ATOMG.E.CAS.STRONG.GPU"), AtomicOp::Cas);
  EXPECT_EQ(atomic_op_from_modifiers("ATOMS.CAST.SPIN"), AtomicOp::Cas);  // the shared CAS loop
  EXPECT_EQ(atomic_op_from_modifiers("ATOMS.POPC.INC.32"), AtomicOp::PopcInc);
  EXPECT_EQ(atomic_op_from_modifiers("ATOMS.ADD"), AtomicOp::Add);
  EXPECT_EQ(atomic_op_from_modifiers("REDG.E.ADD.F32.FTZ.RN.STRONG.GPU"), AtomicOp::Add);
  EXPECT_EQ(atomic_op_from_modifiers("ATOMG.E.MAX.S32.STRONG.GPU"), AtomicOp::Max);
  EXPECT_EQ(atomic_op_from_modifiers("ATOM.E.EXCH.STRONG.GPU"), AtomicOp::Exch);
  EXPECT_EQ(atomic_op_from_modifiers("ATOMG.E.INC.STRONG.GPU"), AtomicOp::Inc);
  EXPECT_EQ(atomic_op_from_modifiers("RED.E.XOR.STRONG.GPU"), AtomicOp::Xor);
  EXPECT_EQ(atomic_op_from_modifiers("ATOMG.E.STRONG.GPU"), AtomicOp::Other);
  for (const char* arch : {"sm_75", "sm_90", "sm_120"}) {
    const SassListing listing = parse_sass_listing(read_data(std::string("cacheops_") + arch + ".sass"));
    const SassFunction* f = listing.function(kKernel);
    ASSERT_NE(f, nullptr);
    std::map<Op, AtomicOp> seen;
    for (const auto& [offset, ins] : f->memory) {
      if (ins.op == Op::Load || ins.op == Op::Store) EXPECT_EQ(ins.atomic_op, AtomicOp::Unknown) << ins.opcode;
      else seen[ins.op] = ins.atomic_op;
    }
    // atomicAdd(cnt, 1) is a REDG.E.ADD; atomicAdd(&sh[0], 1.0f) a CAS loop.
    EXPECT_EQ(seen, (std::map<Op, AtomicOp>{{Op::Atomic, AtomicOp::Cas}, {Op::Reduction, AtomicOp::Add}})) << arch;
  }
}

// cuobjdump -sass names each function on a "Function : NAME" line (validation/<gpu>/*.sass).
TEST(SassListing, CuobjdumpListingsToo) {
  const std::string text =
      "\tcode for sm_90\n\t.target\tsm_90\n\n"
      "\t\tFunction : _Z4cas4PiS_\n"
      "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;                      /* 0x00000a00ff017b82 */\n"
      "                                                                              /* 0x000fe20000000800 */\n"
      "        /*0090*/                   ATOMG.E.CAS.STRONG.GPU PT, R3, [R2], R6, R7 ; /* 0x00000006020373a9 */\n"
      "\t\tFunction : _Z4histPi\n"
      "        /*0230*/                   ATOMS.POPC.INC.32 RZ, [R7+UR4] ;            /* 0x0000000007ff7f8c */\n";
  const SassListing listing = parse_sass_listing(text);
  EXPECT_EQ(listing.arch, "sm_90");
  ASSERT_EQ(listing.functions.size(), 2u);
  const SassInstruction* cas = listing.function("_Z4cas4PiS_")->at(0x90);
  ASSERT_NE(cas, nullptr);
  EXPECT_EQ(cas->atomic_op, AtomicOp::Cas);
  EXPECT_EQ(listing.function("_Z4cas4PiS_")->memory.size(), 1u);
  const SassInstruction* inc = listing.function("_Z4histPi")->at(0x230);
  ASSERT_NE(inc, nullptr);
  EXPECT_EQ(inc->space, Space::Shared);
  EXPECT_EQ(inc->atomic_op, AtomicOp::PopcInc);
}

TEST(SassListing, BadInstructionLineNamesTheLine) {
  const std::string text = ".text._Z1fv:\n        /*0000*/  @P0 \n";
  try {
    parse_sass_listing(text);
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(ResourceUsage, ReadsRegistersAndSharedPerFunction) {
  const auto usage = parse_resource_usage(read_data("cacheops_sm_90.res-usage.txt"));
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_EQ(usage.at("_Z5plainPKfPf").registers, 10u);
  EXPECT_EQ(usage.at(kKernel).registers, 40u);
  EXPECT_EQ(usage.at(kKernel).shared, 2048u);  // __shared__ float sh[256]
  EXPECT_EQ(usage.at(kKernel).local, 0u);
}

}  // namespace
}  // namespace warpscope::tracer
