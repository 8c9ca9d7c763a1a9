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

void kp_tune_key_dims(const kp_call *c, uint64_t out[KPK_DIMS]) {
  const kp_dims *d = kp_family_dims(c->family);
  for (int i = 0; i < KPK_DIMS; i++)
    out[i] = i < d->n ? (d->pow2[i] ? kp_rows_bucket(c->dim[i]) : c->dim[i]) : 1;
}

/* attention's forms (runtime/ops_attention.c): bit 0 a mask by position
** ("causal", else "full"), then "+stride0" (a stride of 0 over more than
** one row: no TMA), "+paged", "+varlen", "+ws" (a split-KV workspace),
** "+wave" (a decode call whose tiles fit one wave of 16-CTA clusters) */
static const char *const attention_forms[64] = {
    "full", "causal", "full+stride0", "causal+stride0", "full+paged", "causal+paged",
    "full+stride0+paged", "causal+stride0+paged", "full+varlen", "causal+varlen",
    "full+stride0+varlen", "causal+stride0+varlen", "full+paged+varlen", "causal+paged+varlen",
    "full+stride0+paged+varlen", "causal+stride0+paged+varlen", "full+ws", "causal+ws",
    "full+stride0+ws", "causal+stride0+ws", "full+paged+ws", "causal+paged+ws",
    "full+stride0+paged+ws", "causal+stride0+paged+ws", "full+varlen+ws", "causal+varlen+ws",
    "full+stride0+varlen+ws", "causal+stride0+varlen+ws", "full+paged+varlen+ws",
    "causal+paged+varlen+ws", "full+stride0+paged+varlen+ws", "causal+stride0+paged+varlen+ws",
    "full+wave", "causal+wave", "full+stride0+wave", "causal+stride0+wave", "full+paged+wave",
    "causal+paged+wave", "full+stride0+paged+wave", "causal+stride0+paged+wave",
    "full+varlen+wave", "causal+varlen+wave", "full+stride0+varlen+wave",
    "causal+stride0+varlen+wave", "full+paged+varlen+wave", "causal+paged+varlen+wave",
    "full+stride0+paged+varlen+wave", "causal+stride0+paged+varlen+wave", "full+ws+wave",
    "causal+ws+wave", "full+stride0+ws+wave", "causal+stride0+ws+wave", "full+paged+ws+wave",
    "causal+paged+ws+wave", "full+stride0+paged+ws+wave", "causal+stride0+paged+ws+wave",
    "full+varlen+ws+wave", "causal+varlen+ws+wave", "full+stride0+varlen+ws+wave",
    "causal+stride0+varlen+ws+wave", "full+paged+varlen+ws+wave", "causal+paged+varlen+ws+wave",
    "full+stride0+paged+varlen+ws+wave", "causal+stride0+paged+varlen+ws+wave"};
_Static_assert(sizeof attention_forms / sizeof attention_forms[0] == KPK_FORMS,
               "a name for each of attention's forms");

uint32_t kp_form_count(const char *family) {
  if (!strcmp(family, "geglu") || !strcmp(family, "rope")) return 2;
  if (!strcmp(family, "gemm")) return 4;
  if (!strcmp(family, "attention")) return KPK_FORMS;
  return 1;
}

const char *kp_form_name(const char *family, uint32_t form) {
  static const char *const geglu[] = {"erf", "tanh"}, *const rope[] = {"neox", "gptj"},
                           *const gemm[] = {"nk", "kn", "nk+terms", "kn+terms"};
  if (form >= kp_form_count(family) || kp_form_count(family) < 2) return NULL;
  if (!strcmp(family, "geglu")) return geglu[form];
  if (!strcmp(family, "rope")) return rope[form];
  if (!strcmp(family, "gemm")) return gemm[form];
  return attention_forms[form];
}

int kp_form_from_name(const char *family, const char *name) {
  for (uint32_t f = 0; f < kp_form_count(family); f++)
    if (kp_form_name(family, f) && !strcmp(name, kp_form_name(family, f))) return (int)f;
  return -1;
}

const char *kp_form_flags(const char *family) {
  return !strcmp(family, "attention") ? "; each also +stride0, +paged, +varlen, +ws, +wave, in that order"
         : !strcmp(family, "gemm")      ? "; each also +terms"
                                        : "";
}

/* "32768x8192" */
static void shape_text(const kp_tune_row *r, char *out, size_t n) {
  int f = kp_family_from_name(r->family);
  int nd = f < 0 ? 0 : kp_family_dims((kp_family)f)->n;
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < nd && len < n; i++) {
    int w = snprintf(out + len, n - len, "%s%llu", i ? "x" : "", (unsigned long long)r->dim[i]);
    if (w < 0) break;
    len += (size_t)w;
  }
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
  char fam[64], dt[16], shape[128], var[256], form[48], extra[2];
  unsigned align;
  double us;
  int n = sscanf(line, "%63s %15s %127s %u %255s %lf %47s %1s", fam, dt, shape, &align, var, &us,
                 form, extra);
  if (n != 6 && n != 7)
    return perr(err, errlen, path, ln,
                "expected 'family dtype shape align variant time_us [form]' (6 or 7 fields)");
  kp_tune_row r;
  memset(&r, 0, sizeof r);
  int f = kp_family_from_name(fam);
  if (f < 0) return perr(err, errlen, path, ln, "unknown family '%s'", fam);
  if (n == 7) {
    const int fn = kp_form_from_name(fam, form);
    if (fn < 0)
      return kp_form_name(fam, 1)
                 ? perr(err, errlen, path, ln, "'%s' is not a form of %s (%s, %s%s)", form, fam,
                        kp_form_name(fam, 0), kp_form_name(fam, 1), kp_form_flags(fam))
                 : perr(err, errlen, path, ln, "'%s' is not a form of %s (it has none)", form, fam);
    r.form = (uint32_t)fn;
  }
  int d = kp_dtype_from_name(dt);
  if (d < 0) return perr(err, errlen, path, ln, "unknown dtype '%s'", dt);
  if (strlen(var) >= sizeof r.variant) return perr(err, errlen, path, ln, "variant name too long");
  const kp_dims *dn = kp_family_dims((kp_family)f);
  const char *p = shape;
  /* trailing "batch" and "g" may be left out: 1 (kp_dims_required) */
  const int need = kp_dims_required(dn);
  for (int i = 0; i < KPK_DIMS; i++) r.dim[i] = 1;
  for (int i = 0; i < dn->n; i++) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || errno || (i + 1 < need && *end != 'x') || (*end != 'x' && *end != 0) ||
        (i + 1 == dn->n && *end != 0))
      return need < dn->n
                 ? perr(err, errlen, path, ln, "shape '%s': expected %d to %d numbers joined by 'x' (%s)",
                        shape, need, dn->n, kp_family_dims_text((kp_family)f))
                 : perr(err, errlen, path, ln, "shape '%s': expected %d numbers joined by 'x' (%s)",
                        shape, dn->n, kp_family_dims_text((kp_family)f));
    if (v < 1 || v > KPK_MAX_DIM)
      return perr(err, errlen, path, ln, "shape '%s': %s = %llu out of range", shape,
                  dn->name[i], v);
    if (dn->pow2[i] && v != kp_rows_bucket(v))
      return perr(err, errlen, path, ln, "shape '%s': %s = %llu is not a power-of-two bucket",
                  shape, dn->name[i], v);
    r.dim[i] = v;
    if (*end == 0) break;
    p = end + 1;
  }
  if (align < 1 || align > 16 || (align & (align - 1)))
    return perr(err, errlen, path, ln, "align %u is not a power of two <= 16", align);
  /* (rows are written with 3 decimals: a smaller time would come back as 0) */
  if (!(us >= 0.001) || !isfinite(us))
    return perr(err, errlen, path, ln, "time %g is not a number >= 0.001 (us)", us);
  strcpy(r.family, fam);
  strcpy(r.variant, var);
  r.dtype = (kp_dtype)d;
  r.align = align;
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
        st = perr(err, errlen, path, ln,
                  "table format version %d, this library reads %d: re-tune (kp tune) to "
                  "rebuild it", v, KP_TUNE_VERSION);
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

static int same_dims(const uint64_t *a, const uint64_t *b) {
  return !memcmp(a, b, KPK_DIMS * sizeof *a);
}

static int same_key(const kp_tune_row *a, const kp_tune_row *b) {
  return !strcmp(a->family, b->family) && a->dtype == b->dtype && same_dims(a->dim, b->dim) &&
         a->align == b->align && a->form == b->form;
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

/* the key's order: family, dtype, shape (dims in order), align, form */
static int key_cmp(const void *pa, const void *pb) {
  const kp_tune_row *a = pa, *b = pb;
  int c = strcmp(a->family, b->family);
  if (c) return c;
  if (a->dtype != b->dtype) return (int)a->dtype - (int)b->dtype;
  for (int i = 0; i < KPK_DIMS; i++)
    if (a->dim[i] != b->dim[i]) return a->dim[i] < b->dim[i] ? -1 : 1;
  if (a->align != b->align) return a->align < b->align ? -1 : 1;
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
  fprintf(f, "# family dtype shape align variant time_us [form]  (best per key first)\n");
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *r = &sorted[i];
    const char *form = r->form ? kp_form_name(r->family, r->form) : NULL;
    char shape[128];
    shape_text(r, shape, sizeof shape);
    fprintf(f, "%s %s %s %u %s %.3f%s%s\n", r->family, kp_dtype_name(r->dtype), shape, r->align,
            r->variant, r->us, form ? " " : "", form ? form : "");
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

/* Is r a row of c's family, dtype, alignment and form (at any shape)? */
static int of_call(const kp_tune_row *r, const kp_call *c) {
  return r->align == c->align && r->dtype == c->dtype && r->form == c->form &&
         !strcmp(r->family, kp_family_name(c->family));
}

/* Best variant measured at the key `dim` that applies to the call c itself
** (its dims, not the key's: a min rows variant measured in c's bucket at
** larger rows does not apply to a smaller c), or -1. */
static int best_at(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                   const uint64_t *dim, const kp_devprops *d, double *us) {
  int best = -1;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *r = &t->rows[i];
    if (!same_dims(r->dim, dim) || !of_call(r, c)) continue;
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
  uint64_t key[KPK_DIMS];
  kp_tune_key_dims(c, key);
  return best_at(t, pk, c, key, d, &us);
}

static double log2dist(uint64_t a, uint64_t b) { return fabs(log2((double)a) - log2((double)b)); }

/* The ranking's own pick, where the table timed it at the key `dim`
** within KP_TUNE_MARGIN of the key's best (best_us): a lead that small is
** within the spread of a tuning run, and the ranking was chosen over many
** shapes and both devices.  Else best. */
static int keep_ranked(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                       const kp_devprops *d, const uint64_t *dim, int best, double best_us,
                       double *us) {
  *us = best_us;
  int r = kp_select_variant(pk, c, d, NULL, 0);
  if (r < 0 || r == best) return best;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *w = &t->rows[i];
    if (same_dims(w->dim, dim) && of_call(w, c) &&
        !strcmp(w->variant, pk->entries[r].name) && w->us <= best_us * (1 + KP_TUNE_MARGIN)) {
      *us = w->us;
      return r;
    }
  }
  return best;
}

/* The choice at the key `dim` whose best is entry best (best_us):
** that, or the ranking's pick kept by keep_ranked; how says which, with
** kind ("exact key", "nearest key") and there (" there": times measured at
** another shape). */
static int decide(const kp_tune_table *t, const kpk_pack *pk, const kp_call *c,
                  const kp_devprops *d, const char *kind, const char *there,
                  const uint64_t *dim, int best, double best_us, char *how, size_t howlen) {
  double us;
  int k = keep_ranked(t, pk, c, d, dim, best, best_us, &us);
  kp_call at = *c;
  memcpy(at.dim, dim, sizeof at.dim);
  char shape[96];
  int n = snprintf(how, howlen, "table %s: %s %s %s (pow2 dims as buckets): ", t->path, kind,
                   kp_family_dims_text(c->family), kp_shape_str(&at, shape, sizeof shape));
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
  uint64_t key[KPK_DIMS];
  kp_tune_key_dims(c, key);
  double us = 0;
  int e = best_at(t, pk, c, key, d, &us);
  if (e >= 0) return decide(t, pk, c, d, "exact key", "", key, e, us, how, howlen);
  /* nearest key: the least sum of log2 distances over the dims, within
  ** KP_TUNE_REACH (a key measured at a shape 4x larger or smaller says
  ** little about this one: the ranking decides instead); ties go to the key
  ** nearer in the exact dims (cols; n, k), then to the smaller key */
  const kp_dims *dn = kp_family_dims(c->family);
  double bd = INFINITY, bd_x = INFINITY;
  const uint64_t *bk = NULL;
  int best = -1;
  double best_us = 0;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *r = &t->rows[i];
    if (!of_call(r, c)) continue;
    double dist = 0, dx = 0;
    for (int j = 0; j < dn->n; j++) {
      double dj = log2dist(r->dim[j], key[j]);
      dist += dj;
      if (!dn->pow2[j]) dx += dj;
    }
    if (dist > KP_TUNE_REACH || dist > bd || (dist == bd && dx > bd_x)) continue;
    if (dist == bd && dx == bd_x && bk) {
      int smaller = 0;
      for (int j = 0; j < KPK_DIMS; j++)
        if (r->dim[j] != bk[j]) {
          smaller = r->dim[j] < bk[j];
          break;
        }
      if (!smaller) continue;
    }
    double u;
    int k = best_at(t, pk, c, r->dim, d, &u);
    if (k < 0) continue;
    bd = dist;
    bd_x = dx;
    bk = r->dim;
    best = k;
    best_us = u;
  }
  if (best >= 0)
    return decide(t, pk, c, d, "nearest key", " there", bk, best, best_us, how, howlen);
  snprintf(how, howlen, "table %s: no measured key within reach applies", t->path);
  return -1;
}

/* The L2 flush of kp tune and kpbench before each timed rep: a read of
** twice the L2 (a memset leaves its dirty lines to be written back under
** the timed kernel: 5-15% on a 60 us decode call, bench/NOTES.md 54 j; ~10
** us of every long-row call, item 78 -- the reason the Python benchmarks
** flush by a read too).  kp_flush_read(buf, n16, out) reads n16 16-byte
** vectors of buf, grid-strided; its result is stored to out only if it
** equals a constant, so the loads stay. */
const char kp_flush_read_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry kp_flush_read(.param .u64 p_buf, .param .u64 p_n, .param .u64 p_out)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [p_buf];\n  ld.param.u64 %rd2, [p_n];\n  ld.param.u64 %rd3, [p_out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n  cvt.u64.u32 %rd4, %r4;\n"
    "  mov.u32 %r5, %nctaid.x;\n  mul.lo.s32 %r6, %r5, %r2;\n  cvt.u64.u32 %rd5, %r6;\n"
    "  mov.u32 %r7, 0;\n  setp.ge.u64 %p1, %rd4, %rd2;\n  @%p1 bra DONE;\n"
    "LOOP:\n  shl.b64 %rd6, %rd4, 4;\n  add.s64 %rd7, %rd1, %rd6;\n"
    "  ld.global.v4.u32 {%r8, %r9, %r10, %r11}, [%rd7];\n"
    "  xor.b32 %r7, %r7, %r8;\n  xor.b32 %r7, %r7, %r9;\n"
    "  xor.b32 %r7, %r7, %r10;\n  xor.b32 %r7, %r7, %r11;\n"
    "  add.s64 %rd4, %rd4, %rd5;\n  setp.lt.u64 %p1, %rd4, %rd2;\n  @%p1 bra LOOP;\n"
    "DONE:\n  setp.ne.u32 %p2, %r7, 1511506142;\n  @%p2 bra END;\n"
    "  cvta.to.global.u64 %rd8, %rd3;\n  st.global.u32 [%rd8], %r7;\n"
    "END:\n  ret;\n}\n";
