/*
** nvrtc_phases.c -- where NVRTC spends a variant's compile: each source
** compiled REPS times in one process with the options of every kernpack
** compile, printing the wall time and NVRTC's own per-phase times
** (--time: front end, NVVM optimizer, PTX -> SASS).  The first compile of a
** process also pays NVRTC's start-up; the later ones show the steady cost.
**
**   nvrtc_phases [--arch sm_90] [--reps 3] [--opt OPTION]... SOURCE.cu...
**
** --opt adds an NVRTC option (at most 4), e.g. --opt --Ofast-compile=min.
** On a machine with a driver, NVRTC (12.9+) keeps its own cache of results
** in the driver's compute cache: set CUDA_CACHE_DISABLE=1 to time real
** compiles.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nvrtc.h>

#include "nvrtc_opts.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
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

int main(int argc, char **argv) {
  const char *arch = "sm_90";
  int reps = 3, i = 1, nextra = 0;
  const char *extra[4];
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--arch") && i + 1 < argc) arch = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--opt") && i + 1 < argc && nextra < 4) extra[nextra++] = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--arch sm_90] [--reps 3] [--opt OPTION]... SOURCE.cu...\n",
              argv[0]);
      return argv[i][1] == 'h' || argv[i][2] == 'h' ? 0 : 2;
    }
  }
  if (i >= argc || reps < 1) {
    fprintf(stderr, "usage: %s [--arch sm_90] [--reps 3] [--opt OPTION]... SOURCE.cu...\n",
              argv[0]);
    return 2;
  }
  char archopt[64], csv[64], timeopt[96];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
  snprintf(csv, sizeof csv, "/tmp/nvrtc_phases.%d.csv", (int)getpid());
  snprintf(timeopt, sizeof timeopt, "--time=%s", csv);
  const char *base_opts[] = {archopt, KP_NVRTC_OPTIONS, timeopt};
  const char *opts[sizeof base_opts / sizeof base_opts[0] + 4];
  int nopts = 0, rc = 0;
  for (size_t k = 0; k < sizeof base_opts / sizeof base_opts[0]; k++) opts[nopts++] = base_opts[k];
  for (int k = 0; k < nextra; k++) opts[nopts++] = extra[k];
  for (; i < argc; i++) {
    char *src = slurp(argv[i]);
    if (!src) { fprintf(stderr, "%s: cannot read\n", argv[i]); rc = 1; continue; }
    const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
    for (int r = 0; r < reps; r++) {
      nvrtcProgram p;
      remove(csv);
      if (nvrtcCreateProgram(&p, src, base, 0, NULL, NULL) != NVRTC_SUCCESS) { rc = 1; break; }
      double t0 = now_ms();
      nvrtcResult res = nvrtcCompileProgram(p, nopts, opts);
      double ms = now_ms() - t0;
      char ph[256];
      phases(csv, ph, sizeof ph);
      printf("%-48s %s rep %d  %6.1f ms%s%s\n", base, arch, r + 1, ms, ph,
             res == NVRTC_SUCCESS ? "" : "  FAILED");
      if (res != NVRTC_SUCCESS) rc = 1;
      nvrtcDestroyProgram(&p);
    }
    free(src);
  }
  remove(csv);
  return rc;
}
