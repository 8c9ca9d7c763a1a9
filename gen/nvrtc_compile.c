/*
** nvrtc_compile.c -- NVRTC for the build (the runtime's JIT loads NVRTC
** with dlopen instead; the generator may link it because it only ever runs
** where the toolkit is installed).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvrtc.h>

#include "nvrtc_compile.h"
#include "nvrtc_opts.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ptxas -v: "Used 32 registers", "16 bytes stack frame, 0 bytes spill
** stores, 0 bytes spill loads".  One kernel per source, so one of each. */
void kg_parse_ptxas(const char *log, kg_compile_info *info) {
  const char *p;
  if ((p = strstr(log, "Used "))) sscanf(p, "Used %d registers", &info->regs);
  if ((p = strstr(log, "bytes stack frame")) != NULL) {
    while (p > log && p[-1] == ' ') p--;
    while (p > log && p[-1] >= '0' && p[-1] <= '9') p--;
    sscanf(p, "%d bytes stack frame, %d bytes spill stores, %d bytes spill loads",
           &info->stack, &info->spill_stores, &info->spill_loads);
  }
}

int kg_nvrtc_compile(const char *src, const char *srcname, const char *target,
                     unsigned char **image, size_t *size, kg_compile_info *info, char **log) {
  memset(info, 0, sizeof *info);
  *image = NULL;
  *size = 0;
  *log = NULL;
  info->is_ptx = strncmp(target, "compute_", 8) == 0;
  nvrtcVersion(&info->nvrtc_major, &info->nvrtc_minor);

  char arch[64];
  snprintf(arch, sizeof arch, "--gpu-architecture=%s", target);
  const char *opts[] = {arch, KP_NVRTC_OPTIONS};
  int nopts = (int)(sizeof opts / sizeof opts[0]);
  size_t olen = 0;
  for (int i = 0; i < nopts; i++)
    olen += (size_t)snprintf(info->options + olen, sizeof info->options - olen, "%s%s",
                             i ? " " : "", opts[i]);

  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, src, srcname, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    const char *m = nvrtcGetErrorString(r);
    *log = malloc(strlen(m) + 64);
    if (*log) sprintf(*log, "nvrtcCreateProgram: %s", m);
    return -1;
  }
  double t0 = now_ms();
  r = nvrtcCompileProgram(prog, nopts, opts);
  info->ms = now_ms() - t0;
  size_t loglen = 0;
  nvrtcGetProgramLogSize(prog, &loglen);
  *log = malloc(loglen + 1);
  if (*log) {
    (*log)[0] = 0;
    nvrtcGetProgramLog(prog, *log);
    kg_parse_ptxas(*log, info);
  }
  if (r != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    return -1;
  }
  if (info->is_ptx) {
    r = nvrtcGetPTXSize(prog, size);
    if (r == NVRTC_SUCCESS && (*image = malloc(*size))) r = nvrtcGetPTX(prog, (char *)*image);
  } else {
    r = nvrtcGetCUBINSize(prog, size);
    if (r == NVRTC_SUCCESS && (*image = malloc(*size))) r = nvrtcGetCUBIN(prog, (char *)*image);
  }
  nvrtcDestroyProgram(&prog);
  if (r != NVRTC_SUCCESS || !*image) {
    free(*image);
    *image = NULL;
    return -1;
  }
  return 0;
}

int kg_info_write(const char *path, const kg_compile_info *in) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f,
          "regs=%d\nstack=%d\nspill_stores=%d\nspill_loads=%d\nis_ptx=%d\nnvrtc=%d.%d\n"
          "compile_ms=%.1f\noptions=%s\n",
          in->regs, in->stack, in->spill_stores, in->spill_loads, in->is_ptx, in->nvrtc_major,
          in->nvrtc_minor, in->ms, in->options);
  return fclose(f) == 0 ? 0 : -1;
}

int kg_info_read(const char *path, kg_compile_info *in) {
  memset(in, 0, sizeof *in);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[1024];
  int seen = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    seen += sscanf(line, "regs=%d", &in->regs) + sscanf(line, "stack=%d", &in->stack) +
            sscanf(line, "spill_stores=%d", &in->spill_stores) +
            sscanf(line, "spill_loads=%d", &in->spill_loads) +
            sscanf(line, "is_ptx=%d", &in->is_ptx) +
            sscanf(line, "compile_ms=%lf", &in->ms);
    if (sscanf(line, "nvrtc=%d.%d", &in->nvrtc_major, &in->nvrtc_minor) == 2) seen++;
    if (strncmp(line, "options=", 8) == 0) {
      snprintf(in->options, sizeof in->options, "%s", line + 8);
      seen++;
    }
  }
  fclose(f);
  return seen >= 8 ? 0 : -1;
}
