/*
** check_suites.h -- one suite per module; check_main.c runs them all.
*/
#ifndef KP_CHECK_SUITES_H
#define KP_CHECK_SUITES_H

#include <check.h>

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

/* GPU cases live in TCases made with KP_GPU_TCASE (tag "gpu") and are added
** with KP_ADD_GPU_TEST / KP_ADD_GPU_LOOP_TEST, which count them for the
** "SKIPPED: N GPU test cases" line printed without a GPU. */
void kp_count_gpu_tests(int n);
int kp_gpu_test_count(void);
#define KP_GPU_TCASE(var, name) \
  TCase *var = tcase_create(name); tcase_set_tags(var, "gpu"); tcase_set_timeout(var, 600)
#define KP_ADD_GPU_TEST(tc, fn) do { tcase_add_test(tc, fn); kp_count_gpu_tests(1); } while (0)
#define KP_ADD_GPU_LOOP_TEST(tc, fn, s, e) \
  do { tcase_add_loop_test(tc, fn, s, e); kp_count_gpu_tests((e) - (s)); } while (0)

#endif
