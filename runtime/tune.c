/*
** tune.c -- read, write, merge and consult the autotune table (tune.h).
*/
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tune.h"

uint64_t kp_rows_bucket(uint64_t rows) {
  uint64_t b = 1;
  while (b < rows && b < (1ull << 62)) b <<= 1;
  return b;
}

const char *kp_form_name(const char *family, uint32_t form) {
  static const char *const geglu[] = {"erf", "tanh"}, *const rope[] = {"neox", "gptj"};
  if (form > 1) return NULL;
  if (!strcmp(family, "geglu")) return geglu[form];
  if (!strcmp(family, "rope")) return rope[form];
  return NULL;
}

void kp_tune_default_name(const char *target, const char *device, char *out, size_t n) {
  char slug[128];
  size_t k = 0;
  for (const char *c = device; *c && k + 1 < sizeof slug; c++) {
    char ch = (char)tolower((unsigned char)*c);
    int ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    if (ok) slug[k++] = ch;
    else if (k && slug[k - 1] != '-') slug[k++] = '-';
  }
  while (k && slug[k - 1] == '-') k--;
  slug[k] = 0;
  snprintf(out, n, "%s.%s.tune", target, k ? slug : "device");
}

void kp_tune_set_meta(kp_tune_table *t, const kp_device_info *d, const kpk_pack *pk) {
  snprintf(t->device, sizeof t->device, "%s", d->name);
  t->sm = d->sm;
  t->sm_count = d->sm_count;
  t->driver = d->driver_version;
  snprintf(t->pack_target, sizeof t->pack_target, "%s", pk->target);
  t->pack_hash = kp_pack_hash(pk);
  time_t now = time(NULL);
  strftime(t->date, sizeof t->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

uint64_t kp_pack_hash(const kpk_pack *pk) {
  uint64_t h = kp_fnv1a64(pk->target, strlen(pk->target));
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    h ^= kp_fnv1a64(e->name, strlen(e->name)) + e->src_hash + e->image_crc;
    h *= 0x100000001b3ull;
  }
  return h;
}

static kp_status perr(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static kp_status perr(char *err, size_t errlen, const char *path, int line, const char *fmt, ...) {
  int n = snprintf(err, errlen, "%s:%d: ", path, line);
  if (n >= 0 && (size_t)n < errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return KP_ERR_INVALID_ARG;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
  return s;
}

/* "key = value" header lines */
static kp_status header_line(kp_tune_table *t, char *line, const char *path, int ln, char *err,
                             size_t errlen) {
  char *eq = strchr(line, '=');
  if (!eq) return perr(err, errlen, path, ln, "expected 'key = value' or a measurement row");
  *eq = 0;
  char *k = trim(line), *v = trim(eq + 1);
  char *end;
  if (!strcmp(k, "device")) snprintf(t->device, sizeof t->device, "%s", v);
  else if (!strcmp(k, "date")) snprintf(t->date, sizeof t->date, "%s", v);
  else if (!strcmp(k, "sm") || !strcmp(k, "sm_count") || !strcmp(k, "driver")) {
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < 0 || x > 1000000)
      return perr(err, errlen, path, ln, "%s: '%s' is not a number", k, v);
    *(!strcmp(k, "sm") ? &t->sm : !strcmp(k, "sm_count") ? &t->sm_count : &t->driver) = (int)x;
  } else if (!strcmp(k, "pack")) {
    char tgt[16];
    unsigned long long h;
    if (sscanf(v, "%15s %llx", tgt, &h) != 2)
      return perr(err, errlen, path, ln, "pack: expected '<target> <hex hash>'");
    snprintf(t->pack_target, sizeof t->pack_target, "%s", tgt);
    t->pack_hash = h;
  } else {
    return perr(err, errlen, path, ln, "unknown header key '%s'", k);
  }
  return KP_OK;
}

static kp_status data_line(kp_tune_table *t, char *line, const char *path, int ln, char *err,
                           size_t errlen) {
  char fam[64], dt[16], var[256], form[16], extra[2];
  unsigned long long cols, rows;
  unsigned align;
  double us;
  int n = sscanf(line, "%63s %15s %llu %u %llu %255s %lf %15s %1s", fam, dt, &cols, &align, &rows,
                 var, &us, form, extra);
  if (n != 7 && n != 8)
    return perr(err, errlen, path, ln,
                "expected 'family dtype cols align rows variant time_us [form]' (7 or 8 fields)");
  kp_tune_row r;
  memset(&r, 0, sizeof r);
  if (n == 8) {
    while (r.form < 2 && (!kp_form_name(fam, r.form) || strcmp(form, kp_form_name(fam, r.form))))
      r.form++;
    if (r.form == 2)
      return perr(err, errlen, path, ln, "'%s' is not a form of %s%s", form, fam,
                  !strcmp(fam, "geglu")  ? " (erf, tanh)"
                  : !strcmp(fam, "rope") ? " (neox, gptj)"
                                         : " (it has none)");
  }
  int d = kp_dtype_from_name(dt);
  if (d < 0) return perr(err, errlen, path, ln, "unknown dtype '%s'", dt);
  if (strlen(fam) >= sizeof r.family || strlen(var) >= sizeof r.variant)
    return perr(err, errlen, path, ln, "family or variant name too long");
  if (cols < 1 || cols > 2147483647ull) return perr(err, errlen, path, ln, "cols %llu out of range", cols);
  if (align < 1 || align > 16 || (align & (align - 1)))
    return perr(err, errlen, path, ln, "align %u is not a power of two <= 16", align);
  if (rows < 1 || rows != kp_rows_bucket(rows))
    return perr(err, errlen, path, ln, "rows %llu is not a power-of-two bucket", rows);
  if (!(us > 0) || !isfinite(us)) return perr(err, errlen, path, ln, "time %g is not > 0", us);
  strcpy(r.family, fam);
  strcpy(r.variant, var);
  r.dtype = (kp_dtype)d;
  r.cols = cols;
  r.align = align;
  r.rows = rows;
  r.us = us;
  r.line = ln;
  if (kp_tune_add(t, &r)) return KP_ERR_NOMEM;
  return KP_OK;
}

kp_status kp_tune_parse(kp_tune_table *t, const char *text, const char *path, char *err,
                        size_t errlen) {
  memset(t, 0, sizeof *t);
  snprintf(t->path, sizeof t->path, "%s", path);
  kp_status st = KP_OK;
  int ln = 0, seen_magic = 0;
  const char *p = text;
  while (*p && st == KP_OK) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char buf[1024];
    ln++;
    if (len >= sizeof buf) {
      st = perr(err, errlen, path, ln, "line longer than %zu bytes", sizeof buf - 1);
      break;
    }
    memcpy(buf, p, len);
    buf[len] = 0;
    p += len + (nl ? 1 : 0);
    char *s = trim(buf);
    if (!*s || *s == '#') continue;
    if (!seen_magic) {
      int v;
      char extra[2];
      if (sscanf(s, "kernpack-tune %d %1s", &v, extra) != 1) {
        st = perr(err, errlen, path, ln, "not a kernpack tuning table (expected 'kernpack-tune %d')",
                  KP_TUNE_VERSION);
      } else if (v != KP_TUNE_VERSION) {
        st = perr(err, errlen, path, ln, "table format version %d, this library reads %d", v,
                  KP_TUNE_VERSION);
      }
      seen_magic = 1;
      continue;
    }
    st = strchr(s, '=') ? header_line(t, s, path, ln, err, errlen)
                        : data_line(t, s, path, ln, err, errlen);
  }
  if (st == KP_OK && !seen_magic) st = perr(err, errlen, path, ln, "empty tuning table");
  if (st != KP_OK) kp_tune_free(t);
  return st;
}

kp_status kp_tune_load(kp_tune_table *t, const char *path, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return errno == ENOENT ? KP_ERR_PACK_NOT_FOUND : KP_ERR_IO;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      if (cap >= (64u << 20)) { free(buf); buf = NULL; break; }
      char *nb = realloc(buf, cap *= 2);
      if (!nb) { free(buf); buf = NULL; }
      buf = nb;
    }
  }
  fclose(f);
  if (!buf) {
    snprintf(err, errlen, "%s: too large or out of memory", path);
    return KP_ERR_NOMEM;
  }
  buf[n] = 0;
  if (memchr(buf, 0, n)) {
    free(buf);
    snprintf(err, errlen, "%s: binary data in a text table", path);
    return KP_ERR_INVALID_ARG;
  }
  kp_status st = kp_tune_parse(t, buf, path, err, errlen);
  free(buf);
  return st;
}

static int same_key(const kp_tune_row *a, const kp_tune_row *b) {
  return !strcmp(a->family, b->family) && a->dtype == b->dtype && a->cols == b->cols &&
         a->align == b->align && a->rows == b->rows && a->form == b->form;
}

int kp_tune_add(kp_tune_table *t, const kp_tune_row *r) {
  for (size_t i = 0; i < t->n; i++)
    if (same_key(&t->rows[i], r) && !strcmp(t->rows[i].variant, r->variant)) {
      if (r->us < t->rows[i].us) t->rows[i].us = r->us;
      return 0;
    }
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    kp_tune_row *nr = realloc(t->rows, cap * sizeof *nr);
    if (!nr) return -1;
    t->rows = nr;
    t->cap = cap;
  }
  t->rows[t->n++] = *r;
  return 0;
}

/* the key's order: family, dtype, cols, align, rows, form */
static int key_cmp(const void *pa, const void *pb) {
  const kp_tune_row *a = pa, *b = pb;
  int c = strcmp(a->family, b->family);
  if (c) return c;
  if (a->dtype != b->dtype) return (int)a->dtype - (int)b->dtype;
  if (a->cols != b->cols) return a->cols < b->cols ? -1 : 1;
  if (a->align != b->align) return a->align < b->align ? -1 : 1;
  if (a->rows != b->rows) return a->rows < b->rows ? -1 : 1;
  if (a->form != b->form) return a->form < b->form ? -1 : 1;
  return 0;
}

/* key, then fastest first */
static int row_cmp(const void *pa, const void *pb) {
  const kp_tune_row *a = pa, *b = pb;
  int c = key_cmp(a, b);
  if (c) return c;
  if (a->us != b->us) return a->us < b->us ? -1 : 1;
  return strcmp(a->variant, b->variant);
}

int kp_tune_write(const kp_tune_table *t, FILE *f) {
  kp_tune_row *sorted = malloc((t->n ? t->n : 1) * sizeof *sorted);
  if (!sorted) return -1;
  if (t->n) memcpy(sorted, t->rows, t->n * sizeof *sorted); /* rows is NULL when empty */
  qsort(sorted, t->n, sizeof *sorted, row_cmp);
  fprintf(f, "kernpack-tune %d\n", KP_TUNE_VERSION);
  fprintf(f, "device = %s\nsm = %d\nsm_count = %d\ndriver = %d\npack = %s %016llx\ndate = %s\n",
          t->device, t->sm, t->sm_count, t->driver, t->pack_target[0] ? t->pack_target : "-",
          (unsigned long long)t->pack_hash, t->date);
  fprintf(f, "# family dtype cols align rows variant time_us [form]  (best per key first)\n");
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *r = &sorted[i];
    const char *form = r->form ? kp_form_name(r->family, r->form) : NULL;
    fprintf(f, "%s %s %llu %u %llu %s %.3f%s%s\n", r->family, kp_dtype_name(r->dtype),
            (unsigned long long)r->cols, r->align, (unsigned long long)r->rows, r->variant, r->us,
            form ? " " : "", form ? form : "");
  }
  free(sorted);
  return ferror(f) ? -1 : 0;
}

kp_status kp_tune_save(const kp_tune_table *t, const char *path, char *err, size_t errlen) {
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) {
    snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
    return KP_ERR_IO;
  }
  int bad = kp_tune_write(t, f);
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, path) != 0) {
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    remove(tmp);
    return KP_ERR_IO;
  }
  return KP_OK;
}

kp_status kp_tune_merge(kp_tune_table *dst, const kp_tune_table *src, char *err, size_t errlen) {
  if (!dst->device[0]) { /* empty destination takes src's metadata */
    memcpy(dst->device, src->device, sizeof dst->device);
    dst->sm = src->sm;
    dst->sm_count = src->sm_count;
    dst->driver = src->driver;
    memcpy(dst->pack_target, src->pack_target, sizeof dst->pack_target);
    dst->pack_hash = src->pack_hash;
    memcpy(dst->date, src->date, sizeof dst->date);
  } else if (strcmp(dst->device, src->device) || dst->sm != src->sm ||
             dst->sm_count != src->sm_count) {
    snprintf(err, errlen, "%s: measured on %s (sm_%d, %d SMs), not %s (sm_%d, %d SMs): not merged",
             src->path, src->device, src->sm, src->sm_count, dst->device, dst->sm, dst->sm_count);
    return KP_ERR_INVALID_ARG;
  }
  if (strcmp(src->date, dst->date) > 0) memcpy(dst->date, src->date, sizeof dst->date);
  for (size_t i = 0; i < src->n; i++)
    if (kp_tune_add(dst, &src->rows[i])) return KP_ERR_NOMEM;
  return KP_OK;
}

int kp_tune_fill(kp_tune_table *dst, const kp_tune_table *src) {
  kp_tune_row *keys = malloc((dst->n ? dst->n : 1) * sizeof *keys);
  if (!keys) return -1;
  if (dst->n) memcpy(keys, dst->rows, dst->n * sizeof *keys);
  size_t nk = dst->n;
  qsort(keys, nk, sizeof *keys, key_cmp);
  int added = 0;
  for (size_t i = 0; i < src->n; i++) {
    if (bsearch(&src->rows[i], keys, nk, sizeof *keys, key_cmp)) continue;
    kp_tune_row r = src->rows[i];
    r.line = 0; /* not read from dst's file */
    if (kp_tune_add(dst, &r)) {
      free(keys);
      return -1;
    }
    added++;
  }
  free(keys);
  return added;
}

void kp_tune_free(kp_tune_table *t) {
  free(t->rows);
  t->rows = NULL;
  t->n = t->cap = 0;
}

int kp_tune_matches(const kp_tune_table *t, const kp_device_info *d, char *why, size_t whylen) {
  if (strcmp(t->device, d->name) || t->sm != d->sm || t->sm_count != d->sm_count) {
    snprintf(why, whylen, "%s was measured on %s (sm_%d, %d SMs); this is %s (sm_%d, %d SMs)",
             t->path, t->device, t->sm, t->sm_count, d->name, d->sm, d->sm_count);
    return 0;
  }
  return 1;
}

static int find_entry(const kpk_pack *pk, const char *name) {
  for (uint32_t i = 0; i < pk->n_entries; i++)
    if (!strcmp(pk->entries[i].name, name)) return (int)i;
  return -1;
}

/* Is r a row of c's family, dtype, alignment and form (at any cols, rows)? */
static int of_call(const kp_tune_row *r, const kp_call *c) {
  return r->align == c->align && r->dtype == c->dtype && r->form == c->form &&
         !strcmp(r->family, kp_family_name(c->family));
}

/* Best variant measured at the key (cols, rows) that applies to the call c
** itself (its cols and rows, not the key's: a min_rows variant measured in
** c's bucket at larger rows does not apply to a smaller c), or -1. */
static int best_at(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c, uint64_t cols,
                   uint64_t rows, const kp_devprops *d, double *us) {
  int best = -1;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *r = &t->rows[i];
    if (r->cols != cols || r->rows != rows || !of_call(r, c)) continue;
    int e = find_entry(pk, r->variant);
    if (e < 0 || !kp_entry_applies(&pk->entries[e], c, d, NULL, 0)) continue;
    if (best < 0 || r->us < *us) {
      best = e;
      *us = r->us;
    }
  }
  return best;
}

int kp_tune_exact(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                  const kp_devprops *d) {
  double us;
  return best_at(t, pk, c, c->cols, kp_rows_bucket(c->rows), d, &us);
}

static double log2dist(uint64_t a, uint64_t b) { return fabs(log2((double)a) - log2((double)b)); }

/* The ranking's own pick, where the table timed it at the key (cols, rows)
** within KP_TUNE_MARGIN of the key's best (best_us): a lead that small is
** within the spread of a tuning run, and the ranking was chosen over many
** shapes and both devices.  Else best. */
static int keep_ranked(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                       const kp_devprops *d, uint64_t cols, uint64_t rows, int best,
                       double best_us, double *us) {
  *us = best_us;
  int r = kp_select_variant(pk, c, d, NULL, 0);
  if (r < 0 || r == best) return best;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *w = &t->rows[i];
    if (w->cols == cols && w->rows == rows && of_call(w, c) &&
        !strcmp(w->variant, pk->entries[r].name) && w->us <= best_us * (1 + KP_TUNE_MARGIN)) {
      *us = w->us;
      return r;
    }
  }
  return best;
}

/* The choice at the key (cols, rows) whose best is entry best (best_us):
** that, or the ranking's pick kept by keep_ranked; how says which, with
** kind ("exact key", "nearest key") and there (" there": times measured at
** another shape). */
static int decide(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                  const kp_devprops *d, const char *kind, const char *there, uint64_t cols,
                  uint64_t rows, int best, double best_us, char *how, size_t howlen) {
  double us;
  int k = keep_ranked(t, pk, c, d, cols, rows, best, best_us, &us);
  int n = snprintf(how, howlen, "table %s: %s cols=%llu rows<=%llu: ", t->path, kind,
                   (unsigned long long)cols, (unsigned long long)rows);
  size_t o = n < 0 ? 0 : (size_t)n < howlen ? (size_t)n : howlen;
  if (k != best)
    snprintf(how + o, howlen - o,
             "ranking's %s (%.3f us%s) kept, within %.0f%% of the best, %s (%.3f us)",
             pk->entries[k].name, us, there, 100 * KP_TUNE_MARGIN, pk->entries[best].name,
             best_us);
  else
    snprintf(how + o, howlen - o, "%s (%.3f us%s)", pk->entries[best].name, best_us, there);
  return k;
}

int kp_tune_pick(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                 const kp_devprops *d, char *how, size_t howlen) {
  uint64_t rb = kp_rows_bucket(c->rows);
  double us = 0;
  int e = best_at(t, pk, c, c->cols, rb, d, &us);
  if (e >= 0) return decide(t, pk, c, d, "exact key", "", c->cols, rb, e, us, how, howlen);
  /* nearest key: the least log2 distance in cols plus rows bucket, within
  ** KP_TUNE_REACH (a key measured at a shape 4x larger or smaller says
  ** little about this one: the ranking decides instead); ties go to the key
  ** at the call's cols, then to the smaller key */
  double bd = INFINITY, bd_c = INFINITY;
  uint64_t bc = 0, br = 0;
  int best = -1;
  double best_us = 0;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *r = &t->rows[i];
    if (!of_call(r, c)) continue;
    double dc = log2dist(r->cols, c->cols), dist = dc + log2dist(r->rows, rb);
    if (dist > KP_TUNE_REACH || dist > bd || (dist == bd && dc > bd_c) ||
        (dist == bd && dc == bd_c && (r->cols > bc || (r->cols == bc && r->rows >= br))))
      continue;
    double u;
    int k = best_at(t, pk, c, r->cols, r->rows, d, &u);
    if (k < 0) continue;
    bd = dist;
    bd_c = dc;
    bc = r->cols;
    br = r->rows;
    best = k;
    best_us = u;
  }
  if (best >= 0)
    return decide(t, pk, c, d, "nearest key", " there", bc, br, best, best_us, how, howlen);
  snprintf(how, howlen, "table %s: no measured key within reach applies", t->path);
  return -1;
}
