/*
** template_state.h -- what template.c (running a template) and space.c (its
** variant space beyond the defaults) share.  Private to the generator.
*/
#ifndef KG_TEMPLATE_STATE_H
#define KG_TEMPLATE_STATE_H

#include <lua.h>

#include "template.h"

#define KG_MAX_OMITS 8
#define REG_MAKE "kpgen.make" /* family_space's functions, in the registry */
#define REG_NEIGHBOURS "kpgen.neighbours"

/* One loaded template: its Lua state stays open after the load, so that
** make() and neighbours() (family_space{}) can be called later. */
typedef struct kg_state {
  lua_State *L;
  kg_template *t;     /* re-bound by every call: the caller may move t */
  char *libtext;      /* the device library, pasted into every source */
  char chunkname[512];
  int has_space;      /* family_space{} seen */
  struct { char key[32], tag[16]; } omit[KG_MAX_OMITS]; /* name_omits, sorted by key */
  int n_omit;
  int making;         /* inside make(): variant{} fills `made`, not t->v */
  int n_made;
  kg_variant made;
} kg_state;

static inline kg_state *kg_get_state(lua_State *L) {
  return (kg_state *)lua_touserdata(L, lua_upvalueindex(1));
}

/* template.c */
int kg_is_ident(const char *s);
/* params table at tbl -> "k1=v1,k2=v2", keys sorted (raises a Lua error on a bad one) */
void kg_params_string(lua_State *L, int tbl, char *out, size_t outlen);
kg_variant *kg_append_slot(kg_template *t); /* room at t->v[t->n], not counted; or NULL */
void kg_variant_free(kg_variant *v);
int kg_traceback(lua_State *L); /* message handler: "file:line: msg" + traceback */

/* space.c */
extern const char kg_space_helpers[]; /* with(), steps(), regs(): Lua, run before a template */
int kg_l_family_space(lua_State *L);  /* family_space{} */

#endif
