/*
** nvrtc_opts.h -- the NVRTC options of every compile, at build time
** (gen/nvrtc_compile.c) and at run time (runtime/jit.c), so that a variant
** JIT-compiled on first use is the same code the pack would have held.
** No -lineinfo: it triples the size of every image.  --minimal leaves out
** the declarations of texture/surface functions and the device runtime
** (none used here): 4-9 ms less NVRTC front end per compile, the same code.
*/
#ifndef KP_NVRTC_OPTS_H
#define KP_NVRTC_OPTS_H

/* KP_NVRTC_EXTRA: one more option, from `make NVRTC_EXTRA=...` (for
** experiments such as --Ofast-compile=mid; the cache key includes it). */
#ifdef KP_NVRTC_EXTRA
#define KP_NVRTC_OPTIONS \
  "--std=c++17", "--minimal", "--ptxas-options=-v", "--extra-device-vectorization", KP_NVRTC_EXTRA
#else
#define KP_NVRTC_OPTIONS "--std=c++17", "--minimal", "--ptxas-options=-v", "--extra-device-vectorization"
#endif

#endif
