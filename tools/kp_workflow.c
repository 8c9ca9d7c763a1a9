/*
** kp_workflow.c -- `kp explain`, `kp prune`, `kp warmup`, `kp merge`: what the
** selection does with a table, and turning a table into a slim pack.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kp_cmds.h"
#include "tune.h"
#include "ranked.h"

static int help(int argc, char **argv, const char *usage) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(usage, stdout);
      return 1;
    }
  return 0;
}

/* ---- kp explain ------------------------------------------------------------------ */

static const char usage_explain[] =
    "usage: kp explain FAMILY SHAPE DTYPE [--align BYTES] [--form F] [--device N]\n"
    "                  [--pack PACK [--sm SM]] [--tune TABLE]\n"
    "Say which variant a call would run and why: the tuning table's exact key,\n"
    "the nearest key within reach, or the template ranking.  With --pack and no --device\n"
    "no GPU is needed (--sm gives the device's SM, default the pack's).\n"
    "SHAPE is the call's dimensions joined by 'x' in the family's order: ROWSxCOLS\n"
    "for the row families, MxNxK[xBATCH] for gemm, LQxLKxBHxD[xG] for attention\n"
    "(BH: batch x query heads, D: head dim, G: query heads per KV head, default\n"
    "1).  ALIGN is the alignment of the\n"
    "call's pointers and row strides (default 16); F the call's form (geglu: 0 erf,\n"
    "1 tanh; rope: 0 NeoX, 1 GPT-J; gemm: 0 B as (n,k), 1 B as (k,n), + 2 with\n"
    "epilogue terms -- alpha != 1, C, bias, activation or an f32 D; attention:\n"
    "0 full, 1 causal or windowed, + 2 a zero stride, + 4 paged K/V, + 8 varlen,\n"
    "+ 16 a decode call with a workspace (the split-KV decode's); default 0), a\n"
    "number or a form's name (erf, tanh, neox, gptj, nk, kn, nk+terms, kn+terms;\n"
    "attention's full or causal, then +stride0 +paged +varlen +ws as set:\n"
    "causal+paged+ws is 21).\n"
    "Candidates: '*' the pick, '+' the ranking may pick it, 't' it runs the call\n"
    "but the ranking keeps it for calls aligned to less (a tuning table or\n"
    "KP_VARIANT may still pick it: kp tune times it).\n";

/* "4096x11008x4096" -> c->dim in the family's order; missing trailing dims 1.
** 0 on success. */
static int parse_shape(const char *s, kp_call *c) {
  const kp_dims *d = kp_family_dims(c->family);
  for (int i = 0; i < KPK_DIMS; i++) c->dim[i] = 1;
  int i = 0;
  for (const char *p = s; i < d->n; i++) {
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || v < 1 || v > 2147483647ull) return -1;
    c->dim[i] = v;
    if (!*end) return i + 1 >= (d->n > 1 ? 2 : 1) ? 0 : -1;
    if (*end != 'x') return -1;
    p = end + 1;
  }
  return -1;
}

int kp_cmd_explain(int argc, char **argv) {
  if (help(argc, argv, usage_explain)) return 0;
  if (argc < 4) return fputs(usage_explain, stderr), 2;
  int fam = kp_family_from_name(argv[1]), dt = kp_dtype_from_name(argv[3]);
  kp_call c;
  memset(&c, 0, sizeof c);
  c.family = (kp_family)(fam < 0 ? 0 : fam);
  if (fam < 0 || dt < 0 || parse_shape(argv[2], &c)) {
    fprintf(stderr, "kp explain: expected a family, its shape (%s) and f32|f16|bf16\n%s",
            fam < 0 ? "dims joined by x" : kp_family_dims_text((kp_family)fam), usage_explain);
    return 2;
  }
  kp_options o;
  kp_options_init(&o);
  unsigned align = 16, form = 0;
  int sm = 0, have_device = 0;
  for (int i = 4; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--align")) align = (unsigned)atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--form")) { /* a number, or a form's name */
      const char *f = argv[i + 1], *name = kp_family_name(c.family);
      char *end;
      form = (unsigned)strtoul(f, &end, 10);
      if (end == f || *end) {
        const int fn = kp_form_from_name(name, f);
        if (fn < 0)
          return fprintf(stderr, "kp explain: --form %s: not a number nor a form of %s\n%s", f, name,
                         usage_explain), 2;
        form = (unsigned)fn;
      }
    }
    else if (!strcmp(argv[i], "--device")) o.device = atoi(argv[i + 1]), have_device = 1;
    else if (!strcmp(argv[i], "--pack")) o.pack_path = argv[i + 1];
    else if (!strcmp(argv[i], "--sm")) sm = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--tune")) o.tune_path = argv[i + 1];
    else return fprintf(stderr, "kp explain: unknown option %s\n%s", argv[i], usage_explain), 2;
  }
  if (o.pack_path && !have_device) o.device = KP_NO_DEVICE;
  kp_ctx *ctx = NULL;
  kp_status s = kp_ctx_create(&o, &ctx);
  if (s != KP_OK) {
    fprintf(stderr, "kp explain: %s: %s\n", kp_status_name(s), kp_ctx_errmsg(ctx));
    kp_ctx_destroy(ctx);
    return 1;
  }
  if (!ctx->drv) { /* pack only: the device is described on the command line */
    if (!sm) sscanf(ctx->pack.target, "%*[a-z_]%d", &sm);
    ctx->props.sm = sm;
    ctx->props.smem_optin = 227 * 1024;
    ctx->props.sm_count = 132; /* an H100 SXM's: persistent grids and their fill */
  }
  c.dtype = (kp_dtype)dt;
  c.align = align;
  c.form = form;
  char why[1200], shape[96];
  int e = kp_explain(ctx, &c, why, sizeof why);
  printf("%s %s %s %s align %u on sm_%d, pack %s:\n", argv[1], argv[3],
         kp_family_dims_text(c.family), kp_shape_str(&c, shape, sizeof shape), align,
         ctx->props.sm, ctx->pack.path);
  if (e < 0) {
    printf("  no variant: %s\n", why);
  } else {
    const kpk_entry *v = &ctx->pack.entries[e];
    uint64_t grid = 0;
    kp_grid_blocks(v, &c, ctx->props.sm_count, &grid);
    printf("  runs %s (%s; %llu blocks of %u threads, %u bytes of shared memory%s)\n"
           "  because %s\n", v->name, v->params, (unsigned long long)grid, v->block, v->smem,
           ctx->drv ? "" : "; grid for 132 SMs", why);
  }
  kp_call flat = c;
  if (kp_op_reshape(&flat)) {
    char fs[96];
    printf("  note: over contiguous rows whose tensors start on the 16-byte grid, %s runs\n"
           "  this call as %s align 16 (ops.c glu_flatten): explain that shape for its variant\n",
           argv[1], kp_shape_str(&flat, fs, sizeof fs));
  }
  printf("  candidates:\n");
  for (uint32_t i = 0; i < ctx->pack.n_entries; i++) {
    const kpk_entry *v = &ctx->pack.entries[i];
    if (strcmp(v->family, argv[1]) || v->dtype != (uint32_t)dt) continue;
    char no[300] = "";
    /* '+': the ranking may pick it; 't': it runs the call, but is ranked for
    ** other calls (max_align): the tuner's, a tuning table's or a pin's */
    const int ok = kp_entry_applies(v, &c, &ctx->props, no, sizeof no);
    const int ranked = ok && kp_entry_ranked(v, &c, &ctx->props, no, sizeof no);
    double tiles, work = ok ? kp_entry_fill(v, &c, &ctx->props, &tiles) : 0;
    char fill[80] = "";
    if (work > 0) snprintf(fill, sizeof fill, " (%.0f tiles; fill %.0f)", tiles, work);
    printf("    %c %-42s rank %5d  %s%s\n", (int)i == e ? '*' : ranked ? '+' : ok ? 't' : ' ',
           v->name, kp_entry_rank(v, &c), ranked ? "applies" : no, fill);
  }
  kp_ctx_destroy(ctx);
  return e < 0;
}

/* ---- kp prune --------------------------------------------------------------------- */

static const char usage_prune[] =
    "usage: kp prune TABLE PACK -o NEW\n"
    "Write NEW, a pack holding only the variants that win some key of TABLE,\n"
    "plus every variant the ranking would pick for shapes the table does not\n"
    "cover (so every call still has a variant).\n";

int kp_cmd_prune(int argc, char **argv) {
  if (help(argc, argv, usage_prune)) return 0;
  if (argc != 5 || strcmp(argv[3], "-o")) return fputs(usage_prune, stderr), 2;
  kp_tune_table t;
  kpk_pack pk;
  char err[800];
  if (kp_tune_load(&t, argv[1], err, sizeof err) != KP_OK) {
    fprintf(stderr, "kp prune: %s\n", err);
    return 1;
  }
  if (kpk_open(&pk, argv[2], err, sizeof err) != KP_OK) {
    fprintf(stderr, "kp prune: %s\n", err);
    kp_tune_free(&t);
    return 1;
  }
  int sm = 0, rc = 1, kept = 0, winners = 0;
  sscanf(pk.target, "%*[a-z_]%d", &sm);
  char *keep = calloc(pk.n_entries + 1, 1);
  kg_ranked_picks(&pk, keep, sm);
  /* the winner of every key: the lowest time among the key's rows */
  for (size_t i = 0; i < t.n; i++) {
    const kp_tune_row *r = &t.rows[i], *best = r;
    for (size_t k = 0; k < t.n; k++) {
      const kp_tune_row *q = &t.rows[k];
      if (!strcmp(q->family, r->family) && q->dtype == r->dtype &&
          !memcmp(q->dim, r->dim, sizeof q->dim) && q->align == r->align &&
          q->form == r->form && q->us < best->us)
        best = q;
    }
    for (uint32_t e = 0; e < pk.n_entries; e++)
      if (!strcmp(pk.entries[e].name, best->variant) && !keep[e]) keep[e] = 2, winners++;
  }
  kpk_writer *w = kpk_writer_like(&pk);
  for (uint32_t e = 0; w && e < pk.n_entries; e++) {
    if (!keep[e]) continue;
    if (kpk_writer_copy(w, &pk, e)) {
      fprintf(stderr, "kp prune: out of memory\n");
      goto out;
    }
    kept++;
  }
  uint8_t *buf = NULL;
  size_t size = 0;
  if (!w || kpk_writer_finish(w, &buf, &size)) {
    fprintf(stderr, "kp prune: cannot build the pack\n");
    goto out;
  }
  FILE *f = fopen(argv[4], "wb");
  if (!f || fwrite(buf, 1, size, f) != size || fclose(f)) {
    fprintf(stderr, "kp prune: %s: cannot write\n", argv[4]);
  } else {
    printf("%s: %d of %u variants (%d table winners beyond the ranking's %d), %zu bytes\n",
           argv[4], kept, pk.n_entries, winners, kept - winners, size);
    rc = 0;
  }
  free(buf);
out:
  kpk_writer_free(w);
  free(keep);
  kpk_close(&pk);
  kp_tune_free(&t);
  return rc;
}

/* ---- kp merge -------------------------------------------------------------------- */

static const char usage_merge[] =
    "usage: kp merge -o OUT TABLE...\n"
    "Merge tuning tables measured on GPUs of the same kind (or in several runs)\n"
    "into OUT: every measurement is kept, a repeated one keeps its best time.\n";

int kp_cmd_merge(int argc, char **argv) {
  if (help(argc, argv, usage_merge)) return 0;
  if (argc < 4 || strcmp(argv[1], "-o")) return fputs(usage_merge, stderr), 2;
  kp_tune_table out;
  memset(&out, 0, sizeof out);
  char err[800];
  int rc = 0;
  for (int i = 3; i < argc && !rc; i++) {
    kp_tune_table t;
    if (kp_tune_load(&t, argv[i], err, sizeof err) != KP_OK ||
        kp_tune_merge(&out, &t, err, sizeof err) != KP_OK) {
      fprintf(stderr, "kp merge: %s\n", err);
      rc = 1;
    }
    kp_tune_free(&t);
  }
  if (!rc && kp_tune_save(&out, argv[2], err, sizeof err) != KP_OK) {
    fprintf(stderr, "kp merge: %s\n", err);
    rc = 1;
  }
  if (!rc) printf("%s: %zu measurements from %d tables\n", argv[2], out.n, argc - 3);
  kp_tune_free(&out);
  return rc;
}

/* ---- kp warmup ------------------------------------------------------------------- */

static const char usage_warmup[] =
    "usage: kp warmup SHAPES [--device N] [--dtypes bf16,...] [-j JOBS] [-q]\n"
    "Load, and JIT-compile into the cache where the pack has no cubin for the\n"
    "device, every variant the calls in SHAPES (kp tune's shape lines: 'family\n"
    "rows cols', 'gemm m n k [batch]', '*' for every row family) will use, so\n"
    "that the first real call is fast (GeGLU, RoPE and GEMM in both their forms\n"
    "unless the line names one: erf and tanh, NeoX and GPT-J, nk and kn).\n"
    "Compiles run JOBS at a time (default: the CPUs online, at most 16).  Where\n"
    "the pack is PTX (compute_80.kpk) the driver compiles each variant as it is\n"
    "loaded instead (runtime/jit.h).  Prints each variant's compile (NVRTC) and\n"
    "each call's load time; progress (done/total, elapsed, ETA, the variant) goes\n"
    "to stderr: one line on a terminal, plain lines in a log; -q leaves it out.\n";

typedef struct warm_call {
  kp_call c;
  int line;
} warm_call;

/* The parallel JIT phase: workers take the next variant, compile it into
** the disk cache (kp_jit_get is thread-safe: NVRTC programs are separate,
** entries are locked), and record the time. */
typedef struct warm_jit {
  kp_ctx *ctx;
  const int *idx;
  int n;
  int next, done;
  pthread_mutex_t lock;
  double *ms;
  int *failed;
  kp_progress *prog;
} warm_jit;

static void *warm_worker(void *arg) {
  warm_jit *w = arg;
  for (;;) {
    pthread_mutex_lock(&w->lock);
    int k = w->next++;
    pthread_mutex_unlock(&w->lock);
    if (k >= w->n) return NULL;
    const kpk_entry *e = &w->ctx->pack.entries[w->idx[k]];
    size_t len;
    char *src = kpk_source_dup(&w->ctx->pack, (uint32_t)w->idx[k], &len);
    kp_jit_out j;
    char err[600];
    int have_src = src != NULL;
    int ok = have_src && kp_jit_get(w->ctx, e->name, src, len, w->ctx->jit_target, &j, err,
                                    sizeof err) == KP_OK;
    free(src);
    pthread_mutex_lock(&w->lock);
    if (!ok) {
      kp_progress_break(w->prog);
      fprintf(stderr, "kp warmup: %s: %s\n", e->name, have_src ? err : "out of memory");
      w->failed[k] = 1;
    } else {
      w->ms[k] = j.ms;
      free(j.image);
    }
    kp_progress_show(w->prog, ++w->done, "%s for %s", e->name, w->ctx->jit_target);
    pthread_mutex_unlock(&w->lock);
  }
}

/* Compile the distinct variants the calls will use, JOBS at a time. */
static int warm_jit_all(kp_ctx *ctx, const warm_call *calls, int ncalls, int jobs, int quiet) {
  int *idx = malloc((size_t)ncalls * sizeof *idx), n = 0, rc = 0;
  if (!idx) return 1;
  for (int i = 0; i < ncalls; i++) {
    char why[64];
    int e = kp_explain(ctx, &calls[i].c, why, sizeof why);
    /* (entries the driver compiles from the pack's PTX load in the calls' loop) */
    int seen = e < 0 || kp_jit_from_ptx(&ctx->pack, (uint32_t)e, ctx->jit_target);
    for (int k = 0; k < n && !seen; k++) seen = idx[k] == e;
    if (!seen) idx[n++] = e;
  }
  if (jobs > 16) jobs = 16;
  kp_progress prog;
  kp_progress_init(&prog, stderr, "kp warmup: NVRTC", n, quiet);
  warm_jit w = {ctx,  idx, n, 0, 0, PTHREAD_MUTEX_INITIALIZER, calloc((size_t)n + 1, sizeof(double)),
                calloc((size_t)n + 1, sizeof(int)), &prog};
  pthread_t th[16];
  int nt = jobs < n ? jobs : n, started = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (w.ms && w.failed)
    for (; started < nt; started++)
      if (pthread_create(&th[started], NULL, warm_worker, &w)) break;
  if (started == 0 && n > 0) warm_worker(&w);
  for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  kp_progress_break(&prog);
  for (int k = 0; w.ms && w.failed && k < n; k++) {
    if (w.failed[k]) rc = 1;
    else printf("jit %-42s %8.1f ms\n", ctx->pack.entries[idx[k]].name, w.ms[k]);
  }
  printf("kp warmup: %d variants compiled or found in the cache for %s in %.1f ms, %d at a time\n",
         n, ctx->jit_target,
         (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6, started ? started : 1);
  free(w.ms);
  free(w.failed);
  free(idx);
  return rc;
}

/* SHAPES (kp_read_shapes) times the wanted dtypes, as calls; 0, or 1 after a
** message naming the line. */
static int warm_parse(const char *path, const char *dtypes, warm_call **out, int *nout) {
  enum { MAX = 4096 };
  kp_shape *sh = malloc(MAX * sizeof *sh);
  warm_call *v = malloc(MAX * KP_DTYPE_COUNT_ * sizeof *v);
  if (!sh || !v) {
    free(sh);
    free(v);
    return fprintf(stderr, "kp warmup: out of memory\n"), 1;
  }
  /* shapes of families with forms come once per form: variants may compute one */
  int ns = kp_read_shapes(path, sh, MAX), n = 0;
  for (int i = 0; i < ns; i++)
    for (int dt = 0; dt < KP_DTYPE_COUNT_; dt++)
      if ((!dtypes || kp_in_list(dtypes, kp_dtype_name((kp_dtype)dt))) &&
          kp_shape_dtype_ok(sh[i].fam, (kp_dtype)dt))
        v[n++] = (warm_call){kp_shape_call(&sh[i], (kp_dtype)dt), sh[i].line};
  free(sh);
  if (ns < 0) {
    free(v);
    return 1;
  }
  *out = v;
  *nout = n;
  return 0;
}

int kp_cmd_warmup(int argc, char **argv) {
  if (help(argc, argv, usage_warmup)) return 0;
  if (argc < 2) return fputs(usage_warmup, stderr), 2;
  kp_options o;
  kp_options_init(&o);
  const char *dtypes = NULL;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int jobs = cpus < 1 ? 1 : cpus > 16 ? 16 : (int)cpus;
  int quiet = 0;
  for (int i = 2; i < argc; i += 2) {
    if (!strcmp(argv[i], "-q")) {
      quiet = 1, i--;
      continue;
    }
    if (i + 1 >= argc) return fprintf(stderr, "kp warmup: bad option %s\n%s", argv[i], usage_warmup), 2;
    if (!strcmp(argv[i], "--device")) o.device = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--dtypes")) dtypes = argv[i + 1];
    else if (!strcmp(argv[i], "-j") && atoi(argv[i + 1]) >= 1) jobs = atoi(argv[i + 1]);
    else return fprintf(stderr, "kp warmup: bad option %s\n%s", argv[i], usage_warmup), 2;
  }
  warm_call *calls = NULL;
  int ncalls = 0;
  if (warm_parse(argv[1], dtypes, &calls, &ncalls)) return 1;
  kp_ctx *ctx = NULL;
  kp_status s = kp_ctx_create(&o, &ctx);
  if (s != KP_OK) {
    fprintf(stderr, "kp warmup: %s: %s\n", kp_status_name(s), kp_ctx_errmsg(ctx));
    kp_ctx_destroy(ctx);
    free(calls);
    return 1;
  }
  int rc = ctx->jit_target[0] ? warm_jit_all(ctx, calls, ncalls, jobs, quiet) : 0;
  int n = 0;
  /* load each (from the cache just filled, or the driver compiles the PTX):
  ** the progress line while they load, the per-call lines after */
  const kpk_entry **ents = calloc((size_t)ncalls + 1, sizeof *ents);
  double *mss = calloc((size_t)ncalls + 1, sizeof *mss);
  kp_progress prog;
  kp_progress_init(&prog, stderr, "kp warmup: loading", ncalls, quiet || !ents || !mss);
  for (int i = 0; ents && mss && i < ncalls; i++) {
    const warm_call *w = &calls[i];
    char label[48];
    kp_progress_show(&prog, i, "%s %s", kp_fam_label(w->c.family, w->c.form, label, sizeof label),
                     kp_dtype_name(w->c.dtype));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    s = kp_prepare(ctx, &w->c, &ents[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    mss[i] = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (s != KP_OK) {
      kp_progress_break(&prog);
      fprintf(stderr, "kp warmup: %s:%d: %s %s: %s\n", argv[1], w->line,
              kp_family_name(w->c.family), kp_dtype_name(w->c.dtype), kp_ctx_errmsg(ctx));
      ents[i] = NULL;
      rc = 1;
    }
  }
  if (ents && mss) kp_progress_show(&prog, ncalls, "done");
  kp_progress_break(&prog);
  for (int i = 0; ents && mss && i < ncalls; i++) {
    const warm_call *w = &calls[i];
    const kpk_entry *e = ents[i];
    double ms = mss[i];
    if (!e) continue;
    char label[48], shape[96];
    printf("%-15s %-4s %-20s %-42s %8.1f ms\n", kp_fam_label(w->c.family, w->c.form, label, sizeof label),
           kp_dtype_name(w->c.dtype), kp_shape_str(&w->c, shape, sizeof shape), e->name, ms);
    n++;
  }
  if (!ents || !mss) fprintf(stderr, "kp warmup: out of memory\n"), rc = 1;
  printf("kp warmup: %d calls prepared for %s (%s)\n", n, ctx->info.name, ctx->info.target);
  free(ents);
  free(mss);
  kp_ctx_destroy(ctx);
  free(calls);
  return rc;
}
