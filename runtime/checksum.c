/*
** checksum.c -- CRC-32 (IEEE, as zlib) for pack integrity and FNV-1a 64
** for source hashes.  Table built once, thread-safely.
*/
#include <pthread.h>

#include "pack.h"

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}

uint32_t kp_crc32(const void *p, size_t n) {
  const uint8_t *b = p;
  uint32_t c = 0xFFFFFFFFu;
  pthread_once(&crc_once, crc_init);
  for (size_t i = 0; i < n; i++) c = crc_table[(c ^ b[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint64_t kp_fnv1a64(const void *p, size_t n) {
  const uint8_t *b = p;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 0x100000001b3ull; }
  return h;
}
