/*
** jit.c -- NVRTC at run time and the disk cache (see jit.h).
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nvrtc.h>

#include "jit.h"
#include "nvrtc_opts.h"

/* ---- NVRTC through dlopen ------------------------------------------------ */

#define KP_NVRTC_FUNCS(X)                                                          \
  X(nvrtcVersion) X(nvrtcCreateProgram) X(nvrtcCompileProgram) X(nvrtcDestroyProgram) \
  X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcGetPTXSize) X(nvrtcGetPTX)          \
  X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetErrorString)

static struct {
#define KP_NVRTC_FIELD_(f) __typeof__(&f) f;
  KP_NVRTC_FUNCS(KP_NVRTC_FIELD_)
#undef KP_NVRTC_FIELD_
  int major, minor;
  int ok;
  char err[300];
} nv;
static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void nv_load(void) {
  const char *env = getenv("KP_NVRTC_LIB");
  const char *names[] = {env, "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                         "/usr/local/cuda/lib64/libnvrtc.so"};
  void *h = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++)
    if (names[i] && *names[i]) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(nv.err, sizeof nv.err, "NVRTC not found (tried $KP_NVRTC_LIB, libnvrtc.so.13, "
                                    "libnvrtc.so.12, libnvrtc.so): cannot compile at run time");
    return;
  }
#define KP_NVRTC_SYM_(f)                                                      \
  if (!(*(void **)&nv.f = dlsym(h, #f))) {                                   \
    snprintf(nv.err, sizeof nv.err, "NVRTC library lacks %s", #f);           \
    return;                                                                  \
  }
  KP_NVRTC_FUNCS(KP_NVRTC_SYM_)
#undef KP_NVRTC_SYM_
  nv.nvrtcVersion(&nv.major, &nv.minor);
  nv.ok = 1;
}

kp_status kp_nvrtc_version(int *major, int *minor, char *err, size_t errlen) {
  pthread_once(&nv_once, nv_load);
  if (!nv.ok) {
    snprintf(err, errlen, "%s", nv.err);
    return KP_ERR_UNSUPPORTED;
  }
  *major = nv.major;
  *minor = nv.minor;
  return KP_OK;
}

/* "compute_80" -> 80, "sm_90a" -> 90; 0 for anything else */
static int target_sm(const char *t, const char *prefix) {
  size_t n = strlen(prefix);
  int sm = 0;
  return !strncmp(t, prefix, n) && sscanf(t + n, "%d", &sm) == 1 ? sm : 0;
}

/* Does src test __CUDA_ARCH__ only to guard the PDL instructions
** (kp_device.cuh's kp_grid_wait / kp_grid_launch_dependents)? */
static int arch_tests_pdl_only(const char *src, size_t n) {
  static const char guard[] = "__CUDA_ARCH__ >= 900\n  asm volatile(\"griddepcontrol.";
  const size_t gl = sizeof guard - 1;
  const char *p = src, *end = src + n;
  while ((p = memmem(p, (size_t)(end - p), "__CUDA_ARCH", 11))) {
    if ((size_t)(end - p) < gl || memcmp(p, guard, gl)) return 0;
    p += gl;
  }
  return 1;
}

int kp_jit_ptx_route(const char *pack_target, int sm) {
  const int from = target_sm(pack_target, "compute_"), to = sm;
  /* where NVVM's PTX for `from` is its PTX for `to`: the same SASS for every
  ** variant (bench/NOTES.md 28, 51, 53, 55; compute_100's is not sm_103's,
  ** where 64 of 241 differ: compute_103's is; compute_120's is not sm_121's:
  ** compute_121's is) */
  return (from >= 80 && from < 100 && to >= from && to < 100) ||
         (from == 100 && (to == 100 || to == 110)) ||
         ((from == 103 || from == 120 || from == 121) && to == from);
}

int kp_jit_ptx_ok(const char *pack_target, const char *target, const char *src, size_t srclen) {
  const char *e = getenv("KP_JIT");
  return kp_jit_ptx_route(pack_target, target_sm(target, "sm_")) && !(e && !strcmp(e, "nvrtc")) &&
         src && arch_tests_pdl_only(src, srclen);
}

int kp_jit_from_ptx(const kpk_pack *pk, uint32_t i, const char *target) {
  if (i >= pk->n_entries || !pk->entries[i].is_ptx) return 0;
  size_t n = 0;
  char *src = kpk_source_dup(pk, i, &n);
  int ok = kp_jit_ptx_ok(pk->target, target, src, n);
  free(src);
  return ok;
}

/* ---- key and paths ------------------------------------------------------------ */

kp_status kp_jit_key(const char *src, size_t srclen, const char *target, char key[40], char *err,
                     size_t errlen) {
  int ma, mi;
  kp_status st = kp_nvrtc_version(&ma, &mi, err, errlen);
  if (st != KP_OK) return st;
  static const char *const opts[] = {KP_NVRTC_OPTIONS};
  char meta[512];
  int n = snprintf(meta, sizeof meta, "kernpack-jit\ntarget=%s\nnvrtc=%d.%d\nformat=%d\n", target,
                   ma, mi, KPK_FORMAT_VERSION);
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
    n += snprintf(meta + n, sizeof meta - (size_t)n, "opt=%s\n", opts[i]);
  uint64_t h = kp_fnv1a64(meta, (size_t)n) ^ kp_fnv1a64(src, srclen) * 0x9E3779B97F4A7C15ull;
  uint32_t c = kp_crc32(src, srclen) ^ kp_crc32(meta, (size_t)n);
  snprintf(key, 40, "%016llx%08x", (unsigned long long)h, c);
  return KP_OK;
}

void kp_jit_cache_dir(char *out, size_t n) {
  const char *d = getenv("KP_CACHE_DIR");
  if (d && *d) { snprintf(out, n, "%s", d); return; }
  d = getenv("XDG_CACHE_HOME");
  if (d && *d) { snprintf(out, n, "%s/kernpack", d); return; }
  d = getenv("HOME");
  snprintf(out, n, "%s/.cache/kernpack", d && *d ? d : "/tmp");
}

int kp_mkdirs(const char *path) {
  char tmp[700];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(tmp, 0755) && errno != EEXIST) return -1;
      *p = '/';
    }
  return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

/* ---- cache entries: "KPJCACHE" u64 size u32 crc u32 0, then the image ---- */

#define KP_JC_MAGIC "KPJCACHE"
#define KP_JC_HDR 24

static int entry_read(const char *path, kp_jit_out *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  unsigned char h[KP_JC_HDR];
  int ok = fread(h, 1, KP_JC_HDR, f) == KP_JC_HDR && !memcmp(h, KP_JC_MAGIC, 8);
  uint64_t size = 0;
  uint32_t crc = 0;
  if (ok) {
    memcpy(&size, h + 8, 8);
    memcpy(&crc, h + 16, 4);
    ok = size > 0 && size < (256u << 20);
  }
  unsigned char *img = ok ? malloc(size + 1) : NULL;
  ok = img && fread(img, 1, size, f) == size && fgetc(f) == EOF && kp_crc32(img, size) == crc;
  fclose(f);
  if (!ok) {
    free(img);
    return -1;
  }
  img[size] = 0;
  out->image = img;
  out->size = size;
  return 0;
}

static int entry_write(const char *path, const unsigned char *img, size_t size) {
  char tmp[760];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  unsigned char h[KP_JC_HDR] = {0};
  uint64_t sz = size;
  uint32_t crc = kp_crc32(img, size);
  memcpy(h, KP_JC_MAGIC, 8);
  memcpy(h + 8, &sz, 8);
  memcpy(h + 16, &crc, 4);
  int ok = fwrite(h, 1, sizeof h, f) == sizeof h && fwrite(img, 1, size, f) == size;
  /* no fsync: an entry that a crash leaves short or zeroed fails its size and
  ** CRC check on the next read and is compiled again, so durability would buy
  ** nothing but first-use latency */
  ok = (fflush(f) == 0) && ok;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* ---- compile -------------------------------------------------------------- */

static kp_status compile(const char *name, const char *src, size_t srclen, const char *target,
                         kp_jit_out *out, char *err, size_t errlen) {
  char arch[64];
  snprintf(arch, sizeof arch, "--gpu-architecture=%s", target);
  const char *opts[] = {arch, KP_NVRTC_OPTIONS};
  int nopts = (int)(sizeof opts / sizeof opts[0]);
  int ptx = strncmp(target, "compute_", 8) == 0;
  nvrtcProgram prog;
  char srcname[300];
  snprintf(srcname, sizeof srcname, "%s.cu", name);
  /* NVRTC reads to a NUL; a pack's sources are not terminated (the next
  ** blob follows), so compile a terminated copy */
  char *text = malloc(srclen + 1);
  if (!text) return KP_ERR_NOMEM;
  memcpy(text, src, srclen);
  text[srclen] = 0;
  nvrtcResult r = nv.nvrtcCreateProgram(&prog, text, srcname, 0, NULL, NULL);
  free(text);
  if (r != NVRTC_SUCCESS) {
    snprintf(err, errlen, "%s: nvrtcCreateProgram: %s", name, nv.nvrtcGetErrorString(r));
    return KP_ERR_CUDA;
  }
  r = nv.nvrtcCompileProgram(prog, nopts, opts);
  if (r != NVRTC_SUCCESS) {
    size_t ll = 0;
    nv.nvrtcGetProgramLogSize(prog, &ll);
    char *log = malloc(ll + 1);
    if (log) {
      log[0] = 0;
      nv.nvrtcGetProgramLog(prog, log);
    }
    snprintf(err, errlen, "%s: NVRTC failed for %s: %s", name, target, log ? log : "");
    free(log);
    nv.nvrtcDestroyProgram(&prog);
    return KP_ERR_CUDA;
  }
  size_t size = 0;
  r = ptx ? nv.nvrtcGetPTXSize(prog, &size) : nv.nvrtcGetCUBINSize(prog, &size);
  unsigned char *img = r == NVRTC_SUCCESS ? malloc(size + 1) : NULL;
  if (img) r = ptx ? nv.nvrtcGetPTX(prog, (char *)img) : nv.nvrtcGetCUBIN(prog, (char *)img);
  nv.nvrtcDestroyProgram(&prog);
  if (!img || r != NVRTC_SUCCESS) {
    free(img);
    snprintf(err, errlen, "%s: cannot fetch the NVRTC output", name);
    return img ? KP_ERR_CUDA : KP_ERR_NOMEM;
  }
  img[size] = 0;
  out->image = img;
  out->size = size;
  return KP_OK;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Take an exclusive flock on fd, polling until timeout_ms. */
static int lock_wait(int fd, double timeout_ms) {
  double t0 = now_ms();
  for (;;) {
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
    if (errno != EWOULDBLOCK && errno != EINTR) return -1;
    if (now_ms() - t0 > timeout_ms) return -1;
    struct timespec ts = {0, 5 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

kp_status kp_jit_get(const kp_ctx *log_ctx, const char *name, const char *src, size_t srclen,
                     const char *target, kp_jit_out *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  double t0 = now_ms();
  kp_status st = kp_jit_key(src, srclen, target, out->key, err, errlen);
  if (st != KP_OK) return st;
  char dir[600];
  kp_jit_cache_dir(dir, sizeof dir);
  size_t dl = strlen(dir);
  snprintf(dir + dl, sizeof dir - dl, "/v1/%s", target);
  int cache_ok = kp_mkdirs(dir) == 0 && access(dir, W_OK) == 0;
  if (cache_ok) snprintf(out->path, sizeof out->path, "%s/%s-%s.bin", dir, name, out->key);
  else kp_log(log_ctx, KP_LOG_DEBUG, "cache dir %s unusable (%s): compiling in memory", dir, strerror(errno));

  if (cache_ok && entry_read(out->path, out) == 0) {
    out->from_cache = 1;
    out->ms = now_ms() - t0;
    return KP_OK;
  }
  int lfd = -1;
  if (cache_ok) {
    char lpath[720];
    snprintf(lpath, sizeof lpath, "%s.lock", out->path);
    lfd = open(lpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    const char *to = getenv("KP_JIT_LOCK_TIMEOUT_MS");
    double timeout = to && *to ? atof(to) : 120000.0;
    if (lfd >= 0 && lock_wait(lfd, timeout) != 0) {
      kp_log(log_ctx, KP_LOG_WARN, "%s: waited %.0f ms for another process compiling it; "
             "compiling here without caching", out->path, timeout);
      close(lfd);
      lfd = -1;
      cache_ok = 0;
    }
    /* someone else may have finished it while we waited */
    if (cache_ok && entry_read(out->path, out) == 0) {
      out->from_cache = 1;
      out->ms = now_ms() - t0;
      if (lfd >= 0) close(lfd);
      return KP_OK;
    }
  }
  kp_log(log_ctx, KP_LOG_INFO, "JIT: compiling %s for %s with NVRTC %d.%d (first use)...", name,
         target, nv.major, nv.minor);
  double tc = now_ms();
  st = compile(name, src, srclen, target, out, err, errlen);
  tc = now_ms() - tc;
  if (st == KP_OK && cache_ok && entry_write(out->path, out->image, out->size) != 0) {
    kp_log(log_ctx, KP_LOG_DEBUG, "cannot store %s (%s): kept in memory", out->path, strerror(errno));
    out->path[0] = 0;
  }
  if (lfd >= 0) close(lfd); /* releases the flock */
  out->ms = now_ms() - t0;
  if (st == KP_OK)
    kp_log(log_ctx, KP_LOG_INFO, "JIT: %s for %s took %.1f ms (NVRTC %.1f ms)", name, target,
           out->ms, tc);
  return st;
}
