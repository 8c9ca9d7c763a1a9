/*
** check_attention.c -- kp_attention under misuse, without a GPU: every bad
** argument gives its documented status and a message naming it, and a call
** that passes every check reaches the launch (KP_ERR_NO_DEVICE on the
** pack-only context of check_suites.h), so nothing was launched and nothing
** written before it.  That nothing is written on a real device is checked by
** check_attention_gpu.c (rejects_write_nothing).
**
** The valid call everything starts from: batch 2, 4 query heads over 2 KV
** heads, len_q 8, len_k 16, head dim 64, packed (batch, seq, heads, dim), at
** fake 16-byte aligned addresses far apart.
*/
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"
#include "kernpack.h"

#define Q_ DEV(0x100000)
#define K_ DEV(0x200000)
#define V_ DEV(0x300000)
#define O_ DEV(0x400000)
#define LSE_ ((float *)DEV(0x500000))

static kp_attn_desc base(void) {
  kp_attn_desc d;
  kp_attn_desc_init(&d, 2, 4, 2, 8, 16, 64);
  return d;
}

#define CALL(c, d) kp_attention((c), KP_F16, Q_, K_, V_, O_, &(d), NULL)

/* One int64 field of the base call changed, and what the call must say. */
typedef struct field_case {
  size_t off; /* offsetof(kp_attn_desc, field) */
  int64_t v;
  kp_status st;
  const char *needle;
} field_case;
#define F_(field) offsetof(kp_attn_desc, field)

static void expect_fields(kp_ctx *c, const field_case *T, size_t n) {
  for (size_t i = 0; i < n; i++) {
    kp_attn_desc d = base();
    memcpy((char *)&d + T[i].off, &T[i].v, sizeof T[i].v);
    EXPECT(c, CALL(c, d), T[i].st, T[i].needle);
  }
}

/* kp_attn_desc_init: the documented defaults, every field. */
START_TEST(test_desc_init) {
  kp_attn_desc d;
  memset(&d, 0x5A, sizeof d); /* init must overwrite everything */
  kp_attn_desc_init(&d, 3, 8, 2, 5, 7, 128);
  ck_assert_int_eq(d.batch, 3);
  ck_assert_int_eq(d.heads_q, 8);
  ck_assert_int_eq(d.heads_kv, 2);
  ck_assert_int_eq(d.len_q, 5);
  ck_assert_int_eq(d.len_k, 7);
  ck_assert_int_eq(d.head_dim, 128);
  ck_assert_int_eq(d.q_stride_head, 128);
  ck_assert_int_eq(d.q_stride_seq, 8 * 128);
  ck_assert_int_eq(d.q_stride_batch, 5 * 8 * 128);
  ck_assert_int_eq(d.o_stride_head, 128);
  ck_assert_int_eq(d.o_stride_seq, 8 * 128);
  ck_assert_int_eq(d.o_stride_batch, 5 * 8 * 128);
  ck_assert_int_eq(d.k_stride_head, 128);
  ck_assert_int_eq(d.k_stride_seq, 2 * 128);
  ck_assert_int_eq(d.k_stride_batch, 7 * 2 * 128);
  ck_assert_int_eq(d.v_stride_head, 128);
  ck_assert_int_eq(d.v_stride_seq, 2 * 128);
  ck_assert_int_eq(d.v_stride_batch, 7 * 2 * 128);
  ck_assert(fabsf(d.scale - 1.f / sqrtf(128.f)) < 1e-7f);
  ck_assert_int_eq(d.causal, 0);
  ck_assert_int_eq(d.window_left, -1);
  ck_assert_int_eq(d.window_right, -1);
  ck_assert_ptr_null(d.lse);
  ck_assert_ptr_null(d.cu_seqlens_q);
  ck_assert_ptr_null(d.cu_seqlens_k);
  ck_assert_ptr_null(d.block_table);
  ck_assert_int_eq(d.block_table_stride, 0);
  ck_assert_int_eq(d.page_size, 0);
  ck_assert_int_eq(d.num_pages, 0);
  ck_assert_int_eq(d.total_q, 0);
  ck_assert_int_eq(d.total_k, 0);
  ck_assert_ptr_null(d.workspace);
  ck_assert_int_eq(d.workspace_bytes, 0);
  ck_assert_int_eq(d.reserved_, 0);
  ck_assert_int_eq(d.workspace_zeroed, 0);
  /* the valid call these tests start from reaches the launch, in both dtypes */
  kp_ctx *c = kp_test_pack_only();
  kp_attn_desc b = base();
  EXPECT(c, CALL(c, b), KP_ERR_NO_DEVICE, "attention: context has no device");
  EXPECT(c, kp_attention(c, KP_BF16, Q_, K_, V_, O_, &b, NULL), KP_ERR_NO_DEVICE, "attention");
  kp_ctx_destroy(c);
}
END_TEST

/* NULL context, descriptor and tensors; dtypes other than f16/bf16. */
START_TEST(test_null_and_dtype) {
  kp_ctx *c = kp_test_pack_only();
  kp_attn_desc d = base();
  EXPECT(NULL, kp_attention(NULL, KP_F16, Q_, K_, V_, O_, &d, NULL), KP_ERR_INVALID_ARG, "attention: ctx is NULL");
  EXPECT(c, kp_attention(c, KP_F16, Q_, K_, V_, O_, NULL, NULL), KP_ERR_INVALID_ARG, "attention: desc is NULL");
  EXPECT(c, kp_attention(c, KP_F16, NULL, K_, V_, O_, &d, NULL), KP_ERR_INVALID_ARG, "attention: q is NULL");
  EXPECT(c, kp_attention(c, KP_F16, Q_, NULL, V_, O_, &d, NULL), KP_ERR_INVALID_ARG, "attention: k is NULL");
  EXPECT(c, kp_attention(c, KP_F16, Q_, K_, NULL, O_, &d, NULL), KP_ERR_INVALID_ARG, "attention: v is NULL");
  EXPECT(c, kp_attention(c, KP_F16, Q_, K_, V_, NULL, &d, NULL), KP_ERR_INVALID_ARG, "attention: o is NULL");
  EXPECT(c, kp_attention(c, KP_F32, Q_, K_, V_, O_, &d, NULL), KP_ERR_UNSUPPORTED, "attention: dtype f32: must be f16 or bf16");
  EXPECT(c, kp_attention(c, (kp_dtype)9, Q_, K_, V_, O_, &d, NULL), KP_ERR_UNSUPPORTED, "attention: dtype 9");
  EXPECT(c, kp_attention(c, (kp_dtype)-1, Q_, K_, V_, O_, &d, NULL), KP_ERR_UNSUPPORTED, "attention: dtype -1");
  kp_ctx_destroy(c);
}
END_TEST

/* Sizes: zero and negative are invalid, beyond the kernels' range
** unsupported; heads_kv must divide heads_q. */
START_TEST(test_sizes) {
  kp_ctx *c = kp_test_pack_only();
  static const field_case T[] = {
      {F_(batch), 0, KP_ERR_INVALID_ARG, "attention: batch=0: must be >= 1"},
      {F_(batch), -1, KP_ERR_INVALID_ARG, "attention: batch=-1"},
      {F_(batch), (int64_t)INT_MAX + 1, KP_ERR_UNSUPPORTED, "attention: batch=2147483648: at most 2147483647"},
      {F_(heads_q), 0, KP_ERR_INVALID_ARG, "attention: heads_q=0"},
      {F_(heads_q), INT64_MIN, KP_ERR_INVALID_ARG, "attention: heads_q=-9223372036854775808"},
      {F_(heads_kv), 0, KP_ERR_INVALID_ARG, "attention: heads_kv=0"},
      {F_(heads_kv), 3, KP_ERR_INVALID_ARG, "attention: heads_kv=3 does not divide heads_q=4"},
      {F_(heads_kv), 8, KP_ERR_INVALID_ARG, "attention: heads_kv=8 does not divide heads_q=4"},
      {F_(len_q), 0, KP_ERR_INVALID_ARG, "attention: len_q=0: must be >= 1"},
      {F_(len_q), (1ll << 29) + 1, KP_ERR_UNSUPPORTED, "attention: len_q=536870913: at most 536870912"},
      {F_(len_k), -5, KP_ERR_INVALID_ARG, "attention: len_k=-5"},
      {F_(len_k), (1ll << 29) + 1, KP_ERR_UNSUPPORTED, "attention: len_k=536870913"},
      {F_(head_dim), 0, KP_ERR_INVALID_ARG, "attention: head_dim=0: must be >= 1"},
      {F_(head_dim), 257, KP_ERR_UNSUPPORTED, "attention: head_dim=257: at most 256"},
  };
  expect_fields(c, T, sizeof T / sizeof T[0]);
  /* batch * heads_q must fit the grid's int */
  kp_attn_desc d = base();
  d.batch = 1 << 16, d.heads_q = 1 << 15, d.heads_kv = 1;
  EXPECT(c, CALL(c, d), KP_ERR_UNSUPPORTED, "attention: batch*heads_q = 65536*32768");
  /* the largest sizes that pass (fake addresses: strides are only checked) */
  kp_attn_desc_init(&d, 1, 1, 1, 1ll << 29, 1ll << 29, 256); /* 256 GB each, 1 TB apart */
  EXPECT(c, kp_attention(c, KP_F16, DEV(1ull << 40), DEV(2ull << 40), DEV(3ull << 40),
                         DEV(4ull << 40), &d, NULL), KP_ERR_NO_DEVICE, "attention");
  /* GQA and MQA */
  kp_attn_desc_init(&d, 2, 8, 1, 3, 5, 96);
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  kp_ctx_destroy(c);
}
END_TEST

/* scale, causal and the window: each out of range is refused. */
START_TEST(test_scale_and_mask) {
  kp_ctx *c = kp_test_pack_only();
  static const float bad_scale[] = {0.f, -0.125f, NAN, INFINITY, -INFINITY, FLT_MAX};
  for (size_t i = 0; i < sizeof bad_scale / sizeof bad_scale[0]; i++) {
    kp_attn_desc d = base();
    d.scale = bad_scale[i];
    EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: scale=");
  }
  static const field_case T[] = {
      {F_(window_left), -2, KP_ERR_INVALID_ARG, "attention: window_left=-2 window_right=-1: each must be >= -1"},
      {F_(window_right), INT64_MIN, KP_ERR_INVALID_ARG, "window_right=-9223372036854775808"},
  };
  expect_fields(c, T, sizeof T / sizeof T[0]);
  kp_attn_desc d = base();
  d.causal = 2;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: causal=2: must be 0 or 1");
  d.causal = -1;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: causal=-1");
  /* valid masks: causal, windows of every kind, huge windows (no bound) */
  static const int64_t W[][3] = {{1, -1, -1}, {0, 0, 0}, {0, 3, 5}, {1, 4, -1},
                                 {0, INT64_MAX, INT64_MAX}, {1, INT64_MAX, 0}};
  for (size_t i = 0; i < sizeof W / sizeof W[0]; i++) {
    d = base();
    d.causal = (int)W[i][0], d.window_left = W[i][1], d.window_right = W[i][2];
    d.scale = i % 2 ? 1e-3f : 30.f;
    EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  }
  kp_ctx_destroy(c);
}
END_TEST

/* The reserved field must be zero; the paged-KV fields are checked without
** a block table. */
START_TEST(test_reserved) {
  kp_ctx *c = kp_test_pack_only();
  kp_attn_desc d = base();
  d.reserved_ = 7;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: reserved_=7: must be 0");
  d.reserved_ = 0;
  d.workspace_zeroed = 2;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: workspace_zeroed=2: must be 0 or 1");
  static const field_case T[] = {
      {F_(page_size), 16, KP_ERR_INVALID_ARG, "attention: page_size=16 block_table_stride=0 num_pages=0 without a block_table"},
      {F_(block_table_stride), 4, KP_ERR_INVALID_ARG, "block_table_stride=4 num_pages=0 without a block_table"},
      {F_(num_pages), 9, KP_ERR_INVALID_ARG, "num_pages=9 without a block_table"},
  };
  expect_fields(c, T, sizeof T / sizeof T[0]);
  kp_ctx_destroy(c);
}
END_TEST

/* Varlen batches: each cu_seqlens 4-byte aligned with its total (>= 1,
** within int32) and no total without it; paged K and V take cu_seqlens_k as
** lengths only (no total_k); the packed extents (total_q tokens of Q, O and
** lse; the batch strides ignored) are what the overlap checks see; O and
** lse may not overlap the offsets. */
START_TEST(test_varlen) {
  kp_ctx *c = kp_test_pack_only();
  const int32_t *cu = (const int32_t *)DEV(0x600000), *cu2 = (const int32_t *)DEV(0x600100);
  kp_attn_desc d = base();
  d.cu_seqlens_q = cu;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG,
         "attention: total_q=0 with cu_seqlens_q: must be in [1, 2147483647]");
  d.total_q = (int64_t)1 << 31;
  EXPECT(c, CALL(c, d), KP_ERR_UNSUPPORTED, "attention: total_q=2147483648 with cu_seqlens_q");
  d.total_q = 20;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention"); /* valid: reaches the launch */
  d.q_stride_batch = d.o_stride_batch = -5;              /* ignored with cu_seqlens_q */
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  d.cu_seqlens_q = (const int32_t *)DEV(0x600002);
  EXPECT(c, CALL(c, d), KP_ERR_MISALIGNED,
         "attention: cu_seqlens_q=0x600002 is not aligned to 4 bytes");
  d = base();
  d.total_q = 5;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: total_q=5 without cu_seqlens_q: must be 0");
  d = base();
  d.total_k = 3;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: total_k=3 without cu_seqlens_k: must be 0");
  d.cu_seqlens_k = (const int32_t *)DEV(0x600006);
  EXPECT(c, CALL(c, d), KP_ERR_MISALIGNED, "attention: cu_seqlens_k=0x600006 is not aligned");
  d.cu_seqlens_k = cu2, d.total_k = 0;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: total_k=0 with cu_seqlens_k");
  d.total_k = 40;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  d.cu_seqlens_q = cu, d.total_q = 1;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  /* paged: cu_seqlens_k gives lengths, total_k must stay 0 */
  d = base();
  d.block_table = (const int32_t *)DEV(0x700000);
  d.page_size = 8, d.num_pages = 4, d.block_table_stride = 2;
  d.cu_seqlens_k = cu, d.total_k = 16;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG,
         "attention: total_k=16 with a block_table (cu_seqlens_k gives lengths only): must be 0");
  d.total_k = 0;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  /* the offsets are read while O and lse are written */
  d = base();
  d.cu_seqlens_q = (const int32_t *)((char *)O_ + 64), d.total_q = 16;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: o overlaps cu_seqlens_q");
  d = base();
  d.lse = LSE_;
  d.cu_seqlens_k = (const int32_t *)((char *)LSE_ + 8), d.total_k = 16;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: lse overlaps cu_seqlens_k");
  /* the packed extents: 2049 tokens of o (512 bytes each) reach lse at
  ** +1 MB, 2048 stop just short; lse is (total_q, heads_q) f32 */
  d = base();
  d.lse = LSE_, d.cu_seqlens_q = cu, d.total_q = 2049;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: lse overlaps o");
  d.total_q = 2048;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  d.lse = (float *)((char *)Q_ - 2048 * 4 * 4 + 4); /* its last float is q's first */
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: lse overlaps q");
  kp_ctx_destroy(c);
}
END_TEST

/* A paged K and V (base: batch 2, len_k 16): page size, pages, the block
** table's stride and alignment, and O against the table. */
START_TEST(test_paged) {
  kp_ctx *c = kp_test_pack_only();
  const struct { int64_t page, pages, stride; uintptr_t bt; kp_status st; const char *needle; } T[] = {
      {0, 4, 4, 0x600000, KP_ERR_INVALID_ARG, "attention: page_size=0: must be in [1, "},
      {8, 0, 4, 0x600000, KP_ERR_INVALID_ARG, "attention: num_pages=0: must be in [1, "},
      {8, (int64_t)1 << 40, 4, 0x600000, KP_ERR_INVALID_ARG, "attention: num_pages=1099511627776"},
      {8, 4, 1, 0x600000, KP_ERR_INVALID_ARG, "attention: block_table_stride=1 < 2, the pages of len_k=16 keys"},
      {5, 4, 3, 0x600000, KP_ERR_INVALID_ARG, "block_table_stride=3 < 4"},
      {8, 4, -2, 0x600000, KP_ERR_INVALID_ARG, "block_table_stride=-2 < 2"},
      {8, 4, 4, 0x600002, KP_ERR_MISALIGNED, "attention: block_table=0x600002 is not aligned to 4 bytes"},
      {8, 4, 4, 0x400000, KP_ERR_INVALID_ARG, "attention: o overlaps block_table"},
      {8, 4, 4, 0x600000, KP_ERR_NO_DEVICE, "attention"}, /* valid: reaches the launch */
  };
  for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
    kp_attn_desc d = base();
    d.block_table = (const int32_t *)T[i].bt;
    d.page_size = T[i].page, d.num_pages = T[i].pages, d.block_table_stride = T[i].stride;
    EXPECT(c, CALL(c, d), T[i].st, T[i].needle);
  }
  kp_ctx_destroy(c);
}
END_TEST

/* Strides: negative ones, spans past the address space, an output whose
** rows overlap; the (batch, heads, seq, dim) layout and input rows that
** share elements (a broadcast key) are fine, and so is any stride of a
** dimension of size 1. */
START_TEST(test_strides) {
  kp_ctx *c = kp_test_pack_only();
  static const field_case T[] = {
      {F_(q_stride_seq), -1, KP_ERR_INVALID_ARG, "attention: q stride_seq=-1: must be >= 0"},
      {F_(v_stride_batch), -64, KP_ERR_INVALID_ARG, "attention: v stride_batch=-64"},
      {F_(k_stride_head), -1, KP_ERR_INVALID_ARG, "attention: k stride_head=-1"},
      {F_(k_stride_batch), INT64_MAX / 2, KP_ERR_INVALID_ARG,
       "attention: k with stride_batch=4611686018427387903 over 2 overflows"},
      {F_(o_stride_seq), INT64_MAX / 8, KP_ERR_INVALID_ARG, "attention: o with stride_seq"},
      /* the output's rows must not share elements */
      {F_(o_stride_head), 32, KP_ERR_INVALID_ARG, "attention: o stride_head=32 < 64: its rows overlap"},
      {F_(o_stride_seq), 0, KP_ERR_INVALID_ARG, "attention: o stride_seq=0 < 64"},
      /* one element short of a whole batch */
      {F_(o_stride_batch), 8 * 4 * 64 - 1, KP_ERR_INVALID_ARG, "attention: o stride_batch=2047 < 2048"},
  };
  expect_fields(c, T, sizeof T / sizeof T[0]);
  kp_attn_desc d;
  /* (batch, heads, seq, dim) for every tensor */
  d = base();
  d.q_stride_head = d.o_stride_head = 8 * 64, d.q_stride_seq = d.o_stride_seq = 64;
  d.k_stride_head = d.v_stride_head = 16 * 64, d.k_stride_seq = d.v_stride_seq = 64;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  /* inputs may share elements: one key row for every position and head */
  d = base();
  d.k_stride_seq = 0, d.k_stride_head = 0;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  /* strides of size-1 dimensions are never used */
  kp_attn_desc_init(&d, 1, 1, 1, 1, 16, 64);
  d.o_stride_batch = d.o_stride_seq = d.o_stride_head = 0;
  d.q_stride_batch = INT64_MAX;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  kp_ctx_destroy(c);
}
END_TEST

/* Pointers must be aligned to the element (lse to 4 bytes); strides need
** no more than that. */
START_TEST(test_alignment) {
  kp_ctx *c = kp_test_pack_only();
  kp_attn_desc d = base();
  EXPECT(c, kp_attention(c, KP_F16, DEV(0x100001), K_, V_, O_, &d, NULL), KP_ERR_MISALIGNED,
         "attention: q=0x100001 is not aligned to 2 bytes");
  EXPECT(c, kp_attention(c, KP_BF16, Q_, K_, DEV(0x300003), O_, &d, NULL), KP_ERR_MISALIGNED,
         "attention: v=0x300003");
  EXPECT(c, kp_attention(c, KP_BF16, Q_, K_, V_, DEV(0x400001), &d, NULL), KP_ERR_MISALIGNED,
         "attention: o=0x400001");
  d.lse = (float *)DEV(0x500002);
  EXPECT(c, CALL(c, d), KP_ERR_MISALIGNED, "attention: lse=0x500002 is not aligned to 4 bytes");
  /* odd strides and 2-byte aligned pointers: the fallback's business */
  kp_attn_desc_init(&d, 2, 3, 1, 7, 9, 63);
  d.lse = LSE_;
  EXPECT(c, kp_attention(c, KP_F16, DEV(0x100002), DEV(0x200006), V_, DEV(0x40000a), &d, NULL),
         KP_ERR_NO_DEVICE, "attention");
  kp_ctx_destroy(c);
}
END_TEST

/* The output may not overlap an input, and lse overlaps nothing. */
START_TEST(test_overlap) {
  kp_ctx *c = kp_test_pack_only();
  kp_attn_desc d = base();
  EXPECT(c, kp_attention(c, KP_F16, Q_, K_, V_, Q_, &d, NULL), KP_ERR_INVALID_ARG, "attention: o overlaps q");
  /* o's last element lands on v's first */
  const size_t o_bytes = (size_t)(2 * 8 * 4 * 64) * 2;
  EXPECT(c, kp_attention(c, KP_F16, Q_, K_, V_, (char *)V_ - o_bytes + 2, &d, NULL),
         KP_ERR_INVALID_ARG, "attention: o overlaps v");
  EXPECT(c, kp_attention(c, KP_F16, Q_, K_, V_, (char *)V_ - o_bytes, &d, NULL), KP_ERR_NO_DEVICE,
         "attention"); /* just below v */
  EXPECT(c, kp_attention(c, KP_F16, Q_, K_, V_, (char *)K_ + 128, &d, NULL), KP_ERR_INVALID_ARG,
         "attention: o overlaps k");
  d.lse = (float *)O_;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: lse overlaps o");
  d.lse = (float *)((char *)Q_ - 4); /* 64 floats: its last 63 are in q */
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: lse overlaps q");
  d.lse = (float *)((char *)Q_ - 2 * 4 * 8 * 4); /* ends where q begins */
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  kp_ctx_destroy(c);
}
END_TEST

/* The split-KV decode's workspace: its size for decode calls only, and a
** bad one refused before anything runs. */
START_TEST(test_workspace) {
  kp_ctx *c = kp_test_pack_only();
  kp_attn_desc d = base(); /* len_q 8: a decode call */
  size_t n = 1;
  ck_assert_int_eq(kp_attention_workspace_size(c, KP_BF16, &d, &n), KP_OK);
  ck_assert_msg(n > 0 && n % 16 == 0, "%zu bytes", n);
  size_t n2 = 0;
  d.head_dim = 256; /* the slots are sized for 256 whatever the call's */
  ck_assert_int_eq(kp_attention_workspace_size(c, KP_F16, &d, &n2), KP_OK);
  ck_assert_uint_eq(n2, n);
  d.batch *= 64; /* more packed tiles: more counters */
  ck_assert_int_eq(kp_attention_workspace_size(c, KP_F16, &d, &n2), KP_OK);
  ck_assert_uint_gt(n2, n);
  d.head_dim = 257; /* past every kernel's head dim: refused */
  EXPECT(c, kp_attention_workspace_size(c, KP_F16, &d, &n2), KP_ERR_UNSUPPORTED,
         "head_dim=257: at most 256");
  d = base();
  d.len_q = 17; /* prefill: none */
  ck_assert_int_eq(kp_attention_workspace_size(c, KP_F16, &d, &n), KP_OK);
  ck_assert_uint_eq(n, 0);
  EXPECT(c, kp_attention_workspace_size(c, KP_F32, &d, &n), KP_ERR_UNSUPPORTED,
         "attention_workspace_size: dtype f32: must be f16 or bf16");
  EXPECT(c, kp_attention_workspace_size(c, KP_F16, NULL, &n), KP_ERR_INVALID_ARG,
         "attention_workspace_size: desc is NULL");
  EXPECT(c, kp_attention_workspace_size(c, KP_F16, &d, NULL), KP_ERR_INVALID_ARG,
         "attention_workspace_size: bytes is NULL");
  d.heads_kv = 3;
  EXPECT(c, kp_attention_workspace_size(c, KP_F16, &d, &n), KP_ERR_INVALID_ARG,
         "heads_kv=3 does not divide heads_q=4");
  ck_assert_int_eq(kp_attention_workspace_size(NULL, KP_F16, &d, &n), KP_ERR_INVALID_ARG);
  /* on a call */
  d = base();
  d.workspace = DEV(0x600000), d.workspace_bytes = 1 << 16;
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention"); /* valid: reaches the launch */
  d.workspace_bytes = 16; /* too little: a variant that needs none */
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  d.workspace_bytes = -16;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG,
         "attention: workspace=0x600000 workspace_bytes=-16: give both (bytes > 0) or neither");
  d.workspace_bytes = 0;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "give both");
  d.workspace = NULL, d.workspace_bytes = 64;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: workspace=(nil) workspace_bytes=64");
  d.workspace = DEV(0x600008), d.workspace_bytes = 64;
  EXPECT(c, CALL(c, d), KP_ERR_MISALIGNED, "attention: workspace=0x600008 is not aligned to 16 bytes");
  d.workspace = (char *)O_ - 1024, d.workspace_bytes = 1040;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: workspace overlaps o");
  d.workspace_bytes = 1024; /* ends where o begins */
  EXPECT(c, CALL(c, d), KP_ERR_NO_DEVICE, "attention");
  d.workspace = (char *)Q_ + 4096, d.workspace_bytes = 64;
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: workspace overlaps q");
  d.workspace = DEV(0x600000), d.workspace_bytes = 1 << 16, d.lse = (float *)DEV(0x600100);
  EXPECT(c, CALL(c, d), KP_ERR_INVALID_ARG, "attention: workspace overlaps lse");
  kp_ctx_destroy(c);
}
END_TEST

/* "+wave" (kp_attn_wave_bit): a decode call (Lq <= 16) whose packed tiles,
** batch x KV heads x ceil(G Lq / 16), times the largest cluster (16) fit the
** SMs -- at the limit and one past it, in each term. */
START_TEST(test_wave_bit) {
  const uint32_t W = KP_ATTN_FORM_WAVE;
  ck_assert_uint_eq(W, 32);
  /* batch 1, 32 / 8 heads: 8 tiles, 128 CTAs */
  ck_assert_uint_eq(kp_attn_wave_bit(1, 32, 4, 132), W);
  ck_assert_uint_eq(kp_attn_wave_bit(1, 32, 4, 128), W);
  ck_assert_uint_eq(kp_attn_wave_bit(1, 32, 4, 127), 0);
  ck_assert_uint_eq(kp_attn_wave_bit(1, 64, 4, 132), 0); /* batch 2: 16 tiles */
  ck_assert_uint_eq(kp_attn_wave_bit(4, 32, 4, 132), W); /* G Lq = 16: still a tile a KV head */
  ck_assert_uint_eq(kp_attn_wave_bit(5, 32, 4, 132), 0); /* 20 rows: two */
  ck_assert_uint_eq(kp_attn_wave_bit(16, 8, 1, 132), W); /* MHA, 8 heads, 16 rows each */
  ck_assert_uint_eq(kp_attn_wave_bit(17, 8, 1, 1000), 0); /* not decode */
  ck_assert_uint_eq(kp_attn_wave_bit(1, 32, 0, 132), 0);  /* no group: never */
  ck_assert_uint_eq(kp_attn_wave_bit(1, 32, 4, 0), 0);    /* no device */
  ck_assert_uint_eq(kp_attn_wave_bit(1, 1, 1, 16), W);
}
END_TEST

/* On the real sm_90a pack: every valid attention call (f16/bf16, lengths
** from 1, head dims 1..256, element to 16-byte alignment, both forms) has a
** variant, with the kernels' signature; a 16-byte aligned call at head dim
** 64 or 128 gets a tensor-core one (not the fallback), and on an sm_80 or
** sm_86 device too (shared memory of 163 and 99 KB). */
START_TEST(test_pack_covers) {
  const char *dir = getenv("KP_PACK_DIR");
  ck_assert_msg(dir != NULL, "KP_PACK_DIR must point at the built packs (make test sets it)");
  char path[1024], err[600];
  snprintf(path, sizeof path, "%s/sm_90a.kpk", dir);
  kpk_pack pk;
  kp_status st = kpk_open(&pk, path, err, sizeof err);
  ck_assert_msg(st == KP_OK, "%s", err);
  static const kp_devprops dev[] = {{90, 227 * 1024, 132}, {80, 163 * 1024, 108}, {86, 99 * 1024, 84}};
  static const uint64_t len[] = {1, 63, 64, 65, 1000, 16384, 1u << 29};
  static const uint64_t hd[] = {1, 8, 40, 64, 96, 128, 200, 256};
  int fast = 0;
  for (size_t dv = 0; dv < sizeof dev / sizeof dev[0]; dv++)
    for (int dt = KP_F16; dt <= KP_BF16; dt++)
      for (uint32_t a = 2; a <= 16; a *= 2)
        for (size_t q = 0; q < sizeof len / sizeof len[0]; q++)
          for (size_t k = 0; k < sizeof len / sizeof len[0]; k += 2)
            for (size_t h = 0; h < sizeof hd / sizeof hd[0]; h++)
              for (uint32_t form = 0; form < 18; form += form == 1 ? 15 : 1) {
                kp_call c = {KP_FAM_ATTENTION, (kp_dtype)dt, a, form, {len[q], len[k], 1 + q * 37, hd[h]}};
                char why[700];
                const int i = kp_select_variant(&pk, &c, &dev[dv], why, sizeof why);
                ck_assert_msg(i >= 0, "%s", why);
                const kpk_entry *e = &pk.entries[i];
                ck_assert_str_eq(e->signature, kp_family_signature(KP_FAM_ATTENTION));
                ck_assert_str_eq(e->dims, kp_family_dims_text(KP_FAM_ATTENTION));
                const int want_fast = a == 16 && (hd[h] == 64 || hd[h] == 128);
                ck_assert_msg(!want_fast || !strstr(e->name, "_simple"),
                              "sm %d %s lq %llu d %llu: a 16-byte aligned call got %s", dev[dv].sm,
                              kp_dtype_name((kp_dtype)dt), (unsigned long long)len[q],
                              (unsigned long long)hd[h], e->name);
                fast += want_fast;
                /* with a workspace, a decode call takes the split-KV variant */
                const int want_sk = want_fast && dev[dv].smem_optin >= 110 * 1024 && (form & 16) &&
                                    len[q] <= 16 && len[k] >= 256;
                ck_assert_msg(!want_sk || (strstr(e->name, "_dec_") && strstr(e->name, "_sk")),
                              "sm %d lq %llu lk %llu d %llu form %u: got %s", dev[dv].sm,
                              (unsigned long long)len[q], (unsigned long long)len[k],
                              (unsigned long long)hd[h], form, e->name);
              }
  ck_assert_int_gt(fast, 0);
  kpk_close(&pk);
}
END_TEST

Suite *attention_suite(void) {
  Suite *s = suite_create("attention");
  TCase *tc = tcase_create("misuse");
  tcase_add_test(tc, test_desc_init);
  tcase_add_test(tc, test_null_and_dtype);
  tcase_add_test(tc, test_sizes);
  tcase_add_test(tc, test_scale_and_mask);
  tcase_add_test(tc, test_reserved);
  tcase_add_test(tc, test_varlen);
  tcase_add_test(tc, test_paged);
  tcase_add_test(tc, test_strides);
  tcase_add_test(tc, test_alignment);
  tcase_add_test(tc, test_overlap);
  tcase_add_test(tc, test_workspace);
  tcase_add_test(tc, test_wave_bit);
  suite_add_tcase(s, tc);
  TCase *pc = tcase_create("pack");
  tcase_add_test(pc, test_pack_covers);
  suite_add_tcase(s, pc);
  return s;
}
