/*
** nvrtc_compile.h -- compile one generated source with NVRTC for one target.
*/
#ifndef KG_NVRTC_COMPILE_H
#define KG_NVRTC_COMPILE_H

#include <stddef.h>

typedef struct kg_compile_info {
  int regs, stack, spill_stores, spill_loads;
  int is_ptx;           /* target compute_XY: image is PTX */
  int nvrtc_major, nvrtc_minor;
  double ms;            /* wall time of nvrtcCompileProgram */
  char options[1024];    /* the options, space-separated */
} kg_compile_info;

/*
** target: "sm_90a" (cubin) or "compute_80" (PTX).  On success returns 0 and a
** malloc'd image (PTX is NUL-terminated, size includes the NUL).  On failure
** returns -1 with the NVRTC log (file:line of the generated source) in *log.
** *log is malloc'd either way (ptxas -v output on success); free it.
*/
int kg_nvrtc_compile(const char *src, const char *srcname, const char *target,
                     unsigned char **image, size_t *size, kg_compile_info *info, char **log);

/*
** ptxas (the toolkit's, at path ptxas) on the PTX file ptx (a compute_
** target's image without its closing NUL) for cubin target: the cubin at out,
** registers, stack and spills in *info (the rest is the caller's: the PTX's
** NVRTC version and options); 0 on success.  *log: ptxas's output, or why
** it could not run (malloc'd either way; free it).  gen/ptxas.c.
*/
int kg_ptxas_compile(const char *ptxas, const char *ptx, const char *target, const char *out,
                     kg_compile_info *info, char **log);
/* ptxas -v's registers, stack and spills from a log into *info */
void kg_parse_ptxas(const char *log, kg_compile_info *info);

/* Read back "key=value" lines written by kg_info_write. 0 on success. */
int kg_info_write(const char *path, const kg_compile_info *info);
int kg_info_read(const char *path, kg_compile_info *info);

#endif
