/*
** space.c -- a template's variant space beyond its default list:
** family_space{} (make, neighbours, name_omits), and kg_template_make /
** kg_template_neighbours, which run them in the template's open Lua state.
**
** A variant made from a default's params must be that default byte for byte;
** one made from other params is named with a suffix for the params its name
** omits, so that two param sets never share a name.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "template.h"
#include "template_state.h"

/* Helpers in scope of every template: declaring neighbours, wgmma wrappers. */
const char kg_space_helpers[] =
    "-- with(p, changes): a copy of params p with some values changed\n"
    "function with(p, changes)\n"
    "  local q = {}\n"
    "  for k, v in pairs(p) do q[k] = v end\n"
    "  for k, v in pairs(changes or {}) do q[k] = v end\n"
    "  return q\n"
    "end\n"
    "-- steps(p, axes [, ok]): the params one step away from p along each axis.\n"
    "-- axes maps a param to the values it may take; a step moves it to the\n"
    "-- nearest value below or above its own.  ok(q), if given, keeps the legal\n"
    "-- ones.  Axes go in sorted order, so the result is deterministic.\n"
    "function steps(p, axes, ok)\n"
    "  local keys, out = {}, {}\n"
    "  for k in pairs(axes) do keys[#keys + 1] = k end\n"
    "  table.sort(keys)\n"
    "  for _, k in ipairs(keys) do\n"
    "    local cur = p[k]\n"
    "    if cur == nil then error(\"steps: params have no '\" .. k .. \"'\", 2) end\n"
    "    local lo, hi\n"
    "    for _, v in ipairs(axes[k]) do\n"
    "      if v < cur and (lo == nil or v > lo) then lo = v end\n"
    "      if v > cur and (hi == nil or v < hi) then hi = v end\n"
    "    end\n"
    "    local vs = {}\n"
    "    if lo ~= nil then vs[#vs + 1] = lo end\n"
    "    if hi ~= nil then vs[#vs + 1] = hi end\n"
    "    for _, v in ipairs(vs) do\n"
    "      local q = with(p, { [k] = v })\n"
    "      if not ok or ok(q) then out[#out + 1] = q end\n"
    "    end\n"
    "  end\n"
    "  return out\n"
    "end\n"
    "-- wgmma(n, ab, tb, rs): the CUDA function for one wgmma m64n<n>k16 step, f32\n"
    "-- accumulators d[n / 2] (listed one by one: asm operands cannot be arrays),\n"
    "-- inputs ab (\"bf16\" or \"f16\"); B from shared memory (descriptor db; tb = 1:\n"
    "-- MN-major); A from shared memory (descriptor da) or, with rs, from the\n"
    "-- registers a[4] (the m16n8k16 A fragment of the warp's 16 rows).\n"
    "-- Named kp_wgmma_<ab>_n<n>[_t][_rs](d, da or a, db, accumulate).\n"
    "function wgmma(n, ab, tb, rs)\n"
    "  local regs, outs = {}, {}\n"
    "  for i = 0, n // 2 - 1 do\n"
    "    regs[#regs + 1] = \"%\" .. i\n"
    "    outs[#outs + 1] = string.format('\"+f\"(d[%d])', i)\n"
    "  end\n"
    "  local na, a_op, a_in, a_decl = n // 2\n"
    "  if rs then\n"
    "    a_op = string.format(\"{%%%d, %%%d, %%%d, %%%d}\", na, na + 1, na + 2, na + 3)\n"
    "    a_in, a_decl, na = '\"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3])', \"const kp_u32 *a\", na + 3\n"
    "  else\n"
    "    a_op, a_in, a_decl = \"%\" .. na, '\"l\"(da)', \"unsigned long long da\"\n"
    "  end\n"
    "  return string.format([[\n"
    "__device__ __forceinline__ void kp_wgmma_%s_n%d%s%s(float *d, %s, unsigned long long db,\n"
    "                                                    int accumulate) {\n"
    "  asm volatile(\n"
    "      \"{ .reg .pred p; setp.ne.b32 p, %%%d, 0;\\n\"\n"
    "      \"wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {%s}, %s, %%%d, p, 1, 1, %s%d; }\"\n"
    "      : %s\n"
    "      : %s, \"l\"(db), \"r\"(accumulate));\n"
    "}\n"
    "]], ab, n, tb == 1 and \"_t\" or \"\", rs and \"_rs\" or \"\", a_decl, na + 2, n, ab, ab,\n"
    "    table.concat(regs, \", \"), a_op, na + 1, rs and \"\" or \"0, \", tb or 0,\n"
    "    table.concat(outs, \", \"), a_in)\n"
    "end\n"
    "-- twins(p): {p}, and where p.vec > 1 also its whole-rows twin (whole =\n"
    "-- true): a variant that declares cols_mult = vec, ranked just above p,\n"
    "-- whose source has no code for a row's partial last vector (code size is\n"
    "-- first-use compile time; KP_COLS_MULT in kp_device.cuh)\n"
    "function twins(p)\n"
    "  if p.vec > 1 then return { p, with(p, { whole = true }) } end\n"
    "  return { p }\n"
    "end\n"
    "-- smem_blocks(smem): blocks of `smem` bytes of dynamic shared memory an\n"
    "-- SM holds: sm_90's 227 KiB, 1280 bytes more a block (the KiB the driver\n"
    "-- reserves a block, and an allowance for the kernels' static arrays)\n"
    "function smem_blocks(smem)\n"
    "  return 232448 // (smem + 1280)\n"
    "end\n"
    "-- regs(threads, blocks): registers a thread may use when `blocks` blocks of\n"
    "-- `threads` threads share an SM's 64K (allocated in eights, at most 255)\n"
    "function regs(threads, blocks)\n"
    "  return math.min(255, 65536 // (threads * blocks) // 8 * 8)\n"
    "end\n"
    "-- stage_fields(family, dt, p, T, vec, images): a row family's `_stage_`\n"
    "-- variant (a CTA's slice of a row staged in shared memory: kp_stage_issue;\n"
    "-- sm_90a): its name, call (<family>_stage<T, VEC, THREADS, CL, U, SMEM>),\n"
    "-- smem (`images` images of p.kb KiB), max_cols (p.cl CTAs a row, or\n"
    "-- p.max_cols), min_cols, rank (p.rank where ranked, else below the\n"
    "-- ranking's picks: for the tuner) and max_align (8 where ranked: 16-bit\n"
    "-- rows off the 16-byte grid, aligned calls keeping their picks; none\n"
    "-- where p.any: calls at any alignment; p.rank under 400 with p.any: over\n"
    "-- the aligned calls' picks, under the odd rows' ranked ones).  p.suffix: a\n"
    "-- name's last part, for a copy ranked over another range (one range a\n"
    "-- variant).  p.wc (the norms): `_wc`, a last\n"
    "-- template argument `true` (the write pass's weight at a constant residue:\n"
    "-- kp_stage_norm_out) and minb, the blocks an SM the launch bounds ask for\n"
    "-- at unroll <= 2: as many as threads and shared memory allow (the others\n"
    "-- fit them unbounded; one loop a residue takes more registers)\n"
    "function stage_fields(family, dt, p, T, vec, images)\n"
    "  local cl, bytes = p.cl or 1, p.kb * 1024\n"
    "  local smem = images * (bytes + 16)\n"
    "  local name = string.format(\"%s_%s_stage_t%d_v%d_u%d_s%d\", family, dt, p.threads, vec,\n"
    "                             p.unroll, p.kb)\n"
    "  if p.cl then name = name .. \"_c\" .. p.cl end\n"
    "  if p.wc then name = name .. \"_wc\" end\n"
    "  if p.suffix then name = name .. \"_\" .. p.suffix end\n"
    "  return { name = name,\n"
    "           call = string.format(\"%s_stage<%s, %d, %d, %d, %d, %d%s>\", family, T, vec, p.threads,\n"
    "                                cl, p.unroll, bytes, p.wc and \", true\" or \"\"),\n"
    "           smem = smem, max_cols = p.max_cols or cl * vec * (bytes // 16),\n"
    "           min_cols = p.min_cols, rank = p.rank or 70 - cl - (p.wc and 1 or 0),\n"
    "           max_align = p.rank and not p.any and 8 or nil,\n"
    "           minb = p.wc and p.unroll <= 2\n"
    "                  and math.min(2048 // p.threads, smem_blocks(smem)) or nil }\n"
    "end\n"
    "-- stage_params(dt, vec, c): a `_stage_` variant's params from a template's\n"
    "-- list entry c = { threads, unroll, kb, cl[, min_cols, max_cols] }; an\n"
    "-- entry with min_cols is ranked (rank 400: over every other variant, or\n"
    "-- c.rank; for calls off the 16-byte grid, stage_fields' max_align; with\n"
    "-- c.any = true for calls at any alignment) for 16-bit types, where it was\n"
    "-- measured;\n"
    "-- otherwise, and for f32, it is for the tuner; c.wc: stage_fields' p.wc,\n"
    "-- for 16-bit types (where it was measured; f32 keeps the plain form);\n"
    "-- c.suffix: stage_fields' p.suffix, and c.min_rows, the calls' fewest rows\n"
    "-- (the variant's min_rows), where ranked\n"
    "function stage_params(dt, vec, c)\n"
    "  local r = esize(dt) == 2 and c[5] ~= nil\n"
    "  return { vec = vec, threads = c[1], unroll = c[2], kb = c[3], cl = c[4],\n"
    "           min_cols = r and c[5] or nil, max_cols = r and c[6] or nil,\n"
    "           rank = r and (c.rank or 400) or nil,\n"
    "           any = r and c.any or nil, wc = esize(dt) == 2 and c.wc or nil,\n"
    "           suffix = r and c.suffix or nil, min_rows = r and c.min_rows or nil }\n"
    "end\n"
    "-- stage_forms(dt, vec, c): a norm's `_stage_` list entry c as variants'\n"
    "-- params: stage_params(dt, vec, c), and for 16-bit types where a thread\n"
    "-- holds 6 vectors or more (64 kb / threads) at unroll <= 2 its twin with\n"
    "-- the other write pass (wc toggled; for the tuner): one loop a residue\n"
    "-- paid where a thread has many vectors, and lost where it has few\n"
    "-- (bench/NOTES.md 69)\n"
    "function stage_forms(dt, vec, c)\n"
    "  local ps = { stage_params(dt, vec, c) }\n"
    "  if esize(dt) == 2 and 64 * c[3] >= 6 * c[1] and c[2] <= 2 then\n"
    "    ps[2] = stage_params(dt, vec, { c[1], c[2], c[3], c[4], wc = not c.wc or nil })\n"
    "  end\n"
    "  return ps\n"
    "end\n"
    "-- stage_neighbours(p): a `_stage_` variant's neighbours (shared memory\n"
    "-- holds the row: threads and unroll only)\n"
    "function stage_neighbours(p)\n"
    "  return steps(p, { threads = { 256, 512, 1024 }, unroll = { 1, 2, 4 } })\n"
    "end\n"
    "-- norm_neighbours(p, held): the neighbours of a row-norm template's params\n"
    "-- (kind warp, block or loop): lanes per row, threads, vectors held per\n"
    "-- thread, unroll.  `held` raw vectors per n or unroll step (4 registers\n"
    "-- each at 16 bytes, 1 at vec = 1) take at most half of a thread's registers.\n"
    "function norm_neighbours(p, held)\n"
    "  local threads, nv = { 64, 128, 256, 512, 1024 }, { 1, 2, 3, 4, 6, 8 }\n"
    "  local function fits(q)\n"
    "    local n = held * (q.vec == 1 and 1 or 4) * (q.nv or q.unroll)\n"
    "    return n <= regs(q.kind == \"warp\" and 128 or q.threads, 1) // 2\n"
    "  end\n"
    "  if p.kind == \"loop\" then\n"
    "    return steps(p, { threads = threads, unroll = { 1, 2, 4, 8, 16 } }, fits)\n"
    "  end\n"
    "  if p.kind == \"warp\" then return steps(p, { lanes = { 8, 16, 32 }, nv = nv }, fits) end\n"
    "  return steps(with(p, { alt = 0 }), { threads = threads, nv = nv }, fits)\n"
    "end\n"
    "-- glu_chunk_neighbours(p): the neighbours of a GLU column-chunk variant:\n"
    "-- whole warps <= 1024 threads, <= 2048 threads per SM; the 2u raw vectors\n"
    "-- (4 registers each) take at most half of a thread's registers; the\n"
    "-- vector stays 16 bytes.\n"
    "function glu_chunk_neighbours(p)\n"
    "  return steps(p, { tx = { 32, 64, 128, 256, 512, 1024 }, u = { 1, 2, 4 },\n"
    "                    minb = { 1, 2, 4, 8, 16 } }, function(q)\n"
    "    return q.tx * q.minb <= 2048 and 8 * q.u <= regs(q.tx, q.minb) // 2\n"
    "  end)\n"
    "end\n";

static int cmp_omit(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b); /* key is the first member */
}

/*
** family_space { make = function(dt, p), neighbours = function(dt, p),
**                name_omits = { param = "tag", ... } }
** make declares (through variant{}) the one variant of params p; neighbours
** returns the params one step away from p.  name_omits lists the params a
** variant's name leaves out: a variant made from params outside the default
** list gets "_<tag><value>" for each, so different params never share a name.
*/
int kg_l_family_space(lua_State *L) {
  kg_state *st = kg_get_state(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  if (!st->t->family[0]) return luaL_error(L, "family_space declared before family{}");
  if (st->has_space) return luaL_error(L, "family_space declared twice");
  static const char *const fns[] = {"make", "neighbours"};
  for (int i = 0; i < 2; i++) {
    lua_getfield(L, 1, fns[i]);
    if (!lua_isfunction(L, -1))
      return luaL_error(L, "family_space: '%s' must be a function(dt, params)", fns[i]);
    lua_setfield(L, LUA_REGISTRYINDEX, i ? REG_NEIGHBOURS : REG_MAKE);
  }
  lua_getfield(L, 1, "name_omits");
  int tbl = lua_gettop(L);
  if (!lua_isnil(L, tbl)) {
    luaL_checktype(L, tbl, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, tbl)) {
      const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
      const char *tag = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
      if (!key || !tag || !kg_is_ident(key) || strlen(key) >= sizeof st->omit[0].key ||
          !kg_is_ident(tag) || strlen(tag) >= sizeof st->omit[0].tag)
        return luaL_error(L, "family_space: name_omits maps param names to short "
                             "identifier tags, e.g. { unroll = \"u\" }");
      if (st->n_omit == KG_MAX_OMITS)
        return luaL_error(L, "family_space: more than %d name_omits", KG_MAX_OMITS);
      strcpy(st->omit[st->n_omit].key, key);
      strcpy(st->omit[st->n_omit].tag, tag);
      st->n_omit++;
      lua_pop(L, 1);
    }
    qsort(st->omit, (size_t)st->n_omit, sizeof st->omit[0], cmp_omit);
  }
  st->has_space = 1;
  return 0;
}

/* ---- make and neighbours ------------------------------------------------------- */

int kg_template_has_space(const kg_template *t) {
  const kg_state *st = t->space;
  return st && st->has_space;
}

static kg_state *space_of(kg_template *t, char *err, size_t errlen) {
  kg_state *st = t->space;
  if (!st || !st->has_space) {
    snprintf(err, errlen, "%s: the template declares no family_space{} (make and neighbours)",
             t->path);
    return NULL;
  }
  st->t = t;
  return st;
}

/* Push params "k1=v1,k2=v2" (as variant{} records them) as a table: numbers,
** booleans and strings.  -1 (nothing pushed) if the text is not of that form. */
static int push_params(lua_State *L, const char *params) {
  lua_newtable(L);
  for (const char *p = params; *p;) {
    size_t len = strcspn(p, ",");
    const char *eq = memchr(p, '=', len);
    char key[64], val[512];
    if (!eq || eq == p || (size_t)(eq - p) >= sizeof key || len - (size_t)(eq - p) > sizeof val) {
      lua_pop(L, 1);
      return -1;
    }
    memcpy(key, p, (size_t)(eq - p));
    key[eq - p] = 0;
    size_t vlen = len - (size_t)(eq - p) - 1;
    memcpy(val, eq + 1, vlen);
    val[vlen] = 0;
    if (!strcmp(val, "true") || !strcmp(val, "false")) lua_pushboolean(L, val[0] == 't');
    else if (!lua_stringtonumber(L, val)) lua_pushstring(L, val);
    lua_setfield(L, -2, key);
    p += len + (p[len] == ',');
  }
  return 0;
}

static int l_params_string(lua_State *L) {
  char buf[1024];
  kg_params_string(L, 1, buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

/* The params table at index idx as text, for messages. */
static void describe(lua_State *L, int idx, char *out, size_t n) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, l_params_string);
  lua_pushvalue(L, idx);
  const char *s = lua_pcall(L, 1, 1, 0) == LUA_OK ? lua_tostring(L, -1) : NULL;
  snprintf(out, n, "%s", s ? s : "(not a params table)");
  lua_pop(L, 1);
}

/* Value of `key` in params text, or NULL; *len its length. */
static const char *param_value(const char *params, const char *key, size_t *len) {
  size_t kl = strlen(key);
  for (const char *p = params; *p;) {
    size_t l = strcspn(p, ",");
    if (l > kl && !strncmp(p, key, kl) && p[kl] == '=') {
      *len = l - kl - 1;
      return p + kl + 1;
    }
    p += l + (p[l] == ',');
  }
  return NULL;
}

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* src with every whole-identifier `from` replaced by `to`, malloc'd. */
static char *replace_ident(const char *src, size_t n, const char *from, const char *to,
                           size_t *out_len) {
  size_t fl = strlen(from), tl = strlen(to), cap = n + 1, len = 0;
  for (const char *p = src; (p = strstr(p, from)); p += fl) cap += tl;
  char *out = malloc(cap);
  if (!out) return NULL;
  for (size_t i = 0; i < n;) {
    if (!strncmp(src + i, from, fl) && (i == 0 || !ident_char(src[i - 1])) &&
        !ident_char(src[i + fl])) {
      memcpy(out + len, to, tl);
      len += tl;
      i += fl;
    } else {
      out[len++] = src[i++];
    }
  }
  out[len] = 0;
  *out_len = len;
  return out;
}

/* Give a variant made from params outside the default list the suffix
** "_<tag><value>" for every param its name omits (dots as 'p', minus as 'm'). */
static int add_suffix(const kg_state *st, kg_variant *m) {
  char name[256];
  size_t len = strlen(m->e.name);
  if (len >= sizeof name) return -1;
  memcpy(name, m->e.name, len + 1);
  for (int k = 0; k < st->n_omit; k++) {
    size_t vl;
    const char *v = param_value(m->e.params, st->omit[k].key, &vl);
    if (!v) continue;
    if (vl == 4 && !strncmp(v, "true", 4)) v = "1", vl = 1;
    else if (vl == 5 && !strncmp(v, "false", 5)) v = "0", vl = 1;
    size_t tl = strlen(st->omit[k].tag);
    if (len + 1 + tl + vl >= sizeof name) return -1;
    name[len++] = '_';
    memcpy(name + len, st->omit[k].tag, tl);
    len += tl;
    for (size_t i = 0; i < vl; i++) {
      char c = v[i];
      name[len++] = isalnum((unsigned char)c) ? c : c == '.' ? 'p' : c == '-' ? 'm' : '_';
    }
    name[len] = 0;
  }
  if (!strcmp(name, m->e.name)) return 0;
  if (len > 200) return -1; /* variant{}'s limit */
  size_t n;
  char *src = replace_ident(m->source, m->source_len, m->e.name, name, &n);
  char *nm = malloc(len + 1);
  if (!src || !nm) {
    free(src);
    free(nm);
    return -1;
  }
  memcpy(nm, name, len + 1);
  free((char *)m->e.name);
  free(m->source);
  m->e.name = m->e.entry = nm;
  m->source = src;
  m->source_len = n;
  return 0;
}

static int same_source(const kg_variant *a, const kg_variant *b) {
  return a->e.dtype == b->e.dtype && a->source_len == b->source_len &&
         memcmp(a->source, b->source, a->source_len) == 0;
}

/* The same kernel: sources equal but for the banner line that lists the
** params (params that only steer the ranking, like rmsnorm's `alt`, appear
** there and nowhere else). */
static int same_kernel(const kg_variant *a, const kg_variant *b) {
  const char *pa = strchr(a->source, '\n'), *pb = strchr(b->source, '\n'); /* end of line 1 */
  const char *ea = pa ? strchr(pa + 1, '\n') : NULL, *eb = pb ? strchr(pb + 1, '\n') : NULL;
  if (!ea || !eb) return same_source(a, b);
  size_t l1 = (size_t)(pa - a->source);
  size_t ra = a->source_len - (size_t)(ea - a->source), rb = b->source_len - (size_t)(eb - b->source);
  return a->e.dtype == b->e.dtype && l1 == (size_t)(pb - b->source) &&
         !memcmp(a->source, b->source, l1) && ra == rb && !memcmp(ea, eb, ra);
}

/* The variant make() just declared (st->made), as an index into t->v: a
** default's when its params are a default's (and then it must be that
** default, byte for byte), that of an earlier variant with its name and
** kernel, or a new entry. */
static int resolve(kg_state *st, char *err, size_t errlen) {
  kg_template *t = st->t;
  kg_variant *m = &st->made;
  const char *dt = kp_dtype_name((kp_dtype)m->e.dtype);
  int idx = -1;
  for (int i = 0; i < t->n_default && idx < 0; i++) {
    const kg_variant *d = &t->v[i];
    if (d->e.dtype != m->e.dtype || strcmp(d->e.params, m->e.params)) continue;
    if (strcmp(d->e.name, m->e.name) || !same_source(d, m)) {
      snprintf(err, errlen, "%s: make(%s, {%s}) does not reproduce the default variant %s "
               "(it made %s%s)", t->path, dt, m->e.params, d->e.name, m->e.name,
               strcmp(d->e.name, m->e.name) ? "" : " with another source");
      kg_variant_free(m);
      return -1;
    }
    idx = i;
  }
  if (idx >= 0) {
    kg_variant_free(m);
    return idx;
  }
  if (add_suffix(st, m)) {
    snprintf(err, errlen, "%s: %s: cannot name the variant of {%s}", t->path, m->e.name,
             m->e.params);
    kg_variant_free(m);
    return -1;
  }
  const kg_variant *same = kg_template_find(t, m->e.name);
  if (same && !same_kernel(same, m)) {
    snprintf(err, errlen, "%s: params {%s} and {%s} both make %s, with different sources: a "
             "name must encode every param (list the missing ones in family_space's name_omits)",
             t->path, same->e.params, m->e.params, m->e.name);
    kg_variant_free(m);
    return -1;
  }
  if (same) {
    kg_variant_free(m);
    return (int)(same - t->v);
  }
  kg_variant *slot = kg_append_slot(t);
  if (!slot) {
    snprintf(err, errlen, "%s: out of memory", t->path);
    kg_variant_free(m);
    return -1;
  }
  *slot = *m;
  memset(m, 0, sizeof *m);
  return t->n++;
}

/* make(dt, <the params table on top>), popping it; see resolve(). */
static int make_top(kg_state *st, kp_dtype dt, char *err, size_t errlen) {
  lua_State *L = st->L;
  int tbl = lua_gettop(L);
  char desc[1024];
  describe(L, tbl, desc, sizeof desc);
  lua_pushcfunction(L, kg_traceback);
  lua_getfield(L, LUA_REGISTRYINDEX, REG_MAKE);
  lua_pushstring(L, kp_dtype_name(dt));
  lua_pushvalue(L, tbl);
  st->making = 1;
  st->n_made = 0;
  int rc = lua_pcall(L, 2, 0, tbl + 1);
  st->making = 0;
  if (rc != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    snprintf(err, errlen, "%s\n  (in make(%s, {%s}))", m ? m : "unknown Lua error",
             kp_dtype_name(dt), desc);
  } else if (st->n_made != 1) {
    snprintf(err, errlen, "%s: make(%s, {%s}) declared no variant{}", st->t->path,
             kp_dtype_name(dt), desc);
  } else if (st->made.e.dtype != (uint32_t)dt) {
    snprintf(err, errlen, "%s: make(%s, {%s}) declared a variant of dtype %s", st->t->path,
             kp_dtype_name(dt), desc, kp_dtype_name((kp_dtype)st->made.e.dtype));
  }
  lua_settop(L, tbl - 1);
  if (rc != LUA_OK || st->n_made != 1 || st->made.e.dtype != (uint32_t)dt) {
    kg_variant_free(&st->made);
    return -1;
  }
  return resolve(st, err, errlen);
}

int kg_template_make(kg_template *t, kp_dtype dt, const char *params, char *err, size_t errlen) {
  kg_state *st = space_of(t, err, errlen);
  if (!st) return -1;
  if (push_params(st->L, params)) {
    snprintf(err, errlen, "%s: params '%s': expected key=value,...", t->path, params);
    return -1;
  }
  return make_top(st, dt, err, errlen);
}

int kg_template_neighbours(kg_template *t, kp_dtype dt, const char *params, int **out, int *n_out,
                           char *err, size_t errlen) {
  *out = NULL;
  *n_out = 0;
  int self = kg_template_make(t, dt, params, err, errlen);
  if (self < 0) return -1;
  kg_state *st = t->space;
  lua_State *L = st->L;
  const char *pstr = t->v[self].e.params; /* stable: t->v holds it */
  int base = lua_gettop(L);
  lua_pushcfunction(L, kg_traceback);
  lua_getfield(L, LUA_REGISTRYINDEX, REG_NEIGHBOURS);
  lua_pushstring(L, kp_dtype_name(dt));
  push_params(L, pstr);
  if (lua_pcall(L, 2, 1, base + 1) != LUA_OK) {
    const char *m = lua_tostring(L, -1);
    snprintf(err, errlen, "%s", m ? m : "unknown Lua error");
    lua_settop(L, base);
    return -1;
  }
  int list = lua_gettop(L), rc = 0;
  if (!lua_istable(L, list)) {
    snprintf(err, errlen, "%s: neighbours(%s, {%s}) must return a list of params tables",
             t->path, kp_dtype_name(dt), pstr);
    rc = -1;
  }
  lua_Integer n = rc ? 0 : (lua_Integer)lua_rawlen(L, list);
  int *idx = n ? malloc((size_t)n * sizeof *idx) : NULL;
  if (n && !idx) rc = -1, snprintf(err, errlen, "%s: out of memory", t->path);
  for (lua_Integer k = 1; k <= n && !rc; k++) {
    if (lua_rawgeti(L, list, k) != LUA_TTABLE) {
      snprintf(err, errlen, "%s: neighbours(%s, {%s}): item %d is not a params table", t->path,
               kp_dtype_name(dt), t->v[self].e.params, (int)k);
      rc = -1;
      break;
    }
    int i = make_top(st, dt, err, errlen);
    if (i < 0) rc = -1;
    int seen = i == self;
    for (int j = 0; j < *n_out && !seen; j++) seen = idx[j] == i;
    if (!rc && !seen) idx[(*n_out)++] = i;
  }
  lua_settop(L, base);
  if (rc) {
    free(idx);
    *n_out = 0;
    return -1;
  }
  *out = idx;
  return 0;
}
