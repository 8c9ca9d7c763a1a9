/*
** nvrtc_phases.c -- where NVRTC spends a variant's compile: each source
** compiled REPS times in one process with the options of every kernpack
** compile (compile + fetching the cubin, what runtime/jit.c does on a cache
** miss), printing wall and CPU time (getrusage: other processes on a shared
** machine inflate the first, not the second) and NVRTC's own per-phase times
** (--time: front end, NVVM optimizer, PTX -> SASS).  The first compile of a
** process also pays NVRTC's start-up; the later ones show the steady cost.
** At the end, per family (the file name up to its dtype): the median and
** the worst over its sources of each source's median compile.
**
**   nvrtc_phases [--arch sm_90] [--reps 3] [--opt OPTION]... [--quiet]
**                [--include-prelude FILE] SOURCE.cu...
**
** --opt adds an NVRTC option (at most 8), e.g. --opt --Ofast-compile=min.
** --include-prelude FILE: where a source holds FILE's text (the device
** library the generator pastes in), compile it with an #include of it
** instead, the header given to NVRTC in memory (for --pch experiments).
** --quiet: the summary only.
** On a machine with a driver, NVRTC (12.9+) keeps its own cache of results
** in the driver's compute cache: set CUDA_CACHE_DISABLE=1 to time real
** compiles.
*/
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <nvrtc.h>

#include "nvrtc_opts.h"

#define MAX_EXTRA 8
#define MAX_SRC 4096
#define MAX_FAM 32

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* user + system time of the process (NVRTC may use threads), ms */
static double cpu_ms(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
  if (s) s[n] = 0;
  fclose(f);
  return s;
}

/* The --time CSV: "file, phase, ms, unit" lines; sum per phase name. */
static void phases(const char *csv, char *out, size_t outlen) {
  char *s = slurp(csv);
  out[0] = 0;
  if (!s) return;
  size_t o = 0;
  for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
    char phase[64];
    double ms;
    if (sscanf(line, "%*[^,], %63[^,], %lf", phase, &ms) == 2 && o < outlen)
      o += (size_t)snprintf(out + o, outlen - o, "  %s %.0f", phase, ms);
  }
  free(s);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "rmsnorm_swiglu_bf16_loop_t512_v8.cu" -> "rmsnorm_swiglu" */
static void family_of(const char *base, char *fam, size_t n) {
  static const char *const dts[] = {"_f32_", "_f16_", "_bf16_"};
  size_t len = strcspn(base, ".");
  for (size_t k = 0; k < 3; k++) {
    const char *p = strstr(base, dts[k]);
    if (p && (size_t)(p - base) < len) len = (size_t)(p - base);
  }
  snprintf(fam, n, "%.*s", (int)len, base);
}

static const char usage[] =
    "usage: nvrtc_phases [--arch sm_90] [--reps 3] [--opt OPTION]... [--quiet]\n"
    "                    [--include-prelude FILE] SOURCE.cu...\n";

int main(int argc, char **argv) {
  const char *arch = "sm_90", *prelude_path = NULL;
  int reps = 3, i = 1, nextra = 0, quiet = 0;
  const char *extra[MAX_EXTRA];
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--arch") && i + 1 < argc) arch = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--opt") && i + 1 < argc && nextra < MAX_EXTRA)
      extra[nextra++] = argv[++i];
    else if (!strcmp(argv[i], "--include-prelude") && i + 1 < argc) prelude_path = argv[++i];
    else if (!strcmp(argv[i], "--quiet")) quiet = 1;
    else {
      fputs(usage, stderr);
      return argv[i][1] == 'h' || argv[i][2] == 'h' ? 0 : 2;
    }
  }
  if (i >= argc || reps < 1 || reps > 64 || argc - i > MAX_SRC) {
    fputs(usage, stderr);
    return 2;
  }
  char *prelude = prelude_path ? slurp(prelude_path) : NULL;
  if (prelude_path && !prelude) {
    fprintf(stderr, "%s: cannot read\n", prelude_path);
    return 1;
  }
  const char *hdr_name = "kp_device.cuh";
  char archopt[64], csv[64], timeopt[96];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
  snprintf(csv, sizeof csv, "/tmp/nvrtc_phases.%d.csv", (int)getpid());
  snprintf(timeopt, sizeof timeopt, "--time=%s", csv);
  const char *base_opts[] = {archopt, KP_NVRTC_OPTIONS, timeopt};
  const char *opts[sizeof base_opts / sizeof base_opts[0] + MAX_EXTRA];
  int nopts = 0, rc = 0, is_ptx = strncmp(arch, "compute_", 8) == 0;
  for (size_t k = 0; k < sizeof base_opts / sizeof base_opts[0]; k++) opts[nopts++] = base_opts[k];
  for (int k = 0; k < nextra; k++) opts[nopts++] = extra[k];

  /* per source: its family and the median of its compiles (wall, CPU) */
  static char fam[MAX_SRC][48];
  static double src_wall[MAX_SRC], src_cpu[MAX_SRC];
  double first_wall = -1, first_cpu = -1;
  int nsrc = 0;
  for (; i < argc; i++) {
    char *src = slurp(argv[i]);
    if (!src) { fprintf(stderr, "%s: cannot read\n", argv[i]); rc = 1; continue; }
    const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    if (prelude) { /* text before the library, the #include, text after it */
      char *at = strstr(src, prelude);
      if (at) {
        size_t pre = (size_t)(at - src), pl = strlen(prelude), rest = strlen(at + pl);
        char *s2 = malloc(pre + rest + 64);
        if (!s2) return 1;
        memcpy(s2, src, pre);
        size_t o = pre + (size_t)sprintf(s2 + pre, "#include \"%s\"\n", hdr_name);
        memcpy(s2 + o, at + pl, rest + 1);
        free(src);
        src = s2;
      }
    }
    double wall[64], cpu[64];
    int nr = 0;
    for (int r = 0; r < reps; r++) {
      nvrtcProgram p;
      remove(csv);
      double t0 = now_ms(), c0 = cpu_ms();
      if (nvrtcCreateProgram(&p, src, base, prelude ? 1 : 0, prelude ? (const char **)&prelude : NULL,
                             prelude ? &hdr_name : NULL) != NVRTC_SUCCESS) {
        rc = 1;
        break;
      }
      nvrtcResult res = nvrtcCompileProgram(p, nopts, opts);
      size_t size = 0;
      char *img = NULL;
      if (res == NVRTC_SUCCESS)
        res = is_ptx ? nvrtcGetPTXSize(p, &size) : nvrtcGetCUBINSize(p, &size);
      if (res == NVRTC_SUCCESS && (img = malloc(size)))
        res = is_ptx ? nvrtcGetPTX(p, img) : nvrtcGetCUBIN(p, img);
      free(img);
      double ms = now_ms() - t0, cms = cpu_ms() - c0;
      char ph[256];
      phases(csv, ph, sizeof ph);
      if (res != NVRTC_SUCCESS) {
        size_t ll = 0;
        nvrtcGetProgramLogSize(p, &ll);
        char *log = malloc(ll + 1);
        if (log && nvrtcGetProgramLog(p, log) == NVRTC_SUCCESS) fprintf(stderr, "%s", log);
        free(log);
      }
      const char *pch = "";
      for (int k = 0; k < nextra; k++)
        if (!strcmp(extra[k], "--pch") || !strcmp(extra[k], "-pch") ||
            !strncmp(extra[k], "--create-pch", 12)) {
          nvrtcResult pr = nvrtcGetPCHCreateStatus(p);
          pch = pr == NVRTC_SUCCESS ? "  pch created"
                : pr == NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED ? "  pch not created"
                : pr == NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED ? "  pch heap exhausted"
                                                              : "  pch failed";
        }
      if (!quiet)
        printf("%-48s %s rep %d  %6.1f ms wall %6.1f ms cpu%s%s%s\n", base, arch, r + 1, ms, cms,
               ph, pch, res == NVRTC_SUCCESS ? "" : "  FAILED");
      fflush(stdout);
      if (res != NVRTC_SUCCESS) rc = 1;
      nvrtcDestroyProgram(&p);
      if (first_wall < 0) first_wall = ms, first_cpu = cms;
      /* the process's first compile pays NVRTC's start-up: not in the medians */
      else if (nr < 64) wall[nr] = ms, cpu[nr++] = cms;
    }
    free(src);
    if (nr) {
      family_of(base, fam[nsrc], sizeof fam[nsrc]);
      src_wall[nsrc] = median(wall, nr);
      src_cpu[nsrc++] = median(cpu, nr);
    }
  }
  remove(csv);
  printf("first compile of the process (NVRTC start-up included): %.1f ms wall, %.1f ms cpu\n",
         first_wall, first_cpu);
  printf("%-16s %5s  %21s  %21s\n", "family", "srcs", "wall ms median/worst", "cpu ms median/worst");
  char done[MAX_FAM][48];
  int nd = 0;
  for (int s = 0; s < nsrc; s++) {
    int seen = 0;
    for (int d = 0; d < nd && !seen; d++) seen = !strcmp(done[d], fam[s]);
    if (seen || nd == MAX_FAM) continue;
    snprintf(done[nd++], sizeof done[0], "%s", fam[s]);
    double w[MAX_SRC], c[MAX_SRC];
    int n = 0;
    for (int t = s; t < nsrc; t++)
      if (!strcmp(fam[t], fam[s])) w[n] = src_wall[t], c[n++] = src_cpu[t];
    double mw = median(w, n), mc = median(c, n);
    printf("%-16s %5d  %10.1f %10.1f  %10.1f %10.1f\n", fam[s], n, mw, w[n - 1], mc, c[n - 1]);
  }
  free(prelude);
  return rc;
}
