/*
** check_attention_gpu.c -- kp_attention on a GPU against float64.
**
**   every_variant/<dt>  every attention variant of the device's pack (none
**                       named here: the pack's entries of family attention
**                       that can run on this device), forced in turn, on the
**                       cases below, each at the head dims the variant takes
**                       (64 and 128; the fallback also 40, 96 and 256): Lq or
**                       Lk = 1, lengths that are multiples of no block,
**                       causal with Lq < Lk, Lq = Lk and Lq > Lk (rows with
**                       no key), GQA and MQA, both layouts through strides,
**                       sliding windows, a peaky softmax (4x the scale), with
**                       and without LSE; strides padded, and for variants
**                       that take less than 16-byte alignment, odd pads and
**                       pointers one element off (KP_TEST_ONLY: only some
**                       variants, check_suites.h; each one's case count printed)
**                       Paged K and V too (pages of 16, 7 or 48 tokens,
**                       shuffled, the last one partial, unused slots NaN)
**                       for the variants that take them.  Varlen batches
**                       (form bit 3) for the variants that take them,
**                       contiguous and paged: empty and length-1
**                       sequences, sequences cut to the bounds, causal and
**                       windows per sequence, only one side varlen, decode
**                       shapes with each sequence's own context length;
**                       every element of no sequence's row left as it was.
**                       The persistent FA3 kernels once more with a grid
**                       for 2 SMs: every CTA serves several tiles; the
**                       split-KV decode with grids for 2 and 3 SMs: whole
**                       tiles a CTA, CTAs a tile, and shares across tiles;
**                       and capped at one CTA an SM (a grid of 3)
**   any_call/<dt>       the selection (nothing forced) at odd head dims and
**                       element alignment, paged and varlen too: every valid
**                       call has a variant
**   rejects_write_nothing  bad calls on real buffers leave O and LSE as they were
**
** What every case checks: Q, K, V uniform in [-1, 1] (fresh each case, seed
** printed on failure, KP_TEST_SEED=<seed> reproduces), rounded to the dtype
** on the host; O and LSE start as NaN poison; every output within the bound
** below of float64, O = 0 and LSE = -inf exactly on rows with no visible
** key, no NaN anywhere; nothing outside O's rows and LSE changed (KP_PRE
** elements before, KP_GUARD after, the padding between rows, heads and
** batches); the inputs unchanged; a second run (outputs poisoned again)
** gives the same bits.
**
** The bound, per output element, with u the dtype's unit roundoff (2^-11
** f16, 2^-8 bf16), mag = sum_j p_j |v_j| and smag = max_j scale sum |q k_j|:
** the scores in fp32 over hd products err by at most hd 2^-23 smag, which
** moves each p_j and so O by 2 hd 2^-23 smag mag; P rounded to the dtype
** before P V: u mag; O rounded: u |O|; plus 2^-20 mag for exp2 and the
** fp32 sums.  LSE: hd 2^-23 smag + (Lk + 8) 2^-23 + 2^-20 |LSE|.
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

/* ---- (batch, len, heads, hd) tensors --------------------------------------------
** layout 0: (batch, seq, heads, dim), 1: (batch, heads, seq, dim); each
** stride padded by `pad` elements beyond the dims inside it; the tensor
** starts at element off = KP_PRE + shift of its own buffer, KP_GUARD
** poisoned elements after its last; inside[e] marks the tensor's elements. */
typedef struct t4 {
  hbuf b;
  int64_t n[3], s[3], hd, off; /* batch, seq, head */
  unsigned char *inside;
} t4;

static void t4_make(gpu *g, t4 *t, kp_dtype dt, int64_t batch, int64_t len, int64_t heads,
                    int64_t hd, int layout, int64_t pad, int64_t shift) {
  t->n[0] = batch, t->n[1] = len, t->n[2] = heads, t->hd = hd;
  if (layout == 0) {
    t->s[2] = hd + pad, t->s[1] = heads * t->s[2] + pad;
    t->s[0] = len * t->s[1] + pad;
  } else {
    t->s[1] = hd + pad, t->s[2] = len * t->s[1] + pad;
    t->s[0] = heads * t->s[2] + pad;
  }
  t->off = KP_PRE + shift;
  const int64_t span = (batch - 1) * t->s[0] + (len - 1) * t->s[1] + (heads - 1) * t->s[2] + hd;
  hb_make(g, &t->b, dt, (size_t)(t->off + span + KP_GUARD), KP_POISON);
  t->inside = calloc(t->b.n, 1);
  ck_assert_msg(t->inside != NULL, "%s: out of host memory", g->test);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < len; i++)
      for (int64_t h = 0; h < heads; h++)
        memset(t->inside + t->off + b * t->s[0] + i * t->s[1] + h * t->s[2], 1, (size_t)hd);
}

static void t4_free(gpu *g, t4 *t) {
  if (t->b.img) hb_free(g, &t->b);
  free(t->inside);
  memset(t, 0, sizeof *t);
}

static size_t t4_idx(const t4 *t, int64_t b, int64_t i, int64_t h, int64_t d) {
  return (size_t)(t->off + b * t->s[0] + i * t->s[1] + h * t->s[2] + d);
}
static void *t4_dev(const t4 *t) { return hb_dev(&t->b, (size_t)t->off); }

static void t4_fill(gpu *g, t4 *t) {
  for (size_t e = 0; e < t->b.n; e++)
    if (t->inside[e]) hb_put(&t->b, e, rng_uniform(g, -1.0, 1.0));
}

/* (len, hd) rows of batch b, head h as uploaded, dense */
static void t4_dense(const t4 *t, int64_t b, int64_t h, double *out) {
  for (int64_t i = 0; i < t->n[1]; i++)
    for (int64_t d = 0; d < t->hd; d++) out[i * t->hd + d] = hb_orig(&t->b, t4_idx(t, b, i, h, d));
}

/* After hb_download: elements outside the tensor are as uploaded. */
static int64_t t4_check_outside(gpu *g, const t4 *t, const char *name) {
  int64_t bad = 0;
  for (size_t e = 0; e < t->b.n; e++) {
    if (t->inside[e] || hb_same_as_orig(&t->b, e)) continue;
    if (bad++ < 4)
      fprintf(stderr, "  %s: buffer element %zu (tensor starts at %lld) is outside the tensor "
              "but was written: %.9g\n", name, e, (long long)t->off, hb_get(&t->b, e));
  }
  if (bad) gpu_fail(g, "%s: %lld elements outside the tensor were written", name, (long long)bad);
  return bad;
}

/* ops_attention.c's rule: the pointer, and each stride of a dim of size > 1 */
static uint32_t t4_align(const t4 *t, uint32_t a) {
  uint32_t x = kp_align_of((uintptr_t)t4_dev(t));
  if (x < a) a = x;
  for (int i = 0; i < 3; i++)
    if (t->n[i] > 1 && (x = kp_align_of((uint64_t)t->s[i] * t->b.es)) < a) a = x;
  return a;
}

/* ---- one call ---------------------------------------------------------------------- */

typedef struct acase {
  const char *what;
  int64_t batch, hq, hkv, lq, lk;
  int causal;
  int64_t wl, wr;
  double scale_mul; /* scale = scale_mul / sqrt(hd) */
  int layout, lse;
} acase;

static const acase CASES[] = {
    {"Lq = Lk = 1", 1, 1, 1, 1, 1, 0, -1, -1, 1.0, 0, 1},
    {"decode: Lq = 1", 2, 4, 4, 1, 300, 0, -1, -1, 1.0, 0, 1},
    {"Lk = 1", 1, 2, 2, 77, 1, 0, -1, -1, 1.0, 1, 1},
    {"GQA causal Lq = Lk", 2, 4, 2, 100, 100, 1, -1, -1, 1.0, 0, 1},
    {"MQA causal Lq < Lk", 1, 4, 1, 37, 200, 1, -1, -1, 1.0, 1, 1},
    {"causal Lq > Lk (rows with no key)", 1, 2, 2, 200, 37, 1, -1, -1, 1.0, 0, 1},
    {"(b, h, s, d) full, no lse", 2, 3, 3, 130, 260, 0, -1, -1, 1.0, 1, 0},
    {"window (50, 20)", 1, 2, 1, 150, 300, 0, 50, 20, 1.0, 0, 1},
    {"causal + window_left 31", 1, 2, 2, 129, 129, 1, 31, -1, 1.0, 1, 1},
    {"window (0, 0): the diagonal key only", 1, 1, 1, 70, 90, 0, 0, 0, 1.0, 0, 1},
    {"peaky: 4x scale", 1, 2, 2, 65, 513, 0, -1, -1, 4.0, 0, 1},
    {"window (3, -1) Lq > Lk", 2, 2, 1, 90, 20, 0, 3, -1, 1.0, 1, 1},
    {"GQA causal, several 128-row and key tiles", 1, 4, 2, 300, 1000, 1, -1, -1, 1.0, 0, 1},
    /* d64's 192-row masked kernels take calls from 257 (`_pc`) or 512
    ** (`_ps`) query rows: each warpgroup's own key tiles (SKIP), the last
    ** tile's two warpgroups past lq (592 = 3 x 192 + 16); kept small, the
    ** float64 reference runs it for every variant and head dim */
    {"GQA causal + window_left 300, Lq 592", 1, 2, 1, 592, 600, 1, 300, -1, 1.0, 0, 1},
    {"decode: GQA 4:1, Lk = 3000", 2, 8, 2, 1, 3000, 0, -1, -1, 1.0, 0, 1},
    {"decode: 16 rows causal", 1, 2, 1, 16, 1500, 1, -1, -1, 1.0, 1, 1},
    {"decode: 5 rows, window left 100 (most key splits see nothing)", 1, 2, 2, 5, 2100, 1, 100, -1,
     1.0, 0, 1},
    /* the split-KV decode's CTAs each take whole tiles here as well as shares */
    {"decode: 320 tiles, Lk = 260", 40, 8, 8, 1, 260, 0, -1, -1, 1.0, 0, 1},
};
#define NCASES ((int)(sizeof CASES / sizeof CASES[0]))

/* A CTA's share of the block table past the entries it keeps in shared
** memory (templates/attention.lua DEC_PT, 512 tiles or pages): a 16-CTA
** cluster's CTA holds 547 tiles of 16 keys here, so the table is read in
** place */
static const acase LONG_DEC = {"decode: Lk = 140000, the block table read in place", 1, 1, 1, 1,
                               140000, 0, -1, -1, 1.0, 0, 1};

/* The keys [lo, hi) query i sees: kernpack.h's mask, from the case itself */
static void visible(const acase *c, int64_t i, int64_t *lo, int64_t *hi) {
  ref_attention_keys(c->lq, c->lk, c->causal, c->wl, c->wr, i, lo, hi);
}

static double unit_roundoff(kp_dtype dt) { return dt == KP_F16 ? 0x1p-11 : 0x1p-8; }

/* How far a GPU value may be from float64 (both checks below): an element
** of O, from the reference's out and mag and its row's es = hd 2^-23 smag;
** the LSE of a row over nkeys keys */
static double o_bound(kp_dtype dt, double es, double out, double mag) {
  const double u = unit_roundoff(dt);
  return (2.0 * es + u + 0x1p-20) * mag + u * fabs(out) + dt_floor(dt);
}
static double lse_bound(double es, int64_t nkeys, double lse) {
  return es + (double)(nkeys + 8) * 0x1p-23 + 0x1p-20 * fabs(lse);
}

/* O and LSE (downloaded) against float64 for the query rows [x0, x1) of
** every (batch, head) pair in order (x = (b hq + h) lq + i: a case of one
** or two heads still spreads over the threads), the bad count added to bad
** (par_rows).  report: in this thread, over every row, the first 4 bad
** values printed and the first failed. */
typedef struct out_job {
  gpu *g;
  const char *vname;
  kp_dtype dt;
  const acase *c;
  int64_t hd;
  double scale;
  const t4 *Q, *K, *V, *O;
  const hbuf *L;
  int report, oom;
  int64_t bad;
} out_job;

static void check_rows(void *p, int64_t x0, int64_t x1) {
  out_job *j = p;
  const acase *c = j->c;
  const int64_t hd = j->hd;
  double *q = malloc((size_t)(c->lq * hd) * sizeof *q), *k = malloc((size_t)(c->lk * hd) * sizeof *k),
         *v = malloc((size_t)(c->lk * hd) * sizeof *v), *out = malloc((size_t)hd * sizeof *out),
         *mag = malloc((size_t)hd * sizeof *mag);
  int64_t bad = 0, pair = -1;
  if (!(q && k && v && out && mag)) {
    j->oom = 1;
    x1 = x0;
  }
  for (int64_t x = x0; x < x1; x++) {
    const int64_t b = x / (c->hq * c->lq), h = x / c->lq % c->hq, i = x % c->lq;
    if (x / c->lq != pair) { /* this thread's first row of the pair: its dense copies */
      pair = x / c->lq;
      t4_dense(j->Q, b, h, q);
      t4_dense(j->K, b, h / (c->hq / c->hkv), k);
      t4_dense(j->V, b, h / (c->hq / c->hkv), v);
    }
    int64_t lo, hi;
    visible(c, i, &lo, &hi);
    double smag;
    const double lse = ref_attention_row(q + i * hd, k, v, hd, lo, hi, j->scale, out, mag, &smag);
    const double es = (double)hd * 0x1p-23 * smag;
    for (int64_t d = 0; d < hd; d++) {
      const double got = hb_get(&j->O->b, t4_idx(j->O, b, i, h, d));
      const double tol = o_bound(j->dt, es, out[d], mag[d]);
      const int ok = lo >= hi ? got == 0.0 : fabs(got - out[d]) <= tol; /* NaN fails */
      if (ok) continue;
      if (j->report && bad < 4)
        fprintf(stderr, "  %s: O[b %lld][i %lld][h %lld][d %lld] = %.9g, expected %.9g "
                "(keys [%lld, %lld)), bound %.3g\n", j->vname, (long long)b, (long long)i,
                (long long)h, (long long)d, got, out[d], (long long)lo, (long long)hi, tol);
      if (j->report && bad == 0)
        gpu_fail(j->g, "first bad output O[b %lld][i %lld][h %lld][d %lld] = %.9g, expected %.9g",
                 (long long)b, (long long)i, (long long)h, (long long)d, got, out[d]);
      bad++;
    }
    if (!j->L) continue;
    const size_t li = (size_t)(KP_PRE + (b * c->hq + h) * c->lq + i);
    const double got = hb_get(j->L, li);
    const double tol = lse_bound(es, c->lk, lse);
    const int ok = lo >= hi ? isinf(got) && got < 0 : fabs(got - lse) <= tol;
    if (ok) continue;
    if (j->report && bad < 4)
      fprintf(stderr, "  %s: LSE[b %lld][h %lld][i %lld] = %.9g, expected %.9g (keys [%lld, "
              "%lld)), bound %.3g\n", j->vname, (long long)b, (long long)h, (long long)i, got, lse,
              (long long)lo, (long long)hi, tol);
    if (j->report && bad == 0)
      gpu_fail(j->g, "first bad LSE[b %lld][h %lld][i %lld] = %.9g, expected %.9g", (long long)b,
               (long long)h, (long long)i, got, lse);
    bad++;
  }
  free(q), free(k), free(v), free(out), free(mag);
  __atomic_fetch_add(&j->bad, bad, __ATOMIC_RELAXED);
}

/* Compare O and LSE (downloaded) with float64; returns the bad count (the
** count in parallel, the report only where something is out of bounds). */
static int64_t check_outputs(gpu *g, const char *vname, kp_dtype dt, const acase *c, int64_t hd,
                             double scale, const t4 *Q, const t4 *K, const t4 *V, const t4 *O,
                             const hbuf *L) {
  out_job j = {g, vname, dt, c, hd, scale, Q, K, V, O, L, 0, 0, 0};
  const int64_t rows = c->batch * c->hq * c->lq;
  /* (a thread's dense copies of its first pair, lk hd values, are work too) */
  par_rows(rows, (c->lk < 64 ? 64 : c->lk) * hd, check_rows, &j);
  ck_assert_msg(!j.oom, "%s: out of host memory", g->test);
  if (j.bad) {
    j.report = 1, j.bad = 0;
    check_rows(&j, 0, rows);
  }
  return j.bad;
}

/* The LSE buffer's bytes outside its batch * hq * lq floats are unchanged. */
static void check_lse_guard(gpu *g, const hbuf *L, size_t n) {
  for (size_t e = 0; e < L->n; e++)
    if ((e < KP_PRE || e >= KP_PRE + n) && !hb_same_as_orig(L, e)) {
      gpu_fail(g, "LSE: buffer element %zu outside its %zu values was written", e, n);
      return;
    }
}

/* A paged copy of K or V (pages of `page` tokens, (page, token, head, dim)
** packed, num_pages of them, in the block table's shuffled order; the
** slots no key maps to keep their NaN poison, so a read of one shows).
** Sequence b has len[b] keys (NULL: lk each), block_table_stride
** ceil(lk / page); its key j is row k0[b] + j of batch 0 of K and V (NULL:
** row j of batch b).  d's K and V strides and paging fields are set to it. */
typedef struct paged {
  hbuf k, v, bt; /* bt: int32 entries in an f32-sized buffer */
  int64_t page, per_seq, pages;
} paged;

static void paged_make(gpu *g, paged *p, kp_dtype dt, int64_t batch, int64_t hkv, int64_t lk,
                       const int64_t *len, const int64_t *k0, const t4 *K, const t4 *V,
                       int64_t hd, int64_t page, kp_attn_desc *d) {
  p->page = page, p->per_seq = (lk + page - 1) / page, p->pages = batch * p->per_seq + 3;
  const size_t n = (size_t)(p->pages * page * hkv * hd);
  hb_make(g, &p->k, dt, n, KP_POISON);
  hb_make(g, &p->v, dt, n, KP_POISON);
  hb_make(g, &p->bt, KP_F32, (size_t)(batch * p->per_seq), 0);
  int32_t *perm = malloc((size_t)p->pages * sizeof *perm);
  ck_assert_msg(perm != NULL, "%s: out of host memory", g->test);
  for (int64_t i = 0; i < p->pages; i++) perm[i] = (int32_t)i;
  for (int64_t i = p->pages - 1; i > 0; i--) { /* pages out of order */
    const int64_t j = rng_int(g, 0, i);
    const int32_t x = perm[i];
    perm[i] = perm[j], perm[j] = x;
  }
  memcpy(p->bt.img, perm, (size_t)(batch * p->per_seq) * sizeof *perm);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t j = 0; j < (len ? len[b] : lk); j++)
      for (int64_t h = 0; h < hkv; h++) {
        const int64_t pg = perm[b * p->per_seq + j / page];
        const size_t at = (size_t)(((pg * page + j % page) * hkv + h) * hd);
        const int64_t sb = k0 ? 0 : b, sj = k0 ? k0[b] + j : j;
        for (int64_t x = 0; x < hd; x++) {
          hb_put(&p->k, at + (size_t)x, hb_orig(&K->b, t4_idx(K, sb, sj, h, x)));
          hb_put(&p->v, at + (size_t)x, hb_orig(&V->b, t4_idx(V, sb, sj, h, x)));
        }
      }
  free(perm);
  hb_upload(g, &p->k), hb_upload(g, &p->v), hb_upload(g, &p->bt);
  d->k_stride_batch = d->v_stride_batch = page * hkv * hd;
  d->k_stride_seq = d->v_stride_seq = hkv * hd;
  d->k_stride_head = d->v_stride_head = hd;
  d->block_table = (const int32_t *)hb_dev(&p->bt, 0);
  d->block_table_stride = p->per_seq, d->page_size = page, d->num_pages = p->pages;
  d->total_k = 0; /* cu_seqlens_k, if any, gives lengths only */
}

static void paged_free(gpu *g, paged *p) {
  hb_free(g, &p->k), hb_free(g, &p->v), hb_free(g, &p->bt);
}

/* The inputs as uploaded, and the paged copies (pg, or NULL) too, which are
** then freed. */
static void check_inputs(gpu *g, t4 *Q, t4 *K, t4 *V, paged *pg) {
  if (pg) {
    hb_check_unchanged(g, &pg->k, "paged K");
    hb_check_unchanged(g, &pg->v, "paged V");
    paged_free(g, pg);
  }
  hb_check_unchanged(g, &Q->b, "Q");
  hb_check_unchanged(g, &K->b, "K");
  hb_check_unchanged(g, &V->b, "V");
}

/* The split-KV decode's workspace: given when the forced variant computes
** only the workspace forms (kp_attention's bit 4), or when ws_sel is set
** (the selection); ws_make puts kp_attention_workspace_size's bytes for a
** call of these sizes in *W, poisoned (the call must clear what it counts
** on), and returns them (0: the call would use none, W untouched). */
static int ws_sel;
static int ws_only(const kpk_entry *e) { return e->forms && !(e->forms & ~KP_ATTN_WS_FORMS); }
static size_t ws_make(gpu *g, hbuf *W, kp_dtype dt, int64_t batch, int64_t hq, int64_t hkv,
                      int64_t lq, int64_t lk, int64_t hd) {
  kp_attn_desc d;
  kp_attn_desc_init(&d, batch, hq, hkv, lq, lk, hd);
  size_t n = 0;
  const kp_status st = kp_attention_workspace_size(g->ctx, dt, &d, &n);
  ck_assert_msg(st == KP_OK, "%s: kp_attention_workspace_size: %s", g->test,
                kp_ctx_errmsg(g->ctx));
  ck_assert_msg(n % 16 == 0, "%s: a workspace of %zu bytes", g->test, n);
  if (n) hb_make(g, W, KP_F32, n / 4, KP_POISON);
  return n;
}

/* A workspace kept zero across a test's calls, the second run of each case
** that takes a workspace going through it with workspace_zeroed = 1: zeroed
** when made or grown, never cleared by the test after that.  Every call
** must leave the counters zero whatever its shape: kept_check looks at the
** whole region above the slots (the counters of any call sit there,
** runtime/ops_attention.c), and a later call would go wrong on a stale one. */
static hbuf KW;
static size_t kw_n;
static gpu *kw_g;
static void *kept_ws(gpu *g, size_t n) {
  if (kw_g != g) kw_n = 0, memset(&KW, 0, sizeof KW), kw_g = g; /* a new test's context */
  if (n > kw_n) {
    if (kw_n) hb_free(g, &KW);
    hb_make(g, &KW, KP_F32, n / 4, 0);
    hb_upload(g, &KW);
    kw_n = n;
  }
  return hb_dev(&KW, 0);
}
/* n: the call's workspace size; tiles: its packed query tiles (the
** counters, rounded up to 4, are the last bytes of n; the slots below) */
static void kept_check(gpu *g, size_t n, int64_t tiles) {
  const size_t lo = n - (size_t)((tiles + 3) / 4 * 16);
  hb_download(g, &KW);
  for (size_t i = lo / 4; i < kw_n / 4; i++)
    if (((const int32_t *)KW.img)[i]) {
      gpu_fail(g, "the kept workspace's int %zu (counter %zu) is %d after the call, not 0", i,
               i - lo / 4, ((const int32_t *)KW.img)[i]);
      return;
    }
}
static void kept_free(gpu *g) {
  if (kw_g == g && kw_n) hb_free(g, &KW);
  kw_n = 0, kw_g = NULL;
}
static int64_t packed_tiles(int64_t batch, int64_t hq, int64_t hkv, int64_t lq) {
  return batch * hkv * ((hq / hkv * lq + 15) / 16);
}
/* A case's workspace (nws bytes, 0: none) for run `run`: the first run its
** own W, poisoned again (the call needs no prepared workspace), the second
** the kept one, workspace_zeroed = 1 */
static void ws_for_run(gpu *g, kp_attn_desc *d, hbuf *W, size_t nws, int run) {
  if (nws && run)
    d->workspace = kept_ws(g, nws), d->workspace_bytes = (int64_t)kw_n, d->workspace_zeroed = 1;
  else if (nws)
    hb_upload(g, W);
}

/* Run case c at head dim hd with pack entry vi forced (-1: the selection),
** tensors padded by pad elements and shifted by shift, K and V paged in
** pages of `page` tokens (0: not paged).  Returns 0 (nothing run) when vi
** does not apply. */
static int attn_case(gpu *g, kp_dtype dt, int vi, const acase *c, int64_t hd, int64_t pad,
                     int64_t shift, int64_t page) {
  const kpk_pack *pk = &g->ctx->pack;
  const char *vname = vi >= 0 ? pk->entries[vi].name : "selected";
  t4 Q, K, V, O;
  hbuf L;
  memset(&L, 0, sizeof L);
  t4_make(g, &Q, dt, c->batch, c->lq, c->hq, hd, c->layout, pad, shift);
  t4_make(g, &K, dt, c->batch, c->lk, c->hkv, hd, c->layout, pad, shift);
  t4_make(g, &V, dt, c->batch, c->lk, c->hkv, hd, c->layout, pad, 0);
  t4_make(g, &O, dt, c->batch, c->lq, c->hq, hd, c->layout, pad, shift);
  const size_t nl = (size_t)(c->batch * c->hq * c->lq);
  if (c->lse) hb_make(g, &L, KP_F32, KP_PRE + nl + KP_GUARD, KP_POISON);
  hbuf W;
  memset(&W, 0, sizeof W);
  const size_t nws = (vi >= 0 ? ws_only(&pk->entries[vi]) : ws_sel)
                         ? ws_make(g, &W, dt, c->batch, c->hq, c->hkv, c->lq, c->lk, hd) : 0;
  int ran = 1;
  if (vi >= 0) {
    const uint32_t al = t4_align(&O, t4_align(&V, t4_align(&K, t4_align(&Q, 16))));
    int64_t wl = c->wl, wr = c->causal ? 0 : c->wr;
    if (wl >= c->lk) wl = -1;
    if (wr >= c->lq) wr = -1;
    kp_call call = {KP_FAM_ATTENTION, dt, al,
                    (wl >= 0 || wr >= 0) | (page ? 4u : 0u) | (nws ? 16u : 0u),
                    {(uint64_t)c->lq, (uint64_t)c->lk, (uint64_t)(c->batch * c->hq), (uint64_t)hd,
                     (uint64_t)(c->hq / c->hkv)}};
    ran = kp_entry_applies(&pk->entries[vi], &call, &g->ctx->props, NULL, 0);
  }
  if (ran) {
    gpu_case(g, "%s %s: %s batch=%lld hq=%lld hkv=%lld lq=%lld lk=%lld hd=%lld causal=%d "
             "window=(%lld, %lld) layout=%s pad=%lld shift=%lld lse=%d page=%lld", vname,
             kp_dtype_name(dt), c->what, (long long)c->batch, (long long)c->hq, (long long)c->hkv,
             (long long)c->lq, (long long)c->lk, (long long)hd, c->causal, (long long)c->wl,
             (long long)c->wr, c->layout ? "bhsd" : "bshd", (long long)pad, (long long)shift,
             c->lse, (long long)page);
    t4_fill(g, &Q), t4_fill(g, &K), t4_fill(g, &V);
    hb_upload(g, &Q.b), hb_upload(g, &K.b), hb_upload(g, &V.b), hb_upload(g, &O.b);
    if (c->lse) hb_upload(g, &L);
    kp_attn_desc d;
    kp_attn_desc_init(&d, c->batch, c->hq, c->hkv, c->lq, c->lk, hd);
    d.q_stride_batch = Q.s[0], d.q_stride_seq = Q.s[1], d.q_stride_head = Q.s[2];
    d.k_stride_batch = K.s[0], d.k_stride_seq = K.s[1], d.k_stride_head = K.s[2];
    d.v_stride_batch = V.s[0], d.v_stride_seq = V.s[1], d.v_stride_head = V.s[2];
    d.o_stride_batch = O.s[0], d.o_stride_seq = O.s[1], d.o_stride_head = O.s[2];
    d.scale = (float)(c->scale_mul / sqrt((double)hd));
    d.causal = c->causal, d.window_left = c->wl, d.window_right = c->wr;
    d.lse = c->lse ? (float *)hb_dev(&L, KP_PRE) : NULL;
    if (nws) d.workspace = hb_dev(&W, 0), d.workspace_bytes = (int64_t)nws;
    paged pg;
    memset(&pg, 0, sizeof pg);
    void *kdev = t4_dev(&K), *vdev = t4_dev(&V);
    if (page) {
      paged_make(g, &pg, dt, c->batch, c->hkv, c->lk, NULL, NULL, &K, &V, hd, page, &d);
      kdev = hb_dev(&pg.k, 0), vdev = hb_dev(&pg.v, 0);
    }
    unsigned char *first_o = malloc(O.b.n * O.b.es), *first_l = c->lse ? malloc(L.n * 4) : NULL;
    ck_assert_msg(first_o && (first_l || !c->lse), "%s: out of host memory", g->test);
    for (int run = 0; run < 2; run++) {
      if (run) { /* poison again: the second run must write everything itself */
        memcpy(first_o, O.b.img, O.b.n * O.b.es);
        memcpy(O.b.img, O.b.orig, O.b.n * O.b.es);
        hb_upload(g, &O.b);
        if (c->lse) {
          memcpy(first_l, L.img, L.n * 4);
          memcpy(L.img, L.orig, L.n * 4);
          hb_upload(g, &L);
        }
      }
      ws_for_run(g, &d, &W, nws, run);
      if (vi >= 0) kp_force_variant(vi);
      kp_status st = kp_attention(g->ctx, dt, t4_dev(&Q), kdev, vdev, t4_dev(&O), &d, g->stream);
      kp_force_variant(-1);
      if (!gpu_op_ok(g, st, "kp_attention")) break;
      gpu_sync(g, "kp_attention");
      if (nws && run) kept_check(g, nws, packed_tiles(c->batch, c->hq, c->hkv, c->lq));
      hb_download(g, &O.b);
      if (c->lse) hb_download(g, &L);
      if (run == 0) {
        const int64_t bad = check_outputs(g, vname, dt, c, hd, (double)d.scale, &Q, &K, &V, &O,
                                          c->lse ? &L : NULL);
        if (bad) gpu_fail(g, "%lld outputs out of bounds", (long long)bad);
        t4_check_outside(g, &O, "O");
        if (c->lse) check_lse_guard(g, &L, nl);
      } else if (memcmp(first_o, O.b.img, O.b.n * O.b.es) ||
                 (c->lse && memcmp(first_l, L.img, L.n * 4))) {
        gpu_fail(g, "a second run gave other bits (%s)",
                 memcmp(first_o, O.b.img, O.b.n * O.b.es) ? "O" : "LSE");
      }
    }
    free(first_o), free(first_l);
    check_inputs(g, &Q, &K, &V, page ? &pg : NULL);
  }
  t4_free(g, &Q), t4_free(g, &K), t4_free(g, &V), t4_free(g, &O);
  if (L.img) hb_free(g, &L);
  if (W.img) hb_free(g, &W);
  return ran;
}

/* ---- varlen batches (cu_seqlens_q / _k) ------------------------------------------
** Sequences of their own lengths in packed buffers: Q and O (1, total_q,
** heads), K and V (1, total_k, heads) or paged, the offsets in device
** memory.  A length past the bound (len_q, len_k) is cut to it; the rows it
** cuts off and the tokens after the last sequence belong to no output and
** must keep their poison, as every LSE element of no row. */
typedef struct vcase {
  const char *what;
  int64_t batch, hq, hkv, lq, lk; /* lq, lk: the bounds */
  int vq, vk;                     /* cu_seqlens_q / _k given (else every sequence lq / lk) */
  int64_t sq[5], sk[5];           /* the sequences' lengths where given */
  int causal;
  int64_t wl, wr;
  int layout;
} vcase;

static const vcase VCASES[] = {
    {"varlen: empty and length-1 sequences, GQA", 5, 4, 2, 77, 200, 1, 1, {5, 0, 1, 77, 33},
     {60, 10, 1, 200, 0}, 0, -1, -1, 0},
    {"varlen causal: Lq_b < Lk_b, Lq_b = Lk_b, Lq_b > Lk_b", 4, 2, 2, 64, 100, 1, 1,
     {30, 64, 1, 9}, {100, 64, 1, 5}, 1, -1, -1, 1},
    {"varlen window (20, 5), sequences past both bounds", 3, 2, 1, 129, 257, 1, 1,
     {150, 40, 129}, {150, 300, 20}, 0, 20, 5, 0},
    {"varlen queries only, causal, MQA", 3, 4, 1, 70, 90, 1, 0, {70, 3, 45}, {0}, 1, -1, -1, 0},
    {"varlen keys only", 3, 2, 2, 33, 150, 0, 1, {0}, {150, 1, 0}, 0, -1, -1, 1},
    {"varlen decode: Lq_b = 1, Lk_b up to 3000, GQA 4:1", 4, 8, 2, 1, 3000, 1, 1, {1, 1, 0, 1},
     {1500, 0, 3, 3000}, 0, -1, -1, 0},
    {"varlen decode: Lq_b <= 16, causal", 4, 2, 1, 16, 2100, 1, 1, {16, 3, 0, 9},
     {1024, 2100, 50, 1500}, 1, -1, -1, 1},
};
#define NVCASES ((int)(sizeof VCASES / sizeof VCASES[0]))

/* cu_seqlens of the lengths n[0..batch) in a device buffer (int32 in an
** f32-sized buffer); *total = the last offset + `extra` tokens no sequence has */
static void cu_make(gpu *g, hbuf *cu, const int64_t *n, int64_t batch, int64_t extra,
                    int64_t *first, int64_t *total) {
  hb_make(g, cu, KP_F32, (size_t)(batch + 1), 0);
  int32_t *c = (int32_t *)cu->img;
  c[0] = 0;
  for (int64_t b = 0; b < batch; b++) first[b] = c[b], c[b + 1] = c[b] + (int32_t)n[b];
  *total = c[batch] + extra;
  hb_upload(g, cu);
}

/* In varlen_case (and vl_rows): element of Q / O (row i of sequence b), of
** K / V (key j), of the LSE; c is the case, q0 / k0 the sequences' first
** tokens in the packed buffers */
#define QIDX(T, b, i, h, d) (c->vq ? t4_idx((T), 0, q0[b] + (i), (h), (d)) : t4_idx((T), (b), (i), (h), (d)))
#define KIDX(T, b, j, h, d) (c->vk ? t4_idx((T), 0, k0[b] + (j), (h), (d)) : t4_idx((T), (b), (j), (h), (d)))
#define LIDX(b, i, h) ((size_t)KP_PRE + (size_t)(c->vq ? (q0[b] + (i)) * c->hq + (h) : ((b) * c->hq + (h)) * c->lq + (i)))

/* A varlen case's O and LSE (downloaded) against float64 for the query rows
** [x0, x1) of every (sequence, head) pair in order (x counts pair (b, h)'s
** eq[b] rows), marking in wo / wlse what the call should have written, the
** bad count added to bad (par_rows).  report: in this thread, over every
** row, the first 4 bad values printed. */
typedef struct vl_job {
  const char *vname;
  kp_dtype dt;
  const vcase *c;
  int64_t hd;
  double scale;
  const int64_t *eq, *ek, *q0, *k0;
  const t4 *Q, *K, *V, *O;
  const hbuf *L;
  unsigned char *wo, *wlse;
  int report, oom;
  int64_t bad;
} vl_job;

static void vl_rows(void *p, int64_t x0, int64_t x1) {
  vl_job *jb = p;
  const vcase *c = jb->c;
  const int64_t *q0 = jb->q0, *k0 = jb->k0, *eq = jb->eq, *ek = jb->ek, hd = jb->hd;
  double *q = malloc((size_t)hd * sizeof *q), *k = malloc((size_t)(c->lk * hd) * sizeof *k),
         *v = malloc((size_t)(c->lk * hd) * sizeof *v), *out = malloc((size_t)hd * sizeof *out),
         *mag = malloc((size_t)hd * sizeof *mag);
  int64_t bad = 0, base = 0;
  if (!(q && k && v && out && mag)) {
    jb->oom = 1;
    x1 = x0;
  }
  for (int64_t bh = 0; bh < c->batch * c->hq && base < x1; bh++) {
    const int64_t b = bh / c->hq, h = bh % c->hq, start = base;
    base += eq[b];
    const int64_t i0 = x0 > start ? x0 - start : 0, i1 = x1 - start < eq[b] ? x1 - start : eq[b];
    if (i0 >= i1) continue;
    const int64_t hk = h / (c->hq / c->hkv);
    for (int64_t j = 0; j < ek[b]; j++)
      for (int64_t x = 0; x < hd; x++) {
        k[j * hd + x] = hb_orig(&jb->K->b, KIDX(jb->K, b, j, hk, x));
        v[j * hd + x] = hb_orig(&jb->V->b, KIDX(jb->V, b, j, hk, x));
      }
    for (int64_t i = i0; i < i1; i++) {
      for (int64_t x = 0; x < hd; x++) q[x] = hb_orig(&jb->Q->b, QIDX(jb->Q, b, i, h, x));
      int64_t lo, hi;
      ref_attention_keys(eq[b], ek[b], c->causal, c->wl, c->wr, i, &lo, &hi);
      double smag;
      const double lse = ref_attention_row(q, k, v, hd, lo, hi, jb->scale, out, mag, &smag);
      const double es = (double)hd * 0x1p-23 * smag;
      for (int64_t x = 0; x < hd; x++) {
        const size_t e = QIDX(jb->O, b, i, h, x);
        jb->wo[e] = 1;
        const double got = hb_get(&jb->O->b, e);
        const double tol = o_bound(jb->dt, es, out[x], mag[x]);
        if (lo >= hi ? got == 0.0 : fabs(got - out[x]) <= tol) continue; /* NaN fails */
        if (jb->report && bad < 4)
          fprintf(stderr, "  %s: O[b %lld][i %lld][h %lld][d %lld] = %.9g, expected %.9g "
                  "(keys [%lld, %lld) of %lld), bound %.3g\n", jb->vname, (long long)b,
                  (long long)i, (long long)h, (long long)x, got, out[x], (long long)lo,
                  (long long)hi, (long long)ek[b], tol);
        bad++;
      }
      const size_t li = LIDX(b, i, h);
      jb->wlse[li] = 1;
      const double got = hb_get(jb->L, li);
      const double tol = lse_bound(es, ek[b], lse);
      if (lo >= hi ? isinf(got) && got < 0 : fabs(got - lse) <= tol) continue;
      if (jb->report && bad < 4)
        fprintf(stderr, "  %s: LSE[b %lld][h %lld][i %lld] = %.9g, expected %.9g (keys "
                "[%lld, %lld)), bound %.3g\n", jb->vname, (long long)b, (long long)h,
                (long long)i, got, lse, (long long)lo, (long long)hi, tol);
      bad++;
    }
  }
  free(q), free(k), free(v), free(out), free(mag);
  __atomic_fetch_add(&jb->bad, bad, __ATOMIC_RELAXED);
}

/* Run varlen case c at head dim hd with pack entry vi forced (-1: the
** selection; strides padded by pad; K and V paged in pages of `page`
** tokens, 0: not).  Returns 0 (nothing run) when vi does not apply. */
static int varlen_case(gpu *g, kp_dtype dt, int vi, const vcase *c, int64_t hd, int64_t pad,
                       int64_t page) {
  const kpk_pack *pk = &g->ctx->pack;
  const char *vname = vi >= 0 ? pk->entries[vi].name : "selected";
  const int64_t B = c->batch;
  /* each sequence's rows and keys as the kernels see them (cut to the bounds),
  ** and where they start in the packed buffers */
  int64_t eq[5], ek[5], q0[5], k0[5], tq = 0, tk = 0;
  for (int64_t b = 0; b < B; b++) {
    eq[b] = c->vq ? (c->sq[b] < c->lq ? c->sq[b] : c->lq) : c->lq;
    ek[b] = c->vk ? (c->sk[b] < c->lk ? c->sk[b] : c->lk) : c->lk;
  }
  hbuf cq, ck, L;
  memset(&cq, 0, sizeof cq), memset(&ck, 0, sizeof ck), memset(&L, 0, sizeof L);
  t4 Q, K, V, O;
  /* the last 3 (2) tokens of the packed Q and O (K and V) are no sequence's */
  if (c->vq) cu_make(g, &cq, c->sq, B, 3, q0, &tq);
  if (c->vk) cu_make(g, &ck, c->sk, B, 2, k0, &tk);
  t4_make(g, &Q, dt, c->vq ? 1 : B, c->vq ? tq : c->lq, c->hq, hd, c->layout, pad, 0);
  t4_make(g, &O, dt, c->vq ? 1 : B, c->vq ? tq : c->lq, c->hq, hd, c->layout, pad, 0);
  t4_make(g, &K, dt, c->vk ? 1 : B, c->vk ? tk : c->lk, c->hkv, hd, c->layout, pad, 0);
  t4_make(g, &V, dt, c->vk ? 1 : B, c->vk ? tk : c->lk, c->hkv, hd, c->layout, pad, 0);
  const size_t nl = (size_t)(c->vq ? tq * c->hq : B * c->hq * c->lq);
  hb_make(g, &L, KP_F32, KP_PRE + nl + KP_GUARD, KP_POISON);
  hbuf W;
  memset(&W, 0, sizeof W);
  const size_t nws = (vi >= 0 ? ws_only(&pk->entries[vi]) : ws_sel)
                         ? ws_make(g, &W, dt, B, c->hq, c->hkv, c->lq, c->lk, hd) : 0;
  const uint32_t al = t4_align(&O, t4_align(&V, t4_align(&K, t4_align(&Q, 16))));
  int64_t wl = c->wl, wr = c->causal ? 0 : c->wr;
  if (wl >= c->lk) wl = -1;
  if (wr >= c->lq) wr = -1;
  kp_call call = {KP_FAM_ATTENTION, dt, al,
                  (wl >= 0 || wr >= 0) | (page ? 4u : 0u) | 8u | (nws ? 16u : 0u),
                  {(uint64_t)c->lq, (uint64_t)c->lk, (uint64_t)(B * c->hq), (uint64_t)hd,
                   (uint64_t)(c->hq / c->hkv)}};
  const int ran = vi < 0 || kp_entry_applies(&pk->entries[vi], &call, &g->ctx->props, NULL, 0);
  if (ran) {
    gpu_case(g, "%s %s: %s batch=%lld hq=%lld hkv=%lld bounds lq=%lld lk=%lld total_q=%lld "
             "total_k=%lld hd=%lld causal=%d window=(%lld, %lld) layout=%s pad=%lld page=%lld",
             vname, kp_dtype_name(dt), c->what, (long long)B, (long long)c->hq, (long long)c->hkv,
             (long long)c->lq, (long long)c->lk, (long long)tq, (long long)tk, (long long)hd,
             c->causal, (long long)c->wl, (long long)c->wr, c->layout ? "bhsd" : "bshd",
             (long long)pad, (long long)page);
    t4_fill(g, &Q), t4_fill(g, &K), t4_fill(g, &V);
    hb_upload(g, &Q.b), hb_upload(g, &K.b), hb_upload(g, &V.b), hb_upload(g, &O.b);
    hb_upload(g, &L);
    kp_attn_desc d;
    kp_attn_desc_init(&d, B, c->hq, c->hkv, c->lq, c->lk, hd);
    d.q_stride_batch = Q.s[0], d.q_stride_seq = Q.s[1], d.q_stride_head = Q.s[2];
    d.k_stride_batch = K.s[0], d.k_stride_seq = K.s[1], d.k_stride_head = K.s[2];
    d.v_stride_batch = V.s[0], d.v_stride_seq = V.s[1], d.v_stride_head = V.s[2];
    d.o_stride_batch = O.s[0], d.o_stride_seq = O.s[1], d.o_stride_head = O.s[2];
    if (c->vq) d.q_stride_batch = d.o_stride_batch = 1 << 30; /* ignored */
    d.causal = c->causal, d.window_left = c->wl, d.window_right = c->wr;
    d.lse = (float *)hb_dev(&L, KP_PRE);
    if (c->vq) d.cu_seqlens_q = (const int32_t *)hb_dev(&cq, 0), d.total_q = tq;
    if (c->vk) d.cu_seqlens_k = (const int32_t *)hb_dev(&ck, 0), d.total_k = tk;
    if (nws) d.workspace = hb_dev(&W, 0), d.workspace_bytes = (int64_t)nws;
    paged pg;
    memset(&pg, 0, sizeof pg);
    void *kdev = t4_dev(&K), *vdev = t4_dev(&V);
    if (page) { /* each sequence's ek[b] keys paged */
      paged_make(g, &pg, dt, B, c->hkv, c->lk, ek, c->vk ? k0 : NULL, &K, &V, hd, page, &d);
      kdev = hb_dev(&pg.k, 0), vdev = hb_dev(&pg.v, 0);
    }
    /* which elements of O and LSE the call writes */
    unsigned char *wo = calloc(O.b.n, 1), *wlse = calloc(L.n, 1);
    unsigned char *first_o = malloc(O.b.n * O.b.es), *first_l = malloc(L.n * 4);
    ck_assert_msg(wo && wlse && first_o && first_l, "%s: out of host memory", g->test);
    for (int run = 0; run < 2; run++) {
      if (run) { /* poison again: the second run must write everything itself */
        memcpy(first_o, O.b.img, O.b.n * O.b.es), memcpy(first_l, L.img, L.n * 4);
        memcpy(O.b.img, O.b.orig, O.b.n * O.b.es), memcpy(L.img, L.orig, L.n * 4);
        hb_upload(g, &O.b), hb_upload(g, &L);
      }
      ws_for_run(g, &d, &W, nws, run);
      if (vi >= 0) kp_force_variant(vi);
      kp_status st = kp_attention(g->ctx, dt, t4_dev(&Q), kdev, vdev, t4_dev(&O), &d, g->stream);
      kp_force_variant(-1);
      if (!gpu_op_ok(g, st, "kp_attention")) break;
      gpu_sync(g, "kp_attention");
      if (nws && run) kept_check(g, nws, packed_tiles(B, c->hq, c->hkv, c->lq));
      hb_download(g, &O.b), hb_download(g, &L);
      if (run) {
        if (memcmp(first_o, O.b.img, O.b.n * O.b.es) || memcmp(first_l, L.img, L.n * 4))
          gpu_fail(g, "a second run gave other bits (%s)",
                   memcmp(first_o, O.b.img, O.b.n * O.b.es) ? "O" : "LSE");
        continue;
      }
      /* the reference and the count, rows in parallel; the report only
      ** where something is out of bounds */
      vl_job jb = {vname, dt, c, hd, (double)d.scale, eq, ek, q0, k0, &Q, &K, &V, &O, &L,
                   wo, wlse, 0, 0, 0};
      int64_t rows = 0;
      for (int64_t b = 0; b < B; b++) rows += eq[b] * c->hq;
      par_rows(rows, (c->lk < 64 ? 64 : c->lk) * hd, vl_rows, &jb);
      ck_assert_msg(!jb.oom, "%s: out of host memory", g->test);
      if (jb.bad) {
        jb.report = 1, jb.bad = 0;
        vl_rows(&jb, 0, rows);
      }
      const int64_t bad = jb.bad;
      if (bad) gpu_fail(g, "%lld outputs out of bounds", (long long)bad);
      /* everything else -- rows past each sequence's (cut) length, tokens of
      ** no sequence, padding, guards -- as it was */
      int64_t touched = 0;
      for (size_t e = 0; e < O.b.n; e++)
        if (!wo[e] && !hb_same_as_orig(&O.b, e) && touched++ < 4)
          fprintf(stderr, "  %s: O buffer element %zu belongs to no row of a sequence but was "
                  "written: %.9g\n", vname, e, hb_get(&O.b, e));
      for (size_t e = 0; e < L.n; e++)
        if (!wlse[e] && !hb_same_as_orig(&L, e) && touched++ < 4)
          fprintf(stderr, "  %s: LSE buffer element %zu belongs to no row but was written: "
                  "%.9g\n", vname, e, hb_get(&L, e));
      if (touched) gpu_fail(g, "%lld elements of no row written", (long long)touched);
    }
    free(wo), free(wlse), free(first_o), free(first_l);
    check_inputs(g, &Q, &K, &V, page ? &pg : NULL);
  }
#undef QIDX
#undef KIDX
#undef LIDX
  t4_free(g, &Q), t4_free(g, &K), t4_free(g, &V), t4_free(g, &O);
  hb_free(g, &L);
  if (W.img) hb_free(g, &W);
  if (c->vq) hb_free(g, &cq);
  if (c->vk) hb_free(g, &ck);
  return ran;
}

/* head dims a variant is tried at: the ones of {40, 64, 96, 128, 256} it takes */
static const int64_t HDIMS[] = {40, 64, 96, 128, 256};
#define NHDIMS ((int)(sizeof HDIMS / sizeof HDIMS[0]))

static int takes_hd(const kpk_entry *e, int64_t hd) {
  return (!e->dmin[KP_AD] || (uint64_t)hd >= e->dmin[KP_AD]) &&
         (!e->dmax[KP_AD] || (uint64_t)hd <= e->dmax[KP_AD]);
}

/* Every attention variant of the device's pack, forced, on every case. */
START_TEST(test_every_variant) {
  const kp_dtype dt = DT[_i];
  char name[64];
  snprintf(name, sizeof name, "attention/every_variant/%s", kp_dtype_name(dt));
  gpu g;
  gpu_open(&g, name, _i);
  const kpk_pack *pk = &g.ctx->pack;
  int variants = 0, skipped = 0;
  const char *only = getenv("KP_TEST_ONLY"); /* as in check_gemm_gpu.c: sanitizer runs */
  for (uint32_t vi = 0; vi < pk->n_entries; vi++) {
    const kpk_entry *e = &pk->entries[vi];
    if (kp_family_from_name(e->family) != KP_FAM_ATTENTION || e->dtype != (uint32_t)dt) continue;
    if (!kp_test_only(e->name)) {
      skipped++;
      continue;
    }
    const int narrow = e->align < 16; /* odd pads and shifted pointers too */
    int ran = 0;
    for (int h = 0; h < NHDIMS; h++) {
      if (!takes_hd(e, HDIMS[h])) continue;
      for (int ci = 0; ci < NCASES; ci++) {
        /* the fallback is slow: the larger head dims on every other case */
        if (narrow && HDIMS[h] > 64 && ci % 2) continue;
        ran += attn_case(&g, dt, (int)vi, &CASES[ci], HDIMS[h], 8, ci % 3 == 1 ? 8 : 0, 0);
        if (narrow) ran += attn_case(&g, dt, (int)vi, &CASES[ci], HDIMS[h], 1 + ci % 2, 1, 0);
        /* paged K and V (the variants that take them): pages of 16, 7 and 48
        ** tokens, the last one partial, in shuffled order */
        if (ci % 3 == 0 || CASES[ci].lk >= 1000)
          ran += attn_case(&g, dt, (int)vi, &CASES[ci], HDIMS[h], 0, 0, ci % 3 == 0 ? 16 : ci % 3 == 1 ? 7 : 48);
      }
      /* varlen batches (the variants with form bit 3): contiguous, then paged
      ** (pages of 16 or 7 tokens, shuffled) for those that take both; the
      ** fallback at head dims 40 and 128 only */
      if (narrow && HDIMS[h] != 40 && HDIMS[h] != 128) continue;
      for (int ci = 0; ci < NVCASES; ci++) {
        ran += varlen_case(&g, dt, (int)vi, &VCASES[ci], HDIMS[h], narrow ? 3 : 8, 0);
        ran += varlen_case(&g, dt, (int)vi, &VCASES[ci], HDIMS[h], 0, ci % 2 ? 7 : 16);
      }
    }
    /* the persistent FA3 kernels again on a grid for 2 SMs (2 or 4 CTAs
    ** looping over every tile): each CTA then serves several tiles, so the
    ** paths between tiles run -- Q's barrier phases, the O buffer's reuse
    ** after a TMA store, tiles without keys between others, `_ps`'s later
    ** rounds and chunks -- which the cases' few tiles on a whole GPU don't */
    if (e->persist && strstr(e->name, "_wg_")) {
      const int sms = g.ctx->props.sm_count;
      g.ctx->props.sm_count = 2;
      fprintf(stderr, "%s: %s on a grid for 2 SMs:\n", name, e->name);
      for (int h = 0; h < NHDIMS; h++) {
        if (!takes_hd(e, HDIMS[h])) continue;
        for (int ci = 0; ci < NCASES; ci++)
          if (CASES[ci].lq > 16) ran += attn_case(&g, dt, (int)vi, &CASES[ci], HDIMS[h], 8, 0, 0);
      }
      g.ctx->props.sm_count = sms;
    }
    /* the decode clusters on a grid for 8 SMs (one cluster of 16, two CTAs
    ** an SM): it loops over every tile, so the paths between tiles run --
    ** the merge buffers' reuse, a barrier's next phase -- which the cases'
    ** few tiles (one a cluster) on a whole GPU don't */
    if (e->cluster > 1 && strstr(e->name, "_dec_")) {
      const int sms = g.ctx->props.sm_count;
      g.ctx->props.sm_count = (int)(e->cluster / (e->persist ? e->persist : 1));
      fprintf(stderr, "%s: %s on a grid for %d SMs:\n", name, e->name, g.ctx->props.sm_count);
      for (int h = 0; h < NHDIMS; h++) {
        if (!takes_hd(e, HDIMS[h])) continue;
        for (int ci = 0; ci < NCASES; ci++)
          if (CASES[ci].lq <= 16 && CASES[ci].lk >= 1000)
            ran += attn_case(&g, dt, (int)vi, &CASES[ci], HDIMS[h], 8, 0, ci % 2 ? 16 : 0);
      }
      g.ctx->props.sm_count = sms;
    }
    /* the split-KV decode on grids of 4 and 6 CTAs (2 and 3 SMs): its ways
    ** of dealing shares out -- S CTAs a tile, k whole tiles a CTA, and
    ** shares across tiles where neither fits the grid -- on the decode cases'
    ** 2-320 tiles; then on a grid of 3 CTAs for 3 SMs, as if one CTA fit an
    ** SM where it asks for `persist` (sm_86 / 89 / 120's 100 KB): the launch
    ** caps its grid at the driver's count (kp_persist_grid), asked at its
    ** first launch, one at least.  Pages: 0, 16, and each in turn.  (The
    ** workspace's layout follows the SM count: the kept one is made anew,
    ** zero, for each grid and again after.) */
    if (ws_only(e)) {
      static const struct { int sms, one_fits, page; } GRID[] = {{2, 0, 0}, {3, 0, 16}, {3, 1, -1}};
      const int sms = g.ctx->props.sm_count;
      int *fit = &g.ctx->fit[vi];
      for (int k = 0; k < 3; k++) {
        const int was = *fit;
        if (GRID[k].one_fits) {
          if (was < 1)
            gpu_fail(&g, "%s: the driver's count of its CTAs that fit an SM is %d", e->name, was);
          *fit = 1;
        }
        kept_free(&g);
        g.ctx->props.sm_count = GRID[k].sms;
        fprintf(stderr, "%s: %s on a grid for %d SMs", name, e->name, GRID[k].sms);
        if (GRID[k].one_fits) fprintf(stderr, ", one CTA an SM (%d fit here)", was);
        fprintf(stderr, ":\n");
        for (int h = 0; h < NHDIMS; h++) {
          if (!takes_hd(e, HDIMS[h])) continue;
          for (int ci = 0; ci < NCASES; ci++)
            if (CASES[ci].lq <= 16 && CASES[ci].lk >= 256)
              ran += attn_case(&g, dt, (int)vi, &CASES[ci], HDIMS[h], 8, 0,
                               GRID[k].page >= 0 ? GRID[k].page : ci % 2 ? 16 : 0);
        }
        *fit = was;
      }
      kept_free(&g);
      g.ctx->props.sm_count = sms;
    }
    if (strstr(e->name, "_dec_")) /* (pages of 16 or 48 tokens: 50 s a dtype for both) */
      for (int h = 0; h < NHDIMS; h++)
        if (takes_hd(e, HDIMS[h]))
          ran += attn_case(&g, dt, (int)vi, &LONG_DEC, HDIMS[h], 0, 0, vi % 2 ? 16 : 48);
    /* a variant this device can run (its SM range, its shared memory) that
    ** took no case is a gap in the cases, or in what the test gives the call
    ** (a stale binary's workspace size once hid d256's split-KV kernel so:
    ** bench/NOTES.md 57) -- a failure, not a note */
    if (ran) variants++;
    else if (gpu_entry_runs(&g, e)) gpu_fail(&g, "%s took none of the cases on this device", e->name);
    else fprintf(stderr, "  note: %s took none of the cases on this device\n", e->name);
    fprintf(stderr, "%s: %s: %d cases\n", name, e->name, ran);
  }
  if (skipped) fprintf(stderr, "%s: %d variants left out (KP_TEST_ONLY=%s)\n", name, skipped, only);
  ck_assert_msg(variants > 0, "no %s attention variant ran", kp_dtype_name(dt));
  kept_free(&g);
  gpu_close(&g);
}
END_TEST

/* The selection, nothing forced: odd head dims and element alignment. */
START_TEST(test_any_call) {
  const kp_dtype dt = DT[_i];
  char name[64];
  snprintf(name, sizeof name, "attention/any_call/%s", kp_dtype_name(dt));
  gpu g;
  gpu_open(&g, name, _i);
  static const int64_t hd[] = {8, 64, 72, 128, 200};
  for (int h = 0; h < 5; h++) {
    attn_case(&g, dt, -1, &CASES[h % NCASES], hd[h], 8, 0, 0);
    attn_case(&g, dt, -1, &CASES[(h + 3) % NCASES], hd[h], 3, 1, 0);
    attn_case(&g, dt, -1, &CASES[(h + 5) % NCASES], hd[h], 0, 0, 5); /* paged */
    varlen_case(&g, dt, -1, &VCASES[h % NVCASES], hd[h], 8, 0);
    varlen_case(&g, dt, -1, &VCASES[(h + 3) % NVCASES], hd[h], 0, 5); /* paged */
  }
  /* with a workspace: the decode cases (the split-KV variant where it has the
  ** head dim, the others taking the workspace forms alike), and prefill ones */
  ws_sel = 1;
  for (int h = 0; h < 5; h++)
    for (int ci = 0; ci < NCASES; ci++) {
      if (CASES[ci].lq > 16 && ci % 5) continue;
      attn_case(&g, dt, -1, &CASES[ci], hd[h], 8, 0, ci % 2 ? 16 : 0);
    }
  for (int ci = 0; ci < NVCASES; ci++) varlen_case(&g, dt, -1, &VCASES[ci], 128, 0, ci % 2 ? 7 : 0);
  ws_sel = 0;
  kept_free(&g);
  gpu_close(&g);
}
END_TEST

/* Bad calls on real buffers (and a forced fast variant on a 2-byte aligned
** call) return their status and leave O and LSE as they were. */
START_TEST(test_rejects_write_nothing) {
  gpu g;
  gpu_open(&g, "attention/rejects_write_nothing", 0);
  const kp_dtype dt = KP_BF16;
  t4 Q, K, V, O;
  hbuf L;
  t4_make(&g, &Q, dt, 1, 64, 4, 64, 0, 0, 0);
  t4_make(&g, &K, dt, 1, 64, 2, 64, 0, 0, 0);
  t4_make(&g, &V, dt, 1, 64, 2, 64, 0, 0, 0);
  t4_make(&g, &O, dt, 1, 64, 4, 64, 0, 0, 0);
  hb_make(&g, &L, KP_F32, KP_PRE + 4 * 64 + KP_GUARD, KP_POISON);
  t4_fill(&g, &Q), t4_fill(&g, &K), t4_fill(&g, &V);
  hb_upload(&g, &Q.b), hb_upload(&g, &K.b), hb_upload(&g, &V.b), hb_upload(&g, &O.b);
  hb_upload(&g, &L);
  void *q = t4_dev(&Q), *k = t4_dev(&K), *v = t4_dev(&V), *o = t4_dev(&O);
  struct { const char *what; kp_status st; int64_t hkv; int mis, overlap, varlen; } T[] = {
      {"heads_kv 3", KP_ERR_INVALID_ARG, 3, 0, 0, 0},
      {"O misaligned", KP_ERR_MISALIGNED, 2, 1, 0, 0},
      {"O overlaps Q", KP_ERR_INVALID_ARG, 2, 0, 1, 0},
      {"cu_seqlens_q without total_q", KP_ERR_INVALID_ARG, 2, 0, 0, 1},
  };
  for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
    gpu_case(&g, "%s", T[t].what);
    kp_attn_desc d;
    kp_attn_desc_init(&d, 1, 4, T[t].hkv, 64, 64, 64);
    d.lse = (float *)hb_dev(&L, KP_PRE);
    if (T[t].varlen) d.cu_seqlens_q = (const int32_t *)hb_dev(&L, 0);
    void *oo = T[t].mis ? (void *)((char *)o + 1) : T[t].overlap ? q : o;
    kp_status st = kp_attention(g.ctx, dt, q, k, v, oo, &d, g.stream);
    if (st != T[t].st)
      gpu_fail(&g, "kp_attention returned %s (%s), expected %s", kp_status_name(st),
               kp_ctx_errmsg(g.ctx), kp_status_name(T[t].st));
    gpu_sync(&g, "a rejected kp_attention");
    hb_check_unchanged(&g, &O.b, "O");
    hb_check_unchanged(&g, &L, "LSE");
    hb_check_unchanged(&g, &Q.b, "Q");
  }
  /* a forced 16-byte variant on a call with odd strides: refused, not run */
  const kpk_pack *pk = &g.ctx->pack;
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    if (kp_family_from_name(e->family) != KP_FAM_ATTENTION || e->dtype != (uint32_t)dt ||
        e->align < 4 || !takes_hd(e, 64))
      continue;
    gpu_case(&g, "forced %s on a 2-byte aligned call", e->name);
    kp_attn_desc d;
    kp_attn_desc_init(&d, 1, 4, 2, 63, 63, 64);
    d.q_stride_seq = d.o_stride_seq = 4 * 64 + 1; /* 514 bytes; 63 rows fit the buffers */
    kp_force_variant((int)i);
    kp_status st = kp_attention(g.ctx, dt, q, k, v, o, &d, g.stream);
    kp_force_variant(-1);
    if (st != KP_ERR_NO_VARIANT || !strstr(kp_ctx_errmsg(g.ctx), e->name))
      gpu_fail(&g, "kp_attention returned %s (%s), expected KP_ERR_NO_VARIANT naming %s",
               kp_status_name(st), kp_ctx_errmsg(g.ctx), e->name);
    gpu_sync(&g, "a refused forced kp_attention");
    hb_check_unchanged(&g, &O.b, "O");
    break;
  }
  t4_free(&g, &Q), t4_free(&g, &K), t4_free(&g, &V), t4_free(&g, &O);
  hb_free(&g, &L);
  gpu_close(&g);
}
END_TEST

Suite *attention_gpu_suite(void) {
  Suite *s = suite_create("attention_gpu");
  /* two cases: CK_RUN_CASE=attention runs the variants alone (a sanitizer's
  ** run with KP_TEST_ONLY, bench/lanes.sh), attention_calls the selection */
  KP_GPU_TCASE(tc, "attention");
  KP_ADD_GPU_LOOP_TEST(tc, test_every_variant, 0, 2);
  suite_add_tcase(s, tc);
  KP_GPU_TCASE(tcs, "attention_calls");
  KP_ADD_GPU_LOOP_TEST(tcs, test_any_call, 0, 2);
  KP_ADD_GPU_TEST(tcs, test_rejects_write_nothing);
  suite_add_tcase(s, tcs);
  return s;
}
