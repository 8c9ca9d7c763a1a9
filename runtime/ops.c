/*
** ops.c -- the public ops: check every argument (nothing is launched, so
** nothing is written, unless all pass), work out the alignment the call
** offers to vectorised variants, and pack the kernel arguments in the order
** of the family's signature (internal.h).
*/
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

typedef struct opcheck {
  kp_ctx *ctx;
  const char *op;
  size_t es;
  uint32_t align;
} opcheck;

/* rn, cn: what the op calls its rows and columns ("rows", "cols"; GEMM's "m", "n") */
static kp_status begin_dims(opcheck *k, kp_ctx *ctx, const char *op, kp_dtype dt,
                            const char *rn, int64_t rows, const char *cn, int64_t cols) {
  k->ctx = ctx;
  k->op = op;
  k->align = 16;
  if (!ctx) return kp_fail(NULL, KP_ERR_INVALID_ARG, "%s: ctx is NULL", op);
  k->es = kp_dtype_size(dt);
  if (!k->es)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "%s: dtype %d is not one of f32, f16, bf16", op,
                   (int)dt);
  if (rows < 1) return kp_fail(ctx, KP_ERR_INVALID_ARG, "%s: %s=%lld: must be >= 1", op, rn, (long long)rows);
  if (cols < 1) return kp_fail(ctx, KP_ERR_INVALID_ARG, "%s: %s=%lld: must be >= 1", op, cn, (long long)cols);
  if (rows > INT_MAX || cols > INT_MAX)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "%s: %s=%lld %s=%lld: each must be <= %d", op, rn,
                   (long long)rows, cn, (long long)cols, INT_MAX);
  return KP_OK;
}

static kp_status begin(opcheck *k, kp_ctx *ctx, const char *op, kp_dtype dt, int64_t rows,
                       int64_t cols) {
  return begin_dims(k, ctx, op, dt, "rows", rows, "cols", cols);
}

/* A (rows, cols) tensor with row stride ld, in elements. */
static kp_status tensor(opcheck *k, const char *name, const void *p, int64_t ld, int64_t rows,
                        int64_t cols) {
  if (!p) return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "%s: %s is NULL", k->op, name);
  if (ld < cols)
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "%s: %s row stride %lld < row length %lld", k->op,
                   name, (long long)ld, (long long)cols);
  if ((uintptr_t)p % k->es)
    return kp_fail(k->ctx, KP_ERR_MISALIGNED, "%s: %s=%p is not aligned to %zu bytes", k->op,
                   name, p, k->es);
  /* the last byte touched must be addressable without overflow */
  if (rows > 1 && (uint64_t)(rows - 1) > ((uint64_t)INT64_MAX / k->es - (uint64_t)cols) / (uint64_t)ld)
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "%s: %s of %lld rows with stride %lld overflows",
                   k->op, name, (long long)rows, (long long)ld);
  uint32_t a = kp_align_of((uintptr_t)p);
  if (rows > 1) {
    uint32_t b = kp_align_of((uint64_t)ld * k->es);
    if (b < a) a = b;
  }
  if (a < k->align) k->align = a;
  return KP_OK;
}

static kp_status vector(opcheck *k, const char *name, const void *p) {
  return tensor(k, name, p, 1, 1, 1);
}

static kp_status eps_ok(opcheck *k, float eps) {
  if (!(eps >= 0.f) || isinf(eps))
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "%s: eps=%g: must be finite and >= 0", k->op,
                   (double)eps);
  return KP_OK;
}

#define TRY(x) do { kp_status s_ = (x); if (s_ != KP_OK) return s_; } while (0)

static kp_status go(opcheck *k, kp_family f, kp_dtype dt, int64_t cols, int64_t rows,
                    uint32_t form, void **args, void *stream) {
  kp_call c = {f, dt, k->align, form, {(uint64_t)rows, (uint64_t)cols, 1, 1}};
  return kp_launch(k->ctx, &c, args, stream);
}

kp_status kp_softmax(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx, void *y, int64_t ldy,
                     int64_t rows, int64_t cols, void *stream) {
  opcheck k;
  TRY(begin(&k, ctx, "softmax", dt, rows, cols));
  TRY(tensor(&k, "x", x, ldx, rows, cols));
  TRY(tensor(&k, "y", y, ldy, rows, cols));
  long long lx = ldx, ly = ldy;
  int r = (int)rows, n = (int)cols;
  void *args[] = {&x, &lx, &y, &ly, &r, &n};
  return go(&k, KP_FAM_SOFTMAX, dt, cols, rows, 0, args, stream);
}

kp_status kp_rmsnorm(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx, const void *w, void *y,
                     int64_t ldy, int64_t rows, int64_t cols, float eps, void *stream) {
  opcheck k;
  TRY(begin(&k, ctx, "rmsnorm", dt, rows, cols));
  TRY(tensor(&k, "x", x, ldx, rows, cols));
  TRY(vector(&k, "w", w));
  TRY(tensor(&k, "y", y, ldy, rows, cols));
  TRY(eps_ok(&k, eps));
  long long lx = ldx, ly = ldy;
  int r = (int)rows, n = (int)cols;
  void *args[] = {&x, &lx, &w, &y, &ly, &r, &n, &eps};
  return go(&k, KP_FAM_RMSNORM, dt, cols, rows, 0, args, stream);
}

kp_status kp_add_rmsnorm(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx, void *residual,
                         int64_t ldr, const void *w, void *y, int64_t ldy, int64_t rows,
                         int64_t cols, float eps, void *stream) {
  opcheck k;
  TRY(begin(&k, ctx, "add_rmsnorm", dt, rows, cols));
  TRY(tensor(&k, "x", x, ldx, rows, cols));
  TRY(tensor(&k, "residual", residual, ldr, rows, cols));
  TRY(vector(&k, "w", w));
  TRY(tensor(&k, "y", y, ldy, rows, cols));
  TRY(eps_ok(&k, eps));
  long long lx = ldx, lr = ldr, ly = ldy;
  int r = (int)rows, n = (int)cols;
  void *args[] = {&x, &lx, &residual, &lr, &w, &y, &ly, &r, &n, &eps};
  return go(&k, KP_FAM_ADD_RMSNORM, dt, cols, rows, 0, args, stream);
}

/* A GLU is elementwise: over contiguous rows (both strides equal to cols) it
** is one map over rows * cols elements, which may run as R rows of C for any
** R * C == rows * cols.  Where the rows are off the 16-byte grid (odd
** vocabulary-like lengths: the peeling kernels) or long (past 16K: few rows
** leave SMs idle under a block a row) and the three tensors start on the
** grid, a 16-bit call becomes one row of rows * cols elements, which the
** column-chunk kernels (torch.compile's flat form: a block per 1024
** elements) run at the copy rate; f32 (no chunk kernel ranked) and calls
** past 2^31 - 1 elements take C the largest power of two dividing
** rows * cols, at most 8192 and at least 64: rows of the shape the row
** kernels run at the copy rate.  The power-of-two rows ran 0.97-0.98x
** torch.compile where they come out short (512 x 151937 -> 151937 x 512,
** 1024 x 128257 -> 128257 x 1024: 95-98% of copy), the one row 1.00x at
** every odd sweep shape (98.0-99.9%; bench/NOTES.md 63).  The kernels see,
** and the tuning table keys, the reshaped call. */
static int glu_reshape(size_t es, uint32_t align, int64_t *rows, int64_t *cols) {
  if (*rows < 2 || (align >= 16 && *cols <= 16384)) return 0;
  if (es == 2 && *rows <= INT_MAX / *cols) { /* rows * cols <= INT_MAX */
    *cols *= *rows, *rows = 1;
    return 1;
  }
  int t = __builtin_ctzll((unsigned long long)*rows) + __builtin_ctzll((unsigned long long)*cols);
  int64_t c = (int64_t)1 << (t < 13 ? t : 13);
  if (c < 64 || c == *cols) return 0;
  int64_t r = *rows / c * *cols + *rows % c * *cols / c; /* rows * cols / c, no overflow */
  if (r > INT_MAX) return 0;
  *rows = r, *cols = c;
  return 1;
}

static void glu_flatten(opcheck *k, const void *g, const void *u, const void *y, int64_t *ldin,
                        int64_t *ldy, int64_t *rows, int64_t *cols) {
  if (*ldin != *cols || *ldy != *cols) return;
  if (((uintptr_t)g | (uintptr_t)u | (uintptr_t)y) & 15) return;
  if (!glu_reshape(k->es, k->align, rows, cols)) return;
  *ldin = *ldy = *cols;
  k->align = 16;
}

int kp_op_reshape(kp_call *c) {
  if (c->family != KP_FAM_SWIGLU && c->family != KP_FAM_GEGLU) return 0;
  int64_t r = (int64_t)c->dim[KP_ROWS], n = (int64_t)c->dim[KP_COLS];
  if (r > INT_MAX || n > INT_MAX || n < 1 ||
      !glu_reshape(kp_dtype_size(c->dtype), c->align, &r, &n))
    return 0;
  c->dim[KP_ROWS] = (uint64_t)r, c->dim[KP_COLS] = (uint64_t)n, c->align = 16;
  return 1;
}

kp_status kp_swiglu(kp_ctx *ctx, kp_dtype dt, const void *gate, const void *up, int64_t ldin,
                    void *y, int64_t ldy, int64_t rows, int64_t cols, void *stream) {
  opcheck k;
  TRY(begin(&k, ctx, "swiglu", dt, rows, cols));
  TRY(tensor(&k, "gate", gate, ldin, rows, cols));
  TRY(tensor(&k, "up", up, ldin, rows, cols));
  TRY(tensor(&k, "y", y, ldy, rows, cols));
  glu_flatten(&k, gate, up, y, &ldin, &ldy, &rows, &cols);
  long long li = ldin, ly = ldy;
  int r = (int)rows, n = (int)cols;
  void *args[] = {&gate, &up, &li, &y, &ly, &r, &n};
  return go(&k, KP_FAM_SWIGLU, dt, cols, rows, 0, args, stream);
}

kp_status kp_geglu(kp_ctx *ctx, kp_dtype dt, kp_gelu form, const void *gate, const void *up,
                   int64_t ldin, void *y, int64_t ldy, int64_t rows, int64_t cols, void *stream) {
  opcheck k;
  TRY(begin(&k, ctx, "geglu", dt, rows, cols));
  if (form != KP_GELU_ERF && form != KP_GELU_TANH)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "geglu: form %d is not KP_GELU_ERF or KP_GELU_TANH",
                   (int)form);
  TRY(tensor(&k, "gate", gate, ldin, rows, cols));
  TRY(tensor(&k, "up", up, ldin, rows, cols));
  TRY(tensor(&k, "y", y, ldy, rows, cols));
  glu_flatten(&k, gate, up, y, &ldin, &ldy, &rows, &cols);
  long long li = ldin, ly = ldy;
  int r = (int)rows, n = (int)cols, t = form == KP_GELU_TANH;
  void *args[] = {&gate, &up, &li, &y, &ly, &r, &n, &t};
  return go(&k, KP_FAM_GEGLU, dt, cols, rows, (uint32_t)form, args, stream);
}

kp_status kp_rmsnorm_swiglu(kp_ctx *ctx, kp_dtype dt, const void *x, int64_t ldx, const void *w,
                            void *y, int64_t ldy, int64_t rows, int64_t cols, float eps,
                            void *stream) {
  opcheck k;
  TRY(begin(&k, ctx, "rmsnorm_swiglu", dt, rows, cols));
  if (cols > INT_MAX / 2)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "rmsnorm_swiglu: cols=%lld: 2*cols must be <= %d",
                   (long long)cols, INT_MAX);
  TRY(tensor(&k, "x", x, ldx, rows, 2 * cols));
  TRY(vector(&k, "w", w));
  TRY(tensor(&k, "y", y, ldy, rows, cols));
  TRY(eps_ok(&k, eps));
  /* the up half starts `cols` elements into each row of x and of w */
  uint32_t a = kp_align_of((uint64_t)cols * k.es);
  if (a < k.align) k.align = a;
  long long lx = ldx, ly = ldy;
  int r = (int)rows, n = (int)cols;
  void *args[] = {&x, &lx, &w, &y, &ly, &r, &n, &eps};
  return go(&k, KP_FAM_RMSNORM_SWIGLU, dt, cols, rows, 0, args, stream);
}

/* q or k: (tokens, heads, head_dim), strides in elements, last dim contiguous */
static kp_status heads(opcheck *k, const char *name, const void *p, int64_t tokens,
                       int64_t nheads, int64_t head_dim, int64_t st, int64_t sh) {
  if (nheads == 0) return KP_OK;
  if (sh < head_dim)
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "rope: %s head stride %lld < head_dim %lld", name,
                   (long long)sh, (long long)head_dim);
  if (nheads > INT_MAX / 2 || sh > INT64_MAX / nheads)
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "rope: %s has too many heads", name);
  int64_t row = (nheads - 1) * sh + head_dim;
  if (st < row)
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG,
                   "rope: %s token stride %lld < %lld (heads overlap the next token)", name,
                   (long long)st, (long long)row);
  TRY(tensor(k, name, p, st, tokens, row));
  uint32_t a = kp_align_of((uint64_t)sh * k->es);
  if (a < k->align) k->align = a;
  return KP_OK;
}

kp_status kp_rope(kp_ctx *ctx, kp_dtype dt, void *q, void *k, const kp_rope_desc *d, void *stream) {
  opcheck c;
  if (ctx && !d) return kp_fail(ctx, KP_ERR_INVALID_ARG, "rope: desc is NULL");
  if (ctx && d->rot_dim < 2)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "rope: rot_dim=%lld: must be >= 2", (long long)d->rot_dim);
  TRY(begin(&c, ctx, "rope", dt, d ? d->tokens : 0, d ? d->rot_dim : 0));
  if (d->heads_q < 0 || d->heads_k < 0 || d->heads_q + d->heads_k == 0)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "rope: heads_q=%lld heads_k=%lld: need >= 0 and one > 0",
                   (long long)d->heads_q, (long long)d->heads_k);
  if (d->rot_dim % 2 || d->rot_dim > d->head_dim)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "rope: rot_dim=%lld must be even and <= head_dim=%lld",
                   (long long)d->rot_dim, (long long)d->head_dim);
  if (d->layout != KP_ROPE_NEOX && d->layout != KP_ROPE_GPTJ)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "rope: layout %d is not NEOX or GPTJ", (int)d->layout);
  TRY(heads(&c, "q", q, d->tokens, d->heads_q, d->head_dim, d->q_stride_token, d->q_stride_head));
  TRY(heads(&c, "k", k, d->tokens, d->heads_k, d->head_dim, d->k_stride_token, d->k_stride_head));
  if (!d->cos != !d->sin)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "rope: give both cos and sin, or neither");
  int64_t half = d->rot_dim / 2;
  if (d->cos) {
    size_t es = c.es;
    uint32_t align = c.align; /* the kernels read the tables as single floats */
    c.es = 4;
    TRY(tensor(&c, "cos", d->cos, d->cs_stride, d->tokens, half));
    TRY(tensor(&c, "sin", d->sin, d->cs_stride, d->tokens, half));
    c.es = es;
    c.align = align;
  } else if (!(d->theta > 0.f) || isinf(d->theta)) {
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "rope: theta=%g: must be finite and > 0 when cos/sin are not given",
                   (double)d->theta);
  }
  if (d->positions && (uintptr_t)d->positions % 4)
    return kp_fail(ctx, KP_ERR_MISALIGNED, "rope: positions=%p is not aligned to 4 bytes",
                   (const void *)d->positions);
  if (d->layout == KP_ROPE_NEOX) {
    uint32_t a = kp_align_of((uint64_t)half * c.es);
    if (a < c.align) c.align = a;
  }
  const void *cs = d->cos, *sn = d->sin, *pos = d->positions;
  long long qst = d->q_stride_token, qsh = d->q_stride_head, kst = d->k_stride_token,
            ksh = d->k_stride_head, css = d->cs_stride;
  int tokens = (int)d->tokens, hq = (int)d->heads_q, hk = (int)d->heads_k,
      rot = (int)d->rot_dim, gptj = d->layout == KP_ROPE_GPTJ;
  /* the kernels' inverse frequency of pair i is step^i, step =
  ** theta^(-2/rot_dim) in double (exponentiation by squaring: a few
  ** multiplies, where exp2/log2 would double the variant's code) */
  double step = d->cos ? 0.0 : pow((double)d->theta, -2.0 / (double)d->rot_dim);
  void *args[] = {&q, &k, &cs, &sn, &pos, &qst, &qsh, &kst, &ksh, &css,
                  &tokens, &hq, &hk, &rot, &gptj, &step};
  return go(&c, KP_FAM_ROPE, dt, d->rot_dim, d->tokens, (uint32_t)gptj, args, stream);
}

/* ---- GEMM ------------------------------------------------------------------ */

void kp_gemm_desc_init(kp_gemm_desc *g, int64_t m, int64_t n, int64_t k) {
  memset(g, 0, sizeof *g);
  g->m = m, g->n = n, g->k = k, g->batch = 1;
  g->b_layout = KP_B_NK;
  g->lda = k, g->ldb = k, g->ldc = n, g->ldd = n;
  g->stride_a = m * k, g->stride_b = n * k, g->stride_c = m * n, g->stride_d = m * n;
  g->alpha = 1.f;
}

/* Bytes [lo, hi) that a (rows, cols) tensor with stride ld spans over
** `batch` matrices stride bs apart (es bytes an element). */
typedef struct span { uintptr_t lo, hi; } span;
static span span_of(const void *p, int64_t rows, int64_t cols, int64_t ld, int64_t batch,
                    int64_t bs, size_t es) {
  uint64_t last = (uint64_t)(rows - 1) * (uint64_t)ld + (uint64_t)cols +
                  (uint64_t)(batch - 1) * (uint64_t)bs;
  span s = {(uintptr_t)p, (uintptr_t)p + (uintptr_t)(last * es)};
  return s;
}
static int overlaps(span a, span b) { return a.lo < b.hi && b.lo < a.hi; }

/* One operand of a batch: the matrix checks of tensor(), then the batch
** stride (>= 0; the last matrix must stay addressable; its bytes join the
** call's alignment). */
static kp_status batched(opcheck *k, const char *name, const void *p, int64_t ld, int64_t rows,
                         int64_t cols, int64_t batch, int64_t bs) {
  TRY(tensor(k, name, p, ld, rows, cols));
  if (batch == 1) return KP_OK;
  if (bs < 0)
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "%s: %s batch stride %lld: must be >= 0", k->op,
                   name, (long long)bs);
  uint64_t one = (uint64_t)(rows - 1) * (uint64_t)ld + (uint64_t)cols;
  if (bs && (uint64_t)(batch - 1) > ((uint64_t)INT64_MAX / k->es - one) / (uint64_t)bs)
    return kp_fail(k->ctx, KP_ERR_INVALID_ARG, "%s: %s of %lld batches %lld apart overflows",
                   k->op, name, (long long)batch, (long long)bs);
  uint32_t a = kp_align_of((uint64_t)bs * k->es);
  if (a < k->align) k->align = a;
  return KP_OK;
}

/* TMA descriptors for variants that load through the copy engine (entry
** aux = the k-box; tile m/n the other box sides): A as (k, m, batch), B as
** (k, n, batch), 128-byte swizzle, out-of-bounds elements read as zero.  A
** broadcast operand (batch stride 0) is one matrix: the kernel then reads
** batch coordinate 0.  A cluster that does not split K shares one operand
** by multicast, each CTA loading 1/cluster of its box: B (tiles stacked in
** m), or A where aux has GEMM_SHARE_A (tiles side by side in n). */
#define GEMM_SHARE_A 0x10000u
#define GEMM_KBOX(e) ((e)->aux & 0xffu)
/* aux's GEMM_STORE_D: the variant stores its bf16 / f16 D by TMA, chunks
** of GEMM_DBOX(e) columns (bits 8-15: the count of 8) x 64 rows -- a
** multiple of 64 as boxes of 64 columns in the 128-byte swizzle, else one
** box laid out row after row (templates/gemm.lua, eoff) -- where
** D takes them (the kernel's own test: 16-byte aligned, ldd and the batch
** stride multiples of 8 elements); else its map stays zero and the kernel
** stores by its warps */
#define GEMM_STORE_D 0x20000u
#define GEMM_DBOX(e) (((e)->aux >> 8 & 0xffu) * 8)
static kp_status encode_tmap(kp_ctx *ctx, CUtensorMap *map, const kp_gemm_desc *g, kp_dtype dt,
                             const void *p, uint64_t inner, uint64_t outer, int64_t ld,
                             int64_t bs, uint32_t box_inner, uint32_t box_outer, int swizzle,
                             const char *what) {
  size_t es = kp_dtype_size(dt);
  int one = g->batch == 1 || bs == 0;
  cuuint64_t dims[3] = {inner, outer, one ? 1 : (cuuint64_t)g->batch};
  cuuint64_t strides[2] = {(cuuint64_t)ld * es,
                           (cuuint64_t)(one ? (uint64_t)ld * es * outer : (uint64_t)bs * es)};
  /* a stride that no second row (matrix) uses need not follow TMA's
  ** 16-byte rule, which the call's alignment did not check for it */
  if (outer == 1 && strides[0] % 16) strides[0] += 16 - strides[0] % 16;
  if (strides[1] % 16) strides[1] += 16 - strides[1] % 16; /* unused when one matrix */
  cuuint32_t box[3] = {box_inner, box_outer, 1};
  return kp_tmap_encode(ctx, map, dt, 3, p, dims, strides, box, swizzle, what, __FILE__, __LINE__);
}

kp_status kp_gemm(kp_ctx *ctx, kp_dtype dt, const void *a, const void *b, void *d,
                  const kp_gemm_desc *g, void *stream) {
  opcheck k;
  if (ctx && !g) return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: desc is NULL");
  TRY(begin_dims(&k, ctx, "gemm", dt, "m", g ? g->m : 0, "n", g ? g->n : 0));
  if (dt != KP_F16 && dt != KP_BF16)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "gemm: dtype %s: inputs must be f16 or bf16",
                   kp_dtype_name(dt));
  if (g->k < 1 || g->k > INT_MAX)
    return kp_fail(ctx, g->k < 1 ? KP_ERR_INVALID_ARG : KP_ERR_UNSUPPORTED,
                   "gemm: k=%lld: must be in [1, %d]", (long long)g->k, INT_MAX);
  if (g->batch < 1 || g->batch > INT_MAX)
    return kp_fail(ctx, g->batch < 1 ? KP_ERR_INVALID_ARG : KP_ERR_UNSUPPORTED,
                   "gemm: batch=%lld: must be in [1, %d]", (long long)g->batch, INT_MAX);
  if (g->b_layout != KP_B_NK && g->b_layout != KP_B_KN)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: b_layout %d is not KP_B_NK or KP_B_KN",
                   (int)g->b_layout);
  if ((unsigned)g->act > KP_ACT_GELU_TANH)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: act %d is not a kp_act", (int)g->act);
  if (!isfinite(g->alpha) || !isfinite(g->beta))
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: alpha=%g beta=%g: must be finite",
                   (double)g->alpha, (double)g->beta);
  if (g->out_f32 != 0 && g->out_f32 != 1)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: out_f32=%d: must be 0 or 1", g->out_f32);
  const int64_t m = g->m, n = g->n, kk = g->k, nb = g->batch;
  const int nk = g->b_layout == KP_B_NK;
  TRY(batched(&k, "A", a, g->lda, m, kk, nb, g->stride_a));
  TRY(batched(&k, "B", b, g->ldb, nk ? n : kk, nk ? kk : n, nb, g->stride_b));
  if (g->bias) TRY(tensor(&k, "bias", g->bias, n, 1, n));
  const void *c = g->c && g->beta != 0.f ? g->c : NULL;
  const size_t in_es = k.es, out_es = g->out_f32 ? 4 : in_es;
  k.es = out_es;
  if (c) TRY(batched(&k, "C", c, g->ldc, m, n, nb, g->stride_c));
  TRY(batched(&k, "D", d, g->ldd, m, n, nb, g->stride_d));
  k.es = in_es;
  if (nb > 1 && g->stride_d < (m - 1) * g->ldd + n)
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "gemm: D batch stride %lld < one matrix (%lld): batches would overlap",
                   (long long)g->stride_d, (long long)((m - 1) * g->ldd + n));
  span sd = span_of(d, m, n, g->ldd, nb, g->stride_d, out_es);
  const char *hit =
      overlaps(sd, span_of(a, m, kk, g->lda, nb, g->stride_a, in_es)) ? "A"
      : overlaps(sd, span_of(b, nk ? n : kk, nk ? kk : n, g->ldb, nb, g->stride_b, in_es)) ? "B"
      : g->bias && overlaps(sd, span_of(g->bias, 1, n, n, 1, 0, in_es)) ? "bias" : NULL;
  if (hit) return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: D overlaps %s", hit);
  if (c && c != d && overlaps(sd, span_of(c, m, n, g->ldc, nb, g->stride_c, out_es)))
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: D overlaps C without being C");
  if (c && c == d && (g->ldc != g->ldd || (nb > 1 && g->stride_c != g->stride_d)))
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "gemm: C == D with other strides (ldc %lld, ldd %lld)",
                   (long long)g->ldc, (long long)g->ldd);

  kp_call call = {KP_FAM_GEMM, dt, k.align,
                  kp_gemm_form(g->b_layout == KP_B_KN, g->alpha, c != NULL, g->bias != NULL,
                               (int)g->act, g->out_f32),
                  {(uint64_t)m, (uint64_t)n, (uint64_t)kk, (uint64_t)nb}};
  long long lda = g->lda, sa = g->stride_a, ldb = g->ldb, sb = g->stride_b, ldc = g->ldc,
            sc = g->stride_c, ldd = g->ldd, sdd = g->stride_d;
  int im = (int)m, in = (int)n, ik = (int)kk, ib = (int)nb, act = (int)g->act,
      of = g->out_f32;
  float alpha = g->alpha, beta = c ? g->beta : 0.f;
  const void *bias = g->bias;
  CUtensorMap tma, tmb, tmd;
  memset(&tma, 0, sizeof tma);
  memset(&tmb, 0, sizeof tmb);
  memset(&tmd, 0, sizeof tmd);
  void *args[] = {&a,   &lda, &sa,   &b,    &ldb, &sb, &c,  &ldc, &sc, &d,  &ldd, &sdd,
                  &bias, &im, &in, &ik, &ib, &alpha, &beta, &act, &of, &tma, &tmb, &tmd};
  kp_slot s;
  int pushed;
  /* online autotuning never times a call whose D is its C (args[6] vs [9]) */
  kp_status st = kp_launch_begin(ctx, &call, args, stream, &s, &pushed);
  if (st != KP_OK) return st;
  if (s.e->aux) {
    const uint32_t kbox = GEMM_KBOX(s.e);
    const int shared = s.e->cluster > 1 && s.e->split < 2;
    const int share_a = (s.e->aux & GEMM_SHARE_A) != 0;
    const uint32_t mbox = s.e->tile[KP_GM] / (shared && share_a ? s.e->cluster : 1);
    const uint32_t nbox = s.e->tile[KP_GN] / (shared && !share_a ? s.e->cluster : 1);
    st = kp_need_tma(ctx, "gemm", s.e);
    if (st == KP_OK)
      st = encode_tmap(ctx, &tma, g, dt, a, (uint64_t)kk, (uint64_t)m, g->lda, g->stride_a,
                       kbox, mbox, KP_TMAP_SW128, "cuTensorMapEncodeTiled(A)");
    if (st == KP_OK)
      st = nk ? encode_tmap(ctx, &tmb, g, dt, b, (uint64_t)kk, (uint64_t)n, g->ldb, g->stride_b,
                            kbox, nbox, KP_TMAP_SW128, "cuTensorMapEncodeTiled(B)")
              : encode_tmap(ctx, &tmb, g, dt, b, (uint64_t)n, (uint64_t)kk, g->ldb, g->stride_b,
                            64, kbox, KP_TMAP_SW128, "cuTensorMapEncodeTiled(B)");
    if (st == KP_OK && (s.e->aux & GEMM_STORE_D) && !g->out_f32 && (uintptr_t)d % 16 == 0 &&
        g->ldd % 8 == 0 && g->stride_d % 8 == 0) {
      /* chunks of 64-column multiples go as 64-column panels in the 128-byte
      ** swizzle, others as one box laid out row after row */
      const int rows = GEMM_DBOX(s.e) % 64 != 0;
      st = encode_tmap(ctx, &tmd, g, dt, d, (uint64_t)n, (uint64_t)m, g->ldd, g->stride_d,
                       rows ? GEMM_DBOX(s.e) : 64, 64, rows ? KP_TMAP_PLAIN : KP_TMAP_SW128,
                       "cuTensorMapEncodeTiled(D)");
    }
    if (st != KP_OK) {
      kp_launch_end(ctx, pushed);
      return st;
    }
  }
  return kp_launch_slot(ctx, &call, &s, args, stream, pushed);
}
