/*
** check_suites.h -- one suite per module; check_main.c runs them all.
*/
#ifndef KP_CHECK_SUITES_H
#define KP_CHECK_SUITES_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernpack.h"

Suite *gen_suite(void);          /* check_gen.c: templates, generator, template errors */
Suite *pack_suite(void);         /* check_pack.c: pack round trip, corrupt/hostile input */
Suite *select_suite(void);       /* check_select.c: applicability and ranking */
Suite *api_suite(void);          /* check_api.c: misuse without a GPU */
Suite *packs_built_suite(void);  /* check_packs_built.c: every variant on every target */
Suite *ops_gpu_suite(void);      /* check_ops_gpu.c: every op vs a float64 reference */
Suite *tune_suite(void);         /* check_tune.c: the autotune table and its rules */
Suite *jit_suite(void);          /* check_jit.c: run-time compilation and the disk cache */
Suite *concurrency_suite(void);  /* check_concurrency.c: one ctx, many threads */
Suite *variants_gpu_suite(void); /* check_variants_gpu.c: every variant forced, vs float64 */
Suite *regen_suite(void);        /* check_regen.c: variant spaces, kpgen extend, kp regen */
Suite *gemm_suite(void);         /* check_gemm.c: kp_gemm misuse without a GPU */
Suite *gemm_gpu_suite(void);     /* check_gemm_gpu.c: every gemm variant forced, vs float64 */
Suite *sass_suite(void);         /* check_sass.c: the gemm cubins' instructions */
Suite *attention_suite(void);    /* check_attention.c: kp_attention misuse without a GPU */
Suite *attention_gpu_suite(void); /* check_attention_gpu.c: every attention variant, vs float64 */
Suite *graph_gpu_suite(void);    /* check_graph_gpu.c: row ops in CUDA graphs and with PDL */

/* Misuse tests without a GPU (check_api.c, check_gemm.c): a pack-only
** context (KP_NO_DEVICE) on $KP_PACK_DIR/sm_90a.kpk, so a call that passes
** every check reports KP_ERR_NO_DEVICE instead of launching; fake device
** addresses (DEV) are never dereferenced.  EXPECT: the status and a
** substring of the context's message. */
kp_ctx *kp_test_pack_only(void);
#define DEV(a) ((void *)(uintptr_t)(a))
#define EXPECT(ctx, call, status, needle)                                                  \
  do {                                                                                     \
    kp_status s_ = (call);                                                                 \
    ck_assert_msg(s_ == (status), "%s -> %s (%s), expected %s", #call, kp_status_name(s_), \
                  kp_ctx_errmsg(ctx), kp_status_name(status));                             \
    ck_assert_msg(strstr(kp_ctx_errmsg(ctx), (needle)) != NULL,                            \
                  "%s: message '%s' lacks '%s'", #call, kp_ctx_errmsg(ctx), (needle));      \
  } while (0)

/* GPU cases live in TCases made with KP_GPU_TCASE (tag "gpu") and are added
** with KP_ADD_GPU_TEST / KP_ADD_GPU_LOOP_TEST, which count them for the
** "SKIPPED: N GPU test cases" line printed without a GPU. */
void kp_count_gpu_tests(int n);
int kp_gpu_test_count(void);

/* $KP_TEST_ONLY narrows the every-variant tests (sanitizer runs, a GPU call
** split across lanes): alternatives separated by '|', a variant taken when
** its name holds one of them; a leading '!' takes the others instead
** ("_pc|_sk", "!_pc").  Unset or empty: every variant. */
static inline int kp_test_only(const char *name) {
  const char *only = getenv("KP_TEST_ONLY");
  if (!only || !*only) return 1;
  const int neg = *only == '!';
  const char *p = only + neg;
  int hit = 0;
  while (!hit) {
    const char *bar = strchr(p, '|');
    const size_t n = bar ? (size_t)(bar - p) : strlen(p);
    char alt[128];
    if (n && n < sizeof alt) {
      memcpy(alt, p, n), alt[n] = 0;
      hit = strstr(name, alt) != NULL;
    }
    if (!bar) break;
    p = bar + 1;
  }
  return hit != neg;
}
#define KP_GPU_TCASE(var, name) \
  TCase *var = tcase_create(name); tcase_set_tags(var, "gpu"); tcase_set_timeout(var, 600)
#define KP_ADD_GPU_TEST(tc, fn) do { tcase_add_test(tc, fn); kp_count_gpu_tests(1); } while (0)
#define KP_ADD_GPU_LOOP_TEST(tc, fn, s, e) \
  do { tcase_add_loop_test(tc, fn, s, e); kp_count_gpu_tests((e) - (s)); } while (0)

#endif
