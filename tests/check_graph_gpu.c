/*
** check_graph_gpu.c -- the row ops in CUDA graphs, and the row ops and GEMM
** with programmatic dependent launch (PDL, kp_ctx_set_pdl), against float64.
**
** - every row family captured into a graph, warm (the variant loaded by a
**   checked call before) and cold (the first call of a fresh ctx inside the
**   capture), PDL off and on; each graph replayed three times on new random
**   inputs, with the outputs poisoned again before each replay;
** - PDL right after a memset of the input or a copy into it (work that is
**   not a PDL kernel), or a GEMM writing it, sees that work's result, and a
**   copy right after a PDL kernel sees its output, eager and in a graph;
** - a chain rmsnorm -> swiglu -> rope -> GEMM (16-bit types), each reading
**   the previous output, several chains back to back, PDL on: stage by
**   stage against float64 and bit for bit against the same chain without
**   PDL, eager and in a graph;
**   when PDL takes effect the graph's kernels are joined by programmatic
**   edges (and by none without it), so the PDL cases cannot pass as plain
**   launches unnoticed.
** On a GPU where PDL has no effect (below sm_90, a driver older than 12.3)
** the cases still run, as plain launches, and say so on stderr.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "gpu_harness.h"
#include "internal.h"
#include "ops_cases.h"
#include "reference.h"

#define EPS 1e-6f
#define THETA 10000.0
#define HQ 4 /* rope's q and k heads (head_dim = rot_dim = the op's cols) */
#define HK 2

static const kp_dtype DT[3] = {KP_F32, KP_F16, KP_BF16};
static const char *const OP_NAME[OP_COUNT_] = {"softmax", "rmsnorm", "add_rmsnorm", "swiglu",
                                               "geglu(tanh)", "rmsnorm_swiglu", "rope"};

static double *dalloc(int64_t n) {
  double *p = calloc((size_t)(n > 0 ? n : 1), sizeof *p);
  ck_assert_msg(p != NULL, "out of host memory");
  return p;
}

/* Does PDL take effect for this ctx's row ops: its switch, the device and
** driver (kp_ctx_pdl), and code with the waits in every row variant it has
** loaded (not from compute_80 PTX: launch.c)?  On an sm_90+ GPU with a
** 12.3+ driver the switch must take: otherwise these tests would pass
** without PDL ever running. */
static int pdl_effective(gpu *g, const kp_ctx *ctx) {
  kp_device_info di;
  if (kp_ctx_device_info((kp_ctx *)ctx, &di) != KP_OK) return 0;
  if (ctx->pdl && di.sm >= 90 && di.driver_version >= 12030 && !kp_ctx_pdl(ctx))
    gpu_fail(g, "PDL is on, sm_%d, driver %d, yet kp_ctx_pdl says it has no effect", di.sm,
             di.driver_version);
  if (!kp_ctx_pdl(ctx)) return 0;
  for (uint32_t i = 0; i < ctx->pack.n_entries; i++) {
    const int f = kp_family_from_name(ctx->pack.entries[i].family);
    if (ctx->funcs[i] && f >= 0 && kp_family_pdl((kp_family)f) && !ctx->pdl_code[i]) return 0;
  }
  return 1;
}

/* Every function this ctx has loaded launches with its parameters as one
** buffer (runtime/launch.c) where the driver can say where they sit
** (cuFuncGetParamInfo, 12.4+): so the captures here replay that form. */
static void check_params_packed(gpu *g, const kp_ctx *ctx) {
  if (!ctx->drv->cuFuncGetParamInfo) {
    fprintf(stderr, "%s: the driver has no cuFuncGetParamInfo: parameters passed one by one\n",
            g->test);
    return;
  }
  int loaded = 0;
  for (uint32_t i = 0; i < ctx->pack.n_entries; i++) {
    if (!ctx->funcs[i]) continue;
    loaded++;
    if (!ctx->params[i] || ctx->params[i]->n <= 0)
      gpu_fail(g, "%s launches with a pointer per parameter, not one buffer",
               ctx->pack.entries[i].name);
  }
  ck_assert_msg(loaded > 0, "%s: no function loaded", g->test);
}

/* Once per test: whether PDL can take effect here (and must: pdl_effective). */
static void say_pdl(gpu *g) {
  kp_ctx_set_pdl(g->ctx, 1);
  kp_device_info di;
  kp_ctx_device_info(g->ctx, &di);
  if (!pdl_effective(g, g->ctx))
    fprintf(stderr, "%s: PDL has no effect on %s (sm_%d, driver %d): its cases run as plain "
                    "launches\n", g->test, di.name, di.sm, di.driver_version);
  kp_ctx_set_pdl(g->ctx, 0);
}

/* Start test `what`/<dtype i> (gpu_open) and say whether PDL can take effect. */
static kp_dtype open_test(gpu *g, const char *what, int i) {
  char name[64];
  snprintf(name, sizeof name, "%s/%s", what, kp_dtype_name(DT[i]));
  gpu_open(g, name, i);
  say_pdl(g);
  return DT[i];
}

/* ---- one call of a row op, its tensors and reference ------------------------------- */

/* x: the input -- softmax/rmsnorm/add_rmsnorm (rows, cols); swiglu/geglu
** gate|up and rmsnorm_swiglu's x (rows, 2*cols); rope's q (tokens = rows,
** HQ heads of cols), rotated in place.  w: the norms' weight.  r:
** add_rmsnorm's residual (updated in place), rope's k (HK heads).  y: the
** output.  Every row is cols (or 2*cols) elements with no padding, so an odd
** cols puts rows at every residue mod 16 bytes. */
typedef struct rowop {
  int op;
  kp_dtype dt;
  int64_t rows, cols;
  ht x, w, r, y;
  int has_w, has_r, has_y;
  double *ref, *ref_r, *mag; /* y's (rope: q's) reference, r's, geglu's |gate * up| */
} rowop;

static void rowop_make(gpu *g, rowop *o, int op, kp_dtype dt, int64_t rows, int64_t cols) {
  memset(o, 0, sizeof *o);
  o->op = op, o->dt = dt, o->rows = rows, o->cols = cols;
  const int64_t xc = op == OP_ROPE ? HQ * cols
                     : op == OP_SWIGLU || op == OP_GEGLU || op == OP_RMSNORM_SWIGLU ? 2 * cols
                                                                                   : cols;
  ht_make(g, &o->x, dt, rows, xc, xc, 0, KP_POISON);
  o->has_w = op == OP_RMSNORM || op == OP_ADD_RMSNORM || op == OP_RMSNORM_SWIGLU;
  if (o->has_w) ht_make(g, &o->w, dt, 1, op == OP_RMSNORM_SWIGLU ? xc : cols, xc, 0, KP_POISON);
  o->has_r = op == OP_ADD_RMSNORM || op == OP_ROPE;
  const int64_t rc = op == OP_ROPE ? HK * cols : cols;
  if (o->has_r) ht_make(g, &o->r, dt, rows, rc, rc, 0, KP_POISON);
  o->has_y = op != OP_ROPE;
  if (o->has_y) ht_make(g, &o->y, dt, rows, cols, cols, 0, KP_POISON);
  o->ref = dalloc(rows * xc);
  o->ref_r = dalloc(rows * rc);
  o->mag = dalloc(rows * cols);
}

static void rowop_free(gpu *g, rowop *o) {
  ht_free(g, &o->x);
  if (o->has_w) ht_free(g, &o->w);
  if (o->has_r) ht_free(g, &o->r);
  if (o->has_y) ht_free(g, &o->y);
  free(o->ref);
  free(o->ref_r);
  free(o->mag);
}

static void fill(gpu *g, ht *t, double lo, double hi) {
  ht_reset(t, KP_POISON);
  ht_fill_uniform(g, t, lo, hi);
}

/* Rotate each head of hd values of each token of t (values v, out: ref) by
** the NeoX angles of position = token index (rot_dim = hd), as the op
** computes them from theta. */
static void rope_ref(const double *v, double *out, int64_t tokens, int64_t heads, int64_t hd) {
  double *cs = dalloc(hd / 2), *sn = dalloc(hd / 2);
  for (int64_t t = 0; t < tokens; t++) {
    for (int64_t i = 0; i < hd / 2; i++) {
      const double a = (double)t * ref_rope_inv_freq(THETA, i, hd);
      cs[i] = cos(a), sn[i] = sin(a);
    }
    for (int64_t h = 0; h < heads; h++) {
      double *o = out + (t * heads + h) * hd;
      memcpy(o, v + (t * heads + h) * hd, (size_t)hd * sizeof *o);
      ref_rope_head(o, cs, sn, hd, 0);
    }
  }
  free(cs);
  free(sn);
}

/* New random inputs, outputs poisoned again, all uploaded; the reference. */
static void rowop_fill(gpu *g, rowop *o) {
  const int64_t R = o->rows, C = o->cols;
  double *h = dalloc(2 * C);
  switch (o->op) {
  case OP_SOFTMAX:
    fill(g, &o->x, -8.0, 8.0);
    for (int64_t r = 0; r < R; r++) ref_softmax_row(o->x.val + r * C, o->ref + r * C, C);
    break;
  case OP_RMSNORM:
  case OP_ADD_RMSNORM:
    fill(g, &o->x, -3.0, 3.0);
    fill(g, &o->w, 0.1, 2.0);
    if (o->op == OP_ADD_RMSNORM) { /* y = rmsnorm(round(x + residual)) */
      fill(g, &o->r, -3.0, 3.0);
      for (int64_t e = 0; e < R * C; e++) o->ref_r[e] = dt_round(o->dt, o->x.val[e] + o->r.val[e]);
    }
    for (int64_t r = 0; r < R; r++)
      ref_rmsnorm_row((o->op == OP_ADD_RMSNORM ? o->ref_r : o->x.val) + r * C, o->w.val,
                      o->ref + r * C, C, (double)EPS);
    break;
  case OP_SWIGLU:
  case OP_GEGLU:
    ht_reset(&o->x, KP_POISON);
    for (int64_t r = 0; r < R; r++)
      for (int64_t c = 0; c < 2 * C; c++)
        ht_set(&o->x, r, c, c < C ? rng_uniform(g, -8.0, 8.0) : rng_uniform(g, -4.0, 4.0));
    for (int64_t r = 0; r < R; r++)
      for (int64_t c = 0; c < C; c++) {
        const double gt = o->x.val[r * 2 * C + c], up = o->x.val[r * 2 * C + C + c];
        o->ref[r * C + c] = (o->op == OP_SWIGLU ? ref_silu(gt) : ref_gelu_tanh(gt)) * up;
        o->mag[r * C + c] = gt * up;
      }
    break;
  case OP_RMSNORM_SWIGLU:
    fill(g, &o->x, -3.0, 3.0);
    fill(g, &o->w, 0.1, 2.0);
    for (int64_t r = 0; r < R; r++) {
      ref_rmsnorm_row(o->x.val + r * 2 * C, o->w.val, h, 2 * C, (double)EPS);
      for (int64_t c = 0; c < C; c++) o->ref[r * C + c] = ref_silu(h[c]) * h[C + c];
    }
    break;
  default: /* OP_ROPE */
    fill(g, &o->x, -2.0, 2.0);
    fill(g, &o->r, -2.0, 2.0);
    rope_ref(o->x.val, o->ref, R, HQ, C);
    rope_ref(o->r.val, o->ref_r, R, HK, C);
    break;
  }
  free(h);
  hb_upload(g, &o->x.b);
  if (o->has_w) hb_upload(g, &o->w.b);
  if (o->has_r) hb_upload(g, &o->r.b);
  if (o->has_y) ht_reset(&o->y, KP_POISON), hb_upload(g, &o->y.b);
}

static kp_status rowop_call(const rowop *o, kp_ctx *ctx, CUstream s) {
  const kp_dtype dt = o->dt;
  const int64_t R = o->rows, C = o->cols;
  void *x = ht_dev(&o->x), *y = o->has_y ? ht_dev(&o->y) : NULL;
  switch (o->op) {
  case OP_SOFTMAX: return kp_softmax(ctx, dt, x, C, y, C, R, C, s);
  case OP_RMSNORM: return kp_rmsnorm(ctx, dt, x, C, ht_dev(&o->w), y, C, R, C, EPS, s);
  case OP_ADD_RMSNORM:
    return kp_add_rmsnorm(ctx, dt, x, C, ht_dev(&o->r), C, ht_dev(&o->w), y, C, R, C, EPS, s);
  case OP_SWIGLU: return kp_swiglu(ctx, dt, x, hb_dev(&o->x.b, ht_index(&o->x, 0, C)), 2 * C, y, C, R, C, s);
  case OP_GEGLU:
    return kp_geglu(ctx, dt, KP_GELU_TANH, x, hb_dev(&o->x.b, ht_index(&o->x, 0, C)), 2 * C, y,
                    C, R, C, s);
  case OP_RMSNORM_SWIGLU:
    return kp_rmsnorm_swiglu(ctx, dt, x, 2 * C, ht_dev(&o->w), y, C, R, C, EPS, s);
  default: {
    kp_rope_desc d;
    memset(&d, 0, sizeof d);
    d.tokens = R, d.heads_q = HQ, d.heads_k = HK, d.head_dim = C, d.rot_dim = C;
    d.q_stride_token = HQ * C, d.q_stride_head = C;
    d.k_stride_token = HK * C, d.k_stride_head = C;
    d.layout = KP_ROPE_NEOX;
    d.theta = (float)THETA;
    return kp_rope(ctx, dt, x, ht_dev(&o->r), &d, s);
  }
  }
}

/* After the op ran (and the stream was synchronised): outputs against the
** reference, nothing outside them written, inputs unchanged. */
static void rowop_check(gpu *g, rowop *o) {
  const double tl = op_tol(o->op, o->dt);
  if (o->has_y) ht_check_output(g, &o->y, "y", o->ref, o->op == OP_GEGLU ? o->mag : NULL, tl);
  if (o->op == OP_ADD_RMSNORM) ht_check_ulp(g, &o->r, "residual", o->ref_r, 1);
  if (o->op == OP_ROPE) {
    ht_check_output(g, &o->x, "q", o->ref, NULL, tl);
    ht_check_output(g, &o->r, "k", o->ref_r, NULL, tl);
  } else {
    hb_check_unchanged(g, &o->x.b, "x");
  }
  if (o->has_w) hb_check_unchanged(g, &o->w.b, "w");
}

/* ---- every family in a graph --------------------------------------------------------- */

/* A ctx of its own (device 0's primary context, as g's) with PDL as given. */
static kp_ctx *fresh_ctx(gpu *g, int pdl) {
  kp_options opt;
  kp_options_init(&opt);
  opt.pdl = pdl;
  kp_ctx *ctx = NULL;
  kp_status st = kp_ctx_create(&opt, &ctx);
  ck_assert_msg(st == KP_OK, "%s: kp_ctx_create: %s: %s", g->test, kp_status_name(st),
                kp_ctx_errmsg(ctx));
  CU(g, cuCtxSetCurrent(g->cu));
  return ctx;
}

static void graph_case(gpu *g, int op, kp_dtype dt, int64_t rows, int64_t cols, int pdl,
                       int cold) {
  gpu_case(g, "%s %s rows=%lld cols=%lld: captured %s, PDL %s, replayed on new data",
           OP_NAME[op], kp_dtype_name(dt), (long long)rows, (long long)cols,
           cold ? "cold (first call of a new ctx)" : "warm", pdl ? "on" : "off");
  kp_ctx *keep = g->ctx;
  if (cold) g->ctx = fresh_ctx(g, pdl); /* (g->ctx: gpu_op_ok reads its message) */
  else kp_ctx_set_pdl(g->ctx, pdl);
  rowop o;
  rowop_make(g, &o, op, dt, rows, cols);
  int ok = 1;
  if (!cold) { /* warm: the variant loaded by an ordinary, checked call */
    rowop_fill(g, &o);
    gpu_sync(g, "uploads");
    ok = gpu_op_ok(g, rowop_call(&o, g->ctx, g->stream), OP_NAME[op]);
    if (ok) gpu_sync(g, OP_NAME[op]), rowop_check(g, &o);
  }
  if (ok) {
    gpu_capture_begin(g);
    kp_status st = rowop_call(&o, g->ctx, g->stream);
    CUgraphExec ex = gpu_capture_end(g, NULL);
    if (gpu_op_ok(g, st, OP_NAME[op]))
      for (int rep = 0; rep < 3 && !g->case_failed; rep++) {
        rowop_fill(g, &o);
        CU(g, cuGraphLaunch(ex, g->stream));
        gpu_sync(g, "graph replay");
        rowop_check(g, &o);
      }
    gpu_graph_free(g, NULL, ex);
  }
  rowop_free(g, &o);
  if (cold) kp_ctx_destroy(g->ctx), g->ctx = keep;
  kp_ctx_set_pdl(g->ctx, 0);
}

/* every row family, warm and cold, PDL off and on: captured, then replayed three
** times on new inputs, each replay matching float64 */
START_TEST(test_graph_every_family) {
  gpu g;
  const kp_dtype dt = open_test(&g, "graph_every_family", _i);
  /* rows x cols: a decode row, an odd length (rows at every residue mod
  ** 16 bytes: the peeling variants), a few rows of a middling one; rope:
  ** tokens x head_dim */
  static const int64_t SH[3][2] = {{1, 4096}, {9, 777}, {37, 1000}};
  static const int64_t RSH[3][2] = {{1, 128}, {9, 64}, {37, 128}};
  for (int op = 0; op < OP_COUNT_; op++)
    for (int k = 0; k < 3; k++)
      for (int pdl = 0; pdl < 2; pdl++)
        for (int cold = 0; cold < 2; cold++) {
          const int64_t *s = op == OP_ROPE ? RSH[k] : SH[k];
          graph_case(&g, op, dt, s[0], s[1], pdl, cold);
        }
  check_params_packed(&g, g.ctx);
  gpu_close(&g);
}
END_TEST

/* ---- PDL next to work that is not a PDL kernel ----------------------------------------- */

enum { BY_MEMSET, BY_MEMCPY, BY_GEMM };
static const char *const BY_NAME[] = {"a memset", "a copy", "a GEMM"};

/* On one stream, without a synchronisation: `by` writes rmsnorm's input x,
** rmsnorm (PDL on) reads it, a copy takes its output y to z.  y must be
** rmsnorm of what `by` wrote, z a copy of y; eager, or captured and
** replayed twice on new data. */
static void foreign_case(gpu *g, kp_dtype dt, int by, int graph) {
  const int64_t R = by == BY_GEMM ? 2048 : 512, C = 4096, K = 2048;
  gpu_case(g, "rmsnorm %s %lldx%lld, PDL on, right after %s writing its input, then a copy of "
              "its output; %s", kp_dtype_name(dt), (long long)R, (long long)C, BY_NAME[by],
           graph ? "in a graph, replayed on new data" : "eager");
  ht x, w, y, z, src, a, b;
  ht_make(g, &x, dt, R, C, C, 0, KP_POISON);
  ht_make(g, &w, dt, 1, C, C, 0, KP_POISON);
  ht_make(g, &y, dt, R, C, C, 0, KP_POISON);
  ht_make(g, &z, dt, R, C, C, 0, KP_POISON);
  ht_make(g, &src, dt, R, C, C, 0, KP_POISON);
  ht_make(g, &a, dt, R, K, K, 0, KP_POISON);
  ht_make(g, &b, dt, C, K, K, 0, KP_POISON);
  const unsigned char byte = 0x3C; /* bf16 0.0115, f16 1.06, f32 0.0115 */
  double *xv = dalloc(R * C), *ref = dalloc(R * C);
  kp_gemm_desc gd;
  kp_gemm_desc_init(&gd, R, C, K);
  CUgraphExec ex = NULL;
  kp_ctx_set_pdl(g->ctx, 1);
  for (int rep = 0; rep < (graph ? 2 : 1) && !g->case_failed; rep++) {
    /* x holds other values than `by` writes: a read too early shows */
    fill(g, &x, by == BY_MEMCPY ? -9.0 : -3.0, by == BY_MEMCPY ? -5.0 : 3.0);
    fill(g, &w, 0.1, 2.0);
    fill(g, &src, -3.0, 3.0);
    fill(g, &a, -1.0, 1.0);
    fill(g, &b, -1.0 / sqrt((double)K), 1.0 / sqrt((double)K));
    ht_reset(&y, KP_POISON);
    ht_reset(&z, 0x11);
    hb_upload(g, &x.b), hb_upload(g, &w.b), hb_upload(g, &y.b), hb_upload(g, &z.b);
    hb_upload(g, &src.b), hb_upload(g, &a.b), hb_upload(g, &b.b);
    gpu_sync(g, "uploads");
    if (graph && rep == 0) gpu_capture_begin(g);
    if (!graph || rep == 0) {
      kp_status st = KP_OK;
      if (by == BY_MEMSET) CU(g, cuMemsetD8Async((CUdeviceptr)(uintptr_t)ht_dev(&x), byte,
                                                (size_t)(R * C) * x.b.es, g->stream));
      else if (by == BY_MEMCPY) CU(g, cuMemcpyDtoDAsync(x.b.d, src.b.d, x.b.n * x.b.es, g->stream));
      else st = kp_gemm(g->ctx, dt, ht_dev(&a), ht_dev(&b), ht_dev(&x), &gd, g->stream);
      if (st == KP_OK)
        st = kp_rmsnorm(g->ctx, dt, ht_dev(&x), C, ht_dev(&w), ht_dev(&y), C, R, C, EPS, g->stream);
      if (st == KP_OK) CU(g, cuMemcpyDtoDAsync(z.b.d, y.b.d, y.b.n * y.b.es, g->stream));
      if (graph) ex = gpu_capture_end(g, NULL);
      if (!gpu_op_ok(g, st, "kp_gemm/kp_rmsnorm")) break;
    }
    if (graph) CU(g, cuGraphLaunch(ex, g->stream));
    gpu_sync(g, "the sequence");
    /* what x must hold now: the byte pattern, src, or the GEMM's output
    ** (read back: its own accuracy is check_gemm_gpu's business) */
    hb_download(g, &x.b);
    for (int64_t r = 0; r < R; r++)
      for (int64_t c = 0; c < C; c++) {
        unsigned char pat[4];
        memset(pat, byte, sizeof pat);
        xv[r * C + c] = by == BY_MEMSET ? dt_get(dt, pat)
                        : by == BY_MEMCPY ? src.val[r * C + c] : ht_get(&x, r, c);
        if (!isfinite(xv[r * C + c])) {
          gpu_fail(g, "x[%lld,%lld] = %g after %s", (long long)r, (long long)c, xv[r * C + c],
                   BY_NAME[by]);
          r = R, c = C;
        }
      }
    for (int64_t r = 0; r < R; r++) ref_rmsnorm_row(xv + r * C, w.val, ref + r * C, C, (double)EPS);
    ht_check_output(g, &y, "y", ref, NULL, op_tol(OP_RMSNORM, dt));
    hb_download(g, &z.b);
    if (memcmp(z.b.img, y.b.img, y.b.n * y.b.es))
      gpu_fail(g, "z, copied from y right after the PDL rmsnorm, differs from y");
    hb_check_unchanged(g, &w.b, "w");
  }
  if (ex) gpu_graph_free(g, NULL, ex);
  kp_ctx_set_pdl(g->ctx, 0);
  ht_free(g, &x), ht_free(g, &w), ht_free(g, &y), ht_free(g, &z);
  ht_free(g, &src), ht_free(g, &a), ht_free(g, &b);
  free(xv);
  free(ref);
}

/* a PDL call right after a memset, a copy or a GEMM into its input sees their
** result, and a copy right after it sees its output; eager and in a graph */
START_TEST(test_pdl_after_foreign) {
  gpu g;
  const kp_dtype dt = open_test(&g, "pdl_after_foreign", _i);
  for (int by = BY_MEMSET; by <= BY_GEMM; by++)
    for (int graph = 0; graph < 2; graph++)
      if (by != BY_GEMM || dt != KP_F32) foreign_case(&g, dt, by, graph); /* (no f32 GEMM) */
  check_params_packed(&g, g.ctx); /* the GEMM's too, with its TMA maps */
  gpu_close(&g);
}
END_TEST

/* ---- a dependent chain ------------------------------------------------------------------ */

#define CH_I 2048 /* swiglu's width; rmsnorm over 2 * CH_I; rope: CH_I / 128 heads of 128 */
#define CH_L 3    /* chains back to back */
#define CH_G 256  /* the GEMM's n and k */

typedef struct chain {
  ht x[CH_L], w[CH_L], h[CH_L], s[CH_L], b[CH_L], o[CH_L];
  int gemm; /* the GEMM stage (16-bit types: there is no f32 GEMM) */
} chain;

/* chain l: h = rmsnorm(x) * w (tokens, 2I); s = silu(h[:, :I]) * h[:, I:]; rope on
** s in place as q (tokens, I/128 heads, 128), NeoX, positions = token index; then
** o = s[:, :G] b^T (b: G x G), a GEMM reading rope's output */
static kp_status chain_enqueue(gpu *g, chain *ch, int64_t T) {
  const int64_t I = CH_I;
  kp_rope_desc d;
  memset(&d, 0, sizeof d);
  d.tokens = T, d.heads_q = I / 128, d.heads_k = 0, d.head_dim = 128, d.rot_dim = 128;
  d.q_stride_token = I, d.q_stride_head = 128;
  d.layout = KP_ROPE_NEOX;
  d.theta = (float)THETA;
  kp_status st = KP_OK;
  for (int l = 0; l < CH_L && st == KP_OK; l++) {
    const kp_dtype dt = ch->x[l].b.dt;
    st = kp_rmsnorm(g->ctx, dt, ht_dev(&ch->x[l]), 2 * I, ht_dev(&ch->w[l]), ht_dev(&ch->h[l]),
                    2 * I, T, 2 * I, EPS, g->stream);
    if (st == KP_OK)
      st = kp_swiglu(g->ctx, dt, ht_dev(&ch->h[l]), hb_dev(&ch->h[l].b, ht_index(&ch->h[l], 0, I)),
                     2 * I, ht_dev(&ch->s[l]), I, T, I, g->stream);
    if (st == KP_OK) st = kp_rope(g->ctx, dt, ht_dev(&ch->s[l]), NULL, &d, g->stream);
    if (st == KP_OK && ch->gemm) {
      kp_gemm_desc gd;
      kp_gemm_desc_init(&gd, T, CH_G, CH_G);
      gd.lda = I;
      st = kp_gemm(g->ctx, dt, ht_dev(&ch->s[l]), ht_dev(&ch->b[l]), ht_dev(&ch->o[l]), &gd,
                   g->stream);
    }
  }
  return st;
}

/* poison h and s on the device (uploads, synchronous) */
static void chain_poison(gpu *g, chain *ch) {
  for (int l = 0; l < CH_L; l++) {
    ht_reset(&ch->h[l], KP_POISON), hb_upload(g, &ch->h[l].b);
    ht_reset(&ch->s[l], KP_POISON), hb_upload(g, &ch->s[l].b);
    if (ch->gemm) ht_reset(&ch->o[l], KP_POISON), hb_upload(g, &ch->o[l].b);
  }
  gpu_sync(g, "uploads");
}

/* Each stage against float64 from the stage before as the GPU left it. */
static void chain_check(gpu *g, chain *ch, int64_t T) {
  const int64_t I = CH_I;
  for (int l = 0; l < CH_L; l++) {
    const kp_dtype dt = ch->x[l].b.dt;
    double *ref = dalloc(T * 2 * I), *pre = dalloc(T * I), *hv = dalloc(T * 2 * I);
    for (int64_t t = 0; t < T; t++)
      ref_rmsnorm_row(ch->x[l].val + t * 2 * I, ch->w[l].val, ref + t * 2 * I, 2 * I, (double)EPS);
    ht_check_output(g, &ch->h[l], "h (rmsnorm)", ref, NULL, op_tol(OP_RMSNORM, dt));
    for (int64_t t = 0; t < T; t++) /* (downloaded by the check) */
      for (int64_t c = 0; c < 2 * I; c++) hv[t * 2 * I + c] = ht_get(&ch->h[l], t, c);
    for (int64_t t = 0; t < T; t++)
      for (int64_t c = 0; c < I; c++)
        pre[t * I + c] = ref_silu(hv[t * 2 * I + c]) * hv[t * 2 * I + I + c];
    rope_ref(pre, ref, T, I / 128, 128);
    /* two roundings (swiglu's output, rope's): the larger of the two bounds, twice */
    const double tl = 2 * fmax(op_tol(OP_SWIGLU, dt), op_tol(OP_ROPE, dt));
    ht_check_output(g, &ch->s[l], "s (swiglu, then rope)", ref, NULL, tl);
    if (ch->gemm) { /* o from s as the GPU left it (downloaded by the check) */
      double *a = dalloc(T * CH_G), *out = dalloc(T * CH_G), *mag = dalloc(T * CH_G);
      for (int64_t t = 0; t < T; t++)
        for (int64_t c = 0; c < CH_G; c++) a[t * CH_G + c] = ht_get(&ch->s[l], t, c);
      ref_gemm(T, CH_G, CH_G, a, ch->b[l].val, 0, 1.0, 0.0, NULL, NULL, 0, ref, out, mag);
      ht_check_output(g, &ch->o[l], "o (GEMM)", out, mag, op_tol(OP_RMSNORM, dt));
      free(a), free(out), free(mag);
    }
    free(ref), free(pre), free(hv);
  }
}

/* the device's h and s of every chain, bit for bit as in `base` (NULL: keep them) */
static void chain_compare(gpu *g, chain *ch, unsigned char **base, const char *what) {
  for (int l = 0; l < CH_L; l++) {
    ht *t[3] = {&ch->h[l], &ch->s[l], &ch->o[l]};
    for (int k = 0; k < 2 + ch->gemm; k++) {
      hb_download(g, &t[k]->b);
      const size_t n = t[k]->b.n * t[k]->b.es;
      unsigned char **b = &base[3 * l + k];
      if (!*b) {
        *b = malloc(n);
        ck_assert_msg(*b != NULL, "out of host memory");
        memcpy(*b, t[k]->b.img, n);
      } else if (memcmp(*b, t[k]->b.img, n)) {
        gpu_fail(g, "chain %d: %s %s differs from the run without PDL, eager", l,
                 k == 2 ? "o" : k ? "s" : "h", what);
      }
    }
  }
}

static void chain_case(gpu *g, kp_dtype dt, int64_t T) {
  const int64_t I = CH_I;
  chain ch;
  ch.gemm = dt != KP_F32;
  const int K = 3 + ch.gemm; /* kernels a chain */
  for (int l = 0; l < CH_L; l++) {
    if (ch.gemm) {
      ht_make(g, &ch.b[l], dt, CH_G, CH_G, CH_G, 0, KP_POISON);
      ht_make(g, &ch.o[l], dt, T, CH_G, CH_G, 0, KP_POISON);
      ht_fill_uniform(g, &ch.b[l], -1.0 / 16, 1.0 / 16);
      hb_upload(g, &ch.b[l].b);
    }
    ht_make(g, &ch.x[l], dt, T, 2 * I, 2 * I, 0, KP_POISON);
    ht_make(g, &ch.w[l], dt, 1, 2 * I, 2 * I, 0, KP_POISON);
    ht_make(g, &ch.h[l], dt, T, 2 * I, 2 * I, 0, KP_POISON);
    ht_make(g, &ch.s[l], dt, T, I, I, 0, KP_POISON);
    ht_fill_uniform(g, &ch.x[l], -3.0, 3.0);
    ht_fill_uniform(g, &ch.w[l], 0.1, 2.0);
    hb_upload(g, &ch.x[l].b);
    hb_upload(g, &ch.w[l].b);
  }
  unsigned char *base[3 * CH_L] = {0};
  /* eager PDL off (checked against float64, kept), eager PDL on, graphs off and on */
  for (int mode = 0; mode < 4; mode++) {
    const int pdl = mode & 1, graph = mode >> 1;
    gpu_case(g, "chain of %d x (rmsnorm %s %lldx%lld -> swiglu -> rope%s), PDL %s, %s", CH_L,
             kp_dtype_name(dt), (long long)T, (long long)(2 * I), ch.gemm ? " -> gemm" : "",
             pdl ? "on" : "off", graph ? "in a graph, replayed twice" : "eager");
    kp_ctx_set_pdl(g->ctx, pdl);
    chain_poison(g, &ch);
    if (!graph) {
      if (gpu_op_ok(g, chain_enqueue(g, &ch, T), "the chain")) {
        gpu_sync(g, "the chain");
        if (!pdl) chain_check(g, &ch, T);
        chain_compare(g, &ch, base, pdl ? "with PDL, eager" : "");
      }
      continue;
    }
    CUgraph gr = NULL;
    gpu_capture_begin(g);
    kp_status st = chain_enqueue(g, &ch, T);
    CUgraphExec ex = gpu_capture_end(g, &gr);
    if (gpu_op_ok(g, st, "the chain")) {
      /* K L kernels in a line: K L - 1 edges, programmatic where PDL took */
      int64_t prog, edges = gpu_graph_edges(g, gr, &prog);
      const int want = pdl && pdl_effective(g, g->ctx) ? K * CH_L - 1 : 0;
      if (edges >= 0 && (edges < K * CH_L - 1 || prog != want))
        gpu_fail(g, "the graph has %lld edges, %lld programmatic; expected %d, %d programmatic",
                 (long long)edges, (long long)prog, K * CH_L - 1, want);
      if (edges < 0 && pdl)
        fprintf(stderr, "%s: the driver cannot list the graph's edge types (CUDA < 12.3)\n",
                g->test);
      for (int rep = 0; rep < 2; rep++) {
        if (rep) chain_poison(g, &ch);
        CU(g, cuGraphLaunch(ex, g->stream));
        gpu_sync(g, "graph replay");
        chain_check(g, &ch, T);
        chain_compare(g, &ch, base, pdl ? "with PDL, in a graph" : "in a graph");
      }
    }
    gpu_graph_free(g, gr, ex);
  }
  kp_ctx_set_pdl(g->ctx, 0);
  for (int l = 0; l < CH_L; l++) {
    ht_free(g, &ch.x[l]), ht_free(g, &ch.w[l]), ht_free(g, &ch.h[l]), ht_free(g, &ch.s[l]);
    if (ch.gemm) ht_free(g, &ch.b[l]), ht_free(g, &ch.o[l]);
    free(base[3 * l]), free(base[3 * l + 1]), free(base[3 * l + 2]);
  }
}

/* chains rmsnorm -> swiglu -> rope (-> gemm) at decode sizes and one larger: each stage vs
** float64 from the GPU's previous stage, and PDL on (eager, graph) bit-identical to PDL off */
START_TEST(test_pdl_chain) {
  gpu g;
  const kp_dtype dt = open_test(&g, "pdl_chain", _i);
  static const int64_t TOK[] = {1, 16, 128, 1000};
  for (int k = 0; k < 4; k++) chain_case(&g, dt, TOK[k]);
  gpu_close(&g);
}
END_TEST

/* ---- without a GPU ----------------------------------------------------------------------- */

/* Does SRC's kernel, whose entry (BODY) only triggers the next launch with the comment
** ENTRY, wait in the block OPEN -- kp_grid_wait() before the block's '}' -- and before
** FIRST (its first global access)?  The forms of the row kernels whose PDL wait comes
** after their index arithmetic (kp_grid_dep: kp_device.cuh). */
static int late_wait(const char *src, const char *body, const char *entry, const char *open,
                     const char *first) {
  const char *o = strstr(src, open), *w = o ? strstr(o, "kp_grid_wait();") : NULL;
  const char *f = strstr(src, first);
  return body && !strncmp(body + 4, entry, strlen(entry)) && w && w < strchr(o, '}') && f &&
         w < f;
}

/* the row families and GEMM, and only they, are launched with PDL, and every variant of
** theirs in every pack built lets the next grid launch and waits for the grid before it
** (kp_grid_begin: kp_device.cuh) before anything else -- RoPE and SwiGLU's column chunks
** after their index arithmetic, before their first load (late_wait); GEMM waits first
** and never lets the next grid launch early */
START_TEST(test_pdl_variants_wait) {
  for (int f = 0; f < KP_FAM_COUNT; f++)
    ck_assert_int_eq(kp_family_pdl((kp_family)f),
                     strcmp(kp_family_dims_text((kp_family)f), KP_ROW_DIMS) == 0 ||
                         f == KP_FAM_GEMM);
  const char *dir = getenv("KP_PACK_DIR");
  ck_assert_msg(dir != NULL, "KP_PACK_DIR is not set");
  static const char *const targets[] = {"sm_80",      "sm_86",       "sm_89",      "sm_90a",
                                        "sm_120",     "compute_80",  "compute_100", "compute_103"};
  int packs = 0;
  for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
    char path[1024], err[600];
    snprintf(path, sizeof path, "%s/%s.kpk", dir, targets[t]);
    kpk_pack pk;
    if (kpk_open(&pk, path, err, sizeof err) != KP_OK) continue; /* not built (ARCHS) */
    packs++;
    for (uint32_t i = 0; i < pk.n_entries; i++) {
      const int f = kp_family_from_name(pk.entries[i].family);
      if (f < 0 || !kp_family_pdl((kp_family)f)) continue;
      size_t n;
      char *src = kpk_source_dup(&pk, i, &n);
      ck_assert_ptr_nonnull(src);
      /* the kernel's body: its first statement the trigger and the wait */
      const char *k = strstr(src, "// ---- kernel ----");
      const char *body = k ? strstr(k, "extern \"C\" __global__") : NULL;
      body = body ? strstr(body, ") {\n") : NULL;
      /* (RoPE: the wait in rope_tokens, after its first row's address; SwiGLU's column
      ** chunks: in kp_glu_chunk, LATE, after its row and chunk divisions) */
      const int rope =
          f == KP_FAM_ROPE &&
          late_wait(src, body, "  kp_grid_launch_dependents(); // (PDL: the wait is in rope_tokens",
                    "if (p0 == 0) {", "load1(cur, 0);");
      const int chunk = late_wait(
          src, body, "  kp_grid_launch_dependents(); // (PDL: the wait is in kp_glu_chunk, LATE,",
          "if constexpr (LATE) {", "if constexpr (PEEL) {\n    const int h = kp_head(yr");
      /* (GEMM: the wait alone, no early trigger -- its dependents launch as its blocks end,
      ** not onto SMs its own blocks still hold: bench/NOTES.md 73) */
      const int gemm = f == KP_FAM_GEMM && body && !strncmp(body + 4, "  kp_grid_wait();", 17);
      ck_assert_msg(rope || chunk || gemm || (body && !strncmp(body + 4, "  kp_grid_begin();", 18)),
                    "%s: %s does not start with kp_grid_begin()%s", path, pk.entries[i].name,
                    f == KP_FAM_GEMM ? " or kp_grid_wait()" : "");
      /* and kp_grid_begin is the trigger, then the wait, and kp_grid_wait the wait */
      const char *gw = strstr(src, "void kp_grid_wait() {\n");
      ck_assert_msg(gw && strstr(gw, "griddepcontrol.wait;") &&
                        strstr(gw, "griddepcontrol.wait;") < strchr(gw, '}'),
                    "%s: %s: kp_grid_wait does not wait", path, pk.entries[i].name);
      const char *gb = strstr(src, "void kp_grid_begin() {\n");
      ck_assert_msg(gb && strstr(gb, "kp_grid_launch_dependents();\n  kp_grid_wait();") ==
                              strchr(gb, '\n') + 3,
                    "%s: %s: kp_grid_begin is not the trigger then the wait", path,
                    pk.entries[i].name);
      free(src);
    }
    kpk_close(&pk);
  }
  ck_assert_msg(packs > 0, "no pack in %s", dir);
}
END_TEST

/* the launcher's placement rule on the sm_90a pack's GEMM variants (an H100 / H200 SM:
** 228 KiB): the decode MLP's 2-CTA GEMV (103 KiB CTAs, two fit an SM) goes without PDL,
** the 1-CTA-an-SM split GEMM of 128 tokens and the cluster-free GEMV with it; every
** entry that is not a cluster kernel with it */
START_TEST(test_pdl_placement) {
  const char *dir = getenv("KP_PACK_DIR");
  ck_assert_msg(dir != NULL, "KP_PACK_DIR is not set");
  char path[1024], err[600];
  snprintf(path, sizeof path, "%s/sm_90a.kpk", dir);
  kpk_pack pk;
  if (kpk_open(&pk, path, err, sizeof err) != KP_OK) {
    fprintf(stderr, "pdl_placement: %s not built (ARCHS): skipped\n", path);
    return;
  }
  const size_t sm = 228 * 1024;
  static const struct {
    const char *name;
    int ok;
  } want[] = {{"gemm_bf16_gemv_m16_n64_s10_k2_tma_nk", 0},
              {"gemm_bf16_wg_128x64_s8_k2_nk", 1},
              {"gemm_bf16_gemv_m16_n128_s5_tma_nk", 1}};
  int found = 0;
  for (uint32_t i = 0; i < pk.n_entries; i++) {
    const kpk_entry *e = &pk.entries[i];
    if (e->cluster <= 1) ck_assert_int_eq(kp_entry_pdl_placement_ok(e, sm), 1);
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++)
      if (!strcmp(e->name, want[w].name)) {
        found++;
        ck_assert_msg(kp_entry_pdl_placement_ok(e, sm) == want[w].ok,
                      "%s (cluster %u, %u bytes of shared memory): PDL placement %s", e->name,
                      e->cluster, e->smem, want[w].ok ? "refused" : "allowed");
      }
  }
  kpk_close(&pk);
  ck_assert_int_eq(found, 3);
}
END_TEST

/* kp_ctx_set_pdl takes 0 and 1 only; kp_ctx_pdl is 0 without a device (pack-only ctx) */
START_TEST(test_pdl_api) {
  kp_ctx *ctx = kp_test_pack_only();
  EXPECT(ctx, kp_ctx_set_pdl(ctx, 2), KP_ERR_INVALID_ARG, "must be 0 or 1");
  EXPECT(NULL, kp_ctx_set_pdl(NULL, 1), KP_ERR_INVALID_ARG, "ctx is NULL");
  ck_assert_int_eq(kp_ctx_set_pdl(ctx, 1), KP_OK);
  ck_assert_int_eq(kp_ctx_pdl(ctx), 0);
  ck_assert_int_eq(kp_ctx_pdl(NULL), 0);
  kp_ctx_destroy(ctx);
}
END_TEST

Suite *graph_gpu_suite(void) {
  Suite *s = suite_create("graph_gpu");
  TCase *host = tcase_create("pdl_host");
  tcase_set_timeout(host, 60); /* (every entry's source in 8 packs: 1 s, 3 under ASan) */
  tcase_add_test(host, test_pdl_variants_wait);
  tcase_add_test(host, test_pdl_api);
  tcase_add_test(host, test_pdl_placement);
  suite_add_tcase(s, host);
  KP_GPU_TCASE(gr, "graph");
  KP_ADD_GPU_LOOP_TEST(gr, test_graph_every_family, 0, 3);
  suite_add_tcase(s, gr);
  KP_GPU_TCASE(pd, "pdl");
  KP_ADD_GPU_LOOP_TEST(pd, test_pdl_after_foreign, 0, 3);
  KP_ADD_GPU_LOOP_TEST(pd, test_pdl_chain, 0, 3);
  suite_add_tcase(s, pd);
  return s;
}
