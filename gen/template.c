/*
** template.c -- embed Lua 5.4, run one template, collect its variants.
**
** Errors raised while a template runs carry "<file>:<line>:" of the template
** line that caused them (luaL_error at level 1 names the caller of the C
** function, i.e. the `variant { ... }` call), followed by a traceback.  The
** Lua state stays open with the template for space.c (family_space{}).
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "ranked.h"
#include "template.h"
#include "template_state.h"

#define KG_MAX_COLS 2147483647ull /* kernels index columns with int */

static int dtype_of(const char *s) {
  for (int i = 0; i < KP_DTYPE_COUNT_; i++)
    if (strcmp(s, kp_dtype_name((kp_dtype)i)) == 0) return i;
  return -1;
}

int kg_is_ident(const char *s) {
  if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
  return 1;
}

/* ctype("bf16") -> "kp_bf16" */
static int l_ctype(lua_State *L) {
  static const char *const names[] = {"float", "kp_f16", "kp_bf16"};
  int dt = dtype_of(luaL_checkstring(L, 1));
  if (dt < 0) return luaL_error(L, "ctype: unknown dtype '%s'", lua_tostring(L, 1));
  lua_pushstring(L, names[dt]);
  return 1;
}

static int l_esize(lua_State *L) {
  int dt = dtype_of(luaL_checkstring(L, 1));
  if (dt < 0) return luaL_error(L, "esize: unknown dtype '%s'", lua_tostring(L, 1));
  lua_pushinteger(L, (lua_Integer)kp_dtype_size((kp_dtype)dt));
  return 1;
}

/* subst("f<${T}>", {T = "float"}): every ${key} must be in the table. */
static int l_subst(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (size_t i = 0; i < len;) {
    if (s[i] == '$' && i + 1 < len && s[i + 1] == '{') {
      const char *end = memchr(s + i + 2, '}', len - i - 2);
      if (!end) return luaL_error(L, "subst: unterminated ${ at offset %d", (int)i);
      lua_pushlstring(L, s + i + 2, (size_t)(end - (s + i + 2)));
      lua_gettable(L, 2); /* replaces the key with its value */
      if (lua_isnil(L, -1)) {
        lua_pushlstring(L, s + i + 2, (size_t)(end - (s + i + 2)));
        return luaL_error(L, "subst: no value for ${%s}", lua_tostring(L, -1));
      }
      if (!lua_isstring(L, -1)) return luaL_error(L, "subst: value for ${...} is not a string or number");
      luaL_addvalue(&b);
      i = (size_t)(end - s) + 1;
    } else {
      luaL_addchar(&b, s[i]);
      i++;
    }
  }
  luaL_pushresult(&b);
  return 1;
}

static int l_family(lua_State *L) {
  kg_state *st = kg_get_state(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  if (st->t->family[0]) return luaL_error(L, "family declared twice");
  lua_getfield(L, 1, "name");
  const char *name = lua_tostring(L, -1);
  if (!name || !kg_is_ident(name) || strlen(name) >= sizeof st->t->family)
    return luaL_error(L, "family: 'name' must be an identifier shorter than 64 characters");
  lua_getfield(L, 1, "signature");
  const char *sig = lua_tostring(L, -1);
  if (!sig || strlen(sig) >= sizeof st->t->signature)
    return luaL_error(L, "family: 'signature' (kernel argument kinds, e.g. \"p,l,i\") is required");
  for (const char *c = sig; *c; c++)
    if (!strchr("plifdT,", *c))
      return luaL_error(L, "family: signature '%s': kinds are p (pointer), l (int64), "
                           "i (int32), f (float), d (double), T (TMA descriptor)", sig);
  lua_getfield(L, 1, "dims");
  const char *dims = lua_isnil(L, -1) ? "rows:pow2,cols" : lua_tostring(L, -1);
  char why[200];
  if (!dims || strlen(dims) >= sizeof st->t->dims ||
      kp_dims_parse(dims, &st->t->dn, why, sizeof why))
    return luaL_error(L, "family: %s", dims ? why : "'dims' must be a string");
  strcpy(st->t->family, name);
  strcpy(st->t->signature, sig);
  strcpy(st->t->dims, dims);
  return 0;
}

static lua_Integer opt_int(lua_State *L, int tbl, const char *key, lua_Integer def,
                           lua_Integer lo, lua_Integer hi) {
  lua_getfield(L, tbl, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  int ok;
  lua_Integer v = lua_tointegerx(L, -1, &ok);
  if (!ok) luaL_error(L, "variant: field '%s' must be an integer", key);
  if (v < lo || v > hi)
    luaL_error(L, "variant: field '%s' = %I out of range [%I, %I]", key, v, lo, hi);
  lua_pop(L, 1);
  return v;
}

/* A bit mask of forms (KPK_FORMS bits): any Lua integer, its 64 bits as
** written (0xFFFF0000FFFF0000 is a negative integer to Lua). */
static uint64_t opt_mask(lua_State *L, int tbl, const char *key) {
  lua_getfield(L, tbl, key);
  uint64_t m = 0;
  if (!lua_isnil(L, -1)) {
    int ok;
    m = (uint64_t)lua_tointegerx(L, -1, &ok);
    if (!ok) luaL_error(L, "variant: field '%s' must be an integer (a mask of forms)", key);
  }
  lua_pop(L, 1);
  return m;
}

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* params table -> "k1=v1,k2=v2" with keys sorted, so output is deterministic */
void kg_params_string(lua_State *L, int tbl, char *out, size_t outlen) {
  const char *keys[64];
  int n = 0;
  size_t len = 0;
  out[0] = 0;
  lua_pushnil(L);
  while (lua_next(L, tbl)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "variant: params keys must be strings");
    if (n == 64) luaL_error(L, "variant: more than 64 params");
    keys[n++] = lua_tostring(L, -1); /* anchored by the table */
  }
  qsort(keys, (size_t)n, sizeof keys[0], cmp_str);
  for (int i = 0; i < n; i++) {
    lua_getfield(L, tbl, keys[i]);
    if (!lua_isstring(L, -1) && !lua_isboolean(L, -1))
      luaL_error(L, "variant: param '%s' must be a number, string or boolean", keys[i]);
    const char *v = lua_isboolean(L, -1) ? (lua_toboolean(L, -1) ? "true" : "false")
                                         : lua_tostring(L, -1);
    int w = snprintf(out + len, outlen - len, "%s%s=%s", i ? "," : "", keys[i], v);
    lua_pop(L, 1);
    if (w < 0 || (size_t)w >= outlen - len) luaL_error(L, "variant: params too long");
    len += (size_t)w;
  }
}

/* Room for one more variant at t->v[t->n] (not counted yet), or NULL. */
kg_variant *kg_append_slot(kg_template *t) {
  if (t->n == t->cap) {
    int cap = t->cap ? t->cap * 2 : 32;
    kg_variant *nv = realloc(t->v, (size_t)cap * sizeof *nv);
    if (!nv) return NULL;
    t->v = nv;
    t->cap = cap;
  }
  return &t->v[t->n];
}

void kg_variant_free(kg_variant *v) {
  free((char *)v->e.name);
  free((char *)v->e.params);
  free(v->source);
  memset(v, 0, sizeof *v);
}

/* One dimension's value in table field `tbl` (min = { m = 1 }, ...): the
** value for dimension i, or def. */
static lua_Integer dim_field(lua_State *L, const char *tbl, const char *dim, lua_Integer def,
                             lua_Integer lo, lua_Integer hi, const char *vname) {
  lua_getfield(L, 1, tbl);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  if (!lua_istable(L, -1)) luaL_error(L, "variant '%s': '%s' must be a table of dimensions", vname, tbl);
  lua_getfield(L, -1, dim);
  lua_Integer v = def;
  if (!lua_isnil(L, -1)) {
    int ok;
    v = lua_tointegerx(L, -1, &ok);
    if (!ok || v < lo || v > hi)
      luaL_error(L, "variant '%s': %s.%s must be an integer in [%I, %I]", vname, tbl, dim, lo, hi);
  }
  lua_pop(L, 2);
  return v;
}

/* The per-dimension fields: min, max, mult, tile = { <dim> = value, ... };
** for families with rows and cols, the row model's names too (min_cols,
** max_cols, min_rows, cols_mult, rows_per_block (default 1),
** cols_per_block).  Checks kp_dims_check_entry.  Raises on error. */
static int dims_fields(lua_State *L, const kg_template *t, const char *name, kpk_entry *e) {
  static const char *const tbls[] = {"min", "max", "mult", "tile"};
  const lua_Integer maxd = (lua_Integer)KPK_MAX_DIM;
  for (int w = 0; w < 4; w++) { /* every key of these tables must name a dimension */
    lua_getfield(L, 1, tbls[w]);
    if (lua_istable(L, -1)) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING || kp_dims_find(&t->dn, lua_tostring(L, -1)) < 0)
          return luaL_error(L, "variant '%s': %s.%s: family %s has dimensions %s", name, tbls[w],
                            lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?", t->family,
                            t->dims);
      }
    }
    lua_pop(L, 1);
  }
  int ri = kp_dims_find(&t->dn, "rows"), ci = kp_dims_find(&t->dn, "cols");
  for (int i = 0; i < t->dn.n; i++) {
    const char *d = t->dn.name[i];
    e->dmin[i] = (uint64_t)dim_field(L, "min", d, 0, 0, maxd, name);
    e->dmax[i] = (uint64_t)dim_field(L, "max", d, maxd, 1, maxd, name);
    e->dmult[i] = (uint32_t)dim_field(L, "mult", d, 0, 0, KPK_MAX_MULT, name);
    e->tile[i] = (uint32_t)dim_field(L, "tile", d, i == ri ? 1 : 0, 0, maxd, name);
  }
  if (ri >= 0) {
    e->tile[ri] = (uint32_t)opt_int(L, 1, "rows_per_block", e->tile[ri], 1, 1 << 20);
    e->dmin[ri] = (uint64_t)opt_int(L, 1, "min_rows", (lua_Integer)e->dmin[ri], 0, 1 << 30);
  }
  if (ci >= 0) {
    e->tile[ci] = (uint32_t)opt_int(L, 1, "cols_per_block", e->tile[ci], 0, maxd);
    e->dmult[ci] = (uint32_t)opt_int(L, 1, "cols_mult", e->dmult[ci], 0, KPK_MAX_MULT);
    e->dmin[ci] = (uint64_t)opt_int(L, 1, "min_cols", e->dmin[ci] ? (lua_Integer)e->dmin[ci] : 1, 1, maxd);
    e->dmax[ci] = (uint64_t)opt_int(L, 1, "max_cols", (lua_Integer)e->dmax[ci], 1, maxd);
  }
  char why[200];
  if (kp_dims_check_entry(&t->dn, e, why, sizeof why))
    return luaL_error(L, "variant '%s': %s", name, why);
  return 0;
}

int kg_variant_for_target(const kg_variant *v, const char *target) {
  if (!v->targets[0]) return 1;
  size_t n = strlen(target);
  for (const char *p = v->targets; (p = strstr(p, target)) != NULL; p += n)
    if ((p == v->targets || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return 1;
  return 0;
}

static int l_variant(lua_State *L) {
  kg_state *st = kg_get_state(L);
  kg_template *t = st->t;
  luaL_checktype(L, 1, LUA_TTABLE);
  if (!t->family[0]) return luaL_error(L, "variant declared before family{}");

  lua_getfield(L, 1, "name");
  const char *name = lua_tostring(L, -1);
  if (!name || !kg_is_ident(name) || strlen(name) > 200)
    return luaL_error(L, "variant: 'name' must be a C identifier (it is the kernel symbol)");
  if (strncmp(name, t->family, strlen(t->family)) != 0)
    return luaL_error(L, "variant '%s': name must start with the family name '%s'", name,
                      t->family);
  if (st->making && st->n_made)
    return luaL_error(L, "variant '%s': make() must declare exactly one variant", name);
  if (!st->making && kg_template_find(t, name))
    return luaL_error(L, "variant '%s' declared twice", name);

  lua_getfield(L, 1, "dtype");
  const char *dts = lua_tostring(L, -1);
  int dt = dts ? dtype_of(dts) : -1;
  if (dt < 0) return luaL_error(L, "variant '%s': dtype must be one of f32, f16, bf16", name);

  lua_getfield(L, 1, "source");
  size_t slen;
  const char *src = lua_tolstring(L, -1, &slen);
  if (!src || lua_type(L, -1) != LUA_TSTRING)
    return luaL_error(L, "variant '%s': 'source' (CUDA C++ text) is required", name);
  if (!strstr(src, name))
    return luaL_error(L, "variant '%s': source does not define a kernel of that name", name);

  kpk_entry e;
  memset(&e, 0, sizeof e);
  e.dtype = (uint32_t)dt;
  e.block = (uint32_t)opt_int(L, 1, "block", -1, 32, 1024);
  if (e.block % 32) return luaL_error(L, "variant '%s': block must be a multiple of 32", name);
  if (dims_fields(L, t, name, &e)) return 0; /* raised */
  e.forms = opt_mask(L, 1, "forms");
  e.align = (uint32_t)opt_int(L, 1, "align", (lua_Integer)kp_dtype_size((kp_dtype)dt), 1, 256);
  if (e.align & (e.align - 1))
    return luaL_error(L, "variant '%s': align must be a power of two", name);
  e.max_align = (uint32_t)opt_int(L, 1, "max_align", 0, 0, 256);
  if (e.max_align && ((e.max_align & (e.max_align - 1)) || e.max_align < e.align))
    return luaL_error(L, "variant '%s': max_align must be a power of two >= align", name);
  e.min_sm = (uint32_t)opt_int(L, 1, "min_sm", 80, 0, 1000);
  e.max_sm = (uint32_t)opt_int(L, 1, "max_sm", 0, 0, 1000);
  e.rank = (int32_t)opt_int(L, 1, "rank", 0, -1000000, 1000000);
  /* prefer = { forms = MASK, rank = R }: the rank for calls of those forms */
  lua_getfield(L, 1, "prefer");
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1)) return luaL_error(L, "variant '%s': prefer must be a table", name);
    const int pt = lua_gettop(L);
    e.prefer_forms = opt_mask(L, pt, "forms");
    e.prefer_rank = (int32_t)opt_int(L, pt, "rank", -1000001, -1000000, 1000000);
    if (!e.prefer_forms || e.prefer_rank == -1000001)
      return luaL_error(L, "variant '%s': prefer needs forms (a nonzero mask) and rank", name);
    if (e.forms && (e.prefer_forms & ~e.forms))
      return luaL_error(L, "variant '%s': prefer.forms names forms it does not compute", name);
  }
  lua_pop(L, 1);
  e.smem = (uint32_t)opt_int(L, 1, "smem", 0, 0, 232448);
  e.rate = (uint32_t)opt_int(L, 1, "rate", 0, 0, 1000);
  e.persist = (uint32_t)opt_int(L, 1, "persistent", 0, 0, 64);
  e.cluster = (uint32_t)opt_int(L, 1, "cluster", 0, 0, KPK_MAX_CLUSTER);
  e.split = (uint32_t)opt_int(L, 1, "split", 0, 0, KPK_MAX_CLUSTER);
  if (e.split > 1 && e.cluster != e.split) /* persistent too: the clusters loop over tiles */
    return luaL_error(L, "variant '%s': split = %d needs cluster = %d", name, (int)e.split,
                      (int)e.split);
  e.aux = (uint32_t)opt_int(L, 1, "aux", 0, 0, 1 << 20);
  char targets[64] = "";
  lua_getfield(L, 1, "targets");
  if (lua_istable(L, -1)) {
    size_t len = 0;
    for (lua_Integer i = 1; lua_geti(L, -1, i) != LUA_TNIL; i++) {
      const char *tg = lua_tostring(L, -1);
      if (!tg || strlen(tg) >= 16 || len + strlen(tg) + 2 > sizeof targets)
        return luaL_error(L, "variant '%s': targets must be a few pack target names", name);
      len += (size_t)snprintf(targets + len, sizeof targets - len, "%s%s", len ? " " : "", tg);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  } else if (!lua_isnil(L, -1)) {
    return luaL_error(L, "variant '%s': targets must be a list such as { \"sm_90a\" }", name);
  }
  lua_pop(L, 1);

  char params[1024] = "";
  lua_getfield(L, 1, "params");
  int ptbl = lua_gettop(L);
  if (lua_istable(L, ptbl)) kg_params_string(L, ptbl, params, sizeof params);
  else if (!lua_isnil(L, ptbl)) return luaL_error(L, "variant '%s': params must be a table", name);

  /* where this variant was declared, for the banner */
  lua_Debug ar;
  int line = 0;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar)) line = ar.currentline;

  luaL_Buffer sb;
  luaL_buffinit(L, &sb);
  lua_pushfstring(L,
                  "// generated by kpgen from %s (line %d) -- do not edit\n"
                  "// variant %s: dtype=%s %s\n\n",
                  st->chunkname, line, name, dts, params);
  luaL_addvalue(&sb);
  int ci = kp_dims_find(&t->dn, "cols");
  if (ci >= 0 && e.dmult[ci] > 1) { /* the device library drops its partial-vector code */
    lua_pushfstring(L, "#define KP_COLS_MULT %d\n\n", (int)e.dmult[ci]);
    luaL_addvalue(&sb);
  }
  luaL_addstring(&sb, st->libtext);
  luaL_addstring(&sb, "\n// ---- kernel ----\n");
  luaL_addlstring(&sb, src, slen);
  luaL_pushresult(&sb);
  size_t full_len;
  const char *full = lua_tolstring(L, -1, &full_len);

  kg_variant *v = st->making ? &st->made : kg_append_slot(t);
  if (!v) return luaL_error(L, "out of memory");
  memset(v, 0, sizeof *v);
  v->e = e;
  v->e.family = t->family;
  v->e.signature = t->signature;
  v->e.dims = t->dims;
  memcpy(v->targets, targets, sizeof targets);
  v->e.name = dupstr(name);
  v->e.entry = v->e.name;
  v->e.params = dupstr(params);
  v->e.options = "";
  v->source = malloc(full_len + 1);
  if (!v->e.name || !v->e.params || !v->source) return luaL_error(L, "out of memory");
  memcpy(v->source, full, full_len + 1);
  v->source_len = full_len;
  if (st->making) st->n_made++;
  else t->n++;
  return 0;
}

int kg_traceback(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
  return 1;
}

int kg_template_load_string(kg_template *t, const char *chunkname, const char *text,
                            const char *libtext, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  snprintf(t->path, sizeof t->path, "%s", chunkname);
  kg_state *st = calloc(1, sizeof *st);
  lua_State *L = st ? luaL_newstate() : NULL;
  if (st) st->libtext = malloc(strlen(libtext) + 1);
  if (!L || !st->libtext) {
    snprintf(err, errlen, "%s: cannot create Lua state", chunkname);
    if (L) lua_close(L);
    if (st) free(st->libtext);
    free(st);
    return -1;
  }
  strcpy(st->libtext, libtext);
  st->L = L;
  st->t = t;
  snprintf(st->chunkname, sizeof st->chunkname, "%s", chunkname);
  t->space = st;
  luaL_openlibs(L);
  static const luaL_Reg fns[] = {{"family", l_family},
                                 {"variant", l_variant},
                                 {"family_space", kg_l_family_space},
                                 {NULL, NULL}};
  lua_pushglobaltable(L);
  lua_pushlightuserdata(L, st);
  luaL_setfuncs(L, fns, 1);
  lua_pushcfunction(L, l_ctype);
  lua_setfield(L, -2, "ctype");
  lua_pushcfunction(L, l_esize);
  lua_setfield(L, -2, "esize");
  lua_pushcfunction(L, l_subst);
  lua_setfield(L, -2, "subst");
  lua_newtable(L);
  for (int i = 0; i < KP_DTYPE_COUNT_; i++) {
    lua_pushstring(L, kp_dtype_name((kp_dtype)i));
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "DTYPES");
  lua_pop(L, 1);

  lua_pushcfunction(L, kg_traceback);
  char chunk[520];
  snprintf(chunk, sizeof chunk, "@%s", chunkname);
  int rc = luaL_loadbuffer(L, kg_space_helpers, strlen(kg_space_helpers), "=kpgen helpers");
  if (rc == LUA_OK) rc = lua_pcall(L, 0, 0, -2);
  if (rc == LUA_OK) rc = luaL_loadbuffer(L, text, strlen(text), chunk);
  if (rc == LUA_OK) rc = lua_pcall(L, 0, 0, -2);
  if (rc == LUA_OK && !t->family[0]) {
    snprintf(err, errlen, "%s: template declared no family{}", chunkname);
    rc = -1;
  } else if (rc == LUA_OK && t->n == 0) {
    snprintf(err, errlen, "%s: template declared no variants", chunkname);
    rc = -1;
  } else if (rc != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    snprintf(err, errlen, "%s", m ? m : "unknown Lua error");
  }
  if (rc != LUA_OK) {
    kg_template_free(t);
    return -1;
  }
  lua_settop(L, 0);
  t->n_default = t->n;
  return 0;
}

static char *read_file(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    snprintf(err, errlen, "%s: read error", path);
    free(buf);
    fclose(f);
    return NULL;
  }
  buf[n] = 0;
  fclose(f);
  return buf;
}

int kg_template_load(kg_template *t, const char *path, const char *libpath, char *err,
                     size_t errlen) {
  memset(t, 0, sizeof *t);
  char *text = read_file(path, err, errlen);
  if (!text) return -1;
  char *lib = read_file(libpath, err, errlen);
  if (!lib) {
    free(text);
    return -1;
  }
  int rc = kg_template_load_string(t, path, text, lib, err, errlen);
  free(text);
  free(lib);
  return rc;
}

void kg_template_free(kg_template *t) {
  for (int i = 0; i < t->n; i++) kg_variant_free(&t->v[i]);
  free(t->v);
  t->v = NULL;
  t->n = t->cap = t->n_default = 0;
  kg_state *st = t->space;
  if (st) {
    lua_close(st->L);
    kg_variant_free(&st->made);
    free(st->libtext);
    free(st);
    t->space = NULL;
  }
}

const kg_variant *kg_template_find(const kg_template *t, const char *name) {
  for (int i = 0; i < t->n; i++)
    if (strcmp(t->v[i].e.name, name) == 0) return &t->v[i];
  return NULL;
}

/* keep[v] (v < t->n): does the ranking pick t's variant v for some call on
** `target`'s devices (ranked.h; 0 for a variant not built for target)?
** 0, or 1 when out of memory. */
int kg_template_ranked(const kg_template *t, const char *target, char *keep) {
  kpk_pack pk;
  memset(&pk, 0, sizeof pk);
  snprintf(pk.target, sizeof pk.target, "%s", target);
  snprintf(pk.path, sizeof pk.path, "%s (%s)", t->path, target);
  int *from = malloc((size_t)t->n * sizeof *from + 1);
  char *k = calloc((size_t)t->n + 1, 1);
  pk.entries = malloc((size_t)t->n * sizeof *pk.entries + 1);
  int rc = !from || !k || !pk.entries;
  if (!rc) {
    for (int v = 0; v < t->n; v++) {
      keep[v] = 0;
      if (kg_variant_for_target(&t->v[v], target)) {
        from[pk.n_entries] = v;
        pk.entries[pk.n_entries++] = t->v[v].e;
      }
    }
    int sm = 0;
    sscanf(target, "%*[a-z_]%d", &sm);
    kg_ranked_picks(&pk, k, sm);
    for (uint32_t i = 0; i < pk.n_entries; i++) keep[from[i]] = k[i];
  }
  free(from);
  free(k);
  free(pk.entries);
  return rc;
}
