// View and stride arithmetic on random arguments: a chain of up to eight view ops (as_strided,
// view, reshape, expand, narrow, select, slice, unfold, diagonal, permute, squeeze, unsqueeze,
// split, chunk, unbind, movedim, transpose, flatten, unflatten) over a float tensor whose storage
// element i holds the value i. Each op either raises c10::Error or gives a tensor that
//  - has non-negative sizes and a numel equal to their product (no overflow went unnoticed),
//  - reaches only elements inside its storage (computed in 128 bits),
//  - is flagged contiguous exactly when its strides are,
//  - reads, element by element, the storage elements its strides name (a view: of the first
//    tensor, value i at element i; of a tensor an earlier reshape copied, what that storage
//    holds), or the values of its source in the same order (a reshape that copied).

#include <algorithm>
#include <vector>

#include "aten/ATen.h"
#include "tests/fuzz/FuzzInput.h"

namespace {

using at::Tensor;
using fuzz::FuzzInput;

constexpr int64_t kMaxReadNumel = 4096;

std::vector<int64_t> int_list(FuzzInput& in, int64_t max_len) {
  std::vector<int64_t> out(static_cast<size_t>(in.in_range(0, max_len)));
  for (auto& v : out) v = in.interesting_int();
  return out;
}

// The storage offset of element `linear` (row-major over sizes) of a strided view.
__int128 offset_of(int64_t linear, c10::IntArrayRef sizes, c10::IntArrayRef strides, int64_t base) {
  __int128 offset = base;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    offset += static_cast<__int128>(linear % sizes[d]) * strides[d];
    linear /= sizes[d];
  }
  return offset;
}

bool strides_are_contiguous(const Tensor& t) {
  if (t.numel() == 0) return true;
  int64_t expected = 1;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

// v came from source by one op; base is the first tensor of the chain, whose storage element i
// holds the value i.
void check_result(const Tensor& base, const Tensor& source, const Tensor& v) {
  FUZZ_CHECK(v.defined(), "an op returned an undefined tensor");
  const auto sizes = v.sizes();
  const auto strides = v.strides();
  FUZZ_CHECK(sizes.size() == strides.size(), "sizes and strides differ in length");
  // The product, unless a 0 size makes it 0 (a prefix past INT64_MAX is fine then, as in
  // libtorch: [2650023987785649641, 5, 0] is an empty tensor).
  __int128 numel = 1;
  for (const int64_t s : sizes) FUZZ_CHECK(s >= 0, "negative size");
  if (std::find(sizes.begin(), sizes.end(), 0) != sizes.end()) {
    numel = 0;
  } else {
    for (const int64_t s : sizes) {
      numel *= s;
      FUZZ_CHECK(numel <= INT64_MAX, "numel overflows int64");
    }
  }
  FUZZ_CHECK(numel == v.numel(), "numel() is not the product of the sizes");
  FUZZ_CHECK(v.storage_offset() >= 0, "negative storage offset");
  FUZZ_CHECK(v.is_contiguous() == strides_are_contiguous(v), "contiguity flag is wrong");
  if (numel == 0) return;

  const __int128 storage_numel = static_cast<__int128>(v.storage().nbytes() / v.itemsize());
  __int128 lo = v.storage_offset(), hi = v.storage_offset();
  for (size_t d = 0; d < sizes.size(); ++d) {
    const __int128 span = static_cast<__int128>(strides[d]) * (sizes[d] - 1);
    (span < 0 ? lo : hi) += span;
  }
  FUZZ_CHECK(lo >= 0 && hi < storage_numel, "the view reaches outside its storage");

  if (numel > kMaxReadNumel) return;
  const Tensor values = v.contiguous();
  const float* got = values.data_ptr<float>();
  if (v.is_alias_of(base)) {
    for (int64_t i = 0; i < v.numel(); ++i)
      FUZZ_CHECK(got[i] == static_cast<float>(offset_of(i, sizes, strides, v.storage_offset())),
                 "a view reads the wrong storage element");
  } else if (v.is_alias_of(source)) {  // a view of a tensor a reshape copied earlier
    const float* storage = static_cast<const float*>(v.storage().data());
    for (int64_t i = 0; i < v.numel(); ++i)
      FUZZ_CHECK(
          got[i] == storage[static_cast<int64_t>(offset_of(i, sizes, strides, v.storage_offset()))],
          "a view reads the wrong storage element");
  } else if (source.numel() == v.numel()) {  // a reshape that copied
    const Tensor expected = source.contiguous();
    for (int64_t i = 0; i < v.numel(); ++i)
      FUZZ_CHECK(got[i] == expected.data_ptr<float>()[i], "a copying reshape reordered values");
  }
}

// Splitting into thousands or millions of pieces is legitimate (up to 2^24, past which the
// library refuses up front) but makes a view per piece: a fuzz run spent most of its time there,
// at a few hundred inputs a second, without reaching new code. Such splits are skipped; counts
// the library refuses are still tried.
bool many_pieces(const Tensor& t, int64_t dim, int64_t split_size) {
  constexpr int64_t kFewPieces = 4096, kRefused = int64_t{1} << 24;
  if (t.dim() == 0 || dim < -t.dim() || dim >= t.dim()) return false;  // an error: try it
  const int64_t size = t.size(dim < 0 ? dim + t.dim() : dim);
  if (split_size <= 0) return false;
  const int64_t pieces = size / split_size + (size % split_size != 0);
  return pieces > kFewPieces && pieces <= kRefused;
}

// A reshape that cannot view copies: of an expanded tensor, up to gigabytes, which held a run
// at a few inputs a second. Big non-contiguous tensors are not reshaped (contiguous ones always
// give views, so they still are).
bool may_copy_much(const Tensor& t) {
  return !t.is_contiguous() && t.numel() > (int64_t{1} << 16);
}

Tensor pick_piece(FuzzInput& in, const std::vector<Tensor>& pieces, const Tensor& fallback) {
  if (pieces.empty()) return fallback;
  return pieces[in.byte() % pieces.size()];
}

Tensor apply_one(FuzzInput& in, const Tensor& t) {
  auto i = [&] { return in.interesting_int(); };
  switch (in.byte() % 22) {
    case 0: {
      const auto sizes = int_list(in, 4);
      auto strides = sizes;
      for (auto& s : strides) s = i();
      if (in.byte() < 16) strides = int_list(in, 4);  // lengths may differ
      if (in.boolean()) return t.as_strided(sizes, strides, i());
      return t.as_strided(sizes, strides);
    }
    case 1: return t.view(int_list(in, 4));
    case 2: {
      const auto sizes = int_list(in, 4);
      return may_copy_much(t) ? t : t.reshape(sizes);
    }
    case 3: return t.expand(int_list(in, 4));
    case 4: { const int64_t d = i(), s = i(); return t.narrow(d, s, i()); }
    case 5: { const int64_t d = i(); return t.select(d, i()); }
    case 6: {
      const int64_t d = i();
      const c10::optional<int64_t> start = in.boolean() ? c10::optional<int64_t>(i()) : c10::nullopt;
      const c10::optional<int64_t> end = in.boolean() ? c10::optional<int64_t>(i()) : c10::nullopt;
      return t.slice(d, start, end, i());
    }
    case 7: { const int64_t d = i(), s = i(); return t.unfold(d, s, i()); }
    case 8: { const int64_t o = i(), d1 = i(); return t.diagonal(o, d1, i()); }
    case 9: return t.permute(int_list(in, 4));
    case 10: return t.squeeze();
    case 11: return t.squeeze(i());
    case 12: return t.unsqueeze(i());
    case 13: {
      const int64_t s = i(), d = i();
      if (many_pieces(t, d, s)) return t;
      return pick_piece(in, t.split(s, d), t);
    }
    case 14: { const auto sizes = int_list(in, 4); return pick_piece(in, t.split(sizes, i()), t); }
    case 15: { const int64_t s = i(); return t.movedim(s, i()); }
    case 16: { const auto s = int_list(in, 3); return t.movedim(s, int_list(in, 3)); }
    case 17: { const int64_t a = i(); return t.transpose(a, i()); }
    case 18: {
      const int64_t a = i(), b = i();
      return may_copy_much(t) ? t : t.flatten(a, b);
    }
    case 19: { const int64_t d = i(); return t.unflatten(d, int_list(in, 3)); }
    case 20: {
      const int64_t c = i(), d = i();
      if (c > 0 && t.dim() > 0 && d >= -t.dim() && d < t.dim()) {
        const int64_t size = t.size(d);  // chunk splits it into pieces of ceil(size / c)
        if (size > 0 && many_pieces(t, d, size / c + (size % c != 0))) return t;
      }
      return pick_piece(in, t.chunk(c, d), t);
    }
    default: {
      const int64_t d = i();
      if (many_pieces(t, d, 1)) return t;
      return pick_piece(in, t.unbind(d), t);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const Tensor base = at::arange(in.in_range(0, 48), at::kFloat);
  Tensor t = base;
  for (int step = 0; step < 8 && !in.exhausted(); ++step) {
    try {
      Tensor next = apply_one(in, t);
      check_result(base, t, next);
      t = next;
    } catch (const c10::Error&) {
      // rejected with a message: fine; go on from the last good tensor
    }
  }
  return 0;
}
