/*
** dims.c -- a family's named dimensions ("rows:pow2,cols",
** "m:pow2,n,k,batch:pow2") and the rules an entry's ranges must follow so
** that the selection cache's classes never straddle a bound (select.c).
** Shared by the generator (templates) and the runtime (pack reader, calls).
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pack.h"

#define FAIL_(...) do { if (err) snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int kp_dims_parse(const char *s, kp_dims *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  const char *p = s;
  if (!*p) FAIL_("dims: empty (expected names such as \"rows:pow2,cols\")");
  while (*p) {
    if (out->n == KPK_DIMS) FAIL_("dims '%s': more than %d dimensions", s, KPK_DIMS);
    size_t len = 0;
    while (isalnum((unsigned char)p[len]) || p[len] == '_') len++;
    if (!len || len >= sizeof out->name[0] || isdigit((unsigned char)*p))
      FAIL_("dims '%s': expected an identifier of 1-15 characters at '%s'", s, p);
    memcpy(out->name[out->n], p, len);
    for (int i = 0; i < out->n; i++)
      if (!strcmp(out->name[i], out->name[out->n])) FAIL_("dims '%s': '%s' twice", s, out->name[i]);
    p += len;
    if (!strncmp(p, ":pow2", 5)) {
      out->pow2[out->n] = 1;
      p += 5;
    }
    out->n++;
    if (*p == ',') p++;
    else if (*p) FAIL_("dims '%s': expected ',' or ':pow2' at '%s'", s, p);
  }
  return 0;
}

int kp_dims_find(const kp_dims *d, const char *name) {
  for (int i = 0; i < d->n; i++)
    if (!strcmp(d->name[i], name)) return i;
  return -1;
}

int kp_dims_required(const kp_dims *d) {
  int n = d->n;
  while (n > 1 && (!strcmp(d->name[n - 1], "batch") || !strcmp(d->name[n - 1], "g"))) n--;
  return n;
}

static int pow2_or_zero(uint64_t v) { return !(v & (v - 1)); }

int kp_dims_check_entry(const kp_dims *d, const kpk_entry *e, char *err, size_t errlen) {
  for (int i = 0; i < KPK_DIMS; i++) {
    const char *nm = i < d->n ? d->name[i] : "(unused)";
    if (i >= d->n) {
      if (e->dmin[i] || e->dmax[i] || e->dmult[i] || e->tile[i])
        FAIL_("dimension %d is past the family's %d but has a range, multiple or tile", i, d->n);
      continue;
    }
    if (e->dmax[i] > KPK_MAX_DIM || e->dmin[i] > KPK_MAX_DIM ||
        (e->dmax[i] && e->dmin[i] > e->dmax[i]))
      FAIL_("%s range [%llu, %llu] is empty or past %u", nm, (unsigned long long)e->dmin[i],
            (unsigned long long)e->dmax[i], KPK_MAX_DIM);
    if (e->dmult[i] > KPK_MAX_MULT) FAIL_("%s multiple %u is more than %u", nm, e->dmult[i], KPK_MAX_MULT);
    if (e->tile[i] > KPK_MAX_DIM) FAIL_("%s tile %u is more than %u", nm, e->tile[i], KPK_MAX_DIM);
    if (d->pow2[i]) {
      if (!pow2_or_zero(e->dmin[i]) && !(e->dmin[i] > 2 && pow2_or_zero(e->dmin[i] - 1)))
        FAIL_("%s: min %llu is not 0, a power of two or one more (a bucketed dimension)", nm,
              (unsigned long long)e->dmin[i]);
      if (!pow2_or_zero(e->dmax[i]) && !pow2_or_zero(e->dmax[i] + 1))
        FAIL_("%s: max %llu is not a power of two or one less (a bucketed dimension)", nm,
              (unsigned long long)e->dmax[i]);
      if (e->dmult[i] > 1)
        FAIL_("%s: a bucketed dimension cannot require a multiple (%u)", nm, e->dmult[i]);
    }
  }
  return 0;
}
