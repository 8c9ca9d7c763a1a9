/*
** jit.h -- compile a variant's source at first use with NVRTC (dlopen'ed
** only when needed) and keep the result in an on-disk cache.
**
** Cache key: FNV-1a-64 and CRC-32 over the generated source (self-contained:
** the device library is pasted in, there are no includes), the NVRTC options,
** the exact target (sm_90a, sm_90 and compute_90 differ), the NVRTC version
** and the pack format version.  Never paths or modification times.
**
** Cache directory: $KP_CACHE_DIR, else $XDG_CACHE_HOME/kernpack, else
** ~/.cache/kernpack; entries live in <dir>/v1/<target>/<variant>-<key>.bin
** with a small header (magic, size, CRC), written to a temporary file and
** renamed into place.  Concurrent compiles of one entry are serialised with
** flock() on <entry>.lock (released by the kernel if a process dies), with a
** timeout after which the process compiles for itself without writing.  A
** corrupt or truncated entry fails its CRC and is rebuilt.  A read-only or
** missing cache directory still works, in memory only.
*/
#ifndef KP_JIT_H
#define KP_JIT_H

#include "internal.h"
#include "pack.h"

typedef struct kp_jit_out {
  unsigned char *image; /* malloc'd cubin (or PTX for compute_XY), caller frees */
  size_t size;
  int from_cache;       /* 1: read from the disk cache, 0: compiled now */
  double ms;            /* wall time of the lookup or compile */
  char key[40];         /* hex cache key */
  char path[700];       /* cache entry path ("" when the cache is unusable) */
} kp_jit_out;

/*
** First use from the pack's PTX: where the JIT's source pack is a PTX pack
** (compute_80.kpk), entry i is loaded as its PTX, which the driver compiles
** for the device (whole-program ptxas, NVRTC's own last phase), instead of
** NVRTC compiling the source for `target`: the front end and NVVM (55-65% of
** an NVRTC compile) are skipped.  Only where that is the same code: NVVM
** emits the same PTX for compute_80 as for sm_80..sm_90, and for compute_100
** as for sm_100 and sm_110, so ptxas makes the same SASS (checked over every
** variant for compute_80 -> sm_90 and sm_90a and compute_100 -> sm_100 and
** sm_110, compute_103 -> sm_103, compute_120 -> sm_120, compute_121 ->
** sm_121, samples for sm_86 and sm_89: bench/NOTES.md items 28, 51, 53, 55);
** compute_80 PTX for sm_100 and newer, compute_100 PTX for sm_103 (64 of 241
** variants checked differ) and compute_120 PTX for sm_121 are different code.
** Hence: PTX of compute_80..90 for an sm_80..sm_9x target, compute_100 PTX
** for sm_100 or sm_110, compute_103 / compute_120 / compute_121 PTX for its
** own GPU (the first three PTX packs are built by default, compute_120 and
** compute_121 on request: the sm_120 cubin pack serves those GPUs; the
** context loads the one whose route serves its GPU, ctx.c), else NVRTC; no
** __CUDA_ARCH
** test in the source but the device library's guard of the PDL
** instructions (compute_80 PTX on an sm_9x GPU: the same code less those;
** launch.c then launches it without PDL); KP_JIT is not "nvrtc".
*/
int kp_jit_from_ptx(const kpk_pack *pk, uint32_t i, const char *target);
/* The rule itself, for a pack target, a JIT target and a source (1: PTX). */
int kp_jit_ptx_ok(const char *pack_target, const char *target, const char *src, size_t srclen);
/* Its targets' part: 1 where pack_target's (compute_NN) PTX is what NVRTC
** makes for an sm_<sm> GPU. */
int kp_jit_ptx_route(const char *pack_target, int sm);

/* NVRTC version through dlopen; KP_ERR_UNSUPPORTED with a message if absent. */
kp_status kp_nvrtc_version(int *major, int *minor, char *err, size_t errlen);

/* The cache key of (source, target) under the NVRTC found at run time. */
kp_status kp_jit_key(const char *src, size_t srclen, const char *target, char key[40], char *err,
                     size_t errlen);

/* The cache directory in use (not created). */
void kp_jit_cache_dir(char *out, size_t n);
/* mkdir -p; 0 on success (or if it exists). */
int kp_mkdirs(const char *path);

/*
** Get the image of `name` (a variant, its source src) for `target`: from the
** cache if a valid entry exists, else compile it (at most one process at a
** time per entry) and store it.  log_ctx is used for info/debug logging
** only.  Errors: KP_ERR_UNSUPPORTED (no NVRTC), KP_ERR_CUDA (NVRTC failed;
** the message holds its log), KP_ERR_NOMEM.
*/
kp_status kp_jit_get(const kp_ctx *log_ctx, const char *name, const char *src, size_t srclen,
                     const char *target, kp_jit_out *out, char *err, size_t errlen);

#endif
