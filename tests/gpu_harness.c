/*
** gpu_harness.c -- see gpu_harness.h.
*/
#include "gpu_harness.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "reference.h"

/* ---- test lifetime ---------------------------------------------------------- */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void gpu_cu_check(gpu *g, CUresult r, const char *what) {
  if (r == CUDA_SUCCESS) return;
  char t[160];
  kp_driver_errtext(g->drv, r, t, sizeof t);
  fprintf(stderr, "ABORT %s [%s] seed=%llu: %s: %s\n", g->test, g->case_desc, g->seed, what, t);
  fflush(stderr);
  ck_abort_msg("%s [%s]: %s: %s (seed %llu; rerun with KP_TEST_SEED=%llu)", g->test, g->case_desc,
               what, t, g->seed, g->seed);
}

static void gpu_bind(gpu *g) { CU(g, cuCtxSetCurrent(g->cu)); }

void gpu_open(gpu *g, const char *test, int idx) {
  memset(g, 0, sizeof *g);
  g->test = test;
  g->t0 = now_s();
  snprintf(g->case_desc, sizeof g->case_desc, "setup");
  const char *s = getenv("KP_TEST_SEED");
  if (s && *s) {
    g->seed = strtoull(s, NULL, 0);
  } else {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    g->seed = ((unsigned long long)ts.tv_sec * 1000003ull ^ (unsigned long long)ts.tv_nsec ^
               ((unsigned long long)getpid() << 16)) & 0xffffffffull;
  }
  /* the same seed reproduces every test: the loop index makes them differ */
  g->rng = (uint64_t)g->seed * 0x9E3779B97F4A7C15ull + (uint64_t)idx * 0xD1B54A32D192ED03ull + 1;

  kp_status st;
  char err[256] = "";
  g->drv = kp_driver_load(&st, err, sizeof err);
  ck_assert_msg(g->drv != NULL, "%s: kp_driver_load: %s: %s", test, kp_status_name(st), err);
  CU(g, cuDeviceGet(&g->dev, 0));
  CU(g, cuDevicePrimaryCtxRetain(&g->cu, g->dev));
  gpu_bind(g);

  kp_options opt;
  kp_options_init(&opt); /* device 0, primary context, default packs */
  st = kp_ctx_create(&opt, &g->ctx);
  ck_assert_msg(st == KP_OK, "%s: kp_ctx_create: %s: %s", test, kp_status_name(st),
                kp_ctx_errmsg(g->ctx));
  gpu_bind(g);
  CU(g, cuStreamCreate(&g->stream, CU_STREAM_DEFAULT)); /* blocking: orders after the legacy stream */
}

void gpu_close(gpu *g) {
  snprintf(g->case_desc, sizeof g->case_desc, "teardown");
  gpu_bind(g);
  CU(g, cuCtxSynchronize());
  CU(g, cuStreamDestroy(g->stream));
  g->stream = NULL;
  kp_ctx_destroy(g->ctx);
  g->ctx = NULL;
  CU(g, cuCtxSetCurrent(NULL));
  CU(g, cuDevicePrimaryCtxRelease(g->dev));
  const char *times = getenv("KP_TEST_TIMES");
  if (times && *times && strcmp(times, "0"))
    fprintf(stderr, "TIME %s: %.1f s, %d cases (driver: memory %.1f s, copies %.1f, sync %.1f; "
                    "host threads %d)\n", g->test, now_s() - g->t0, g->cases, g->t_mem, g->t_copy,
            g->t_sync, par_threads());
  if (g->failed) {
    fprintf(stderr, "FAILED %s: %d of %d cases (seed %llu; rerun with KP_TEST_SEED=%llu)\n",
            g->test, g->failed, g->cases, g->seed, g->seed);
    fflush(stderr);
  }
  ck_assert_msg(g->failed == 0, "%s: %d of %d cases failed (seed %llu; rerun with KP_TEST_SEED=%llu); first: %s",
                g->test, g->failed, g->cases, g->seed, g->seed, g->first_fail);
}

void gpu_case(gpu *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->case_desc, sizeof g->case_desc, fmt, ap);
  va_end(ap);
  g->cases++;
  g->case_failed = 0;
}

void gpu_fail(gpu *g, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s [%s] seed=%llu: %s\n", g->test, g->case_desc, g->seed, msg);
  fflush(stderr);
  if (!g->case_failed) {
    g->case_failed = 1;
    if (!g->failed++) snprintf(g->first_fail, sizeof g->first_fail, "[%s] %s", g->case_desc, msg);
  }
}

int gpu_entry_runs(const gpu *g, const kpk_entry *e) {
  const kp_devprops *d = &g->ctx->props;
  return (!e->min_sm || (uint32_t)d->sm >= e->min_sm) &&
         (!e->max_sm || (uint32_t)d->sm <= e->max_sm) && e->smem <= d->smem_optin;
}

int gpu_op_ok(gpu *g, kp_status s, const char *op) {
  if (s == KP_OK) return 1;
  gpu_fail(g, "%s returned %s: %s", op, kp_status_name(s), kp_ctx_errmsg(g->ctx));
  return 0;
}

void gpu_sync(gpu *g, const char *after) {
  char w[160];
  const double t0 = now_s();
  gpu_bind(g);
  snprintf(w, sizeof w, "cuStreamSynchronize after %s", after);
  gpu_cu_check(g, g->drv->cuStreamSynchronize(g->stream), w);
  snprintf(w, sizeof w, "cuCtxSynchronize after %s", after);
  gpu_cu_check(g, g->drv->cuCtxSynchronize(), w);
  g->t_sync += now_s() - t0;
}

/* ---- random numbers ---------------------------------------------------------- */

uint64_t rng_u64(gpu *g) {
  uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double rng_uniform(gpu *g, double lo, double hi) {
  return lo + (hi - lo) * ((double)(rng_u64(g) >> 11) * 0x1p-53);
}

int64_t rng_int(gpu *g, int64_t lo, int64_t hi) {
  return lo + (int64_t)(rng_u64(g) % (uint64_t)(hi - lo + 1));
}

rng_row rng_row_at(uint64_t base, int64_t r) {
  rng_row x = {base ^ ((uint64_t)r * 0xD1B54A32D192ED03ull)};
  return x;
}

double rng_row_uniform(rng_row *x, double lo, double hi) {
  uint64_t z = (x->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return lo + (hi - lo) * ((double)((z ^ (z >> 31)) >> 11) * 0x1p-53);
}

/* ---- host work in parallel ------------------------------------------------------- */

#define PAR_MAX 16

int par_threads(void) {
  const char *s = getenv("KP_TEST_THREADS");
  long n = s && *s ? strtol(s, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > PAR_MAX ? PAR_MAX : (int)n;
}

typedef struct par_job {
  void (*fn)(void *, int64_t, int64_t);
  void *arg;
  int64_t lo, hi;
} par_job;

static void *par_run(void *p) {
  const par_job *j = p;
  j->fn(j->arg, j->lo, j->hi);
  return NULL;
}

void par_rows(int64_t n, int64_t work, void (*fn)(void *arg, int64_t lo, int64_t hi), void *arg) {
  int t = par_threads();
  if (t > n) t = (int)n;
  /* (below some 64K elements a thread's start costs more than it saves) */
  if (t <= 1 || n * (work > 1 ? work : 1) < (1 << 16)) {
    if (n > 0) fn(arg, 0, n);
    return;
  }
  par_job job[PAR_MAX];
  pthread_t th[PAR_MAX];
  int started[PAR_MAX] = {0};
  for (int i = 0; i < t; i++) job[i] = (par_job){fn, arg, n * i / t, n * (i + 1) / t};
  for (int i = 1; i < t; i++) /* (a thread that cannot start: its rows run here) */
    started[i] = pthread_create(&th[i], NULL, par_run, &job[i]) == 0;
  par_run(&job[0]);
  for (int i = 1; i < t; i++) {
    if (started[i]) pthread_join(th[i], NULL);
    else par_run(&job[i]);
  }
}

/* ---- dtypes -------------------------------------------------------------------- */

static size_t dt_size(kp_dtype dt) { return dt == KP_F32 ? 4 : 2; }

double dt_get(kp_dtype dt, const void *p) {
  if (dt == KP_F32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  uint16_t h;
  memcpy(&h, p, 2);
  return dt == KP_F16 ? ref_f16_to_f32(h) : ref_bf16_to_f32(h);
}

double dt_put(kp_dtype dt, void *p, double v) {
  const float f = (float)v;
  if (dt == KP_F32) {
    memcpy(p, &f, 4);
    return f;
  }
  const uint16_t h = dt == KP_F16 ? ref_f32_to_f16(f) : ref_f32_to_bf16(f);
  memcpy(p, &h, 2);
  return dt == KP_F16 ? ref_f16_to_f32(h) : ref_bf16_to_f32(h);
}

double dt_round(kp_dtype dt, double v) {
  unsigned char tmp[4];
  return dt_put(dt, tmp, v);
}

int64_t dt_ulp_diff(kp_dtype dt, const void *a, const void *b) {
  if (isnan(dt_get(dt, a)) || isnan(dt_get(dt, b))) return INT64_MAX;
  int64_t ka, kb;
  if (dt == KP_F32) {
    uint32_t ua, ub;
    memcpy(&ua, a, 4);
    memcpy(&ub, b, 4);
    ka = (ua & 0x80000000u) ? -(int64_t)(ua & 0x7fffffffu) : (int64_t)ua;
    kb = (ub & 0x80000000u) ? -(int64_t)(ub & 0x7fffffffu) : (int64_t)ub;
  } else {
    uint16_t ua, ub;
    memcpy(&ua, a, 2);
    memcpy(&ub, b, 2);
    ka = (ua & 0x8000u) ? -(int64_t)(ua & 0x7fffu) : (int64_t)ua;
    kb = (ub & 0x8000u) ? -(int64_t)(ub & 0x7fffu) : (int64_t)ub;
  }
  return ka > kb ? ka - kb : kb - ka;
}

double dt_floor(kp_dtype dt) {
  /* f16: one subnormal step (2^-24); f32/bf16: fp32 flush-to-zero (2^-126) */
  return dt == KP_F16 ? 0x1p-24 : 0x1p-126;
}

/* ---- buffers -------------------------------------------------------------------- */

void hb_make(gpu *g, hbuf *b, kp_dtype dt, size_t n, unsigned char poison) {
  memset(b, 0, sizeof *b);
  b->dt = dt;
  b->es = dt_size(dt);
  b->n = n;
  b->img = malloc(n * b->es);
  b->orig = malloc(n * b->es);
  ck_assert_msg(b->img && b->orig, "%s: out of host memory (%zu elements)", g->test, n);
  memset(b->img, poison, n * b->es);
  memset(b->orig, poison, n * b->es);
  gpu_bind(g);
  const double t0 = now_s();
  CU(g, cuMemAlloc(&b->d, n * b->es));
  g->t_mem += now_s() - t0;
}

void hb_free(gpu *g, hbuf *b) {
  if (b->d) {
    gpu_bind(g);
    const double t0 = now_s();
    CU(g, cuMemFree(b->d));
    g->t_mem += now_s() - t0;
  }
  free(b->img);
  free(b->orig);
  memset(b, 0, sizeof *b);
}

void hb_upload(gpu *g, hbuf *b) {
  memcpy(b->orig, b->img, b->n * b->es);
  gpu_bind(g);
  const double t0 = now_s();
  CU(g, cuMemcpyHtoD(b->d, b->img, b->n * b->es));
  g->t_copy += now_s() - t0;
}

void hb_download(gpu *g, hbuf *b) {
  gpu_bind(g);
  const double t0 = now_s();
  CU(g, cuMemcpyDtoH(b->img, b->d, b->n * b->es));
  g->t_copy += now_s() - t0;
}

void *hb_dev(const hbuf *b, size_t elem) { return dptr(b->d + elem * b->es); }
double hb_get(const hbuf *b, size_t elem) { return dt_get(b->dt, b->img + elem * b->es); }
double hb_orig(const hbuf *b, size_t elem) { return dt_get(b->dt, b->orig + elem * b->es); }
double hb_put(hbuf *b, size_t elem, double v) { return dt_put(b->dt, b->img + elem * b->es, v); }
int hb_same_as_orig(const hbuf *b, size_t elem) {
  return !memcmp(b->img + elem * b->es, b->orig + elem * b->es, b->es);
}

void hb_check_unchanged(gpu *g, hbuf *b, const char *name) {
  hb_download(g, b);
  if (!memcmp(b->img, b->orig, b->n * b->es)) return;
  size_t first = 0, count = 0;
  for (size_t e = b->n; e-- > 0;)
    if (!hb_same_as_orig(b, e)) first = e, count++;
  gpu_fail(g, "input %s was modified: %zu of %zu elements of its buffer, first at element %zu "
              "(was %.9g, now %.9g)", name, count, b->n, first, hb_orig(b, first), hb_get(b, first));
}

/* ---- 2-D tensors ------------------------------------------------------------------ */

void ht_make(gpu *g, ht *t, kp_dtype dt, int64_t rows, int64_t cols, int64_t ld, int64_t off,
             unsigned char poison) {
  ck_assert_msg(rows >= 1 && cols >= 1 && ld >= cols && off >= 0, "%s: bad test tensor", g->test);
  t->rows = rows;
  t->cols = cols;
  t->ld = ld;
  t->off = KP_PRE + off;
  hb_make(g, &t->b, dt, (size_t)(t->off + rows * ld + KP_GUARD), poison);
  t->val = calloc((size_t)(rows * cols), sizeof *t->val);
  ck_assert_msg(t->val != NULL, "%s: out of host memory", g->test);
}

void ht_free(gpu *g, ht *t) {
  hb_free(g, &t->b);
  free(t->val);
  t->val = NULL;
}

size_t ht_index(const ht *t, int64_t r, int64_t c) { return (size_t)(t->off + r * t->ld + c); }

double ht_set(ht *t, int64_t r, int64_t c, double v) {
  return t->val[r * t->cols + c] = hb_put(&t->b, ht_index(t, r, c), v);
}

typedef struct fill_job {
  ht *t;
  uint64_t base;
  int64_t split;
  double lo, hi, lo2, hi2;
  const double *scale;
} fill_job;

static void fill_rows(void *p, int64_t r0, int64_t r1) {
  const fill_job *j = p;
  for (int64_t r = r0; r < r1; r++) {
    rng_row x = rng_row_at(j->base, r);
    const double s = j->scale ? j->scale[r] : 1.0;
    for (int64_t c = 0; c < j->t->cols; c++)
      ht_set(j->t, r, c,
             (c < j->split ? rng_row_uniform(&x, j->lo, j->hi) : rng_row_uniform(&x, j->lo2, j->hi2)) * s);
  }
}

void ht_fill_rows(gpu *g, ht *t, int64_t split, double lo, double hi, double lo2, double hi2,
                  const double *scale) {
  fill_job j = {t, rng_u64(g), split, lo, hi, lo2, hi2, scale};
  par_rows(t->rows, t->cols, fill_rows, &j);
}

void ht_fill_uniform(gpu *g, ht *t, double lo, double hi) {
  ht_fill_rows(g, t, t->cols, lo, hi, lo, hi, NULL);
}

void *ht_dev(const ht *t) { return hb_dev(&t->b, (size_t)t->off); }

void ht_reset(ht *t, unsigned char poison) { memset(t->b.img, poison, t->b.n * t->b.es); }

double ht_get(const ht *t, int64_t r, int64_t c) { return hb_get(&t->b, ht_index(t, r, c)); }

/* Elements [lo, hi) of the buffer must be as uploaded. */
static int64_t check_span(const ht *t, const char *name, size_t lo, size_t hi, int64_t *shown) {
  const size_t es = t->b.es;
  if (hi <= lo || !memcmp(t->b.img + lo * es, t->b.orig + lo * es, (hi - lo) * es)) return 0;
  int64_t bad = 0;
  for (size_t e = lo; e < hi; e++) {
    if (hb_same_as_orig(&t->b, e)) continue;
    bad++;
    if ((*shown)++ < 4) {
      const int64_t rel = (int64_t)e - t->off;
      fprintf(stderr, "  %s: element %zu of the buffer (tensor offset %lld = row %lld, col %lld; "
                      "cols=%lld ld=%lld) is outside the tensor but was written: %.9g\n",
              name, e, (long long)rel, (long long)(rel >= 0 ? rel / t->ld : -1),
              (long long)(rel >= 0 ? rel % t->ld : rel), (long long)t->cols, (long long)t->ld,
              hb_get(&t->b, e));
    }
  }
  return bad;
}

int64_t ht_check_outside(gpu *g, const ht *t, const char *name) {
  int64_t bad = 0, shown = 0;
  bad += check_span(t, name, 0, (size_t)t->off, &shown);
  for (int64_t r = 0; r < t->rows; r++)
    bad += check_span(t, name, ht_index(t, r, t->cols), ht_index(t, r, t->ld), &shown);
  bad += check_span(t, name, ht_index(t, t->rows, 0), t->b.n, &shown);
  if (bad) gpu_fail(g, "%s: %lld elements outside the tensor were written", name, (long long)bad);
  return bad;
}

/* Rows [r0, r1) of an output against ref (ht_check_output's rule), its
** bad count added to k->bad; with k->report (one call over every row, in
** this thread) the first 6 bad elements printed and the worst one kept.
** The count runs in parallel, and only a failing output is gone over again
** for the report. */
typedef struct out_check {
  const ht *t;
  const char *name;
  const double *ref, *mag;
  double tol, fl;
  int report;
  int64_t bad, wr, wc;
  double worst;
} out_check;

static void check_rows(void *p, int64_t r0, int64_t r1) {
  out_check *k = p;
  const ht *t = k->t;
  int64_t bad = 0;
  for (int64_t r = r0; r < r1; r++) {
    const double *rr = k->ref + r * t->cols;
    double scale = 0.0;
    for (int64_t c = 0; c < t->cols; c++) {
      if (isfinite(rr[c]) && fabs(rr[c]) > scale) scale = fabs(rr[c]);
      if (k->mag && isfinite(k->mag[r * t->cols + c]) && fabs(k->mag[r * t->cols + c]) > scale)
        scale = fabs(k->mag[r * t->cols + c]);
    }
    for (int64_t c = 0; c < t->cols; c++) {
      const double o = ht_get(t, r, c), e = rr[c];
      double err = 0.0;
      int ok;
      if (isnan(e)) {
        ok = isnan(o);
        err = ok ? 0.0 : INFINITY;
      } else if (isinf(e)) {
        ok = o == e;
        err = ok ? 0.0 : INFINITY;
      } else if (!isfinite(o)) {
        ok = 0;
        err = INFINITY;
      } else {
        const double d = fabs(o - e);
        err = d / (scale > 0.0 ? scale : 1.0);
        ok = d <= k->tol * scale + k->fl;
      }
      if (k->report && err > k->worst) k->worst = err, k->wr = r, k->wc = c;
      if (ok) continue;
      if (k->report && bad < 6)
        fprintf(stderr, "  %s[%lld,%lld] = %.9g, reference %.9g (row scale %.6g, rel err %.3g, tol %.3g)\n",
                k->name, (long long)r, (long long)c, o, e, scale, err, k->tol);
      bad++;
    }
  }
  __atomic_fetch_add(&k->bad, bad, __ATOMIC_RELAXED);
}

int64_t ht_check_output(gpu *g, ht *t, const char *name, const double *ref, const double *mag,
                        double tol) {
  hb_download(g, &t->b);
  int64_t outside = ht_check_outside(g, t, name);
  out_check k = {t, name, ref, mag, tol, dt_floor(t->b.dt), 0, 0, 0, 0, 0.0};
  par_rows(t->rows, t->cols, check_rows, &k);
  if (k.bad) {
    k.report = 1, k.bad = 0;
    check_rows(&k, 0, t->rows);
    gpu_fail(g, "%s: %lld of %lld elements wrong; worst rel err %.3g at [%lld,%lld] = %.9g vs %.9g (tol %.3g)",
             name, (long long)k.bad, (long long)(t->rows * t->cols), k.worst, (long long)k.wr,
             (long long)k.wc, ht_get(t, k.wr, k.wc), ref[k.wr * t->cols + k.wc], tol);
  }
  return k.bad + outside;
}

/* Rows [r0, r1) within max_ulp of ref (ht_check_ulp), as check_rows */
typedef struct ulp_check {
  const ht *t;
  const char *name;
  const double *ref;
  int64_t max_ulp;
  int report;
  int64_t wrong, worst;
} ulp_check;

static void ulp_rows(void *p, int64_t r0, int64_t r1) {
  ulp_check *k = p;
  const ht *t = k->t;
  int64_t wrong = 0;
  for (int64_t r = r0; r < r1; r++)
    for (int64_t c = 0; c < t->cols; c++) {
      unsigned char want[4];
      const double e = dt_put(t->b.dt, want, k->ref[r * t->cols + c]);
      const int64_t u = dt_ulp_diff(t->b.dt, t->b.img + ht_index(t, r, c) * t->b.es, want);
      if (k->report && u > k->worst) k->worst = u;
      if (u <= k->max_ulp) continue;
      if (k->report && wrong < 6)
        fprintf(stderr, "  %s[%lld,%lld] = %.9g, expected %.9g (%lld ulp apart, at most %lld allowed)\n",
                k->name, (long long)r, (long long)c, ht_get(t, r, c), e,
                (long long)(u == INT64_MAX ? -1 : u), (long long)k->max_ulp);
      wrong++;
    }
  __atomic_fetch_add(&k->wrong, wrong, __ATOMIC_RELAXED);
}

int64_t ht_check_ulp(gpu *g, ht *t, const char *name, const double *ref, int64_t max_ulp) {
  hb_download(g, &t->b);
  int64_t bad = ht_check_outside(g, t, name);
  ulp_check k = {t, name, ref, max_ulp, 0, 0, 0};
  par_rows(t->rows, t->cols, ulp_rows, &k);
  if (k.wrong) {
    k.report = 1, k.wrong = 0;
    ulp_rows(&k, 0, t->rows);
    gpu_fail(g, "%s: %lld of %lld elements more than %lld ulp from the expected value (worst %lld)",
             name, (long long)k.wrong, (long long)(t->rows * t->cols), (long long)max_ulp,
             (long long)(k.worst == INT64_MAX ? -1 : k.worst));
  }
  return bad + k.wrong;
}

/* ---- CUDA graphs ------------------------------------------------------------------ */

void gpu_capture_begin(gpu *g) {
  const kp_driver *d = g->drv;
  ck_assert_msg(d->cuStreamBeginCapture && d->cuStreamEndCapture && d->cuGraphInstantiate &&
                    d->cuGraphLaunch && d->cuGraphExecDestroy && d->cuGraphDestroy,
                "%s: the driver lacks the graph calls (CUDA 12 needed)", g->test);
  gpu_bind(g);
  CU(g, cuStreamBeginCapture(g->stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
}

CUgraphExec gpu_capture_end(gpu *g, CUgraph *graph) {
  CUgraph gr = NULL;
  CUgraphExec ex = NULL;
  CU(g, cuStreamEndCapture(g->stream, &gr));
  CU(g, cuGraphInstantiate(&ex, gr, 0));
  if (graph) *graph = gr;
  else CU(g, cuGraphDestroy(gr));
  return ex;
}

void gpu_graph_free(gpu *g, CUgraph graph, CUgraphExec exec) {
  if (exec) CU(g, cuGraphExecDestroy(exec));
  if (graph) CU(g, cuGraphDestroy(graph));
}

int64_t gpu_graph_edges(gpu *g, CUgraph graph, int64_t *programmatic) {
  *programmatic = -1;
  if (!g->drv->cuGraphGetEdges) return -1;
  size_t n = 0;
  CU(g, cuGraphGetEdges(graph, NULL, NULL, NULL, &n));
  CUgraphNode *from = calloc(n + 1, sizeof *from), *to = calloc(n + 1, sizeof *to);
  CUgraphEdgeData *ed = calloc(n + 1, sizeof *ed);
  ck_assert_msg(from && to && ed, "out of host memory");
  CU(g, cuGraphGetEdges(graph, from, to, ed, &n));
  *programmatic = 0;
  for (size_t i = 0; i < n; i++) *programmatic += ed[i].type == CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
  free(from);
  free(to);
  free(ed);
  return (int64_t)n;
}
