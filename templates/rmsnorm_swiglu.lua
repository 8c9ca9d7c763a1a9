-- rmsnorm_swiglu.lua -- h = x * rsqrt(mean(x^2) + eps) * w over rows of 2*cols;
-- y = silu(h[:, :cols]) * h[:, cols:], fp32 math (h is not rounded to T).
--
-- Kernel arguments: (const T *x, long long ldx, const T *w, T *y, long long ldy, int rows,
--                    int cols, float eps)
-- x: (rows, 2*cols) with row stride ldx; w: (2*cols); y: (rows, cols) with
-- row stride ldy.  `cols` (and min_cols/max_cols) is the OUTPUT width.
-- Vectorised variants also need the second half, at element `cols`, 16-byte
-- aligned: the runtime folds cols * esize into the alignment it matches
-- against `align`.
--
-- Variant space (as rmsnorm.lua; a thread holds column c of both halves, so
-- the gate and up values it multiplies are its own):
--   warp   one warp (or 16 lanes) per row, the row held in registers: short rows
--   block  one block per row, the row held in registers: outputs up to 8K
--          (16K inputs); past that the looped variant measured faster than
--          the register shapes that would hold the row (1024 threads x 2)
--   loop   one block per row, a sum-of-squares pass over the 2*cols inputs
--          then a write pass that re-reads them (from L1/L2 when they fit)
-- `vec` is elements per 16-byte access; vec=1 is the fallback for any
-- alignment.  Ranking: the smallest register variant that holds the row,
-- then the looped ones.  Where two shapes hold the same row (`alt`), the
-- lower alt is the default and the others are there for the tuner.

family { name = "rmsnorm_swiglu", signature = "p,l,p,p,l,i,i,f" }

local KERNELS = [[
// Vectors stay packed from load to use (kp_raw_io in kp_device.cuh).  A
// vectorised variant only runs with cols a multiple of VEC (the alignment
// of the second half, above), so a row is whole vectors: loads and stores
// are guarded per vector (load_whole, kp_store_whole), with no code for a
// partial one (code size is first-use compile time).
// Plain loads and stores throughout, though x and y are touched once: with
// the streaming forms (ld.global.nc without L1 allocation, st.global.cs)
// these kernels measured 4-10% slower on 8K outputs and 15-35% slower on
// 512-1K outputs on H200 (bf16).

// y for VEC outputs from gate a, up b and their weights ga, gb (raw forms).
template <class T, int VEC>
__device__ __forceinline__ void rmsnorm_swiglu_out(typename kp_raw_io<T, VEC>::raw a,
                                                   typename kp_raw_io<T, VEC>::raw b,
                                                   typename kp_raw_io<T, VEC>::raw ga,
                                                   typename kp_raw_io<T, VEC>::raw gb,
                                                   float rs, float *y) {
  typedef kp_raw_io<T, VEC> io;
  float av[VEC], bv[VEC], gav[VEC], gbv[VEC];
  io::unpack(a, av);
  io::unpack(b, bv);
  io::unpack(ga, gav);
  io::unpack(gb, gbv);
#pragma unroll
  for (int i = 0; i < VEC; i++) y[i] = kp_silu(av[i] * rs * gav[i]) * (bv[i] * rs * gbv[i]);
}

// Row in registers: LANES threads share one row: the whole block when
// ROWS_PER_BLOCK == 1, else a warp or a group of 16 lanes.  Thread `lane`
// holds vectors n = 0..NV-1 at output columns (n * LANES + lane) * VEC of
// both halves, so each load instruction of a group reads one contiguous
// LANES * 16-byte segment.  VEC * sizeof(T) == 16.
// W_EARLY: w is loaded right behind x, so that its latency (usually an
// L1/L2 hit: every row reads w) hides under the reduction instead of adding
// to the row's tail, where the block has no loads in flight.  Where
// registers are short (w_early below) w is loaded after the reduction, one
// vector at a time.
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool W_EARLY>
__device__ __forceinline__ void rmsnorm_swiglu_regs(const T *__restrict__ x, long long ldx,
                                                    const T *__restrict__ w, T *__restrict__ y,
                                                    long long ldy, int rows, int cols,
                                                    float eps) {
  typedef kp_raw_io<T, VEC> io;
  __shared__ float scratch[32];
  const int sub = ROWS_PER_BLOCK == 1 ? 0 : threadIdx.x / LANES;
  const int lane = ROWS_PER_BLOCK == 1 ? threadIdx.x : threadIdx.x % LANES;
  long long row = (long long)blockIdx.x * ROWS_PER_BLOCK + sub;
  // Groups narrower than a warp cannot leave early (the reduction's shuffles
  // need every lane of the warp): past the last row they touch nothing.
  int ncols = cols;
  if (row >= rows) {
    if (LANES >= 32) return; // whole warps (or the whole block) leave together
    row = rows - 1;
    ncols = 0;
  }
  const T *xr = x + row * ldx; // (2*cols): gate at [0, cols), up at [cols, 2*cols)
  T *yr = y + row * ldy;
  typename io::raw av[NV], bv[NV], wa[NV], wb[NV];
#pragma unroll
  for (int n = 0; n < NV; n++) {
    const int c = (n * LANES + lane) * VEC;
    av[n] = io::load_whole(xr, c, ncols);
    bv[n] = io::load_whole(xr + cols, c, ncols);
  }
  if constexpr (W_EARLY) {
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const int c = (n * LANES + lane) * VEC;
      wa[n] = io::load_whole(w, c, ncols);
      wb[n] = io::load_whole(w + cols, c, ncols);
    }
  }
  float s = 0.f;
#pragma unroll
  for (int n = 0; n < NV; n++) {
    float a[VEC], b[VEC];
    io::unpack(av[n], a);
    io::unpack(bv[n], b);
#pragma unroll
    for (int i = 0; i < VEC; i++) s = fmaf(b[i], b[i], fmaf(a[i], a[i], s));
  }
  s = LANES <= 32 ? kp_lanes_sum<LANES>(s) : kp_block_sum<LANES>(s, scratch);
  const float rs = rsqrtf(s / (2.f * (float)cols) + eps);
#pragma unroll
  for (int n = 0; n < NV; n++) {
    const int c = (n * LANES + lane) * VEC;
    if constexpr (!W_EARLY) {
      wa[n] = io::load_whole(w, c, ncols);
      wb[n] = io::load_whole(w + cols, c, ncols);
    }
    float v[VEC];
    rmsnorm_swiglu_out<T, VEC>(av[n], bv[n], wa[n], wb[n], rs, v);
    kp_store_whole<T, VEC>(yr, c, ncols, v);
  }
}

// Any length.  Each step of a pass handles U vectors per thread, loads all
// issued before any use, so U * THREADS * VEC elements are in flight per
// block; vectors past the row end read as 0 and are not stored, so the last
// partial step needs no loop of its own.  Pass 1 walks the input row as one
// row of 2*cols; pass 2 walks output columns and reads column c of both
// halves of x and w: U/2 of each per step.
template <class T, int VEC, int THREADS, int U>
__device__ __forceinline__ void rmsnorm_swiglu_loop(const T *__restrict__ x, long long ldx,
                                                    const T *__restrict__ w, T *__restrict__ y,
                                                    long long ldy, int rows, int cols,
                                                    float eps) {
  typedef kp_raw_io<T, VEC> io;
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  const T *xu = xr + cols;
  const T *wu = w + cols;
  T *yr = y + row * ldy;
  const long long n = cols;
  const long long n2 = 2 * n; // up to 2^32 - 2 inputs: 64-bit indices
  const long long step = (long long)THREADS * VEC;
  const long long c0 = (long long)threadIdx.x * VEC;
  float s = 0.f;
#pragma unroll 1
  for (long long c = c0; c < n2; c += U * step) {
    typename io::raw r[U];
#pragma unroll
    for (int u = 0; u < U; u++) r[u] = io::load_whole(xr, c + u * step, n2);
#pragma unroll
    for (int u = 0; u < U; u++) {
      float v[VEC];
      io::unpack(r[u], v);
#pragma unroll
      for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
    }
  }
  const float rs = rsqrtf(kp_block_sum<THREADS>(s, scratch) / (float)n2 + eps);
  constexpr int U2 = U / 2 > 0 ? U / 2 : 1;
#pragma unroll 1
  for (long long c = c0; c < n; c += U2 * step) {
    typename io::raw a[U2], b[U2], ga[U2], gb[U2];
#pragma unroll
    for (int u = 0; u < U2; u++) {
      a[u] = io::load_whole(xr, c + u * step, n);
      b[u] = io::load_whole(xu, c + u * step, n);
      ga[u] = io::load_whole(w, c + u * step, n);
      gb[u] = io::load_whole(wu, c + u * step, n);
    }
#pragma unroll
    for (int u = 0; u < U2; u++) {
      float v[VEC];
      rmsnorm_swiglu_out<T, VEC>(a[u], b[u], ga[u], gb[u], rs, v);
      kp_store_whole<T, VEC>(yr, c + u * step, n, v);
    }
  }
}
]]

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(${block})
${name}(const ${T} *x, long long ldx, const ${T} *w, ${T} *y, long long ldy, int rows, int cols,
        float eps) {
  kp_grid_wait(); // (PDL) before any global access: kp_device.cuh
  kp_grid_launch_dependents();
  ${call}(x, ldx, w, y, ldy, rows, cols, eps);
}
]]

-- W_EARLY (w loaded before the reduction) only where the raw vectors of
-- gate, up and both halves of w (4 per n, 4 registers each) fit in 32 registers, and not at
-- 1024 threads (64-register cap): beyond that ptxas spills or trades
-- occupancy, and loading w after the reduction is the better deal.
local function w_early(threads, nv)
  return (threads < 1024 and 16 * nv <= 32) and "true" or "false"
end

local function emit(dt, kind, p)
  local T = ctype(dt)
  local vec = p.vec
  local name, call, max_cols, block, rpb, rank
  if kind == "warp" then
    local shape = p.lanes == 32 and "warp" or string.format("lanes%d", p.lanes)
    name = string.format("rmsnorm_swiglu_%s_%s_v%d_n%d", dt, shape, vec, p.nv)
    block, rpb = 128, 128 // p.lanes
    call = string.format("rmsnorm_swiglu_regs<%s, %d, %d, %d, %d, %s>", T, vec, p.nv, p.lanes, rpb,
                         w_early(128, p.nv))
    max_cols = p.lanes * vec * p.nv
    rank = 300 - max_cols // 64
  elseif kind == "block" then
    name = string.format("rmsnorm_swiglu_%s_block_t%d_v%d_n%d", dt, p.threads, vec, p.nv)
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_swiglu_regs<%s, %d, %d, %d, 1, %s>", T, vec, p.nv, p.threads,
                         w_early(p.threads, p.nv))
    max_cols = p.threads * vec * p.nv
    rank = 200 - max_cols // 512 - p.alt
  else
    name = string.format("rmsnorm_swiglu_%s_loop_t%d_v%d", dt, p.threads, vec)
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_swiglu_loop<%s, %d, %d, %d>", T, vec, p.threads, p.unroll)
    max_cols = nil
    rank = vec > 1 and 100 or 0
  end
  p.kind = kind
  variant {
    name = name, dtype = dt, params = p,
    block = block, rows_per_block = rpb,
    max_cols = max_cols,
    align = vec * esize(dt),
    rank = rank,
    source = KERNELS .. subst(ENTRY, { block = block, name = name, T = T, call = call }),
  }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  -- { lanes, nv }: rows of up to 128/256 (16-bit) elements take half a warp
  for _, c in ipairs({ { 16, 1 }, { 16, 2 }, { 32, 2 } }) do
    emit(dt, "warp", { vec = vec, lanes = c[1], nv = c[2] })
  end
  -- { threads, nv, alt }: 256x4 and 512x2 hold the same row; 256x4 is the
  -- default (kp tune 2026-11-22, bf16, 32768 rows of 8192: 9% faster on
  -- H200, 1% slower on H100)
  for _, c in ipairs({ { 128, 1, 0 }, { 128, 2, 0 }, { 256, 2, 0 }, { 256, 4, 0 },
                       { 512, 2, 1 } }) do
    emit(dt, "block", { vec = vec, threads = c[1], nv = c[2], alt = c[3] })
  end
  emit(dt, "loop", { vec = vec, threads = 512, unroll = 4 })
  emit(dt, "loop", { vec = 1, threads = 256, unroll = 8 })
end

-- The variant space beyond the list above, for `kp regen`: any point of it
-- (make), and the points one step from a given one (neighbours): lanes per
-- row, threads, vectors held per thread, unroll.  The vector width stays (a
-- register variant needs 16-byte vectors; vec = 1 is the fallback).  Loop
-- names leave the unroll out: a made loop variant gets "_u<unroll>".
family_space {
  name_omits = { unroll = "u" },
  make = function(dt, p) emit(dt, p.kind, p) end,
  -- the raw vectors of gate, up and both halves of w: 4 per n or unroll step
  neighbours = function(dt, p) return norm_neighbours(p, 4) end,
}
