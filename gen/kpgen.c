/*
** kpgen.c -- the generator: Lua templates -> CUDA sources -> NVRTC -> packs.
**
**   kpgen mk SRCDIR [--ranked TARGETS] TEMPLATE...
**                                         make rules: one target per variant;
**                                         KP_PICKS_<t>: what the ranking picks
**   kpgen emit TEMPLATE SRCDIR            write SRCDIR/<variant>.cu (only if changed)
**   kpgen compile SRC.cu TARGET OUTBASE [PROGRESS]
**                                         NVRTC -> OUTBASE.bin + OUTBASE.info
**   kpgen assemble PTXAS PTX.bin TARGET OUTBASE [PROGRESS]
**                                         ptxas on a compute_ target's PTX (its
**                                         .info beside it) -> the same for TARGET
**   kpgen progress-init PROGRESS MODE SRCDIR DEP BIN...|@LIST
**                                         count the BINs to build (missing or
**                                         older than their source or DEP)
**   kpgen pack [--ranked] TARGET OBJDIR SRCDIR OUT TEMPLATE...
**                                         collect compiled variants into OUT
**                                         (--ranked: the ranking's picks only)
**   kpgen neighbours TEMPLATE VARIANT SRCDIR [PACK]
**                                         the variants one step from VARIANT
**                                         (family_space{}); writes the new ones
**   kpgen extend OLD.kpk OUT.kpk TEMPLATEDIR OBJDIR SRC.cu...
**                                         OLD's entries plus the made variants
**                                         SRC.cu, compiled for OLD's target
**
** The Makefile drives these so that `make -j` compiles variants in parallel
** and editing one template rebuilds only that template's changed variants;
** `kp regen` drives neighbours and extend.
*/
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h" /* kp_dtype_from_name */
#include "nvrtc_compile.h"
#include "progress.h"
#include "template.h"

static char errbuf[8192];

__attribute__((format(printf, 1, 2))) static int die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "kpgen: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

static int usage(void) {
  fputs("usage: kpgen mk SRCDIR [--ranked TARGETS] TEMPLATE...\n"
        "       kpgen emit TEMPLATE SRCDIR\n"
        "       kpgen compile SRC.cu TARGET OUTBASE [PROGRESS]\n"
        "       kpgen assemble PTXAS PTX.bin TARGET OUTBASE [PROGRESS]\n"
        "       kpgen progress-init PROGRESS MODE SRCDIR DEP BIN...|@LIST\n"
        "       kpgen pack [--ranked] TARGET OBJDIR SRCDIR OUT.kpk TEMPLATE...\n"
        "       kpgen neighbours TEMPLATE VARIANT SRCDIR [PACK]\n"
        "       kpgen extend OLD.kpk OUT.kpk TEMPLATEDIR OBJDIR SRC.cu...\n"
        "Generates, compiles and packs kernel variants; normally run by make.\n"
        "--ranked: for the targets nobody tunes on, only the variants the ranking\n"
        "picks for some call (ranked.h): mk lists them as KP_PICKS_<target> for each\n"
        "of TARGETS (space-separated), pack packs only those.\n"
        "neighbours writes SRCDIR/<name>.cu for each neighbour of VARIANT (from the\n"
        "template's defaults, or PACK's index) that is new, and prints one line per\n"
        "neighbour: '<name> new|default|pack'.  extend writes OUT: OLD's entries, then\n"
        "each SRC.cu compiled for OLD's target (OBJDIR/<name>.bin/.info are reused\n"
        "when newer than SRC.cu), ranked below every entry of its family and dtype.\n"
        "assemble: the cubin for TARGET by the toolkit's ptxas (at PTXAS) from the\n"
        "PTX a compile for a compute_ target made (PTX.bin, its .info beside it).\n"
        "PROGRESS: a file the build's compiles share (make -j) for a progress line:\n"
        "progress-init counts the BINs to build; MODE 0 a terminal line or plain\n"
        "lines in a log, 1 plain lines always (V=1), 2 nothing (make -s).\n",
        stderr);
  return 2;
}

/* templates/softmax.lua -> templates/kp_device.cuh */
static void lib_path(const char *tpl, char *out, size_t n) {
  const char *slash = strrchr(tpl, '/');
  if (slash) snprintf(out, n, "%.*s/kp_device.cuh", (int)(slash - tpl), tpl);
  else snprintf(out, n, "kp_device.cuh");
}

static int load(kg_template *t, const char *tpl) {
  char lib[1024];
  lib_path(tpl, lib, sizeof lib);
  if (kg_template_load(t, tpl, lib, errbuf, sizeof errbuf)) {
    fprintf(stderr, "%s\n", errbuf);
    return -1;
  }
  return 0;
}

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[len] = 0;
    *n = (size_t)len;
  }
  return buf;
}

/* Write via a temporary and rename, so an interrupted build never leaves a
** half-written file that looks up to date. */
static int write_atomic(const char *path, const void *p, size_t n) {
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  int ok = fwrite(p, 1, n, f) == n;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    remove(tmp);
    return -1;
  }
  return 0;
}

/* SRCDIR/<name>.cu, rewritten only when its bytes change (make sees the
** mtime).  0 on success. */
static int write_source(const char *srcdir, const kg_variant *v) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.cu", srcdir, v->e.name);
  size_t n;
  unsigned char *old = slurp(path, &n);
  int same = old && n == v->source_len && memcmp(old, v->source, n) == 0;
  free(old);
  if (!same && write_atomic(path, v->source, v->source_len))
    return die("cannot write %s: %s", path, strerror(errno));
  return 0;
}

static int cmd_mk(int argc, char **argv) {
  if (argc < 1) return usage();
  const char *srcdir = argv[0], *ranked = "";
  int first = 1;
  if (argc >= 3 && !strcmp(argv[1], "--ranked")) ranked = argv[2], first = 3;
  printf("# generated by kpgen mk -- do not edit\n");
  for (int i = first; i < argc; i++) {
    kg_template t;
    if (load(&t, argv[i])) return 1;
    char *keep = malloc((size_t)t.n + 1);
    if (!keep) return kg_template_free(&t), die("out of memory");
    for (const char *p = ranked; *p;) { /* KP_PICKS_sm_80 += ... */
      size_t n = strcspn(p, " ");
      char target[16];
      if (n && n < sizeof target) {
        snprintf(target, sizeof target, "%.*s", (int)n, p);
        if (kg_template_ranked(&t, target, keep))
          return free(keep), kg_template_free(&t), die("out of memory");
        for (int v = 0; v < t.n; v++)
          if (keep[v]) printf("KP_PICKS_%s += %s\n", target, t.v[v].e.name);
      }
      p += n + (p[n] == ' ');
    }
    free(keep);
    char lib[1024];
    lib_path(argv[i], lib, sizeof lib);
    printf("KP_FAMILIES += %s\n", t.family);
    printf("%s/.%s.stamp: %s %s $(KPGEN)\n\t$(call kp_emit,%s)\n", srcdir, t.family, argv[i],
           lib, argv[i]);
    for (int v = 0; v < t.n; v++) {
      if (!t.v[v].targets[0]) printf("KP_VARIANTS += %s\n", t.v[v].e.name);
      for (const char *p = t.v[v].targets; *p;) { /* KP_VARIANTS_sm_90a += ... */
        size_t n = strcspn(p, " ");
        printf("KP_VARIANTS_%.*s += %s\n", (int)n, p, t.v[v].e.name);
        p += n + (p[n] == ' ');
      }
      printf("%s/%s.cu: %s/.%s.stamp ;\n", srcdir, t.v[v].e.name, srcdir, t.family);
    }
    kg_template_free(&t);
  }
  return 0;
}

static int cmd_emit(int argc, char **argv) {
  if (argc != 2) return usage();
  kg_template t;
  if (load(&t, argv[0])) return 1;
  mkdir(argv[1], 0777);
  int rc = 0;
  for (int v = 0; v < t.n && !rc; v++) rc = write_source(argv[1], &t.v[v]);
  kg_template_free(&t);
  return rc;
}

static int write_info(const char *outbase, const char *base, const char *target,
                      const kg_compile_info *info);

/* NVRTC: SRC -> OUTBASE.bin + OUTBASE.info for target.  0 on success. */
static int compile_to(const char *srcpath, const char *target, const char *outbase,
                      kg_compile_info *info) {
  size_t n;
  char *src = (char *)slurp(srcpath, &n);
  if (!src) return die("cannot read %s", srcpath);
  unsigned char *img;
  size_t size;
  char *log;
  const char *base = strrchr(srcpath, '/');
  base = base ? base + 1 : srcpath;
  int rc = kg_nvrtc_compile(src, base, target, &img, &size, info, &log);
  free(src);
  if (rc) { /* (on its own line, after a progress line on the terminal) */
    fprintf(stderr, "%s%s: NVRTC failed for %s:\n%s\n", isatty(2) ? "\n" : "", srcpath, target,
            log ? log : "");
    free(log);
    return 1;
  }
  free(log);
  char path[1024];
  snprintf(path, sizeof path, "%s.bin", outbase);
  rc = write_atomic(path, img, size);
  free(img);
  if (rc) return die("cannot write %s", path);
  return write_info(outbase, base, target, info);
}

/* OUTBASE.info, and the warning for a variant that spills */
static int write_info(const char *outbase, const char *base, const char *target,
                      const kg_compile_info *info) {
  char path[1024];
  snprintf(path, sizeof path, "%s.info", outbase);
  if (kg_info_write(path, info)) return die("cannot write %s", path);
  if (info->spill_stores || info->spill_loads)
    fprintf(stderr, "kpgen: warning: %s on %s spills (%d bytes stores, %d loads): dropped from the pack\n",
            base, target, info->spill_stores, info->spill_loads);
  return 0;
}

/* ptxas: PTX.bin (compute_XY's, PTX.info beside it) -> OUTBASE.bin + .info for
** target; the info's NVRTC version and options the PTX's, and how it was
** assembled.  0 on success. */
static int assemble_to(const char *ptxas, const char *ptxbin, const char *target,
                       const char *outbase, kg_compile_info *info) {
  char path[1024], tmp[1100];
  const size_t n = strlen(ptxbin);
  kg_compile_info ptx;
  if (n < 5 || strcmp(ptxbin + n - 4, ".bin"))
    return die("%s: not a compiled variant (OBJDIR/<variant>.bin)", ptxbin);
  snprintf(path, sizeof path, "%.*s.info", (int)(n - 4), ptxbin);
  if (kg_info_read(path, &ptx) || !ptx.is_ptx)
    return die("%s: not the .info of a compile for a compute_ target", path);
  /* ptxas's input: the image without its closing NUL (read as a cut-short file) */
  size_t len;
  unsigned char *text = slurp(ptxbin, &len);
  if (!text) return die("cannot read %s", ptxbin);
  while (len > 0 && text[len - 1] == 0) len--;
  snprintf(path, sizeof path, "%s.ptx", outbase);
  const int wrote = write_atomic(path, text, len);
  free(text);
  if (wrote) return die("cannot write %s", path);
  snprintf(tmp, sizeof tmp, "%s.bin.tmp", outbase);
  char *log;
  const int rc = kg_ptxas_compile(ptxas, path, target, tmp, info, &log);
  unlink(path);
  if (rc) {
    fprintf(stderr, "%s%s: ptxas failed for %s:\n%s\n", isatty(2) ? "\n" : "", ptxbin, target,
            log ? log : "");
    free(log);
    unlink(tmp);
    return 1;
  }
  free(log);
  snprintf(path, sizeof path, "%s.bin", outbase);
  if (rename(tmp, path)) return unlink(tmp), die("cannot write %s: %s", path, strerror(errno));
  info->nvrtc_major = ptx.nvrtc_major, info->nvrtc_minor = ptx.nvrtc_minor;
  snprintf(info->options, sizeof info->options, "ptxas -arch=%s on the PTX of %s", target,
           ptx.options);
  const char *base = strrchr(outbase, '/');
  return write_info(outbase, base ? base + 1 : outbase, target, info);
}

/* ---- the pack build's progress line ----------------------------------------------
** make runs one `kpgen compile` per variant and target, several at once: they
** share a small file, "t0 total done mode open", updated under flock.  Each
** compile counts itself when it finishes and prints the line (what it just
** compiled); `kpgen pack` ends an open terminal line before its own. */

typedef struct build_progress {
  double t0;
  int total, done, mode, open;
} build_progress;

static int progress_rw(const char *path, void (*fn)(build_progress *, void *), void *arg) {
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return -1;
  int rc = -1;
  if (flock(fd, LOCK_EX) == 0) {
    char buf[128] = "";
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    build_progress bp;
    if (n > 0 && sscanf(buf, "%lf %d %d %d %d", &bp.t0, &bp.total, &bp.done, &bp.mode,
                        &bp.open) == 5) {
      fn(&bp, arg);
      int len = snprintf(buf, sizeof buf, "%.3f %d %d %d %d\n", bp.t0, bp.total, bp.done, bp.mode,
                         bp.open);
      rc = pwrite(fd, buf, (size_t)len, 0) == len && ftruncate(fd, len) == 0 ? 0 : -1;
    }
    flock(fd, LOCK_UN);
  }
  close(fd);
  return rc;
}

/* one more compile done: the line for it (under the lock, so lines do not mix) */
static void progress_step(build_progress *bp, void *arg) {
  if (bp->mode == 2) return;
  kp_progress p;
  kp_progress_init(&p, stdout, "  NVRTC  ", bp->total, 0);
  if (bp->mode == 1) p.tty = 0;
  p.t0 = bp->t0;
  bp->done++;
  kp_progress_show(&p, bp->done, "%s", (const char *)arg);
  if (bp->done > bp->total) bp->total = bp->done;
  bp->open = p.open;
}

static void progress_close(build_progress *bp, void *arg) {
  (void)arg;
  if (bp->open) fputc('\n', stdout);
  bp->open = 0;
}

/* the progress line for OUTBASE on target, where the build keeps one */
static void progress_done(const char *progress, const char *target, const char *outbase) {
  if (!progress) return;
  char what[300]; /* "sm_90a/softmax_bf16_..." */
  const char *base = strrchr(outbase, '/');
  snprintf(what, sizeof what, "%s/%s", target, base ? base + 1 : outbase);
  progress_rw(progress, progress_step, what);
}

static int cmd_compile(int argc, char **argv) {
  if (argc != 3 && argc != 4) return usage();
  kg_compile_info info;
  int rc = compile_to(argv[0], argv[1], argv[2], &info);
  if (!rc) progress_done(argc == 4 ? argv[3] : NULL, argv[1], argv[2]);
  return rc;
}

static int cmd_assemble(int argc, char **argv) {
  if (argc != 4 && argc != 5) return usage();
  kg_compile_info info;
  int rc = assemble_to(argv[0], argv[1], argv[2], argv[3], &info);
  if (!rc) progress_done(argc == 5 ? argv[4] : NULL, argv[2], argv[3]);
  return rc;
}

static int mtime_after(const struct stat *a, const struct stat *b) {
  return a->st_mtim.tv_sec > b->st_mtim.tv_sec ||
         (a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec > b->st_mtim.tv_nsec);
}

/* Is bin to be built: missing, or older than its source or dep? */
static int stale(const char *bin, const char *srcdir, const struct stat *dep) {
  const char *base = strrchr(bin, '/');
  char path[1024];
  struct stat st, src;
  snprintf(path, sizeof path, "%s/%s", srcdir, base ? base + 1 : bin);
  size_t l = strlen(path);
  if (l > 4 && !strcmp(path + l - 4, ".bin")) snprintf(path + l - 4, sizeof path - (l - 4), ".cu");
  return stat(bin, &st) != 0 || (dep && mtime_after(dep, &st)) ||
         (stat(path, &src) == 0 && mtime_after(&src, &st));
}

/* PROGRESS MODE SRCDIR DEP BIN... (or @FILE, the BINs in FILE separated by
** blanks): how many BINs make will build (an estimate: a template edit that
** changes sources shows up as compiles past the count, which then grows). */
static int cmd_progress_init(int argc, char **argv) {
  if (argc < 4) return usage();
  struct stat dep;
  int have_dep = stat(argv[3], &dep) == 0, total = 0;
  for (int i = 4; i < argc; i++) {
    if (argv[i][0] != '@') {
      total += stale(argv[i], argv[2], have_dep ? &dep : NULL);
      continue;
    }
    size_t n;
    char *list = (char *)slurp(argv[i] + 1, &n);
    if (!list) return die("cannot read %s", argv[i] + 1);
    for (char *b = strtok(list, " \t\n"); b; b = strtok(NULL, " \t\n"))
      total += stale(b, argv[2], have_dep ? &dep : NULL);
    free(list);
  }
  FILE *f = fopen(argv[0], "w");
  if (!f) return die("cannot write %s", argv[0]);
  fprintf(f, "%.3f %d 0 %d 0\n", kp_progress_now(), total, atoi(argv[1]));
  return fclose(f) ? die("cannot write %s", argv[0]) : 0;
}

/* Add variant e (full source src) compiled as OBJBASE.bin with info to w:
** 0 added, 1 dropped for spilling (said on stderr), -1 error (said). */
static int add_compiled(kpk_writer *w, const char *target, const kpk_entry *e0, const char *src,
                        size_t srclen, const kg_compile_info *info, const char *objbase) {
  if (info->spill_stores || info->spill_loads) {
    fprintf(stderr, "kpgen: %s: dropping %s (spills %d/%d bytes)\n", target, e0->name,
            info->spill_stores, info->spill_loads);
    return 1;
  }
  char path[1024];
  size_t imglen;
  snprintf(path, sizeof path, "%s.bin", objbase);
  unsigned char *img = slurp(path, &imglen);
  if (!img) return die("cannot read %s", path), -1;
  kpk_entry e = *e0;
  e.regs = (uint32_t)info->regs;
  e.stack = (uint32_t)info->stack;
  e.spill_stores = (uint32_t)info->spill_stores;
  e.spill_loads = (uint32_t)info->spill_loads;
  e.is_ptx = (uint32_t)info->is_ptx;
  e.options = info->options;
  /* PTX keeps its NUL so the reader can verify it is terminated */
  size_t n = imglen + (info->is_ptx && (imglen == 0 || img[imglen - 1]) ? 1 : 0);
  int rc = kpk_writer_add(w, &e, img, n, src, srclen);
  free(img);
  return rc ? (die("out of memory"), -1) : 0;
}

static int cmd_pack(int argc, char **argv) {
  int ranked = argc > 0 && !strcmp(argv[0], "--ranked");
  argc -= ranked, argv += ranked;
  if (argc < 5) return usage();
  const char *target = argv[0], *objdir = argv[1], *srcdir = argv[2], *out = argv[3];
  kpk_writer *w = NULL;
  int rc = 0, count = 0, dropped = 0, unpicked = 0;
  double total_ms = 0;
  for (int i = 4; i < argc && !rc; i++) {
    kg_template t;
    if (load(&t, argv[i])) return 1;
    char *keep = ranked ? malloc((size_t)t.n + 1) : NULL;
    if (ranked && (!keep || kg_template_ranked(&t, target, keep)))
      return free(keep), kg_template_free(&t), kpk_writer_free(w), die("out of memory");
    for (int v = 0; v < t.n && !rc; v++) {
      kg_variant *var = &t.v[v];
      if (!kg_variant_for_target(var, target)) continue;
      if (keep && !keep[v]) { /* not the ranking's pick for any call: left out */
        unpicked++;
        continue;
      }
      char path[1024];
      size_t srclen;
      snprintf(path, sizeof path, "%s/%s.cu", srcdir, var->e.name);
      unsigned char *src = slurp(path, &srclen);
      if (!src || srclen != var->source_len || memcmp(src, var->source, srclen)) {
        free(src);
        rc = die("%s is missing or stale against %s: run make", path, argv[i]);
        break;
      }
      free(src);
      kg_compile_info info;
      snprintf(path, sizeof path, "%s/%s.info", objdir, var->e.name);
      if (kg_info_read(path, &info)) {
        rc = die("cannot read %s", path);
        break;
      }
      if (!w) {
        w = kpk_writer_new(target, (uint32_t)(info.nvrtc_major * 1000 + info.nvrtc_minor * 10));
        if (!w) return die("out of memory");
        /* every source embeds the device library: the pack stores it once */
        char lib[1024];
        size_t liblen;
        lib_path(argv[i], lib, sizeof lib);
        unsigned char *libtext = slurp(lib, &liblen);
        if (!libtext || kpk_writer_set_prelude(w, libtext, liblen)) {
          free(libtext);
          return die("cannot read %s", lib);
        }
        free(libtext);
      }
      total_ms += info.ms;
      snprintf(path, sizeof path, "%s/%s", objdir, var->e.name);
      int a = add_compiled(w, target, &var->e, var->source, var->source_len, &info, path);
      if (a < 0) rc = 1;
      else if (a) dropped++;
      else count++;
    }
    free(keep);
    kg_template_free(&t);
  }
  uint8_t *buf = NULL;
  size_t size = 0;
  if (!rc && (!w || kpk_writer_finish(w, &buf, &size))) rc = die("cannot build pack %s", out);
  if (!rc && write_atomic(out, buf, size)) rc = die("cannot write %s: %s", out, strerror(errno));
  const char *prog = getenv("KP_PROGRESS"); /* end the compiles' terminal line */
  if (!rc && prog && *prog) progress_rw(prog, progress_close, NULL);
  if (!rc)
    printf("PACK    %s: %d variants, %d dropped for spilling, %zu bytes, NVRTC %.1f s total, "
           "%.1f ms per variant%s\n",
           out, count, dropped, size, total_ms / 1e3,
           count + dropped ? total_ms / (count + dropped) : 0,
           ranked ? " (the ranking's picks only)" : "");
  if (!rc && unpicked)
    printf("        %d variants the ranking never picks are not in it (RANKED_ARCHS)\n", unpicked);
  free(buf);
  kpk_writer_free(w);
  return rc;
}

/* ---- kpgen neighbours / extend: the variant space beyond the defaults ------------ */

static int pack_find(const kpk_pack *pk, const char *name) {
  for (uint32_t i = 0; i < pk->n_entries; i++)
    if (!strcmp(pk->entries[i].name, name)) return (int)i;
  return -1;
}

static int cmd_neighbours(int argc, char **argv) {
  if (argc != 3 && argc != 4) return usage();
  const char *tpl = argv[0], *name = argv[1], *srcdir = argv[2];
  const char *packpath = argc == 4 ? argv[3] : NULL;
  kg_template t;
  kpk_pack pk;
  memset(&pk, 0, sizeof pk);
  if (load(&t, tpl)) return 1;
  if (packpath && kpk_open(&pk, packpath, errbuf, sizeof errbuf) != KP_OK) {
    kg_template_free(&t);
    return die("%s", errbuf);
  }
  /* the variant's params: the template's default list, else the pack's index */
  char params[1024];
  int dt = -1, rc = 0;
  const kg_variant *v = kg_template_find(&t, name);
  int k = v || !packpath ? -1 : pack_find(&pk, name);
  if (v) dt = (int)v->e.dtype, snprintf(params, sizeof params, "%s", v->e.params);
  else if (k >= 0 && !strcmp(pk.entries[k].family, t.family))
    dt = (int)pk.entries[k].dtype, snprintf(params, sizeof params, "%s", pk.entries[k].params);
  int *idx = NULL, n = 0;
  if (dt < 0) {
    rc = die("%s: no variant '%s' of family %s in the template's default list%s%s", tpl, name,
             t.family, packpath ? " nor in " : " (give the pack that holds it)",
             packpath ? packpath : "");
  } else if (kg_template_neighbours(&t, (kp_dtype)dt, params, &idx, &n, errbuf, sizeof errbuf)) {
    fprintf(stderr, "%s\n", errbuf);
    rc = 1;
  }
  if (!rc && n) mkdir(srcdir, 0777);
  for (int i = 0; i < n && !rc; i++) {
    const kg_variant *nb = &t.v[idx[i]];
    const char *what = idx[i] < t.n_default ? "default"
                       : packpath && pack_find(&pk, nb->e.name) >= 0 ? "pack" : "new";
    if (what[0] == 'n') rc = write_source(srcdir, nb);
    if (!rc) printf("%s %s\n", nb->e.name, what);
  }
  free(idx);
  if (packpath) kpk_close(&pk);
  kg_template_free(&t);
  return rc;
}

/* What a generated source's banner says: template file, variant, dtype, params. */
typedef struct banner {
  char tpl[512], name[256], dtype[16], params[1024];
} banner;

static int parse_banner(const char *src, banner *b) {
  const char *p = strstr(src, "// generated by kpgen from ");
  const char *q = p ? strstr(p, " (line ") : NULL;
  const char *l2 = p ? strstr(p, "\n// variant ") : NULL;
  if (p != src || !q || !l2 || (size_t)(q - p) - 27 >= sizeof b->tpl) return -1;
  snprintf(b->tpl, sizeof b->tpl, "%.*s", (int)(q - p - 27), p + 27);
  b->params[0] = 0;
  if (sscanf(l2, "\n// variant %255[A-Za-z0-9_]: dtype=%15s %1023[^\n]", b->name, b->dtype,
             b->params) < 2)
    return -1;
  return 0;
}

/* Templates loaded by extend, by file name; loaded once each. */
typedef struct tpl_cache {
  kg_template t[16];
  char file[16][256];
  int n;
} tpl_cache;

static kg_template *cached_template(tpl_cache *c, const char *dir, const char *file) {
  for (int i = 0; i < c->n; i++)
    if (!strcmp(c->file[i], file)) return &c->t[i];
  if (c->n == 16) return die("more than 16 templates"), NULL;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  if (load(&c->t[c->n], path)) return NULL;
  snprintf(c->file[c->n], sizeof c->file[0], "%s", file);
  return &c->t[c->n++];
}

/* Rank for a new entry: below every entry of its family and dtype, so that
** without a tuning table the ranking's choice never changes. */
static int32_t rank_below(const kpk_pack *pk, const char *family, uint32_t dtype) {
  int32_t r = 0;
  for (uint32_t i = 0; i < pk->n_entries; i++)
    if (!strcmp(pk->entries[i].family, family) && pk->entries[i].dtype == dtype) {
      if (pk->entries[i].rank < r) r = pk->entries[i].rank;
      if (pk->entries[i].prefer_forms && pk->entries[i].prefer_rank < r)
        r = pk->entries[i].prefer_rank;
    }
  return r - 1;
}

static int newer(const char *a, const char *b) { /* is a's mtime >= b's? */
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_mtim.tv_sec >= sb.st_mtim.tv_sec;
}

/* One SRC.cu of extend: check it against its template, compile (or reuse
** OBJDIR's), add.  0 added, 1 skipped or dropped, -1 error. */
static int extend_one(kpk_writer *w, const kpk_pack *old, tpl_cache *tc, const char *tpldir,
                      const char *objdir, const char *srcpath) {
  size_t len;
  char *src = (char *)slurp(srcpath, &len);
  banner b;
  if (!src) return die("cannot read %s", srcpath), -1;
  int rc = -1, dt = kp_dtype_from_name(parse_banner(src, &b) ? "" : b.dtype);
  const char *file = strrchr(b.tpl, '/');
  kg_template *t = dt < 0 ? NULL : cached_template(tc, tpldir, file ? file + 1 : b.tpl);
  int i = t ? kg_template_make(t, (kp_dtype)dt, b.params, errbuf, sizeof errbuf) : -1;
  if (dt < 0) {
    die("%s: no kpgen banner (template, variant, dtype, params) on its first lines", srcpath);
  } else if (t && i < 0) {
    fprintf(stderr, "%s\n", errbuf);
  } else if (t && (strcmp(t->v[i].e.name, b.name) || t->v[i].source_len != len ||
                   memcmp(t->v[i].source, src, len))) {
    die("%s is stale against %s/%s: regenerate it (kpgen neighbours)", srcpath, tpldir, b.tpl);
  } else if (t && pack_find(old, b.name) >= 0) {
    fprintf(stderr, "kpgen: %s: already in %s\n", b.name, old->path);
    rc = 1;
  } else if (t) {
    char base[1024], info_path[1100];
    kg_compile_info info;
    snprintf(base, sizeof base, "%s/%s", objdir, b.name);
    snprintf(info_path, sizeof info_path, "%s.info", base);
    int have = newer(info_path, srcpath) && kg_info_read(info_path, &info) == 0;
    if (old->prelude && !memmem(src, len, old->prelude, (size_t)old->prelude_size))
      fprintf(stderr, "kpgen: %s: the device library differs from %s's: stored whole\n",
              b.name, old->path);
    if (have || compile_to(srcpath, old->target, base, &info) == 0) {
      kpk_entry e = t->v[i].e;
      e.rank = rank_below(old, e.family, e.dtype);
      rc = add_compiled(w, old->target, &e, src, len, &info, base);
    }
  }
  free(src);
  return rc;
}

static int cmd_extend(int argc, char **argv) {
  if (argc < 4) return usage();
  const char *outpath = argv[1], *tpldir = argv[2], *objdir = argv[3];
  kpk_pack old;
  if (kpk_open(&old, argv[0], errbuf, sizeof errbuf) != KP_OK) return die("%s", errbuf);
  mkdir(objdir, 0777);
  static tpl_cache tc;
  kpk_writer *w = kpk_writer_like(&old);
  int rc = w ? 0 : die("out of memory"), added = 0, skipped = 0;
  for (uint32_t i = 0; i < old.n_entries && !rc; i++)
    if (kpk_writer_copy(w, &old, i)) rc = die("%s: entry %u: cannot copy", argv[0], i);
  for (int i = 4; i < argc && !rc; i++) {
    int a = extend_one(w, &old, &tc, tpldir, objdir, argv[i]);
    if (a < 0) rc = 1;
    else if (a) skipped++;
    else added++;
  }
  uint8_t *buf = NULL;
  size_t size = 0;
  if (!rc && kpk_writer_finish(w, &buf, &size)) rc = die("cannot build pack %s", outpath);
  if (!rc && write_atomic(outpath, buf, size))
    rc = die("cannot write %s: %s", outpath, strerror(errno));
  if (!rc)
    printf("EXTEND  %s: %u variants of %s + %d new, %d skipped or dropped, %zu bytes\n", outpath,
           old.n_entries, old.path, added, skipped, size);
  free(buf);
  kpk_writer_free(w);
  kpk_close(&old);
  for (int i = 0; i < tc.n; i++) kg_template_free(&tc.t[i]);
  return rc;
}

int main(int argc, char **argv) {
  /* On a GPU host NVRTC (12.9+) may answer from the driver's compute cache,
  ** without ptxas's register and spill report that the pack records and
  ** drops spilling variants by: compile for real. */
  setenv("CUDA_CACHE_DISABLE", "1", 0);
  if (argc < 2) return usage();
  const char *cmd = argv[1];
  if (!strcmp(cmd, "mk")) return cmd_mk(argc - 2, argv + 2);
  if (!strcmp(cmd, "emit")) return cmd_emit(argc - 2, argv + 2);
  if (!strcmp(cmd, "compile")) return cmd_compile(argc - 2, argv + 2);
  if (!strcmp(cmd, "assemble")) return cmd_assemble(argc - 2, argv + 2);
  if (!strcmp(cmd, "pack")) return cmd_pack(argc - 2, argv + 2);
  if (!strcmp(cmd, "progress-init")) return cmd_progress_init(argc - 2, argv + 2);
  if (!strcmp(cmd, "neighbours")) return cmd_neighbours(argc - 2, argv + 2);
  if (!strcmp(cmd, "extend")) return cmd_extend(argc - 2, argv + 2);
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    usage();
    return 0;
  }
  return usage();
}
