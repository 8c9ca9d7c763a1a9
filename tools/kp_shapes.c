/*
** kp_shapes.c -- the shapes `kp tune`, `kp regen` and `kp warmup` work on:
** shape files, the built-in list, and what a shape means as a call (its
** alignment, its tuning-table key, the size of the tensors a timing job
** allocates for it).  Nothing here touches a GPU.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_cmds.h"
#include "tune.h"

int kp_family_forms(kp_family fam) { return kp_form_name(kp_family_name(fam), 1) ? 2 : 1; }

const char *kp_fam_label(kp_family fam, uint32_t form, char *buf, size_t n) {
  const char *name = kp_family_name(fam), *f = kp_form_name(name, form);
  if (kp_family_forms(fam) < 2 || !f) return name;
  snprintf(buf, n, "%s/%s", name, f);
  return buf;
}

const char *kp_shape_text(const kp_shape *sh, char *out, size_t n) {
  kp_call c = kp_shape_call(sh, KP_BF16);
  return kp_shape_str(&c, out, n);
}

int kp_is_row_family(kp_family fam) {
  const kp_dims *d = kp_family_dims(fam);
  return d->n == 2 && !strcmp(d->name[KP_ROWS], "rows") && !strcmp(d->name[KP_COLS], "cols");
}

int kp_shape_dtype_ok(kp_family fam, kp_dtype dt) {
  /* kernpack.h: GEMM's and attention's inputs */
  return (fam != KP_FAM_GEMM && fam != KP_FAM_ATTENTION) || dt == KP_F16 || dt == KP_BF16;
}

static void lower(uint32_t *a, uint64_t bytes) {
  uint32_t b = kp_align_of(bytes);
  if (b < *a) *a = b;
}

/* The jobs' tensors are packed and their pointers come from cuMemAlloc (256
** bytes aligned), so the row and batch strides decide; the same rule as the
** op's (runtime/ops.c: a stride counts only where a second row or matrix
** uses it), so that the table's key is the key the real call looks up. */
uint64_t kp_shape_kv_heads(const kp_shape *sh) {
  return (uint64_t)sh->dim[KP_ABH] / (uint64_t)(sh->dim[KP_AG] > 1 ? sh->dim[KP_AG] : 1);
}

uint32_t kp_shape_align(const kp_shape *sh, kp_dtype dt) {
  const uint64_t es = kp_dtype_size(dt);
  uint32_t a = 16;
  if (sh->fam == KP_FAM_GEMM) {
    // A: (m, k); B: (n, k) "nk" or (k, n) "kn"; D: (m, n); per batch
    const uint64_t m = (uint64_t)sh->dim[KP_GM], n = (uint64_t)sh->dim[KP_GN],
                   k = (uint64_t)sh->dim[KP_GK], nb = (uint64_t)sh->dim[KP_GBATCH];
    const int nk = sh->form == KP_B_NK;
    if (m > 1) lower(&a, k * es), lower(&a, n * es);
    if ((nk ? n : k) > 1) lower(&a, (nk ? k : n) * es);
    if (nb > 1) lower(&a, m * k * es), lower(&a, n * k * es), lower(&a, m * n * es);
    return a;
  }
  if (sh->fam == KP_FAM_ATTENTION) {
    // Q, O: (1, lq, bh, d); K, V: (1, lk, bh / g, d); packed (kp_tune's job)
    const uint64_t lq = (uint64_t)sh->dim[KP_ALQ], lk = (uint64_t)sh->dim[KP_ALK],
                   bh = (uint64_t)sh->dim[KP_ABH], d = (uint64_t)sh->dim[KP_AD],
                   kvh = kp_shape_kv_heads(sh);
    if (bh > 1) lower(&a, d * es);
    if (lq > 1) lower(&a, bh * d * es);
    if (lk > 1) lower(&a, kvh * d * es);
    return a;
  }
  const uint64_t rows = (uint64_t)sh->dim[KP_ROWS], cols = (uint64_t)sh->dim[KP_COLS];
  if (sh->fam == KP_FAM_ROPE) { /* the head stride always counts; NeoX reads cols/2 halves */
    lower(&a, cols * es);
    if (sh->form == KP_ROPE_NEOX) lower(&a, cols / 2 * es);
    return a;
  }
  if (rows > 1) lower(&a, cols * es);
  return a;
}

kp_call kp_shape_call(const kp_shape *sh, kp_dtype dt) {
  kp_call c;
  memset(&c, 0, sizeof c);
  c.family = sh->fam;
  c.dtype = dt;
  c.align = kp_shape_align(sh, dt);
  c.form = sh->form;
  const kp_dims *d = kp_family_dims(sh->fam);
  for (int i = 0; i < KPK_DIMS; i++) c.dim[i] = i < d->n ? (uint64_t)sh->dim[i] : 1;
  return c;
}

void kp_shape_key(const kp_shape *sh, kp_dtype dt, kp_tune_row *row) {
  kp_call c = kp_shape_call(sh, dt);
  memset(row, 0, sizeof *row);
  snprintf(row->family, sizeof row->family, "%s", kp_family_name(sh->fam));
  row->dtype = dt;
  kp_tune_key_dims(&c, row->dim);
  row->align = c.align;
  row->form = sh->form;
}

static uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

uint64_t kp_shape_elems(const kp_shape *sh) {
  if (sh->fam == KP_FAM_GEMM) {
    uint64_t m = (uint64_t)sh->dim[KP_GM], n = (uint64_t)sh->dim[KP_GN], k = (uint64_t)sh->dim[KP_GK];
    uint64_t mk = mul_sat(m, k), nk = mul_sat(n, k), mn = mul_sat(m, n);
    uint64_t big = mk > nk ? mk : nk;
    return mul_sat(big > mn ? big : mn, (uint64_t)sh->dim[KP_GBATCH]);
  }
  if (sh->fam == KP_FAM_ATTENTION) { /* the larger of Q (lq, bh, d) and K (lk, bh / g, d) */
    const uint64_t q = mul_sat((uint64_t)sh->dim[KP_ALQ], (uint64_t)sh->dim[KP_ABH]),
                   k = mul_sat((uint64_t)sh->dim[KP_ALK], kp_shape_kv_heads(sh));
    return mul_sat(q > k ? q : k, (uint64_t)sh->dim[KP_AD]);
  }
  uint64_t rc = mul_sat((uint64_t)sh->dim[KP_ROWS], (uint64_t)sh->dim[KP_COLS]);
  if (sh->fam == KP_FAM_ROPE) return mul_sat(rc, KP_TUNE_ROPE_HQ); /* q: (tokens, heads_q, head_dim) */
  if (sh->fam == KP_FAM_RMSNORM_SWIGLU) return mul_sat(rc, 2);    /* x: (rows, 2 cols) */
  return rc;
}

/* Roughly the time a call of sh takes, in bytes moved: the largest tensor's
** bytes, or for GEMM and attention their multiply-adds / 150 where those
** weigh more (an H100/H200 does ~300 bf16 flops per byte of HBM). */
double kp_shape_cost(const kp_shape *sh, kp_dtype dt) {
  const double bytes = (double)kp_shape_elems(sh) * (double)kp_dtype_size(dt);
  double macs = 0;
  if (sh->fam == KP_FAM_GEMM)
    macs = (double)sh->dim[KP_GM] * (double)sh->dim[KP_GN] * (double)sh->dim[KP_GK] *
           (double)sh->dim[KP_GBATCH];
  else if (sh->fam == KP_FAM_ATTENTION) /* Q K^T and P V */
    macs = 2.0 * (double)sh->dim[KP_ALQ] * (double)sh->dim[KP_ALK] * (double)sh->dim[KP_ABH] *
           (double)sh->dim[KP_AD];
  return macs / 150 > bytes ? macs / 150 : bytes;
}

/* ---- the built-in list ---------------------------------------------------------- */

/* out[n++] = sh in each of its family's forms 0 and 1 (form < 0) or in form
** `form`, while there is room */
static int put_shape(kp_shape *out, int n, int max, kp_shape sh, int form) {
  const int lo = form < 0 ? 0 : form, hi = form < 0 ? kp_family_forms(sh.fam) : form + 1;
  for (int f = lo; f < hi && n < max; f++) {
    sh.form = (uint32_t)f;
    out[n++] = sh;
  }
  return n;
}

static kp_shape mk(kp_family fam, int64_t a, int64_t b, int64_t c, int64_t d) {
  kp_shape sh = {fam, 0, {a, b, c, d, 1}, 0};
  return sh;
}

/* Built-in LLM-typical shapes.  Row families: hidden sizes of common models
** by token counts from decode to long prefill.  GEMM: the projections of
** 7B/8B-class models (hidden 4096, MLP 11008 or 14336) at m from decode to
** prefill, and 8192^3; B as nn.Linear's weight (nk), and a few as (k, n).
** At most KP_TUNE_BUILTIN_ELEMS elements in rows x cols (row families) or
** in each of A, B and D (GEMM). */
int kp_builtin_shapes(kp_shape *out, int max) {
  static const int64_t rows[] = {1, 32, 512, 4096, 32768};
  static const int64_t cols[] = {1024, 2048, 4096, 5120, 8192, 14336};
  int n = 0;
  for (int f = 0; f < KP_FAM_COUNT; f++) {
    kp_family fam = (kp_family)f;
    if (!kp_is_row_family(fam)) continue;
    if (fam == KP_FAM_ROPE) { /* rows = tokens, cols = head_dim */
      static const int64_t tok[] = {1, 64, 1024, 16384};
      static const int64_t hd[] = {64, 128};
      for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 2; b++) n = put_shape(out, n, max, mk(fam, tok[a], hd[b], 1, 1), -1);
      continue;
    }
    for (size_t a = 0; a < sizeof rows / sizeof rows[0]; a++)
      for (size_t b = 0; b < sizeof cols / sizeof cols[0]; b++) {
        kp_shape sh = mk(fam, rows[a], cols[b], 1, 1); /* rows x cols within the cap */
        if (rows[a] * cols[b] <= (int64_t)KP_TUNE_BUILTIN_ELEMS) n = put_shape(out, n, max, sh, -1);
      }
  }
  /* (m = 64: without it a tuned table answers m = 33..64 from m = 128's key,
  ** whose 128-row winners run their rows half empty there -- 1.4x slower
  ** at m = 64, n = 11008: bench/NOTES.md 60) */
  static const int64_t m[] = {1, 16, 64, 128, 512, 4096};
  static const int64_t kn[][2] = {{4096, 4096}, {4096, 11008}, {11008, 4096}, {4096, 14336}};
  for (size_t a = 0; a < sizeof m / sizeof m[0]; a++)
    for (size_t b = 0; b < sizeof kn / sizeof kn[0]; b++) {
      kp_shape sh = mk(KP_FAM_GEMM, m[a], kn[b][1], kn[b][0], 1);
      if (kp_shape_elems(&sh) <= KP_TUNE_BUILTIN_ELEMS) n = put_shape(out, n, max, sh, KP_B_NK);
    }
  kp_shape big = mk(KP_FAM_GEMM, 8192, 8192, 8192, 1);
  if (kp_shape_elems(&big) <= KP_TUNE_BUILTIN_ELEMS) n = put_shape(out, n, max, big, KP_B_NK);
  static const int64_t m_kn[] = {1, 128, 4096};
  for (size_t a = 0; a < sizeof m_kn / sizeof m_kn[0]; a++)
    for (size_t b = 0; b < 2; b++) {
      kp_shape sh = mk(KP_FAM_GEMM, m_kn[a], kn[b][1], kn[b][0], 1);
      if (kp_shape_elems(&sh) <= KP_TUNE_BUILTIN_ELEMS) n = put_shape(out, n, max, sh, KP_B_KN);
    }
  /* attention: 16 heads, batch x seq = 16K at seq 1K and 4K (bh = 16 x
  ** batch), head dims 64, 96, 128 and 256, full and causal; decode over 8K and 32K
  ** keys, 32 query heads over 8 KV heads (g = 4: batch 1 of the issue's
  ** decode bars; its batch 8 is past the built-in size), without and with
  ** a workspace ("full+ws": the split-KV decode against the clusters) */
  static const int64_t seq[] = {1024, 4096}, hdim[] = {64, 96, 128, 256};
  for (size_t a = 0; a < 2; a++)
    for (size_t b = 0; b < 4; b++) {
      kp_shape sh = mk(KP_FAM_ATTENTION, seq[a], seq[a], 16 * (16384 / seq[a]), hdim[b]);
      if (kp_shape_elems(&sh) <= KP_TUNE_BUILTIN_ELEMS) n = put_shape(out, n, max, sh, -1);
    }
  static const int64_t keys[] = {8192, 32768};
  for (size_t a = 0; a < 2; a++) {
    kp_shape dec = mk(KP_FAM_ATTENTION, 1, keys[a], 32, 128);
    dec.dim[KP_AG] = 4;
    if (kp_shape_elems(&dec) <= KP_TUNE_BUILTIN_ELEMS) {
      n = put_shape(out, n, max, dec, 0);
      n = put_shape(out, n, max, dec, KP_ATTN_FORM_WS);
    }
  }
  return n;
}

/* ---- shape files ------------------------------------------------------------------ */

/* "gemm[/nk|/kn] m n k [batch]": the syntax of a family's shape lines */
static const char *syntax(kp_family fam, char *out, size_t n) {
  const char *name = kp_family_name(fam);
  const kp_dims *d = kp_family_dims(fam);
  size_t len = (size_t)snprintf(out, n, "%s", name);
  for (uint32_t f = 0; kp_family_forms(fam) > 1 && f < 2 && len < n; f++)
    len += (size_t)snprintf(out + len, n - len, "%s/%s%s", f ? "|" : "[", kp_form_name(name, f),
                            f ? "]" : "");
  for (int i = 0; i < d->n && len < n; i++)
    len += (size_t)snprintf(out + len, n - len, i < kp_dims_required(d) ? " %s" : " [%s]", d->name[i]);
  return out;
}

__attribute__((format(printf, 3, 4))) static int bad(const char *path, int ln, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "kp: %s:%d: ", path, ln);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return -1;
}

/* One line (p, modified: comment cut off, split) appended to out[n..]; the
** new count, or -1 after a message naming path:ln. */
static int parse_line(const char *path, int ln, char *p, kp_shape *out, int n, int max) {
  char *hash = strchr(p, '#');
  if (hash) *hash = 0;
  char *tok[8], *save = NULL;
  int nt = 0;
  for (char *t = strtok_r(p, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
    if (nt == 8) return bad(path, ln, "too many fields");
    tok[nt++] = t;
  }
  if (!nt) return n;
  char *slash = strchr(tok[0], '/');
  const char *form = slash ? slash + 1 : NULL;
  if (slash) *slash = 0;
  int all = !strcmp(tok[0], "*"), fam = all ? -1 : kp_family_from_name(tok[0]);
  if (!all && fam < 0) {
    char known[300];
    size_t len = 0;
    for (int f = 0; f < KP_FAM_COUNT && len < sizeof known; f++)
      len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", f ? ", " : "",
                              kp_family_name((kp_family)f));
    return bad(path, ln, "unknown family '%s' (%s; or '*' for every row family)", tok[0], known);
  }
  int form_no = -1;
  if (form && all) return bad(path, ln, "'*/%s': '*' takes no form (each family gets all of its)", form);
  if (form) {
    const char *name = kp_family_name((kp_family)fam);
    form_no = kp_form_from_name(name, form);
    if (form_no < 0) {
      if (kp_family_forms((kp_family)fam) < 2)
        return bad(path, ln, "'%s' is not a form of %s (it has none)", form, name);
      return bad(path, ln, "'%s' is not a form of %s (%s, %s%s)", form, name, kp_form_name(name, 0),
                 kp_form_name(name, 1), kp_form_flags(name));
    }
    if (fam == KP_FAM_GEMM && form_no > 1)
      return bad(path, ln, "gemm/%s: kp tune times plain calls (D = A B), nk and kn only", form);
    if (fam == KP_FAM_ATTENTION && (form_no & ~(1 | KP_ATTN_FORM_WS)))
      return bad(path, ln, "attention/%s: kp tune times the full and causal forms, with or without "
                 "+ws, only", form);
  }
  /* '*' stands for the row families: rows cols */
  const kp_dims *d = kp_family_dims(all ? KP_FAM_SOFTMAX : (kp_family)fam);
  char syn[96];
  if (all) snprintf(syn, sizeof syn, "* rows cols");
  else syntax((kp_family)fam, syn, sizeof syn);
  int nd = nt - 1;
  if (nd < kp_dims_required(d) || nd > d->n)
    return bad(path, ln, "expected '%s', got %d number%s", syn, nd, nd == 1 ? "" : "s");
  kp_shape sh = {all ? KP_FAM_SOFTMAX : (kp_family)fam, 0, {1, 1, 1, 1, 1}, ln};
  for (int i = 0; i < nd; i++) {
    char *end;
    errno = 0;
    long long v = strtoll(tok[i + 1], &end, 10);
    if (*end || end == tok[i + 1] || errno || v < 1 || v > (long long)KPK_MAX_DIM)
      return bad(path, ln, "expected '%s': %s = '%s' is not a number in 1..%u", syn, d->name[i],
                 tok[i + 1], KPK_MAX_DIM);
    sh.dim[i] = v;
  }
  if (sh.fam == KP_FAM_ATTENTION && sh.dim[KP_ABH] % sh.dim[KP_AG])
    return bad(path, ln, "expected '%s': g = %lld does not divide bh = %lld (g query heads share a "
               "KV head)", syn, (long long)sh.dim[KP_AG], (long long)sh.dim[KP_ABH]);
  for (int f = 0; f < KP_FAM_COUNT; f++) {
    if (all ? !kp_is_row_family((kp_family)f) : f != fam) continue;
    sh.fam = (kp_family)f;
    if (kp_shape_elems(&sh) > KP_TUNE_MAX_ELEMS)
      return bad(path, ln, "%s: a tensor of %llu elements: too large to time (at most %llu)",
                 kp_family_name(sh.fam), (unsigned long long)kp_shape_elems(&sh),
                 (unsigned long long)KP_TUNE_MAX_ELEMS);
    int want = form_no < 0 ? kp_family_forms(sh.fam) : 1;
    if (n + want > max) return bad(path, ln, "more than %d shapes", max);
    n = put_shape(out, n, max, sh, form_no);
  }
  return n;
}

int kp_read_shapes(const char *path, kp_shape *out, int max) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "kp: %s: cannot open\n", path);
    return -1;
  }
  char line[512];
  int n = 0, ln = 0;
  while (n >= 0 && fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f)) {
      n = bad(path, ln, "line longer than %zu characters", sizeof line - 2);
      break;
    }
    n = parse_line(path, ln, line, out, n, max);
  }
  fclose(f);
  return n;
}
