/*
** check_jit.c -- run-time compilation and the disk cache: key sensitivity,
** cache hits, 8 processes racing for one entry, damaged entries, unusable
** cache directories (all without a GPU: NVRTC needs none); and on a GPU,
** JIT from a pack without cubins for the device, strict mode, and a tuning
** table steering the choice.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_suites.h"
#include "gpu_harness.h"
#include "internal.h"
#include "jit.h"
#include "reference.h"
#include "tune.h"

static char err[8192];

/* A real variant's source from the built compute_80 pack. */
static char *variant_source(const char *name, size_t *len) {
  const char *dir = getenv("KP_PACK_DIR");
  ck_assert_msg(dir != NULL, "KP_PACK_DIR must point at the built packs");
  char path[1024];
  snprintf(path, sizeof path, "%s/compute_80.kpk", dir);
  kpk_pack pk;
  ck_assert_msg(kpk_open(&pk, path, err, sizeof err) == KP_OK, "%s", err);
  char *src = NULL;
  for (uint32_t i = 0; i < pk.n_entries && !src; i++)
    if (!strcmp(pk.entries[i].name, name)) src = kpk_source_dup(&pk, i, len);
  kpk_close(&pk);
  ck_assert_msg(src != NULL, "variant %s not in %s", name, path);
  return src;
}

static void fresh_cache(char *dir, size_t n) {
  snprintf(dir, n, "/tmp/kp_cache_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  setenv("KP_CACHE_DIR", dir, 1);
}

#define VARIANT "softmax_bf16_warp_v8_n1"

/* First use from PTX (jit.h): compute_80..90 PTX for an sm_80..sm_9x device,
** compute_100 PTX for sm_100 or sm_110, or compute_103 / compute_120 /
** compute_121 PTX for its own GPU, qualifies unless the source tests
** __CUDA_ARCH__ (other than to guard the PDL instructions, as
** kp_device.cuh does); other pairs (NVVM's PTX differs), cubin packs and
** KP_JIT=nvrtc do not. */
START_TEST(test_ptx_route_rule) {
  const char *plain = "extern \"C\" __global__ void k(float *p) { *p = 1.f; }\n";
  const char *arch = "#if __CUDA_ARCH__ >= 900\n#endif\nextern \"C\" __global__ void k() {}\n";
  size_t n = strlen(plain);
  unsetenv("KP_JIT");
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_90", plain, n), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_86", plain, n), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_100", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_120", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_90", "sm_80", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_100", "sm_100", plain, n), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_100", "sm_103", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_103", "sm_103", plain, n), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_103", "sm_110", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_103", "sm_100", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_100", "sm_110", plain, n), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_100", "sm_121", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_100", "sm_120", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_100", "sm_90", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_120", "sm_120", plain, n), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_121", "sm_121", plain, n), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_120", "sm_121", plain, n), 0); /* other SASS */
  ck_assert_int_eq(kp_jit_ptx_ok("compute_121", "sm_120", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_103", "sm_120", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_120", "sm_100", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("sm_80", "sm_90", plain, n), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_90", arch, strlen(arch)), 0);
  const char *pdl = "#if __CUDA_ARCH__ >= 900\n  asm volatile(\"griddepcontrol.wait;\");\n#endif\n"
                    "#if __CUDA_ARCH__ >= 900\n  asm volatile(\"griddepcontrol.launch_dependents;\");\n"
                    "#endif\nextern \"C\" __global__ void k() {}\n";
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_90", pdl, strlen(pdl)), 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_100", pdl, strlen(pdl)), 0);
  char both[300]; /* the PDL guard and another test: not the same code */
  snprintf(both, sizeof both, "%s%s", pdl, arch);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_90", both, strlen(both)), 0);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_90", arch, 25), 0); /* a guard cut short */
  setenv("KP_JIT", "nvrtc", 1);
  ck_assert_int_eq(kp_jit_ptx_ok("compute_80", "sm_90", plain, n), 0);
  unsetenv("KP_JIT");
  /* the packs: PTX entries by their source, cubin entries never, none past the end */
  const char *targets[] = {"compute_80", "sm_90a"};
  for (int t = 0; t < 2; t++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.kpk", getenv("KP_PACK_DIR"), targets[t]);
    kpk_pack pk;
    ck_assert_msg(kpk_open(&pk, path, err, sizeof err) == KP_OK, "%s", err);
    for (uint32_t i = 0; i < pk.n_entries; i++) {
      size_t len;
      char *src = kpk_source_dup(&pk, i, &len);
      ck_assert_ptr_nonnull(src);
      ck_assert_int_eq(kp_jit_from_ptx(&pk, i, "sm_90"),
                       pk.entries[i].is_ptx && kp_jit_ptx_ok(pk.target, "sm_90", src, len));
      ck_assert_int_eq(kp_jit_from_ptx(&pk, i, "sm_100"), 0);
      /* the row families' sources are the same for every target: a mention
      ** of the architecture macro (in kp_device.cuh, say) would send their
      ** first use on sm_80..sm_9x to NVRTC */
      const int f = kp_family_from_name(pk.entries[i].family);
      if (pk.entries[i].is_ptx && f != KP_FAM_GEMM && f != KP_FAM_ATTENTION)
        ck_assert_msg(kp_jit_from_ptx(&pk, i, "sm_90"), "%s: not on the PTX route",
                      pk.entries[i].name);
      free(src);
    }
    ck_assert_int_eq(kp_jit_from_ptx(&pk, pk.n_entries, "sm_90"), 0);
    kpk_close(&pk);
  }
}
END_TEST

/* The key changes with the source and the exact target, and only with them. */
START_TEST(test_key_sensitivity) {
  size_t n;
  char *src = variant_source(VARIANT, &n);
  char k1[40], k2[40], k3[40], k4[40], k5[40];
  ck_assert_msg(kp_jit_key(src, n, "sm_90a", k1, err, sizeof err) == KP_OK, "%s", err);
  ck_assert(kp_jit_key(src, n, "sm_90a", k2, err, sizeof err) == KP_OK);
  ck_assert_str_eq(k1, k2);                     /* deterministic */
  setenv("KP_CACHE_DIR", "/somewhere/else", 1); /* paths do not enter the key */
  ck_assert(kp_jit_key(src, n, "sm_90a", k2, err, sizeof err) == KP_OK);
  ck_assert_str_eq(k1, k2);
  ck_assert(kp_jit_key(src, n, "sm_90", k3, err, sizeof err) == KP_OK);
  ck_assert(kp_jit_key(src, n, "compute_90", k4, err, sizeof err) == KP_OK);
  ck_assert_str_ne(k1, k3);
  ck_assert_str_ne(k1, k4);
  ck_assert_str_ne(k3, k4);
  src[n / 2] ^= 1; /* one bit of the source (the pasted device library included) */
  ck_assert(kp_jit_key(src, n, "sm_90a", k5, err, sizeof err) == KP_OK);
  ck_assert_str_ne(k1, k5);
  free(src);
}
END_TEST

/* First use compiles and stores; the second is a cache hit with the same image. */
START_TEST(test_compile_then_hit) {
  char dir[64];
  fresh_cache(dir, sizeof dir);
  size_t n;
  char *src = variant_source(VARIANT, &n);
  kp_jit_out a, b;
  ck_assert_msg(kp_jit_get(NULL, VARIANT, src, n, "sm_90", &a, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_int_eq(a.from_cache, 0);
  ck_assert(memcmp(a.image, "\x7f" "ELF", 4) == 0);
  ck_assert_str_ne(a.path, "");
  ck_assert_int_eq(access(a.path, R_OK), 0);
  ck_assert(kp_jit_get(NULL, VARIANT, src, n, "sm_90", &b, err, sizeof err) == KP_OK);
  ck_assert_int_eq(b.from_cache, 1);
  ck_assert_uint_eq(a.size, b.size);
  ck_assert(memcmp(a.image, b.image, a.size) == 0);
  free(a.image);
  free(b.image);
  free(src);
}
END_TEST

/* 8 processes asking for the same entry at once: exactly one compiles, all
** get the same valid image, and no temporary or corrupt file is left. */
START_TEST(test_concurrent_processes) {
  char dir[64];
  fresh_cache(dir, sizeof dir);
  size_t n;
  char *src = variant_source(VARIANT, &n);
  enum { P = 8 };
  pid_t pids[P];
  for (int i = 0; i < P; i++) {
    pids[i] = fork();
    if (pids[i] == 0) {
      kp_jit_out o;
      char e[4096];
      if (kp_jit_get(NULL, VARIANT, src, n, "sm_86", &o, e, sizeof e) != KP_OK) _exit(3);
      if (memcmp(o.image, "\x7f" "ELF", 4)) _exit(4);
      _exit(o.from_cache ? 0 : 1); /* 1 = this process compiled it */
    }
  }
  int compiled = 0;
  for (int i = 0; i < P; i++) {
    int st;
    waitpid(pids[i], &st, 0);
    ck_assert(WIFEXITED(st));
    ck_assert_msg(WEXITSTATUS(st) <= 1, "child %d failed with %d", i, WEXITSTATUS(st));
    compiled += WEXITSTATUS(st);
  }
  ck_assert_int_eq(compiled, 1);
  kp_jit_out o;
  ck_assert(kp_jit_get(NULL, VARIANT, src, n, "sm_86", &o, err, sizeof err) == KP_OK);
  ck_assert_int_eq(o.from_cache, 1);
  char cmd[200];
  snprintf(cmd, sizeof cmd, "ls %s/v1/sm_86 | grep -c tmp", dir);
  FILE *p = popen(cmd, "r");
  int tmps = -1;
  ck_assert_int_eq(fscanf(p, "%d", &tmps), 1);
  pclose(p);
  ck_assert_int_eq(tmps, 0);
  free(o.image);
  free(src);
}
END_TEST

/* A corrupted or truncated entry fails its check and is rebuilt. */
START_TEST(test_damaged_entries) {
  char dir[64];
  fresh_cache(dir, sizeof dir);
  size_t n;
  char *src = variant_source(VARIANT, &n);
  kp_jit_out o;
  ck_assert(kp_jit_get(NULL, VARIANT, src, n, "sm_89", &o, err, sizeof err) == KP_OK);
  char path[700];
  snprintf(path, sizeof path, "%s", o.path);
  size_t size = o.size;
  free(o.image);
  FILE *f = fopen(path, "r+b"); /* flip one byte of the image */
  fseek(f, 100, SEEK_SET);
  int c = fgetc(f);
  fseek(f, 100, SEEK_SET);
  fputc(c ^ 0x40, f);
  fclose(f);
  ck_assert(kp_jit_get(NULL, VARIANT, src, n, "sm_89", &o, err, sizeof err) == KP_OK);
  ck_assert_int_eq(o.from_cache, 0);
  free(o.image);
  ck_assert_int_eq(truncate(path, (off_t)(size / 2)), 0);
  ck_assert(kp_jit_get(NULL, VARIANT, src, n, "sm_89", &o, err, sizeof err) == KP_OK);
  ck_assert_int_eq(o.from_cache, 0);
  ck_assert_uint_eq(o.size, size);
  free(o.image);
  ck_assert(kp_jit_get(NULL, VARIANT, src, n, "sm_89", &o, err, sizeof err) == KP_OK);
  ck_assert_int_eq(o.from_cache, 1); /* and the rebuilt entry is good */
  free(o.image);
  free(src);
}
END_TEST

/* A source that is not NUL-terminated (as in a pack, where the next blob
** follows) compiles: only srclen bytes are read. */
START_TEST(test_unterminated_source) {
  char dir[64];
  fresh_cache(dir, sizeof dir);
  size_t n;
  char *src = variant_source(VARIANT, &n);
  char *buf = malloc(n + 8);
  memcpy(buf, src, n);
  memcpy(buf + n, "\x7f" "ELF!@#$", 8); /* what follows a source in a pack: an image */
  kp_jit_out o;
  ck_assert_msg(kp_jit_get(NULL, VARIANT, buf, n, "sm_90", &o, err, sizeof err) == KP_OK, "%s", err);
  free(o.image);
  free(buf);
  free(src);
}
END_TEST

/* A cache directory that cannot exist still compiles, in memory; a broken
** source reports NVRTC's log. */
START_TEST(test_unusable_cache_and_errors) {
  setenv("KP_CACHE_DIR", "/dev/null/kernpack", 1);
  size_t n;
  char *src = variant_source(VARIANT, &n);
  kp_jit_out o;
  ck_assert_msg(kp_jit_get(NULL, VARIANT, src, n, "sm_80", &o, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_int_eq(o.from_cache, 0);
  ck_assert_str_eq(o.path, "");
  free(o.image);
  const char *bad = "extern \"C\" __global__ void k() { undefined_thing(); }";
  ck_assert_int_eq(kp_jit_get(NULL, "broken", bad, strlen(bad), "sm_80", &o, err, sizeof err), KP_ERR_CUDA);
  ck_assert_ptr_nonnull(strstr(err, "broken.cu"));
  free(src);
}
END_TEST

/* ---- on a GPU ----------------------------------------------------------------- */

static kp_ctx *ctx_with_pack(const char *target, int no_jit, kp_status *st) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.kpk", getenv("KP_PACK_DIR"), target);
  kp_options o;
  kp_options_init(&o);
  o.pack_path = path;
  o.no_jit = no_jit;
  kp_ctx *ctx = NULL;
  *st = kp_ctx_create(&o, &ctx);
  return ctx;
}

/* One bf16 RMSNorm of (rows, cols) through `ctx`, checked against float64. */
static void rmsnorm_case(gpu *g, kp_ctx *ctx, int64_t rows, int64_t cols, const char *what) {
  gpu_case(g, "%s rmsnorm bf16 %lldx%lld", what, (long long)rows, (long long)cols);
  ht x, y, w;
  ht_make(g, &x, KP_BF16, rows, cols, cols, 0, KP_POISON);
  ht_make(g, &w, KP_BF16, 1, cols, cols, 0, KP_POISON);
  ht_make(g, &y, KP_BF16, rows, cols, cols, 0, KP_POISON);
  ht_fill_uniform(g, &x, -2, 2);
  ht_fill_uniform(g, &w, 0.5, 1.5);
  hb_upload(g, &x.b);
  hb_upload(g, &w.b);
  hb_upload(g, &y.b);
  double *ref = malloc(sizeof(double) * (size_t)(rows * cols));
  for (int64_t r = 0; r < rows; r++)
    ref_rmsnorm_row(x.val + r * cols, w.val, ref + r * cols, cols, 1e-6);
  if (gpu_op_ok(g, kp_rmsnorm(ctx, KP_BF16, ht_dev(&x), cols, ht_dev(&w), ht_dev(&y), cols, rows,
                              cols, 1e-6f, g->stream), what)) {
    gpu_sync(g, what);
    ht_check_output(g, &y, "y", ref, NULL, 1.6e-2);
  }
  free(ref);
  ht_free(g, &x);
  ht_free(g, &w);
  ht_free(g, &y);
}

/* A pack whose cubins cannot run here (sm_80 on a Hopper) is JIT-compiled
** from its sources for the exact device target, and computes correctly. */
START_TEST(test_gpu_jit_from_source) {
  gpu g;
  gpu_open(&g, "jit_from_source", 0);
  char dir[64];
  fresh_cache(dir, sizeof dir);
  kp_status st;
  kp_ctx *ctx = ctx_with_pack("sm_80", 0, &st);
  ck_assert_msg(st == KP_OK, "%s: %s", kp_status_name(st), kp_ctx_errmsg(ctx));
  kp_device_info di;
  ck_assert(kp_ctx_device_info(ctx, &di) == KP_OK);
  if (di.sm / 10 == 8) { /* on an Ampere/Ada the sm_80 cubins run: nothing to JIT */
    kp_ctx_destroy(ctx);
    gpu_close(&g);
    return;
  }
  char want[16];
  snprintf(want, sizeof want, "sm_%d", di.sm);
  ck_assert_str_eq(di.target, want);
  static const int64_t shapes[][2] = {{1, 7}, {64, 4096}, {3, 65537}};
  for (int s = 0; s < 3; s++) rmsnorm_case(&g, ctx, shapes[s][0], shapes[s][1], "JIT");
  kp_ctx_destroy(ctx);
  gpu_close(&g);
}
END_TEST

/* Files under dir (recursively), to tell whether NVRTC wrote cache entries. */
static int count_files(const char *dir) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "find '%s' -type f -name '*.bin' | wc -l", dir);
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p && fscanf(p, "%d", &n) != 1) n = -1;
  if (p) pclose(p);
  return n;
}

/* The PTX pack on an sm_80..sm_9x GPU: first use goes through the driver's
** compilation of the pack's PTX (no NVRTC, nothing in the cache) and computes
** correctly; with KP_JIT=nvrtc (and on Blackwell) the same calls compile the
** sources and fill the cache. */
START_TEST(test_gpu_jit_from_ptx) {
  gpu g;
  gpu_open(&g, "jit_from_ptx", 0);
  static const int64_t shapes[][2] = {{1, 7}, {64, 4096}, {3, 65537}};
  for (int nvrtc = 0; nvrtc < 2; nvrtc++) {
    char dir[64];
    fresh_cache(dir, sizeof dir);
    if (nvrtc) setenv("KP_JIT", "nvrtc", 1);
    else unsetenv("KP_JIT");
    kp_status st;
    kp_ctx *ctx = ctx_with_pack("compute_80", 0, &st);
    ck_assert_msg(st == KP_OK, "%s: %s", kp_status_name(st), kp_ctx_errmsg(ctx));
    kp_device_info di;
    ck_assert(kp_ctx_device_info(ctx, &di) == KP_OK);
    int ptx = !nvrtc && di.sm < 100;
    for (int s = 0; s < 3; s++)
      rmsnorm_case(&g, ctx, shapes[s][0], shapes[s][1], ptx ? "JIT (PTX)" : "JIT (NVRTC)");
    kp_ctx_destroy(ctx);
    int files = count_files(dir);
    if (!ptx) ck_assert_msg(files > 0, "NVRTC route: no cache entry in %s", dir);
    else ck_assert_msg(files == 0, "PTX route: %d NVRTC cache entries in %s", files, dir);
  }
  unsetenv("KP_JIT");
  gpu_close(&g);
}
END_TEST

/* Strict mode refuses to compile and says so. */
START_TEST(test_gpu_strict_mode) {
  gpu g;
  gpu_open(&g, "strict_mode", 0);
  kp_status st;
  kp_ctx *ctx = ctx_with_pack("sm_80", 1, &st);
  kp_device_info di;
  if (kp_ctx_device_info(ctx, &di) == KP_OK && di.sm / 10 == 8) {
    kp_ctx_destroy(ctx);
    gpu_close(&g);
    return;
  }
  ck_assert_msg(st == KP_ERR_UNSUPPORTED, "%s: %s", kp_status_name(st), kp_ctx_errmsg(ctx));
  ck_assert_ptr_nonnull(strstr(kp_ctx_errmsg(ctx), "disabled"));
  kp_ctx_destroy(ctx);
  setenv("KP_NO_JIT", "1", 1);
  ctx = ctx_with_pack("sm_80", 0, &st);
  ck_assert_int_eq(st, KP_ERR_UNSUPPORTED);
  kp_ctx_destroy(ctx);
  unsetenv("KP_NO_JIT");
  gpu_close(&g);
}
END_TEST

/* A tuning table naming a non-default variant steers the choice, and a
** table from another device is ignored.  The variant it names is one the
** call can run besides the ranking's pick, found in the pack: a name
** written here went stale when the rankings moved (the loop it named was
** given a column range). */
START_TEST(test_gpu_table_steers) {
  gpu g;
  gpu_open(&g, "table_steers", 0);
  kp_device_info di;
  ck_assert(kp_ctx_device_info(g.ctx, &di) == KP_OK);
  const kp_call c = {KP_FAM_SOFTMAX, KP_BF16, 16, 0, {100, 8192, 1, 1}};
  const kpk_pack *pk = &g.ctx->pack;
  const int pick = kp_select_variant(pk, &c, &g.ctx->props, NULL, 0);
  ck_assert_int_ge(pick, 0);
  const char *other_name = NULL;
  for (uint32_t i = 0; i < pk->n_entries && !other_name; i++)
    if ((int)i != pick && kp_entry_applies(&pk->entries[i], &c, &g.ctx->props, NULL, 0))
      other_name = pk->entries[i].name;
  ck_assert_msg(other_name, "no softmax bf16 variant besides %s runs 100 x 8192",
                pk->entries[pick].name);
  char path[] = "/tmp/kp_tbl_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fdopen(fd, "w");
  fprintf(f, "kernpack-tune 2\ndevice = %s\nsm = %d\nsm_count = %d\n"
             "softmax bf16 128x8192 16 %s 1.0\n"
             "softmax bf16 128x8192 16 %s 2.0\n",
          di.name, di.sm, di.sm_count, other_name, pk->entries[pick].name);
  fclose(f);
  for (int other = 0; other < 2; other++) {
    if (other) { /* the same table, claimed by another device */
      f = fopen(path, "w");
      fprintf(f, "kernpack-tune 2\ndevice = Some Other GPU\nsm = %d\nsm_count = 7\n"
                 "softmax bf16 128x8192 16 %s 1.0\n", di.sm, other_name);
      fclose(f);
    }
    kp_options o;
    kp_options_init(&o);
    o.tune_path = path;
    kp_ctx *ctx = NULL;
    kp_status st = kp_ctx_create(&o, &ctx);
    ck_assert_msg(st == KP_OK, "%s", kp_ctx_errmsg(ctx));
    char why[1024];
    int e = kp_explain(ctx, &c, why, sizeof why);
    ck_assert_int_ge(e, 0);
    if (!other) {
      ck_assert_str_eq(ctx->pack.entries[e].name, other_name);
      ck_assert_ptr_nonnull(strstr(why, "exact key"));
    } else {
      ck_assert_str_ne(ctx->pack.entries[e].name, other_name);
      ck_assert_ptr_nonnull(strstr(why, "ranking"));
    }
    kp_ctx_destroy(ctx);
  }
  unlink(path);
  gpu_close(&g);
}
END_TEST

/* Online tuning: the first call with a new key times the candidates on its
** own arguments, still computes the right result, and leaves the timings in
** the table file, which the next context then uses as an exact key. */
START_TEST(test_gpu_online_autotune) {
  gpu g;
  gpu_open(&g, "online_autotune", 0);
  char dir[64];
  fresh_cache(dir, sizeof dir);
  char table[128];
  snprintf(table, sizeof table, "%s/online.tune", dir);
  kp_options o;
  kp_options_init(&o);
  o.autotune = 1;
  o.tune_path = table;
  kp_ctx *ctx = NULL;
  kp_status st = kp_ctx_create(&o, &ctx);
  ck_assert_msg(st == KP_OK, "%s", kp_ctx_errmsg(ctx));
  const int64_t rows = 96;
  rmsnorm_case(&g, ctx, rows, 4096, "autotuned");
  kp_ctx_destroy(ctx);
  /* the file holds the key, and a fresh context decides by it */
  kp_options_init(&o);
  o.tune_path = table;
  ck_assert(kp_ctx_create(&o, &ctx) == KP_OK);
  ck_assert_ptr_nonnull(ctx->tune);
  ck_assert_uint_ge(ctx->tune->n, 2);
  kp_call c = {KP_FAM_RMSNORM, KP_BF16, 16, 0, {(uint64_t)rows, 4096, 1, 1}};
  char why[1024];
  ck_assert_int_ge(kp_explain(ctx, &c, why, sizeof why), 0);
  ck_assert_msg(strstr(why, "exact key") != NULL, "%s", why);
  kp_ctx_destroy(ctx);
  gpu_close(&g);
}
END_TEST

/* The pack a device loads from a directory of the default build's packs
** (kp_best_pack_in: its names alone): its cubin pack, else the PTX pack
** whose PTX is its own (first use by ptxas), else the newest PTX pack. */
START_TEST(test_pack_choice) {
  char dir[] = "/tmp/kp_packs_XXXXXX", path[1024];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  static const char *const names[] = {"sm_80", "sm_86", "sm_89", "sm_90a", "sm_120",
                                      "compute_80", "compute_100", "compute_103"};
  for (int i = 0; i < 8; i++) {
    snprintf(path, sizeof path, "%s/%s.kpk", dir, names[i]);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
  }
  static const struct { int sm; const char *pack; int score; } want[] = {
      {90, "sm_90a", 0},       {86, "sm_86", 1},        {87, "sm_86", 2},
      {120, "sm_120", 1},      {121, "sm_120", 2},      {100, "compute_100", 3},
      {103, "compute_103", 3}, {110, "compute_100", 3}, {101, "compute_100", 3},
      {75, NULL, -1}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    path[0] = 0;
    const int sc = kp_best_pack_in(dir, want[i].sm, path, sizeof path);
    ck_assert_msg(sc == want[i].score, "sm_%d: score %d", want[i].sm, sc);
    if (want[i].pack) {
      char end[64];
      snprintf(end, sizeof end, "/%s.kpk", want[i].pack);
      ck_assert_msg(strlen(path) > strlen(end) && !strcmp(path + strlen(path) - strlen(end), end),
                    "sm_%d loads %s, not %s", want[i].sm, path, want[i].pack);
    }
  }
  /* with the optional compute_120 / compute_121 PTX packs beside them: an
  ** sm_120 / sm_121 still loads the sm_120 cubins; without those, each its
  ** own PTX (its route), not the newest */
  static const char *const more[] = {"compute_120", "compute_121"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s.kpk", dir, more[i]);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
  }
  ck_assert_int_eq(kp_best_pack_in(dir, 120, path, sizeof path), 1);
  ck_assert_msg(strstr(path, "/sm_120.kpk") != NULL, "sm_120 loads %s", path);
  ck_assert_int_eq(kp_best_pack_in(dir, 121, path, sizeof path), 2);
  ck_assert_msg(strstr(path, "/sm_120.kpk") != NULL, "sm_121 loads %s", path);
  ck_assert_int_eq(kp_best_pack_in(dir, 103, path, sizeof path), 3);
  ck_assert_msg(strstr(path, "/compute_103.kpk") != NULL, "sm_103 loads %s", path);
  snprintf(path, sizeof path, "%s/sm_120.kpk", dir);
  ck_assert_int_eq(unlink(path), 0);
  ck_assert_int_eq(kp_best_pack_in(dir, 120, path, sizeof path), 3);
  ck_assert_msg(strstr(path, "/compute_120.kpk") != NULL, "sm_120 loads %s", path);
  ck_assert_int_eq(kp_best_pack_in(dir, 121, path, sizeof path), 3);
  ck_assert_msg(strstr(path, "/compute_121.kpk") != NULL, "sm_121 loads %s", path);
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s.kpk", dir, more[i]);
    ck_assert_int_eq(unlink(path), 0);
  }
  /* without its cubin pack an sm_90 takes compute_80's PTX */
  snprintf(path, sizeof path, "%s/sm_90a.kpk", dir);
  ck_assert_int_eq(unlink(path), 0);
  ck_assert_int_eq(kp_best_pack_in(dir, 90, path, sizeof path), 3);
  ck_assert_msg(strstr(path, "/compute_80.kpk") != NULL, "sm_90 loads %s", path);
  for (int i = 0; i < 8; i++) {
    snprintf(path, sizeof path, "%s/%s.kpk", dir, names[i]);
    unlink(path);
  }
  ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *jit_suite(void) {
  Suite *s = suite_create("jit");
  TCase *tc = tcase_create("cache");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_key_sensitivity);
  tcase_add_test(tc, test_ptx_route_rule);
  tcase_add_test(tc, test_pack_choice);
  tcase_add_test(tc, test_compile_then_hit);
  tcase_add_test(tc, test_concurrent_processes);
  tcase_add_test(tc, test_damaged_entries);
  tcase_add_test(tc, test_unusable_cache_and_errors);
  tcase_add_test(tc, test_unterminated_source);
  suite_add_tcase(s, tc);
  KP_GPU_TCASE(gt, "jit_gpu");
  KP_ADD_GPU_TEST(gt, test_gpu_jit_from_source);
  KP_ADD_GPU_TEST(gt, test_gpu_jit_from_ptx);
  KP_ADD_GPU_TEST(gt, test_gpu_strict_mode);
  KP_ADD_GPU_TEST(gt, test_gpu_table_steers);
  KP_ADD_GPU_TEST(gt, test_gpu_online_autotune);
  suite_add_tcase(s, gt);
  return s;
}
