/*
** check_api.c -- the public API under misuse, without needing a GPU: every
** bad argument gives its status and a message naming the op and the
** argument; nothing crashes.  Uses a pack-only context (KP_NO_DEVICE), so a
** call that passes every check reports KP_ERR_NO_DEVICE instead of launching.
*/
#include <check.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "kernpack.h"

/* A context without a device on the built sm_90a pack (check_suites.h). */
kp_ctx *kp_test_pack_only(void) {
  const char *dir = getenv("KP_PACK_DIR");
  ck_assert_msg(dir != NULL, "KP_PACK_DIR must point at the built packs");
  char path[1024];
  snprintf(path, sizeof path, "%s/sm_90a.kpk", dir);
  kp_options o;
  kp_options_init(&o);
  o.device = KP_NO_DEVICE;
  o.pack_path = path;
  kp_ctx *ctx = NULL;
  kp_status s = kp_ctx_create(&o, &ctx);
  ck_assert_msg(s == KP_OK, "%s: %s", kp_status_name(s), kp_ctx_errmsg(ctx));
  return ctx;
}
#define pack_only kp_test_pack_only

/* Every status has a distinct name and a text; unknown values are labelled. */
START_TEST(test_status_names) {
  for (int i = 0; i < KP_STATUS_COUNT_; i++) {
    ck_assert_ptr_nonnull(kp_status_name((kp_status)i));
    ck_assert_ptr_nonnull(kp_strerror((kp_status)i));
    ck_assert_str_ne(kp_status_name((kp_status)i), "KP_UNKNOWN");
    for (int j = 0; j < i; j++)
      ck_assert_str_ne(kp_status_name((kp_status)i), kp_status_name((kp_status)j));
  }
  ck_assert_str_eq(kp_status_name(KP_OK), "KP_OK");
  ck_assert_str_eq(kp_status_name((kp_status)999), "KP_UNKNOWN");
  ck_assert_str_eq(kp_dtype_name(KP_BF16), "bf16");
  ck_assert_ptr_null(kp_dtype_name((kp_dtype)7));
  ck_assert_uint_eq(kp_dtype_size(KP_F32), 4);
  ck_assert_uint_eq(kp_dtype_size((kp_dtype)7), 0);
  ck_assert_str_eq(kp_version(), KP_VERSION_STRING);
}
END_TEST

/* Creating a context on the real device reports a clear status either way:
** OK on a GPU machine, NO_DRIVER/NO_DEVICE with a message elsewhere. */
START_TEST(test_create_default) {
  kp_ctx *ctx = NULL;
  kp_status s = kp_ctx_create(NULL, &ctx);
  ck_assert_msg(s == KP_OK || s == KP_ERR_NO_DRIVER || s == KP_ERR_NO_DEVICE, "%s: %s",
                kp_status_name(s), kp_ctx_errmsg(ctx));
  if (s != KP_OK) ck_assert_str_ne(kp_ctx_errmsg(ctx), "");
  kp_ctx_destroy(ctx);
  kp_ctx_destroy(NULL); /* harmless */
  ck_assert_int_eq(kp_ctx_create(NULL, NULL), KP_ERR_INVALID_ARG);
}
END_TEST

/* A missing or corrupt pack file is refused with the file named. */
START_TEST(test_bad_pack_files) {
  kp_options o;
  kp_options_init(&o);
  o.device = KP_NO_DEVICE;
  o.pack_path = "/nonexistent/sm_90a.kpk";
  kp_ctx *ctx = NULL;
  EXPECT(ctx, kp_ctx_create(&o, &ctx), KP_ERR_PACK_NOT_FOUND, "/nonexistent/sm_90a.kpk");
  kp_ctx_destroy(ctx);
  char path[] = "/tmp/kp_bad_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, "KERNPACK garbage garbage", 24), 24);
  close(fd);
  o.pack_path = path;
  EXPECT(ctx, kp_ctx_create(&o, &ctx), KP_ERR_PACK_CORRUPT, path);
  kp_ctx_destroy(ctx);
  unlink(path);
}
END_TEST

/* Shape, dtype, stride, pointer and eps errors for the row ops. */
START_TEST(test_row_op_misuse) {
  kp_ctx *c = pack_only();
  void *x = DEV(0x10000), *y = DEV(0x20000), *w = DEV(0x30000);
  EXPECT(NULL, kp_softmax(NULL, KP_F32, x, 8, y, 8, 1, 8, NULL), KP_ERR_INVALID_ARG, "ctx is NULL");
  EXPECT(c, kp_softmax(c, (kp_dtype)9, x, 8, y, 8, 1, 8, NULL), KP_ERR_UNSUPPORTED, "dtype 9");
  EXPECT(c, kp_softmax(c, KP_F32, x, 8, y, 8, 0, 8, NULL), KP_ERR_INVALID_ARG, "rows=0");
  EXPECT(c, kp_softmax(c, KP_F32, x, 8, y, 8, 1, 0, NULL), KP_ERR_INVALID_ARG, "softmax: cols=0");
  EXPECT(c, kp_softmax(c, KP_F32, x, 8, y, 8, -5, 8, NULL), KP_ERR_INVALID_ARG, "rows=-5");
  EXPECT(c, kp_softmax(c, KP_F32, x, 8, y, 8, (int64_t)INT_MAX + 1, 8, NULL), KP_ERR_UNSUPPORTED, "rows=");
  EXPECT(c, kp_softmax(c, KP_F32, x, 4, y, 8, 2, 8, NULL), KP_ERR_INVALID_ARG, "x row stride 4");
  EXPECT(c, kp_softmax(c, KP_F32, NULL, 8, y, 8, 1, 8, NULL), KP_ERR_INVALID_ARG, "x is NULL");
  EXPECT(c, kp_softmax(c, KP_BF16, DEV(0x10001), 8, y, 8, 1, 8, NULL), KP_ERR_MISALIGNED, "x=");
  EXPECT(c, kp_softmax(c, KP_F32, x, INT64_MAX / 2, y, 8, 1000, 8, NULL), KP_ERR_INVALID_ARG, "overflows");
  EXPECT(c, kp_rmsnorm(c, KP_F16, x, 8, NULL, y, 8, 1, 8, 1e-6f, NULL), KP_ERR_INVALID_ARG, "w is NULL");
  EXPECT(c, kp_rmsnorm(c, KP_F16, x, 8, w, y, 8, 1, 8, -1.f, NULL), KP_ERR_INVALID_ARG, "eps");
  EXPECT(c, kp_add_rmsnorm(c, KP_BF16, x, 8, NULL, 8, w, y, 8, 1, 8, 1e-6f, NULL), KP_ERR_INVALID_ARG, "residual is NULL");
  EXPECT(c, kp_swiglu(c, KP_BF16, x, x, 8, DEV(0x20003), 8, 1, 8, NULL), KP_ERR_MISALIGNED, "y=");
  EXPECT(c, kp_geglu(c, KP_BF16, (kp_gelu)3, x, x, 8, y, 8, 1, 8, NULL), KP_ERR_INVALID_ARG, "form 3");
  EXPECT(c, kp_rmsnorm_swiglu(c, KP_F32, x, 15, w, y, 8, 2, 8, 1e-6f, NULL), KP_ERR_INVALID_ARG, "x row stride 15 < row length 16");
  /* all checks pass: a pack-only context cannot launch */
  EXPECT(c, kp_softmax(c, KP_F32, x, 8, y, 8, 3, 8, NULL), KP_ERR_NO_DEVICE, "softmax");
  EXPECT(c, kp_swiglu(c, KP_F16, x, w, 8, y, 8, 3, 8, NULL), KP_ERR_NO_DEVICE, "swiglu");
  kp_ctx_destroy(c);
}
END_TEST

/* RoPE descriptor errors. */
START_TEST(test_rope_misuse) {
  kp_ctx *c = pack_only();
  void *q = DEV(0x10000), *k = DEV(0x90000);
  kp_rope_desc d = {.tokens = 4, .heads_q = 2, .heads_k = 1, .head_dim = 64, .rot_dim = 64,
                    .q_stride_token = 128, .q_stride_head = 64, .k_stride_token = 64,
                    .k_stride_head = 64, .layout = KP_ROPE_NEOX, .theta = 10000.f};
  EXPECT(c, kp_rope(c, KP_BF16, q, k, NULL, NULL), KP_ERR_INVALID_ARG, "desc is NULL");
  kp_rope_desc b = d;
  b.rot_dim = 65;
  EXPECT(c, kp_rope(c, KP_BF16, q, k, &b, NULL), KP_ERR_INVALID_ARG, "rot_dim=65");
  b = d;
  b.q_stride_token = 100;
  EXPECT(c, kp_rope(c, KP_BF16, q, k, &b, NULL), KP_ERR_INVALID_ARG, "q token stride 100");
  b = d;
  b.theta = 0.f;
  EXPECT(c, kp_rope(c, KP_BF16, q, k, &b, NULL), KP_ERR_INVALID_ARG, "theta");
  b = d;
  b.cos = (const float *)DEV(0x40000);
  EXPECT(c, kp_rope(c, KP_BF16, q, k, &b, NULL), KP_ERR_INVALID_ARG, "both cos and sin");
  b = d;
  b.heads_q = b.heads_k = 0;
  EXPECT(c, kp_rope(c, KP_BF16, q, k, &b, NULL), KP_ERR_INVALID_ARG, "heads_q=0");
  b = d;
  b.layout = (kp_rope_layout)5;
  EXPECT(c, kp_rope(c, KP_BF16, q, k, &b, NULL), KP_ERR_INVALID_ARG, "layout 5");
  EXPECT(c, kp_rope(c, KP_BF16, q, k, &d, NULL), KP_ERR_NO_DEVICE, "rope");
  kp_ctx_destroy(c);
}
END_TEST

typedef struct { kp_ctx *c; int rows; char msg[256]; } thr_arg;

static void *thr(void *p) {
  thr_arg *a = p;
  for (int i = 0; i < 1000; i++) {
    kp_softmax(a->c, KP_F32, DEV(0x10000), 8, DEV(0x20000), 8, a->rows, 8, NULL);
    snprintf(a->msg, sizeof a->msg, "%s", kp_ctx_errmsg(a->c));
    if (!strstr(a->msg, a->rows == 0 ? "rows=0" : "rows=-1")) return a;
  }
  return NULL;
}

/* Threads failing differently on one ctx each read their own message. */
START_TEST(test_errmsg_per_thread) {
  kp_ctx *c = pack_only();
  thr_arg a = {c, 0, ""}, b = {c, -1, ""};
  pthread_t ta, tb;
  void *ra, *rb;
  pthread_create(&ta, NULL, thr, &a);
  pthread_create(&tb, NULL, thr, &b);
  pthread_join(ta, &ra);
  pthread_join(tb, &rb);
  ck_assert_msg(ra == NULL, "thread A read '%s'", a.msg);
  ck_assert_msg(rb == NULL, "thread B read '%s'", b.msg);
  kp_ctx_destroy(c);
}
END_TEST

Suite *api_suite(void) {
  Suite *s = suite_create("api");
  TCase *tc = tcase_create("misuse");
  tcase_add_test(tc, test_status_names);
  tcase_add_test(tc, test_create_default);
  tcase_add_test(tc, test_bad_pack_files);
  tcase_add_test(tc, test_row_op_misuse);
  tcase_add_test(tc, test_rope_misuse);
  tcase_add_test(tc, test_errmsg_per_thread);
  suite_add_tcase(s, tc);
  return s;
}
