/*
** check_regen.c -- the variant space beyond the default lists (family_space{}),
** `kpgen neighbours`, `kpgen extend` and `kp regen`.
**
** CPU: every template declares make and neighbours; make reproduces each
** default variant byte for byte; neighbours are legal, uniquely named and
** compile without spilling; an extended pack holds the old entries plus the
** new ones, verifies, and the ranking's picks do not change; `kp regen
** --dry-run` grows a pack without a GPU, and without one `kp regen` stops
** cleanly after checking its inputs.  GPU: one regen round on a small
** table, whose new table and pack load and whose choice computes correctly.
** Needs $KP_TEMPLATE_DIR and $KP_PACK_DIR (set by `make test`); kp and kpgen
** are found beside the test binary's directory (build/bin).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_suites.h"
#include "internal.h"
#include "nvrtc_compile.h"
#include "ops_cases.h"
#include "template.h"
#include "tune.h"

static const char *const FAMILIES[] = {"softmax", "rmsnorm", "add_rmsnorm", "swiglu",
                                       "geglu", "rmsnorm_swiglu", "rope"};
#define N_FAMILIES ((int)(sizeof FAMILIES / sizeof FAMILIES[0]))

static char err[8192];

static const char *env_dir(const char *name) {
  const char *v = getenv(name);
  ck_assert_msg(v && *v, "$%s is unset: run these tests through `make test`", name);
  return v;
}

static void load_family(kg_template *t, const char *family) {
  const char *dir = env_dir("KP_TEMPLATE_DIR");
  char tpl[1024], lib[1024];
  snprintf(tpl, sizeof tpl, "%s/%s.lua", dir, family);
  snprintf(lib, sizeof lib, "%s/kp_device.cuh", dir);
  ck_assert_msg(kg_template_load(t, tpl, lib, err, sizeof err) == 0, "%s", err);
}

/* build/bin/<name>, from the test binary at build/tests/. */
static void bin_path(const char *name, char *out, size_t n) {
  char exe[900];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  ck_assert(len > 0);
  exe[len] = 0;
  *strrchr(exe, '/') = 0;
  snprintf(out, n, "%s/../bin/%s", exe, name);
  ck_assert_msg(access(out, X_OK) == 0, "%s is missing: build with make first", out);
}

/* Run cmd through the shell; stdout and stderr into out; the exit status. */
static int sh(const char *cmd, char *out, size_t n) {
  char full[4200];
  snprintf(full, sizeof full, "%s 2>&1", cmd);
  FILE *p = popen(full, "r");
  ck_assert_ptr_nonnull(p);
  size_t got = fread(out, 1, n - 1, p);
  out[got] = 0;
  while (fread(full, 1, sizeof full, p) > 0) { /* drain */ }
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void tmpdir(char *out, size_t n) {
  snprintf(out, n, "/tmp/kp-regen-test-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(out));
}

static void rmtree(const char *dir) {
  char cmd[600], out[64];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  sh(cmd, out, sizeof out);
}

/* ---- the template side ------------------------------------------------------- */

/* Every template declares family_space{}, and make() on each default
** variant's params gives back that very variant (name and source, byte for
** byte: make checks that, else fails). */
START_TEST(test_make_reproduces_defaults) {
  kg_template t;
  load_family(&t, FAMILIES[_i]);
  ck_assert_msg(kg_template_has_space(&t), "%s declares no family_space{}", FAMILIES[_i]);
  int n = t.n_default;
  for (int i = 0; i < n; i++) {
    char params[1024];
    snprintf(params, sizeof params, "%s", t.v[i].e.params);
    int k = kg_template_make(&t, (kp_dtype)t.v[i].e.dtype, params, err, sizeof err);
    ck_assert_msg(k == i, "%s: make(%s) gave %d: %s", t.v[i].e.name, params, k, err);
  }
  ck_assert_int_eq(t.n, n); /* nothing new was made */
  kg_template_free(&t);
}
END_TEST

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

/* Neighbours of every default variant: some, legal (whole warps, <= 1024
** threads, 16-byte accesses at most, same dtype), named by the family and
** uniquely, each name <= 127 characters (a table's limit); made again from
** its own params, a new one comes back as itself.  One new neighbour per
** family compiles for sm_90a without spilling. */
START_TEST(test_neighbours_legal) {
  kg_template t;
  load_family(&t, FAMILIES[_i]);
  int n = t.n_default;
  for (int i = 0; i < n; i++) {
    int *idx, m;
    char params[1024];
    snprintf(params, sizeof params, "%s", t.v[i].e.params);
    ck_assert_msg(kg_template_neighbours(&t, (kp_dtype)t.v[i].e.dtype, params, &idx, &m, err,
                                         sizeof err) == 0, "%s", err);
    ck_assert_msg(m > 0, "%s has no neighbours", t.v[i].e.name);
    for (int k = 0; k < m; k++) {
      const kpk_entry *e = &t.v[idx[k]].e;
      ck_assert_int_ne(idx[k], i);
      ck_assert_uint_eq(e->dtype, t.v[i].e.dtype);
      ck_assert_msg(e->block >= 32 && e->block <= 1024 && e->block % 32 == 0, "%s: block %u",
                    e->name, e->block);
      ck_assert_msg(is_pow2(e->align) && e->align <= 16 &&
                        e->align >= kp_dtype_size((kp_dtype)e->dtype),
                    "%s: align %u", e->name, e->align);
      ck_assert_msg(!strncmp(e->name, t.family, strlen(t.family)), "%s", e->name);
      ck_assert_msg(strlen(e->name) < 128, "%s: name too long for a table", e->name);
    }
    free(idx);
  }
  ck_assert_msg(t.n > n, "%s: no neighbour outside the default list", t.family);
  for (int a = 0; a < t.n; a++)
    for (int b = a + 1; b < t.n; b++)
      ck_assert_msg(strcmp(t.v[a].e.name, t.v[b].e.name), "two variants named %s", t.v[a].e.name);
  for (int a = n; a < t.n; a++) {
    char params[1024];
    snprintf(params, sizeof params, "%s", t.v[a].e.params);
    ck_assert_int_eq(kg_template_make(&t, (kp_dtype)t.v[a].e.dtype, params, err, sizeof err), a);
  }
  /* the last one made: a neighbour of a neighbour-rich default */
  const kg_variant *v = &t.v[t.n - 1];
  unsigned char *img;
  size_t size;
  kg_compile_info info;
  char *log;
  ck_assert_msg(kg_nvrtc_compile(v->source, "nb.cu", "sm_90a", &img, &size, &info, &log) == 0,
                "%s: %s", v->e.name, log);
  ck_assert_msg(info.spill_stores + info.spill_loads == 0, "%s spills", v->e.name);
  ck_assert(memcmp(img, "\x7f" "ELF", 4) == 0);
  free(img);
  free(log);
  kg_template_free(&t);
}
END_TEST

/* Mistakes in family_space{} and in what make/neighbours do are reported at
** the template's file and line, or name the template and the params. */
static const char *const SPACE_HEAD =
    "family { name = 'x', signature = 'p' }\n"
    "local function emit(dt, p)\n"
    "  local name = 'x_' .. dt .. '_t' .. p.t\n"
    "  variant { name = name, dtype = dt, block = p.t, params = p,\n"
    "            source = name .. ' // u=' .. p.u }\n"
    "end\n"
    "emit('f32', { t = 32, u = 1 })\n";

static const struct {
  const char *tail, *params, *expect;
} SPACE_BAD[] = {
    {"family_space { make = 1, neighbours = function() end }\n", NULL,
     "x.lua:8: family_space: 'make' must be a function"},
    {"family_space { make = emit, neighbours = function() end, name_omits = { u = 3 } }\n", NULL,
     "x.lua:8: family_space: name_omits"},
    {"family_space { make = emit,\n"
     "  neighbours = function(dt, p) return { with(p, { t = 33 }) } end }\n",
     "t=32,u=1", "x.lua:4: variant 'x_f32_t33': block must be a multiple of 32"},
    {"family_space { make = emit,\n"
     "  neighbours = function(dt, p) return { with(p, { u = 2 }) } end }\n",
     "t=32,u=1", "x.lua: params {t=32,u=1} and {t=32,u=2} both make x_f32_t32"},
    {"family_space { make = function() end, neighbours = function() return {} end }\n",
     "t=32,u=1", "x.lua: make(f32, {t=32,u=1}) declared no variant"},
    {"family_space { make = function(dt, p) variant { name = 'x_other', dtype = dt, block = 32,\n"
     "  params = p, source = 'x_other' } end, neighbours = function() return {} end }\n",
     "t=32,u=1", "x.lua: make(f32, {t=32,u=1}) does not reproduce the default variant x_f32_t32 "
     "(it made x_other)"},
    {"family_space { make = emit, neighbours = function() return 3 end }\n", "t=32,u=1",
     "must return a list of params tables"},
    {"family_space { make = emit, neighbours = function() return {} end }\n", "t=32,u=1,bad",
     "x.lua: params 't=32,u=1,bad'"},
};

START_TEST(test_space_errors) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", SPACE_HEAD, SPACE_BAD[_i].tail);
  kg_template t;
  int rc = kg_template_load_string(&t, "x.lua", text, "", err, sizeof err);
  if (SPACE_BAD[_i].params && rc == 0) {
    int *idx = NULL, n;
    rc = kg_template_neighbours(&t, KP_F32, SPACE_BAD[_i].params, &idx, &n, err, sizeof err);
    free(idx);
    kg_template_free(&t);
  }
  ck_assert_int_eq(rc, -1);
  ck_assert_msg(strstr(err, SPACE_BAD[_i].expect) != NULL, "case %d: got '%s', want '%s'", _i,
                err, SPACE_BAD[_i].expect);
}
END_TEST

/* A param the name leaves out (name_omits) is appended for made variants,
** in the kernel symbol too; the default keeps its name. */
START_TEST(test_name_omits) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", SPACE_HEAD,
           "family_space { make = emit, name_omits = { u = 'u' },\n"
           "  neighbours = function(dt, p)\n"
           "    return steps(p, { u = { 1, 2, 4 }, t = { 32, 64 } }) end }\n");
  kg_template t;
  ck_assert_msg(kg_template_load_string(&t, "x.lua", text, "", err, sizeof err) == 0, "%s", err);
  int *idx, n;
  ck_assert_msg(kg_template_neighbours(&t, KP_F32, "t=32,u=1", &idx, &n, err, sizeof err) == 0,
                "%s", err);
  ck_assert_int_eq(n, 2);
  ck_assert_str_eq(t.v[idx[0]].e.name, "x_f32_t64_u1"); /* axes in sorted order: t, then u */
  ck_assert_str_eq(t.v[idx[1]].e.name, "x_f32_t32_u2");
  ck_assert_ptr_nonnull(strstr(t.v[idx[1]].source, "// variant x_f32_t32_u2: dtype=f32 t=32,u=2"));
  ck_assert_ptr_nonnull(strstr(t.v[idx[1]].source, "\nx_f32_t32_u2 // u=2"));
  ck_assert_str_eq(t.v[0].e.name, "x_f32_t32");
  free(idx);
  kg_template_free(&t);
}
END_TEST

/* ---- kpgen neighbours / extend ------------------------------------------------ */

/* Asking for the neighbours of a variant nobody declared fails, naming it. */
START_TEST(test_kpgen_unknown_variant) {
  char kpgen[1024], dir[64], cmd[4096], out[4096];
  bin_path("kpgen", kpgen, sizeof kpgen);
  tmpdir(dir, sizeof dir);
  snprintf(cmd, sizeof cmd, "%s neighbours %s/softmax.lua softmax_bf16_nope %s/src %s/sm_90a.kpk",
           kpgen, env_dir("KP_TEMPLATE_DIR"), dir, env_dir("KP_PACK_DIR"));
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, "softmax.lua: no variant 'softmax_bf16_nope' of family softmax"),
                "%s", out);
  rmtree(dir);
}
END_TEST

/* Index of the entry named name, or -1. */
static int find(const kpk_pack *pk, const char *name) {
  for (uint32_t i = 0; i < pk->n_entries; i++)
    if (!strcmp(pk->entries[i].name, name)) return (int)i;
  return -1;
}

/* The ranking's pick is the same entry (by name) in both packs at every
** column boundary of every entry, every alignment, and at rows on both sides
** of every min_rows. */
static void same_picks(const kpk_pack *a, const kpk_pack *b) {
  kp_devprops d = {90, 227 * 1024, 132};
  for (uint32_t i = 0; i < b->n_entries; i++) {
    const kpk_entry *e = &b->entries[i];
    int fam = kp_family_from_name(e->family);
    ck_assert_int_ge(fam, 0);
    uint64_t pts[] = {1, e->dmin[KP_COLS], e->dmax[KP_COLS], e->dmax[KP_COLS] + 1, 4097, 1u << 20};
    uint64_t rows[] = {1, e->dmin[KP_ROWS] ? e->dmin[KP_ROWS] - 1 : 7, e->dmin[KP_ROWS] ? e->dmin[KP_ROWS] : 1u << 20};
    for (int p = 0; p < 6; p++)
      for (int r = 0; r < 3; r++)
        for (uint32_t al = 1; al <= 16; al *= 2) {
          if (pts[p] > 2147483647ull || rows[r] < 1) continue;
          kp_call c = {(kp_family)fam, (kp_dtype)e->dtype, al, 0, {rows[r], pts[p], 1, 1}};
          int x = kp_select_variant(a, &c, &d, NULL, 0), y = kp_select_variant(b, &c, &d, NULL, 0);
          int same = x < 0 ? y < 0 : y >= 0 && !strcmp(a->entries[x].name, b->entries[y].name);
          ck_assert_msg(same, "%s %s %llu x %llu align %u: %s before, %s after", e->family,
                        kp_dtype_name((kp_dtype)e->dtype), (unsigned long long)rows[r],
                        (unsigned long long)pts[p], al, x < 0 ? "-" : a->entries[x].name,
                        y < 0 ? "-" : b->entries[y].name);
        }
  }
}

/* kpgen extend: the old entries first and unchanged, then the new ones,
** ranked below every entry of their family and dtype; `kp verify` passes and
** the ranking's picks are those of the old pack. */
START_TEST(test_extend_pack) {
  char kpgen[1024], kp[1024], dir[64], cmd[4096], out[8192], pack[1024], ext[200];
  bin_path("kpgen", kpgen, sizeof kpgen);
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  const char *tpl = env_dir("KP_TEMPLATE_DIR");
  snprintf(pack, sizeof pack, "%s/sm_90a.kpk", env_dir("KP_PACK_DIR"));
  snprintf(cmd, sizeof cmd, "%s neighbours %s/rmsnorm.lua rmsnorm_bf16_loop_t512_v8 %s/src %s",
           kpgen, tpl, dir, pack);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  ck_assert_msg(strstr(out, "rmsnorm_bf16_loop_t512_v8_u8 new"), "%s", out); /* unroll named */
  snprintf(ext, sizeof ext, "%s/ext.kpk", dir);
  snprintf(cmd, sizeof cmd, "%s extend %s %s %s %s/obj %s/src/*.cu", kpgen, pack, ext, tpl, dir,
           dir);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  snprintf(cmd, sizeof cmd, "%s verify %s", kp, ext);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);

  kpk_pack a, b;
  ck_assert_msg(kpk_open(&a, pack, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_msg(kpk_open(&b, ext, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_gt(b.n_entries, a.n_entries);
  for (uint32_t i = 0; i < a.n_entries; i++) {
    ck_assert_str_eq(a.entries[i].name, b.entries[i].name);
    ck_assert_uint_eq(a.entries[i].src_hash, b.entries[i].src_hash);
    ck_assert_uint_eq(a.entries[i].image_crc, b.entries[i].image_crc);
  }
  for (uint32_t i = a.n_entries; i < b.n_entries; i++) {
    const kpk_entry *e = &b.entries[i];
    ck_assert_int_lt(find(&a, e->name), 0);
    for (uint32_t k = 0; k < a.n_entries; k++)
      if (!strcmp(a.entries[k].family, e->family) && a.entries[k].dtype == e->dtype)
        ck_assert_int_lt(e->rank, a.entries[k].rank);
    ck_assert_uint_gt(e->regs, 0);
    ck_assert_ptr_nonnull(strstr(e->options, "sm_90a"));
    size_t n;
    char *src = kpk_source_dup(&b, i, &n);
    ck_assert_ptr_nonnull(strstr(src, e->name));
    ck_assert_uint_eq(kp_fnv1a64(src, n), e->src_hash);
    free(src);
  }
  same_picks(&a, &b);
  /* made again from its pack entry, a new variant's neighbours include the winner */
  snprintf(cmd, sizeof cmd, "%s neighbours %s/rmsnorm.lua rmsnorm_bf16_loop_t512_v8_u8 %s/src2 %s",
           kpgen, tpl, dir, ext);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  ck_assert_msg(strstr(out, "rmsnorm_bf16_loop_t512_v8 default\n"), "%s", out);
  kpk_close(&a);
  kpk_close(&b);
  rmtree(dir);
}
END_TEST

/* ---- kp regen ------------------------------------------------------------------- */

/* A small table for the sm_90a pack: softmax bf16 at two keys. */
static void write_table(const char *path, const char *extra) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "kernpack-tune 2\ndevice = NVIDIA H200\nsm = 90\nsm_count = 132\ndriver = 13000\n"
             "pack = sm_90a 0000000000000000\ndate = 2026-11-22T02:37:30Z\n"
             "softmax bf16 512x4096 16 softmax_bf16_block_t256_v8_n2 20.000\n"
             "softmax bf16 512x4096 16 softmax_bf16_loop_t512_v8 25.000\n"
             "softmax bf16 4096x1024 16 softmax_bf16_warp_v8_n4 30.000\n%s", extra);
  fclose(f);
}

/* --dry-run: one round of neighbours, compilation and packing without a
** GPU; the pack holds the old entries and the winners' new neighbours. */
START_TEST(test_regen_dry_run) {
  char kp[1024], dir[64], cmd[4096], out[16384], pack[1024], tbl[200], np[200];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  snprintf(pack, sizeof pack, "%s/sm_90a.kpk", env_dir("KP_PACK_DIR"));
  snprintf(tbl, sizeof tbl, "%s/t.tune", dir);
  snprintf(np, sizeof np, "%s/new.kpk", dir);
  write_table(tbl, "");
  snprintf(cmd, sizeof cmd, "%s regen %s --pack %s -o %s --dry-run --jobs 2", kp, tbl, pack, np);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  ck_assert_msg(strstr(out, "softmax_bf16_block_t256_v8_n2"), "%s", out);
  snprintf(cmd, sizeof cmd, "%s verify %s", kp, np);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  kpk_pack a, b;
  ck_assert(kpk_open(&a, pack, err, sizeof err) == KP_OK);
  ck_assert_msg(kpk_open(&b, np, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_gt(b.n_entries, a.n_entries);
  ck_assert_int_ge(find(&b, "softmax_bf16_block_t256_v8_n1"), (int)a.n_entries); /* nv - 1 */
  ck_assert_int_ge(find(&b, "softmax_bf16_warp_v8_n3"), (int)a.n_entries); /* nv - 1 */
  same_picks(&a, &b);
  kpk_close(&a);
  kpk_close(&b);
  rmtree(dir);
}
END_TEST

/* Bad input is reported (file:line for the table) before anything else; with
** good input and no usable GPU (device 99), kp regen stops saying so. */
START_TEST(test_regen_inputs) {
  char kp[1024], dir[64], cmd[4096], out[8192], pack[1024], tbl[200];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  snprintf(pack, sizeof pack, "%s/sm_90a.kpk", env_dir("KP_PACK_DIR"));
  snprintf(tbl, sizeof tbl, "%s/t.tune", dir);
  write_table(tbl, "softmax bf16 500x4096 16 softmax_bf16_loop_t512_v8 25.000\n");
  snprintf(cmd, sizeof cmd, "%s regen %s --pack %s -o %s/n.kpk --device 99", kp, tbl, pack, dir);
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, "t.tune:11: shape '500x4096': rows = 500 is not a power-of-two bucket"), "%s", out);
  write_table(tbl, "");
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, "kp regen: no usable GPU/driver (device 99)"), "%s", out);
  snprintf(cmd, sizeof cmd, "%s/n.kpk", dir);
  ck_assert_int_ne(access(cmd, F_OK), 0); /* nothing written */
  snprintf(cmd, sizeof cmd, "%s regen %s --pack %s/sm_80.kpk -o %s/n.kpk", kp, tbl,
           env_dir("KP_PACK_DIR"), dir);
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, "measured with a pack for sm_90a"), "%s", out);
  snprintf(cmd, sizeof cmd, "%s regen %s -o %s/n.kpk", kp, tbl, dir);
  ck_assert_int_eq(sh(cmd, out, sizeof out), 2);
  rmtree(dir);
}
END_TEST

/* kp warmup, the other end of the workflow: a bad shape list is refused with
** file:line before any device is touched, and -j takes no bad count. */
START_TEST(test_warmup_inputs) {
  char kp[1024], dir[64], cmd[4096], out[4096], shapes[200];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  snprintf(shapes, sizeof shapes, "%s/shapes", dir);
  FILE *f = fopen(shapes, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "# comment\nrmsnorm 4 4096\n\nsoftmax 0 7\n");
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s warmup %s", kp, shapes);
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, "shapes:4: expected 'softmax rows cols': rows = '0' is not a number"),
                "%s", out);
  snprintf(cmd, sizeof cmd, "%s warmup %s/none", kp, dir);
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, "none: cannot open"), "%s", out);
  snprintf(cmd, sizeof cmd, "%s warmup %s -j 0", kp, shapes);
  ck_assert_int_eq(sh(cmd, out, sizeof out), 2);
  ck_assert_msg(strstr(out, "bad option -j"), "%s", out);
  rmtree(dir);
}
END_TEST

/* ---- kp tune's shapes (no GPU: --list) ---------------------------------------------- */

/* Write text to DIR/shapes; the path in out. */
static void write_shapes(const char *dir, const char *text, char *out, size_t n) {
  snprintf(out, n, "%s/shapes", dir);
  FILE *f = fopen(out, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

/* Shape-file lines of every kind: row families as before, '*' for the row
** families only, gemm in m n k [batch] with both forms unless one is named,
** no f32 gemm (said once), attention in lq lk bh d [g]; each task's table
** key (m, batch, lq, lk, bh and g bucketed, the alignment the packed tensors
** have, the form). */
/* kp prune with an empty table keeps "the ranking's picks": so over random
** calls of every family (dims near and far from the entries' bounds, every
** dtype, alignment and form, the shared memory of each GPU class) the slim
** pack selects the variant the full one does (no-TMA and varlen attention
** forms fell to the scalar fallback when prune took forms 0 and 1 only). */
START_TEST(test_prune_keeps_picks) {
  char kp[1024], dir[64], cmd[4096], out[4096], full[1024], slim[200], table[200];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  /* (sm_80's cubin pack may hold the ranking's picks alone already:
  ** RANKED_ARCHS; compute_80 holds sm_80's space whole) */
  const char *target = _i ? "compute_80" : "sm_90a";
  snprintf(full, sizeof full, "%s/%s.kpk", env_dir("KP_PACK_DIR"), target);
  snprintf(table, sizeof table, "%s/empty.tune", dir);
  snprintf(slim, sizeof slim, "%s/slim.kpk", dir);
  FILE *f = fopen(table, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "kernpack-tune 2\ndevice = X\nsm = %d\nsm_count = 132\n", _i ? 80 : 90);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s prune %s %s -o %s", kp, table, full, slim);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  kpk_pack a, b;
  ck_assert_msg(kpk_open(&a, full, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_msg(kpk_open(&b, slim, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_msg(b.n_entries < a.n_entries,
                "%s: %u entries, the slim pack as many: it is to hold the whole space "
                "(make packs-whole: build/packs-whole), not the ranking's picks alone",
                full, a.n_entries);
  static const size_t smem[] = {99 * 1024, 163 * 1024, 227 * 1024};
  uint64_t r = 0x9E3779B97F4A7C15ull;
  int differ = 0;
  char first[300] = "";
  for (int n = 0; n < 20000; n++) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    kp_call c;
    memset(&c, 0, sizeof c);
    c.family = (kp_family)(r >> 33) % KP_FAM_COUNT;
    c.dtype = (kp_dtype)((r >> 40) % KP_DTYPE_COUNT_);
    c.align = 1u << ((r >> 44) % 5);
    /* the forms a call of the family can have: attention's bits, else its forms */
    c.form = (uint32_t)(r >> 48) %
             (c.family == KP_FAM_ATTENTION ? KPK_FORMS : kp_form_name(kp_family_name(c.family), 1) ? 2 : 1);
    const kp_dims *dn = kp_family_dims(c.family);
    for (int i = 0; i < KPK_DIMS; i++) {
      r = r * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t p2 = 1ull << ((r >> 35) % 18); /* near a power of two, or anywhere */
      const uint64_t v = (r >> 60) < 8 ? p2 + ((r >> 20) % 3) - 1 : 1 + (r >> 24) % 300000;
      c.dim[i] = i < dn->n ? (v ? v : 1) : 1;
    }
    if (c.family == KP_FAM_ATTENTION) c.dim[KP_AD] = 1 + (r >> 13) % 256;
    const kp_devprops d = {_i ? 80 : 90, smem[(r >> 8) % 3], 132};
    const int x = kp_select_variant(&a, &c, &d, NULL, 0), y = kp_select_variant(&b, &c, &d, NULL, 0);
    const char *nx = x < 0 ? "(none)" : a.entries[x].name, *ny = y < 0 ? "(none)" : b.entries[y].name;
    if (strcmp(nx, ny) && !differ++) {
      char dims[96];
      snprintf(first, sizeof first, "%s %s %s align %u form %u smem %zu: full %s, slim %s",
               kp_family_name(c.family), kp_dtype_name(c.dtype), kp_shape_str(&c, dims, sizeof dims),
               c.align, c.form, d.smem_optin, nx, ny);
    }
  }
  kpk_close(&a);
  kpk_close(&b);
  rmtree(dir);
  ck_assert_msg(!differ, "%s: %d of 20000 calls select differently; first: %s", target, differ, first);
}
END_TEST

START_TEST(test_tune_shape_file) {
  char kp[1024], dir[64], cmd[4096], out[16384], shapes[200];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  write_shapes(dir,
               "# family dims\n"
               "softmax 4 4096\n"
               "gemm 100 4096 4096 3   # m n k batch\n"
               "gemm/kn 1 11008 4096\n"
               "\n"
               "geglu/tanh 32 8192\n"
               "* 1 1024\n"
               "gemm/nk 7 13 9\n"
               "attention/full 1 30000 32 128 4\n"
               "attention/causal 1 8192 32 128\n",
               shapes, sizeof shapes);
  snprintf(cmd, sizeof cmd, "%s tune --shapes %s --list", kp, shapes);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  static const char *const want[] = {
      "softmax         f32  4x4096               key softmax f32 4x4096 16\n",
      "gemm/nk         bf16 100x4096x4096x3      key gemm bf16 128x4096x4096x4 16 nk\n",
      "gemm/kn         f16  100x4096x4096x3      key gemm f16 128x4096x4096x4 16 kn\n",
      "gemm/kn         bf16 1x11008x4096x1       key gemm bf16 1x11008x4096x1 16 kn\n",
      "geglu/tanh      bf16 32x8192              key geglu bf16 32x8192 16 tanh\n",
      "rope/gptj       f32  1x1024               key rope f32 1x1024 16 gptj\n",
      "gemm/nk         bf16 7x13x9x1             key gemm bf16 8x13x9x1 2 nk\n", /* rows of 18 bytes */
      "gemm takes no f32 inputs: f32 skipped for gemm\n",
      /* decode rows: the SMs on which the key takes +wave (8 and 32 tiles) */
      "attention/full  bf16 1x30000x32x128x4     key attention bf16 1x32768x32x128x4 16 full "
      "(+wave on >= 128 SMs)\n",
      "attention/causal f16  1x8192x32x128x1      key attention f16 1x8192x32x128x1 16 causal "
      "(+wave on >= 512 SMs)\n",
      /* 3 softmax + 4 + 2 gemm + 3 geglu/tanh + 9 x 3 from '*' + 2 gemm + 2 x 2 attention */
      "kp tune: 45 tasks\n"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    ck_assert_msg(strstr(out, want[i]), "no '%s' in:\n%s", want[i], out);
  ck_assert_msg(!strstr(out, "gemm/nk         f32") && !strstr(out, "geglu/erf       bf16 32x"), "%s", out);
  ck_assert_msg(!strstr(out, "gemm/nk         bf16 1x1024"), "'*' must not give gemm shapes:\n%s", out);
  rmtree(dir);
}
END_TEST

/* Each bad line is refused with file:line and what is wrong, before any
** device is touched. */
static const struct {
  const char *line, *expect;
} SHAPES_BAD[] = {
    {"gemm 128 4096\n", "shapes:2: expected 'gemm[/nk|/kn] m n k [batch]', got 2 numbers"},
    {"gemm 128 4096 4096 2 5\n", "shapes:2: expected 'gemm[/nk|/kn] m n k [batch]', got 5 numbers"},
    {"gemm/tn 1 2 3\n", "shapes:2: 'tn' is not a form of gemm (nk, kn; each also +terms)"},
    {"gemm/nk+terms 1 2 3\n", "shapes:2: gemm/nk+terms: kp tune times plain calls (D = A B), nk and kn only"},
    {"softmax/tanh 1 2\n", "shapes:2: 'tanh' is not a form of softmax (it has none)"},
    {"gemm 0 4096 4096\n", "shapes:2: expected 'gemm[/nk|/kn] m n k [batch]': m = '0' is not a number"},
    {"gemm 1 4096 4096x\n", "shapes:2: expected 'gemm[/nk|/kn] m n k [batch]': k = '4096x' is not a number"},
    {"gemm 1 4096 3000000000\n", "shapes:2: expected 'gemm[/nk|/kn] m n k [batch]': k = '3000000000'"},
    {"* 1 2 3\n", "shapes:2: expected '* rows cols', got 3 numbers"},
    {"*/nk 1 2\n", "shapes:2: '*/nk': '*' takes no form"},
    {"conv2d 1 2\n", "shapes:2: unknown family 'conv2d' (softmax, "},
    {"attention 1 2\n", "shapes:2: expected 'attention[/full|/causal] lq lk bh d [g]', got 2 numbers"},
    {"attention 1 8192 32 128 3\n", "shapes:2: expected 'attention[/full|/causal] lq lk bh d [g]': g = 3 does not divide bh = 32"},
    {"geglu 7\n", "shapes:2: expected 'geglu[/erf|/tanh] rows cols', got 1 number"},
    {"gemm 65536 65536 65536 16\n", "shapes:2: gemm: a tensor of 68719476736 elements: too large"},
};

START_TEST(test_tune_shape_errors) {
  char kp[1024], dir[64], cmd[4096], out[8192], shapes[200], text[256];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  snprintf(text, sizeof text, "softmax 4 4096\n%s", SHAPES_BAD[_i].line);
  write_shapes(dir, text, shapes, sizeof shapes);
  snprintf(cmd, sizeof cmd, "%s tune --shapes %s --list", kp, shapes);
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, SHAPES_BAD[_i].expect), "line '%s': no '%s' in:\n%s", SHAPES_BAD[_i].line,
                SHAPES_BAD[_i].expect, out);
  snprintf(cmd, sizeof cmd, "%s tune --shapes %s --device 99", kp, shapes); /* before the GPU */
  ck_assert_int_eq(sh(cmd, out, sizeof out), 1);
  ck_assert_msg(strstr(out, SHAPES_BAD[_i].expect) && !strstr(out, "device"), "%s", out);
  rmtree(dir);
}
END_TEST

/* The built-in list: gemm's 6 m x 4 (k, n) + 8192^3 in nk, 3 m x 2 (k, n) in
** kn, f16 and bf16 each; the row families' list as before (27 shapes per
** family but RoPE's 8, GeGLU and RoPE in both forms). */
START_TEST(test_tune_builtin) {
  char kp[1024], cmd[4096];
  static char out[1 << 17];
  bin_path("kp", kp, sizeof kp);
  snprintf(cmd, sizeof cmd, "%s tune --list --families gemm", kp);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  ck_assert_msg(strstr(out, "kp tune: 62 tasks\n"), "%s", out);
  static const char *const want[] = {
      "gemm/nk         bf16 1x4096x4096x1        key gemm bf16 1x4096x4096x1 16 nk\n",
      "gemm/nk         f16  16x11008x4096x1      key gemm f16 16x11008x4096x1 16 nk\n",
      "gemm/nk         bf16 64x14336x4096x1      key gemm bf16 64x14336x4096x1 16 nk\n",
      "gemm/nk         bf16 512x4096x11008x1     key gemm bf16 512x4096x11008x1 16 nk\n",
      "gemm/nk         bf16 4096x14336x4096x1    key gemm bf16 4096x14336x4096x1 16 nk\n",
      "gemm/nk         f16  8192x8192x8192x1     key gemm f16 8192x8192x8192x1 16 nk\n",
      "gemm/kn         bf16 128x11008x4096x1     key gemm bf16 128x11008x4096x1 16 kn\n",
      "gemm/kn         f16  4096x4096x4096x1     key gemm f16 4096x4096x4096x1 16 kn\n",
      "gemm takes no f32 inputs"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    ck_assert_msg(strstr(out, want[i]), "no '%s' in:\n%s", want[i], out);
  ck_assert_msg(!strstr(out, "gemm/kn         bf16 16x"), "%s", out);
  snprintf(cmd, sizeof cmd, "%s tune --list --families gemm --dtypes bf16 --shard 1/2", kp);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  ck_assert_msg(strstr(out, "kp tune: 15 tasks (this shard)\n"), "%s", out);
  /* 6 row families x 27 x 3 dtypes + geglu's second form; rope 8 x 2 forms x 3 */
  snprintf(cmd, sizeof cmd, "%s tune --list --families softmax,rmsnorm,add_rmsnorm,swiglu,geglu,"
           "rmsnorm_swiglu,rope", kp);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  ck_assert_msg(strstr(out, "kp tune: 615 tasks\n"), "%s", out);
}
END_TEST

/* kp regen takes a table's gemm keys too: the gemm template declares no
** variant space, so (said once) a key is re-timed over the table's variants
** within 3% of its winner; an f32 gemm row and one too large to re-time are
** ignored with file:line. */
START_TEST(test_regen_gemm_keys) {
  char kp[1024], dir[64], cmd[4096], out[16384], pack[1024], tbl[200], np[200];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  snprintf(pack, sizeof pack, "%s/sm_90a.kpk", env_dir("KP_PACK_DIR"));
  snprintf(tbl, sizeof tbl, "%s/t.tune", dir);
  snprintf(np, sizeof np, "%s/new.kpk", dir);
  kpk_pack a;
  ck_assert(kpk_open(&a, pack, err, sizeof err) == KP_OK);
  const char *g[3] = {NULL, NULL, NULL};
  int ng = 0;
  for (uint32_t i = 0; i < a.n_entries && ng < 3; i++)
    if (!strcmp(a.entries[i].family, "gemm") && a.entries[i].dtype == KP_BF16) g[ng++] = a.entries[i].name;
  ck_assert_msg(ng == 3, "the sm_90a pack has %d bf16 gemm variants", ng);
  char extra[2048];
  snprintf(extra, sizeof extra,
           "gemm bf16 128x4096x4096x1 16 %s 50.000\n"
           "gemm bf16 128x4096x4096x1 16 %s 51.000\n" /* within 3%%: re-timed */
           "gemm bf16 128x4096x4096x1 16 %s 60.000\n" /* not */
           "gemm bf16 4096x11008x4096x1 16 %s 300.000 kn\n"
           "gemm f32 128x4096x4096x1 16 %s 50.000\n"
           "gemm bf16 65536x65536x8192x1 16 %s 9000.000\n",
           g[0], g[1], g[2], g[2], g[0], g[0]);
  write_table(tbl, extra);
  snprintf(cmd, sizeof cmd, "%s regen %s --pack %s -o %s --dry-run --jobs 2 --families gemm", kp, tbl,
           pack, np);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  char want[4][300];
  snprintf(want[0], sizeof want[0], "%-15s %-4s %-17s %-36s %3d candidates", "gemm/nk", "bf16",
           "128x4096x4096x1", g[0], 2);
  snprintf(want[1], sizeof want[1], "%-15s %-4s %-17s %-36s %3d candidates", "gemm/kn", "bf16",
           "4096x11008x4096x1", g[2], 1);
  snprintf(want[2], sizeof want[2], "t.tune:15: gemm takes no f32 inputs: row ignored");
  snprintf(want[3], sizeof want[3], "t.tune:16: gemm 65536x65536x8192x1 is too large to re-time");
  for (int i = 0; i < 4; i++) ck_assert_msg(strstr(out, want[i]), "no '%s' in:\n%s", want[i], out);
  const char *once = strstr(out, "declares no variant space");
  ck_assert_msg(once && !strstr(once + 1, "declares no variant space"), "%s", out);
  ck_assert_msg(strstr(out, "kp regen: ") && strstr(out, ": 2 keys,"), "%s", out);
  kpk_pack b;
  ck_assert_msg(kpk_open(&b, np, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(b.n_entries, a.n_entries); /* nothing new: no neighbours */
  kpk_close(&b);
  kpk_close(&a);
  rmtree(dir);
}
END_TEST

/* ---- on a GPU ------------------------------------------------------------------- */

/* One regen round for rmsnorm bf16 at one shape, from a table kp tune
** measures first: the new table and pack load (the table beside the pack, as
** the runtime finds it), the call runs the table's choice and matches
** float64, and so does every new variant that applies, forced. */
START_TEST(test_regen_round_gpu) {
  char kp[1024], dir[64], cmd[4096], out[16384], shapes[200], tbl[200], pack[700];
  bin_path("kp", kp, sizeof kp);
  tmpdir(dir, sizeof dir);
  kp_ctx *probe = NULL;
  ck_assert_msg(kp_ctx_create(NULL, &probe) == KP_OK, "%s", kp_ctx_errmsg(probe));
  snprintf(pack, sizeof pack, "%s", probe->pack.path);
  char target[16];
  snprintf(target, sizeof target, "%s", probe->pack.target);
  uint32_t old_n = probe->pack.n_entries;
  kp_ctx_destroy(probe);

  snprintf(shapes, sizeof shapes, "%s/shapes", dir);
  snprintf(tbl, sizeof tbl, "%s/t.tune", dir);
  FILE *f = fopen(shapes, "w");
  ck_assert_ptr_nonnull(f);
  /* two keys: at 8K columns the winner's neighbours are never all in the
  ** default pack (n3, n6, 1024 threads), so the round always adds variants */
  fprintf(f, "rmsnorm 512 4096\nrmsnorm 512 8192\n");
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s tune --families rmsnorm --dtypes bf16 --shapes %s --pack %s -o %s",
           kp, shapes, pack, tbl);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  snprintf(cmd, sizeof cmd,
           "mkdir -p %s/packs && %s regen %s --pack %s -o %s/packs/%s.kpk --rounds 1", dir, kp,
           tbl, pack, dir, target);
  ck_assert_msg(sh(cmd, out, sizeof out) == 0, "%s", out);
  fprintf(stderr, "regen_round_gpu:\n%s", out);

  char packdir[200];
  snprintf(packdir, sizeof packdir, "%s/packs", dir);
  setenv("KP_PACK_DIR", packdir, 1);
  unsetenv("KP_TUNE_FILE");
  gpu g;
  gpu_open(&g, "regen_round", 0);
  ck_assert_msg(g.ctx->tune != NULL, "the new table beside %s was not loaded", g.ctx->pack.path);
  ck_assert_uint_gt(g.ctx->pack.n_entries, old_n);
  kp_call c = {KP_FAM_RMSNORM, KP_BF16, 16, 0, {512, 4096, 1, 1}};
  char why[900];
  int e = kp_explain(g.ctx, &c, why, sizeof why);
  ck_assert_msg(e >= 0, "%s", why);
  fprintf(stderr, "regen_round_gpu: runs %s because %s\n", g.ctx->pack.entries[e].name, why);
  for (int k = 0; k < 2; k++) {
    shape s = {512, k ? 8192 : 4096, 0, 0, 0, 0};
    c.dim[KP_COLS] = (uint64_t)s.cols;
    rmsnorm_case(&g, KP_BF16, &s);
    for (uint32_t i = old_n; i < g.ctx->pack.n_entries; i++) {
      const kpk_entry *x = &g.ctx->pack.entries[i];
      if (strcmp(x->family, "rmsnorm") || x->dtype != KP_BF16 ||
          !kp_entry_applies(x, &c, &g.ctx->props, NULL, 0))
        continue;
      kp_force_variant((int)i);
      rmsnorm_case(&g, KP_BF16, &s);
      kp_force_variant(-1);
    }
  }
  gpu_close(&g);
  rmtree(dir);
}
END_TEST

Suite *regen_suite(void) {
  Suite *s = suite_create("regen");
  TCase *tc = tcase_create("space");
  tcase_add_loop_test(tc, test_make_reproduces_defaults, 0, N_FAMILIES);
  tcase_add_loop_test(tc, test_neighbours_legal, 0, N_FAMILIES);
  tcase_add_loop_test(tc, test_space_errors, 0, (int)(sizeof SPACE_BAD / sizeof SPACE_BAD[0]));
  tcase_add_test(tc, test_name_omits);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  TCase *tp = tcase_create("tools");
  tcase_add_test(tp, test_kpgen_unknown_variant);
  tcase_add_test(tp, test_extend_pack);
  tcase_add_test(tp, test_regen_dry_run);
  tcase_add_test(tp, test_regen_inputs);
  tcase_add_test(tp, test_warmup_inputs);
  tcase_add_test(tp, test_tune_shape_file);
  tcase_add_loop_test(tp, test_prune_keeps_picks, 0, 2);
  tcase_add_loop_test(tp, test_tune_shape_errors, 0, (int)(sizeof SHAPES_BAD / sizeof SHAPES_BAD[0]));
  tcase_add_test(tp, test_tune_builtin);
  tcase_add_test(tp, test_regen_gemm_keys);
  tcase_set_timeout(tp, 300);
  suite_add_tcase(s, tp);
  KP_GPU_TCASE(tg, "regen_gpu");
  KP_ADD_GPU_TEST(tg, test_regen_round_gpu);
  suite_add_tcase(s, tg);
  return s;
}
