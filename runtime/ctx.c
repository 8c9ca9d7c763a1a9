/*
** ctx.c -- context lifetime, device properties, pack discovery, errors, log.
**
** Detail messages are kept per thread (the last failing call of this thread
** on this ctx), so concurrent callers never read each other's messages.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef KP_DEFAULT_PACK_DIR
#define KP_DEFAULT_PACK_DIR "/usr/local/share/kernpack/packs"
#endif

/* ---- errors and log -------------------------------------------------------- */

static _Thread_local struct {
  const kp_ctx *ctx;
  char msg[1024];
} tl_err;

static void vlog(const kp_ctx *ctx, kp_log_level lvl, const char *fmt, va_list ap) {
  char buf[1200];
  vsnprintf(buf, sizeof buf, fmt, ap);
  if (ctx && ctx->log) {
    if (lvl <= ctx->log_level) ctx->log(ctx->log_ud, lvl, buf);
    return;
  }
  /* no callback: silent unless the user asked with KP_LOG */
  const char *env = getenv("KP_LOG");
  if (!env) return;
  static const char *const names[] = {"error", "warn", "info", "debug"};
  int max = KP_LOG_WARN;
  for (int i = 0; i < 4; i++)
    if (strcmp(env, names[i]) == 0) max = i;
  if ((int)lvl <= max) fprintf(stderr, "kernpack %s: %s\n", names[lvl], buf);
}

void kp_log(const kp_ctx *ctx, kp_log_level lvl, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(ctx, lvl, fmt, ap);
  va_end(ap);
}

kp_status kp_fail(const kp_ctx *ctx, kp_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tl_err.ctx = ctx;
  vsnprintf(tl_err.msg, sizeof tl_err.msg, fmt, ap);
  va_end(ap);
  kp_log(ctx, KP_LOG_DEBUG, "%s: %s", kp_status_name(s), tl_err.msg);
  return s;
}

kp_status kp_cu_fail(const kp_ctx *ctx, CUresult r, const char *what, const char *file,
                     int line) {
  char t[256];
  kp_driver_errtext(ctx ? ctx->drv : NULL, r, t, sizeof t);
  return kp_fail(ctx, KP_ERR_CUDA, "%s: %s at %s:%d", what, t, file, line);
}

const char *kp_ctx_errmsg(const kp_ctx *ctx) {
  if (ctx && tl_err.ctx == ctx) return tl_err.msg;
  if (!ctx && tl_err.ctx == NULL && tl_err.msg[0]) return tl_err.msg;
  return "";
}

void kp_options_init(kp_options *opt) {
  if (!opt) return;
  memset(opt, 0, sizeof *opt);
  opt->log_level = KP_LOG_WARN;
}

/* ---- packs ----------------------------------------------------------------- */

/* Directory of the file holding this library (the .so, or the program that
** linked the .a): packs are looked up relative to it. */
static int self_dir(char *out, size_t n) {
  Dl_info di;
  if (!dladdr((void *)&kp_ctx_create, &di) || !di.dli_fname) return -1;
  const char *slash = strrchr(di.dli_fname, '/');
  if (!slash) return -1;
  snprintf(out, n, "%.*s", (int)(slash - di.dli_fname), di.dli_fname);
  return 0;
}

/* Best pack file in dir for this device, by kp_target_score. */
static int best_pack_in(const char *dir, int sm, char *path, size_t n) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int best_score = 99, best_sm = -1;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t len = strlen(de->d_name);
    if (len < 5 || strcmp(de->d_name + len - 4, ".kpk") != 0 || len - 4 >= 16) continue;
    char target[16];
    snprintf(target, sizeof target, "%.*s", (int)(len - 4), de->d_name);
    int tsm, score = kp_target_score(target, sm, &tsm);
    if (score < 0) continue;
    if (score < best_score || (score == best_score && tsm > best_sm)) {
      best_score = score;
      best_sm = tsm;
      snprintf(path, n, "%s/%s", dir, de->d_name);
    }
  }
  closedir(d);
  return best_score < 99 ? 0 : -1;
}

static void load_pack(kp_ctx *ctx, const kp_options *o) {
  char path[1024] = "", searched[700] = "";
  if (o->pack_path) {
    snprintf(path, sizeof path, "%s", o->pack_path);
  } else if (ctx->drv) {
    char dirs[4][512];
    int nd = 0;
    const char *env = getenv("KP_PACK_DIR");
    if (o->pack_dir) snprintf(dirs[nd++], sizeof dirs[0], "%s", o->pack_dir);
    else if (env && *env) snprintf(dirs[nd++], sizeof dirs[0], "%s", env);
    else {
      char self[400];
      if (self_dir(self, sizeof self) == 0) {
        snprintf(dirs[nd++], sizeof dirs[0], "%s/../packs", self);
        snprintf(dirs[nd++], sizeof dirs[0], "%s/../share/kernpack/packs", self);
      }
      snprintf(dirs[nd++], sizeof dirs[0], "%s", KP_DEFAULT_PACK_DIR);
    }
    for (int i = 0; i < nd && !path[0]; i++) {
      size_t l = strlen(searched);
      snprintf(searched + l, sizeof searched - l, "%s%s", i ? ", " : "", dirs[i]);
      if (best_pack_in(dirs[i], ctx->props.sm, path, sizeof path) == 0) break;
      path[0] = 0;
    }
  }
  if (!path[0]) {
    if (ctx->drv)
      snprintf(ctx->pack_err, sizeof ctx->pack_err,
               "no pack for sm_%d found in %s (set KP_PACK_DIR or kp_options.pack_dir)",
               ctx->props.sm, searched);
    else
      snprintf(ctx->pack_err, sizeof ctx->pack_err, "pack-only context without a pack_path");
    kp_log(ctx, KP_LOG_WARN, "%s", ctx->pack_err);
    return;
  }
  char err[600];
  kp_status s = kpk_open(&ctx->pack, path, err, sizeof err);
  if (s != KP_OK) {
    snprintf(ctx->pack_err, sizeof ctx->pack_err, "%s", err);
    kp_log(ctx, KP_LOG_WARN, "%s", err);
    return;
  }
  ctx->have_pack = 1;
  snprintf(ctx->info.target, sizeof ctx->info.target, "%s", ctx->pack.target);
  snprintf(ctx->info.pack_path, sizeof ctx->info.pack_path, "%s", path);
  kp_log(ctx, KP_LOG_INFO, "using pack %s (%s, %u variants)", path, ctx->pack.target,
         ctx->pack.n_entries);
}

/* ---- device --------------------------------------------------------------- */

static kp_status open_device(kp_ctx *ctx, const kp_options *o) {
  kp_status st = KP_OK;
  char err[300];
  const kp_driver *d = kp_driver_load(&st, err, sizeof err);
  if (!d) return kp_fail(ctx, st, "%s", err);
  ctx->drv = d;
  int count = 0;
  KP_CU(ctx, d->cuDeviceGetCount(&count));
  if (o->device < 0 || o->device >= count)
    return kp_fail(ctx, KP_ERR_NO_DEVICE, "device %d requested, %d CUDA device(s) present",
                   o->device, count);
  KP_CU(ctx, d->cuDeviceGet(&ctx->dev, o->device));
  ctx->ordinal = o->device;
  if (o->use_current_context) {
    CUdevice cur_dev;
    KP_CU(ctx, d->cuCtxGetCurrent(&ctx->cu));
    if (!ctx->cu)
      return kp_fail(ctx, KP_ERR_INVALID_ARG,
                     "use_current_context: the calling thread has no current CUDA context");
    KP_CU(ctx, d->cuCtxGetDevice(&cur_dev));
    if (cur_dev != ctx->dev)
      return kp_fail(ctx, KP_ERR_INVALID_ARG,
                     "use_current_context: current context is on device %d, not %d",
                     (int)cur_dev, o->device);
  } else {
    KP_CU(ctx, d->cuDevicePrimaryCtxRetain(&ctx->cu, ctx->dev));
    ctx->owns_primary = 1;
  }
  kp_device_info *in = &ctx->info;
  int major = 0, minor = 0, v = 0;
  KP_CU(ctx, d->cuDeviceGetName(in->name, sizeof in->name, ctx->dev));
  KP_CU(ctx, d->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, ctx->dev));
  KP_CU(ctx, d->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, ctx->dev));
  KP_CU(ctx, d->cuDeviceGetAttribute(&in->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, ctx->dev));
  KP_CU(ctx, d->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, ctx->dev));
  in->smem_per_block_optin = (size_t)v;
  KP_CU(ctx, d->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, ctx->dev));
  in->smem_per_sm = (size_t)v;
  KP_CU(ctx, d->cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, ctx->dev));
  in->l2_bytes = (size_t)v;
  KP_CU(ctx, d->cuDriverGetVersion(&in->driver_version));
  in->ordinal = o->device;
  in->sm = major * 10 + minor;
  ctx->props.sm = in->sm;
  ctx->props.smem_optin = in->smem_per_block_optin;
done:
  return st;
}

kp_status kp_ctx_create(const kp_options *opt, kp_ctx **out) {
  if (!out) return kp_fail(NULL, KP_ERR_INVALID_ARG, "kp_ctx_create: out is NULL");
  *out = NULL;
  kp_options defaults;
  kp_options_init(&defaults);
  const kp_options *o = opt ? opt : &defaults;
  kp_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return kp_fail(NULL, KP_ERR_NOMEM, "kp_ctx_create: out of memory");
  pthread_mutex_init(&ctx->lock, NULL);
  ctx->log = o->log;
  ctx->log_ud = o->log_userdata;
  ctx->log_level = o->log_level;
  ctx->ordinal = KP_NO_DEVICE;
  ctx->info.ordinal = KP_NO_DEVICE;
  *out = ctx;
  if (o->device != KP_NO_DEVICE) {
    kp_status s = open_device(ctx, o);
    if (s != KP_OK) return s;
  }
  load_pack(ctx, o);
  if (!ctx->have_pack && o->pack_path)
    return kp_fail(ctx, strstr(ctx->pack_err, "cannot open") ? KP_ERR_PACK_NOT_FOUND
                                                             : KP_ERR_PACK_CORRUPT,
                   "%s", ctx->pack_err);
  if (ctx->have_pack) {
    ctx->modules = calloc(ctx->pack.n_entries + 1, sizeof *ctx->modules);
    ctx->funcs = calloc(ctx->pack.n_entries + 1, sizeof *ctx->funcs);
    if (!ctx->modules || !ctx->funcs)
      return kp_fail(ctx, KP_ERR_NOMEM, "kp_ctx_create: out of memory");
  }
  return KP_OK;
}

void kp_ctx_destroy(kp_ctx *ctx) {
  if (!ctx) return;
  kp_launch_release(ctx);
  if (ctx->owns_primary) ctx->drv->cuDevicePrimaryCtxRelease(ctx->dev);
  kpk_close(&ctx->pack);
  free(ctx->modules);
  free(ctx->funcs);
  pthread_mutex_destroy(&ctx->lock);
  if (tl_err.ctx == ctx) {
    tl_err.ctx = NULL;
    tl_err.msg[0] = 0;
  }
  free(ctx);
}

kp_status kp_ctx_device_info(kp_ctx *ctx, kp_device_info *out) {
  if (!ctx || !out) return kp_fail(ctx, KP_ERR_INVALID_ARG, "kp_ctx_device_info: NULL argument");
  *out = ctx->info;
  if (!ctx->drv) return kp_fail(ctx, KP_ERR_NO_DEVICE, "context has no device (KP_NO_DEVICE)");
  return KP_OK;
}
