/*
** pack.h -- the .kpk kernel pack format, shared by the generator (writer)
** and the runtime (reader).
**
** A pack holds every variant of every family compiled for one target
** (e.g. sm_90a, or compute_80 for PTX).  All integers are little-endian.
**
**   offset 0   header       (KPK_HEADER_SIZE bytes, fixed layout below)
**              index        n_entries * KPK_ENTRY_SIZE bytes
**              strings      NUL-terminated strings; entries refer to them
**                           by offset from the start of this section
**              blobs        cubin/PTX images, generated sources, and the
**                           prelude: the text every source shares (the
**                           device library), stored once and cut out of
**                           each source at its entry's prelude_at
**
** Header (all u32 unless noted):
**   0  magic "KERNPACK" (8 bytes)   8  format version   12 header size
**   16 target, char[16], NUL-padded 32 toolkit (NVRTC) version, major*1000+minor*10
**   36 n_entries                    40 u64 index offset  48 u64 strings offset
**   56 u64 strings size             64 u64 blobs offset  72 u64 blobs size
**   80 crc32 of index               84 crc32 of strings  88 u64 file size
**   96 crc32 of the header (this field as zero)
**   100 u64 prelude offset (in blobs) 108 u64 prelude size 116 crc32 of prelude
**   120..127 zero
** Each blob carries its own crc32 in its entry, so a corrupt kernel is
** caught when it is loaded, and `kp verify` checks them all up front.
** Index entries: pack_layout.h (KE_*).  Version 5 (256-byte entries)
** replaced the row model's fields (column range, min_rows, rows and
** columns per block, cols_mult) with per-dimension ones: each family names
** up to KPK_DIMS dimensions (the entry's `dims` string, e.g. "rows:pow2,cols"
** or "m:pow2,n,k,batch:pow2"), and an entry gives each a range, a multiple
** it needs, and a tile that the grid counts.  Version 6 (288-byte entries)
** made that five dimensions (attention's fifth: the query heads per KV
** head).  Version 7 added max_align (a variant the ranking picks for calls
** off the 16-byte grid only).  Version 9 (296-byte entries) added the rate
** (a persistent variant's throughput, per mille, that the fill tie-break
** divides by).
** Older versions are refused with a "rebuild the pack" message.
*/
#ifndef KP_PACK_H
#define KP_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "kernpack.h"

#define KPK_MAGIC "KERNPACK"
#define KPK_FORMAT_VERSION 10
#define KPK_HEADER_SIZE 128
#define KPK_ENTRY_SIZE 296
#define KPK_MAX_ENTRIES 65536
#define KPK_MAX_FILE (1ull << 32)
#define KPK_NO_PRELUDE 0xFFFFFFFFu
#define KPK_MAX_DIM 2147483647u     /* kernels take their dimensions as int */
#define KPK_MAX_MULT 256u
#define KPK_FORMS 64                /* forms 0..63: bits of kpk_entry.forms */
#define KPK_DIMS 5                  /* dimensions a family may name */
#define KPK_MAX_CLUSTER 16
/* The row families' dimensions ("rows:pow2,cols"): rows (rope: tokens) and
** cols (the family's row length; rmsnorm_swiglu: the output width; rope:
** rot_dim), as indices into kp_call.dim and the entry's per-dim fields. */
#define KP_ROWS 0
#define KP_COLS 1

/* One variant's record: what it is, when it applies, and what it cost. */
typedef struct kpk_entry {
  /* identity (string offsets resolved to pointers by the reader) */
  const char *family;    /* "softmax" */
  const char *name;      /* "softmax_bf16_row_v8_t256" */
  const char *entry;     /* extern "C" kernel symbol */
  const char *params;    /* "vec=8,threads=256,..." for humans and tools */
  const char *signature; /* kernel argument kinds, checked by the runtime */
  const char *options;   /* NVRTC options used */
  const char *dims;      /* the family's dimensions, "rows:pow2,cols" (kp_dims_parse) */
  uint32_t dtype;        /* kp_dtype */
  /* applicability, per dimension in the family's order (dims past the
  ** family's count are zero) */
  uint64_t dmin[KPK_DIMS];  /* applies to dim >= this (0: any) */
  uint64_t dmax[KPK_DIMS];  /* and dim <= this (0: any) */
  uint32_t dmult[KPK_DIMS]; /* and dim a multiple of this (0 or 1: any) */
  uint32_t align;        /* bytes every pointer and row stride must be aligned to */
  uint32_t max_align;    /* 0: any call; else the ranking picks it for calls
                         ** aligned to at most this alone (a kernel for rows off
                         ** the 16-byte grid, ranked above the aligned ones there
                         ** and not taking their calls by rank; the tuner, a
                         ** tuning table and a pin may run it on any call) */
  uint32_t min_sm, max_sm; /* inclusive, 0 = unbounded */
  uint64_t forms;        /* bit f: computes the call's form f (GeGLU's GELU, RoPE's
                         ** layout, GEMM's B layout; kp_call.form); 0 = every form */
  int32_t rank;          /* higher wins among applicable variants */
  uint64_t prefer_forms; /* bit f: for a call of form f the rank is prefer_rank (a
                         ** variant that is best where a form bit says so, e.g.
                         ** attention's decode clusters where the tiles fit one wave) */
  int32_t prefer_rank;
  /* launch geometry: grid.x = product over dims with tile[d] > 0 of
  ** ceil(dim / tile[d]) (kp_grid_blocks); the kernel decodes blockIdx.x */
  uint32_t block;        /* threads per block */
  uint32_t tile[KPK_DIMS];
  uint32_t persist;      /* > 0: at most persist x SM count blocks, each looping over
                         ** tiles with stride gridDim.x */
  uint32_t cluster;      /* thread-block cluster size along x (0 or 1: none) */
  uint32_t split;        /* CTAs per tile (0 or 1: one), a whole cluster: the grid is
                            the tiles times split, and the cluster's CTAs share one
                            tile (GEMM: each takes 1/split of K, then they reduce
                            through distributed shared memory) */
  uint32_t aux;          /* a value the family's op reads (GEMM: TMA k-box, 0 = no TMA) */
  uint32_t smem;         /* dynamic shared memory bytes */
  uint32_t rate;         /* 1..1000 (0: 1000): a persistent variant's work an SM per
                         ** unit of time, per mille of its family's best, measured;
                         ** the fill tie-break (select.c) divides by it */
  /* what ptxas reported */
  uint32_t regs, stack, spill_stores, spill_loads;
  uint32_t is_ptx;       /* image is PTX text, not a cubin */
  uint64_t src_hash;     /* FNV-1a 64 of the generated source */
  /* blobs (offsets relative to the blobs section) */
  uint64_t image_off, image_size; uint32_t image_crc;
  uint64_t src_off, src_size; uint32_t src_crc; /* as stored: prelude cut out */
  uint32_t prelude_at;   /* where the prelude goes back in, KPK_NO_PRELUDE if none */
} kpk_entry;

typedef struct kpk_pack {
  char path[512];
  char target[16];
  uint32_t version;
  uint32_t toolkit;
  uint32_t n_entries;
  kpk_entry *entries;
  uint8_t *data;    /* the whole file */
  size_t size;
  const uint8_t *blobs;
  uint64_t blobs_size;
  const uint8_t *prelude; /* NULL if none */
  uint64_t prelude_size;
} kpk_pack;

/* A family's dimensions, parsed from "rows:pow2,cols": names (identifiers,
** < 16 characters) and, per dimension, whether the selection cache and the
** tuning table bucket it by powers of two (":pow2": rows, GEMM's m, batch)
** or key it by its exact value (cols, n, k). */
typedef struct kp_dims {
  int n;
  char name[KPK_DIMS][16];
  uint8_t pow2[KPK_DIMS];
} kp_dims;
/* 0 on success; -1 with a message in err (may be NULL). */
int kp_dims_parse(const char *s, kp_dims *out, char *err, size_t errlen);
/* Index of dimension `name`, or -1. */
int kp_dims_find(const kp_dims *d, const char *name);
/* How many of d's dimensions a written shape must give (a tuning table's
** row, a shape file's line): all but trailing ones named "batch" or "g",
** which are 1 when left out (so a table written before a family gained
** one still reads, its rows keyed as measured). */
int kp_dims_required(const kp_dims *d);
/* Do an entry's ranges fit its dimensions?  For a pow2 dimension, min must
** be 0, a power of two or one more, max a power of two or one less, and no multiple is
** allowed, so that a rows class of the selection cache never straddles a
** bound (select.c).  0 if so, else -1 with a message. */
int kp_dims_check_entry(const kp_dims *d, const kpk_entry *e, char *err, size_t errlen);

uint32_t kp_crc32(const void *p, size_t n);
uint64_t kp_fnv1a64(const void *p, size_t n);

/*
** Parse a pack from memory (takes ownership of `data`, freed by
** kpk_close even on failure) or from a file.  On failure returns a status
** and writes "<path>: <what is wrong>" into err.
*/
kp_status kpk_parse(kpk_pack *pk, uint8_t *data, size_t size, const char *path,
                    char *err, size_t errlen);
kp_status kpk_open(kpk_pack *pk, const char *path, char *err, size_t errlen);
void kpk_close(kpk_pack *pk);
/* Check one entry's image and source checksums. */
kp_status kpk_check_entry(const kpk_pack *pk, uint32_t i, char *err, size_t errlen);

/* Entry i's full generated source (prelude restored), malloc'd and
** NUL-terminated; *len without the NUL.  NULL if out of memory. */
char *kpk_source_dup(const kpk_pack *pk, uint32_t i, size_t *len);

/* Writer: build a pack in memory, then save. */
typedef struct kpk_writer kpk_writer;
kpk_writer *kpk_writer_new(const char *target, uint32_t toolkit);
/* Text shared by the sources added after this call: stored once, and cut
** out of every source that contains it.  0 on success. */
int kpk_writer_set_prelude(kpk_writer *w, const void *text, size_t size);
/* Copies the strings and blobs of `e` (its *_off/_size/_crc are ignored);
** src is the full source. */
int kpk_writer_add(kpk_writer *w, const kpk_entry *e, const void *image, size_t image_size,
                   const void *src, size_t src_size);
/* A writer for pk's target and toolkit, with pk's prelude; NULL if out of memory. */
kpk_writer *kpk_writer_like(const kpk_pack *pk);
/* Copy entry i of pk (image and full source) into w.  0 on success. */
int kpk_writer_copy(kpk_writer *w, const kpk_pack *pk, uint32_t i);
/* Serialise; *out is malloc'd. Returns 0 on success. */
int kpk_writer_finish(kpk_writer *w, uint8_t **out, size_t *size);
void kpk_writer_free(kpk_writer *w);

#endif /* KP_PACK_H */
