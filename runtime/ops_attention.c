/*
** ops_attention.c -- kp_attention: check every argument (nothing is launched,
** so nothing is written, unless all pass), fold causal and the window into
** the kernels' two bounds, work out the call's alignment and pack the
** arguments in the order of the family's signature (internal.h,
** templates/attention.lua).
*/
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#define ATTN_MAX_LEN (1ll << 29) /* the kernels' mask arithmetic stays in int */
#define ATTN_MAX_HEAD_DIM 256

#define TRY(x) do { kp_status s_ = (x); if (s_ != KP_OK) return s_; } while (0)

/* The split-KV decode (templates/attention.lua, `_sk`) runs at most
** ATTN_SK_PER_SM CTAs an SM; its workspace holds two slots a CTA of 16
** head_dim + 32 floats below a counter a packed query tile (rounded up to 4).
** The slots' region is sized for the largest head dim, ATTN_SK_MAX_D, and
** the kernel gets the counters' address (slot k lies k + 1 slots below it),
** so the counters of every call on a device are at one place: the calls
** leave them zero, and a workspace kept for these calls alone needs no
** clearing (kp_attn_desc.workspace_zeroed).  A decode call with that much
** workspace has form bit 4 (KP_ATTN_FORM_WS, internal.h). */
#define ATTN_SK_PER_SM 2
#define ATTN_SK_MAX_D ATTN_MAX_HEAD_DIM
#define ATTN_SK_MAX_UNITS (1ll << 40) /* tiles x key blocks: the kernel's U P < 2^62 */

/* the packed query tiles of a decode call (kp_attn_decode_tiles) */
static uint64_t sk_tiles(const kp_attn_desc *d) {
  return kp_attn_decode_tiles((uint64_t)d->len_q, (uint64_t)d->batch * (uint64_t)d->heads_q,
                              (uint64_t)(d->heads_q / d->heads_kv));
}

/* the bytes of the slots' region, below the counters */
static uint64_t sk_slot_bytes(int sm_count) {
  const uint64_t ctas = ATTN_SK_PER_SM * (uint64_t)(sm_count > 0 ? sm_count : 1);
  return 2 * ctas * (16 * ATTN_SK_MAX_D + 32) * 4;
}

/* after check_sizes: the workspace the split-KV decode needs, 0 if none */
static uint64_t sk_bytes(const kp_attn_desc *d, int sm_count) {
  if (d->len_q > 16 || d->head_dim > ATTN_SK_MAX_D) return 0;
  const uint64_t tiles = sk_tiles(d);
  if (tiles * (uint64_t)((d->len_k + 15) / 16) > (uint64_t)ATTN_SK_MAX_UNITS) return 0;
  return sk_slot_bytes(sm_count) + (tiles + 3) / 4 * 16;
}

void kp_attn_desc_init(kp_attn_desc *d, int64_t batch, int64_t heads_q, int64_t heads_kv,
                       int64_t len_q, int64_t len_k, int64_t head_dim) {
  memset(d, 0, sizeof *d);
  d->batch = batch, d->heads_q = heads_q, d->heads_kv = heads_kv;
  d->len_q = len_q, d->len_k = len_k, d->head_dim = head_dim;
  /* unsigned: absurd sizes wrap here and are refused by kp_attention */
  const uint64_t qrow = (uint64_t)heads_q * (uint64_t)head_dim,
                 krow = (uint64_t)heads_kv * (uint64_t)head_dim;
  d->q_stride_head = d->k_stride_head = d->v_stride_head = d->o_stride_head = head_dim;
  d->q_stride_seq = d->o_stride_seq = (int64_t)qrow;
  d->k_stride_seq = d->v_stride_seq = (int64_t)krow;
  d->q_stride_batch = d->o_stride_batch = (int64_t)(qrow * (uint64_t)len_q);
  d->k_stride_batch = d->v_stride_batch = (int64_t)(krow * (uint64_t)len_k);
  d->scale = head_dim > 0 ? (float)(1.0 / sqrt((double)head_dim)) : 1.f;
  d->window_left = d->window_right = -1;
}

/* One of Q, K, V, O: (batch, len, heads, head_dim) with three strides.  The
** bytes [lo, hi) it spans, for the overlap checks. */
typedef struct atensor {
  const char *name;
  const void *p;
  int64_t n[3], s[3]; /* batch, seq, head: sizes and strides */
  uintptr_t lo, hi;
} atensor;

static const char *const STRIDE_NAME[3] = {"stride_batch", "stride_seq", "stride_head"};

/* Checks a tensor (NULL, alignment, strides >= 0, addressable span) and
** lowers *align to what its pointer and used strides allow.  out: the
** tensor is written, so no two of its (b, i, h) rows may share an element. */
static kp_status check_tensor(kp_ctx *ctx, atensor *t, int64_t hd, size_t es, int out,
                              uint32_t *align) {
  if (!t->p) return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: %s is NULL", t->name);
  if ((uintptr_t)t->p % es)
    return kp_fail(ctx, KP_ERR_MISALIGNED, "attention: %s=%p is not aligned to %zu bytes", t->name,
                   t->p, es);
  uint64_t last = (uint64_t)hd; /* elements up to and including the last one, + 1 */
  for (int i = 0; i < 3; i++) {
    if (t->s[i] < 0)
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: %s %s=%lld: must be >= 0", t->name,
                     STRIDE_NAME[i], (long long)t->s[i]);
    if (t->n[i] < 2) continue;
    const uint64_t room = (uint64_t)INT64_MAX / es - last;
    if (t->s[i] && (uint64_t)(t->n[i] - 1) > room / (uint64_t)t->s[i])
      return kp_fail(ctx, KP_ERR_INVALID_ARG,
                     "attention: %s with %s=%lld over %lld overflows the address space", t->name,
                     STRIDE_NAME[i], (long long)t->s[i], (long long)t->n[i]);
    last += (uint64_t)(t->n[i] - 1) * (uint64_t)t->s[i];
    const uint32_t a = kp_align_of((uint64_t)t->s[i] * es);
    if (a < *align) *align = a;
  }
  const uint32_t a = kp_align_of((uintptr_t)t->p);
  if (a < *align) *align = a;
  t->lo = (uintptr_t)t->p;
  t->hi = t->lo + (uintptr_t)(last * es);
  if (!out) return KP_OK;
  /* distinct rows never share an element: taking the used dims by
  ** increasing stride, each stride reaches past everything below it */
  int ord[3], k = 0;
  for (int i = 0; i < 3; i++)
    if (t->n[i] > 1) ord[k++] = i;
  for (int a1 = 1; a1 < k; a1++)
    for (int b1 = a1; b1 > 0 && t->s[ord[b1]] < t->s[ord[b1 - 1]]; b1--) {
      const int x = ord[b1];
      ord[b1] = ord[b1 - 1], ord[b1 - 1] = x;
    }
  uint64_t span = (uint64_t)hd;
  for (int i = 0; i < k; i++) {
    const int d = ord[i];
    if ((uint64_t)t->s[d] < span)
      return kp_fail(ctx, KP_ERR_INVALID_ARG,
                     "attention: %s %s=%lld < %llu: its rows overlap (the output needs distinct "
                     "elements)", t->name, STRIDE_NAME[d], (long long)t->s[d],
                     (unsigned long long)span);
    span = (uint64_t)t->s[d] * (uint64_t)(t->n[d] - 1) + span;
  }
  return KP_OK;
}

static int overlaps(uintptr_t alo, uintptr_t ahi, uintptr_t blo, uintptr_t bhi) {
  return alo < bhi && blo < ahi;
}

/* batch, heads, lengths, head dim: >= 1 and within the kernels' int range */
static kp_status check_sizes(kp_ctx *ctx, const kp_attn_desc *d) {
  const struct { const char *name; int64_t v, max; } S[] = {
      {"batch", d->batch, INT_MAX},       {"heads_q", d->heads_q, INT_MAX},
      {"heads_kv", d->heads_kv, INT_MAX}, {"len_q", d->len_q, ATTN_MAX_LEN},
      {"len_k", d->len_k, ATTN_MAX_LEN},  {"head_dim", d->head_dim, ATTN_MAX_HEAD_DIM},
  };
  for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
    if (S[i].v < 1)
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: %s=%lld: must be >= 1", S[i].name,
                     (long long)S[i].v);
    if (S[i].v > S[i].max)
      return kp_fail(ctx, KP_ERR_UNSUPPORTED, "attention: %s=%lld: at most %lld", S[i].name,
                     (long long)S[i].v, (long long)S[i].max);
  }
  if (d->batch > INT_MAX / d->heads_q)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "attention: batch*heads_q = %lld*%lld: at most %d",
                   (long long)d->batch, (long long)d->heads_q, INT_MAX);
  if (d->heads_q % d->heads_kv)
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "attention: heads_kv=%lld does not divide heads_q=%lld", (long long)d->heads_kv,
                   (long long)d->heads_q);
  return KP_OK;
}

/* Fields that must be unset. */
static kp_status check_reserved(kp_ctx *ctx, const kp_attn_desc *d) {
  if (d->reserved_)
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "attention: reserved_=%d: must be 0 (start from kp_attn_desc_init)",
                   (int)d->reserved_);
  if (d->workspace_zeroed != 0 && d->workspace_zeroed != 1)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: workspace_zeroed=%d: must be 0 or 1",
                   (int)d->workspace_zeroed);
  if (!d->block_table && (d->page_size || d->block_table_stride || d->num_pages))
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "attention: page_size=%lld block_table_stride=%lld num_pages=%lld without a "
                   "block_table: must be 0", (long long)d->page_size,
                   (long long)d->block_table_stride, (long long)d->num_pages);
  return KP_OK;
}

/* Varlen: each cu_seqlens array (4-byte aligned) and its token total.  The
** offsets themselves are in device memory, out of the host's reach: the
** kernels cut each sequence to the bounds and the totals (kernpack.h), so a
** bad offset gives wrong rows, never an access out of bounds.  Paged K and V
** take their extent from num_pages: there cu_seqlens_k gives lengths only. */
static kp_status check_varlen(kp_ctx *ctx, const kp_attn_desc *d) {
  const struct {
    const char *name, *tname;
    const int32_t *cu;
    int64_t total;
    int lengths_only;
  } V[] = {
      {"cu_seqlens_q", "total_q", d->cu_seqlens_q, d->total_q, 0},
      {"cu_seqlens_k", "total_k", d->cu_seqlens_k, d->total_k, d->block_table != NULL},
  };
  for (int i = 0; i < 2; i++) {
    if (!V[i].cu || V[i].lengths_only) {
      if (V[i].total)
        return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: %s=%lld %s: must be 0", V[i].tname,
                       (long long)V[i].total,
                       V[i].cu ? "with a block_table (cu_seqlens_k gives lengths only)"
                               : i ? "without cu_seqlens_k" : "without cu_seqlens_q");
      if (!V[i].cu) continue;
    } else if (V[i].total < 1 || V[i].total > INT_MAX) {
      return kp_fail(ctx, V[i].total < 1 ? KP_ERR_INVALID_ARG : KP_ERR_UNSUPPORTED,
                     "attention: %s=%lld with %s: must be in [1, %d] (tokens in the packed "
                     "buffers)", V[i].tname, (long long)V[i].total, V[i].name, INT_MAX);
    }
    if ((uintptr_t)V[i].cu % 4)
      return kp_fail(ctx, KP_ERR_MISALIGNED, "attention: %s=%p is not aligned to 4 bytes",
                     V[i].name, (const void *)V[i].cu);
  }
  return KP_OK;
}

/* A paged K and V (after check_sizes): the page size, the pages and the
** block table's rows; *span = the table's bytes that the call reads. */
static kp_status check_pages(kp_ctx *ctx, const kp_attn_desc *d, uint64_t *span) {
  if ((uintptr_t)d->block_table % 4)
    return kp_fail(ctx, KP_ERR_MISALIGNED, "attention: block_table=%p is not aligned to 4 bytes",
                   (const void *)d->block_table);
  if (d->page_size < 1 || d->page_size > ATTN_MAX_LEN)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: page_size=%lld: must be in [1, %lld]",
                   (long long)d->page_size, (long long)ATTN_MAX_LEN);
  if (d->num_pages < 1 || d->num_pages > INT_MAX)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: num_pages=%lld: must be in [1, %d]",
                   (long long)d->num_pages, INT_MAX);
  const int64_t per_seq = (d->len_k + d->page_size - 1) / d->page_size;
  if (d->batch > 1 && d->block_table_stride < per_seq)
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "attention: block_table_stride=%lld < %lld, the pages of len_k=%lld keys",
                   (long long)d->block_table_stride, (long long)per_seq, (long long)d->len_k);
  if (d->block_table_stride < 0 || d->block_table_stride > INT_MAX / d->batch)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: block_table_stride=%lld: must be in [0, "
                   "%lld]", (long long)d->block_table_stride, (long long)(INT_MAX / d->batch));
  *span = ((uint64_t)(d->batch - 1) * (uint64_t)d->block_table_stride + (uint64_t)per_seq) * 4;
  return KP_OK;
}

/* scale, causal and the window */
static kp_status check_mask(kp_ctx *ctx, const kp_attn_desc *d, float *scale_log2) {
  *scale_log2 = (float)((double)d->scale * 1.4426950408889634074);
  if (!(d->scale > 0.f) || !isfinite(*scale_log2) || !(*scale_log2 > 0.f))
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "attention: scale=%g: must be > 0 with scale*log2(e) a finite float > 0",
                   (double)d->scale);
  if (d->causal != 0 && d->causal != 1)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: causal=%d: must be 0 or 1", d->causal);
  if (d->window_left < -1 || d->window_right < -1)
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "attention: window_left=%lld window_right=%lld: each must be >= -1 (-1: no "
                   "bound)", (long long)d->window_left, (long long)d->window_right);
  return KP_OK;
}

/* A TMA descriptor for the sm_90a variants (entry aux > 0): t as the 4-d
** tensor (head dim, sequence, head, batch), boxes of 64 columns x `rows`,
** 128-byte swizzle, rows past the sequence read as zeros.  TMA wants
** 16-byte strides (the call's alignment says so for the ones in use; a size-1
** dimension's is rounded up) and none of 0 (the op's form bit 2 keeps such
** calls off these variants). */
static kp_status encode_tmap(kp_ctx *ctx, CUtensorMap *map, const atensor *t, kp_dtype dt,
                             int64_t hd, uint32_t rows) {
  const size_t es = kp_dtype_size(dt);
  cuuint64_t dims[4] = {(cuuint64_t)hd, (cuuint64_t)t->n[1], (cuuint64_t)t->n[2],
                        (cuuint64_t)t->n[0]};
  cuuint64_t strides[3] = {(cuuint64_t)t->s[1] * es, (cuuint64_t)t->s[2] * es,
                           (cuuint64_t)t->s[0] * es};
  for (int i = 0; i < 3; i++)
    if (dims[i + 1] == 1) strides[i] = (strides[i] + 15) / 16 * 16 + (strides[i] ? 0 : 16);
  cuuint32_t box[4] = {64, rows, 1, 1};
  return kp_tmap_encode(ctx, map, dt, 4, t->p, dims, strides, box, KP_TMAP_SW128,
                        "cuTensorMapEncodeTiled", __FILE__, __LINE__);
}

kp_status kp_attention_workspace_size(kp_ctx *ctx, kp_dtype dt, const kp_attn_desc *d,
                                      size_t *bytes) {
  if (!ctx) return kp_fail(NULL, KP_ERR_INVALID_ARG, "attention_workspace_size: ctx is NULL");
  if (!d || !bytes)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention_workspace_size: %s is NULL",
                   d ? "bytes" : "desc");
  *bytes = 0;
  if (dt != KP_F16 && dt != KP_BF16)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "attention_workspace_size: dtype %s: must be f16 or "
                   "bf16", kp_dtype_size(dt) ? kp_dtype_name(dt) : "?");
  TRY(check_sizes(ctx, d));
  const uint64_t n = sk_bytes(d, ctx->props.sm_count);
  if (n > SIZE_MAX)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "attention_workspace_size: %llu bytes",
                   (unsigned long long)n);
  *bytes = (size_t)n;
  return KP_OK;
}

kp_status kp_attention(kp_ctx *ctx, kp_dtype dt, const void *q, const void *k, const void *v,
                       void *o, const kp_attn_desc *d, void *stream) {
  if (!ctx) return kp_fail(NULL, KP_ERR_INVALID_ARG, "attention: ctx is NULL");
  if (!d) return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: desc is NULL");
  const size_t es = kp_dtype_size(dt);
  if (!es)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "attention: dtype %d is not one of f32, f16, bf16",
                   (int)dt);
  if (dt != KP_F16 && dt != KP_BF16)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "attention: dtype %s: must be f16 or bf16",
                   kp_dtype_name(dt));
  TRY(check_reserved(ctx, d));
  TRY(check_sizes(ctx, d));
  TRY(check_varlen(ctx, d));
  float scale_log2;
  TRY(check_mask(ctx, d, &scale_log2));
  const int paged = d->block_table != NULL;
  uint64_t bt_span = 0;
  if (paged) TRY(check_pages(ctx, d, &bt_span));
  /* Q and O: (batch, len_q, heads), or (1, total_q, heads) when varlen (the
  ** batch stride unused); K and V: (batch, len_k, heads), (pages, page_size,
  ** heads) when paged, or (1, total_k, heads) when varlen and not paged.
  ** These are the extents the checks and the TMA maps see. */
  const int vq = d->cu_seqlens_q != NULL, vk = d->cu_seqlens_k && !paged;
  const int64_t q_n0 = vq ? 1 : d->batch, q_n1 = vq ? d->total_q : d->len_q;
  const int64_t kv_n0 = paged ? d->num_pages : vk ? 1 : d->batch,
                kv_n1 = paged ? d->page_size : vk ? d->total_k : d->len_k;
  atensor t[4] = {
      {"q", q, {q_n0, q_n1, d->heads_q}, {vq ? 0 : d->q_stride_batch, d->q_stride_seq, d->q_stride_head}, 0, 0},
      {"k", k, {kv_n0, kv_n1, d->heads_kv}, {vk ? 0 : d->k_stride_batch, d->k_stride_seq, d->k_stride_head}, 0, 0},
      {"v", v, {kv_n0, kv_n1, d->heads_kv}, {vk ? 0 : d->v_stride_batch, d->v_stride_seq, d->v_stride_head}, 0, 0},
      {"o", o, {q_n0, q_n1, d->heads_q}, {vq ? 0 : d->o_stride_batch, d->o_stride_seq, d->o_stride_head}, 0, 0},
  };
  uint32_t align = 16;
  for (int i = 0; i < 4; i++) TRY(check_tensor(ctx, &t[i], d->head_dim, es, i == 3, &align));
  for (int i = 0; i < 3; i++)
    if (overlaps(t[3].lo, t[3].hi, t[i].lo, t[i].hi))
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: o overlaps %s", t[i].name);
  /* lse: (batch, heads_q, len_q), or (total_q, heads_q) when varlen; batch *
  ** heads_q <= INT_MAX, len_q <= 2^29, total_q <= INT_MAX: no overflow */
  const uintptr_t lse_lo = (uintptr_t)d->lse,
                  lse_hi = lse_lo + (uintptr_t)(vq ? (uint64_t)d->total_q * (uint64_t)d->heads_q * 4
                                                   : (uint64_t)(d->batch * d->heads_q) *
                                                         (uint64_t)d->len_q * 4);
  /* the int32 arrays the kernels read while O and lse are written */
  const struct { const char *name; const int32_t *p; uint64_t bytes; } RO[] = {
      {"block_table", d->block_table, bt_span},
      {"cu_seqlens_q", d->cu_seqlens_q, (uint64_t)(d->batch + 1) * 4},
      {"cu_seqlens_k", d->cu_seqlens_k, (uint64_t)(d->batch + 1) * 4},
  };
  for (int i = 0; i < 3; i++) {
    if (!RO[i].p) continue;
    const uintptr_t lo = (uintptr_t)RO[i].p, hi = lo + (uintptr_t)RO[i].bytes;
    if (overlaps(t[3].lo, t[3].hi, lo, hi))
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: o overlaps %s", RO[i].name);
    if (d->lse && overlaps(lse_lo, lse_hi, lo, hi))
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: lse overlaps %s", RO[i].name);
  }
  /* the workspace: 16-byte aligned, clear of every tensor and array above */
  const uintptr_t ws_lo = (uintptr_t)d->workspace, ws_hi = ws_lo + (uintptr_t)d->workspace_bytes;
  if (d->workspace_bytes < 0 || (!d->workspace) != (d->workspace_bytes == 0))
    return kp_fail(ctx, KP_ERR_INVALID_ARG,
                   "attention: workspace=%p workspace_bytes=%lld: give both (bytes > 0) or "
                   "neither", d->workspace, (long long)d->workspace_bytes);
  if (d->workspace) {
    if (ws_lo % 16)
      return kp_fail(ctx, KP_ERR_MISALIGNED, "attention: workspace=%p is not aligned to 16 bytes",
                     d->workspace);
    if (ws_hi < ws_lo)
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: workspace of %lld bytes overflows the "
                     "address space", (long long)d->workspace_bytes);
    for (int i = 0; i < 4; i++)
      if (overlaps(ws_lo, ws_hi, t[i].lo, t[i].hi))
        return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: workspace overlaps %s", t[i].name);
    for (int i = 0; i < 3; i++)
      if (RO[i].p && overlaps(ws_lo, ws_hi, (uintptr_t)RO[i].p, (uintptr_t)RO[i].p + RO[i].bytes))
        return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: workspace overlaps %s", RO[i].name);
    if (d->lse && overlaps(ws_lo, ws_hi, lse_lo, lse_hi))
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: workspace overlaps lse");
  }
  if (d->lse) {
    if ((uintptr_t)d->lse % 4)
      return kp_fail(ctx, KP_ERR_MISALIGNED, "attention: lse=%p is not aligned to 4 bytes",
                     (const void *)d->lse);
    for (int i = 0; i < 4; i++)
      if (overlaps(lse_lo, lse_hi, t[i].lo, t[i].hi))
        return kp_fail(ctx, KP_ERR_INVALID_ARG, "attention: lse overlaps %s", t[i].name);
  }

  /* the kernels' bounds (templates/attention.lua): causal is a right bound
  ** of 0; a bound that hides nothing is none (and keeps their sums in int;
  ** with varlen too: each sequence's lengths are within len_q and len_k) */
  int64_t wl = d->window_left, wr = d->causal ? 0 : d->window_right;
  if (wl >= d->len_k) wl = -1;
  if (wr >= d->len_q) wr = -1;
  /* form: bit 0 masked, bit 1 "no TMA" (a stride of 0 over more than one row),
  ** bit 2 paged K and V, bit 3 varlen (either cu_seqlens) */
  uint32_t form = (wl >= 0 || wr >= 0) | (paged ? 4u : 0u) |
                  (d->cu_seqlens_q || d->cu_seqlens_k ? 8u : 0u);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (t[i].n[j] > 1 && t[i].s[j] == 0) form |= 2;
  if (d->workspace) {
    const uint64_t need = sk_bytes(d, ctx->props.sm_count);
    if (need && (uint64_t)d->workspace_bytes >= need) form |= KP_ATTN_FORM_WS;
  }
  /* few decode tiles: each can have a 16-CTA cluster (one CTA an SM) at once,
  ** and the clusters' partials never leave the chip (H100, batch 1: 12%
  ** faster than the split over a workspace; bench/NOTES.md 50) */
  form |= kp_attn_wave_bit((uint64_t)d->len_q, (uint64_t)d->batch * (uint64_t)d->heads_q,
                           (uint64_t)(d->heads_q / d->heads_kv), ctx->props.sm_count);
  kp_call call = {KP_FAM_ATTENTION, dt, align, form,
                  {(uint64_t)d->len_q, (uint64_t)d->len_k, (uint64_t)(d->batch * d->heads_q),
                   (uint64_t)d->head_dim, (uint64_t)(d->heads_q / d->heads_kv)}};
  long long sq[3] = {d->q_stride_batch, d->q_stride_seq, d->q_stride_head},
            sk[3] = {d->k_stride_batch, d->k_stride_seq, d->k_stride_head},
            sv[3] = {d->v_stride_batch, d->v_stride_seq, d->v_stride_head},
            so[3] = {d->o_stride_batch, d->o_stride_seq, d->o_stride_head};
  int lq = (int)d->len_q, lk = (int)d->len_k, hq = (int)d->heads_q, hkv = (int)d->heads_kv,
      hd = (int)d->head_dim, iwl = (int)wl, iwr = (int)wr, nb = (int)d->batch,
      page = (int)d->page_size, npages = (int)d->num_pages;
  float *lse = d->lse;
  const int32_t *bt = d->block_table;
  long long bts = d->block_table_stride;
  /* varlen: the offsets, and the totals the kernels cut them to (paged K
  ** and V: none, the offsets give lengths only) */
  const int32_t *cq = d->cu_seqlens_q, *ck = d->cu_seqlens_k;
  int totq = vq ? (int)d->total_q : 0, totk = vk ? (int)d->total_k : ck ? INT_MAX : 0;
  /* the split-KV decode gets the counters' address (the slots below it) */
  void *ws = form & KP_ATTN_FORM_WS ? (char *)d->workspace + sk_slot_bytes(ctx->props.sm_count)
                                    : d->workspace;
  CUtensorMap tm[4];
  memset(tm, 0, sizeof tm);
  void *args[] = {&q,     &sq[0], &sq[1], &sq[2], &k,   &sk[0], &sk[1], &sk[2],
                  &v,     &sv[0], &sv[1], &sv[2], &o,   &so[0], &so[1], &so[2],
                  &lse,   &lq,    &lk,    &hq,    &hkv, &hd,    &iwl,   &iwr,
                  &nb,    &scale_log2, &bt, &bts, &page, &npages, &cq, &ck, &totq, &totk,
                  &ws,    &tm[0], &tm[1], &tm[2], &tm[3]};
  kp_slot s;
  int pushed;
  kp_status st = kp_launch_begin(ctx, &call, args, stream, &s, &pushed);
  if (st != KP_OK) return st;
  /* a variant of the workspace forms alone (the split-KV decode) counts the
  ** CTAs done with each tile there: the counters start at zero, cleared in
  ** the stream unless the caller says they are */
  const int ws_only = (form & KP_ATTN_FORM_WS) && s.e->forms && !(s.e->forms & ~KP_ATTN_WS_FORMS);
  /* its two slots a CTA are sized for a persistent grid of ATTN_SK_PER_SM
  ** CTAs an SM: a variant whose grid can be larger would write below them */
  if (ws_only && (!s.e->persist || s.e->persist > ATTN_SK_PER_SM || s.e->cluster > 1)) {
    kp_launch_end(ctx, pushed);
    return kp_fail(ctx, KP_ERR_UNSUPPORTED,
                   "attention: %s: its grid (persistent %u, cluster %u) can pass the "
                   "workspace's slots, sized for %d CTAs an SM", s.e->name, s.e->persist,
                   s.e->cluster, ATTN_SK_PER_SM);
  }
  if (ws_only && !d->workspace_zeroed) {
    CUresult r = ctx->drv->cuMemsetD8Async((CUdeviceptr)(uintptr_t)ws, 0,
                                           (size_t)((sk_tiles(d) + 3) / 4 * 16), (CUstream)stream);
    if (r != CUDA_SUCCESS) {
      kp_launch_end(ctx, pushed);
      return kp_cu_fail(ctx, r, "cuMemsetD8Async", __FILE__, __LINE__);
    }
  }
  /* TMA variants: Q in boxes of the query tile's rows, K and V of aux rows;
  ** the persistent ones store O by TMA too, 64 rows a box (a consumer
  ** warpgroup's), and take no varlen calls: O's extents are (batch, len_q) */
  if (s.e->aux) {
    st = kp_need_tma(ctx, "attention", s.e);
    for (int i = 0; i < 3 && st == KP_OK; i++)
      st = encode_tmap(ctx, &tm[i], &t[i], dt, d->head_dim,
                       i ? s.e->aux : s.e->tile[KP_ALQ]);
    if (st == KP_OK && s.e->persist) st = encode_tmap(ctx, &tm[3], &t[3], dt, d->head_dim, 64);
    if (st != KP_OK) {
      kp_launch_end(ctx, pushed);
      return st;
    }
  }
  return kp_launch_slot(ctx, &call, &s, args, stream, pushed);
}
