/*
** check_select.c -- the variant and pack selection rules on synthetic
** device properties and on the real built packs (no GPU needed).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"
#include "tune.h"

/* Do two calls share a selection-cache slot? */
static int same_class(const kp_call *a, const kp_call *b) {
  kp_key x = kp_cache_key(a), y = kp_cache_key(b);
  return !memcmp(&x, &y, sizeof x);
}

static kpk_entry mk(const char *fam, kp_dtype dt, uint64_t lo, uint64_t hi, uint32_t align,
                    int rank) {
  kpk_entry e;
  memset(&e, 0, sizeof e);
  e.family = fam;
  e.name = "synthetic";
  e.dtype = dt;
  e.dmin[KP_COLS] = lo;
  e.dmax[KP_COLS] = hi;
  e.align = align;
  e.rank = rank;
  e.min_sm = 80;
  e.block = 128;
  e.tile[KP_ROWS] = 1;
  return e;
}

static kpk_pack fake_pack(kpk_entry *e, uint32_t n) {
  kpk_pack pk;
  memset(&pk, 0, sizeof pk);
  strcpy(pk.path, "synthetic.kpk");
  pk.entries = e;
  pk.n_entries = n;
  return pk;
}

/* The highest-ranked applicable entry wins; range, dtype and family filter. */
START_TEST(test_rank_and_range) {
  kpk_entry e[] = {
      mk("softmax", KP_BF16, 1, 1024, 16, 50),        /* 0: short rows */
      mk("softmax", KP_BF16, 1, 8192, 16, 40),        /* 1: medium */
      mk("softmax", KP_BF16, 1, 2147483647, 2, 0),    /* 2: fallback */
      mk("softmax", KP_F16, 1, 2147483647, 2, 99),    /* 3: other dtype */
      mk("rmsnorm", KP_BF16, 1, 2147483647, 2, 99),   /* 4: other family */
  };
  kpk_pack pk = fake_pack(e, 5);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 16, 0, {1, 1000, 1, 1}};
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  c.dim[KP_COLS] = 1025;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 1);
  c.dim[KP_COLS] = 8193;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
}
END_TEST

/* A call with less alignment than a vectorised variant needs falls back;
** a variant with max_align (for rows off the 16-byte grid) is the ranking's
** pick for the calls aligned to at most that, however it ranks, and never
** for a better-aligned one -- which it still runs (applies: the tuner's, a
** table's or a pin's choice). */
START_TEST(test_alignment) {
  kpk_entry e[] = {mk("swiglu", KP_F32, 1, 100, 16, 10), mk("swiglu", KP_F32, 1, 100, 4, 1),
                   mk("swiglu", KP_F32, 1, 100, 4, 99)};
  e[2].max_align = 8;
  kpk_pack pk = fake_pack(e, 3);
  kp_devprops d = {80, 163 * 1024, 132};
  kp_call c = {KP_FAM_SWIGLU, KP_F32, 16, 0, {1, 64, 1, 1}};
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  char why[200];
  ck_assert(kp_entry_applies(&e[2], &c, &d, why, sizeof why));
  ck_assert(!kp_entry_ranked(&e[2], &c, &d, why, sizeof why));
  ck_assert_ptr_nonnull(strstr(why, "at most 8 bytes, call has 16"));
  ck_assert(kp_entry_ranked(&e[0], &c, &d, why, sizeof why));
  c.align = 8;
  ck_assert(kp_entry_ranked(&e[2], &c, &d, why, sizeof why));
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
  ck_assert(!kp_entry_applies(&e[0], &c, &d, why, sizeof why));
  ck_assert_ptr_nonnull(strstr(why, "16-byte alignment"));
  c.align = 4;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
  e[2].max_align = 0; /* without it the ranking takes every call */
  c.align = 16;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
}
END_TEST

/* SM range and shared memory limit exclude variants; ties keep the first. */
START_TEST(test_sm_smem_ties) {
  kpk_entry e[] = {mk("rope", KP_F16, 1, 512, 2, 5), mk("rope", KP_F16, 1, 512, 2, 5),
                   mk("rope", KP_F16, 1, 512, 2, 9), mk("rope", KP_F16, 1, 512, 2, 8)};
  e[2].min_sm = 90;          /* Hopper-only */
  e[3].smem = 150 * 1024;    /* needs opt-in shared memory beyond Ada's 99 KB */
  kpk_pack pk = fake_pack(e, 4);
  kp_call c = {KP_FAM_ROPE, KP_F16, 16, 0, {1, 128, 1, 1}};
  kp_devprops ampere = {80, 163 * 1024, 108}, hopper = {90, 227 * 1024, 132}, ada = {89, 99 * 1024, 128};
  ck_assert_int_eq(kp_select_variant(&pk, &c, &hopper, NULL, 0), 2);
  ck_assert_int_eq(kp_select_variant(&pk, &c, &ampere, NULL, 0), 3);
  ck_assert_int_eq(kp_select_variant(&pk, &c, &ada, NULL, 0), 0);
  e[2].max_sm = 89;
  e[2].min_sm = 80;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &hopper, NULL, 0), 3);
}
END_TEST

/* No applicable variant: -1 and a message naming family, dtype, cols and pack. */
START_TEST(test_none_applies) {
  kpk_entry e[] = {mk("softmax", KP_F32, 1, 64, 16, 1)};
  kpk_pack pk = fake_pack(e, 1);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_SOFTMAX, KP_F32, 16, 0, {1, 65, 1, 1}};
  char why[512];
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, why, sizeof why), -1);
  ck_assert_ptr_nonnull(strstr(why, "softmax"));
  ck_assert_ptr_nonnull(strstr(why, "f32"));
  ck_assert_ptr_nonnull(strstr(why, "rows:pow2,cols 1x65"));
  ck_assert_ptr_nonnull(strstr(why, "synthetic.kpk"));
}
END_TEST

/* min_rows: a variant applies from rows = min_rows on, says why not below,
** and the ranking picks it only there. */
START_TEST(test_min_rows) {
  kpk_entry e[] = {mk("rmsnorm", KP_BF16, 1, 8192, 16, 50), mk("rmsnorm", KP_BF16, 1, 8192, 16, 60),
                   mk("rmsnorm", KP_BF16, 1, 2147483647, 2, 0)};
  e[1].dmin[KP_ROWS] = 16384;
  kpk_pack pk = fake_pack(e, 3);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_RMSNORM, KP_BF16, 16, 0, {16383, 8192, 1, 1}};
  char why[200];
  ck_assert(!kp_entry_applies(&e[1], &c, &d, why, sizeof why));
  ck_assert_msg(strstr(why, "needs rows >= 16384, call has 16383") != NULL, "%s", why);
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  c.dim[KP_ROWS] = 16384;
  ck_assert(kp_entry_applies(&e[1], &c, &d, why, sizeof why));
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 1);
  c.dim[KP_ROWS] = 1u << 30;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 1);
  c.dim[KP_COLS] = 8193; /* its other limits still hold */
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
  c.dim[KP_COLS] = 8192;
  c.align = 8;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
  e[1].dmin[KP_ROWS] = 1; /* 1 (and 0) take any call */
  c.dim[KP_ROWS] = 1;
  c.align = 16;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 1);
}
END_TEST

/* cols_mult: a whole-vector variant applies only where it divides cols, says
** why not elsewhere, and the any-cols twin below it takes those calls.
** forms: a variant computing one form (bit f) serves only calls of form f;
** forms = 0 serves every form. */
START_TEST(test_cols_mult_and_forms) {
  kpk_entry e[] = {mk("rmsnorm", KP_BF16, 1, 4096, 16, 61), mk("rmsnorm", KP_BF16, 1, 4096, 16, 60),
                   mk("geglu", KP_BF16, 1, 2147483647, 16, 9),
                   mk("geglu", KP_BF16, 1, 2147483647, 16, 8),
                   mk("geglu", KP_BF16, 1, 2147483647, 16, 1)};
  e[0].dmult[KP_COLS] = 8;
  e[2].forms = 1; /* erf */
  e[3].forms = 2; /* tanh */
  kpk_pack pk = fake_pack(e, 5);
  kp_devprops d = {90, 227 * 1024, 132};
  char why[200];
  const uint64_t cols[] = {8, 16, 4096, 4088, 1, 7, 4095, 4092, 1000, 1001};
  for (int k = 0; k < 10; k++) {
    kp_call c = {KP_FAM_RMSNORM, KP_BF16, 16, 0, {64, cols[k], 1, 1}};
    int whole = cols[k] % 8 == 0;
    ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), whole ? 0 : 1);
    ck_assert_int_eq(kp_entry_applies(&e[0], &c, &d, why, sizeof why), whole);
    if (!whole) {
      char want[80];
      snprintf(want, sizeof want, "needs cols a multiple of 8, call has %llu",
               (unsigned long long)cols[k]);
      ck_assert_msg(strstr(why, want) != NULL, "%s", why);
    }
  }
  kp_call g = {KP_FAM_GEGLU, KP_BF16, 16, 0, {4096, 11008, 1, 1}};
  ck_assert_int_eq(kp_select_variant(&pk, &g, &d, NULL, 0), 2);
  g.form = 1;
  ck_assert_int_eq(kp_select_variant(&pk, &g, &d, NULL, 0), 3);
  ck_assert(!kp_entry_applies(&e[2], &g, &d, why, sizeof why));
  ck_assert_msg(strstr(why, "computes forms 0x1, call has form 1") != NULL, "%s", why);
  g.form = 2; /* no form-2 variant: the any-form one */
  ck_assert_int_eq(kp_select_variant(&pk, &g, &d, NULL, 0), 4);
  g.form = 200; /* out of range: only forms = 0 serves it, and no bit test overflows */
  ck_assert_int_eq(kp_select_variant(&pk, &g, &d, NULL, 0), 4);
}
END_TEST


/* Rows that probe every cache class from 1 to 2^31 - 1: 1..4100, and each
** power of two with its neighbours. */
static int probe_rows(uint64_t *out) {
  int n = 0;
  for (uint64_t r = 1; r <= 4100; r++) out[n++] = r;
  for (int k = 12; k <= 31; k++)
    for (int dlt = -2; dlt <= 2; dlt++) {
      uint64_t r = (1ull << k) + (uint64_t)(int64_t)dlt;
      if (r <= 2147483647ull) out[n++] = r;
    }
  return n;
}

/* Calls sharing a cache key (kp_cache_key) get the same answer from a direct
** kp_select_variant and from the tuning table, over rows 1..2^31-1 and
** min_rows a power of two or one more; and the key does separate the calls
** that differ. */
START_TEST(test_cache_classes) {
  static uint64_t rows[4100 + 20 * 5];
  const int nrows = probe_rows(rows);
  kpk_entry e[] = {mk("swiglu", KP_BF16, 1, 2147483647, 2, 0), mk("swiglu", KP_BF16, 1, 2147483647, 16, 10),
                   mk("swiglu", KP_BF16, 1, 2147483647, 16, 20), mk("swiglu", KP_BF16, 1, 2147483647, 16, 30),
                   mk("swiglu", KP_BF16, 1, 2147483647, 16, 40), mk("swiglu", KP_BF16, 1, 2147483647, 16, 50)};
  /* (2^30 + 1: a min one past a power of two, v > 2^30, is a bound too) */
  const uint32_t mins[] = {0, 1, 2, 1024, 16384, (1u << 30) + 1};
  const char *names[] = {"v0", "v1", "v2", "v1024", "v16384", "v2p30p1"};
  for (int i = 0; i < 6; i++) e[i].dmin[KP_ROWS] = mins[i], e[i].name = names[i];
  kpk_pack pk = fake_pack(e, 6);
  kp_devprops d = {90, 227 * 1024, 132};
  /* the table: the min_rows variants are fastest in their buckets' keys */
  kp_tune_table t;
  char err[300];
  ck_assert(kp_tune_parse(&t,
                          "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                          "swiglu bf16 16384x4096 16 v16384 1.0\n"
                          "swiglu bf16 16384x4096 16 v1 2.0\n"
                          "swiglu bf16 1024x4096 16 v1024 1.0\n"
                          "swiglu bf16 1024x4096 16 v0 2.0\n"
                          "swiglu bf16 1x4096 16 v2 1.0\n",
                          "t.tune", err, sizeof err) == KP_OK);
  static kp_key keys[4200];
  static int sel[4200], tab[4200];
  int nkeys = 0;
  for (int k = 0; k < nrows; k++) {
    kp_call c = {KP_FAM_SWIGLU, KP_BF16, 16, 0, {rows[k], 4096, 1, 1}};
    kp_key key = kp_cache_key(&c);
    char how[300];
    int s = kp_select_variant(&pk, &c, &d, NULL, 0), u = kp_tune_pick(&t, &pk, &c, &d, how, sizeof how);
    int j = 0;
    while (j < nkeys && memcmp(&keys[j], &key, sizeof key)) j++;
    if (j == nkeys) {
      ck_assert_int_lt(nkeys, 4200);
      keys[nkeys] = key, sel[nkeys] = s, tab[nkeys] = u, nkeys++;
      continue;
    }
    ck_assert_msg(sel[j] == s, "rows %llu: ranking gives %d, an earlier call with its key %d",
                  (unsigned long long)rows[k], s, sel[j]);
    ck_assert_msg(tab[j] == u, "rows %llu: table gives %d, an earlier call with its key %d (%s)",
                  (unsigned long long)rows[k], u, tab[j], how);
  }
  /* the classes are k = ceil(log2 rows), split into 2^k and eighths of
  ** (2^(k-1), 2^k) (single values up to 16): {1} .. {16}; for k = 5..12 2^k
  ** and its octave's 8 eighths (rows 1..4100); 4097..4100 one (with 4098,
  ** 2^12 + 2); for k = 13..30 the probes 2^k - 2 and - 1 one class, 2^k
  ** another, 2^k + 1 and + 2 a third; 2^31 - 2 and - 1 one */
  ck_assert_int_eq(nkeys, 16 + 8 * 9 + 1 + 3 * 18 + 1);
  kp_call a = {KP_FAM_SWIGLU, KP_BF16, 16, 0, {16383, 4096, 1, 1}}, b = a;
  b.dim[KP_ROWS] = 16384;
  ck_assert(!same_class(&a, &b));
  ck_assert_int_eq(kp_select_variant(&pk, &a, &d, NULL, 0), 3);
  ck_assert_int_eq(kp_select_variant(&pk, &b, &d, NULL, 0), 4);
  b.dim[KP_ROWS] = 15400; /* same class as 16383: (15360, 16384) */
  static const uint64_t tops[][2] = {{1, 1}, {3, 3}, {15, 15}, {16, 16}, {17, 18}, {600, 640},
                                     {640, 640}, {1000, 1024}, {1024, 1024}, {1025, 1152},
                                     {2147483647, 2147483648ull}};
  for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++)
    ck_assert_uint_eq(kp_pow2_class_top(tops[i][0]), tops[i][1]);
  ck_assert(same_class(&a, &b));
  b.dim[KP_COLS] = 4097; /* cols, alignment, dtype and family are in the key too */
  ck_assert(!same_class(&a, &b));
  b = a, b.align = 8;
  ck_assert(!same_class(&a, &b));
  b = a, b.dtype = KP_F16;
  ck_assert(!same_class(&a, &b));
  b = a, b.family = KP_FAM_GEGLU;
  ck_assert(!same_class(&a, &b));
  b = a, b.form = 1; /* and the form (GeGLU's GELU, RoPE's layout) */
  ck_assert(!same_class(&a, &b));
  /* why min_rows must be a power of two: 1000 splits the class (512, 1024) */
  e[3].dmin[KP_ROWS] = 1000;
  kp_call lo = {KP_FAM_SWIGLU, KP_BF16, 16, 0, {999, 4096, 1, 1}}, hi = lo;
  hi.dim[KP_ROWS] = 1000;
  ck_assert(same_class(&lo, &hi));
  ck_assert_int_ne(kp_select_variant(&pk, &lo, &d, NULL, 0), kp_select_variant(&pk, &hi, &d, NULL, 0));
  kp_tune_free(&t);
}
END_TEST

/* kp_grid_blocks for a row family's rows x cols */
static kp_status grid(const kpk_entry *e, uint64_t rows, uint64_t cols, uint64_t *n) {
  kp_call c = {KP_FAM_SWIGLU, KP_BF16, 16, 0, {rows, cols, 1, 1}};
  return kp_grid_blocks(e, &c, 132, n);
}

/* The launch grid: the product over tiled dims of ceil(dim / tile) (row
** blocks, times column chunks when the cols tile is set); more than
** 0x7FFFFFFF blocks (or an overflowing product) is refused; a persistent
** entry gets at most persist x SMs; GEMM-like tiles over m, n and batch. */
START_TEST(test_grid_blocks) {
  kpk_entry e = mk("swiglu", KP_BF16, 1, 2147483647, 16, 0);
  uint64_t n;
  ck_assert_int_eq(grid(&e, 5, 100000, &n), KP_OK);
  ck_assert_uint_eq(n, 5);
  e.tile[KP_ROWS] = 8;
  ck_assert_int_eq(grid(&e, 17, 3, &n), KP_OK);
  ck_assert_uint_eq(n, 3);
  ck_assert_int_eq(grid(&e, 16, 3, &n), KP_OK);
  ck_assert_uint_eq(n, 2);
  e.tile[KP_ROWS] = 1;
  e.tile[KP_COLS] = 1024;
  ck_assert_int_eq(grid(&e, 3, 1, &n), KP_OK);
  ck_assert_uint_eq(n, 3);
  ck_assert_int_eq(grid(&e, 3, 1024, &n), KP_OK);
  ck_assert_uint_eq(n, 3);
  ck_assert_int_eq(grid(&e, 3, 1025, &n), KP_OK);
  ck_assert_uint_eq(n, 6);
  e.tile[KP_ROWS] = 2;
  e.tile[KP_COLS] = 256;
  ck_assert_int_eq(grid(&e, 5, 1000, &n), KP_OK);
  ck_assert_uint_eq(n, 12);
  /* the grid limit: exactly 0x7FFFFFFF blocks is fine, one row-chunk more is not */
  e.tile[KP_ROWS] = 1;
  e.tile[KP_COLS] = 1;
  ck_assert_int_eq(grid(&e, 2147483647ull, 1, &n), KP_OK);
  ck_assert_uint_eq(n, 2147483647ull);
  ck_assert_int_eq(grid(&e, 2147483647ull, 2, &n), KP_ERR_UNSUPPORTED);
  ck_assert_uint_eq(n, 2 * 2147483647ull);
  ck_assert_int_eq(grid(&e, 65536, 32768, &n), KP_ERR_UNSUPPORTED); /* 2^31 */
  ck_assert_int_eq(grid(&e, 1ull << 40, 1ull << 40, &n), KP_ERR_UNSUPPORTED);
  ck_assert(n == UINT64_MAX); /* saturated, not wrapped */
  e.tile[KP_COLS] = 0;
  ck_assert_int_eq(grid(&e, 2147483648ull, 1, &n), KP_ERR_UNSUPPORTED);
  e.tile[KP_ROWS] = 0; /* no tiled dimension: one block */
  ck_assert_int_eq(grid(&e, 5, 5, &n), KP_OK);
  ck_assert_uint_eq(n, 1);
  e.tile[KP_ROWS] = 1, e.persist = 2; /* persistent: at most 2 x 132 blocks */
  ck_assert_int_eq(grid(&e, 1000, 5, &n), KP_OK);
  ck_assert_uint_eq(n, 264);
  ck_assert_int_eq(grid(&e, 100, 5, &n), KP_OK);
  ck_assert_uint_eq(n, 100);
  /* at launch, where fewer CTAs than persist fit an SM: that many an SM */
  ck_assert_uint_eq(kp_persist_grid(264, 2, 1, 132), 132);
  ck_assert_uint_eq(kp_persist_grid(100, 2, 1, 132), 100);
  ck_assert_uint_eq(kp_persist_grid(264, 2, 2, 132), 264);  /* all fit */
  ck_assert_uint_eq(kp_persist_grid(264, 2, 3, 132), 264);
  ck_assert_uint_eq(kp_persist_grid(264, 2, 0, 132), 264);  /* not asked */
  ck_assert_uint_eq(kp_persist_grid(264, 2, -1, 132), 264); /* the driver could not say */
  ck_assert_uint_eq(kp_persist_grid(300, 3, 2, 100), 200);
  kpk_entry g = e;
  memset(g.tile, 0, sizeof g.tile);
  g.persist = 0, g.tile[KP_GM] = 128, g.tile[KP_GN] = 256, g.tile[KP_GBATCH] = 1;
  kp_call c = {KP_FAM_GEMM, KP_BF16, 16, 0, {4097, 11008, 4096, 3}};
  ck_assert_int_eq(kp_grid_blocks(&g, &c, 132, &n), KP_OK);
  ck_assert_uint_eq(n, 33 * 43 * 3);
  g.cluster = 2; /* whole clusters */
  c.dim[KP_GBATCH] = 1;
  ck_assert_int_eq(kp_grid_blocks(&g, &c, 132, &n), KP_OK);
  ck_assert_uint_eq(n, 33 * 43 + 1);
  g.split = 2; /* split-K: a cluster of 2 per tile */
  ck_assert_int_eq(kp_grid_blocks(&g, &c, 132, &n), KP_OK);
  ck_assert_uint_eq(n, 33 * 43 * 2);
}
END_TEST

/* Which pack target can serve which device, and in which order. */
START_TEST(test_target_score) {
  int t;
  ck_assert_int_eq(kp_target_score("sm_90a", 90, &t), 0);
  ck_assert_int_eq(kp_target_score("sm_90", 90, &t), 1);
  ck_assert_int_eq(kp_target_score("sm_80", 86, &t), 2);
  ck_assert_int_eq(kp_target_score("sm_86", 89, &t), 2);
  ck_assert_int_eq(kp_target_score("sm_120", 121, &t), 2);
  ck_assert_int_eq(kp_target_score("compute_80", 90, &t), 3);
  ck_assert_int_eq(kp_target_score("compute_80", 120, &t), 3);
  ck_assert_int_eq(kp_target_score("sm_86", 80, &t), -1);   /* newer than the device */
  ck_assert_int_eq(kp_target_score("sm_80", 90, &t), -1);   /* other major */
  ck_assert_int_eq(kp_target_score("sm_90a", 100, &t), -1); /* arch-specific */
  ck_assert_int_eq(kp_target_score("compute_90a", 90, &t), -1);
  ck_assert_int_eq(kp_target_score("compute_100", 90, &t), -1);
  ck_assert_int_eq(kp_target_score("sm_", 90, &t), -1);
  ck_assert_int_eq(kp_target_score("bogus", 90, &t), -1);
}
END_TEST

static int open_built(kpk_pack *pk, const char *target) {
  const char *dir = getenv("KP_PACK_DIR");
  ck_assert_msg(dir != NULL, "KP_PACK_DIR must point at the built packs (make test sets it: build/packs-whole)");
  char path[1024], err[600];
  snprintf(path, sizeof path, "%s/%s.kpk", dir, target);
  kp_status s = kpk_open(pk, path, err, sizeof err);
  ck_assert_msg(s == KP_OK, "%s", err);
  return 0;
}

/* prefer: an entry's rank is its prefer_rank for calls of its prefer_forms
** (forms past 31 too: the masks are 64 bits), its rank otherwise; a form
** beyond the masks takes the plain rank: the split-KV decode (workspace
** forms) against clusters preferred where the tiles fit one wave (bit 5), as
** templates/attention.lua once declared them.  Then the real pack's decode
** picks. */
START_TEST(test_prefer_rank) {
  kpk_entry e[] = {mk("geglu", KP_BF16, 1, 2147483647, 16, 410),
                   mk("geglu", KP_BF16, 1, 2147483647, 16, 400)};
  e[0].forms = 0xFFFF0000FFFF0000ull; /* bit 4 set: "+ws" */
  e[1].prefer_forms = 0xFFFFFFFF00000000ull, e[1].prefer_rank = 420; /* bit 5 set */
  kpk_pack pk = fake_pack(e, 2);
  kp_devprops d = {90, 227 * 1024, 132};
  const struct { uint32_t form; int pick, rank1; } want[] = {
      {0, 1, 400}, {16, 0, 400}, {17, 0, 400}, {32, 1, 420}, {48, 1, 420},
      {63, 1, 420}, {15, 1, 400}, {64, 1, 400}, {1000, 1, 400}};
  for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
    kp_call c = {KP_FAM_GEGLU, KP_BF16, 16, want[k].form, {4096, 11008, 1, 1}};
    ck_assert_msg(kp_select_variant(&pk, &c, &d, NULL, 0) == want[k].pick, "form %u",
                  want[k].form);
    ck_assert_int_eq(kp_entry_rank(&e[1], &c), want[k].rank1);
    ck_assert_int_eq(kp_entry_rank(&e[0], &c), 410);
  }
  /* the real sm_90a pack: decode at Lq 1, Lk 32K, 32 / 8 heads */
  kpk_pack real;
  open_built(&real, "sm_90a");
  static const char *const dts[] = {"bf16", "f16"};
  for (int t = 0; t < 2; t++)
    for (int hd = 64; hd <= 128; hd *= 2) {
      /* NULL: the split-KV kernel, 2 stages at d128, 3 at d64 (templates/attention.lua),
      ** wherever a workspace is given, one wave of tiles or not (bench/NOTES.md 80) */
      const char *sk = hd == 128 ? "_dec_w4x16_s2_sk" : "_dec_w4x16_s3_sk";
      const struct { uint32_t form; const char *tail; } pick[] = {
          {16, NULL}, {48, NULL}, {32, "_dec_w4x16_s3_c16"},
          {0, "_dec_w4x16_s3_c16"}, {20, NULL}, {52, NULL}};
      for (size_t k = 0; k < sizeof pick / sizeof pick[0]; k++) {
        kp_call c = {KP_FAM_ATTENTION, t ? KP_F16 : KP_BF16, 16, pick[k].form,
                     {1, 32768, 32, (uint64_t)hd, 4}};
        char why[700], name[96];
        int i = kp_select_variant(&real, &c, &d, why, sizeof why);
        ck_assert_msg(i >= 0, "%s", why);
        snprintf(name, sizeof name, "attention_%s_d%d%s", dts[t], hd,
                 pick[k].tail ? pick[k].tail : sk);
        ck_assert_msg(!strcmp(real.entries[i].name, name), "form %u: %s, not %s", pick[k].form,
                      real.entries[i].name, name);
      }
    }
  kpk_close(&real);
}
END_TEST

/* On the real sm_90a pack, every family and dtype resolves for awkward shapes,
** rows, alignments and forms, and better-aligned calls never get a less
** vectorised pick.  The pick's cols_mult divides cols and it computes the
** call's form; 16-byte aligned calls of the row families get the whole-rows
** twin exactly where cols is a multiple of the vector, and GeGLU's and
** RoPE's (one-round rot_dim) the copy of their form. */
START_TEST(test_real_pack_covers) {
  kpk_pack pk;
  open_built(&pk, "sm_90a");
  kp_devprops d = {90, 227 * 1024, 132};
  static const uint64_t cols[] = {1, 7, 64, 1000, 4096, 4097, 8192, 65537, 262144, 2147483647ull};
  for (int f = 0; f < KP_FAM_COUNT; f++) {
    int present = 0;
    for (uint32_t i = 0; i < pk.n_entries; i++)
      present |= strcmp(pk.entries[i].family, kp_family_name((kp_family)f)) == 0;
    if (!present) continue; /* family coverage is check_packs_built's job */
    /* not row families: check_gemm_gpu.c and check_attention(_gpu).c cover their calls */
    if (f == KP_FAM_GEMM || f == KP_FAM_ATTENTION) continue;
    for (int dt = 0; dt < KP_DTYPE_COUNT_; dt++)
      for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
        for (uint32_t a = kp_dtype_size((kp_dtype)dt); a <= 16; a *= 2)
          for (uint64_t rows = 1; rows <= (1u << 30); rows *= 32)
            for (uint32_t form = 0; form < 2; form++) {
              kp_call c = {(kp_family)f, (kp_dtype)dt, a, form, {rows, cols[k], 1, 1}};
              char why[700];
              int i = kp_select_variant(&pk, &c, &d, why, sizeof why);
              ck_assert_msg(i >= 0, "%s", why);
              const kpk_entry *e = &pk.entries[i];
              ck_assert_uint_le(e->align, a);
              ck_assert(!e->max_align || a <= e->max_align);
              ck_assert_uint_le(e->dmin[KP_ROWS], rows);
              ck_assert_str_eq(e->signature, kp_family_signature((kp_family)f));
              ck_assert(e->dmult[KP_COLS] <= 1 || cols[k] % e->dmult[KP_COLS] == 0);
              ck_assert(!e->forms || (e->forms >> form & 1));
              const uint32_t vec = 16 / (uint32_t)kp_dtype_size((kp_dtype)dt);
              /* (the rows over a cluster have no whole-rows twins) */
              if (a == 16 && (f == KP_FAM_SOFTMAX || f == KP_FAM_RMSNORM || f == KP_FAM_ADD_RMSNORM) &&
                  e->cluster < 2)
                ck_assert_msg(e->dmult[KP_COLS] == (cols[k] % vec ? 0 : vec), "%s %s cols %llu: %s",
                              kp_family_name((kp_family)f), kp_dtype_name((kp_dtype)dt),
                              (unsigned long long)cols[k], e->name);
              if (a == 16 && f == KP_FAM_GEGLU)
                ck_assert_msg(e->forms == 1u << form, "geglu form %u: %s", form, e->name);
              /* RoPE's one-round defaults: the layout's copy, and one token a block
              ** for 16-bit calls of up to 512 tokens */
              if (a == 16 && f == KP_FAM_ROPE && cols[k] <= 64 * vec) {
                ck_assert_msg(e->forms == 1u << form, "rope layout %u: %s", form, e->name);
                ck_assert_msg((e->tile[KP_ROWS] == 1) == (dt != KP_F32 && rows <= 512),
                              "rope %s %llu tokens: %s", kp_dtype_name((kp_dtype)dt),
                              (unsigned long long)rows, e->name);
              }
            }
  }
  kpk_close(&pk);
}
END_TEST

/* On the real sm_90a and sm_80 packs, every GEMM call resolves: f16/bf16,
** awkward m, n, k and batch, every alignment from the element up, both B
** layouts; a 16-byte aligned (n, k) call on sm_90a gets a wgmma variant
** (or, at m <= 16, the GEMV), never the element-aligned fallback. */
START_TEST(test_real_pack_gemm_covers) {
  static const char *const targets[] = {"sm_90a", "sm_80"};
  static const uint64_t ms[] = {1, 7, 16, 17, 128, 257, 4096, 1u << 20};
  static const uint64_t ns[] = {1, 13, 4096, 11008, 65537};
  static const uint64_t ks[] = {1, 33, 4096, 100000};
  for (int t = 0; t < 2; t++) {
    kpk_pack pk;
    open_built(&pk, targets[t]);
    kp_devprops d = {t == 0 ? 90 : 80, t == 0 ? 227 * 1024 : 163 * 1024, t == 0 ? 132 : 108};
    for (int dt = KP_F16; dt <= KP_BF16; dt++)
      for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
        for (size_t b = 0; b < sizeof ns / sizeof ns[0]; b++)
          for (size_t c = 0; c < sizeof ks / sizeof ks[0]; c++)
            for (uint32_t al = 2; al <= 16; al *= 2)
              for (uint32_t form = 0; form < 2; form++) {
                kp_call call = {KP_FAM_GEMM, (kp_dtype)dt, al, form, {ms[a], ns[b], ks[c], 3}};
                char why[700];
                int i = kp_select_variant(&pk, &call, &d, why, sizeof why);
                ck_assert_msg(i >= 0, "%s: %s", targets[t], why);
                const kpk_entry *e = &pk.entries[i];
                ck_assert_uint_le(e->align, al);
                ck_assert(!e->forms || (e->forms >> form & 1));
                if (t == 0 && al == 16 && form == 0)
                  ck_assert_msg(strstr(e->name, "_wg_") || strstr(e->name, "_gemv_"),
                                "sm_90a m=%llu n=%llu k=%llu: %s", (unsigned long long)ms[a],
                                (unsigned long long)ns[b], (unsigned long long)ks[c], e->name);
              }
    kpk_close(&pk);
  }
}
END_TEST

/* A tie between persistent entries goes to the tiles that fill the device:
** the least work on the busiest SM (rounds x tile area), then the fewer
** tiles; a pow2 dimension counts at its class's top, so every call of a
** selection-cache slot gets one answer; non-persistent ties keep the
** earliest entry. */
static kpk_entry mk_tile(uint32_t bm, uint32_t bn, int rank, uint32_t persist) {
  kpk_entry e;
  memset(&e, 0, sizeof e);
  e.family = "gemm";
  e.name = "synthetic";
  e.dtype = KP_BF16;
  e.align = 16;
  e.rank = rank;
  e.tile[KP_GM] = bm, e.tile[KP_GN] = bn, e.tile[3] = 1;
  e.persist = persist;
  return e;
}

START_TEST(test_fill_ties) {
  kpk_entry e[] = {mk_tile(64, 256, 960, 1), mk_tile(128, 128, 960, 1), mk_tile(128, 176, 960, 1),
                   mk_tile(128, 256, 960, 1), mk_tile(128, 64, 960, 1)};
  kpk_pack pk = fake_pack(e, 5);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_GEMM, KP_BF16, 16, 0, {256, 11008, 4096, 1}};
  double tiles;
  /* 128x176: 2 x 63 = 126 tiles, one round of 22528; 64x256: 172 tiles,
  ** two rounds of 16384 */
  ck_assert(kp_entry_fill(&e[2], &c, &d, &tiles) == 22528 && tiles == 126);
  ck_assert(kp_entry_fill(&e[0], &c, &d, &tiles) == 32768 && tiles == 172);
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
  /* m = 250 shares m = 255's slot and its answer (both counted as 256) */
  kp_call c2 = c;
  c.dim[KP_GM] = 255, c2.dim[KP_GM] = 250;
  ck_assert(same_class(&c, &c2));
  ck_assert_int_eq(kp_select_variant(&pk, &c2, &d, NULL, 0), 2);
  /* 4096^3: 128x128 and 128x256 do the same work; 128x256 has half the tiles */
  c.dim[KP_GM] = c.dim[KP_GN] = 4096;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 3);
  /* m = 256, n = 4096: 128x64 fills 128 of 132 SMs once, the work of half a 128x128 */
  c.dim[KP_GM] = 256;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 4);
  /* the device's SMs count: on 64 SMs the 128 tiles of 128x64 take two rounds, the 64
  ** of 64x256 or 128x128 one of the same work in fewer tiles (equal: the earlier) */
  kp_devprops small = {90, 227 * 1024, 64};
  ck_assert_int_eq(kp_select_variant(&pk, &c, &small, NULL, 0), 0);
  /* a rate divides: at half the rate 128x64 loses m = 256, n = 4096 to 64x256 */
  e[4].rate = 500;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  e[4].rate = 0;
  /* a higher rank still wins outright; a tie without persistence keeps the order */
  e[0].rank = 961;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  e[0].rank = 960;
  for (int i = 0; i < 5; i++) e[i].persist = 0;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  ck_assert(kp_entry_fill(&e[0], &c, &d, &tiles) == 0);
  /* an unknown SM count decides nothing */
  for (int i = 0; i < 5; i++) e[i].persist = 1;
  kp_devprops none = {90, 227 * 1024, 0};
  ck_assert_int_eq(kp_select_variant(&pk, &c, &none, NULL, 0), 0);
}
END_TEST

/* The built sm_90a pack: m = 256, n = 11008 takes a tile of 168 columns, and
** 4096^3 keeps 128x256 (the tiles of one rank decided by their fill). */
START_TEST(test_real_pack_gemm_fill) {
  kpk_pack pk;
  open_built(&pk, "sm_90a");
  kp_devprops d = {90, 227 * 1024, 132};
  static const struct { uint64_t m, n, k; const char *pick; } T[] = {
      {256, 11008, 4096, "_wg_128x168_"},  {256, 14336, 4096, "_wg_128x224_"},
      {256, 4096, 4096, "_wg_128x64_s8_e64_"}, {4096, 4096, 4096, "_wg_128x256_s3_e256_w0_"},
      {8192, 8192, 8192, "_wg_128x256_s3_e256_w0_"}, {4096, 14336, 4096, "_wg_128x256_s3_e256_w0_"},
      {640, 8192, 8192, "_wg_128x168_"}, {600, 8192, 8192, "_wg_128x168_"},
      {768, 12288, 4096, "_wg_128x192_"}, {384, 5120, 5120, "_wg_128x128_s6_e128_"},
  };
  for (int dt = KP_F16; dt <= KP_BF16; dt++) {
    /* B as (k, n): its own group, 64-column panels (m = 256, n = 4096: 128x64;
    ** m = 128 its split over 2 CTAs, since the fortieth session) */
    kp_call kn = {KP_FAM_GEMM, (kp_dtype)dt, 16, 1, {256, 4096, 4096, 1}};
    int j = kp_select_variant(&pk, &kn, &d, NULL, 0);
    ck_assert_int_ge(j, 0);
    ck_assert_msg(strstr(pk.entries[j].name, "_wg_128x64_s8_e64_kn"), "%s", pk.entries[j].name);
    kn.dim[KP_GM] = 128;
    j = kp_select_variant(&pk, &kn, &d, NULL, 0);
    ck_assert_int_ge(j, 0);
    ck_assert_msg(strstr(pk.entries[j].name, "_wg_128x64_s8_k2_kn"), "%s", pk.entries[j].name);
    kn.dim[KP_GM] = 256;
    kn.dim[KP_GM] = kn.dim[KP_GN] = 4096;
    j = kp_select_variant(&pk, &kn, &d, NULL, 0);
    ck_assert_int_ge(j, 0);
    ck_assert_msg(strstr(pk.entries[j].name, "_wg_128x256_s3_e256_kn"), "%s", pk.entries[j].name);
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
      kp_call c = {KP_FAM_GEMM, (kp_dtype)dt, 16, 0, {T[i].m, T[i].n, T[i].k, 1}};
      int k = kp_select_variant(&pk, &c, &d, NULL, 0);
      ck_assert_int_ge(k, 0);
      ck_assert_msg(strstr(pk.entries[k].name, T[i].pick), "%llux%llux%llu: %s, expected %s",
                    (unsigned long long)T[i].m, (unsigned long long)T[i].n,
                    (unsigned long long)T[i].k, pk.entries[k].name, T[i].pick);
    }
  }
  kpk_close(&pk);
}
END_TEST

/* On the real sm_90a pack: the ranking takes the min_rows RMSNorm variants
** (16-bit, rows >= 16384: 6144 < cols <= 8192, the one-CTA stage `_al`
** for aligned 2049-2560, bf16 to 3072, and the persistent warp rows `_ws`
** for odd 513-1024; add+RMSNorm's `_rs2` for odd 513-640) exactly where
** they are meant to,
** a column-chunk GLU variant only for 16-bit GeGLU rows of >= 2048 (aligned)
** or at any length (odd), or SwiGLU's of >= 8192 (odd), and every
** min_rows in the pack is 0, a power of two or one more. */
START_TEST(test_real_pack_min_rows) {
  kpk_pack pk;
  open_built(&pk, "sm_90a");
  kp_devprops d = {90, 227 * 1024, 132};
  int with_min_rows = 0, chunked = 0;
  for (uint32_t i = 0; i < pk.n_entries; i++) {
    const kpk_entry *e = &pk.entries[i];
    const uint64_t m0 = e->dmin[KP_ROWS]; /* gemm's m, attention's lq too */
    ck_assert_msg(!(m0 & (m0 - 1)) || (m0 > 2 && !((m0 - 1) & (m0 - 2))),
                  "%s: min %llu is not 0, a power of two or one more", e->name,
                  (unsigned long long)m0);
    if (kp_family_from_name(e->family) == KP_FAM_GEMM ||
        kp_family_from_name(e->family) == KP_FAM_ATTENTION)
      continue; /* dims m, n or lq, lk: not rows, cols */
    with_min_rows += e->dmin[KP_ROWS] > 1;
    chunked += e->tile[KP_COLS] != 0;
  }
  /* rmsnorm bf16 and f16, and their whole-rows twins; the `_al` stages of
  ** rmsnorm and softmax, bf16 and f16 (rmsnorm's `_ws` until the fifty-
  ** eighth session); add+RMSNorm's `_rs2` warp rows, bf16 and f16 (since
  ** the fifty-ninth) */
  ck_assert_int_eq(with_min_rows, 10);
  /* geglu and swiglu, 3 dtypes, 3 blocks x 2 unrolls, aligned and peeling;
  ** the geglu 16-bit default's erf and tanh copies */
  ck_assert_msg(chunked == 2 * 3 * 6 * 2 + 2 * 2,
                "%d column-chunk entries, not %d: KP_PACK_DIR's sm_90a pack is to hold the "
                "whole space (make packs-whole: build/packs-whole), not the ranking's picks alone",
                chunked, 2 * 3 * 6 * 2 + 2 * 2);
  static const uint64_t cols[] = {1,    7,    640,  768,  769,  1000, 2048,  2056,
                                  2560, 2568, 4096, 4097, 5120, 6145, 8192, 8193, 14336, 65537};
  static const uint64_t rows[] = {1, 5, 64, 65, 128, 129, 1000, 8192, 16383, 16384, 16385, 32768,
                                  1u << 20, 2147483647u};
  for (int dt = 0; dt < KP_DTYPE_COUNT_; dt++)
    for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
      for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        kp_call c = {KP_FAM_RMSNORM, (kp_dtype)dt, 16, 0, {rows[r], cols[k], 1, 1}};
        int i = kp_select_variant(&pk, &c, &d, NULL, 0);
        ck_assert_int_ge(i, 0);
        /* (4097..6144 columns: 256 threads x 3 vectors, ranked above it) */
        const int want = dt != KP_F32 && rows[r] >= 16384 &&
                         ((cols[k] > 6144 && cols[k] <= 8192) ||
                          (cols[k] > 2048 && cols[k] <= (dt == KP_BF16 ? 3072u : 2560u)));
        const int got = pk.entries[i].dmin[KP_ROWS] == 16384;
        ck_assert_msg(want == got, "rmsnorm %s %llu x %llu: %s", kp_dtype_name((kp_dtype)dt),
                      (unsigned long long)rows[r], (unsigned long long)cols[k], pk.entries[i].name);
        /* rows at any residue (align 2): 16-bit 513..1024 columns at any
        ** row count run the scalar-tail warp rows (`_t`; from 16384 rows the
        ** persistent `_ws` until the fifty-eighth session) */
        if (dt != KP_F32) {
          c.align = 2;
          i = kp_select_variant(&pk, &c, &d, NULL, 0);
          ck_assert_int_ge(i, 0);
          const char *nm = pk.entries[i].name, *t = strstr(nm, "_warp_v8_n4_t");
          const int want_t = cols[k] > 512 && cols[k] <= 1024;
          ck_assert_msg((t && !t[13]) == want_t,
                        "rmsnorm %s %llu x %llu, align 2: %s", kp_dtype_name((kp_dtype)dt),
                        (unsigned long long)rows[r], (unsigned long long)cols[k],
                        pk.entries[i].name);
          c.align = 16;
        }
        for (int f = KP_FAM_SWIGLU; f <= KP_FAM_GEGLU; f++) {
          c.family = (kp_family)f;
          i = kp_select_variant(&pk, &c, &d, NULL, 0);
          ck_assert_int_ge(i, 0);
          /* GeGLU's 16-bit default from one whole chunk (2048 columns) on is
          ** the 256-thread chunk variant, SwiGLU's at 1-64 rows the 128-thread
          ** one (1024 columns) and at 65-128 the 256-thread one; otherwise
          ** never a chunk variant */
          const int want_chunk = dt != KP_F32 && cols[k] >= 2048 &&
                                 (f == KP_FAM_GEGLU || rows[r] <= 128);
          const uint32_t chunk = f == KP_FAM_GEGLU || rows[r] > 64 ? 2048 : 1024;
          ck_assert_msg((pk.entries[i].tile[KP_COLS] == chunk) == want_chunk &&
                            (pk.entries[i].tile[KP_COLS] == 0) == !want_chunk,
                        "%s %s cols %llu: %s picked by the ranking", kp_family_name(c.family),
                        kp_dtype_name((kp_dtype)dt), (unsigned long long)cols[k],
                        pk.entries[i].name);
          /* rows at any residue (16-bit odd lengths, align 2): GeGLU's
          ** default is the peeling 128-thread chunk variant at every length,
          ** SwiGLU's from 8192 columns on; below that, row variants */
          if (dt != KP_F32) {
            c.align = 2;
            i = kp_select_variant(&pk, &c, &d, NULL, 0);
            ck_assert_int_ge(i, 0);
            const int want_pl = f == KP_FAM_GEGLU || cols[k] >= 8192;
            ck_assert_msg((strstr(pk.entries[i].name, "_c128_v8_u1_pl") != NULL) == want_pl &&
                              (pk.entries[i].tile[KP_COLS] == 0) == !want_pl,
                          "%s %s cols %llu, align 2: %s picked by the ranking",
                          kp_family_name(c.family), kp_dtype_name((kp_dtype)dt),
                          (unsigned long long)cols[k], pk.entries[i].name);
            c.align = 16;
          }
          c.family = KP_FAM_RMSNORM;
        }
      }
  kpk_close(&pk);
}
END_TEST


/* On the real sm_90a pack: 16-bit softmax and RMSNorm rows past 128K
** columns (softmax's from 98305) take the `_stage_` variants at any
** alignment (ranked for aligned rows too: the list entries' `any`), shorter
** aligned rows do not but softmax's of 12289-32768 (one CTA, forty-ninth and
** fiftieth sessions), and odd rows of the lengths the stage ranking
** covers do -- but RMSNorm's odd 155649-204793, persistent clusters
** (`_pers_`, fifty-fourth session); f32 keeps its register variants (its stage
** variants are for the tuner). */
START_TEST(test_real_pack_stage_ranking) {
  kpk_pack pk;
  open_built(&pk, "sm_90a");
  const kp_devprops d = {90, 227 * 1024, 132};
  /* stage[f]: whether family F[f] takes a stage variant (16-bit; 2: `_pers_`) */
  static const struct { uint64_t cols; uint32_t align; int stage[2]; } K[] = {
      {151936, 16, {1, 1}}, {200000, 16, {1, 1}}, {151937, 2, {1, 1}}, {199999, 2, {1, 2}},
      {128256, 16, {1, 0}}, {98304, 16, {0, 0}},  {32000, 16, {1, 0}},  {4096, 16, {0, 0}},
      {32769, 16, {0, 0}},
      {50257, 2, {1, 1}}, /* (softmax since the twenty-seventh session: NOTES 61) */
  };
  static const kp_family F[] = {KP_FAM_SOFTMAX, KP_FAM_RMSNORM};
  for (int dt = 0; dt < KP_DTYPE_COUNT_; dt++)
    for (size_t f = 0; f < 2; f++)
      for (size_t k = 0; k < sizeof K / sizeof K[0]; k++) {
        const uint32_t es = (uint32_t)kp_dtype_size((kp_dtype)dt);
        const uint32_t al = K[k].align < es ? es : K[k].align;
        const kp_call c = {F[f], (kp_dtype)dt, al, 0, {512, K[k].cols, 1, 1}};
        const int i = kp_select_variant(&pk, &c, &d, NULL, 0);
        ck_assert_int_ge(i, 0);
        const int want = es == 2 ? K[k].stage[f] : 0;
        ck_assert_msg((strstr(pk.entries[i].name, "_stage_") != NULL) == (want == 1) &&
                          (strstr(pk.entries[i].name, "_pers_") != NULL) == (want == 2),
                      "%s %s 512 x %llu at align %u: %s", kp_family_name(F[f]),
                      kp_dtype_name((kp_dtype)dt), (unsigned long long)K[k].cols, al,
                      pk.entries[i].name);
      }
  kpk_close(&pk);
}
END_TEST

/* The selection for 2048 rows of `cols` of family f at alignment `align` on
** the real pack `pk` is the entry whose name holds `pick` at its end (or,
** with p_twin, followed by "_p" alone): not a longer name that starts with
** it (s50_c2 vs s50_c2_pairs). */
static void expect_rows_pick(const kpk_pack *pk, const kp_devprops *d, kp_family f, kp_dtype dt,
                             uint64_t rows, uint64_t cols, uint32_t align, const char *pick,
                             int p_twin) {
  const kp_call c = {f, dt, align, 0, {rows, cols, 1, 1}};
  const int i = kp_select_variant(pk, &c, d, NULL, 0);
  ck_assert_int_ge(i, 0);
  const char *name = pk->entries[i].name, *at = strstr(name, pick);
  const char *rest = at ? at + strlen(pick) : NULL;
  ck_assert_msg(rest && (*rest == '\0' || (p_twin && !strcmp(rest, "_p"))),
                "%s %s %llu x %llu at align %u: %s, expected %s", kp_family_name(f),
                kp_dtype_name(dt), (unsigned long long)rows, (unsigned long long)cols, align,
                name, pick);
}
static void expect_row_pick(const kpk_pack *pk, const kp_devprops *d, kp_family f, kp_dtype dt,
                            uint64_t cols, uint32_t align, const char *pick, int p_twin) {
  expect_rows_pick(pk, d, f, dt, 2048, cols, align, pick, p_twin);
}

/* On the real sm_90a pack, the twenty-fifth session's rankings (bench/NOTES.md
** 59): RMSNorm+SwiGLU's odd 16-bit rows take a warp a row with the row held
** in shared memory for 513-3072 (thirty-second session, NOTES 66: images
** of 1K to 1024, of 1280 with 16-bit weights to 1280, of 1536 to 1536, and
** of 2K, 2560 and 3K with 16-bit weights to 3072; the warp rows' 513-1920
** and the 128-thread pairs loop's 1921-3072 elsewhere), the images filled
** by a bulk copy (`_blk`) for 513-896 and 1281-6144, of 4 warps a row for
** 6145-8192 and 8 for 8193-16384 (thirty-third session, NOTES 67; elsewhere
** the 128-thread pairs loop's U 8 for 3073-4608, of 256 threads of U 8 for
** 4609-6144: thirty-first session, NOTES 65, and the one-CTA stage variant
** for 6145-8192, the 4-byte-grid loop of 512 threads for 8193-16384:
** thirtieth session),
** the peeling loop past it, `_pairs` over 2 CTAs for 22529-40960 and the 16-byte grid's
** stage variant from 40961 (its `_pairs` twins again past 98304: twenty-ninth
** session, NOTES 63); aligned rows never take a `_pairs` stage
** variant, and from 40961 to 65536 take the stage variant over 4 CTAs
** (twenty-seventh session, NOTES 61); softmax's odd rows of 40961-65536 the
** stage variant over 2 CTAs, and of 8193-12288 256 x 2 in one CTA (twenty-
** eighth session, NOTES 62; RMSNorm's of 4097-8192 128 x 2); add+RMSNorm's of
** 98305-131072 256 x 2 over 16 CTAs (twenty-ninth session, NOTES 63).  The skinny-m GEMM takes the 5-stage TMA GEMV
** from n = 8192 and the 64-column one with K over 2 CTAs at n = 4096-8191,
** k >= 8192. */
START_TEST(test_real_pack_pairs_gemv_ranking) {
  kpk_pack pk;
  open_built(&pk, "sm_90a");
  const kp_devprops d = {90, 227 * 1024, 132};
  static const struct { uint64_t cols; uint32_t align; const char *pick; } R[] = {
      /* a warp a row (image warps) for 513-6144, the bulk-copy image (`_blk`) but at
      ** 897-1280, then 4 warps a row to 8192, 8 to 16384 (thirty-third session) */
      {513, 2, "_warps_r16_p2_u4_1k_img_blk"},     {896, 2, "_warps_r16_p2_u4_1k_img_blk"},
      {897, 2, "_warps_r16_p2_u4_1k_img"},         {1001, 2, "_warps_r16_p2_u4_1k_img"},
      {1024, 2, "_warps_r16_p2_u4_1k_img"},        {1025, 2, "_warps_r8_p4_u4_1280_img_w16"},
      {1280, 2, "_warps_r8_p4_u4_1280_img_w16"},   {1281, 2, "_warps_r8_p3_u4_1536_img_blk"},
      {1536, 2, "_warps_r8_p3_u4_1536_img_blk"},   {1537, 2, "_warps_r16_p1_u4_2k_img_w16_blk"},
      {2048, 2, "_warps_r16_p1_u4_2k_img_w16_blk"}, {2049, 2, "_warps_r8_p2_u4_2560_img_w16_blk"},
      {2560, 2, "_warps_r8_p2_u4_2560_img_w16_blk"}, {2561, 2, "_warps_r12_p1_u4_3k_img_w16_blk"},
      {3072, 2, "_warps_r12_p1_u4_3k_img_w16_blk"}, {3073, 2, "_warps_r12_p1_u4_4k_img_w16_blk"},
      {4096, 2, "_warps_r12_p1_u4_4k_img_w16_blk"}, {4097, 2, "_warps_r10_p1_u4_5k_img_w16_blk"},
      {5120, 2, "_warps_r10_p1_u4_5k_img_w16_blk"}, {5121, 2, "_warps_r8_p1_u4_6k_img_w16_blk"},
      {6144, 2, "_warps_r8_p1_u4_6k_img_w16_blk"}, {6145, 2, "_warps_r6_p1_u4_8k_img_w16_blk_k4"},
      {8192, 2, "_warps_r6_p1_u4_8k_img_w16_blk_k4"}, {8193, 2, "_warps_r3_p1_u4_12k_img_w16_blk_k8"},
      {11007, 2, "_warps_r3_p1_u4_12k_img_w16_blk_k8"}, {12289, 2, "_warps_r2_p1_u4_16k_img_w16_blk_k8"},
      {16384, 2, "_warps_r2_p1_u4_16k_img_w16_blk_k8"},
      {1000, 16, "_block_t128_v8_n1"},
      /* 16385-22528 over 2 CTAs of 256 threads (fiftieth session) */
      {16385, 2, "_stage_t256_v8_u2_s17_c2_pairs"}, {17408, 2, "_stage_t256_v8_u2_s17_c2_pairs"},
      {17409, 2, "_stage_t256_v8_u2_s20_c2_pairs"}, {20480, 2, "_stage_t256_v8_u2_s20_c2_pairs"},
      {20481, 2, "_stage_t256_v8_u2_s22_c2_pairs"}, {22528, 2, "_stage_t256_v8_u2_s22_c2_pairs"},
      {22529, 2, "_stage_t512_v8_u2_s24_c2_pairs"},
      {24001, 2, "_stage_t512_v8_u2_s24_c2_pairs"}, {32001, 2, "_stage_t512_v8_u2_s32_c2_pairs"},
      {36001, 2, "_stage_t512_v8_u2_s36_c2_pairs"}, {40001, 2, "_stage_t512_v8_u2_s50_c2_pairs"},
      {50257, 2, "_stage_t256_v8_u2_s25_c4_pairs"}, /* (thirty-fourth session) */
      {51201, 2, "_stage_t512_v8_u2_s32_c4"},    {32000, 16, "_loop_t512_v8"},
      /* whole rows of 40961-51200 and 131073-204800: persistent clusters of 4
      ** and 16 with w's slices staged once (fifty-second session), their
      ** write loop a vector a step where a thread takes 4 (fifty-third) */
      {40968, 16, "_pers_t512_b3_s25_c4"},       {49152, 16, "_pers_t512_b3_s25_c4"},
      {49160, 16, "_pers_t512_b3_s25_c4_u1"},    {51200, 16, "_pers_t512_b3_s25_c4_u1"},
      {51208, 16, "_stage_t512_v8_u2_s32_c4"},   {65536, 16, "_stage_t512_v8_u2_s32_c4"},
      {131080, 16, "_pers_t512_b3_s25_c16"},     {196608, 16, "_pers_t512_b3_s25_c16"},
      {196616, 16, "_pers_t512_b3_s25_c16_u1"},  {200000, 16, "_pers_t512_b3_s25_c16_u1"},
      {204808, 16, "_loop_t256_v8_u4_c16"},
      {66000, 16, "_loop_t256_v8_u4_c8"},
      /* whole rows of 8193-16384 in registers: 512 x 3, 512 x 4 (fiftieth
      ** session); odd ones keep the image warps (above) */
      {8192, 16, "_block_t256_v8_n4"},           {8200, 16, "_block_t512_v8_n3"},
      {11008, 16, "_block_t512_v8_n3"},          {12296, 16, "_block_t512_v8_n4"},
      {16384, 16, "_block_t512_v8_n4"},          {18944, 16, "_loop_t512_v8"},
      /* past 98304 the pairs (twenty-ninth session) */
      {98305, 2, "_stage_t512_v8_u2_s36_c8_pairs"}, {128257, 2, "_stage_t512_v8_u2_s36_c8_pairs"},
      {131073, 2, "_stage_t256_v8_u2_s20_c16_pairs"}, {151937, 2, "_stage_t256_v8_u2_s20_c16_pairs"},
      /* (with w's words a half step ahead: forty-seventh session) */
      {163841, 2, "_stage_t512_v8_u2_s50_c8_pairs_wp"}, {199999, 2, "_stage_t512_v8_u2_s50_c8_pairs_wp"},
      {204801, 2, "_loop_t256_v8_u4_c16"},
  };
  for (int dt = KP_F16; dt <= KP_BF16; dt++) {
    for (size_t k = 0; k < sizeof R / sizeof R[0]; k++)
      expect_row_pick(&pk, &d, KP_FAM_RMSNORM_SWIGLU, (kp_dtype)dt, R[k].cols, R[k].align,
                      R[k].pick, 1);
    static const struct { uint64_t cols; uint32_t align; const char *pick; } S[] = {
        {40001, 2, "_block_t128_v8_n8_c8"}, {65535, 2, "_stage_t512_v8_u2_s64_c2"},
        {70001, 2, "_stage_t512_v8_u2_s64_c4"},
        {11007, 2, "_stage_t256_v8_u2_s24"},   {12288 - 1, 2, "_stage_t256_v8_u2_s24"},
        {8192 - 1, 2, "_stage_t128_v8_u2_s16"},
        /* fewer threads a CTA, slices sized to the row (thirty-fourth session) */
        {40961, 2, "_stage_t128_v8_u4_s25_c4"}, {50257, 2, "_stage_t128_v8_u4_s25_c4"},
        {51201, 2, "_stage_t512_v8_u2_s64_c2"},
        {131073, 2, "_stage_t256_v8_u2_s38_c8"}, {151937, 2, "_stage_t256_v8_u2_s38_c8"},
        {155649, 2, "_stage_t256_v8_u2_s50_c8"}, {199999, 2, "_stage_t256_v8_u2_s50_c8"},
        {151936, 16, "_stage_t512_v8_u2_s100_c4"},
        /* 12289-24576 at any alignment: 512 x 2 in one CTA of 48 KiB (forty-
        ** ninth session) */
        {12289, 2, "_stage_t512_v8_u2_s48"},  {18943, 2, "_stage_t512_v8_u2_s48"},
        {18944, 16, "_stage_t512_v8_u2_s48"}, {24576, 16, "_stage_t512_v8_u2_s48"},
        {12288, 16, "_block_t512_v8_n3_w"},
        /* 24577-32768 at any alignment: 512 x 2 in 64 KiB (fiftieth session) */
        {24577, 2, "_stage_t512_v8_u2_s64"},  {28672, 16, "_stage_t512_v8_u2_s64"},
        {32768, 16, "_stage_t512_v8_u2_s64"}, {32769, 16, "_block_t128_v8_n8_c8"},
        /* odd 1025-1536: a warp a row of 6 vectors a lane, 2049-4096 one-CTA
        ** stages of 64 threads (fifty-first session); 1537-2048 and aligned
        ** rows keep the blocks */
        {1001, 2, "_warp_v8_n4"},             {1025, 2, "_warp_v8_n6"},
        {1536, 2, "_warp_v8_n6"},             {1537, 2, "_block_t128_v8_n2"},
        {2048, 2, "_block_t128_v8_n2"},       {2049, 2, "_stage_t64_v8_u2_s6"},
        {3072, 2, "_stage_t64_v8_u2_s6"},     {3073, 2, "_stage_t64_v8_u4_s9"},
        {4096, 2, "_stage_t64_v8_u4_s9"},     {4097, 2, "_stage_t128_v8_u2_s16"},
        {1536, 16, "_block_t128_v8_n2_w"},    {3072, 16, "_block_t256_v8_n2_w"},
    };
    for (size_t k = 0; k < sizeof S / sizeof S[0]; k++)
      expect_row_pick(&pk, &d, KP_FAM_SOFTMAX, (kp_dtype)dt, S[k].cols, S[k].align, S[k].pick, 0);
    static const struct { kp_family f; uint64_t cols; uint32_t align; const char *pick; } N[] = {
        /* odd 1025-4096 (fifty-first session): a warp a row of 6 / 8
        ** vectors a lane to 1536 / 2048 (add+RMSNorm: 6 to 1536), one-CTA
        ** stages of 128 x 2 in 6 KiB to 3072, in 8 to 4096; aligned rows
        ** keep the blocks; 4 and 6 vectors a lane by the scalar-tail form,
        ** `_t`, since the fifty-eighth session (add+RMSNorm's 6) */
        {KP_FAM_RMSNORM, 1001, 2, "_warp_v8_n4_t"},
        {KP_FAM_RMSNORM, 1025, 2, "_warp_v8_n6_t"},
        {KP_FAM_RMSNORM, 1536, 2, "_warp_v8_n6_t"},
        {KP_FAM_RMSNORM, 1537, 2, "_warp_v8_n8"},
        {KP_FAM_RMSNORM, 2048, 2, "_warp_v8_n8"},
        {KP_FAM_RMSNORM, 2049, 2, "_stage_t128_v8_u2_s6"},
        {KP_FAM_RMSNORM, 3072, 2, "_stage_t128_v8_u2_s6"},
        {KP_FAM_RMSNORM, 3073, 2, "_stage_t128_v8_u2_s8"},
        {KP_FAM_RMSNORM, 4096, 2, "_stage_t128_v8_u2_s8"},
        {KP_FAM_RMSNORM, 2048, 16, "_block_t128_v8_n2_w"},
        {KP_FAM_ADD_RMSNORM, 1001, 2, "_warp_v8_n4"},
        {KP_FAM_ADD_RMSNORM, 1025, 2, "_warp_v8_n6_t"},
        {KP_FAM_ADD_RMSNORM, 1536, 2, "_warp_v8_n6_t"},
        {KP_FAM_ADD_RMSNORM, 1537, 2, "_stage_t128_v8_u2_s6"},
        {KP_FAM_ADD_RMSNORM, 3072, 2, "_stage_t128_v8_u2_s6"},
        {KP_FAM_ADD_RMSNORM, 3073, 2, "_stage_t128_v8_u2_s8"},
        {KP_FAM_ADD_RMSNORM, 4096, 2, "_stage_t128_v8_u2_s8"},
        {KP_FAM_ADD_RMSNORM, 4096, 16, "_block_t256_v8_n2_w"},
        /* RMSNorm's odd rows of 4097-8192: 128 x 2 (twenty-eighth session),
        ** 4097-4608 in 9 KiB (thirty-fourth); 4097-4103 the 128 x 4 block
        ** by the scalar-tail form (fifty-eighth) */
        {KP_FAM_RMSNORM, 4097, 2, "_block_t128_v8_n4_t"},
        {KP_FAM_RMSNORM, 4103, 2, "_block_t128_v8_n4_t"},
        {KP_FAM_RMSNORM, 4104, 2, "_stage_t128_v8_u2_s9"},
        {KP_FAM_RMSNORM, 4608, 2, "_stage_t128_v8_u2_s9"},
        {KP_FAM_RMSNORM, 4609, 2, "_stage_t128_v8_u2_s16"},
        {KP_FAM_RMSNORM, 8191, 2, "_stage_t128_v8_u2_s16"},
        /* the write pass with w's residue a constant, `_wc`, from 8193 on
        ** (thirty-fifth session); 9001-12288 the 256 x 6 block by the
        ** scalar-tail form (sixtieth) */
        {KP_FAM_RMSNORM, 8193, 2, "_stage_t256_v8_u2_s24_wc"},
        {KP_FAM_RMSNORM, 9000, 2, "_stage_t256_v8_u2_s24_wc"},
        {KP_FAM_RMSNORM, 9001, 2, "_block_t256_v8_n6_t"},
        {KP_FAM_RMSNORM, 11007, 2, "_block_t256_v8_n6_t"},
        {KP_FAM_RMSNORM, 12288, 2, "_block_t256_v8_n6_t"},
        {KP_FAM_RMSNORM, 11008, 16, "_loop_t512_v8_cols12k_w"}, /* (aligned: unchanged) */
        {KP_FAM_RMSNORM, 12289, 2, "_stage_t512_v8_u2_s64_wc"},
        {KP_FAM_RMSNORM, 24577, 2, "_stage_t256_v8_u2_s32_c2_wc"},
        {KP_FAM_RMSNORM, 32769, 2, "_stage_t256_v8_u2_s25_c4_wc"},
        {KP_FAM_RMSNORM, 50257, 2, "_stage_t256_v8_u2_s25_c4_wc"},
        {KP_FAM_RMSNORM, 51201, 2, "_stage_t512_v8_u2_s64_c2_wc"},
        {KP_FAM_RMSNORM, 65537, 2, "_stage_t256_v8_u2_s32_c8_wc"},
        {KP_FAM_RMSNORM, 131073, 2, "_stage_t256_v8_u2_s38_c8_wc"},
        {KP_FAM_RMSNORM, 155648, 2, "_stage_t256_v8_u2_s38_c8_wc"},
        /* 155649-204793 off the grid: persistent clusters of 8, w staged
        ** once (fifty-fourth session) */
        {KP_FAM_RMSNORM, 155649, 2, "_pers_t512_b3_w3200_c8"},
        {KP_FAM_RMSNORM, 204793, 2, "_pers_t512_b3_w3200_c8"},
        {KP_FAM_RMSNORM, 204794, 2, "_stage_t256_v8_u2_s26_c16_wc"},
        {KP_FAM_RMSNORM, 212992, 2, "_stage_t256_v8_u2_s26_c16_wc"},
        {KP_FAM_RMSNORM, 212993, 2, "_loop_t512_v8_u4_c4"},
        {KP_FAM_RMSNORM, 151936, 16, "_stage_t512_v8_u2_s50_c8"}, /* (aligned: plain) */
        {KP_FAM_RMSNORM, 200000, 16, "_stage_t512_v8_u2_s50_c8"},
        {KP_FAM_RMSNORM, 32768, 16, "_block_t1024_v8_n4_w"}, /* (aligned: unchanged) */
        {KP_FAM_ADD_RMSNORM, 4097, 2, "_stage_t128_v8_u2_s9"},
        {KP_FAM_ADD_RMSNORM, 4609, 2, "_stage_t256_v8_u1_s16"},
        {KP_FAM_ADD_RMSNORM, 11007, 2, "_stage_t128_v8_u2_s22_wc"},
        {KP_FAM_ADD_RMSNORM, 11265, 2, "_stage_t512_v8_u1_s24"},
        {KP_FAM_ADD_RMSNORM, 50257, 2, "_stage_t256_v8_u2_s25_c4_wc"},
        {KP_FAM_ADD_RMSNORM, 51201, 2, "_stage_t512_v8_u2_s32_c4"},
        {KP_FAM_ADD_RMSNORM, 65537, 2, "_stage_t512_v8_u2_s50_c4_wc"},
        /* add+RMSNorm's odd rows of 98305-131072: 256 x 2 over 16 CTAs (twenty-ninth session) */
        {KP_FAM_ADD_RMSNORM, 98305, 2, "_stage_t256_v8_u2_s16_c16"},
        {KP_FAM_ADD_RMSNORM, 128257, 2, "_stage_t256_v8_u2_s16_c16"},
        {KP_FAM_ADD_RMSNORM, 131073, 2, "_stage_t512_v8_u2_s50_c8_wc"},
        {KP_FAM_ADD_RMSNORM, 128256, 16, "_loop_t512_v8_u4_c4"},
        /* whole rows of 8193-12288: RMSNorm's loop copy, add+RMSNorm's 512 x 4;
        ** 16385-24576: add+RMSNorm's loop (forty-ninth session) */
        {KP_FAM_RMSNORM, 8192 + 8, 16, "_loop_t512_v8_cols12k_w"},
        {KP_FAM_RMSNORM, 12288, 16, "_loop_t512_v8_cols12k_w"},
        {KP_FAM_RMSNORM, 8192, 16, "_block_t512_v8_n2_w"},
        {KP_FAM_ADD_RMSNORM, 11008, 16, "_block_t512_v8_n4_w"},
        /* odd 16385-24576 over 2 CTAs (fiftieth session) */
        {KP_FAM_ADD_RMSNORM, 16385, 2, "_stage_t256_v8_u2_s20_c2"},
        {KP_FAM_ADD_RMSNORM, 18943, 2, "_stage_t256_v8_u2_s20_c2"},
        {KP_FAM_ADD_RMSNORM, 20481, 2, "_stage_t512_v8_u2_s24_c2"},
        {KP_FAM_ADD_RMSNORM, 24575, 2, "_stage_t512_v8_u2_s24_c2"},
        {KP_FAM_ADD_RMSNORM, 18944, 16, "_loop_t512_v8_w"},
        {KP_FAM_ADD_RMSNORM, 24577 + 7, 16, "_block_t1024_v8_n4_w"},
    };
    for (size_t k = 0; k < sizeof N / sizeof N[0]; k++)
      expect_row_pick(&pk, &d, N[k].f, (kp_dtype)dt, N[k].cols, N[k].align, N[k].pick, 0);
    /* aligned rows of 2049-2560 at 16384 rows or more: one-CTA stages of 64
    ** threads (`_al`, fifty-second session; RMSNorm's to 3072 since the
    ** fifty-third, bf16's alone: f16's block was faster there); fewer
    ** rows, and past them, keep the block; odd rows their own stages */
    static const struct { kp_family f; uint64_t rows, cols; uint32_t align; const char *pick; } A[] = {
        {KP_FAM_RMSNORM, 16384, 2056, 16, "_stage_t64_v8_u4_s9_al"},
        {KP_FAM_RMSNORM, 65536, 2560, 16, "_stage_t64_v8_u4_s9_al"},
        {KP_FAM_RMSNORM, 16383, 2304, 16, "_block_t256_v8_n2_w"},
        {KP_FAM_RMSNORM, 65536, 3080, 16, "_block_t256_v8_n2_w"},
        {KP_FAM_RMSNORM, 16383, 3072, 16, "_block_t256_v8_n2_w"},
        {KP_FAM_RMSNORM, 65536, 2501, 2, "_stage_t128_v8_u2_s6"},
        {KP_FAM_SOFTMAX, 16384, 2056, 16, "_stage_t64_v8_u2_s6_al"},
        {KP_FAM_SOFTMAX, 65536, 2560, 16, "_stage_t64_v8_u2_s6_al"},
        {KP_FAM_SOFTMAX, 8192, 2304, 16, "_block_t256_v8_n2_w"},
        {KP_FAM_SOFTMAX, 65536, 2568, 16, "_block_t256_v8_n2_w"},
        {KP_FAM_SOFTMAX, 65536, 2501, 2, "_stage_t64_v8_u2_s6"},
        {KP_FAM_ADD_RMSNORM, 65536, 2304, 16, "_block_t256_v8_n2_w"},
        /* add+RMSNorm's odd 16-bit rows of 513-640 from 32768 rows: a warp's
        ** 2 rows 8 apart, w kept in shared memory (`_rs2`, fifty-ninth
        ** session); fewer rows, longer ones and aligned ones keep theirs */
        {KP_FAM_ADD_RMSNORM, 32768, 513, 2, "_warp_v8_n4_t_rs2"},
        {KP_FAM_ADD_RMSNORM, 131072, 640, 2, "_warp_v8_n4_t_rs2"},
        {KP_FAM_ADD_RMSNORM, 32767, 601, 2, "_warp_v8_n4"},
        {KP_FAM_ADD_RMSNORM, 131072, 641, 2, "_warp_v8_n4"},
        {KP_FAM_ADD_RMSNORM, 131072, 640, 16, "_warp_v8_n4_w"},
    };
    for (size_t k = 0; k < sizeof A / sizeof A[0]; k++)
      expect_rows_pick(&pk, &d, A[k].f, (kp_dtype)dt, A[k].rows, A[k].cols, A[k].align,
                       A[k].pick, 0);
    /* RMSNorm's `_al` past 2560 is bf16's alone */
    static const uint64_t AL[][2] = {{65536, 2568}, {16384, 3072}};
    for (size_t k = 0; k < sizeof AL / sizeof AL[0]; k++)
      expect_rows_pick(&pk, &d, KP_FAM_RMSNORM, (kp_dtype)dt, AL[k][0], AL[k][1], 16,
                       dt == KP_BF16 ? "_stage_t64_v8_u4_s9_al" : "_block_t256_v8_n2_w", 0);
    static const struct { uint64_t m, n, k; const char *pick; } G[] = {
        /* 64 columns a block to n = 32767, 128 past it (thirty-ninth session) */
        {1, 11008, 4096, "_gemv_m16_n48_s5_tma_nk"},  /* 8449..12672: 48 columns */
        {16, 12672, 4096, "_gemv_m16_n48_s5_tma_nk"},
        {16, 12673, 4096, "_gemv_m16_n64_s5_tma_nk"},
        {1, 8448, 4096, "_gemv_m16_n64_s5_tma_nk"},
        {16, 14336, 4096, "_gemv_m16_n64_s5_tma_nk"},
        {16, 8192, 8192, "_gemv_m16_n64_s5_tma_nk"},
        {1, 32768, 4096, "_gemv_m16_n128_s5_tma_nk"},
        {16, 128256, 4096, "_gemv_m16_n128_s5_tma_nk"},
        {1, 4096, 11008, "_gemv_m16_n64_s10_k2_tma_nk"},
        {16, 4096, 11008, "_gemv_m16_n64_s10_k2_tma_nk"},
        {16, 4096, 4096, "_gemv_m16_n32_w8_s4_nk"}, /* k < 8192: no split */
        {1, 2048, 11008, "_gemv_m8_n16_w8_u4_nk"},  /* n < 4096: 32 tiles, not ranked */
        /* m = 17..128 (twenty-sixth session): 64-row tiles to m = 64, the
        ** columns that fill 132 SMs at m = 128 */
        {64, 4096, 4096, "_wg_64x64_s13_k2_nk"},
        {64, 4096, 11008, "_wg_64x64_s13_k2_nk"},
        {64, 4096, 1024, "_wg_64x64_s12_kp_nk"}, /* k < 2048: no split */
        /* its consumers on alternate k-tiles (forty-third session) */
        {128, 4096, 4096, "_wg_64x64_s12_kp_nk"},
        {64, 5120, 4096, "_wg_64x96_s11_nk"},
        {64, 8192, 4096, "_wg_64x64_s13_a2_nk"},
        /* past one round of 64x64 tiles: the widths of cuBLAS's kernels,
        ** one round each, 64x256 where they would take two (fortieth
        ** session) */
        {32, 11008, 4096, "_wg_64x96_s11_nk"},
        {64, 14336, 4096, "_wg_64x112_s10_nk"},
        {64, 32768, 4096, "_wg_64x256_s5_nk"},
        {128, 11008, 4096, "_wg_128x88_s6_e88_nk"},
        {128, 14336, 4096, "_wg_128x112_s6_e112_nk"},
        {128, 8192, 4096, "_wg_128x64_s8_e64_nk"},
        /* the fill group's picks at m = 256-2048 have twins too (fortieth
        ** session); 128x256 (several tiles a CTA) has none */
        {256, 11008, 4096, "_wg_128x168_s4_e168_nk"},
        {512, 4096, 4096, "_wg_128x128_s6_e128_nk"},
        {256, 14336, 4096, "_wg_128x224_s4_e112_nk"},
    };
    /* a call with epilogue terms takes the pick; a plain one its plain-only
    ** `_pl` twin where the tile has one (the `_wg_` tiles here, thirty-ninth
    ** session), never a twin with terms */
    for (size_t k = 0; k < sizeof G / sizeof G[0]; k++)
      for (uint32_t form = 0; form <= KP_GEMM_TERMS; form += KP_GEMM_TERMS) {
        const kp_call c = {KP_FAM_GEMM, (kp_dtype)dt, 16, form, {G[k].m, G[k].n, G[k].k, 1}};
        const int i = kp_select_variant(&pk, &c, &d, NULL, 0);
        ck_assert_int_ge(i, 0);
        char want[64];
        const size_t len = strlen(G[k].pick) - 3; /* before "_nk" */
        snprintf(want, sizeof want, "%.*s%s_nk", (int)len, G[k].pick,
                 !form && strstr(G[k].pick, "_wg_") ? "_pl" : "");
        ck_assert_msg(strstr(pk.entries[i].name, want) && (!form || !strstr(pk.entries[i].name, "_pl_")),
                      "gemm %s %llux%llux%llu %s: %s, expected %s",
                      kp_dtype_name((kp_dtype)dt), (unsigned long long)G[k].m,
                      (unsigned long long)G[k].n, (unsigned long long)G[k].k,
                      form ? "with terms" : "plain", pk.entries[i].name, want);
      }
  }
  kpk_close(&pk);
}
END_TEST

/* kp_tmap_encode's per-thread cache, with a stand-in for the driver's
** encoder that counts its calls and writes a digest of its inputs: a
** repeat of the same inputs is served from the cache with the same bytes;
** changing any one input encodes again; a failed encode is not cached. */
static int fake_encodes, fake_fail;
static CUresult fake_encode(CUtensorMap *map, CUtensorMapDataType dt, cuuint32_t rank, void *p,
                            const cuuint64_t *dims, const cuuint64_t *strides,
                            const cuuint32_t *box, const cuuint32_t *elem,
                            CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                            CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  fake_encodes++;
  if (fake_fail) return CUDA_ERROR_INVALID_VALUE;
  uint64_t h = (uint64_t)dt * 31 + rank + (uint64_t)(uintptr_t)p * 7 + (uint64_t)il +
               (uint64_t)sw * 3 + (uint64_t)l2 * 5 + (uint64_t)oob * 11;
  for (cuuint32_t i = 0; i < rank; i++) {
    h = h * 1000003 + dims[i] * 13 + box[i] * 17 + elem[i];
    if (i + 1 < rank) h = h * 1000003 + strides[i];
  }
  memset(map, 0, sizeof *map);
  memcpy(map, &h, sizeof h);
  return CUDA_SUCCESS;
}

START_TEST(test_tmap_cache) {
  static kp_driver drv; /* only the encoder: errors print its name as unknown */
  static kp_ctx ctx;
  drv.cuTensorMapEncodeTiled = fake_encode;
  ctx.drv = &drv;
  fake_encodes = fake_fail = 0;
  cuuint64_t dims[4] = {128, 1000, 16, 3}, strides[3] = {4096, 4096000, 65536000};
  cuuint32_t box[4] = {64, 128, 1, 1};
  static char buf[64];
  const void *p = buf + 16;
  CUtensorMap a, b;
  ck_assert_int_eq(kp_tmap_encode(&ctx, &a, KP_BF16, 4, p, dims, strides, box, KP_TMAP_SW128,
                                  "t", __FILE__, __LINE__), KP_OK);
  ck_assert_int_eq(fake_encodes, 1);
  ck_assert_int_eq(kp_tmap_encode(&ctx, &b, KP_BF16, 4, p, dims, strides, box, KP_TMAP_SW128,
                                  "t", __FILE__, __LINE__), KP_OK);
  ck_assert_msg(fake_encodes == 1 && !memcmp(&a, &b, sizeof a), "a repeat is a hit, same bytes");
  /* each input changed alone: a miss, and the map the encoder makes for it */
  for (int v = 0; v < 7; v++) {
    cuuint64_t d2[4], s2[3];
    cuuint32_t b2[4];
    memcpy(d2, dims, sizeof d2), memcpy(s2, strides, sizeof s2), memcpy(b2, box, sizeof b2);
    const void *p2 = p;
    kp_dtype dt = KP_BF16;
    int rank = 4, sw = KP_TMAP_SW128;
    if (v == 0) p2 = buf + 32;
    if (v == 1) d2[1] = 999;
    if (v == 2) s2[2] += 16;
    if (v == 3) b2[1] = 64;
    if (v == 4) dt = KP_F16;
    if (v == 5) rank = 3;
    if (v == 6) sw = KP_TMAP_PLAIN; /* a store's map beside a load's */
    const int before = fake_encodes;
    CUtensorMap c, want;
    ck_assert_int_eq(
        kp_tmap_encode(&ctx, &c, dt, rank, p2, d2, s2, b2, sw, "t", __FILE__, __LINE__), KP_OK);
    ck_assert_msg(fake_encodes == before + 1, "change %d: encoded again", v);
    fake_encode(&want, dt == KP_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                      : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                (cuuint32_t)rank, (void *)p2, d2, s2, b2, (const cuuint32_t[]){1, 1, 1, 1},
                CU_TENSOR_MAP_INTERLEAVE_NONE,
                sw == KP_TMAP_SW128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    ck_assert_msg(!memcmp(&c, &want, sizeof c) && memcmp(&c, &a, sizeof c), "change %d: its map",
                  v);
  }
  /* a failure: reported with file and line, and not remembered */
  cuuint64_t d3[4] = {128, 7, 1, 1};
  fake_fail = 1;
  const int before = fake_encodes;
  ck_assert_int_eq(
      kp_tmap_encode(&ctx, &a, KP_BF16, 4, p, d3, strides, box, KP_TMAP_SW128, "what", "f.c", 12),
      KP_ERR_CUDA);
  ck_assert_msg(strstr(kp_ctx_errmsg(&ctx), "what") && strstr(kp_ctx_errmsg(&ctx), "f.c:12"),
                "%s", kp_ctx_errmsg(&ctx));
  fake_fail = 0;
  ck_assert_int_eq(kp_tmap_encode(&ctx, &a, KP_BF16, 4, p, d3, strides, box, KP_TMAP_SW128,
                                  "t", __FILE__, __LINE__), KP_OK);
  ck_assert_int_eq(fake_encodes, before + 2);
  /* an attention call's four maps (Q, K, V, O: other pointers and boxes),
  ** call after call: each encoded once, whatever sets they hash to (with
  ** one map a slot, two of them could share one and encode on every call) */
  const int before4 = fake_encodes;
  for (int call = 0; call < 10; call++)
    for (int m = 0; m < 4; m++) {
      cuuint32_t b4[4] = {64, m == 3 ? 64u : 128u, 1, 1};
      ck_assert_int_eq(kp_tmap_encode(&ctx, &a, KP_BF16, 4, buf + 16 * (m % 3), dims, strides,
                                      b4, KP_TMAP_SW128, "t", __FILE__, __LINE__), KP_OK);
    }
  ck_assert_msg(fake_encodes - before4 <= 4, "4 maps over 10 calls: %d encodes",
                fake_encodes - before4);
  uint64_t enc, hits;
  kp_tmap_cache_stats(&enc, &hits);
  ck_assert_msg(hits >= 1 && enc >= 8, "stats: %llu encodes, %llu hits", (unsigned long long)enc,
                (unsigned long long)hits);
}
END_TEST

Suite *select_suite(void) {
  Suite *s = suite_create("select");
  TCase *tc = tcase_create("rules");
  tcase_set_timeout(tc, 60); /* (the real packs' rankings: 3 s under ASan) */
  tcase_add_test(tc, test_rank_and_range);
  tcase_add_test(tc, test_alignment);
  tcase_add_test(tc, test_sm_smem_ties);
  tcase_add_test(tc, test_none_applies);
  tcase_add_test(tc, test_min_rows);
  tcase_add_test(tc, test_cols_mult_and_forms);
  tcase_add_test(tc, test_prefer_rank);
  tcase_add_test(tc, test_cache_classes);
  tcase_add_test(tc, test_grid_blocks);
  tcase_add_test(tc, test_target_score);
  tcase_add_test(tc, test_real_pack_covers);
  tcase_add_test(tc, test_real_pack_gemm_covers);
  tcase_add_test(tc, test_fill_ties);
  tcase_add_test(tc, test_real_pack_gemm_fill);
  tcase_add_test(tc, test_real_pack_min_rows);
  tcase_add_test(tc, test_real_pack_stage_ranking);
  tcase_add_test(tc, test_real_pack_pairs_gemv_ranking);
  tcase_add_test(tc, test_tmap_cache);
  suite_add_tcase(s, tc);
  return s;
}
