/*
** ctx.c -- context lifetime, device properties, pack discovery, errors, log.
**
** Detail messages are kept per thread (the last failing call of this thread
** on this ctx), so concurrent callers never read each other's messages.
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "jit.h"
#include "tune.h"

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

size_t kp_options_sizeof(void) { return sizeof(kp_options); }

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

/* Best pack file in dir for this device, by kp_target_score; returns the
** score or -1.  sm = 0 accepts any pack (a source of variant sources for
** JIT), preferring PTX packs. */
int kp_best_pack_in(const char *dir, int sm, char *path, size_t n) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int best_score = 99, best_sm = -1, best_route = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t len = strlen(de->d_name);
    if (len < 5 || strcmp(de->d_name + len - 4, ".kpk") != 0 || len - 4 >= 16) continue;
    char target[16];
    snprintf(target, sizeof target, "%.*s", (int)(len - 4), de->d_name);
    int tsm = 0, score = sm ? kp_target_score(target, sm, &tsm)
                            : strncmp(target, "compute_", 8) == 0 ? 0 : 1;
    if (score < 0) continue;
    /* among PTX packs, first the one whose PTX is the GPU's own (first use
    ** by ptxas alone: jit.h), then the newest */
    const int route = score == 3 && kp_jit_ptx_route(target, sm);
    if (score < best_score ||
        (score == best_score && (route > best_route || (route == best_route && tsm > best_sm)))) {
      best_score = score;
      best_sm = tsm;
      best_route = route;
      snprintf(path, n, "%s/%s", dir, de->d_name);
    }
  }
  closedir(d);
  return best_score < 99 ? best_score : -1;
}

static int jit_allowed(const kp_ctx *ctx) {
  const char *e = getenv("KP_NO_JIT");
  return !ctx->no_jit && !(e && *e && strcmp(e, "0") != 0);
}

/* No cubin in the pack fits the device: compile its sources for the exact
** target if NVRTC is there and JIT is allowed.  Returns 1 if so. */
static int try_jit(kp_ctx *ctx) {
  if (!ctx->drv || !jit_allowed(ctx)) return 0;
  int ma, mi;
  char err[300];
  if (kp_nvrtc_version(&ma, &mi, err, sizeof err) != KP_OK) {
    kp_log(ctx, KP_LOG_INFO, "%s", err);
    return 0;
  }
  snprintf(ctx->jit_target, sizeof ctx->jit_target, "sm_%d", ctx->props.sm);
  if (ma * 1000 + mi * 10 > ctx->info.driver_version)
    kp_log(ctx, KP_LOG_WARN, "NVRTC %d.%d is newer than the driver (CUDA %d.%d): its cubins may "
           "not load; update the driver or use a matching NVRTC (KP_NVRTC_LIB)", ma, mi,
           ctx->info.driver_version / 1000, ctx->info.driver_version % 1000 / 10);
  kp_log(ctx, KP_LOG_INFO, "no cubin for sm_%d: variants will be compiled on first use for %s",
         ctx->props.sm, ctx->jit_target);
  return 1;
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
    /* load order: exact cubin, compatible cubin, JIT from any pack's sources, PTX */
    int score = -1;
    for (int i = 0; i < nd && score < 0; i++) {
      size_t l = strlen(searched);
      snprintf(searched + l, sizeof searched - l, "%s%s", i ? ", " : "", dirs[i]);
      score = kp_best_pack_in(dirs[i], ctx->props.sm, path, sizeof path);
      if (score == 3 || score < 0) {
        /* the sources' pack: the PTX pack chosen for the device if there is
        ** one (its PTX may be loaded as is: jit.h), else any, PTX preferred */
        char src[1024];
        if (kp_best_pack_in(dirs[i], 0, src, sizeof src) >= 0 && try_jit(ctx)) {
          if (score < 0) snprintf(path, sizeof path, "%s", src);
          score = 4;
        }
      }
      if (score < 0) path[0] = 0;
    }
  }
  ctx->pack_status = KP_ERR_PACK_NOT_FOUND;
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
    ctx->pack_status = s;
    snprintf(ctx->pack_err, sizeof ctx->pack_err, "%s", err);
    kp_log(ctx, KP_LOG_WARN, "%s", err);
    return;
  }
  if (o->pack_path && ctx->drv && !ctx->jit_target[0]) {
    int score = kp_target_score(ctx->pack.target, ctx->props.sm, NULL);
    if ((score < 0 || score == 3) && !try_jit(ctx) && score < 0) {
      snprintf(ctx->pack_err, sizeof ctx->pack_err,
               "pack %s: target %s cannot run on sm_%d and run-time compilation is %s", path,
               ctx->pack.target, ctx->props.sm, jit_allowed(ctx) ? "unavailable" : "disabled");
      ctx->pack_status = KP_ERR_UNSUPPORTED;
      kpk_close(&ctx->pack);
      return;
    }
  }
  ctx->have_pack = 1;
  snprintf(ctx->info.target, sizeof ctx->info.target, "%s",
           ctx->jit_target[0] ? ctx->jit_target : ctx->pack.target);
  snprintf(ctx->info.pack_path, sizeof ctx->info.pack_path, "%s", path);
  kp_log(ctx, KP_LOG_INFO, "using pack %s (%s, %u variants)", path, ctx->pack.target,
         ctx->pack.n_entries);
}

/* One table from path, if it parses and matches the device: *out, or NULL
** with the reason logged (explicit: a named table, whose problems are the
** caller's error instead). */
static kp_status load_table(kp_ctx *ctx, const char *path, int explicit_path, kp_tune_table **out) {
  *out = NULL;
  kp_tune_table *t = calloc(1, sizeof *t);
  if (!t) return kp_fail(ctx, KP_ERR_NOMEM, "out of memory for the tuning table");
  char err[700], why[700];
  kp_status st = kp_tune_load(t, path, err, sizeof err);
  if (st != KP_OK) {
    free(t);
    if (explicit_path) return kp_fail(ctx, st, "%s", err);
    kp_log(ctx, KP_LOG_WARN, "ignoring tuning table: %s", err);
    return KP_OK;
  }
  if (ctx->drv && !kp_tune_matches(t, &ctx->info, why, sizeof why)) {
    kp_log(ctx, KP_LOG_WARN, "ignoring tuning table: %s", why);
    kp_tune_free(t);
    free(t);
    return KP_OK;
  }
  kp_log(ctx, KP_LOG_INFO, "tuning table %s: %zu measurements", path, t->n);
  *out = t;
  return KP_OK;
}

/* The autotune table: kp_options.tune_path or $KP_TUNE_FILE (errors are
** the caller's), else <target>.<device>.tune from the cache dir (what the
** user tuned) filled in with the one beside the pack (shipped with it, e.g.
** from tune/): the user's rows decide every key they measured, the
** shipped ones the keys they did not (kp_tune_fill).  Problems with those
** two are logged and the table ignored.  With online tuning on, a named
** table that does not exist yet is not an error: the first tuned call
** creates it. */
static kp_status load_tune(kp_ctx *ctx, const kp_options *o, int online) {
  const char *env = getenv("KP_TUNE_FILE");
  const char *explicit_path = o->tune_path ? o->tune_path : env && *env ? env : NULL;
  if (explicit_path) {
    /* online tuning creates the table it is given */
    if (online && access(explicit_path, F_OK) != 0 && errno == ENOENT) return KP_OK;
    return load_table(ctx, explicit_path, 1, &ctx->tune);
  }
  if (!ctx->have_pack) return KP_OK;
  char name[200], dir[600], user[1024], shipped[1024];
  kp_tune_default_name(ctx->info.target, ctx->info.name, name, sizeof name);
  kp_jit_cache_dir(dir, sizeof dir);
  snprintf(user, sizeof user, "%s/%s", dir, name);
  const char *slash = strrchr(ctx->pack.path, '/');
  int dl = slash ? (int)(slash - ctx->pack.path) : 1;
  snprintf(shipped, sizeof shipped, "%.*s/%s", dl, slash ? ctx->pack.path : ".", name);
  kp_tune_table *u = NULL, *s = NULL;
  kp_status st = access(user, R_OK) == 0 ? load_table(ctx, user, 0, &u) : KP_OK;
  if (st == KP_OK && strcmp(user, shipped) && access(shipped, R_OK) == 0)
    st = load_table(ctx, shipped, 0, &s);
  if (st != KP_OK) { /* out of memory */
    if (u) kp_tune_free(u);
    free(u);
    return st;
  }
  if (u && s) {
    int added = kp_tune_fill(u, s);
    if (added < 0) kp_log(ctx, KP_LOG_WARN, "tuning table %s: out of memory: not used", shipped);
    else kp_log(ctx, KP_LOG_INFO, "tuning table %s: %d rows for keys %s lacks", shipped, added, user);
    kp_tune_free(s);
    free(s);
    s = NULL;
  }
  ctx->tune = u ? u : s;
  return KP_OK;
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
  ctx->props.sm_count = in->sm_count;
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
  ctx->no_jit = o->no_jit;
  ctx->ordinal = KP_NO_DEVICE;
  ctx->info.ordinal = KP_NO_DEVICE;
  *out = ctx;
  if (o->device != KP_NO_DEVICE) {
    kp_status s = open_device(ctx, o);
    if (s != KP_OK) return s;
  }
  load_pack(ctx, o);
  if (!ctx->have_pack && o->pack_path) return kp_fail(ctx, ctx->pack_status, "%s", ctx->pack_err);
  const char *pe = getenv("KP_PDL");
  ctx->pdl = o->pdl != 0 || (pe && !strcmp(pe, "1"));
  /* PDL takes effect on sm_90+ through cuLaunchKernelEx; from 12.3 on, a
  ** captured graph keeps the programmatic edges (older drivers: off) */
  ctx->pdl_device = ctx->drv && ctx->props.sm >= 90 && ctx->drv->cuLaunchKernelEx &&
                    ctx->info.driver_version >= 12030;
  const char *at = getenv("KP_AUTOTUNE");
  ctx->autotune = ctx->drv && ctx->have_pack && (o->autotune || (at && !strcmp(at, "1")));
  kp_status ts = load_tune(ctx, o, ctx->autotune);
  if (ts != KP_OK) return ts;
  if (ctx->autotune) { /* results go to the table named by option or env, else the cache dir */
    const char *env = getenv("KP_TUNE_FILE");
    if (o->tune_path || (env && *env)) {
      snprintf(ctx->tune_path, sizeof ctx->tune_path, "%s", o->tune_path ? o->tune_path : env);
    } else {
      char dir[500];
      kp_jit_cache_dir(dir, sizeof dir);
      char name[200];
      kp_tune_default_name(ctx->info.target, ctx->info.name, name, sizeof name);
      if (kp_mkdirs(dir) == 0) snprintf(ctx->tune_path, sizeof ctx->tune_path, "%s/%s", dir, name);
    }
  }
  ctx->pin = -1;
  const char *pin = getenv("KP_VARIANT");
  if (pin && *pin && ctx->have_pack) {
    for (uint32_t i = 0; i < ctx->pack.n_entries && ctx->pin < 0; i++)
      if (strcmp(ctx->pack.entries[i].name, pin) == 0) ctx->pin = (int)i;
    if (ctx->pin < 0)
      return kp_fail(ctx, KP_ERR_INVALID_ARG, "KP_VARIANT=%s: pack %s has no such variant", pin,
                     ctx->info.pack_path);
    kp_log(ctx, KP_LOG_INFO, "KP_VARIANT: every %s %s call runs %s", ctx->pack.entries[ctx->pin].family,
           kp_dtype_name((kp_dtype)ctx->pack.entries[ctx->pin].dtype), pin);
  }
  if (ctx->have_pack) {
    ctx->modules = calloc(ctx->pack.n_entries + 1, sizeof *ctx->modules);
    ctx->funcs = calloc(ctx->pack.n_entries + 1, sizeof *ctx->funcs);
    ctx->fit = calloc(ctx->pack.n_entries + 1, sizeof *ctx->fit);
    ctx->pdl_code = calloc(ctx->pack.n_entries + 1, sizeof *ctx->pdl_code);
    ctx->params = calloc(ctx->pack.n_entries + 1, sizeof *ctx->params);
    if (!ctx->modules || !ctx->funcs || !ctx->fit || !ctx->pdl_code || !ctx->params)
      return kp_fail(ctx, KP_ERR_NOMEM, "kp_ctx_create: out of memory");
  }
  return KP_OK;
}

void kp_ctx_destroy(kp_ctx *ctx) {
  if (!ctx) return;
  kp_launch_release(ctx);
  if (ctx->owns_primary) ctx->drv->cuDevicePrimaryCtxRelease(ctx->dev);
  kpk_close(&ctx->pack);
  if (ctx->tune) kp_tune_free(ctx->tune);
  free(ctx->tune);
  free(ctx->modules);
  free(ctx->funcs);
  free(ctx->fit);
  free(ctx->pdl_code);
  if (ctx->params)
    for (uint32_t i = 0; i < ctx->pack.n_entries; i++) free(ctx->params[i]);
  free(ctx->params);
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

kp_status kp_ctx_set_pdl(kp_ctx *ctx, int on) {
  if (!ctx) return kp_fail(NULL, KP_ERR_INVALID_ARG, "kp_ctx_set_pdl: ctx is NULL");
  if (on != 0 && on != 1)
    return kp_fail(ctx, KP_ERR_INVALID_ARG, "kp_ctx_set_pdl: on=%d: must be 0 or 1", on);
  __atomic_store_n(&ctx->pdl, on, __ATOMIC_RELAXED);
  return KP_OK;
}

int kp_ctx_pdl(const kp_ctx *ctx) {
  return ctx && ctx->pdl_device && __atomic_load_n(&ctx->pdl, __ATOMIC_RELAXED);
}
