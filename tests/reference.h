/*
** reference.h -- host-side storage conversions and float64 reference ops
** for the GPU op tests (check_ops_gpu.c).  No CUDA, no libkernpack.
**
** Conversions round to nearest, ties to even, like cvt.rn on the GPU;
** subnormals are kept, overflow goes to inf, NaN stays NaN.
** The references compute in double with IEEE semantics, so special inputs
** give what PyTorch gives: a row that is all -inf softmaxes to NaN, and a
** +inf in a row makes x - max = inf - inf = NaN.
*/
#ifndef KP_TEST_REFERENCE_H
#define KP_TEST_REFERENCE_H

#include <stdint.h>

uint16_t ref_f32_to_f16(float f);
float ref_f16_to_f32(uint16_t h);
uint16_t ref_f32_to_bf16(float f);
float ref_bf16_to_f32(uint16_t h);

/* y[0..n) = softmax(x[0..n)); y may equal x. */
void ref_softmax_row(const double *x, double *y, int64_t n);
/* y[j] = x[j] / sqrt(mean(x^2) + eps) * w[j]; y may equal x. */
void ref_rmsnorm_row(const double *x, const double *w, double *y, int64_t n, double eps);
double ref_silu(double x);
double ref_gelu_erf(double x);
double ref_gelu_tanh(double x);
/* theta^(-2i/rot_dim), the RoPE inverse frequency of pair i. */
double ref_rope_inv_freq(double theta, int64_t i, int64_t rot_dim);
/* Rotate the first rot_dim of v[] in place; cs[i], sn[i] for pair i.
** gptj = 0: NeoX pairs (i, i + rot_dim/2); gptj = 1: pairs (2i, 2i+1). */
void ref_rope_head(double *v, const double *cs, const double *sn, int64_t rot_dim, int gptj);

/* kp_act's functions: 0 none, 1 relu, 2 silu, 3 gelu (tanh form). */
double ref_act(double v, int act);
/* One batch of D = act(alpha * A op(B) + beta * C + bias), dense row-major:
** a (m, k); b (n, k) when !b_kn (D = A B^T), else (k, n); c (m, n) or NULL;
** bias (n) or NULL.  pre (m, n): alpha * A op(B) + beta * C + bias, before
** the activation, and out (m, n) after it, both unrounded; mag (m, n) (may
** be NULL): sum_p |a[i,p] b[p,j]|, what fp32 accumulation errors scale with. */
void ref_gemm(int64_t m, int64_t n, int64_t k, const double *a, const double *b, int b_kn,
              double alpha, double beta, const double *c, const double *bias, int act,
              double *pre, double *out, double *mag);
/* ref_gemm's element (i, j) alone (the same arrays), so that a caller can
** share a batch's elements among threads */
void ref_gemm_at(int64_t i, int64_t j, int64_t n, int64_t k, const double *a, const double *b,
                 int b_kn, double alpha, double beta, const double *c, const double *bias, int act,
                 double *pre, double *out, double *mag);

/* One query row of attention over the keys [lo, hi) (none when lo >= hi):
** p_j = softmax_j(scale * q . k_j), out[d] = sum_j p_j v_j[d]; k and v are
** dense (*, hd) rows.  mag[d] = sum_j p_j |v_j[d]| and *smag = max_j scale *
** sum_d |q_d k_jd|, what the GPU's rounding errors scale with.  Returns the
** log-sum-exp ln sum_j exp(scale q . k_j); with no key: -inf, out and mag 0. */
double ref_attention_row(const double *q, const double *k, const double *v, int64_t hd,
                         int64_t lo, int64_t hi, double scale, double *out, double *mag,
                         double *smag);

/* The keys [lo, hi) query row i of one sequence sees (kernpack.h's mask):
** lq query rows over lk keys, the diagonal aligned bottom-right (off = lk -
** lq), causal, and the window's bounds (-1: none).  With varlen batches lq
** and lk are the sequence's own lengths. */
void ref_attention_keys(int64_t lq, int64_t lk, int causal, int64_t wl, int64_t wr, int64_t i,
                        int64_t *lo, int64_t *hi);

#endif
