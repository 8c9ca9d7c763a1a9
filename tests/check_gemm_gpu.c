/*
** check_gemm_gpu.c -- kp_gemm on a GPU against float64.
**
**   every_variant/<dt>  every gemm variant of the device's pack (none named
**                       here: the pack's entries of family gemm that can run
**                       on this device), forced in turn, at small odd shapes
**                       fitted into its m/n/k/batch ranges, for each B layout
**                       it computes: plain, each epilogue (alpha, beta * C,
**                       C == D, bias, relu/silu/gelu, f32 output), batches of
**                       3 (strided, A or B broadcast), padded leading dims,
**                       and for variants that take less than 16-byte
**                       alignment, odd leading dims and pointers shifted by
**                       their alignment (one element for element-aligned ones)
**                       (KP_TEST_ONLY, check_suites.h: only some variants,
**                       e.g. for a compute-sanitizer run)
**   any_call/<dt>       the selection (nothing forced) on odd shapes, both
**                       layouts, packed odd strides and pointers one element
**                       off: kernpack.h promises any m, n, k and element
**                       alignment, so some variant must take each
**   large/<dt>          the selection at large shapes (1024^3 .. 4096 x 11008
**                       x 4096), ~2000 sampled outputs against float64 and
**                       every output written
**   rejects_write_nothing  bad calls on real buffers leave D as it was
**
** What every case checks: inputs are uniform in [-1, 1] (fresh each case,
** seed printed on failure, KP_TEST_SEED=<seed> reproduces), rounded to the
** dtype on the host; D starts as NaN poison (or as C, in place); every
** output is within the bound below of the float64 result rounded to the
** output dtype; nothing outside D's matrices changed (KP_PRE elements
** before, KP_GUARD after, the padding between n and ldd, the gaps between
** batches); the inputs are unchanged.  A failure names the variant, the
** case, the first bad element (batch, row, col) and its values.
**
** The bound.  Inputs are exact in the dtype, so each product a*b is exact in
** fp32 (11 + 11 significant bits < 24); what can differ from float64 is the
** fp32 accumulation over k terms, at most k * 2^-23 * sum|a b| (2^-23, not
** 2^-24, a step: tensor cores may truncate instead of rounding), times
** |alpha|; the epilogue's three fp32 roundings, 4 * 2^-24 (|alpha| sum|a b|
** + |beta c| + |bias|); the activation (silu and gelu through ex2.approx:
** derivative <= 1.2, plus 2^-16 |pre|); and the final rounding to the
** output dtype, one ulp: 2^-10 |out| for f16, 2^-7 bf16, 2^-23 f32 (plus the
** dtype's smallest step).  Tests time nothing.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "gpu_harness.h"
#include "internal.h"
#include "reference.h"

static const kp_dtype DT[2] = {KP_F16, KP_BF16};

/* ---- batched matrices --------------------------------------------------------
** `batch` (rows, cols) matrices with row stride ld, `stride` elements apart
** (0: one matrix for every batch), from element off (KP_PRE + the shift) of
** their own buffer, KP_GUARD poisoned elements after the last; inside[e]
** marks the buffer's elements that belong to a matrix. */
typedef struct bmat {
  hbuf b;
  int64_t rows, cols, ld, stride, batch, nmat, off;
  unsigned char *inside;
} bmat;

static void bm_make(gpu *g, bmat *t, kp_dtype dt, int64_t rows, int64_t cols, int64_t ld,
                    int64_t batch, int64_t stride, int64_t shift) {
  ck_assert_msg(rows >= 1 && cols >= 1 && ld >= cols && batch >= 1 && stride >= 0 && shift >= 0,
                "%s: bad test matrix", g->test);
  t->rows = rows, t->cols = cols, t->ld = ld, t->batch = batch, t->stride = stride;
  t->nmat = stride ? batch : 1;
  t->off = KP_PRE + shift;
  const int64_t span = (t->nmat - 1) * stride + (rows - 1) * ld + cols;
  hb_make(g, &t->b, dt, (size_t)(t->off + span + KP_GUARD), KP_POISON);
  t->inside = calloc(t->b.n, 1);
  ck_assert_msg(t->inside != NULL, "%s: out of host memory", g->test);
  for (int64_t mi = 0; mi < t->nmat; mi++)
    for (int64_t r = 0; r < rows; r++) memset(t->inside + t->off + mi * stride + r * ld, 1, (size_t)cols);
}

static void bm_free(gpu *g, bmat *t) {
  if (t->b.img) hb_free(g, &t->b);
  free(t->inside);
  memset(t, 0, sizeof *t);
}

static size_t bm_idx(const bmat *t, int64_t bi, int64_t r, int64_t c) {
  return (size_t)(t->off + (t->stride ? bi : 0) * t->stride + r * t->ld + c);
}
static void *bm_dev(const bmat *t) { return hb_dev(&t->b, (size_t)t->off); }
/* as uploaded / as downloaded */
static double bm_in(const bmat *t, int64_t bi, int64_t r, int64_t c) { return hb_orig(&t->b, bm_idx(t, bi, r, c)); }
static double bm_out(const bmat *t, int64_t bi, int64_t r, int64_t c) { return hb_get(&t->b, bm_idx(t, bi, r, c)); }

static void bm_fill(gpu *g, bmat *t) {
  for (int64_t mi = 0; mi < t->nmat; mi++)
    for (int64_t r = 0; r < t->rows; r++)
      for (int64_t c = 0; c < t->cols; c++) hb_put(&t->b, bm_idx(t, mi, r, c), rng_uniform(g, -1.0, 1.0));
}

/* Matrix bi as dense row-major doubles (as uploaded). */
static double *bm_dense(gpu *g, const bmat *t, int64_t bi) {
  double *p = malloc((size_t)(t->rows * t->cols) * sizeof *p);
  ck_assert_msg(p != NULL, "%s: out of host memory", g->test);
  for (int64_t r = 0; r < t->rows; r++)
    for (int64_t c = 0; c < t->cols; c++) p[r * t->cols + c] = bm_in(t, bi, r, c);
  return p;
}

/* After hb_download: every element outside the matrices is as uploaded. */
static int64_t bm_check_outside(gpu *g, const bmat *t, const char *name) {
  int64_t bad = 0;
  for (size_t e = 0; e < t->b.n; e++) {
    if (t->inside[e] || hb_same_as_orig(&t->b, e)) continue;
    if (bad++ < 4) {
      const int64_t rel = (int64_t)e - t->off;
      const int64_t mi = t->stride && rel >= 0 ? rel / t->stride : 0, in = rel - mi * t->stride;
      fprintf(stderr, "  %s: buffer element %zu (matrix %lld, offset %lld = row %lld col %lld; "
                      "cols %lld ld %lld stride %lld) is outside every matrix but was written: %.9g\n",
              name, e, (long long)mi, (long long)in, (long long)(in >= 0 ? in / t->ld : -1),
              (long long)(in >= 0 ? in % t->ld : in), (long long)t->cols, (long long)t->ld,
              (long long)t->stride, hb_get(&t->b, e));
    }
  }
  if (bad) gpu_fail(g, "%s: %lld elements outside its matrices were written", name, (long long)bad);
  return bad;
}

/* ---- the bound (file comment) ------------------------------------------------ */

static double ulp_rel(kp_dtype dt) { return dt == KP_F16 ? 0x1p-10 : dt == KP_BF16 ? 0x1p-7 : 0x1p-23; }

static double gemm_bound(kp_dtype odt, int64_t k, double alpha, double beta, double mag,
                         double cval, double biasv, double pre, double out, int act) {
  const double u = 0x1p-24;
  double e = fabs(alpha) * (double)k * 2.0 * u * mag +
             4.0 * u * (fabs(alpha) * mag + fabs(beta * cval) + fabs(biasv));
  if (act == KP_ACT_SILU || act == KP_ACT_GELU_TANH) e = 1.2 * e + 0x1p-16 * fabs(pre);
  return e + ulp_rel(odt) * (fabs(out) + e) + dt_floor(odt);
}

/* ---- one call ------------------------------------------------------------------ */

typedef struct gcase {
  int64_t m, n, k, batch;
  int kn;                          /* B as (k, n) */
  int64_t lda, ldb, ldc, ldd;      /* >= the row lengths */
  int64_t gap;                     /* elements between batches beyond one matrix */
  int bcast;                       /* 1: A batch stride 0; 2: B's */
  int64_t off_a, off_b, off_c, off_d, off_bias; /* base pointers shifted by elements */
  float alpha, beta;
  int cmode;                       /* 0: no C; 1: C apart from D; 2: C == D */
  int bias, act, out_f32;
  const char *what;                /* for the messages */
} gcase;

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* ops.c's rule: every base pointer; each row stride (matrices of > 1 row)
** and batch stride (batch > 1), in bytes. */
static uint32_t operand_align(const bmat *t, uint32_t a) {
  a = min_u32(a, kp_align_of((uintptr_t)bm_dev(t)));
  if (t->rows > 1) a = min_u32(a, kp_align_of((uint64_t)t->ld * t->b.es));
  if (t->batch > 1) a = min_u32(a, kp_align_of((uint64_t)t->stride * t->b.es));
  return a;
}

/* ref_gemm over D's elements [x0, x1) of batch bi (x = i n + j: a GEMV's
** few rows still spread over the threads), and the count of those out of
** gemm_bound, added to bad (par_rows).  report: the elements again, in
** this thread, the reference already there, each bad one printed (the
** first 4 of the case, `prior` of them in earlier batches) and the case's
** first failed. */
typedef struct gemm_job {
  gpu *g;
  const char *vname;
  const gcase *c;
  kp_dtype odt;
  const bmat *D;
  int64_t bi;
  const double *a, *b, *cc, *bias;
  double *pre, *out, *mag;
  int report;
  int64_t prior, bad;
} gemm_job;

static void gemm_elems(void *p, int64_t x0, int64_t x1) {
  gemm_job *j = p;
  const gcase *c = j->c;
  const int64_t n = c->n, k = c->k;
  int64_t bad = 0;
  for (int64_t x = x0; x < x1; x++) {
    const int64_t i = x / n, jj = x % n;
    if (!j->report)
      ref_gemm_at(i, jj, n, k, j->a, j->b, c->kn, c->alpha, c->beta, j->cc, j->bias, c->act,
                  j->pre, j->out, j->mag);
    const double got = bm_out(j->D, j->bi, i, jj), want = dt_round(j->odt, j->out[x]);
    const double tol = gemm_bound(j->odt, k, c->alpha, c->beta, j->mag[x], j->cc ? j->cc[x] : 0.0,
                                  j->bias ? j->bias[jj] : 0.0, j->pre[x], j->out[x], c->act);
    if (fabs(got - want) <= tol) continue; /* NaN (poison left) fails */
    const int64_t nth = j->prior + bad++;
    if (!j->report) continue;
    if (nth < 4)
      fprintf(stderr, "  %s: D[batch %lld][%lld][%lld] = %.9g, expected %.9g (exact %.9g, "
                      "sum|ab| %.6g), bound %.3g\n",
              j->vname, (long long)j->bi, (long long)i, (long long)jj, got, want, j->out[x],
              j->mag[x], tol);
    if (nth == 0)
      gpu_fail(j->g, "first bad output D[batch %lld][%lld][%lld] = %.9g, expected %.9g (bound %.3g)",
               (long long)j->bi, (long long)i, (long long)jj, got, want, tol);
  }
  __atomic_fetch_add(&j->bad, bad, __ATOMIC_RELAXED);
}

/* Run case c with pack entry vi forced (-1: the selection).  Returns 0
** (nothing run, nothing counted) when vi does not apply to the call. */
static int gemm_case(gpu *g, kp_dtype dt, int vi, const gcase *c) {
  const kpk_pack *pk = &g->ctx->pack;
  const char *vname = vi >= 0 ? pk->entries[vi].name : "selected";
  const kp_dtype odt = c->out_f32 ? KP_F32 : dt;
  const int64_t m = c->m, n = c->n, k = c->k, nb = c->batch;
  const int64_t brows = c->kn ? k : n, bcols = c->kn ? n : k;
  bmat A, B, C, D, BI;
  memset(&C, 0, sizeof C);
  memset(&BI, 0, sizeof BI);
  bm_make(g, &A, dt, m, k, c->lda, nb, c->bcast == 1 ? 0 : m * c->lda + c->gap, c->off_a);
  bm_make(g, &B, dt, brows, bcols, c->ldb, nb, c->bcast == 2 ? 0 : brows * c->ldb + c->gap, c->off_b);
  bm_make(g, &D, odt, m, n, c->ldd, nb, m * c->ldd + c->gap, c->off_d);
  if (c->cmode == 1) bm_make(g, &C, odt, m, n, c->ldc, nb, m * c->ldc + c->gap, c->off_c);
  if (c->bias) bm_make(g, &BI, dt, 1, n, n, 1, 0, c->off_bias);
  const bmat *Cm = c->cmode == 1 ? &C : c->cmode == 2 ? &D : NULL;
  if (vi >= 0) {
    uint32_t al = operand_align(&D, operand_align(&B, operand_align(&A, 16)));
    if (c->cmode == 1) al = operand_align(&C, al);
    if (c->bias) al = min_u32(al, kp_align_of((uintptr_t)bm_dev(&BI)));
    /* (the runtime's form: a plain-only `_pl` variant takes no case with terms) */
    kp_call call = {KP_FAM_GEMM, dt, al,
                    kp_gemm_form(c->kn, c->alpha, c->cmode && c->beta != 0.f, c->bias, c->act,
                                 c->out_f32),
                    {(uint64_t)m, (uint64_t)n, (uint64_t)k, (uint64_t)nb}};
    if (!kp_entry_applies(&pk->entries[vi], &call, &g->ctx->props, NULL, 0)) {
      bm_free(g, &A), bm_free(g, &B), bm_free(g, &C), bm_free(g, &D), bm_free(g, &BI);
      return 0;
    }
  }
  gpu_case(g, "%s %s: %s m=%lld n=%lld k=%lld batch=%lld B=%s ld a/b/c/d=%lld/%lld/%lld/%lld "
              "gap=%lld bcast=%d off a/b/c/d/bias=%lld/%lld/%lld/%lld/%lld alpha=%g beta=%g C=%s "
              "bias=%d act=%d out_f32=%d",
           vname, kp_dtype_name(dt), c->what, (long long)m, (long long)n, (long long)k,
           (long long)nb, c->kn ? "kn" : "nk", (long long)c->lda, (long long)c->ldb,
           (long long)(c->cmode == 2 ? c->ldd : c->ldc), (long long)c->ldd, (long long)c->gap,
           c->bcast, (long long)c->off_a, (long long)c->off_b, (long long)c->off_c,
           (long long)c->off_d, (long long)c->off_bias, (double)c->alpha, (double)c->beta,
           c->cmode == 2 ? "D" : c->cmode ? "yes" : "no", c->bias, c->act, c->out_f32);
  bm_fill(g, &A);
  bm_fill(g, &B);
  if (c->cmode == 1) bm_fill(g, &C);
  if (c->cmode == 2) bm_fill(g, &D); /* D starts as C */
  if (c->bias) bm_fill(g, &BI);
  hb_upload(g, &A.b);
  hb_upload(g, &B.b);
  hb_upload(g, &D.b);
  if (c->cmode == 1) hb_upload(g, &C.b);
  if (c->bias) hb_upload(g, &BI.b);

  kp_gemm_desc gd;
  kp_gemm_desc_init(&gd, m, n, k);
  gd.batch = nb;
  gd.b_layout = c->kn ? KP_B_KN : KP_B_NK;
  gd.lda = A.ld, gd.ldb = B.ld, gd.ldd = D.ld;
  gd.stride_a = A.stride, gd.stride_b = B.stride, gd.stride_d = D.stride;
  gd.alpha = c->alpha;
  gd.beta = c->beta;
  if (Cm) gd.c = bm_dev(Cm), gd.ldc = Cm->ld, gd.stride_c = Cm->stride;
  gd.bias = c->bias ? bm_dev(&BI) : NULL;
  gd.act = (kp_act)c->act;
  gd.out_f32 = c->out_f32;
  if (vi >= 0) kp_force_variant(vi);
  kp_status st = kp_gemm(g->ctx, dt, bm_dev(&A), bm_dev(&B), bm_dev(&D), &gd, g->stream);
  kp_force_variant(-1);
  if (gpu_op_ok(g, st, "kp_gemm")) {
    gpu_sync(g, "kp_gemm");
    hb_download(g, &D.b);
    double *pre = malloc((size_t)(m * n) * sizeof *pre), *out = malloc((size_t)(m * n) * sizeof *out),
           *mag = malloc((size_t)(m * n) * sizeof *mag);
    ck_assert_msg(pre && out && mag, "%s: out of host memory", g->test);
    double *bias = c->bias ? bm_dense(g, &BI, 0) : NULL;
    int64_t bad = 0;
    for (int64_t bi = 0; bi < nb; bi++) {
      double *a = bm_dense(g, &A, bi), *b = bm_dense(g, &B, bi), *cc = Cm ? bm_dense(g, Cm, bi) : NULL;
      /* the reference and the count, rows in parallel; the report only
      ** where something is out of bounds */
      gemm_job gj = {g, vname, c, odt, &D, bi, a, b, cc, bias, pre, out, mag, 0, bad, 0};
      par_rows(m * n, k, gemm_elems, &gj);
      if (gj.bad) {
        gj.report = 1, gj.bad = 0;
        gemm_elems(&gj, 0, m * n);
      }
      bad += gj.bad;
      free(a), free(b), free(cc);
    }
    if (bad)
      gpu_fail(g, "%lld of %lld outputs out of bounds", (long long)bad, (long long)(nb * m * n));
    bm_check_outside(g, &D, "D");
    free(pre), free(out), free(mag), free(bias);
    hb_check_unchanged(g, &A.b, "A");
    hb_check_unchanged(g, &B.b, "B");
    if (c->cmode == 1) hb_check_unchanged(g, &C.b, "C");
    if (c->bias) hb_check_unchanged(g, &BI.b, "bias");
  }
  bm_free(g, &A), bm_free(g, &B), bm_free(g, &C), bm_free(g, &D), bm_free(g, &BI);
  return 1;
}

/* ---- cases ------------------------------------------------------------------------ */

/* (m, n, k): none a multiple of a tile; m = 1; k below one 64-deep k-tile */
static const int64_t SHAPES[][3] = {
    {1, 1, 1}, {1, 67, 129}, {37, 91, 200}, {130, 259, 77}, {5, 300, 1000}, {70, 130, 40},
};
#define NSHAPES ((int)(sizeof SHAPES / sizeof SHAPES[0]))

typedef struct epi {
  const char *what;
  float alpha, beta;
  int cmode, bias, act, out_f32;
} epi;
static const epi PLAIN = {"plain", 1.f, 0.f, 0, 0, KP_ACT_NONE, 0};
static const epi EPI[] = {
    {"alpha", -1.5f, 0.f, 0, 0, KP_ACT_NONE, 0},
    {"beta*C", 0.75f, 0.5f, 1, 0, KP_ACT_NONE, 0},
    {"C==D", 1.f, -1.f, 2, 0, KP_ACT_NONE, 0},
    {"bias+relu", 1.f, 0.f, 0, 1, KP_ACT_RELU, 0},
    {"C+bias+silu", 2.f, 1.f, 1, 1, KP_ACT_SILU, 0},
    {"gelu", 1.f, 0.f, 0, 0, KP_ACT_GELU_TANH, 0},
    {"out_f32", 1.f, 0.f, 0, 0, KP_ACT_NONE, 1},
    {"out_f32+C+bias+gelu", 0.5f, 2.f, 1, 1, KP_ACT_GELU_TANH, 1},
    {"out_f32 C==D relu", -1.f, 1.f, 2, 0, KP_ACT_RELU, 1},
};
#define NEPI ((int)(sizeof EPI / sizeof EPI[0]))

/* v moved into entry e's range for dimension d (and onto its multiple) */
static int64_t fit_dim(const kpk_entry *e, int d, int64_t v) {
  if (e->dmin[d] && (uint64_t)v < e->dmin[d]) v = (int64_t)e->dmin[d];
  if (e->dmax[d] && (uint64_t)v > e->dmax[d]) v = (int64_t)e->dmax[d];
  if (e->dmult[d] > 1 && v % e->dmult[d]) {
    v += e->dmult[d] - v % e->dmult[d];
    if (e->dmax[d] && (uint64_t)v > e->dmax[d]) v -= e->dmult[d];
  }
  return v;
}

/* elements per `align` bytes (at least 1) */
static int64_t quantum(uint32_t align, size_t es) { return align > es ? (int64_t)(align / es) : 1; }
static int64_t round_up(int64_t v, int64_t q) { return (v + q - 1) / q * q; }

/* A case of shape s (fitted to e when given) with epilogue p, leading dims
** = row length + pad rounded up to `align` bytes, batch gaps of 16 bytes. */
static gcase make_case(const kpk_entry *e, kp_dtype dt, const int64_t s[3], int64_t batch, int kn,
                       const epi *p, int64_t pad, uint32_t align) {
  gcase c;
  memset(&c, 0, sizeof c);
  c.m = e ? fit_dim(e, KP_GM, s[0]) : s[0];
  c.n = e ? fit_dim(e, KP_GN, s[1]) : s[1];
  c.k = e ? fit_dim(e, KP_GK, s[2]) : s[2];
  c.batch = e ? fit_dim(e, KP_GBATCH, batch) : batch;
  c.kn = kn;
  const size_t es = kp_dtype_size(dt), oes = p->out_f32 ? 4 : es;
  c.lda = round_up(c.k + pad, quantum(align, es));
  c.ldb = round_up((kn ? c.n : c.k) + pad, quantum(align, es));
  c.ldc = c.ldd = round_up(c.n + pad, quantum(align, oes));
  c.gap = 8; /* 16 bytes of f16/bf16, 32 of f32 */
  c.alpha = p->alpha, c.beta = p->beta;
  c.cmode = p->cmode, c.bias = p->bias, c.act = p->act, c.out_f32 = p->out_f32;
  c.what = p->what;
  return c;
}

/* Shift every pointer and break every stride's 16-byte alignment by the
** smallest step `align` allows (one element when align is the element size). */
static void misalign(gcase *c, kp_dtype dt, uint32_t align) {
  const size_t es = kp_dtype_size(dt), oes = c->out_f32 ? 4 : es;
  const int64_t q = quantum(align, es), qo = quantum(align, oes);
  c->off_a = c->off_b = c->off_bias = q;
  c->off_c = c->off_d = qo;
  if (c->lda * (int64_t)es % 16 == 0) c->lda += q;
  if (c->ldb * (int64_t)es % 16 == 0) c->ldb += q;
  if (c->ldd * (int64_t)oes % 16 == 0) c->ldd += qo;
  c->ldc = c->ldd;
  c->gap = q;
}

/* Every case of one variant; returns how many ran. */
static int variant_cases(gpu *g, kp_dtype dt, int vi) {
  const kpk_entry *e = &g->ctx->pack.entries[vi];
  const uint32_t al = e->align > 16 ? 16 : e->align;
  int runs = 0;
  for (int kn = 0; kn < 2; kn++) {
    if (e->forms && !(e->forms >> kn & 1)) continue;
    for (int s = 0; s < NSHAPES; s++) { /* plain, each shape */
      gcase c = make_case(e, dt, SHAPES[s], 1, kn, &PLAIN, 0, al);
      runs += gemm_case(g, dt, vi, &c);
    }
    for (int p = 0; p < NEPI; p++) /* each epilogue on two shapes */
      for (int s = 2; s <= 3; s++) {
        gcase c = make_case(e, dt, SHAPES[s], 1, kn, &EPI[p], 0, al);
        runs += gemm_case(g, dt, vi, &c);
      }
    /* batches of 3: strided with gaps; A broadcast (with C and bias); B
    ** broadcast (C == D, gelu) */
    gcase c = make_case(e, dt, SHAPES[2], 3, kn, &PLAIN, 0, al);
    c.what = "batch";
    runs += gemm_case(g, dt, vi, &c);
    c = make_case(e, dt, SHAPES[3], 3, kn, &EPI[4], 0, al);
    c.bcast = 1;
    c.what = "batch, A broadcast, C+bias+silu";
    runs += gemm_case(g, dt, vi, &c);
    c = make_case(e, dt, SHAPES[1], 3, kn, &EPI[2], 0, al);
    c.bcast = 2;
    c.act = KP_ACT_GELU_TANH;
    c.what = "batch, B broadcast, C==D gelu";
    runs += gemm_case(g, dt, vi, &c);
    /* leading dims well past the row lengths */
    c = make_case(e, dt, SHAPES[3], 1, kn, &EPI[1], 24, al);
    c.bias = 1;
    c.what = "padded, beta*C+bias";
    runs += gemm_case(g, dt, vi, &c);
    c = make_case(e, dt, SHAPES[4], 2, kn, &EPI[6], 40, al);
    c.what = "padded batch, out_f32";
    runs += gemm_case(g, dt, vi, &c);
    if (al < 16) /* the alignment it claims to handle: odd strides, shifted pointers */
      for (int s = 1; s <= 3; s++) {
        gcase m = make_case(e, dt, SHAPES[s], s == 3 ? 3 : 1, kn, s == 2 ? &EPI[4] : s == 3 ? &EPI[7] : &PLAIN, 0, al);
        misalign(&m, dt, al);
        m.what = "misaligned";
        runs += gemm_case(g, dt, vi, &m);
      }
  }
  return runs;
}

/* Every gemm variant of one dtype that can run on this device, forced. */
START_TEST(test_every_variant) {
  const kp_dtype dt = DT[_i];
  char name[64];
  snprintf(name, sizeof name, "gemm/every_variant/%s", kp_dtype_name(dt));
  gpu g;
  gpu_open(&g, name, _i);
  const kpk_pack *pk = &g.ctx->pack;
  int variants = 0, cases = 0, skipped = 0;
  const char *only = getenv("KP_TEST_ONLY");
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    if (kp_family_from_name(e->family) != KP_FAM_GEMM || e->dtype != (uint32_t)dt) continue;
    if (!gpu_entry_runs(&g, e)) continue;
    if (!kp_test_only(e->name)) {
      skipped++;
      continue;
    }
    variants++;
    const int runs = variant_cases(&g, dt, (int)i);
    fprintf(stderr, "%s: %s: %d cases\n", name, e->name, runs);
    cases += runs;
    if (!runs) {
      gpu_case(&g, "%s coverage", e->name);
      gpu_fail(&g, "%s (align %u, forms 0x%llx, m %llu..%llu) ran no case", e->name, e->align,
               (unsigned long long)e->forms, (unsigned long long)e->dmin[KP_GM],
               (unsigned long long)e->dmax[KP_GM]);
    }
  }
  fprintf(stderr, "%s: %d variants on sm_%d (pack %s), %d cases\n", name, variants,
          g.ctx->props.sm, pk->target, cases);
  if (skipped)
    fprintf(stderr, "%s: %d variants left out (KP_TEST_ONLY=%s)\n", name, skipped, only);
  if (!variants) {
    gpu_case(&g, "variants");
    gpu_fail(&g, "pack %s has no gemm %s variant that runs on sm_%d", pk->path,
             kp_dtype_name(dt), g.ctx->props.sm);
  }
  gpu_close(&g);
}
END_TEST

/* The selection at odd shapes, both layouts, packed (odd) strides and
** pointers one element off: some variant must take every valid call. */
START_TEST(test_any_call) {
  const kp_dtype dt = DT[_i];
  char name[64];
  snprintf(name, sizeof name, "gemm/any_call/%s", kp_dtype_name(dt));
  gpu g;
  gpu_open(&g, name, _i);
  for (int kn = 0; kn < 2; kn++)
    for (int s = 0; s < NSHAPES; s++) {
      gcase c = make_case(NULL, dt, SHAPES[s], 1, kn, s % 2 ? &EPI[4] : &PLAIN, 0, 2);
      c.what = "packed";
      gemm_case(&g, dt, -1, &c);
      misalign(&c, dt, 2);
      c.batch = 2;
      c.what = "misaligned";
      gemm_case(&g, dt, -1, &c);
    }
  gpu_close(&g);
}
END_TEST

/* ---- large shapes, sampled ------------------------------------------------------------- */

static const struct big {
  int64_t m, n, k, batch;
  int kn, epi; /* epi: -1 plain, else EPI[epi] */
} BIG[] = {
    {1024, 1024, 1024, 1, 0, -1}, {1024, 1024, 1024, 1, 1, -1}, {1000, 1000, 1000, 1, 0, 4},
    {512, 1024, 768, 4, 0, 1},    {2048, 4096, 4096, 1, 0, -1}, {4096, 11008, 4096, 1, 0, -1},
};
#define NBIG ((int)(sizeof BIG / sizeof BIG[0]))
#define SAMPLES 2000

static void big_case(gpu *g, kp_dtype dt, const struct big *s) {
  const epi *p = s->epi < 0 ? &PLAIN : &EPI[s->epi];
  const int64_t sh[3] = {s->m, s->n, s->k};
  gcase c = make_case(NULL, dt, sh, s->batch, s->kn, p, 0, 16);
  c.what = p->what;
  const kp_dtype odt = c.out_f32 ? KP_F32 : dt;
  const int64_t m = c.m, n = c.n, k = c.k, nb = c.batch;
  bmat A, B, C, D, BI;
  memset(&C, 0, sizeof C);
  memset(&BI, 0, sizeof BI);
  bm_make(g, &A, dt, m, k, c.lda, nb, m * c.lda + c.gap, 0);
  bm_make(g, &B, dt, c.kn ? k : n, c.kn ? n : k, c.ldb, nb, (c.kn ? k : n) * c.ldb + c.gap, 0);
  bm_make(g, &D, odt, m, n, c.ldd, nb, m * c.ldd + c.gap, 0);
  if (c.cmode == 1) bm_make(g, &C, odt, m, n, c.ldc, nb, m * c.ldc + c.gap, 0);
  if (c.bias) bm_make(g, &BI, dt, 1, n, n, 1, 0, 0);
  gpu_case(g, "selected %s: large %s m=%lld n=%lld k=%lld batch=%lld B=%s", kp_dtype_name(dt),
           c.what, (long long)m, (long long)n, (long long)k, (long long)nb, c.kn ? "kn" : "nk");
  bm_fill(g, &A);
  bm_fill(g, &B);
  if (c.cmode == 1) bm_fill(g, &C);
  if (c.bias) bm_fill(g, &BI);
  hb_upload(g, &A.b);
  hb_upload(g, &B.b);
  hb_upload(g, &D.b);
  if (c.cmode == 1) hb_upload(g, &C.b);
  if (c.bias) hb_upload(g, &BI.b);
  kp_gemm_desc gd;
  kp_gemm_desc_init(&gd, m, n, k);
  gd.batch = nb;
  gd.b_layout = c.kn ? KP_B_KN : KP_B_NK;
  gd.lda = A.ld, gd.ldb = B.ld, gd.ldd = D.ld;
  gd.stride_a = A.stride, gd.stride_b = B.stride, gd.stride_d = D.stride;
  gd.alpha = c.alpha, gd.beta = c.beta;
  if (c.cmode == 1) gd.c = bm_dev(&C), gd.ldc = C.ld, gd.stride_c = C.stride;
  gd.bias = c.bias ? bm_dev(&BI) : NULL;
  gd.act = (kp_act)c.act;
  gd.out_f32 = c.out_f32;
  kp_status st = kp_gemm(g->ctx, dt, bm_dev(&A), bm_dev(&B), bm_dev(&D), &gd, g->stream);
  if (gpu_op_ok(g, st, "kp_gemm")) {
    gpu_sync(g, "kp_gemm");
    hb_download(g, &D.b);
    int64_t unwritten = 0, bad = 0;
    for (int64_t bi = 0; bi < nb; bi++) /* every output written (poison is NaN) */
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
          if (!isfinite(bm_out(&D, bi, i, j)) && unwritten++ < 4)
            fprintf(stderr, "  D[batch %lld][%lld][%lld] = %g: not written\n", (long long)bi,
                    (long long)i, (long long)j, bm_out(&D, bi, i, j));
    if (unwritten) gpu_fail(g, "%lld of %lld outputs not finite (left as poison?)",
                            (long long)unwritten, (long long)(nb * m * n));
    for (int t = 0; t < SAMPLES; t++) { /* the four corners of each batch, then random */
      const int64_t bi = t < 4 * nb ? t / 4 : rng_int(g, 0, nb - 1);
      const int64_t i = t < 4 * nb ? (t & 1 ? m - 1 : 0) : rng_int(g, 0, m - 1);
      const int64_t j = t < 4 * nb ? (t & 2 ? n - 1 : 0) : rng_int(g, 0, n - 1);
      double dot = 0.0, mag = 0.0;
      for (int64_t q = 0; q < k; q++) {
        const double v = bm_in(&A, bi, i, q) * (c.kn ? bm_in(&B, bi, q, j) : bm_in(&B, bi, j, q));
        dot += v;
        mag += fabs(v);
      }
      const double cv = c.cmode ? bm_in(&C, bi, i, j) : 0.0, bv = c.bias ? bm_in(&BI, 0, 0, j) : 0.0;
      const double pre = c.alpha * dot + c.beta * cv + bv, out = ref_act(pre, c.act);
      const double got = bm_out(&D, bi, i, j), want = dt_round(odt, out);
      const double tol = gemm_bound(odt, k, c.alpha, c.beta, mag, cv, bv, pre, out, c.act);
      if (fabs(got - want) <= tol) continue;
      if (bad++ < 4)
        fprintf(stderr, "  D[batch %lld][%lld][%lld] = %.9g, expected %.9g (exact %.9g), bound %.3g\n",
                (long long)bi, (long long)i, (long long)j, got, want, out, tol);
      if (bad == 1)
        gpu_fail(g, "first bad sample D[batch %lld][%lld][%lld] = %.9g, expected %.9g (bound %.3g)",
                 (long long)bi, (long long)i, (long long)j, got, want, tol);
    }
    if (bad) gpu_fail(g, "%lld of %d sampled outputs out of bounds", (long long)bad, SAMPLES);
    bm_check_outside(g, &D, "D");
    hb_check_unchanged(g, &A.b, "A");
    hb_check_unchanged(g, &B.b, "B");
  }
  bm_free(g, &A), bm_free(g, &B), bm_free(g, &C), bm_free(g, &D), bm_free(g, &BI);
}

/* The selection at large shapes, sampled against float64. */
START_TEST(test_large) {
  const kp_dtype dt = DT[_i];
  char name[64];
  snprintf(name, sizeof name, "gemm/large/%s", kp_dtype_name(dt));
  gpu g;
  gpu_open(&g, name, _i);
  for (int s = 0; s < NBIG; s++) big_case(&g, dt, &BIG[s]);
  gpu_close(&g);
}
END_TEST

/* ---- rejected calls write nothing ----------------------------------------------------------- */

/* Bad calls on real buffers (and a forced variant that does not apply)
** return their status and leave D (poison), A and B as they were. */
START_TEST(test_rejects_write_nothing) {
  gpu g;
  gpu_open(&g, "gemm/rejects_write_nothing", 0);
  const kp_dtype dt = KP_F16;
  const int64_t m = 64, n = 128, k = 64;
  bmat A, B, D;
  bm_make(&g, &A, dt, m, k, k, 1, 0, 0);
  bm_make(&g, &B, dt, n, k, k, 1, 0, 0);
  bm_make(&g, &D, dt, m, n, n, 1, 0, 0);
  bm_fill(&g, &A);
  bm_fill(&g, &B);
  hb_upload(&g, &A.b);
  hb_upload(&g, &B.b);
  hb_upload(&g, &D.b);
  void *a = bm_dev(&A), *b = bm_dev(&B), *d = bm_dev(&D);
  struct { const char *what; kp_status st; int lda, act, mis, overlap; int64_t mm; } T[] = {
      {"lda < k", KP_ERR_INVALID_ARG, 63, 0, 0, 0, m},
      {"act 7", KP_ERR_INVALID_ARG, 64, 7, 0, 0, m},
      {"D misaligned", KP_ERR_MISALIGNED, 64, 0, 1, 0, m},
      {"D overlaps A", KP_ERR_INVALID_ARG, 64, 0, 0, 1, m},
      {"m > INT_MAX", KP_ERR_UNSUPPORTED, 64, 0, 0, 0, 1ll << 31},
  };
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    gpu_case(&g, "%s", T[t].what);
    kp_gemm_desc gd;
    kp_gemm_desc_init(&gd, T[t].mm, n, k);
    gd.lda = T[t].lda;
    gd.act = (kp_act)T[t].act;
    void *dd = T[t].mis ? (void *)((char *)d + 1) : T[t].overlap ? a : d;
    kp_status st = kp_gemm(g.ctx, dt, a, b, dd, &gd, g.stream);
    if (st != T[t].st)
      gpu_fail(&g, "kp_gemm returned %s (%s), expected %s", kp_status_name(st),
               kp_ctx_errmsg(g.ctx), kp_status_name(T[t].st));
    gpu_sync(&g, "a rejected kp_gemm");
    hb_check_unchanged(&g, &D.b, "D");
    hb_check_unchanged(&g, &A.b, "A");
    hb_check_unchanged(&g, &B.b, "B");
  }
  /* a forced variant that does not apply to the call: refused, not run */
  const kpk_pack *pk = &g.ctx->pack;
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    if (kp_family_from_name(e->family) != KP_FAM_GEMM || e->dtype != (uint32_t)dt || e->align < 4)
      continue;
    gpu_case(&g, "forced %s on a 2-byte aligned call", e->name);
    kp_gemm_desc gd;
    kp_gemm_desc_init(&gd, m - 1, n - 1, k - 1); /* packed odd strides: 2-byte alignment */
    kp_force_variant((int)i);
    kp_status st = kp_gemm(g.ctx, dt, a, b, d, &gd, g.stream);
    kp_force_variant(-1);
    if (st != KP_ERR_NO_VARIANT || !strstr(kp_ctx_errmsg(g.ctx), e->name))
      gpu_fail(&g, "kp_gemm returned %s (%s), expected KP_ERR_NO_VARIANT naming %s",
               kp_status_name(st), kp_ctx_errmsg(g.ctx), e->name);
    gpu_sync(&g, "a refused forced kp_gemm");
    hb_check_unchanged(&g, &D.b, "D");
    break;
  }
  bm_free(&g, &A), bm_free(&g, &B), bm_free(&g, &D);
  gpu_close(&g);
}
END_TEST

Suite *gemm_gpu_suite(void) {
  Suite *s = suite_create("gemm_gpu");
  /* two cases: CK_RUN_CASE=gemm runs the variants alone (a sanitizer's run
  ** with KP_TEST_ONLY, bench/lanes.sh), gemm_calls the selection */
  KP_GPU_TCASE(tc, "gemm");
  KP_ADD_GPU_LOOP_TEST(tc, test_every_variant, 0, 2);
  suite_add_tcase(s, tc);
  KP_GPU_TCASE(tcs, "gemm_calls");
  KP_ADD_GPU_LOOP_TEST(tcs, test_any_call, 0, 2);
  KP_ADD_GPU_LOOP_TEST(tcs, test_large, 0, 2);
  KP_ADD_GPU_TEST(tcs, test_rejects_write_nothing);
  suite_add_tcase(s, tcs);
  return s;
}
