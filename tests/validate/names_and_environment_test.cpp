// Kernel names as ncu and traces print them; environment.txt.
#include <gtest/gtest.h>

#include "validate/environment.hpp"
#include "validate/input_error.hpp"
#include "validate/kernel_name.hpp"
#include "warpscope/error.hpp"

namespace warpscope::validate {
namespace {

TEST(KernelName, NcuAndTraceNamesReduceToTheSameFunction) {
  EXPECT_EQ(kernel_base_name("stencil2d(const float *, float *, int)"), "stencil2d");
  EXPECT_EQ(kernel_base_name("stencil2d"), "stencil2d");
  EXPECT_EQ(kernel_base_name("_Z9stencil2dPKfPfi"), "stencil2d");
  EXPECT_EQ(kernel_base_name("void ns::scale<float, 4>(float *, int)"), "ns::scale<float,4>");
  EXPECT_EQ(kernel_identifier("void ns::scale<float, 4>(float *, int)"), "ns::scale");
  EXPECT_EQ(kernel_base_name("void (anonymous namespace)::k(int)"), "(anonymousnamespace)::k");
  EXPECT_TRUE(same_kernel("void ns::scale<float, 4>(float *, int)", "_ZN2ns5scaleIfLi4EEEvPfi"));
  EXPECT_TRUE(same_kernel("void ns::scale<(int)4>(float *)", "void ns::scale<4>(float*)"));
  EXPECT_FALSE(same_kernel("gather(const float *, const int *, float *, int)", "gather_cg"));
}

TEST(Environment, KeyValueLines) {
  const Environment e = parse_environment("# c\ngpu: NVIDIA H100 80GB HBM3\n\ngpu_model:  h100-sxm \ndate: 2026-11-22T05:12:20Z\n", "env");
  EXPECT_EQ(e.get("gpu"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(e.get("gpu_model"), "h100-sxm");
  EXPECT_EQ(e.get("date"), "2026-11-22T05:12:20Z");
  EXPECT_EQ(e.line_of("gpu_model"), 4);
  EXPECT_EQ(e.get("driver"), "");
  EXPECT_THROW(e.require("driver"), InputError);
}

TEST(Environment, ErrorsNameTheLine) {
  EXPECT_EQ(test::input_error_of([] { parse_environment("gpu: a\nno colon here\n", "env.txt"); }),
            "env.txt:2: expected \"key: value\"");
  EXPECT_EQ(test::input_error_of([] { parse_environment("gpu: a\ngpu: b\n", "env.txt"); }),
            "env.txt:2: \"gpu\" given twice (first on line 1)");
}

}  // namespace
}  // namespace warpscope::validate
