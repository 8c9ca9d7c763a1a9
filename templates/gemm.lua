-- gemm.lua -- D = act(alpha * A * op(B) + beta * C + bias), f16/bf16 inputs, fp32
-- accumulation, output in the input dtype or f32 (kp_gemm, include/kernpack.h).
--
-- Kernel arguments (every variant, signature below):
--   (const T *A, long long lda, long long sA, const T *B, long long ldb, long long sB,
--    const void *C, long long ldc, long long sC, void *D, long long ldd, long long sD,
--    const T *bias, int M, int N, int K, int batch, float alpha, float beta, int act,
--    int out_f32, const __grid_constant__ kp_tmap tmA, const __grid_constant__ kp_tmap tmB)
-- A: (M, K) row-major; B: form 0 (n, k) row-major (nn.Linear's weight), form 1
-- (k, n); C (may be NULL, then beta is 0), D: (M, N) in the output dtype; bias
-- (N) or NULL; s*: batch strides in elements (0: one matrix for every batch).
-- The grid is one-dimensional (kp_grid_blocks: ceil(M/BM) * ceil(N/BN) * batch
-- tiles, or at most `persistent` x SMs blocks looping over them); the kernel
-- decodes its tile, grouped 8 tile-rows at a time so that neighbours share B in L2.
-- Every kernel starts with kp_grid_wait() (kp_device.cuh): with PDL on
-- (kp_ctx_set_pdl) its launch overlaps the previous kernel's tail and it waits
-- for that kernel before any global access.  It does not trigger its own
-- dependents early (kp_grid_launch_dependents): they launch as its blocks
-- end.  Triggered at entry, as the row kernels do, a decode step's next
-- kernels were placed on the SMs while this GEMM still ran there, and the
-- MLP block ran 10% slower with PDL than without at one token (bench/NOTES.md
-- 73).
--
-- The variant families, each in its own section below: `_wg_` (sm_90a:
-- TMA + wgmma, incl. `_c2` clusters with B multicast, `_a2` clusters with A
-- multicast, `_k<S>` split-K in a cluster, `_kn` B as (k, n)); `_gemv_`
-- (m <= 16, every target); `_mma_` (sm_80+: cp.async + ldmatrix +
-- mma.sync, both layouts); `_simple_` (any
-- alignment, every target: the fallback that makes every call servable).
-- The grid rule also multiplies by `split` and caps persistent cluster grids
-- at the clusters that fit (runtime/launch.c).
--
-- The sm_90a variants (`gemm_<dt>_wg_<BM>x<BN>_s<stages>[_c2|_a2|_k<S>][_e<EC>][_w0]_<nk|kn>`):
-- warp-specialised, persistent.  Warpgroups 0 and 1 are the consumers, the
-- last one the producer: one thread
-- issues TMA loads (cp.async.bulk.tensor, 128-byte swizzle; A as (k, m,
-- batch) and B as (k, n, batch) boxes of 64 x BM and 64 x BN, out-of-bounds
-- elements read as zero, so any M, N, K) into a ring of STAGES shared-memory
-- stages, each completing on its `full` mbarrier; setmaxnreg gives its
-- registers to the two consumer warpgroups.  Each consumer issues wgmma
-- m64nNk16 (both operands from shared memory, descriptors with 128-byte
-- swizzle) over its 64-row (or, with BM = 64, 64-column-half) slice, keeps
-- one wgmma group in flight, and frees a stage (its `empty` mbarrier) once
-- the group that read it has retired (`_w0`: waits for each k-tile's group
-- before the next, the other consumer's keeping the tensor cores busy, and
-- frees its stage a k-tile sooner).  The epilogue (alpha, beta * C, bias,
-- activation, rounding) runs in the accumulator registers while the
-- producer already loads the next tile's stages (skipped whole when there
-- is no term); `_e<EC>` variants then write the outputs to shared memory
-- (stmatrix), EC columns at a time, and two more producer warps, one a
-- consumer, hand each chunk to TMA (cp.async.bulk.tensor to global, D's
-- map built by the runtime) or, where TMA cannot store it (D not 16-byte
-- aligned, a chunk across an N not a multiple of 8, 128x64's tiles), store
-- it themselves, coalesced, while the consumers start the next tile (f32
-- output, and the variants without `_e`, store from the registers).  The
-- TMA store took 1-3 us off the picks' one-round shapes (128 x 14336 x 4096
-- 37.3 -> 36.5 us, 256 x 11008 37.1 -> 34.8, 512 x 4096^2 28.3 -> 26.7)
-- and 4096^3 181.0 -> 178.2 (H200, forty-second session: bench/NOTES.md
-- 77).  Needs 16-byte aligned
-- rows (align 16: TMA's rule for addresses and strides).

family {
  name = "gemm",
  dims = "m:pow2,n,k,batch:pow2",
  signature = "p,l,l,p,l,l,p,l,l,p,l,l,p,i,i,i,i,f,f,i,i,T,T,T",
}

-- Every kernel's parameters (${name}(${params})), in the signature's order
local PARAMS = [[const ${T} *A, long long lda, long long sA, const ${T} *B, long long ldb,
        long long sB, const void *C, long long ldc, long long sC, void *D, long long ldd,
        long long sD, const ${T} *bias, int M, int N, int K, int batch, float alpha, float beta,
        int act, int out_f32, const __grid_constant__ kp_tmap tmA,
        const __grid_constant__ kp_tmap tmB, const __grid_constant__ kp_tmap tmD]]
local function params(dt) return subst(PARAMS, { T = ctype(dt) }) end

-- ---- shared device code: epilogue --------------------------------------------
local COMMON = [[
#ifndef KP_GEMM_COMMON
#define KP_GEMM_COMMON
// act: 0 none, 1 relu, 2 silu, 3 gelu (tanh)
__device__ __forceinline__ float kp_gemm_act(float v, int act) {
  return act == 0 ? v : act == 1 ? fmaxf(v, 0.f) : act == 2 ? kp_silu(v) : kp_gelu_tanh(v);
}

// Two adjacent outputs (row, col), (row, col + 1) of one batch's D: alpha *
// acc + beta * C + bias, activation, stored in the output dtype.  col + 1 may
// be past N (then only col is written); pair stores need col even and
// ldd / ldc even, which the 16-byte aligned variants guarantee.
template <class T>
__device__ __forceinline__ void kp_gemm_store2(float a0, float a1, int row, int col, int M, int N,
                                               const void *C, long long ldc, void *D,
                                               long long ldd, const T *bias, float alpha,
                                               float beta, int act, int out_f32) {
  if (row >= M || col >= N) return;
  const bool two = col + 1 < N;
  float v0 = alpha * a0, v1 = alpha * a1;
  if (C) {
    if (out_f32) {
      const float *c = (const float *)C + (long long)row * ldc + col;
      v0 += beta * c[0];
      if (two) v1 += beta * c[1];
    } else {
      const T *c = (const T *)C + (long long)row * ldc + col;
      v0 += beta * kp_to_f32(c[0]);
      if (two) v1 += beta * kp_to_f32(c[1]);
    }
  }
  if (bias) {
    v0 += kp_to_f32(bias[col]);
    if (two) v1 += kp_to_f32(bias[col + 1]);
  }
  v0 = kp_gemm_act(v0, act);
  v1 = kp_gemm_act(v1, act);
  if (out_f32) {
    float *d = (float *)D + (long long)row * ldd + col;
    if (two) *(float2 *)d = make_float2(v0, v1);
    else d[0] = v0;
  } else {
    T *d = (T *)D + (long long)row * ldd + col;
    if (two) *(kp_u32 *)d = kp_pair<T>::pack(v0, v1);
    else d[0] = kp_from_f32<T>(v0);
  }
}

// One output (row, col) of one batch's D, in range: the terms, then the store.
template <class T>
__device__ __forceinline__ void kp_gemm_store1(float v, int row, int col, const void *C,
                                               long long ldc, void *D, long long ldd,
                                               const T *bias, float alpha, float beta, int act,
                                               int out_f32) {
  v *= alpha;
  if (C) {
    const long long o = (long long)row * ldc + col;
    v += beta * (out_f32 ? ((const float *)C)[o] : kp_to_f32(((const T *)C)[o]));
  }
  if (bias) v += kp_to_f32(bias[col]);
  v = kp_gemm_act(v, act);
  if (out_f32) ((float *)D)[(long long)row * ldd + col] = v;
  else ((T *)D)[(long long)row * ldd + col] = kp_from_f32<T>(v);
}

// An output pair, or one element, in the output type O (T or float).
template <class O> struct kp_gemm_out {
  static __device__ __forceinline__ void pair(O *o, float a, float b) {
    *(kp_u32 *)o = kp_pair<O>::pack(a, b);
  }
  static __device__ __forceinline__ void one(O *o, float a) { *o = kp_from_f32<O>(a); }
};
template <> struct kp_gemm_out<float> {
  static __device__ __forceinline__ void pair(float *o, float a, float b) {
    *(float2 *)o = make_float2(a, b);
  }
  static __device__ __forceinline__ void one(float *o, float a) { *o = a; }
};
// The stores of kp_gemm_epilogue (fragment layout below): pairs where both
// columns exist (PAIRS), else element by element, nothing past M or N.
template <class O, int MI, int NI, bool PAIRS>
__device__ __forceinline__ void kp_gemm_stores(const float *d, int row0, int col0, int M, int N,
                                               void *D, long long ldd) {
  const bool inside = row0 + 16 * MI - 8 < M && col0 + 8 * NI - 6 < N; // every pair in range
#pragma unroll
  for (int mi = 0; mi < MI; mi++)
#pragma unroll
    for (int ni = 0; ni < NI; ni++)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int r = row0 + 16 * mi + 8 * h, c = col0 + 8 * ni;
        const float *f = d + 4 * (mi * NI + ni) + 2 * h;
        O *o = (O *)D + (long long)r * ldd + c;
        if (PAIRS && (inside || (r < M && c + 1 < N))) kp_gemm_out<O>::pair(o, f[0], f[1]);
        else if (r < M && c < N) {
          kp_gemm_out<O>::one(o, f[0]);
          if (!PAIRS && c + 1 < N) kp_gemm_out<O>::one(o + 1, f[1]);
        }
      }
}

// The epilogue of one warp's accumulator fragments, in the layout that
// mma.sync m16n8 and wgmma m64nN share: fragment f = mi * NI + ni covers rows
// row0 + 16 mi (+ 8) and columns col0 + 8 ni (+ 1), registers
// d[4f .. 4f + 3] = (r, c), (r, c + 1), (r + 8, c), (r + 8, c + 1), where row0
// and col0 already hold the lane's g = lane / 4 and 2 (lane % 4).  Each term
// is one unrolled pass with its branch outside, so a call runs only the
// passes it needs: the code stays small (an interleaved per-element version
// made a 500 KB kernel that ran from the instruction cache's misses).  Pair
// stores need col0 even and ldd even (16-byte aligned variants); PAIRS =
// false stores element by element (element-aligned variants).
// kp_gemm_terms applies the terms in registers, kp_gemm_epilogue also stores.
template <class T, int MI, int NI>
__device__ __forceinline__ void kp_gemm_terms(float *d, int row0, int col0, int M, int N,
                                              const void *C, long long ldc, const T *bias,
                                              float alpha, float beta, int act, int out_f32) {
  constexpr int R = MI * NI * 4;
  if (alpha != 1.f) {
#pragma unroll
    for (int i = 0; i < R; i++) d[i] *= alpha;
  }
  if (bias) {
#pragma unroll
    for (int ni = 0; ni < NI; ni++) {
      const int c = col0 + 8 * ni;
      const float b0 = c < N ? kp_to_f32(bias[c]) : 0.f;
      const float b1 = c + 1 < N ? kp_to_f32(bias[c + 1]) : 0.f;
#pragma unroll
      for (int mi = 0; mi < MI; mi++) {
        float *f = d + 4 * (mi * NI + ni);
        f[0] += b0, f[1] += b1, f[2] += b0, f[3] += b1;
      }
    }
  }
  if (C && beta != 0.f) {
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
      for (int ni = 0; ni < NI; ni++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
          const int r = row0 + 16 * mi + 8 * h, c = col0 + 8 * ni;
          float *f = d + 4 * (mi * NI + ni) + 2 * h;
          if (r < M && c < N) {
            const long long o = (long long)r * ldc + c;
            if (out_f32) {
              f[0] += beta * ((const float *)C)[o];
              if (c + 1 < N) f[1] += beta * ((const float *)C)[o + 1];
            } else {
              f[0] += beta * kp_to_f32(((const T *)C)[o]);
              if (c + 1 < N) f[1] += beta * kp_to_f32(((const T *)C)[o + 1]);
            }
          }
        }
  }
  switch (act) {
  case 1:
#pragma unroll
    for (int i = 0; i < R; i++) d[i] = fmaxf(d[i], 0.f);
    break;
  case 2:
#pragma unroll
    for (int i = 0; i < R; i++) d[i] = kp_silu(d[i]);
    break;
  case 3:
#pragma unroll
    for (int i = 0; i < R; i++) d[i] = kp_gelu_tanh(d[i]);
    break;
  }
}
template <class T, int MI, int NI, bool PAIRS = true>
__device__ __forceinline__ void kp_gemm_epilogue(float *d, int row0, int col0, int M, int N,
                                                 const void *C, long long ldc, void *D,
                                                 long long ldd, const T *bias, float alpha,
                                                 float beta, int act, int out_f32) {
  kp_gemm_terms<T, MI, NI>(d, row0, col0, M, N, C, ldc, bias, alpha, beta, act, out_f32);
  if (out_f32) kp_gemm_stores<float, MI, NI, PAIRS>(d, row0, col0, M, N, D, ldd);
  else kp_gemm_stores<T, MI, NI, PAIRS>(d, row0, col0, M, N, D, ldd);
}

// Tile t of a (tiles_m x tiles_n) grid per batch, grouped GROUP tile-rows at a
// time (consecutive tiles share B columns, then A rows, in L2).
template <int GROUP>
__device__ __forceinline__ void kp_gemm_tile(int t, int tiles_m, int tiles_n, int &b, int &tm,
                                             int &tn) {
  const int per_batch = tiles_m * tiles_n;
  b = t / per_batch;
  const int r = t - b * per_batch;
  const int span = GROUP * tiles_n;
  const int first_m = r / span * GROUP;
  const int gsize = min(tiles_m - first_m, GROUP);
  tm = first_m + (r % span) % gsize;
  tn = (r % span) / gsize;
}

// The `_e` epilogue's stores: a box of D (x = column, y = row, z = batch) from this
// CTA's shared memory by TMA (clipped at D's edges), its reads tracked as a
// bulk group; kp_gemm_store_read waits until the box has left shared memory,
// kp_gemm_store_done until it is written
__device__ __forceinline__ void kp_gemm_store_box(const kp_tmap *map, const void *src, int x,
                                                  int y, int z) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];"
               "\n\tcp.async.bulk.commit_group;"
               ::"l"((unsigned long long)map), "r"(x), "r"(y), "r"(z), "r"(kp_smem_addr(src))
               : "memory");
}
__device__ __forceinline__ void kp_gemm_store_read() {
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void kp_gemm_store_done() {
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
#endif
]]

-- Every variant computes its B layouts with and without epilogue terms (a
-- call's form bit 1, KP_GEMM_TERMS: alpha != 1, C, bias, an activation or an
-- f32 D; runtime/internal.h), but the plain-only twins (`_pl`, plain =
-- true), which compute the plain forms alone.
local function gemm_variant(t)
  if t.forms and not t.plain then t.forms = t.forms | (t.forms << 2) end
  t.plain = nil
  variant(t)
end

-- ---- sm_90a: TMA + wgmma, warp-specialised, persistent --------------------------

local WG_KERNEL = [[
// ${name}: BM x BN tiles (consumer warpgroups: ${roles}), BK = 64, ${stages} stages
extern "C" __global__ void __launch_bounds__(384, 1)
${name}(${params}) {
  kp_grid_wait(); // PDL: the grid before has finished (kp_device.cuh); no early trigger
  constexpr int BM = ${bm}, BN = ${bn}, BK = 64, STAGES = ${stages};
  constexpr int WN = ${wn};              // columns per consumer warpgroup
  constexpr int MB = ${mb};              // 64-row blocks per consumer warpgroup (BM = 256: 2)
  constexpr int CL = ${cl};              // CTAs per cluster
  constexpr int SK = ${sk};              // > 1: the cluster's CTAs split one tile's K
  constexpr bool MCA = ${mca};           // the cluster's CTAs share A (multicast), not B
  constexpr bool MC = CL > 1 && SK == 1 && !MCA; // the cluster's CTAs share B (multicast)
  constexpr bool SHARE = MC || MCA;      // a stage is filled by every CTA of the cluster
  // KPAR: a 64-row tile's two consumers split its k-tiles by parity, each
  // multiplying the whole 64 x BN tile (one m64nBN wgmma a k16 step, not
  // two of half the width: half the wgmmas and A read once from shared
  // memory a k-tile, not twice); consumer 1 hands its sums to consumer 0
  // through shared memory (two buffers, a tile each in turn), which stores
  constexpr bool KPAR = ${kpar};
  constexpr bool KN = ${kn};             // B as (k, n)
  // PLAIN: the `_pl` twin, for calls without epilogue terms (their code left
  // out; the general twin's cost it 3-8% at m = 128: bench/NOTES.md 74)
  constexpr bool PLAIN = ${plain};
  constexpr int A_BYTES = BM * BK * 2, B_BYTES = BN * BK * 2, B_SLICE = B_BYTES / CL;
  constexpr int A_SLICE = A_BYTES / CL;
  constexpr int RED_LD = BN + 4;         // SK > 1: row stride of the partial tile (floats)
  // EC > 0: the epilogue goes through shared memory, EC columns of a
  // consumer's 64 x WN slice at a time (rows EP elements apart, EC rounded
  // up to 64: 16-byte chunk q of row r at q ^ (r % 8), conflict-free both
  // ways and inside the row for any EC a multiple of 8), and a warp of the
  // producer warpgroup stores them, coalesced, while the consumer goes on
  // with its next tile.  Two named barriers of the consumer warpgroup and
  // its store warp, where both sync, hand the buffer over: free (4 + cw)
  // before the consumer writes (the store warp is done with the last pass),
  // full (2 + cw) after (the store warp is already waiting there).  With
  // bar.arrive on the consumer's side compute-sanitizer's racecheck flagged
  // the two-pass variants; a rendezvous costs nothing here.
  constexpr int EC = ${ec}, EP = (EC + 63) / 64 * 64;
  static_assert(!KPAR || (BM == 64 && SK == 1 && !SHARE && EC == 0),
                "k by parity: plain 64-row tiles");
  // W0: a consumer waits for each k-tile's wgmma group before the next
  // (the other consumer's group keeps the tensor cores busy meanwhile), so
  // it holds one stage, not two: one more stage of lookahead for the loads
  constexpr bool W0 = ${w0};
  // TST: the store warps hand each chunk to TMA (tmD, encoded by the
  // runtime where D is 16-byte aligned with ldd, sD multiples of 8: `vec`);
  // else (and where D is not so) they store it themselves.  A consumer's
  // chunk in shared memory, 16-byte piece q of row rl at eoff(rl, q): PANELS
  // (EC a multiple of 64) as 64-column panels in TMA's 128-byte swizzle, a
  // box each; ROWS (other EC) row after row, one box; else rows EP elements
  // apart, swizzled as the panels.  Each keeps stmatrix free of bank
  // conflicts but ROWS, where rows EC * 2 bytes apart may share banks 2 ways
  constexpr bool TST = ${tst};
  constexpr bool PANELS = TST && EC % 64 == 0, ROWS = TST && !PANELS;
  constexpr int EB = 64 * (ROWS ? EC : EP) * 2; // a consumer's chunk buffer, bytes
  constexpr int ERP = PANELS ? 128 : ROWS ? EC * 2 : EP * 2; // its rows apart, bytes
  auto eoff = [](int rl, int q) -> int {
    if (PANELS) return (q >> 3) * 8192 + rl * ERP + (((q & 7) ^ (rl & 7)) << 4);
    if (ROWS) return rl * ERP + (q << 4);
    return rl * ERP + ((q ^ (rl & 7)) << 4);
  };
  static_assert(EC == 0 || (SK == 1 && WN % EC == 0 && (EC >= 64 || ROWS) && EC % 8 == 0),
                "epilogue chunks");
  static_assert(SK == 1 || BM * RED_LD * 4 <= STAGES * (A_BYTES + B_BYTES), "partial tile");
  static_assert(MB == 1 || (SK == 1 && !SHARE), "two row blocks a consumer: no split, no multicast");
  static_assert(!MCA || (CL > 1 && SK == 1 && BM / CL % 8 == 0), "A multicast: whole swizzle atoms");
  __shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES];
  extern __shared__ unsigned char kp_dyn[];
  // 128-byte swizzled tiles want 1024-byte aligned stages
  unsigned char *smem = (unsigned char *)(((unsigned long long)kp_dyn + 1023) & ~1023ull);
  unsigned char *sa = smem, *sb = smem + STAGES * A_BYTES;
  unsigned char *ebuf = smem + STAGES * (A_BYTES + B_BYTES); // EC > 0: 2 x 64 x EP outputs
  // MC: the CTAs of a cluster take CL vertically adjacent tiles (a tile-row
  // past M computes zeros and stores nothing) and each loads 1/CL of the B
  // tile for all of them (TMA multicast): a stage is free again once every
  // consumer of every CTA has read it.  SK > 1: the cluster's CTAs take one
  // tile, CTA r the k-tiles [r kt / SK, (r + 1) kt / SK); they add their
  // partial sums through distributed shared memory, CTA r finishing rows
  // [r BM / SK, (r + 1) BM / SK) of the tile.  MCA: as MC with the roles of
  // A and B swapped -- CL horizontally adjacent tiles (a tile past N
  // computes and stores nothing), each CTA loading 1/CL of the A tile for
  // all (at m <= 128 every CTA reads the same A rows: as many L2 bytes as B).
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  const int groups_m = MC ? (tiles_m + CL - 1) / CL : tiles_m;
  const int groups_n = MCA ? (tiles_n + CL - 1) / CL : tiles_n;
  const int total = groups_m * groups_n * batch, ktiles = (K + BK - 1) / BK;
  const int wg = threadIdx.x / 128;
  const int rank = CL > 1 ? (int)kp_cluster_rank() : 0;
  const int kt0 = SK > 1 ? rank * ktiles / SK : 0, kt1 = SK > 1 ? (rank + 1) * ktiles / SK : ktiles;
  auto kp_gemm_release = [](unsigned long long *bar) {
    if (!SHARE) kp_mbar_arrive(bar);
    else
      for (int r = 0; r < CL; r++) kp_mbar_arrive_in(bar, r);
  };
  int b = 0, tm = 0, tn = 0; // the (last) tile
  // tile t's coordinates (a sharing cluster's groups are CL tiles, this CTA
  // the rank-th of them)
  auto decode = [&](int t) {
    kp_gemm_tile<8>(t, groups_m, groups_n, b, tm, tn);
    if (MC) tm = tm * CL + rank;
    if (MCA) tn = tn * CL + rank;
  };
  const int first = blockIdx.x / CL, step = gridDim.x / CL;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; s++) {
      kp_mbar_init(&full[s], 1);
      kp_mbar_init(&empty[s], SHARE ? 2 * CL : KPAR ? 1 : 2);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  if (CL > 1) kp_cluster_sync();
  else __syncthreads();
  if (threadIdx.x >= 256) { // producer
    asm volatile("setmaxnreg.dec.sync.aligned.u32 56;");
    if (threadIdx.x == 256) {
      int stage = 0, phase = 0;
      for (int t = first; t < total; t += step) {
        decode(t);
        const int ba = sA ? b : 0, bb = sB ? b : 0;
        for (int kt = kt0; kt < kt1; kt++) {
          kp_mbar_wait(&empty[stage], phase ^ 1);
          kp_mbar_expect_tx(&full[stage], A_BYTES + B_BYTES);
          if (MCA)
            kp_tma_load3_mc(sa + stage * A_BYTES + rank * A_SLICE, &tmA, kt * BK,
                            tm * BM + rank * (BM / CL), ba, &full[stage], (1 << CL) - 1);
          else
            kp_tma_load3(sa + stage * A_BYTES, &tmA, kt * BK, tm * BM, ba, &full[stage]);
          if (KN) // (k, n): BN / 64 boxes of 64 columns x 64 k-rows
            for (int j = 0; j < BN / 64; j++)
              kp_tma_load3(sb + stage * B_BYTES + j * 8192, &tmB, tn * BN + 64 * j, kt * BK, bb,
                           &full[stage]);
          else if (!MC)
            kp_tma_load3(sb + stage * B_BYTES, &tmB, kt * BK, tn * BN, bb, &full[stage]);
          else
            kp_tma_load3_mc(sb + stage * B_BYTES + rank * B_SLICE, &tmB, kt * BK,
                            tn * BN + rank * (BN / CL), bb, &full[stage], (1 << CL) - 1);
          if (++stage == STAGES) stage = 0, phase ^= 1;
        }
      }
    } else if (EC > 0 && !out_f32 && threadIdx.x >= 288 && threadIdx.x < 352 && first < total) {
      // warps 1 and 2: the global stores of consumer 0 and 1
      const int cw = (threadIdx.x - 288) / 32, lane = threadIdx.x % 32;
      const unsigned char *eb = ebuf + cw * EB;
      const bool vec = (unsigned long long)D % 16 == 0 && ldd % 8 == 0 && sD % 8 == 0;
      for (int t = first; t < total; t += step) {
        decode(t);
        ${T} *Db = (${T} *)D + b * sD;
        for (int mb = 0; mb < MB; mb++)
        for (int p = 0; p < WN / EC; p++) {
          const int r0 = tm * BM + ${row_base} + 64 * mb, c0 = tn * BN + ${col_base};
          kp_bar_sync(4 + cw, 160);
          kp_bar_sync(2 + cw, 160);
          // (TMA clips a store at D's last column to 16 bytes, not to the
          // element: a chunk across an N not a multiple of 8 goes by the warp)
          if (TST && vec && (N % 8 == 0 || c0 + p * EC + EC <= N)) {
            if (lane == 0) {
              if (PANELS)
                for (int i = 0; i < EC / 64; i++)
                  kp_gemm_store_box(&tmD, eb + i * 8192, c0 + p * EC + 64 * i, r0, b);
              else
                kp_gemm_store_box(&tmD, eb, c0 + p * EC, r0, b);
              kp_gemm_store_read(); // the chunk's buffer free for the next pass
            }
            __syncwarp();
            continue;
          }
#pragma unroll 4
          for (int i = lane; i < 64 * EC / 8; i += 32) {
            const int rl = i / (EC / 8), q = i % (EC / 8);
            const uint4 v = *(const uint4 *)(eb + eoff(rl, q));
            const int r = r0 + rl, c = c0 + p * EC + 8 * q;
            if (r < M) {
              ${T} *o = Db + (long long)r * ldd + c;
              if (vec && c + 8 <= N) *(uint4 *)o = v;
              else // element by element (registers, not a local copy of v)
                for (int x = 0; x < 8 && c + x < N; x++) {
                  const kp_u32 w = x < 2 ? v.x : x < 4 ? v.y : x < 6 ? v.z : v.w;
                  ((unsigned short *)o)[x] = (unsigned short)(w >> 16 * (x & 1));
                }
            }
          }
        }
      }
      if (TST && vec && lane == 0) kp_gemm_store_done();
    }
  } else { // consumers
    asm volatile("setmaxnreg.inc.sync.aligned.u32 224;");
    const int cw = wg, warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
    const int a_off = ${a_off}, b_off = ${b_off}; // bytes into a stage's tiles
    float d[MB * WN / 2]; // row block mb: d + mb WN / 2
    int stage = 0, phase = 0;
    const unsigned long long da0 = kp_wg_desc(sa + a_off), db0 = ${b_desc}(sb + b_off);
    // the tile's coordinates (three integer divisions, some 400 cycles
    // in a row): the `_e` epilogue needs them only for its terms, so they
    // are decoded there, not in the gap between two tiles' wgmmas
    const bool late = EC > 0 && SK == 1;
    for (int t = first; t < total; t += step) {
      if (!late) decode(t);
      int prev = -1;
      // K split finer than its k-tiles (or, KPAR, than the consumers): this part is zero
      if ((SK > 1 && kt0 == kt1) || (KPAR && kt1 - kt0 <= cw))
#pragma unroll
        for (int i = 0; i < MB * WN / 2; i++) d[i] = 0.f;
      for (int kt = kt0; kt < kt1; kt++) {
        if (KPAR && ((kt - kt0) & 1) != cw) { // the other consumer's k-tile
          if (++stage == STAGES) stage = 0, phase ^= 1;
          continue;
        }
        kp_mbar_wait(&full[stage], phase);
        // a descriptor's address field is (address >> 4) and shared memory
        // ends below 2^18 bytes: a stage's descriptor is stage 0's plus an offset
        const unsigned long long da = da0 + stage * (A_BYTES >> 4);
        const unsigned long long db = db0 + stage * (B_BYTES >> 4);
        kp_wg_fence();
#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++)
#pragma unroll
          for (int mb = 0; mb < MB; mb++) // row block mb: 64 rows of 128 bytes further into A
            kp_wgmma_${ab}_n${wn}${tname}(d + mb * (WN / 2), da + mb * (8192 >> 4) + 2 * kk,
                                         db + ${b_step} * kk,
                                         (KPAR ? kt - kt0 > 1 : kt > kt0) || kk > 0);
        kp_wg_commit();
        if (W0) { // this group done: its stage is free a k-tile sooner
          kp_wg_wait<0>();
          if (threadIdx.x % 128 == 0) kp_gemm_release(&empty[stage]);
        } else {
          kp_wg_wait<1>(); // the group before this one has read its stage
          if (prev >= 0 && threadIdx.x % 128 == 0) kp_gemm_release(&empty[prev]);
          prev = stage;
        }
        if (++stage == STAGES) stage = 0, phase ^= 1;
      }
      kp_wg_wait<0>();
      if (prev >= 0 && threadIdx.x % 128 == 0) kp_gemm_release(&empty[prev]);
      if (KPAR) { // consumer 1's sums to consumer 0, through this tile's buffer
        // (a rendezvous a tile: consumer 1 writes buffer i % 2 again at tile
        // i + 2, past tile i + 1's sync, which consumer 0 reaches only after
        // reading it at tile i)
        float *part = (float *)(smem + STAGES * (A_BYTES + B_BYTES)) +
                      ((t - first) / step & 1) * (WN / 2) * 128;
        const int tl = threadIdx.x % 128;
        if (cw == 1)
#pragma unroll
          for (int i = 0; i < WN / 2; i++) part[i * 128 + tl] = d[i];
        kp_bar_sync(6, 256);
        if (cw == 1) continue;
#pragma unroll
        for (int i = 0; i < WN / 2; i++) d[i] += part[i * 128 + tl];
      }
      // accumulator layout of m64nWN: warp w holds rows 16w + lane/4 (+8); the
      // n8 block j columns 8j + 2 (lane % 4) (+1)
      const int row0 = ${row_base} + warp * 16 + lane / 4;
      const int col0 = ${col_base} + 2 * (lane % 4);
      if (SK == 1) {
        auto cterm = [&]() { // batch b's C
          return C ? (const void *)((const char *)C + b * sC * (out_f32 ? 4 : ${es})) : C;
        };
        if (EC > 0 && (PLAIN || !out_f32)) {
          // stmatrix.x4 stores n8 blocks j, j + 1 of the warp's 16 rows: lane L
          // gives the address of row L % 8 of matrix L / 8 (block j + L / 16,
          // rows 8 (L / 8 % 2) on), whose 16-byte chunk j' sits at j' ^ (row % 8)
          const int erl = warp * 16 + (lane >> 3 & 1) * 8 + (lane & 7); // lane L's row
          const kp_u32 erow = kp_smem_addr(ebuf) + cw * EB + erl * ERP;
          // j even: piece j + L / 16 of the row (its offset from piece 0's,
          // (j + L / 16) ^ (L % 8) where swizzled, a panel further each 8)
          const kp_u32 esw = ROWS ? (lane >> 4) << 4 : ((lane >> 4) ^ (lane & 7)) << 4;
          auto epiece = [&](int j) -> kp_u32 {
            return ROWS ? erow + esw + (j << 4)
                 : PANELS ? erow + (j >> 3) * 8192 + (esw ^ ((j & 7) << 4))
                 : erow + (esw ^ (j << 4));
          };
          // no term to apply: the tile's coordinates, C and bias stay untouched
          const bool plain = PLAIN || (alpha == 1.f && !bias && !(C && beta != 0.f) && act == 0);
#pragma unroll
          for (int mb = 0; mb < MB; mb++) {
          if (!plain) {
            decode(t);
            kp_gemm_terms<${T}, 1, WN / 8>(d + mb * (WN / 2), tm * BM + row0 + 64 * mb,
                                           tn * BN + col0, M, N, cterm(), ldc, bias, alpha, beta,
                                           act, 0);
          }
#pragma unroll
          for (int p = 0; p < WN / EC; p++) {
            kp_bar_sync(4 + cw, 160); // the store warp is done with the last pass
#pragma unroll
            for (int j = 0; j + 1 < EC / 8; j += 2) {
              const float *f = d + mb * (WN / 2) + 4 * (p * EC / 8 + j);
              asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                           ::"r"(epiece(j)),
                           "r"(kp_pair<${T}>::pack(f[0], f[1])), "r"(kp_pair<${T}>::pack(f[2], f[3])),
                           "r"(kp_pair<${T}>::pack(f[4], f[5])), "r"(kp_pair<${T}>::pack(f[6], f[7]))
                           : "memory");
            }
            if constexpr (EC / 8 % 2) { // an odd count of n8 blocks: the last alone (.x2,
              // lanes 0-15's addresses: L / 16 = 0, so esw's chunk is the block's own)
              constexpr int j = EC / 8 - 1;
              const float *f = d + mb * (WN / 2) + 4 * (p * EC / 8 + j);
              asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};"
                           ::"r"(epiece(j)),
                           "r"(kp_pair<${T}>::pack(f[0], f[1])), "r"(kp_pair<${T}>::pack(f[2], f[3]))
                           : "memory");
            }
            // (the chunk's writes seen by TMA's async proxy before its store)
            if (TST) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            kp_bar_sync(2 + cw, 160);
          }
          }
        } else {
          if (late) decode(t);
          const void *Cb = cterm();
          void *Db = (char *)D + b * sD * (out_f32 ? 4 : ${es});
#pragma unroll
          for (int mb = 0; mb < MB; mb++) {
            // (the row offset opaque and the block before stored first: with
            // both blocks' addresses worked out up front, ptxas spilled)
            int roff = 64 * mb;
            if (MB > 1) asm volatile("" : "+r"(roff) : : "memory");
            if (PLAIN)
              kp_gemm_stores<${T}, 1, WN / 8, true>(d + mb * (WN / 2), tm * BM + row0 + roff,
                                                    tn * BN + col0, M, N, Db, ldd);
            else
              kp_gemm_epilogue<${T}, 1, WN / 8>(d + mb * (WN / 2), tm * BM + row0 + roff,
                                               tn * BN + col0, M, N, Cb, ldc, Db, ldd, bias,
                                               alpha, beta, act, out_f32);
          }
        }
      } else {
        // this CTA's partial tile into its (now idle) stage memory, once
        // both consumers' last wgmma has read it
        asm volatile("bar.sync 1, 256;" ::: "memory");
        float *red = (float *)smem;
#pragma unroll
        for (int j = 0; j < WN / 8; j++)
#pragma unroll
          for (int h = 0; h < 2; h++)
            *(float2 *)&red[(row0 + 8 * h) * RED_LD + col0 + 8 * j] =
                make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
      }
    }
  }
  if (SK > 1) {
    kp_cluster_sync(); // every partial tile written
    if (threadIdx.x < 256) {
      const float *red = (const float *)smem;
      const void *Cb = C ? (const void *)((const char *)C + b * sC * (out_f32 ? 4 : ${es})) : C;
      void *Db = (char *)D + b * sD * (out_f32 ? 4 : ${es});
      constexpr int RS = BM / SK; // rows this CTA finishes
      static_assert(RS * BN / 2 % 256 == 0, "whole passes");
#pragma unroll
      for (int it = 0; it < RS * BN / 2 / 256; it++) { // unrolled: remote loads in flight together
        const int i = it * 256 + threadIdx.x;
        const int r = rank * RS + i / (BN / 2), c = 2 * (i % (BN / 2));
        float2 v = make_float2(0.f, 0.f);
#pragma unroll
        for (int s = 0; s < SK; s++) {
          const float2 p = *(const float2 *)kp_map_rank(&red[r * RED_LD + c], s);
          v.x += p.x, v.y += p.y;
        }
        if (PLAIN) {
          const int rr = tm * BM + r, cc = tn * BN + c;
          ${T} *o = (${T} *)Db + (long long)rr * ldd + cc;
          if (rr < M && cc + 1 < N) kp_gemm_out<${T}>::pair(o, v.x, v.y);
          else if (rr < M && cc < N) kp_gemm_out<${T}>::one(o, v.x);
        } else
          kp_gemm_store2<${T}>(v.x, v.y, tm * BM + r, tn * BN + c, M, N, Cb, ldc, Db, ldd, bias,
                               alpha, beta, act, out_f32);
      }
    }
  }
  // no CTA may leave while its cluster partners still multicast into its
  // shared memory, arrive on its barriers or read its partial sums
  if (CL > 1) kp_cluster_sync();
}
]]

-- The entry's aux bit for a cluster that shares A (runtime/ops.c: A's TMA box
-- is then BM / cluster rows, B's the whole BN)
local GEMM_SHARE_A = 0x10000
local GEMM_STORE_D = 0x20000 -- + the chunk's columns / 8 << 8: D stored by TMA

local function emit_wg(dt, p)
  local T = ctype(dt)
  local ab = dt == "bf16" and "bf16" or "f16"
  local sk = p.split or 1
  local cl = sk > 1 and sk or p.cluster or 1
  local kn = p.form == "kn"
  local ec = p.ec or 0 -- > 0: the epilogue through shared memory, ec columns at a time
  -- ... and stored by TMA (tst, but for p.tst = false)
  local tst = ec > 0 and p.tst ~= false
  -- share_a: the cluster's CTAs take side-by-side tiles and share A (`_a<n>`);
  -- else a cluster without a split shares B (`_c<n>`)
  local name = string.format("gemm_%s_wg_%dx%d_s%d%s%s_%s", dt, p.bm, p.bn, p.stages,
                             sk > 1 and "_k" .. sk or cl > 1 and (p.share_a and "_a" or "_c") .. cl
                             or "", "", p.form or "nk")
  if ec > 0 then name = name:gsub("_(%a%a)$", "_e" .. ec .. "_%1") end
  if p.w0 then name = name:gsub("_(%a%a)$", "_w0_%1") end
  if p.kpar then name = name:gsub("_(%a%a)$", "_kp_%1") end
  -- BM = 128: each consumer takes 64 rows and all BN columns (BM = 256: 128
  -- rows, two blocks of 64); BM = 64: both take the 64 rows, each half of
  -- the columns
  local split_m = p.bm >= 128
  local mb = split_m and p.bm // 128 or 1
  -- (kpar: each consumer the whole tile, on its half of the k-tiles)
  local wn = (split_m or p.kpar) and p.bn or p.bn // 2
  -- (the chunk buffers: ec columns a row when TMA stores them row after row,
  -- else ec rounded up to whole 64-column swizzle atoms)
  local rows = tst and ec % 64 ~= 0
  local smem = p.stages * (p.bm + p.bn) * 64 * 2 + 2 * 64 * (rows and ec or (ec + 63) // 64 * 64) * 2
               + (p.kpar and 2 * 64 * p.bn * 4 or 0) + 1024
  -- plain: the `_pl` twin's source (no epilogue terms compiled in)
  local function source(vname, plain)
    return COMMON .. wgmma(wn, ab, kn and 1 or 0) .. subst(WG_KERNEL, { params = params(dt),
      name = vname, T = T, ab = ab, bm = p.bm, bn = p.bn, stages = p.stages, wn = wn, cl = cl,
      sk = sk, ec = ec, mb = mb, w0 = p.w0 and "true" or "false",
      tst = tst and "true" or "false",
      mca = p.share_a and "true" or "false", kpar = p.kpar and "true" or "false",
      plain = plain and "true" or "false",
      es = esize(dt),
      roles = split_m and (64 * mb) .. " rows each" or "64 columns each",
      a_off = split_m and string.format("cw * %d * 128", 64 * mb) or "0",
      -- (kn: WN / 64 subtiles of 8 KB)
      b_off = (split_m or p.kpar) and "0" or kn and string.format("cw * %d * 128", wn)
              or string.format("cw * %d * 128", wn),
      kn = kn and "true" or "false", b_desc = kn and "kp_wg_desc_mn" or "kp_wg_desc",
      b_step = kn and "128" or "2", tname = kn and "_t" or "",
      row_base = split_m and string.format("cw * %d", 64 * mb) or "0",
      col_base = (split_m or p.kpar) and "0" or string.format("cw * %d", wn),
    })
  end
  local forms = kn and 2 or 1
  local function entry(vname, plain)
    return {
      name = vname, dtype = dt, params = p, targets = { "sm_90a" },
      block = 384, smem = smem, align = 16, forms = forms, plain = plain,
      min_sm = 90, max_sm = 90, rank = p.rank, rate = p.rate,
      -- aux: the TMA k-box, + GEMM_SHARE_A where the cluster shares A, + GEMM_STORE_D
      -- and the store box where TMA stores D (runtime/ops.c)
      tile = { m = p.bm, n = p.bn, batch = 1 }, persistent = sk == 1 and 1 or nil,
      aux = 64 + (p.share_a and GEMM_SHARE_A or 0) + (tst and GEMM_STORE_D + (ec // 8 << 8) or 0),
      cluster = cl > 1 and cl or nil, split = sk > 1 and sk or nil,
      min = { m = p.min_m, n = p.min_n, k = p.min_k }, -- (absent bounds: none)
      max = { m = p.max_m, n = p.max_n, k = p.max_k },
      source = source(vname, plain),
    }
  end
  local general = entry(name, false)
  if p.twin then
    -- plain calls take the twin (same rank, rate and reach): the general one
    -- ranks a step lower for them
    general.prefer = { forms = forms, rank = p.rank - 1 }
    gemm_variant(entry((name:gsub("_(%a%a)$", "_pl_%1")), true))
  end
  gemm_variant(general)
end

-- twin = true: also a plain-only `_pl` twin, picked for calls without
-- epilogue terms (the tiles ranked for m <= 128, where the general twin's
-- unused terms code cost 0.5-1.6 us, 3-8%: 128 x 4096 x 11008 31.4 against
-- 29.8 us, 128 x 14336 37.6-38.4 against 36.7-37.7; H200, bench/NOTES.md 74;
-- and the fill group's tiles picked at m = 256-2048, whose one- and two-
-- round shapes gain 1-3 us: 256 x 11008 x 4096 37.1-37.4 against 39.4-40.0
-- us, 512 x 4096 x 4096 28.5-28.7 against 29.5-29.6, 256 x 14336 46.3
-- against 47.5, level from m = 1024; bench/NOTES.md 75)
for _, dt in ipairs({ "f16", "bf16" }) do
  -- the epilogue through shared memory (`_e`) ran 4-14% faster than the
  -- stores from the accumulator registers at m, n >= 4096 (H100, item 27)
  -- w0 (one stage held a consumer): 184.3-185.0 against 186.2-186.9 us at 4096^3, 1539-1603
  -- against 1555-1605 at 8192^3 (H100, bf16, seventeenth session, calls 1-2)
  --
  -- FILL: one rank for the persistent tiles of every width.  Among equal
  -- ranks the selection takes the tile whose rounds over the device's SMs
  -- take the least time, work / rate (runtime/select.c, kp_entry_fill): at
  -- m = 256, n = 11008 64x256 makes 172 tiles, two rounds on 132 SMs, where
  -- 128x176 makes 126, one round (43.6 against 59.9 us, 0.93x cuBLAS
  -- against 0.67x; H100, twenty-fourth session, call 3); cuBLAS's own tiles
  -- there are 168 columns wide, 112 to 192 at m = 256-2048.  Equal times go
  -- to the fewer tiles: 4096^3 keeps 128x256 (w0), where 128x128 takes as
  -- long in twice the tiles.  rate: each tile's work per unit of time, per
  -- mille of 128x256 (w0)'s, from call 3's every-tile runs at m >= 1024
  -- (128x64 at about half: its 128 tiles win at m = 256, n = 4096 alone).
  local FILL = 960
  emit_wg(dt, { bm = 128, bn = 256, stages = 3, ec = 256, w0 = true, rank = FILL })
  emit_wg(dt, { bm = 128, bn = 256, stages = 4, cluster = 2, ec = 128, rank = 910, min_m = 1024 })
  emit_wg(dt, { bm = 128, bn = 256, stages = 4, ec = 128, rank = 900, min_m = 1024 })
  -- EXPERIMENT (branch gemm-256x128): cuBLAS's 4096^3 tile shape, each
  -- consumer 128 rows (two m64n128 wgmmas a k-step)
  emit_wg(dt, { bm = 256, bn = 128, stages = 4, ec = 128, rank = 890, min_m = 1024 })
  emit_wg(dt, { bm = 128, bn = 128, stages = 6, ec = 128, rank = FILL, rate = 960, twin = true })
  emit_wg(dt, { bm = 128, bn = 128, stages = 6, cluster = 2, ec = 128, rank = 840, min_m = 512 })
  -- (64x256 with 5 stages leads the m <= 64 group below; this twin, a stage
  -- less and 2% slower there (H200, call 6), is the fill group's)
  emit_wg(dt, { bm = 64, bn = 256, stages = 4, rank = FILL, rate = 900, max_m = 256 })
  emit_wg(dt, { bm = 128, bn = 224, stages = 4, ec = 112, rank = FILL, rate = 960, twin = true })
  emit_wg(dt, { bm = 128, bn = 192, stages = 4, ec = 192, rank = FILL, rate = 980 })
  emit_wg(dt, { bm = 128, bn = 176, stages = 4, ec = 176, rank = FILL, rate = 970, twin = true })
  -- cuBLAS's tile at n = 11008 (66 column tiles: 132 at m = 256): level
  -- with 176 at one round, 2.4-3.1% faster from m = 512 (H100, call 6), so
  -- 176's rate; the epilogue's odd n8 block goes by stmatrix .x2
  emit_wg(dt, { bm = 128, bn = 168, stages = 4, ec = 168, rank = FILL, rate = 970, twin = true })
  -- (its epilogue by the store warps: by TMA, 128x64 ran 4096^3 in 301.5 us
  -- against 283.9, 1024 x 11008 x 4096 in 204.5 against 190.8 -- each tile's
  -- store queued behind the next tile's loads, its buffer held meanwhile --
  -- where the wider tiles gained 1-8%; H200, forty-second session, call 5)
  emit_wg(dt, { bm = 128, bn = 64, stages = 8, ec = 64, tst = false, rank = FILL, rate = 550,
                twin = true })
  -- split-K for m <= 128: a 128x64 tile in 2 CTAs fills 132 SMs at n <= 4352
  -- (H200, m = 128: 0.86x cuBLAS at n = k = 4096, 0.99x at k = 11008, where
  -- 128x128 in 4 CTAs ran 0.59x: only 30 clusters of 4 fit at once); at m =
  -- 256 it ran 0.56x / 0.75x (k = 4096 / 11008; H100, twenty-fourth session)
  emit_wg(dt, { bm = 128, bn = 64, stages = 8, split = 2, rank = 965, max_m = 128, max_n = 4352,
                twin = true })
  emit_wg(dt, { bm = 128, bn = 128, stages = 6, split = 2, rank = 800, max_m = 256 })
  -- m = 128: cuBLAS's own shape, 64x64 tiles, 13 stages of k 64, no split
  -- (H100, bf16, 2026-11-26, bench/NOTES.md 41).  n = k = 4096 alone,
  -- three runs on each of two GPUs: 19.4-19.6 us, 0.96-0.97x cuBLAS
  -- (128x64 k2 0.83-0.84x; the L2 bytes were not it: ncu 95 MB for 64x64,
  -- 105-109 for k2, 95-97 for cuBLAS); inside full table runs 0.80-0.97x,
  -- where cuBLAS holds steady (a k loop rotated per tile-column did not
  -- steady it).  k = 11008: k2 1.04-1.06x, 64x64 0.97-1.05x, hence k <= 8K;
  -- n = 11008 / 14336: 64x256 (0.96 / 0.94x against 0.92 / 0.85x).  Our
  -- 2-CTA B multicast ran slower (64x64 c2 0.74-0.94x, 64x128 c2
  -- 0.79-0.91x; not built) and moved more L2 bytes, not fewer (108 MB)
  -- Since the forty-third session its two consumers split the k-tiles by
  -- parity (`_kp`), each issuing a whole m64n64 wgmma a k16 step, where each
  -- issued m64n32 for half the columns: half the wgmmas, A read once a
  -- k-tile (cuBLAS's 64x64 kernel issues as many HGMMA.64x64x16).  Pinned
  -- beside the two-halves tile (H200, call 10): 128 x 4096^2 15.6-16.1
  -- against 16.2-17.1 us, 128 x 4096 x 8192 25.0-25.1 against 26.7-26.9,
  -- 128 x 2048 x 4096 14.8-14.9 against 15.5-15.6; one stage fewer (12)
  -- for the two 16 KB buffers of consumer 1's sums.  The two-halves tile
  -- stays for the tuner
  emit_wg(dt, { bm = 64, bn = 64, stages = 12, kpar = true, rank = 968, max_m = 128, max_n = 4352,
                max_k = 8192, twin = true })
  emit_wg(dt, { bm = 64, bn = 64, stages = 13, rank = 250, max_m = 128, max_n = 4352,
                max_k = 8192, twin = true })
  -- m = 65..128 (m <= 64 takes the split above): column widths whose tiles
  -- fill 132 SMs at n = 11008 (88: 126 tiles) and 14336 (112: 128), where
  -- 128x128 leaves 46 / 20 SMs idle.  kp tune on an H200 (twenty-sixth
  -- session, call 3): n = 11008 29.1 against 128x128's 30.7 us, n = 14336
  -- 35.8 against 37.0.  Rates from those runs, each tile's elements a
  -- microsecond at m = 128 against 128x128's there: the fill tie-break then
  -- takes 88 at 11008, 112 at 12288-14336, and keeps 128x64 at 8192 (23.5
  -- us against 88's 24.3)
  emit_wg(dt, { bm = 128, bn = 88, stages = 6, ec = 88, rank = FILL, rate = 695, max_m = 128,
                twin = true })
  emit_wg(dt, { bm = 128, bn = 112, stages = 6, ec = 112, rank = FILL, rate = 867, max_m = 128,
                twin = true })
  -- for the tuner: a cluster whose CTAs take side-by-side tiles and share A
  -- by multicast (`_a2`; cuBLAS's kernels at m = 128 are these shapes: 64x64
  -- 13 stages and 112 columns x 128 rows, 2 CTAs sharing A).  Ours: 128x112
  -- level with its plain twin (35.7 against 35.9 us at n = 14336); 64x64
  -- (m <= 64 below) 19.9 against 16.4 at m = 128, n = k = 4096; 4-CTA
  -- clusters and 128x128 / 128x88 pairs lost everywhere (H200, call 2) and
  -- are not built
  emit_wg(dt, { bm = 128, bn = 112, stages = 6, cluster = 2, share_a = true, ec = 112,
                rank = 700, max_m = 128 })
  -- B as (k, n): wgmma's transposed-B descriptors over 64-column panels,
  -- so tiles of 64, 128, 192 or 256 columns; one rank as for (n, k), with
  -- (n, k)'s rates: the pick was the fastest pinned kn tile at all 11 of
  -- call 9's shapes, m = 128-4096 (H100, twenty-fourth session)
  emit_wg(dt, { bm = 128, bn = 256, stages = 3, ec = 256, rank = FILL, form = "kn" })
  emit_wg(dt, { bm = 128, bn = 256, stages = 4, ec = 128, rank = 900, min_m = 1024, form = "kn" })
  emit_wg(dt, { bm = 128, bn = 128, stages = 6, ec = 128, rank = FILL, rate = 960, form = "kn" })
  emit_wg(dt, { bm = 128, bn = 192, stages = 4, ec = 192, rank = FILL, rate = 980, form = "kn" })
  emit_wg(dt, { bm = 128, bn = 64, stages = 8, ec = 64, tst = false, rank = FILL, rate = 550,
                form = "kn" })
  -- split-K for B as (k, n), as for (n, k): m = 128, n = k = 4096 runs 18.9 us
  -- (0.91x cuBLAS) where 128x128 ran 31.2 us (0.55x; H200, 2026-11-26); 128x64
  -- without the split ran it in 19.4 us against 21.1 (H100, call 9), so it
  -- was kept to m <= 64 until the fortieth session: on an H200 (call 13,
  -- pinned) the split leads at m = 96-128 in both dtypes -- 128 x 4096²
  -- 17.2 against 19.3-19.7 us, 128 x 4096 x 11008 31.3-31.5 against
  -- 41.0-41.8 (0.97-0.99x cuBLAS against 0.74-0.76), 128 x 2048 x 4096
  -- 15.8-16.1 against 18.9-19.1
  emit_wg(dt, { bm = 128, bn = 64, stages = 8, split = 2, rank = 965, max_m = 128, max_n = 4352,
                form = "kn" })
  -- m = 17..64, n <= 4352, k >= 2048: 64x64 split over 2 CTAs, its 2 x 64
  -- CTAs where the unsplit tile has 64 (fortieth session, H200, bf16,
  -- pinned beside cuBLAS: 64 x 4096 x 11008 29.0 us, 1.01-1.04x, against
  -- the 64x128 split over 4 CTAs' 38.0 that it replaces -- 4-CTA clusters
  -- do not all fit at once -- and the unsplit 64x64's 37.1; m = 32 17.6
  -- against 18.9 at n = k = 4096, m = 64 level there: 16.4 against 16.2)
  emit_wg(dt, { bm = 64, bn = 64, stages = 13, split = 2, rank = 969, max_m = 64, max_n = 4352,
                min_k = 2048, twin = true })
  -- m = 17..64 past that: one rank of 64-row tiles, the fill tie-break
  -- between them (the fill group's 128-row tiles run their rows half empty
  -- there: 128x88 44.2 against 64x256's 32.0 us at m = 64, n = 11008, H200).
  -- 64x64 sharing A in 2-CTA clusters while its tiles take one round (n <=
  -- 8448: 19.7 against 27.0 us at n = 5120, 22.6 against 29.2 at 8192), then
  -- 64x256 (n >= 11008 at m = 32-64: the best tile on both GPUs, but the H100
  -- at m = 64, n = 14336: 48.2 against the A-sharing 64x64's 46.3).  Rates
  -- from those runs (a 64x64 tile's time is ~0.7 of a 64x256 tile's at m <=
  -- 64, not a quarter)
  emit_wg(dt, { bm = 64, bn = 64, stages = 13, cluster = 2, share_a = true, rank = 966, rate = 400,
                min_n = 7168, max_m = 64, twin = true })
  emit_wg(dt, { bm = 64, bn = 256, stages = 5, rank = 966, rate = 1000, max_m = 64, twin = true })
  -- cuBLAS's shapes there (its kernels at m = 64: 112 columns, 9 stages at
  -- n = 11008; 144, 8 at 14336; one round of fewer CTAs than SMs, each with
  -- a deeper ring than 64x256's 5 stages).  Fortieth session, H200, bf16,
  -- pinned beside cuBLAS: n = 11008 96 columns 29.0 us, 112 29.4, 64x256
  -- 32.4 (cuBLAS 26.8-27.0); n = 14336 112 34.0 (1.03x), 64x256 36.5, 96
  -- (two rounds) 42.2; m = 48, n = 11008 27.7 / 28.5 against 31.8.  Rates
  -- from the one-round times at 11008 against 64x256's; 144 columns (8
  -- stages) and these tiles sharing A over 2-CTA clusters ran no better.
  -- Below n = 7168 96 columns beat the A-sharing 64x64 (call 5: n = 5120
  -- 18.4 against 20.6 us, 6144 19.4 against 20.0; 8192 24.7 against 23.2),
  -- hence its min_n; split pairs of 96-144 columns lost at n = 5120-11008
  emit_wg(dt, { bm = 64, bn = 96, stages = 11, rank = 966, rate = 419, max_m = 64, twin = true })
  emit_wg(dt, { bm = 64, bn = 112, stages = 10, rank = 966, rate = 482, max_m = 64, twin = true })
end

-- ---- skinny m (decode): tensor-core GEMV, B streamed once --------------------
-- m <= 16, B as (n, k): the weight read is the whole cost.  The roles swap:
-- mma.sync m16n8k16 takes 16 rows of B as its A operand and the (up to 16)
-- rows of A as its B operand, so D^T = B A^T comes out 16 columns of D at a
-- time.  Since a dot product may add its terms in any order, k is permuted
-- alike in both operands: lane (g, t) loads 16 bytes of B rows g and g + 8
-- and of A row g at k = 8t .. 8t + 7 of each 32-wide chunk, and those eight
-- values are the fragment slots {2t, 2t+1, 2t+8, 2t+9} of two k16 steps.
-- Every load is a whole 16-byte vector (64 contiguous bytes per row and
-- quad of lanes), U chunks are loaded before they are used, the W warps of a
-- block split K and add their partial tiles in shared memory.
-- 8 elements of a row from column k (zeros past `rows` rows and K columns)
local GEMV_LD = [[
#ifndef KP_GEMV_LD
#define KP_GEMV_LD
template <class T>
__device__ __forceinline__ uint4 kp_gemv_ld(const T *p, long long ld, int row, int rows, int k,
                                            int K) {
  uint4 v = make_uint4(0u, 0u, 0u, 0u);
  if (row >= rows || k >= K) return v;
  const T *q = p + (long long)row * ld + k;
  if (k + 8 <= K) return __ldg((const uint4 *)q);
  kp_u32 x[4] = {0u, 0u, 0u, 0u}; // the row's last, partial vector (constant indices: registers)
#pragma unroll
  for (int j = 0; j < 8; j++)
    if (k + j < K) x[j / 2] |= (kp_u32)((const unsigned short *)q)[j] << (16 * (j % 2));
  return make_uint4(x[0], x[1], x[2], x[3]);
}
#endif
]]

-- one m16n8k16 step of D^T += B A^T (${ab}: the operands' type)
local GEMV_MMA = [[
__device__ __forceinline__ void kp_gemv_mma(float *c, kp_u32 a0, kp_u32 a1, kp_u32 a2, kp_u32 a3,
                                            kp_u32 b0, kp_u32 b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.${ab}.${ab}.f32 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// The W warps' partial tiles added and stored: each warp's acc goes to
// red[W][NT MT 4][32] (shared memory no warp still reads), then c[q] of
// (column tile j, m-tile i) in lane (g, t) is D row 8i + 2t + (q & 1),
// column n0 + 16j + g + 8 (q >> 1).
template <class T, int W, int NT, int MT>
__device__ __forceinline__ void kp_gemv_finish(const float (*acc)[4], float (*red)[NT * MT * 4][32],
                                               int b, int n0, const void *C, long long ldc,
                                               long long sC, void *D, long long ldd, long long sD,
                                               const T *bias, int M, int N, float alpha,
                                               float beta, int act, int out_f32) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < NT * MT; i++)
#pragma unroll
    for (int q = 0; q < 4; q++) red[warp][i * 4 + q][lane] = acc[i][q];
  __syncthreads();
  const long long es = out_f32 ? 4 : sizeof(T);
  const void *Cb = C ? (const void *)((const char *)C + b * sC * es) : C;
  void *Db = (char *)D + b * sD * es;
  for (int e = threadIdx.x; e < NT * MT * 4 * 32; e += W * 32) {
    const int iq = e / 32, l = e % 32, j = iq / 4 / MT, i = iq / 4 % MT, q = iq % 4;
    float v = 0.f;
#pragma unroll
    for (int w = 0; w < W; w++) v += red[w][iq][l];
    const int m = 8 * i + 2 * (l % 4) + (q & 1), n = n0 + 16 * j + l / 4 + 8 * (q >> 1);
    if (m < M && n < N)
      kp_gemm_store1<T>(v, m, n, Cb, ldc, Db, ldd, bias, alpha, beta, act, out_f32);
  }
}
// The TMA GEMV's epilogue where the call is not plain (C, bias, an
// activation or an f32 D): the block's product staged in shared memory,
// o[m][c] = D's (m, n0 + c) before the terms, then stored by the block's
// threads element by element, in loops kept rolled.  The code runs once a
// block, after B has streamed through L2, so each instruction is fetched
// from DRAM: the per-fragment form unrolled every term's code eight times
// (6,700 SASS lines against 1,400; bench/NOTES.md 74).  Of a cluster of CL
// CTAs, rank r stores the columns of warp tiles r, r + CL, ...
template <class T, int RB, int ON>
__device__ __forceinline__ void kp_gemv_store_tile(const float (*o)[ON], int n0, const void *Cb,
                                                   long long ldc, void *Db, long long ldd,
                                                   const T *bias, int M, int N, float alpha,
                                                   float beta, int act, int out_f32, int cl,
                                                   int rank) {
#pragma unroll 1
  for (int u = threadIdx.x; u < M * RB; u += blockDim.x) {
    const int m = u / RB, c = u % RB;
    if (c / 16 % cl == rank && n0 + c < N)
      kp_gemm_store1<T>(o[m][c], m, n0 + c, Cb, ldc, Db, ldd, bias, alpha, beta, act, out_f32);
  }
}
]]

local GEMV_KERNEL = [[
// ${name}: m <= ${mmax}, ${nt} x 16 columns, ${w} warps splitting K, ${u} chunks of 32 in
// flight per warp
extern "C" __global__ void __launch_bounds__(${w} * 32)
${name}(${params}) {
  kp_grid_wait(); // PDL: the grid before has finished (kp_device.cuh); no early trigger
  constexpr int W = ${w}, U = ${u}, MT = ${mt}, NT = ${nt};
  __shared__ float red[W][NT * MT * 4][32];
  const int tiles_n = (N + 16 * NT - 1) / (16 * NT);
  const int b = blockIdx.x / tiles_n, n0 = blockIdx.x % tiles_n * 16 * NT;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const ${T} *Ab = A + (sA ? b * sA : 0), *Bb = B + (sB ? b * sB : 0) + (long long)n0 * ldb;
  float acc[NT * MT][4]; // [tile j of 16 columns][m-tile i]
#pragma unroll
  for (int i = 0; i < NT * MT; i++) acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0.f;
  const int chunks = (K + 31) / 32, nrows = N - n0;
  for (int c0 = warp; c0 < chunks; c0 += W * U) {
    uint4 bv[U][NT][2], av[U][MT];
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k = (c0 + u * W) * 32 + 8 * t;
#pragma unroll
      for (int j = 0; j < NT; j++) {
        bv[u][j][0] = kp_gemv_ld(Bb, ldb, 16 * j + g, nrows, k, K);
        bv[u][j][1] = kp_gemv_ld(Bb, ldb, 16 * j + g + 8, nrows, k, K);
      }
#pragma unroll
      for (int i = 0; i < MT; i++) av[u][i] = kp_gemv_ld(Ab, lda, 8 * i + g, M, k, K);
    }
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int j = 0; j < NT; j++)
#pragma unroll
        for (int i = 0; i < MT; i++) {
          const uint4 x = bv[u][j][0], y = bv[u][j][1], a = av[u][i];
          kp_gemv_mma(acc[j * MT + i], x.x, y.x, x.y, y.y, a.x, a.y);
          kp_gemv_mma(acc[j * MT + i], x.z, y.z, x.w, y.w, a.z, a.w);
        }
  }
  kp_gemv_finish<${T}, W, NT, MT>(acc, red, b, n0, C, ldc, sC, D, ldd, sD, bias, M, N, alpha, beta,
                                  act, out_f32);
}
]]

local function emit_gemv(dt, p)
  local nt = p.nt or 1
  local name = string.format("gemm_%s_gemv_m%d_n%d_w%d_u%d_nk", dt, p.mmax, 16 * nt, p.w, p.u)
  gemm_variant {
    name = name, dtype = dt, params = p, block = p.w * 32, align = 16, forms = 1,
    rank = p.rank, tile = { n = 16 * nt, batch = 1 }, max = { m = p.mmax },
    source = COMMON .. GEMV_LD .. subst(GEMV_MMA .. GEMV_KERNEL, { params = params(dt),
      name = name, T = ctype(dt), ab = dt == "bf16" and "bf16" or "f16",
      w = p.w, u = p.u, mt = p.mmax // 8, mmax = p.mmax, nt = nt,
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do
  emit_gemv(dt, { mmax = 8, w = 8, u = 4, rank = 1010 })
  emit_gemv(dt, { mmax = 16, w = 8, u = 4, rank = 1000 })
  emit_gemv(dt, { mmax = 16, nt = 2, w = 8, u = 2, rank = 990 })
  emit_gemv(dt, { mmax = 8, nt = 2, w = 4, u = 4, rank = 990 })
end

-- The same product fed through a ring (`gemm_<dt>_gemv_m<MM>_n<16 NT>_w<W>_s<S>_nk`):
-- above, each warp issues U chunks' loads into registers, waits for all of
-- them and computes, so its loads in flight fall to none once a round
-- (NOTES 25: at 32-117 MB both this kernel and cuBLAS sat at 55-78% of the
-- copy rate on H200, latency-bound).  Here each warp keeps S - 1 chunks of
-- 32 k (16 rows of B, 8 MT rows of A, 64 bytes a row) in flight through a
-- ring of its own (cp.async with zero fill past N, M and K; no block-wide
-- barrier in the loop), reading them back in the fragment order above.
local GEMV_RING_KERNEL = [[
// ${name}: m <= ${mmax}, ${nt} x 16 columns a block, ${w} warps splitting K, each through a
// ring of ${stages} 32-wide k chunks
extern "C" __global__ void __launch_bounds__(${w} * 32)
${name}(${params}) {
  kp_grid_wait(); // PDL: the grid before has finished (kp_device.cuh); no early trigger
  constexpr int W = ${w}, S = ${stages}, MT = ${mt}, NT = ${nt};
  constexpr int RB = 16 * NT, ST = (RB + 8 * MT) * 32; // a stage: B's RB rows, then A's 8 MT
  constexpr int NV = (RB + 8 * MT) * 4 / 32;           // 16-byte vectors a lane copies a stage
  static_assert(W * S * ST * 2 >= W * NT * MT * 4 * 32 * 4, "the partial sums fit in the ring");
  extern __shared__ __align__(128) unsigned char kp_dyn[];
  const int tiles_n = (N + RB - 1) / RB;
  const int b = blockIdx.x / tiles_n, n0 = blockIdx.x % tiles_n * RB;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  ${T} *ring = (${T} *)kp_dyn + warp * S * ST;
  const ${T} *Ab = A + (sA ? b * sA : 0), *Bb = B + (sB ? b * sB : 0) + (long long)n0 * ldb;
  // lane's vector h of a stage: row 8 h + g (B's rows, then A's), k 8 t of the chunk
  const ${T} *src[NV];
  bool live[NV];
#pragma unroll
  for (int h = 0; h < NV; h++) {
    const int r = 8 * h + g;
    live[h] = r < RB ? r < N - n0 : r - RB < M;
    src[h] = !live[h] ? Bb : r < RB ? Bb + (long long)r * ldb + 8 * t : Ab + (long long)(r - RB) * lda + 8 * t;
  }
  auto load = [&](int s, int c) { // chunk c (k 32 c ..) into stage s
    ${T} *st = ring + s * ST;
    const int k = 32 * c + 8 * t, left = K - k;
    const int bytes = left >= 8 ? 16 : left > 0 ? 2 * left : 0;
#pragma unroll
    for (int h = 0; h < NV; h++)
      kp_cp16(st + (8 * h + g) * 32 + 8 * t, live[h] && bytes ? src[h] + 32 * c : Bb,
              live[h] ? bytes : 0);
  };
  const int chunks = (K + 31) / 32, nq = warp < chunks ? (chunks - warp + W - 1) / W : 0;
#pragma unroll
  for (int s = 0; s < S - 1; s++) {
    if (s < nq) load(s, warp + W * s);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  float acc[NT * MT][4]; // [tile j of 16 columns][m-tile i]
#pragma unroll
  for (int i = 0; i < NT * MT; i++) acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0.f;
  for (int q = 0; q < nq; q++) {
    asm volatile("cp.async.wait_group %0;" ::"n"(S - 2) : "memory");
    __syncwarp(); // chunk q landed for every lane; every lane is done with stage (q - 1) % S
    if (q + S - 1 < nq) load((q + S - 1) % S, warp + W * (q + S - 1));
    asm volatile("cp.async.commit_group;" ::: "memory");
    const ${T} *st = ring + q % S * ST;
    uint4 a[MT];
#pragma unroll
    for (int i = 0; i < MT; i++) a[i] = *(const uint4 *)(st + (RB + 8 * i + g) * 32 + 8 * t);
#pragma unroll
    for (int j = 0; j < NT; j++) {
      const uint4 x = *(const uint4 *)(st + (16 * j + g) * 32 + 8 * t);
      const uint4 y = *(const uint4 *)(st + (16 * j + g + 8) * 32 + 8 * t);
#pragma unroll
      for (int i = 0; i < MT; i++) {
        kp_gemv_mma(acc[j * MT + i], x.x, y.x, x.y, y.y, a[i].x, a[i].y);
        kp_gemv_mma(acc[j * MT + i], x.z, y.z, x.w, y.w, a[i].z, a[i].w);
      }
    }
  }
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads(); // every warp is done with the ring: it holds the partial sums now
  kp_gemv_finish<${T}, W, NT, MT>(acc, (float (*)[NT * MT * 4][32])kp_dyn, b, n0, C, ldc, sC, D,
                                  ldd, sD, bias, M, N, alpha, beta, act, out_f32);
}
]]

local function emit_gemv_ring(dt, p)
  local nt = p.nt or 1
  local name = string.format("gemm_%s_gemv_m%d_n%d_w%d_s%d_nk", dt, p.mmax, 16 * nt, p.w, p.stages)
  local mt = p.mmax // 8
  gemm_variant {
    name = name, dtype = dt, params = p, block = p.w * 32, align = 16, forms = 1,
    rank = p.rank, tile = { n = 16 * nt, batch = 1 }, max = { m = p.mmax },
    smem = p.w * p.stages * (16 * nt + 8 * mt) * 32 * 2,
    source = COMMON .. subst(GEMV_MMA .. GEMV_RING_KERNEL, { params = params(dt),
      name = name, T = ctype(dt), ab = dt == "bf16" and "bf16" or "f16",
      w = p.w, stages = p.stages, mt = mt, nt = nt, mmax = p.mmax,
    }),
  }
end

-- The ring GEMVs (every target: plain cp.async).  At m = 16 a ring of 16
-- columns ran 19% slower than at m = 1 (H200; A's 16 rows cost as much L2
-- traffic as B's 16); 32 columns halve that, and the ring of 4 in 8 warps
-- ran 5-10% faster than the register GEMV at m = 16 on all four of the
-- issue's shapes (bench/results/2026-11-26-s7/f/gemv.log): ranked
-- for 9 <= m <= 16.  At m <= 8 the register GEMV stays (the rings within
-- +-3% of it, either way); 8-row m with 32 columns is for the tuner.  16
-- columns in 8 warps and 32 columns in 4 warps lost and were dropped, as
-- did blocks of 64-128 columns sharing one ring, K split over a cluster
-- where they are few (cuBLAS's shape at m = 16: 88 blocks of 128 columns):
-- 10-40% slower on H100 (bench/NOTES.md 37).
for _, dt in ipairs({ "f16", "bf16" }) do
  emit_gemv_ring(dt, { mmax = 16, nt = 2, w = 8, stages = 4, rank = 1005 })
  emit_gemv_ring(dt, { mmax = 8, nt = 2, w = 4, stages = 6, rank = 984 })
end

-- The TMA GEMV (`gemm_<dt>_gemv_m16_n<RB>_s<S>[_k<CL>]_tma_nk`, sm_90a):
-- cuBLAS's shape at m = 16 (ncu, bench/NOTES.md 37: 88 blocks of 128
-- columns, 11 stages, 70-72% of DRAM's peak where the GEMVs above reach
-- 57%), which cp.async could not feed (item 37).  A producer warp's one
-- thread loads each stage -- B's 64 k x RB columns and A's 64 k x 16 rows,
-- 128-byte swizzled, zeros past every edge -- completing on the stage's
-- `full` mbarrier; consumer warp w reads its 16 columns in the fragment
-- order above (16-byte chunk c of a 128-byte row r at c ^ (r % 8)) and
-- frees the stage on `empty`.  K over the CL CTAs of a cluster where the
-- blocks are few, partial tiles added through distributed shared memory.
local GEMV_TMA_KERNEL = [[
// ${name}: m <= 16, ${rb} columns a block (16 a consumer warp), K over ${cl} CTAs of a
// cluster, B and A through TMA into ${stages} stages
extern "C" __global__ void __launch_bounds__(${w} * 32 + 32, 1)
${name}(${params}) {
  kp_grid_wait(); // PDL: the grid before has finished (kp_device.cuh); no early trigger
  constexpr int W = ${w}, S = ${stages}, CL = ${cl}, RB = 16 * W, BK = 64, MT = 2;
  constexpr int B_BYTES = RB * BK * 2, ST = B_BYTES + 16 * BK * 2; // a stage: B, then A
  static_assert(ST % 1024 == 0, "128-byte swizzled stages stay 1024-byte aligned");
  static_assert(S * ST >= W * MT * 4 * 32 * 4, "the partial sums fit in the ring");
  __shared__ __align__(8) unsigned long long full[S], empty[S];
  extern __shared__ unsigned char kp_dyn[];
  // 1024-aligned, indexed from kp_dyn: its loads stay LDS (an integer round
  // trip made them generic loads)
  unsigned char *smem = kp_dyn + ((1024 - (kp_smem_addr(kp_dyn) & 1023)) & 1023);
  const int tiles_n = (N + RB - 1) / RB, tile = blockIdx.x / CL, rank = blockIdx.x % CL;
  const int b = tile / tiles_n, n0 = tile % tiles_n * RB;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int ktiles = (K + BK - 1) / BK, kt0 = rank * ktiles / CL;
  const int nq = (rank + 1) * ktiles / CL - kt0;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) kp_mbar_init(&full[s], 1), kp_mbar_init(&empty[s], W);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  float acc[MT][4];
#pragma unroll
  for (int i = 0; i < MT; i++) acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0.f;
  if (warp == W) { // the producer
    if (lane == 0)
      for (int q = 0; q < nq; q++) {
        const int s = q % S;
        if (q >= S) kp_mbar_wait(&empty[s], (q / S - 1) & 1); // its last readers are done
        kp_mbar_expect_tx(&full[s], ST);
        kp_tma_load3(smem + s * ST, &tmB, (kt0 + q) * BK, n0, sB ? b : 0, &full[s]);
        kp_tma_load3(smem + s * ST + B_BYTES, &tmA, (kt0 + q) * BK, 0, sA ? b : 0, &full[s]);
      }
  } else {
    for (int q = 0; q < nq; q++) {
      const int s = q % S;
      kp_mbar_wait(&full[s], (q / S) & 1);
      const unsigned char *sb = smem + s * ST, *sa = sb + B_BYTES;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        // lane (g, t) takes the stage's 16-byte chunk 2 t + h (the k order
        // need only agree between A and B); rows 16 warp + g (+ 8) and 8 i + g
        // are all g mod 8, so it sits at (2 t + h) ^ g: lanes g = 2 j, 2 j + 1
        // (a quarter warp) read even and odd chunks, 8 distinct bank groups
        const int c = (2 * t + h) ^ g;
        const uint4 x = *(const uint4 *)(sb + (16 * warp + g) * 128 + 16 * c);
        const uint4 y = *(const uint4 *)(sb + (16 * warp + g + 8) * 128 + 16 * c);
#pragma unroll
        for (int i = 0; i < MT; i++) {
          if (i > 0 && M <= 8 * i) break; // A's rows past M are zeros (warp-uniform)
          const uint4 a = *(const uint4 *)(sa + (8 * i + g) * 128 + 16 * c);
          kp_gemv_mma(acc[i], x.x, y.x, x.y, y.y, a.x, a.y);
          kp_gemv_mma(acc[i], x.z, y.z, x.w, y.w, a.z, a.w);
        }
      }
      __syncwarp(); // every lane has read the stage
      if (lane == 0) kp_mbar_arrive(&empty[s]);
    }
  }
#if ${cl} > 1
  __syncthreads(); // every stage is consumed: the ring takes this CTA's partial tiles
  float (*red)[MT * 4][32] = (float (*)[MT * 4][32])smem;
  if (warp < W)
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
      for (int e = 0; e < 4; e++) red[warp][i * 4 + e][lane] = acc[i][e];
  kp_cluster_sync(); // every CTA's partials are written
  if (warp < W && warp % CL == rank) // this CTA finishes warp tiles rank, rank + CL, ..
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
      for (int e = 0; e < 4; e++) {
        float v = 0.f;
#pragma unroll
        for (int r = 0; r < CL; r++) v += *(const float *)kp_map_rank(&red[warp][i * 4 + e][lane], r);
        acc[i][e] = v;
      }
#endif
  // c[e] of m-tile i in lane (g, t): D row 8i + 2t + (e & 1), column n0 + 16 warp + g + 8 (e >> 1)
  const long long es = out_f32 ? 4 : sizeof(${T});
  const void *Cb = C ? (const void *)((const char *)C + b * sC * es) : C;
  void *Db = (char *)D + b * sD * es;
  const bool mine = warp < W && (CL == 1 || warp % CL == rank);
  // plain calls (no C, bias or activation, a 16-bit D) store from the
  // fragments; with every term's code unrolled beside them the same stores
  // ran 0.3-0.5 us a call slower (bench/NOTES.md 74)
  if (!Cb && !bias && act == 0 && !out_f32) {
    if (mine)
#pragma unroll
      for (int i = 0; i < MT; i++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
          const int m = 8 * i + 2 * t + (e & 1), n = n0 + 16 * warp + g + 8 * (e >> 1);
          if (m < M && n < N) ((${T} *)Db)[(long long)m * ldd + n] = kp_from_f32<${T}>(alpha * acc[i][e]);
        }
  } else { // staged in the ring, past the partials (which other CTAs may still read)
    constexpr int RED = CL > 1 ? W * MT * 4 * 32 * 4 : 0, ON = RB + 4; // rows padded: no conflicts
    static_assert(RED + 16 * ON * 4 <= S * ST, "the staged product fits in the ring");
    float (*o)[ON] = (float (*)[ON])(smem + RED);
    if (CL == 1) __syncthreads(); // every stage is consumed: the ring takes the product
    if (mine)
#pragma unroll
      for (int i = 0; i < MT; i++)
#pragma unroll
        for (int e = 0; e < 4; e++) o[8 * i + 2 * t + (e & 1)][16 * warp + g + 8 * (e >> 1)] = acc[i][e];
    __syncthreads();
    kp_gemv_store_tile<${T}, RB, ON>(o, n0, Cb, ldc, Db, ldd, bias, M, N, alpha, beta, act,
                                     out_f32, CL, rank);
  }
#if ${cl} > 1
  kp_cluster_sync(); // no CTA leaves while another reads its partials
#endif
}
]]

local function emit_gemv_tma(dt, p)
  local cl, w = p.cl or 1, p.w or 8
  local name = string.format("gemm_%s_gemv_m16_n%d_s%d%s_tma_nk", dt, 16 * w, p.stages,
                             cl > 1 and "_k" .. cl or "")
  gemm_variant {
    name = name, dtype = dt, params = p, block = w * 32 + 32, align = 16, forms = 1,
    rank = p.rank, targets = { "sm_90a" }, min_sm = 90, max_sm = 90, aux = 64,
    tile = { m = 16, n = 16 * w, batch = 1 }, max = { m = 16, n = p.max_n },
    min = { n = p.min_n, k = p.min_k },
    cluster = cl > 1 and cl or nil, split = cl > 1 and cl or nil,
    smem = p.stages * (16 * w + 16) * 64 * 2 + 1024,
    source = COMMON .. subst(GEMV_MMA .. GEMV_TMA_KERNEL, { params = params(dt),
      name = name, T = ctype(dt), ab = dt == "bf16" and "bf16" or "f16", w = w,
      stages = p.stages, cl = cl, rb = 16 * w,
    }),
  }
end

-- Ranked where n >= 8192 (64+ blocks; H200, 2026-11-26, eighth session:
-- m = 1 / 16, k = 4096: n = 11008 30.6 / 31.3 us against the register and
-- ring GEMVs' 30.7 / 32.6, n = 14336 35.7 / 35.2 against 37.6 / 41.5; at
-- n = 4096 its 32 blocks leave most SMs idle: 19.6 against 14.8), as a
-- ring of 5 stages since the twenty-fifth session: two CTAs an SM, the
-- same bytes in flight in two streams.  kp tune, H100, bf16 (f16 alike),
-- calls 6 and 7 (bench/results/2026-11-28-s25/), us, against the 10-stage
-- ring: m = 1, n = 11008, k = 4096 34.5 / 34.5 (37.0 / 35.5), n = 14336
-- 43.4 / 43.4 (43.6 / 44.0); m = 16 34.9 / 34.9 (37.0 / 35.9), 43.3 / 43.4
-- (44.3 / 44.1).  cuBLAS, pinned side by side (gemm_bench --variants):
-- 37.2 against 35.3 at m = 16, n = 11008; 44.5 against 43.5 at n = 14336.
-- 64 columns a block with K over 2 CTAs of a cluster is ranked for n =
-- 4096..8191 at k >= 8192 (128 CTAs at n = 4096): m = 1, n = 4096, k = 11008
-- 35.8 / 36.0 against the register GEMV's 37.6 / 37.6 (cuBLAS 37.3-37.7),
-- m = 16 36.3 / 36.4 against the ring's 38.9 / 40.0; at k = 4096 the split
-- lost (17.2-17.6 against 16.3-17.0).  The other shapes (s3, s5 and the
-- 64-column rings over 1, 2, 4 CTAs) are for the tuner: within 1% of these
-- or behind.  Not measured on an H200 since (its 4.8 TB/s want more bytes
-- in flight, not fewer: the ring keeps them).  Since the thirty-ninth
-- session (H200, bench/results/2026-11-30-s39/ calls 5, 7 and 8, bf16, k =
-- 4096, pinned side by side) 64 columns a block for n = 8192..32767: m = 1
-- 22.1 / 26.1 / 32.7 / 37.5 / 47.1 / 59.9 us at n = 8192 / 11008 / 14336 /
-- 16896 / 22016 / 28672 against 128 columns' 22.6 / 26.9 / 32.6 / 38.2 /
-- 51.3 / 61.5, m = 16 alike (0-1 us ahead; 4.2 at 22016); past it 128
-- columns: 114.0 against 118.1 at n = 57344, level at 128256.
for _, dt in ipairs({ "f16", "bf16" }) do
  emit_gemv_tma(dt, { w = 4, stages = 5, rank = 1015, min_n = 8192, max_n = 32767 })
  emit_gemv_tma(dt, { stages = 5, rank = 1014, min_n = 8192 })
  emit_gemv_tma(dt, { w = 4, stages = 10, cl = 2, rank = 1016, min_n = 4096, max_n = 8191,
                      min_k = 8192 })
  emit_gemv_tma(dt, { stages = 10, rank = 959 })
  emit_gemv_tma(dt, { stages = 10, cl = 2, rank = 958 })
  emit_gemv_tma(dt, { stages = 10, cl = 4, rank = 957 })
  emit_gemv_tma(dt, { stages = 5, cl = 2, rank = 956 })
  emit_gemv_tma(dt, { w = 4, stages = 10, rank = 955 })
  emit_gemv_tma(dt, { stages = 3, rank = 953 })
  emit_gemv_tma(dt, { w = 4, stages = 5, cl = 2, rank = 951 })
  emit_gemv_tma(dt, { w = 4, stages = 5, cl = 4, rank = 950 })
  -- 48 columns a block where 64 leave SMs with one block of two (n =
  -- 8449..16896: 133-264 blocks) and 48 fill both in one wave (n <= 12672,
  -- 264 blocks on 132 SMs).  H200, forty-sixth session (bench/results/
  -- 2026-12-01-s46/ calls 4-9), pinned beside cuBLAS, two rounds, us, k =
  -- 4096: n = 11008 m = 1 25.5-25.7 against 64 columns' 26.0-26.2 (cuBLAS
  -- 25.6-26.0), m = 16 25.5-25.7 against 26.3-26.9; n = 14336 (299 blocks:
  -- two waves) 32.8-33.2 against 32.0-32.9.  Deeper k inside the range
  -- (calls 8-9, bf16): n = 11008 k = 8192 46.4-46.6 against 47.7-48.3, k =
  -- 5120 30.9-31.5 against 32.2; n = 9216 and 12288 level.  Not at n =
  -- 8192 (one block an SM either way): k = 4096 21.3-21.4 against 21.8, but
  -- k = 8192 37.5-39.8 against 37.7-38.0.  The others here (64 columns in
  -- 6 / 7 stages, 48 in 7, 80 and 96 in 5) are for the tuner: level or
  -- behind at both n.
  emit_gemv_tma(dt, { w = 3, stages = 5, rank = 1017, min_n = 8449, max_n = 12672 })
  emit_gemv_tma(dt, { w = 3, stages = 7, rank = 939 })
  emit_gemv_tma(dt, { w = 4, stages = 6, rank = 938 })
  emit_gemv_tma(dt, { w = 4, stages = 7, rank = 937 })
  emit_gemv_tma(dt, { w = 5, stages = 5, rank = 936 })
  emit_gemv_tma(dt, { w = 6, stages = 5, rank = 935 })
end

-- ---- skinny m, B as (k, n): CUDA-core GEMV ---------------------------------------
-- B's rows run along n, so a tensor-core fragment would need transposed
-- loads; at m <= 8 the FMAs (8 m per 16 bytes of B) keep up with memory.  A
-- block takes 32 columns: lane % 4 takes 8 of them, and each of the 64
-- (warp, lane / 4) groups 8 consecutive k-rows of every 512, so that a lane
-- loads 16 bytes from each of 8 rows of B and from each row of A; the groups'
-- partial sums meet through shuffles and shared memory.
local GEMV_KN_KERNEL = [[
template <class T> __device__ __forceinline__ void kp_gemv_unpack8(uint4 v, float *f) {
  kp_pair<T>::unpack(v.x, f[0], f[1]);
  kp_pair<T>::unpack(v.y, f[2], f[3]);
  kp_pair<T>::unpack(v.z, f[4], f[5]);
  kp_pair<T>::unpack(v.w, f[6], f[7]);
}

// ${name}: m <= ${mr}, B as (k, n), 32 columns a block of 8 warps, ${u} steps in flight
extern "C" __global__ void __launch_bounds__(256)
${name}(${params}) {
  kp_grid_wait(); // PDL: the grid before has finished (kp_device.cuh); no early trigger
  constexpr int MR = ${mr}, U = ${u};
  __shared__ float red[8][MR][32];
  const int tiles_n = (N + 31) / 32;
  const int b = blockIdx.x / tiles_n, n0 = blockIdx.x % tiles_n * 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int col = n0 + 8 * (lane % 4), grp = warp * 8 + lane / 4;
  const ${T} *Ab = A + (sA ? b * sA : 0), *Bb = B + (sB ? b * sB : 0);
  float acc[MR][8];
#pragma unroll
  for (int i = 0; i < MR; i++)
#pragma unroll
    for (int x = 0; x < 8; x++) acc[i][x] = 0.f;
  for (int k1 = 8 * grp; k1 < K; k1 += 512 * U) {
    uint4 bv[U][8], av[U][MR]; // U steps of 512 k-rows loaded before any is used
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k0 = k1 + 512 * u;
#pragma unroll
      for (int j = 0; j < 8; j++) bv[u][j] = kp_gemv_ld(Bb, ldb, k0 + j, K, col, N);
#pragma unroll
      for (int i = 0; i < MR; i++) av[u][i] = kp_gemv_ld(Ab, lda, i, M, k0, K);
    }
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
      for (int j = 0; j < 8; j++) {
        float bf[8];
        kp_gemv_unpack8<${T}>(bv[u][j], bf);
#pragma unroll
        for (int i = 0; i < MR; i++) {
          float af[8];
          kp_gemv_unpack8<${T}>(av[u][i], af); // (the compiler keeps one unpack per u, i)
#pragma unroll
          for (int x = 0; x < 8; x++) acc[i][x] += af[j] * bf[x];
        }
      }
  }
  // the 8 groups of a warp (lane bits 2..4), then the 8 warps
#pragma unroll
  for (int i = 0; i < MR; i++)
#pragma unroll
    for (int x = 0; x < 8; x++) {
      float v = acc[i][x];
      v += __shfl_xor_sync(0xffffffffu, v, 4);
      v += __shfl_xor_sync(0xffffffffu, v, 8);
      v += __shfl_xor_sync(0xffffffffu, v, 16);
      if (lane < 4) red[warp][i][8 * lane + x] = v;
    }
  __syncthreads();
  const void *Cb = C ? (const void *)((const char *)C + b * sC * (out_f32 ? 4 : ${es})) : C;
  void *Db = (char *)D + b * sD * (out_f32 ? 4 : ${es});
  for (int e = threadIdx.x; e < MR * 32; e += 256) {
    const int i = e / 32, n = n0 + e % 32;
    float v = 0.f;
#pragma unroll
    for (int w = 0; w < 8; w++) v += red[w][i][e % 32];
    if (i < M && n < N)
      kp_gemm_store1<${T}>(v, i, n, Cb, ldc, Db, ldd, bias, alpha, beta, act, out_f32);
  }
}
]]

local function emit_gemv_kn(dt, mr, u, rank)
  local name = string.format("gemm_%s_fma_m%d_u%d_kn", dt, mr, u)
  gemm_variant {
    name = name, dtype = dt, params = { mr = mr, u = u, form = "kn" }, block = 256, align = 16,
    forms = 2, rank = rank, tile = { n = 32, batch = 1 }, max = { m = mr },
    source = COMMON .. GEMV_LD .. subst(GEMV_KN_KERNEL, { params = params(dt),
      name = name, T = ctype(dt), es = esize(dt), mr = mr, u = u,
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do
  emit_gemv_kn(dt, 2, 4, 1010)
  emit_gemv_kn(dt, 8, 2, 1000)
end

-- ---- any call, any target: the element-aligned fallback -------------------------
-- 64 x 64 tiles, 4 warps of 32 x 32, BK = 32; A and B come in element by
-- element (any alignment, any leading dimension, B in either layout: kn is
-- transposed on its way into shared memory, so both are k-contiguous there),
-- then ldmatrix + mma.sync m16n8k16 as on every tensor-core path, and the
-- epilogue stores element by element.  Slow but never absent: every call of
-- f16/bf16 has this variant on every target.
-- mma.sync m16n8k16 and ldmatrix, shared by the fallback and the sm_80+ path

local SIMPLE_KERNEL = [[
// ${name}: B as ${layout}
extern "C" __global__ void __launch_bounds__(128)
${name}(${params}) {
  kp_grid_wait(); // PDL: the grid before has finished (kp_device.cuh); no early trigger
  constexpr int BM = 64, BN = 64, BK = 32, LD = BK + 8; // 80-byte rows: ldmatrix without conflicts
  __shared__ __align__(16) ${T} As[BM][LD], Bs[BN][LD];
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  int b, tm, tn;
  kp_gemm_tile<8>(blockIdx.x, tiles_m, tiles_n, b, tm, tn);
  const ${T} *Ab = A + (sA ? b * sA : 0), *Bb = B + (sB ? b * sB : 0);
  const int m0 = tm * BM, n0 = tn * BN, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int wm = warp / 2 * 32, wn = warp % 2 * 32;
  const ${T} zero = kp_from_f32<${T}>(0.f);
  float acc[2 * 4 * 4];
#pragma unroll
  for (int i = 0; i < 32; i++) acc[i] = 0.f;
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll 4
    for (int e = tid; e < BM * BK; e += 128) {
      const int r = e / BK, c = e % BK, m = m0 + r, k = k0 + c;
      As[r][c] = m < M && k < K ? Ab[(long long)m * lda + k] : zero;
    }
#pragma unroll 4
    for (int e = tid; e < BN * BK; e += 128) {
      ${load_b}
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      kp_u32 a[2][4], bf[4][2];
#pragma unroll
      for (int mi = 0; mi < 2; mi++)
        kp_ldsm_x4(a[mi], &As[wm + 16 * mi + lane % 16][kk + lane / 16 * 8]);
#pragma unroll
      for (int ni = 0; ni < 4; ni++)
        kp_ldsm_x2(bf[ni], &Bs[wn + 8 * ni + lane % 8][kk + lane / 8 % 2 * 8]);
#pragma unroll
      for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int ni = 0; ni < 4; ni++) kp_mma16816<${T}>(acc + 4 * (mi * 4 + ni), a[mi], bf[ni][0], bf[ni][1]);
    }
    __syncthreads();
  }
  const void *Cb = C ? (const void *)((const char *)C + b * sC * (out_f32 ? 4 : ${es})) : C;
  void *Db = (char *)D + b * sD * (out_f32 ? 4 : ${es});
  kp_gemm_epilogue<${T}, 2, 4, false>(acc, m0 + wm + lane / 4, n0 + wn + 2 * (lane % 4), M, N, Cb,
                                      ldc, Db, ldd, bias, alpha, beta, act, out_f32);
}
]]

local function emit_simple(dt, form)
  local name = string.format("gemm_%s_simple_64x64_%s", dt, form)
  local load_b = form == "nk" and [[const int r = e / BK, c = e % BK, n = n0 + r, k = k0 + c;
      Bs[r][c] = n < N && k < K ? Bb[(long long)n * ldb + k] : zero;]]
    or [[const int c = e / BN, r = e % BN, n = n0 + r, k = k0 + c; // coalesced along n
      Bs[r][c] = n < N && k < K ? Bb[(long long)k * ldb + n] : zero;]]
  gemm_variant {
    name = name, dtype = dt, params = { form = form, rank = -100 }, block = 128,
    forms = form == "nk" and 1 or 2, rank = -100, tile = { m = 64, n = 64, batch = 1 },
    source = COMMON .. subst(SIMPLE_KERNEL, { params = params(dt),
      name = name, T = ctype(dt), es = esize(dt),
      layout = form == "nk" and "(n, k)" or "(k, n)", load_b = load_b,
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do
  emit_simple(dt, "nk")
  emit_simple(dt, "kn")
end

-- ---- sm_80+: cp.async pipeline + ldmatrix + mma.sync --------------------------
-- BM x BN x 32 tiles, 8 warps (2 x 4, each (BM/2) x (BN/4)), STAGES k-tiles in
-- flight through cp.async (16-byte copies, zero-filled past M, N and K: any
-- shape), XOR-swizzled shared memory so that ldmatrix reads 8 rows without
-- bank conflicts: A (and B as (n, k)) rows of 64 bytes, chunk c of row r at
-- c ^ (r/2 % 4); B as (k, n) rows of BN*2 bytes, chunk c at c ^ (r % 8), read
-- with ldmatrix.trans.  16-byte alignment (cp.async's rule); the fragment
-- epilogue.  Every target from sm_80.
local MMA_KERNEL = [[
// ${name}: ${bm} x ${bn} x 32, ${stages} stages, B as ${layout}
extern "C" __global__ void __launch_bounds__(256)
${name}(${params}) {
  kp_grid_wait(); // PDL: the grid before has finished (kp_device.cuh); no early trigger
  constexpr int BM = ${bm}, BN = ${bn}, BK = 32, S = ${stages}, KN = ${kn};
  constexpr int WM = BM / 2, WN = BN / 4, MI = WM / 16, NI = WN / 8;
  constexpr int A_ST = BM * BK, B_ST = BN * BK; // elements per stage
  extern __shared__ __align__(128) unsigned char kp_dyn[];
  ${T} *sa = (${T} *)kp_dyn, *sb = sa + S * A_ST;
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  int b, tm, tn;
  kp_gemm_tile<8>(blockIdx.x, tiles_m, tiles_n, b, tm, tn);
  const ${T} *Ab = A + (sA ? b * sA : 0), *Bb = B + (sB ? b * sB : 0);
  const int m0 = tm * BM, n0 = tn * BN, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int wm = warp / 4 * WM, wn = warp % 4 * WN;
  const int ktiles = (K + BK - 1) / BK;
  // one k-tile into stage s: 16-byte chunks, zero past the edges
  auto load = [&](int s, int kt) {
    const int k0 = kt * BK;
#pragma unroll
    for (int i = tid; i < BM * 4; i += 256) {
      const int r = i / 4, c = i % 4, m = m0 + r, k = k0 + 8 * c;
      const int bytes = m < M && k < K ? min(16, 2 * (K - k)) : 0;
      kp_cp16(sa + s * A_ST + r * BK + 8 * (c ^ (r / 2 % 4)),
              bytes ? Ab + (long long)m * lda + k : Ab, bytes);
    }
    if (!KN) {
#pragma unroll
      for (int i = tid; i < BN * 4; i += 256) {
        const int r = i / 4, c = i % 4, n = n0 + r, k = k0 + 8 * c;
        const int bytes = n < N && k < K ? min(16, 2 * (K - k)) : 0;
        kp_cp16(sb + s * B_ST + r * BK + 8 * (c ^ (r / 2 % 4)),
                bytes ? Bb + (long long)n * ldb + k : Bb, bytes);
      }
    } else {
      constexpr int CH = BN / 8; // chunks per k-row
#pragma unroll
      for (int i = tid; i < BK * CH; i += 256) {
        const int r = i / CH, c = i % CH, k = k0 + r, n = n0 + 8 * c;
        const int bytes = k < K && n < N ? min(16, 2 * (N - n)) : 0;
        kp_cp16(sb + s * B_ST + r * BN + 8 * (c ^ (r % 8)),
                bytes ? Bb + (long long)k * ldb + n : Bb, bytes);
      }
    }
  };
  float acc[MI * NI * 4];
#pragma unroll
  for (int i = 0; i < MI * NI * 4; i++) acc[i] = 0.f;
#pragma unroll
  for (int s = 0; s < S - 1; s++) {
    if (s < ktiles) load(s, s);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  for (int kt = 0; kt < ktiles; kt++) {
    asm volatile("cp.async.wait_group %0;" ::"n"(S - 2) : "memory");
    __syncthreads(); // stage kt % S landed for every thread; stage (kt - 1) % S is free
    if (kt + S - 1 < ktiles) load((kt + S - 1) % S, kt + S - 1);
    asm volatile("cp.async.commit_group;" ::: "memory");
    const ${T} *as = sa + kt % S * A_ST, *bs = sb + kt % S * B_ST;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      kp_u32 af[MI][4], bf[NI][2];
#pragma unroll
      for (int mi = 0; mi < MI; mi++) {
        const int r = wm + 16 * mi + lane % 16, c = kk / 8 + lane / 16;
        kp_ldsm_x4(af[mi], as + r * BK + 8 * (c ^ (r / 2 % 4)));
      }
#pragma unroll
      for (int nj = 0; nj < NI / 2; nj++) {
        kp_u32 q[4];
        if (!KN) {
          const int r = wn + 16 * nj + lane % 8 + lane / 16 * 8, c = kk / 8 + lane / 8 % 2;
          kp_ldsm_x4(q, bs + r * BK + 8 * (c ^ (r / 2 % 4)));
        } else {
          const int r = kk + lane % 16, c = (wn + 16 * nj) / 8 + lane / 16;
          kp_ldsm_x4t(q, bs + r * BN + 8 * (c ^ (r % 8)));
        }
        bf[2 * nj][0] = q[0], bf[2 * nj][1] = q[1], bf[2 * nj + 1][0] = q[2], bf[2 * nj + 1][1] = q[3];
      }
#pragma unroll
      for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int ni = 0; ni < NI; ni++)
          kp_mma16816<${T}>(acc + 4 * (mi * NI + ni), af[mi], bf[ni][0], bf[ni][1]);
    }
  }
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  const void *Cb = C ? (const void *)((const char *)C + b * sC * (out_f32 ? 4 : ${es})) : C;
  void *Db = (char *)D + b * sD * (out_f32 ? 4 : ${es});
  kp_gemm_epilogue<${T}, MI, NI>(acc, m0 + wm + lane / 4, n0 + wn + 2 * (lane % 4), M, N, Cb, ldc,
                                 Db, ldd, bias, alpha, beta, act, out_f32);
}
]]

local function emit_mma(dt, p, form)
  local name = string.format("gemm_%s_mma_%dx%dx32_s%d_w8_%s", dt, p.bm, p.bn, p.stages, form)
  gemm_variant {
    name = name, dtype = dt, block = 256, align = 16,
    params = { bm = p.bm, bn = p.bn, stages = p.stages, rank = p.rank, form = form },
    forms = form == "nk" and 1 or 2, rank = p.rank, smem = p.stages * (p.bm + p.bn) * 32 * 2,
    tile = { m = p.bm, n = p.bn, batch = 1 },
    source = COMMON .. subst(MMA_KERNEL, { params = params(dt),
      name = name, T = ctype(dt), es = esize(dt), bm = p.bm, bn = p.bn, stages = p.stages,
      kn = form == "kn" and 1 or 0, layout = form == "nk" and "(n, k)" or "(k, n)",
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do
  for _, form in ipairs({ "nk", "kn" }) do
    emit_mma(dt, { bm = 128, bn = 128, stages = 4, rank = 500 }, form)
    emit_mma(dt, { bm = 128, bn = 64, stages = 4, rank = 490 }, form)
  end
end
