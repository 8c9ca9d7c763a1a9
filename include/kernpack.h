/*
** kernpack.h -- the whole public contract of libkernpack.
**
** kernpack runs transformer kernels (softmax, RMSNorm, SwiGLU, RoPE, ...)
** that were generated from Lua templates and compiled ahead of time with
** NVRTC into per-architecture cubin packs.  The library loads the CUDA
** driver with dlopen, so it links and loads on machines without one and
** reports KP_ERR_NO_DRIVER there.
**
** Conventions
** - Every fallible call returns kp_status; results go through the last
**   out-parameter.  A per-context detail message (kp_ctx_errmsg) says what
**   was wrong and where.
** - Device pointers are plain `void *` (a CUdeviceptr cast to a pointer);
**   a stream is a CUstream cast to `void *` (NULL = the legacy stream).
** - Shapes are in elements; strides ("ld") are in elements between the
**   starts of consecutive rows and must be >= the row length.
** - Every op accumulates in fp32 whatever the storage dtype.
** - Thread safety: a kp_ctx may be used from several threads at once.
**   The library never prints (unless the application installs a log
**   callback or sets KP_LOG), never exits and never aborts.
** - No CUDA header is needed to use this one.
*/
#ifndef KERNPACK_H
#define KERNPACK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define KP_API __attribute__((visibility("default")))
#else
#define KP_API
#endif

#define KP_VERSION_MAJOR 0
#define KP_VERSION_MINOR 1
#define KP_VERSION_PATCH 0
#define KP_VERSION_STRING "0.1.0"
/* Runtime twin of the macros: the version of the library actually loaded. */
KP_API const char *kp_version(void);

/*
** Status codes.  One list defines the enum, kp_status_name() and
** kp_strerror(), so they cannot drift apart.
*/
#define KP_STATUS_LIST(X)                                                     \
  X(KP_OK, "success")                                                         \
  X(KP_ERR_INVALID_ARG, "invalid argument")                                   \
  X(KP_ERR_UNSUPPORTED, "unsupported dtype, shape or architecture")           \
  X(KP_ERR_MISALIGNED, "pointer or stride not aligned to the element size")   \
  X(KP_ERR_NO_DRIVER, "CUDA driver library not found")                        \
  X(KP_ERR_NO_DEVICE, "no usable CUDA device")                                \
  X(KP_ERR_CUDA, "CUDA driver call failed")                                   \
  X(KP_ERR_PACK_NOT_FOUND, "no kernel pack found")                            \
  X(KP_ERR_PACK_CORRUPT, "kernel pack is corrupt or truncated")              \
  X(KP_ERR_PACK_VERSION, "kernel pack has an unsupported format version")     \
  X(KP_ERR_NO_VARIANT, "no kernel variant applies to this call")              \
  X(KP_ERR_IO, "file input/output error")                                     \
  X(KP_ERR_NOMEM, "out of host memory")

typedef enum kp_status {
#define KP_STATUS_ENUM_(name, text) name,
  KP_STATUS_LIST(KP_STATUS_ENUM_)
#undef KP_STATUS_ENUM_
  KP_STATUS_COUNT_
} kp_status;

/* "KP_ERR_CUDA" for KP_ERR_CUDA; "KP_UNKNOWN" outside the list. */
KP_API const char *kp_status_name(kp_status s);
/* Fixed English text for a status; never NULL. */
KP_API const char *kp_strerror(kp_status s);

/* Storage dtypes.  Accumulation is always fp32. */
typedef enum kp_dtype { KP_F32 = 0, KP_F16 = 1, KP_BF16 = 2, KP_DTYPE_COUNT_ } kp_dtype;
/* "f32", "f16", "bf16"; NULL for anything else. */
KP_API const char *kp_dtype_name(kp_dtype dt);
/* Bytes per element; 0 for an unknown dtype. */
KP_API size_t kp_dtype_size(kp_dtype dt);

typedef struct kp_ctx kp_ctx;

/* Log levels for the optional callback (and KP_LOG=error|warn|info|debug). */
typedef enum kp_log_level { KP_LOG_ERROR = 0, KP_LOG_WARN, KP_LOG_INFO, KP_LOG_DEBUG } kp_log_level;
typedef void (*kp_log_fn)(void *userdata, kp_log_level level, const char *msg);

/*
** Context options.  Zero-initialise (or call kp_options_init) and set what
** you need.  Strings are copied; the struct may be freed after create.
*/
typedef struct kp_options {
  int device;             /* CUDA device ordinal; KP_NO_DEVICE for pack-only use */
  int use_current_context; /* 1: run in the calling thread's current context
                             (must belong to `device`); 0: the device's
                             primary context (retained for the ctx lifetime) */
  const char *pack_dir;   /* directory holding <target>.kpk; NULL: $KP_PACK_DIR,
                             then the build/install default */
  const char *pack_path;  /* explicit pack file; overrides pack_dir */
  kp_log_fn log;          /* NULL: silent unless $KP_LOG is set (then stderr) */
  void *log_userdata;
  kp_log_level log_level; /* most verbose level passed to `log` */
  const char *tune_path;  /* autotune table; NULL: $KP_TUNE_FILE, else
                             <target>.<device>.tune (sm_90a.nvidia-h200.tune)
                             beside the pack, else in the cache dir */
  int no_jit;             /* 1: never compile at run time (also $KP_NO_JIT=1) */
  int autotune;           /* 1: the first call with a new shape key times the
                             candidates on its own arguments (bounded by
                             $KP_AUTOTUNE_BUDGET_MS, default 200) and records the
                             winner in the table (also $KP_AUTOTUNE=1).  Never for
                             calls that update an input in place (add_rmsnorm,
                             rope, or an output equal to an input). */
  int pdl;                /* 1: programmatic dependent launch for the row ops
                             and GEMM (also $KP_PDL=1); see kp_ctx_set_pdl */
  void *reserved_[5];     /* keeps the size fixed as options are added */
} kp_options;

/* sizeof(kp_options) in this build: bindings check their mirror of it. */
KP_API size_t kp_options_sizeof(void);

#define KP_NO_DEVICE (-1)

/* Default options: device 0, primary context, packs from the default dir. */
KP_API void kp_options_init(kp_options *opt);

/*
** Create a context bound to one device (or to none, with KP_NO_DEVICE:
** then packs can be inspected and calls validated, but nothing launches).
** `opt` may be NULL for the defaults.  On failure *out is still set when
** possible so that kp_ctx_errmsg can explain; destroy it either way.
*/
KP_API kp_status kp_ctx_create(const kp_options *opt, kp_ctx **out);
/* Release modules and the retained context.  NULL is a harmless no-op. */
KP_API void kp_ctx_destroy(kp_ctx *ctx);
/* Detail of the last failure on this ctx (per thread); never NULL. */
KP_API const char *kp_ctx_errmsg(const kp_ctx *ctx);

typedef struct kp_device_info {
  char name[128];
  int ordinal;
  int sm;                 /* e.g. 90 for compute capability 9.0 */
  int sm_count;
  int driver_version;     /* e.g. 13000 */
  size_t smem_per_block_optin;
  size_t smem_per_sm;
  size_t l2_bytes;
  char target[16];        /* pack target chosen, e.g. "sm_90a" */
  char pack_path[512];    /* pack file in use, "" if none */
} kp_device_info;

KP_API kp_status kp_ctx_device_info(kp_ctx *ctx, kp_device_info *out);

/*
** Programmatic dependent launch (PDL), off by default.  With it on, the row
** ops (softmax, rmsnorm, add_rmsnorm, swiglu, geglu, rmsnorm_swiglu, rope)
** and kp_gemm are launched so that each may start while the kernel before
** it in the stream finishes: the launch and the block start-up overlap that kernel's
** tail, and the kernel waits for it (its completion and memory) before
** touching global memory.  Results are the same as without; eager streams
** and CUDA graph capture alike.  Whatever the kernel before is (ours, a
** library's, a memcpy), ordering is as without PDL.
** It takes effect only on sm_90 and newer with a CUDA 12.3+ driver
** (cuLaunchKernelEx; graphs keep the programmatic edges), and for variants
** built for sm_90+ (the sm_90a / sm_120 packs, or JIT through NVRTC; not
** one loaded from compute_80 PTX); elsewhere it silently has no effect.
** Attention is never launched with it, nor a GEMM variant that runs in
** thread-block clusters of CTAs small enough to share an SM (launched early,
** its clusters would land where the kernel ahead leaves room).
** kp_ctx_set_pdl turns it on (1) or off (0) for the ctx's later calls from
** any thread (calls in flight on other threads see the old or the new
** value); KP_ERR_INVALID_ARG for a NULL ctx or another value.  Start value:
** kp_options.pdl, or $KP_PDL=1.  kp_ctx_pdl: 1 when it is on and takes
** effect on this ctx's device and driver, else 0 (also for NULL).
*/
KP_API kp_status kp_ctx_set_pdl(kp_ctx *ctx, int on);
KP_API int kp_ctx_pdl(const kp_ctx *ctx);

/* ---- ops ---------------------------------------------------------------
** All ops: rows >= 1, cols >= 1, strides >= the row length, every pointer
** aligned to the element size.  Wider alignment (16 bytes of every row
** start) enables vectorised variants.  Nothing is written on failure.
*/

/* y = softmax(x) along each row.  x, y: (rows, cols). y may equal x. */
KP_API kp_status kp_softmax(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx,
                            void *y, int64_t ldy, int64_t rows, int64_t cols, void *stream);

/* y = x / sqrt(mean(x^2) + eps) * w.  x, y: (rows, cols); w: (cols). */
KP_API kp_status kp_rmsnorm(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx,
                            const void *w, void *y, int64_t ldy, int64_t rows,
                            int64_t cols, float eps, void *stream);

/* residual += x (stored in dt); y = rmsnorm(residual) * w.
** x, residual, y: (rows, cols); w: (cols). */
KP_API kp_status kp_add_rmsnorm(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx,
                                void *residual, int64_t ldr, const void *w, void *y,
                                int64_t ldy, int64_t rows, int64_t cols, float eps,
                                void *stream);

/* y = silu(gate) * up.  gate, up: (rows, cols) sharing stride ldin (they
** may be the two halves of one (rows, 2*cols) tensor); y: (rows, cols).
** Contiguous rows (ldin == ldy == cols) off the 16-byte grid, or longer than
** 16K, run as one row (f16 / bf16) or as rows of up to 8192 on it (f32; ops.c:
** glu_flatten); so does kp_geglu. */
KP_API kp_status kp_swiglu(kp_ctx *ctx, kp_dtype dt, const void *gate, const void *up,
                           int64_t ldin, void *y, int64_t ldy, int64_t rows, int64_t cols,
                           void *stream);

typedef enum kp_gelu { KP_GELU_ERF = 0, KP_GELU_TANH = 1 } kp_gelu;

/* y = gelu(gate) * up, with the exact (erf) or tanh-approximated GELU. */
KP_API kp_status kp_geglu(kp_ctx *ctx, kp_dtype dt, kp_gelu form, const void *gate,
                          const void *up, int64_t ldin, void *y, int64_t ldy,
                          int64_t rows, int64_t cols, void *stream);

/* h = rmsnorm(x) * w over the whole row of 2*cols; y = silu(h[:cols]) * h[cols:].
** x: (rows, 2*cols), stride ldx; w: (2*cols); y: (rows, cols). */
KP_API kp_status kp_rmsnorm_swiglu(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx,
                                   const void *w, void *y, int64_t ldy, int64_t rows,
                                   int64_t cols, float eps, void *stream);

typedef enum kp_rope_layout {
  KP_ROPE_NEOX = 0, /* rotate halves: pairs (i, i + rot_dim/2) */
  KP_ROPE_GPTJ = 1  /* rotate interleaved pairs (2i, 2i + 1) */
} kp_rope_layout;

/*
** RoPE on q and k in place, in one launch.
** q: (tokens, heads_q, head_dim) with element strides q_stride_token and
** q_stride_head (the last dim is contiguous); k likewise.  The first rot_dim
** (even, <= head_dim) dims of each head are rotated; the rest are untouched.
** Angles: either cos and sin are given, f32 (tokens, rot_dim/2) with row
** stride cs_stride, or they are computed as
**   pos * theta^(-2i/rot_dim),  i = 0 .. rot_dim/2-1
** with pos = positions[token] (int32, device) or the token index when
** positions is NULL.
*/
typedef struct kp_rope_desc {
  int64_t tokens, heads_q, heads_k, head_dim, rot_dim;
  int64_t q_stride_token, q_stride_head;
  int64_t k_stride_token, k_stride_head;
  kp_rope_layout layout;
  const float *cos, *sin; /* both or neither */
  int64_t cs_stride;
  const int32_t *positions;
  float theta;            /* e.g. 10000 */
} kp_rope_desc;

KP_API kp_status kp_rope(kp_ctx *ctx, kp_dtype dt, void *q, void *k,
                         const kp_rope_desc *desc, void *stream);

/* ---- GEMM ----------------------------------------------------------------
**
**   D = act(alpha * A * op(B) + beta * C + bias)     per batch b < batch
**
** A: (m, k) row-major, row stride lda.  B: KP_B_NK is (n, k) row-major (the
** nn.Linear weight layout, D = A * B^T), stride ldb >= k; KP_B_KN is (k, n)
** row-major, stride ldb >= n.  C (optional, beta != 0) and D: (m, n) with
** strides ldc, ldd, stored in the output dtype: dt, or f32 when out_f32.
** bias (optional): (n) in dt.  stride_* are elements between consecutive
** batches (0: the same matrix for every batch; D's must not be 0 when
** batch > 1).  Inputs dt = f16 or bf16, fp32 accumulation; any m, n, k >= 1.
** 16-byte aligned rows (pointers and ld*) enable the fast variants; element
** alignment is enough for a correct result.  D must not overlap A, B or bias;
** it may equal C (then ldc == ldd).
*/
typedef enum kp_act {
  KP_ACT_NONE = 0, KP_ACT_RELU = 1, KP_ACT_SILU = 2, KP_ACT_GELU_TANH = 3
} kp_act;

typedef enum kp_b_layout {
  KP_B_NK = 0, /* B: (n, k) row-major: nn.Linear's weight */
  KP_B_KN = 1  /* B: (k, n) row-major */
} kp_b_layout;

typedef struct kp_gemm_desc {
  int64_t m, n, k, batch;
  kp_b_layout b_layout;
  int64_t lda, ldb, ldc, ldd;
  int64_t stride_a, stride_b, stride_c, stride_d;
  float alpha, beta;
  const void *c;          /* NULL: no C term (beta ignored) */
  const void *bias;       /* NULL: no bias */
  kp_act act;
  int out_f32;            /* 1: C and D are f32; 0: they are dt */
} kp_gemm_desc;

/* m x n x k, batch 1, B as (n, k), packed strides (lda = k, ldb = k,
** ldd = ldc = n, batch strides m*k, n*k, m*n), alpha 1, beta 0, no C, no
** bias, no activation, output in the input dtype. */
KP_API void kp_gemm_desc_init(kp_gemm_desc *desc, int64_t m, int64_t n, int64_t k);

KP_API kp_status kp_gemm(kp_ctx *ctx, kp_dtype dt, const void *a, const void *b, void *d,
                         const kp_gemm_desc *desc, void *stream);

/* ---- attention -----------------------------------------------------------
**
**   O = softmax(scale * Q K^T + mask) V      per batch b and query head h
**
** Q, O: (batch, len_q, heads_q, head_dim); K, V: (batch, len_k, heads_kv,
** head_dim); element (b, i, h, d) of Q at q + b*q_stride_batch +
** i*q_stride_seq + h*q_stride_head + d (strides in elements, >= 0; the head
** dim is contiguous), so (batch, seq, heads, dim) and (batch, heads, seq,
** dim) are both strides.  Query head h reads KV head h / (heads_q /
** heads_kv) (GQA; MQA is heads_kv = 1); heads_kv must divide heads_q.
** dt = f16 or bf16 in and out; fp32 scores and softmax statistics.  Any
** len_q, len_k >= 1 (at most 2^29), head_dim 1..256 (64, 96, 128 and 256
** have the fast variants, which also need 16-byte aligned pointers and
** strides).
**
** Mask: key j is visible to query i when, with off = len_k - len_q (the
** diagonal aligned bottom-right, as for a prefill after a KV cache),
**   causal:              j <= i + off
**   window_right >= 0:   j <= i + off + window_right
**   window_left >= 0:    j >= i + off - window_left
** (-1: no bound).  A query row that sees no key gets O = 0 and LSE = -inf.
** lse (optional): f32 (batch, heads_q, len_q), packed (varlen: below): the
** natural log of the row's sum of exp(scale * score) -- to merge partial
** results or for a backward pass.  O must not overlap Q, K, V or lse, nor itself.
** Paged K and V (block_table non-NULL, as vLLM and FlashInfer keep a KV
** cache): K and V hold num_pages pages of page_size tokens, k_stride_batch
** (v_stride_batch) the distance between pages, *_stride_seq between a
** page's tokens, *_stride_head between heads; key j of sequence b is token
** j % page_size of page block_table[b * block_table_stride + j / page_size]
** (int32, device memory, each in [0, num_pages): a page index outside that
** reads as zeros, never out of bounds); every sequence has len_k keys, or
** its own number with cu_seqlens_k (below).
** Served fast by the decode variants (len_q <= 16), by an element-wise
** fallback otherwise.  Without a block_table, page_size, block_table_stride
** and num_pages are 0.
** Variable-length batches (as flash_attn_varlen takes them): cu_seqlens_q
** and cu_seqlens_k, each NULL (every sequence has len_q / len_k rows at the
** batch strides) or batch + 1 int32 cumulative offsets in device memory,
** 4-byte aligned, into a packed token dimension.  cu_seqlens_q: sequence b
** has cu_seqlens_q[b+1] - cu_seqlens_q[b] query rows, its row i at q +
** (cu_seqlens_q[b] + i)*q_stride_seq + h*q_stride_head (O likewise with
** o_stride_*; q_stride_batch and o_stride_batch are ignored), and total_q
** (>= 1) is the number of tokens in the packed Q and O.  cu_seqlens_k:
** sequence b has cu_seqlens_k[b+1] - cu_seqlens_k[b] keys; contiguous K and
** V hold total_k (>= 1) packed tokens, key j at k + (cu_seqlens_k[b] +
** j)*k_stride_seq + ...; with a block_table the offsets give the lengths
** only (keys are found through the block table as above) and total_k is 0.
** len_q and len_k are then the bounds (flash_attn_varlen's max_seqlen_q/k):
** the grid is sized by them, a longer sequence is treated as cut to the
** bound, a negative difference as 0, and offsets past total_q / total_k as
** total_q / total_k (nothing is read or written out of bounds; total_q and
** total_k at most 2^31 - 1).  The mask's
** off = len_k - len_q is taken per sequence (its own lengths).  A sequence
** of length 0 writes nothing.  lse with cu_seqlens_q: f32 (total_q,
** heads_q), row i of sequence b, head h at lse[(cu_seqlens_q[b] + i) *
** heads_q + h].  Without cu_seqlens, total_q and total_k are 0.  The
** sm_90a path loads whole tiles of the packed K and V and masks the keys
** past a sequence's end, so the tokens there (the next sequence's, or
** those past a bound) must be finite: a NaN in V would come through the
** masked key's zero weight.
** Workspace (optional; a decode call's fast path wherever it is given): a
** split-KV decode spreads every sequence's keys over the whole GPU (a wave
** of CTAs, partial results merged by the last CTA of each query tile), and
** keeps its partials in workspace: device memory of workspace_bytes, 16-byte
** aligned, at least kp_attention_workspace_size's answer for the call.  Its
** contents need no preparing and are scratch afterwards (the call clears
** what it counts on, in the stream); it must not overlap the call's tensors,
** and two calls in flight at once (other streams) need one each, as cuBLAS's
** do.  NULL (and 0 bytes), or fewer bytes than that: the call runs a
** variant that needs none.  Graph capture stays allocation-free.
** workspace_zeroed = 1 skips that clearing (a memset in the stream before
** the kernel, worth a few microseconds of a batch-1 decode): it promises
** that the counters are zero already -- the workspace was zeroed whole
** once (cudaMemset) and has since been only an attention workspace of calls
** on this device that completed, each of which leaves them zero whatever
** its shape.  0 (the default): the call clears them itself.
*/
typedef struct kp_attn_desc {
  int64_t batch, heads_q, heads_kv, len_q, len_k, head_dim;
  int64_t q_stride_batch, q_stride_seq, q_stride_head;
  int64_t k_stride_batch, k_stride_seq, k_stride_head;
  int64_t v_stride_batch, v_stride_seq, v_stride_head;
  int64_t o_stride_batch, o_stride_seq, o_stride_head;
  float scale;            /* > 0, finite */
  int causal;             /* 0 or 1 */
  int64_t window_left, window_right; /* >= -1 */
  float *lse;             /* NULL: not written */
  const int32_t *cu_seqlens_q, *cu_seqlens_k; /* varlen: batch + 1 offsets, or NULL */
  const int32_t *block_table;                 /* paged K and V, or NULL */
  int64_t block_table_stride, page_size;      /* paged: >= ceil(len_k / page_size), >= 1 */
  int64_t num_pages;                          /* paged: pages in K and V */
  int64_t total_q, total_k; /* varlen: tokens in the packed Q/O and K/V, else 0 */
  void *workspace;          /* split-KV decode's scratch (above), or NULL */
  int64_t workspace_bytes;  /* its size, 0 without */
  int32_t workspace_zeroed; /* 0 or 1: the workspace's counters are zero (above) */
  int32_t reserved_;        /* zero (kp_attn_desc_init): room for fields to come */
} kp_attn_desc;

/* Packed (batch, seq, heads, dim) strides for Q, K, V and O, scale
** 1/sqrt(head_dim), not causal, no window, no lse, not paged, not varlen. */
KP_API void kp_attn_desc_init(kp_attn_desc *desc, int64_t batch, int64_t heads_q,
                              int64_t heads_kv, int64_t len_q, int64_t len_k, int64_t head_dim);

KP_API kp_status kp_attention(kp_ctx *ctx, kp_dtype dt, const void *q, const void *k,
                              const void *v, void *o, const kp_attn_desc *desc, void *stream);

/* *bytes = the workspace the call described by desc would use on ctx's
** device (0: it uses none -- not a decode call, len_q > 16); the desc's own
** workspace fields are ignored.  The answer depends on the device's SM
** count, batch, heads and len_q: one workspace of the largest answer serves
** every smaller call. */
KP_API kp_status kp_attention_workspace_size(kp_ctx *ctx, kp_dtype dt, const kp_attn_desc *desc,
                                             size_t *bytes);

#ifdef __cplusplus
}
#endif
#endif /* KERNPACK_H */
