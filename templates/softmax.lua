-- softmax.lua -- y = softmax(x) along rows, numerically stable, fp32 math.
--
-- Kernel arguments: (const T *x, long long ldx, T *y, long long ldy, int rows, int cols)
-- x, y: (rows, cols) with row strides ldx, ldy (elements).
--
-- Variant space:
--   warp   one warp per row, the row held in registers: short rows
--   block  one block per row, the row held in registers: rows up to 32K
--   loop   one block per row, online max/sum pass then a write pass: any length
-- `vec` is elements per 16-byte access (needs 16-byte aligned row starts);
-- vec=1 is the fallback for any alignment.  Ranking: the smallest register
-- variant that holds the row, then the looped ones.  Each 16-byte variant
-- has a whole-rows twin (`_w`, cols a multiple of vec: twins()) ranked just
-- above it, with no partial-vector code: 653 PTX lines instead of 902 for
-- block_t256_n4 (bf16), i.e. a faster first-use compile.

family { name = "softmax", signature = "p,l,p,l,i,i" }

local KERNELS = [[
// v <- softmax of the row whose elements the LANES threads hold in v,
// elements past the row's end set to -inf.  HEAD: e is one more element (a
// peeled row's head, -inf where the lane holds none).
// CL > 1: the block holds a slice of a row shared by the CL CTAs of its
// cluster; each takes its slice's max and sum, exchanges them
// (kp_cluster_gather) and rescales to the row's (an empty slice, or one
// whose elements are all -inf, has max -inf: exp against 0 instead, and
// nothing of it to rescale; a row of -inf only gives NaN).
template <int NV, int VEC, int LANES, bool HEAD = false, int CL = 1>
__device__ __forceinline__ void softmax_regs_core(float (&v)[NV][VEC], float &e, float *scratch) {
  float m = HEAD ? e : -KP_INF;
#pragma unroll
  for (int n = 0; n < NV; n++)
#pragma unroll
    for (int i = 0; i < VEC; i++) m = fmaxf(m, v[n][i]);
  m = LANES == 32 ? kp_warp_max(m) : kp_block_max<LANES>(m, scratch);
  const float mr = CL > 1 && m == -KP_INF ? 0.f : m;
  float s = 0.f;
  if (HEAD) { e = kp_exp(e - mr); s = e; }
#pragma unroll
  for (int n = 0; n < NV; n++)
#pragma unroll
    for (int i = 0; i < VEC; i++) { v[n][i] = kp_exp(v[n][i] - mr); s += v[n][i]; }
  s = LANES == 32 ? kp_warp_sum(s) : kp_block_sum<LANES>(s, scratch);
  float inv = 1.f / s;
  if constexpr (CL > 1) {
    const volatile float *g = kp_cluster_gather<CL, 2>({m, s}); // CTA r's (max, sum): g[2 r]
    float M = g[0];
#pragma unroll
    for (int r = 1; r < CL; r++) M = fmaxf(M, g[2 * r]);
    float S = 0.f;
#pragma unroll
    for (int r = 0; r < CL; r++) S = fmaf(g[2 * r + 1], kp_exp(g[2 * r] - M), S);
    // (a row of -inf only is NaN, as the one-CTA kernels and PyTorch give it)
    inv = M == -KP_INF ? __int_as_float(0x7fc00000) : m == -KP_INF ? 0.f : kp_exp(m - M) / S;
  }
  if (HEAD) e *= inv;
#pragma unroll
  for (int n = 0; n < NV; n++)
#pragma unroll
    for (int i = 0; i < VEC; i++) v[n][i] *= inv;
}

// Row in registers: THREADS threads share one row when ROWS_PER_BLOCK == 1,
// or each warp owns a row (THREADS == 32 per row) otherwise.
// PEEL (16-byte vectors): rows at any residue mod 16 bytes (per-row peeling,
// kp_device.cuh): lane i < h holds head element i, the vectors start at
// y's row's first 16-byte boundary.
// CL > 1 (16-byte vectors, PEEL): the row over a cluster of CL CTAs, each
// holding the slice kp_cluster_slice gives it (rank 0 also the head).
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool PEEL = false, int CL = 1>
__device__ __forceinline__ void softmax_regs(const T *__restrict__ x, long long ldx,
                                             T *__restrict__ y, long long ldy, int rows,
                                             int cols) {
  __shared__ float scratch[32];
  const int sub = ROWS_PER_BLOCK == 1 ? 0 : threadIdx.x / LANES;
  const int lane = ROWS_PER_BLOCK == 1 ? threadIdx.x : threadIdx.x % LANES;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0;
  const long long row = (long long)(blockIdx.x / CL) * ROWS_PER_BLOCK + sub;
  if (row >= rows) return; // whole warps (or the whole block, or cluster) leave together
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  float v[NV][VEC];
  float e = -KP_INF; // (PEEL) this lane's head element
  if constexpr (VEC * sizeof(T) == 16) { // the partial vector loaded and stored once
    constexpr int S = LANES * VEC;
    typedef kp_raw_io<T, VEC> io;
    const int hh = PEEL ? kp_head(yr, cols) : 0;
    const int h = crank == 0 ? hh : 0; // rank 0 holds the head
    long long n = cols - hh;
    const T *xb = xr + hh;
    if constexpr (CL > 1) {
      long long len;
      const long long c = kp_cluster_slice<CL, VEC>(n, crank, &len);
      xb += c, yr += c, n = len;
    }
    const long long c0 = (long long)lane * VEC;
    const kp_part p = kp_part_of<T, VEC, S, NV>(c0, n);
    uint4 r[NV];
    kp_group_load<T, VEC, S, NV>(xb, c0, n, p, kp_bits<T>::NEG_INF, r, !PEEL || kp_al16(xb));
    if (PEEL && lane < h) e = kp_load1(xr + lane);
#pragma unroll
    for (int k = 0; k < NV; k++) io::unpack(r[k], v[k]);
    softmax_regs_core<NV, VEC, LANES, PEEL, CL>(v, e, scratch);
#pragma unroll
    for (int k = 0; k < NV; k++) r[k] = io::pack(v[k]);
    kp_group_store<T, VEC, S, NV, true>(yr + hh, c0, n, p, r); // (ST16: NOTES 83)
    if (PEEL && lane < h) kp_store1(yr + lane, e);
  } else { // narrower vectors (kp regen's neighbours)
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const long long c = ((long long)n * LANES + lane) * VEC;
      kp_load_tail<T, VEC>(xr, c, cols, -KP_INF, v[n]);
    }
    softmax_regs_core<NV, VEC, LANES>(v, e, scratch);
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const long long c = ((long long)n * LANES + lane) * VEC;
      if (c < cols) kp_store_tail<T, VEC>(yr, c, cols, v[n]);
    }
  }
}

// The row's (max, sum) from each thread's running (m, s): over the block,
// then (CL > 1) over the cluster's slices (a slice of -inf only has max
// -inf and sum 0: it counts nothing).  BEGUN: the kernel called
// kp_cluster_begin.
template <int THREADS, int CL, bool BEGUN = false>
__device__ __forceinline__ void softmax_row_stats(float m, float s, float *scratch, float &M,
                                                  float &S) {
  M = kp_block_max<THREADS>(m, scratch);
  S = kp_block_sum<THREADS>(M == -KP_INF ? s : s * kp_exp(m - M), scratch);
  if constexpr (CL > 1) {
    const volatile float *g = kp_cluster_gather<CL, 2, BEGUN>({M, S}); // (g[2 r], g[2 r + 1])
    M = g[0];
#pragma unroll
    for (int r = 1; r < CL; r++) M = fmaxf(M, g[2 * r]);
    S = 0.f;
#pragma unroll
    for (int r = 0; r < CL; r++) S = fmaf(g[2 * r + 1], kp_exp(g[2 * r] - M), S);
  }
}

// The loops' steps (16-byte vectors, packed): (max, sum) of r[0..nr), nr <=
// U, folded into the running (m, s), one rescale a step (elements of -inf
// count nothing); and one output vector, exp(v - M) * inv, packed.
template <class T, int VEC, int U>
__device__ __forceinline__ void softmax_fold(const uint4 *r, int nr, float &m, float &s) {
  typedef kp_raw_io<T, VEC> io;
  float cm = -KP_INF;
#pragma unroll
  for (int u = 0; u < U; u++) {
    if (u >= nr) break;
    float v[VEC];
    io::unpack(r[u], v);
#pragma unroll
    for (int i = 0; i < VEC; i++) cm = fmaxf(cm, v[i]);
  }
  const float nm = fmaxf(m, cm);
  if (nm != -KP_INF) {
    s *= kp_exp(m - nm);
#pragma unroll
    for (int u = 0; u < U; u++) {
      if (u >= nr) break;
      float v[VEC];
      io::unpack(r[u], v);
#pragma unroll
      for (int i = 0; i < VEC; i++) s += kp_exp(v[i] - nm);
    }
    m = nm;
  }
}
template <class T, int VEC>
__device__ __forceinline__ uint4 softmax_out(uint4 q, float M, float inv) {
  typedef kp_raw_io<T, VEC> io;
  float v[VEC];
  io::unpack(q, v);
#pragma unroll
  for (int i = 0; i < VEC; i++) v[i] = kp_exp(v[i] - M) * inv;
  return io::pack(v);
}

// Any length: pass 1 keeps a running (max, sum) per thread (online softmax),
// pass 2 re-reads the row (from L2 when it fits) and writes.
// PEEL (16-byte vectors): as softmax_regs'; thread i < h holds head element i.
// CL > 1 (PEEL): the row over a cluster of CL CTAs, each looping over the
// slice kp_cluster_slice gives it, their (max, sum) pairs combined through
// distributed shared memory: few rows in flight, so that the second pass
// finds its slice in L2 even for rows of 100K+ elements.
// U > 1 (16-byte vectors): each step of a pass takes U whole vectors per
// thread, their loads all issued before any use and checked whole, not
// element by element; the row's partial vector once, ahead of each pass
// (rmsnorm_loop's shape).  One (max, sum) update per step, not per vector.
template <class T, int VEC, int THREADS, bool PEEL = false, int CL = 1, int U = 1>
__device__ __forceinline__ void softmax_loop(const T *__restrict__ x, long long ldx,
                                             T *__restrict__ y, long long ldy, int rows,
                                             int cols) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x / CL;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  constexpr bool P = PEEL && VEC * sizeof(T) == 16;
  const int hh = P ? kp_head(yr, cols) : 0; // the row's head, held by rank 0
  const int h = crank == 0 ? hh : 0;
  const float e = P && (int)threadIdx.x < h ? kp_load1(xr + threadIdx.x) : -KP_INF;
  long long n = cols - hh;
  const T *xb = xr + hh;
  T *yb = yr + hh;
  if constexpr (CL > 1) {
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(n, crank, &len);
    xb += c, yb += c, n = len;
  }
  const bool al = !P || kp_al16(xb);
  float m = e, s = e == -KP_INF ? 0.f : 1.f;
  if constexpr (U > 1 && VEC * sizeof(T) == 16) {
    typedef kp_raw_io<T, VEC> io;
    constexpr int S = THREADS * VEC;
    constexpr kp_u32 NI = kp_bits<T>::NEG_INF;
    const long long c0 = (long long)threadIdx.x * VEC;
    const kp_part tail = kp_part_of<T, VEC, S, KP_ALL>(c0, n);
    auto fold = [&](const uint4 *r, int nr) { softmax_fold<T, VEC, U>(r, nr, m, s); };
    if (tail.k >= 0) {
      const uint4 q = kp_part_load<T, VEC>(xb, tail, NI, al);
      fold(&q, 1);
    }
#pragma unroll 1
    for (long long c = c0; c < n; c += U * S) {
      uint4 r[U];
#pragma unroll
      for (int u = 0; u < U; u++)
        r[u] = c + u * S + VEC <= n ? kp_ld16_al<0>(xb + c + u * S, al) : make_uint4(NI, NI, NI, NI);
      fold(r, U);
    }
    float M, S1;
    softmax_row_stats<THREADS, CL>(m, s, scratch, M, S1);
    const float inv = 1.f / S1;
    if (P && (int)threadIdx.x < h) kp_store1(yr + threadIdx.x, kp_exp(e - M) * inv);
    auto out = [&](uint4 q) { return softmax_out<T, VEC>(q, M, inv); };
    if (tail.k >= 0) kp_part_store<T, VEC>(yb, tail, out(kp_part_load<T, VEC>(xb, tail, NI, al)));
#pragma unroll 1
    for (long long c = c0; c < n; c += U * S) {
      uint4 r[U];
#pragma unroll
      for (int u = 0; u < U; u++) r[u] = io::load_whole(xb, c + u * S, n, al);
#pragma unroll
      for (int u = 0; u < U; u++)
        if (c + u * S + VEC <= n) *reinterpret_cast<uint4 *>(yb + c + u * S) = out(r[u]);
    }
  } else {
    for (long long c = (long long)threadIdx.x * VEC; c < n; c += (long long)THREADS * VEC) {
      float v[VEC];
      kp_load_tail<T, VEC>(xb, c, n, -KP_INF, v, al);
      float cm = v[0];
#pragma unroll
      for (int i = 1; i < VEC; i++) cm = fmaxf(cm, v[i]);
      const float nm = fmaxf(m, cm);
      if (nm != -KP_INF) {
        s *= kp_exp(m - nm);
#pragma unroll
        for (int i = 0; i < VEC; i++) s += kp_exp(v[i] - nm);
        m = nm;
      }
    }
    float M, S;
    softmax_row_stats<THREADS, CL>(m, s, scratch, M, S);
    const float inv = 1.f / S;
    if (P && (int)threadIdx.x < h) kp_store1(yr + threadIdx.x, kp_exp(e - M) * inv);
    for (long long c = (long long)threadIdx.x * VEC; c < n; c += (long long)THREADS * VEC) {
      float v[VEC];
      kp_load_tail<T, VEC>(xb, c, n, -KP_INF, v, al);
#pragma unroll
      for (int i = 0; i < VEC; i++) v[i] = kp_exp(v[i] - M) * inv;
      kp_store_tail<T, VEC>(yb, c, n, v);
    }
  }
}

// Long rows, one DRAM read: each CTA's slice of the row (CL > 1: the row
// over a cluster of CL CTAs, as softmax_loop's) staged in shared memory by
// bulk copies (kp_stage_issue), the online (max, sum) pass over it piece by
// piece as the pieces arrive, the write pass from shared memory again.  The
// loops' second pass re-reads the row from L2, and past 128K partly from
// DRAM (bench/NOTES.md 44).  SMEM: the bytes of whole vectors a CTA holds
// (the variant's max_cols; its image takes 16 more, for the edge); U
// vectors a thread a step (a piece is one step of the block); peeling as
// softmax_loop's; the row's partial vector from global memory.  (Persistent
// CTAs with two images, the next row copied during this one, ran 7-40%
// slower than a row a CTA: bench/NOTES.md 45.)
template <class T, int VEC, int THREADS, int CL, int U, int SMEM>
__device__ __forceinline__ void softmax_stage(const T *__restrict__ x, long long ldx,
                                              T *__restrict__ y, long long ldy, int rows,
                                              int cols) {
  static_assert(VEC * sizeof(T) == 16, "16-byte vectors");
  constexpr int PV = THREADS * U, NB = (SMEM / 16 + PV - 1) / PV;
  constexpr kp_u32 NI = kp_bits<T>::NEG_INF;
  extern __shared__ __align__(16) char kp_img[];
  __shared__ unsigned long long bar[NB];
  __shared__ float scratch[32];
  const long long row = blockIdx.x / CL;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0, t = threadIdx.x;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  const int hh = kp_head(yr, cols), h = crank == 0 ? hh : 0; // the row's head, rank 0
  long long n = cols - hh;
  const T *xb = xr + hh;
  T *yb = yr + hh;
  if constexpr (CL > 1) {
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(n, crank, &len);
    xb += c, yb += c, n = len;
  }
  const int nv = (int)(n / VEC), np = (nv + PV - 1) / PV;
  const int off = kp_stage_issue<T, VEC, PV, NB, THREADS>(xb, nv, kp_img, bar);
  if constexpr (CL > 1) kp_cluster_begin(); // (its wait at the exchange, after pass 1)
  const bool al = off == 0;
  const float e = t < h ? kp_load1(xr + t) : -KP_INF;
  const kp_part tail = {n % VEC && t == nv % THREADS ? 0 : -1, n};
  const uint4 pq = kp_part_load<T, VEC>(xb, tail, NI, al);
  float m = e, s = e == -KP_INF ? 0.f : 1.f;
  auto fold = [&](const uint4 *r, int nr) { softmax_fold<T, VEC, U>(r, nr, m, s); };
  if (tail.k >= 0) fold(&pq, 1);
#pragma unroll 1
  for (int q = 0; q < np; q++) {
    kp_mbar_wait(&bar[q], 0);
    uint4 r[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k = q * PV + u * THREADS + t;
      r[u] = k < nv ? kp_stage_vec(kp_img, off, k, al) : make_uint4(NI, NI, NI, NI);
    }
    fold(r, U);
  }
  float M, S1;
  softmax_row_stats<THREADS, CL, true>(m, s, scratch, M, S1);
  const float inv = 1.f / S1;
  auto out = [&](uint4 q) { return softmax_out<T, VEC>(q, M, inv); };
  if (t < h) kp_store1(yr + t, kp_exp(e - M) * inv);
  if (tail.k >= 0) kp_part_store<T, VEC>(yb, tail, out(pq));
  T *yk = kp_opaque(yb + (long long)t * VEC); // (stepped PV vectors a step)
#pragma unroll 1
  for (int k0 = t; k0 < nv; k0 += PV, yk += PV * VEC) {
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k = k0 + u * THREADS;
      if (k < nv)
        *reinterpret_cast<uint4 *>(yk + u * THREADS * VEC) = out(kp_stage_vec(kp_img, off, k, al));
    }
  }
}
]]

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(${block})
${name}(const ${T} *x, long long ldx, ${T} *y, long long ldy, int rows, int cols) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  ${call}(x, ldx, y, ldy, rows, cols);
}
]]

-- The variants the ranking picks past 12K columns: { min_cols, rank[,
-- max_cols] } (measured: see the variant lists below), by shape; the others
-- are there for the tuner.  16-bit rows: 12K-24K the one-CTA loop of a
-- vector a step (on sm_90a the 48 KiB stage shape over it: the stage list
-- below), 24K-32K the one of 4 vectors a step (ranked from 1 column:
-- the any-shape fallback, below every register shape up to 28K), 32K-64K in
-- 8 CTAs of 128 x 8, past 64K the loop over 4 CTAs.  The 12K-24K loop (over
-- 512 x 4 and, past 16K, 256 x 4 over 4 CTAs): kp tune, H200, bf16,
-- 2026-12-01 (bench/results/2026-12-01-s49, calls 2-3), us, against the
-- pick before: odd 8192 x 13823 144.9 (149.6), 4096 x 18943 96.7 (138.0),
-- 4096 x 22001 116.0 (145.9); aligned (its whole-rows twin) 8192 x 14336
-- 123.0 (131.0), 4096 x 16384 72.4 (73.4), 4096 x 18944 85.5 (127.2),
-- 4096 x 20480 91.8 (130.8), 4096 x 24576 114.5 (138.1; 4 vectors a step
-- 120.5, odd rows' peeling loop 125.2).
local function ranked(dt, kind, p)
  local key = string.format("%s t%d n%s c%s u%s", kind, p.threads, p.nv or "-", p.cl or "-",
                            p.unroll or "-")
  if esize(dt) == 2 then -- (16-bit rows: 32K in 4 CTAs of 256 x 4, 64K in 8 of 128 x 8)
    return ({ ["loop t512 n- c- u-"] = { 12289, 185, 24576 }, ["loop t512 n- c- u4"] = { 1, 171 },
              ["block t128 n8 c8 u-"] = { 32769, 172 }, ["loop t512 n- c4 u4"] = { 65537, 173 } })[key]
  end
  return ({ ["loop t512 n- c4 u-"] = { 32769, 135 }, ["loop t512 n- c8 u-"] = { 65537, 136 } })[key]
end

-- The warps a row ranked for odd 16-bit rows (max_align 8) from min_cols
-- to their max_cols, by vectors a lane (below, where measured); keyed by
-- shape, not params, so that `kp regen`'s neighbours of them stay unranked
local ODD_WARPS = { [6] = 1025 }

local function emit(dt, kind, p)
  local T = ctype(dt)
  local vec = p.vec
  local name, call, max_cols, block, rpb, rank, min_cols, st, odd
  if kind == "warp" then
    name = string.format("softmax_%s_warp_v%d_n%d", dt, vec, p.nv)
    block, rpb = 128, 4
    call = string.format("softmax_regs<%s, %d, %d, 32, 4>", T, vec, p.nv)
    max_cols = 32 * vec * p.nv
    rank = 300 - p.nv
    odd = esize(dt) == 2 and vec == 8 and p.only90 and ODD_WARPS[p.nv]
    if odd then min_cols, rank = odd, 400 end
  elseif kind == "block" then
    name = string.format("softmax_%s_block_t%d_v%d_n%d", dt, p.threads, vec, p.nv)
    block, rpb = p.threads, 1
    call = string.format("softmax_regs<%s, %d, %d, %d, 1>", T, vec, p.nv, p.threads)
    max_cols = p.threads * vec * p.nv
    rank = 200 - max_cols // 1024
    if p.cl then -- the row over a cluster of cl CTAs (sm_90a): for the tuner unless ranked
      name = name .. "_c" .. p.cl
      max_cols = max_cols * p.cl
      rank = 60 - p.cl
    end
  elseif kind == "stage" then -- (sm_90a: bulk copies; peels; for the tuner unless ranked)
    st = stage_fields("softmax", dt, p, T, vec, 1)
    name, call, max_cols, min_cols, rank = st.name, st.call, st.max_cols, st.min_cols, st.rank
    block, rpb = p.threads, 1
  else
    name = string.format("softmax_%s_loop_t%d_v%d", dt, p.threads, vec)
    block, rpb = p.threads, 1
    call = string.format("softmax_loop<%s, %d, %d>", T, vec, p.threads)
    max_cols = nil
    rank = vec > 1 and 100 or 0
    if p.unroll then name = name .. "_u" .. p.unroll end -- (U vectors a step: the call below)
    if p.cl then -- the loop over a cluster (sm_90a; PEEL): for the tuner unless ranked
      name = name .. "_c" .. p.cl
      rank = 80 - p.cl
    end
  end
  p.kind = kind
  if kind == "block" or kind == "loop" then -- (ranked() above)
    local r = ranked(dt, kind, p)
    if r then min_cols, rank, max_cols = r[1] > 1 and r[1] or nil, r[2], r[3] or max_cols
    elseif p.unroll then rank = rank - 1 end -- (below its one-vector twin: for the tuner)
  end
  local whole = p.whole and vec > 1 -- rows of a multiple of vec (twins())
  if whole then name = name .. "_w" end
  -- 16-byte variants other than the whole-rows twins peel each row (PEEL):
  -- any alignment of the element size, vectorised; the twins keep the
  -- 16-byte requirement and the aligned code as it was
  local peel = vec * esize(dt) == 16 and not whole
  if peel and kind ~= "stage" then call = call:gsub(">$", ", true>") end
  if p.cl and kind ~= "stage" then
    assert(peel, "a cluster variant peels") -- (the loop's call, too, takes CL after PEEL)
    call = call:gsub(">$", ", " .. p.cl .. ">")
  end
  if p.unroll and kind == "loop" then
    assert(peel, "an unrolled loop peels")
    call = string.format("softmax_loop<%s, %d, %d, true, %d, %d>", T, vec, p.threads, p.cl or 1,
                         p.unroll)
  end
  variant {
    name = name, dtype = dt, params = p,
    block = block, rows_per_block = rpb, min_cols = min_cols,
    cluster = p.cl, split = p.cl, smem = st and st.smem,
    max_align = st and st.max_align or (odd and 8) or nil,
    targets = (p.cl or p.only90 or kind == "stage") and { "sm_90a" } or nil,
    min_sm = (p.cl or kind == "stage") and 90 or nil, max_sm = (p.cl or kind == "stage") and 90 or nil,
    max_cols = max_cols, min_rows = p.min_rows,
    align = peel and esize(dt) or vec * esize(dt), cols_mult = whole and vec or nil,
    rank = 2 * rank + (whole and 1 or 0),
    source = KERNELS .. subst(ENTRY, { block = block, name = name, T = T, call = call }),
  }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  for _, nv in ipairs({ 1, 2, 4 }) do
    for _, p in ipairs(twins({ vec = vec, nv = nv })) do emit(dt, "warp", p) end
  end
  -- Odd 16-bit rows of 1025-4096 (max_align 8) ran one block a row of 128
  -- / 256 threads x 2 vectors, never timed at odd lengths.  Fifty-first
  -- session, call 2, kp tune, H200, bf16, one run, us (the block pick
  -- before): a warp a row of 6 vectors a lane for 1025-1536 (65536 x 1501
  -- 96.1, 96.3% of copy; 113.9; built for sm_90a, where measured), one-CTA
  -- stages of 64 threads below: 2 x 6 KiB for 2049-3072 (65536 x 2501
  -- 163.7, 94.2%; 224.1 -- 3001 195.3, 94.8%; 239.0), 4 x 9 KiB for
  -- 3073-4096 (65536 x 3501 225.8, 95.6%; 254.9).  1537-2048 keep 128 x 2:
  -- at 2001 the stage led by 2.5% under kp tune (131.7 against 135.1) and
  -- trailed by 3% side by side (call 4: 89.9-90.6% of copy against
  -- 92.6-93.7).  Call 4, side by side in turns with the pack before, %
  -- of copy: 1501 95.4 (79.4), 2501 92.7 (68.2), 3001 94.4 (76.6), 3501
  -- 95.2 (83.5), 32768 x 4095 93.2 (91.0).  (64 x 4 in 9 KiB, for the
  -- tuner before, now stops at 4096: at 4097-4608 it would tie with the
  -- ranked 128 x 2 in 16 KiB; the tuner no longer times it there, where it
  -- ran level: 16384 x 4097 68.7 us against 68.3.)
  if esize(dt) == 2 then
    emit(dt, "warp", { vec = vec, nv = 6, only90 = true })
  end
  -- (n = 3: rows of 4K..6K and 8K..12K fill 3/4 of the threads' vectors or
  -- more, not half: H100, bf16, 2026-11-25, 16384 x 4097 99.3 us against
  -- 112.9 for 256 x 4, 32768 x 5001 223.5 against 244.4, 8192 x 11007 126.1
  -- against 160.9 for 512 x 4 and 142.5 for the loop)
  for _, c in ipairs({ { 128, 2 }, { 256, 2 }, { 256, 3 }, { 256, 4 }, { 512, 3 }, { 512, 4 },
                       { 1024, 4 } }) do
    for _, p in ipairs(twins({ vec = vec, threads = c[1], nv = c[2] })) do emit(dt, "block", p) end
  end
  -- Long rows over a cluster of CTAs (sm_90a, kp_cluster_gather): the row in
  -- registers, or a loop over each CTA's slice (the second pass from L2:
  -- the rows in flight are few).  { threads, nv, cl }: the ranked ones
  -- (ranked() above) won `kp tune` on an H100 (bf16, odd lengths, 2026-11-25,
  -- bench/NOTES.md 35): 4096 x 32001 201 us (block_t1024_n4: 229), 2048 x
  -- 50257 170 (one-CTA loop: 221; 8 CTAs of 128 threads: a cluster over
  -- fewer SMs), 1024 x 128257 241 (299), 512 x 151937 150 (191), 512 x
  -- 199999 212 (248).  The others are for the tuner: a cluster's CTAs
  -- holding little of the row each lose to the one-CTA variants (16384 x
  -- 4097 over 2 CTAs: 1.6x slower than 256 x 4).
  if vec > 1 then
    for _, c in ipairs({ { 256, 4, 2 }, { 256, 4, 4 }, { 256, 4, 8 }, { 512, 4, 8 },
                         { 512, 4, 16 }, { 128, 8, 8 }, { 128, 8, 16 } }) do
      emit(dt, "block", { vec = vec, threads = c[1], nv = c[2], cl = c[3] })
    end
  end
  for _, p in ipairs(twins({ vec = vec, threads = 512 })) do emit(dt, "loop", p) end
  emit(dt, "loop", { vec = 1, threads = 256 })
  if vec > 1 then -- the loop over a cluster: { threads, cl }
    for _, c in ipairs({ { 512, 4 }, { 512, 8 }, { 512, 16 }, { 1024, 8 }, { 128, 16 },
                         { 256, 16 } }) do
      emit(dt, "loop", { vec = vec, threads = c[1], cl = c[2] })
    end
    -- the same with U vectors a step (softmax_loop's U): { threads, unroll,
    -- cl }.  kp tune, H100, bf16, 2026-11-26 (bench/results/2026-11-26-s14/
    -- call2), us: 4096 x 32001 192.6 one CTA, U = 4 (the 256 x 4 over 4
    -- CTAs ranked before: 207.9); 1024 x 128257 217.4 over 4 CTAs, U = 4
    -- (the loop over 8, ranked before: 242.6), 512 x 151937 143.7 (152.2),
    -- 512 x 199999 204.1 (214.8; 187.5 for 512 x 2 over 8, but 238.7 at
    -- 128257); 2048 x 50257 keeps 128 x 8 over 8 CTAs (172.6 against 188.0).
    -- (256 x 4 over 8 and 16 CTAs, for the tuner, not in f16: those spilled 8
    -- bytes at 64 registers with the st.async cluster exchange, bench/NOTES.md 61)
    for _, c in ipairs({ { 512, 4 }, { 512, 4, 4 }, { 512, 4, 8 }, { 512, 2, 4 }, { 512, 2, 8 },
                         { 256, 4, 8, no_f16 = true }, { 256, 4, 16, no_f16 = true },
                         { 1024, 2, 8 } }) do
      if not c.no_f16 or dt ~= "f16" then
        emit(dt, "loop", { vec = vec, threads = c[1], unroll = c[2], cl = c[3] })
      end
    end
    -- each CTA's slice staged in shared memory (softmax_stage): { threads,
    -- unroll, KiB of whole vectors a CTA, cl[, min_cols, max_cols] }; 16-bit
    -- rows off the 16-byte grid (max_align 8) take the ranked ones (min_cols)
    -- over every other variant.  kp tune, H100, bf16, 2026-11-27, two runs
    -- (bench/results/2026-11-27-s15/call1, call2), us, against the ranking
    -- before: 16384 x 4097 98.5 / 99.0 (256 x 3: 100.9 / 100.4), 1024 x
    -- 128257 206.2 / 205.6 (the loop over 4 CTAs: 216.3 / 216.6), 512 x
    -- 151937 131.5 / 129.8 (142.8 / 143.1), 512 x 199999 162.4 / 161.2
    -- (203.6 / 203.9).  At 11007, 32001 and 50257 the picks before kept
    -- their lead or tied (one run each way).  Aligned rows (c.any) too
    -- (2026-11-27, sixteenth session; calls 1-2 measured, call 3 ranked):
    -- past 128K 512 x 2 over 4 CTAs, 512 x 151936 127.0 (the loop of 256 x
    -- 4 over 8: 140.5), 512 x 200000 160.0 (the loop over 4: 203.2); from
    -- 98305 to 131072 256 x 2 over 8, aligned 1024 x 128256 206.0 / 207.7
    -- (calls 1, 3; the loop over 4: 214.7 / 215.0), odd 128257 203.7 /
    -- 206.4 (512 x 2 over 4: 205.6 / 206.2, fifteenth session's calls 1-2).
    -- Seventeenth session (call 1, one run): odd 4096 x 32001 186.3 for
    -- 512 x 2 in one CTA (the loop of 512 x 4: 192.7), hence 24577-32768.
    -- Twenty-seventh session (call 4, H200, one run, after the st.async
    -- cluster exchange): odd 2048 x 50257 106.9 for 512 x 2 over 2 CTAs (the
    -- registers of 128 x 8 over 8, ranked before: 136.8), hence 40961-65536.
    -- Twenty-eighth session (call 6, H200, one run): odd 8192 x 11007 92.4
    -- for 256 x 2 in one CTA (the registers of 512 x 3, ranked before:
    -- 103.1; on an H100, seventeenth session: 130.8 against 128.8), hence
    -- 8193-12288.  256 x 2 over 16 CTAs of 16 / 26 KiB (8 CTAs an SM), for
    -- the tuner: behind the picks on every long row tried (twenty-ninth
    -- session, call 4, H200).  Forty-ninth session (call 5, kp tune, H200,
    -- bf16, one run, us): 512 x 2 in one CTA of 48 KiB at 12289-24576, any
    -- alignment, against the one-CTA loop ranked there in call 4: odd 8192
    -- x 13823 116.3 (145.8; 256 x 2 in 32 KiB 115.7), aligned 8192 x 14336
    -- 115.4 (123.7), 4096 x 16384 67.5 (72.8), odd 4096 x 18943 81.7
    -- (97.4), aligned 18944 79.2 (85.9), odd 22001 93.3 (116.8), aligned
    -- 24576 100.6 (114.6).  Fiftieth session (call 1, kp tune, H200, bf16,
    -- one run, us): 512 x 2 in one CTA of 64 KiB for aligned rows of
    -- 24577-32768 too, against the loop of 512 x 4 ranked there: 4096 x
    -- 26624 108.7, 28672 117.5 (132.6), 30000 121.9, 32768 133.9 (148.5).
    for _, c in ipairs({ { 128, 2, 16, nil, 4097, 8192 },
                         { 512, 2, 64, nil, 24577, 32768, any = true },
                         { 512, 2, 64, 4, 65537, 98304 },
                         { 256, 2, 32, 8, 98305, any = true },
                         { 512, 2, 100, 4, 131073, any = true }, { 512, 2, 64, 2, 40961, 65536 },
                         { 256, 2, 24, nil, 8193, 12288 },
                         { 512, 2, 32, 8 }, { 512, 2, 50, 8 }, { 256, 1, 16 },
                         { 512, 1, 24 }, { 512, 2, 48, nil, 12289, 24576, any = true },
                         { 256, 2, 32 }, { 1024, 2, 100, 4 }, { 256, 2, 16, 16 },
                         { 256, 2, 26, 16 } }) do
      emit(dt, "stage", stage_params(dt, vec, c))
    end
  end

  -- Fewer threads a CTA, slices sized to the row (thirty-fourth session,
  -- call 5, kp tune, H200, bf16, one run, us; rmsnorm.lua says why): 512 x
  -- 151937 256 x 2 over 8 CTAs of 38 KiB 80.7 (512 x 2 over 4 of 100 KiB:
  -- 85.8), 512 x 199999 256 x 2 over 8 of 50 KiB 109.1 (110.2), 2048 x 50257
  -- 128 x 4 over 4 of 25 KiB 105.6 (512 x 2 over 2 of 64 KiB: 107.5);
  -- ranked (rank 401) for odd 16-bit rows of 40961-51200 and 131073-204800.
  -- 16384 x 4097: level (64 x 4 in 9 KiB 68.7, the pick 68.3).  Aligned
  -- rows of 2049-2560 take a copy of the odd rows' 64 x 2 in 6 KiB (`_al`,
  -- rank 300 at any alignment: over the `_w` 256 x 2 block, half its lanes
  -- idle there) at 16384 rows or more: fifty-second session, H200, bf16, us
  -- (call 1, kp tune, one run): 65536 x 2304 151.2 (block 168.4), 2560
  -- 160.9 (172.8; fifty-first session, call 7), at 3072 level (194.9
  -- against 194.4); % of copy side by side in turns with the block, two
  -- rounds (call 2): 65536 x 2056 81.3 (78.0), 2304 91.0 (83.8), 2560 97.0
  -- (90.0), 16384 x 2304 83.8 (81.5), x 2560 88.5 (86.6) -- but 4096 x
  -- 2560 56.2 (68.2): 1.3 waves of small CTAs, hence min_rows.
  if vec > 1 and esize(dt) == 2 then
    for _, c in ipairs({ { 128, 4, 25, 4, 40961, 51200, rank = 401 },
                         { 256, 2, 38, 8, 131073, 155648, rank = 401 },
                         { 256, 2, 50, 8, 155649, 204800, rank = 401 },
                         { 64, 2, 6, nil, 2049, 3072 }, { 64, 4, 9, nil, 3073, 4096 },
                         { 64, 2, 6, nil, 2049, 2560, any = true, rank = 300, suffix = "al",
                           min_rows = 16384 },
                         { 128, 2, 9 }, { 128, 4, 22 }, { 256, 2, 25, 4 },
                         { 128, 4, 38, 8 } }) do
      emit(dt, "stage", stage_params(dt, vec, c))
    end
  end
end

-- The variant space beyond the list above, for `kp regen`: any point of it
-- (make), and the points one step from a given one (neighbours): threads,
-- vectors held per thread, vector width.  Names encode every param.
family_space {
  make = function(dt, p) emit(dt, p.kind, p) end,
  neighbours = function(dt, p)
    if p.kind == "stage" then return stage_neighbours(p) end
    local axes = { vec = { 1, 2, 4, 8 } }
    if p.kind ~= "loop" and p.kind ~= "stage" then axes.nv = { 1, 2, 3, 4, 6, 8 } end
    if p.kind ~= "warp" then axes.threads = { 64, 128, 256, 512, 1024 } end
    -- 16-byte accesses at most; a row held in registers (nv * vec floats)
    -- takes at most half of a thread's registers
    return steps(p, axes, function(q)
      local threads = q.kind == "warp" and 128 or q.threads
      return q.vec * esize(dt) <= 16
             and (q.kind == "loop" or q.kind == "stage" or q.nv * q.vec <= regs(threads, 1) // 2)
             and (not (q.cl or q.unroll) or q.vec * esize(dt) == 16) -- (those peel)
    end)
  end,
}
