/*
** kp_tune.c -- `kp tune`, `kp explain`, `kp prune`, `kp warmup`, `kp merge`:
** the tune -> regenerate workflow of the CLI.
**
** kp tune times every applicable variant of each (family, dtype, shape) with
** CUDA events (warm-up, median, L2 flushed before every rep), rejects any
** whose output disagrees with the default variant's, and writes the table.
** The shapes themselves (files, the built-in list, keys): kp_shapes.c.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kp_cmds.h"
#include "tune.h"

/* ---- options shared by the subcommands -------------------------------------- */

typedef struct tune_opts {
  int device, list;
  const char *families, *dtypes, *shapes, *out, *pack, *tune, *devices, *queue;
  int quiet; /* -q: no progress line */
  double budget_s;
  int shard, nshards, reps;
} tune_opts;

int kp_in_list(const char *list, const char *name) {
  if (!list) return 1;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *c = strchr(p, ',');
    size_t l = c ? (size_t)(c - p) : strlen(p);
    if (l == n && !strncmp(p, name, n)) return 1;
    p += l + (c ? 1 : 0);
  }
  return 0;
}

double kp_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* ---- device buffers ---------------------------------------------------------- */

typedef struct devbuf {
  CUdeviceptr p;
  size_t bytes;
} devbuf;

struct kp_bench {
  const kp_driver *d;
  CUcontext cu;
  CUstream stream;
  CUevent ev0, ev1;
  devbuf flush, sink;
  CUmodule mod;     /* the read flush (kp_flush_read_ptx), or 0: a memset flushes */
  CUfunction read;
  unsigned grid;
};

typedef struct kp_bench bench_env;

#define CK(call)                                                              \
  do {                                                                        \
    CUresult r_ = (call);                                                     \
    if (r_ != CUDA_SUCCESS) {                                                 \
      char t_[200];                                                           \
      kp_driver_errtext(env->d, r_, t_, sizeof t_);                           \
      fprintf(stderr, "kp: %s: %s (%s:%d)\n", #call, t_, __FILE__, __LINE__); \
      return -1;                                                              \
    }                                                                         \
  } while (0)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static float frand(void) { /* xorshift; uniform in [-1, 1) */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (float)((rng_state >> 40) * (2.0 / 16777216.0) - 1.0);
}

static uint16_t to_half_bits(float f, kp_dtype dt) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if (dt == KP_BF16) return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
  /* f16 for values in [-1, 1]: normal or zero, no overflow */
  uint32_t sign = (u >> 16) & 0x8000;
  int e = (int)((u >> 23) & 0xFF) - 127 + 15;
  if (e <= 0) return (uint16_t)sign;
  uint32_t m = (u & 0x7FFFFF) + 0x1000;
  if (m & 0x800000) { m = 0; e++; }
  return (uint16_t)(sign | (uint32_t)e << 10 | m >> 13);
}

static float from_bits(const void *p, size_t i, kp_dtype dt) {
  if (dt == KP_F32) return ((const float *)p)[i];
  uint16_t h = ((const uint16_t *)p)[i];
  uint32_t u;
  if (dt == KP_BF16) {
    u = (uint32_t)h << 16;
  } else {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0) {
      float v = ldexpf((float)m, -24);
      return sign ? -v : v;
    }
    u = e == 31 ? sign | 0x7F800000 | m << 13 : sign | (e - 15 + 127) << 23 | m << 13;
  }
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* n random values in dt (uniform in [bias - scale, bias + scale)); the host
** copy is kept in *keep when keep is not NULL (the caller frees it). */
static int buf_random_keep(bench_env *env, devbuf *b, size_t n, kp_dtype dt, float scale,
                           float bias, void **keep) {
  size_t es = kp_dtype_size(dt);
  b->bytes = n * es;
  CK(env->d->cuMemAlloc(&b->p, b->bytes));
  void *h = malloc(b->bytes);
  if (!h) return fprintf(stderr, "kp: out of host memory (%zu bytes)\n", b->bytes), -1;
  for (size_t i = 0; i < n; i++) {
    float v = frand() * scale + bias;
    if (dt == KP_F32) ((float *)h)[i] = v;
    else ((uint16_t *)h)[i] = to_half_bits(v, dt);
  }
  CUresult r = env->d->cuMemcpyHtoD(b->p, h, b->bytes);
  if (keep) *keep = h;
  else free(h);
  CK(r);
  return 0;
}

static int buf_random(bench_env *env, devbuf *b, size_t n, kp_dtype dt, float scale, float bias) {
  return buf_random_keep(env, b, n, dt, scale, bias, NULL);
}

static void buf_free(bench_env *env, devbuf *b) {
  if (b->p) env->d->cuMemFree(b->p);
  b->p = 0;
}

/* ---- one family's call on device buffers ---------------------------------------- */

/* a..d: tensors; a0/d0: pristine copies of a/d for in-place ops (reset
** before every run, outside the timed region); out/out2: what to compare.
** c is a pure output wherever it is used (poisoned before every checked
** run, so that a variant that leaves part of it unwritten cannot pass on
** the previous run's values).  GEMM: a = A, b = B, c = D; ha/hb the host
** copies of A and B, for the float64 check of the reference run. */
typedef struct job {
  kp_shape sh;
  kp_dtype dt;
  devbuf a, b, c, d, a0, d0, ws; /* ws: attention's split-KV workspace (form +ws) */
  devbuf *out, *out2;
  int inplace_a, inplace_d;
  void *ha, *hb;
} job;

/* attention's call: batch 1, bh query heads, bh / g KV heads, causal for
** form bit 0, the workspace (when allocated) for +ws */
static void attn_desc(const job *j, kp_attn_desc *a) {
  kp_attn_desc_init(a, 1, j->sh.dim[KP_ABH], (int64_t)kp_shape_kv_heads(&j->sh), j->sh.dim[KP_ALQ],
                    j->sh.dim[KP_ALK], j->sh.dim[KP_AD]);
  a->causal = (int)(j->sh.form & 1);
  if (j->ws.p) a->workspace = (void *)(uintptr_t)j->ws.p, a->workspace_bytes = (int64_t)j->ws.bytes;
}

/* the allocations a decode call's variants are timed on (tune_one) */
#define TUNE_ALLOCS 3

#define ROPE_HQ KP_TUNE_ROPE_HQ
#define ROPE_HK KP_TUNE_ROPE_HK

static int job_alloc(kp_ctx *ctx, bench_env *env, job *j) {
  size_t rc = (size_t)j->sh.dim[KP_ROWS] * (size_t)j->sh.dim[KP_COLS];
  size_t es = kp_dtype_size(j->dt);
  int rc_ok = 0;
  switch (j->sh.fam) {
    case KP_FAM_SOFTMAX:
      rc_ok = buf_random(env, &j->a, rc, j->dt, 4.f, 0.f) || buf_random(env, &j->c, rc, j->dt, 1.f, 0.f);
      j->out = &j->c;
      break;
    case KP_FAM_RMSNORM:
    case KP_FAM_SWIGLU:
    case KP_FAM_GEGLU:
      rc_ok = buf_random(env, &j->a, rc, j->dt, 2.f, 0.f) ||
              buf_random(env, &j->b, j->sh.fam == KP_FAM_RMSNORM ? (size_t)j->sh.dim[KP_COLS] : rc, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->c, rc, j->dt, 1.f, 0.f);
      j->out = &j->c;
      break;
    case KP_FAM_ADD_RMSNORM:
      rc_ok = buf_random(env, &j->a, rc, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->b, (size_t)j->sh.dim[KP_COLS], j->dt, 1.f, 0.f) ||
              buf_random(env, &j->c, rc, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->d, rc, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->d0, rc, j->dt, 1.f, 0.f);
      j->inplace_d = 1;
      j->out = &j->c;
      j->out2 = &j->d;
      break;
    case KP_FAM_RMSNORM_SWIGLU:
      rc_ok = buf_random(env, &j->a, 2 * rc, j->dt, 2.f, 0.f) ||
              buf_random(env, &j->b, 2 * (size_t)j->sh.dim[KP_COLS], j->dt, 1.f, 0.f) ||
              buf_random(env, &j->c, rc, j->dt, 1.f, 0.f);
      j->out = &j->c;
      break;
    case KP_FAM_ROPE: /* rows = tokens, cols = head_dim = rot_dim */
      rc_ok = buf_random(env, &j->a, rc * ROPE_HQ, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->a0, rc * ROPE_HQ, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->d, rc * ROPE_HK, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->d0, rc * ROPE_HK, j->dt, 1.f, 0.f);
      j->inplace_a = j->inplace_d = 1;
      j->out = &j->a;
      j->out2 = &j->d;
      break;
    case KP_FAM_GEMM: {
      // A: (batch, m, k); B: (batch, n, k) "nk" or (batch, k, n) "kn"; D: (batch, m, n); packed
      const size_t m = (size_t)j->sh.dim[KP_GM], n = (size_t)j->sh.dim[KP_GN],
                   k = (size_t)j->sh.dim[KP_GK], nb = (size_t)j->sh.dim[KP_GBATCH];
      if (j->dt != KP_F16 && j->dt != KP_BF16) {
        fprintf(stderr, "\nkp: gemm %s: GEMM takes f16 and bf16 inputs only\n", kp_dtype_name(j->dt));
        return -1;
      }
      /* A scaled by 1/sqrt(k): each output is a sum of k terms of variance
      ** 1/(9k), so D stays O(1) (std 1/3) at any k */
      rc_ok = buf_random_keep(env, &j->a, nb * m * k, j->dt, 1.f / sqrtf((float)k), 0.f, &j->ha) ||
              buf_random_keep(env, &j->b, nb * n * k, j->dt, 1.f, 0.f, &j->hb);
      if (!rc_ok) {
        j->c.bytes = nb * m * n * es;
        CK(env->d->cuMemAlloc(&j->c.p, j->c.bytes));
      }
      j->out = &j->c;
      break;
    }
    case KP_FAM_ATTENTION: {
      // Q, O: (1, lq, bh, d); K, V: (1, lk, bh / g, d); packed.  a = Q, b = K, d = V, c = O
      const size_t lq = (size_t)j->sh.dim[KP_ALQ], lk = (size_t)j->sh.dim[KP_ALK],
                   bhd = (size_t)j->sh.dim[KP_ABH] * (size_t)j->sh.dim[KP_AD],
                   kvd = (size_t)kp_shape_kv_heads(&j->sh) * (size_t)j->sh.dim[KP_AD];
      if (j->dt != KP_F16 && j->dt != KP_BF16) {
        fprintf(stderr, "\nkp: attention %s: attention takes f16 and bf16 only\n", kp_dtype_name(j->dt));
        return -1;
      }
      rc_ok = buf_random(env, &j->a, lq * bhd, j->dt, 2.f, 0.f) ||
              buf_random(env, &j->b, lk * kvd, j->dt, 2.f, 0.f) ||
              buf_random(env, &j->d, lk * kvd, j->dt, 1.f, 0.f) ||
              buf_random(env, &j->c, lq * bhd, j->dt, 1.f, 0.f);
      j->out = &j->c;
      if (!rc_ok && (j->sh.form & KP_ATTN_FORM_WS)) { /* the size kp_attention_workspace_size says */
        kp_attn_desc a;
        attn_desc(j, &a);
        size_t bytes = 0;
        if (kp_attention_workspace_size(ctx, j->dt, &a, &bytes) != KP_OK) {
          fprintf(stderr, "\nkp: attention workspace: %s\n", kp_ctx_errmsg(ctx));
          return -1;
        }
        if (bytes) {
          j->ws.bytes = bytes;
          CK(env->d->cuMemAlloc(&j->ws.p, bytes));
        }
      }
      break;
    }
    default:
      fprintf(stderr, "\nkp: %s: kp tune has no job for this family\n", kp_family_name(j->sh.fam));
      return -1;
  }
  if (rc_ok) return -1;
  /* a pageable cuMemcpyHtoD may return before its DMA lands, and env->stream
  ** does not wait for the legacy stream: without this the first (reference)
  ** run could read half-uploaded inputs */
  CK(env->d->cuCtxSynchronize());
  if (j->inplace_a) CK(env->d->cuMemcpyDtoDAsync(j->a0.p, j->a.p, j->a.bytes, env->stream));
  if (j->inplace_d) CK(env->d->cuMemcpyDtoDAsync(j->d0.p, j->d.p, j->d.bytes, env->stream));
  return 0;
}

static void job_free(bench_env *env, job *j) {
  devbuf *all[] = {&j->a, &j->b, &j->c, &j->d, &j->a0, &j->d0, &j->ws};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) buf_free(env, all[i]);
  free(j->ha);
  free(j->hb);
  j->ha = j->hb = NULL;
}

/* Fill the pure output with all-ones bytes: NaN in f32, f16 and bf16. */
static int job_poison(bench_env *env, job *j) {
  if (j->out == &j->c) CK(env->d->cuMemsetD8Async(j->c.p, 0xFF, j->c.bytes, env->stream));
  return 0;
}

static int job_reset(bench_env *env, job *j) {
  if (j->inplace_a) CK(env->d->cuMemcpyDtoDAsync(j->a.p, j->a0.p, j->a.bytes, env->stream));
  if (j->inplace_d) CK(env->d->cuMemcpyDtoDAsync(j->d.p, j->d0.p, j->d.bytes, env->stream));
  return 0;
}

#define PTR(b) ((void *)(uintptr_t)(b).p)

static kp_status job_run(kp_ctx *ctx, bench_env *env, job *j) {
  void *s = env->stream;
  int64_t r = j->sh.dim[KP_ROWS], c = j->sh.dim[KP_COLS];
  const uint32_t form = j->sh.form;
  switch (j->sh.fam) {
    case KP_FAM_SOFTMAX: return kp_softmax(ctx, j->dt, PTR(j->a), c, PTR(j->c), c, r, c, s);
    case KP_FAM_RMSNORM: return kp_rmsnorm(ctx, j->dt, PTR(j->a), c, PTR(j->b), PTR(j->c), c, r, c, 1e-6f, s);
    case KP_FAM_ADD_RMSNORM:
      return kp_add_rmsnorm(ctx, j->dt, PTR(j->a), c, PTR(j->d), c, PTR(j->b), PTR(j->c), c, r, c, 1e-6f, s);
    case KP_FAM_SWIGLU: return kp_swiglu(ctx, j->dt, PTR(j->a), PTR(j->b), c, PTR(j->c), c, r, c, s);
    case KP_FAM_GEGLU:
      return kp_geglu(ctx, j->dt, form ? KP_GELU_TANH : KP_GELU_ERF, PTR(j->a), PTR(j->b), c, PTR(j->c), c, r, c, s);
    case KP_FAM_RMSNORM_SWIGLU:
      return kp_rmsnorm_swiglu(ctx, j->dt, PTR(j->a), 2 * c, PTR(j->b), PTR(j->c), c, r, c, 1e-6f, s);
    case KP_FAM_ROPE: {
      kp_rope_desc d = {.tokens = r, .heads_q = ROPE_HQ, .heads_k = ROPE_HK, .head_dim = c,
                        .rot_dim = c, .q_stride_token = ROPE_HQ * c, .q_stride_head = c,
                        .k_stride_token = ROPE_HK * c, .k_stride_head = c,
                        .layout = form ? KP_ROPE_GPTJ : KP_ROPE_NEOX, .theta = 10000.f};
      return kp_rope(ctx, j->dt, PTR(j->a), PTR(j->d), &d, s);
    }
    case KP_FAM_GEMM: { /* plain: alpha 1, beta 0, no C, no bias, no activation */
      const int64_t m = j->sh.dim[KP_GM], n = j->sh.dim[KP_GN], k = j->sh.dim[KP_GK];
      kp_gemm_desc g;
      kp_gemm_desc_init(&g, m, n, k);
      g.batch = j->sh.dim[KP_GBATCH];
      g.b_layout = form == KP_B_KN ? KP_B_KN : KP_B_NK;
      g.ldb = g.b_layout == KP_B_KN ? n : k;
      g.stride_a = m * k, g.stride_b = n * k, g.stride_d = m * n;
      return kp_gemm(ctx, j->dt, PTR(j->a), PTR(j->b), PTR(j->c), &g, s);
    }
    case KP_FAM_ATTENTION: {
      kp_attn_desc a;
      attn_desc(j, &a);
      return kp_attention(ctx, j->dt, PTR(j->a), PTR(j->b), PTR(j->d), PTR(j->c), &a, s);
    }
    default: return KP_ERR_INVALID_ARG;
  }
}

/* Download an output as floats. */
/* The output as floats.  Past KP_CHECK_ALL elements only a sample is
** converted (and then compared): the first and last KP_CHECK_ALL / 2 and every
** 7th between, so that a 256 MB output costs a fraction of a second of host
** time per candidate, not seconds, while every row end, block boundary and
** the grid's tail are still looked at.  Reference and candidate go through
** the same sampling. */
#define KP_CHECK_ALL ((size_t)16 << 20)
static int sampled(size_t i, size_t n) {
  return n <= KP_CHECK_ALL || i < KP_CHECK_ALL / 2 || i >= n - KP_CHECK_ALL / 2 || i % 7 == 0;
}

static float *fetch(bench_env *env, const devbuf *b, kp_dtype dt, size_t *n) {
  size_t total = b->bytes / kp_dtype_size(dt);
  void *h = malloc(b->bytes);
  float *f = malloc(total * sizeof *f);
  if (!h || !f || env->d->cuStreamSynchronize(env->stream) != CUDA_SUCCESS ||
      env->d->cuMemcpyDtoH(h, b->p, b->bytes) != CUDA_SUCCESS) {
    free(h);
    free(f);
    return NULL;
  }
  size_t m = 0;
  for (size_t i = 0; i < total; i++)
    if (sampled(i, total)) f[m++] = from_bits(h, i, dt);
  *n = m;
  free(h);
  return f;
}

/* max |a-b| / max |ref|: one number per output, as the tests do per row */
static double rel_err(const float *ref, const float *x, size_t n) {
  double m = 0, e = 0;
  for (size_t i = 0; i < n; i++) {
    double r = fabs((double)ref[i]);
    if (r > m) m = r;
    double d = fabs((double)ref[i] - (double)x[i]);
    if (isnan(d) || d > e) e = isnan(d) ? INFINITY : d;
  }
  return m > 0 ? e / m : e;
}

/* ||x - ref|| / ||ref|| (Frobenius): GEMM's outputs are sums of thousands of
** products, rounded once; two correct variants differ by an ulp here and
** there, which a max-norm test against max |ref| would either miss errors
** in small outputs or need a loose limit for */
static double frob_err(const float *ref, const float *x, size_t n) {
  double num = 0, den = 0;
  for (size_t i = 0; i < n; i++) {
    double d = (double)ref[i] - (double)x[i];
    if (isnan(d)) return INFINITY;
    num += d * d;
    den += (double)ref[i] * (double)ref[i];
  }
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

static double out_err(kp_family fam, const float *ref, const float *x, size_t n) {
  return fam == KP_FAM_GEMM ? frob_err(ref, x, n) : rel_err(ref, x, n);
}

static double tolerance(kp_family fam, kp_dtype dt) {
  if (fam == KP_FAM_GEMM) return dt == KP_F16 ? 2e-3 : 1e-2;
  return dt == KP_F32 ? 1e-4 : dt == KP_F16 ? 4e-3 : 3e-2;
}

/* The GEMM reference run (D in j->c, stream synchronised) against float64
** at sampled outputs -- the four corners and random ones -- from the host
** copies of A and B: every candidate is held to the reference, so a wrong
** default variant must not be the yardstick.  The relative Frobenius error
** over the samples in *err; -1 on a device error. */
#define GEMM_SAMPLES 128
static int gemm_check_ref(bench_env *env, const job *j, double *err) {
  const size_t m = (size_t)j->sh.dim[KP_GM], n = (size_t)j->sh.dim[KP_GN],
               k = (size_t)j->sh.dim[KP_GK], nb = (size_t)j->sh.dim[KP_GBATCH];
  const int kn = j->sh.form == KP_B_KN;
  double num = 0, den = 0;
  for (int s = 0; s < GEMM_SAMPLES; s++) {
    size_t b, i, c;
    if (s < 4) {
      b = s & 1 ? nb - 1 : 0;
      i = s & 1 ? m - 1 : 0;
      c = s & 2 ? n - 1 : 0;
    } else {
      b = (size_t)((frand() + 1.0) * 0.5 * (double)nb) % nb;
      i = (size_t)((frand() + 1.0) * 0.5 * (double)m) % m;
      c = (size_t)((frand() + 1.0) * 0.5 * (double)n) % n;
    }
    double exact = 0;
    for (size_t q = 0; q < k; q++) {
      double x = from_bits(j->ha, b * m * k + i * k + q, j->dt);
      double y = from_bits(j->hb, kn ? b * k * n + q * n + c : b * n * k + c * k + q, j->dt);
      exact += x * y;
    }
    uint16_t h[2] = {0, 0}; /* D is f16 or bf16: h[0]; room for from_bits' f32 case */
    size_t at = (b * m * n + i * n + c) * sizeof h[0];
    CK(env->d->cuMemcpyDtoH(h, j->c.p + at, sizeof h[0]));
    double got = from_bits(h, 0, j->dt), d = got - exact;
    if (isnan(d)) {
      *err = INFINITY;
      return 0;
    }
    num += d * d;
    den += exact * exact;
  }
  *err = den > 0 ? sqrt(num / den) : sqrt(num);
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median time of one forced variant, L2 flushed before every rep. */
static int time_variant(kp_ctx *ctx, bench_env *env, job *j, int reps, double *median_us) {
  double t[64];
  if (reps > 64) reps = 64;
  for (int i = 0; i < 2; i++) { /* warm-up: module load, clocks */
    if (job_reset(env, j) || job_run(ctx, env, j) != KP_OK) return -1;
  }
  for (int i = 0; i < reps; i++) {
    if (job_reset(env, j)) return -1;
    if (env->read) {
      unsigned long long n16 = env->flush.bytes / 16;
      void *args[] = {&env->flush.p, &n16, &env->sink.p};
      CK(env->d->cuLaunchKernel(env->read, env->grid, 1, 1, 256, 1, 1, 0, env->stream, args, NULL));
    } else {
      CK(env->d->cuMemsetD8Async(env->flush.p, (unsigned char)i, env->flush.bytes, env->stream));
    }
    CK(env->d->cuEventRecord(env->ev0, env->stream));
    if (job_run(ctx, env, j) != KP_OK) return -1;
    CK(env->d->cuEventRecord(env->ev1, env->stream));
    CK(env->d->cuEventSynchronize(env->ev1));
    float ms;
    CK(env->d->cuEventElapsedTime(&ms, env->ev0, env->ev1));
    t[i] = ms * 1e3;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp_double);
  *median_us = t[reps / 2];
  return 0;
}

/* ---- kp tune --------------------------------------------------------------------- */

static int env_open(bench_env *env, kp_ctx *ctx) {
  memset(env, 0, sizeof *env);
  env->d = ctx->drv;
  env->cu = ctx->cu;
  CK(env->d->cuCtxSetCurrent(env->cu));
  CK(env->d->cuStreamCreate(&env->stream, CU_STREAM_NON_BLOCKING));
  CK(env->d->cuEventCreate(&env->ev0, CU_EVENT_DEFAULT));
  CK(env->d->cuEventCreate(&env->ev1, CU_EVENT_DEFAULT));
  env->flush.bytes = ctx->info.l2_bytes * 2 + (8u << 20);
  CK(env->d->cuMemAlloc(&env->flush.p, env->flush.bytes));
  CK(env->d->cuMemsetD8(env->flush.p, 0, env->flush.bytes));
  env->sink.bytes = 16;
  CK(env->d->cuMemAlloc(&env->sink.p, env->sink.bytes));
  /* the read flush; without it (the driver cannot take the PTX) a memset */
  if (env->d->cuModuleLoadData(&env->mod, kp_flush_read_ptx) == CUDA_SUCCESS &&
      env->d->cuModuleGetFunction(&env->read, env->mod, "kp_flush_read") == CUDA_SUCCESS) {
    env->grid = (unsigned)(ctx->props.sm_count > 0 ? ctx->props.sm_count : 1) * 8;
  } else {
    if (env->mod) env->d->cuModuleUnload(env->mod);
    env->mod = NULL, env->read = NULL;
    fprintf(stderr, "kp: the read flush did not load; L2 flushed by a memset instead\n");
  }
  return 0;
}

static void env_close(bench_env *env) {
  if (!env->d) return;
  buf_free(env, &env->flush);
  buf_free(env, &env->sink);
  if (env->mod) env->d->cuModuleUnload(env->mod);
  env->d->cuEventDestroy(env->ev0);
  env->d->cuEventDestroy(env->ev1);
  env->d->cuStreamDestroy(env->stream);
}

static int named(const char *name, const char *const *only, int n_only) {
  if (!only) return 1;
  for (int i = 0; i < n_only; i++)
    if (!strcmp(only[i], name)) return 1;
  return 0;
}

/* Tune one (family, dtype, shape): every applicable variant, or those named
** in only[0..n_only-1]; returns the number of rows added, -1 on a device error. */
static int tune_one(kp_ctx *ctx, bench_env *env, kp_tune_table *t, const kp_shape *sh, kp_dtype dt,
                    int reps, const char *const *only, int n_only, int *rejected) {
  /* attention: the form kp_attention gives the call on this device (+wave) */
  kp_shape wsh = *sh;
  if (sh->fam == KP_FAM_ATTENTION)
    wsh.form |= kp_attn_wave_bit((uint64_t)sh->dim[KP_ALQ], (uint64_t)sh->dim[KP_ABH],
                                 (uint64_t)sh->dim[KP_AG], ctx->props.sm_count);
  sh = &wsh;
  job j;
  memset(&j, 0, sizeof j);
  j.sh = *sh;
  j.dt = dt;
  int added = 0;
  char labelbuf[48], shape[96];
  const char *label = kp_fam_label(sh->fam, sh->form, labelbuf, sizeof labelbuf);
  kp_shape_text(sh, shape, sizeof shape);
  const kp_call call = kp_shape_call(sh, dt);
  char why[900];
  /* nothing to time (the sm_90a pack has no GEMM variant for B as (k, n) yet,
  ** nor for rows that are not 16-byte multiples): say so, allocate nothing */
  if (kp_select_variant(&ctx->pack, &call, &ctx->props, why, sizeof why) < 0) {
    fprintf(stderr, "\nkp: %s %s %s skipped: %s\n", label, kp_dtype_name(dt), shape, why);
    return 0;
  }
  if (job_alloc(ctx, env, &j)) {
    job_free(env, &j);
    return -1;
  }
  /* A decode call's time depends on where its tensors lie (bench/NOTES.md
  ** 54 i: on H100s the 16-CTA clusters ran batch 1 in 53-55 us on 9 of 56
  ** allocations and 60-62 on the rest, the split-KV kernel the same on
  ** all): its variants are timed on TUNE_ALLOCS allocations, the job's and
  ** fresh ones, and ranked by the median of the three medians. */
  job more[TUNE_ALLOCS - 1];
  memset(more, 0, sizeof more);
  int nmore = 0;
  if (sh->fam == KP_FAM_ATTENTION && sh->dim[KP_ALQ] <= 16)
    for (; nmore < TUNE_ALLOCS - 1; nmore++) {
      more[nmore].sh = *sh;
      more[nmore].dt = dt;
      if (job_alloc(ctx, env, &more[nmore])) {
        job_free(env, &more[nmore]);
        for (int a = 0; a < nmore; a++) job_free(env, &more[a]);
        job_free(env, &j);
        return -1;
      }
    }
  const double tol = tolerance(sh->fam, dt);
  /* reference: the default choice of the selection rule */
  kp_force_variant(-1);
  float *ref = NULL, *ref2 = NULL;
  size_t n = 0, n2 = 0;
  if (job_poison(env, &j) || job_reset(env, &j) || job_run(ctx, env, &j) != KP_OK ||
      !(ref = fetch(env, j.out, dt, &n)) || (j.out2 && !(ref2 = fetch(env, j.out2, dt, &n2)))) {
    fprintf(stderr, "\nkp: %s %s %s: the default variant failed: %s\n", label, kp_dtype_name(dt),
            shape, kp_ctx_errmsg(ctx));
    goto out;
  }
  int def = kp_explain(ctx, &call, why, sizeof why);
  if (sh->fam == KP_FAM_GEMM) {
    double e;
    if (gemm_check_ref(env, &j, &e)) {
      added = -1;
      goto out;
    }
    if (!(e <= tol)) {
      fprintf(stderr, "\nkp: %s %s %s: the default variant %s disagrees with float64 at sampled "
              "outputs (relative error %.3g, limit %.3g): shape skipped\n", label, kp_dtype_name(dt),
              shape, def >= 0 ? ctx->pack.entries[def].name : "?", e, tol);
      (*rejected)++;
      goto out;
    }
  }
  double def_us = 0, best_us = 0;
  const char *best_name = NULL;
  for (uint32_t i = 0; i < ctx->pack.n_entries; i++) {
    const kpk_entry *e = &ctx->pack.entries[i];
    if (!kp_entry_applies(e, &call, &ctx->props, NULL, 0) || !named(e->name, only, n_only)) continue;
    kp_force_variant((int)i);
    size_t m;
    float *o = NULL, *o2 = NULL;
    double err = INFINITY, err2 = 0, us;
    if (job_poison(env, &j) || job_reset(env, &j)) {
      added = -1;
      goto out;
    }
    kp_status st = job_run(ctx, env, &j);
    if (st != KP_OK) { /* a variant that cannot run here says so, and is not timed */
      fprintf(stderr, "\nkp: rejected %s at %s: it failed to run: %s: %s\n", e->name, shape,
              kp_status_name(st), kp_ctx_errmsg(ctx));
      (*rejected)++;
      continue;
    }
    if ((o = fetch(env, j.out, dt, &m))) {
      err = out_err(sh->fam, ref, o, n);
      if (j.out2 && (o2 = fetch(env, j.out2, dt, &m))) err2 = out_err(sh->fam, ref2, o2, n2);
      else if (j.out2) err2 = INFINITY;
    }
    free(o);
    free(o2);
    if (!(err <= tol) || !(err2 <= tol)) {
      fprintf(stderr, "\nkp: rejected %s at %s: differs from the default variant "
              "(relative error %.3g, limit %.3g)\n", e->name, shape, err > err2 ? err : err2, tol);
      (*rejected)++;
      continue;
    }
    if (time_variant(ctx, env, &j, reps, &us)) {
      fprintf(stderr, "\nkp: timing %s failed: %s\n", e->name, kp_ctx_errmsg(ctx));
      continue;
    }
    if (nmore) { /* the median over the allocations */
      double all[TUNE_ALLOCS] = {us};
      int ok = 1;
      for (int a = 0; a < nmore && ok; a++)
        ok = !time_variant(ctx, env, &more[a], reps, &all[a + 1]);
      if (!ok) {
        fprintf(stderr, "\nkp: timing %s failed: %s\n", e->name, kp_ctx_errmsg(ctx));
        continue;
      }
      qsort(all, (size_t)nmore + 1, sizeof all[0], cmp_double);
      us = all[(nmore + 1) / 2];
    }
    kp_tune_row row;
    kp_shape_key(sh, dt, &row);
    snprintf(row.variant, sizeof row.variant, "%s", e->name);
    row.us = us;
    if (kp_tune_add(t, &row) == 0) added++;
    if ((int)i == def) def_us = us;
    if (!best_name || us < best_us) best_us = us, best_name = e->name;
  }
  if (best_name && def_us > 0 && !only)
    printf("%-15s %-4s %-17s default %-36s %9.1f us | best %-36s %9.1f us | %.3fx\n", label,
           kp_dtype_name(dt), shape, ctx->pack.entries[def].name, def_us, best_name, best_us,
           def_us / best_us);
out:
  kp_force_variant(-1);
  free(ref);
  free(ref2);
  for (int a = 0; a < nmore; a++) job_free(env, &more[a]);
  job_free(env, &j);
  return added;
}

kp_bench *kp_bench_open(kp_ctx *ctx) {
  bench_env *env = calloc(1, sizeof *env);
  if (env && env_open(env, ctx)) {
    env_close(env);
    free(env);
    env = NULL;
  }
  return env;
}

void kp_bench_close(kp_bench *b) {
  if (!b) return;
  env_close(b);
  free(b);
}

int kp_bench_shape(kp_ctx *ctx, kp_bench *b, kp_tune_table *t, const kp_shape *sh, kp_dtype dt,
                   const char *const *only, int n_only, int reps, int *rejected) {
  return tune_one(ctx, b, t, sh, dt, reps < 3 ? 3 : reps, only, n_only, rejected);
}

static const char usage_tune[] =
    "usage: kp tune [-o TABLE] [--device N] [--families a,b] [--dtypes bf16,...]\n"
    "               [--shapes FILE] [--time-budget SECONDS] [--reps N] [--shard I/N]\n"
    "               [--devices 0,1,..] [--queue FILE] [--list] [-q]\n"
    "Time every applicable variant of each family, dtype and shape on GPU N (those\n"
    "the ranking keeps for calls off the 16-byte grid on aligned calls too)\n"
    "(median of --reps runs, default 15, L2 flushed by a read before each), reject variants\n"
    "whose output differs from the default variant's, and write the table\n"
    "(default <cache dir>/<target>.<device>.tune; an existing table there of the\n"
    "same device is merged into, one of another device is never overwritten)\n"
    "after every task: a tune stopped part way keeps what it measured.\n"
    "Shapes: built-in LLM-typical ones, or FILE with a shape per line: the family\n"
    "and its dims in its order -- 'softmax ROWS COLS', 'gemm M N K [BATCH]',\n"
    "'attention LQ LK BH D [G]' (BH = batch x query heads, G = query heads per\n"
    "KV head, default 1) -- ('*' for every row family).\n"
    "GeGLU, RoPE, GEMM and attention shapes are tuned in each form (erf and tanh,\n"
    "neox and gptj, B as (n,k) and (k,n), full and causal) unless the line\n"
    "names one: 'gemm/nk 128 4096 4096', 'geglu/tanh 4096 8192'; the table's\n"
    "rows say which.  Attention's decode shapes are also timed with a split-KV\n"
    "workspace ('attention/full+ws 1 32768 256 128 4': the calls that give one\n"
    "key on those rows; where a decode call's tiles fit one wave of 16-CTA clusters\n"
    "on this GPU, kp_attention adds '+wave' to its form, and so do the rows);\n"
    "decode shapes (LQ <= 16) are timed on 3 allocations of their tensors and\n"
    "ranked by the median (their time depends on where the tensors lie).\n"
    "GEMM and attention are tuned in f16 and bf16 only (GEMM:\n"
    "A, B random, D = A B; attention: one batch of BH query heads over BH / G KV\n"
    "heads, packed).\n"
    "--list prints the tasks and their table keys, and exits (no GPU needed;\n"
    "a decode row says on how many SMs its key takes '+wave').\n"
    "--shard I/N tunes every N-th task starting at I, for one process per GPU;\n"
    "merge the tables with `kp merge`.  --devices 0,1,.. does that for you: one\n"
    "process per listed GPU (of one kind), tables merged; the processes take\n"
    "tasks from one queue (--queue FILE: a counter, 0 at the start, that every\n"
    "process sharing FILE takes the next task from).\n"
    "It times the variants the pack holds: make's cubin packs for sm_80, sm_86,\n"
    "sm_89 and sm_120 hold the ranking's picks alone (RANKED_ARCHS); to tune over\n"
    "the whole space on those GPUs, build them whole first: make RANKED_ARCHS=\n"
    "Progress (done/total, elapsed, ETA, the task) goes to stderr: one line on a\n"
    "terminal, plain lines in a log; -q leaves it out.\n";

static int parse_common(int argc, char **argv, tune_opts *o, const char *usage) {
  memset(o, 0, sizeof *o);
  o->reps = 15;
  o->nshards = 1;
  o->budget_s = 1e9;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && (i++, 1))
    if (OPT("-o")) o->out = v;
    else if (OPT("--device")) o->device = atoi(v);
    else if (OPT("--devices")) o->devices = v;
    else if (OPT("--families")) o->families = v;
    else if (OPT("--dtypes")) o->dtypes = v;
    else if (OPT("--shapes")) o->shapes = v;
    else if (OPT("--time-budget")) o->budget_s = atof(v);
    else if (OPT("--reps")) o->reps = atoi(v);
    else if (OPT("--pack")) o->pack = v;
    else if (OPT("--tune")) o->tune = v;
    else if (OPT("--queue")) o->queue = v;
    else if (!strcmp(a, "--list")) o->list = 1;
    else if (!strcmp(a, "-q")) o->quiet = 1;
    else if (OPT("--shard")) {
      if (sscanf(v, "%d/%d", &o->shard, &o->nshards) != 2 || o->nshards < 1 || o->shard < 0 ||
          o->shard >= o->nshards) {
        fprintf(stderr, "kp: --shard %s: expected I/N with 0 <= I < N\n%s", v, usage);
        return -1;
      }
    } else {
      fprintf(stderr, "kp: unknown or incomplete option '%s'\n%s", a, usage);
      return -1;
    }
#undef OPT
  }
  if (o->reps < 3) o->reps = 3;
  return 0;
}

/* --devices a,b,..: run this command once per GPU (--device d --queue
** OUT.queue -o OUT.partk), wait for all, merge the tables into OUT. */
static int tune_devices(int argc, char **argv, const tune_opts *o) {
  int devs[64], n = 0;
  for (const char *p = o->devices; *p && n < 64;) {
    devs[n++] = atoi(p);
    p += strcspn(p, ",");
    if (*p) p++;
  }
  char out[700];
  if (!o->out) return fprintf(stderr, "kp tune: --devices needs -o TABLE\n%s", usage_tune), 2;
  snprintf(out, sizeof out, "%s", o->out);
  char exe[512];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return fprintf(stderr, "kp tune: cannot find the kp binary\n"), 1;
  exe[len] = 0;
  pid_t pids[64];
  char parts[64][720], queue[720];
  snprintf(queue, sizeof queue, "%s.queue", out);
  FILE *q = fopen(queue, "w");
  if (!q || fputs("0\n", q) < 0 || fclose(q))
    return fprintf(stderr, "kp tune: %s: cannot write the task queue\n", queue), 1;
  for (int k = 0; k < n; k++) {
    snprintf(parts[k], sizeof parts[k], "%s.part%d", out, k);
    pids[k] = fork();
    if (pids[k] == 0) {
      char dev[16];
      snprintf(dev, sizeof dev, "%d", devs[k]);
      char *av[128];
      int ac = 0;
      av[ac++] = exe;
      av[ac++] = "tune";
      for (int i = 1; i < argc && ac < 118; i++) { /* drop --devices/-o/--device/--shard/--queue */
        if (!strcmp(argv[i], "--devices") || !strcmp(argv[i], "-o") || !strcmp(argv[i], "--device") ||
            !strcmp(argv[i], "--shard") || !strcmp(argv[i], "--queue")) {
          i++;
          continue;
        }
        av[ac++] = argv[i];
      }
      av[ac++] = "--device", av[ac++] = dev;
      av[ac++] = "--queue", av[ac++] = queue;
      av[ac++] = "-o", av[ac++] = parts[k];
      av[ac] = NULL;
      setenv("KP_PROGRESS_PLAIN", "1", 1); /* N shards share the terminal: plain lines */
      execv(exe, av);
      _exit(127);
    }
  }
  int failed = 0;
  for (int k = 0; k < n; k++) {
    int st = 0;
    waitpid(pids[k], &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
      fprintf(stderr, "kp tune: the process for GPU %d failed\n", devs[k]);
      failed = 1;
    }
  }
  char *margv[70];
  int mc = 0;
  margv[mc++] = "merge", margv[mc++] = "-o", margv[mc++] = out;
  for (int k = 0; k < n; k++)
    if (access(parts[k], R_OK) == 0) margv[mc++] = parts[k];
  int rc = mc > 3 ? kp_cmd_merge(mc, margv) : 1;
  for (int k = 0; k < n; k++) unlink(parts[k]);
  unlink(queue);
  return rc || failed;
}

/* Is (shape, dtype) a task of this run?  Filters, and dtypes the family takes. */
static int wanted(const tune_opts *o, const kp_shape *sh, int dt) {
  return kp_in_list(o->families, kp_family_name(sh->fam)) &&
         kp_in_list(o->dtypes, kp_dtype_name((kp_dtype)dt)) && kp_shape_dtype_ok(sh->fam, (kp_dtype)dt);
}

/* Say once per family which wanted dtypes it does not take (GEMM: f32). */
static void note_skipped(const tune_opts *o, const kp_shape *shapes, int ns) {
  for (int f = 0; f < KP_FAM_COUNT; f++)
    for (int dt = 0; dt < KP_DTYPE_COUNT_; dt++) {
      int hit = 0;
      for (int k = 0; k < ns && !hit; k++)
        hit = shapes[k].fam == (kp_family)f && kp_in_list(o->families, kp_family_name((kp_family)f)) &&
              kp_in_list(o->dtypes, kp_dtype_name((kp_dtype)dt)) && !kp_shape_dtype_ok((kp_family)f, (kp_dtype)dt);
      if (hit)
        fprintf(stderr, "kp tune: %s takes no %s inputs: %s skipped for %s\n",
                kp_family_name((kp_family)f), kp_dtype_name((kp_dtype)dt), kp_dtype_name((kp_dtype)dt),
                kp_family_name((kp_family)f));
    }
}

/* at most this many shapes (a shapes file's lines, or the built-in list) */
#define TUNE_MAX_SHAPES 4096

/* ---- which tasks this process takes ----------------------------------------------
** Every N-th from I (--shard I/N), or with --queue FILE (what --devices
** passes) the next task no process has taken yet: a counter in FILE, taken
** under flock, so that the processes finish together whatever the tasks
** cost (a static split of 27 RMSNorm tasks kept one H200 busy 49.1 s and
** the other 31.6 s, 2026-11-26). */
typedef struct task_pick {
  const tune_opts *o;
  int fd;   /* the queue, or -1 */
  int next; /* the task this process has taken and not reached; -1: take one */
} task_pick;

/* The counter's value, then one more; INT_MAX on any error (take no more). */
static int queue_take(int fd) {
  char buf[32] = "";
  int v = INT_MAX;
  if (flock(fd, LOCK_EX)) return INT_MAX;
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n > 0 && sscanf(buf, "%d", &v) == 1 && v >= 0 && v < INT_MAX) {
    int len = snprintf(buf, sizeof buf, "%d\n", v + 1);
    if (pwrite(fd, buf, (size_t)len, 0) != len || ftruncate(fd, len)) v = INT_MAX;
  } else {
    v = INT_MAX;
  }
  flock(fd, LOCK_UN);
  return v;
}

static int pick_open(task_pick *p, const tune_opts *o) {
  p->o = o, p->fd = -1, p->next = -1;
  if (!o->queue) return 0;
  p->fd = open(o->queue, O_RDWR);
  if (p->fd < 0) return fprintf(stderr, "kp tune: --queue %s: cannot open it\n", o->queue), -1;
  return 0;
}

static void pick_close(task_pick *p) {
  if (p->fd >= 0) close(p->fd);
}

/* The wanted (shape, dtype) tasks in the order they are handed out: the
** shapes file's order, but with a queue the costliest first (kp_shape_cost),
** so that the processes end together: in the file's order
** the last, largest RMSNorm shapes fell to one process, which ran 53.3 s
** while the other had stopped at 34.5 s (two H200s, 2026-11-26). */
typedef struct tune_task {
  int k, dt;
  double cost;
} tune_task;

static int task_cmp(const void *a, const void *b) {
  const tune_task *x = a, *y = b;
  if (x->cost != y->cost) return x->cost < y->cost ? 1 : -1;
  return x->k != y->k ? (x->k < y->k ? -1 : 1) : (x->dt > y->dt) - (x->dt < y->dt);
}

static int task_list(const tune_opts *o, const kp_shape *shapes, int ns, tune_task *t) {
  int n = 0;
  for (int k = 0; k < ns; k++)
    for (int dt = 0; dt < KP_DTYPE_COUNT_; dt++)
      if (wanted(o, &shapes[k], dt))
        t[n].k = k, t[n].dt = dt,
        t[n++].cost = kp_shape_cost(&shapes[k], (kp_dtype)dt);
  if (o->queue) qsort(t, (size_t)n, sizeof *t, task_cmp);
  return n;
}

/* Does this process run task idx (the idx-th task of task_list)? */
static int pick_mine(task_pick *p, int idx) {
  if (p->fd < 0) return idx % p->o->nshards == p->o->shard;
  if (p->next < 0) p->next = queue_take(p->fd); /* > every index taken before */
  if (idx != p->next) return 0;
  p->next = -1;
  return 1;
}

/* --list: this shard's tasks and the table key each one's rows get. */
static int list_tasks(const tune_opts *o, const kp_shape *shapes, int ns) {
  int n = 0;
  static tune_task tasks[TUNE_MAX_SHAPES * KP_DTYPE_COUNT_];
  const int ntask = task_list(o, shapes, ns, tasks);
  task_pick pick;
  if (pick_open(&pick, o)) return 1;
  for (int idx = 0; idx < ntask; idx++) {
    const int k = tasks[idx].k, dt = tasks[idx].dt;
    if (!pick_mine(&pick, idx)) continue;
    kp_tune_row row;
    kp_shape_key(&shapes[k], (kp_dtype)dt, &row);
    kp_call key = kp_shape_call(&shapes[k], (kp_dtype)dt);
    memcpy(key.dim, row.dim, sizeof key.dim);
    char label[48], shape[96], keytext[96], wave[48] = "";
    const char *form = kp_form_name(row.family, row.form);
    /* a decode row's key takes +wave on a GPU whose SMs hold its tiles'
    ** clusters (tune_one, kp_attn_wave_bit): no device here, so the SMs */
    const kp_shape *sh = &shapes[k];
    const uint64_t sms = sh->fam == KP_FAM_ATTENTION
                             ? kp_attn_wave_sms(sh->dim[KP_ALQ], sh->dim[KP_ABH], sh->dim[KP_AG])
                             : 0;
    if (sms) snprintf(wave, sizeof wave, " (+wave on >= %llu SMs)", (unsigned long long)sms);
    printf("%-15s %-4s %-20s key %s %s %s %u%s%s%s\n",
           kp_fam_label(shapes[k].fam, shapes[k].form, label, sizeof label),
           kp_dtype_name((kp_dtype)dt), kp_shape_text(&shapes[k], shape, sizeof shape), row.family,
           kp_dtype_name(row.dtype), kp_shape_str(&key, keytext, sizeof keytext), row.align,
           form ? " " : "", form ? form : "", wave);
    n++;
  }
  printf("kp tune: %d tasks%s\n", n, o->nshards > 1 || o->queue ? " (this shard)" : "");
  pick_close(&pick);
  return 0;
}

/* Write t to *out, merged with the table already there (a table of another
** device is kept: ours goes beside it as <out>.new, and *out says so from
** then on).  Called after every task, so a tune stopped part way (a
** timeout, a signal, a device error) leaves what it measured on disk; the
** merge keeps each (key, variant)'s fastest time, so saving twice adds
** nothing twice.  0 on success, else a line on stderr. */
static int save_table(kp_tune_table *t, char *out, size_t outlen) {
  kp_tune_table old;
  char err[800];
  if (access(out, R_OK) == 0 && kp_tune_load(&old, out, err, sizeof err) == KP_OK) {
    if (kp_tune_merge(t, &old, err, sizeof err) != KP_OK) {
      /* another device's table: keep it, write ours beside it */
      fprintf(stderr, "kp tune: %s: not replacing it\n", err);
      size_t l = strlen(out);
      snprintf(out + l, outlen - l, ".new");
    }
    kp_tune_free(&old);
  }
  if (kp_tune_save(t, out, err, sizeof err) != KP_OK) {
    fprintf(stderr, "kp tune: %s\n", err);
    return -1;
  }
  return 0;
}

int kp_cmd_tune(int argc, char **argv) {
  tune_opts o;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return fputs(usage_tune, stdout), 0;
  if (parse_common(argc, argv, &o, usage_tune)) return 2;
  setvbuf(stdout, NULL, _IOLBF, 0); /* a task's line as it ends, into a log file too */
  static kp_shape shapes[TUNE_MAX_SHAPES];
  int ns = o.shapes ? kp_read_shapes(o.shapes, shapes, TUNE_MAX_SHAPES)
                    : kp_builtin_shapes(shapes, TUNE_MAX_SHAPES);
  if (ns < 0) return 1;
  note_skipped(&o, shapes, ns);
  if (o.list) return list_tasks(&o, shapes, ns);
  if (o.devices) return tune_devices(argc, argv, &o);
  kp_options opt;
  kp_options_init(&opt);
  opt.device = o.device;
  opt.pack_path = o.pack;
  kp_ctx *ctx = NULL;
  kp_status s = kp_ctx_create(&opt, &ctx);
  if (s != KP_OK) {
    fprintf(stderr, "kp tune: %s: %s\n", kp_status_name(s), kp_ctx_errmsg(ctx));
    kp_ctx_destroy(ctx);
    return 1;
  }
  if (ctx->tune) { /* references come from the ranking's picks, not an old table's */
    kp_tune_free(ctx->tune);
    free(ctx->tune);
    ctx->tune = NULL;
  }
  ctx->autotune = 0; /* ($KP_AUTOTUNE) the reference run must not time variants itself */
  bench_env envs, *env = &envs;
  kp_tune_table t;
  memset(&t, 0, sizeof t);
  kp_tune_set_meta(&t, &ctx->info, &ctx->pack);
  char out[700];
  if (o.out) snprintf(out, sizeof out, "%s", o.out);
  else {
    char dir[600];
    kp_jit_cache_dir(dir, sizeof dir);
    char name[200];
    kp_tune_default_name(ctx->info.target, ctx->info.name, name, sizeof name);
    kp_mkdirs(dir);
    snprintf(out, sizeof out, "%s/%s", dir, name);
  }
  int rc = 1;
  if (env_open(env, ctx)) goto done;
  /* the task list (shapes x dtypes); pick_mine says which are this process's */
  int done_tasks = 0, rejected = 0, rows_added = 0;
  static tune_task tasks[TUNE_MAX_SHAPES * KP_DTYPE_COUNT_];
  const int ntask = task_list(&o, shapes, ns, tasks);
  /* (with a queue: the tasks of all processes, and progress counts them all) */
  const int mine = o.queue ? ntask : (ntask - o.shard + o.nshards - 1) / o.nshards;
  double t0 = kp_now_s();
  int finished = 0;
  task_pick pick;
  if (pick_open(&pick, &o)) goto done;
  kp_progress prog;
  kp_progress_init(&prog, stderr, "kp tune", mine, o.quiet);
  fprintf(stderr, "kp tune: %s (sm_%d), pack %s, %d tasks%s -> %s\n", ctx->info.name,
          ctx->info.sm, ctx->pack.path, mine,
          o.queue ? " (all processes: a queue)" : o.nshards > 1 ? " (this shard)" : "", out);
  for (int idx = 0; idx < ntask; idx++) {
    const int k = tasks[idx].k, dt = tasks[idx].dt;
    if (!pick_mine(&pick, idx)) continue;
    double el = kp_now_s() - t0;
    if (el > o.budget_s) {
      kp_progress_break(&prog);
      fprintf(stderr, "kp tune: time budget of %.0f s reached after %d of %d tasks\n",
              o.budget_s, done_tasks, mine);
      goto save;
    }
    char label[48], shape[96];
    kp_progress_show(&prog, o.queue ? idx : done_tasks, "%s %s %s",
                     kp_fam_label(shapes[k].fam, shapes[k].form, label, sizeof label),
                     kp_dtype_name((kp_dtype)dt), kp_shape_text(&shapes[k], shape, sizeof shape));
    int a = tune_one(ctx, env, &t, &shapes[k], (kp_dtype)dt, o.reps, NULL, 0, &rejected);
    if (a < 0) {
      kp_progress_break(&prog);
      fprintf(stderr, "kp tune: device error; saving what was measured\n");
      goto save;
    }
    rows_added += a;
    done_tasks++;
    if (save_table(&t, out, sizeof out)) goto done; /* (what is measured so far) */
  }
  finished = 1;
save:
  pick_close(&pick);
  if (finished) kp_progress_show(&prog, mine, "done");
  kp_progress_break(&prog);
  fprintf(stderr, "kp tune: %d tasks, %d measurements, %d variants rejected, %.1f s\n",
          done_tasks, rows_added, rejected, kp_now_s() - t0);
  if (save_table(&t, out, sizeof out) == 0) rc = 0;
done:
  env_close(env);
  kp_tune_free(&t);
  kp_ctx_destroy(ctx);
  return rc;
}
