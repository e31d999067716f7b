#include "aten/core/Formatting.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>

#include "aten/generated/Operators.h"
#include "c10/core/ScalarType.h"
#include "c10/util/Exception.h"
#include "c10/util/TypeCast.h"

namespace at {
namespace {

// Restores the stream's flags, precision, width and fill when printing ends.
class FormatGuard {
 public:
  explicit FormatGuard(std::ostream& out) : out_(out), saved_(nullptr) { saved_.copyfmt(out); }
  ~FormatGuard() { out_.copyfmt(saved_); }
  FormatGuard(const FormatGuard&) = delete;
  FormatGuard& operator=(const FormatGuard&) = delete;

 private:
  std::ostream& out_;
  std::ios saved_;
};

void set_defaultfloat(std::ostream& stream) {
  stream.unsetf(std::ios_base::floatfield);
}

// Appends the elements of t in row-major order, walking its strides from its storage offset.
template <typename T>
void append_as_double(const Tensor& t, std::vector<double>& out) {
  const T* base = t.data_ptr<T>();
  const c10::IntArrayRef sizes = t.sizes();
  const c10::IntArrayRef strides = t.strides();
  const int64_t ndim = t.dim();
  std::vector<int64_t> index(static_cast<size_t>(ndim), 0);
  int64_t offset = 0;
  for (int64_t n = 0; n < t.numel(); ++n) {
    out.push_back(c10::convert<double>(base[offset]));
    for (int64_t d = ndim - 1; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < sizes[d]) break;
      offset -= strides[d] * sizes[d];
      index[d] = 0;
    }
  }
}

// libtorch prints a contiguous kDouble copy (tensor.to(kCPU, kDouble).contiguous()); this is
// that copy without needing the copy operator. Like that copy, it keeps only the real part of
// a complex tensor and warns once: libtorch 1.13 prints no imaginary parts.
std::vector<double> to_double_values(const Tensor& t) {
  std::vector<double> values;
  if (t.numel() == 0) return values;
  values.reserve(static_cast<size_t>(t.numel()));
  if (c10::isComplexType(t.scalar_type())) c10::warn_complex_to_real_once();
  switch (t.scalar_type()) {
#define MINIATEN_READ_CASE(ctype, name) \
  case c10::ScalarType::name:           \
    append_as_double<ctype>(t, values); \
    break;
    C10_FORALL_SCALAR_TYPES(MINIATEN_READ_CASE)
#undef MINIATEN_READ_CASE
    default:
      TORCH_CHECK(false, "print: unsupported scalar type ", t.scalar_type());
  }
  return values;
}

// Note [How libtorch picks the number format]
// All values of one matrix (a 1-d tensor, a 2-d tensor, or one (i,j,.,.) slice) share one
// format, decided from the finite values only:
//   * intMode: every finite value is integral. Then if the largest has more than 9 digits,
//     scientific with precision 4 in width 11; otherwise default float notation in width
//     digits+1, at whatever precision the stream has (6 on a fresh stream, but 4 once an
//     earlier slice of the same print set it: libtorch never resets it, nor do we).
//   * otherwise, with expMin/expMax the decimal digit counts (floor(log10|x|)+1, or 1 for 0)
//     of the smallest and largest magnitude:
//       - expMax - expMin > 4: scientific, precision 4, width 11 (12 with 3-digit exponents);
//       - expMax > 5 or expMax < 0: fixed, precision 4, width 7, and every value is divided by
//         scale = 10^(expMax-1), printed once as a "1e+06 *" line above the values;
//       - else fixed, precision 4, width expMax+6 (7 when expMax is 0).
// Quirk kept on purpose: the running maximum is updated only by values greater than it as
// signed numbers, so the magnitude of a negative value counts only when it is the first finite
// one. Large negative numbers therefore do not widen the columns, exactly as in libtorch.
struct PrintFormat {
  double scale;
  int64_t width;
};

PrintFormat choose_format(std::ostream& stream, const double* p, int64_t n) {
  if (n == 0) return {1., 0};
  bool int_mode = true;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isfinite(p[i]) && p[i] != std::ceil(p[i])) {
      int_mode = false;
      break;
    }
  }
  int64_t first = 0;
  while (first < n && !std::isfinite(p[first])) ++first;
  double exp_min = 1;
  double exp_max = 1;
  if (first < n) {
    double min_abs = std::fabs(p[first]);
    double max_abs = min_abs;
    for (int64_t i = first; i < n; ++i) {
      const double z = std::fabs(p[i]);
      if (!std::isfinite(z)) continue;
      if (z < min_abs) min_abs = z;
      if (p[i] > max_abs) max_abs = z;  // signed comparison: see the Note's quirk
    }
    exp_min = min_abs != 0 ? std::floor(std::log10(min_abs)) + 1 : 1;
    exp_max = max_abs != 0 ? std::floor(std::log10(max_abs)) + 1 : 1;
  }

  if (int_mode) {
    if (exp_max > 9) {
      stream << std::scientific << std::setprecision(4);
      return {1., 11};
    }
    set_defaultfloat(stream);
    return {1., static_cast<int64_t>(exp_max) + 1};
  }
  if (exp_max - exp_min > 4) {
    stream << std::scientific << std::setprecision(4);
    const bool wide_exponent = std::fabs(exp_max) > 99 || std::fabs(exp_min) > 99;
    return {1., wide_exponent ? 12 : 11};
  }
  stream << std::fixed << std::setprecision(4);
  if (exp_max > 5 || exp_max < 0) return {std::pow(10, exp_max - 1), 7};
  return {1., exp_max == 0 ? 7 : static_cast<int64_t>(exp_max) + 6};
}

void print_indent(std::ostream& stream, int64_t indent) {
  for (int64_t i = 0; i < indent; ++i) stream << ' ';
}

// The scale line uses the stream's current precision in default notation ("1e+06 *").
void print_scale(std::ostream& stream, double scale) {
  FormatGuard guard(stream);
  set_defaultfloat(stream);
  stream << scale << " *\n";
}

// Prints a rows x cols row-major matrix in blocks of as many columns as fit in linesize.
// The layout quirks are libtorch's: a block's first row continues the "Columns a to b" line,
// and when a scale line is printed, the rows after the first get one extra leading space.
void print_matrix(std::ostream& stream, const double* data, int64_t rows, int64_t cols,
                  int64_t linesize, int64_t indent) {
  const PrintFormat fmt = choose_format(stream, data, rows * cols);
  print_indent(stream, indent);
  // libtorch loops forever when not even one column fits; we print one per block instead.
  const int64_t per_line = std::max<int64_t>(1, (linesize - indent) / (fmt.width + 1));
  for (int64_t first = 0; first < cols;) {
    const int64_t last = std::min(first + per_line, cols) - 1;
    if (per_line < cols) {
      if (first != 0) stream << '\n';
      stream << "Columns " << first + 1 << " to " << last + 1;
      print_indent(stream, indent);
    }
    if (fmt.scale != 1) {
      print_scale(stream, fmt.scale);
      print_indent(stream, indent);
    }
    for (int64_t r = 0; r < rows; ++r) {
      const double* row = data + r * cols;
      for (int64_t c = first; c <= last; ++c) {
        stream << std::setw(static_cast<int>(fmt.width)) << row[c] / fmt.scale;
        if (c != last) {
          stream << ' ';
          continue;
        }
        stream << '\n';
        if (r != rows - 1) {
          print_indent(stream, indent);
          if (fmt.scale != 1) stream << ' ';
        }
      }
    }
    first = last + 1;
  }
}

// Prints each trailing matrix under a "(i,j,.,.) = " header. The leading indices count like an
// odometer whose first digit turns fastest: (1,1,.,.), (2,1,.,.), ..., (1,2,.,.), as libtorch.
void print_slices(std::ostream& stream, const std::vector<double>& values, c10::IntArrayRef sizes,
                  int64_t linesize) {
  const size_t lead = sizes.size() - 2;
  const int64_t rows = sizes[lead];
  const int64_t cols = sizes[lead + 1];
  std::vector<int64_t> counter(lead, 0);
  for (bool first_slice = true;; first_slice = false) {
    if (!first_slice) {
      size_t d = 0;
      while (d < lead && ++counter[d] == sizes[d]) counter[d++] = 0;
      if (d == lead) break;
      stream << '\n';
    }
    int64_t offset = 0;
    stream << '(';
    for (size_t d = 0; d < lead; ++d) {
      offset = offset * sizes[d] + counter[d];
      stream << counter[d] + 1 << ',';
    }
    stream << ".,.) = \n";
    print_matrix(stream, values.data() + offset * rows * cols, rows, cols, linesize, 1);
  }
}

// "[ CPUFloatType{2,3} ]": the last line of every print.
void print_type_line(std::ostream& stream, const Tensor& tensor) {
  const c10::IntArrayRef sizes = tensor.sizes();
  stream << "[ " << tensor.toString() << '{';
  for (size_t d = 0; d < sizes.size(); ++d) stream << (d == 0 ? "" : ",") << sizes[d];
  stream << "} ]";
}

}  // namespace

std::ostream& print(std::ostream& stream, const Tensor& tensor, int64_t linesize) {
  FormatGuard guard(stream);
  if (!tensor.defined()) {
    stream << "[ Tensor (undefined) ]";
    return stream;
  }
  // Note [Printing a meta tensor]
  // A meta tensor has no values. libtorch 1.13's printer copies every tensor to the CPU first
  // and so throws "Cannot copy out of meta tensor; no data!"; Python prints
  // tensor(..., device='meta', size=(2, 3)). miniaten keeps the C++ printer's frame and says
  // the same as Python: "..." where the values would be, then the usual type line:
  //   ...
  //   [ MetaFloatType{2,3} ]
  if (tensor.is_meta()) {
    stream << "...\n";
    print_type_line(stream, tensor);
    return stream;
  }
  // Values of another device are read from a CPU copy, as libtorch prints tensor.to(kCPU);
  // the type line still names the tensor's own backend ("CUDAFloatType").
  const std::vector<double> values = to_double_values(
      tensor.is_cpu() ? tensor
                      : at::_ops::_to_copy::call(tensor, c10::nullopt, c10::nullopt,
                                                 c10::Device(c10::kCPU), c10::nullopt,
                                                 /*non_blocking=*/false, c10::nullopt));
  const c10::IntArrayRef sizes = tensor.sizes();
  if (tensor.dim() == 0) {
    set_defaultfloat(stream);
    stream << values[0] << '\n';
  } else if (tensor.numel() > 0 && tensor.dim() == 1) {
    const PrintFormat fmt = choose_format(stream, values.data(), tensor.numel());
    if (fmt.scale != 1) print_scale(stream, fmt.scale);
    for (const double v : values) {
      stream << std::setw(static_cast<int>(fmt.width)) << v / fmt.scale << '\n';
    }
  } else if (tensor.numel() > 0 && tensor.dim() == 2) {
    print_matrix(stream, values.data(), sizes[0], sizes[1], linesize, 0);
  } else if (tensor.numel() > 0) {
    print_slices(stream, values, sizes, linesize);
  }
  print_type_line(stream, tensor);
  return stream;
}

std::ostream& operator<<(std::ostream& out, const Tensor& t) {
  return print(out, t, 80);
}

void print(const Tensor& t, int64_t linesize) {
  print(std::cout, t, linesize);
}

}  // namespace at
