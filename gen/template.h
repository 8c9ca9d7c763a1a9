/*
** template.h -- run a Lua template and collect the variants it declares.
**
** A template (templates/<family>.lua) calls, in this order:
**   family { name = "softmax", signature = "p,l,p,l,i,i" [, dims = "rows:pow2,cols"] }
**   variant { name = ..., dtype = "bf16", source = ..., ... }   (many times)
** with these helpers in scope: DTYPES, ctype(dt), esize(dt), subst(s, vars).
** See docs/KERNELS.md for every field of variant{}.
**
** Beyond that default list, a template may declare its variant space:
**   family_space { make = function(dt, p) ... end,        -- calls variant{} once
**                  neighbours = function(dt, p) return { p1, p2, ... } end,
**                  name_omits = { unroll = "u" } }         -- params names leave out
** with the helpers with(p, changes) and steps(p, axes [, ok]).  The Lua state
** stays open after the load, for kg_template_make / kg_template_neighbours.
*/
#ifndef KG_TEMPLATE_H
#define KG_TEMPLATE_H

#include "pack.h"

typedef struct kg_variant {
  kpk_entry e;   /* strings owned by the template (family/name/... ) */
  char *source;  /* full generated source: banner + device library + kernel */
  size_t source_len;
  char targets[64]; /* "": every pack target; else the only ones, space-separated
                    ** ("sm_90a": wgmma and setmaxnreg assemble for it alone) */
} kg_variant;

/* Is v built into the pack for `target`? */
int kg_variant_for_target(const kg_variant *v, const char *target);

typedef struct kg_template {
  char path[512];
  char family[64];
  char signature[128];
  char dims[128];    /* the family's dimensions (default KP_ROW_DIMS' "rows:pow2,cols") */
  kp_dims dn;
  kg_variant *v;     /* the default list, then variants made later */
  int n, cap;
  int n_default;     /* v[0 .. n_default-1]: the variants the template declares */
  void *space;       /* the open Lua state and what family_space{} declared */
} kg_template;

/*
** Run `path` with the device library `libpath` pasted into every variant's
** source.  On error returns -1 and writes "<file>:<line>: message" (plus a
** traceback) into err.
*/
int kg_template_load(kg_template *t, const char *path, const char *libpath, char *err,
                     size_t errlen);
/* Same, with the template text given (tests). `chunkname` names it in errors. */
int kg_template_load_string(kg_template *t, const char *chunkname, const char *text,
                            const char *libtext, char *err, size_t errlen);
void kg_template_free(kg_template *t);
const kg_variant *kg_template_find(const kg_template *t, const char *name);

/* Does the template declare family_space{} (make and neighbours)? */
int kg_template_has_space(const kg_template *t);
/*
** The variant make(dt, params) declares, as an index into t->v: a default's
** index when params are a default's (make must then reproduce it byte for
** byte, else an error), else a variant appended after the defaults, named
** with a suffix for its name_omits params.  params is text as variant{}
** records it ("k1=v1,k2=v2").  On error returns -1 with the template's
** file:line in err.  t->v may move: keep indices, not pointers.
*/
int kg_template_make(kg_template *t, kp_dtype dt, const char *params, char *err, size_t errlen);
/*
** The neighbours of the variant of (dt, params): made, de-duplicated, without
** the variant itself; *idx (malloc'd, n entries) indexes t->v.  Indices below
** t->n_default are default variants.  -1 on error (file:line in err).
*/
int kg_template_neighbours(kg_template *t, kp_dtype dt, const char *params, int **idx, int *n,
                           char *err, size_t errlen);

/* keep[v] (v < t->n): does the ranking pick t's variant v for some call on
** `target`'s devices (ranked.h; 0 for a variant not built for target)?
** What `make` builds for the targets of RANKED_ARCHS.  0, or 1 when out of
** memory. */
int kg_template_ranked(const kg_template *t, const char *target, char *keep);

#endif
