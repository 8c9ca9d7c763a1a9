-- rope.lua -- rotary position embedding on q and k in place, one launch, fp32 math.
--
-- Kernel arguments:
--   (T *q, T *k, const float *cos, const float *sin, const int *positions,
--    long long q_st, long long q_sh, long long k_st, long long k_sh, long long cs_stride,
--    int tokens, int hq, int hk, int rot_dim, int gptj, double step)
-- q: (tokens, hq, head_dim) with element strides q_st (token), q_sh (head),
-- the last dim contiguous; k: (tokens, hk, head_dim) likewise.  The first
-- rot_dim (even) dims of each head rotate, the rest are not touched.
-- gptj == 0 (NeoX): pairs (i, i + rot_dim/2); gptj == 1: pairs (2i, 2i+1).
-- Angle of pair i of token t: cos/sin given (f32, row stride cs_stride):
-- cos[t*cs_stride + i]; else pos * step^i with step = theta^(-2/rot_dim)
-- (the runtime computes it in double), pos = positions[t] (or t when
-- positions is NULL).  (x1, x2) -> (x1 c - x2 s, x2 c + x1 s).
--
-- Launch: grid.x = ceil(tokens / rows_per_block); cols (for selection) = rot_dim.
--
-- Variant space: a block takes RPB tokens.  It first puts cos/sin of up to
-- CH = TX*vec pairs of those tokens in shared memory (loaded, or computed once
-- per (token, pair) and shared by all hq + hk heads), then TX lanes x TY rows
-- of threads stream the (token, head) rows, each lane owning `vec` pairs.
-- Rows with more than CH pairs take several such rounds.  `vec` = 16/esize
-- needs 16-byte alignment of q, k, their strides and rot_dim/2 (the runtime
-- folds rot_dim/2 * esize into the alignment); vec = 2 and 1 are the
-- fallbacks.  Ranking: the smallest TX whose one round holds rot_dim/2 pairs,
-- of the widest vector; of those (16-byte), the copy for the call's layout;
-- 16-bit calls of up to 512 tokens take the one-token-a-block form (`_r1`).
-- Rows (token, head) at any residue mod 16 bytes -- odd strides, views that
-- start mid-row, rot_dim/2 not a multiple of vec -- take the one-round
-- peeling copies (`_p`, element alignment, ranked below every 16-byte
-- variant and above the narrow fallbacks): per row, the pairs before the
-- first vector's 16-byte boundary one per lane, the rest as 16-byte
-- vectors, a partial last one included; a vector at another residue (NeoX's
-- second half when rot_dim/2 * esize is not a multiple of 16; GPT-J rows
-- at an odd element offset, whose pairs would straddle vectors) loads
-- shifted and stores element by element.
-- Measured on H200, bf16, 16K tokens x (32 q + 8 k) heads x 128, NeoX: 91-94%
-- of device copy bandwidth, cos/sin given or computed (torch.compile: 75%).

family { name = "rope", signature = "p,p,p,p,p,l,l,l,l,l,i,i,i,i,i,d" }

local KERNELS = [==[
// sin and cos of `a` (radians, |a| < 2^31) to fp32 accuracy.  The reduction
// a = k*pi/2 + r runs in double, because a = pos * inv_freq reaches 1e5 and
// more, where fp32 alone would lose every digit of r.  The two minimax
// polynomials (Cephes sinf/cosf, < 1.5 ulp on |r| <= pi/4) then run in fp32;
// sincosf itself would drag in its Payne-Hanek path and a stack frame.
__device__ __forceinline__ void rope_sincos(double a, float &s, float &c) {
  const double k = rint(a * 0.63661977236758134); // 2/pi
  const double rd = fma(-k, 6.123233995736766e-17, fma(-k, 1.5707963267948966, a));
  const float r = (float)rd, r2 = r * r;
  const float sr =
      fmaf(fmaf(fmaf(-1.9515295891e-4f, r2, 8.3321608736e-3f), r2, -1.6666654611e-1f), r2 * r, r);
  const float cr = fmaf(
      fmaf(fmaf(2.443315711809948e-5f, r2, -1.388731625493765e-3f), r2, 4.166664568298827e-2f),
      r2 * r2, fmaf(-0.5f, r2, 1.f));
  const int quadrant = (int)(long long)k & 3; // two's complement keeps negative k right
  const float ss = (quadrant & 1) ? cr : sr, cc = (quadrant & 1) ? sr : cr;
  s = (quadrant & 2) ? -ss : ss;
  c = ((quadrant + 1) & 2) ? -cc : cc;
}

// x1' = x1 c - x2 s, x2' = x2 c + x1 s with one rounding less each (fma).
__device__ __forceinline__ void rope_rot(float &x1, float &x2, float c, float s) {
  const float a = x1, b = x2;
  x1 = fmaf(a, c, -b * s);
  x2 = fmaf(b, c, a * s);
}

// The shared-memory cos/sin table of a block.
template <int RPB, int CH> struct __align__(16) rope_table { float cos[RPB][CH], sin[RPB][CH]; };
template <int RPB, int CH> __device__ __forceinline__ rope_table<RPB, CH> &rope_shared() {
  __shared__ rope_table<RPB, CH> table;
  return table;
}

// One lane's share of a row: two vectors of VEC elements.  16-byte vectors
// stay packed as loaded until used, so a batch costs 4 registers per vector
// whatever the dtype; narrower ones are converted on load.
// PLAIN: plain 16-byte loads instead of the streaming (.nc, no L1 allocation)
// form (the one-round defaults use plain ones).
// load_in / store_in (PEEL): the first `in` elements (all when in >= VEC,
// none when in <= 0) at p, 16-byte aligned (al) or not (shifted loads,
// element stores: kp_device.cuh).
template <class T, int VEC, bool PLAIN, bool PACKED = VEC * sizeof(T) == 16> struct rope_vec {
  float f[VEC];
  __device__ __forceinline__ void load(const T *p) { kp_load<T, VEC>(p, f); }
  __device__ __forceinline__ void load_in(const T *p, int in, bool) {
#pragma unroll
    for (int i = 0; i < VEC; i++) f[i] = i < in ? kp_load1(p + i) : 0.f;
  }
  __device__ __forceinline__ void get(float *v) const {
#pragma unroll
    for (int i = 0; i < VEC; i++) v[i] = f[i];
  }
  static __device__ __forceinline__ void store_in(T *p, const float *v, int in, bool) {
#pragma unroll
    for (int i = 0; i < VEC; i++)
      if (i < in) kp_store1(p + i, v[i]);
  }
};
template <class T, int VEC, bool PLAIN> struct rope_vec<T, VEC, PLAIN, true> {
  uint4 r;
  __device__ __forceinline__ void load(const T *p) {
    r = kp_ld16_hint<PLAIN ? 0 : 3>(p);
  }
  __device__ __forceinline__ void load_in(const T *p, int in, bool al) {
    r = make_uint4(0u, 0u, 0u, 0u);
    if (in >= VEC) r = al ? kp_ld16_hint<PLAIN ? 0 : 3>(p) : kp_ld16_shift(p);
    else if (in > 0) r = al ? kp_ld16_part(p, in * (int)sizeof(T)) : kp_ld16_elems(p, in, 0u);
  }
  __device__ __forceinline__ void get(float *v) const {
    union { uint4 r; kp_u32 w[4]; } u;
    u.r = r;
    kp_vec_io<T, VEC>::from_words(u.w, v);
  }
  static __device__ __forceinline__ void store_in(T *p, const float *v, int in, bool al) {
    union { uint4 r; kp_u32 w[4]; } u;
    kp_vec_io<T, VEC>::to_words(v, u.w);
    if (in <= 0) return;
    if (!al) kp_st16_elems(p, u.r, in < VEC ? in : VEC);
    else if (in >= VEC) *reinterpret_cast<uint4 *>(p) = u.r;
    else kp_st16_part(p, u.r, in * (int)sizeof(T));
  }
};

// PEEL: where a lane's two vectors of row r (its pairs hp + c0 + [0, VEC))
// lie, and how much of each is in the row.  NeoX: the hp pairs before x1's
// first 16-byte boundary go one per lane (pair i: lane i % TX); x1 at r + hp + c0 is
// then aligned, x2 half elements on at its own residue.  GPT-J: the 2 hp
// elements before the row's boundary when that count is even; when odd, no
// head (hp = 0) and every vector shifted.
template <class T> struct rope_geom {
  T *pa, *pb;
  int hp, in_a, in_b; // pairs peeled; elements of each vector in the row
  bool ala, alb;
};
template <class T, int VEC>
__device__ __forceinline__ rope_geom<T> rope_peel(T *r, int half, int rot_dim, bool gptj, int c0) {
  rope_geom<T> g;
  if (gptj) {
    const int h = kp_head(r, rot_dim);
    g.hp = h & 1 ? 0 : h >> 1;
    g.pa = r + 2 * (g.hp + c0);
    g.pb = g.pa + VEC;
    g.in_a = rot_dim - 2 * (g.hp + c0);
    g.in_b = g.in_a - VEC;
  } else {
    g.hp = kp_head(r, half);
    g.pa = r + g.hp + c0;
    g.pb = g.pa + half;
    g.in_a = g.in_b = half - g.hp - c0;
  }
  g.ala = kp_al16(g.pa);
  g.alb = kp_al16(g.pb);
  return g;
}

template <class T, int VEC, int U, bool PLAIN> struct rope_batch {
  rope_vec<T, VEC, PLAIN> a[U], b[U];
  T *base[U];
  int tok[U]; // token within the block; >= nt marks an empty slot
};

// ONE_ROUND: the variant is only selected for rot_dim/2 <= CH, so the fill
// state dies after one round instead of staying live across the row loop.
// PEEL (one round only): rows at any residue (rope_peel); the table is VEC
// pairs wider, so a partial vector's idle lanes read inside it.
template <class T, int VEC, int TX, int RPB, int U, bool ONE_ROUND, bool PLAIN, bool PEEL = false>
__device__ __forceinline__ void rope_tokens(T *__restrict__ q, T *__restrict__ k,
                                            const float *__restrict__ cosp,
                                            const float *__restrict__ sinp,
                                            const int *__restrict__ positions, long long q_st,
                                            long long q_sh, long long k_st, long long k_sh,
                                            long long cs_stride, int tokens, int hq, int hk,
                                            int rot_dim, bool gptj, double step) {
  constexpr int THREADS = 256, TY = THREADS / TX;
  constexpr int CH = TX * VEC;        // pairs per round; divides THREADS
  constexpr int FSTEP = THREADS / CH; // tokens filled side by side
  constexpr int FN = (RPB + FSTEP - 1) / FSTEP; // tokens each thread fills
  constexpr int TW = CH + (PEEL ? VEC : 0);     // the table's pairs per token
  static_assert(!PEEL || ONE_ROUND, "peeling variants take one round");
  typedef rope_batch<T, VEC, U, PLAIN> batch;
  rope_table<RPB, TW> &tab = rope_shared<RPB, TW>();
  const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
  const int t0 = blockIdx.x * RPB;
  const int nt = min(RPB, tokens - t0);
  const int half = rot_dim >> 1;
  const int heads = hq + hk;
  // A thread's rows (t, h) of the block's nt x heads advance by TY per slot;
  // carrying (t, h) along avoids a division per row.
  const int dt = TY / heads, dh = TY % heads;
  const int fp = threadIdx.x % CH, ft = threadIdx.x / CH;

  const int p_end = ONE_ROUND ? 1 : half;
  for (int p0 = 0; p0 < p_end; p0 += CH) {
    if (p0 > 0) __syncthreads(); // the previous round is done with the table
    const int c0 = p0 + tx * VEC; // first pair of this lane
    const bool lane_on = c0 < half || (PEEL && tx < VEC); // (PEEL: the head's lanes too)
    // element offsets of the lane's two vectors inside a head: NeoX takes
    // x1 = [c0, c0+VEC) and x2 = x1 + half; GPT-J the 2*VEC elements at 2*c0
    const int o1 = gptj ? 2 * c0 : c0;
    const int o2 = gptj ? 2 * c0 + VEC : c0 + half;
    int t = ty / heads, h = ty % heads;
    // Row u of a batch: its token and address (arithmetic), then its loads
    auto row = [&](batch &B, const int u) {
      B.tok[u] = t;
      B.base[u] = t >= nt ? nullptr
                  : h < hq ? q + (long long)(t0 + t) * q_st + (long long)h * q_sh
                           : k + (long long)(t0 + t) * k_st + (long long)(h - hq) * k_sh;
      h += dh;
      t += dt;
      if (h >= heads) { h -= heads; t++; }
    };
    auto load1 = [&](batch &B, const int u) {
      if (B.tok[u] < nt) {
        if constexpr (PEEL) {
          const rope_geom<T> g = rope_peel<T, VEC>(B.base[u], half, rot_dim, gptj, c0);
          B.a[u].load_in(g.pa, g.in_a, g.ala);
          B.b[u].load_in(g.pb, g.in_b, g.alb);
        } else {
          B.a[u].load(B.base[u] + o1);
          B.b[u].load(B.base[u] + o2);
        }
      }
    };
    // rows from u on, each one's address then its loads
    auto load = [&](batch &B, const int from) {
#pragma unroll
      for (int u = 0; u < U; u++)
        if (u >= from) {
          row(B, u);
          load1(B, u);
        }
    };
    // GPTJ: a constant at each call below, so each inlined copy keeps
    // only its own index math
    auto rotate = [&](const batch &B, const bool GPTJ) {
#pragma unroll
      for (int u = 0; u < U; u++) {
        if (B.tok[u] < nt) {
          rope_geom<T> g;
          int hp = 0;
          if constexpr (PEEL) {
            g = rope_peel<T, VEC>(B.base[u], half, rot_dim, GPTJ, c0);
            hp = g.hp;
            for (int i = tx; i < g.hp; i += TX) { // head pair i: (2i, 2i + 1), or (i, i + half)
              T *e1 = B.base[u] + (GPTJ ? 2 * i : i), *e2 = e1 + (GPTJ ? 1 : half);
              float x1 = kp_load1(e1), x2 = kp_load1(e2);
              rope_rot(x1, x2, tab.cos[B.tok[u]][i], tab.sin[B.tok[u]][i]);
              kp_store1(e1, x1);
              kp_store1(e2, x2);
            }
            if (g.in_a <= 0) continue;
          }
          float x[VEC], y[VEC];
          B.a[u].get(x);
          B.b[u].get(y);
          const int pc = hp + tx * VEC; // the vectors' first pair
          const float *cr = &tab.cos[B.tok[u]][pc];
          const float *sr = &tab.sin[B.tok[u]][pc];
          if (GPTJ) {
            // pair m is elements (2m, 2m+1) of x ++ y
            float w[2 * VEC];
#pragma unroll
            for (int e = 0; e < VEC; e++) { w[e] = x[e]; w[VEC + e] = y[e]; }
#pragma unroll
            for (int m = 0; m < VEC; m++) rope_rot(w[2 * m], w[2 * m + 1], cr[m], sr[m]);
#pragma unroll
            for (int e = 0; e < VEC; e++) { x[e] = w[e]; y[e] = w[VEC + e]; }
          } else {
#pragma unroll
            for (int e = 0; e < VEC; e++) rope_rot(x[e], y[e], cr[e], sr[e]);
          }
          if constexpr (PEEL) {
            rope_vec<T, VEC, PLAIN>::store_in(g.pa, x, g.in_a, g.ala);
            rope_vec<T, VEC, PLAIN>::store_in(g.pb, y, g.in_b, g.alb);
          } else {
            kp_store<T, VEC>(B.base[u] + o1, x);
            kp_store<T, VEC>(B.base[u] + o2, y);
          }
        }
      }
    };

    // The first batch is in flight while the table fills and the barrier waits.
    batch cur;
    // PDL: the entry only triggers the next launch; the wait for the kernel
    // before is here, once the first row's address is known (kp_grid_dep:
    // that arithmetic, the block's divisions included, runs under the
    // previous kernel's tail).  Only the first row: the others' addresses
    // come each after the row before's loads, as without PDL -- computing
    // all of them before the first load cost the plain path 3% a call at
    // 128 tokens (bench/NOTES.md 71).  No global memory is touched before it.
    if (lane_on) row(cur, 0);
    if (p0 == 0) {
      kp_grid_dep(lane_on ? (const void *)cur.base[0] : nullptr);
      kp_grid_wait();
    }
    if (lane_on) {
      load1(cur, 0);
      load(cur, 1);
    }

    // Fill: thread (fp, ft) owns pair p0 + fp of tokens ft, ft + FSTEP, ...;
    // all its loads are issued before any is used, so the fill costs one
    // memory latency whatever RPB.
    const int p = p0 + fp;
    if (p < half) {
      if (cosp) {
        float cv[FN], sv[FN];
#pragma unroll
        for (int i = 0; i < FN; i++) {
          const int tt = ft + i * FSTEP;
          if (tt < nt) {
            const long long o = (long long)(t0 + tt) * cs_stride + p;
            cv[i] = cosp[o];
            sv[i] = sinp[o];
          }
        }
#pragma unroll
        for (int i = 0; i < FN; i++) {
          const int tt = ft + i * FSTEP;
          if (tt < nt) {
            tab.cos[tt][fp] = cv[i];
            tab.sin[tt][fp] = sv[i];
          }
        }
      } else {
        int pos[FN];
#pragma unroll
        for (int i = 0; i < FN; i++) {
          const int tt = ft + i * FSTEP;
          pos[i] = positions && tt < nt ? positions[t0 + tt] : t0 + tt;
        }
        // theta^(-2p/rot_dim) = step^p in double: at pos ~1e5 an fp32
        // inverse frequency alone would put the angle off by ~1e-2 rad.
        // By squaring: at most 2 log2(p) multiplies, a relative error of
        // ~1e-15; exp2/log2 (double) would add ~40% to the variant's compile.
        double inv_freq = 1.0, b = step;
        for (int e = p; e; e >>= 1, b *= b)
          if (e & 1) inv_freq *= b;
#pragma unroll
        for (int i = 0; i < FN; i++) {
          const int tt = ft + i * FSTEP;
          if (tt < nt) rope_sincos((double)pos[i] * inv_freq, tab.sin[tt][fp], tab.cos[tt][fp]);
        }
      }
    }
    __syncthreads();

    if (!lane_on) continue; // no barrier follows before the next round's one
    // Double buffering: the next batch's loads are issued before this one is
    // rotated and stored (rows never repeat, so in place is safe).
    // (one rotate site, not a loop plus a last rotate: rotate is most of
    // the code, and code size is first-use compile time)
    for (;;) {
      const bool more = t < nt;
      batch nxt;
      if (more) load(nxt, 0);
      if (gptj) rotate(cur, true);
      else rotate(cur, false);
      if (!more) break;
      cur = nxt;
    }
  }
}

]==]

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(256, ${minb})
${name}(${T} *q, ${T} *k, const float *cos, const float *sin, const int *positions,
        long long q_st, long long q_sh, long long k_st, long long k_sh, long long cs_stride,
        int tokens, int hq, int hk, int rot_dim, int gptj, double step) {
  kp_grid_launch_dependents(); // (PDL: the wait is in rope_tokens, before any global access)
  rope_tokens<${targs}>(q, k, cos, sin, positions, q_st, q_sh, k_st, k_sh, cs_stride, tokens, hq,
                       hk, rot_dim, ${gptj}, step);
}
]]

-- p: vec, tx, u, rpb, minb (blocks per SM the register budget must allow),
-- one = true for a one-round variant (rot_dim/2 <= TX*vec), false for one
-- that loops rounds over any rot_dim.
-- p.layout ("neox" or "gptj"; nil: both, the gptj argument decides): the
-- pair layout a variant computes, as the pack's forms bit (kp_rope_layout:
-- NeoX 0, GPT-J 1).  The ranking's one-round defaults come as one copy per
-- layout (layout_copies()), ranked just above the both-layouts variant, with
-- one rotate path compiled instead of two (bf16 t8: 856 PTX lines, not 1127).
local LAYOUT_BIT = { neox = 1, gptj = 2 }
local function layout_copies(p)
  return { p, with(p, { layout = "neox" }), with(p, { layout = "gptj" }) }
end

local function emit(dt, p, rank_base, max_rows)
  local T = ctype(dt)
  local peel = p.peel == true -- (p.one, 16-byte vectors: the neighbours keep to that)
  local name = string.format("rope_%s_t%d_v%d_u%d%s%s%s%s%s", dt, p.tx, p.vec, p.u,
                             p.rpb ~= 4 and "_r" .. p.rpb or "", p.one and "" or "_any",
                             p.plain and "_pl" or "", p.layout and "_" .. p.layout or "",
                             peel and "_p" or "")
  local targs = string.format("%s, %d, %d, %d, %d, %s, %s, %s", T, p.vec, p.tx, p.rpb, p.u,
                              tostring(p.one), tostring(p.plain == true), tostring(peel))
  variant {
    name = name, dtype = dt, params = p,
    block = 256, rows_per_block = p.rpb,
    max_cols = p.one and 2 * p.tx * p.vec or nil, max = max_rows and { rows = max_rows } or nil,
    align = peel and esize(dt) or p.vec * esize(dt), forms = LAYOUT_BIT[p.layout],
    rank = 2 * (rank_base - p.tx) + (p.layout and 1 or 0),
    source = KERNELS .. subst(ENTRY, { name = name, T = T, targs = targs, minb = p.minb,
                                       gptj = p.layout and tostring(p.layout == "gptj")
                                              or "gptj != 0" }),
  }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  -- one round: bf16/f16 rot_dim <= 64, 128, 256, 512; f32 <= 32, 64, 128, 256
  for _, tx in ipairs({ 4, 8, 16, 32 }) do
    -- plain loads are the default: 0.5-0.7% faster than the streaming form
    -- in four kp tune runs (bf16, 16K tokens x 40 heads x 128, H100 and
    -- H200, 2026-11-22); the streaming one stays for the tuner
    for _, q in ipairs(layout_copies({ vec = vec, tx = tx, u = 2, rpb = 4, minb = 3, one = true,
                                       plain = true })) do
      emit(dt, q, 300)
    end
    emit(dt, { vec = vec, tx = tx, u = 2, rpb = 4, minb = 3, one = true }, 290)
    -- rows at any residue (peeling): below every 16-byte variant, above the
    -- vec 2 / 1 fallbacks
    for _, layout in ipairs({ "neox", "gptj" }) do
      emit(dt, { vec = vec, tx = tx, u = 2, rpb = 4, minb = 3, one = true, plain = true,
                 layout = layout, peel = true }, 260)
    end
  end
  -- for the tuner: more tokens per block (the table fill and its barrier
  -- amortised over more rows), streaming and plain loads (16 tokens: 1-3%
  -- slower than 8 on H100, and t16 spills at 3 blocks per SM on sm_90a)
  for _, tx in ipairs({ 8, 16 }) do
    for _, rpb in ipairs({ 8 }) do
      emit(dt, { vec = vec, tx = tx, u = 2, rpb = rpb, minb = 3, one = true }, 280)
      emit(dt, { vec = vec, tx = tx, u = 2, rpb = rpb, minb = 3, one = true, plain = true }, 280)
    end
  end
  -- A decode step's tokens (up to 512): one token a block.  Four tokens a
  -- block take their 4 x 40 heads of d128 as 2.5 batches of 64 rows in
  -- turn, and at 16 tokens 4 blocks do all the work; one token a block is
  -- one batch on 16 blocks.  Ranked for 16-bit calls of up to 512 tokens,
  -- over the defaults (rank base 330 against their 300; the smallest TX that
  -- holds rot_dim/2 pairs in one round still first).  H200, bf16, 32 + 8
  -- heads x 128, us a call with / without PDL in the PDL chain's RoPE alone
  -- (bench/pdl_bench.py --ops rope, 32 calls a graph), four tokens a block
  -- -> one: 16 tokens 2.61 / 3.08 -> 1.44 / 1.97, 128 3.77 / 4.08 -> 2.25 /
  -- 2.71, 256 4.74 / 4.97 -> 3.19 / 3.73, 512 5.99 / 5.93 -> 5.15 / 5.82,
  -- but 1024 7.41 / 8.08 against 8.29 / 8.96; single calls, L2 flushed: 128
  -- tokens 375 -> 538 GB/s, 512 1270 -> 1307, 1024 1999 against 1900.  Two
  -- tokens a block lost to one at 16 and 128 (bench/NOTES.md 70).  f32 for
  -- the tuner.
  -- As the defaults, one copy a layout too.
  for _, tx in ipairs({ 4, 8, 16, 32 }) do
    local ranked = esize(dt) == 2
    for _, q in ipairs(layout_copies({ vec = vec, tx = tx, u = 2, rpb = 1, minb = 3, one = true,
                                       plain = true })) do
      emit(dt, q, ranked and 330 or 280, ranked and 512 or nil)
    end
  end
  emit(dt, { vec = vec, tx = 32, u = 1, rpb = 4, minb = 3, one = false }, 250)
  emit(dt, { vec = 2, tx = 32, u = 1, rpb = 4, minb = 4, one = false }, 200)
  emit(dt, { vec = 1, tx = 64, u = 1, rpb = 4, minb = 4, one = false }, 100)
end

-- The variant space beyond the list above, for `kp regen`: any point of it
-- (make), and the points one step from a given one (neighbours): lanes per
-- row, vector width, rows per batch, tokens per block, blocks per SM; `one`
-- stays.  A round of tx * vec pairs must divide the 256 threads.  Names
-- carry rpb when it is not 4 and leave minb out: a made variant gets
-- "_m<minb>".
family_space {
  name_omits = { minb = "m" },
  make = function(dt, p) emit(dt, p, 0) end,
  neighbours = function(dt, p)
    -- registers a thread needs, measured on sm_90a: about 24 per row of the
    -- batch on top of 32 (one round), or of 40 and 3 per token it fills past
    -- two (any rot_dim: the fill state lives across rounds)
    local function ok(q)
      if q.vec * esize(dt) > 16 or q.tx * q.vec > 256 then return false end
      if q.peel and q.vec * esize(dt) ~= 16 then return false end -- (peeling: 16-byte vectors)
      local fills = -(-q.rpb // (256 // (q.tx * q.vec))) -- tokens each thread fills
      local need = q.one and 32 + 24 * q.u or 40 + 24 * q.u + 3 * math.max(0, fills - 2)
      return need <= regs(256, q.minb)
    end
    return steps(p, { tx = { 2, 4, 8, 16, 32, 64, 128 }, vec = { 1, 2, 4, 8 }, u = { 1, 2, 4 },
                      rpb = { 1, 2, 4, 8, 16 }, minb = { 1, 2, 3, 4, 6, 8 } }, ok)
  end,
}
