#pragma once
// The float Box-Muller step of libtorch's vectorized normal_ (normal_fill_16_AVX2), one lane at a
// time: log and sincos are the Cephes polynomials of avx_mathfun.h, with libtorch's fused
// multiply-adds. See Note [randn's float numbers come from avx_mathfun].

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#define MINIATEN_BOX_MULLER_AVX2 1
#endif

namespace at {
namespace native {
// Per capability, like the kernels that include it: the AVX2 and AVX512 copies inline their
// std::fma into one instruction, and the linker must not swap in the DEFAULT copy's libm calls.
inline namespace CPU_CAPABILITY {
namespace box_muller {

// Note [randn's float numbers come from avx_mathfun]
// For a contiguous float tensor of at least 16 elements, libtorch 1.13's normal_ (on any CPU with
// AVX2, where it runs its AVX2 kernels by default) turns uniforms into normals 8 pairs at a time
// with avx_mathfun.h's log256_ps and sincos256_ps: Cephes polynomials, not libm. Their last bits
// differ from std::log/std::cos in about one value in a hundred, so to give libtorch's numbers
// miniaten evaluates the same polynomials, in the same order, per lane. libtorch's build let GCC
// contract the polynomial steps into FMAs; which operand pairs were fused was read off libtorch's
// output (every value of several seeds and sizes, tens of thousands in all, matches bit for bit):
// every Horner step and every `a - y * DP` step is fused; `y * z + e * q1` fuses y * z, and
// `y * z - z * 0.5` in the cosine fuses y * z. The fused steps are written as std::fma, and the
// kernels are compiled with -ffp-contract=off, so the numbers do not depend on the CPU or on the
// capability the kernel was compiled for.

inline float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline uint32_t float_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// avx_mathfun's log256_ps: the natural log, NaN for x <= 0.
inline float cephes_log(float x) {
  const bool invalid = x <= 0.f;
  x = std::fmax(x, bits_to_float(0x00800000));  // cut off denormals
  int32_t exponent = static_cast<int32_t>(float_to_bits(x) >> 23) - 0x7f;
  x = bits_to_float((float_to_bits(x) & ~0x7f800000u) |
                    float_to_bits(0.5f));  // mantissa in [0.5, 1)
  float e = static_cast<float>(exponent) + 1.0f;
  // Keep x in [sqrt(1/2), sqrt(2)) - 1.
  const bool below = x < 0.707106781186547524f;
  const float tmp = below ? x : 0.f;
  x = x - 1.0f;
  e = e - (below ? 1.0f : 0.f);
  x = x + tmp;
  const float z = x * x;
  float y = 7.0376836292E-2f;
  y = std::fma(y, x, -1.1514610310E-1f);
  y = std::fma(y, x, 1.1676998740E-1f);
  y = std::fma(y, x, -1.2420140846E-1f);
  y = std::fma(y, x, 1.4249322787E-1f);
  y = std::fma(y, x, -1.6668057665E-1f);
  y = std::fma(y, x, 2.0000714765E-1f);
  y = std::fma(y, x, -2.4999993993E-1f);
  y = std::fma(y, x, 3.3333331174E-1f);
  y = y * x;
  y = std::fma(y, z, e * -2.12194440e-4f);
  y = std::fma(-z, 0.5f, y);
  x = x + y;
  x = std::fma(e, 0.693359375f, x);
  return invalid ? NAN : x;
}

// avx_mathfun's sincos256_ps.
inline void cephes_sincos(float x, float* s, float* c) {
  uint32_t sign_bit_sin = float_to_bits(x) & 0x80000000u;
  x = std::fabs(x);
  // The octant: j = (int(x * 4/pi) + 1) & ~1.
  int32_t j = static_cast<int32_t>(x * 1.27323954473516f);
  j = (j + 1) & ~1;
  const float y = static_cast<float>(j);
  sign_bit_sin ^= static_cast<uint32_t>(j & 4) << 29;
  const bool sin_poly = (j & 2) == 0;
  const uint32_t sign_bit_cos = (static_cast<uint32_t>(~(j - 2)) & 4u) << 29;
  // x - y * pi/4 in extended precision (pi/4 split in three).
  x = std::fma(y, -0.78515625f, x);
  x = std::fma(y, -2.4187564849853515625e-4f, x);
  x = std::fma(y, -3.77489497744594108e-8f, x);
  const float z = x * x;
  float yc = 2.443315711809948E-005f;  // the cosine polynomial
  yc = std::fma(yc, z, -1.388731625493765E-003f);
  yc = std::fma(yc, z, 4.166664568298827E-002f);
  yc = yc * z;
  yc = std::fma(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;
  float ys = -1.9515295891E-4f;  // the sine polynomial
  ys = std::fma(ys, z, 8.3321608736E-3f);
  ys = std::fma(ys, z, -1.6666654611E-1f);
  ys = ys * z;
  ys = std::fma(ys, x, x);
  // Each output takes one polynomial; the other is selected away exactly as the vector code
  // does it (subtract then add), which keeps signed zeros as libtorch's.
  const float ysin2 = sin_poly ? ys : 0.f;
  const float ysin1 = sin_poly ? 0.f : yc;
  ys = ys - ysin2;
  yc = yc - ysin1;
  *s = bits_to_float(float_to_bits(ysin1 + ysin2) ^ sign_bit_sin);
  *c = bits_to_float(float_to_bits(yc + ys) ^ sign_bit_cos);
}

#ifdef MINIATEN_BOX_MULLER_AVX2
// The same two functions eight lanes at a time, operation for operation (what libtorch runs);
// the scalar versions above are the reference and the DEFAULT capability's path.
inline __m256 cephes_log8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 invalid_mask = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OS);
  x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));
  __m256i imm0 = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
  x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(~0x7f800000)));
  x = _mm256_or_ps(x, _mm256_set1_ps(0.5f));
  imm0 = _mm256_sub_epi32(imm0, _mm256_set1_epi32(0x7f));
  __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(imm0), one);
  const __m256 below = _mm256_cmp_ps(x, _mm256_set1_ps(0.707106781186547524f), _CMP_LT_OS);
  const __m256 tmp = _mm256_and_ps(x, below);
  x = _mm256_sub_ps(x, one);
  e = _mm256_sub_ps(e, _mm256_and_ps(one, below));
  x = _mm256_add_ps(x, tmp);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 y = _mm256_set1_ps(7.0376836292E-2f);
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(-1.1514610310E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.1676998740E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(-1.2420140846E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.4249322787E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(-1.6668057665E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(2.0000714765E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(-2.4999993993E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(3.3333331174E-1f));
  y = _mm256_mul_ps(y, x);
  y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, _mm256_set1_ps(-2.12194440e-4f)));
  y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
  x = _mm256_add_ps(x, y);
  x = _mm256_fmadd_ps(e, _mm256_set1_ps(0.693359375f), x);
  return _mm256_or_ps(x, invalid_mask);
}

inline void cephes_sincos8(__m256 x, __m256* s, __m256* c) {
  const __m256 sign_mask = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0x80000000u)));
  __m256 sign_bit_sin = _mm256_and_ps(x, sign_mask);
  x = _mm256_andnot_ps(sign_mask, x);
  __m256i j = _mm256_cvttps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(1.27323954473516f)));
  j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
  const __m256 y = _mm256_cvtepi32_ps(j);
  sign_bit_sin = _mm256_xor_ps(sign_bit_sin, _mm256_castsi256_ps(_mm256_slli_epi32(
                                                 _mm256_and_si256(j, _mm256_set1_epi32(4)), 29)));
  const __m256 sin_poly = _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), _mm256_setzero_si256()));
  const __m256 sign_bit_cos = _mm256_castsi256_ps(_mm256_slli_epi32(
      _mm256_andnot_si256(_mm256_sub_epi32(j, _mm256_set1_epi32(2)), _mm256_set1_epi32(4)), 29));
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(-0.78515625f), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(-2.4187564849853515625e-4f), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(-3.77489497744594108e-8f), x);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 yc = _mm256_set1_ps(2.443315711809948E-005f);
  yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(-1.388731625493765E-003f));
  yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(4.166664568298827E-002f));
  yc = _mm256_mul_ps(yc, z);
  yc = _mm256_fmadd_ps(yc, z,
                       _mm256_sub_ps(_mm256_setzero_ps(), _mm256_mul_ps(z, _mm256_set1_ps(0.5f))));
  yc = _mm256_add_ps(yc, _mm256_set1_ps(1.0f));
  __m256 ys = _mm256_set1_ps(-1.9515295891E-4f);
  ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(8.3321608736E-3f));
  ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(-1.6666654611E-1f));
  ys = _mm256_mul_ps(ys, z);
  ys = _mm256_fmadd_ps(ys, x, x);
  const __m256 ysin2 = _mm256_and_ps(sin_poly, ys);
  const __m256 ysin1 = _mm256_andnot_ps(sin_poly, yc);
  ys = _mm256_sub_ps(ys, ysin2);
  yc = _mm256_sub_ps(yc, ysin1);
  *s = _mm256_xor_ps(_mm256_add_ps(ysin1, ysin2), sign_bit_sin);
  *c = _mm256_xor_ps(_mm256_add_ps(yc, ys), sign_bit_cos);
}
#endif  // MINIATEN_BOX_MULLER_AVX2

// normal_fill_16_AVX2: data[0..16) holds uniforms in [0, 1); afterwards, normals. Element j and
// j + 8 form one Box-Muller pair (u1 = 1 - data[j] so the log never sees 0).
inline void normal_fill_16(float* data, float mean, float std) {
  constexpr float two_pi = static_cast<float>(2.0 * 3.14159265358979323846);
#ifdef MINIATEN_BOX_MULLER_AVX2
  const __m256 u1 = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_loadu_ps(data));
  const __m256 u2 = _mm256_loadu_ps(data + 8);
  const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), cephes_log8(u1)));
  const __m256 theta = _mm256_mul_ps(_mm256_set1_ps(two_pi), u2);
  __m256 sintheta;
  __m256 costheta;
  cephes_sincos8(theta, &sintheta, &costheta);
  const __m256 std_v = _mm256_set1_ps(std);
  const __m256 mean_v = _mm256_set1_ps(mean);
  _mm256_storeu_ps(data, _mm256_fmadd_ps(_mm256_mul_ps(radius, costheta), std_v, mean_v));
  _mm256_storeu_ps(data + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, sintheta), std_v, mean_v));
#else
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * cephes_log(u1));
    const float theta = two_pi * u2;
    float sintheta;
    float costheta;
    cephes_sincos(theta, &sintheta, &costheta);
    data[j] = std::fma(radius * costheta, std, mean);
    data[j + 8] = std::fma(radius * sintheta, std, mean);
  }
#endif
}

}  // namespace box_muller
}  // namespace CPU_CAPABILITY
}  // namespace native
}  // namespace at
