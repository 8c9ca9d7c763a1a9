/*
** check_pack.c -- the .kpk writer and reader: a faithful round trip, and a
** reader that turns every kind of damaged or hostile file into a status and
** a message naming the file, never a crash (Check forks each test, so a
** crash shows up as an error here).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "pack.h"
#include "pack_layout.h"

#define MEM_PATH "mem-test.kpk" /* the name kpk_parse is given; messages must carry it */

static const char PTX_TEXT[] = ".version 8.0\n.target sm_80\n.address_size 64\n";
static const uint8_t CUBIN[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7, 0, 1, 2, 3};

/* A distinct, fully populated entry i (every field differs from its default). */
static kpk_entry sample_entry(int i) {
  static char names[4][32];
  snprintf(names[i], sizeof names[i], "fam%d_bf16_v%d", i % 2, i);
  kpk_entry e = {0};
  e.family = i % 2 ? "fam1" : "fam0";
  e.name = names[i];
  e.entry = names[i];
  e.params = i == 2 ? "" : "vec=8,threads=256";
  e.signature = "p,l,p,l,i,i";
  e.options = i == 1 ? NULL : "--gpu-architecture=sm_90a -lineinfo";
  e.dtype = (uint32_t)(i % KP_DTYPE_COUNT_);
  e.dmin[KP_COLS] = 1 + (uint64_t)i;
  e.dmax[KP_COLS] = 2147483647ull - (uint64_t)i;
  e.dims = "rows:pow2,cols";
  e.align = 2u << i;
  e.min_sm = 80 + (uint32_t)i;
  e.max_sm = 120;
  e.rank = -7 * i - 1;
  e.block = 128u * (uint32_t)(i + 1);
  e.tile[KP_ROWS] = 1u + (uint32_t)i;
  e.dmin[KP_ROWS] = 1u << (4 + 8 * i);           /* 16, 4096, 2^20, 2^28 */
  e.tile[KP_COLS] = 1000u * (uint32_t)i + 7;
  e.smem = 1024u * (uint32_t)i + 3;
  e.regs = 32 + (uint32_t)i;
  e.stack = 8 + (uint32_t)i;
  e.spill_stores = 100 + (uint32_t)i;
  e.spill_loads = 200 + (uint32_t)i;
  e.is_ptx = i == 1;
  return e;
}

static char *sample_src(int i) {
  static char srcs[4][64];
  snprintf(srcs[i], sizeof srcs[i], "// source %d\nextern \"C\" __global__ void k%d() {}\n", i, i);
  return srcs[i];
}

/* Serialise n sample entries (entry 1 is PTX, the rest cubins). */
static uint8_t *build_pack(int n, size_t *size) {
  kpk_writer *w = kpk_writer_new("sm_90a", 12080);
  ck_assert_ptr_nonnull(w);
  for (int i = 0; i < n; i++) {
    kpk_entry e = sample_entry(i);
    const void *img = e.is_ptx ? (const void *)PTX_TEXT : (const void *)CUBIN;
    size_t isz = e.is_ptx ? sizeof PTX_TEXT : sizeof CUBIN;
    ck_assert_int_eq(kpk_writer_add(w, &e, img, isz, sample_src(i), strlen(sample_src(i))), 0);
  }
  uint8_t *buf = NULL;
  ck_assert_int_eq(kpk_writer_finish(w, &buf, size), 0);
  kpk_writer_free(w);
  return buf;
}

/* Parse a private copy of buf (the reader takes ownership of what it gets). */
static kp_status parse_copy(kpk_pack *pk, const uint8_t *buf, size_t n, char *err, size_t errlen) {
  uint8_t *copy = malloc(n ? n : 1);
  ck_assert_ptr_nonnull(copy);
  if (n) memcpy(copy, buf, n);
  err[0] = 0;
  return kpk_parse(pk, copy, n, MEM_PATH, err, errlen);
}

/* Re-seal the index, string and header CRCs after tampering, so the damage
** reaches the check aimed at it instead of a checksum mismatch. */
static void reseal(uint8_t *b) {
  uint64_t ioff = kp_rd64(b + KH_INDEX_OFF), soff = kp_rd64(b + KH_STR_OFF);
  uint32_t n = kp_rd32(b + KH_NENTRIES);
  kp_wr32(b + KH_INDEX_CRC, kp_crc32(b + ioff, (size_t)n * KPK_ENTRY_SIZE));
  kp_wr32(b + KH_STR_CRC, kp_crc32(b + soff, (size_t)kp_rd64(b + KH_STR_SIZE)));
  kp_wr32(b + KH_HEADER_CRC, kp_header_crc(b));
}

/* Header only: for offsets that cannot be followed to compute section CRCs. */
static void reseal_header(uint8_t *b) { kp_wr32(b + KH_HEADER_CRC, kp_header_crc(b)); }

static uint8_t *entry_rec(uint8_t *b, uint32_t i) {
  return b + kp_rd64(b + KH_INDEX_OFF) + (uint64_t)i * KPK_ENTRY_SIZE;
}

/* Expect failure with status s and a message naming the file and saying `what`. */
static void expect_fail(const uint8_t *buf, size_t n, kp_status s, const char *what) {
  kpk_pack pk;
  char err[512];
  kp_status got = parse_copy(&pk, buf, n, err, sizeof err);
  ck_assert_msg(got == s, "expected %s, got %s (%s)", kp_status_name(s), kp_status_name(got), err);
  ck_assert_msg(strstr(err, MEM_PATH), "message does not name the file: %s", err);
  ck_assert_msg(!what || strstr(err, what), "message lacks '%s': %s", what, err);
  kpk_close(&pk);
}

static void check_entry_eq(const kpk_pack *pk, int i) {
  const kpk_entry *g = &pk->entries[i];
  kpk_entry x = sample_entry(i);
  ck_assert_str_eq(g->family, x.family);
  ck_assert_str_eq(g->name, x.name);
  ck_assert_str_eq(g->entry, x.entry);
  ck_assert_str_eq(g->params, x.params);
  ck_assert_str_eq(g->signature, x.signature);
  ck_assert_str_eq(g->options, x.options ? x.options : ""); /* NULL is stored as "" */
  ck_assert_uint_eq(g->dtype, x.dtype);
  ck_assert_uint_eq(g->dmin[KP_COLS], x.dmin[KP_COLS]);
  ck_assert_uint_eq(g->dmax[KP_COLS], x.dmax[KP_COLS]);
  ck_assert_uint_eq(g->align, x.align);
  ck_assert_uint_eq(g->min_sm, x.min_sm);
  ck_assert_uint_eq(g->max_sm, x.max_sm);
  ck_assert_int_eq(g->rank, x.rank);
  ck_assert_uint_eq(g->block, x.block);
  ck_assert_uint_eq(g->tile[KP_ROWS], x.tile[KP_ROWS]);
  ck_assert_uint_eq(g->dmin[KP_ROWS], x.dmin[KP_ROWS]);
  ck_assert_uint_eq(g->tile[KP_COLS], x.tile[KP_COLS]);
  ck_assert_uint_eq(g->smem, x.smem);
  ck_assert_uint_eq(g->regs, x.regs);
  ck_assert_uint_eq(g->stack, x.stack);
  ck_assert_uint_eq(g->spill_stores, x.spill_stores);
  ck_assert_uint_eq(g->spill_loads, x.spill_loads);
  ck_assert_uint_eq(g->is_ptx, x.is_ptx);
}

static void check_blobs_eq(const kpk_pack *pk, int i) {
  const kpk_entry *g = &pk->entries[i];
  const void *img = g->is_ptx ? (const void *)PTX_TEXT : (const void *)CUBIN;
  size_t isz = g->is_ptx ? sizeof PTX_TEXT : sizeof CUBIN;
  const char *src = sample_src(i);
  ck_assert_uint_eq(g->image_size, isz);
  ck_assert_int_eq(memcmp(pk->blobs + g->image_off, img, isz), 0);
  ck_assert_uint_eq(g->src_size, strlen(src));
  ck_assert_int_eq(memcmp(pk->blobs + g->src_off, src, strlen(src)), 0);
  ck_assert_uint_eq(g->image_crc, kp_crc32(img, isz));
  ck_assert_uint_eq(g->src_crc, kp_crc32(src, strlen(src)));
  ck_assert(g->src_hash == kp_fnv1a64(src, strlen(src)));
  ck_assert_uint_eq(g->image_off % 16, 0); /* the writer's 16-byte blob alignment */
}

/* Every field, string and blob of every entry (cubin and PTX) survives a
** write and a read, and the header fields too. */
START_TEST(test_round_trip) {
  size_t n;
  uint8_t *buf = build_pack(4, &n);
  kpk_pack pk;
  char err[512];
  ck_assert_msg(parse_copy(&pk, buf, n, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_str_eq(pk.target, "sm_90a");
  ck_assert_uint_eq(pk.toolkit, 12080);
  ck_assert_uint_eq(pk.version, KPK_FORMAT_VERSION);
  ck_assert_uint_eq(pk.n_entries, 4);
  ck_assert_uint_eq(pk.size, n);
  ck_assert_str_eq(pk.path, MEM_PATH);
  for (int i = 0; i < 4; i++) {
    check_entry_eq(&pk, i);
    check_blobs_eq(&pk, i);
    ck_assert_msg(kpk_check_entry(&pk, (uint32_t)i, err, sizeof err) == KP_OK, "%s", err);
  }
  kpk_close(&pk);
  free(buf);
}
END_TEST

/* A pack with no entries is well formed and reads back empty. */
START_TEST(test_empty_pack) {
  size_t n;
  uint8_t *buf = build_pack(0, &n);
  kpk_pack pk;
  char err[512];
  ck_assert_msg(parse_copy(&pk, buf, n, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(pk.n_entries, 0);
  ck_assert_int_eq(kpk_check_entry(&pk, 0, err, sizeof err), KP_ERR_INVALID_ARG);
  kpk_close(&pk);
  free(buf);
}
END_TEST

static char *write_temp(const uint8_t *buf, size_t n) {
  char *path = strdup("/tmp/kp_check_pack_XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
  ck_assert_int_eq(fclose(f), 0);
  return path;
}

/* kpk_open reads a whole file larger than its first 1 MiB read buffer. */
START_TEST(test_open_large_file) {
  size_t big = (3u << 20) / 2 + 5, n;
  uint8_t *img = malloc(big);
  ck_assert_ptr_nonnull(img);
  for (size_t i = 0; i < big; i++) img[i] = (uint8_t)(i * 131 + 7);
  kpk_writer *w = kpk_writer_new("sm_80", 13000);
  kpk_entry e = sample_entry(0);
  ck_assert_int_eq(kpk_writer_add(w, &e, img, big, "s", 1), 0);
  uint8_t *buf;
  ck_assert_int_eq(kpk_writer_finish(w, &buf, &n), 0);
  kpk_writer_free(w);
  char *path = write_temp(buf, n);
  kpk_pack pk;
  char err[512];
  ck_assert_msg(kpk_open(&pk, path, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(pk.size, n);
  ck_assert_str_eq(pk.path, path);
  ck_assert_uint_eq(pk.entries[0].image_size, big);
  ck_assert_int_eq(memcmp(pk.blobs + pk.entries[0].image_off, img, big), 0);
  ck_assert_int_eq(kpk_check_entry(&pk, 0, err, sizeof err), KP_OK);
  kpk_close(&pk);
  unlink(path);
  free(path);
  free(buf);
  free(img);
}
END_TEST

/* Every proper prefix of a pack (0 bytes included) is rejected as corrupt. */
START_TEST(test_truncated_every_length) {
  size_t n;
  uint8_t *buf = build_pack(2, &n);
  for (size_t len = 0; len < n; len++) {
    kpk_pack pk;
    char err[512];
    kp_status s = parse_copy(&pk, buf, len, err, sizeof err);
    ck_assert_msg(s == KP_ERR_PACK_CORRUPT, "prefix of %zu/%zu bytes: %s (%s)", len, n,
                  kp_status_name(s), err);
    ck_assert_msg(strstr(err, MEM_PATH), "prefix %zu: message does not name the file: %s", len, err);
    kpk_close(&pk);
  }
  free(buf);
}
END_TEST

/* Flip one byte at `pos` (xor mask) and expect a clean CORRUPT/VERSION. */
static void flip_must_fail(const uint8_t *buf, size_t n, size_t pos, uint8_t mask) {
  uint8_t *b = malloc(n);
  ck_assert_ptr_nonnull(b);
  memcpy(b, buf, n);
  b[pos] ^= mask;
  kpk_pack pk;
  char err[512];
  kp_status s = parse_copy(&pk, b, n, err, sizeof err);
  ck_assert_msg(s == KP_ERR_PACK_CORRUPT || s == KP_ERR_PACK_VERSION,
                "byte %zu ^ 0x%02x: got %s (%s)", pos, mask, kp_status_name(s), err);
  ck_assert_msg(strstr(err, MEM_PATH), "byte %zu: message does not name the file: %s", pos, err);
  if (pos >= KH_VERSION && pos < KH_VERSION + 4)
    ck_assert_msg(s == KP_ERR_PACK_VERSION, "byte %zu: version flip gave %s", pos, kp_status_name(s));
  kpk_close(&pk);
  free(b);
}

/* Every single-byte flip (low bit, and all bits) in the checked part of the
** header (bytes 0..119: fields, CRC and prelude fields) and in every index
** entry is detected. */
START_TEST(test_flip_header_and_index) {
  size_t n;
  uint8_t *buf = build_pack(3, &n);
  size_t index_end = KPK_HEADER_SIZE + 3 * KPK_ENTRY_SIZE;
  ck_assert_uint_eq(kp_rd64(buf + KH_INDEX_OFF), KPK_HEADER_SIZE);
  for (size_t pos = 0; pos < index_end; pos++) {
    if (pos >= KH_RESERVED && pos < KPK_HEADER_SIZE) continue; /* reserved: next test */
    flip_must_fail(buf, n, pos, 0x01);
    flip_must_fail(buf, n, pos, 0xFF);
  }
  free(buf);
}
END_TEST

/* A flip in the reserved header tail (bytes 120..127) must be rejected or
** harmless (the parse is unchanged); the header CRC covers it today. */
START_TEST(test_flip_header_reserved) {
  size_t n;
  uint8_t *buf = build_pack(3, &n);
  kpk_pack ref;
  char err[512];
  ck_assert_msg(parse_copy(&ref, buf, n, err, sizeof err) == KP_OK, "%s", err);
  for (size_t pos = KH_RESERVED; pos < KPK_HEADER_SIZE; pos++) {
    buf[pos] ^= 0xFF;
    kpk_pack pk;
    kp_status s = parse_copy(&pk, buf, n, err, sizeof err);
    buf[pos] ^= 0xFF;
    if (s == KP_OK) {
      ck_assert_uint_eq(pk.n_entries, ref.n_entries);
      ck_assert_str_eq(pk.target, ref.target);
      for (uint32_t i = 0; i < pk.n_entries; i++)
        ck_assert_str_eq(pk.entries[i].name, ref.entries[i].name);
    } else {
      ck_assert_msg(s == KP_ERR_PACK_CORRUPT, "byte %zu: %s", pos, kp_status_name(s));
    }
    kpk_close(&pk);
  }
  kpk_close(&ref);
  free(buf);
}
END_TEST

/* A file that is not a pack at all is refused by its magic. */
START_TEST(test_wrong_magic) {
  size_t n;
  uint8_t *buf = build_pack(1, &n);
  memcpy(buf, "KERNPACX", 8);
  reseal_header(buf);
  expect_fail(buf, n, KP_ERR_PACK_CORRUPT, "magic");
  memset(buf, 0, KPK_HEADER_SIZE); /* all zeros, e.g. a sparse file */
  expect_fail(buf, n, KP_ERR_PACK_CORRUPT, "magic");
  free(buf);
}
END_TEST

/* A well-formed pack of another format version gives KP_ERR_PACK_VERSION
** (not CORRUPT), so users are told to rebuild rather than that it is broken. */
START_TEST(test_wrong_version) {
  size_t n;
  uint8_t *buf = build_pack(1, &n);
  const uint32_t versions[] = {0, KPK_FORMAT_VERSION - 1, KPK_FORMAT_VERSION + 1, 0xFFFFFFFFu};
  for (int i = 0; i < 4; i++) {
    kp_wr32(buf + KH_VERSION, versions[i]);
    reseal_header(buf);
    char want[32];
    snprintf(want, sizeof want, "version %u", versions[i]);
    expect_fail(buf, n, KP_ERR_PACK_VERSION, want);
  }
  free(buf);
}
END_TEST

/* Header fields that look valid to the CRC but are not (size, target). */
START_TEST(test_bad_header_fields) {
  size_t n;
  uint8_t *buf = build_pack(1, &n);
  uint8_t *b = malloc(n);
  memcpy(b, buf, n);
  kp_wr32(b + KH_HSIZE, 64);
  reseal_header(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "header size");
  memcpy(b, buf, n);
  memset(b + KH_TARGET, 'x', 16);
  reseal_header(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "target");
  memcpy(b, buf, n);
  memset(b + KH_TARGET, 0, 16);
  reseal_header(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "target");
  memcpy(b, buf, n);
  kp_wr32(b + KH_NENTRIES, KPK_MAX_ENTRIES + 1);
  reseal_header(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "limit");
  free(b);
  free(buf);
}
END_TEST

/* A file with bytes appended after the pack is refused (size mismatch). */
START_TEST(test_extended_file) {
  size_t n;
  uint8_t *buf = build_pack(1, &n);
  uint8_t *b = calloc(1, n + 1);
  memcpy(b, buf, n);
  expect_fail(b, n + 1, KP_ERR_PACK_CORRUPT, "header says");
  free(b);
  free(buf);
}
END_TEST

/* Set a u64 header field, reseal, expect a bounds error mentioning `what`. */
static void header_field_fails(const uint8_t *buf, size_t n, int field, uint64_t v,
                               const char *what) {
  uint8_t *b = malloc(n);
  memcpy(b, buf, n);
  kp_wr64(b + field, v);
  reseal_header(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, what);
  free(b);
}

/* Section offsets and sizes pointing past the end of the file, including
** values chosen to overflow off + size, are caught before any access. */
START_TEST(test_section_offsets_past_eof) {
  size_t n;
  uint8_t *buf = build_pack(2, &n);
  header_field_fails(buf, n, KH_INDEX_OFF, n, "index");
  header_field_fails(buf, n, KH_INDEX_OFF, n - KPK_ENTRY_SIZE, "index");
  header_field_fails(buf, n, KH_INDEX_OFF, UINT64_MAX - 100, "index");
  header_field_fails(buf, n, KH_STR_OFF, n + 1, "string section");
  header_field_fails(buf, n, KH_STR_SIZE, n, "string section");
  header_field_fails(buf, n, KH_STR_SIZE, UINT64_MAX, "string section");
  header_field_fails(buf, n, KH_STR_OFF, UINT64_MAX - 3, "string section");
  header_field_fails(buf, n, KH_BLOB_OFF, n + 16, "blob section");
  header_field_fails(buf, n, KH_BLOB_SIZE, n, "blob section");
  header_field_fails(buf, n, KH_BLOB_SIZE, UINT64_MAX - 1, "blob section");
  /* n_entries larger than what the file holds */
  uint8_t *b = malloc(n);
  memcpy(b, buf, n);
  kp_wr32(b + KH_NENTRIES, KPK_MAX_ENTRIES);
  reseal_header(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "index");
  free(b);
  free(buf);
}
END_TEST

/* Set a u64 field of entry 1, reseal all CRCs, expect the bounds error. */
static void entry_field_fails(const uint8_t *buf, size_t n, int field, uint64_t v,
                              const char *what) {
  uint8_t *b = malloc(n);
  memcpy(b, buf, n);
  kp_wr64(entry_rec(b, 1) + field, v);
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, what);
  free(b);
}

/* Blob offsets and sizes of an entry outside the blob section (or overflowing)
** are caught at open, even with every CRC valid. */
START_TEST(test_blob_offsets_out_of_range) {
  size_t n;
  uint8_t *buf = build_pack(2, &n);
  uint64_t bsize = kp_rd64(buf + KH_BLOB_SIZE);
  entry_field_fails(buf, n, KE_IMAGE_OFF, bsize, "image");
  entry_field_fails(buf, n, KE_IMAGE_SIZE, bsize + 1, "image");
  entry_field_fails(buf, n, KE_IMAGE_OFF, UINT64_MAX - 8, "image");
  entry_field_fails(buf, n, KE_IMAGE_SIZE, 0, "image");
  entry_field_fails(buf, n, KE_SRC_OFF, bsize + 1, "source");
  entry_field_fails(buf, n, KE_SRC_SIZE, UINT64_MAX, "source");
  free(buf);
}
END_TEST

/* String offsets at or past the end of the string section, for each of the
** six string fields, are rejected and the field is named. */
START_TEST(test_string_offset_out_of_range) {
  size_t n;
  uint8_t *buf = build_pack(2, &n);
  uint32_t ssize = (uint32_t)kp_rd64(buf + KH_STR_SIZE);
  static const char *const fields[] = {"family", "name", "entry", "params", "signature",
                                       "options"};
  const uint32_t offs[] = {ssize, ssize + 1, 0xFFFFFFFFu};
  uint8_t *b = malloc(n);
  for (int f = 0; f < 6; f++)
    for (int k = 0; k < 3; k++) {
      memcpy(b, buf, n);
      kp_wr32(entry_rec(b, 0) + 4 * f, offs[k]);
      reseal(b);
      expect_fail(b, n, KP_ERR_PACK_CORRUPT, fields[f]);
    }
  free(b);
  free(buf);
}
END_TEST

/* A string running off the end of the string section (no NUL) is rejected,
** not read past the section. */
START_TEST(test_string_unterminated) {
  size_t n;
  uint8_t *buf = build_pack(2, &n);
  uint64_t soff = kp_rd64(buf + KH_STR_OFF), ssize = kp_rd64(buf + KH_STR_SIZE);
  buf[soff + ssize - 1] = 'X'; /* the section's last NUL */
  kp_wr32(entry_rec(buf, 1) + KE_NAME, (uint32_t)ssize - 1);
  reseal(buf);
  expect_fail(buf, n, KP_ERR_PACK_CORRUPT, "name string");
  free(buf);
}
END_TEST

/* A PTX image without a terminating NUL is refused at open, since the driver
** reads PTX as a C string. */
START_TEST(test_ptx_unterminated) {
  kpk_writer *w = kpk_writer_new("compute_80", 12080);
  kpk_entry e = sample_entry(1);
  ck_assert_int_eq(kpk_writer_add(w, &e, PTX_TEXT, sizeof PTX_TEXT - 1, "s", 1), 0);
  uint8_t *buf;
  size_t n;
  ck_assert_int_eq(kpk_writer_finish(w, &buf, &n), 0);
  kpk_writer_free(w);
  expect_fail(buf, n, KP_ERR_PACK_CORRUPT, "PTX");
  free(buf);
}
END_TEST

/* A one-entry pack of entry e (the writer does not judge its values). */
static uint8_t *one_entry_pack(const kpk_entry *e, size_t *n) {
  kpk_writer *w = kpk_writer_new("sm_80", 12080);
  ck_assert_int_eq(kpk_writer_add(w, e, CUBIN, sizeof CUBIN, "s", 1), 0);
  uint8_t *buf;
  ck_assert_int_eq(kpk_writer_finish(w, &buf, n), 0);
  kpk_writer_free(w);
  return buf;
}

/* Build a one-entry pack from entry e and expect the reader to refuse it. */
static void bad_entry_fails(kpk_entry e, const char *what) {
  size_t n;
  uint8_t *buf = one_entry_pack(&e, &n);
  expect_fail(buf, n, KP_ERR_PACK_CORRUPT, what);
  free(buf);
}

/* Entries whose values make no sense (the writer does not judge them) are
** refused by the reader: unknown dtype, empty or too large ranges, bad
** dims, bad alignment, impossible block. */
START_TEST(test_entry_values_rejected) {
  kpk_entry e = sample_entry(0);
  e.dtype = KP_DTYPE_COUNT_;
  bad_entry_fails(e, "dtype");
  e = sample_entry(0), e.dmax[KP_COLS] = 2147483648ull;
  bad_entry_fails(e, "cols range");
  e = sample_entry(0), e.dmin[KP_COLS] = 10, e.dmax[KP_COLS] = 9;
  bad_entry_fails(e, "cols range [10, 9]");
  e = sample_entry(0), e.dims = "rows:pow2,cols,rows";
  bad_entry_fails(e, "'rows' twice");
  e = sample_entry(0), e.dims = "";
  bad_entry_fails(e, "dims: empty");
  e = sample_entry(0), e.dmin[2] = 1; /* past the family's two dims */
  bad_entry_fails(e, "dimension 2 is past");
  e = sample_entry(0), e.align = 0;
  bad_entry_fails(e, "alignment");
  e = sample_entry(0), e.align = 24;
  bad_entry_fails(e, "alignment");
  e = sample_entry(0), e.align = 512;
  bad_entry_fails(e, "alignment");
  e = sample_entry(0), e.block = 0;
  bad_entry_fails(e, "block");
  e = sample_entry(0), e.block = 2048;
  bad_entry_fails(e, "block");
  e = sample_entry(0), e.cluster = 17;
  bad_entry_fails(e, "cluster 17");
  e = sample_entry(0), e.dmin[KP_ROWS] = 1000; /* not a power of two: would split cache classes */
  bad_entry_fails(e, "rows: min 1000 is not 0, a power of two or one more");
  e = sample_entry(0), e.dmin[KP_ROWS] = 6; /* (3 = 2 + 1 is a bound: v > 2) */
  bad_entry_fails(e, "rows: min 6");
  e = sample_entry(0), e.dmax[KP_ROWS] = 1000;
  bad_entry_fails(e, "rows: max 1000 is not a power of two or one less");
  e = sample_entry(0), e.dmult[KP_ROWS] = 2;
  bad_entry_fails(e, "rows: a bucketed dimension cannot require a multiple");
  e = sample_entry(0), e.dmin[KP_ROWS] = 1u << 31; /* beyond any call's rows */
  bad_entry_fails(e, "rows range [2147483648,");
  e = sample_entry(0), e.tile[KP_COLS] = 0x80000000u;
  bad_entry_fails(e, "cols tile 2147483648");
  e = sample_entry(0), e.tile[KP_COLS] = 0xFFFFFFFFu;
  bad_entry_fails(e, "cols tile");
  e = sample_entry(0), e.dmult[KP_COLS] = 257;
  bad_entry_fails(e, "cols multiple 257");
  e = sample_entry(0), e.dmult[KP_COLS] = 0xFFFFFFFFu;
  bad_entry_fails(e, "cols multiple 4294967295");
}
END_TEST

/* The new fields' edge values are accepted: min_rows 0, 1 and 2^30,
** cols_per_block 0 and 2^31 - 1. */
START_TEST(test_entry_rows_fields_edges) {
  const uint32_t mins[] = {0, 1, 1u << 30}, cpbs[] = {0, 1, 2147483647u};
  for (int k = 0; k < 3; k++) {
    kpk_entry e = sample_entry(0);
    e.dmin[KP_ROWS] = mins[k];
    e.tile[KP_COLS] = cpbs[k];
    size_t n;
    uint8_t *buf = one_entry_pack(&e, &n);
    kpk_pack pk;
    char err[512];
    ck_assert_msg(parse_copy(&pk, buf, n, err, sizeof err) == KP_OK, "%s", err);
    ck_assert_uint_eq(pk.entries[0].dmin[KP_ROWS], mins[k]);
    ck_assert_uint_eq(pk.entries[0].tile[KP_COLS], cpbs[k]);
    kpk_close(&pk);
    free(buf);
  }
}
END_TEST

/* The per-dimension fields (bytes 160..279: min, max, multiple and tile of
** each of 5 dimensions) and forms, written in place with every CRC
** resealed, read back as written, and so is max_align (byte 148: 0, or a
** power of two >= align), forms' high word (152), prefer_rank (156) and
** prefer_forms (280): a preference only for forms the entry computes, no
** preferred rank without forms; rate (288): at most 1000 per mille, and
** the reserved word after it zero; a version-8 pack (no rate) is refused
** by its version, with a message to rebuild. */
START_TEST(test_entry_late_fields) {
  size_t n;
  uint8_t *buf = build_pack(3, &n);
  ck_assert_int_eq(KE_DMIN, 160);
  ck_assert_int_eq(KE_TILE + 4 * KPK_DIMS, KE_PREFER_FORMS);
  ck_assert_int_eq(KE_PREFER_FORMS + 8, KE_RATE);
  ck_assert_int_eq(KE_RATE + 8, KPK_ENTRY_SIZE);
  uint8_t *b = malloc(n);
  ck_assert_ptr_nonnull(b);
  memcpy(b, buf, n);
  kp_wr64(entry_rec(b, 2) + KE_DMIN + 8 * KP_ROWS, 1u << 20);
  kp_wr32(entry_rec(b, 2) + KE_TILE + 4 * KP_COLS, 4096);
  kp_wr32(entry_rec(b, 1) + KE_FORMS, 2);
  kp_wr32(entry_rec(b, 1) + KE_DMULT + 4 * KP_COLS, 8);
  kp_wr32(entry_rec(b, 1) + KE_MAX_ALIGN, 8);
  kp_wr32(entry_rec(b, 0) + KE_FORMS_HI, 0x80000001u); /* forms 32 and 63 */
  kp_wr32(entry_rec(b, 0) + KE_FORMS, 1);
  kp_wr64(entry_rec(b, 0) + KE_PREFER_FORMS, 1ull << 63);
  kp_wr32(entry_rec(b, 0) + KE_PREFER_RANK, (uint32_t)-7);
  kp_wr32(entry_rec(b, 1) + KE_RATE, 550);
  reseal(b);
  kpk_pack pk;
  char err[512];
  ck_assert_msg(parse_copy(&pk, b, n, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(pk.entries[2].dmin[KP_ROWS], 1u << 20);
  ck_assert_uint_eq(pk.entries[2].tile[KP_COLS], 4096);
  ck_assert_uint_eq(pk.entries[1].forms, 2);
  ck_assert_uint_eq(pk.entries[1].dmult[KP_COLS], 8);
  ck_assert_uint_eq(pk.entries[0].forms, 0x8000000100000001ull);
  ck_assert_uint_eq(pk.entries[0].prefer_forms, 1ull << 63);
  ck_assert_int_eq(pk.entries[0].prefer_rank, -7);
  ck_assert_uint_eq(pk.entries[2].forms, 0);
  ck_assert_uint_eq(pk.entries[2].prefer_forms, 0);
  ck_assert_uint_eq(pk.entries[0].dmult[KP_COLS], 0);
  ck_assert_uint_eq(pk.entries[1].max_align, 8);
  ck_assert_uint_eq(pk.entries[0].max_align, 0);
  ck_assert_uint_eq(pk.entries[1].rate, 550);
  ck_assert_uint_eq(pk.entries[0].rate, 0);
  kpk_close(&pk);
  kp_wr32(entry_rec(b, 1) + KE_RATE, 1001); /* past 1000 per mille */
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "index entry 1: rate 1001 per mille");
  kp_wr32(entry_rec(b, 1) + KE_RATE, 0);
  kp_wr32(entry_rec(b, 1) + KE_RESERVED, 1);
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "index entry 1: reserved bytes 292..295 are not zero");
  kp_wr32(entry_rec(b, 1) + KE_RESERVED, 0);
  kp_wr32(entry_rec(b, 1) + KE_MAX_ALIGN, 12); /* not a power of two */
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "max alignment 12");
  kp_wr32(entry_rec(b, 1) + KE_MAX_ALIGN, 1); /* below the entry's align */
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "max alignment 1");
  kp_wr32(entry_rec(b, 1) + KE_MAX_ALIGN, 0);
  kp_wr64(entry_rec(b, 0) + KE_PREFER_FORMS, 1ull << 62); /* a form it does not compute */
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "prefers forms 0x4000000000000000 it does not compute");
  kp_wr64(entry_rec(b, 0) + KE_PREFER_FORMS, 0); /* a rank, no forms */
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "a preferred rank (-7) without its forms");
  kp_wr32(entry_rec(b, 0) + KE_PREFER_RANK, 0);
  kp_wr32(entry_rec(b, 0) + KE_SPLIT, 2); /* split without its cluster */
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_CORRUPT, "split 2 needs a cluster of 2");
  kp_wr32(entry_rec(b, 0) + KE_SPLIT, 0);
  kp_wr32(b + KH_VERSION, 9); /* (version 9's GEMM variants have no epilogue-terms forms) */
  reseal(b);
  expect_fail(b, n, KP_ERR_PACK_VERSION, "format version 9, this library reads version 10");
  free(b);
  free(buf);
}
END_TEST

/* Blobs carry no section CRC: a damaged image or source still opens, and
** kpk_check_entry catches exactly the damaged entry, naming file and entry. */
START_TEST(test_blob_corruption_caught) {
  size_t n;
  uint8_t *buf = build_pack(3, &n);
  uint64_t boff = kp_rd64(buf + KH_BLOB_OFF);
  for (int which = 0; which < 2; which++) {
    uint8_t *b = malloc(n);
    memcpy(b, buf, n);
    const uint8_t *r = entry_rec(b, 1);
    b[boff + kp_rd64(r + (which ? KE_SRC_OFF : KE_IMAGE_OFF)) + 2] ^= 0x20;
    kpk_pack pk;
    char err[512];
    ck_assert_msg(parse_copy(&pk, b, n, err, sizeof err) == KP_OK, "%s", err);
    ck_assert_int_eq(kpk_check_entry(&pk, 0, err, sizeof err), KP_OK);
    ck_assert_int_eq(kpk_check_entry(&pk, 2, err, sizeof err), KP_OK);
    ck_assert_int_eq(kpk_check_entry(&pk, 1, err, sizeof err), KP_ERR_PACK_CORRUPT);
    ck_assert_msg(strstr(err, MEM_PATH) && strstr(err, pk.entries[1].name), "%s", err);
    ck_assert_msg(strstr(err, which ? "source checksum" : "image checksum"), "%s", err);
    ck_assert_int_eq(kpk_check_entry(&pk, 3, err, sizeof err), KP_ERR_INVALID_ARG);
    kpk_close(&pk);
    free(b);
  }
  free(buf);
}
END_TEST

/* An empty file on disk is a corrupt pack, reported with its path. */
START_TEST(test_empty_file) {
  char *path = write_temp((const uint8_t *)"", 0);
  kpk_pack pk;
  char err[512];
  ck_assert_int_eq(kpk_open(&pk, path, err, sizeof err), KP_ERR_PACK_CORRUPT);
  ck_assert_msg(strstr(err, path), "message does not name the file: %s", err);
  kpk_close(&pk);
  unlink(path);
  free(path);
}
END_TEST

/* A missing file gives KP_ERR_PACK_NOT_FOUND with its path; a directory is
** an I/O error, not a crash or a "pack". */
START_TEST(test_missing_file) {
  const char *path = "/nonexistent-dir/kernpack/sm_00.kpk";
  kpk_pack pk;
  char err[512];
  ck_assert_int_eq(kpk_open(&pk, path, err, sizeof err), KP_ERR_PACK_NOT_FOUND);
  ck_assert_msg(strstr(err, path), "message does not name the file: %s", err);
  kpk_close(&pk);
  kp_status s = kpk_open(&pk, "/tmp", err, sizeof err);
  ck_assert_msg(s == KP_ERR_IO || s == KP_ERR_PACK_CORRUPT, "directory: %s", kp_status_name(s));
  ck_assert_msg(strstr(err, "/tmp"), "%s", err);
  kpk_close(&pk);
}
END_TEST

/* The writer refuses a target that does not fit the 16-byte header field
** (with its NUL), and close is safe on a zeroed or already-closed pack. */
START_TEST(test_writer_limits_and_close) {
  ck_assert_ptr_null(kpk_writer_new("sm_90a_much_too_long", 1));
  ck_assert_ptr_null(kpk_writer_new("0123456789abcdef", 1));
  kpk_writer *w = kpk_writer_new("0123456789abcde", 1);
  ck_assert_ptr_nonnull(w);
  kpk_writer_free(w);
  kpk_writer_free(NULL);
  kpk_pack pk;
  memset(&pk, 0, sizeof pk);
  kpk_close(&pk);
  kpk_close(&pk);
  kpk_close(NULL);
}
END_TEST

/* A short error buffer is truncated, never overrun (and NULL is allowed). */
START_TEST(test_small_error_buffer) {
  char err[8];
  memset(err, 'z', sizeof err);
  kpk_pack pk;
  uint8_t *b = malloc(4);
  memcpy(b, "KERN", 4);
  ck_assert_int_eq(kpk_parse(&pk, b, 4, MEM_PATH, err, 5), KP_ERR_PACK_CORRUPT);
  ck_assert_int_eq(strlen(err), 4);
  ck_assert_int_eq(err[5], 'z');
  kpk_close(&pk);
  b = malloc(4);
  memcpy(b, "KERN", 4);
  ck_assert_int_eq(kpk_parse(&pk, b, 4, NULL, NULL, 0), KP_ERR_PACK_CORRUPT);
  kpk_close(&pk);
}
END_TEST

/* The shared prelude is stored once, cut out of every source that holds
** it, and put back exactly; a source without it is stored whole; a prelude
** position past its source or a damaged prelude is refused. */
START_TEST(test_prelude) {
  static const char PRE[] = "// device library\nstruct kp_x { int a; };\n";
  char with[256], without[] = "extern \"C\" __global__ void k() {}\n";
  snprintf(with, sizeof with, "// banner\n\n%s// kernel\nvoid f() {}\n", PRE);
  kpk_writer *w = kpk_writer_new("sm_90a", 13000);
  ck_assert_int_eq(kpk_writer_set_prelude(w, PRE, strlen(PRE)), 0);
  ck_assert_int_ne(kpk_writer_set_prelude(w, PRE, strlen(PRE)), 0); /* once only */
  kpk_entry e0 = sample_entry(0), e1 = sample_entry(1);
  ck_assert_int_eq(kpk_writer_add(w, &e0, CUBIN, sizeof CUBIN, with, strlen(with)), 0);
  ck_assert_int_eq(kpk_writer_add(w, &e1, CUBIN, sizeof CUBIN, without, strlen(without)), 0);
  uint8_t *buf;
  size_t n;
  ck_assert_int_eq(kpk_writer_finish(w, &buf, &n), 0);
  kpk_writer_free(w);
  kpk_pack pk;
  char err[512];
  ck_assert_msg(parse_copy(&pk, buf, n, err, sizeof err) == KP_OK, "%s", err);
  ck_assert_uint_eq(pk.prelude_size, strlen(PRE));
  ck_assert_uint_eq(pk.entries[0].src_size, strlen(with) - strlen(PRE));
  ck_assert_uint_eq(pk.entries[0].prelude_at, strlen("// banner\n\n"));
  ck_assert_uint_eq(pk.entries[1].prelude_at, KPK_NO_PRELUDE);
  size_t len;
  char *a = kpk_source_dup(&pk, 0, &len), *b = kpk_source_dup(&pk, 1, NULL);
  ck_assert_str_eq(a, with);
  ck_assert_uint_eq(len, strlen(with));
  ck_assert_str_eq(b, without);
  ck_assert(pk.entries[0].src_hash == kp_fnv1a64(with, strlen(with))); /* of the full text */
  ck_assert_int_eq(kpk_check_entry(&pk, 0, err, sizeof err), KP_OK);
  free(a);
  free(b);
  kpk_close(&pk);
  /* a prelude position past the stored source */
  kp_wr32(entry_rec(buf, 0) + KE_PRELUDE_AT, (uint32_t)strlen(with));
  reseal(buf);
  ck_assert_int_eq(parse_copy(&pk, buf, n, err, sizeof err), KP_ERR_PACK_CORRUPT);
  ck_assert_ptr_nonnull(strstr(err, "prelude position"));
  kpk_close(&pk);
  /* a damaged prelude */
  kp_wr32(entry_rec(buf, 0) + KE_PRELUDE_AT, (uint32_t)strlen("// banner\n\n"));
  buf[kp_rd64(buf + KH_BLOB_OFF) + kp_rd64(buf + KH_PRELUDE_OFF) + 3] ^= 1;
  reseal(buf);
  ck_assert_int_eq(parse_copy(&pk, buf, n, err, sizeof err), KP_ERR_PACK_CORRUPT);
  ck_assert_ptr_nonnull(strstr(err, "prelude checksum"));
  kpk_close(&pk);
  free(buf);
}
END_TEST

Suite *pack_suite(void) {
  Suite *s = suite_create("pack");
  TCase *rt = tcase_create("round_trip");
  tcase_add_test(rt, test_round_trip);
  tcase_add_test(rt, test_empty_pack);
  tcase_add_test(rt, test_open_large_file);
  tcase_add_test(rt, test_writer_limits_and_close);
  tcase_add_test(rt, test_prelude);
  suite_add_tcase(s, rt);
  TCase *bad = tcase_create("hostile");
  tcase_set_timeout(bad, 60);
  tcase_add_test(bad, test_truncated_every_length);
  tcase_add_test(bad, test_flip_header_and_index);
  tcase_add_test(bad, test_flip_header_reserved);
  tcase_add_test(bad, test_wrong_magic);
  tcase_add_test(bad, test_wrong_version);
  tcase_add_test(bad, test_bad_header_fields);
  tcase_add_test(bad, test_extended_file);
  tcase_add_test(bad, test_section_offsets_past_eof);
  tcase_add_test(bad, test_blob_offsets_out_of_range);
  tcase_add_test(bad, test_string_offset_out_of_range);
  tcase_add_test(bad, test_string_unterminated);
  tcase_add_test(bad, test_ptx_unterminated);
  tcase_add_test(bad, test_entry_values_rejected);
  tcase_add_test(bad, test_entry_rows_fields_edges);
  tcase_add_test(bad, test_entry_late_fields);
  tcase_add_test(bad, test_blob_corruption_caught);
  tcase_add_test(bad, test_empty_file);
  tcase_add_test(bad, test_missing_file);
  tcase_add_test(bad, test_small_error_buffer);
  suite_add_tcase(s, bad);
  return s;
}
