/*
** check_packs_built.c -- the packs `make` built hold what the templates
** declare, on every default target.
**
** Needs $KP_PACK_DIR (the built packs) and $KP_TEMPLATE_DIR (templates/<family>.lua
** and the device library kp_device.cuh); `make test` sets both.  A missing
** variable or pack is a failure, not a skip: these tests are the only
** proof that the shipped packs are complete.
*/
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_suites.h"
#include "internal.h"
#include "nvrtc_compile.h"
#include "pack.h"
#include "template.h"

#define ANY_COLS 2147483647ull /* kernels index columns with int */

/* Keep in step with ARCHS in the Makefile. */
static const char *const TARGETS[] = {"sm_80",  "sm_86",      "sm_89",       "sm_90a",
                                      "sm_120", "compute_80", "compute_100", "compute_103"};
#define N_TARGETS ((int)(sizeof TARGETS / sizeof TARGETS[0]))

typedef struct tpl_set {
  kg_template *t;
  int n;
} tpl_set;

static const char *need_env(const char *name) {
  const char *v = getenv(name);
  ck_assert_msg(v && *v, "$%s is unset: run these tests through `make test`, which points it "
                         "at the build", name);
  return v;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted *.lua names in dir (the device library is a .cuh, so not among them). */
static char **lua_files(const char *dir, int *n) {
  DIR *dp = opendir(dir);
  ck_assert_msg(dp != NULL, "cannot open template directory %s", dir);
  char **names = NULL;
  int cnt = 0;
  struct dirent *de;
  while ((de = readdir(dp))) {
    size_t len = strlen(de->d_name);
    if (len < 5 || strcmp(de->d_name + len - 4, ".lua") != 0) continue;
    names = realloc(names, (size_t)(cnt + 1) * sizeof *names);
    ck_assert_ptr_nonnull(names);
    names[cnt++] = strdup(de->d_name);
  }
  closedir(dp);
  if (cnt) qsort(names, (size_t)cnt, sizeof *names, cmp_names);
  *n = cnt;
  return names;
}

/* Run every template, as kpgen does, to learn what each pack must hold. */
static tpl_set load_templates(void) {
  const char *dir = need_env("KP_TEMPLATE_DIR");
  char lib[1024], path[1024], err[2048];
  snprintf(lib, sizeof lib, "%s/kp_device.cuh", dir);
  int nf;
  char **files = lua_files(dir, &nf);
  ck_assert_msg(nf > 0, "no templates (*.lua) in %s", dir);
  tpl_set ts = {calloc((size_t)nf, sizeof(kg_template)), nf};
  ck_assert_ptr_nonnull(ts.t);
  for (int i = 0; i < nf; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    ck_assert_msg(kg_template_load(&ts.t[i], path, lib, err, sizeof err) == 0, "%s", err);
    free(files[i]);
  }
  free(files);
  return ts;
}

static void free_templates(tpl_set *ts) {
  for (int i = 0; i < ts->n; i++) kg_template_free(&ts->t[i]);
  free(ts->t);
}

/* Open <KP_PACK_DIR>/<target>.kpk; it must exist and parse. */
static void open_pack(kpk_pack *pk, const char *target) {
  char path[1024], err[1024];
  snprintf(path, sizeof path, "%s/%s.kpk", need_env("KP_PACK_DIR"), target);
  kp_status s = kpk_open(pk, path, err, sizeof err);
  ck_assert_msg(s == KP_OK, "default target %s: %s (%s)", target, err, kp_status_name(s));
}

static const kpk_entry *find_entry(const kpk_pack *pk, const char *name) {
  for (uint32_t i = 0; i < pk->n_entries; i++)
    if (strcmp(pk->entries[i].name, name) == 0) return &pk->entries[i];
  return NULL;
}

/* SM number a target runs on: "sm_90a" -> 90, "compute_80" -> 80. */
static uint32_t target_sm(const char *target) {
  const char *us = strchr(target, '_');
  ck_assert_ptr_nonnull(us);
  return (uint32_t)strtoul(us + 1, NULL, 10);
}

/* The pack opens, is named for its target, and every entry's checksums
** verify with no spilling entry among them; every entry takes the
** arguments and dimensions this library passes its family (a template's
** parameter list and runtime/internal.h's family table agree: a mismatch
** only shows as KP_ERR_PACK_VERSION at the first call on a GPU). */
START_TEST(test_pack_opens_and_verifies) {
  const char *target = TARGETS[_i];
  kpk_pack pk;
  char err[1024];
  open_pack(&pk, target);
  ck_assert_msg(strcmp(pk.target, target) == 0, "%s: header says target %s", pk.path, pk.target);
  ck_assert_msg(pk.n_entries > 0, "%s holds no kernels", pk.path);
  for (uint32_t i = 0; i < pk.n_entries; i++) {
    const kpk_entry *e = &pk.entries[i];
    ck_assert_msg(kpk_check_entry(&pk, i, err, sizeof err) == KP_OK, "%s", err);
    ck_assert_msg(e->spill_stores == 0 && e->spill_loads == 0,
                  "%s: %s spills (%u bytes stored, %u loaded)", pk.path, e->name,
                  e->spill_stores, e->spill_loads);
    const int fam = kp_family_from_name(e->family);
    ck_assert_msg(fam >= 0, "%s: %s of unknown family %s", pk.path, e->name, e->family);
    ck_assert_msg(!strcmp(e->signature, kp_family_signature((kp_family)fam)),
                  "%s: %s takes (%s), the library passes %s (%s)", pk.path, e->name, e->signature,
                  e->family, kp_family_signature((kp_family)fam));
    ck_assert_msg(!strcmp(e->dims, kp_family_dims_text((kp_family)fam)),
                  "%s: %s has dimensions (%s), the library's %s (%s)", pk.path, e->name, e->dims,
                  e->family, kp_family_dims_text((kp_family)fam));
  }
  kpk_close(&pk);
}
END_TEST

/* compute_ packs hold NUL-terminated PTX, sm_ packs hold cubins (ELF). */
START_TEST(test_image_kind) {
  const char *target = TARGETS[_i];
  int want_ptx = strncmp(target, "compute_", 8) == 0;
  kpk_pack pk;
  open_pack(&pk, target);
  for (uint32_t i = 0; i < pk.n_entries; i++) {
    const kpk_entry *e = &pk.entries[i];
    const uint8_t *img = pk.blobs + e->image_off;
    ck_assert_msg(!!e->is_ptx == want_ptx, "%s: %s is %s, expected %s", pk.path, e->name,
                  e->is_ptx ? "PTX" : "a cubin", want_ptx ? "PTX" : "a cubin");
    if (want_ptx)
      ck_assert_msg(img[e->image_size - 1] == 0 && strstr((const char *)img, ".version"),
                    "%s: %s is not PTX text", pk.path, e->name);
    else
      ck_assert_msg(e->image_size >= 4 && memcmp(img, "\x7f" "ELF", 4) == 0,
                    "%s: %s has no ELF magic, not a cubin", pk.path, e->name);
  }
  kpk_close(&pk);
}
END_TEST

/* Does the entry's stored source match the template's, past the first
** banner line (which names the template by the path kpgen was given)? */
static int same_source(const kpk_pack *pk, const kpk_entry *e, const kg_variant *v) {
  size_t n;
  char *a = kpk_source_dup(pk, (uint32_t)(e - pk->entries), &n);
  const char *b = v->source;
  const char *na = a ? memchr(a, '\n', n) : NULL, *nb = strchr(b, '\n');
  int same = 0;
  if (na && nb) {
    size_t la = n - (size_t)(na - a), lb = v->source_len - (size_t)(nb - b);
    same = la == lb && memcmp(na, nb, la) == 0;
  }
  free(a);
  return same;
}

/* Fail for a declared variant missing from the pack.  kpgen drops exactly
** the variants that spill; the build's compile record for the variant
** (<packs>/../obj/<target>/<name>.info, as the Makefile lays it out) says
** by how much, or, if it says no spill, that the pack is stale. */
static void fail_missing(const kpk_pack *pk, const kg_variant *v) {
  char info_path[1536];
  kg_compile_info info;
  snprintf(info_path, sizeof info_path, "%s/../obj/%s/%s.info", need_env("KP_PACK_DIR"),
           pk->target, v->e.name);
  int have = kg_info_read(info_path, &info) == 0;
  if (have && !info.spill_stores && !info.spill_loads)
    ck_abort_msg("%s: variant %s (family %s, %s) is declared but missing from the pack, and "
                 "it does not spill: stale pack, run make",
                 pk->path, v->e.name, v->e.family, kp_dtype_name((kp_dtype)v->e.dtype));
  if (have)
    ck_abort_msg("%s: variant %s (family %s, %s) was dropped from the pack because it spills "
                 "registers on %s (%d bytes stored, %d loaded)",
                 pk->path, v->e.name, v->e.family, kp_dtype_name((kp_dtype)v->e.dtype),
                 pk->target, info.spill_stores, info.spill_loads);
  ck_abort_msg("%s: variant %s (family %s, %s) is declared but missing from the pack: kpgen "
               "dropped it because it spills registers on %s (or the pack is stale)",
               pk->path, v->e.name, v->e.family, kp_dtype_name((kp_dtype)v->e.dtype),
               pk->target);
}

/* Compare one declared variant with its pack entry. */
static void check_declared(const kpk_pack *pk, const kg_variant *v) {
  const kpk_entry *e = find_entry(pk, v->e.name);
  if (!e) fail_missing(pk, v);
  ck_assert_msg(e->spill_stores == 0 && e->spill_loads == 0, "%s: %s spills", pk->path,
                e->name);
  ck_assert_msg(strcmp(e->family, v->e.family) == 0 && e->dtype == v->e.dtype &&
                    e->align == v->e.align && e->dmin[KP_COLS] == v->e.dmin[KP_COLS] &&
                    e->dmax[KP_COLS] == v->e.dmax[KP_COLS] && e->block == v->e.block &&
                    e->tile[KP_ROWS] == v->e.tile[KP_ROWS] && e->rank == v->e.rank &&
                    e->dmin[KP_ROWS] == v->e.dmin[KP_ROWS] && e->tile[KP_COLS] == v->e.tile[KP_COLS],
                "%s: %s differs from its template declaration", pk->path, e->name);
  ck_assert_msg(same_source(pk, e, v),
                "%s: %s was built from another version of its template (stale pack: run make)",
                pk->path, e->name);
}

/* Is a variant of this name declared by any template? */
static int declared_anywhere(const tpl_set *ts, const char *name) {
  for (int t = 0; t < ts->n; t++)
    if (kg_template_find(&ts->t[t], name)) return 1;
  return 0;
}

/* Every variant the templates declare for this target (its `targets`) and
** its SM is in the pack, unchanged (so none was dropped for spilling and the
** pack is not stale), and the pack holds nothing the templates no longer
** declare.  A pack of RANKED_ARCHS (Makefile) holds the ranking's picks
** alone: every pick must be there, and either all the others (a whole pack)
** or none of them -- some but not all means a stale pack. */
START_TEST(test_every_declared_variant_present) {
  tpl_set ts = load_templates();
  kpk_pack pk;
  open_pack(&pk, TARGETS[_i]);
  uint32_t sm = target_sm(pk.target);
  int unpicked_in = 0, unpicked_out = 0;
  const char *first_out = NULL, *first_in = NULL;
  for (int t = 0; t < ts.n; t++) {
    char *pick = malloc((size_t)ts.t[t].n + 1);
    ck_assert(pick && kg_template_ranked(&ts.t[t], pk.target, pick) == 0);
    for (int v = 0; v < ts.t[t].n; v++) {
      const kpk_entry *d = &ts.t[t].v[v].e;
      if (!kg_variant_for_target(&ts.t[t].v[v], pk.target) || d->min_sm > sm ||
          (d->max_sm && d->max_sm < sm))
        continue;
      if (!pick[v] && !find_entry(&pk, d->name)) {
        unpicked_out++;
        if (!first_out) first_out = d->name;
        continue;
      }
      if (!pick[v] && !first_in) first_in = d->name;
      unpicked_in += !pick[v];
      check_declared(&pk, &ts.t[t].v[v]);
    }
    free(pick);
  }
  ck_assert_msg(!unpicked_in || !unpicked_out,
                "%s: %d variants the ranking never picks are in the pack (%s...) and %d are not "
                "(%s...): neither whole nor the ranking's picks (RANKED_ARCHS): stale pack, run make",
                pk.path, unpicked_in, first_in, unpicked_out, first_out);
  for (uint32_t i = 0; i < pk.n_entries; i++)
    ck_assert_msg(declared_anywhere(&ts, pk.entries[i].name),
                  "%s: %s is declared by no template (stale pack: run make)", pk.path,
                  pk.entries[i].name);
  kpk_close(&pk);
  free_templates(&ts);
}
END_TEST

/* The largest value of a dimension that the op accepts (kernpack.h). */
static uint64_t api_max(const char *family, const char *dim) {
  if (!strcmp(family, "attention") && !strcmp(dim, "d")) return 256; /* head_dim */
  return ANY_COLS;
}

/* Does the pack hold a variant of family/dtype/form that takes any call:
** element alignment, every dimension from 1 up (to what the op accepts)
** with no multiple, and runs on the pack's SM? */
static int has_any_shape(const kpk_pack *pk, const char *family, uint32_t dt, uint32_t form) {
  uint32_t sm = target_sm(pk->target);
  kp_dims dims;
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    if (strcmp(e->family, family) || e->dtype != dt) continue;
    if (e->align != kp_dtype_size((kp_dtype)dt) || e->min_sm > sm || (e->max_sm && e->max_sm < sm))
      continue;
    if (e->forms && !(e->forms >> form & 1)) continue;
    if (kp_dims_parse(e->dims, &dims, NULL, 0)) continue;
    int any = 1;
    for (int d = 0; d < dims.n; d++)
      any &= e->dmin[d] <= 1 && (e->dmax[d] == 0 || e->dmax[d] >= api_max(family, dims.name[d])) &&
             e->dmult[d] <= 1;
    if (any) return 1;
  }
  return 0;
}

/* Every template family is in the pack in each dtype and form its template
** declares (any target), each with an any-shape fallback, so no call shape
** is left without a kernel. */
START_TEST(test_families_dtypes_fallback) {
  tpl_set ts = load_templates();
  kpk_pack pk;
  open_pack(&pk, TARGETS[_i]);
  for (int t = 0; t < ts.n; t++) {
    const char *fam = ts.t[t].family;
    uint32_t dts = 0;
    uint64_t forms = 0;
    for (int v = 0; v < ts.t[t].n; v++) {
      dts |= 1u << ts.t[t].v[v].e.dtype;
      forms |= ts.t[t].v[v].e.forms;
    }
    if (!forms) forms = 1;
    for (uint32_t dt = 0; dt < KP_DTYPE_COUNT_; dt++) {
      if (!(dts >> dt & 1)) continue;
      int found = 0;
      for (uint32_t i = 0; i < pk.n_entries && !found; i++)
        found = strcmp(pk.entries[i].family, fam) == 0 && pk.entries[i].dtype == dt;
      ck_assert_msg(found, "%s: family %s (template %s) has no %s variant", pk.path, fam,
                    ts.t[t].path, kp_dtype_name((kp_dtype)dt));
      for (uint32_t f = 0; f < KPK_FORMS; f++)
        if (forms >> f & 1)
          ck_assert_msg(has_any_shape(&pk, fam, dt, f),
                        "%s: family %s %s form %u has no any-shape fallback (align == element "
                        "size, every dimension from 1, runs on %s)",
                        pk.path, fam, kp_dtype_name((kp_dtype)dt), f, pk.target);
    }
  }
  kpk_close(&pk);
  free_templates(&ts);
}
END_TEST

/* Rows off the 16-byte grid are served vectorised (per-row peeling): in
** each pack, a call of the seven families at element alignment -- odd row
** lengths, vocabulary-like ones among them; rope: rot_dim of the usual
** heads and partial ones -- selects a variant of 16-byte vectors
** (`_v<16/esize>` in its name, or RMSNorm+SwiGLU's `_warps_`, whose 16-byte
** loads are fixed: VEC 8, 16-bit alone), not a scalar fallback. */
START_TEST(test_unaligned_rows_vectorised) {
  static const kp_family FAM[] = {KP_FAM_SOFTMAX, KP_FAM_RMSNORM, KP_FAM_ADD_RMSNORM,
                                  KP_FAM_SWIGLU, KP_FAM_GEGLU, KP_FAM_RMSNORM_SWIGLU,
                                  KP_FAM_ROPE};
  static const uint64_t ROT[] = {24, 32, 64, 96, 128, 256};
  static const uint64_t COLS[] = {1001, 4097, 32001, 50257, 128257, 151937};
  static const uint64_t ROWS[] = {1, 64, 4096};
  kpk_pack pk;
  open_pack(&pk, TARGETS[_i]);
  const kp_devprops d = {(int)target_sm(pk.target), 99 * 1024, 108};
  for (size_t f = 0; f < sizeof FAM / sizeof FAM[0]; f++)
    for (uint32_t dt = 0; dt < KP_DTYPE_COUNT_; dt++)
      for (uint32_t form = 0; form < (FAM[f] == KP_FAM_GEGLU || FAM[f] == KP_FAM_ROPE ? 2u : 1u);
           form++)
        for (size_t r = 0; r < sizeof ROWS / sizeof ROWS[0]; r++)
          for (size_t k = 0; k < sizeof COLS / sizeof COLS[0]; k++) {
            const uint32_t es = (uint32_t)kp_dtype_size((kp_dtype)dt);
            const uint64_t cols = FAM[f] == KP_FAM_ROPE ? ROT[k] : COLS[k]; /* (same count) */
            const kp_call c = {FAM[f], (kp_dtype)dt, es, form, {ROWS[r], cols, 1, 1}};
            char why[256], want[16];
            const int i = kp_select_variant(&pk, &c, &d, why, sizeof why);
            ck_assert_msg(i >= 0, "%s: %s %s %llux%llu at align %u: %s", pk.path,
                          kp_family_name(FAM[f]), kp_dtype_name((kp_dtype)dt),
                          (unsigned long long)ROWS[r], (unsigned long long)cols, es, why);
            snprintf(want, sizeof want, "_v%u", 16 / es);
            const int vectorised = strstr(pk.entries[i].name, want) != NULL ||
                                   (FAM[f] == KP_FAM_RMSNORM_SWIGLU && es == 2 &&
                                    strstr(pk.entries[i].name, "_warps_") != NULL);
            ck_assert_msg(vectorised && pk.entries[i].align == es,
                          "%s: %s %s %llux%llu at align %u picks %s (align %u): not a "
                          "peeling 16-byte variant",
                          pk.path, kp_family_name(FAM[f]), kp_dtype_name((kp_dtype)dt),
                          (unsigned long long)ROWS[r], (unsigned long long)cols, es,
                          pk.entries[i].name, pk.entries[i].align);
          }
  kpk_close(&pk);
}
END_TEST

/* ELF sections a cubin's code is in: every section but the toolkit's notes
** (.note.nv.tkinfo names the tool, ptxas or NVRTC's, and its build);
** NULL when a and b agree, else the first section that differs */
static const char *elf_code_differs(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  static char why[160];
  const uint8_t *img[2] = {a, b};
  const size_t len[2] = {na, nb};
  uint64_t shoff[2];
  uint16_t shnum[2], shstr[2];
  for (int k = 0; k < 2; k++) {
    if (len[k] < 64) return "a cubin shorter than its ELF header";
    memcpy(&shoff[k], img[k] + 0x28, 8), memcpy(&shnum[k], img[k] + 0x3c, 2);
    memcpy(&shstr[k], img[k] + 0x3e, 2);
    if (shoff[k] > len[k] || (uint64_t)shnum[k] * 64 > len[k] - shoff[k] || shstr[k] >= shnum[k])
      return "section headers outside the cubin";
  }
  if (shnum[0] != shnum[1]) return "the number of sections";
  for (int i = 0; i < shnum[0]; i++) {
    uint32_t name[2], type[2];
    uint64_t off[2], size[2];
    const char *nm[2];
    for (int k = 0; k < 2; k++) {
      const uint8_t *h = img[k] + shoff[k] + 64u * (unsigned)i, *hs = img[k] + shoff[k] + 64u * shstr[k];
      uint64_t stroff;
      memcpy(&name[k], h, 4), memcpy(&type[k], h + 4, 4), memcpy(&off[k], h + 24, 8);
      memcpy(&size[k], h + 32, 8), memcpy(&stroff, hs + 24, 8);
      if (type[k] != 8 && (off[k] > len[k] || size[k] > len[k] - off[k])) return "a section outside the cubin";
      nm[k] = stroff + name[k] < len[k] ? (const char *)img[k] + stroff + name[k] : "";
    }
    const int note = !strncmp(nm[0], ".note", 5);
    if (strcmp(nm[0], nm[1]) || (!note && (type[0] != type[1] || size[0] != size[1]))) {
      snprintf(why, sizeof why, "section %d: %.60s / %.60s", i, nm[0], nm[1]);
      return why;
    }
    if (!note && type[0] != 8 && memcmp(a + off[0], b + off[1], size[0])) {
      snprintf(why, sizeof why, "section %.120s", nm[0]);
      return why;
    }
  }
  return NULL;
}

/* The cubins the build assembles from compute_80's PTX (sm_80, sm_86, sm_89:
** gen/ptxas.c) are NVRTC's code from the entry's own source, section for
** section: one entry of each family a pack, drawn afresh each run (the seed
** in a failure's message; KP_TEST_SEED=<seed> draws the same) */
START_TEST(test_cubins_nvrtc_code) {
  static const char *const route[] = {"sm_80", "sm_86", "sm_89"};
  const char *target = route[_i], *env = getenv("KP_TEST_SEED");
  const unsigned long long seed = env ? strtoull(env, NULL, 10) : (unsigned long long)time(NULL);
  kpk_pack pk;
  open_pack(&pk, target);
  for (int f = 0; f < KP_FAM_COUNT; f++) {
    uint32_t n = 0, pick = UINT32_MAX;
    for (uint32_t i = 0; i < pk.n_entries; i++)
      n += kp_family_from_name(pk.entries[i].family) == f;
    for (uint32_t i = 0, k = 0; i < pk.n_entries && n; i++)
      if (kp_family_from_name(pk.entries[i].family) == f && k++ == (seed + (unsigned)f) % n) pick = i;
    if (pick == UINT32_MAX) continue;
    const kpk_entry *e = &pk.entries[pick];
    size_t srclen, size;
    char *src = kpk_source_dup(&pk, pick, &srclen), *log, cu[300];
    ck_assert_ptr_nonnull(src);
    snprintf(cu, sizeof cu, "%s.cu", e->name);
    unsigned char *img;
    kg_compile_info info;
    const int rc = kg_nvrtc_compile(src, cu, target, &img, &size, &info, &log);
    ck_assert_msg(rc == 0, "%s: %s: NVRTC failed: %s", pk.path, e->name, log ? log : "");
    const char *why = elf_code_differs(pk.blobs + e->image_off, e->image_size, img, size);
    ck_assert_msg(why == NULL, "%s: %s (%s) is not NVRTC's code from its source: %s (seed %llu)",
                  pk.path, e->name, e->options, why, seed);
    free(img), free(log), free(src);
  }
  kpk_close(&pk);
}
END_TEST

/* The test environment itself: both variables set (a silent skip here would
** let `make test` pass without ever looking at the packs). */
START_TEST(test_environment) {
  need_env("KP_PACK_DIR");
  need_env("KP_TEMPLATE_DIR");
}
END_TEST

Suite *packs_built_suite(void) {
  Suite *s = suite_create("packs_built");
  TCase *tc = tcase_create("packs_built");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_environment);
  tcase_add_loop_test(tc, test_pack_opens_and_verifies, 0, N_TARGETS);
  tcase_add_loop_test(tc, test_image_kind, 0, N_TARGETS);
  tcase_add_loop_test(tc, test_every_declared_variant_present, 0, N_TARGETS);
  tcase_add_loop_test(tc, test_families_dtypes_fallback, 0, N_TARGETS);
  tcase_add_loop_test(tc, test_unaligned_rows_vectorised, 0, N_TARGETS);
  tcase_add_loop_test(tc, test_cubins_nvrtc_code, 0, 3);
  suite_add_tcase(s, tc);
  return s;
}
