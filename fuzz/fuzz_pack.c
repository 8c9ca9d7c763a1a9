/*
** fuzz_pack.c -- libFuzzer target for the pack reader (runtime/pack_read.c).
**
** Each input is parsed twice: as given, and with its header, index and
** string-section CRCs recomputed.  Random mutations almost never keep the
** CRCs valid, so without the second pass the fuzzer would only ever reach
** the header checks; with it, mutated offsets, strings and entry fields get
** through to the code that must bound them.  ASan/UBSan turn any out-of-
** bounds read or overflow into a crash.
**
**   make fuzz   (or see the fuzz_pack rule in the Makefile)
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pack.h"
#include "pack_layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touch every byte of a string, so an unterminated or out-of-range one
** trips ASan here rather than in some later user. */
static size_t touch(const char *s) { return strlen(s); }

static void parse_and_walk(uint8_t *buf, size_t size) {
  kpk_pack pk;
  char err[256];
  if (kpk_parse(&pk, buf, size, "fuzz.kpk", err, sizeof err) == KP_OK) {
    size_t sum = strlen(pk.target);
    for (uint32_t i = 0; i < pk.n_entries; i++) {
      const kpk_entry *e = &pk.entries[i];
      sum += touch(e->family) + touch(e->name) + touch(e->entry) + touch(e->params) +
             touch(e->signature) + touch(e->options);
      (void)kpk_check_entry(&pk, i, err, sizeof err);
      if (e->is_ptx) sum += touch((const char *)pk.blobs + e->image_off);
    }
    if (sum == 1) err[0] = 0; /* keep the walk from being optimised away */
  }
  kpk_close(&pk); /* frees buf, on failure too */
}

/* Recompute the CRCs the header vouches for, where its offsets allow, and
** the file size, so truncated and extended inputs get past that check too. */
static void reseal(uint8_t *b, size_t size) {
  if (size < KPK_HEADER_SIZE) return;
  uint64_t ioff = kp_rd64(b + KH_INDEX_OFF), ilen = (uint64_t)kp_rd32(b + KH_NENTRIES) * KPK_ENTRY_SIZE;
  uint64_t soff = kp_rd64(b + KH_STR_OFF), slen = kp_rd64(b + KH_STR_SIZE);
  if (ioff <= size && ilen <= size - ioff)
    kp_wr32(b + KH_INDEX_CRC, kp_crc32(b + ioff, (size_t)ilen));
  if (soff <= size && slen <= size - soff)
    kp_wr32(b + KH_STR_CRC, kp_crc32(b + soff, (size_t)slen));
  kp_wr64(b + KH_FILE_SIZE, size);
  kp_wr32(b + KH_HEADER_CRC, kp_header_crc(b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* exact-size heap copies, so ASan sees any read past the end */
  uint8_t *a = malloc(size ? size : 1);
  if (!a) return 0;
  if (size) memcpy(a, data, size);
  parse_and_walk(a, size);

  uint8_t *b = malloc(size ? size : 1);
  if (!b) return 0;
  if (size) memcpy(b, data, size);
  reseal(b, size);
  parse_and_walk(b, size);
  return 0;
}
