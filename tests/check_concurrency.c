/*
** check_concurrency.c -- one kp_ctx used from many threads at once: the
** first calls of new shapes race through selection, module loading and the
** per-call cache while other threads launch, each thread on its own stream
** and without a current CUDA context of its own (the library pushes its
** context).  Every result is then checked against float64.
*/
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_suites.h"
#include "gpu_harness.h"
#include "reference.h"

enum { THREADS = 8, CALLS = 40 };

typedef struct worker {
  kp_ctx *ctx;
  CUstream stream;
  ht x, w, y;
  int64_t rows, cols;
  kp_status status;
  char msg[512];
} worker;

static void *work(void *p) {
  worker *k = p;
  for (int i = 0; i < CALLS && k->status == KP_OK; i++) {
    k->status = kp_rmsnorm(k->ctx, KP_BF16, ht_dev(&k->x), k->cols, ht_dev(&k->w), ht_dev(&k->y),
                           k->cols, k->rows, k->cols, 1e-6f, k->stream);
    if (k->status != KP_OK) snprintf(k->msg, sizeof k->msg, "%s", kp_ctx_errmsg(k->ctx));
  }
  return NULL;
}

/* 8 threads, 8 different shapes (so 8 cache misses race), 40 calls each */
START_TEST(test_gpu_threads_share_ctx) {
  gpu g;
  gpu_open(&g, "threads_share_ctx", 0);
  static worker k[THREADS];
  for (int t = 0; t < THREADS; t++) {
    k[t].ctx = g.ctx;
    k[t].status = KP_OK;
    k[t].rows = 3 + 5 * t;
    k[t].cols = 64 + 1000 * t + t; /* odd sizes: the vec and fallback variants too */
    ht_make(&g, &k[t].x, KP_BF16, k[t].rows, k[t].cols, k[t].cols, 0, KP_POISON);
    ht_make(&g, &k[t].w, KP_BF16, 1, k[t].cols, k[t].cols, 0, KP_POISON);
    ht_make(&g, &k[t].y, KP_BF16, k[t].rows, k[t].cols, k[t].cols, 0, KP_POISON);
    ht_fill_uniform(&g, &k[t].x, -2, 2);
    ht_fill_uniform(&g, &k[t].w, 0.5, 1.5);
    hb_upload(&g, &k[t].x.b);
    hb_upload(&g, &k[t].w.b);
    hb_upload(&g, &k[t].y.b);
    CU(&g, cuStreamCreate(&k[t].stream, CU_STREAM_NON_BLOCKING));
  }
  CU(&g, cuCtxSynchronize()); /* the pageable uploads have landed */
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, work, &k[t]);
  for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
  gpu_sync(&g, "threads");
  for (int t = 0; t < THREADS; t++) {
    gpu_case(&g, "thread %d rmsnorm bf16 %lldx%lld", t, (long long)k[t].rows, (long long)k[t].cols);
    if (k[t].status != KP_OK) {
      gpu_fail(&g, "kp_rmsnorm: %s: %s", kp_status_name(k[t].status), k[t].msg);
      continue;
    }
    int64_t n = k[t].rows * k[t].cols;
    double *ref = malloc(sizeof(double) * (size_t)n);
    for (int64_t r = 0; r < k[t].rows; r++)
      ref_rmsnorm_row(k[t].x.val + r * k[t].cols, k[t].w.val, ref + r * k[t].cols, k[t].cols, 1e-6);
    ht_check_output(&g, &k[t].y, "y", ref, NULL, 1.6e-2);
    free(ref);
  }
  for (int t = 0; t < THREADS; t++) {
    CU(&g, cuStreamDestroy(k[t].stream));
    ht_free(&g, &k[t].x);
    ht_free(&g, &k[t].w);
    ht_free(&g, &k[t].y);
  }
  gpu_close(&g);
}
END_TEST

Suite *concurrency_suite(void) {
  Suite *s = suite_create("concurrency");
  KP_GPU_TCASE(tc, "threads");
  KP_ADD_GPU_TEST(tc, test_gpu_threads_share_ctx);
  suite_add_tcase(s, tc);
  return s;
}
