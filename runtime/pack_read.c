/*
** pack_read.c -- open and validate a .kpk pack.
**
** Hostile input is the normal case here: every offset and size is checked
** against the file before it is used, every string must be terminated inside
** the string section, and the header, index and string section carry CRCs.
** Blob CRCs are checked by kpk_check_entry (at module load and by `kp verify`).
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pack.h"
#include "pack_layout.h"

static kp_status fail(char *err, size_t errlen, kp_status s, const char *path,
                      const char *fmt, ...) {
  if (err && errlen) {
    int n = snprintf(err, errlen, "pack %s: ", path ? path : "(memory)");
    if (n < 0) n = 0;
    if ((size_t)n < errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return s;
}

/* Is [off, off+len) inside [0, size)?  Written to be overflow-proof. */
static int in_bounds(uint64_t off, uint64_t len, uint64_t size) {
  return off <= size && len <= size - off;
}

static const char *str_at(const kpk_pack *pk, const uint8_t *strs, uint64_t strs_size,
                          uint32_t off) {
  (void)pk;
  if (off >= strs_size) return NULL;
  if (!memchr(strs + off, 0, (size_t)(strs_size - off))) return NULL;
  return (const char *)strs + off;
}

kp_status kpk_parse(kpk_pack *pk, uint8_t *data, size_t size, const char *path,
                    char *err, size_t errlen) {
  memset(pk, 0, sizeof *pk);
  pk->data = data;
  pk->size = size;
  snprintf(pk->path, sizeof pk->path, "%s", path ? path : "(memory)");
  path = pk->path;
  const uint8_t *h = data;

  if (size < KPK_HEADER_SIZE)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                "file is %zu bytes, shorter than the %d-byte header", size, KPK_HEADER_SIZE);
  if (memcmp(h + KH_MAGIC, KPK_MAGIC, 8) != 0)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "bad magic (not a kernpack pack)");
  uint32_t version = kp_rd32(h + KH_VERSION);
  if (version != KPK_FORMAT_VERSION)
    return fail(err, errlen, KP_ERR_PACK_VERSION, path,
                "format version %u, this library reads version %d", version,
                KPK_FORMAT_VERSION);
  if (kp_header_crc(h) != kp_rd32(h + KH_HEADER_CRC))
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "header checksum mismatch");
  if (kp_rd32(h + KH_HSIZE) != KPK_HEADER_SIZE)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "header size %u, expected %d",
                kp_rd32(h + KH_HSIZE), KPK_HEADER_SIZE);
  for (int i = KH_RESERVED; i < KPK_HEADER_SIZE; i++)
    if (h[i])
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "reserved header byte %d is not zero", i);
  uint64_t fsize = kp_rd64(h + KH_FILE_SIZE);
  if (fsize != size)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                "file is %zu bytes but header says %llu (truncated or extended)", size,
                (unsigned long long)fsize);
  memcpy(pk->target, h + KH_TARGET, 16);
  if (!memchr(pk->target, 0, 16) || pk->target[0] == 0)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "target name not terminated");
  pk->version = version;
  pk->toolkit = kp_rd32(h + KH_TOOLKIT);

  uint32_t n = kp_rd32(h + KH_NENTRIES);
  uint64_t ioff = kp_rd64(h + KH_INDEX_OFF);
  uint64_t soff = kp_rd64(h + KH_STR_OFF), ssize = kp_rd64(h + KH_STR_SIZE);
  uint64_t boff = kp_rd64(h + KH_BLOB_OFF), bsize = kp_rd64(h + KH_BLOB_SIZE);
  if (n > KPK_MAX_ENTRIES)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "%u index entries, limit %d", n,
                KPK_MAX_ENTRIES);
  if (!in_bounds(ioff, (uint64_t)n * KPK_ENTRY_SIZE, size))
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                "index (%u entries at offset %llu) extends past end of file", n,
                (unsigned long long)ioff);
  if (!in_bounds(soff, ssize, size))
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                "string section (offset %llu, %llu bytes) extends past end of file",
                (unsigned long long)soff, (unsigned long long)ssize);
  if (!in_bounds(boff, bsize, size))
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                "blob section (offset %llu, %llu bytes) extends past end of file",
                (unsigned long long)boff, (unsigned long long)bsize);
  if (kp_crc32(data + ioff, (size_t)n * KPK_ENTRY_SIZE) != kp_rd32(h + KH_INDEX_CRC))
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "index checksum mismatch");
  if (kp_crc32(data + soff, (size_t)ssize) != kp_rd32(h + KH_STR_CRC))
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "string section checksum mismatch");

  const uint8_t *strs = data + soff;
  pk->blobs = data + boff;
  pk->blobs_size = bsize;
  uint64_t poff = kp_rd64(h + KH_PRELUDE_OFF), psize = kp_rd64(h + KH_PRELUDE_SIZE);
  if (psize) {
    if (!in_bounds(poff, psize, bsize))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "prelude (offset %llu, %llu bytes) is outside the blob section",
                  (unsigned long long)poff, (unsigned long long)psize);
    if (kp_crc32(pk->blobs + poff, (size_t)psize) != kp_rd32(h + KH_PRELUDE_CRC))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "prelude checksum mismatch");
    pk->prelude = pk->blobs + poff;
    pk->prelude_size = psize;
  }
  pk->entries = calloc(n ? n : 1, sizeof *pk->entries);
  if (!pk->entries) return fail(err, errlen, KP_ERR_NOMEM, path, "out of memory for index");
  pk->n_entries = n;

  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *r = data + ioff + (uint64_t)i * KPK_ENTRY_SIZE;
    kpk_entry *e = &pk->entries[i];
    const char **strf[] = {&e->family, &e->name, &e->entry, &e->params, &e->signature,
                           &e->options, &e->dims};
    static const char *const strn[] = {"family", "name", "entry", "params", "signature",
                                       "options", "dims"};
    static const int stro[] = {KE_FAMILY, KE_NAME, KE_ENTRY, KE_PARAMS, KE_SIGNATURE,
                               KE_OPTIONS, KE_DIMS};
    for (int s = 0; s < 7; s++) {
      uint32_t off = kp_rd32(r + stro[s]);
      *strf[s] = str_at(pk, strs, ssize, off);
      if (!*strf[s])
        return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                    "index entry %u: %s string offset %u is outside the string section", i,
                    strn[s], off);
    }
    e->dtype = kp_rd32(r + KE_DTYPE);
    e->align = kp_rd32(r + KE_ALIGN);
    e->max_align = kp_rd32(r + KE_MAX_ALIGN);
    for (int d = 0; d < KPK_DIMS; d++) {
      e->dmin[d] = kp_rd64(r + KE_DMIN + 8 * d);
      e->dmax[d] = kp_rd64(r + KE_DMAX + 8 * d);
      e->dmult[d] = kp_rd32(r + KE_DMULT + 4 * d);
      e->tile[d] = kp_rd32(r + KE_TILE + 4 * d);
    }
    e->persist = kp_rd32(r + KE_PERSIST);
    e->cluster = kp_rd32(r + KE_CLUSTER);
    e->split = kp_rd32(r + KE_SPLIT);
    e->aux = kp_rd32(r + KE_AUX);
    e->min_sm = kp_rd32(r + KE_MIN_SM);
    e->max_sm = kp_rd32(r + KE_MAX_SM);
    e->rank = (int32_t)kp_rd32(r + KE_RANK);
    e->block = kp_rd32(r + KE_BLOCK);
    e->forms = (uint64_t)kp_rd32(r + KE_FORMS) | (uint64_t)kp_rd32(r + KE_FORMS_HI) << 32;
    e->prefer_forms = kp_rd64(r + KE_PREFER_FORMS);
    e->prefer_rank = (int32_t)kp_rd32(r + KE_PREFER_RANK);
    e->smem = kp_rd32(r + KE_SMEM);
    e->rate = kp_rd32(r + KE_RATE);
    if (e->rate > 1000)
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u: rate %u per mille, past 1000", i, e->rate);
    if (kp_rd32(r + KE_RESERVED))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u: reserved bytes %u..%u are not zero", i, KE_RESERVED,
                  KE_RESERVED + 3);
    e->regs = kp_rd32(r + KE_REGS);
    e->stack = kp_rd32(r + KE_STACK);
    e->spill_stores = kp_rd32(r + KE_SPILL_ST);
    e->spill_loads = kp_rd32(r + KE_SPILL_LD);
    e->is_ptx = kp_rd32(r + KE_IS_PTX);
    e->image_crc = kp_rd32(r + KE_IMAGE_CRC);
    e->src_hash = kp_rd64(r + KE_SRC_HASH);
    e->image_off = kp_rd64(r + KE_IMAGE_OFF);
    e->image_size = kp_rd64(r + KE_IMAGE_SIZE);
    e->src_off = kp_rd64(r + KE_SRC_OFF);
    e->src_size = kp_rd64(r + KE_SRC_SIZE);
    e->src_crc = kp_rd32(r + KE_SRC_CRC);
    e->prelude_at = kp_rd32(r + KE_PRELUDE_AT);
    if (e->prelude_at != KPK_NO_PRELUDE && (!pk->prelude || e->prelude_at > e->src_size))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u: prelude position %u is outside its source%s", i, e->prelude_at,
                  pk->prelude ? "" : " (the pack has no prelude)");

    if (e->dtype >= KP_DTYPE_COUNT_)
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "index entry %u (%s): dtype %u unknown",
                  i, e->name, e->dtype);
    if (e->forms && (e->prefer_forms & ~e->forms))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): prefers forms 0x%llx it does not compute (0x%llx)", i,
                  e->name, (unsigned long long)e->prefer_forms, (unsigned long long)e->forms);
    if (!e->prefer_forms && e->prefer_rank)
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): a preferred rank (%d) without its forms", i, e->name,
                  e->prefer_rank);
    kp_dims dims;
    char why[200];
    if (kp_dims_parse(e->dims, &dims, why, sizeof why) ||
        kp_dims_check_entry(&dims, e, why, sizeof why))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "index entry %u (%s): %s", i, e->name,
                  why);
    if (e->align == 0 || (e->align & (e->align - 1)) || e->align > 256)
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): alignment %u is not a power of two <= 256", i, e->name,
                  e->align);
    if (e->max_align && ((e->max_align & (e->max_align - 1)) || e->max_align < e->align ||
                         e->max_align > 256))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): max alignment %u is not 0 nor a power of two in [%u, 256]",
                  i, e->name, e->max_align, e->align);
    if (e->block == 0 || e->block > 1024 || e->cluster > KPK_MAX_CLUSTER || e->persist > 64)
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): block of %u threads, cluster %u, %u persistent blocks "
                  "per SM", i, e->name, e->block, e->cluster, e->persist);
    if (e->split > 1 && e->split != e->cluster)
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): split %u needs a cluster of %u (not %u)", i, e->name,
                  e->split, e->split, e->cluster);
    if (!in_bounds(e->image_off, e->image_size, bsize) || e->image_size == 0)
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): image (offset %llu, %llu bytes) is outside the blob section",
                  i, e->name, (unsigned long long)e->image_off,
                  (unsigned long long)e->image_size);
    if (!in_bounds(e->src_off, e->src_size, bsize))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): source (offset %llu, %llu bytes) is outside the blob section",
                  i, e->name, (unsigned long long)e->src_off, (unsigned long long)e->src_size);
    if (e->is_ptx && !memchr(pk->blobs + e->image_off, 0, (size_t)e->image_size))
      return fail(err, errlen, KP_ERR_PACK_CORRUPT, path,
                  "index entry %u (%s): PTX image is not NUL-terminated", i, e->name);
  }
  return KP_OK;
}

kp_status kpk_open(kpk_pack *pk, const char *path, char *err, size_t errlen) {
  memset(pk, 0, sizeof *pk);
  FILE *f = fopen(path, "rb");
  if (!f)
    return fail(err, errlen, errno == ENOENT ? KP_ERR_PACK_NOT_FOUND : KP_ERR_IO, path,
                "cannot open: %s", strerror(errno));
  uint8_t *buf = NULL;
  size_t cap = 0, len = 0;
  for (;;) {
    if (len == cap) {
      if (cap >= KPK_MAX_FILE) {
        free(buf);
        fclose(f);
        return fail(err, errlen, KP_ERR_PACK_CORRUPT, path, "file larger than 4 GiB");
      }
      size_t ncap = cap ? cap * 2 : 1 << 20;
      uint8_t *nb = realloc(buf, ncap);
      if (!nb) {
        free(buf);
        fclose(f);
        return fail(err, errlen, KP_ERR_NOMEM, path, "out of memory reading file");
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int rerr = ferror(f);
  fclose(f);
  if (rerr) {
    free(buf);
    return fail(err, errlen, KP_ERR_IO, path, "read error");
  }
  return kpk_parse(pk, buf, len, path, err, errlen);
}

void kpk_close(kpk_pack *pk) {
  if (!pk) return;
  free(pk->entries);
  free(pk->data);
  memset(pk, 0, sizeof *pk);
}

kp_status kpk_check_entry(const kpk_pack *pk, uint32_t i, char *err, size_t errlen) {
  if (i >= pk->n_entries)
    return fail(err, errlen, KP_ERR_INVALID_ARG, pk->path, "no index entry %u", i);
  const kpk_entry *e = &pk->entries[i];
  if (kp_crc32(pk->blobs + e->image_off, (size_t)e->image_size) != e->image_crc)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, pk->path,
                "index entry %u (%s): image checksum mismatch", i, e->name);
  if (kp_crc32(pk->blobs + e->src_off, (size_t)e->src_size) != e->src_crc)
    return fail(err, errlen, KP_ERR_PACK_CORRUPT, pk->path,
                "index entry %u (%s): source checksum mismatch", i, e->name);
  return KP_OK;
}

char *kpk_source_dup(const kpk_pack *pk, uint32_t i, size_t *len) {
  const kpk_entry *e = &pk->entries[i];
  const uint8_t *src = pk->blobs + e->src_off;
  size_t n = (size_t)e->src_size, at = n, extra = 0;
  if (e->prelude_at != KPK_NO_PRELUDE) at = e->prelude_at, extra = (size_t)pk->prelude_size;
  char *out = malloc(n + extra + 1);
  if (!out) return NULL;
  memcpy(out, src, at);
  if (extra) memcpy(out + at, pk->prelude, extra);
  memcpy(out + at + extra, src + at, n - at);
  out[n + extra] = 0;
  if (len) *len = n + extra;
  return out;
}
