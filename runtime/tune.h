/*
** tune.h -- the autotune table: measured times per (family, dtype, shape
** key, variant), a text file people can read, diff and merge.
**
**   kernpack-tune 2
**   device = NVIDIA H200
**   sm = 90
**   sm_count = 132
**   driver = 13000
**   pack = sm_90a 0123456789abcdef
**   date = 2026-11-22T02:10:00Z
**   # family dtype shape align variant time_us [form]
**   softmax bf16 32768x8192 16 softmax_bf16_block_t256_v8_n4 161.250
**   geglu bf16 32768x8192 16 geglu_bf16_c256_v8_u1_tanh 370.400 tanh
**   gemm bf16 4096x11008x4096x1 16 gemm_bf16_wg_128x256_nk 480.100
**
** The shape is the call's dimensions in the family's order (KP_FAMILY_LIST:
** rows x cols for the row families, m x n x k x batch for GEMM), each pow2
** dimension recorded as its bucket, the next power of two.  The optional last
** field names the call's form where a family has several (GeGLU: erf, tanh;
** RoPE: neox, gptj; GEMM: nk, kn -- B's layout; kp_call.form); without it
** the row is of form 0.  A row serves calls of its own form only: the two
** GELUs want different variants.  Blank lines and lines starting with '#'
** are comments.  The key is (family, dtype, shape, align, form).  Every
** measurement is a row, so a variant added later adds rows and discards
** none; the best (lowest time) row per key is the choice.  Version 1 tables
** (cols, align, rows) are refused with a message to re-tune.
*/
#ifndef KP_TUNE_H
#define KP_TUNE_H

#include <stdio.h>

#include "internal.h"

#define KP_TUNE_VERSION 2

typedef struct kp_tune_row {
  char family[32];
  kp_dtype dtype;
  uint64_t dim[KPK_DIMS]; /* the family's dims; pow2 ones as their bucket; unused 1 */
  uint32_t align;
  uint32_t form;      /* kp_call.form */
  char variant[128];
  double us;
  int line;           /* where it was read, for messages */
} kp_tune_row;

typedef struct kp_tune_table {
  char path[512];
  char device[128];
  int sm, sm_count, driver;
  char pack_target[16];
  uint64_t pack_hash;
  char date[40];
  kp_tune_row *rows;
  size_t n, cap;
} kp_tune_table;

uint64_t kp_rows_bucket(uint64_t rows);
/* The table's shape key of a call: its dims, pow2 ones bucketed. */
void kp_tune_key_dims(const kp_call *c, uint64_t out[KPK_DIMS]);
/* The forms a family's calls come in: 2 (GeGLU, RoPE, GEMM), 64
** (attention), 1 (the others: no name). */
uint32_t kp_form_count(const char *family);
/* The name of a family's form ("erf", "tanh", "neox", "gptj", "nk", "kn",
** attention's "full" and "causal" -- causal or a sliding window -- each
** with its other bits as "+stride0", "+paged", "+varlen", "+ws", "+wave": e.g.
** form 17 "causal+ws"), or NULL where the family has no such form. */
const char *kp_form_name(const char *family, uint32_t form);
/* The form named `name` of a family, or -1 (none of that name). */
int kp_form_from_name(const char *family, const char *name);
/* "" or, for attention, "; each also +stride0, ..." (the flags its forms
** take), for error messages listing forms 0 and 1 */
const char *kp_form_flags(const char *family);
/* "<target>.<device slug>.tune", e.g. "sm_90a.nvidia-h200.tune": the default
** table name, per device kind, so an H100 and an H200 (both sm_90a) sharing
** a cache directory keep their own tables. */
void kp_tune_default_name(const char *target, const char *device, char *out, size_t n);
/* Hash identifying a pack's contents (its index and strings). */
uint64_t kp_pack_hash(const kpk_pack *pk);

/* Fill t's metadata (device, SM, SM count, driver, pack, date: now). */
void kp_tune_set_meta(kp_tune_table *t, const kp_device_info *d, const kpk_pack *pk);

/* Parse text (NUL-terminated); errors are "<path>:<line>: what". */
kp_status kp_tune_parse(kp_tune_table *t, const char *text, const char *path, char *err,
                        size_t errlen);
kp_status kp_tune_load(kp_tune_table *t, const char *path, char *err, size_t errlen);
/* Write header and rows (sorted by key, then time). 0 on success. */
int kp_tune_write(const kp_tune_table *t, FILE *f);
/* Write to path atomically (temporary file + rename). */
kp_status kp_tune_save(const kp_tune_table *t, const char *path, char *err, size_t errlen);
/* Add a measurement; a row with the same key and variant keeps the lower time. */
int kp_tune_add(kp_tune_table *t, const kp_tune_row *r);
/* Merge src into dst: the device metadata must agree (else KP_ERR_INVALID_ARG). */
kp_status kp_tune_merge(kp_tune_table *dst, const kp_tune_table *src, char *err, size_t errlen);
/*
** Add to dst the rows of src whose key (family, dtype, shape, align, form)
** dst has no row for: dst's own measurements of a key stand, src only
** fills the keys dst lacks.  The runtime loads a table the user tuned (in
** the cache dir) this way over one shipped beside the pack.  Returns the
** rows added, -1 when out of memory.
*/
int kp_tune_fill(kp_tune_table *dst, const kp_tune_table *src);
void kp_tune_free(kp_tune_table *t);

/* Does the table's device metadata match this device?  If not, why says how. */
int kp_tune_matches(const kp_tune_table *t, const kp_device_info *d, char *why, size_t whylen);

/*
** The tuned choice for a call: the best row with this family, dtype, form
** and alignment at the call's exact key (its shape, pow2 dims bucketed);
** else the nearest measured key (documented rule: the least sum over the
** dims of the log2 distance, at most KP_TUNE_REACH; ties to the key nearer
** in the exact dims (cols, n, k), then the smaller key) with a variant that
** applies to this call; else -1: the ranking.  At the key chosen, the
** ranking's own pick stands if the table timed it within KP_TUNE_MARGIN of
** the key's best.  Only rows whose variant applies to the call itself (its
** own dims, not the key's: a min rows variant) count, at any key.  Returns
** the pack entry index or -1; how says which rule decided.
*/
#define KP_TUNE_REACH 2.0   /* log2 units: a shape 4x larger or smaller */
#define KP_TUNE_MARGIN 0.01 /* a lead of 1% or less is a tuning run's spread */
int kp_tune_pick(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                 const kp_devprops *d, char *how, size_t howlen);

/* The best variant applicable to c measured at exactly c's key, or -1. */
int kp_tune_exact(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                  const kp_devprops *d);

/* PTX of kp_flush_read(.u64 buf, .u64 n16, .u64 out), the benchmarks' L2
** flush by a read (runtime/tune.c) */
extern const char kp_flush_read_ptx[];

#endif
