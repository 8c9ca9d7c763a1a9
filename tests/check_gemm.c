/*
** check_gemm.c -- kp_gemm under misuse, without a GPU: every bad argument
** gives its documented status and a message naming the argument, and a call
** that passes every check reaches the launch (KP_ERR_NO_DEVICE on the
** pack-only context of check_suites.h), so nothing was launched and nothing
** written before it.  That nothing is written on a real device is checked
** by check_gemm_gpu.c (gemm_rejects/write_nothing).
**
** The valid call everything starts from: f16, m = 8, n = 16, k = 32, B as
** (n, k), packed, at fake 16-byte aligned addresses far apart.
*/
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check_suites.h"
#include "kernpack.h"

#define A_ DEV(0x100000)
#define B_ DEV(0x200000)
#define D_ DEV(0x300000)
#define C_ DEV(0x400000)
#define BIAS_ DEV(0x500000)

static kp_gemm_desc base(void) {
  kp_gemm_desc g;
  kp_gemm_desc_init(&g, 8, 16, 32);
  return g;
}

/* kp_gemm_desc_init: the documented defaults, every field. */
START_TEST(test_desc_init) {
  kp_gemm_desc g;
  memset(&g, 0x5A, sizeof g); /* init must overwrite everything */
  kp_gemm_desc_init(&g, 3, 5, 7);
  ck_assert_int_eq(g.m, 3);
  ck_assert_int_eq(g.n, 5);
  ck_assert_int_eq(g.k, 7);
  ck_assert_int_eq(g.batch, 1);
  ck_assert_int_eq(g.b_layout, KP_B_NK);
  ck_assert_int_eq(g.lda, 7);
  ck_assert_int_eq(g.ldb, 7);
  ck_assert_int_eq(g.ldc, 5);
  ck_assert_int_eq(g.ldd, 5);
  ck_assert_int_eq(g.stride_a, 21);
  ck_assert_int_eq(g.stride_b, 35);
  ck_assert_int_eq(g.stride_c, 15);
  ck_assert_int_eq(g.stride_d, 15);
  ck_assert(g.alpha == 1.f);
  ck_assert(g.beta == 0.f);
  ck_assert_ptr_null(g.c);
  ck_assert_ptr_null(g.bias);
  ck_assert_int_eq(g.act, KP_ACT_NONE);
  ck_assert_int_eq(g.out_f32, 0);
  /* the valid call these tests start from reaches the launch */
  kp_ctx *c = kp_test_pack_only();
  kp_gemm_desc d = base();
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &d, NULL), KP_ERR_NO_DEVICE, "gemm");
  EXPECT(c, kp_gemm(c, KP_BF16, A_, B_, D_, &d, NULL), KP_ERR_NO_DEVICE, "gemm");
  kp_ctx_destroy(c);
}
END_TEST

/* NULL context, descriptor and operands; dtypes other than f16/bf16. */
START_TEST(test_null_and_dtype) {
  kp_ctx *c = kp_test_pack_only();
  kp_gemm_desc g = base();
  EXPECT(NULL, kp_gemm(NULL, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: ctx is NULL");
  EXPECT(NULL, kp_gemm(NULL, KP_F16, A_, B_, D_, NULL, NULL), KP_ERR_INVALID_ARG, "gemm: ctx is NULL");
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, NULL, NULL), KP_ERR_INVALID_ARG, "gemm: desc is NULL");
  EXPECT(c, kp_gemm(c, KP_F16, NULL, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: A is NULL");
  EXPECT(c, kp_gemm(c, KP_F16, A_, NULL, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: B is NULL");
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, NULL, &g, NULL), KP_ERR_INVALID_ARG, "gemm: D is NULL");
  EXPECT(c, kp_gemm(c, KP_F32, A_, B_, D_, &g, NULL), KP_ERR_UNSUPPORTED, "gemm: dtype f32: inputs must be f16 or bf16");
  EXPECT(c, kp_gemm(c, (kp_dtype)9, A_, B_, D_, &g, NULL), KP_ERR_UNSUPPORTED, "gemm: dtype 9");
  EXPECT(c, kp_gemm(c, (kp_dtype)-1, A_, B_, D_, &g, NULL), KP_ERR_UNSUPPORTED, "gemm: dtype -1");
  kp_ctx_destroy(c);
}
END_TEST

/* m, n, k, batch: zero and negative are invalid, beyond int unsupported. */
START_TEST(test_dims) {
  kp_ctx *c = kp_test_pack_only();
  const int64_t big = (int64_t)INT_MAX + 1;
  static const struct { int which; int64_t v; kp_status st; const char *needle; } T[] = {
      {0, 0, KP_ERR_INVALID_ARG, "gemm: m=0: must be >= 1"},
      {0, -3, KP_ERR_INVALID_ARG, "gemm: m=-3"},
      {0, INT64_MIN, KP_ERR_INVALID_ARG, "gemm: m=-9223372036854775808"},
      {0, (int64_t)INT_MAX + 1, KP_ERR_UNSUPPORTED, "m=2147483648"},
      {1, 0, KP_ERR_INVALID_ARG, "gemm: n=0: must be >= 1"},
      {1, -1, KP_ERR_INVALID_ARG, "gemm: n=-1"},
      {1, (int64_t)INT_MAX + 1, KP_ERR_UNSUPPORTED, "n=2147483648"},
      {2, 0, KP_ERR_INVALID_ARG, "gemm: k=0: must be in [1, 2147483647]"},
      {2, -7, KP_ERR_INVALID_ARG, "gemm: k=-7"},
      {2, (int64_t)INT_MAX + 1, KP_ERR_UNSUPPORTED, "gemm: k=2147483648"},
      {2, INT64_MAX, KP_ERR_UNSUPPORTED, "gemm: k=9223372036854775807"},
      {3, 0, KP_ERR_INVALID_ARG, "gemm: batch=0: must be in [1, 2147483647]"},
      {3, -2, KP_ERR_INVALID_ARG, "gemm: batch=-2"},
      {3, (int64_t)INT_MAX + 1, KP_ERR_UNSUPPORTED, "gemm: batch=2147483648"},
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
    kp_gemm_desc g = base();
    int64_t *f[4] = {&g.m, &g.n, &g.k, &g.batch};
    *f[T[i].which] = T[i].v;
    EXPECT(c, kp_gemm(c, KP_BF16, A_, B_, D_, &g, NULL), T[i].st, T[i].needle);
  }
  /* a huge m fails on m, not on the strides derived from it */
  kp_gemm_desc g;
  kp_gemm_desc_init(&g, big, 16, 32);
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_UNSUPPORTED, "gemm: m=2147483648 n=16: each must be <= 2147483647");
  kp_ctx_destroy(c);
}
END_TEST

/* Leading dimensions: each below its row length, for both B layouts; strides
** so large that the last element is not addressable. */
START_TEST(test_leading_dims) {
  kp_ctx *c = kp_test_pack_only();
  kp_gemm_desc g = base();
  g.lda = 31;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: A row stride 31 < row length 32");
  g.lda = 0;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: A row stride 0 < row length 32");
  g = base();
  g.ldb = 16; /* NK: B is (n, k), needs ldb >= k = 32 */
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: B row stride 16 < row length 32");
  g.ldb = -32;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: B row stride -32 < row length 32");
  /* KN: B is (k, n), needs ldb >= n; the init's ldb = k is too short when n > k */
  kp_gemm_desc_init(&g, 8, 48, 32);
  g.b_layout = KP_B_KN;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: B row stride 32 < row length 48");
  g.ldb = 48;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g.b_layout = KP_B_NK; /* the same ldb = n >= k is fine for (n, k) */
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g = base();
  g.ldd = 15;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: D row stride 15 < row length 16");
  g = base();
  g.c = C_;
  g.beta = 1.f;
  g.ldc = 15;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: C row stride 15 < row length 16");
  g.beta = 0.f; /* beta 0: C is not read, so not checked */
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g = base();
  g.lda = INT64_MAX / 4;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: A of 8 rows with stride 2305843009213693951 overflows");
  g = base();
  g.ldd = INT64_MAX / 16; /* addressable in f16, not in f32 (twice the bytes) */
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g.out_f32 = 1;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: D of 8 rows with stride 576460752303423487 overflows");
  kp_ctx_destroy(c);
}
END_TEST

/* Batch strides: negative, overlapping D batches, overflow; broadcast (0)
** inputs are fine. */
START_TEST(test_batch_strides) {
  kp_ctx *c = kp_test_pack_only();
  kp_gemm_desc g = base();
  g.batch = 3;
  g.stride_a = -1;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: A batch stride -1: must be >= 0");
  g = base();
  g.batch = 3;
  g.stride_b = -512;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: B batch stride -512: must be >= 0");
  g = base();
  g.batch = 3;
  g.c = C_;
  g.beta = 2.f;
  g.stride_c = -128;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: C batch stride -128: must be >= 0");
  g.stride_c = 0; /* one C for every batch */
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g = base();
  g.batch = 2;
  g.stride_d = -128;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: D batch stride -128: must be >= 0");
  g.stride_d = 0;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: D batch stride 0 < one matrix (128): batches would overlap");
  g.stride_d = 127;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: D batch stride 127 < one matrix (128)");
  g.stride_d = 128;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g.ldd = 24; /* one matrix is then (m - 1) * ldd + n = 184 */
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: D batch stride 128 < one matrix (184)");
  g = base();
  g.batch = 3;
  g.stride_a = g.stride_b = 0; /* broadcast A and B */
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g = base();
  g.batch = 3;
  g.stride_a = INT64_MAX / 4;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: A of 3 batches 2305843009213693951 apart overflows");
  g = base();
  g.batch = 3;
  g.stride_b = INT64_MAX / 4;
  EXPECT(c, kp_gemm(c, KP_BF16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: B of 3 batches");
  kp_ctx_destroy(c);
}
END_TEST

/* Enumerations, flags and scalars outside their sets. */
START_TEST(test_enums_and_scalars) {
  kp_ctx *c = kp_test_pack_only();
  kp_gemm_desc g = base();
  g.b_layout = (kp_b_layout)2;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: b_layout 2 is not KP_B_NK or KP_B_KN");
  g.b_layout = (kp_b_layout)-1;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: b_layout -1");
  g = base();
  g.act = (kp_act)4;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: act 4 is not a kp_act");
  g.act = (kp_act)-1;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: act -1 is not a kp_act");
  for (int a = KP_ACT_NONE; a <= KP_ACT_GELU_TANH; a++) {
    g.act = (kp_act)a;
    EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  }
  g = base();
  g.out_f32 = 2;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: out_f32=2: must be 0 or 1");
  g.out_f32 = -1;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: out_f32=-1");
  g = base();
  g.alpha = NAN;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: alpha=nan");
  g.alpha = 1.f;
  g.beta = -INFINITY;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "beta=-inf: must be finite");
  kp_ctx_destroy(c);
}
END_TEST

/* Every pointer must be aligned to its element: dt for A, B and bias; the
** output dtype (f32 with out_f32) for C and D. */
START_TEST(test_alignment) {
  kp_ctx *c = kp_test_pack_only();
  kp_gemm_desc g = base();
  EXPECT(c, kp_gemm(c, KP_F16, DEV(0x100001), B_, D_, &g, NULL), KP_ERR_MISALIGNED, "gemm: A=0x100001 is not aligned to 2 bytes");
  EXPECT(c, kp_gemm(c, KP_BF16, A_, DEV(0x200003), D_, &g, NULL), KP_ERR_MISALIGNED, "gemm: B=0x200003 is not aligned to 2 bytes");
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, DEV(0x300001), &g, NULL), KP_ERR_MISALIGNED, "gemm: D=0x300001 is not aligned to 2 bytes");
  g.bias = DEV(0x500001);
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_MISALIGNED, "gemm: bias=0x500001 is not aligned to 2 bytes");
  g = base();
  g.c = DEV(0x400001);
  g.beta = 0.5f;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_MISALIGNED, "gemm: C=0x400001 is not aligned to 2 bytes");
  /* element alignment is enough (a slow variant's business, not an error) */
  g = base();
  EXPECT(c, kp_gemm(c, KP_F16, DEV(0x100002), DEV(0x200006), DEV(0x300002), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  /* out_f32: C and D are f32 */
  g.out_f32 = 1;
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, DEV(0x300002), &g, NULL), KP_ERR_MISALIGNED, "gemm: D=0x300002 is not aligned to 4 bytes");
  g.c = DEV(0x400002);
  g.beta = 1.f;
  EXPECT(c, kp_gemm(c, KP_BF16, A_, B_, D_, &g, NULL), KP_ERR_MISALIGNED, "gemm: C=0x400002 is not aligned to 4 bytes");
  g.c = DEV(0x400004);
  EXPECT(c, kp_gemm(c, KP_BF16, A_, B_, DEV(0x300004), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  kp_ctx_destroy(c);
}
END_TEST

/* D must not overlap A, B or bias (in any batch), nor C unless it is C with
** C's strides; the spans are exact to the byte. */
START_TEST(test_overlaps) {
  kp_ctx *c = kp_test_pack_only();
  const uintptr_t a = 0x100000, b = 0x200000, d = 0x300000;
  kp_gemm_desc g = base(); /* A spans 8 * 32 f16 = 512 bytes; B 16 * 32 = 1024; D 8 * 16 = 256 */
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(a), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps A");
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(a + 510), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps A");
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(a + 512), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(a - 256), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(a - 254), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps A");
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(b + 1022), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps B");
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(b + 1024), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g.bias = DEV(d + 200);
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps bias");
  g.bias = DEV(d + 256);
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  /* out_f32: D spans 512 bytes, so a bias at +256 is inside it */
  g.out_f32 = 1;
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps bias");
  /* the later batches of A count too */
  g = base();
  g.batch = 2;
  g.stride_a = 0x1000;
  g.stride_d = 128;
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(a + 0x2000), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps A");
  g.stride_a = 0; /* broadcast: one A matrix */
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(a + 0x2000), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  /* C: in place is fine with C's strides, partial overlap is not */
  g = base();
  g.beta = 1.f;
  g.c = DEV(d);
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g.c = DEV(d + 2);
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_INVALID_ARG, "gemm: D overlaps C without being C");
  g.beta = 0.f; /* C not read: no constraint */
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  g.beta = 1.f;
  g.c = DEV(d);
  g.ldc = 24;
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_INVALID_ARG, "gemm: C == D with other strides (ldc 24, ldd 16)");
  g.ldc = 16;
  g.batch = 2;
  g.stride_d = 128;
  g.stride_c = 256;
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_INVALID_ARG, "gemm: C == D with other strides");
  g.stride_c = 128;
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(b), DEV(d), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  /* A, B, C and bias may share memory: they are only read */
  g = base();
  g.beta = 1.f;
  g.c = DEV(a);
  g.ldc = 32;
  g.bias = DEV(a);
  EXPECT(c, kp_gemm(c, KP_F16, DEV(a), DEV(a), DEV(d), &g, NULL), KP_ERR_NO_DEVICE, "gemm");
  kp_ctx_destroy(c);
}
END_TEST

/* The first failing check decides, and a failure leaves no stale message:
** a later valid call reports its own outcome. */
START_TEST(test_first_error_wins) {
  kp_ctx *c = kp_test_pack_only();
  kp_gemm_desc g = base();
  g.m = 0;
  g.lda = 1;
  g.act = (kp_act)9;
  EXPECT(c, kp_gemm(c, KP_F32, NULL, NULL, NULL, &g, NULL), KP_ERR_INVALID_ARG, "gemm: m=0");
  g = base();
  g.act = (kp_act)9;
  g.lda = 1;
  EXPECT(c, kp_gemm(c, KP_F16, NULL, B_, D_, &g, NULL), KP_ERR_INVALID_ARG, "gemm: act 9");
  g = base();
  EXPECT(c, kp_gemm(c, KP_F16, A_, B_, D_, &g, NULL), KP_ERR_NO_DEVICE, "gemm: context has no device");
  kp_ctx_destroy(c);
}
END_TEST

Suite *gemm_suite(void) {
  Suite *s = suite_create("gemm");
  TCase *tc = tcase_create("misuse");
  tcase_add_test(tc, test_desc_init);
  tcase_add_test(tc, test_null_and_dtype);
  tcase_add_test(tc, test_dims);
  tcase_add_test(tc, test_leading_dims);
  tcase_add_test(tc, test_batch_strides);
  tcase_add_test(tc, test_enums_and_scalars);
  tcase_add_test(tc, test_alignment);
  tcase_add_test(tc, test_overlaps);
  tcase_add_test(tc, test_first_error_wins);
  suite_add_tcase(s, tc);
  return s;
}
