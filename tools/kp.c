/*
** kp.c -- the kernpack command-line tool: what is installed, what a pack
** holds, and whether packs are intact.
**
**   kp info               library, driver, devices, packs found
**   kp list PACK [--json] every variant of a pack
**   kp verify PACK...     checksums of every entry, no spilling variants
**
** Exit status: 0 ok, 1 failure, 2 usage.  Errors name the file.
*/
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "kernpack.h"
#include "kp_cmds.h"
#include "pack.h"

#define EXIT_USAGE 2
#define ANY_COLS 2147483647ull /* kernels index columns with int: "no upper bound" */

static const char usage_main[] =
    "usage: kp COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  info                 library version, CUDA driver and devices, packs found\n"
    "  list PACK [--json]   every kernel variant in a pack\n"
    "  verify PACK...       check every entry's checksums and that nothing spills\n"
    "  tune [OPTIONS]       time every variant on a GPU and write the tuning table\n"
    "  explain FAMILY RxC DTYPE  which variant a call runs, and why\n"
    "  prune TABLE PACK -o NEW   a slim pack: the table's winners plus the ranking's picks\n"
    "  merge -o OUT TABLE...     merge tuning tables\n"
    "  warmup SHAPES        load/JIT-compile ahead of time what a shape list needs\n"
    "  regen TABLE --pack PACK -o NEW  search the variants around the table's winners\n"
    "\n"
    "`kp COMMAND --help` describes one command.  Exit status: 0 ok, 1 failure, 2 usage.\n";

static const char usage_info[] =
    "usage: kp info\n"
    "Print the library version, the CUDA driver status, every device (name, SM,\n"
    "SM count, shared memory, L2) and the packs in the pack directory, which is\n"
    "$KP_PACK_DIR, else <dir of kp>/../packs, else <dir of kp>/../share/kernpack/packs.\n"
    "A missing driver is reported, not an error: the exit status is still 0.\n";

static const char usage_list[] =
    "usage: kp list PACK [--json]\n"
    "Print every variant of PACK (a .kpk file): family, dtype, name, params,\n"
    "dims (in the family's dimensions: ranges such as cols=1..2048 or rows>=16384,\n"
    "multiples such as k%8, the tiles the grid counts, persistent/cluster), alignment\n"
    "(2r8: 2-byte aligned calls, ranked for those aligned to at most 8 bytes),\n"
    "rank, block, shared memory, registers, stack, spills and image, then a count\n"
    "per family and dtype.  (Forms, when set, are in params: form=...)\n"
    "--json prints a JSON array with one object per variant instead.\n";

static const char usage_verify[] =
    "usage: kp verify PACK...\n"
    "Open each pack, check the checksums of every entry's image and source, that\n"
    "no entry spills registers and that each image is a cubin (ELF) or PTX text.\n"
    "Prints OK or the problems per file; exit status 1 if any file has a problem.\n";

__attribute__((format(printf, 2, 3))) static int usage_error(const char *text, const char *fmt,
                                                              ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "kp: ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", text);
  return EXIT_USAGE;
}

/* 1 if any argument asks for help: it wins over everything else. */
static int wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 1;
  return 0;
}

/* Copy of s for a terminal: control bytes from an untrusted pack become '?'
** (a pack must not be able to send escape sequences). */
static const char *clean(const char *s, char *buf, size_t n) {
  size_t i = 0;
  for (; s[i] && i + 1 < n; i++)
    buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7F ? '?' : s[i];
  buf[i] = 0;
  return buf;
}

/* ---- pack directory -------------------------------------------------------- */

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Directory holding the running kp binary (via /proc, so PATH lookups work). */
static int exe_dir(char *out, size_t n) {
  ssize_t len = readlink("/proc/self/exe", out, n);
  if (len <= 0 || (size_t)len >= n) return -1; /* n bytes read: maybe truncated */
  out[len] = 0;
  char *slash = strrchr(out, '/');
  if (!slash) return -1;
  *slash = 0;
  return 0;
}

/* The pack directory kp searches; *how says why it was chosen. */
static int pack_dir(char *out, size_t n, const char **how) {
  const char *env = getenv("KP_PACK_DIR");
  if (env && *env) {
    snprintf(out, n, "%s", env);
    *how = "from $KP_PACK_DIR";
    return 0;
  }
  char bin[512];
  if (exe_dir(bin, sizeof bin)) {
    *how = "cannot locate the kp binary";
    return -1;
  }
  static const char *const rel[] = {"../packs", "../share/kernpack/packs"};
  static const char *const why[] = {"next to the kp binary", "installed location"};
  for (int i = 0; i < 2; i++) {
    char p[1024], real[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", bin, rel[i]);
    snprintf(out, n, "%s", realpath(p, real) ? real : p); /* "bin/../packs" reads badly */
    *how = why[i];
    if (is_dir(out)) return 0;
  }
  return 0; /* the installed location, even if missing: info says so */
}

/* ---- kp info ------------------------------------------------------------------ */

static void print_device(kp_ctx *ctx, int ordinal) {
  kp_device_info di;
  kp_status s = kp_ctx_device_info(ctx, &di);
  if (s != KP_OK) {
    printf("  device %d: %s: %s\n", ordinal, kp_status_name(s), kp_ctx_errmsg(ctx));
    return;
  }
  printf("  device %d: %s\n", di.ordinal, di.name);
  printf("    SM %d.%d, %d SMs, smem %zu KiB/block (opt-in) %zu KiB/SM, L2 %zu KiB\n",
         di.sm / 10, di.sm % 10, di.sm_count, di.smem_per_block_optin / 1024,
         di.smem_per_sm / 1024, di.l2_bytes / 1024);
  printf("    pack target %s, pack %s\n", di.target[0] ? di.target : "(none)",
         di.pack_path[0] ? di.pack_path : "(none)");
}

/* One ctx per device: the ctx is what applications get, so its errors are
** exactly the ones they would see. */
static void info_devices(const char *dir) {
  kp_status ds;
  char derr[256];
  int count = 1, ver = 0;
  const kp_driver *d = kp_driver_load(&ds, derr, sizeof derr);
  if (d && (d->cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1)) count = 1;
  if (d && d->cuDriverGetVersion(&ver) == CUDA_SUCCESS)
    printf("driver:   CUDA %d.%d, %d device%s\n", ver / 1000, ver % 1000 / 10, count,
           count == 1 ? "" : "s");
  for (int dev = 0; dev < count; dev++) {
    kp_options o;
    kp_options_init(&o);
    o.device = dev;
    o.pack_dir = dir;
    kp_ctx *ctx = NULL;
    kp_status s = kp_ctx_create(&o, &ctx);
    if (s != KP_OK && !d)
      printf("driver:   unavailable: %s: %s\n", kp_status_name(s), kp_ctx_errmsg(ctx));
    else if (s != KP_OK)
      printf("  device %d: %s: %s\n", dev, kp_status_name(s), kp_ctx_errmsg(ctx));
    else
      print_device(ctx, dev);
    kp_ctx_destroy(ctx);
  }
}

static int has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted *.kpk names in dir; NULL and *n = -1 if it cannot be read. */
static char **list_kpk(const char *dir, int *n) {
  DIR *dp = opendir(dir);
  *n = -1;
  if (!dp) return NULL;
  char **names = NULL;
  int cnt = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(dp))) {
    if (!has_suffix(de->d_name, ".kpk")) continue;
    if (cnt == cap) {
      cap = cap ? cap * 2 : 16;
      char **nn = realloc(names, (size_t)cap * sizeof *nn);
      if (!nn) break;
      names = nn;
    }
    if (!(names[cnt] = strdup(de->d_name))) break;
    cnt++;
  }
  closedir(dp);
  if (cnt) qsort(names, (size_t)cnt, sizeof *names, cmp_names);
  *n = cnt;
  return names;
}

static void info_packs(const char *dir) {
  int n;
  char **names = list_kpk(dir, &n);
  if (n < 0) {
    printf("  (cannot read %s: %s)\n", dir, strerror(errno));
    return;
  }
  if (n == 0) printf("  (no .kpk files)\n");
  for (int i = 0; i < n; i++) {
    char path[PATH_MAX + 256], err[640];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]); /* dir < PATH_MAX, name < 256 */
    kpk_pack pk;
    char shown[256], buf[640];
    clean(names[i], shown, sizeof shown);
    if (kpk_open(&pk, path, err, sizeof err) == KP_OK)
      printf("  %-16s target %-10s NVRTC %u.%u, %u entries\n", shown,
             clean(pk.target, buf, sizeof buf), pk.toolkit / 1000, pk.toolkit % 1000 / 10,
             pk.n_entries);
    else
      printf("  %-16s %s\n", shown, clean(err, buf, sizeof buf));
    kpk_close(&pk);
    free(names[i]);
  }
  free(names);
}

static int cmd_info(int argc, char **argv) {
  if (wants_help(argc, argv)) {
    fputs(usage_info, stdout);
    return 0;
  }
  if (argc > 1) return usage_error(usage_info, "info: unexpected argument '%s'", argv[1]);
  printf("kernpack: library %s (built against header %s)\n", kp_version(), KP_VERSION_STRING);
  char dir[PATH_MAX];
  const char *how;
  int have_dir = pack_dir(dir, sizeof dir, &how) == 0;
  info_devices(have_dir ? dir : NULL);
  if (!have_dir) {
    printf("packs:    no pack directory (%s; set KP_PACK_DIR)\n", how);
    return 0;
  }
  printf("packs:    %s (%s)\n", dir, how);
  info_packs(dir);
  return 0;
}

/* ---- kp list ------------------------------------------------------------------ */

static const char *dtype_str(uint32_t dt) {
  const char *s = kp_dtype_name((kp_dtype)dt);
  return s ? s : "?";
}

/* Each dimension with a bound, multiple or tile, in the entry's own dims:
** "rows>=16384 cols=1..2048 tile(rows=4)" or "m=1..16 k%8 tile(n=64,batch=1)";
** "-" when none. */
static void dims_str(const kpk_entry *e, char *out, size_t n) {
  kp_dims d;
  size_t len = 0;
  out[0] = 0;
  if (kp_dims_parse(e->dims, &d, NULL, 0)) d.n = 0; /* the reader refuses such a pack */
#define PUT_(...) do { int w_ = snprintf(out + len, len < n ? n - len : 0, __VA_ARGS__); \
                       if (w_ > 0) len += (size_t)w_; } while (0)
  for (int i = 0; i < d.n; i++) {
    int lo = e->dmin[i] > 1, hi = e->dmax[i] && e->dmax[i] < ANY_COLS;
    if (lo && hi) PUT_("%s%s=%" PRIu64 "..%" PRIu64, len ? " " : "", d.name[i], e->dmin[i], e->dmax[i]);
    else if (lo) PUT_("%s%s>=%" PRIu64, len ? " " : "", d.name[i], e->dmin[i]);
    else if (hi) PUT_("%s%s<=%" PRIu64, len ? " " : "", d.name[i], e->dmax[i]);
    if (e->dmult[i] > 1) PUT_("%s%s%%%u", len ? " " : "", d.name[i], e->dmult[i]);
  }
  int first = 1;
  for (int i = 0; i < d.n; i++)
    if (e->tile[i]) {
      PUT_("%s%s%s=%u", first ? (len ? " tile(" : "tile(") : ",", "", d.name[i], e->tile[i]);
      first = 0;
    }
  if (!first) PUT_(")");
  if (e->persist) PUT_(" persistent=%u", e->persist);
  if (e->cluster > 1) PUT_(" cluster=%u", e->cluster);
  if (e->split > 1) PUT_(" split=%u", e->split);
#undef PUT_
  if (!len && n) snprintf(out, n, "-");
}

static void print_table(const kpk_pack *pk) {
  int wn = 4, wp = 6, wd = 4;
  char dims[256];
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    int ln = (int)strlen(pk->entries[i].name), lp = (int)strlen(pk->entries[i].params);
    dims_str(&pk->entries[i], dims, sizeof dims);
    if (ln > wn) wn = ln;
    if (lp > wp) wp = lp;
    if ((int)strlen(dims) > wd) wd = (int)strlen(dims);
  }
  printf("%-14s %-5s %-*s %-*s %-*s %6s %6s %5s %6s %4s %5s %9s %s\n", "family", "dtype", wn,
         "name", wp, "params", wd, "dims", "align", "rank", "block", "smem", "regs", "stack",
         "spills", "image");
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    char spills[24], fam[256], name[512], params[1024], align[24];
    dims_str(e, dims, sizeof dims);
    snprintf(spills, sizeof spills, "%u/%u", e->spill_stores, e->spill_loads);
    if (e->max_align) snprintf(align, sizeof align, "%ur%u", e->align, e->max_align); /* "2r8" */
    else snprintf(align, sizeof align, "%u", e->align);
    printf("%-14s %-5s %-*s %-*s %-*s %6s %6d %5u %6u %4u %5u %9s %s %" PRIu64 "\n",
           clean(e->family, fam, sizeof fam), dtype_str(e->dtype), wn,
           clean(e->name, name, sizeof name), wp,
           e->params[0] ? clean(e->params, params, sizeof params) : "-", wd, dims, align,
           e->rank, e->block, e->smem, e->regs, e->stack, spills, e->is_ptx ? "ptx" : "cubin",
           e->image_size);
  }
}

/* One line per family x dtype, families in pack order. */
static void print_summary(const kpk_pack *pk) {
  printf("\n");
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    int seen = 0;
    for (uint32_t j = 0; j < i && !seen; j++)
      seen = strcmp(pk->entries[j].family, e->family) == 0;
    if (seen) continue;
    char fam[256];
    printf("%-14s", clean(e->family, fam, sizeof fam));
    for (uint32_t dt = 0; dt < KP_DTYPE_COUNT_; dt++) {
      int cnt = 0;
      for (uint32_t j = i; j < pk->n_entries; j++)
        cnt += pk->entries[j].dtype == dt && strcmp(pk->entries[j].family, e->family) == 0;
      printf("  %s: %2d", dtype_str(dt), cnt);
    }
    printf("\n");
  }
  char target[16];
  printf("%s: target %s, NVRTC %u.%u, %u variants\n", pk->path, clean(pk->target, target, 16),
         pk->toolkit / 1000, pk->toolkit % 1000 / 10, pk->n_entries);
}

/* Length of the valid UTF-8 sequence at s, 0 if invalid: pack strings are
** untrusted bytes, and JSON output must be UTF-8. */
static int utf8_len(const unsigned char *s) {
  int n;
  if (s[0] >= 0xC2 && s[0] <= 0xDF) n = 2;
  else if (s[0] >= 0xE0 && s[0] <= 0xEF) n = 3;
  else if (s[0] >= 0xF0 && s[0] <= 0xF4) n = 4;
  else return 0;
  for (int i = 1; i < n; i++) /* stops at the NUL, which is no continuation */
    if ((s[i] & 0xC0) != 0x80) return 0;
  if (s[0] == 0xE0 && s[1] < 0xA0) return 0;  /* overlong */
  if (s[0] == 0xED && s[1] >= 0xA0) return 0; /* UTF-16 surrogate */
  if (s[0] == 0xF0 && s[1] < 0x90) return 0;  /* overlong */
  if (s[0] == 0xF4 && s[1] >= 0x90) return 0; /* beyond U+10FFFF */
  return n;
}

static void json_str(const char *key, const char *v) {
  printf("\"%s\": \"", key);
  for (const unsigned char *s = (const unsigned char *)v; *s;) {
    int n = *s < 0x80 ? 1 : utf8_len(s);
    if (*s == '"' || *s == '\\') printf("\\%c", *s);
    else if (*s < 0x20 || *s == 0x7F) printf("\\u%04x", *s);
    else if (n) fwrite(s, 1, (size_t)n, stdout);
    else fputs("\\ufffd", stdout);
    s += n ? n : 1;
  }
  printf("\"");
}

static void json_entry(const kpk_entry *e) {
  const char *keys[] = {"family", "dtype", "name",    "entry",
                        "params", "signature", "options", "dims"};
  const char *vals[] = {e->family, dtype_str(e->dtype), e->name, e->entry, e->params,
                        e->signature, e->options, e->dims};
  printf("  {");
  for (int k = 0; k < 8; k++) {
    if (k) printf(", ");
    json_str(keys[k], vals[k]);
  }
  const char *arr[] = {"min", "max", "mult", "tile"};
  for (int a = 0; a < 4; a++) {
    printf(", \"%s\": [", arr[a]);
    for (int d = 0; d < KPK_DIMS; d++)
      printf("%s%" PRIu64, d ? ", " : "",
             a == 0 ? e->dmin[d] : a == 1 ? e->dmax[d] : a == 2 ? (uint64_t)e->dmult[d] : (uint64_t)e->tile[d]);
    printf("]");
  }
  printf(", \"align\": %u, \"max_align\": %u", e->align, e->max_align);
  printf(", \"min_sm\": %u, \"max_sm\": %u, \"rank\": %d, \"block\": %u", e->min_sm,
         e->max_sm, e->rank, e->block);
  /* the form masks as strings of hex digits, as the hash below */
  printf(", \"persistent\": %u, \"cluster\": %u, \"split\": %u, \"aux\": %u, \"forms\": "
         "\"%" PRIx64 "\", \"prefer_forms\": \"%" PRIx64 "\", \"prefer_rank\": %d, \"rate\": %u",
         e->persist, e->cluster, e->split, e->aux, e->forms, e->prefer_forms, e->prefer_rank,
         e->rate);
  printf(", \"smem\": %u, \"regs\": %u, \"stack\": %u", e->smem, e->regs, e->stack);
  printf(", \"spill_stores\": %u, \"spill_loads\": %u", e->spill_stores, e->spill_loads);
  /* the hash as a string: JSON numbers lose precision above 2^53 */
  printf(", \"image_kind\": \"%s\", \"image_size\": %" PRIu64 ", \"src_size\": %" PRIu64
         ", \"src_hash\": \"%016" PRIx64 "\"}",
         e->is_ptx ? "ptx" : "cubin", e->image_size, e->src_size, e->src_hash);
}

static int cmd_list(int argc, char **argv) {
  if (wants_help(argc, argv)) {
    fputs(usage_list, stdout);
    return 0;
  }
  const char *path = NULL;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = 1;
    else if (argv[i][0] == '-' && argv[i][1]) return usage_error(usage_list, "list: unknown option '%s'", argv[i]);
    else if (path) return usage_error(usage_list, "list: more than one pack given ('%s')", argv[i]);
    else path = argv[i];
  }
  if (!path) return usage_error(usage_list, "list: no pack given");
  kpk_pack pk;
  char err[640];
  if (kpk_open(&pk, path, err, sizeof err) != KP_OK) {
    char buf[640];
    fprintf(stderr, "kp: %s\n", clean(err, buf, sizeof buf));
    kpk_close(&pk);
    return 1;
  }
  if (json) {
    printf("[");
    for (uint32_t i = 0; i < pk.n_entries; i++) {
      printf(i ? ",\n" : "\n");
      json_entry(&pk.entries[i]);
    }
    printf("\n]\n");
  } else {
    print_table(&pk);
    print_summary(&pk);
  }
  kpk_close(&pk);
  return 0;
}

/* ---- kp verify ---------------------------------------------------------------- */

/* Problems with entry i (checksums, spills, image kind), each printed. */
static int verify_entry(const kpk_pack *pk, uint32_t i) {
  const kpk_entry *e = &pk->entries[i];
  char err[640], buf[640], name[256];
  int bad = 0;
  if (kpk_check_entry(pk, i, err, sizeof err) != KP_OK) {
    printf("  %s\n", clean(err, buf, sizeof buf));
    bad++;
  }
  clean(e->name, name, sizeof name);
  if (e->spill_stores || e->spill_loads) {
    printf("  pack %s: entry %u (%s) spills registers: %u bytes stored, %u loaded\n", pk->path,
           i, name, e->spill_stores, e->spill_loads);
    bad++;
  }
  if (!e->is_ptx && (e->image_size < 4 || memcmp(pk->blobs + e->image_off, "\x7f" "ELF", 4))) {
    printf("  pack %s: entry %u (%s) image is not a cubin (no ELF magic)\n", pk->path, i, name);
    bad++;
  }
  return bad;
}

static int verify_one(const char *path) {
  kpk_pack pk;
  char err[640];
  if (kpk_open(&pk, path, err, sizeof err) != KP_OK) {
    char buf[640];
    printf("  %s\n%s: FAILED\n", clean(err, buf, sizeof buf), path); /* problems, then verdict */
    kpk_close(&pk);
    return 1;
  }
  int bad = 0;
  if (pk.n_entries == 0) {
    printf("  pack %s: holds no kernels\n", path);
    bad++;
  }
  for (uint32_t i = 0; i < pk.n_entries; i++) bad += verify_entry(&pk, i);
  if (bad)
    printf("%s: FAILED (%d problem%s)\n", path, bad, bad == 1 ? "" : "s");
  else
    printf("%s: OK (target %s, %u entries)\n", path, clean(pk.target, err, sizeof err),
           pk.n_entries);
  kpk_close(&pk);
  return bad != 0;
}

static int cmd_verify(int argc, char **argv) {
  if (wants_help(argc, argv)) {
    fputs(usage_verify, stdout);
    return 0;
  }
  int npacks = 0, failed = 0;
  for (int i = 1; i < argc; i++)
    if (argv[i][0] == '-' && argv[i][1])
      return usage_error(usage_verify, "verify: unknown option '%s'", argv[i]);
  for (int i = 1; i < argc; i++, npacks++) failed += verify_one(argv[i]);
  if (!npacks) return usage_error(usage_verify, "verify: no pack given");
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage_error(usage_main, "no command given");
  const char *cmd = argv[1];
  int rc;
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help"))
    rc = fputs(usage_main, stdout) == EOF;
  else if (!strcmp(cmd, "--version")) rc = printf("kp %s\n", kp_version()) < 0;
  else if (!strcmp(cmd, "info")) rc = cmd_info(argc - 1, argv + 1);
  else if (!strcmp(cmd, "list")) rc = cmd_list(argc - 1, argv + 1);
  else if (!strcmp(cmd, "verify")) rc = cmd_verify(argc - 1, argv + 1);
  else if (!strcmp(cmd, "tune")) rc = kp_cmd_tune(argc - 1, argv + 1);
  else if (!strcmp(cmd, "explain")) rc = kp_cmd_explain(argc - 1, argv + 1);
  else if (!strcmp(cmd, "prune")) rc = kp_cmd_prune(argc - 1, argv + 1);
  else if (!strcmp(cmd, "merge")) rc = kp_cmd_merge(argc - 1, argv + 1);
  else if (!strcmp(cmd, "warmup")) rc = kp_cmd_warmup(argc - 1, argv + 1);
  else if (!strcmp(cmd, "regen")) rc = kp_cmd_regen(argc - 1, argv + 1);
  else return usage_error(usage_main, "unknown command '%s'", cmd);
  /* `kp list x > /full/disk` must not report success */
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "kp: error writing output: %s\n", strerror(errno));
    return 1;
  }
  return rc;
}
