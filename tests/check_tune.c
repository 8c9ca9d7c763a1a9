/*
** check_tune.c -- the autotune table: parse, write, merge, malformed input,
** and the selection rules it drives (exact key, nearest bucket, ranking).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "tune.h"

static const char *TABLE =
    "# a comment\n"
    "kernpack-tune 2\n"
    "device = NVIDIA H200\n"
    "sm = 90\n"
    "sm_count = 132\n"
    "driver = 13000\n"
    "pack = sm_90a 00000000deadbeef\n"
    "date = 2026-11-22T02:00:00Z\n"
    "\n"
    "softmax bf16 32768x8192 16 v_fast 100.5\n"
    "softmax bf16 32768x8192 16 v_slow 150.0\n"
    "softmax bf16 128x4096 16 v_slow 10.0\n"
    "softmax bf16 128x4096 16 v_fast 12.0\n";

static char err[1024];

/* A well-formed table parses with its metadata and every row. */
START_TEST(test_parse) {
  kp_tune_table t;
  ck_assert_msg(kp_tune_parse(&t, TABLE, "t.tune", err, sizeof err) == KP_OK, "%s", err);
  ck_assert_str_eq(t.device, "NVIDIA H200");
  ck_assert_int_eq(t.sm, 90);
  ck_assert_int_eq(t.sm_count, 132);
  ck_assert_int_eq(t.driver, 13000);
  ck_assert_str_eq(t.pack_target, "sm_90a");
  ck_assert(t.pack_hash == 0xdeadbeefull);
  ck_assert_uint_eq(t.n, 4);
  ck_assert_str_eq(t.rows[0].variant, "v_fast");
  ck_assert_int_eq(t.rows[0].line, 10);
  kp_tune_free(&t);
}
END_TEST

/* Writing and re-reading gives the same table. */
START_TEST(test_round_trip) {
  kp_tune_table a, b;
  ck_assert(kp_tune_parse(&a, TABLE, "t.tune", err, sizeof err) == KP_OK);
  char path[] = "/tmp/kp_tune_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_msg(kp_tune_save(&a, path, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_msg(kp_tune_load(&b, path, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_str_eq(a.device, b.device);
  ck_assert_uint_eq(a.n, b.n);
  for (size_t i = 0; i < a.n; i++) {
    int found = 0;
    for (size_t k = 0; k < b.n; k++)
      found |= !strcmp(a.rows[i].variant, b.rows[k].variant) && a.rows[i].dim[KP_COLS] == b.rows[k].dim[KP_COLS] &&
               a.rows[i].dim[KP_ROWS] == b.rows[k].dim[KP_ROWS] && a.rows[i].us == b.rows[k].us;
    ck_assert_msg(found, "row %zu lost in the round trip", i);
  }
  unlink(path);
  kp_tune_free(&a);
  kp_tune_free(&b);
}
END_TEST

/* Merging keeps every measurement (a new variant discards nothing) and the
** best time of a repeated one; another device's table is refused. */
START_TEST(test_merge) {
  kp_tune_table a, b;
  ck_assert(kp_tune_parse(&a, TABLE, "a.tune", err, sizeof err) == KP_OK);
  const char *more =
      "kernpack-tune 2\ndevice = NVIDIA H200\nsm = 90\nsm_count = 132\n"
      "softmax bf16 32768x8192 16 v_new 90.0\n"
      "softmax bf16 32768x8192 16 v_slow 140.0\n";
  ck_assert(kp_tune_parse(&b, more, "b.tune", err, sizeof err) == KP_OK);
  ck_assert(kp_tune_merge(&a, &b, err, sizeof err) == KP_OK);
  ck_assert_uint_eq(a.n, 5);
  for (size_t i = 0; i < a.n; i++)
    if (!strcmp(a.rows[i].variant, "v_slow") && a.rows[i].dim[KP_COLS] == 8192)
      ck_assert(a.rows[i].us == 140.0);
  /* merging a table's own rows again adds nothing (kp tune saves after every
  ** task, merging what it wrote before) */
  ck_assert(kp_tune_merge(&b, &a, err, sizeof err) == KP_OK);
  ck_assert(kp_tune_merge(&a, &b, err, sizeof err) == KP_OK);
  ck_assert_uint_eq(a.n, 5);
  for (size_t i = 0; i < a.n; i++)
    if (!strcmp(a.rows[i].variant, "v_slow") && a.rows[i].dim[KP_COLS] == 8192)
      ck_assert(a.rows[i].us == 140.0);
  kp_tune_free(&b);
  const char *other = "kernpack-tune 2\ndevice = NVIDIA H100 80GB HBM3\nsm = 90\nsm_count = 132\n";
  ck_assert(kp_tune_parse(&b, other, "c.tune", err, sizeof err) == KP_OK);
  ck_assert_int_eq(kp_tune_merge(&a, &b, err, sizeof err), KP_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(err, "c.tune"));
  kp_tune_free(&a);
  kp_tune_free(&b);
}
END_TEST

/* Each malformed input is an error naming the file and line. */
static const struct {
  const char *text, *expect;
} BAD[] = {
    {"", "bad.tune:0: empty"},
    {"hello 1\n", "bad.tune:1: not a kernpack tuning table"},
    {"kernpack-tune 1\n", "bad.tune:1: table format version 1, this library reads 2: re-tune"},
    {"kernpack-tune 2\nsm = ninety\n", "bad.tune:2: sm: 'ninety' is not a number"},
    {"kernpack-tune 2\ncolour = blue\n", "bad.tune:2: unknown header key 'colour'"},
    {"kernpack-tune 2\n\nsoftmax bf16 32768x8192 16 v\n", "bad.tune:3: expected 'family dtype"},
    {"kernpack-tune 2\nsoftmax f64 32768x8192 16 v 1.0\n", "bad.tune:2: unknown dtype 'f64'"},
    {"kernpack-tune 2\nsoftmax bf16 32768x0 16 v 1.0\n", "bad.tune:2: shape '32768x0': cols = 0 out of range"},
    {"kernpack-tune 2\nsoftmax bf16 32768x8 12 v 1.0\n", "bad.tune:2: align 12"},
    {"kernpack-tune 2\nsoftmax bf16 1000x8 16 v 1.0\n", "bad.tune:2: shape '1000x8': rows = 1000 is not a power-of-two bucket"},
    {"kernpack-tune 2\nsoftmax bf16 1024x8 16 v -3\n", "bad.tune:2: time -3 is not a number >= 0.001"},
    {"kernpack-tune 2\nsoftmax bf16 1024x8 16 v 0.0004\n", "bad.tune:2: time 0.0004 is not a number >= 0.001"},
    {"kernpack-tune 2\nsoftmax bf16 1024x8 16 v nan\n", "bad.tune:2: time nan"},
    {"kernpack-tune 2\nsoftmax bf16 1024x8 16 v 1.0 extra\n", "bad.tune:2: 'extra' is not a form of softmax"},
    {"kernpack-tune 2\npack = sm_90a\n", "bad.tune:2: pack: expected"},
    {"kernpack-tune 2\ngeglu bf16 1024x8 16 v 1.0 gelu\n", "bad.tune:2: 'gelu' is not a form of geglu (erf, tanh)"},
    {"kernpack-tune 2\nsoftmax bf16 1024x8 16 v 1.0 tanh\n", "bad.tune:2: 'tanh' is not a form of softmax (it has none)"},
    {"kernpack-tune 2\nrope bf16 1024x8 16 v 1.0 tanh\n", "bad.tune:2: 'tanh' is not a form of rope (neox, gptj)"},
    {"kernpack-tune 2\ngeglu bf16 1024x8 16 v 1.0 tanh x\n", "bad.tune:2: expected"},
    {"kernpack-tune 2\nconv2d bf16 1024x8 16 v 1.0\n", "bad.tune:2: unknown family 'conv2d'"},
    {"kernpack-tune 2\nattention bf16 1024x8 16 v 1.0\n", "bad.tune:2: shape '1024x8': expected 4 to 5 numbers"},
    {"kernpack-tune 2\nattention bf16 1x1024x8x128x4x2 16 v 1.0\n", "bad.tune:2: shape '1x1024x8x128x4x2': expected 4 to 5 numbers"},
    {"kernpack-tune 2\nattention bf16 1x1024x8x128x3 16 v 1.0\n", "bad.tune:2: shape '1x1024x8x128x3': g = 3 is not a power-of-two bucket"},
    {"kernpack-tune 2\nattention bf16 1024x1024x16x128 16 v 1.0 nk\n", "bad.tune:2: 'nk' is not a form of attention (full, causal; each also +stride0, +paged, +varlen, +ws, +wave, in that order)"},
    {"kernpack-tune 2\nattention bf16 1x8192x32x128x4 16 v 1.0 full+ws+paged\n", "bad.tune:2: 'full+ws+paged' is not a form of attention"},
    {"kernpack-tune 2\nsoftmax bf16 1024x8x2 16 v 1.0\n", "bad.tune:2: shape '1024x8x2': expected 2 numbers"},
    {"kernpack-tune 2\ngemm bf16 4096x11008 16 v 1.0\n", "bad.tune:2: shape '4096x11008': expected 3 to 4 numbers"},
    {"kernpack-tune 2\ngemm bf16 4096x11008x4096x 16 v 1.0\n", "bad.tune:2: shape '4096x11008x4096x': expected 3 to 4 numbers"},
    {"kernpack-tune 2\ngemm bf16 100x11008x4096x1 16 v 1.0\n", "bad.tune:2: shape '100x11008x4096x1': m = 100 is not a power-of-two bucket"},
    {"kernpack-tune 2\ngemm bf16 128x64x64x1 16 v 1.0 tn\n", "bad.tune:2: 'tn' is not a form of gemm (nk, kn; each also +terms)"},
};

START_TEST(test_malformed) {
  kp_tune_table t;
  kp_status s = kp_tune_parse(&t, BAD[_i].text, "bad.tune", err, sizeof err);
  ck_assert_int_ne(s, KP_OK);
  ck_assert_msg(strstr(err, BAD[_i].expect) != NULL, "case %d: '%s' lacks '%s'", _i, err,
                BAD[_i].expect);
}
END_TEST

/* A table written with binary garbage or too-long lines is refused. */
START_TEST(test_hostile_file) {
  char path[] = "/tmp/kp_tune_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, "kernpack-tune 2\n\0\1\2", 19), 19);
  close(fd);
  kp_tune_table t;
  ck_assert_int_ne(kp_tune_load(&t, path, err, sizeof err), KP_OK);
  ck_assert_ptr_nonnull(strstr(err, path));
  FILE *f = fopen(path, "w");
  fprintf(f, "kernpack-tune 2\n");
  for (int i = 0; i < 3000; i++) fputc('x', f);
  fclose(f);
  ck_assert_int_ne(kp_tune_load(&t, path, err, sizeof err), KP_OK);
  ck_assert_ptr_nonnull(strstr(err, ":2: line longer"));
  unlink(path);
  ck_assert_int_eq(kp_tune_load(&t, "/nonexistent/x.tune", err, sizeof err), KP_ERR_PACK_NOT_FOUND);
}
END_TEST

static kpk_entry ent(const char *name, uint64_t max_cols, uint32_t align, int rank) {
  kpk_entry e;
  memset(&e, 0, sizeof e);
  e.family = "softmax";
  e.name = name;
  e.dtype = KP_BF16;
  e.dmin[KP_COLS] = 1;
  e.dmax[KP_COLS] = max_cols;
  e.align = align;
  e.rank = rank;
  e.block = 128;
  e.tile[KP_ROWS] = 1;
  return e;
}

/* ent()s of another family: every dimension any value, no tile */
static void any_dims(kpk_entry *e, int n, const char *family) {
  for (int i = 0; i < n; i++) {
    e[i].family = family;
    for (int k = 0; k < KPK_DIMS; k++) e[i].dmin[k] = 1, e[i].dmax[k] = 0, e[i].tile[k] = 0;
  }
}

/* A pack of the n entries e (no file behind it) */
static kpk_pack pack_of(kpk_entry *e, uint32_t n) {
  kpk_pack pk;
  memset(&pk, 0, sizeof pk);
  pk.entries = e;
  pk.n_entries = n;
  return pk;
}

/* The documented rule: exact key, then the nearest key (log2 distance in
** cols plus rows bucket, within KP_TUNE_REACH), then the ranking (-1); rows
** for variants that do not apply or are missing from the pack are skipped. */
START_TEST(test_pick) {
  kpk_entry e[] = {ent("v_fast", 16384, 16, 1), ent("v_slow", 2147483647ull, 2, 0)};
  kpk_pack pk = pack_of(e, 2);
  kp_tune_table t;
  ck_assert(kp_tune_parse(&t, TABLE, "t.tune", err, sizeof err) == KP_OK);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 16, 0, {20000, 8192, 1, 1}};
  char how[512];
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0); /* bucket 32768 */
  ck_assert_ptr_nonnull(strstr(how, "exact key"));
  c.dim[KP_ROWS] = 10000; /* bucket 16384: the 8192x32768 key, one bucket away */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  ck_assert_msg(strstr(how, "nearest key rows:pow2,cols 32768x8192") != NULL, "%s", how);
  c.dim[KP_ROWS] = 100; /* bucket 128: 4096x128 (distance 1) beats 8192x32768 (8) */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 1);
  ck_assert_msg(strstr(how, "nearest key rows:pow2,cols 128x4096") != NULL, "%s", how);
  c.dim[KP_ROWS] = 4096; /* 4096x128 at 1 + 5, 8192x32768 at 3: both out of reach */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), -1);
  ck_assert_msg(strstr(how, "no measured key within reach") != NULL, "%s", how);
  c.dim[KP_COLS] = 5000; /* nearer 4096 than 8192 in log2: v_slow won there */
  c.dim[KP_ROWS] = 128;
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 1);
  ck_assert_ptr_nonnull(strstr(how, "128x4096"));
  c.dim[KP_COLS] = 20000; /* v_fast does not apply beyond 16384: the 8192 key's next best */
  c.dim[KP_ROWS] = 32768;
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 1);
  c.dim[KP_COLS] = 40000; /* 2.3 from 8192: out of reach */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), -1);
  c.dim[KP_COLS] = 20000;
  c.align = 8; /* no key measured at this alignment: no pick, the ranking decides */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), -1);
  pk.n_entries = 1; /* v_slow pruned from the pack: its rows are skipped */
  c.align = 16;
  c.dim[KP_COLS] = 4096;
  c.dim[KP_ROWS] = 128;
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  kp_tune_free(&t);
}
END_TEST

/* The ranking's pick (the higher rank) stands where the table timed it
** within KP_TUNE_MARGIN of the key's best, at the exact and the nearest key;
** a larger lead wins. */
START_TEST(test_pick_margin) {
  kpk_entry e[] = {ent("v_rank", 2147483647ull, 16, 1), ent("v_other", 2147483647ull, 16, 0)};
  kpk_pack pk = pack_of(e, 2);
  kp_tune_table t;
  ck_assert(kp_tune_parse(&t,
                          "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                          "softmax bf16 32768x8192 16 v_other 100.0\n"
                          "softmax bf16 32768x8192 16 v_rank 100.9\n" /* 0.9%: kept */
                          "softmax bf16 32768x4096 16 v_other 100.0\n"
                          "softmax bf16 32768x4096 16 v_rank 101.1\n", /* 1.1%: not */
                          "t.tune", err, sizeof err) == KP_OK);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 16, 0, {32768, 8192, 1, 1}};
  char how[512];
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  ck_assert_msg(strstr(how, "ranking's v_rank") && strstr(how, "kept"), "%s", how);
  c.dim[KP_ROWS] = 16384; /* nearest key 8192x32768: kept there too */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  ck_assert_msg(strstr(how, "nearest key") && strstr(how, "kept"), "%s", how);
  c.dim[KP_COLS] = 4096;
  c.dim[KP_ROWS] = 32768;
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 1);
  ck_assert_msg(!strstr(how, "kept"), "%s", how);
  c.dim[KP_COLS] = 8192;
  pk.n_entries = 1; /* only v_rank in the pack: the table's best is v_rank */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  ck_assert_msg(!strstr(how, "kept"), "%s", how);
  kp_tune_free(&t);
}
END_TEST

/* A min_rows variant wins its bucket's key at large rows; a call in the same
** bucket below its min_rows gets the key's best variant that does apply, and
** the nearest-key rule skips it the same way. */
START_TEST(test_pick_min_rows) {
  kpk_entry e[] = {ent("v_big", 2147483647ull, 16, 1), ent("v_any", 2147483647ull, 16, 0)};
  e[0].dmin[KP_ROWS] = 16384;
  kpk_pack pk = pack_of(e, 2);
  kp_tune_table t;
  ck_assert(kp_tune_parse(&t,
                          "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                          "softmax bf16 16384x8192 16 v_big 1.0\n"
                          "softmax bf16 16384x8192 16 v_any 2.0\n",
                          "t.tune", err, sizeof err) == KP_OK);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 16, 0, {16384, 8192, 1, 1}};
  char how[512];
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 0);
  c.dim[KP_ROWS] = 10000; /* bucket 16384 too, below min_rows */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 1);
  ck_assert_msg(strstr(how, "exact key") != NULL, "%s", how);
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 1);
  c.dim[KP_ROWS] = 40000; /* nearest key: rows 16384, v_big applies here */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  c.dim[KP_ROWS] = 5000; /* nearest key again, v_big does not apply */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 1);
  ck_assert_msg(strstr(how, "nearest key") != NULL, "%s", how);
  pk.n_entries = 1; /* only v_big in the pack: nothing in the table applies below 16384 */
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), -1);
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), -1);
  kp_tune_free(&t);
}
END_TEST

/* A table's pick may be a variant the ranking keeps for calls off the
** 16-byte grid (max_align): it runs an aligned call correctly, and the
** tuner timed it there; the ranking still picks the other. */
START_TEST(test_pick_max_align) {
  kpk_entry e[] = {ent("v_odd", 2147483647ull, 2, 1), ent("v_any", 2147483647ull, 16, 0)};
  e[0].max_align = 8;
  kpk_pack pk = pack_of(e, 2);
  kp_tune_table t;
  ck_assert(kp_tune_parse(&t,
                          "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                          "softmax bf16 4096x28672 16 v_odd 117.5\n"
                          "softmax bf16 4096x28672 16 v_any 132.6\n",
                          "t.tune", err, sizeof err) == KP_OK);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 16, 0, {4096, 28672, 1, 1}};
  char how[512];
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 1);
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), 0);
  ck_assert_msg(strstr(how, "exact key") != NULL, "%s", how);
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 0);
  c.align = 2; /* off the grid: the ranking's own pick, the table has no key here */
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  ck_assert_int_eq(kp_tune_pick(&t, &pk, &c, &d, how, sizeof how), -1);
  kp_tune_free(&t);
}
END_TEST

/* The form column: parsed, written back, part of the key (merge keeps both
** forms' rows of one variant apart), and a row serves calls of its form only. */
static const char *FORMS =
    "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
    "geglu bf16 32768x8192 16 v_erf 395.6\n"
    "geglu bf16 32768x8192 16 v_tanh 370.4 tanh\n"
    "geglu bf16 32768x8192 16 v_erf 420.0 tanh\n"
    "rope bf16 16384x128 16 v_erf 50.0 gptj\n"
    "geglu bf16 32768x8192 16 v_tanh 500.0 erf\n";

START_TEST(test_forms) {
  kp_tune_table a, b;
  ck_assert_msg(kp_tune_parse(&a, FORMS, "f.tune", err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(a.n, 5);
  ck_assert_uint_eq(a.rows[0].form, 0);
  ck_assert_uint_eq(a.rows[1].form, 1);
  ck_assert_uint_eq(a.rows[2].form, 1);
  ck_assert_uint_eq(a.rows[3].form, 1);
  ck_assert_uint_eq(a.rows[4].form, 0); /* "erf" named: form 0 */
  char path[] = "/tmp/kp_tune_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_msg(kp_tune_save(&a, path, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_msg(kp_tune_load(&b, path, err, sizeof err) == KP_OK, "%s", err);
  unlink(path);
  ck_assert_uint_eq(b.n, a.n);
  for (size_t i = 0; i < a.n; i++) {
    int found = 0;
    for (size_t k = 0; k < b.n; k++)
      found |= !strcmp(a.rows[i].variant, b.rows[k].variant) && a.rows[i].form == b.rows[k].form &&
               a.rows[i].us == b.rows[k].us && !strcmp(a.rows[i].family, b.rows[k].family);
    ck_assert_msg(found, "row %zu (form %u) lost in the round trip", i, a.rows[i].form);
  }
  ck_assert(kp_tune_merge(&a, &b, err, sizeof err) == KP_OK); /* same rows: nothing added */
  ck_assert_uint_eq(a.n, 5);
  kp_tune_free(&b);

  kpk_entry e[] = {ent("v_erf", 2147483647ull, 16, 0), ent("v_tanh", 2147483647ull, 16, 0)};
  e[0].family = e[1].family = "geglu";
  kpk_pack pk = pack_of(e, 2);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_GEGLU, KP_BF16, 16, 0, {32768, 8192, 1, 1}};
  char how[512];
  ck_assert_int_eq(kp_tune_pick(&a, &pk, &c, &d, how, sizeof how), 0); /* erf: v_erf 395.6 */
  c.form = 1;
  ck_assert_int_eq(kp_tune_pick(&a, &pk, &c, &d, how, sizeof how), 1); /* tanh: v_tanh 370.4 */
  ck_assert_msg(strstr(how, "exact key") != NULL, "%s", how);
  c.dim[KP_COLS] = 4096; /* nearest key, still within the form */
  ck_assert_int_eq(kp_tune_pick(&a, &pk, &c, &d, how, sizeof how), 1);
  c.form = 0;
  ck_assert_int_eq(kp_tune_pick(&a, &pk, &c, &d, how, sizeof how), 0);
  c = (kp_call){KP_FAM_ROPE, KP_BF16, 16, 0, {16384, 128, 1, 1}}; /* rope rows are gptj only */
  e[0].family = e[1].family = "rope";
  ck_assert_int_eq(kp_tune_pick(&a, &pk, &c, &d, how, sizeof how), -1);
  c.form = 1;
  ck_assert_int_eq(kp_tune_pick(&a, &pk, &c, &d, how, sizeof how), 0);
  kp_tune_free(&a);
}
END_TEST

/* GEMM's key: m and batch bucketed, n and k exact, the B layout as the form;
** such a row serves a call in its buckets of its form only. */
START_TEST(test_gemm_key) {
  kp_call c = {KP_FAM_GEMM, KP_BF16, 16, KP_B_KN, {100, 11008, 4096, 3}};
  uint64_t key[KPK_DIMS];
  kp_tune_key_dims(&c, key);
  ck_assert_uint_eq(key[KP_GM], 128);
  ck_assert_uint_eq(key[KP_GN], 11008);
  ck_assert_uint_eq(key[KP_GK], 4096);
  ck_assert_uint_eq(key[KP_GBATCH], 4);
  ck_assert_str_eq(kp_form_name("gemm", KP_B_NK), "nk");
  ck_assert_str_eq(kp_form_name("gemm", KP_B_KN), "kn");
  kp_tune_table t;
  ck_assert_msg(kp_tune_parse(&t,
                              "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                              "gemm bf16 128x11008x4096x4 16 g_a 10.0 kn\n"
                              "gemm bf16 128x11008x4096x4 16 g_b 20.0 kn\n"
                              "gemm bf16 128x11008x4096x4 16 g_b 5.0\n", /* nk: not this call's */
                              "g.tune", err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(t.rows[0].form, KP_B_KN);
  ck_assert_uint_eq(t.rows[2].form, KP_B_NK);
  ck_assert(!memcmp(t.rows[0].dim, key, sizeof key));
  kpk_entry e[] = {ent("g_a", 0, 16, 0), ent("g_b", 0, 16, 0)};
  any_dims(e, 2, "gemm");
  kpk_pack pk = pack_of(e, 2);
  kp_devprops d = {90, 227 * 1024, 132};
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 0); /* kn: g_a 10.0 */
  c.form = KP_B_NK;
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 1); /* nk: g_b 5.0 */
  c.dim[KP_GN] = 11000; /* n is exact: another key */
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), -1);
  kp_tune_free(&t);
}
END_TEST

/* Attention's fifth dimension, g (query heads per KV head, pow2): a GQA call
** keys on its own group size, and a row written with four dims (a table from
** before g, or a gemm row without its batch) reads as g = 1 (batch = 1). */
START_TEST(test_attention_key) {
  kp_call c = {KP_FAM_ATTENTION, KP_BF16, 16, 0, {1, 30000, 256, 128, 3}};
  uint64_t key[KPK_DIMS];
  kp_tune_key_dims(&c, key);
  ck_assert_uint_eq(key[KP_ALQ], 1);
  ck_assert_uint_eq(key[KP_ALK], 32768);
  ck_assert_uint_eq(key[KP_ABH], 256);
  ck_assert_uint_eq(key[KP_AD], 128);
  ck_assert_uint_eq(key[KP_AG], 4);
  kp_tune_table t;
  ck_assert_msg(kp_tune_parse(&t,
                              "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                              "attention bf16 1x32768x256x128 16 a_mha 10.0\n"
                              "attention bf16 1x32768x256x128x4 16 a_gqa 20.0\n"
                              "attention bf16 1x32768x256x128x4 16 a_mha 30.0\n"
                              "gemm bf16 128x11008x4096 16 g_a 10.0\n",
                              "a.tune", err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(t.rows[0].dim[KP_AG], 1);
  ck_assert_uint_eq(t.rows[1].dim[KP_AG], 4);
  ck_assert_uint_eq(t.rows[3].dim[KP_GBATCH], 1);
  ck_assert(!memcmp(t.rows[1].dim, key, sizeof key));
  kpk_entry e[] = {ent("a_mha", 0, 16, 0), ent("a_gqa", 0, 16, 0)};
  any_dims(e, 2, "attention");
  kpk_pack pk = pack_of(e, 2);
  kp_devprops d = {90, 227 * 1024, 132};
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 1); /* g = 3 -> 4: a_gqa 20.0 */
  c.dim[KP_AG] = 1;
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 0); /* g = 1: a_mha 10.0 */
  kp_tune_free(&t);
}
END_TEST

/* Attention's forms past full and causal have names ("causal+paged+ws": the
** flags in bit order) and key rows of their own: a decode call with a
** workspace (form 16) takes the "+ws" row, one without the plain row, and
** the names survive a round trip. */
START_TEST(test_attention_forms) {
  for (uint32_t f = 0; f < KPK_FORMS; f++) {
    const char *name = kp_form_name("attention", f);
    ck_assert_msg(name && kp_form_from_name("attention", name) == (int)f, "form %u", f);
  }
  ck_assert_str_eq(kp_form_name("attention", 16), "full+ws");
  ck_assert_str_eq(kp_form_name("attention", 21), "causal+paged+ws");
  ck_assert_str_eq(kp_form_name("attention", 48), "full+ws+wave");
  ck_assert_str_eq(kp_form_name("attention", 63), "causal+stride0+paged+varlen+ws+wave");
  ck_assert_ptr_null(kp_form_name("attention", KPK_FORMS));
  ck_assert_str_eq(kp_form_name("gemm", 2), "nk+terms"); /* KP_GEMM_TERMS */
  ck_assert_int_eq(kp_form_from_name("gemm", "kn+terms"), 3);
  ck_assert_ptr_null(kp_form_name("gemm", 4));
  kp_tune_table t;
  const char *text = "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                     "attention bf16 1x32768x32x128x4 16 a_clu 50.0\n"
                     "attention bf16 1x32768x32x128x4 16 a_sk 60.0 full+ws\n"
                     "attention bf16 1x32768x32x128x4 16 a_clu 55.0 full+ws\n";
  ck_assert_msg(kp_tune_parse(&t, text, "a.tune", err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(t.rows[1].form, 16);
  kpk_entry e[] = {ent("a_clu", 0, 16, 0), ent("a_sk", 0, 16, 0)};
  any_dims(e, 2, "attention");
  kpk_pack pk = pack_of(e, 2);
  kp_devprops d = {90, 227 * 1024, 132};
  kp_call c = {KP_FAM_ATTENTION, KP_BF16, 16, 16, {1, 32768, 32, 128, 4}};
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 0); /* +ws: a_clu 55.0 beats a_sk 60.0 */
  c.form = 0;
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), 0); /* plain: a_clu 50.0 */
  c.form = 17; /* causal+ws: no row */
  ck_assert_int_eq(kp_tune_exact(&t, &pk, &c, &d), -1);
  char path[] = "/tmp/kp_tune_forms_XXXXXX";
  const int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_msg(kp_tune_save(&t, path, err, sizeof err) == KP_OK, "%s", err);
  kp_tune_table back;
  ck_assert_msg(kp_tune_load(&back, path, err, sizeof err) == KP_OK, "%s", err);
  unlink(path);
  ck_assert_uint_eq(back.n, t.n);
  int ws_rows = 0;
  for (size_t i = 0; i < back.n; i++) ws_rows += back.rows[i].form == 16;
  ck_assert_int_eq(ws_rows, 2);
  kp_tune_free(&back);
  kp_tune_free(&t);
}
END_TEST

/* Filling: a key the destination measured keeps its rows (even when the
** source has a faster one); a key it lacks gets all of the source's rows. */
START_TEST(test_fill) {
  kp_tune_table user, shipped;
  ck_assert(kp_tune_parse(&user,
                          "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                          "softmax bf16 32768x8192 16 v_user 150.0\n"
                          "geglu bf16 32768x8192 16 v_user 300.0 tanh\n",
                          "user.tune", err, sizeof err) == KP_OK);
  ck_assert(kp_tune_parse(&shipped,
                          "kernpack-tune 2\ndevice = X\nsm = 90\nsm_count = 1\n"
                          "softmax bf16 32768x8192 16 v_ship 100.0\n"  /* key measured: ignored */
                          "softmax bf16 128x4096 16 v_ship 10.0\n"     /* new key */
                          "softmax bf16 128x4096 16 v_other 12.0\n"    /* new key, 2nd row */
                          "geglu bf16 32768x8192 16 v_ship 290.0\n"   /* other form: new key */
                          "geglu bf16 32768x8192 16 v_ship 280.0 tanh\n", /* measured */
                          "shipped.tune", err, sizeof err) == KP_OK);
  ck_assert_int_eq(kp_tune_fill(&user, &shipped), 3);
  ck_assert_uint_eq(user.n, 5);
  int saw_ship_softmax_8192 = 0, saw_ship_erf = 0, saw_ship_tanh = 0;
  for (size_t i = 0; i < user.n; i++) {
    const kp_tune_row *r = &user.rows[i];
    if (!strcmp(r->variant, "v_ship") && r->dim[KP_COLS] == 8192 && !strcmp(r->family, "softmax"))
      saw_ship_softmax_8192 = 1;
    if (!strcmp(r->variant, "v_ship") && !strcmp(r->family, "geglu"))
      (r->form ? &saw_ship_tanh : &saw_ship_erf)[0] = 1;
  }
  ck_assert(!saw_ship_softmax_8192 && saw_ship_erf && !saw_ship_tanh);
  ck_assert_int_eq(kp_tune_fill(&user, &shipped), 0); /* every key is in now */
  kp_tune_table empty;
  memset(&empty, 0, sizeof empty);
  ck_assert_int_eq(kp_tune_fill(&empty, &shipped), 5);
  kp_tune_free(&empty);
  kp_tune_free(&user);
  kp_tune_free(&shipped);
}
END_TEST

/* A table from another device is recognised as such. */
START_TEST(test_matches) {
  kp_tune_table t;
  ck_assert(kp_tune_parse(&t, TABLE, "t.tune", err, sizeof err) == KP_OK);
  kp_device_info d;
  memset(&d, 0, sizeof d);
  strcpy(d.name, "NVIDIA H200");
  d.sm = 90;
  d.sm_count = 132;
  ck_assert(kp_tune_matches(&t, &d, err, sizeof err));
  d.sm_count = 114;
  ck_assert(!kp_tune_matches(&t, &d, err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "114 SMs"));
  ck_assert_uint_eq(kp_rows_bucket(1), 1);
  ck_assert_uint_eq(kp_rows_bucket(1000), 1024);
  ck_assert_uint_eq(kp_rows_bucket(1024), 1024);
  char name[200]; /* default table names keep an H100's and an H200's apart */
  kp_tune_default_name("sm_90a", "NVIDIA H200", name, sizeof name);
  ck_assert_str_eq(name, "sm_90a.nvidia-h200.tune");
  kp_tune_default_name("sm_90a", "NVIDIA H100 80GB HBM3", name, sizeof name);
  ck_assert_str_eq(name, "sm_90a.nvidia-h100-80gb-hbm3.tune");
  kp_tune_default_name("sm_80", "--", name, sizeof name);
  ck_assert_str_eq(name, "sm_80.device.tune");
  kp_tune_free(&t);
}
END_TEST

/* Online tuning re-runs a call: only calls whose output is none of their
** inputs qualify, and never add_rmsnorm or rope (in place by design). */
START_TEST(test_autotune_safe) {
  void *a = (void *)0x1000, *b = (void *)0x2000, *y = (void *)0x3000;
  long long ld = 8;
  void *sm[] = {&a, &ld, &y}, *sm_in[] = {&a, &ld, &a};
  kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 16, 0, {1, 8, 1, 1}};
  ck_assert(kp_autotune_safe(&c, sm));
  ck_assert(!kp_autotune_safe(&c, sm_in));
  void *rn[] = {&a, &ld, &b, &y}, *rn_in[] = {&a, &ld, &b, &a};
  c.family = KP_FAM_RMSNORM;
  ck_assert(kp_autotune_safe(&c, rn));
  ck_assert(!kp_autotune_safe(&c, rn_in));
  void *glu[] = {&a, &b, &ld, &y}, *glu_in[] = {&a, &b, &ld, &b};
  c.family = KP_FAM_SWIGLU;
  ck_assert(kp_autotune_safe(&c, glu));
  ck_assert(!kp_autotune_safe(&c, glu_in));
  c.family = KP_FAM_ADD_RMSNORM;
  ck_assert(!kp_autotune_safe(&c, rn));
  c.family = KP_FAM_ROPE;
  ck_assert(!kp_autotune_safe(&c, glu));
}
END_TEST

Suite *tune_suite(void) {
  Suite *s = suite_create("tune");
  TCase *tc = tcase_create("table");
  tcase_add_test(tc, test_parse);
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_merge);
  tcase_add_loop_test(tc, test_malformed, 0, (int)(sizeof BAD / sizeof BAD[0]));
  tcase_add_test(tc, test_hostile_file);
  tcase_add_test(tc, test_pick);
  tcase_add_test(tc, test_pick_min_rows);
  tcase_add_test(tc, test_pick_max_align);
  tcase_add_test(tc, test_gemm_key);
  tcase_add_test(tc, test_attention_key);
  tcase_add_test(tc, test_attention_forms);
  tcase_add_test(tc, test_pick_margin);
  tcase_add_test(tc, test_matches);
  tcase_add_test(tc, test_forms);
  tcase_add_test(tc, test_fill);
  tcase_add_test(tc, test_autotune_safe);
  suite_add_tcase(s, tc);
  return s;
}
