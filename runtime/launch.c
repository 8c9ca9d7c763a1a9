/*
** launch.c -- the per-call path: cached variant choice, lazy module load,
** cuLaunchKernel.
**
** The first call with a given (family, dtype, cols, alignment, rows class)
** runs the selection rule and loads the chosen variant's module; later calls
** find the CUfunction in a small open-addressing table, so the host cost of a
** call is one mutex, one probe and cuLaunchKernel.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jit.h"
#include "tune.h"

/* (family, dtype, alignment, rows class, form, cols): the tuning table's
** key, its rows bucket ceil(log2 rows) split into rows = 2^r and the rest,
** so that no power-of-two min_rows falls inside a class (select.c), and the
** call's form (kp_call.form).  Bits: 63 set, 52.. family, 48.. dtype, 44..
** log2 align, 42 power of two, 36.. r, 32.. form, cols. */
uint64_t kp_cache_key(const kp_call *c) {
  uint32_t a = 0, r = 0;
  while ((1u << a) < c->align && a < 15) a++;
  while ((1ull << r) < c->rows && r < 63) r++;
  uint64_t pow2 = c->rows && !(c->rows & (c->rows - 1));
  return 1ull << 63 | (uint64_t)c->family << 52 | (uint64_t)c->dtype << 48 |
         (uint64_t)a << 44 | pow2 << 42 | (uint64_t)r << 36 | (uint64_t)(c->form & 7) << 32 |
         (c->cols & 0xFFFFFFFFull);
}

kp_status kp_grid_blocks(const kpk_entry *e, uint64_t rows, uint64_t cols, uint64_t *blocks) {
  *blocks = 0;
  if (!e->rows_per_block) return KP_ERR_PACK_CORRUPT; /* the reader refuses it */
  uint64_t n = rows / e->rows_per_block + (rows % e->rows_per_block != 0);
  if (e->cols_per_block) {
    uint64_t chunks = cols / e->cols_per_block + (cols % e->cols_per_block != 0);
    if (chunks && n > UINT64_MAX / chunks) {
      *blocks = UINT64_MAX;
      return KP_ERR_UNSUPPORTED;
    }
    n *= chunks;
  }
  *blocks = n;
  return n > 0x7FFFFFFFull ? KP_ERR_UNSUPPORTED : KP_OK;
}

static _Thread_local int tl_force = -1;
void kp_force_variant(int entry) { tl_force = entry; }

static uint32_t slot_of(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (uint32_t)key & (KP_CACHE_SLOTS - 1);
}

/* Load entry i's module into the ctx's context (caller holds the lock and
** has made the context current). */
kp_status kp_load_entry(kp_ctx *ctx, uint32_t i) {
  kp_status st = KP_OK;
  const kp_driver *d = ctx->drv;
  const kpk_entry *e = &ctx->pack.entries[i];
  char err[600];
  if (ctx->funcs[i]) return KP_OK;
  st = kpk_check_entry(&ctx->pack, i, err, sizeof err);
  if (st != KP_OK) return kp_fail(ctx, st, "%s", err);
  CUmodule m = NULL;
  if (ctx->jit_target[0]) { /* no cubin for this device in the pack: compile its source */
    kp_jit_out j;
    size_t srclen;
    char *src = kpk_source_dup(&ctx->pack, i, &srclen);
    if (!src) return kp_fail(ctx, KP_ERR_NOMEM, "%s: out of memory for its source", e->name);
    st = kp_jit_get(ctx, e->name, src, srclen, ctx->jit_target, &j, err, sizeof err);
    free(src);
    if (st != KP_OK) return kp_fail(ctx, st, "%s", err);
    CUresult r = d->cuModuleLoadData(&m, j.image);
    free(j.image);
    if (r != CUDA_SUCCESS)
      return kp_cu_fail(ctx, r, "cuModuleLoadData of a JIT-compiled cubin (is the driver older "
                        "than NVRTC?)", __FILE__, __LINE__);
  } else {
    CUresult r = d->cuModuleLoadData(&m, ctx->pack.blobs + e->image_off);
    if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION || r == CUDA_ERROR_NO_BINARY_FOR_GPU)
      return kp_fail(ctx, KP_ERR_UNSUPPORTED,
                     "pack %s: variant %s: its %s from toolkit %u.%u cannot be loaded by this "
                     "driver (CUDA %d.%d): update the driver or build the pack with an older "
                     "toolkit", ctx->pack.path, e->name, e->is_ptx ? "PTX" : "cubin",
                     ctx->pack.toolkit / 1000, ctx->pack.toolkit % 1000 / 10,
                     ctx->info.driver_version / 1000, ctx->info.driver_version % 1000 / 10);
    if (r != CUDA_SUCCESS) return kp_cu_fail(ctx, r, "cuModuleLoadData", __FILE__, __LINE__);
  }
  CUfunction f;
  CUresult r = d->cuModuleGetFunction(&f, m, e->entry);
  if (r != CUDA_SUCCESS) {
    d->cuModuleUnload(m);
    return kp_fail(ctx, KP_ERR_PACK_CORRUPT, "pack %s: variant %s: kernel symbol %s not in its image",
                   ctx->pack.path, e->name, e->entry);
  }
  if (e->smem > 48 * 1024) {
    r = d->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)e->smem);
    if (r != CUDA_SUCCESS) {
      d->cuModuleUnload(m);
      return kp_cu_fail(ctx, r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", __FILE__,
                        __LINE__);
    }
  }
  ctx->modules[i] = m;
  ctx->funcs[i] = f;
  kp_log(ctx, KP_LOG_DEBUG, "loaded %s (%s) from %s", e->name, e->is_ptx ? "PTX" : "cubin",
         ctx->pack.path);
  return KP_OK;
}

/* The tuning table's choice if it has one that applies, else the ranking. */
int kp_explain(kp_ctx *ctx, const kp_call *c, char *why, size_t whylen) {
  if (!ctx->have_pack) {
    snprintf(why, whylen, "%s", ctx->pack_err);
    return -1;
  }
  if (ctx->tune) {
    int i = kp_tune_pick(ctx->tune, &ctx->pack, c, &ctx->props, why, whylen);
    if (i >= 0) return i;
  }
  int i = kp_select_variant(&ctx->pack, c, &ctx->props, why, whylen);
  if (i >= 0)
    snprintf(why, whylen, "ranking: %s has the highest rank (%d) among applicable variants%s",
             ctx->pack.entries[i].name, ctx->pack.entries[i].rank,
             ctx->tune ? " (the table has no applicable key)" : "");
  return i;
}

/* Slow path under the lock: select (or tune online), check the signature,
** load, remember.  args/stream: the call's own, or NULL (kp_prepare). */
static kp_status resolve(kp_ctx *ctx, const kp_call *c, uint64_t key, uint32_t h, void **args,
                         CUstream stream, kp_slot *out) {
  char why[900];
  int i = kp_explain(ctx, c, why, sizeof why);
  if (i < 0) return kp_fail(ctx, KP_ERR_NO_VARIANT, "%s", why);
  if (ctx->autotune && args && kp_autotune_safe(c, args) &&
      (!ctx->tune || kp_tune_exact(ctx->tune, &ctx->pack, c, &ctx->props) < 0)) {
    int best;
    kp_status st = kp_autotune(ctx, c, args, stream, &best);
    if (st != KP_OK) return st;
    if (best >= 0) i = best;
  }
  const kpk_entry *e = &ctx->pack.entries[i];
  if (strcmp(e->signature, kp_family_signature(c->family)) != 0)
    return kp_fail(ctx, KP_ERR_PACK_VERSION,
                   "pack %s: variant %s takes arguments (%s), this library passes (%s): "
                   "rebuild the pack with this version",
                   ctx->pack.path, e->name, e->signature, kp_family_signature(c->family));
  kp_status st = kp_load_entry(ctx, (uint32_t)i);
  if (st != KP_OK) return st;
  if (ctx->cache_used >= KP_CACHE_SLOTS * 3 / 4) { /* many shapes: start over */
    memset(ctx->cache, 0, sizeof ctx->cache);
    ctx->cache_used = 0;
  }
  while (ctx->cache[h].key) h = (h + 1) & (KP_CACHE_SLOTS - 1);
  ctx->cache[h].key = key;
  ctx->cache[h].fn = ctx->funcs[i];
  ctx->cache[h].e = e;
  ctx->cache_used++;
  *out = ctx->cache[h];
  kp_log(ctx, KP_LOG_DEBUG, "%s %s rows=%llu cols=%llu align=%u -> %s", kp_family_name(c->family),
         kp_dtype_name(c->dtype), (unsigned long long)c->rows, (unsigned long long)c->cols,
         c->align, e->name);
  return KP_OK;
}

/* The tuner's forced variant: it must exist and apply to the call. */
static kp_status forced(kp_ctx *ctx, const kp_call *c, kp_slot *out) {
  if ((uint32_t)tl_force >= ctx->pack.n_entries)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "forced variant %d: the pack has %u", tl_force,
                   ctx->pack.n_entries);
  const kpk_entry *e = &ctx->pack.entries[tl_force];
  char why[300];
  if (!kp_entry_applies(e, c, &ctx->props, why, sizeof why))
    return kp_fail(ctx, KP_ERR_NO_VARIANT, "forced variant %s does not apply: %s", e->name, why);
  if (strcmp(e->signature, kp_family_signature(c->family)) != 0)
    return kp_fail(ctx, KP_ERR_PACK_VERSION, "variant %s: signature (%s) is not (%s)", e->name,
                   e->signature, kp_family_signature(c->family));
  kp_status st = kp_load_entry(ctx, (uint32_t)tl_force);
  if (st != KP_OK) return st;
  out->key = 1;
  out->fn = ctx->funcs[tl_force];
  out->e = e;
  return KP_OK;
}

/* The variant for a call: forced (tuner), cached, or resolved now.  The
** caller has made the ctx's context current. */
static kp_status lookup(kp_ctx *ctx, const kp_call *c, void **args, CUstream stream,
                        kp_slot *s) {
  kp_status st = KP_OK;
  uint64_t key = kp_cache_key(c);
  uint32_t h = slot_of(key);
  s->key = 0;
  pthread_mutex_lock(&ctx->lock);
  if (tl_force >= 0) {
    st = forced(ctx, c, s);
  } else {
    for (uint32_t p = h;; p = (p + 1) & (KP_CACHE_SLOTS - 1)) {
      if (ctx->cache[p].key == key) { *s = ctx->cache[p]; break; }
      if (!ctx->cache[p].key) break;
    }
    if (!s->key) st = resolve(ctx, c, key, h, args, stream, s);
  }
  pthread_mutex_unlock(&ctx->lock);
  return st;
}

kp_status kp_launch(kp_ctx *ctx, const kp_call *c, void **args, void *stream) {
  kp_status st = KP_OK;
  if (!ctx->drv)
    return kp_fail(ctx, KP_ERR_NO_DEVICE, "%s: context has no device (KP_NO_DEVICE)",
                   kp_family_name(c->family));
  if (!ctx->have_pack) return kp_fail(ctx, KP_ERR_PACK_NOT_FOUND, "%s", ctx->pack_err);
  const kp_driver *d = ctx->drv;
  CUcontext cur = NULL, popped;
  int pushed = 0;
  KP_CU(ctx, d->cuCtxGetCurrent(&cur));
  if (cur != ctx->cu) {
    KP_CU(ctx, d->cuCtxPushCurrent(ctx->cu));
    pushed = 1;
  }

  kp_slot s;
  st = lookup(ctx, c, args, (CUstream)stream, &s);
  if (st != KP_OK) goto done;

  uint64_t grid;
  if (kp_grid_blocks(s.e, c->rows, c->cols, &grid) != KP_OK) {
    st = kp_fail(ctx, KP_ERR_UNSUPPORTED,
                 "%s: %llu rows x %llu cols need %llu blocks of %s, more than a grid holds",
                 kp_family_name(c->family), (unsigned long long)c->rows,
                 (unsigned long long)c->cols, (unsigned long long)grid, s.e->name);
    goto done;
  }
  KP_CU(ctx, d->cuLaunchKernel(s.fn, (unsigned)grid, 1, 1, s.e->block, 1, 1, s.e->smem,
                               (CUstream)stream, args, NULL));
done:
  if (pushed) d->cuCtxPopCurrent(&popped);
  return st;
}

kp_status kp_prepare(kp_ctx *ctx, const kp_call *c, const kpk_entry **chosen) {
  kp_status st = KP_OK;
  if (!ctx->drv) return kp_fail(ctx, KP_ERR_NO_DEVICE, "context has no device (KP_NO_DEVICE)");
  if (!ctx->have_pack) return kp_fail(ctx, KP_ERR_PACK_NOT_FOUND, "%s", ctx->pack_err);
  const kp_driver *d = ctx->drv;
  CUcontext popped;
  KP_CU(ctx, d->cuCtxPushCurrent(ctx->cu));
  kp_slot s;
  st = lookup(ctx, c, NULL, NULL, &s);
  d->cuCtxPopCurrent(&popped);
  if (st == KP_OK && chosen) *chosen = s.e;
done:
  return st;
}

void kp_launch_release(kp_ctx *ctx) {
  if (!ctx->drv || !ctx->modules) return;
  CUcontext popped;
  int pushed = ctx->drv->cuCtxPushCurrent(ctx->cu) == CUDA_SUCCESS;
  for (uint32_t i = 0; i < ctx->pack.n_entries; i++)
    if (ctx->modules[i]) ctx->drv->cuModuleUnload(ctx->modules[i]);
  if (pushed) ctx->drv->cuCtxPopCurrent(&popped);
}
