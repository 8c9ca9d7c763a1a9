/*
** check_ops_gpu.c -- every op x dtype x shape against a float64 reference.
**
** Each GPU test covers one op and dtype (and form/layout) and runs a table
** of shapes inside one CUDA context (a context per shape would cost more
** than the work).  A failing shape prints its details and the seed to
** stderr; the test goes on and fails at the end with the count.
** Reproduce the data of a run with KP_TEST_SEED=<seed>.
**
** What every case checks (see gpu_harness.h): inputs are random values
** rounded to the storage dtype on the host and the float64 reference
** consumes exactly those; outputs start as NaN poison, so an element left
** unwritten fails; nothing outside a tensor (row padding between cols and
** ld, guards before every tensor and after every buffer)
** changes; inputs are not modified.
**
** Errors are relative to the largest |reference| of the row (of the head
** for RoPE; for geglu also the largest |gate * up|, see glu_case):
** |out - ref| <= tol * max|ref| + one subnormal step of the dtype.
*/
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "gpu_harness.h"
#include "ops_cases.h"
#include "reference.h"

static const kp_dtype DTYPES[3] = {KP_F32, KP_F16, KP_BF16};

static const char *dtn(kp_dtype dt) { return dt == KP_F32 ? "f32" : dt == KP_F16 ? "f16" : "bf16"; }

/* Tolerances (relative to the row's max |ref|), by op and dtype.
** f16/bf16: one rounding of the output is 2^-11 / 2^-8 relative; the
** budget leaves room for fp32 math and a second rounding.  f32: ops built
** on the fast exp (ex2.approx) or rsqrt get 2e-5, the others 1e-5. */
static const double TOL[OP_COUNT_][3] = {
    /*                   f32    f16     bf16 */
    [OP_SOFTMAX] = {2e-5, 2e-3, 1.6e-2},
    [OP_RMSNORM] = {2e-5, 2e-3, 1.6e-2},
    [OP_ADD_RMSNORM] = {2e-5, 2e-3, 1.6e-2},
    [OP_SWIGLU] = {2e-5, 2e-3, 1.6e-2}, /* silu = x / (1 + ex2.approx(..)) */
    [OP_GEGLU] = {1e-5, 2e-3, 1.6e-2},
    [OP_RMSNORM_SWIGLU] = {2e-5, 2e-3, 1.6e-2},
    [OP_ROPE] = {1e-5, 2e-3, 1.6e-2},
};
double op_tol(int op, kp_dtype dt) { return TOL[op][dt == KP_F32 ? 0 : dt == KP_F16 ? 1 : 2]; }

#define EPS 1e-6f
#define OUT_POISON_FINITE 0x7B /* 0x7B7B..: finite (61280 in f16, 1.3e36 in f32/bf16) */

/* ---- shapes of the row-wise ops -------------------------------------------------
** ldx = cols + padx, ldy = cols + pady; offx/offy shift the base pointers
** by that many elements (1: no longer 16-byte aligned). */

static const shape SHAPES[] = {
    /* contiguous: 1 and a few rows; tiny, odd, long and huge rows */
    {1, 1, 0, 0, 0, 0}, {3, 1, 0, 0, 0, 0}, {64, 1, 0, 0, 0, 0},
    {1, 7, 0, 0, 0, 0}, {3, 7, 0, 0, 0, 0}, {64, 7, 0, 0, 0, 0},
    {1, 1000, 0, 0, 0, 0}, {3, 1000, 0, 0, 0, 0}, {64, 1000, 0, 0, 0, 0},
    {1, 4097, 0, 0, 0, 0}, {3, 4097, 0, 0, 0, 0}, {64, 4097, 0, 0, 0, 0},
    {1, 65537, 0, 0, 0, 0}, {3, 65537, 0, 0, 0, 0},
    /* odd rows a GLU runs as aligned ones (16-bit: one row of 64 * 1001, of 128 * 4097, of
       2 * 262144 below; f32: 64 x 1001 -> 1001 x 64, 128 x 4097 -> 4097 x 128, 2 x 262144
       -> 64 x 8192: ops.c glu_flatten) */
    {64, 1001, 0, 0, 0, 0}, {128, 4097, 0, 0, 0, 0},
    {1, 262144, 0, 0, 0, 0}, {2, 262144, 0, 0, 0, 0},
    /* friendly sizes */
    {128, 4096, 0, 0, 0, 0}, {128, 8192, 0, 0, 0, 0}, {1, 4096, 0, 0, 0, 0},
    {3, 8192, 0, 0, 0, 0}, {64, 1024, 0, 0, 0, 0}, {5, 32, 0, 0, 0, 0},
    /* around the register-variant limits (32*vec*n per warp, threads*vec*n per block) */
    {4, 128, 0, 0, 0, 0}, {4, 129, 0, 0, 0, 0}, {4, 256, 0, 0, 0, 0}, {4, 257, 0, 0, 0, 0},
    {4, 512, 0, 0, 0, 0}, {4, 513, 0, 0, 0, 0}, {4, 1025, 0, 0, 0, 0},
    {2, 16384, 0, 0, 0, 0}, {2, 16385, 0, 0, 0, 0}, {2, 32768, 0, 0, 0, 0},
    {2, 32769, 0, 0, 0, 0},
    /* many rows: grids beyond 65535 blocks, partial last block */
    {1000, 128, 0, 0, 0, 0}, {70001, 8, 0, 0, 0, 0},
    /* padded strides: ld not a multiple of 8 (unaligned rows) ... */
    {5, 1000, 3, 0, 0, 0}, {4, 1024, 5, 3, 0, 0}, {3, 4097, 7, 1, 0, 0}, {64, 7, 1, 9, 0, 0},
    {2, 65537, 8, 3, 0, 0}, {3, 33, 2, 1, 0, 0}, {7, 8192, 3, 3, 0, 0}, {9, 256, 1, 0, 0, 0},
    /* ... and aligned padded strides */
    {4, 1024, 8, 16, 0, 0}, {128, 4096, 8, 8, 0, 0}, {2, 262144, 0, 8, 0, 0},
    {6, 16384, 16, 8, 0, 0},
    /* base pointers shifted by whole elements (misaligned or still aligned) */
    {128, 4096, 0, 0, 1, 1}, {16, 8192, 0, 0, 8, 8}, {3, 1000, 0, 0, 1, 0},
    {3, 1000, 0, 0, 0, 3}, {4, 1024, 8, 8, 2, 6}, {2, 65537, 0, 0, 1, 1},
};
#define NSHAPES ((int)(sizeof SHAPES / sizeof SHAPES[0]))

static double *ref_alloc(gpu *g, int64_t n) {
  double *p = calloc((size_t)(n > 0 ? n : 1), sizeof *p);
  ck_assert_msg(p != NULL, "%s: out of host memory", g->test);
  return p;
}

/* 10^U(-2, 3): rows of very different magnitudes (rmsnorm is scale-free) */
static double row_scale(gpu *g) { return pow(10.0, rng_uniform(g, -2.0, 3.0)); }

/* The references, rows in parallel (par_rows): y (and y2) from x (and x2,
** w); GLU's gate and up rows xs values apart. */
typedef struct ref_job {
  const double *x, *x2, *w;
  double *y, *y2;
  int64_t cols, xs;
  kp_dtype dt;
  int act, oom;
} ref_job;

static void softmax_rows(void *p, int64_t r0, int64_t r1) {
  const ref_job *j = p;
  for (int64_t r = r0; r < r1; r++) ref_softmax_row(j->x + r * j->cols, j->y + r * j->cols, j->cols);
}

static void rmsnorm_rows(void *p, int64_t r0, int64_t r1) {
  const ref_job *j = p;
  for (int64_t r = r0; r < r1; r++)
    ref_rmsnorm_row(j->x + r * j->cols, j->w, j->y + r * j->cols, j->cols, (double)EPS);
}

/* y2: the stored residual round(x + x2); y: rmsnorm of it */
static void add_rmsnorm_rows(void *p, int64_t r0, int64_t r1) {
  const ref_job *j = p;
  for (int64_t e = r0 * j->cols; e < r1 * j->cols; e++) j->y2[e] = dt_round(j->dt, j->x[e] + j->x2[e]);
  for (int64_t r = r0; r < r1; r++)
    ref_rmsnorm_row(j->y2 + r * j->cols, j->w, j->y + r * j->cols, j->cols, (double)EPS);
}

/* rows of 2 cols: the norm over all of a row, then silu(first half) * second */
static void rmsnorm_swiglu_rows(void *p, int64_t r0, int64_t r1) {
  ref_job *j = p;
  const int64_t n = j->cols;
  double *h = malloc((size_t)(2 * n) * sizeof *h);
  if (!h) {
    j->oom = 1;
    return;
  }
  for (int64_t r = r0; r < r1; r++) {
    ref_rmsnorm_row(j->x + r * 2 * n, j->w, h, 2 * n, (double)EPS);
    for (int64_t c = 0; c < n; c++) j->y[r * n + c] = ref_silu(h[c]) * h[n + c];
  }
  free(h);
}

/* ---- softmax ------------------------------------------------------------------------- */

/* Special rows, by r % 12: -inf masks, all -inf (NaN row), +inf (NaN row),
** huge values near the dtype's max, a single finite entry. */
static void softmax_fill_special(gpu *g, ht *x, kp_dtype dt) {
  const double big = dt == KP_F32 ? 1e30 : dt == KP_F16 ? 65504.0 : 3e38;
  const int64_t n = x->cols;
  for (int64_t r = 0; r < x->rows; r++) {
    const int kind = (int)(r % 12);
    const int64_t j = rng_int(g, 0, n - 1);
    for (int64_t c = 0; c < n; c++) {
      double v = rng_uniform(g, -8.0, 8.0);
      switch (kind) {
      case 0: if (c != j && rng_u64(g) % 4 == 0) v = -INFINITY; break; /* ~25% masked */
      case 1: v = -INFINITY; break;                                      /* all masked: NaN */
      case 2: if (c == 0 || c == n - 1) v = -INFINITY; break;           /* masked ends */
      case 3: if (c == j) v = INFINITY; break;                          /* +inf: NaN row */
      case 4:
        if (c == j || c == n / 2) v = INFINITY;
        else if (c == n / 3) v = -INFINITY;
        break;
      case 5: v = rng_uniform(g, -big, big); break;                     /* huge, random */
      case 6: v = big; break;                                           /* all max: uniform */
      case 7: v = (c & 1) ? -big : big; break;                          /* +-max alternating */
      case 8: v = -big; break;                                          /* all -max: uniform */
      case 9: if (c > n / 2) v = -INFINITY; break;                      /* causal-style mask */
      case 10: v = c == j ? -big : -INFINITY; break;                    /* one finite entry */
      default: if (c == j) v = big; break;                              /* one huge entry */
      }
      ht_set(x, r, c, v);
    }
  }
}

void softmax_case(gpu *g, kp_dtype dt, int64_t rows, int64_t cols, int64_t ldx,
                         int64_t ldy, int64_t offx, int64_t offy, int inplace, int special) {
  if (inplace) ldy = ldx, offy = offx;
  gpu_case(g, "softmax %s rows=%lld cols=%lld ldx=%lld ldy=%lld offx=%lld offy=%lld%s%s", dtn(dt),
           (long long)rows, (long long)cols, (long long)ldx, (long long)ldy, (long long)offx,
           (long long)offy, inplace ? " in-place" : "", special ? " special-values" : "");
  ht x, y;
  ht_make(g, &x, dt, rows, cols, ldx, offx, KP_POISON);
  if (special) softmax_fill_special(g, &x, dt);
  else ht_fill_uniform(g, &x, -8.0, 8.0);
  double *ref = ref_alloc(g, rows * cols);
  ref_job rj = {.x = x.val, .y = ref, .cols = cols};
  par_rows(rows, cols, softmax_rows, &rj);
  hb_upload(g, &x.b);
  ht *out = &x;
  if (!inplace) {
    /* special rows expect NaN: a finite poison shows a NaN row left unwritten */
    ht_make(g, &y, dt, rows, cols, ldy, offy, special ? OUT_POISON_FINITE : KP_POISON);
    hb_upload(g, &y.b);
    out = &y;
  }
  gpu_sync(g, "uploads");
  if (gpu_op_ok(g, kp_softmax(g->ctx, dt, ht_dev(&x), ldx, ht_dev(out), ldy, rows, cols, g->stream),
                "kp_softmax")) {
    gpu_sync(g, "kp_softmax");
    ht_check_output(g, out, "y", ref, NULL, op_tol(OP_SOFTMAX, dt));
    if (!inplace) hb_check_unchanged(g, &x.b, "x");
  }
  if (!inplace) ht_free(g, &y);
  ht_free(g, &x);
  free(ref);
}

/* softmax matches float64 on every shape, stride and offset, out of place and in place (y == x) */
START_TEST(test_softmax) {
  const kp_dtype dt = DTYPES[_i];
  char name[64];
  snprintf(name, sizeof name, "softmax/%s", dtn(dt));
  gpu g;
  gpu_open(&g, name, _i);
  for (int k = 0; k < NSHAPES; k++) {
    const shape *s = &SHAPES[k];
    for (int inplace = 0; inplace < 2; inplace++)
      softmax_case(&g, dt, s->rows, s->cols, s->cols + s->padx, s->cols + s->pady, s->offx,
                   s->offy, inplace, 0);
  }
  gpu_close(&g);
}
END_TEST

/* softmax reproduces the reference's NaN pattern (-inf rows, +inf) and survives +-max values */
START_TEST(test_softmax_special) {
  static const int64_t COLS[] = {1, 2, 7, 33, 129, 1000, 4097, 16385, 40001, 65537, 140001};
  const kp_dtype dt = DTYPES[_i];
  char name[64];
  snprintf(name, sizeof name, "softmax_special/%s", dtn(dt));
  gpu g;
  gpu_open(&g, name, _i);
  for (int k = 0; k < (int)(sizeof COLS / sizeof COLS[0]); k++) {
    const int64_t n = COLS[k], padx = k % 2 ? 3 : 0, pady = k % 2 ? 0 : 5;
    for (int inplace = 0; inplace < 2; inplace++)
      softmax_case(&g, dt, 24, n, n + padx, n + pady, 0, 0, inplace, 1);
  }
  gpu_close(&g);
}
END_TEST

/* ---- rmsnorm / add_rmsnorm -------------------------------------------------------- */

static void fill_scaled_rows(gpu *g, ht *t, double lo, double hi, const double *scale) {
  ht_fill_rows(g, t, t->cols, lo, hi, lo, hi, scale);
}

void rmsnorm_case(gpu *g, kp_dtype dt, const shape *s) {
  const int64_t rows = s->rows, cols = s->cols, ldx = cols + s->padx, ldy = cols + s->pady;
  gpu_case(g, "rmsnorm %s rows=%lld cols=%lld ldx=%lld ldy=%lld offx=%d offw=offy=%d", dtn(dt),
           (long long)rows, (long long)cols, (long long)ldx, (long long)ldy, s->offx, s->offy);
  ht x, w, y;
  double *sc = ref_alloc(g, rows), *ref = ref_alloc(g, rows * cols);
  for (int64_t r = 0; r < rows; r++) sc[r] = row_scale(g);
  ht_make(g, &x, dt, rows, cols, ldx, s->offx, KP_POISON);
  fill_scaled_rows(g, &x, -3.0, 3.0, sc);
  ht_make(g, &w, dt, 1, cols, cols, s->offy, KP_POISON);
  ht_fill_uniform(g, &w, 0.1, 2.0);
  ht_make(g, &y, dt, rows, cols, ldy, s->offy, KP_POISON);
  ref_job rj = {.x = x.val, .w = w.val, .y = ref, .cols = cols};
  par_rows(rows, cols, rmsnorm_rows, &rj);
  hb_upload(g, &x.b);
  hb_upload(g, &w.b);
  hb_upload(g, &y.b);
  gpu_sync(g, "uploads");
  if (gpu_op_ok(g, kp_rmsnorm(g->ctx, dt, ht_dev(&x), ldx, ht_dev(&w), ht_dev(&y), ldy, rows,
                              cols, EPS, g->stream), "kp_rmsnorm")) {
    gpu_sync(g, "kp_rmsnorm");
    ht_check_output(g, &y, "y", ref, NULL, op_tol(OP_RMSNORM, dt));
    hb_check_unchanged(g, &x.b, "x");
    hb_check_unchanged(g, &w.b, "w");
  }
  ht_free(g, &x);
  ht_free(g, &w);
  ht_free(g, &y);
  free(sc);
  free(ref);
}

/* run(dtype i, shape) on every shape, in one GPU session named op/dtype */
static void every_shape(const char *op, int i, void (*run)(gpu *, kp_dtype, const shape *)) {
  const kp_dtype dt = DTYPES[i];
  char name[64];
  snprintf(name, sizeof name, "%s/%s", op, dtn(dt));
  gpu g;
  gpu_open(&g, name, i);
  for (int k = 0; k < NSHAPES; k++) run(&g, dt, &SHAPES[k]);
  gpu_close(&g);
}

/* rmsnorm matches float64 on every shape, stride and offset, rows of very different scales */
START_TEST(test_rmsnorm) {
  every_shape("rmsnorm", _i, rmsnorm_case);
}
END_TEST

void add_rmsnorm_case(gpu *g, kp_dtype dt, const shape *s) {
  const int64_t rows = s->rows, cols = s->cols, ldx = cols + s->padx, ldy = cols + s->pady;
  const int64_t ldr = cols + s->padx + s->pady; /* a third stride */
  gpu_case(g, "add_rmsnorm %s rows=%lld cols=%lld ldx=%lld ldr=%lld ldy=%lld offx=%d offr=offw=offy=%d",
           dtn(dt), (long long)rows, (long long)cols, (long long)ldx, (long long)ldr,
           (long long)ldy, s->offx, s->offy);
  ht x, res, w, y;
  double *sc = ref_alloc(g, rows), *rnew = ref_alloc(g, rows * cols),
         *ref = ref_alloc(g, rows * cols);
  for (int64_t r = 0; r < rows; r++) sc[r] = row_scale(g);
  ht_make(g, &x, dt, rows, cols, ldx, s->offx, KP_POISON);
  fill_scaled_rows(g, &x, -1.0, 1.0, sc);
  ht_make(g, &res, dt, rows, cols, ldr, s->offy, KP_POISON);
  fill_scaled_rows(g, &res, -3.0, 3.0, sc);
  ht_make(g, &w, dt, 1, cols, cols, s->offy, KP_POISON);
  ht_fill_uniform(g, &w, 0.1, 2.0);
  ht_make(g, &y, dt, rows, cols, ldy, s->offy, KP_POISON);
  /* the stored residual is round(x + res); y is rmsnorm of that stored value */
  ref_job rj = {.x = x.val, .x2 = res.val, .w = w.val, .y = ref, .y2 = rnew, .cols = cols, .dt = dt};
  par_rows(rows, cols, add_rmsnorm_rows, &rj);
  hb_upload(g, &x.b);
  hb_upload(g, &res.b);
  hb_upload(g, &w.b);
  hb_upload(g, &y.b);
  gpu_sync(g, "uploads");
  if (gpu_op_ok(g, kp_add_rmsnorm(g->ctx, dt, ht_dev(&x), ldx, ht_dev(&res), ldr, ht_dev(&w),
                                  ht_dev(&y), ldy, rows, cols, EPS, g->stream), "kp_add_rmsnorm")) {
    gpu_sync(g, "kp_add_rmsnorm");
    ht_check_ulp(g, &res, "residual", rnew, 1);
    ht_check_output(g, &y, "y", ref, NULL, op_tol(OP_ADD_RMSNORM, dt));
    hb_check_unchanged(g, &x.b, "x");
    hb_check_unchanged(g, &w.b, "w");
  }
  ht_free(g, &x);
  ht_free(g, &res);
  ht_free(g, &w);
  ht_free(g, &y);
  free(sc);
  free(rnew);
  free(ref);
}

/* add_rmsnorm writes residual = round(x + res) (<= 1 ulp) and y = rmsnorm(residual) * w */
START_TEST(test_add_rmsnorm) {
  every_shape("add_rmsnorm", _i, add_rmsnorm_case);
}
END_TEST

/* ---- swiglu / geglu ---------------------------------------------------------------------- */

enum { ACT_SILU, ACT_GELU_ERF, ACT_GELU_TANH };

static double act(int a, double v) {
  return a == ACT_SILU ? ref_silu(v) : a == ACT_GELU_ERF ? ref_gelu_erf(v) : ref_gelu_tanh(v);
}

/* y = act(gate) * up, y2 = gate * up (x: gate, x2: up) */
static void glu_rows(void *p, int64_t r0, int64_t r1) {
  const ref_job *j = p;
  const int64_t xs = j->xs;
  for (int64_t r = r0; r < r1; r++)
    for (int64_t c = 0; c < j->cols; c++) {
      j->y[r * j->cols + c] = act(j->act, j->x[r * xs + c]) * j->x2[r * xs + c];
      j->y2[r * j->cols + c] = j->x[r * xs + c] * j->x2[r * xs + c];
    }
}

/* fused: gate and up are the two halves of one (rows, 2*cols) tensor;
** otherwise two buffers with the same stride (up shifted by offy). */
void glu_case(gpu *g, kp_dtype dt, int a, const shape *s, int fused) {
  static const char *ACT_NAME[] = {"swiglu", "geglu(erf)", "geglu(tanh)"};
  const int64_t rows = s->rows, cols = s->cols, ldy = cols + s->pady;
  const int64_t ldin = fused ? 2 * cols + s->padx : cols + s->padx;
  gpu_case(g, "%s %s rows=%lld cols=%lld ldin=%lld ldy=%lld offx=%d offy=%d %s", ACT_NAME[a],
           dtn(dt), (long long)rows, (long long)cols, (long long)ldin, (long long)ldy, s->offx,
           s->offy, fused ? "gate|up fused" : "gate, up separate");
  ht gt, up, y;
  const double *gv, *uv; /* gate(r, c) = gv[r * vs + c], up(r, c) = uv[r * vs + c] */
  int64_t vs;
  const void *gp, *upp;
  if (fused) {
    ht_make(g, &gt, dt, rows, 2 * cols, ldin, s->offx, KP_POISON);
    ht_fill_rows(g, &gt, cols, -8.0, 8.0, -4.0, 4.0, NULL);
    gv = gt.val, uv = gt.val + cols, vs = 2 * cols;
    gp = ht_dev(&gt);
    upp = hb_dev(&gt.b, ht_index(&gt, 0, cols));
  } else {
    ht_make(g, &gt, dt, rows, cols, ldin, s->offx, KP_POISON);
    ht_fill_uniform(g, &gt, -8.0, 8.0);
    ht_make(g, &up, dt, rows, cols, ldin, s->offy, KP_POISON);
    ht_fill_uniform(g, &up, -4.0, 4.0);
    gv = gt.val, uv = up.val, vs = cols;
    gp = ht_dev(&gt);
    upp = ht_dev(&up);
  }
  ht_make(g, &y, dt, rows, cols, ldy, s->offy, KP_POISON);
  /* geglu: 1 + erf(x) and 1 + tanh(x) cancel in fp32 for x << 0 (as in
     PyTorch), so its error is measured against |gate * up| too */
  double *ref = ref_alloc(g, rows * cols), *mag = ref_alloc(g, rows * cols);
  ref_job rj = {.x = gv, .x2 = uv, .y = ref, .y2 = mag, .cols = cols, .xs = vs, .act = a};
  par_rows(rows, cols, glu_rows, &rj);
  hb_upload(g, &gt.b);
  if (!fused) hb_upload(g, &up.b);
  hb_upload(g, &y.b);
  gpu_sync(g, "uploads");
  kp_status st = a == ACT_SILU
                     ? kp_swiglu(g->ctx, dt, gp, upp, ldin, ht_dev(&y), ldy, rows, cols, g->stream)
                     : kp_geglu(g->ctx, dt, a == ACT_GELU_ERF ? KP_GELU_ERF : KP_GELU_TANH, gp,
                                upp, ldin, ht_dev(&y), ldy, rows, cols, g->stream);
  if (gpu_op_ok(g, st, a == ACT_SILU ? "kp_swiglu" : "kp_geglu")) {
    gpu_sync(g, ACT_NAME[a]);
    ht_check_output(g, &y, "y", ref, a == ACT_SILU ? NULL : mag,
                    op_tol(a == ACT_SILU ? OP_SWIGLU : OP_GEGLU, dt));
    hb_check_unchanged(g, &gt.b, fused ? "gate|up" : "gate");
    if (!fused) hb_check_unchanged(g, &up.b, "up");
  }
  ht_free(g, &gt);
  if (!fused) ht_free(g, &up);
  ht_free(g, &y);
  free(ref);
  free(mag);
}

/* swiglu = silu(gate) * up matches float64 on every shape, with gate/up fused and separate */
START_TEST(test_swiglu) {
  const kp_dtype dt = DTYPES[_i];
  char name[64];
  snprintf(name, sizeof name, "swiglu/%s", dtn(dt));
  gpu g;
  gpu_open(&g, name, _i);
  for (int k = 0; k < NSHAPES; k++)
    for (int fused = 0; fused < 2; fused++) glu_case(&g, dt, ACT_SILU, &SHAPES[k], fused);
  gpu_close(&g);
}
END_TEST

/* geglu matches float64 for both GELU forms (erf, tanh) on every shape, fused and separate */
START_TEST(test_geglu) {
  const kp_dtype dt = DTYPES[_i % 3];
  const int a = _i < 3 ? ACT_GELU_ERF : ACT_GELU_TANH;
  char name[64];
  snprintf(name, sizeof name, "geglu_%s/%s", a == ACT_GELU_ERF ? "erf" : "tanh", dtn(dt));
  gpu g;
  gpu_open(&g, name, _i);
  for (int k = 0; k < NSHAPES; k++)
    for (int fused = 0; fused < 2; fused++) glu_case(&g, dt, a, &SHAPES[k], fused);
  gpu_close(&g);
}
END_TEST

/* ---- rmsnorm_swiglu -------------------------------------------------------------------- */

void rmsnorm_swiglu_case(gpu *g, kp_dtype dt, const shape *s) {
  const int64_t rows = s->rows, cols = s->cols, ldx = 2 * cols + s->padx, ldy = cols + s->pady;
  gpu_case(g, "rmsnorm_swiglu %s rows=%lld cols=%lld (x: 2*cols=%lld) ldx=%lld ldy=%lld offx=%d offw=offy=%d",
           dtn(dt), (long long)rows, (long long)cols, (long long)(2 * cols), (long long)ldx,
           (long long)ldy, s->offx, s->offy);
  ht x, w, y;
  double *sc = ref_alloc(g, rows), *ref = ref_alloc(g, rows * cols);
  for (int64_t r = 0; r < rows; r++) sc[r] = row_scale(g);
  ht_make(g, &x, dt, rows, 2 * cols, ldx, s->offx, KP_POISON);
  fill_scaled_rows(g, &x, -3.0, 3.0, sc);
  ht_make(g, &w, dt, 1, 2 * cols, 2 * cols, s->offy, KP_POISON);
  ht_fill_uniform(g, &w, 0.1, 2.0);
  ht_make(g, &y, dt, rows, cols, ldy, s->offy, KP_POISON);
  ref_job rj = {.x = x.val, .w = w.val, .y = ref, .cols = cols};
  par_rows(rows, 3 * cols, rmsnorm_swiglu_rows, &rj);
  ck_assert_msg(!rj.oom, "%s: out of host memory", g->test);
  hb_upload(g, &x.b);
  hb_upload(g, &w.b);
  hb_upload(g, &y.b);
  gpu_sync(g, "uploads");
  if (gpu_op_ok(g, kp_rmsnorm_swiglu(g->ctx, dt, ht_dev(&x), ldx, ht_dev(&w), ht_dev(&y), ldy,
                                     rows, cols, EPS, g->stream), "kp_rmsnorm_swiglu")) {
    gpu_sync(g, "kp_rmsnorm_swiglu");
    ht_check_output(g, &y, "y", ref, NULL, op_tol(OP_RMSNORM_SWIGLU, dt));
    hb_check_unchanged(g, &x.b, "x");
    hb_check_unchanged(g, &w.b, "w");
  }
  ht_free(g, &x);
  ht_free(g, &w);
  ht_free(g, &y);
  free(sc);
  free(ref);
}

/* rmsnorm_swiglu (norm over 2*cols, then silu(h[:cols]) * h[cols:]) matches float64 on every shape */
START_TEST(test_rmsnorm_swiglu) {
  every_shape("rmsnorm_swiglu", _i, rmsnorm_swiglu_case);
}
END_TEST

/* ---- rope ---------------------------------------------------------------------------------- */


#define ROPE_NCFG 18
/* k = angle*6 + rot*3 + tokens: every (angle mode, rot_dim, tokens); the
** head counts and stride layouts cycle so that each pair of them occurs. */
static rope_cfg rope_config(int k) {
  static const int64_t TOK[3] = {1, 7, 1000};
  rope_cfg c;
  c.angle = k / 6;
  c.rot = (k / 3) % 2 ? 64 : 128;
  c.tokens = TOK[k % 3];
  c.hd = 128;
  c.hq = k % 2 ? 3 : 32;
  c.hk = k % 2 ? 1 : 8;
  c.strides = (k / 2) % 4;
  c.cs_pad = (k / 2) % 2 ? 3 : 0;
  c.theta = (k / 4) % 2 ? 1e6f : 1e4f;
  return c;
}

static const char *ANG_NAME[] = {"cos/sin table", "theta, positions=NULL", "theta, positions"};
static const char *ST_NAME[] = {"contiguous", "fused qkv", "padded unaligned", "padded aligned"};

typedef struct rope_side {
  const char *name;
  int64_t base, st, sh, heads;
} rope_side;

void rope_case(gpu *g, kp_dtype dt, kp_rope_layout layout, const rope_cfg *c) {
  const int64_t T = c->tokens, hq = c->hq, hk = c->hk, hd = c->hd, rot = c->rot, half = rot / 2;
  const int gptj = layout == KP_ROPE_GPTJ;
  rope_side sd[2] = {{"q", 0, 0, 0, hq}, {"k", 0, 0, 0, hk}};
  switch (c->strides) {
  case ST_CONTIG: /* q, then 8 poisoned elements, then k */
    sd[0].sh = hd, sd[0].st = hq * hd, sd[0].base = 0;
    sd[1].sh = hd, sd[1].st = hk * hd, sd[1].base = T * hq * hd + 8;
    break;
  case ST_FUSED_QKV: /* one (tokens, hq + 2hk, hd) tensor; v is poison and must stay so */
    sd[0].sh = sd[1].sh = hd;
    sd[0].st = sd[1].st = (hq + 2 * hk) * hd;
    sd[0].base = 0, sd[1].base = hq * hd;
    break;
  case ST_PAD_UNALIGNED: /* odd head and token padding, q one element off alignment */
    sd[0].sh = hd + 3, sd[0].st = hq * (hd + 3) + 5, sd[0].base = 1;
    sd[1].sh = hd + 1, sd[1].st = hk * (hd + 1) + 7, sd[1].base = 1 + T * sd[0].st + 3;
    break;
  default: /* padding that keeps every head 16-byte aligned */
    sd[0].sh = hd + 8, sd[0].st = hq * (hd + 8) + 16, sd[0].base = 0;
    sd[1].sh = hd + 16, sd[1].st = hk * (hd + 16) + 8, sd[1].base = T * sd[0].st + 8;
    break;
  }
  sd[0].base += KP_PRE, sd[1].base += KP_PRE; /* poisoned elements before q and k */
  const int64_t cs_stride = half + c->cs_pad;
  gpu_case(g, "rope %s %s tokens=%lld hq=%lld hk=%lld head_dim=%lld rot_dim=%lld %s "
              "(q: base %lld st %lld sh %lld; k: base %lld st %lld sh %lld) angles: %s theta=%g cs_stride=%lld",
           dtn(dt), gptj ? "gptj" : "neox", (long long)T, (long long)hq, (long long)hk,
           (long long)hd, (long long)rot, ST_NAME[c->strides], (long long)sd[0].base,
           (long long)sd[0].st, (long long)sd[0].sh, (long long)sd[1].base, (long long)sd[1].st,
           (long long)sd[1].sh, ANG_NAME[c->angle], (double)c->theta,
           (long long)(c->angle == ANG_TABLE ? cs_stride : 0));

  /* one buffer holds q and k; role: 0 outside, 1 dim >= rot_dim, 2 rotated */
  int64_t n = 0;
  for (int s = 0; s < 2; s++) {
    const int64_t end = sd[s].base + (T - 1) * sd[s].st + (sd[s].heads - 1) * sd[s].sh + hd;
    if (end > n) n = end;
  }
  n += KP_GUARD;
  hbuf qk, cosb, sinb, posb;
  memset(&cosb, 0, sizeof cosb), memset(&sinb, 0, sizeof sinb), memset(&posb, 0, sizeof posb);
  hb_make(g, &qk, dt, (size_t)n, KP_POISON);
  unsigned char *role = calloc((size_t)n, 1);
  ck_assert_msg(role != NULL, "out of host memory");
  for (int s = 0; s < 2; s++)
    for (int64_t t = 0; t < T; t++)
      for (int64_t h = 0; h < sd[s].heads; h++)
        for (int64_t d = 0; d < hd; d++) {
          const int64_t e = sd[s].base + t * sd[s].st + h * sd[s].sh + d;
          if (e < 0 || e >= n || role[e] != 0) /* (no ck_assert per element: it costs a syscall) */
            ck_abort_msg("test bug: rope layout overlaps at element %lld", (long long)e);
          role[e] = d < rot ? 2 : 1;
          hb_put(&qk, (size_t)e, rng_uniform(g, -2.0, 2.0));
        }

  /* positions (int32, up to 1e5) and the angles' cos/sin as the reference sees them */
  int32_t *pos = malloc((size_t)T * sizeof *pos);
  double *cs = ref_alloc(g, T * half), *sn = ref_alloc(g, T * half);
  ck_assert_msg(pos != NULL, "out of host memory");
  for (int64_t t = 0; t < T; t++)
    pos[t] = c->angle == ANG_TOKEN ? (int32_t)t /* else: 1e5, 0, 1, then random */
             : t == 0 ? 100000
             : t <= 2 ? (int32_t)(t - 1)
                      : (int32_t)rng_int(g, 0, 100000);
  const int table = c->angle == ANG_TABLE;
  if (table) {
    hb_make(g, &cosb, KP_F32, (size_t)(T * cs_stride + KP_GUARD), KP_POISON);
    hb_make(g, &sinb, KP_F32, (size_t)(T * cs_stride + KP_GUARD), KP_POISON);
  }
  for (int64_t t = 0; t < T; t++)
    for (int64_t i = 0; i < half; i++) {
      const double ang = (double)pos[t] * ref_rope_inv_freq((double)c->theta, i, rot);
      double cv = cos(ang), sv = sin(ang);
      if (table) { /* the kernel gets these f32 values; the reference uses them too */
        cv = hb_put(&cosb, (size_t)(t * cs_stride + i), cv);
        sv = hb_put(&sinb, (size_t)(t * cs_stride + i), sv);
      }
      cs[t * half + i] = cv;
      sn[t * half + i] = sv;
    }
  if (c->angle == ANG_POSITIONS) {
    hb_make(g, &posb, KP_F32 /* 4-byte slots */, (size_t)(T + KP_GUARD), KP_POISON);
    memcpy(posb.img, pos, (size_t)T * sizeof *pos);
  }

  kp_rope_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.tokens = T;
  desc.heads_q = hq;
  desc.heads_k = hk;
  desc.head_dim = hd;
  desc.rot_dim = rot;
  desc.q_stride_token = sd[0].st;
  desc.q_stride_head = sd[0].sh;
  desc.k_stride_token = sd[1].st;
  desc.k_stride_head = sd[1].sh;
  desc.layout = layout;
  desc.cos = table ? hb_dev(&cosb, 0) : NULL;
  desc.sin = table ? hb_dev(&sinb, 0) : NULL;
  desc.cs_stride = table ? cs_stride : 0;
  desc.positions = c->angle == ANG_POSITIONS ? hb_dev(&posb, 0) : NULL;
  desc.theta = c->theta;

  hb_upload(g, &qk);
  if (table) hb_upload(g, &cosb), hb_upload(g, &sinb);
  if (c->angle == ANG_POSITIONS) hb_upload(g, &posb);
  gpu_sync(g, "uploads");
  if (gpu_op_ok(g, kp_rope(g->ctx, dt, hb_dev(&qk, (size_t)sd[0].base),
                           hb_dev(&qk, (size_t)sd[1].base), &desc, g->stream), "kp_rope")) {
    gpu_sync(g, "kp_rope");
    hb_download(g, &qk);
    const double tl = op_tol(OP_ROPE, dt), fl = dt_floor(dt);
    double *v = ref_alloc(g, hd), worst = 0.0;
    int64_t bad = 0, shown = 0;
    for (int s = 0; s < 2; s++)
      for (int64_t t = 0; t < T; t++)
        for (int64_t h = 0; h < sd[s].heads; h++) {
          const int64_t e0 = sd[s].base + t * sd[s].st + h * sd[s].sh;
          for (int64_t d = 0; d < hd; d++) v[d] = hb_orig(&qk, (size_t)(e0 + d));
          ref_rope_head(v, cs + t * half, sn + t * half, rot, gptj);
          double scale = 0.0;
          for (int64_t d = 0; d < rot; d++)
            if (fabs(v[d]) > scale) scale = fabs(v[d]);
          for (int64_t d = 0; d < rot; d++) {
            const double o = hb_get(&qk, (size_t)(e0 + d)), diff = fabs(o - v[d]);
            const double err = isfinite(o) ? diff / (scale > 0.0 ? scale : 1.0) : INFINITY;
            if (err > worst) worst = err;
            if (isfinite(o) && diff <= tl * scale + fl) continue;
            if (bad++ < 6) {
              const int64_t i = gptj ? d / 2 : d % half;
              fprintf(stderr, "  %s[token %lld, head %lld, dim %lld] = %.9g, reference %.9g "
                              "(head max |ref| %.6g, rel err %.3g, tol %.3g; pair %lld, pos %d, cos %.9g, sin %.9g)\n",
                      sd[s].name, (long long)t, (long long)h, (long long)d, o, v[d], scale, err,
                      tl, (long long)i, (int)pos[t], cs[t * half + i], sn[t * half + i]);
            }
          }
        }
    if (bad)
      gpu_fail(g, "q/k: %lld rotated elements wrong; worst rel err %.3g (tol %.3g)", (long long)bad,
               worst, tl);
    int64_t touched[2] = {0, 0}; /* [0]: outside q/k written, [1]: dim >= rot_dim changed */
    for (int64_t e = 0; e < n; e++) {
      if (role[e] == 2 || hb_same_as_orig(&qk, (size_t)e)) continue;
      if (touched[role[e]]++ < 1 && shown++ < 4)
        fprintf(stderr, "  element %lld of the q/k buffer (%s) changed: %.9g -> %.9g\n",
                (long long)e, role[e] ? "a dim >= rot_dim" : "outside q and k",
                hb_orig(&qk, (size_t)e), hb_get(&qk, (size_t)e));
    }
    if (touched[1])
      gpu_fail(g, "%lld elements of dims >= rot_dim changed (must stay bit-exact)",
               (long long)touched[1]);
    if (touched[0])
      gpu_fail(g, "%lld elements outside q and k (padding, v, guard) were written",
               (long long)touched[0]);
    if (table) hb_check_unchanged(g, &cosb, "cos"), hb_check_unchanged(g, &sinb, "sin");
    if (c->angle == ANG_POSITIONS) hb_check_unchanged(g, &posb, "positions");
    free(v);
  }
  hb_free(g, &qk);
  if (table) hb_free(g, &cosb), hb_free(g, &sinb);
  if (c->angle == ANG_POSITIONS) hb_free(g, &posb);
  free(role);
  free(pos);
  free(cs);
  free(sn);
}

/* rope (NeoX / GPT-J) matches float64 for table and theta angles, partial rot_dim, GQA and odd
** head counts, fused and padded strides; dims >= rot_dim and everything outside stay bit-exact */
START_TEST(test_rope) {
  const kp_dtype dt = DTYPES[_i % 3];
  const kp_rope_layout layout = _i < 3 ? KP_ROPE_NEOX : KP_ROPE_GPTJ;
  char name[64];
  snprintf(name, sizeof name, "rope_%s/%s", layout == KP_ROPE_NEOX ? "neox" : "gptj", dtn(dt));
  gpu g;
  gpu_open(&g, name, _i);
  for (int k = 0; k < ROPE_NCFG; k++) {
    const rope_cfg c = rope_config(k);
    rope_case(&g, dt, layout, &c);
  }
  gpu_close(&g);
}
END_TEST

/* ---- host-only checks of the harness (run without a GPU) ---------------------------------- */

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* f32 -> f16 rounds to nearest even: every f16 round-trips, every midpoint goes to the even
** neighbour and its float neighbours to the nearer one; overflow, underflow, NaN */
START_TEST(test_conv_f16) {
  /* plain ifs in the loops: every ck_assert that passes still writes a checkpoint to Check */
  char first[160] = "";
  int bad = 0;
#define CONV_EXPECT(cond, ...) \
  do { if (!(cond) && !bad++) snprintf(first, sizeof first, __VA_ARGS__); } while (0)
  for (uint32_t h = 0; h < 0x10000u; h++) {
    const float f = ref_f16_to_f32((uint16_t)h);
    if (isnan(f)) {
      CONV_EXPECT(isnan(ref_f16_to_f32(ref_f32_to_f16(f))), "f16 NaN 0x%04x lost", h);
      continue;
    }
    CONV_EXPECT(ref_f32_to_f16(f) == h, "f16 0x%04x does not round-trip", h);
    if ((h & 0x7fffu) >= 0x7bffu) continue; /* max finite, inf */
    const float nx = ref_f16_to_f32((uint16_t)(h + 1)), mid = f + (nx - f) / 2; /* exact */
    const float below = nextafterf(mid, f), above = nextafterf(mid, nx);
    CONV_EXPECT(ref_f32_to_f16(mid) == ((h & 1u) ? h + 1 : h), "f16 midpoint after 0x%04x", h);
    CONV_EXPECT(ref_f32_to_f16(below) == h, "f16 below the midpoint after 0x%04x", h);
    CONV_EXPECT(ref_f32_to_f16(above) == h + 1, "f16 above the midpoint after 0x%04x", h);
  }
#if defined(__FLT16_MAX__)
  /* cross-check with the compiler's own conversion on random floats */
  uint64_t s = 0x243F6A8885A308D3ull;
  for (int k = 0; k < (1 << 20); k++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t u = (uint32_t)(s >> 32);
    if (k & 1) u = (u & 0x80000000u) | (0x33000000u + u % (0x47800000u - 0x33000000u)); /* f16 range */
    float f;
    memcpy(&f, &u, 4);
    if (isnan(f)) continue;
    const _Float16 hf = (_Float16)f;
    uint16_t hb;
    memcpy(&hb, &hf, 2);
    CONV_EXPECT(ref_f32_to_f16(f) == hb, "f32 0x%08x -> f16: 0x%04x, compiler says 0x%04x", u,
                ref_f32_to_f16(f), hb);
    CONV_EXPECT(bits_of(ref_f16_to_f32(hb)) == bits_of((float)hf), "f16 0x%04x -> f32", hb);
  }
#endif
  ck_assert_msg(bad == 0, "%d conversion errors; first: %s", bad, first);
  ck_assert_uint_eq(ref_f32_to_f16(65519.99f), 0x7bffu);
  ck_assert_uint_eq(ref_f32_to_f16(65520.f), 0x7c00u);
  ck_assert_uint_eq(ref_f32_to_f16(-1e10f), 0xfc00u);
  ck_assert_uint_eq(ref_f32_to_f16(INFINITY), 0x7c00u);
  ck_assert_uint_eq(ref_f32_to_f16(0x1p-25f), 0x0000u);
  ck_assert_uint_eq(ref_f32_to_f16(-0x1.000002p-25f), 0x8001u);
  ck_assert_uint_eq(ref_f32_to_f16(1e-30f), 0x0000u);
  ck_assert_uint_eq(ref_f32_to_f16(1.0f), 0x3c00u);
  ck_assert_uint_eq(ref_f32_to_f16(-2.0f), 0xc000u);
}
END_TEST

/* f32 -> bf16 rounds to nearest even (same checks as for f16, over every bf16 pattern) */
START_TEST(test_conv_bf16) {
  char first[160] = "";
  int bad = 0;
  for (uint32_t h = 0; h < 0x10000u; h++) {
    const float f = ref_bf16_to_f32((uint16_t)h);
    CONV_EXPECT(bits_of(f) == h << 16, "bf16 0x%04x -> f32", h);
    if (isnan(f)) {
      CONV_EXPECT(isnan(ref_bf16_to_f32(ref_f32_to_bf16(f))), "bf16 NaN 0x%04x lost", h);
      continue;
    }
    CONV_EXPECT(ref_f32_to_bf16(f) == h, "bf16 0x%04x does not round-trip", h);
    if ((h & 0x7fffu) >= 0x7f7fu) continue;
    const float nx = ref_bf16_to_f32((uint16_t)(h + 1)), mid = f + (nx - f) / 2; /* exact */
    const float below = nextafterf(mid, f), above = nextafterf(mid, nx);
    CONV_EXPECT(ref_f32_to_bf16(mid) == ((h & 1u) ? h + 1 : h), "bf16 midpoint after 0x%04x", h);
    CONV_EXPECT(ref_f32_to_bf16(below) == h, "bf16 below the midpoint after 0x%04x", h);
    CONV_EXPECT(ref_f32_to_bf16(above) == h + 1, "bf16 above the midpoint after 0x%04x", h);
  }
#undef CONV_EXPECT
  ck_assert_msg(bad == 0, "%d conversion errors; first: %s", bad, first);
  ck_assert_uint_eq(ref_f32_to_bf16(3.4028235e38f), 0x7f80u); /* FLT_MAX rounds up to inf */
  ck_assert_uint_eq(ref_f32_to_bf16(-INFINITY), 0xff80u);
  ck_assert_uint_eq(ref_f32_to_bf16(1.0f), 0x3f80u);
  ck_assert(isnan(ref_bf16_to_f32(ref_f32_to_bf16(NAN))));
}
END_TEST

/* the float64 references give the textbook values and PyTorch's NaN pattern */
START_TEST(test_reference) {
  const double x[2] = {0.0, log(3.0)};
  double y[2];
  ref_softmax_row(x, y, 2);
  ck_assert(fabs(y[0] - 0.25) < 1e-15 && fabs(y[1] - 0.75) < 1e-15);
  const double m[3] = {-INFINITY, -INFINITY, -INFINITY}, p[3] = {1.0, INFINITY, 2.0};
  double o[3];
  ref_softmax_row(m, o, 3);
  ck_assert(isnan(o[0]) && isnan(o[1]) && isnan(o[2]));
  ref_softmax_row(p, o, 3);
  ck_assert(isnan(o[0]) && isnan(o[1]) && isnan(o[2]));
  const double r[2] = {3.0, 4.0}, w[2] = {1.0, 2.0};
  ref_rmsnorm_row(r, w, y, 2, 0.0); /* rms = sqrt(12.5) */
  ck_assert(fabs(y[0] - 3.0 / sqrt(12.5)) < 1e-15 && fabs(y[1] - 8.0 / sqrt(12.5)) < 1e-15);
  ck_assert(fabs(ref_silu(1.0) - 1.0 / (1.0 + exp(-1.0))) < 1e-15);
  ck_assert(fabs(ref_gelu_erf(1.0) - 0.8413447460685429) < 1e-12);
  ck_assert(fabs(ref_gelu_tanh(1.0) - 0.8411919906082768) < 1e-12);
  ck_assert(fabs(ref_rope_inv_freq(10000.0, 32, 128) - 0.01) < 1e-15);
  /* a quarter turn: NeoX pairs (0, 2), (1, 3); GPT-J pairs (0, 1), (2, 3) */
  const double c2[2] = {0.0, 1.0}, s2[2] = {1.0, 0.0};
  double v[5] = {1.0, 2.0, 3.0, 4.0, 5.0};
  ref_rope_head(v, c2, s2, 4, 0);
  ck_assert(v[0] == -3.0 && v[2] == 1.0 && v[1] == 2.0 && v[3] == 4.0 && v[4] == 5.0);
  double u[4] = {1.0, 2.0, 3.0, 4.0};
  ref_rope_head(u, c2, s2, 4, 1);
  ck_assert(u[0] == -2.0 && u[1] == 1.0 && u[2] == 3.0 && u[3] == 4.0);
}
END_TEST

/* par_rows: each row once, in ranges that cover [0, n), one a thread and
** each on its own thread where the work is big (KP_TEST_THREADS); a fill's
** rows (rng_row) the same whatever the threads */
typedef struct par_probe {
  int *hits;
  pthread_t *who;
  double *val;
  uint64_t base;
  int64_t cols;
} par_probe;

static void par_probe_rows(void *p, int64_t r0, int64_t r1) {
  const par_probe *k = p;
  for (int64_t r = r0; r < r1; r++) {
    __atomic_fetch_add(&k->hits[r], 1, __ATOMIC_RELAXED);
    k->who[r] = pthread_self();
    rng_row x = rng_row_at(k->base, r);
    for (int64_t c = 0; c < k->cols; c++) k->val[r * k->cols + c] = rng_row_uniform(&x, -2.0, 3.0);
  }
}

START_TEST(test_par_rows) {
  static const int64_t N[] = {0, 1, 2, 7, 16, 17, 1000};
  static const char *THREADS[] = {"1", "3", "16", "64"};
  enum { COLS = 300 };
  const char *was = getenv("KP_TEST_THREADS");
  char *saved = was ? strdup(was) : NULL;
  double *first = malloc(1000 * COLS * sizeof *first);
  ck_assert(first != NULL);
  for (int t = 0; t < 4; t++) {
    setenv("KP_TEST_THREADS", THREADS[t], 1);
    const int nt = par_threads();
    ck_assert_int_eq(nt, t == 0 ? 1 : t == 1 ? 3 : 16);
    for (size_t i = 0; i < sizeof N / sizeof N[0]; i++) {
      const int64_t n = N[i];
      par_probe k = {calloc((size_t)n + 1, sizeof(int)), calloc((size_t)n + 1, sizeof(pthread_t)),
                     malloc(((size_t)n + 1) * COLS * sizeof(double)), 0x5eedull, COLS};
      ck_assert(k.hits && k.who && k.val);
      for (int big = 0; big < 2; big++) {
        memset(k.hits, 0, ((size_t)n + 1) * sizeof(int));
        par_rows(n, big ? COLS : 1, par_probe_rows, &k);
        int64_t threads = 0;
        for (int64_t r = 0; r < n; r++) {
          ck_assert_msg(k.hits[r] == 1, "n=%lld threads=%d: row %lld run %d times", (long long)n,
                        nt, (long long)r, k.hits[r]);
          threads += r == 0 || !pthread_equal(k.who[r], k.who[r - 1]);
        }
        /* in parallel: ranges of rows, one a thread; small work: this thread */
        const int64_t want = !big || n * COLS < (1 << 16) ? (n > 0) : n < nt ? n : nt;
        ck_assert_msg(threads == want, "n=%lld work=%d threads=%d: %lld runs of rows, %lld expected",
                      (long long)n, big ? COLS : 1, nt, (long long)threads, (long long)want);
        if (n == 1000 && t == 0 && !big) memcpy(first, k.val, 1000 * COLS * sizeof *first);
        if (n == 1000)
          ck_assert_msg(!memcmp(first, k.val, 1000 * COLS * sizeof *first),
                        "a fill over %d threads differs from one thread's", nt);
      }
      for (int64_t e = 0; e < n * COLS; e++) ck_assert(k.val[e] >= -2.0 && k.val[e] < 3.0);
      free(k.hits), free(k.who), free(k.val);
    }
  }
  /* rows' streams differ */
  rng_row a = rng_row_at(1, 0), b = rng_row_at(1, 1);
  ck_assert(rng_row_uniform(&a, 0.0, 1.0) != rng_row_uniform(&b, 0.0, 1.0));
  if (saved) setenv("KP_TEST_THREADS", saved, 1);
  else unsetenv("KP_TEST_THREADS");
  free(saved);
  free(first);
}
END_TEST

Suite *ops_gpu_suite(void) {
  Suite *s = suite_create("ops_gpu");

  TCase *host = tcase_create("ops_host");
  tcase_add_test(host, test_conv_f16);
  tcase_add_test(host, test_conv_bf16);
  tcase_add_test(host, test_reference);
  tcase_add_test(host, test_par_rows);
  suite_add_tcase(s, host);

  KP_GPU_TCASE(sm, "ops_softmax");
  KP_ADD_GPU_LOOP_TEST(sm, test_softmax, 0, 3);
  KP_ADD_GPU_LOOP_TEST(sm, test_softmax_special, 0, 3);
  suite_add_tcase(s, sm);

  KP_GPU_TCASE(rn, "ops_rmsnorm");
  KP_ADD_GPU_LOOP_TEST(rn, test_rmsnorm, 0, 3);
  KP_ADD_GPU_LOOP_TEST(rn, test_add_rmsnorm, 0, 3);
  KP_ADD_GPU_LOOP_TEST(rn, test_rmsnorm_swiglu, 0, 3);
  suite_add_tcase(s, rn);

  KP_GPU_TCASE(glu, "ops_glu");
  KP_ADD_GPU_LOOP_TEST(glu, test_swiglu, 0, 3);
  KP_ADD_GPU_LOOP_TEST(glu, test_geglu, 0, 6);
  suite_add_tcase(s, glu);

  KP_GPU_TCASE(rp, "ops_rope");
  KP_ADD_GPU_LOOP_TEST(rp, test_rope, 0, 6);
  suite_add_tcase(s, rp);
  return s;
}
