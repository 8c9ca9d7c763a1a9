/*
** kpbench.c -- memory-bandwidth benchmark of every kernpack op (llm.c style).
**
** For each dtype (bf16 first), op and shape: fill inputs with random non-zero
** data, run the op once and compare a few rows with a float64 CPU reference,
** warm up, then time many repetitions with CUDA events recorded around the
** op alone; L2 is flushed before each repetition by reading a scratch buffer
** >= 2x L2 (kp_flush_read, runtime/tune.c; a memset where it cannot load),
** outside the timed region.  Reports the median.
**
**   bytes  = every input read once + every output written once
**   GB/s   = bytes / median time;  % of copy = vs a 1 GiB device-to-device
**            cuMemcpyDtoDAsync measured in the same run (bytes read + written)
**
** Also measures per-call host overhead: N back-to-back kp_rmsnorm calls
** (128x4096 bf16) vs N raw cuLaunchKernel calls of an empty PTX kernel with a
** similar argument list, wall clock on the host (CLOCK_MONOTONIC).
**
** Every line "RESULT k=v ..." is machine-readable; the output ends with a
** compact summary table.  Exit status: 0 all ok, 1 a failure, 2 a reference
** mismatch (and nothing failed).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver.h"
#include "internal.h"
#include "tune.h"
#include "kernpack.h"

/* ---- globals of this one-shot program ------------------------------------ */
static const kp_driver *D;
static kp_ctx *CTX;
static CUstream STREAM;
static CUdeviceptr FLUSH;     /* L2 flush scratch buffer */
static CUdeviceptr FLUSH_SINK; /* the read flush's (never written) result */
static CUfunction FLUSH_FN;    /* the read flush (runtime/tune.c), or NULL: a memset */
static unsigned FLUSH_GRID;
static size_t FLUSH_BYTES;
static int KEEP_GOING;        /* a failing op call skips the case instead of exiting */

#define MAX_REPS 1000
static CUevent EV0[MAX_REPS], EV1[MAX_REPS];

static const float EPS = 1e-6f;
/* rope: (tokens, heads, head_dim), NeoX, rot_dim = head_dim */
enum { ROPE_HQ = 32, ROPE_HK = 8, ROPE_D = 128 };
static const float ROPE_THETA = 10000.0f;

/* ---- error checks ---------------------------------------------------------- */
#define CU(call) cu_check((call), #call, __LINE__)
static void cu_check(CUresult r, const char *what, int line) {
  if (r == CUDA_SUCCESS) return;
  char t[256];
  kp_driver_errtext(D, r, t, sizeof t);
  fprintf(stderr, "kpbench.c:%d: %s failed: %s\n", line, what, t);
  fflush(stdout);
  exit(1);
}

#define KP(call) kp_check((call), #call, __LINE__)
static void kp_check(kp_status s, const char *what, int line) {
  if (s == KP_OK) return;
  fprintf(stderr, "kpbench.c:%d: %s failed: %s: %s\n", line, what, kp_status_name(s),
          CTX ? kp_ctx_errmsg(CTX) : "(no context)");
  fflush(stdout);
  exit(1);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "kpbench: out of host memory (%zu bytes)\n", n);
    exit(1);
  }
  return p;
}

static CUdeviceptr dalloc(size_t bytes) {
  CUdeviceptr p = 0;
  CU(D->cuMemAlloc(&p, bytes ? bytes : 16));
  return p;
}

static void dfree(CUdeviceptr *p) {
  if (*p) CU(D->cuMemFree(*p));
  *p = 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *P(CUdeviceptr p) { return (void *)(uintptr_t)p; }

/* ---- fp16 / bf16 conversion (round to nearest even) ----------------------- */
static uint16_t f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40); /* NaN */
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

static float bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static uint16_t f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u));
  if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520 rounds to inf */
  if (ax < 0x38800000u) {                                     /* below 2^-14: subnormal */
    if (ax < 0x33000000u) return (uint16_t)sign;              /* <= 2^-25: zero */
    uint32_t e = ax >> 23, m = (ax & 0x7fffffu) | 0x800000u, shift = 126u - e;
    uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (hm & 1u))) hm++;
    return (uint16_t)(sign | hm);
  }
  uint32_t h = (ax >> 13) - (112u << 10), rem = ax & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
  return (uint16_t)(sign | h);
}

static float f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0) {
    float f = ldexpf((float)m, -24);
    return sign ? -f : f;
  }
  if (e == 31) x = sign | 0x7f800000u | (m << 13);
  else x = sign | ((e + 112u) << 23) | (m << 13);
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static void store_elem(void *buf, kp_dtype dt, size_t i, float v) {
  if (dt == KP_F32) ((float *)buf)[i] = v;
  else if (dt == KP_F16) ((uint16_t *)buf)[i] = f32_to_f16(v);
  else ((uint16_t *)buf)[i] = f32_to_bf16(v);
}

static double load_elem(const void *buf, kp_dtype dt, size_t i) {
  if (dt == KP_F32) return ((const float *)buf)[i];
  if (dt == KP_F16) return f16_to_f32(((const uint16_t *)buf)[i]);
  return bf16_to_f32(((const uint16_t *)buf)[i]);
}

/* the value as the kernel stores it in dt */
static double round_dt(kp_dtype dt, double v) {
  uint16_t h;
  if (dt == KP_F32) return (float)v;
  if (dt == KP_F16) {
    h = f32_to_f16((float)v);
    return f16_to_f32(h);
  }
  h = f32_to_bf16((float)v);
  return bf16_to_f32(h);
}

/* ---- random data ------------------------------------------------------------ */
static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* magnitude uniform in [lo, hi] (lo > 0: never zero), random sign if sgn */
static float rng_value(float lo, float hi, int sgn) {
  uint64_t r = rng_next();
  float u = (float)(r >> 40) * (1.0f / 16777216.0f);
  float m = lo + (hi - lo) * u;
  return (sgn && (r & 1u)) ? -m : m;
}

/* Fill n elements of dt at d: FILL_CHUNK random values made on the host, the
** rest of a larger buffer repeats them (device-to-device, doubling). */
#define FILL_CHUNK ((size_t)1 << 22)
static void fill_device(CUdeviceptr d, size_t n, kp_dtype dt, float lo, float hi, int sgn) {
  size_t es = kp_dtype_size(dt), m = n < FILL_CHUNK ? n : FILL_CHUNK;
  void *h = xmalloc(m * es);
  for (size_t i = 0; i < m; i++) store_elem(h, dt, i, rng_value(lo, hi, sgn));
  CU(D->cuMemcpyHtoD(d, h, m * es));
  CU(D->cuCtxSynchronize()); /* the pageable copy is complete before `stream` reads it */
  for (size_t done = m; done < n;) {
    size_t k = done < n - done ? done : n - done;
    CU(D->cuMemcpyDtoDAsync(d + done * es, d, k * es, STREAM));
    done += k;
  }
  CU(D->cuStreamSynchronize(STREAM));
  free(h);
}

/* ---- ops, dtypes, shapes ---------------------------------------------------- */
typedef enum {
  OP_SOFTMAX, OP_RMSNORM, OP_ADD_RMSNORM, OP_SWIGLU, OP_GEGLU_TANH, OP_GEGLU_ERF,
  OP_RMSNORM_SWIGLU, OP_ROPE_CS, OP_ROPE_POS, OP_COUNT
} op_id;

static const struct {
  const char *name, *family;
  int gated; /* swiglu-type: LLM shape 4096x11008 (cols of the output) */
  int rope;
} OPS[OP_COUNT] = {
  {"softmax", "softmax", 0, 0},
  {"rmsnorm", "rmsnorm", 0, 0},
  {"add_rmsnorm", "add_rmsnorm", 0, 0},
  {"swiglu", "swiglu", 1, 0},
  {"geglu_tanh", "geglu", 1, 0},
  {"geglu_erf", "geglu", 1, 0},
  {"rmsnorm_swiglu", "rmsnorm_swiglu", 1, 0},
  {"rope_cs", "rope", 0, 1},  /* NeoX, cos/sin tables given */
  {"rope_pos", "rope", 0, 1}, /* NeoX, angles computed from the token index */
};

enum { SH_SMALL, SH_LLM, SH_LARGE, SH_COUNT };
static const char *const SHAPE_NAMES[SH_COUNT] = {"small", "llm", "large"};

static const kp_dtype DTYPES[3] = {KP_BF16, KP_F16, KP_F32};

/* row ops: (rows, cols) of y (swiglu-type: inputs are 2 x that); rope: rows = tokens */
static void shape_of(int op, int sh, int64_t *rows, int64_t *cols) {
  static const int64_t R[SH_COUNT] = {128, 4096, 32768}, T[SH_COUNT] = {128, 4096, 16384};
  static const int64_t C[SH_COUNT] = {4096, 4096, 8192}, CG[SH_COUNT] = {4096, 11008, 8192};
  if (OPS[op].rope) {
    *rows = T[sh];
    *cols = ROPE_D;
  } else {
    *rows = R[sh];
    *cols = OPS[op].gated ? CG[sh] : C[sh];
  }
}

typedef struct bcase {
  int op, sh;
  kp_dtype dt;
  size_t es;
  int64_t rows, cols;
  size_t na, nb, nw, ny;      /* elements of a, b, w, y */
  size_t row_a, row_b, row_y; /* elements per row (rope: per token) */
  CUdeviceptr a, b, w, y;     /* a: x | gate | q;  b: residual | up | k */
  CUdeviceptr dcos, dsin;     /* rope_cs: f32 (tokens, rot/2) */
  float *hcos, *hsin;
  kp_rope_desc rd;
  double bytes;
  char label[40];
} bcase;

static void case_setup(bcase *c, int op, kp_dtype dt, int sh) {
  memset(c, 0, sizeof *c);
  c->op = op;
  c->sh = sh;
  c->dt = dt;
  c->es = kp_dtype_size(dt);
  shape_of(op, sh, &c->rows, &c->cols);
  size_t R = (size_t)c->rows, C = (size_t)c->cols;
  switch (op) {
  case OP_SOFTMAX: c->row_a = C; break;
  case OP_RMSNORM: c->row_a = C; c->nw = C; break;
  case OP_ADD_RMSNORM: c->row_a = c->row_b = C; c->nw = C; break;
  case OP_SWIGLU: case OP_GEGLU_TANH: case OP_GEGLU_ERF: c->row_a = c->row_b = C; break;
  case OP_RMSNORM_SWIGLU: c->row_a = 2 * C; c->nw = 2 * C; break;
  default: c->row_a = (size_t)ROPE_HQ * ROPE_D; c->row_b = (size_t)ROPE_HK * ROPE_D; break;
  }
  c->row_y = OPS[op].rope ? 0 : C;
  c->na = R * c->row_a;
  c->nb = R * c->row_b;
  c->ny = R * c->row_y;

  if (c->na) {
    c->a = dalloc(c->na * c->es);
    fill_device(c->a, c->na, dt, 0.05f, 1.0f, 1);
  }
  if (c->nb) {
    c->b = dalloc(c->nb * c->es);
    fill_device(c->b, c->nb, dt, 0.05f, 1.0f, 1);
  }
  if (c->nw) { /* weights around 1 */
    c->w = dalloc(c->nw * c->es);
    fill_device(c->w, c->nw, dt, 0.5f, 1.5f, 0);
  }
  if (c->ny) c->y = dalloc(c->ny * c->es);

  /* each input read once, each output written once */
  double e = (double)c->es;
  switch (op) {
  case OP_SOFTMAX: c->bytes = e * (double)(c->na + c->ny); break;
  case OP_RMSNORM: c->bytes = e * (double)(c->na + c->nw + c->ny); break;
  case OP_ADD_RMSNORM: c->bytes = e * (double)(2 * c->na + 2 * c->nb + c->nw); break;
  case OP_RMSNORM_SWIGLU: c->bytes = e * (double)(c->na + c->nw + c->ny); break;
  case OP_ROPE_CS: case OP_ROPE_POS: c->bytes = 2.0 * e * (double)(c->na + c->nb); break;
  default: c->bytes = e * (double)(c->na + c->nb + c->ny); break;
  }

  if (OPS[op].rope) {
    kp_rope_desc *d = &c->rd;
    d->tokens = c->rows;
    d->heads_q = ROPE_HQ;
    d->heads_k = ROPE_HK;
    d->head_dim = ROPE_D;
    d->rot_dim = ROPE_D;
    d->q_stride_token = ROPE_HQ * ROPE_D;
    d->q_stride_head = ROPE_D;
    d->k_stride_token = ROPE_HK * ROPE_D;
    d->k_stride_head = ROPE_D;
    d->layout = KP_ROPE_NEOX;
    d->theta = ROPE_THETA;
    d->positions = NULL;
    if (op == OP_ROPE_CS) {
      size_t half = ROPE_D / 2, n = R * half;
      c->hcos = xmalloc(n * sizeof(float));
      c->hsin = xmalloc(n * sizeof(float));
      for (size_t t = 0; t < R; t++)
        for (size_t i = 0; i < half; i++) {
          double ang = (double)t * pow(ROPE_THETA, -2.0 * (double)i / ROPE_D);
          c->hcos[t * half + i] = (float)cos(ang);
          c->hsin[t * half + i] = (float)sin(ang);
        }
      c->dcos = dalloc(n * sizeof(float));
      c->dsin = dalloc(n * sizeof(float));
      CU(D->cuMemcpyHtoD(c->dcos, c->hcos, n * sizeof(float)));
      CU(D->cuMemcpyHtoD(c->dsin, c->hsin, n * sizeof(float)));
      CU(D->cuCtxSynchronize());
      d->cos = P(c->dcos);
      d->sin = P(c->dsin);
      d->cs_stride = (int64_t)half;
      c->bytes += 2.0 * (double)n * sizeof(float);
    }
    snprintf(c->label, sizeof c->label, "%lldx(%d+%d)x%d", (long long)c->rows, ROPE_HQ, ROPE_HK,
             ROPE_D);
  } else if (op == OP_RMSNORM_SWIGLU) { /* x: (rows, 2*cols) -> y: (rows, cols) */
    snprintf(c->label, sizeof c->label, "%lldx%lld->%lld", (long long)c->rows,
             2 * (long long)c->cols, (long long)c->cols);
  } else {
    snprintf(c->label, sizeof c->label, "%lldx%lld", (long long)c->rows, (long long)c->cols);
  }
}

static void case_free(bcase *c) {
  dfree(&c->a);
  dfree(&c->b);
  dfree(&c->w);
  dfree(&c->y);
  dfree(&c->dcos);
  dfree(&c->dsin);
  free(c->hcos);
  free(c->hsin);
  c->hcos = c->hsin = NULL;
}

static kp_status run_op(const bcase *c) {
  int64_t R = c->rows, C = c->cols;
  void *s = (void *)STREAM;
  switch (c->op) {
  case OP_SOFTMAX: return kp_softmax(CTX, c->dt, P(c->a), C, P(c->y), C, R, C, s);
  case OP_RMSNORM: return kp_rmsnorm(CTX, c->dt, P(c->a), C, P(c->w), P(c->y), C, R, C, EPS, s);
  case OP_ADD_RMSNORM:
    return kp_add_rmsnorm(CTX, c->dt, P(c->a), C, P(c->b), C, P(c->w), P(c->y), C, R, C, EPS, s);
  case OP_SWIGLU: return kp_swiglu(CTX, c->dt, P(c->a), P(c->b), C, P(c->y), C, R, C, s);
  case OP_GEGLU_TANH:
    return kp_geglu(CTX, c->dt, KP_GELU_TANH, P(c->a), P(c->b), C, P(c->y), C, R, C, s);
  case OP_GEGLU_ERF:
    return kp_geglu(CTX, c->dt, KP_GELU_ERF, P(c->a), P(c->b), C, P(c->y), C, R, C, s);
  case OP_RMSNORM_SWIGLU:
    return kp_rmsnorm_swiglu(CTX, c->dt, P(c->a), 2 * C, P(c->w), P(c->y), C, R, C, EPS, s);
  default: return kp_rope(CTX, c->dt, P(c->a), P(c->b), &c->rd, s);
  }
}

/* ---- reference check on the first and last CHECK_ROWS rows ----------------- */
#define CHECK_ROWS 32

typedef struct rowset {
  int64_t r0[2], n[2]; /* two row ranges */
  int count;
  size_t total;        /* rows in all ranges */
} rowset;

static rowset rows_to_check(int64_t rows) {
  rowset s;
  memset(&s, 0, sizeof s);
  s.r0[0] = 0;
  s.n[0] = rows < CHECK_ROWS ? rows : CHECK_ROWS;
  s.count = 1;
  if (rows > CHECK_ROWS) {
    int64_t start = rows - CHECK_ROWS > CHECK_ROWS ? rows - CHECK_ROWS : CHECK_ROWS;
    s.r0[1] = start;
    s.n[1] = rows - start;
    s.count = 2;
  }
  for (int i = 0; i < s.count; i++) s.total += (size_t)s.n[i];
  return s;
}

/* the rows of `rs` of a (rows, row_elems) tensor, as doubles; NULL if row_elems is 0 */
static double *read_rows(CUdeviceptr base, const rowset *rs, size_t row_elems, kp_dtype dt) {
  if (!base || !row_elems) return NULL;
  size_t es = kp_dtype_size(dt);
  double *out = xmalloc(rs->total * row_elems * sizeof(double));
  size_t at = 0;
  for (int k = 0; k < rs->count; k++) {
    size_t n = (size_t)rs->n[k] * row_elems;
    void *h = xmalloc(n * es);
    CU(D->cuMemcpyDtoH(h, base + (size_t)rs->r0[k] * row_elems * es, n * es));
    for (size_t i = 0; i < n; i++) out[at + i] = load_elem(h, dt, i);
    at += n;
    free(h);
  }
  return out;
}

static double *read_all(CUdeviceptr base, size_t n, kp_dtype dt) {
  rowset one;
  memset(&one, 0, sizeof one);
  one.n[0] = 1;
  one.count = 1;
  one.total = 1;
  return read_rows(base, &one, n, dt);
}

static double silu(double g) { return g / (1.0 + exp(-g)); }
static double gelu_tanh(double g) {
  return 0.5 * g * (1.0 + tanh(0.7978845608028654 * (g + 0.044715 * g * g * g)));
}
static double gelu_erf(double g) { return 0.5 * g * (1.0 + erf(g * 0.7071067811865476)); }

/* max |out - ref| / max |ref|, or INFINITY when out holds a NaN/inf */
typedef struct erracc { double maxdiff, maxref; int bad; } erracc;
static void acc(erracc *e, double out, double ref) {
  if (!isfinite(out)) e->bad = 1;
  double d = fabs(out - ref);
  if (d > e->maxdiff) e->maxdiff = d;
  if (fabs(ref) > e->maxref) e->maxref = fabs(ref);
}
static double err_of(const erracc *e) {
  if (e->bad) return INFINITY;
  return e->maxref > 0 ? e->maxdiff / e->maxref : e->maxdiff;
}

typedef struct checkin {
  rowset rs;
  double *a, *b, *w; /* inputs snapshot before the first call */
} checkin;

static void check_prepare(const bcase *c, checkin *ci) {
  ci->rs = rows_to_check(c->rows);
  ci->a = read_rows(c->a, &ci->rs, c->row_a, c->dt);
  ci->b = read_rows(c->b, &ci->rs, c->row_b, c->dt);
  ci->w = c->nw ? read_all(c->w, c->nw, c->dt) : NULL;
  if (c->y) { /* NaN poison in every dtype; on `stream`, which the op uses next */
    CU(D->cuMemsetD8Async(c->y, 0xff, c->ny * c->es, STREAM));
    CU(D->cuStreamSynchronize(STREAM));
  }
}

/* after the first call: compare outputs on the checked rows; returns the error */
static double check_finish(const bcase *c, checkin *ci) {
  const rowset *rs = &ci->rs;
  size_t C = (size_t)c->cols;
  kp_dtype dt = c->dt;
  erracc e1 = {0, 0, 0}, e2 = {0, 0, 0};
  double *y = read_rows(c->y, rs, c->row_y, dt);
  double *a2 = NULL, *b2 = NULL; /* in-place outputs */
  if (c->op == OP_ADD_RMSNORM) b2 = read_rows(c->b, rs, c->row_b, dt);
  if (OPS[c->op].rope) {
    a2 = read_rows(c->a, rs, c->row_a, dt);
    b2 = read_rows(c->b, rs, c->row_b, dt);
  }
  double *h = xmalloc(2 * C * sizeof(double));
  size_t r = 0; /* row index within the snapshot */
  for (int k = 0; k < rs->count; k++)
    for (int64_t t = rs->r0[k]; t < rs->r0[k] + rs->n[k]; t++, r++) {
      const double *x = ci->a ? ci->a + r * c->row_a : NULL;
      const double *x2 = ci->b ? ci->b + r * c->row_b : NULL;
      const double *yr = y ? y + r * C : NULL;
      switch (c->op) {
      case OP_SOFTMAX: {
        double mx = x[0], sum = 0;
        for (size_t j = 1; j < C; j++) mx = x[j] > mx ? x[j] : mx;
        for (size_t j = 0; j < C; j++) sum += exp(x[j] - mx);
        for (size_t j = 0; j < C; j++) acc(&e1, yr[j], exp(x[j] - mx) / sum);
        break;
      }
      case OP_RMSNORM:
      case OP_ADD_RMSNORM:
      case OP_RMSNORM_SWIGLU: {
        size_t n = c->op == OP_RMSNORM_SWIGLU ? 2 * C : C;
        for (size_t j = 0; j < n; j++)
          h[j] = c->op == OP_ADD_RMSNORM ? round_dt(dt, x[j] + x2[j]) : x[j];
        if (c->op == OP_ADD_RMSNORM)
          for (size_t j = 0; j < C; j++) acc(&e2, b2[r * C + j], h[j]);
        double ss = 0;
        for (size_t j = 0; j < n; j++) ss += h[j] * h[j];
        double inv = 1.0 / sqrt(ss / (double)n + (double)EPS);
        for (size_t j = 0; j < n; j++) h[j] = h[j] * inv * ci->w[j];
        if (c->op == OP_RMSNORM_SWIGLU)
          for (size_t j = 0; j < C; j++) acc(&e1, yr[j], silu(h[j]) * h[C + j]);
        else
          for (size_t j = 0; j < C; j++) acc(&e1, yr[j], h[j]);
        break;
      }
      case OP_SWIGLU:
        for (size_t j = 0; j < C; j++) acc(&e1, yr[j], silu(x[j]) * x2[j]);
        break;
      case OP_GEGLU_TANH:
        for (size_t j = 0; j < C; j++) acc(&e1, yr[j], gelu_tanh(x[j]) * x2[j]);
        break;
      case OP_GEGLU_ERF:
        for (size_t j = 0; j < C; j++) acc(&e1, yr[j], gelu_erf(x[j]) * x2[j]);
        break;
      default: { /* rope NeoX on q (e1) and k (e2) */
        size_t half = ROPE_D / 2;
        for (int which = 0; which < 2; which++) {
          const double *in = which ? x2 : x;
          const double *out = which ? b2 + r * c->row_b : a2 + r * c->row_a;
          int heads = which ? ROPE_HK : ROPE_HQ;
          for (int hd = 0; hd < heads; hd++)
            for (size_t i = 0; i < half; i++) {
              double cs, sn;
              if (c->op == OP_ROPE_CS) {
                cs = c->hcos[(size_t)t * half + i];
                sn = c->hsin[(size_t)t * half + i];
              } else { /* as an fp32 implementation computes the angle */
                float inv = (float)pow(ROPE_THETA, -2.0 * (double)i / ROPE_D);
                float ang = (float)t * inv;
                cs = cos(ang);
                sn = sin(ang);
              }
              size_t o = (size_t)hd * ROPE_D + i;
              double x1 = in[o], xx2 = in[o + half];
              acc(which ? &e2 : &e1, out[o], x1 * cs - xx2 * sn);
              acc(which ? &e2 : &e1, out[o + half], xx2 * cs + x1 * sn);
            }
        }
        break;
      }
      }
    }
  free(h);
  free(y);
  free(a2);
  free(b2);
  free(ci->a);
  free(ci->b);
  free(ci->w);
  double err = err_of(&e1);
  if ((c->op == OP_ADD_RMSNORM || OPS[c->op].rope) && err_of(&e2) > err) err = err_of(&e2);
  return err;
}

static double tolerance(const bcase *c) {
  double t = c->dt == KP_BF16 ? 1.5e-2 : c->dt == KP_F16 ? 3e-3 : 5e-4;
  /* fp32 angles: pos * inv_freq loses ~|angle| * 2^-23 (16K tokens: ~2e-3 rad) */
  if (c->op == OP_ROPE_POS && t < 1e-2) t = 1e-2;
  return t;
}

/* ---- timing ------------------------------------------------------------------ */
typedef struct opts {
  int dtype_mask, shape_mask, op_mask;
  int warmup, reps_fixed, min_reps, max_reps;
  double budget_ms; /* adaptive reps: about this much timed work per case */
  int flush;
  int overhead_n;
  size_t copy_bytes;
  int device;
} opts;

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Evict L2 before a timed rep: read FLUSH (clean lines: nothing left to
** write back under the timed call, bench/NOTES.md 78), or memset it where
** the read kernel did not load */
static void flush_l2(int i) {
  if (FLUSH_FN) {
    unsigned long long n16 = FLUSH_BYTES / 16;
    void *args[] = {&FLUSH, &n16, &FLUSH_SINK};
    CU(D->cuLaunchKernel(FLUSH_FN, FLUSH_GRID, 1, 1, 256, 1, 1, 0, STREAM, args, NULL));
  } else {
    CU(D->cuMemsetD8Async(FLUSH, (unsigned char)i, FLUSH_BYTES, STREAM));
  }
}

/* median (and min) in microseconds of `reps` timed calls of fn(arg) */
typedef kp_status (*launch_fn)(const void *arg);
static void time_reps(launch_fn fn, const void *arg, int reps, int flush, double *med_us,
                      double *min_us) {
  static float ms[MAX_REPS];
  for (int i = 0; i < reps; i++) {
    if (flush) flush_l2(i);
    CU(D->cuEventRecord(EV0[i], STREAM));
    KP(fn(arg));
    CU(D->cuEventRecord(EV1[i], STREAM));
  }
  CU(D->cuStreamSynchronize(STREAM));
  for (int i = 0; i < reps; i++) CU(D->cuEventElapsedTime(&ms[i], EV0[i], EV1[i]));
  qsort(ms, (size_t)reps, sizeof ms[0], cmp_float);
  *med_us = 1e3 * (reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]));
  *min_us = 1e3 * ms[0];
}

static kp_status launch_case(const void *arg) { return run_op((const bcase *)arg); }

static CUdeviceptr COPY_SRC, COPY_DST;
static size_t COPY_N;
static kp_status launch_copy(const void *arg) {
  (void)arg;
  CU(D->cuMemcpyDtoDAsync(COPY_DST, COPY_SRC, COPY_N, STREAM));
  return KP_OK;
}

static double FLUSH_US; /* time of one flush, for the adaptive rep count */

static int pick_reps(const opts *o, double est_us) {
  if (o->reps_fixed > 0) return o->reps_fixed;
  double per = est_us + (o->flush ? FLUSH_US : 0) + 2.0;
  int n = (int)(o->budget_ms * 1e3 / per);
  if (n < o->min_reps) n = o->min_reps;
  if (n > o->max_reps) n = o->max_reps;
  return n;
}

/* GB/s of a 1 GiB (or copy_bytes) device-to-device copy, bytes read + written */
static double measure_copy(const opts *o) {
  COPY_N = o->copy_bytes;
  COPY_SRC = dalloc(COPY_N);
  COPY_DST = dalloc(COPY_N);
  CU(D->cuMemsetD8Async(COPY_SRC, 0x3c, COPY_N, STREAM));
  CU(D->cuMemsetD8Async(COPY_DST, 0, COPY_N, STREAM));
  for (int i = 0; i < 3; i++) launch_copy(NULL);
  CU(D->cuStreamSynchronize(STREAM));
  int reps = o->reps_fixed > 0 ? o->reps_fixed : 30;
  double med, mn;
  time_reps(launch_copy, NULL, reps, o->flush, &med, &mn);
  dfree(&COPY_SRC);
  dfree(&COPY_DST);
  double gbps = 2.0 * (double)COPY_N / (med * 1e3);
  printf("copy reference: cuMemcpyDtoDAsync %zu MiB: %.1f us, %.1f GB/s (read + written), "
         "median of %d\n",
         COPY_N >> 20, med, gbps, reps);
  printf("RESULT op=copy dtype=u8 bytes=%zu us=%.3f min_us=%.3f gbps=%.2f pct_copy=100.0 "
         "reps=%d\n",
         2 * COPY_N, med, mn, gbps, reps);
  return gbps;
}

/* ---- host overhead ----------------------------------------------------------- */
/* an empty kernel with the argument list of rmsnorm's kernels: (x, ldx, w, y, ldy, rows, cols, eps) */
static const char NULL_PTX[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry kpbench_null(\n"
    "  .param .u64 p_x, .param .u64 p_ldx, .param .u64 p_w, .param .u64 p_y,\n"
    "  .param .u64 p_ldy, .param .u32 p_rows, .param .u32 p_cols, .param .f32 p_eps)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .f32 %f<2>;\n"
    "  ld.param.u32 %r1, [p_rows];\n"
    "  setp.ge.s32 %p1, %r1, 0;\n"
    "  @%p1 bra DONE;\n"
    "  ld.param.u64 %rd2, [p_y];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  ld.param.f32 %f1, [p_eps];\n"
    "  st.global.f32 [%rd3], %f1;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    /* spins for p_ns nanoseconds: holds the stream while the host fills its queue */
    ".visible .entry kpbench_spin(.param .u64 p_ns)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p_ns];\n"
    "  mov.u64 %rd2, %globaltimer;\n"
    "  add.u64 %rd3, %rd2, %rd1;\n"
    "SPIN:\n"
    "  mov.u64 %rd4, %globaltimer;\n"
    "  setp.lt.u64 %p1, %rd4, %rd3;\n"
    "  @%p1 bra SPIN;\n"
    "  ret;\n"
    "}\n";

/* Empty kernels with the parameter lists of a family's kernels (its
** signature, runtime/select.c: p and l 8 bytes, i and f 4, T a 128-byte TMA
** map aligned to 64), so that a kp_ op is compared with a raw launch that
** hands the driver the same bytes: what is left is the op's own cost. */
enum { SIG_MAX = 48 };
typedef struct sigk {
  CUmodule mod;
  CUfunction fn;
  int n;
  void *args[SIG_MAX];                        /* each parameter's value, for kernelParams */
  _Alignas(64) unsigned char vals[SIG_MAX][128];
  _Alignas(64) unsigned char packed[SIG_MAX * 128]; /* the same (zeros), as one buffer */
  size_t packed_bytes;
} sigk;

/* k's PTX (an entry kpbench_sig) and argument values for signature sig; 0 if it does not fit */
static int sig_ptx(sigk *k, const char *sig, char *ptx, size_t cap) {
  size_t n = (size_t)snprintf(ptx, cap, ".version 7.0\n.target sm_80\n.address_size 64\n"
                              ".visible .entry kpbench_sig(");
  k->n = 0;
  memset(k->vals, 0, sizeof k->vals);
  for (const char *c = sig; *c; c++) {
    if (*c == ',') continue;
    if (k->n == SIG_MAX) return 0;
    const char *ty = *c == 'T' ? ".align 64 .b8" : *c == 'i' ? ".u32" : *c == 'f' ? ".f32" : ".u64";
    if (n + 64 > cap) return 0;
    n += (size_t)snprintf(ptx + n, cap - n, "%s.param %s p%d%s", k->n ? ", " : "", ty, k->n,
                          *c == 'T' ? "[128]" : "");
    k->args[k->n] = k->vals[k->n];
    k->n++;
  }
  memset(k->packed, 0, sizeof k->packed);
  n += (size_t)snprintf(ptx + n, cap - n, ")\n{\n  ret;\n}\n");
  return n < cap;
}

static int sig_kernel(sigk *k, const char *sig) {
  char ptx[8192];
  if (!sig_ptx(k, sig, ptx, sizeof ptx)) return 0;
  CU(D->cuModuleLoadData(&k->mod, ptx));
  CU(D->cuModuleGetFunction(&k->fn, k->mod, "kpbench_sig"));
  /* the buffer's size as the driver lays the parameters out (on sm_90 a TMA
  ** map's 64-byte alignment counts from the constant bank's start, not from
  ** the first parameter: the C rule is wrong); every value is 0, so only the
  ** size matters.  0 without cuFuncGetParamInfo: the one-buffer row is left out. */
  k->packed_bytes = 0;
  for (int i = 0; D->cuFuncGetParamInfo && i < k->n; i++) {
    size_t off, size;
    if (D->cuFuncGetParamInfo(k->fn, (size_t)i, &off, &size) != CUDA_SUCCESS) {
      k->packed_bytes = 0;
      break;
    }
    if (off + size > k->packed_bytes) k->packed_bytes = off + size;
  }
  return 1;
}

/* enq: host time to enqueue one call; wall: until all are done; busy: GPU time per
** call with the queue filled in advance (behind a spin kernel), i.e. the GPU cost alone;
** held: host time to enqueue one call while the GPU is held by the spin (nothing waits on
** the GPU: the host cost alone, whatever the kernel's own duration) */
typedef struct ovh { double enq_us, wall_us, busy_us, held_us, encodes; } ovh;

/* the launches compared: kp_rmsnorm on 128 or 1 rows of 4096 bf16, the raw empty
** kernel, kp_gemm bf16 128x256x64 (the sm_90a variants encode two TMA descriptors
** per call), kp_attention bf16 (1, 128, 16 heads, 128) unmasked (sm_90a: the
** persistent FA3 kernel, four TMA descriptors a call), and kp_gemm bf16
** 128x11008x64, whose pick stores D by TMA (a third map, D's) */
typedef struct ovh_args {
  CUdeviceptr x, w, y, qkvo, bd;
  kp_gemm_desc g, g3;
  kp_attn_desc at;
  CUfunction fn, spin;
  void **params;
  sigk *sig[2]; /* empty kernels with gemm's and attention's parameter lists */
} ovh_args;

#define GEMM_D_OFF (256 * 64 * 2) /* bytes: D after B in y */
#define ATTN_T_BYTES (128 * 16 * 128 * 2) /* bytes: Q, K, V and O in turn in qkvo */
#define GEMM3_N 11008                     /* kp_gemm 128 x GEMM3_N x 64: B, then D in bd */
#define GEMM3_D_OFF ((size_t)GEMM3_N * 64 * 2)
#define GEMM3_BYTES (GEMM3_D_OFF + (size_t)128 * GEMM3_N * 2)
static void ovh_launch(const ovh_args *a, int which) {
  static const int64_t C = 4096;
  void *s = (void *)STREAM;
  if (which == 0) KP(kp_rmsnorm(CTX, KP_BF16, P(a->x), C, P(a->w), P(a->y), C, 128, C, EPS, s));
  else if (which == 1) KP(kp_rmsnorm(CTX, KP_BF16, P(a->x), C, P(a->w), P(a->y), C, 1, C, EPS, s));
  else if (which == 2) CU(D->cuLaunchKernel(a->fn, 128, 1, 1, 128, 1, 1, 0, STREAM, a->params, NULL));
  else if (which == 5 || which == 6) {
    const sigk *k = a->sig[which - 5];
    CU(D->cuLaunchKernel(k->fn, 128, 1, 1, 128, 1, 1, 0, STREAM, (void **)k->args, NULL));
  } else if (which == 7) { /* attention's list as one buffer */
    sigk *k = a->sig[1];
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, k->packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &k->packed_bytes, CU_LAUNCH_PARAM_END};
    CU(D->cuLaunchKernel(k->fn, 128, 1, 1, 128, 1, 1, 0, STREAM, NULL, extra));
  } else if (which == 3) KP(kp_gemm(CTX, KP_BF16, P(a->x), P(a->y), (char *)P(a->y) + GEMM_D_OFF, &a->g, s));
  else if (which == 8)
    KP(kp_gemm(CTX, KP_BF16, P(a->x), P(a->bd), (char *)P(a->bd) + GEMM3_D_OFF, &a->g3, s));
  else {
    char *t = (char *)P(a->qkvo);
    KP(kp_attention(CTX, KP_BF16, t, t + ATTN_T_BYTES, t + 2 * ATTN_T_BYTES, t + 3 * ATTN_T_BYTES,
                    &a->at, s));
  }
}

/* N back-to-back calls: host time to enqueue them, host time until they are done, GPU span */
static ovh ovh_time(const ovh_args *a, int which, int n) {
  ovh r;
  for (int i = 0; i < 200; i++) ovh_launch(a, which);
  CU(D->cuStreamSynchronize(STREAM));
  uint64_t enc0, enc1, hits;
  kp_tmap_cache_stats(&enc0, &hits);
  double t0 = now_s();
  for (int i = 0; i < n; i++) ovh_launch(a, which);
  double t1 = now_s();
  kp_tmap_cache_stats(&enc1, &hits);
  r.encodes = (double)(enc1 - enc0) / n; /* TMA maps encoded a call: 0 where the cache holds them */
  CU(D->cuStreamSynchronize(STREAM));
  double t2 = now_s();
  r.enq_us = 1e6 * (t1 - t0) / n;
  r.wall_us = 1e6 * (t2 - t0) / n;

  /* GPU cost alone: 500 calls (fewer than the launch queue holds) queued behind a 20 ms spin */
  enum { GATED = 500 };
  unsigned long long ns = 20000000ull;
  void *sp[] = {&ns};
  CU(D->cuLaunchKernel(a->spin, 1, 1, 1, 1, 1, 1, 0, STREAM, sp, NULL));
  CU(D->cuEventRecord(EV0[0], STREAM));
  t0 = now_s();
  for (int i = 0; i < GATED; i++) ovh_launch(a, which);
  t1 = now_s();
  CU(D->cuEventRecord(EV1[0], STREAM));
  CU(D->cuStreamSynchronize(STREAM));
  float ms;
  CU(D->cuEventElapsedTime(&ms, EV0[0], EV1[0]));
  r.busy_us = 1e3 * ms / GATED;
  r.held_us = 1e6 * (t1 - t0) / GATED;
  if (t1 - t0 > 0.015) r.busy_us = -1; /* enqueueing outlasted the spin: not measured */
  return r;
}

static int measure_overhead(int n, double *kp_us, double *raw_us) {
  const int64_t R = 128, C = 4096;
  const kp_dtype dt = KP_BF16;
  size_t es = kp_dtype_size(dt);
  ovh_args a;
  a.x = dalloc((size_t)(R * C) * es);
  a.w = dalloc((size_t)C * es);
  a.y = dalloc((size_t)(R * C) * es);
  a.qkvo = dalloc((size_t)4 * ATTN_T_BYTES);
  a.bd = dalloc(GEMM3_BYTES);
  fill_device(a.bd, GEMM3_D_OFF / es, dt, 0.05f, 1.0f, 1);
  fill_device(a.qkvo, (size_t)4 * ATTN_T_BYTES / es, dt, 0.05f, 1.0f, 1);
  fill_device(a.x, (size_t)(R * C), dt, 0.05f, 1.0f, 1);
  fill_device(a.w, (size_t)C, dt, 0.5f, 1.5f, 0);

  CUmodule mod;
  CU(D->cuModuleLoadData(&mod, NULL_PTX));
  CU(D->cuModuleGetFunction(&a.fn, mod, "kpbench_null"));
  CU(D->cuModuleGetFunction(&a.spin, mod, "kpbench_spin"));
  long long ldx = C, ldy = C; /* the argument kinds of kp_rmsnorm's kernels */
  int rows = (int)R, cols = (int)C;
  float eps = EPS;
  void *params[] = {&a.x, &ldx, &a.w, &a.y, &ldy, &rows, &cols, &eps};
  a.params = params;
  kp_gemm_desc_init(&a.g, 128, 256, 64); /* A in x (128x64), B and D in y (256x64, 128x256) */
  kp_attn_desc_init(&a.at, 1, 16, 16, 128, 128, 128);
  kp_gemm_desc_init(&a.g3, 128, GEMM3_N, 64); /* A in x (128x64) */

  int ok = 1;
  for (int64_t r = 128; r >= 1; r -= 127) { /* a failure here is reported, not timed */
    kp_status st = kp_rmsnorm(CTX, dt, P(a.x), C, P(a.w), P(a.y), C, r, C, EPS, (void *)STREAM);
    if (st != KP_OK) {
      printf("\nhost overhead: kp_rmsnorm %lldx4096 bf16 FAILED: %s: %s\n", (long long)r,
             kp_status_name(st), kp_ctx_errmsg(CTX));
      if (!KEEP_GOING || st == KP_ERR_CUDA) exit(1);
      ok = 0;
    }
  }
  kp_status gst = kp_gemm(CTX, dt, P(a.x), P(a.y), (char *)P(a.y) + GEMM_D_OFF, &a.g, (void *)STREAM);
  if (gst != KP_OK)
    printf("\nhost overhead: kp_gemm 128x256x64 bf16 not measured: %s: %s\n",
           kp_status_name(gst), kp_ctx_errmsg(CTX));
  kp_status g3st = kp_gemm(CTX, dt, P(a.x), P(a.bd), (char *)P(a.bd) + GEMM3_D_OFF, &a.g3,
                           (void *)STREAM);
  if (g3st != KP_OK)
    printf("\nhost overhead: kp_gemm 128x%dx64 bf16 not measured: %s: %s\n", GEMM3_N,
           kp_status_name(g3st), kp_ctx_errmsg(CTX));
  char *t = (char *)P(a.qkvo);
  kp_status ast = kp_attention(CTX, dt, t, t + ATTN_T_BYTES, t + 2 * ATTN_T_BYTES,
                               t + 3 * ATTN_T_BYTES, &a.at, (void *)STREAM);
  if (ast != KP_OK)
    printf("\nhost overhead: kp_attention 1x128x16x128 bf16 not measured: %s: %s\n",
           kp_status_name(ast), kp_ctx_errmsg(CTX));
  /* the raw launches with the families' parameter lists (5: gemm's, 6: attention's,
  ** 7: attention's as one packed buffer) */
  static sigk sg, sa;
  const int have_sig = sig_kernel(&sg, kp_family_signature(KP_FAM_GEMM)) &&
                       sig_kernel(&sa, kp_family_signature(KP_FAM_ATTENTION));
  a.sig[0] = &sg, a.sig[1] = &sa;
  /* which: 0-2 always, 3 (gemm) and 4 (attention) where they ran */
  int packed_ok = 0;
  if (have_sig && sa.packed_bytes) { /* the driver checks the buffer's size against the kernel's */
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, sa.packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &sa.packed_bytes, CU_LAUNCH_PARAM_END};
    CUresult r = D->cuLaunchKernel(sa.fn, 1, 1, 1, 32, 1, 1, 0, STREAM, NULL, extra);
    packed_ok = r == CUDA_SUCCESS;
    if (!packed_ok)
      printf("\nhost overhead: attention's list as one buffer of %zu bytes not launched: "
             "CUresult %d\n", sa.packed_bytes, (int)r);
  }
  const int want[9] = {1, 1, 1, gst == KP_OK, ast == KP_OK, have_sig, have_sig, packed_ok,
                       g3st == KP_OK};
  ovh res[9];
  if (ok)
    for (int which = 0; which < 9; which++)
      if (want[which]) res[which] = ovh_time(&a, which, n);
  if (have_sig) {
    CU(D->cuModuleUnload(sg.mod));
    CU(D->cuModuleUnload(sa.mod));
  }
  CU(D->cuModuleUnload(mod));
  dfree(&a.x);
  dfree(&a.w);
  dfree(&a.y);
  dfree(&a.qkvo);
  dfree(&a.bd);
  if (!ok) return 0;

  static const char *const names[9] = {"kp_rmsnorm 128x4096 bf16", "kp_rmsnorm 1x4096 bf16",
                                       "cuLaunchKernel, empty PTX kernel",
                                       "kp_gemm 128x256x64 bf16",
                                       "kp_attention 1x128x16x128 bf16",
                                       "raw, gemm's 23 parameters",
                                       "raw, attention's 39 parameters",
                                       "raw, attention's, one buffer",
                                       "kp_gemm 128x11008x64 bf16"};
  printf("\nhost overhead: %d back-to-back calls on one stream, host wall clock "
         "(CLOCK_MONOTONIC); GPU busy = GPU time per call with the queue filled in advance\n", n);
  for (int i = 0; i < 9; i++)
    if (want[i])
      printf("  %-33s enqueue %7.3f us/call | until done %7.3f | GPU busy %7.3f | enqueue, GPU "
             "held %7.3f | maps encoded %.2f/call\n", names[i], res[i].enq_us, res[i].wall_us,
             res[i].busy_us, res[i].held_us, res[i].encodes);
  if (want[3])
    printf("  difference kp_gemm 128x256x64 - raw launch, GPU held: %+.3f us/call (incl. 2 TMA "
           "descriptors when the variant uses them)\n", res[3].held_us - res[2].held_us);
  if (want[8] && want[5])
    printf("  difference kp_gemm 128x%dx64 - raw launch with gemm's parameter list, GPU held: "
           "%+.3f us/call (its pick stores D by TMA: 3 TMA maps)\n", GEMM3_N,
           res[8].held_us - res[5].held_us);
  if (want[4])
    printf("  difference kp_attention 1x128x16x128 - raw launch, GPU held: %+.3f us/call (incl. 4 "
           "TMA descriptors when the variant is a persistent sm_90a one)\n",
           res[4].held_us - res[2].held_us);
  if (want[3] && want[5])
    printf("  difference kp_gemm - raw launch with gemm's parameter list, GPU held: %+.3f us/call "
           "(the op's own cost: checks, variant lookup, TMA maps)\n",
           res[3].held_us - res[5].held_us);
  if (want[4] && want[6])
    printf("  difference kp_attention - raw launch with attention's parameter list, GPU held: "
           "%+.3f us/call (the op's own cost)\n", res[4].held_us - res[6].held_us);
  if (want[6] && want[7])
    printf("  attention's parameter list as one buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) - as "
           "kernelParams, GPU held: %+.3f us/call; the list itself - the empty kernel's 8: "
           "%+.3f\n", res[7].held_us - res[6].held_us, res[6].held_us - res[2].held_us);
  printf("  difference kp_rmsnorm 128x4096 - raw launch: %+.3f us/call enqueue, %+.3f until done\n",
         res[0].enq_us - res[2].enq_us, res[0].wall_us - res[2].wall_us);
  printf("  difference kp_rmsnorm 1x4096   - raw launch: %+.3f us/call enqueue, %+.3f until done\n",
         res[1].enq_us - res[2].enq_us, res[1].wall_us - res[2].wall_us);
  for (int i = 0; i < 9; i++)
    if (want[i] && res[i].busy_us > 0.8 * res[i].enq_us)
      printf("  note: %s: the GPU needs >= 80%% of the enqueue time per call, so that loop was "
             "(nearly) GPU-bound: its enqueue time overstates the host cost\n", names[i]);
  printf("RESULT op=host_overhead n=%d kp_enqueue_us=%.3f kp_wall_us=%.3f kp_busy_us=%.3f "
         "kp1_enqueue_us=%.3f kp1_wall_us=%.3f kp1_busy_us=%.3f raw_enqueue_us=%.3f "
         "raw_wall_us=%.3f raw_busy_us=%.3f diff_enqueue_us=%.3f diff1_enqueue_us=%.3f\n",
         n, res[0].enq_us, res[0].wall_us, res[0].busy_us, res[1].enq_us, res[1].wall_us,
         res[1].busy_us, res[2].enq_us, res[2].wall_us, res[2].busy_us,
         res[0].enq_us - res[2].enq_us, res[1].enq_us - res[2].enq_us);
  kp_us[0] = res[0].enq_us;
  kp_us[1] = res[1].enq_us;
  *raw_us = res[2].enq_us;
  return 1;
}

/* ---- results -------------------------------------------------------------------- */
enum { ST_OK, ST_MISMATCH, ST_FAIL };
typedef struct result {
  int op, sh, di, state;
  kp_status status;
  char label[40];
  double us, min_us, gbps, pct, err;
  int reps;
} result;

static result RESULTS[3 * OP_COUNT * SH_COUNT];
static int NRESULTS;

static void run_case(const opts *o, int op, int di, int sh, double copy_gbps) {
  bcase c;
  result *res = &RESULTS[NRESULTS++];
  memset(res, 0, sizeof *res);
  res->op = op;
  res->di = di;
  res->sh = sh;
  case_setup(&c, op, DTYPES[di], sh);
  snprintf(res->label, sizeof res->label, "%s", c.label);
  const char *dn = kp_dtype_name(c.dt);

  /* first call: checked against the CPU reference on a few rows */
  checkin ci;
  check_prepare(&c, &ci);
  kp_status st = run_op(&c);
  if (st != KP_OK) {
    printf("%-15s %-5s %-17s | FAILED: %s: %s\n", OPS[op].name, dn, c.label, kp_status_name(st),
           kp_ctx_errmsg(CTX));
    printf("RESULT op=%s dtype=%s rows=%lld cols=%lld shape=%s status=%s\n", OPS[op].name, dn,
           (long long)c.rows, (long long)c.cols, SHAPE_NAMES[sh], kp_status_name(st));
    fflush(stdout);
    if (!KEEP_GOING || st == KP_ERR_CUDA) exit(1);
    res->state = ST_FAIL;
    res->status = st;
    free(ci.a);
    free(ci.b);
    free(ci.w);
    case_free(&c);
    return;
  }
  CU(D->cuStreamSynchronize(STREAM));
  res->err = check_finish(&c, &ci);
  int ok = res->err <= tolerance(&c); /* false for NaN */

  /* warm-up, also an estimate of the time per call for the rep count.  In-place ops
  ** (add_rmsnorm's residual, rope's q and k) keep changing their data over the reps;
  ** values stay finite (the residual grows by < 1 per call) and speed does not depend on them. */
  CU(D->cuEventRecord(EV0[0], STREAM));
  for (int i = 0; i < o->warmup; i++) KP(run_op(&c));
  CU(D->cuEventRecord(EV1[0], STREAM));
  CU(D->cuStreamSynchronize(STREAM));
  float wms = 0;
  CU(D->cuEventElapsedTime(&wms, EV0[0], EV1[0]));
  int reps = pick_reps(o, o->warmup > 0 ? 1e3 * wms / o->warmup : 100.0);

  time_reps(launch_case, &c, reps, o->flush, &res->us, &res->min_us);
  res->reps = reps;
  res->gbps = c.bytes / (res->us * 1e3);
  res->pct = 100.0 * res->gbps / copy_gbps;
  res->state = ok ? ST_OK : ST_MISMATCH;

  printf("%-15s %-5s %-17s | %10.2f | %9.1f | %6.1f%% %s\n", OPS[op].name, dn, c.label, res->us,
         res->gbps, res->pct, ok ? "" : "  <-- MISMATCH vs CPU reference");
  printf("RESULT op=%s dtype=%s rows=%lld cols=%lld shape=%s bytes=%.0f us=%.3f min_us=%.3f "
         "gbps=%.2f pct_copy=%.2f reps=%d check=%s max_err=%.3g\n",
         OPS[op].name, dn, (long long)c.rows, (long long)c.cols, SHAPE_NAMES[sh], c.bytes,
         res->us, res->min_us, res->gbps, res->pct, reps, ok ? "ok" : "MISMATCH", res->err);
  fflush(stdout);
  case_free(&c);
}

static void print_summary(const opts *o, double copy_gbps, int have_ovh, const double *kp_us,
                          double raw_us) {
  printf("\n==== kpbench summary: GB/s (%% of copy %.0f GB/s), median, L2 %s ====\n", copy_gbps,
         o->flush ? "flushed" : "NOT flushed");
  printf("%-15s %-17s", "op", "shape");
  for (int di = 0; di < 3; di++)
    if (o->dtype_mask & (1 << di)) printf(" | %-16s", kp_dtype_name(DTYPES[di]));
  printf("\n");
  for (int op = 0; op < OP_COUNT; op++)
    for (int sh = 0; sh < SH_COUNT; sh++) {
      const result *row[3] = {NULL, NULL, NULL};
      for (int i = 0; i < NRESULTS; i++)
        if (RESULTS[i].op == op && RESULTS[i].sh == sh) row[RESULTS[i].di] = &RESULTS[i];
      if (!row[0] && !row[1] && !row[2]) continue;
      const char *label = "";
      for (int di = 0; di < 3; di++)
        if (row[di]) label = row[di]->label;
      printf("%-15s %-17s", OPS[op].name, label);
      for (int di = 0; di < 3; di++) {
        if (!(o->dtype_mask & (1 << di))) continue;
        const result *r = row[di];
        char cell[40];
        if (!r) snprintf(cell, sizeof cell, "-");
        else if (r->state == ST_FAIL) {
          const char *nm = kp_status_name(r->status);
          snprintf(cell, sizeof cell, "FAIL %.11s", strncmp(nm, "KP_ERR_", 7) ? nm : nm + 7);
        }
        else snprintf(cell, sizeof cell, "%6.0f (%5.1f%%)%s", r->gbps, r->pct,
                      r->state == ST_MISMATCH ? "!" : "");
        printf(" | %-16s", cell);
      }
      printf("\n");
    }
  int nfail = 0, nmis = 0;
  for (int i = 0; i < NRESULTS; i++) {
    nfail += RESULTS[i].state == ST_FAIL;
    nmis += RESULTS[i].state == ST_MISMATCH;
  }
  if (have_ovh)
    printf("host overhead per call (enqueue): kp_rmsnorm 128x4096 %.2f us, 1x4096 %.2f us; raw "
           "cuLaunchKernel %.2f us; diff %+.2f / %+.2f us\n",
           kp_us[0], kp_us[1], raw_us, kp_us[0] - raw_us, kp_us[1] - raw_us);
  printf("cases: %d, failed: %d, reference mismatches (marked !): %d\n", NRESULTS, nfail, nmis);
}

/* ---- command line ---------------------------------------------------------------- */
static void usage(FILE *f) {
  fprintf(f,
          "usage: kpbench [options]\n"
          "  --dtype LIST    bf16,f16,f32 or all (default all, bf16 first)\n"
          "  --op LIST       op names or families (softmax rmsnorm add_rmsnorm swiglu geglu\n"
          "                  geglu_tanh geglu_erf rmsnorm_swiglu rope rope_cs rope_pos) or all\n"
          "  --shape LIST    small,llm,large or all (default all)\n"
          "  --quick         small shape only, 2 warm-up + 10 reps, 200 overhead calls,\n"
          "                  64 MiB copy reference (for sanitizers and smoke tests)\n"
          "  --reps N        fixed repetitions (default adaptive, 50..500)\n"
          "  --warmup N      warm-up calls (default 10)\n"
          "  --no-flush      do not flush L2 between repetitions\n"
          "  --overhead-n N  back-to-back calls for the host-overhead test (default 10000;\n"
          "                  0 skips it)\n"
          "  --device N      CUDA device ordinal (default 0)\n"
          "  --keep-going    a failing op (not a CUDA error) is reported and skipped\n");
}

static int parse_list(const char *arg, const char *what, int (*match)(const char *tok)) {
  int mask = 0;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int m = match(tok);
    if (!m) {
      fprintf(stderr, "kpbench: unknown %s '%s'\n", what, tok);
      usage(stderr);
      exit(1);
    }
    mask |= m;
  }
  return mask;
}

static int match_dtype(const char *t) {
  if (!strcmp(t, "all")) return 7;
  for (int i = 0; i < 3; i++)
    if (!strcmp(t, kp_dtype_name(DTYPES[i]))) return 1 << i;
  return 0;
}
static int match_shape(const char *t) {
  if (!strcmp(t, "all")) return 7;
  for (int i = 0; i < SH_COUNT; i++)
    if (!strcmp(t, SHAPE_NAMES[i])) return 1 << i;
  return 0;
}
static int match_op(const char *t) {
  int m = 0;
  for (int i = 0; i < OP_COUNT; i++)
    if (!strcmp(t, "all") || !strcmp(t, OPS[i].name) || !strcmp(t, OPS[i].family)) m |= 1 << i;
  return m;
}

static int int_arg(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) {
    fprintf(stderr, "kpbench: %s needs a value\n", argv[*i]);
    exit(1);
  }
  char *end;
  long v = strtol(argv[++*i], &end, 10);
  if (*end || v < 0 || v > 100000000) {
    fprintf(stderr, "kpbench: bad value for %s: %s\n", argv[*i - 1], argv[*i]);
    exit(1);
  }
  return (int)v;
}

static const char *str_arg(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) {
    fprintf(stderr, "kpbench: %s needs a value\n", argv[*i]);
    exit(1);
  }
  return argv[++*i];
}

int main(int argc, char **argv) {
  opts o = {.dtype_mask = 7, .shape_mask = 7, .op_mask = (1 << OP_COUNT) - 1, .warmup = 10,
            .reps_fixed = 0, .min_reps = 50, .max_reps = 500, .budget_ms = 250.0, .flush = 1,
            .overhead_n = 10000, .copy_bytes = (size_t)1 << 30, .device = 0};
  int quick = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--dtype")) o.dtype_mask = parse_list(str_arg(argc, argv, &i), "dtype", match_dtype);
    else if (!strcmp(a, "--op")) o.op_mask = parse_list(str_arg(argc, argv, &i), "op", match_op);
    else if (!strcmp(a, "--shape")) o.shape_mask = parse_list(str_arg(argc, argv, &i), "shape", match_shape);
    else if (!strcmp(a, "--quick")) quick = 1;
    else if (!strcmp(a, "--reps")) o.reps_fixed = int_arg(argc, argv, &i);
    else if (!strcmp(a, "--warmup")) o.warmup = int_arg(argc, argv, &i);
    else if (!strcmp(a, "--no-flush")) o.flush = 0;
    else if (!strcmp(a, "--overhead-n")) o.overhead_n = int_arg(argc, argv, &i);
    else if (!strcmp(a, "--device")) o.device = int_arg(argc, argv, &i);
    else if (!strcmp(a, "--keep-going")) KEEP_GOING = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    else {
      fprintf(stderr, "kpbench: unknown option '%s'\n", a);
      usage(stderr);
      return 1;
    }
  }
  if (quick) { /* explicit flags given anywhere still win over these */
    int explicit_shape = 0, explicit_reps = 0, explicit_warm = 0, explicit_ovh = 0;
    for (int i = 1; i < argc; i++) {
      explicit_shape |= !strcmp(argv[i], "--shape");
      explicit_reps |= !strcmp(argv[i], "--reps");
      explicit_warm |= !strcmp(argv[i], "--warmup");
      explicit_ovh |= !strcmp(argv[i], "--overhead-n");
    }
    if (!explicit_shape) o.shape_mask = 1 << SH_SMALL;
    if (!explicit_reps) o.reps_fixed = 10;
    if (!explicit_warm) o.warmup = 2;
    if (!explicit_ovh) o.overhead_n = 200;
    o.copy_bytes = (size_t)64 << 20;
  }
  if (o.reps_fixed > MAX_REPS) o.reps_fixed = MAX_REPS;
  if (o.max_reps > MAX_REPS) o.max_reps = MAX_REPS;
  setvbuf(stdout, NULL, _IOLBF, 0);

  /* driver, our own current primary context, the kernpack context */
  kp_status ds;
  char derr[256];
  D = kp_driver_load(&ds, derr, sizeof derr);
  if (!D) {
    fprintf(stderr, "kpbench: no CUDA driver: %s: %s\n", kp_status_name(ds), derr);
    return 1;
  }
  CUdevice dev;
  CUcontext pctx;
  CU(D->cuDeviceGet(&dev, o.device));
  CU(D->cuDevicePrimaryCtxRetain(&pctx, dev));
  CU(D->cuCtxSetCurrent(pctx));

  kp_options opt;
  kp_options_init(&opt);
  opt.device = o.device;
  opt.use_current_context = 1;
  /* context creation with the driver already up: pack discovery, reading
  ** and checking the pack, loading the tuning table (modules load lazily) */
  double tc0 = now_s();
  kp_status cs = kp_ctx_create(&opt, &CTX);
  double ctx_ms = (now_s() - tc0) * 1e3;
  if (cs != KP_OK) {
    fprintf(stderr, "kpbench: kp_ctx_create: %s: %s\n", kp_status_name(cs),
            CTX ? kp_ctx_errmsg(CTX) : "(no context)");
    kp_ctx_destroy(CTX);
    return 1;
  }
  kp_device_info info;
  KP(kp_ctx_device_info(CTX, &info));
  int l2 = 0;
  CU(D->cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
  size_t l2b = l2 > 0 ? (size_t)l2 : (info.l2_bytes ? info.l2_bytes : (size_t)64 << 20);
  FLUSH_BYTES = 2 * l2b > ((size_t)128 << 20) ? 2 * l2b : ((size_t)128 << 20);
  FLUSH_BYTES = (FLUSH_BYTES + ((1u << 20) - 1)) & ~(size_t)((1u << 20) - 1);

  printf("kp_ctx_create (pack open + table load, driver already initialised): %.2f ms\n", ctx_ms);
  time_t wall = time(NULL);
  char date[64];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&wall));
  printf("kpbench: kernpack %s, %s\n", kp_version(), date);
  printf("device %d: %s, sm_%d, %d SMs, L2 %zu MiB, driver %d, pack target %s, pack %s\n",
         info.ordinal, info.name, info.sm, info.sm_count, l2b >> 20, info.driver_version,
         info.target, info.pack_path[0] ? info.pack_path : "(none)");
  CUmodule flush_mod = NULL;
  if (D->cuModuleLoadData(&flush_mod, kp_flush_read_ptx) != CUDA_SUCCESS ||
      D->cuModuleGetFunction(&FLUSH_FN, flush_mod, "kp_flush_read") != CUDA_SUCCESS)
    FLUSH_FN = NULL;
  FLUSH_GRID = (unsigned)(info.sm_count > 0 ? info.sm_count : 1) * 8;
  printf("timing: CUDA events around each call alone, median; warm-up %d; reps %s; "
         "L2 flush %s (%zu MiB %s before each rep, untimed)\n",
         o.warmup, o.reps_fixed ? "fixed" : "adaptive 50..500", o.flush ? "on" : "OFF",
         FLUSH_BYTES >> 20, FLUSH_FN ? "read" : "memset (the read kernel did not load)");
  printf("bytes: inputs read once + outputs written once; swiglu/geglu shapes are the output's "
         "(gate and up: separate tensors of that shape); rope: tokens x (q heads + k heads) x "
         "head_dim, NeoX, rope_cs with cos/sin tables, rope_pos computing the angles\n\n");
  printf("RESULT op=device name=\"%s\" sm=%d sms=%d l2_bytes=%zu target=%s date=\"%s\"\n",
         info.name, info.sm, info.sm_count, l2b, info.target, date);

  CU(D->cuStreamCreate(&STREAM, CU_STREAM_NON_BLOCKING));
  for (int i = 0; i < MAX_REPS; i++) {
    CU(D->cuEventCreate(&EV0[i], CU_EVENT_DEFAULT));
    CU(D->cuEventCreate(&EV1[i], CU_EVENT_DEFAULT));
  }
  FLUSH = dalloc(FLUSH_BYTES);
  FLUSH_SINK = dalloc(16);
  { /* one flush's time, for the adaptive rep count */
    CU(D->cuMemsetD8Async(FLUSH, 0, FLUSH_BYTES, STREAM));
    CU(D->cuEventRecord(EV0[0], STREAM));
    for (int i = 0; i < 5; i++) flush_l2(i);
    CU(D->cuEventRecord(EV1[0], STREAM));
    CU(D->cuStreamSynchronize(STREAM));
    float ms;
    CU(D->cuEventElapsedTime(&ms, EV0[0], EV1[0]));
    FLUSH_US = 1e3 * ms / 5;
  }

  double t_start = now_s();
  double copy_gbps = measure_copy(&o);
  if (!(copy_gbps > 0)) copy_gbps = 1;

  printf("\n%-15s %-5s %-17s | %10s | %9s | %7s\n", "op", "dtype", "shape", "us", "GB/s", "% copy");
  for (int di = 0; di < 3; di++) {
    if (!(o.dtype_mask & (1 << di))) continue;
    for (int op = 0; op < OP_COUNT; op++) {
      if (!(o.op_mask & (1 << op))) continue;
      for (int sh = 0; sh < SH_COUNT; sh++)
        if (o.shape_mask & (1 << sh)) run_case(&o, op, di, sh, copy_gbps);
    }
  }

  double kp_us[2] = {0, 0}, raw_us = 0;
  int have_ovh = o.overhead_n > 0 && measure_overhead(o.overhead_n, kp_us, &raw_us);
  printf("\ntotal time %.1f s\n", now_s() - t_start);
  print_summary(&o, copy_gbps, have_ovh, kp_us, raw_us);

  dfree(&FLUSH);
  dfree(&FLUSH_SINK);
  if (flush_mod) CU(D->cuModuleUnload(flush_mod));
  for (int i = 0; i < MAX_REPS; i++) {
    CU(D->cuEventDestroy(EV0[i]));
    CU(D->cuEventDestroy(EV1[i]));
  }
  CU(D->cuStreamDestroy(STREAM));
  kp_ctx_destroy(CTX);
  CU(D->cuDevicePrimaryCtxRelease(dev));

  int nfail = 0, nmis = 0;
  for (int i = 0; i < NRESULTS; i++) {
    nfail += RESULTS[i].state == ST_FAIL;
    nmis += RESULTS[i].state == ST_MISMATCH;
  }
  return nfail ? 1 : nmis ? 2 : 0;
}
