/*
** launch.c -- the per-call path: cached variant choice, lazy module load,
** cuLaunchKernel.
**
** The first call with a given (family, dtype, cols, alignment, rows class)
** runs the selection rule and loads the chosen variant's module; later calls
** find the CUfunction in a small open-addressing table, so the host cost of a
** call is one mutex, one probe and cuLaunchKernel -- or cuLaunchKernelEx for
** a cluster shape or programmatic dependent launch (PDL: a row family, the
** ctx's switch on, an sm_90+ device and an entry whose code has the waits).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "jit.h"
#include "tune.h"

uint64_t kp_pow2_class_top(uint64_t v) {
  if (v <= 2 || !(v & (v - 1))) return v;
  int r = 0;
  while ((1ull << r) < v && r < 63) r++; /* v in (2^(r-1), 2^r) */
  const uint64_t s = r >= 4 ? 1ull << (r - 4) : 1;
  return (v + s - 1) / s * s;
}

/* (family, dtype, alignment, form, and per dimension its class): an exact
** dimension is its own class; a pow2 one (rows, GEMM's m) is v = 2^r alone,
** or an eighth of the octave (2^(r-1), 2^r) (kp_pow2_class_top), so that no
** bound of a pow2 dimension falls inside a class (select.c). */
kp_key kp_cache_key(const kp_call *c) {
  kp_key k;
  memset(&k, 0, sizeof k);
  const kp_dims *d = kp_family_dims(c->family);
  for (int i = 0; i < d->n; i++) {
    uint64_t v = c->dim[i];
    if (d->pow2[i]) {
      k.cls[i] = kp_pow2_class_top(v) << 1 | (uint64_t)(v && !(v & (v - 1)));
    } else {
      k.cls[i] = v;
    }
  }
  k.used = 1;
  k.family = (uint32_t)c->family;
  k.dtype = (uint32_t)c->dtype;
  k.align = c->align;
  k.form = c->form;
  return k;
}

static int key_eq(const kp_key *a, const kp_key *b) { return !memcmp(a, b, sizeof *a); }

/* (a decode step's 2-CTA GEMV of 103 KB CTAs ran 12-18% longer launched
** early, after SwiGLU: bench/NOTES.md 73) */
int kp_entry_pdl_placement_ok(const kpk_entry *e, size_t smem_per_sm) {
  return !(e->cluster > 1 && 2 * (size_t)e->smem <= smem_per_sm);
}

/* The SM a target's code was built for: "sm_90a" 90, "compute_80" 80. */
static int code_sm(const char *target) {
  int sm = 0;
  if (sscanf(target, "sm_%d", &sm) != 1 && sscanf(target, "compute_%d", &sm) != 1) sm = 0;
  return sm;
}

kp_status kp_grid_blocks(const kpk_entry *e, const kp_call *c, int sm_count, uint64_t *blocks) {
  uint64_t n = 1;
  *blocks = 0;
  for (int i = 0; i < KPK_DIMS; i++) {
    if (!e->tile[i]) continue;
    uint64_t t = c->dim[i] / e->tile[i] + (c->dim[i] % e->tile[i] != 0);
    if (t && n > UINT64_MAX / t) {
      *blocks = UINT64_MAX;
      return KP_ERR_UNSUPPORTED;
    }
    n *= t;
  }
  if (e->split > 1) {
    if (n > UINT64_MAX / e->split) {
      *blocks = UINT64_MAX;
      return KP_ERR_UNSUPPORTED;
    }
    n *= e->split;
  }
  if (e->persist && sm_count > 0 && n > (uint64_t)e->persist * (uint64_t)sm_count)
    n = (uint64_t)e->persist * (uint64_t)sm_count;
  if (e->cluster > 1) n = (n + e->cluster - 1) / e->cluster * e->cluster;
  *blocks = n;
  return n > 0x7FFFFFFFull ? KP_ERR_UNSUPPORTED : KP_OK;
}

uint64_t kp_persist_grid(uint64_t grid, unsigned persist, int fit, int sm_count) {
  if (fit <= 0 || sm_count <= 0 || (unsigned)fit >= persist) return grid;
  const uint64_t n = (uint64_t)fit * (uint64_t)sm_count;
  return grid > n ? n : grid;
}

static _Thread_local int tl_force = -1;
void kp_force_variant(int entry) { tl_force = entry; }

static uint32_t slot_of(const kp_key *k) {
  uint64_t key = kp_fnv1a64(k, sizeof *k);
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (uint32_t)key & (KP_CACHE_SLOTS - 1);
}

/* One parameter buffer a launch instead of a pointer per parameter: the
** driver then copies one block, not 39 pieces (bench/kpbench.c
** --overhead-n times both).  Where each parameter sits is the driver's word
** (cuFuncGetParamInfo, CUDA 12.4 drivers); each size must be the one its
** kind in the signature has (p, l 8 bytes, i, f 4, T a 128-byte TMA map).
** (Not asked: whether there are more -- a failing call would be an API
** error under compute-sanitizer; a kernel with more parameters than its
** signature would refuse the buffer's size, and launch_entry falls back.)
** NULL: a pointer per parameter, as before. */
static kp_param_layout *param_layout(kp_ctx *ctx, CUfunction f, const char *sig) {
  const kp_driver *d = ctx->drv;
  if (!d->cuFuncGetParamInfo) return NULL;
  kp_param_layout *L = calloc(1, sizeof *L);
  if (!L) return NULL;
  int ok = 1;
  for (const char *c = sig; ok && *c; c++) {
    if (*c == ',') continue;
    const size_t want = *c == 'T' ? 128 : *c == 'i' || *c == 'f' ? 4 : 8;
    size_t off, size;
    ok = L->n < KP_PARAMS_MAX &&
         d->cuFuncGetParamInfo(f, (size_t)L->n, &off, &size) == CUDA_SUCCESS && size == want &&
         off + size <= KP_PARAM_BYTES_MAX;
    if (ok) {
      L->off[L->n] = (unsigned short)off, L->size[L->n++] = (unsigned char)size;
      if (off + size > L->bytes) L->bytes = (unsigned)(off + size);
    }
  }
  if (ok && L->n) return L;
  free(L);
  return NULL;
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
  /* what the code was compiled for decides whether it has the PDL waits
  ** (__CUDA_ARCH__ >= 900): the pack's target, or the JIT's */
  const char *built_for = ctx->pack.target;
  if (ctx->jit_target[0] && kp_jit_from_ptx(&ctx->pack, i, ctx->jit_target)) {
    /* no cubin for this device: the driver compiles the pack's PTX (jit.h) */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CUresult r = d->cuModuleLoadData(&m, ctx->pack.blobs + e->image_off);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (r == CUDA_SUCCESS)
      kp_log(ctx, KP_LOG_INFO, "JIT: %s for %s from the pack's PTX (driver) took %.1f ms", e->name,
             ctx->jit_target, (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    else { /* e.g. PTX newer than the driver: NVRTC below may still do */
      kp_log(ctx, KP_LOG_DEBUG, "%s: the driver cannot compile its PTX (error %d): NVRTC instead",
             e->name, (int)r);
      m = NULL;
    }
  }
  if (!m && ctx->jit_target[0]) { /* no cubin for this device in the pack: compile its source */
    kp_jit_out j;
    size_t srclen;
    char *src = kpk_source_dup(&ctx->pack, i, &srclen);
    if (!src) return kp_fail(ctx, KP_ERR_NOMEM, "%s: out of memory for its source", e->name);
    st = kp_jit_get(ctx, e->name, src, srclen, ctx->jit_target, &j, err, sizeof err);
    built_for = ctx->jit_target;
    free(src);
    if (st != KP_OK) return kp_fail(ctx, st, "%s", err);
    CUresult r = d->cuModuleLoadData(&m, j.image);
    free(j.image);
    if (r != CUDA_SUCCESS)
      return kp_cu_fail(ctx, r, "cuModuleLoadData of a JIT-compiled cubin (is the driver older "
                        "than NVRTC?)", __FILE__, __LINE__);
  } else if (!m) {
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
  if (e->cluster > 8) { /* past the portable cluster size (H100: up to 16) */
    r = d->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (r != CUDA_SUCCESS) {
      d->cuModuleUnload(m);
      return kp_cu_fail(ctx, r, "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)", __FILE__,
                        __LINE__);
    }
  }
  ctx->modules[i] = m;
  ctx->funcs[i] = f;
  const int fam = kp_family_from_name(e->family);
  ctx->pdl_code[i] = code_sm(built_for) >= 90 && fam >= 0 && kp_family_pdl((kp_family)fam);
  ctx->params[i] = param_layout(ctx, f, e->signature);
  kp_log(ctx, KP_LOG_DEBUG, "loaded %s (%s) from %s", e->name, e->is_ptx ? "PTX" : "cubin",
         ctx->pack.path);
  return KP_OK;
}

/* Was entry e built for the arguments and dimensions this library passes? */
kp_status kp_entry_fits_family(const kp_ctx *ctx, const kpk_entry *e, const kp_call *c) {
  if (strcmp(e->signature, kp_family_signature(c->family)) != 0)
    return kp_fail(ctx, KP_ERR_PACK_VERSION,
                   "pack %s: variant %s takes arguments (%s), this library passes (%s): "
                   "rebuild the pack with this version",
                   ctx->pack.path, e->name, e->signature, kp_family_signature(c->family));
  if (strcmp(e->dims, kp_family_dims_text(c->family)) != 0)
    return kp_fail(ctx, KP_ERR_PACK_VERSION,
                   "pack %s: variant %s has dimensions (%s), this library's %s has (%s): "
                   "rebuild the pack with this version",
                   ctx->pack.path, e->name, e->dims, kp_family_name(c->family),
                   kp_family_dims_text(c->family));
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
  if (i < 0) return i;
  const kpk_entry *e = &ctx->pack.entries[i];
  const int32_t rank = kp_entry_rank(e, c);
  char fill[200] = "";
  double tiles, work = kp_entry_fill(e, c, &ctx->props, &tiles);
  int tied = 0; /* rank-mates (a persistent pick's alone: every selection comes here) */
  for (uint32_t j = 0; work > 0 && j < ctx->pack.n_entries; j++) {
    const kpk_entry *o = &ctx->pack.entries[j];
    tied += o->dtype == e->dtype && !strcmp(o->family, e->family) && kp_entry_rank(o, c) == rank &&
            kp_entry_ranked(o, c, &ctx->props, NULL, 0);
  }
  if (tied > 1)
    snprintf(fill, sizeof fill,
             "; of the %d at that rank its tiles fill %d SMs best (%.0f tiles, %.0f a CTA at "
             "most: %.0f tile elements over its rate)",
             tied, ctx->props.sm_count, tiles,
             ceil(tiles / ((double)e->persist * ctx->props.sm_count)), work);
  snprintf(why, whylen, "ranking: %s has the highest rank (%d) among applicable variants%s%s",
           e->name, rank, fill, ctx->tune ? " (the table has no applicable key)" : "");
  return i;
}

/* Slow path under the lock: select (or tune online), check the signature,
** load, remember.  args/stream: the call's own, or NULL (kp_prepare). */
static kp_status resolve(kp_ctx *ctx, const kp_call *c, const kp_key *key, uint32_t h, void **args,
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
  kp_status st = kp_entry_fits_family(ctx, e, c);
  if (st != KP_OK) return st;
  st = kp_load_entry(ctx, (uint32_t)i);
  if (st != KP_OK) return st;
  if (ctx->cache_used >= KP_CACHE_SLOTS * 3 / 4) { /* many shapes: start over */
    memset(ctx->cache, 0, sizeof ctx->cache);
    ctx->cache_used = 0;
  }
  while (ctx->cache[h].key.used) h = (h + 1) & (KP_CACHE_SLOTS - 1);
  ctx->cache[h].key = *key;
  ctx->cache[h].fn = ctx->funcs[i];
  ctx->cache[h].e = e;
  ctx->cache_used++;
  *out = ctx->cache[h];
  char shape[96];
  kp_log(ctx, KP_LOG_DEBUG, "%s %s %s align=%u form=%u -> %s", kp_family_name(c->family),
         kp_dtype_name(c->dtype), kp_shape_str(c, shape, sizeof shape), c->align, c->form,
         e->name);
  return KP_OK;
}

/* A forced variant (the tuner's, or $KP_VARIANT's pin): it must exist and
** apply to the call. */
static kp_status forced(kp_ctx *ctx, const kp_call *c, int force, kp_slot *out) {
  if ((uint32_t)force >= ctx->pack.n_entries)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "forced variant %d: the pack has %u", force,
                   ctx->pack.n_entries);
  const kpk_entry *e = &ctx->pack.entries[force];
  char why[300];
  if (!kp_entry_applies(e, c, &ctx->props, why, sizeof why))
    return kp_fail(ctx, KP_ERR_NO_VARIANT, "forced variant %s does not apply: %s", e->name, why);
  kp_status st = kp_entry_fits_family(ctx, e, c);
  if (st != KP_OK) return st;
  st = kp_load_entry(ctx, (uint32_t)force);
  if (st != KP_OK) return st;
  out->key.used = 1;
  out->fn = ctx->funcs[force];
  out->e = e;
  return KP_OK;
}

/* The variant for a call: forced (tuner), cached, or resolved now.  The
** caller has made the ctx's context current. */
static kp_status lookup(kp_ctx *ctx, const kp_call *c, void **args, CUstream stream,
                        kp_slot *s) {
  kp_status st = KP_OK;
  kp_key key = kp_cache_key(c);
  uint32_t h = slot_of(&key);
  s->key.used = 0;
  pthread_mutex_lock(&ctx->lock);
  const kpk_entry *pin = ctx->pin >= 0 ? &ctx->pack.entries[ctx->pin] : NULL;
  if (tl_force >= 0) {
    st = forced(ctx, c, tl_force, s);
  } else if (pin && pin->dtype == (uint32_t)c->dtype &&
             strcmp(pin->family, kp_family_name(c->family)) == 0) {
    st = forced(ctx, c, ctx->pin, s);
  } else {
    for (uint32_t p = h;; p = (p + 1) & (KP_CACHE_SLOTS - 1)) {
      if (key_eq(&ctx->cache[p].key, &key)) { *s = ctx->cache[p]; break; }
      if (!ctx->cache[p].key.used) break;
    }
    if (!s->key.used) st = resolve(ctx, c, &key, h, args, stream, s);
  }
  pthread_mutex_unlock(&ctx->lock);
  return st;
}

kp_status kp_launch_begin(kp_ctx *ctx, const kp_call *c, void **args, void *stream,
                          kp_slot *s, int *pushed) {
  kp_status st = KP_OK;
  *pushed = 0;
  if (!ctx->drv)
    return kp_fail(ctx, KP_ERR_NO_DEVICE, "%s: context has no device (KP_NO_DEVICE)",
                   kp_family_name(c->family));
  if (!ctx->have_pack) return kp_fail(ctx, KP_ERR_PACK_NOT_FOUND, "%s", ctx->pack_err);
  const kp_driver *d = ctx->drv;
  CUcontext cur = NULL;
  KP_CU(ctx, d->cuCtxGetCurrent(&cur));
  if (cur != ctx->cu) {
    KP_CU(ctx, d->cuCtxPushCurrent(ctx->cu));
    *pushed = 1;
  }
  st = lookup(ctx, c, args, (CUstream)stream, s);
  if (st != KP_OK) kp_launch_end(ctx, *pushed);
done:
  return st;
}

kp_status kp_need_tma(kp_ctx *ctx, const char *op, const kpk_entry *e) {
  if (ctx->drv->cuTensorMapEncodeTiled) return KP_OK;
  return kp_fail(ctx, KP_ERR_UNSUPPORTED, "%s: %s needs cuTensorMapEncodeTiled (a CUDA 12 driver)",
                 op, e->name);
}

/* The map cache: per thread, 16 sets of 4 maps, a set chosen by a hash of
** the key (the encode's every input: the flags are fixed, unused dims /
** strides / box are 0), so that a hit is the very map the driver would make;
** a miss encodes and replaces the set's ways in turn.  Four ways: the four
** maps of one attention call never evict each other (with one map a slot,
** maps of one call could share a slot -- kpbench's four did, and every call
** encoded them all again).  The hash mixes the key a word at a time (a
** byte-wise FNV over its 112 bytes took longer than the rest of the
** lookup). */
enum { TMAP_SETS = 16, TMAP_WAYS = 4 };
typedef struct tmap_key {
  uint64_t p, dims[5], strides[4];
  uint32_t box[5], dtype, rank, swizzle, used;
} tmap_key;
typedef struct tmap_slot {
  tmap_key key;
  uint64_t h;
  CUtensorMap map;
} tmap_slot;
static _Thread_local tmap_slot tl_tmap[TMAP_SETS][TMAP_WAYS];
static _Thread_local unsigned char tl_tmap_next[TMAP_SETS];
static _Thread_local uint64_t tl_tmap_encodes, tl_tmap_hits;

kp_status kp_tmap_encode(kp_ctx *ctx, CUtensorMap *map, kp_dtype dt, int rank, const void *p,
                         const cuuint64_t *dims, const cuuint64_t *strides,
                         const cuuint32_t *box, int swizzle, const char *what, const char *file,
                         int line) {
  union { tmap_key k; uint64_t w[sizeof(tmap_key) / 8]; } u;
  _Static_assert(sizeof(tmap_key) % 8 == 0, "the key hashes as whole words");
  memset(&u, 0, sizeof u); /* padding too: keys compare as bytes */
  tmap_key *k = &u.k;
  k->p = (uint64_t)(uintptr_t)p, k->dtype = (uint32_t)dt, k->rank = (uint32_t)rank, k->used = 1;
  k->swizzle = (uint32_t)swizzle;
  for (int i = 0; i < rank && i < 5; i++) {
    k->dims[i] = dims[i], k->box[i] = box[i];
    if (i < rank - 1) k->strides[i] = strides[i];
  }
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < sizeof u.w / sizeof u.w[0]; i++) {
    h = (h ^ u.w[i]) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  const unsigned set = (unsigned)(h >> 60) % TMAP_SETS;
  const int cacheable = rank >= 1 && rank <= 5;
  if (cacheable)
    for (int w = 0; w < TMAP_WAYS; w++) {
      const tmap_slot *sl = &tl_tmap[set][w];
      if (sl->h == h && !memcmp(&sl->key, k, sizeof *k)) {
        *map = sl->map;
        tl_tmap_hits++;
        return KP_OK;
      }
    }
  static const cuuint32_t elem[5] = {1, 1, 1, 1, 1};
  CUresult r = ctx->drv->cuTensorMapEncodeTiled(
      map, dt == KP_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
      (cuuint32_t)rank, (void *)p, dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
      swizzle == KP_TMAP_SW128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  tl_tmap_encodes++;
  if (r != CUDA_SUCCESS) return kp_cu_fail(ctx, r, what, file, line);
  if (cacheable) {
    tmap_slot *sl = &tl_tmap[set][tl_tmap_next[set]++ % TMAP_WAYS];
    sl->key = *k, sl->h = h, sl->map = *map;
  }
  return KP_OK;
}

void kp_tmap_cache_stats(uint64_t *encodes, uint64_t *hits) {
  *encodes = tl_tmap_encodes;
  *hits = tl_tmap_hits;
}

void kp_launch_end(kp_ctx *ctx, int pushed) {
  CUcontext popped;
  if (pushed) ctx->drv->cuCtxPopCurrent(&popped);
}

/* One launch: through cuLaunchKernelEx with cfg, else cuLaunchKernel; the
** arguments as the buffer extra where given.  A driver that refuses the
** buffer (its size is not what the kernel takes) gets a pointer per
** parameter, now and for this entry from now on. */
static CUresult launch(const kp_ctx *ctx, const kpk_entry *e, kp_param_layout *L,
                       const CUlaunchConfig *cfg, CUfunction fn, uint64_t grid, void **args,
                       void **extra, void *stream) {
  const kp_driver *d = ctx->drv;
  for (;;) {
    CUresult r = cfg ? d->cuLaunchKernelEx(cfg, fn, extra ? NULL : args, extra)
                     : d->cuLaunchKernel(fn, (unsigned)grid, 1, 1, e->block, 1, 1, e->smem,
                                         (CUstream)stream, extra ? NULL : args, extra);
    if (r != CUDA_ERROR_INVALID_VALUE || !extra) return r;
    __atomic_store_n(&L->n, 0, __ATOMIC_RELAXED);
    kp_log(ctx, KP_LOG_INFO, "%s: a %u-byte parameter buffer refused: a pointer per parameter "
           "from now on", e->name, L->bytes);
    extra = NULL;
  }
}

/* Launch entry e's function fn over `grid` blocks: with its cluster
** dimension, and PDL where asked, through cuLaunchKernelEx, else through
** cuLaunchKernel.  Every launch of a pack entry comes here (the ops and
** the online autotuner): a cluster kernel launched without its cluster
** dimension dies on its first cluster barrier (an illegal instruction). */
kp_status kp_launch_entry(kp_ctx *ctx, const kpk_entry *e, CUfunction fn, uint64_t grid,
                          void **args, void *stream, int pdl) {
  kp_status st = KP_OK;
  const kp_driver *d = ctx->drv;
  const size_t idx = (size_t)(e - ctx->pack.entries);
  /* the arguments as one buffer in the kernel's layout (kp_load_entry checked it) */
  _Alignas(64) unsigned char buf[KP_PARAM_BYTES_MAX];
  size_t bytes = 0;
  void *packed[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes,
                    CU_LAUNCH_PARAM_END};
  void **extra = NULL;
  kp_param_layout *L = ctx->params[idx];
  const int np = L ? __atomic_load_n(&L->n, __ATOMIC_RELAXED) : 0; /* 0: refused once */
  if (np > 0) {
    bytes = L->bytes;
    memset(buf, 0, bytes); /* the padding */
    for (int k = 0; k < np; k++) {
      unsigned char *to = buf + L->off[k];
      if (L->size[k] == 4) memcpy(to, args[k], 4);
      else if (L->size[k] == 8) memcpy(to, args[k], 8);
      else memcpy(to, args[k], 128);
    }
    extra = packed;
  }
  /* A plain persistent grid sized for more CTAs an SM than fit this device
  ** (the split-KV decode's 2 of 78-111 KB: one on sm_86 / sm_89 / sm_120,
  ** 100 KB an SM) would run its last CTAs in a second wave after the
  ** others, each with the share of the work that assumed them all
  ** resident: cap it at what fits.  The kernels read their grid's size. */
  if (e->persist > 1 && e->cluster <= 1) {
    int *fit = &ctx->fit[idx];
    int n = __atomic_load_n(fit, __ATOMIC_RELAXED);
    if (!n && d->cuOccupancyMaxActiveBlocksPerMultiprocessor) {
      CUresult r = d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, (int)e->block, e->smem);
      if (r != CUDA_SUCCESS || n < 1) n = -1;
      __atomic_store_n(fit, n, __ATOMIC_RELAXED);
      kp_log(ctx, KP_LOG_INFO, "%s: %d CTAs an SM fit at once, %u asked (CUresult %d)", e->name,
             n, e->persist, (int)r);
    }
    grid = kp_persist_grid(grid, e->persist, n, ctx->props.sm_count);
  }
  if (e->cluster > 1 && !d->cuLaunchKernelEx)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "%s: variant %s needs cuLaunchKernelEx (a CUDA 12 "
                   "driver)", e->family, e->name);
  if (e->cluster > 1 || pdl) {
    CUlaunchAttribute at[2];
    unsigned na = 0;
    memset(at, 0, sizeof at);
    if (e->cluster > 1) {
      at[na].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      at[na].value.clusterDim.x = e->cluster;
      at[na].value.clusterDim.y = 1;
      at[na++].value.clusterDim.z = 1;
    }
    if (pdl) {
      at[na].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      at[na++].value.programmaticStreamSerializationAllowed = 1;
    }
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = (unsigned)grid;
    cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = e->block;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.sharedMemBytes = e->smem;
    cfg.attrs = at;
    cfg.numAttrs = na;
    if (e->cluster > 1) {
      /* A persistent grid larger than the clusters that fit at once would run
      ** its last clusters after the others: cap it at what fits (the GPCs' SM
      ** counts can leave SMs that no cluster can use). */
      int *fit = &ctx->fit[idx];
      int n = __atomic_load_n(fit, __ATOMIC_RELAXED);
      if (!n && d->cuOccupancyMaxActiveClusters) {
        CUresult r = d->cuOccupancyMaxActiveClusters(&n, fn, &cfg);
        if (r != CUDA_SUCCESS || n < 1) n = -1;
        __atomic_store_n(fit, n, __ATOMIC_RELAXED);
        kp_log(ctx, KP_LOG_INFO, "%s: %d clusters of %u fit at once (CUresult %d)", e->name, n,
               e->cluster, (int)r);
      }
      if (e->persist && n > 0 && grid > (uint64_t)n * e->cluster)
        cfg.gridDimX = (unsigned)((uint64_t)n * e->cluster);
    }
    cfg.hStream = (CUstream)stream;
    KP_CU(ctx, launch(ctx, e, L, &cfg, fn, grid, args, extra, stream));
  } else {
    KP_CU(ctx, launch(ctx, e, L, NULL, fn, grid, args, extra, stream));
  }
done:
  return st;
}

kp_status kp_launch_slot(kp_ctx *ctx, const kp_call *c, const kp_slot *s, void **args,
                         void *stream, int pushed) {
  kp_status st;
  const kpk_entry *e = s->e;
  uint64_t grid;
  if (kp_grid_blocks(e, c, ctx->props.sm_count, &grid) != KP_OK) {
    char shape[96];
    st = kp_fail(ctx, KP_ERR_UNSUPPORTED, "%s: %s %s needs %llu blocks of %s, more than a grid holds",
                 kp_family_name(c->family), kp_family_dims_text(c->family),
                 kp_shape_str(c, shape, sizeof shape), (unsigned long long)grid, e->name);
  } else {
    /* PDL: the kernel may start before the one ahead of it in the stream has
    ** finished, and waits for it itself (kp_grid_wait) */
    const int pdl = __atomic_load_n(&ctx->pdl, __ATOMIC_RELAXED) && ctx->pdl_device &&
                    ctx->pdl_code[e - ctx->pack.entries] &&
                    kp_entry_pdl_placement_ok(e, ctx->info.smem_per_sm);
    st = kp_launch_entry(ctx, e, s->fn, grid, args, stream, pdl);
  }
  kp_launch_end(ctx, pushed);
  return st;
}

kp_status kp_launch(kp_ctx *ctx, const kp_call *c, void **args, void *stream) {
  kp_slot s;
  int pushed;
  kp_status st = kp_launch_begin(ctx, c, args, stream, &s, &pushed);
  if (st != KP_OK) return st;
  return kp_launch_slot(ctx, c, &s, args, stream, pushed);
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
