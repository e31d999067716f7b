// The copy kernel of every CPU capability (copy_stub's DEFAULT, AVX2 and AVX512 slots, each run
// directly where the CPU has it): transposes in registers and in buffers for every element size,
// sizes that are not multiples of a tile, unaligned starts, streaming stores, parallel chunks
// that start mid-row, NCHW <-> NHWC, and which loop ran (Note [Which copy loop runs]). Bytes are
// compared with a naive element-by-element copy through the strides.

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "aten/ATen.h"
#include "aten/Parallel.h"
#include "aten/native/Copy.h"

namespace {

using at::native::CPUCapability;

std::vector<CPUCapability> supported_capabilities() {
  const int detected = static_cast<int>(at::native::detail::detect_cpu_capability());
  std::vector<CPUCapability> result;
  for (CPUCapability c : {CPUCapability::DEFAULT, CPUCapability::AVX2, CPUCapability::AVX512}) {
    if (static_cast<int>(c) <= detected) result.push_back(c);
  }
  return result;
}

// Every dtype of each element size: 1 (uint8, bool), 2 (int16, half), 4 (float, int32), 8
// (double, int64).
const at::ScalarType kDtypes[] = {at::kByte,  at::kBool, at::kShort,  at::kHalf,
                                  at::kFloat, at::kInt,  at::kDouble, at::kLong};

// A tensor whose elements all differ in their bytes (bool: 0/1 in a pattern).
at::Tensor patterned(at::IntArrayRef sizes, at::ScalarType dtype) {
  at::Tensor t = at::empty(sizes, dtype);
  auto* bytes = static_cast<unsigned char*>(t.data_ptr());
  const int64_t n = t.nbytes();
  for (int64_t k = 0; k < n; ++k) {
    bytes[k] = dtype == at::kBool ? static_cast<unsigned char>((k * 7 / 3) % 2)
                                  : static_cast<unsigned char>((k * 131 + k / 256 * 17 + 1) & 0xff);
  }
  return t;
}

// The kernel `c` copying src into dst, built as copy_ builds it.
void run_copy_kernel(CPUCapability c, at::Tensor& dst, const at::Tensor& src) {
  auto iter = at::TensorIteratorConfig()
                  .add_output(dst)
                  .add_input(src)
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .check_all_same_device(false)
                  .build();
  auto kernel = at::native::copy_stub.cpu_kernel_for(c);
  ASSERT_NE(kernel, nullptr) << cpu_capability_name(c);
  at::native::set_last_copy_loop("");
  kernel(iter, /*non_blocking=*/false);
}

// dst[idx] == src[idx] byte for byte, walking both through their strides.
void expect_copied(const at::Tensor& dst, const at::Tensor& src) {
  ASSERT_EQ(dst.sizes(), src.sizes());
  const int64_t e = dst.element_size();
  const int64_t n = dst.numel();
  std::vector<int64_t> idx(dst.dim(), 0);
  const char* s = static_cast<const char*>(src.data_ptr());
  const char* d = static_cast<const char*>(dst.data_ptr());
  for (int64_t k = 0; k < n; ++k) {
    int64_t so = 0, dof = 0;
    for (int64_t dim = 0; dim < dst.dim(); ++dim) {
      so += idx[dim] * src.stride(dim);
      dof += idx[dim] * dst.stride(dim);
    }
    ASSERT_EQ(std::memcmp(s + so * e, d + dof * e, e), 0) << "element " << k << " of " << n;
    for (int64_t dim = dst.dim() - 1; dim >= 0; --dim) {
      if (++idx[dim] < dst.size(dim)) break;
      idx[dim] = 0;
    }
  }
}

struct TransposeCase {
  int64_t rows, cols;  // of the output; the source is a transposed view
  const char* loop;
};

std::string describe(CPUCapability c, at::ScalarType dtype, const TransposeCase& t) {
  return std::string(cpu_capability_name(c)) + " " + c10::toString(dtype) + " " +
         std::to_string(t.rows) + "x" + std::to_string(t.cols);
}

// The shortest side a block needs for the transpose (min_transpose_side in CopyTranspose.h):
// one register tile where the kernel has them, 16 in the DEFAULT kernel.
int64_t min_transpose_side(CPUCapability c, at::ScalarType dtype) {
  if (c == CPUCapability::DEFAULT) return 16;
  const int64_t e = c10::elementSize(dtype);
  return e == 8 ? 4 : e == 1 ? 16 : 8;
}

// "blocked transpose" where both sides reach min_transpose_side, else "basic".
const char* transpose_loop(CPUCapability c, at::ScalarType dtype, int64_t rows, int64_t cols) {
  const int64_t side = min_transpose_side(c, dtype);
  return rows >= side && cols >= side ? "blocked transpose" : "basic";
}

// Tiles are 8 x 8 (4 x 4 for 8-byte elements, 16 x 16 for bytes) and panels 64 bytes tall: these
// sizes leave every kind of remainder, and take each element size to either side of its
// threshold (one tile, then 16 in the DEFAULT kernel). A loop of nullptr is transpose_loop's.
const TransposeCase kTransposeCases[] = {{37, 53, "blocked transpose"},
                                         {53, 37, "blocked transpose"},
                                         {16, 16, "blocked transpose"},
                                         {17, 31, "blocked transpose"},
                                         {64, 64, "blocked transpose"},
                                         {130, 70, "blocked transpose"},
                                         {33, 129, "blocked transpose"},
                                         {600, 20, "blocked transpose"},
                                         {3, 3, "basic"},
                                         {3, 40, "basic"},
                                         {4, 4, nullptr},
                                         {5, 7, nullptr},
                                         {7, 7, nullptr},
                                         {8, 8, nullptr},
                                         {8, 13, nullptr},
                                         {9, 9, nullptr},
                                         {15, 40, nullptr},
                                         {40, 15, nullptr},
                                         {1, 1000, "memcpy"},
                                         {1000, 1, "memcpy"}};

TEST(CopyKernel, TransposesEveryElementSizeOnEveryCapability) {
  for (CPUCapability c : supported_capabilities()) {
    for (at::ScalarType dtype : kDtypes) {
      for (const TransposeCase& t : kTransposeCases) {
        SCOPED_TRACE(describe(c, dtype, t));
        const at::Tensor src = patterned({t.cols, t.rows}, dtype).t();
        at::Tensor dst = at::empty({t.rows, t.cols}, dtype);
        run_copy_kernel(c, dst, src);
        EXPECT_STREQ(at::native::last_copy_loop(),
                     t.loop ? t.loop : transpose_loop(c, dtype, t.rows, t.cols));
        expect_copied(dst, src);
      }
    }
  }
}

TEST(CopyKernel, TransposesFromAndIntoUnalignedSlices) {
  for (CPUCapability c : supported_capabilities()) {
    for (at::ScalarType dtype : kDtypes) {
      SCOPED_TRACE(describe(c, dtype, {37, 53, ""}));
      // The source starts 3 elements into a row, 1 row down; the output 1 element into a padded
      // row, so neither side is vector- or line-aligned.
      const at::Tensor src = patterned({60, 45}, dtype).slice(0, 3, 56).slice(1, 1, 38).t();
      at::Tensor out_base = patterned({40, 61}, dtype);
      at::Tensor dst = out_base.slice(0, 2, 39).slice(1, 1, 54);
      const at::Tensor before = out_base.clone();
      run_copy_kernel(c, dst, src);
      EXPECT_STREQ(at::native::last_copy_loop(), "blocked transpose");
      expect_copied(dst, src);
      // Nothing outside the slice was written.
      at::Tensor mask = at::ones({40, 61}, at::kBool);
      mask.slice(0, 2, 39).slice(1, 1, 54).fill_(false);
      const int64_t e = out_base.element_size();
      for (int64_t k = 0; k < out_base.numel(); ++k) {
        if (!mask.data_ptr<bool>()[k]) continue;
        ASSERT_EQ(std::memcmp(static_cast<char*>(out_base.data_ptr()) + k * e,
                              static_cast<char*>(before.data_ptr()) + k * e, e),
                  0)
            << "element " << k << " outside the slice";
      }
    }
  }
}

TEST(CopyKernel, ZeroSizedCopiesDoNothing) {
  for (at::ScalarType dtype : kDtypes) {
    const at::Tensor src = patterned({0, 20}, dtype).t();
    at::Tensor dst = at::empty({20, 0}, dtype);
    EXPECT_NO_THROW(dst.copy_(src));
    EXPECT_EQ(dst.numel(), 0);
  }
}

// Copies of at least 8 MiB stream in the AVX2 and AVX512 copies (kStreamingBytes). The output is
// a slice of 4 KiB rows, so the transpose streams; its rows end in a partial panel (one tile
// short of a whole one) and leftover columns. One thread: two would split the copy mid-row,
// and the half rows at the split take the plain loop.
TEST(CopyKernel, LargeCopiesStreamAndStayExact) {
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  for (CPUCapability c : supported_capabilities()) {
    const bool streams = c != CPUCapability::DEFAULT;
    for (at::ScalarType dtype : {at::kByte, at::kHalf, at::kFloat, at::kDouble}) {
      const int64_t e = c10::elementSize(dtype);
      const int64_t row = 4096 / e;
      const int64_t tile = e == 8 ? 4 : e == 1 ? 16 : 8;
      const int64_t size0 = row - 64 / e - tile;
      const int64_t size1 = (int64_t{8} << 20) / (size0 * e) + 5;
      SCOPED_TRACE(describe(c, dtype, {size1, size0, ""}));
      const at::Tensor src = patterned({size0, size1}, dtype).t();
      at::Tensor dst = at::empty({size1, row}, dtype).slice(1, 0, size0);
      run_copy_kernel(c, dst, src);
      EXPECT_STREQ(at::native::last_copy_loop(), "blocked transpose");
      expect_copied(dst, src);

      const at::Tensor flat = patterned({(int64_t{8} << 20) / e + 77}, dtype);
      for (int64_t offset : {0, 1, 5}) {
        const at::Tensor from = flat.slice(0, offset);
        const int64_t start = 3 - offset % 3;  // misaligned differently from the source
        at::Tensor into =
            at::empty({from.numel() + 3}, dtype).slice(0, start, start + from.numel());
        run_copy_kernel(c, into, from);
        EXPECT_STREQ(at::native::last_copy_loop(), streams ? "streaming" : "memcpy");
        ASSERT_EQ(std::memcmp(into.data_ptr(), from.data_ptr(), from.nbytes()), 0);
      }
    }
  }
  at::set_num_threads(threads);
}

// Parallel chunks split the range at numel / 2, mid-row for these sizes: the blocks either side
// of the split are partial rows, the rest whole 2-D blocks.
TEST(CopyKernel, ParallelChunksMatchTheSerialCopy) {
  const int threads = at::get_num_threads();
  for (CPUCapability c : supported_capabilities()) {
    for (at::ScalarType dtype : {at::kBool, at::kHalf, at::kFloat, at::kLong}) {
      SCOPED_TRACE(describe(c, dtype, {401, 301, ""}));
      const at::Tensor src = patterned({301, 401}, dtype).t();
      at::Tensor serial = at::empty({401, 301}, dtype);
      at::Tensor parallel = at::empty({401, 301}, dtype);
      at::set_num_threads(1);
      run_copy_kernel(c, serial, src);
      at::set_num_threads(2);
      run_copy_kernel(c, parallel, src);
      EXPECT_EQ(std::memcmp(serial.data_ptr(), parallel.data_ptr(), serial.nbytes()), 0);
      expect_copied(parallel, src);
    }
  }
  at::set_num_threads(threads);
}

// contiguous(ChannelsLast) and back: per batch a C x HW transpose one way, HW x C the other.
TEST(CopyKernel, NchwToNhwcAndBack) {
  for (CPUCapability c : supported_capabilities()) {
    for (at::ScalarType dtype : kDtypes) {
      for (std::vector<int64_t> sizes :
           {std::vector<int64_t>{3, 64, 9, 11}, std::vector<int64_t>{2, 20, 6, 7},
            std::vector<int64_t>{2, 3, 20, 18}, std::vector<int64_t>{2, 5, 6, 7}}) {
        SCOPED_TRACE(describe(c, dtype, {sizes[1], sizes[2] * sizes[3], ""}));
        const char* loop = transpose_loop(c, dtype, sizes[1], sizes[2] * sizes[3]);
        const at::Tensor nchw = patterned(sizes, dtype);
        at::Tensor nhwc = at::empty(sizes, dtype, at::MemoryFormat::ChannelsLast);
        run_copy_kernel(c, nhwc, nchw);
        EXPECT_STREQ(at::native::last_copy_loop(), loop);
        expect_copied(nhwc, nchw);
        at::Tensor back = at::empty(sizes, dtype);
        run_copy_kernel(c, back, nhwc);
        EXPECT_STREQ(at::native::last_copy_loop(), loop);
        EXPECT_EQ(std::memcmp(back.data_ptr(), nchw.data_ptr(), nchw.nbytes()), 0);
      }
    }
  }
}

}  // namespace
