/*
** autotune.c -- online tuning ($KP_AUTOTUNE=1 or kp_options.autotune).
**
** The first call with a shape key the table does not hold times each
** applicable variant on the call's own arguments (one warm-up launch, then
** the mean of 3, by CUDA events on the caller's stream), stops early when
** $KP_AUTOTUNE_BUDGET_MS (default 200) is spent, and records every timing
** in the context's table and, under flock, in the table file on disk, merged
** with what other processes wrote there.  The caller's stream is
** synchronised once per new key.  Only calls whose output is not one of
** their inputs qualify: re-running add_rmsnorm, rope or any in-place call
** would change the caller's data.
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "tune.h"

/* Running the op again must not change what it reads: no input may be the
** output (ops do not allow partial overlap at all: their pointers are
** __restrict__).  Argument positions follow the signatures in internal.h. */
int kp_autotune_safe(const kp_call *c, void **args) {
#define P_(i) (*(void **)args[i])
  switch (c->family) {
    case KP_FAM_SOFTMAX: return P_(0) != P_(2);                          /* x -> y */
    case KP_FAM_RMSNORM:                                                   /* x, w -> y */
    case KP_FAM_RMSNORM_SWIGLU: return P_(3) != P_(0) && P_(3) != P_(2);
    case KP_FAM_SWIGLU:                                                    /* gate, up -> y */
    case KP_FAM_GEGLU: return P_(3) != P_(0) && P_(3) != P_(1);
    default: return 0; /* add_rmsnorm and rope update an input in place; gemm's and
                       ** attention's TMA descriptors are built for the chosen variant only */
  }
#undef P_
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static kp_status launch(kp_ctx *ctx, const kpk_entry *e, CUfunction f, const kp_call *c,
                        void **args, CUstream s) {
  uint64_t grid;
  if (kp_grid_blocks(e, c, ctx->props.sm_count, &grid) != KP_OK)
    return kp_fail(ctx, KP_ERR_UNSUPPORTED, "autotune: %s needs %llu blocks, more than a grid holds",
                   e->name, (unsigned long long)grid);
  return kp_launch_entry(ctx, e, f, grid, args, s, 0); /* (its cluster dimension, if any) */
}

/* Record the new rows in the table file: lock, read, merge, write. */
static void persist(kp_ctx *ctx, const kp_tune_table *mine) {
  if (!ctx->tune_path[0]) return;
  char lock[640], err[800];
  snprintf(lock, sizeof lock, "%s.lock", ctx->tune_path);
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || flock(fd, LOCK_EX) != 0) {
    kp_log(ctx, KP_LOG_DEBUG, "autotune: cannot lock %s: results kept in memory", lock);
    if (fd >= 0) close(fd);
    return;
  }
  kp_tune_table disk;
  if (access(ctx->tune_path, R_OK) != 0 ||
      kp_tune_load(&disk, ctx->tune_path, err, sizeof err) != KP_OK ||
      kp_tune_merge(&disk, mine, err, sizeof err) != KP_OK) {
    if (access(ctx->tune_path, R_OK) == 0)
      kp_log(ctx, KP_LOG_WARN, "autotune: not merging into %s: %s", ctx->tune_path, err);
    else if (kp_tune_save(mine, ctx->tune_path, err, sizeof err) != KP_OK)
      kp_log(ctx, KP_LOG_DEBUG, "autotune: %s", err);
  } else {
    if (kp_tune_save(&disk, ctx->tune_path, err, sizeof err) != KP_OK)
      kp_log(ctx, KP_LOG_DEBUG, "autotune: %s", err);
    kp_tune_free(&disk);
  }
  close(fd); /* releases the lock */
}

static kp_tune_table *ensure_table(kp_ctx *ctx) {
  if (ctx->tune) return ctx->tune;
  kp_tune_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  snprintf(t->path, sizeof t->path, "%s", ctx->tune_path[0] ? ctx->tune_path : "(autotune)");
  kp_tune_set_meta(t, &ctx->info, &ctx->pack);
  ctx->tune = t;
  return t;
}

kp_status kp_autotune(kp_ctx *ctx, const kp_call *c, void **args, CUstream stream, int *best) {
  const kp_driver *d = ctx->drv;
  *best = -1;
  int cand[256], n = 0;
  for (uint32_t i = 0; i < ctx->pack.n_entries && n < 256; i++) {
    const kpk_entry *e = &ctx->pack.entries[i];
    if (kp_entry_applies(e, c, &ctx->props, NULL, 0) &&
        !strcmp(e->signature, kp_family_signature(c->family)))
      cand[n++] = (int)i;
  }
  if (n < 2) return KP_OK;
  const char *b = getenv("KP_AUTOTUNE_BUDGET_MS");
  double budget = b && *b ? atof(b) : 200.0, t0 = now_ms(), best_us = 0;
  CUevent e0 = NULL, e1 = NULL;
  kp_status st = KP_OK;
  CUresult r = d->cuEventCreate(&e0, CU_EVENT_DEFAULT);
  if (r == CUDA_SUCCESS) r = d->cuEventCreate(&e1, CU_EVENT_DEFAULT);
  if (r != CUDA_SUCCESS) {
    st = kp_cu_fail(ctx, r, "cuEventCreate (autotune)", __FILE__, __LINE__);
    goto done;
  }
  kp_tune_table mine;
  memset(&mine, 0, sizeof mine);
  kp_tune_table *t = ensure_table(ctx);
  if (!t) {
    st = kp_fail(ctx, KP_ERR_NOMEM, "autotune: out of memory");
    goto done;
  }
  memcpy(&mine, t, sizeof mine); /* metadata only */
  mine.rows = NULL;
  mine.n = mine.cap = 0;
  int timed = 0;
  for (int k = 0; k < n && (timed == 0 || now_ms() - t0 < budget); k++) {
    const kpk_entry *e = &ctx->pack.entries[cand[k]];
    if ((st = kp_load_entry(ctx, (uint32_t)cand[k])) != KP_OK) break;
    CUfunction f = ctx->funcs[cand[k]];
    if ((st = launch(ctx, e, f, c, args, stream)) != KP_OK) break; /* warm-up */
    d->cuEventRecord(e0, stream);
    for (int rep = 0; rep < 3 && st == KP_OK; rep++) st = launch(ctx, e, f, c, args, stream);
    d->cuEventRecord(e1, stream);
    float ms = 0;
    if (st != KP_OK || (r = d->cuEventSynchronize(e1)) != CUDA_SUCCESS ||
        (r = d->cuEventElapsedTime(&ms, e0, e1)) != CUDA_SUCCESS) {
      if (st == KP_OK) st = kp_cu_fail(ctx, r, "timing (autotune)", __FILE__, __LINE__);
      break;
    }
    kp_tune_row row;
    memset(&row, 0, sizeof row);
    snprintf(row.family, sizeof row.family, "%s", e->family);
    snprintf(row.variant, sizeof row.variant, "%s", e->name);
    row.dtype = c->dtype;
    kp_tune_key_dims(c, row.dim);
    row.align = c->align;
    row.form = c->form;
    row.us = ms * 1e3 / 3;
    kp_tune_add(t, &row);
    kp_tune_add(&mine, &row);
    if (*best < 0 || row.us < best_us) *best = cand[k], best_us = row.us;
    timed++;
  }
  if (st == KP_OK && timed) {
    char shape[96];
    kp_log(ctx, KP_LOG_INFO, "autotune: %s %s %s: %d of %d variants timed in "
           "%.0f ms, %s fastest (%.1f us)", kp_family_name(c->family), kp_dtype_name(c->dtype),
           kp_shape_str(c, shape, sizeof shape), timed, n, now_ms() - t0,
           ctx->pack.entries[*best].name, best_us);
    persist(ctx, &mine);
  }
  kp_tune_free(&mine);
done:
  if (e0) d->cuEventDestroy(e0);
  if (e1) d->cuEventDestroy(e1);
  return st;
}
