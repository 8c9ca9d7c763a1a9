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
template <int NV, int VEC, int LANES, bool HEAD = false>
__device__ __forceinline__ void softmax_regs_core(float (&v)[NV][VEC], float &e, float *scratch) {
  float m = HEAD ? e : -KP_INF;
#pragma unroll
  for (int n = 0; n < NV; n++)
#pragma unroll
    for (int i = 0; i < VEC; i++) m = fmaxf(m, v[n][i]);
  m = LANES == 32 ? kp_warp_max(m) : kp_block_max<LANES>(m, scratch);
  float s = 0.f;
  if (HEAD) { e = kp_exp(e - m); s = e; }
#pragma unroll
  for (int n = 0; n < NV; n++)
#pragma unroll
    for (int i = 0; i < VEC; i++) { v[n][i] = kp_exp(v[n][i] - m); s += v[n][i]; }
  s = LANES == 32 ? kp_warp_sum(s) : kp_block_sum<LANES>(s, scratch);
  const float inv = 1.f / s;
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
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool PEEL = false>
__device__ __forceinline__ void softmax_regs(const T *__restrict__ x, long long ldx,
                                             T *__restrict__ y, long long ldy, int rows,
                                             int cols) {
  __shared__ float scratch[32];
  const int sub = ROWS_PER_BLOCK == 1 ? 0 : threadIdx.x / LANES;
  const int lane = ROWS_PER_BLOCK == 1 ? threadIdx.x : threadIdx.x % LANES;
  const long long row = (long long)blockIdx.x * ROWS_PER_BLOCK + sub;
  if (row >= rows) return; // whole warps (or the whole block) leave together
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  float v[NV][VEC];
  float e = -KP_INF; // (PEEL) this lane's head element
  if constexpr (VEC * sizeof(T) == 16) { // the partial vector loaded and stored once
    constexpr int S = LANES * VEC;
    typedef kp_raw_io<T, VEC> io;
    const int h = PEEL ? kp_head(yr, cols) : 0;
    const long long n = cols - h;
    const T *xb = xr + h;
    const long long c0 = (long long)lane * VEC;
    const kp_part p = kp_part_of<T, VEC, S, NV>(c0, n);
    uint4 r[NV];
    kp_group_load<T, VEC, S, NV>(xb, c0, n, p, kp_bits<T>::NEG_INF, r, !PEEL || kp_al16(xb));
    if (PEEL && lane < h) e = kp_load1(xr + lane);
#pragma unroll
    for (int k = 0; k < NV; k++) io::unpack(r[k], v[k]);
    softmax_regs_core<NV, VEC, LANES, PEEL>(v, e, scratch);
#pragma unroll
    for (int k = 0; k < NV; k++) r[k] = io::pack(v[k]);
    kp_group_store<T, VEC, S, NV>(yr + h, c0, n, p, r);
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

// Any length: pass 1 keeps a running (max, sum) per thread (online softmax),
// pass 2 re-reads the row (from L2 when it fits) and writes.
// PEEL (16-byte vectors): as softmax_regs'; thread i < h holds head element i.
template <class T, int VEC, int THREADS, bool PEEL = false>
__device__ __forceinline__ void softmax_loop(const T *__restrict__ x, long long ldx,
                                             T *__restrict__ y, long long ldy, int rows,
                                             int cols) {
  __shared__ float scratch[32];
  const long long row = blockIdx.x;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  constexpr bool P = PEEL && VEC * sizeof(T) == 16;
  const int h = P ? kp_head(yr, cols) : 0;
  const float e = P && (int)threadIdx.x < h ? kp_load1(xr + threadIdx.x) : -KP_INF;
  const long long n = cols - h;
  const T *xb = xr + h;
  T *yb = yr + h;
  const bool al = !P || kp_al16(xb);
  float m = e, s = e == -KP_INF ? 0.f : 1.f;
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
  const float M = kp_block_max<THREADS>(m, scratch);
  const float S = kp_block_sum<THREADS>(M == -KP_INF ? s : s * kp_exp(m - M), scratch);
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
]]

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(${block})
${name}(const ${T} *x, long long ldx, ${T} *y, long long ldy, int rows, int cols) {
  kp_grid_wait(); // (PDL) before any global access: kp_device.cuh
  kp_grid_launch_dependents();
  ${call}(x, ldx, y, ldy, rows, cols);
}
]]

local function emit(dt, kind, p)
  local T = ctype(dt)
  local vec = p.vec
  local name, call, max_cols, block, rpb, rank
  if kind == "warp" then
    name = string.format("softmax_%s_warp_v%d_n%d", dt, vec, p.nv)
    block, rpb = 128, 4
    call = string.format("softmax_regs<%s, %d, %d, 32, 4>", T, vec, p.nv)
    max_cols = 32 * vec * p.nv
    rank = 300 - p.nv
  elseif kind == "block" then
    name = string.format("softmax_%s_block_t%d_v%d_n%d", dt, p.threads, vec, p.nv)
    block, rpb = p.threads, 1
    call = string.format("softmax_regs<%s, %d, %d, %d, 1>", T, vec, p.nv, p.threads)
    max_cols = p.threads * vec * p.nv
    rank = 200 - max_cols // 1024
  else
    name = string.format("softmax_%s_loop_t%d_v%d", dt, p.threads, vec)
    block, rpb = p.threads, 1
    call = string.format("softmax_loop<%s, %d, %d>", T, vec, p.threads)
    max_cols = nil
    rank = vec > 1 and 100 or 0
  end
  p.kind = kind
  local whole = p.whole and vec > 1 -- rows of a multiple of vec (twins())
  if whole then name = name .. "_w" end
  -- 16-byte variants other than the whole-rows twins peel each row (PEEL):
  -- any alignment of the element size, vectorised; the twins keep the
  -- 16-byte requirement and the aligned code as it was
  local peel = vec * esize(dt) == 16 and not whole
  if peel then call = call:gsub(">$", ", true>") end
  variant {
    name = name, dtype = dt, params = p,
    block = block, rows_per_block = rpb,
    max_cols = max_cols,
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
  for _, c in ipairs({ { 128, 2 }, { 256, 2 }, { 256, 4 }, { 512, 4 }, { 1024, 4 } }) do
    for _, p in ipairs(twins({ vec = vec, threads = c[1], nv = c[2] })) do emit(dt, "block", p) end
  end
  for _, p in ipairs(twins({ vec = vec, threads = 512 })) do emit(dt, "loop", p) end
  emit(dt, "loop", { vec = 1, threads = 256 })
end

-- The variant space beyond the list above, for `kp regen`: any point of it
-- (make), and the points one step from a given one (neighbours): threads,
-- vectors held per thread, vector width.  Names encode every param.
family_space {
  make = function(dt, p) emit(dt, p.kind, p) end,
  neighbours = function(dt, p)
    local axes = { vec = { 1, 2, 4, 8 } }
    if p.kind ~= "loop" then axes.nv = { 1, 2, 3, 4, 6, 8 } end
    if p.kind ~= "warp" then axes.threads = { 64, 128, 256, 512, 1024 } end
    -- 16-byte accesses at most; a row held in registers (nv * vec floats)
    -- takes at most half of a thread's registers
    return steps(p, axes, function(q)
      local threads = q.kind == "warp" and 128 or q.threads
      return q.vec * esize(dt) <= 16 and (q.kind == "loop" or q.nv * q.vec <= regs(threads, 1) // 2)
    end)
  end,
}
