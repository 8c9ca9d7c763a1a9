/*
** pack_layout.h -- byte offsets of the .kpk header and index entries, and
** little-endian accessors; used only by pack_read.c and gen/pack_write.c
** so that the two sides of the format share one description.
*/
#ifndef KP_PACK_LAYOUT_H
#define KP_PACK_LAYOUT_H

#include <stdint.h>
#include <string.h>

#include "pack.h"

/* header */
enum {
  KH_MAGIC = 0, KH_VERSION = 8, KH_HSIZE = 12, KH_TARGET = 16, KH_TOOLKIT = 32,
  KH_NENTRIES = 36, KH_INDEX_OFF = 40, KH_STR_OFF = 48, KH_STR_SIZE = 56,
  KH_BLOB_OFF = 64, KH_BLOB_SIZE = 72, KH_INDEX_CRC = 80, KH_STR_CRC = 84,
  KH_FILE_SIZE = 88, KH_HEADER_CRC = 96, KH_PRELUDE_OFF = 100, KH_PRELUDE_SIZE = 108,
  KH_PRELUDE_CRC = 116, KH_RESERVED = 120 /* ..127, zero */
};

/* index entry */
enum {
  KE_FAMILY = 0, KE_NAME = 4, KE_ENTRY = 8, KE_PARAMS = 12, KE_SIGNATURE = 16,
  KE_OPTIONS = 20, KE_DTYPE = 24, KE_ALIGN = 28, KE_DIMS = 32, KE_PERSIST = 36,
  KE_CLUSTER = 40, KE_AUX = 44, KE_MIN_SM = 48, KE_MAX_SM = 52, KE_RANK = 56, KE_BLOCK = 60,
  KE_FORMS = 64, KE_SMEM = 68, KE_REGS = 72, KE_STACK = 76, KE_SPILL_ST = 80,
  KE_SPILL_LD = 84, KE_IS_PTX = 88, KE_IMAGE_CRC = 92, KE_SRC_HASH = 96, KE_IMAGE_OFF = 104,
  KE_IMAGE_SIZE = 112, KE_SRC_OFF = 120, KE_SRC_SIZE = 128, KE_SRC_CRC = 136,
  KE_PRELUDE_AT = 140, KE_SPLIT = 144, KE_MAX_ALIGN = 148,
  KE_FORMS_HI = 152,     /* forms' bits 32..63 (KE_FORMS: 0..31) */
  KE_PREFER_RANK = 156,
  KE_DMIN = 160,  /* u64[KPK_DIMS] */
  KE_DMAX = 200,  /* u64[KPK_DIMS] */
  KE_DMULT = 240, /* u32[KPK_DIMS] */
  KE_TILE = 260,  /* u32[KPK_DIMS] */
  KE_PREFER_FORMS = 280, /* u64 */
  KE_RATE = 288,  /* u32: per mille, 0 = 1000 */
  KE_RESERVED = 292, /* u32, zero */
  KE_END = 296
};
_Static_assert(KE_DMAX == KE_DMIN + 8 * KPK_DIMS && KE_DMULT == KE_DMAX + 8 * KPK_DIMS &&
                   KE_TILE == KE_DMULT + 4 * KPK_DIMS &&
                   KE_PREFER_FORMS == KE_TILE + 4 * KPK_DIMS && KE_RATE == KE_PREFER_FORMS + 8 &&
                   KE_END == KPK_ENTRY_SIZE,
               "the per-dimension fields fill the entry in order");

static inline uint32_t kp_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t kp_rd64(const uint8_t *p) {
  return (uint64_t)kp_rd32(p) | (uint64_t)kp_rd32(p + 4) << 32;
}
static inline void kp_wr32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void kp_wr64(uint8_t *p, uint64_t v) {
  kp_wr32(p, (uint32_t)v); kp_wr32(p + 4, (uint32_t)(v >> 32));
}

/* CRC-32 of the whole header with its CRC field taken as zero. */
static inline uint32_t kp_header_crc(const uint8_t *h) {
  uint8_t t[KH_RESERVED + 8];
  memcpy(t, h, sizeof t);
  memset(t + KH_HEADER_CRC, 0, 4);
  return kp_crc32(t, sizeof t);
}

#endif
