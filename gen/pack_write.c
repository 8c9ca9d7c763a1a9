/*
** pack_write.c -- serialise a .kpk pack (format in runtime/pack.h).
** Strings are de-duplicated; blobs are 16-byte aligned inside the file.
*/
#include <stdlib.h>
#include <string.h>

#include "pack.h"
#include "pack_layout.h"

typedef struct buf { uint8_t *p; size_t n, cap; } buf;

static int buf_put(buf *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n) cap *= 2;
    uint8_t *np = realloc(b->p, cap);
    if (!np) return -1;
    b->p = np;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->n, src, n);
  b->n += n;
  return 0;
}

static int buf_pad(buf *b, size_t align) {
  static const uint8_t zeros[64];
  size_t pad = (align - b->n % align) % align;
  return buf_put(b, zeros, pad);
}

struct kpk_writer {
  char target[16];
  uint32_t toolkit;
  uint32_t n;
  buf index, strs, blobs;
  uint64_t prelude_off, prelude_size;
  uint32_t prelude_crc;
};

kpk_writer *kpk_writer_new(const char *target, uint32_t toolkit) {
  kpk_writer *w = calloc(1, sizeof *w);
  if (!w || strlen(target) >= sizeof w->target) { free(w); return NULL; }
  strcpy(w->target, target);
  w->toolkit = toolkit;
  if (buf_put(&w->strs, "", 1)) { free(w); return NULL; } /* offset 0 = "" */
  return w;
}

/* Offset of s in the string section, adding it if new (linear scan: packs
** have a few thousand short strings). */
static int str_off(kpk_writer *w, const char *s, uint32_t *off) {
  if (!s) s = "";
  size_t len = strlen(s) + 1;
  for (size_t i = 0; i + len <= w->strs.n; i += strlen((char *)w->strs.p + i) + 1)
    if (memcmp(w->strs.p + i, s, len) == 0) { *off = (uint32_t)i; return 0; }
  *off = (uint32_t)w->strs.n;
  return buf_put(&w->strs, s, len);
}

static int blob_add(kpk_writer *w, const void *p, size_t n, uint64_t *off) {
  if (buf_pad(&w->blobs, 16)) return -1;
  *off = w->blobs.n;
  return buf_put(&w->blobs, p, n);
}

int kpk_writer_set_prelude(kpk_writer *w, const void *text, size_t size) {
  if (w->prelude_size || !size) return -1; /* once, and not empty */
  if (blob_add(w, text, size, &w->prelude_off)) return -1;
  w->prelude_size = size;
  w->prelude_crc = kp_crc32(text, size);
  return 0;
}

/* Position of the prelude in src, or -1. */
static long find_prelude(const kpk_writer *w, const uint8_t *src, size_t n) {
  const uint8_t *p = w->blobs.p + w->prelude_off;
  size_t m = (size_t)w->prelude_size;
  if (!m || n < m) return -1;
  for (size_t i = 0; i + m <= n; i++)
    if (src[i] == p[0] && memcmp(src + i, p, m) == 0) return (long)i;
  return -1;
}

int kpk_writer_add(kpk_writer *w, const kpk_entry *e, const void *image, size_t image_size,
                   const void *src, size_t src_size) {
  uint8_t r[KPK_ENTRY_SIZE] = {0};
  const char *strs[] = {e->family, e->name, e->entry, e->params, e->signature, e->options,
                        e->dims};
  static const int stro[] = {KE_FAMILY, KE_NAME, KE_ENTRY, KE_PARAMS, KE_SIGNATURE, KE_OPTIONS,
                             KE_DIMS};
  for (int s = 0; s < 7; s++) {
    uint32_t off;
    if (str_off(w, strs[s] ? strs[s] : "", &off)) return -1;
    kp_wr32(r + stro[s], off);
  }
  /* the stored source is src without the prelude, which the reader puts back */
  long at = find_prelude(w, src, src_size);
  uint64_t ioff, soff;
  if (blob_add(w, image, image_size, &ioff)) return -1;
  if (at < 0) {
    if (blob_add(w, src, src_size, &soff)) return -1;
  } else {
    size_t m = (size_t)w->prelude_size;
    if (blob_add(w, src, (size_t)at, &soff) ||
        buf_put(&w->blobs, (const uint8_t *)src + at + m, src_size - (size_t)at - m))
      return -1;
  }
  size_t stored = at < 0 ? src_size : src_size - (size_t)w->prelude_size;
  kp_wr32(r + KE_DTYPE, e->dtype);
  kp_wr32(r + KE_ALIGN, e->align);
  kp_wr32(r + KE_MAX_ALIGN, e->max_align);
  for (int d = 0; d < KPK_DIMS; d++) {
    kp_wr64(r + KE_DMIN + 8 * d, e->dmin[d]);
    kp_wr64(r + KE_DMAX + 8 * d, e->dmax[d]);
    kp_wr32(r + KE_DMULT + 4 * d, e->dmult[d]);
    kp_wr32(r + KE_TILE + 4 * d, e->tile[d]);
  }
  kp_wr32(r + KE_PERSIST, e->persist);
  kp_wr32(r + KE_CLUSTER, e->cluster);
  kp_wr32(r + KE_SPLIT, e->split);
  kp_wr32(r + KE_AUX, e->aux);
  kp_wr32(r + KE_MIN_SM, e->min_sm);
  kp_wr32(r + KE_MAX_SM, e->max_sm);
  kp_wr32(r + KE_RANK, (uint32_t)e->rank);
  kp_wr32(r + KE_BLOCK, e->block);
  kp_wr32(r + KE_FORMS, (uint32_t)e->forms);
  kp_wr32(r + KE_FORMS_HI, (uint32_t)(e->forms >> 32));
  kp_wr64(r + KE_PREFER_FORMS, e->prefer_forms);
  kp_wr32(r + KE_RATE, e->rate);
  kp_wr32(r + KE_PREFER_RANK, (uint32_t)e->prefer_rank);
  kp_wr32(r + KE_SMEM, e->smem);
  kp_wr32(r + KE_REGS, e->regs);
  kp_wr32(r + KE_STACK, e->stack);
  kp_wr32(r + KE_SPILL_ST, e->spill_stores);
  kp_wr32(r + KE_SPILL_LD, e->spill_loads);
  kp_wr32(r + KE_IS_PTX, e->is_ptx);
  kp_wr32(r + KE_IMAGE_CRC, kp_crc32(image, image_size));
  kp_wr64(r + KE_SRC_HASH, kp_fnv1a64(src, src_size));
  kp_wr64(r + KE_IMAGE_OFF, ioff);
  kp_wr64(r + KE_IMAGE_SIZE, image_size);
  kp_wr64(r + KE_SRC_OFF, soff);
  kp_wr64(r + KE_SRC_SIZE, stored);
  kp_wr32(r + KE_SRC_CRC, kp_crc32(w->blobs.p + soff, stored));
  kp_wr32(r + KE_PRELUDE_AT, at < 0 ? KPK_NO_PRELUDE : (uint32_t)at);
  if (buf_put(&w->index, r, sizeof r)) return -1;
  w->n++;
  return 0;
}

int kpk_writer_finish(kpk_writer *w, uint8_t **out, size_t *size) {
  buf f = {0};
  uint8_t h[KPK_HEADER_SIZE] = {0};
  uint64_t ioff = KPK_HEADER_SIZE;
  uint64_t soff = ioff + w->index.n;
  uint64_t boff = (soff + w->strs.n + 15) / 16 * 16;
  uint64_t total = boff + w->blobs.n;
  memcpy(h + KH_MAGIC, KPK_MAGIC, 8);
  kp_wr32(h + KH_VERSION, KPK_FORMAT_VERSION);
  kp_wr32(h + KH_HSIZE, KPK_HEADER_SIZE);
  memcpy(h + KH_TARGET, w->target, strlen(w->target));
  kp_wr32(h + KH_TOOLKIT, w->toolkit);
  kp_wr32(h + KH_NENTRIES, w->n);
  kp_wr64(h + KH_INDEX_OFF, ioff);
  kp_wr64(h + KH_STR_OFF, soff);
  kp_wr64(h + KH_STR_SIZE, w->strs.n);
  kp_wr64(h + KH_BLOB_OFF, boff);
  kp_wr64(h + KH_BLOB_SIZE, w->blobs.n);
  kp_wr32(h + KH_INDEX_CRC, kp_crc32(w->index.p, w->index.n));
  kp_wr32(h + KH_STR_CRC, kp_crc32(w->strs.p, w->strs.n));
  kp_wr64(h + KH_FILE_SIZE, total);
  kp_wr64(h + KH_PRELUDE_OFF, w->prelude_off);
  kp_wr64(h + KH_PRELUDE_SIZE, w->prelude_size);
  kp_wr32(h + KH_PRELUDE_CRC, w->prelude_crc);
  kp_wr32(h + KH_HEADER_CRC, kp_header_crc(h));
  if (buf_put(&f, h, sizeof h) || buf_put(&f, w->index.p, w->index.n) ||
      buf_put(&f, w->strs.p, w->strs.n) || buf_pad(&f, 16) ||
      buf_put(&f, w->blobs.p, w->blobs.n)) {
    free(f.p);
    return -1;
  }
  *out = f.p;
  *size = f.n;
  return 0;
}

kpk_writer *kpk_writer_like(const kpk_pack *pk) {
  kpk_writer *w = kpk_writer_new(pk->target, pk->toolkit);
  if (w && pk->prelude && kpk_writer_set_prelude(w, pk->prelude, (size_t)pk->prelude_size)) {
    kpk_writer_free(w);
    return NULL;
  }
  return w;
}

int kpk_writer_copy(kpk_writer *w, const kpk_pack *pk, uint32_t i) {
  const kpk_entry *e = &pk->entries[i];
  size_t srclen;
  char *src = kpk_source_dup(pk, i, &srclen);
  int rc = !src ||
           kpk_writer_add(w, e, pk->blobs + e->image_off, (size_t)e->image_size, src, srclen);
  free(src);
  return rc ? -1 : 0;
}

void kpk_writer_free(kpk_writer *w) {
  if (!w) return;
  free(w->index.p);
  free(w->strs.p);
  free(w->blobs.p);
  free(w);
}
