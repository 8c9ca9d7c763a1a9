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

static kpk_entry mk(const char *fam, kp_dtype dt, uint64_t lo, uint64_t hi, uint32_t align,
                    int rank) {
  kpk_entry e;
  memset(&e, 0, sizeof e);
  e.family = fam;
  e.name = "synthetic";
  e.dtype = dt;
  e.min_cols = lo;
  e.max_cols = hi;
  e.align = align;
  e.rank = rank;
  e.min_sm = 80;
  e.block = 128;
  e.rows_per_block = 1;
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
  kp_devprops d = {90, 227 * 1024};
  kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 1000, 16};
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  c.cols = 1025;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 1);
  c.cols = 8193;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 2);
}
END_TEST

/* A call with less alignment than a vectorised variant needs falls back. */
START_TEST(test_alignment) {
  kpk_entry e[] = {mk("swiglu", KP_F32, 1, 100, 16, 10), mk("swiglu", KP_F32, 1, 100, 4, 1)};
  kpk_pack pk = fake_pack(e, 2);
  kp_devprops d = {80, 163 * 1024};
  kp_call c = {KP_FAM_SWIGLU, KP_F32, 64, 16};
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 0);
  c.align = 8;
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, NULL, 0), 1);
  char why[200];
  ck_assert(!kp_entry_applies(&e[0], &c, &d, why, sizeof why));
  ck_assert_ptr_nonnull(strstr(why, "16-byte alignment"));
}
END_TEST

/* SM range and shared memory limit exclude variants; ties keep the first. */
START_TEST(test_sm_smem_ties) {
  kpk_entry e[] = {mk("rope", KP_F16, 1, 512, 2, 5), mk("rope", KP_F16, 1, 512, 2, 5),
                   mk("rope", KP_F16, 1, 512, 2, 9), mk("rope", KP_F16, 1, 512, 2, 8)};
  e[2].min_sm = 90;          /* Hopper-only */
  e[3].smem = 150 * 1024;    /* needs opt-in shared memory beyond Ada's 99 KB */
  kpk_pack pk = fake_pack(e, 4);
  kp_call c = {KP_FAM_ROPE, KP_F16, 128, 16};
  kp_devprops ampere = {80, 163 * 1024}, hopper = {90, 227 * 1024}, ada = {89, 99 * 1024};
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
  kp_devprops d = {90, 227 * 1024};
  kp_call c = {KP_FAM_SOFTMAX, KP_F32, 65, 16};
  char why[512];
  ck_assert_int_eq(kp_select_variant(&pk, &c, &d, why, sizeof why), -1);
  ck_assert_ptr_nonnull(strstr(why, "softmax"));
  ck_assert_ptr_nonnull(strstr(why, "f32"));
  ck_assert_ptr_nonnull(strstr(why, "cols=65"));
  ck_assert_ptr_nonnull(strstr(why, "synthetic.kpk"));
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
  ck_assert_msg(dir != NULL, "KP_PACK_DIR must point at the built packs (make test sets it)");
  char path[1024], err[600];
  snprintf(path, sizeof path, "%s/%s.kpk", dir, target);
  kp_status s = kpk_open(pk, path, err, sizeof err);
  ck_assert_msg(s == KP_OK, "%s", err);
  return 0;
}

/* On the real sm_90a pack, every family and dtype resolves for awkward shapes
** and alignments, and better-aligned calls never get a less vectorised pick. */
START_TEST(test_real_pack_covers) {
  kpk_pack pk;
  open_built(&pk, "sm_90a");
  kp_devprops d = {90, 227 * 1024};
  static const uint64_t cols[] = {1, 7, 64, 1000, 4096, 4097, 8192, 65537, 262144, 2147483647ull};
  for (int f = 0; f < KP_FAM_COUNT; f++) {
    int present = 0;
    for (uint32_t i = 0; i < pk.n_entries; i++)
      present |= strcmp(pk.entries[i].family, kp_family_name((kp_family)f)) == 0;
    if (!present) continue; /* family coverage is check_packs_built's job */
    for (int dt = 0; dt < KP_DTYPE_COUNT_; dt++)
      for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
        for (uint32_t a = kp_dtype_size((kp_dtype)dt); a <= 16; a *= 2) {
          kp_call c = {(kp_family)f, (kp_dtype)dt, cols[k], a};
          char why[700];
          int i = kp_select_variant(&pk, &c, &d, why, sizeof why);
          ck_assert_msg(i >= 0, "%s", why);
          ck_assert_uint_le(pk.entries[i].align, a);
          ck_assert_str_eq(pk.entries[i].signature, kp_family_signature((kp_family)f));
        }
  }
  kpk_close(&pk);
}
END_TEST

Suite *select_suite(void) {
  Suite *s = suite_create("select");
  TCase *tc = tcase_create("rules");
  tcase_add_test(tc, test_rank_and_range);
  tcase_add_test(tc, test_alignment);
  tcase_add_test(tc, test_sm_smem_ties);
  tcase_add_test(tc, test_none_applies);
  tcase_add_test(tc, test_target_score);
  tcase_add_test(tc, test_real_pack_covers);
  suite_add_tcase(s, tc);
  return s;
}
