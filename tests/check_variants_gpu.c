/*
** check_variants_gpu.c -- every variant of the device's pack, forced in
** turn, against float64: the op tests only reach the variants the ranking
** picks for their shapes, but the tuner (or a tuning table) may pick any.
**
** For each entry, shapes inside its column range: rows = 1 at the largest
** length it takes up to 64K (256K for a row over a cluster; odd where possible, so the vector tail runs:
** with one row only the base pointers set the alignment), and 5 rows at a
** length that keeps every row start 16-byte aligned (and for a column-chunk
** entry, 3 rows of two chunks and a partial third; for a persistent grid
** of clusters, 4 rows a cluster or more, at the shortest length in range,
** so that every buffer and exchange slot is reused -- and again at an odd
** length, rows at every residue, where the entry takes them).  An entry with a
** min_rows above those gets min_rows and min_rows + 1 rows instead, at
** lengths (multiples of 8, about 2^23 elements in all) that keep the
** reference quick.  Rows at every residue mod 16 bytes (odd strides,
** element offsets, inputs at other residues than the output; rope's
** (token, head) rows likewise) run every entry that applies at element
** alignment: the peeling variants of all seven families and the
** fallbacks.  A shape the entry does not apply to (alignment) is
** skipped, as the selection would (so is a form it does not compute, and a
** whole-rows entry's odd length); entries that ran no shape at all are
** listed on stderr, and one with a min_rows must have run.
*/
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"
#include "ops_cases.h"

/* The alignment a contiguous call of this shape offers (ops.c's rule with
** 16-byte aligned base pointers, as the harness allocates them). */
static uint32_t call_align(kp_family f, size_t es, int64_t rows, int64_t cols) {
  uint32_t a = 16;
  if (rows > 1) a = kp_align_of((uint64_t)cols * es * (f == KP_FAM_RMSNORM_SWIGLU ? 2 : 1));
  if (f == KP_FAM_RMSNORM_SWIGLU && kp_align_of((uint64_t)cols * es) < a) a = kp_align_of((uint64_t)cols * es);
  return a;
}

/* The alignment ops.c computes for a shape's tensors (ldx = cols + padx at
** element offset offx, ldy = cols + pady at offy; w, residual and up at offy,
** as ops_cases.c places them), from 16-byte aligned bases. */
static uint32_t shape_align(kp_family f, size_t es, const shape *s) {
  const int64_t k = f == KP_FAM_RMSNORM_SWIGLU ? 2 : 1;
  uint32_t a = call_align(f, es, 1, s->cols);
  const uint64_t v[4] = {(uint64_t)s->offx * es, (uint64_t)s->offy * es,
                         s->rows > 1 ? (uint64_t)(k * s->cols + s->padx) * es : 0,
                         s->rows > 1 ? (uint64_t)(s->cols + s->pady) * es : 0};
  for (int i = 0; i < 4; i++)
    if (kp_align_of(v[i]) < a) a = kp_align_of(v[i]);
  return a;
}

/* form: GeGLU's kp_gelu (the variant computes it: kp_call.form) */
static void run_row_case(gpu *g, kp_family f, kp_dtype dt, const shape *s, uint32_t form) {
  switch (f) {
    case KP_FAM_SOFTMAX:
      softmax_case(g, dt, s->rows, s->cols, s->cols + s->padx, s->cols + s->pady, s->offx, s->offy,
                   0, 0);
      break;
    case KP_FAM_RMSNORM: rmsnorm_case(g, dt, s); break;
    case KP_FAM_ADD_RMSNORM: add_rmsnorm_case(g, dt, s); break;
    case KP_FAM_SWIGLU: glu_case(g, dt, 0, s, 0); break;
    case KP_FAM_GEGLU: glu_case(g, dt, form == KP_GELU_TANH ? 2 : 1, s, 0); break;
    case KP_FAM_RMSNORM_SWIGLU: rmsnorm_swiglu_case(g, dt, s); break;
    default: break;
  }
}

/* rope: `tokens` tokens, 3 q heads and 1 k head of head_dim hd >= rot_dim,
** strides as `st` lays them out, one layout, table and computed angles */
static void run_rope(gpu *g, kp_dtype dt, int64_t rot, int64_t hd, int64_t tokens,
                     kp_rope_layout l, int st) {
  for (int angle = ANG_TABLE; angle <= ANG_TOKEN; angle++) {
    rope_cfg c = {tokens, 3, 1, hd, rot, st == ST_CONTIG ? 0 : 3, angle, st, 10000.f};
    rope_case(g, dt, l, &c);
  }
}

/* every variant of one dtype, forced, on shapes inside its range */
START_TEST(test_every_variant) {
  static const kp_dtype DT[3] = {KP_F32, KP_F16, KP_BF16};
  const kp_dtype dt = DT[_i];
  char name[64];
  snprintf(name, sizeof name, "every_variant/%s", kp_dtype_name(dt));
  gpu g;
  gpu_open(&g, name, _i);
  const kpk_pack *pk = &g.ctx->pack;
  const size_t es = kp_dtype_size(dt);
  int ran = 0, idle = 0;
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    const int f = kp_family_from_name(e->family);
    if (f < 0 || e->dtype != (uint32_t)dt) continue;
    /* the row families (GEMM and attention have their own every-variant tests) */
    if (strncmp(kp_family_dims_text((kp_family)f), "rows:", 5)) continue;
    if (!kp_test_only(e->name)) continue;
    /* keeps the references quick; a row over a cluster up to its longest */
    const uint64_t cap = f == KP_FAM_ROPE ? 4096 : e->cluster > 1 ? 1u << 18 : 65536;
    const int64_t hi = (int64_t)(e->dmax[KP_COLS] < cap ? e->dmax[KP_COLS] : cap);
    const int64_t lo = (int64_t)e->dmin[KP_COLS];
    const int64_t min_rows = e->dmin[KP_ROWS]; /* 0, a power of two or one more */
    int runs = 0;
    kp_force_variant((int)i);
    if (f == KP_FAM_ROPE) {
      const int64_t tokens = min_rows > 7 ? min_rows : 7;
      for (int64_t rot = hi / 16 * 16; rot >= lo && rot >= 16; rot = rot > 256 ? 256 : 0)
        for (uint32_t l = 0; l < 2; l++) { /* each layout it computes */
          kp_call c = {KP_FAM_ROPE, dt, call_align(KP_FAM_ROPE, es, 2, rot / 2), l,
                       {(uint64_t)tokens, (uint64_t)rot, 1, 1}};
          if (!kp_entry_applies(e, &c, &g.ctx->props, NULL, 0)) continue;
          run_rope(&g, dt, rot, rot, tokens, l ? KP_ROPE_GPTJ : KP_ROPE_NEOX, ST_CONTIG);
          runs++;
        }
      /* (token, head) rows at every residue mod 16 bytes (per-row peeling):
      ** odd head and token strides, q one element off (ST_PAD_UNALIGNED: 7
      ** tokens x 3 heads cover every residue), head_dim rot_dim + 2 (the
      ** dims past rot_dim must stay as they were); at the longest rot_dim
      ** in range, one whose half is no multiple of a vector (NeoX's second
      ** half at another residue than the first) and one of 3 pairs (a row
      ** shorter than the head) */
      const int64_t top = hi / 16 * 16 > 256 ? 256 : hi / 16 * 16;
      const int64_t rots[3] = {top, top - 6, 6};
      for (int k = 0; k < 3; k++) {
        if (rots[k] < lo || rots[k] > hi || rots[k] < 2) continue;
        for (uint32_t l = 0; l < 2; l++) {
          kp_call c = {KP_FAM_ROPE, dt, (uint32_t)es, l, {(uint64_t)tokens, (uint64_t)rots[k], 1, 1}};
          if (!kp_entry_applies(e, &c, &g.ctx->props, NULL, 0)) continue;
          run_rope(&g, dt, rots[k], rots[k] + 2, tokens, l ? KP_ROPE_GPTJ : KP_ROPE_NEOX,
                   ST_PAD_UNALIGNED);
          runs++;
        }
      }
    } else {
      const int64_t odd = hi % 2 || hi - 1 < lo ? hi : hi - 1;
      const int64_t even = hi / 8 * 8 >= lo ? hi / 8 * 8 : hi;
      shape sh[4] = {{1, odd, 0, 0, 0, 0}, {5, even, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}};
      int nsh = 2;
      if (e->tile[KP_COLS] && 2 * (int64_t)e->tile[KP_COLS] + 8 <= hi) /* rows of 2 chunks and */
        sh[nsh++] = (shape){3, 2 * (int64_t)e->tile[KP_COLS] + 8, 0, 0, 0, 0}; /* a partial one */
      /* a persistent grid: rows past what fits at once, at pc columns --
      ** each cluster 4 rows or more (its buffers reused), each block of a
      ** grid of row blocks (RMSNorm's `_ws`, RMSNorm+SwiGLU's `warps`) 4
      ** rounds of its rows or more */
      const int64_t sms = g.ctx->props.sm_count, rpb = e->tile[KP_ROWS] ? e->tile[KP_ROWS] : 1;
      const int64_t pr = (e->cluster > 1 ? 4 * sms / e->cluster : 4 * sms * e->persist * rpb) + 3;
      const int64_t pc = ((lo > 1 ? lo : hi / 2) + 8) / 8 * 8;
      if (e->persist) sh[nsh++] = (shape){pr, pc <= hi ? pc : even, 0, 0, 0, 0};
      if (min_rows > 5) { /* min_rows and one more, at lengths in range (multiples of 8) */
        int64_t c = (1 << 23) / min_rows / 8 * 8;
        c = c < lo ? (lo + 7) / 8 * 8 : c;
        c = c > hi ? hi : c;
        const int64_t c2 = c + 24 <= hi ? c + 24 : c;
        sh[0] = (shape){min_rows, c, 0, 0, 0, 0};
        sh[1] = (shape){min_rows + 1, c2, 0, 0, 0, 0};
      }
      const uint32_t nforms = f == KP_FAM_GEGLU ? 2 : 1; /* each form it computes */
      for (int k = 0; k < nsh; k++)
        for (uint32_t form = 0; form < nforms; form++) {
          kp_call c = {(kp_family)f, dt, call_align((kp_family)f, es, sh[k].rows, sh[k].cols),
                       form, {(uint64_t)sh[k].rows, (uint64_t)sh[k].cols, 1, 1}};
          if (!kp_entry_applies(e, &c, &g.ctx->props, NULL, 0)) continue;
          run_row_case(&g, (kp_family)f, dt, &sh[k], form);
          runs++;
        }
      /* Rows off the 16-byte grid (per-row peeling): odd row strides, so
      ** that row r starts at residue r * ld * es mod 16 (9 rows: every
      ** residue an element-aligned start can have), element offsets into
      ** the buffers, and inputs at other residues than the output (x vs
      ** y: shifted loads, element stores), at a length shorter than a
      ** vector, a middling one and the longest in range.  The entries that
      ** apply at the alignment such a call offers run (the peeling ones,
      ** and the element-aligned fallbacks). */
      const int64_t mid = 777 >= lo && 777 <= hi ? 777 : odd;
      const int64_t tiny = 3 >= lo && 3 <= hi ? 3 : odd;
      const int64_t big = min_rows > 5 ? sh[0].cols + 1 : odd; /* (odd: a min_rows entry's rows) */
      const int64_t rr = min_rows > 9 ? min_rows : 9;
      const shape un[5] = {{rr, mid, 0, 0, 1, 1}, {rr, mid, 2, 0, 3, 0}, {rr, tiny, 0, 4, 7, 6},
                           {rr, mid, 0, 2, 0, 5}, {3 > min_rows ? 3 : min_rows, big, 2, 0, 5, 2}};
      for (int k = 0; k < 5; k++) {
        if (un[k].cols < lo || un[k].cols > hi || (un[k].cols > 8192 && rr > 9)) continue;
        for (uint32_t form = 0; form < nforms; form++) {
          kp_call c = {(kp_family)f, dt, shape_align((kp_family)f, es, &un[k]), form,
                       {(uint64_t)un[k].rows, (uint64_t)un[k].cols, 1, 1}};
          if (!kp_entry_applies(e, &c, &g.ctx->props, NULL, 0)) continue;
          run_row_case(&g, (kp_family)f, dt, &un[k], form);
          runs++;
        }
      }
      /* blocks of many rows (`_rw`: a warp's rows 8 apart, w kept while
      ** their residue stays): two blocks' rows and a few, off the grid */
      if (rpb > 8) {
        const shape rb = {2 * rpb + 3, mid, 0, 0, 1, 1};
        kp_call c = {(kp_family)f, dt, shape_align((kp_family)f, es, &rb), 0,
                     {(uint64_t)rb.rows, (uint64_t)rb.cols, 1, 1}};
        if (rb.cols >= lo && rb.cols <= hi && kp_entry_applies(e, &c, &g.ctx->props, NULL, 0)) {
          run_row_case(&g, (kp_family)f, dt, &rb, 0);
          runs++;
        }
      }
      /* a persistent grid off the grid too: 4 rows a cluster (or rounds of
      ** a block's rows) or more at an odd length, each buffer and exchange
      ** slot (each image of w: `_ws`) reused by rows at every residue -- x
      ** at y's (the common case), and x at another */
      if (e->persist) {
        const int64_t c = pc + 1;
        const shape pu[2] = {{pr, c, 0, 0, 1, 1}, {pr, c, 2, 0, 5, 2}};
        for (int k = 0; k < 2 && c <= hi; k++) {
          kp_call cc = {(kp_family)f, dt, shape_align((kp_family)f, es, &pu[k]), 0,
                        {(uint64_t)pu[k].rows, (uint64_t)pu[k].cols, 1, 1}};
          if (!kp_entry_applies(e, &cc, &g.ctx->props, NULL, 0)) continue;
          run_row_case(&g, (kp_family)f, dt, &pu[k], 0);
          runs++;
        }
      }
    }
    kp_force_variant(-1);
    if (!runs) {
      fprintf(stderr, "every_variant/%s: %s (min_rows %llu, cols %llu..%llu, align %u) ran no shape\n",
              kp_dtype_name(dt), e->name, (unsigned long long)e->dmin[KP_ROWS], (unsigned long long)e->dmin[KP_COLS],
              (unsigned long long)e->dmax[KP_COLS], e->align);
      idle++;
    }
    ck_assert_msg(runs > 0 || min_rows <= 1, "%s: no shape with rows >= its min_rows %llu ran",
                  e->name, (unsigned long long)e->dmin[KP_ROWS]);
    ran += runs;
  }
  ck_assert_msg(ran > 0, "no variant ran");
  if (idle) fprintf(stderr, "every_variant/%s: %d variants ran no shape\n", kp_dtype_name(dt), idle);
  gpu_close(&g);
}
END_TEST

Suite *variants_gpu_suite(void) {
  Suite *s = suite_create("variants_gpu");
  KP_GPU_TCASE(tc, "every_variant");
  KP_ADD_GPU_LOOP_TEST(tc, test_every_variant, 0, 3);
  suite_add_tcase(s, tc);
  return s;
}
