-- geglu.lua -- y = gelu(gate) * up elementwise, fp32 math; GELU exact (erf)
-- or tanh-approximated, chosen per call.
--
-- Kernel arguments: (const T *gate, const T *up, long long ldin, T *y, long long ldy,
--                    int rows, int cols, int tanh_form)
-- gate, up: (rows, cols) sharing row stride ldin (often the two halves of one
-- (rows, 2*cols) tensor); y: (rows, cols) with row stride ldy (elements);
-- tanh_form: 0 = erf GELU, else the tanh approximation.  The erf form is
-- CUDA's erff algorithm made branch-free (kp_erf) for f32, erfc's Chebyshev
-- fit for f16 / bf16 (geglu_gelu_erf16, below); the tanh form is computed as
-- x / (1 + e^-2z), the same function as 0.5 x (1 + tanh z), without tanhf.
-- As in PyTorch, f32's 1 + erf cancels for gate << 0: there the error is
-- small against |gate * up|, not against y (16-bit: small against y too).
--
-- Variant space: a block is TX threads along a row x TY rows (TX*TY = 256,
-- rows_per_block = TY).  Each thread walks its row in steps of U vectors of
-- `vec` elements, all 2U loads (16-byte, plain: the streaming .nc/.cs forms
-- measured 6-13% slower on H200 with L2 flushed between runs) issued before the first
-- use.  Narrow rows take a small TX (many rows per block, few idle lanes);
-- wide rows a whole block per row.  `vec` = 16/esize needs 16-byte aligned
-- rows; vec = 2 covers rows aligned to two elements (odd cols of a packed
-- tensor, say); vec = 1 is the fallback.  Ranking: among the variants whose
-- max_cols holds the row, the smallest TX of the widest vector.
-- Measured on H200, bf16, >= 256 MB moved: 94-100% of device copy bandwidth.
-- Also, for the tuner (`chunk`, names geglu_<dt>_c<TX>_v<vec>_u<U>): the
-- column-chunk form of torch.compile's flat kernels, one block per chunk of
-- TX*vec*U columns of a row (cols_per_block); ranked below every variant
-- above except c256_u1 for 16-bit rows of >= 2048 (measured, below).
-- The ranking's 16-byte variants also come as one copy per GELU form
-- (`_erf`, `_tanh`: the pack's forms field), ranked just above the
-- both-forms variant, each with half the code (form_copies()).

family { name = "geglu", signature = "p,p,l,p,l,i,i,i" }

-- The erf form's GELU: f32 outputs take kp_gelu_erf (CUDA's erff, branch-
-- free); 16-bit ones geglu_gelu_erf16, whose error (< 3e-6 relative for
-- x >= -5, < 6e-6 to x = -9, against float64) is far below their rounding,
-- in 17 instructions an element against erff's 25 (its 7 FMAs each behind
-- a select of two coefficients).
local KERNELS = [[
// x Phi(x) through erfc's Chebyshev fit (Numerical Recipes' erfcc,
// fractional error < 1.2e-7 at every argument): with z = |x| / sqrt 2 and
// t = 1 / (1 + z / 2), Phi(-|x|) = erfc(z) / 2 = (t / 2) e^(-z^2 + P(t)),
// here P's coefficients times 2^i log2 e over t / 2 (one reciprocal: no
// division), the exponent in base 2 for ex2.  For x < 0 it is Phi itself,
// so y keeps its relative accuracy where 1 + erf would cancel.
__device__ __forceinline__ float geglu_gelu_erf16(float x) {
  const float a = fabsf(x);
  float t, e;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(t) : "f"(fmaf(a, 0.70710678118654752f, 2.f)));
  float p = 126.216858f;
  p = fmaf(p, t, -303.645416f);
  p = fmaf(p, t, 274.87674f);
  p = fmaf(p, t, -104.8162f);
  p = fmaf(p, t, 12.8742905f);
  p = fmaf(p, t, -4.30010986f);
  p = fmaf(p, t, 1.1170404f);
  p = fmaf(p, t, 2.15880251f);
  p = fmaf(p, t, 2.88545847f);
  p = fmaf(p, t, -1.82574821f);
  const float b = a * 0.849321783f; // sqrt(log2 e / 2): b^2 = z^2 log2 e
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(fmaf(-b, b, p)));
  const float h = t * e; // Phi(-|x|)
  return x * (x >= 0.f ? 1.f - h : h);
}
struct geglu_erf {
  static __device__ __forceinline__ float f(float g, float u) { return ${erf}(g) * u; }
};
struct geglu_tanh {
  static __device__ __forceinline__ float f(float g, float u) { return kp_gelu_tanh(g) * u; }
};
]]
local function kernels(dt)
  return subst(KERNELS, { erf = dt == "f32" and "kp_gelu_erf" or "geglu_gelu_erf16" })
end

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(${block}, ${minb})
${name}(const ${T} *gate, const ${T} *up, long long ldin, ${T} *y, long long ldy, int rows,
        int cols, int tanh_form) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  // one branch per block, so the inner loop carries no form test
  if (tanh_form)
    kp_glu_rows<${targs}, geglu_tanh${hint}>(gate, up, ldin, y, ldy, rows, cols);
  else
    kp_glu_rows<${targs}, geglu_erf${hint}>(gate, up, ldin, y, ldy, rows, cols);
}
]]
-- One form only (a variant that declares `forms`: the runtime picks it for
-- calls of that form alone, and tanh_form is not read).
local ENTRY_FORM = [[
extern "C" __global__ void __launch_bounds__(${block}, ${minb})
${name}(const ${T} *gate, const ${T} *up, long long ldin, ${T} *y, long long ldy, int rows,
        int cols, int) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  kp_glu_rows<${targs}, geglu_${form}${hint}>(gate, up, ldin, y, ldy, rows, cols);
}
]]

-- The column-chunk ("flat") form, torch.compile's: a block of TX threads
-- covers CH = TX * vec * u columns of one row (kp_glu_chunk), the grid rows x
-- ceil(cols / CH) blocks (cols_per_block = CH).  Same arguments as above.
local CHUNK_ENTRY = [[
extern "C" __global__ void __launch_bounds__(${tx}, ${minb})
${name}(const ${T} *gate, const ${T} *up, long long ldin, ${T} *y, long long ldy, int rows,
        int cols, int tanh_form) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  // one branch per block, so the inner loop carries no form test
  if (tanh_form)
    kp_glu_chunk<${targs}, geglu_tanh${peel}>(gate, up, ldin, y, ldy, rows, cols);
  else
    kp_glu_chunk<${targs}, geglu_erf${peel}>(gate, up, ldin, y, ldy, rows, cols);
}
]]
local CHUNK_ENTRY_FORM = [[
extern "C" __global__ void __launch_bounds__(${tx}, ${minb})
${name}(const ${T} *gate, const ${T} *up, long long ldin, ${T} *y, long long ldy, int rows,
        int cols, int) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  kp_glu_chunk<${targs}, geglu_${form}${peel}>(gate, up, ldin, y, ldy, rows, cols);
}
]]

-- p.form ("erf" or "tanh"; nil: both, chosen per call): the form a variant
-- computes, as the pack's forms bit (kp_gelu: erf 0, tanh 1).  The ranking's
-- 16-byte variants come as one copy per form (form_copies()), ranked just
-- above the both-forms one: each compiles one activation instead of two
-- (first-use compile time: 575 and 414 PTX lines instead of 933 for the
-- c256 default, bf16).
local FORM_BIT = { erf = 1, tanh = 2 }
local function form_copies(p)
  return { p, with(p, { form = "erf" }), with(p, { form = "tanh" }) }
end

-- p: vec, tx (threads along a row), ty (rows per block), u (vectors per thread
-- per step), minb (blocks per SM that the register budget must allow);
-- max_vecs: vectors per thread that the variant is ranked for (nil: any cols);
-- rank_base orders the vector widths.
local function emit(dt, p, max_vecs, rank_base)
  local T = ctype(dt)
  local block = p.tx * p.ty
  local name = string.format("geglu_%s_t%dx%d_v%d_u%d", dt, p.tx, p.ty, p.vec, p.u)
  if p.h then name = name .. "_ef" end -- gate and up loaded evict-first
  local targs = string.format("%s, %d, %d, %d, %d", T, p.vec, p.tx, p.ty, p.u)
  -- 16-byte rows without hints peel each row (kp_glu_rows' PEEL: any
  -- alignment of the element size, vectorised), except at a 32-register
  -- budget (minb * threads = 2048), where the peeling code spilled on sm_90a
  local peel = p.vec * esize(dt) == 16 and not p.h and (p.minb == nil or p.tx * p.ty * p.minb < 2048)
  if p.form then name = name .. "_" .. p.form end
  variant {
    name = name, dtype = dt, params = p,
    block = block, rows_per_block = p.ty,
    max_cols = max_vecs and p.tx * p.vec * max_vecs or nil,
    align = peel and esize(dt) or p.vec * esize(dt), forms = FORM_BIT[p.form],
    -- smaller TX (more rows per block) first where it fits; one form above both
    rank = 2 * (rank_base - p.tx // 8) + (p.form and 1 or 0),
    source = kernels(dt) .. subst(p.form and ENTRY_FORM or ENTRY,
                              { block = block, minb = p.minb, name = name, T = T, targs = targs,
                                hint = p.h and ", " .. p.h or peel and ", 0, true" or "", form = p.form }),
  }
end

-- p: kind = "chunk", vec (16 bytes: kp_glu_chunk's vectors), tx (threads per
-- block), u (vectors per thread), minb (blocks per SM the register budget must
-- allow).  rank_base: these stay below every variant above that takes 16-byte
-- aligned rows (ranks >= 268), so that the ranking's choices do not change.
-- rank: an exact rank instead (the default chunk variant, with min_cols).
-- p.peel: rows at any residue (kp_glu_chunk's PEEL; name "_pl").
local function emit_chunk(dt, p, rank_base, rank, min_cols)
  local T = ctype(dt)
  local name = string.format("geglu_%s_c%d_v%d_u%d", dt, p.tx, p.vec, p.u)
  if p.peel then name = name .. "_pl" end
  if p.form then name = name .. "_" .. p.form end
  variant {
    name = name, dtype = dt, params = p,
    block = p.tx, rows_per_block = 1, cols_per_block = p.tx * p.vec * p.u,
    align = p.peel and esize(dt) or p.vec * esize(dt), min_cols = min_cols,
    forms = FORM_BIT[p.form],
    rank = 2 * (rank or rank_base - p.tx // 8 - p.u) + (p.form and 1 or 0),
    source = kernels(dt) .. subst(p.form and CHUNK_ENTRY_FORM or CHUNK_ENTRY,
                              { tx = p.tx, minb = p.minb, name = name, T = T, form = p.form,
                                peel = p.peel and ", true" or "",
                                targs = string.format("%s, %d, %d, %d", T, p.vec, p.tx, p.u) }),
  }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  -- 16-byte vectors, ranked for rows of up to 4 vectors per thread except the
  -- last; u=1 and a 32-register budget (full occupancy) because erff/tanhf
  -- make this the one GLU with real arithmetic to hide: measured on H200,
  -- minb=8 beat minb=4 by up to 5% of copy bandwidth.
  for _, c in ipairs({ { 8, 32, 1, 8, 4 }, { 32, 8, 1, 8, 4 }, { 128, 2, 1, 8, 4 },
                       { 256, 1, 2, 4, nil } }) do
    for _, p in ipairs(form_copies({ vec = vec, tx = c[1], ty = c[2], u = c[3], minb = c[4] })) do
      emit(dt, p, c[5], 300)
    end
  end
  -- for the tuner (ranked below the ones above): one vector per thread and
  -- step over 512 or 1024 threads (an 8K row in one or two steps, as
  -- torch.compile's flat kernels do), and evict-first hints on gate and up
  emit(dt, { vec = vec, tx = 512, ty = 1, u = 1, minb = 4 }, nil, 300)
  emit(dt, { vec = vec, tx = 1024, ty = 1, u = 1, minb = 2 }, nil, 300)
  emit(dt, { vec = vec, tx = 256, ty = 1, u = 2, minb = 4, h = 1 }, nil, 290)
  if vec > 2 then emit(dt, { vec = 2, tx = 256, ty = 1, u = 4, minb = 4 }, nil, 200) end
  emit(dt, { vec = 1, tx = 32, ty = 8, u = 4, minb = 4 }, 4, 100)
  emit(dt, { vec = 1, tx = 256, ty = 1, u = 4, minb = 4 }, nil, 100)
  -- Column chunks of 64-256 threads x 1-2 vectors, 2048 threads per SM (at
  -- most 16 blocks), ranked below the defaults (250 - ...: at most 241,
  -- against 268 for the lowest above) except one per GELU form: for 16-bit
  -- rows of at least one whole chunk (2048 columns), each form's default
  -- is a one-form chunk copy.
  --   tanh: 256 threads x 1 vector.  kp tune, H200, bf16, 2026-11-22 (tanh):
  --     370.4 vs 375.9 us (t256x1 u2) at 32768x8192, 68.7 vs 69.8 at
  --     4096x11008, 52.9 vs 54.6 (t128x2) at 8192x4096, within 0.5% of the
  --     best of 40 variants each time; half the code of u=2.
  --   erf (more arithmetic per element: two loads in flight per thread
  --     pay): 128 threads x 2 vectors.  kp tune, H200, bf16, 2026-11-23
  --     (erf): 395.6 us against 433.5 for c256 u1 at 32768x8192 (86.5% of
  --     copy, 0.98x torch.compile: 9% slower), 75.0 vs 80.5 at 4096x11008,
  --     56.2 vs 60.5 at 8192x4096; within 1.3% of the best each time.
  local DEFAULT = { { "tanh", 256, 1 }, { "erf", 128, 2 } }
  for _, tx in ipairs({ 64, 128, 256 }) do
    for _, u in ipairs({ 1, 2 }) do
      local p = { kind = "chunk", vec = vec, tx = tx, u = u, minb = math.min(2048 // tx, 16) }
      emit_chunk(dt, p, 250)
      -- The same over rows at any residue (odd lengths; at u = 2 with half
      -- the blocks an SM: the peeling code spilled at 32 registers on
      -- sm_90a).  128 threads x 1 vector, both forms, is the default for
      -- 16-bit rows at any residue (rank 540: over t256x1 u2's 537, the
      -- one row variant that peels, and under every one that an aligned
      -- row has, >= 569): kp tune, H100, bf16, 2026-11-26
      -- (bench/results/2026-11-26-s13/call3): 1.00-1.63x t256x1 u2 over
      -- odd rows of 1001 to 199999 columns, both forms, within 0.9% of the
      -- best of 11 each time.
      if vec > 1 then
        local ranked = tx == 128 and u == 1 and esize(dt) == 2
        emit_chunk(dt, with(p, { peel = true, minb = math.min(2048 // (tx * u), 16) }), 240,
                   ranked and 270 or nil)
      end
      for _, d in ipairs(DEFAULT) do
        if d[2] == tx and d[3] == u and esize(dt) == 2 then
          emit_chunk(dt, with(p, { form = d[1] }), 250, 300, tx * vec * u)
        end
      end
    end
  end
end

-- The variant space beyond the list above, for `kp regen`: any point of it
-- (make), and the points one step from a given one (neighbours): threads
-- along a row and rows per block (also the same block reshaped), vectors per
-- step, vector width, blocks per SM; for a chunk variant, threads, vectors
-- per thread and blocks per SM.  Made variants take any cols (max_cols above
-- only steers the default ranking); their names get "_mb<minb>".
family_space {
  name_omits = { minb = "mb" },
  make = function(dt, p)
    if p.kind == "chunk" then emit_chunk(dt, p, 0) else emit(dt, p, nil, 0) end
  end,
  neighbours = function(dt, p)
    if p.kind == "chunk" then return glu_chunk_neighbours(p) end
    -- whole warps, <= 1024 threads, 16-byte accesses, <= 2048 threads per SM;
    -- the 2u vectors in flight (2 * u * vec floats) take at most half of the
    -- registers minb blocks per SM leave a thread (measured on sm_90a)
    -- (geglu's erf/tanh want a little more: f32 v4 u2 and v1 u8 spill at 32
    -- registers; u stops at 4)
    local function ok(q)
      local block = q.tx * q.ty
      if q.tx < 4 or q.ty < 1 or block % 32 ~= 0 or block > 1024 or block * q.minb > 2048 then
        return false
      end
      local need = 2 * q.u * q.vec + (dt == "f32" and 1 or 0)
      return q.vec * esize(dt) <= 16 and need <= regs(block, q.minb) // 2
    end
    local pow2 = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 }
    local out = steps(p, { tx = pow2, ty = pow2, u = { 1, 2, 4 }, vec = { 1, 2, 4, 8 },
                           minb = { 1, 2, 4, 8 } }, ok)
    for _, q in ipairs({ with(p, { tx = p.tx * 2, ty = p.ty // 2 }),
                         with(p, { tx = p.tx // 2, ty = p.ty * 2 }) }) do
      if ok(q) then out[#out + 1] = q end
    end
    return out
  end,
}
