/*
** select.c -- the selection rules, as pure functions of the pack, the call
** and the device, so they can be tested on any machine.
**
** Variant rule: among the pack's entries of the call's family and dtype whose
** range holds every dimension of the call (and whose multiples divide them),
** that compute the call's form (GeGLU's GELU, RoPE's layout, GEMM's B
** layout), whose alignment requirement the call meets, whose SM range holds
** the device and whose shared memory fits, take the highest rank; ties
** between persistent entries go to the one whose tiles fill the device best
** (kp_entry_fill: the least work on the busiest SM, then the fewer tiles),
** other ties to the earliest entry.  (The tuning table, tune.c, decides
** first when loaded.)
**
** Bounds and the selection cache: launch.c caches the choice per (family,
** dtype, alignment, form, and each dimension's class).  An exact dimension
** (cols, GEMM's n and k) is its own class.  A pow2 dimension's class (rows,
** GEMM's m and batch) lies inside ceil(log2 v) -- the tuning table's bucket
** (2^(k-1), 2^k] -- as v = 2^k alone or an eighth of (2^(k-1), 2^k)
** (kp_pow2_class_top: the fill tie-break's tile counts).  Within
** a class floor(log2 v) is constant too, so for a power of two 2^m the test
** v >= 2^m has one answer for every member, and so have v >= 2^m + 1,
** v <= 2^m and v <= 2^m - 1 (2^m is a class alone).  That is why a pow2
** dimension's min must be 0, a power of two or one more, its max a power of
** two or one less, and it takes no multiple (the
** generator and the pack reader refuse anything else, kp_dims_check_entry):
** a threshold of 1000 would split the class (512, 1024) and two calls
** sharing a cache slot could need different variants.  The table's choice,
** made among the variants that apply to the call, is then constant per
** class as well.
**
** Pack rule (kp_target_score): exact arch-specific cubin, exact cubin, the
** newest cubin of the same major version that is not newer than the device
** (SASS is forward compatible within a major), else the newest PTX that is
** not newer than the device (the driver JIT-compiles it).  Arch-specific
** ("a") cubins run only on exactly their SM.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const family_names[] = {
#define KP_FAMILY_NAME_(id, name, sig, dims, pdl) name,
    KP_FAMILY_LIST(KP_FAMILY_NAME_)
#undef KP_FAMILY_NAME_
};
static const char *const family_sigs[] = {
#define KP_FAMILY_SIG_(id, name, sig, dims, pdl) sig,
    KP_FAMILY_LIST(KP_FAMILY_SIG_)
#undef KP_FAMILY_SIG_
};
static const char *const family_dims[] = {
#define KP_FAMILY_DIMS_(id, name, sig, dims, pdl) dims,
    KP_FAMILY_LIST(KP_FAMILY_DIMS_)
#undef KP_FAMILY_DIMS_
};
static const unsigned char family_pdl[] = {
#define KP_FAMILY_PDL_(id, name, sig, dims, pdl) pdl,
    KP_FAMILY_LIST(KP_FAMILY_PDL_)
#undef KP_FAMILY_PDL_
};
static kp_dims parsed_dims[KP_FAM_COUNT];
static pthread_once_t dims_once = PTHREAD_ONCE_INIT;
static void parse_all_dims(void) {
  for (int f = 0; f < KP_FAM_COUNT; f++) kp_dims_parse(family_dims[f], &parsed_dims[f], NULL, 0);
}

int kp_family_pdl(kp_family f) { return (unsigned)f < KP_FAM_COUNT && family_pdl[f]; }

const char *kp_family_name(kp_family f) {
  return (unsigned)f < KP_FAM_COUNT ? family_names[f] : "?";
}
int kp_family_from_name(const char *s) {
  for (int f = 0; f < KP_FAM_COUNT; f++)
    if (!strcmp(s, family_names[f])) return f;
  return -1;
}

int kp_dtype_from_name(const char *s) {
  for (int d = 0; d < KP_DTYPE_COUNT_; d++)
    if (!strcmp(s, kp_dtype_name((kp_dtype)d))) return d;
  return -1;
}

const char *kp_family_signature(kp_family f) {
  return (unsigned)f < KP_FAM_COUNT ? family_sigs[f] : "";
}

const char *kp_family_dims_text(kp_family f) {
  return (unsigned)f < KP_FAM_COUNT ? family_dims[f] : "";
}

const kp_dims *kp_family_dims(kp_family f) {
  static const kp_dims none;
  pthread_once(&dims_once, parse_all_dims);
  return (unsigned)f < KP_FAM_COUNT ? &parsed_dims[f] : &none;
}

const char *kp_shape_str(const kp_call *c, char *out, size_t n) {
  const kp_dims *d = kp_family_dims(c->family);
  size_t len = 0;
  out[0] = 0;
  for (int i = 0; i < d->n && len < n; i++) {
    int w = snprintf(out + len, n - len, "%s%llu", i ? "x" : "", (unsigned long long)c->dim[i]);
    if (w < 0) break;
    len += (size_t)w;
  }
  return out;
}

int kp_entry_applies(const kpk_entry *e, const kp_call *c, const kp_devprops *d, char *why,
                     size_t whylen) {
#define KP_NO_(...) do { if (why) snprintf(why, whylen, __VA_ARGS__); return 0; } while (0)
  if (strcmp(e->family, kp_family_name(c->family)) != 0) KP_NO_("other family");
  if (e->dtype != (uint32_t)c->dtype) KP_NO_("other dtype");
  const kp_dims *dn = kp_family_dims(c->family);
  for (int i = 0; i < dn->n; i++) {
    unsigned long long v = c->dim[i];
    if (v < e->dmin[i] && !e->dmax[i])
      KP_NO_("needs %s >= %llu, call has %llu", dn->name[i], (unsigned long long)e->dmin[i], v);
    if (v < e->dmin[i] || (e->dmax[i] && v > e->dmax[i]))
      KP_NO_("%s %llu outside [%llu, %llu]", dn->name[i], v, (unsigned long long)e->dmin[i],
             (unsigned long long)e->dmax[i]);
    if (e->dmult[i] > 1 && v % e->dmult[i])
      KP_NO_("needs %s a multiple of %u, call has %llu", dn->name[i], e->dmult[i], v);
  }
  if (e->forms && !(c->form < KPK_FORMS && (e->forms >> c->form & 1)))
    KP_NO_("computes forms 0x%llx, call has form %u", (unsigned long long)e->forms, c->form);
  if (c->align < e->align) KP_NO_("needs %u-byte alignment, call has %u", e->align, c->align);
  if (e->min_sm && (uint32_t)d->sm < e->min_sm) KP_NO_("needs sm >= %u", e->min_sm);
  if (e->max_sm && (uint32_t)d->sm > e->max_sm) KP_NO_("needs sm <= %u", e->max_sm);
  if (e->smem > d->smem_optin)
    KP_NO_("needs %u bytes of shared memory, device allows %zu", e->smem, d->smem_optin);
#undef KP_NO_
  return 1;
}

int kp_entry_ranked(const kpk_entry *e, const kp_call *c, const kp_devprops *d, char *why,
                    size_t whylen) {
  if (!kp_entry_applies(e, c, d, why, whylen)) return 0;
  if (e->max_align && c->align > e->max_align) {
    if (why)
      snprintf(why, whylen, "ranked for calls aligned to at most %u bytes, call has %u "
               "(the tuner's or a pin's)", e->max_align, c->align);
    return 0;
  }
  return 1;
}

int32_t kp_entry_rank(const kpk_entry *e, const kp_call *c) {
  return c->form < KPK_FORMS && (e->prefer_forms >> c->form & 1) ? e->prefer_rank : e->rank;
}

/* A persistent entry deals its tiles (times split) to persist x SM-count
** CTAs in rounds: the busiest SM does ceil(tiles / CTAs) of them, each a
** tile's area (over the dimensions the entry tiles) over split, at the
** entry's rate (per mille of the family's fastest per element, measured:
** a 128x64 GEMM tile runs at about half a 128x256's).  That time is what a
** rank's tie is decided on: GEMM's tiles of 64 to 256 columns share a rank,
** and m = 256, n = 11008 takes 128x168 (132 tiles, one round on 132 SMs)
** over 64x256 (172 tiles, two rounds of less work each).  A pow2
** dimension counts at the top of its class (kp_pow2_class_top: m = 600
** as 640), so that every call of one selection-cache slot gets the same
** answer. */
double kp_entry_fill(const kpk_entry *e, const kp_call *c, const kp_devprops *d, double *tiles) {
  const kp_dims *dn = kp_family_dims(c->family);
  double n = 1, area = 1;
  if (tiles) *tiles = 0;
  if (!e->persist || d->sm_count <= 0) return 0;
  for (int i = 0; i < dn->n; i++) {
    if (!e->tile[i]) continue;
    const double v = (double)(dn->pow2[i] ? kp_pow2_class_top(c->dim[i]) : c->dim[i]);
    n *= ceil(v / e->tile[i]);
    area *= e->tile[i];
  }
  const double split = e->split > 1 ? e->split : 1, rate = e->rate ? e->rate / 1000.0 : 1;
  if (tiles) *tiles = n * split;
  return ceil(n * split / ((double)e->persist * d->sm_count)) * area / split / rate;
}

/* Does a beat b, both of one rank, on how their tiles fill the device? */
static int fills_better(const kpk_entry *a, const kpk_entry *b, const kp_call *c,
                        const kp_devprops *d) {
  double ta, tb;
  const double fa = kp_entry_fill(a, c, d, &ta), fb = kp_entry_fill(b, c, d, &tb);
  if (!(fa > 0 && fb > 0)) return 0;
  return fa < fb || (fa == fb && ta < tb);
}

int kp_select_variant(const kpk_pack *pk, const kp_call *c, const kp_devprops *d, char *why,
                      size_t whylen) {
  int best = -1, seen = 0;
  for (uint32_t i = 0; i < pk->n_entries; i++) {
    const kpk_entry *e = &pk->entries[i];
    if (e->dtype != (uint32_t)c->dtype || strcmp(e->family, kp_family_name(c->family)) != 0)
      continue;
    seen++;
    if (!kp_entry_ranked(e, c, d, NULL, 0)) continue;
    const int32_t r = kp_entry_rank(e, c), rb = best < 0 ? 0 : kp_entry_rank(&pk->entries[best], c);
    if (best < 0 || r > rb || (r == rb && fills_better(e, &pk->entries[best], c, d))) best = (int)i;
  }
  if (best < 0 && why) {
    char shape[96];
    snprintf(why, whylen,
             "%s: no %s variant in pack %s applies to %s %s with %u-byte alignment "
             "on sm_%d (%d %s %s variants in the pack)",
             kp_family_name(c->family), kp_dtype_name(c->dtype), pk->path,
             kp_family_dims_text(c->family), kp_shape_str(c, shape, sizeof shape), c->align,
             d->sm, seen, kp_family_name(c->family), kp_dtype_name(c->dtype));
  }
  return best;
}

int kp_target_score(const char *target, int sm, int *target_sm) {
  int t = 0, n = 0;
  char suffix[4] = "";
  int is_ptx;
  if (sscanf(target, "sm_%d%n", &t, &n) == 1) is_ptx = 0;
  else if (sscanf(target, "compute_%d%n", &t, &n) == 1) is_ptx = 1;
  else return -1;
  snprintf(suffix, sizeof suffix, "%s", target + n);
  if (target_sm) *target_sm = t;
  if (t <= 0 || t > sm) return -1;
  if (is_ptx) return suffix[0] ? -1 : 3; /* never arch-specific PTX */
  if (strcmp(suffix, "a") == 0) return t == sm ? 0 : -1;
  if (suffix[0]) return -1;
  if (t == sm) return 1;
  return t / 10 == sm / 10 ? 2 : -1;
}
