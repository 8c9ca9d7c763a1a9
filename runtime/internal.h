/*
** internal.h -- the context and the pieces of the runtime that share it.
** Nothing here is exported from libkernpack.so (-fvisibility=hidden).
**
**   ctx.c     create/destroy, device properties, pack discovery, errors, log
**   select.c  which pack fits a device; which variant fits a call (pure)
**   launch.c  per-call variant cache, lazy module load, cuLaunchKernel
**   ops.c     the public ops: argument checks, alignment, kernel arguments
*/
#ifndef KP_INTERNAL_H
#define KP_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>

#include "driver.h"
#include "kernpack.h"
#include "pack.h"

/* The families the runtime knows how to launch: the kernel argument kinds
** each expects, its named dimensions (both checked against every pack
** entry before use, so a pack built from different templates cannot be
** launched with wrong arguments) and whether its kernels may be launched
** with PDL (1: every kernel of the family waits for the grid before it
** before its first global access, kp_grid_wait in templates/kp_device.cuh;
** tests/check_graph_gpu.c reads every pack's sources for it).  Adding a
** family is one line here, its op in ops*.c and its template.  Argument
** kinds: p pointer, l int64, i int32, f float, d double, T a 128-byte TMA
** descriptor (CUtensorMap).  Dimensions: kp_dims_parse; ":pow2" ones are
** bucketed by powers of two in the selection cache and the tuning table,
** the others keyed exactly. */
#define KP_ROW_DIMS "rows:pow2,cols"
#define KP_FAMILY_LIST(X)                                                                   \
  X(SOFTMAX, "softmax", "p,l,p,l,i,i", KP_ROW_DIMS, 1)                                     \
  X(RMSNORM, "rmsnorm", "p,l,p,p,l,i,i,f", KP_ROW_DIMS, 1)                                 \
  X(ADD_RMSNORM, "add_rmsnorm", "p,l,p,l,p,p,l,i,i,f", KP_ROW_DIMS, 1)                     \
  X(SWIGLU, "swiglu", "p,p,l,p,l,i,i", KP_ROW_DIMS, 1)                                     \
  X(GEGLU, "geglu", "p,p,l,p,l,i,i,i", KP_ROW_DIMS, 1)                                     \
  X(RMSNORM_SWIGLU, "rmsnorm_swiglu", "p,l,p,p,l,i,i,f", KP_ROW_DIMS, 1)                   \
  X(ROPE, "rope", "p,p,p,p,p,l,l,l,l,l,i,i,i,i,i,d", KP_ROW_DIMS, 1)                       \
  X(GEMM, "gemm", "p,l,l,p,l,l,p,l,l,p,l,l,p,i,i,i,i,f,f,i,i,T,T,T",                       \
    "m:pow2,n,k,batch:pow2", 1)                                                            \
  X(ATTENTION, "attention", "p,l,l,l,p,l,l,l,p,l,l,l,p,l,l,l,p,i,i,i,i,i,i,i,i,f,p,l,i,i,p,p,i,i,p,T,T,T,T", \
    "lq:pow2,lk:pow2,bh:pow2,d,g:pow2", 0)

/* GEMM's call form: bit 0 B as (k, n); bit 1 (KP_GEMM_TERMS) the call has
** epilogue terms -- alpha != 1, C with beta != 0, a bias, an activation or
** an f32 D.  Plain-only variants (`_pl`, templates/gemm.lua) compute forms 0
** and 1 alone: the terms' code, never run by a plain call, still cost the
** kernels that carry it 3-8% at m = 128 (bench/NOTES.md 74). */
#define KP_GEMM_TERMS 2u
static inline uint32_t kp_gemm_form(int kn, float alpha, int has_c, int has_bias, int act,
                                    int out_f32) {
  return (uint32_t)kn | (alpha != 1.f || has_c || has_bias || act || out_f32 ? KP_GEMM_TERMS : 0u);
}

/* Row families' dimension indices: pack.h (KP_ROWS, KP_COLS).  GEMM's: */
#define KP_GM 0
#define KP_GN 1
#define KP_GK 2
#define KP_GBATCH 3
/* Attention's: query and key lengths, batch x query heads, head dim, query
** heads per KV head (GQA's group: the decode kernels pack a group's heads
** into one tile, so the best variant depends on it). */
#define KP_ALQ 0
#define KP_ALK 1
#define KP_ABH 2
#define KP_AD 3
#define KP_AG 4
/* Attention's form bit of a decode call with enough split-KV workspace
** (runtime/ops_attention.c; named "+ws" in the tune table, which kp tune
** times with one) */
#define KP_ATTN_FORM_WS 16u
/* ... and of a decode call whose packed tiles could each take a cluster of
** the largest size at once ("+wave": templates/attention.lua ranks the
** decode clusters first there) */
#define KP_ATTN_FORM_WAVE 32u
/* The forms of calls with a split-KV workspace: bit f set where f has bit 4 */
#define KP_ATTN_WS_FORMS 0xFFFF0000FFFF0000ull
/* The decode kernels' packed query tiles for attention dims (lq, bh = batch
** x query heads, g query heads a KV head): a KV head's g query heads and
** their lq rows, 16 rows a tile -- batch x KV heads x ceil(g lq / 16) */
static inline uint64_t kp_attn_decode_tiles(uint64_t lq, uint64_t bh, uint64_t g) {
  return bh / g * ((g * lq + 15) / 16);
}
/* The SMs a decode call (lq <= 16) of those dims needs for "+wave": its
** packed tiles times the largest cluster; 0 for any other call */
static inline uint64_t kp_attn_wave_sms(uint64_t lq, uint64_t bh, uint64_t g) {
  return lq > 16 || !g ? 0 : kp_attn_decode_tiles(lq, bh, g) * KPK_MAX_CLUSTER;
}
/* KP_ATTN_FORM_WAVE or 0 for those dims on sm_count SMs (kp_attention sets
** it; kp tune keys its rows by it too, and kp tune --list prints the SMs) */
static inline uint32_t kp_attn_wave_bit(uint64_t lq, uint64_t bh, uint64_t g, int sm_count) {
  const uint64_t need = kp_attn_wave_sms(lq, bh, g);
  return need && sm_count > 0 && need <= (uint64_t)sm_count ? KP_ATTN_FORM_WAVE : 0;
}

typedef enum kp_family {
#define KP_FAMILY_ENUM_(id, name, sig, dims, pdl) KP_FAM_##id,
  KP_FAMILY_LIST(KP_FAMILY_ENUM_)
#undef KP_FAMILY_ENUM_
  KP_FAM_COUNT
} kp_family;

const char *kp_family_name(kp_family f);
/* The family / dtype named s ("softmax", "bf16"), or -1. */
int kp_family_from_name(const char *s);
int kp_dtype_from_name(const char *s);
const char *kp_family_signature(kp_family f);
/* The family's dimensions as written in KP_FAMILY_LIST, and parsed. */
const char *kp_family_dims_text(kp_family f);
const kp_dims *kp_family_dims(kp_family f);
/* Where a loaded function's parameters sit in the one buffer a launch can
** hand the driver instead of a pointer per parameter (runtime/launch.c):
** the driver's word (cuFuncGetParamInfo), not the C rules -- on sm_90 a
** 64-byte-aligned TMA map sits at 176, not 192, after 136 bytes. */
enum { KP_PARAMS_MAX = 48, KP_PARAM_BYTES_MAX = 1024 };
typedef struct kp_param_layout {
  int n;
  unsigned bytes; /* the buffer's size */
  unsigned short off[KP_PARAMS_MAX];
  unsigned char size[KP_PARAMS_MAX];
} kp_param_layout;

/* ---- select.c -------------------------------------------------------------- */

/* What a call needs; the device side of applicability. */
typedef struct kp_call {
  kp_family family;
  kp_dtype dtype;
  uint32_t align;     /* bytes: largest power of two <= 16 dividing every pointer and
                      ** row (and batch) stride */
  uint32_t form;      /* < KPK_FORMS: GeGLU's kp_gelu, RoPE's kp_rope_layout, GEMM's
                      ** kp_b_layout; else 0 */
  uint64_t dim[KPK_DIMS]; /* in the family's order (KP_ROWS, KP_COLS; KP_GM, ...), each
                      ** >= 1; unused ones 1 */
} kp_call;

/* "32768x8192" (the call's dims in the family's order) into out. */
const char *kp_shape_str(const kp_call *c, char *out, size_t n);

typedef struct kp_devprops {
  int sm;             /* 90 */
  size_t smem_optin;  /* max dynamic shared memory per block after opt-in */
  int sm_count;       /* persistent variants' grid */
} kp_devprops;

/* Is entry e usable for this call on this device?  If not and why != NULL,
** says which constraint failed.  (The tuner, a tuning table's pick and a
** pin may run any entry that applies.) */
int kp_entry_applies(const kpk_entry *e, const kp_call *c, const kp_devprops *d, char *why,
                     size_t whylen);
/* Does e apply, and may the ranking pick it for c?  An entry with max_align
** is ranked for calls aligned to at most that alone (a kernel for rows off
** the 16-byte grid ranked above the aligned ones there): a better-aligned
** call keeps the ranking's other picks, though e runs it correctly. */
int kp_entry_ranked(const kpk_entry *e, const kp_call *c, const kp_devprops *d, char *why,
                    size_t whylen);
/* Entry e's rank for call c: its prefer_rank where the call's form is one of
** its prefer_forms, else its rank. */
int32_t kp_entry_rank(const kpk_entry *e, const kp_call *c);
/* A persistent entry's work on the busiest SM for call c, in tile elements
** (its tiles dealt in rounds to persist x sm_count CTAs; pow2 dimensions at
** their class's top), and its tiles (times split) in *tiles; 0 when e is
** not persistent or the SM count is unknown. */
double kp_entry_fill(const kpk_entry *e, const kp_call *c, const kp_devprops *d, double *tiles);
/* Index of the highest-ranked applicable entry (ties: the persistent entry
** that fills the device best, kp_entry_fill, else the lowest index), or -1
** with an explanation in why. */
int kp_select_variant(const kpk_pack *pk, const kp_call *c, const kp_devprops *d, char *why,
                      size_t whylen);
/* How well a pack target serves a device: 0 exact arch-specific cubin
** (sm_90a on sm 90), 1 exact cubin, 2 older cubin of the same major, 3 PTX
** no newer than the device; -1 unusable.  Lower is better; for 2 and 3 the
** caller prefers the newest. */
int kp_target_score(const char *target, int sm, int *target_sm);

/* ---- ctx.c -------------------------------------------------------------- */
/* The pack file of dir (TARGET.kpk names) a device of sm_<sm> loads, into
** path: its kp_target_score, -1 for none; among PTX packs the one whose PTX
** is the GPU's own first (kp_jit_ptx_route), then the newest.  sm 0: any
** pack, PTX first. */
int kp_best_pack_in(const char *dir, int sm, char *path, size_t n);

/* The selection cache's key: family, dtype, alignment, form and each
** dimension's class -- its exact value, or for a pow2 dimension its rows
** class (launch.c).  A zeroed key (used = 0) is an empty slot. */
typedef struct kp_key {
  uint64_t cls[KPK_DIMS];
  uint32_t used, family, dtype, align, form;
} kp_key;

typedef struct kp_slot {
  kp_key key;
  CUfunction fn;
  const kpk_entry *e;
} kp_slot;

#define KP_CACHE_SLOTS 1024

struct kp_ctx {
  const kp_driver *drv;     /* NULL for a pack-only (KP_NO_DEVICE) ctx */
  int ordinal;
  CUdevice dev;
  CUcontext cu;
  int owns_primary;
  kp_device_info info;
  kp_devprops props;
  kpk_pack pack;
  int have_pack;
  char pack_err[768];       /* why no pack is loaded, reported on first op */
  kp_status pack_status;
  pthread_mutex_t lock;     /* guards modules/funcs/cache below */
  CUmodule *modules;        /* per pack entry, loaded on first use */
  CUfunction *funcs;
  int *fit;                 /* per persistent or cluster pack entry: how many of its
                               clusters (a cluster shape) or of its CTAs an SM (none)
                               fit on the device at once (0: not asked yet, -1: the
                               driver could not say) */
  kp_slot cache[KP_CACHE_SLOTS];
  int cache_used;
  kp_log_fn log;
  void *log_ud;
  kp_log_level log_level;
  struct kp_tune_table *tune; /* loaded autotune table, or NULL */
  char jit_target[16];      /* non-empty: compile the pack's sources for this target */
  int no_jit;
  int autotune;             /* online tuning on first use of a shape key */
  char tune_path[600];      /* where online tuning records its results */
  int pin;                  /* $KP_VARIANT's pack entry: every call of its family
                               and dtype runs it (or fails saying why); -1: none */
  int pdl;                  /* kp_ctx_set_pdl: 0/1, read and written atomically */
  int pdl_device;           /* the device and driver can launch with PDL */
  unsigned char *pdl_code;  /* per pack entry, set at load (lock held): a PDL
                               family's code built for sm_90+ (has the griddepcontrol) */
  kp_param_layout **params; /* per pack entry, set at load (lock held): its function's
                               parameter layout (launched with one buffer), or NULL
                               (a pointer per parameter) */
};

/* Record the detail message for this ctx and thread; returns s. */
kp_status kp_fail(const kp_ctx *ctx, kp_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Record a failed driver call: "<what>: CUDA_ERROR_X (text) at file:line". */
kp_status kp_cu_fail(const kp_ctx *ctx, CUresult r, const char *what, const char *file,
                     int line);
void kp_log(const kp_ctx *ctx, kp_log_level lvl, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Evaluate a driver call; on failure record it and jump to `done` with st set. */
#define KP_CU(ctx, call)                                              \
  do {                                                                \
    CUresult kp_r_ = (call);                                          \
    if (kp_r_ != CUDA_SUCCESS) {                                      \
      st = kp_cu_fail((ctx), kp_r_, #call, __FILE__, __LINE__);       \
      goto done;                                                      \
    }                                                                 \
  } while (0)

/* ---- launch.c ------------------------------------------------------------ */

/* Pick (cached) and launch the variant for `c` on kp_grid_blocks() blocks.
** args are the kernel arguments in signature order. */
kp_status kp_launch(kp_ctx *ctx, const kp_call *c, void **args, void *stream);
/* Two steps, for ops whose arguments depend on the variant (GEMM's TMA
** descriptors): resolve the variant (the context is made current and stays
** so until kp_launch_slot or kp_launch_end), then launch it. */
kp_status kp_launch_begin(kp_ctx *ctx, const kp_call *c, void **args, void *stream,
                          kp_slot *s, int *pushed);
kp_status kp_launch_slot(kp_ctx *ctx, const kp_call *c, const kp_slot *s, void **args,
                         void *stream, int pushed);
void kp_launch_end(kp_ctx *ctx, int pushed);
/* KP_OK when the driver encodes TMA descriptors (cuTensorMapEncodeTiled, a
** CUDA 12 entry point), else KP_ERR_UNSUPPORTED naming op and variant e. */
kp_status kp_need_tma(kp_ctx *ctx, const char *op, const kpk_entry *e);
/* cuTensorMapEncodeTiled with the flags every TMA variant uses (element
** strides 1, no interleave, 128-byte swizzle, 256-byte L2 promotion, zeros
** out of bounds) for a rank-dimensional (<= 5) tensor at p, through a small
** per-thread cache of encoded maps: a call whose inputs match an earlier
** one's exactly gets that map's bytes again (encoding is a pure function of
** them; the driver's call cost ~0.4 us, four a persistent attention call).
** A failure names `what` and file:line (kp_cu_fail). */
kp_status kp_tmap_encode(kp_ctx *ctx, CUtensorMap *map, kp_dtype dt, int rank, const void *p,
                         const cuuint64_t *dims, const cuuint64_t *strides,
                         const cuuint32_t *box, int swizzle, const char *what, const char *file,
                         int line);
/* kp_tmap_encode's swizzle: the box in shared memory as TMA's 128-byte
** swizzle lays it out (loads the wgmma reads), or row after row (stores) */
enum { KP_TMAP_PLAIN = 0, KP_TMAP_SW128 = 1 };
/* The cache's counters for this thread (tests): encodes done, hits. */
void kp_tmap_cache_stats(uint64_t *encodes, uint64_t *hits);
/* The grid a call needs from entry e, in grid.x: the product over the
** dimensions with a tile of ceil(dim / tile) (row families: row blocks,
** times column chunks where the entry has a cols tile; GEMM: m tiles x n
** tiles x batch); the kernel decodes blockIdx.x itself.  A persistent entry
** gets at most persist x sm_count blocks.  KP_ERR_UNSUPPORTED when that is
** more than 0x7FFFFFFF blocks (*blocks still says how many, saturated at
** UINT64_MAX). */
kp_status kp_grid_blocks(const kpk_entry *e, const kp_call *c, int sm_count, uint64_t *blocks);
/* A plain persistent grid of `grid` CTAs (persist an SM) where only `fit`
** CTAs of it fit an SM at once (its shared memory, registers): capped at
** fit x sm_count; fit <= 0 (unknown) or >= persist leaves it as it is */
uint64_t kp_persist_grid(uint64_t grid, unsigned persist, int fit, int sm_count);
/* Launch entry e (of ctx's pack) as fn over `grid` blocks: its cluster
** dimension and PDL through cuLaunchKernelEx, else cuLaunchKernel. */
kp_status kp_launch_entry(kp_ctx *ctx, const kpk_entry *e, CUfunction fn, uint64_t grid,
                          void **args, void *stream, int pdl);
/* A pow2 dimension's selection class, by its top value: v itself for a
** power of two, else v rounded up to an eighth of its octave (2^(r-1), 2^r)
** (a multiple of 2^(r-4)): 640 and 600 share 640, 1000 rounds to 1024
** (without being 1024's class, kp_cache_key).  Every bound a pow2 dimension
** may have (a power of two, one more or one less) has one answer within a class,
** and the fill tie-break counts tiles at the top. */
uint64_t kp_pow2_class_top(uint64_t v);
/* The per-call cache key (kp_key): see select.c. */
kp_key kp_cache_key(const kp_call *c);
/* KP_ERR_PACK_VERSION (with a message) unless e's signature and dims are the
** family's in this library. */
kp_status kp_entry_fits_family(const kp_ctx *ctx, const kpk_entry *e, const kp_call *c);
void kp_launch_release(kp_ctx *ctx);
/* Load entry i's module (from the pack, or JIT-compiled); lock held. */
kp_status kp_load_entry(kp_ctx *ctx, uint32_t i);

/* Do family f's kernels wait for the grid before them (kp_grid_wait,
** templates/kp_device.cuh)?  Only those are launched with PDL: KP_FAMILY_LIST's
** last column (the row families and GEMM). */
int kp_family_pdl(kp_family f);
/* May entry e (of a PDL family, code built for sm_90+) be launched with PDL
** on a device of smem_per_sm bytes of shared memory an SM?  Not a cluster
** kernel whose CTAs could share an SM: launched early, its clusters go to
** the SMs the kernel ahead leaves free at that moment, not one an SM as on
** an idle GPU (bench/NOTES.md 73). */
int kp_entry_pdl_placement_ok(const kpk_entry *e, size_t smem_per_sm);

/* ---- autotune.c --------------------------------------------------------- */

/* May this call be timed on its own arguments (no input is also an output)? */
int kp_autotune_safe(const kp_call *c, void **args);
/* Time the applicable variants on the call's arguments (lock held, context
** current), record them in ctx->tune and on disk; *best = the fastest entry,
** or -1 when there was nothing to choose between. */
kp_status kp_autotune(kp_ctx *ctx, const kp_call *c, void **args, CUstream stream, int *best);

/* Resolve and load (JIT-compiling if needed) the variant a call would use,
** without launching: `kp warmup`. */
kp_status kp_prepare(kp_ctx *ctx, const kp_call *c, const kpk_entry **chosen);
/* For the tuner: the calling thread's next launches use pack entry `entry`
** (if it applies) instead of the selection rule; -1 restores the rule. */
void kp_force_variant(int entry);
/* Which entry a call would get, and why (table row, bucket or ranking). */
int kp_explain(kp_ctx *ctx, const kp_call *c, char *why, size_t whylen);

/* ---- ops.c ---------------------------------------------------------------- */

/* The call an op runs a call of c's shape as, where its tensors are
** contiguous and start on the 16-byte grid: 1 and *c reshaped, or 0 and *c
** as it was (the GLUs' glu_flatten; for `kp explain`). */
int kp_op_reshape(kp_call *c);

/* A call's alignment from one of its addresses or strides in bytes: the
** largest power of two <= 16 dividing v (16 for v == 0). */
static inline uint32_t kp_align_of(uint64_t v) {
  uint32_t a = 16;
  while (a > 1 && v % a) a >>= 1;
  return a;
}

#endif /* KP_INTERNAL_H */
