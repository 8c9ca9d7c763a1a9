/*
** template.h -- run a Lua template and collect the variants it declares.
**
** A template (templates/<family>.lua) calls, in this order:
**   family { name = "softmax", signature = "p,l,p,l,i,i" }
**   variant { name = ..., dtype = "bf16", source = ..., ... }   (many times)
** with these helpers in scope: DTYPES, ctype(dt), esize(dt), subst(s, vars).
** See docs/ARCHITECTURE.md for every field of variant{}.
*/
#ifndef KG_TEMPLATE_H
#define KG_TEMPLATE_H

#include "pack.h"

typedef struct kg_variant {
  kpk_entry e;   /* strings owned by the template (family/name/... ) */
  char *source;  /* full generated source: banner + device library + kernel */
  size_t source_len;
} kg_variant;

typedef struct kg_template {
  char path[512];
  char family[64];
  char signature[128];
  kg_variant *v;
  int n, cap;
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

#endif
