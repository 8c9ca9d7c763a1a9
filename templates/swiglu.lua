-- swiglu.lua -- y = silu(gate) * up elementwise, fp32 math.
--
-- Kernel arguments: (const T *gate, const T *up, long long ldin, T *y, long long ldy,
--                    int rows, int cols)
-- gate, up: (rows, cols) sharing row stride ldin (often the two halves of one
-- (rows, 2*cols) tensor); y: (rows, cols) with row stride ldy (elements).
--
-- Variant space: a block is TX threads along a row x TY rows (TX*TY = 256,
-- rows_per_block = TY).  Each thread walks its row in steps of U vectors of
-- `vec` elements, all 2U loads (16-byte, plain: the streaming .nc/.cs forms
-- measured 6-13% slower on H200 with L2 flushed between runs) issued before the first
-- use.  Narrow rows take a small TX (many rows per block, few idle lanes);
-- wide rows a whole block per row.  `vec` = 16/esize needs 16-byte aligned
-- rows; vec = 2 covers rows aligned to two elements (odd cols of a packed
-- tensor, say); vec = 1 is the fallback.  Ranking: among the variants whose
-- max_cols holds the row, the smallest TX of the widest vector, except that
-- rows of at least 1024 vectors take 1024 threads.
-- Measured on H200 and H100, bf16, >= 256 MB moved: 100-102% of device copy
-- bandwidth.
-- Also (`chunk`, names swiglu_<dt>_c<TX>_v<vec>_u<U>): the column-chunk form
-- of torch.compile's flat kernels, one block per chunk of TX*vec*U columns
-- of a row (cols_per_block); for the tuner, except 128 threads x 1 vector,
-- ranked above every variant above for 16-bit rows of 2048+ columns at
-- 1-64 rows (256 threads x 1 vector at 65-128 rows) and (`_pl`) of 8192+
-- columns at any residue (below).

family { name = "swiglu", signature = "p,p,l,p,l,i,i" }

local KERNELS = [[
struct swiglu_silu {
  static __device__ __forceinline__ float f(float g, float u) { return kp_silu(g) * u; }
};
]]

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(${block}, ${minb})
${name}(const ${T} *gate, const ${T} *up, long long ldin, ${T} *y, long long ldy, int rows,
        int cols) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  kp_glu_rows<${targs}, swiglu_silu${hint}>(gate, up, ldin, y, ldy, rows, cols);
}
]]

-- The column-chunk ("flat") form, torch.compile's: a block of TX threads
-- covers CH = TX * vec * u columns of one row (kp_glu_chunk), the grid rows x
-- ceil(cols / CH) blocks (cols_per_block = CH).  Same arguments as above.
local CHUNK_ENTRY = [[
extern "C" __global__ void __launch_bounds__(${tx}, ${minb})
${name}(const ${T} *gate, const ${T} *up, long long ldin, ${T} *y, long long ldy, int rows,
        int cols) {
  kp_grid_launch_dependents(); // (PDL: the wait is in kp_glu_chunk, LATE, after its index arithmetic)
  kp_glu_chunk<${targs}, swiglu_silu, ${peelb}, true>(gate, up, ldin, y, ldy, rows, cols);
}
]]

-- p: vec, tx (threads along a row), ty (rows per block), u (vectors per thread
-- per step), minb (blocks per SM that the register budget must allow);
-- max_vecs: vectors per thread that the variant is ranked for (nil: any cols);
-- rank_base orders the vector widths.
local function emit(dt, p, max_vecs, rank_base)
  local T = ctype(dt)
  local block = p.tx * p.ty
  local name = string.format("swiglu_%s_t%dx%d_v%d_u%d", dt, p.tx, p.ty, p.vec, p.u)
  if p.h then name = name .. "_ef" end -- gate and up loaded evict-first
  local targs = string.format("%s, %d, %d, %d, %d", T, p.vec, p.tx, p.ty, p.u)
  -- 16-byte rows without hints peel each row (kp_glu_rows' PEEL: any
  -- alignment of the element size, vectorised), except at a 32-register
  -- budget (minb * threads = 2048), where the peeling code spilled on sm_90a
  local peel = p.vec * esize(dt) == 16 and not p.h and p.tx * p.ty * p.minb < 2048
  variant {
    name = name, dtype = dt, params = p,
    block = block, rows_per_block = p.ty,
    max_cols = max_vecs and p.tx * p.vec * max_vecs or nil,
    min_cols = p.wide and p.tx * p.vec or nil,
    align = peel and esize(dt) or p.vec * esize(dt),
    rank = rank_base - p.tx // 8, -- smaller TX (more rows per block) first where it fits
    source = KERNELS .. subst(ENTRY, { block = block, minb = p.minb, name = name, T = T,
                                         targs = targs,
                                         hint = p.h and ", " .. p.h or peel and ", 0, true" or "" }),
  }
end

-- p: kind = "chunk", vec (16 bytes: kp_glu_chunk's vectors), tx (threads per
-- block), u (vectors per thread), minb (blocks per SM the register budget must
-- allow).  rank_base: these stay below every variant above that takes 16-byte
-- aligned rows (ranks >= 268), so that the ranking's choices do not change.
-- p.peel: rows at any residue (kp_glu_chunk's PEEL; name "_pl").  rank: an
-- exact rank instead (the ranked ones, with min_cols, and max_rows).
local function emit_chunk(dt, p, rank_base, rank, min_cols, max_rows)
  local T = ctype(dt)
  local name = string.format("swiglu_%s_c%d_v%d_u%d", dt, p.tx, p.vec, p.u)
  if p.peel then name = name .. "_pl" end
  variant {
    name = name, dtype = dt, params = p,
    block = p.tx, rows_per_block = 1, cols_per_block = p.tx * p.vec * p.u,
    align = p.peel and esize(dt) or p.vec * esize(dt), min_cols = min_cols,
    max = max_rows and { rows = max_rows } or nil,
    rank = rank or rank_base - p.tx // 8 - p.u,
    source = KERNELS .. subst(CHUNK_ENTRY, { tx = p.tx, minb = p.minb, name = name, T = T,
                                             peelb = tostring(p.peel == true),
                                             targs = string.format("%s, %d, %d, %d", T, p.vec,
                                                                   p.tx, p.u) }),
  }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  -- 16-byte vectors, ranked for rows of up to 4 vectors per thread except the
  -- last.  One vector of gate and up per thread and step is enough: with
  -- 1024+ threads per SM that already keeps >= 32 KB in flight, and measured
  -- on H200 u=1 matched or beat u=2/4 on wide rows (their extra registers
  -- cost occupancy); the 8-lane shape keeps u=2 for its short rows, except
  -- for f32, where u=2 spills on sm_120.
  emit(dt, { vec = vec, tx = 8, ty = 32, u = vec == 8 and 2 or 1, minb = 4 }, 4, 300)
  emit(dt, { vec = vec, tx = 32, ty = 8, u = 1, minb = 4 }, 4, 300)
  emit(dt, { vec = vec, tx = 128, ty = 2, u = 1, minb = 4 }, 4, 300)
  emit(dt, { vec = vec, tx = 256, ty = 1, u = 1, minb = 4 }, nil, 300)
  -- One vector per thread and step over 512 or 1024 threads (an 8K row in
  -- one or two steps, as torch.compile's flat kernels do).  The 1024-thread
  -- one is the default for rows of at least one step: measured on H100
  -- (bf16, kp tune 2026-11-22) 2.1% faster at 32768 x 8192 and 3.1% at
  -- 4096 x 11008 than 256 threads.  For the tuner: 512 threads, and
  -- evict-first hints on gate and up (2-3% slower there).
  emit(dt, { vec = vec, tx = 512, ty = 1, u = 1, minb = 4 }, nil, 300)
  emit(dt, { vec = vec, tx = 1024, ty = 1, u = 1, minb = 2, wide = true }, nil, 400)
  emit(dt, { vec = vec, tx = 256, ty = 1, u = 1, minb = 4, h = 1 }, nil, 290)
  if vec > 2 then emit(dt, { vec = 2, tx = 256, ty = 1, u = 4, minb = 4 }, nil, 200) end
  emit(dt, { vec = 1, tx = 32, ty = 8, u = 4, minb = 4 }, 4, 100)
  emit(dt, { vec = 1, tx = 256, ty = 1, u = 4, minb = 4 }, nil, 100)
  -- For the tuner until measured on a GPU: column chunks of 64-256 threads x
  -- 1-2 vectors, 2048 threads per SM (at most 16 blocks), ranked below the
  -- defaults (250 - ...: at most 241, against 268 for the lowest above).
  -- 128 threads x 1 vector is also the default for 16-bit rows of 2048+
  -- columns at 1-64 rows (rank 286, over every row variant): a decode
  -- step's 14336-column row took one block of 1024 threads, two loads of
  -- each input one after the other (a 4096-column row 128 threads, four);
  -- here 14 blocks of one load each (bench/NOTES.md 60, the PDL chain)
  -- 256 threads x 1 vector, the same for 65-128 rows (rank 285: below
  -- c128's 286 where both apply, above t128x2's 284).  At 128 x 14336 the
  -- 1024-thread rows took 3.61 us a call with PDL and 3.31 without, these
  -- 2.61 / 2.98 (H200, the PDL chain's SwiGLU alone; 128 blocks of 1024
  -- threads ran slower with PDL than without: bench/NOTES.md 70)
  local SMALL = { [128] = { 286, 64 }, [256] = { 285, 128 } }
  for _, tx in ipairs({ 64, 128, 256 }) do
    for _, u in ipairs({ 1, 2 }) do
      local small = u == 1 and esize(dt) == 2 and SMALL[tx]
      emit_chunk(dt, { kind = "chunk", vec = vec, tx = tx, u = u,
                       minb = math.min(2048 // tx, 16) }, 250, small and small[1] or nil,
                 small and 2048 or nil, small and small[2] or nil)
      -- The same over rows at any residue (odd lengths; at u = 2 with half
      -- the blocks an SM: the peeling code spilled at 32 registers on
      -- sm_90a).  128 threads x 1 vector is the default for 16-bit rows of
      -- 8192+ columns at any residue (rank 269, over t256x1's 268; the
      -- aligned ones keep t1024x1, 272): kp tune, H100, bf16, 2026-11-26
      -- (bench/results/2026-11-26-s13/call3): 1.03-1.14x t256x1 from 8192
      -- x 11007 to 512 x 199999, within 1% of the best of 12 each time.
      if vec > 1 then
        local ranked = tx == 128 and u == 1 and esize(dt) == 2
        emit_chunk(dt, { kind = "chunk", vec = vec, tx = tx, u = u,
                         minb = math.min(2048 // (tx * u), 16), peel = true }, 240,
                   ranked and 269 or nil, ranked and 8192 or nil)
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
    local function ok(q)
      local block = q.tx * q.ty
      if q.tx < 4 or q.ty < 1 or block % 32 ~= 0 or block > 1024 or block * q.minb > 2048 then
        return false
      end
      return q.vec * esize(dt) <= 16 and 2 * q.u * q.vec <= regs(block, q.minb) // 2
    end
    local pow2 = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 }
    local out = steps(p, { tx = pow2, ty = pow2, u = { 1, 2, 4, 8 }, vec = { 1, 2, 4, 8 },
                           minb = { 1, 2, 4, 8 } }, ok)
    for _, q in ipairs({ with(p, { tx = p.tx * 2, ty = p.ty // 2 }),
                         with(p, { tx = p.tx // 2, ty = p.ty * 2 }) }) do
      if ok(q) then out[#out + 1] = q end
    end
    return out
  end,
}
