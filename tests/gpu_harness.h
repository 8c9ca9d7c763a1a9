/*
** gpu_harness.h -- shared helpers for tests that launch kernels.
**
** A `gpu` lives inside one Check test (Check forks every test and a CUDA
** context does not survive fork): gpu_open() loads the driver table,
** retains and makes current device 0's primary context (so the tests can
** use cuMemAlloc etc.), creates a kp_ctx with default options and a
** stream; gpu_close() releases all of it and fails the test if any case
** failed.  A test runs many cases; a failing case prints what failed (with
** the seed) to stderr and the test goes on to the next case, so that one
** run on a GPU machine reports everything that is wrong.
**
** Buffers (hbuf) carry a host image of the whole device allocation.  Bytes
** outside tensors hold a poison pattern (0xFF = NaN in every dtype) and are
** checked to be unchanged after the op; inputs are checked to be unchanged
** entirely.  Random values are rounded to the storage dtype on the host and
** the rounded values are what the references consume.
*/
#ifndef KP_TEST_GPU_HARNESS_H
#define KP_TEST_GPU_HARNESS_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "kernpack.h"

#define KP_POISON 0xFF /* NaN in f32, f16 and bf16 */
#define KP_GUARD 32    /* poisoned elements after every buffer */
#define KP_PRE 16      /* poisoned elements before every tensor (keeps 16-byte alignment) */

typedef struct gpu {
  const kp_driver *drv;
  CUdevice dev;
  CUcontext cu;
  kp_ctx *ctx;
  CUstream stream;
  const char *test;
  unsigned long long seed;
  uint64_t rng;
  int cases, failed, case_failed;
  char case_desc[320];
  char first_fail[1024];
  double t0; /* when gpu_open began (KP_TEST_TIMES) */
  /* seconds in driver calls (KP_TEST_TIMES): allocations and frees, copies,
  ** synchronisations (the kernels' time); the rest is the host's */
  double t_mem, t_copy, t_sync;
} gpu;

/* Start / finish one test.  `idx` is the loop index (mixed into the seed).
** The seed comes from $KP_TEST_SEED when set, else from time and pid.  With
** $KP_TEST_TIMES set, gpu_close prints the test's wall time and cases, and
** the seconds in allocations, copies and synchronisations (where a GPU
** run's minutes go; nothing is timed against a bound). */
void gpu_open(gpu *g, const char *test, int idx);
void gpu_close(gpu *g);

/* Begin a case (printf-style description used in every message). */
void gpu_case(gpu *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record a failure of the current case and print it (counts once per case). */
void gpu_fail(gpu *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* kp_* result: 1 when KP_OK; otherwise a failure with kp_ctx_errmsg. */
int gpu_op_ok(gpu *g, kp_status s, const char *op);
/* Wait for the stream and the context; a CUDA error aborts the test. */
void gpu_sync(gpu *g, const char *after);
/* Can pack entry e run on this device at all, whatever the call (its SM
** range, its shared memory)? */
struct kpk_entry;
int gpu_entry_runs(const gpu *g, const struct kpk_entry *e);

/* Driver calls, aborting the test on error: CU(g, cuMemFree(p)). */
#define CU(g, call) gpu_cu_check((g), (g)->drv->call, #call)
void gpu_cu_check(gpu *g, CUresult r, const char *what);

/* Random numbers (splitmix64). */
uint64_t rng_u64(gpu *g);
double rng_uniform(gpu *g, double lo, double hi);
int64_t rng_int(gpu *g, int64_t lo, int64_t hi); /* inclusive */
/* A row's own stream, so that rows fill in parallel and a seed still gives
** the same data: row r of a fill whose base was drawn once from g's stream
** (rng_u64), whatever thread fills it. */
typedef struct rng_row {
  uint64_t s;
} rng_row;
rng_row rng_row_at(uint64_t base, int64_t r);
double rng_row_uniform(rng_row *x, double lo, double hi);

/* Host work over rows in parallel: fn(arg, lo, hi) on contiguous ranges
** covering [0, n), each range in its own thread -- $KP_TEST_THREADS of them
** (default: the CPUs online, at most 16) -- or all in this one where n *
** work (elements a row, say) is small.  fn may write only its rows' data
** and may not call Check or the driver.  The float64 references and the
** comparisons of big outputs take most of a GPU test's time: a GPU
** machine's CPUs share them. */
void par_rows(int64_t n, int64_t work, void (*fn)(void *arg, int64_t lo, int64_t hi), void *arg);
int par_threads(void); /* the threads par_rows uses */

/* Storage dtypes on the host. */
double dt_get(kp_dtype dt, const void *p);
double dt_put(kp_dtype dt, void *p, double v); /* stores round(v); returns it */
double dt_round(kp_dtype dt, double v);
/* Distance in units in the last place (NaN: a huge number). */
int64_t dt_ulp_diff(kp_dtype dt, const void *a, const void *b);
/* Smallest magnitude the GPU result may legitimately lose to flushing or
** subnormal rounding (added to every absolute tolerance). */
double dt_floor(kp_dtype dt);

/* A device allocation of n elements with its host image. */
typedef struct hbuf {
  kp_dtype dt;
  size_t es, n;
  unsigned char *img;  /* host image; after hb_download, the device content */
  unsigned char *orig; /* what was uploaded */
  CUdeviceptr d;
} hbuf;

void hb_make(gpu *g, hbuf *b, kp_dtype dt, size_t n, unsigned char poison);
void hb_free(gpu *g, hbuf *b);
void hb_upload(gpu *g, hbuf *b);   /* image -> device; keeps a copy in orig */
void hb_download(gpu *g, hbuf *b); /* device -> image */
void *hb_dev(const hbuf *b, size_t elem); /* device address of element elem */
double hb_get(const hbuf *b, size_t elem);
double hb_orig(const hbuf *b, size_t elem);
double hb_put(hbuf *b, size_t elem, double v);
int hb_same_as_orig(const hbuf *b, size_t elem);
/* Download and require every byte unchanged (an input of the op). */
void hb_check_unchanged(gpu *g, hbuf *b, const char *name);

/* A (rows, cols) tensor with row stride ld at element off = KP_PRE + `off`
** of its own buffer of off + rows*ld + KP_GUARD elements; val[r*cols + c] is
** the value stored there (already rounded to dt). */
typedef struct ht {
  hbuf b;
  int64_t rows, cols, ld, off;
  double *val;
} ht;

void ht_make(gpu *g, ht *t, kp_dtype dt, int64_t rows, int64_t cols, int64_t ld, int64_t off,
             unsigned char poison);
void ht_free(gpu *g, ht *t);
size_t ht_index(const ht *t, int64_t r, int64_t c);
double ht_set(ht *t, int64_t r, int64_t c, double v);
void ht_fill_uniform(gpu *g, ht *t, double lo, double hi);
/* Columns [0, split) uniform in [lo, hi), the rest in [lo2, hi2), each row
** times scale[r] (scale NULL: 1); rows in parallel (par_rows). */
void ht_fill_rows(gpu *g, ht *t, int64_t split, double lo, double hi, double lo2, double hi2,
                  const double *scale);
void *ht_dev(const ht *t);
double ht_get(const ht *t, int64_t r, int64_t c); /* from the current image */
/* Download an output and compare with ref[r*cols + c]: per row,
** |out - ref| <= tol * scale + dt_floor with scale = the row's max of |ref|
** (and of mag[r*cols + c] when mag is not NULL: the size of the terms an
** element is computed from, where fp32 cancellation is expected); NaN only
** where ref is NaN, inf only where ref is the same inf; everything outside
** the tensor must be unchanged.  Returns the number of bad elements. */
int64_t ht_check_output(gpu *g, ht *t, const char *name, const double *ref, const double *mag,
                        double tol);
/* Download an output and require each element within max_ulp units in the
** last place of ref (values representable in dt), plus the outside check. */
int64_t ht_check_ulp(gpu *g, ht *t, const char *name, const double *ref, int64_t max_ulp);
/* Require bytes outside the (rows, cols) tensor to be unchanged (image vs
** orig; call after download).  Returns the number of bad elements. */
int64_t ht_check_outside(gpu *g, const ht *t, const char *name);

/* Set every byte of t's host image to `poison` (the next upload writes it). */
void ht_reset(ht *t, unsigned char poison);

/* CUDA graphs: capture what is enqueued on g->stream between the two calls
** (global mode: a call that is unsafe during capture fails the capture),
** and instantiate it.  *graph (if not NULL) gets the graph itself, for
** inspection; free both with gpu_graph_free.  The driver's graph calls
** are optional in its table: a driver without them fails the test. */
void gpu_capture_begin(gpu *g);
CUgraphExec gpu_capture_end(gpu *g, CUgraph *graph);
void gpu_graph_free(gpu *g, CUgraph graph, CUgraphExec exec);
/* Edges of a graph and how many of them are programmatic (PDL); -1 when the
** driver cannot say (no cuGraphGetEdges_v2: CUDA < 12.3). */
int64_t gpu_graph_edges(gpu *g, CUgraph graph, int64_t *programmatic);

/* Device address as the library expects it. */
static inline void *dptr(CUdeviceptr p) { return (void *)(uintptr_t)p; }

#endif
