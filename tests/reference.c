/*
** reference.c -- see reference.h.
*/
#include "reference.h"

#include <math.h>
#include <string.h>

static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t ref_f32_to_f16(float f) {
  const uint32_t x = f2u(f);
  const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  const uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu)); /* NaN */
  if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520 (or inf): inf */
  if (ax >= 0x38800000u) {                                  /* normal in f16: >= 2^-14 */
    uint32_t r = ax + 0xfffu + ((ax >> 13) & 1u);           /* RNE at bit 13 */
    r -= 0x38000000u;                                       /* rebias 127 -> 15 */
    return (uint16_t)(sign | (r >> 13));
  }
  if (ax <= 0x33000000u) return sign; /* <= 2^-25: rounds to (signed) zero */
  /* subnormal in f16: value = m * 2^-24, m = mant * 2^(e - 126) */
  const uint32_t e = ax >> 23; /* 102 .. 112 */
  const uint32_t mant = (ax & 0x7fffffu) | 0x800000u;
  const uint32_t shift = 126u - e; /* 14 .. 24 */
  uint32_t m = mant >> shift;
  const uint32_t rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1u);
  if (rem > half || (rem == half && (m & 1u))) m++; /* m == 0x400 is the smallest normal */
  return (uint16_t)(sign | m);
}

float ref_f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return u2f(sign | 0x7f800000u | (m << 13));
  if (e) return u2f(sign | ((e + 112u) << 23) | (m << 13));
  const float v = (float)m * 0x1p-24f; /* exact */
  return sign ? -v : v;
}

uint16_t ref_f32_to_bf16(float f) {
  uint32_t x = f2u(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x0040u); /* quiet NaN */
  x += 0x7fffu + ((x >> 16) & 1u); /* RNE; carries into the exponent (inf) as it should */
  return (uint16_t)(x >> 16);
}

float ref_bf16_to_f32(uint16_t h) { return u2f((uint32_t)h << 16); }

void ref_softmax_row(const double *x, double *y, int64_t n) {
  double m = -INFINITY, s = 0.0;
  for (int64_t j = 0; j < n; j++)
    if (x[j] > m) m = x[j];
  /* all -inf: m = -inf and x - m = NaN; a +inf: inf - inf = NaN.  Both
     propagate through s to the whole row, as in PyTorch. */
  for (int64_t j = 0; j < n; j++) {
    y[j] = exp(x[j] - m);
    s += y[j];
  }
  for (int64_t j = 0; j < n; j++) y[j] /= s;
}

void ref_rmsnorm_row(const double *x, const double *w, double *y, int64_t n, double eps) {
  double ss = 0.0;
  for (int64_t j = 0; j < n; j++) ss += x[j] * x[j];
  const double r = 1.0 / sqrt(ss / (double)n + eps);
  for (int64_t j = 0; j < n; j++) y[j] = x[j] * r * w[j];
}

double ref_silu(double x) { return x / (1.0 + exp(-x)); }

double ref_gelu_erf(double x) { return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440)); }

double ref_gelu_tanh(double x) {
  const double k0 = 0.79788456080286535588; /* sqrt(2/pi) */
  return 0.5 * x * (1.0 + tanh(k0 * (x + 0.044715 * x * x * x)));
}

double ref_rope_inv_freq(double theta, int64_t i, int64_t rot_dim) {
  return pow(theta, -2.0 * (double)i / (double)rot_dim);
}

void ref_rope_head(double *v, const double *cs, const double *sn, int64_t rot_dim, int gptj) {
  const int64_t half = rot_dim / 2;
  for (int64_t i = 0; i < half; i++) {
    const int64_t ia = gptj ? 2 * i : i, ib = gptj ? 2 * i + 1 : i + half;
    const double a = v[ia], b = v[ib];
    v[ia] = a * cs[i] - b * sn[i];
    v[ib] = b * cs[i] + a * sn[i];
  }
}

double ref_act(double v, int act) {
  switch (act) {
    case 1: return v > 0.0 ? v : 0.0;
    case 2: return ref_silu(v);
    case 3: return ref_gelu_tanh(v);
    default: return v;
  }
}

void ref_gemm_at(int64_t i, int64_t j, int64_t n, int64_t k, const double *a, const double *b,
                 int b_kn, double alpha, double beta, const double *c, const double *bias, int act,
                 double *pre, double *out, double *mag) {
  double s = 0.0, sm = 0.0;
  const double *ar = a + i * k;
  for (int64_t p = 0; p < k; p++) {
    const double t = ar[p] * (b_kn ? b[p * n + j] : b[j * k + p]);
    s += t;
    sm += fabs(t);
  }
  double v = alpha * s;
  if (c) v += beta * c[i * n + j];
  if (bias) v += bias[j];
  pre[i * n + j] = v;
  out[i * n + j] = ref_act(v, act);
  if (mag) mag[i * n + j] = sm;
}

void ref_gemm(int64_t m, int64_t n, int64_t k, const double *a, const double *b, int b_kn,
              double alpha, double beta, const double *c, const double *bias, int act,
              double *pre, double *out, double *mag) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      ref_gemm_at(i, j, n, k, a, b, b_kn, alpha, beta, c, bias, act, pre, out, mag);
}

double ref_attention_row(const double *q, const double *k, const double *v, int64_t hd,
                         int64_t lo, int64_t hi, double scale, double *out, double *mag,
                         double *smag) {
  for (int64_t d = 0; d < hd; d++) out[d] = mag[d] = 0.0;
  *smag = 0.0;
  if (lo >= hi) return -INFINITY;
  double m = -INFINITY;
  for (int64_t j = lo; j < hi; j++) {
    double s = 0.0, sa = 0.0;
    for (int64_t d = 0; d < hd; d++) {
      s += q[d] * k[j * hd + d];
      sa += fabs(q[d] * k[j * hd + d]);
    }
    if (scale * s > m) m = scale * s;
    if (scale * sa > *smag) *smag = scale * sa;
  }
  double l = 0.0;
  for (int64_t j = lo; j < hi; j++) {
    double s = 0.0;
    for (int64_t d = 0; d < hd; d++) s += q[d] * k[j * hd + d];
    const double p = exp(scale * s - m);
    l += p;
    for (int64_t d = 0; d < hd; d++) {
      out[d] += p * v[j * hd + d];
      mag[d] += p * fabs(v[j * hd + d]);
    }
  }
  for (int64_t d = 0; d < hd; d++) out[d] /= l, mag[d] /= l;
  return m + log(l);
}

void ref_attention_keys(int64_t lq, int64_t lk, int causal, int64_t wl, int64_t wr, int64_t i,
                        int64_t *lo, int64_t *hi) {
  const int64_t off = lk - lq;
  *lo = wl >= 0 ? i + off - wl : 0;
  if (*lo < 0) *lo = 0;
  *hi = lk;
  if (causal && i + off + 1 < *hi) *hi = i + off + 1;
  if (wr >= 0 && i + off + wr + 1 < *hi) *hi = i + off + wr + 1;
}
