/*
** check_sass.c -- what the built gemm (and some row) cubins contain, read with cuobjdump
** -sass (no GPU needed): every gemm and attention variant whose name has
** "_wg_" issues HGMMA (wgmma reached the tensor cores instead of being lowered
** away), every one with "_mma_" or "_gemv_" HMMA (mma.sync; checked on every cubin target, not
** only sm_80), every other attention variant but the `_simple` fallback HMMA,
** and no gemm or attention variant touches local memory (LDL/STL: spills
** or a register array indexed at run time), whatever ptxas reported.  A
** warp-specialised variant's setmaxnreg (USETMAXREG) fits the register pool
** it is launched with (registers x threads): one warpgroup of 128 threads
** deallocating to d, the rest allocating a, 128 d + (threads - 128) a must
** not pass it, or the consumers wait forever for registers (a hang, not an
** error: the first `_pc` build did that).  And ptxas did not serialise a
** `_wg_` variant's wgmmas (its C7515 "Potential Performance Loss": a
** WARPGROUP.DEPBAR after every HGMMA, where a pipelined kernel has a few
** for many; the first cross-tile FA3 build did that: 40 HGMMA, 40 DEPBAR).
** ("_fma_" variants, the (k, n) GEMV, run on the CUDA cores by design.)
** And the row kernels whose 16-byte stores kp_st16 keeps whole (softmax's
** register rows, add+RMSNorm's staged ones: bench/NOTES.md 83; RMSNorm's
** persistent warp rows `_ws`: 92) have no
** run of four 4-byte STG.E at +0, +4, +8, +12 off one register -- the form
** NVRTC gave their plain uint4 stores, four partial writes for one.
**
** cuobjdump: $CUOBJDUMP (the Makefile sets it: $(CUDA_HOME)/bin/cuobjdump,
** else one on PATH, else the one pip's nvidia-cuda-cuobjdump installed),
** else cuobjdump on PATH; for -sass it runs nvdisasm, looked for beside it
** first.  Without cuobjdump the test prints "SKIP: cuobjdump not found" and
** checks nothing.
*/
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_suites.h"
#include "pack.h"

/* The cuobjdump to use, or NULL. */
static const char *find_cuobjdump(char *buf, size_t n) {
  const char *env = getenv("CUOBJDUMP");
  if (env && *env && access(env, X_OK) == 0) return env;
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *end = strchr(path, ':');
    const size_t len = end ? (size_t)(end - path) : strlen(path);
    snprintf(buf, n, "%.*s/cuobjdump", (int)len, path);
    if (len && access(buf, X_OK) == 0) return buf;
    path = end ? end + 1 : NULL;
  }
  return NULL;
}

/* A file's bytes, malloc'd and NUL-terminated; NULL if it cannot be read. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *out = NULL;
  size_t len = 0, cap = 0, got;
  char chunk[65536];
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (len + got + 1 > cap) {
      cap = (len + got + 1) * 2;
      char *bigger = realloc(out, cap);
      if (!bigger) break;
      out = bigger;
    }
    memcpy(out + len, chunk, got);
    len += got;
  }
  fclose(f);
  if (out) out[len] = 0;
  return out;
}

/* Whether the list of lines `failed` (NULL: none) names <k>.cubin. */
static int listed(const char *failed, uint32_t k) {
  char name[32];
  const int n = snprintf(name, sizeof name, "%u.cubin", k);
  for (const char *l = failed; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
    if (!strncmp(l, name, (size_t)n) && (l[n] == '\n' || l[n] == 0)) return 1;
  return 0;
}

/* `cuobjdump -sass` of every dir/<i>.cubin into dir/<i>.cubin.sass, as many
** at a time as there are CPUs (xargs -P: one process a cubin, mostly start-up
** time, so 800 of them one after another come near the test's timeout on two
** CPUs); the names of the ones that failed in dir/failed.  0 if it ran. */
static int disassemble_dir(const char *tool, const char *dir, char *err, size_t errlen) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 1) cpus = 1;
  if (cpus > 16) cpus = 16;
  char cmd[2400];
  /* -sass runs nvdisasm: look for it beside cuobjdump first (the toolkit's
  ** bin, or pip's nvidia/cu13/bin) */
  const char *slash = strrchr(tool, '/');
  snprintf(cmd, sizeof cmd,
           "cd '%s' && ls | grep '\\.cubin$' | PATH='%.*s':\"$PATH\" xargs -P %ld -I{} "
           "sh -c \"'%s' -sass {} > {}.sass 2>&1 || echo {} >> failed\"",
           dir, slash ? (int)(slash - tool) : 1, slash ? tool : ".", cpus, tool);
  const int st = system(cmd);
  if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    snprintf(err, errlen, "%s: status %d", cmd, st);
    return -1;
  }
  return 0;
}

typedef struct sass_stats {
  int hgmma, hmma, depbar, ldl, stl, instrs;
  int split16; /* runs of four plain STG.E at +0, +4, +8, +12 off one register */
  unsigned reg_alloc, reg_dealloc; /* USETMAXREG's largest TRY_ALLOC and DEALLOC counts */
  char first_local[160];
} sass_stats;

/* The mnemonic of each instruction line ("/ *0a40* /  @!P0 LDL.64 R2, [R1] ;").
** (Searches bounded by the line: ASan's strstr measures the whole rest of
** the text on every call.) */
static void scan(const char *text, sass_stats *s) {
  memset(s, 0, sizeof *s);
  const char *end = text + strlen(text);
  unsigned run_reg = ~0u, run_off = 0, run = 0; /* the plain STG.E run so far */
  for (const char *line = text; line && line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    const char *p = memmem(line, (size_t)((eol ? eol : end) - line), "*/", 2);
    if (p) {
      p += 2;
      while (*p == ' ' || *p == '\t') p++;
      if (*p == '@') /* predicate */
        while (*p && *p != ' ' && *p != '\n') p++;
      while (*p == ' ') p++;
      char mn[32];
      size_t k = 0;
      while (k + 1 < sizeof mn && ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
        mn[k++] = *p++;
      mn[k] = 0;
      if (k && (*p == '.' || *p == ' ' || *p == ';')) {
        s->instrs++;
        s->hgmma += !strcmp(mn, "HGMMA");
        s->hmma += !strcmp(mn, "HMMA");
        s->depbar += !strcmp(mn, "WARPGROUP") && !strncmp(p, ".DEPBAR", 7);
        if (!strcmp(mn, "USETMAXREG")) { /* USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xe8 ; */
          const char *semi = memchr(p, ';', (size_t)((eol ? eol : end) - p));
          const char *x = semi ? semi : p;
          while (x > p && x[-1] == ' ') x--;
          while (x > p && x[-1] != ' ' && x[-1] != ',') x--;
          const unsigned n = (unsigned)strtoul(x, NULL, 0);
          unsigned *to = *p == '.' && !strncmp(p, ".DEALLOC", 8) ? &s->reg_dealloc : &s->reg_alloc;
          if (n > *to) *to = n;
        }
        if (!strcmp(mn, "STG") && !strncmp(p, ".E ", 3)) { /* STG.E desc[UR4][R8.64+0x4], R3 */
          const char *r = memchr(p, '[', (size_t)((eol ? eol : end) - p));
          r = r ? memchr(r + 1, '[', (size_t)((eol ? eol : end) - r - 1)) : NULL;
          if (r && r[1] == 'R') {
            char *q;
            const unsigned reg = (unsigned)strtoul(r + 2, &q, 10);
            const unsigned off = !strncmp(q, ".64+", 4) ? (unsigned)strtoul(q + 4, NULL, 0) : 0;
            if (reg == run_reg && off == run_off + 4 * run) run++;
            else run_reg = reg, run_off = off, run = 1;
            if (run == 4 && run_off % 16 == 0) s->split16++, run = 0, run_reg = ~0u;
          }
        } else if (!strcmp(mn, "STG")) {
          run = 0, run_reg = ~0u;
        }
        const int local = !strcmp(mn, "LDL") || !strcmp(mn, "STL");
        s->ldl += !strcmp(mn, "LDL");
        s->stl += !strcmp(mn, "STL");
        if (local && !s->first_local[0]) {
          const size_t l = eol ? (size_t)(eol - line) : strlen(line);
          snprintf(s->first_local, sizeof s->first_local, "%.*s", (int)(l < 150 ? l : 150), line);
        }
      }
    }
    line = eol ? eol + 1 : NULL;
  }
}

/* The scanner itself, on lines in cuobjdump's format. */
START_TEST(test_scan) {
  sass_stats s;
  scan("        /*0050*/                   LDL.64 R2, [R1+0x8] ;\n"
       "        /*0060*/              @!P0 STL [R1], R4 ;\n"
       "        /*0070*/                   HGMMA.64x256x16.F32.BF16 R24, gdesc[UR4], RZ ;\n"
       "        /*0080*/                   HMMA.16816.F32.BF16 R4, R8, R12, R4 ;\n"
       "        /*0090*/                   LDS.U16 R2, [R3] ;   /* LDL in a comment */\n"
       "        /*00a0*/                   LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64] ;\n"
       "        /*00b0*/                   USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xe8 ;\n"
       "        /*00c0*/                   USETMAXREG.DEALLOC.CTAPOOL 0x20 ;\n"
       "        /*00d0*/                   WARPGROUP.DEPBAR.LE gsb0, 0x0 ;\n"
       "        /*00e0*/                   WARPGROUP.ARRIVE ;\n"
       "        /*00f0*/                   EXIT ;\n"
       "  Function : gemm_f16_wg_128x256_s4_nk\n", &s);
  ck_assert_int_eq(s.instrs, 11);
  ck_assert_int_eq(s.split16, 0);
  ck_assert_int_eq(s.depbar, 1);
  ck_assert_uint_eq(s.reg_alloc, 232);
  ck_assert_uint_eq(s.reg_dealloc, 32);
  ck_assert_int_eq(s.ldl, 1);
  ck_assert_int_eq(s.stl, 1);
  ck_assert_int_eq(s.hgmma, 1);
  ck_assert_int_eq(s.hmma, 1);
  ck_assert_msg(strstr(s.first_local, "LDL.64") != NULL, "%s", s.first_local);
  /* a split 16-byte store (rmsnorm_bf16_warp_v8_n4's, forty-eighth session),
  ** then a whole one, three words at another base, four at an odd start */
  scan("        /*0010*/                   STG.E desc[UR4][R8.64], R37 ;\n"
       "        /*0020*/                   STG.E desc[UR4][R8.64+0x4], R38 ;\n"
       "        /*0030*/                   STG.E desc[UR4][R8.64+0x8], R31 ;\n"
       "        /*0040*/                   STG.E desc[UR4][R8.64+0xc], R36 ;\n"
       "        /*0050*/              @!P1 STG.E.128 desc[UR4][R60.64+0x200], R16 ;\n"
       "        /*0060*/                   STG.E desc[UR4][R12.64], R17 ;\n"
       "        /*0070*/                   STG.E desc[UR4][R12.64+0x4], R9 ;\n"
       "        /*0080*/                   STG.E desc[UR4][R14.64], R3 ;\n"
       "        /*0090*/                   STG.E desc[UR4][R12.64+0x8], R9 ;\n"
       "        /*00a0*/                   STG.E desc[UR4][R6.64+0x4], R1 ;\n"
       "        /*00b0*/                   STG.E desc[UR4][R6.64+0x8], R2 ;\n"
       "        /*00c0*/                   STG.E desc[UR4][R6.64+0xc], R3 ;\n"
       "        /*00d0*/                   STG.E desc[UR4][R6.64+0x10], R4 ;\n", &s);
  ck_assert_int_eq(s.instrs, 13);
  ck_assert_int_eq(s.split16, 1);
}
END_TEST

/* A row variant whose 16-byte stores kp_st16 keeps whole (NOTES 83, 92). */
static int st16_variant(const kpk_entry *e) {
  if (!strcmp(e->family, "softmax"))
    return strstr(e->name, "_warp_") || strstr(e->name, "_lanes") || strstr(e->name, "_block_");
  if (!strcmp(e->family, "rmsnorm")) return strstr(e->name, "_ws_") != NULL;
  return !strcmp(e->family, "add_rmsnorm") && strstr(e->name, "_stage_");
}

/* Every gemm cubin of every built pack. */
START_TEST(test_gemm_sass) {
  char buf[1024];
  const char *tool = find_cuobjdump(buf, sizeof buf);
  if (!tool) {
    printf("SKIP: cuobjdump not found (set CUOBJDUMP, or install the CUDA toolkit's or pip's "
           "nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm): the gemm SASS checks did not run\n");
    fflush(stdout);
    return;
  }
  const char *dir = getenv("KP_PACK_DIR");
  ck_assert_msg(dir != NULL, "KP_PACK_DIR must point at the built packs");
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  int packs = 0, cubins = 0, wg = 0, mma = 0, attns = 0, rows = 0, bad = 0;
  char first_bad[600] = "";
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    const size_t nl = strlen(de->d_name);
    if (nl < 5 || strcmp(de->d_name + nl - 4, ".kpk")) continue;
    char path[1024], err[700];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    kpk_pack pk;
    kp_status st = kpk_open(&pk, path, err, sizeof err);
    ck_assert_msg(st == KP_OK, "%s", err);
    packs++;
    /* the pack's cubins to check, written as <k>.cubin into a fresh
    ** directory and disassembled together */
    char tmp[] = "/tmp/kp_sass_XXXXXX", file[1200];
    ck_assert_msg(mkdtemp(tmp) != NULL, "mkdtemp failed");
    uint32_t *sel = malloc((pk.n_entries ? pk.n_entries : 1) * sizeof *sel);
    ck_assert(sel != NULL);
    uint32_t nsel = 0;
    for (uint32_t i = 0; i < pk.n_entries; i++) {
      const kpk_entry *e = &pk.entries[i];
      if ((strcmp(e->family, "gemm") && strcmp(e->family, "attention") && !st16_variant(e)) ||
          e->is_ptx)
        continue;
      ck_assert_msg(kpk_check_entry(&pk, i, err, sizeof err) == KP_OK, "%s", err);
      snprintf(file, sizeof file, "%s/%u.cubin", tmp, nsel);
      FILE *f = fopen(file, "wb");
      ck_assert_msg(f && fwrite(pk.blobs + e->image_off, 1, e->image_size, f) == e->image_size &&
                        fclose(f) == 0, "writing %s failed", file);
      sel[nsel++] = i;
    }
    /* (dir_err: the xargs run itself failed, err says how) */
    const int dir_err = nsel ? disassemble_dir(tool, tmp, err, sizeof err) : 0;
    snprintf(file, sizeof file, "%s/failed", tmp);
    char *failed = slurp(file);
    for (uint32_t k = 0; k < nsel; k++) {
      const kpk_entry *e = &pk.entries[sel[k]];
      const int attn = !strcmp(e->family, "attention"), st16 = st16_variant(e);
      snprintf(file, sizeof file, "%s/%u.cubin.sass", tmp, k);
      char *text = !dir_err && !listed(failed, k) ? slurp(file) : NULL;
      if (!text) { /* which and why (its output, else the command's status) */
        char *out = dir_err ? NULL : slurp(file);
        const char *why = dir_err ? err : out ? out : "(no output)";
        fprintf(stderr, "sass: %s %s: cuobjdump -sass failed: %.300s\n", pk.target, e->name, why);
        if (!bad)
          snprintf(first_bad, sizeof first_bad, "%s %s: cuobjdump -sass failed: %.300s", pk.target,
                   e->name, why);
        free(out);
      }
      snprintf(file, sizeof file, "%s/%u.cubin", tmp, k);
      unlink(file);
      snprintf(file, sizeof file, "%s/%u.cubin.sass", tmp, k);
      unlink(file);
      if (!text) {
        bad++;
        continue;
      }
      sass_stats s;
      scan(text, &s);
      free(text);
      cubins++;
      char why[400] = "";
      if (!s.instrs)
        snprintf(why, sizeof why, "no instructions in the disassembly");
      else if (strstr(e->name, "_wg_") && !s.hgmma)
        snprintf(why, sizeof why, "a _wg_ variant without HGMMA (%d instructions)", s.instrs);
      else if ((strstr(e->name, "_mma_") || strstr(e->name, "_gemv_")) && !s.hmma)
        snprintf(why, sizeof why, "an mma.sync (_mma_/_gemv_) variant without HMMA (%d "
                 "instructions)", s.instrs);
      else if (attn && !strstr(e->name, "_simple") && !strstr(e->name, "_wg_") && !s.hmma)
        snprintf(why, sizeof why, "an mma.sync attention variant without HMMA (%d instructions)",
                 s.instrs);
      else if (strstr(e->name, "_wg_") && s.hgmma >= 2 && s.depbar >= s.hgmma)
        snprintf(why, sizeof why, "wgmma serialised by ptxas: %d HGMMA, %d WARPGROUP.DEPBAR "
                 "(a non-wgmma write to an accumulator while one is in flight?)", s.hgmma,
                 s.depbar);
      else if ((s.reg_alloc || s.reg_dealloc) &&
               128ull * s.reg_dealloc + (e->block - 128ull) * s.reg_alloc > (uint64_t)e->regs * e->block)
        snprintf(why, sizeof why, "setmaxnreg past the register pool: 128 x %u + %u x %u > %u "
                 "registers x %u threads", s.reg_dealloc, e->block - 128, s.reg_alloc, e->regs,
                 e->block);
      else if (st16 && s.split16)
        snprintf(why, sizeof why, "%d 16-byte stores split into four 4-byte STG.E (kp_st16 keeps "
                 "this variant's whole: bench/NOTES.md 83)", s.split16);
      else if (st16)
        ; /* (row kernels: local memory is the pack build's spill check) */
      else if (s.ldl || s.stl)
        snprintf(why, sizeof why, "local memory: %d LDL, %d STL (ptxas: stack %u, spill stores %u, "
                 "loads %u); first: %s", s.ldl, s.stl, e->stack, e->spill_stores, e->spill_loads,
                 s.first_local);
      wg += strstr(e->name, "_wg_") != NULL;
      mma += strstr(e->name, "_mma_") != NULL || strstr(e->name, "_gemv_") != NULL;
      attns += attn;
      rows += st16;
      if (why[0]) {
        fprintf(stderr, "sass: %s %s: %s\n", pk.target, e->name, why);
        if (!bad++) snprintf(first_bad, sizeof first_bad, "%s %s: %s", pk.target, e->name, why);
      }
    }
    free(failed);
    free(sel);
    snprintf(file, sizeof file, "%s/failed", tmp);
    unlink(file);
    rmdir(tmp);
    kpk_close(&pk);
  }
  closedir(d);
  printf("sass: %d gemm, attention and row cubins in %d packs disassembled with %s (%d _wg_, "
         "%d _mma_, %d attention, %d rows with whole 16-byte stores): %d bad\n", cubins, packs,
         tool, wg, mma, attns, rows, bad);
  fflush(stdout);
  ck_assert_msg(packs > 0, "no .kpk in %s", dir);
  ck_assert_msg(cubins > 0, "no gemm cubin in the packs of %s", dir);
  ck_assert_msg(bad == 0, "%d cubins failed the SASS checks; first: %s", bad, first_bad);
}
END_TEST

Suite *sass_suite(void) {
  Suite *s = suite_create("sass");
  TCase *tc = tcase_create("gemm");
  tcase_set_timeout(tc, 900); /* (about 800 cubins: 5 min one at a time on 2 CPUs) */
  tcase_add_test(tc, test_scan);
  tcase_add_test(tc, test_gemm_sass);
  suite_add_tcase(s, tc);
  return s;
}
