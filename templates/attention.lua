-- attention.lua -- O = softmax(scale * Q K^T + mask) V, f16/bf16 in and out, fp32
-- softmax statistics, optional log-sum-exp per query row (kp_attention,
-- include/kernpack.h).
--
-- Kernel arguments (every variant, signature below):
--   (const T *Q, long long sqb, long long sqs, long long sqh,
--    const T *K, long long skb, long long sks, long long skh,
--    const T *V, long long svb, long long svs, long long svh,
--    T *O, long long sob, long long sos, long long soh,
--    float *LSE, int Lq, int Lk, int Hq, int Hkv, int Dh, int wl, int wr, int batch,
--    float scale_log2, const int *BT, long long bts, int page, int npages,
--    const int *CQ, const int *CK, int totq, int totk, float *WS,
--    const __grid_constant__ kp_tmap tmQ, tmK, tmV, tmO)
-- Q, O: element (b, i, h, d) at b*s?b + i*s?s + h*s?h + d (query row i < Lq,
-- head h < Hq); K, V: (b, j, h / (Hq / Hkv), d), key j < Lk; any layout through
-- the strides, the head dim contiguous.  LSE (or NULL): f32 (batch, Hq, Lq),
-- packed, natural log.  scale_log2 = scale * log2(e) > 0.
-- Mask: key j of query i is visible when j < Lk and, with off = Lk - Lq (the
-- bottom-right alignment), j <= i + off + wr where wr >= 0 and j >= i + off - wl
-- where wl >= 0 (causal is wr = 0, folded in by the op; the op also bounds Lq,
-- Lk <= 2^29 and wl < Lk, wr < Lq, so every sum below fits an int).  A row
-- with no visible key gets O = 0 and LSE = -inf.
-- Varlen (form bit 3): CQ / CK (or NULL) are cumulative offsets into packed
-- tokens (totq / totk of them); Lq and Lk are then bounds, and every kernel
-- takes sequence b's own lengths lq, lk and first tokens from kp_attn_seq,
-- its rows at b*s?b, or at (first token + i)*s?s when packed, LSE at
-- kp_attn_lse_at.  Everything above holds per sequence with lq, lk for Lq,
-- Lk; a tile past lq is skipped.
-- Workspace (form bit 4, decode calls only): WS points at ceil4(tiles) int
-- counters in the caller's workspace, zero (cleared by the op in the stream,
-- or kept zero: kp_attn_desc.workspace_zeroed), the partials' slots below
-- it; only the split-KV decode (`_sk`) reads it.  Every other variant
-- computes the forms with and without it alike.
-- Wave (form bit 5, decode calls only): the packed tiles could each take a
-- 16-CTA cluster at once; no kernel reads it, the decode clusters rank first
-- there (`prefer`).  Every variant computes the forms with and without it
-- alike: wave(mask) below.
-- tmQ, tmK, tmV, tmO: the sm_90a variants' TMA maps (the op encodes them for
-- an entry with aux > 0, tmO for a persistent one only; below).
-- Dimensions: lq, lk (pow2 buckets), bh = batch * Hq (pow2) and d (exact).
-- The grid is ceil(Lq / BR) * batch * Hq blocks (tile lq = BR, bh = 1; the
-- persistent sm_90a variants: at most one a SM, each looping over tiles
-- blockIdx.x + k gridDim.x): the query tiles of one head adjacent (they
-- share K and V in L2), the last tile first under a right bound (causal: it
-- has the most keys).
--
-- The variant families:
-- - `attention_<dt>_d<D>_<BR>x<BC>_w<W>_s<S>[_qs]` (every target from sm_80
--   unless noted, 16-byte alignment, head dim D = 64, 96, 128 or 256):
--   FlashAttention-2's forward.  W warps of MI x 16 query rows each (BR = 16
--   MI W; with MI = 2 each K and V fragment serves two row blocks); K and V tiles of BC keys
--   through an S-stage cp.async ring (zero-filled past Lk); shared memory rows
--   of D elements, LD apart (D rounded up to 64), 16-byte chunk c of row r at c ^ (r % 8), so that
--   ldmatrix's 8 row addresses hit 8 different bank quads; Q fragments held in
--   registers (`_qs`: read from shared memory again every tile); S = Q K^T and O += P V with mma.sync m16n8k16 (fp32
--   accumulation), P taken from S's accumulators without a trip through
--   shared memory; online softmax in fp32 with exp2 and scale * log2(e)
--   folded into one FMA; key tiles outside the mask's band skipped (causal
--   early exit), masks applied only on the tiles that straddle a bound; O
--   staged through the warp's own Q rows for 16-byte stores.
-- - `attention_<dt>_simple` (every target, element alignment, any head dim
--   <= 256): a warp per 4 query rows, a lane per key of a 32-key tile, scalar
--   fp32.  Rank lowest: it is there so that every valid call has a variant.

family {
  name = "attention",
  dims = "lq:pow2,lk:pow2,bh:pow2,d,g:pow2", -- g: query heads per KV head
  signature = "p,l,l,l,p,l,l,l,p,l,l,l,p,l,l,l,p,i,i,i,i,i,i,i,i,f,p,l,i,i,p,p,i,i,p,T,T,T,T",
}

local ARGS = [[
const ${T} *__restrict__ Q, long long sqb, long long sqs, long long sqh,
        const ${T} *__restrict__ K, long long skb, long long sks, long long skh,
        const ${T} *__restrict__ V, long long svb, long long svs, long long svh,
        ${T} *__restrict__ O, long long sob, long long sos, long long soh,
        float *__restrict__ LSE, int Lq, int Lk, int Hq, int Hkv, int Dh, int wl, int wr,
        int batch, float scale_log2, const int *__restrict__ BT, long long bts, int page,
        int npages, const int *__restrict__ CQ, const int *__restrict__ CK, int totq, int totk,
        float *__restrict__ WS, const __grid_constant__ kp_tmap tmQ,
        const __grid_constant__ kp_tmap tmK, const __grid_constant__ kp_tmap tmV,
        const __grid_constant__ kp_tmap tmO]]

-- ---- shared device code ----------------------------------------------------------
local COMMON = [[
#ifndef KP_ATTN_COMMON
#define KP_ATTN_COMMON
#define KP_LN2 0.69314718055994530942f
#define KP_NINF __int_as_float(0xff800000) // -inf (NVRTC has no INFINITY)
__device__ __forceinline__ float kp_attn_exp2(float x) { // exp2(-inf) = 0
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
// st.async of 4 floats (16 bytes) or 1 to `a` (a shared::cta address of this
// CTA) mapped into cluster CTA `q`, completing on the barrier at `b`'s
// offset in CTA q (the destination and its barrier in the same CTA)
__device__ __forceinline__ void kp_attn_push4(kp_u32 a, float4 x, kp_u32 b, kp_u32 q) {
  asm volatile("{ .reg .b32 ra, rb;\n\tmapa.shared::cluster.u32 ra, %0, %6;\n\t"
               "mapa.shared::cluster.u32 rb, %1, %6;\n\t"
               "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [ra], {%2, %3, %4, %5}, [rb]; }"
               ::"r"(a), "r"(b), "r"(__float_as_uint(x.x)), "r"(__float_as_uint(x.y)),
               "r"(__float_as_uint(x.z)), "r"(__float_as_uint(x.w)), "r"(q) : "memory");
}
__device__ __forceinline__ void kp_attn_push1(kp_u32 a, float x, kp_u32 b, kp_u32 q) {
  asm volatile("{ .reg .b32 ra, rb;\n\tmapa.shared::cluster.u32 ra, %0, %3;\n\t"
               "mapa.shared::cluster.u32 rb, %1, %3;\n\t"
               "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [ra], %2, [rb]; }"
               ::"r"(a), "r"(b), "r"(__float_as_uint(x)), "r"(q) : "memory");
}
// The keys [lo, hi) that some query row in [r0, r1] may see (hi <= lo: none).
__device__ __forceinline__ void kp_attn_keys(int r0, int r1, int Lq, int Lk, int wl, int wr,
                                             int &lo, int &hi) {
  const int off = Lk - Lq;
  lo = wl >= 0 ? max(0, r0 + off - wl) : 0;
  hi = wr >= 0 ? min(Lk, r1 + off + wr + 1) : Lk;
}
// Is key j hidden from query row i?
__device__ __forceinline__ bool kp_attn_hidden(int i, int j, int Lq, int Lk, int wl, int wr) {
  const int rel = j - i - (Lk - Lq);
  return j >= Lk || (wr >= 0 && rel > wr) || (wl >= 0 && rel < -wl);
}
// tile index (blockIdx.x, or a persistent kernel's) -> batch b, head h,
// query tile tm (file comment: the grid)
__device__ __forceinline__ void kp_attn_tile(int idx, int br, int Lq, int Hq, int wr, int &b,
                                             int &h, int &tm) {
  const int tiles = (Lq + br - 1) / br, bh = idx / tiles;
  tm = idx - bh * tiles;
  if (wr >= 0) tm = tiles - 1 - tm;
  b = bh / Hq;
  h = bh - b * Hq;
}
// Varlen (include/kernpack.h): sequence b's length and its first token t0
// in the packed buffer -- with cumulative offsets CU, CU[b + 1] - CU[b], the
// offsets cut to [0, tot] (the buffer's tokens; INT_MAX for a paged K and V,
// whose offsets give lengths only) and the length to the call's bound L;
// without, L and 0.  Every kernel sizes its grid by the bounds and takes
// its mask's off = Lk - Lq from these lengths.
__device__ __forceinline__ int kp_attn_seq(const int *CU, int b, int L, int tot, int &t0) {
  t0 = 0;
  if (!CU) return L;
  const int s = min(max(CU[b], 0), tot), e = min(max(CU[b + 1], s), tot);
  t0 = s;
  return min(L, e - s);
}
// The element offset of sequence b's first row: b sb, or t0 ss when packed
__device__ __forceinline__ long long kp_attn_at(const int *CU, int b, int t0, long long sb,
                                                long long ss) {
  return CU ? (long long)t0 * ss : (long long)b * sb;
}
// LSE's element for row i of sequence b (first token t0), head h: (batch,
// Hq, Lq), or (total_q, Hq) with varlen queries
__device__ __forceinline__ long long kp_attn_lse_at(const int *CQ, int b, int t0, int h, int i,
                                                    int Hq, int Lq) {
  return CQ ? (long long)(t0 + i) * Hq + h : ((long long)b * Hq + h) * Lq + i;
}
// The row's statistics at the end: 1 / l (0 for a row with no visible key)
// and LSE = ln(sum exp(scale s)) = (m2 + log2 l) ln 2, m2 the row's max of
// scale * log2(e) * s; -inf for an empty row.
__device__ __forceinline__ float kp_attn_inv(float l) { return l > 0.f ? 1.f / l : 0.f; }
__device__ __forceinline__ float kp_attn_lse(float m2, float l) {
  return l > 0.f ? (m2 + __log2f(l)) * KP_LN2 : KP_NINF;
}
// ROWS rows of D elements from src (row stride ld) starting at row r0 into a
// swizzled tile of rows LD elements apart (LD: D rounded up to 64, so that
// chunk c ^ (r % 8) stays in the row); rows >= limit are zero-filled
// (cp.async's src-size 0).  NT threads share the copy, this one being number tid.
template <class T, int ROWS, int D, int NT, int LD = D>
__device__ __forceinline__ void kp_attn_load(T *dst, const T *src, long long ld, int r0, int limit,
                                             int tid) {
  constexpr int CH = D / 8;
  static_assert(ROWS * CH % NT == 0, "whole rounds of 16-byte copies");
#pragma unroll
  for (int k = 0; k < ROWS * CH / NT; k++) {
    const int i = tid + k * NT, r = i / CH, c = i % CH, row = r0 + r;
    const bool in = row < limit;
    kp_cp16(dst + r * LD + 8 * (c ^ (r & 7)), in ? src + row * ld + 8 * c : src, in ? 16 : 0);
  }
}
// Token r of page pg of K or V (X: the tensor, sb the page stride, ss, sh
// the token and head strides) for KV head hk; NULL for a page index outside
// [0, npages) (include/kernpack.h: read as zeros).
template <class T>
__device__ __forceinline__ const T *kp_attn_paged_row(const T *X, long long sb, long long ss,
                                                      long long sh, int hk, int pg, int r,
                                                      int npages) {
  return pg >= 0 && pg < npages ? X + pg * sb + hk * sh + r * ss : nullptr;
}
// Key j's row (< Lk) of K or V for batch b and KV head hk: contiguous
// (sequence b's first row at X + base, kp_attn_at), or through the block
// table BT (page BT[b bts + j / page], token j % page).
template <class T>
__device__ __forceinline__ const T *kp_attn_krow(const T *X, long long sb, long long ss,
                                                 long long sh, long long base, int b, int hk,
                                                 int j, const int *BT, long long bts, int page,
                                                 int npages) {
  if (!BT) return X + base + hk * sh + j * ss;
  return kp_attn_paged_row(X, sb, ss, sh, hk, BT[b * bts + j / page], j % page, npages);
}
#endif
]]

-- ---- sm_80+: FlashAttention-2 with mma.sync ----------------------------------------
-- mma.sync.m16n8k16 (f16/bf16 in, f32 accumulate), per the PTX ISA's fragment
-- layouts, with g = lane / 4 and t = lane % 4:
--   A (16 x 16, row-major), 4 x .b32, two elements each (low half = lower column):
--     a0 = (g, 2t..2t+1)  a1 = (g+8, 2t..2t+1)  a2 = (g, 2t+8..2t+9)  a3 = (g+8, 2t+8..2t+9)
--   B (16 x 8, "col": element (k, n) at n*16 + k), 2 x .b32:
--     b0 = (k 2t..2t+1, n g)  b1 = (k 2t+8..2t+9, n g)
--   C, D (16 x 8 f32): c0, c1 = (g, 2t), (g, 2t+1)  c2, c3 = (g+8, 2t), (g+8, 2t+1)
-- ldmatrix.m8n8.x4: lanes 8i..8i+7 give the row addresses of matrix i; lane
-- gets, in register i, row g of matrix i, elements 2t, 2t+1 -- A's and B's
-- register layout when the matrices' rows run along m (A) or n (B).  With
-- .trans lane gets column g, rows 2t, 2t+1: B's layout when the stored rows
-- run along k (V as (key, d)).  So, per warp (16 query rows):
--   Q (A of S = Q K^T), k-step kd: rows lane % 16, chunk 2 kd + lane / 16;
--   K (B, rows = keys), keys 16 nj..+15 and k-step kd: key 16 nj + lane % 8 +
--     8 (lane / 16), chunk 2 kd + (lane / 8) % 2 -> regs {b0, b1} of key
--     fragment 2 nj, then of 2 nj + 1;
--   P (A of O += P V), key step kk: S fragments 2 kk and 2 kk + 1 as they are:
--     a0 = pack(s[2kk][0..1]), a1 = pack(s[2kk][2..3]), a2, a3 likewise of 2kk+1;
--   V (B via .trans, rows = keys), keys 16 kk..+15, d 16 dj..+15: key 16 kk +
--     lane % 16, chunk 2 dj + lane / 16 -> {b0, b1} of d fragment 2 dj, then 2 dj + 1.
local FA2_KERNEL = [[
// ${name}: ${br} query rows (${w} warps of ${mi} x 16) x ${bc}-key tiles, head dim ${d}, ${stages} K/V stages
extern "C" __global__ void __launch_bounds__(${threads})
${name}(${args}) {
  constexpr int D = ${d}, BR = ${br}, BC = ${bc}, S = ${stages}, NT = ${threads};
  // shared-memory rows LD elements apart: D rounded up to 64 (d96: 128), so
  // that the swizzle's chunk c ^ (r % 8) stays inside the row
  constexpr int LD = (D + 63) / 64 * 64;
  constexpr int MI = ${mi};          // 16-row fragments a warp: K and V fragments serve MI of them
  constexpr bool QREG = ${qreg};     // Q fragments held in registers, else read again every tile
  // varlen (form bit 3): without, cq and ck are null and the code is the
  // fixed-length one (two registers less: the mi = 2 variants spill with them)
  constexpr bool VARLEN = ${varlen};
  const int *cq = VARLEN ? CQ : nullptr, *ck = VARLEN ? CK : nullptr;
  constexpr int CH = D / 8, DF = D / 8, KF = BC / 8; // chunks a row; O and S fragments a row block
  static_assert(BR == 16 * MI * (NT / 32) && S >= 2, "a warp per 16 MI rows; a ring of >= 2 stages");
  extern __shared__ __align__(128) unsigned char kp_dyn[];
  ${T} *sq = (${T} *)kp_dyn;     // [BR][LD]: Q, then each warp's O rows
  ${T} *sk = sq + BR * LD;       // [S][BC][LD]
  ${T} *sv = sk + S * BC * LD;   // [S][BC][LD]
  auto at = [](int r, int c) { return r * LD + 8 * (c ^ (r & 7)); }; // chunk c of row r
  int b, h, tm, qt0, kt0;
  kp_attn_tile(blockIdx.x, BR, Lq, Hq, wr, b, h, tm);
  const int hk = h / (Hq / Hkv), m0 = tm * BR;
  // this sequence's lengths (varlen: its own, within the bounds Lq, Lk)
  const int lq = kp_attn_seq(cq, b, Lq, totq, qt0), lk = kp_attn_seq(ck, b, Lk, totk, kt0);
  if (m0 >= lq) return; // a tile past the sequence's rows: the whole block leaves
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32, g = lane / 4, t = lane % 4;
  const int wr0 = 16 * MI * w;   // this warp's first row in the tile: rows wr0 + 16 mi + [0, 16)
  const ${T} *Qb = Q + kp_attn_at(cq, b, qt0, sqb, sqs) + h * sqh,
             *Kb = K + kp_attn_at(ck, b, kt0, skb, sks) + hk * skh,
             *Vb = V + kp_attn_at(ck, b, kt0, svb, svs) + hk * svh;
  int lo, hi;
  kp_attn_keys(m0, min(lq, m0 + BR) - 1, lq, lk, wl, wr, lo, hi);
  const int nb0 = lo / BC, nb1 = hi > lo ? (hi + BC - 1) / BC : nb0; // key tiles [nb0, nb1)
  auto load_kv = [&](int s, int nb) {
    kp_attn_load<${T}, BC, D, NT, LD>(sk + s * BC * LD, Kb, sks, nb * BC, lk, threadIdx.x);
    kp_attn_load<${T}, BC, D, NT, LD>(sv + s * BC * LD, Vb, svs, nb * BC, lk, threadIdx.x);
  };
  kp_attn_load<${T}, BR, D, NT, LD>(sq, Qb, sqs, m0, lq, threadIdx.x);
  if (nb0 < nb1) load_kv(0, nb0);
  asm volatile("cp.async.commit_group;" ::: "memory");
#pragma unroll
  for (int s = 1; s < S - 1; s++) {
    if (nb0 + s < nb1) load_kv(s, nb0 + s);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.wait_group %0;" ::"n"(S - 2) : "memory");
  __syncthreads(); // Q and the first stage landed
  // Q fragment (mi, kd): rows wr0 + 16 mi + lane % 16, chunk 2 kd + lane / 16
  auto q_at = [&](int mi, int kd) { return sq + at(wr0 + 16 * mi + lane % 16, 2 * kd + lane / 16); };
  kp_u32 qf[QREG ? MI : 1][QREG ? D / 16 : 1][4];
  if (QREG) {
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
      for (int kd = 0; kd < D / 16; kd++) kp_ldsm_x4(qf[QREG ? mi : 0][QREG ? kd : 0], q_at(mi, kd));
  }

  float o[MI][DF][4], mrow[MI][2], lsum[MI][2];
#pragma unroll
  for (int mi = 0; mi < MI; mi++) {
    mrow[mi][0] = mrow[mi][1] = KP_NINF, lsum[mi][0] = lsum[mi][1] = 0.f;
#pragma unroll
    for (int f = 0; f < DF; f++) o[mi][f][0] = o[mi][f][1] = o[mi][f][2] = o[mi][f][3] = 0.f;
  }
  const int off = lk - lq, i0 = m0 + wr0 + g; // this thread's rows: i0 + 16 mi (+ 8)
  for (int nb = nb0, it = 0; nb < nb1; nb++, it++) {
    if (it) {
      asm volatile("cp.async.wait_group %0;" ::"n"(S - 2) : "memory");
      __syncthreads(); // tile nb landed; every warp is done with stage (it - 1) % S
    }
    if (nb + S - 1 < nb1) load_kv((it + S - 1) % S, nb + S - 1);
    asm volatile("cp.async.commit_group;" ::: "memory");
    const ${T} *ks = sk + it % S * BC * LD, *vs = sv + it % S * BC * LD;
    // S = Q K^T for this warp's MI x 16 rows x BC keys; each K fragment serves MI row blocks
    float s[MI][KF][4];
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
      for (int f = 0; f < KF; f++) s[mi][f][0] = s[mi][f][1] = s[mi][f][2] = s[mi][f][3] = 0.f;
#pragma unroll
    for (int kd = 0; kd < D / 16; kd++) {
      kp_u32 qt[QREG ? 1 : MI][4];
      if (!QREG) {
#pragma unroll
        for (int mi = 0; mi < MI; mi++) kp_ldsm_x4(qt[QREG ? 0 : mi], q_at(mi, kd));
      }
#pragma unroll
      for (int nj = 0; nj < BC / 16; nj++) {
        kp_u32 kf[4];
        kp_ldsm_x4(kf, ks + at(16 * nj + lane % 8 + lane / 16 * 8, 2 * kd + lane / 8 % 2));
#pragma unroll
        for (int mi = 0; mi < MI; mi++) {
          const kp_u32 *a = QREG ? qf[QREG ? mi : 0][QREG ? kd : 0] : qt[QREG ? 0 : mi];
          kp_mma16816<${T}>(s[mi][2 * nj], a, kf[0], kf[1]);
          kp_mma16816<${T}>(s[mi][2 * nj + 1], a, kf[2], kf[3]);
        }
      }
    }
    // the mask, on tiles that straddle one of its bounds (or lk)
    const int n0 = nb * BC;
    if (n0 + BC > lk || (wr >= 0 && n0 + BC - 1 > m0 + off + wr) ||
        (wl >= 0 && n0 < m0 + BR - 1 + off - wl)) {
#pragma unroll
      for (int mi = 0; mi < MI; mi++)
#pragma unroll
        for (int f = 0; f < KF; f++)
#pragma unroll
          for (int e = 0; e < 4; e++)
            if (kp_attn_hidden(i0 + 16 * mi + 8 * (e / 2), n0 + 8 * f + 2 * t + e % 2, lq, lk, wl, wr))
              s[mi][f][e] = KP_NINF;
    }
    // online softmax: rows (mi, r) = i0 + 16 mi + 8 r, each spread over a quad of lanes
#pragma unroll
    for (int mi = 0; mi < MI; mi++)
#pragma unroll
      for (int r = 0; r < 2; r++) {
        float mx = KP_NINF;
#pragma unroll
        for (int f = 0; f < KF; f++) mx = fmaxf(mx, fmaxf(s[mi][f][2 * r], s[mi][f][2 * r + 1]));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
        const float mnew = fmaxf(mrow[mi][r], mx);
        const float ms = mnew == KP_NINF ? 0.f : mnew * scale_log2; // no -inf - -inf
        const float alpha = kp_attn_exp2(mrow[mi][r] * scale_log2 - ms); // 0 while mrow is -inf
        mrow[mi][r] = mnew;
        float sum = 0.f;
#pragma unroll
        for (int f = 0; f < KF; f++) {
          s[mi][f][2 * r] = kp_attn_exp2(fmaf(s[mi][f][2 * r], scale_log2, -ms));
          s[mi][f][2 * r + 1] = kp_attn_exp2(fmaf(s[mi][f][2 * r + 1], scale_log2, -ms));
          sum += s[mi][f][2 * r] + s[mi][f][2 * r + 1];
        }
        lsum[mi][r] = lsum[mi][r] * alpha + sum; // this lane's part; the quad adds up at the end
#pragma unroll
        for (int f = 0; f < DF; f++) o[mi][f][2 * r] *= alpha, o[mi][f][2 * r + 1] *= alpha;
      }
    // O += P V; each V fragment serves MI row blocks
#pragma unroll
    for (int kk = 0; kk < BC / 16; kk++) {
      kp_u32 pf[MI][4];
#pragma unroll
      for (int mi = 0; mi < MI; mi++) {
        pf[mi][0] = kp_pair<${T}>::pack(s[mi][2 * kk][0], s[mi][2 * kk][1]);
        pf[mi][1] = kp_pair<${T}>::pack(s[mi][2 * kk][2], s[mi][2 * kk][3]);
        pf[mi][2] = kp_pair<${T}>::pack(s[mi][2 * kk + 1][0], s[mi][2 * kk + 1][1]);
        pf[mi][3] = kp_pair<${T}>::pack(s[mi][2 * kk + 1][2], s[mi][2 * kk + 1][3]);
      }
#pragma unroll
      for (int dj = 0; dj < D / 16; dj++) {
        kp_u32 vf[4];
        kp_ldsm_x4t(vf, vs + at(16 * kk + lane % 16, 2 * dj + lane / 16));
#pragma unroll
        for (int mi = 0; mi < MI; mi++) {
          kp_mma16816<${T}>(o[mi][2 * dj], pf[mi], vf[0], vf[1]);
          kp_mma16816<${T}>(o[mi][2 * dj + 1], pf[mi], vf[2], vf[3]);
        }
      }
    }
  }
  asm volatile("cp.async.wait_group 0;" ::: "memory");

  // epilogue: O / l through this warp's 16 MI rows of sq (only it read them), then
  // 16-byte stores; every lane's ldmatrix of those rows is done first (racecheck)
  __syncwarp();
  ${T} *so = sq + wr0 * LD;
#pragma unroll
  for (int mi = 0; mi < MI; mi++) {
    float inv[2];
#pragma unroll
    for (int r = 0; r < 2; r++) {
      float l = lsum[mi][r];
      l += __shfl_xor_sync(0xffffffffu, l, 1);
      l += __shfl_xor_sync(0xffffffffu, l, 2);
      inv[r] = kp_attn_inv(l);
      const int i = i0 + 16 * mi + 8 * r;
      if (LSE && t == 0 && i < lq)
        LSE[kp_attn_lse_at(cq, b, qt0, h, i, Hq, Lq)] = kp_attn_lse(mrow[mi][r] * scale_log2, l);
    }
#pragma unroll
    for (int f = 0; f < DF; f++) {
      *(kp_u32 *)(so + at(16 * mi + g, f) + 2 * t) =
          kp_pair<${T}>::pack(o[mi][f][0] * inv[0], o[mi][f][1] * inv[0]);
      *(kp_u32 *)(so + at(16 * mi + g + 8, f) + 2 * t) =
          kp_pair<${T}>::pack(o[mi][f][2] * inv[1], o[mi][f][3] * inv[1]);
    }
  }
  __syncwarp();
  ${T} *Ob = O + kp_attn_at(cq, b, qt0, sob, sos) + h * soh;
#pragma unroll
  for (int k = 0; k < 16 * MI * CH / 32; k++) {
    const int x = lane + 32 * k, r = x / CH, c = x % CH, i = m0 + wr0 + r;
    if (i < lq) *(uint4 *)(Ob + i * sos + 8 * c) = *(const uint4 *)(so + at(r, c));
  }
}
]]

-- A mask of forms 0-31 with its wave twins (32 + f) added
local function wave(m) return m | (m << 32) end
local function ld(d) return (d + 63) // 64 * 64 end -- shared-memory rows of head dim d (LD)
-- p: d (head dim), w (warps), mi (16-row blocks a warp, default 1), bc, stages,
-- qreg (Q held in registers; default when mi = 1), rank, targets (default all),
-- novarlen (no varlen form: registers)
local function emit_fa2(dt, p)
  local threads, mi = 32 * p.w, p.mi or 1
  local br, qreg = 16 * p.w * mi, p.qreg == nil and mi == 1 or p.qreg
  local name = string.format("attention_%s_d%d_%dx%d_w%d_s%d%s", dt, p.d, br, p.bc, p.w,
                             p.stages, qreg and "" or "_qs")
  variant {
    name = name, dtype = dt, block = threads, align = 16, rank = p.rank, targets = p.targets,
    -- not paged (form bit 2): forms 0-3, and their varlen twins 8-11
    -- (and their workspace twins 16 + f)
    forms = wave(p.novarlen and 0x000F000F or 0x0F0F0F0F),
    params = { d = p.d, br = br, bc = p.bc, w = p.w, mi = mi, qreg = qreg, stages = p.stages,
               rank = p.rank },
    smem = (br + 2 * p.stages * p.bc) * ld(p.d) * 2,
    tile = { lq = br, bh = 1 }, min = { d = p.d }, max = { d = p.d },
    source = COMMON .. subst(FA2_KERNEL, {
      name = name, T = ctype(dt), d = p.d,
      br = br, bc = p.bc, w = p.w, mi = mi, qreg = qreg and "true" or "false",
      varlen = p.novarlen and "false" or "true",
      stages = p.stages, threads = threads, args = subst(ARGS, { T = ctype(dt) }),
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do
  -- 2 stages: with 3, ptxas for sm_120 holds these to 128 registers and spills
  emit_fa2(dt, { d = 64, w = 4, bc = 64, stages = 2, rank = 190 })
  emit_fa2(dt, { d = 64, w = 8, bc = 64, stages = 2, rank = 200 })
  emit_fa2(dt, { d = 128, w = 4, bc = 64, stages = 2, rank = 190 })
  emit_fa2(dt, { d = 128, w = 8, bc = 64, stages = 2, rank = 200 })
  -- FlashAttention-2's shape: 4 warps of 2 x 16 rows, each K and V fragment
  -- read once for 32 rows (half the shared-memory reads of a warp per 16
  -- rows); at 254-255 registers.  d128 keeps Q in shared memory and takes
  -- 32-key tiles to fit, and spills on sm_120: not built there.  Neither
  -- takes varlen calls: the per-sequence lengths' two registers make both
  -- spill on sm_90a; the w8 ones above serve those.
  emit_fa2(dt, { d = 64, w = 4, mi = 2, bc = 64, stages = 2, qreg = true, rank = 210,
                 novarlen = true })
  emit_fa2(dt, { d = 128, w = 4, mi = 2, bc = 32, stages = 2, qreg = false, rank = 210,
                 targets = { "sm_80", "sm_86", "sm_89", "sm_90a" }, novarlen = true })
  -- head dims 96 (rows of 128 in shared memory) and 256 (Q read from shared
  -- memory again every tile: O's 128 accumulators a thread leave no room
  -- for it in registers)
  -- (at d256 4 warps take 16-key tiles: with 32, ptxas spills; 8 warps' 32
  -- spill on sm_120, and need 128 KB of shared memory, more than sm_86, sm_89
  -- and sm_120 have)
  emit_fa2(dt, { d = 96, w = 4, bc = 64, stages = 2, rank = 190 })
  emit_fa2(dt, { d = 96, w = 8, bc = 64, stages = 2, rank = 200 })
  emit_fa2(dt, { d = 256, w = 4, bc = 16, stages = 3, qreg = false, rank = 190 })
  emit_fa2(dt, { d = 256, w = 8, bc = 32, stages = 2, qreg = false, rank = 200,
                 targets = { "sm_80", "sm_86", "sm_89", "sm_90a" } })
end

-- ---- sm_90a: FlashAttention-3 style, TMA + wgmma ----------------------------------
-- NC + 1 warpgroups: the first NC the consumers (64 query rows each; NC =
-- 2, or 3 for the `_192x` tiles), the last the producer, whose one thread
-- loads Q once and K and V tiles into rings of S stages through TMA (4-d
-- tensor maps (head dim, sequence, head, batch) built by the op, boxes of
-- 64 columns: a tile is ceil(D / 64) panels of rows x 128 bytes with the 128-byte
-- swizzle; rows past Lq or Lk read as zeros; varlen: maps over the packed
-- tokens (batch 1), so rows past a sequence's end are the next sequence's:
-- keys j >= lk are masked explicitly, query rows i >= lq not stored),
-- K and V each with barriers of their own (a K stage is free again once
-- every consumer's S = Q K^T has read it, a V stage once P V has);
-- setmaxnreg gives the producer's registers to the consumers.  A consumer
-- per key tile: S = Q K^T with wgmma m64n<BC>k16 (both from shared memory),
-- the mask where the tile straddles a bound, the online softmax in the
-- accumulator registers, O += P V with wgmma m64n<D>k16 taking P from
-- registers (S's accumulator layout is the A fragment's, as with mma.sync)
-- and V as an MN-major B (panels BC x 128 bytes apart).
-- Software-pipelined as FlashAttention-3 does it: S of tile j and P V of
-- tile j - 1 are issued together, and tile j's softmax runs while that P V
-- is in flight (O is rescaled once it has retired).  `_pp`: and the two
-- consumers take turns issuing their matmuls (named barriers 1 and 2,
-- "ping-pong"), so that one's softmax overlaps the other's matmuls.
-- A CTA loops over its query tiles (blockIdx.x + k gridDim.x, in the
-- grid's order: one, unless persistent, `_p`: a CTA an SM; `_pc`, for
-- masked calls: units of two tiles of one head, the one with the most keys
-- left and the one with the fewest, so that under a causal mask every unit
-- holds as many key tiles -- tiles + 1 -- and a static round-robin of units
-- is balanced, while a unit's two tiles share K and V in L2); the producer
-- alone works out which tile comes next (the consumers read it from shared
-- memory with its Q: their tile arithmetic, integer divisions between two
-- tiles' wgmmas, held d64 1K causal ~5%), loads its Q -- into the second of
-- two Q buffers (two consumers) once it has issued the current tile's last
-- K and V loads, else once the last S = Q K^T has retired -- and its K and
-- V as stages free up, while the consumers finish and store the current
-- one.  The persistent kernels store O through shared memory by TMA (`TS`
-- below): from the registers, 4-byte stores held d128 1K tiles ~7% of their
-- time (bench/NOTES.md 42).  (A
-- cross-tile twin -- two Q buffers, the next tile's first S = Q K^T issued
-- with the last P V, the epilogue under it -- ran 0-3% ahead before that
-- and 2-14% behind after: gone.)
-- kp_fa3_softmax's causal fast path (cfpath): the right bound alone in
-- 2 + BC / 4 tests for BC / 2 values, where the general case makes two a
-- value -- row i0 sees the columns before h, row i0 + 8 before h + 8, so row
-- 1's value j, e takes row 0's test of j - 1, e (every key of the tile is
-- below Lk).  d64's masked kernels alone, whose loop is issue-bound
-- (bench/NOTES.md 123: d64 causal 1K / 256 2.4 / 5.3% faster); at d128 it
-- moved calls by -0.9..+0.9%, and the unmasked kernels that carried it ran
-- 1-2% slower on ptxas's new schedule -- without it their cubins are as before
local CF_PATH = [[
  if (wl < 0 && wr >= 0 && n0 + BC <= Lk && n0 + BC - 1 > r0 + off + wr) {
    const int h = i0 + off + wr + 1 - n0 - 2 * t;
#pragma unroll
    for (int j = -1; j < BC / 8; j++)
#pragma unroll
      for (int e = 0; e < 2; e++) {
        const bool hid = 8 * j + e >= h;
        if (j >= 0 && hid) sc[4 * j + e] = KP_NINF;
        if (j + 1 < BC / 8 && hid) sc[4 * (j + 1) + 2 + e] = KP_NINF;
      }
  } else
]]

local FA3_KERNEL = [[
#ifndef KP_ATTN_TMA_STORE
#define KP_ATTN_TMA_STORE
// TMA stores (the persistent kernels' O): a box (x = column, y = row, z =
// head, w = batch) of a 4-d map from shared memory, in bulk groups
__device__ __forceinline__ void kp_attn_tma_store4(const kp_tmap *map, const void *src, int x,
                                                   int y, int z, int w) {
  asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];"
               ::"l"((unsigned long long)map), "r"(kp_smem_addr(src)), "r"(x), "r"(y), "r"(z),
               "r"(w) : "memory");
}
__device__ __forceinline__ void kp_attn_bulk_commit() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// this thread's bulk groups have read their shared memory / are complete
__device__ __forceinline__ void kp_attn_bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
__device__ __forceinline__ void kp_attn_bulk_wait() {
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
// generic-proxy writes to shared memory, made visible to the async proxy (TMA)
__device__ __forceinline__ void kp_attn_fence_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void kp_attn_sts32(void *p, kp_u32 v) {
  asm volatile("st.shared.b32 [%0], %1;" ::"r"(kp_smem_addr(p)), "r"(v) : "memory");
}
#endif
// The mask on a tile of S (this thread's values 4 j + 2 r + e: row i0 + 8 r,
// key n0 + 8 j + 2 t + e) where it straddles a bound of the warpgroup's rows
// [r0, r0 + 64), then the online softmax: S becomes P (not yet rounded),
// mrow and lsum move on, alpha is what O must be scaled by.
template <int BC>
__device__ __forceinline__ void kp_fa3_softmax(float *sc, float *mrow, float *lsum, float *alpha,
                                               int r0, int i0, int n0, int t, int Lq, int Lk,
                                               int wl, int wr, float scale_log2) {
  const int off = Lk - Lq;
${cfpath}  if (n0 + BC > Lk || (wr >= 0 && n0 + BC - 1 > r0 + off + wr) ||
      (wl >= 0 && n0 < r0 + 63 + off - wl)) {
    // row r sees the keys [lo[r], hi[r]) (kp_attn_hidden's rule), as offsets
    // from this thread's first column n0 + 2 t
    int lo[2], hi[2];
#pragma unroll
    for (int r = 0; r < 2; r++) {
      const int i = i0 + 8 * r;
      lo[r] = (wl >= 0 ? i + off - wl : -(1 << 30)) - n0 - 2 * t;
      hi[r] = (wr >= 0 ? min(Lk, i + off + wr + 1) : Lk) - n0 - 2 * t;
    }
#pragma unroll
    for (int j = 0; j < BC / 8; j++)
#pragma unroll
      for (int e = 0; e < 4; e++) {
        const int c = 8 * j + e % 2;
        if (c < lo[e / 2] || c >= hi[e / 2]) sc[4 * j + e] = KP_NINF;
      }
  }
#pragma unroll
  for (int r = 0; r < 2; r++) { // row r spread over a quad of lanes
    float mx = KP_NINF;
#pragma unroll
    for (int j = 0; j < BC / 8; j++) mx = fmaxf(mx, fmaxf(sc[4 * j + 2 * r], sc[4 * j + 2 * r + 1]));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
    const float mnew = fmaxf(mrow[r], mx);
    const float ms = mnew == KP_NINF ? 0.f : mnew * scale_log2; // no -inf - -inf
    alpha[r] = kp_attn_exp2(mrow[r] * scale_log2 - ms);         // 0 while mrow is -inf
    mrow[r] = mnew;
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < BC / 8; j++) {
      sc[4 * j + 2 * r] = kp_attn_exp2(fmaf(sc[4 * j + 2 * r], scale_log2, -ms));
      sc[4 * j + 2 * r + 1] = kp_attn_exp2(fmaf(sc[4 * j + 2 * r + 1], scale_log2, -ms));
      sum += sc[4 * j + 2 * r] + sc[4 * j + 2 * r + 1];
    }
    lsum[r] = lsum[r] * alpha[r] + sum; // this lane's part; the quad adds up at the end
  }
}

// ${name}: ${br} query rows (${nc} consumer warpgroups of 64) x ${bc}-key tiles, head dim ${d},
// ${stages} K and V stages loaded through TMA by a producer warpgroup; persistent
extern "C" __global__ void __launch_bounds__(${threads}, 1)
${name}(${args}) {
  // P panels of 64 columns a tile: d96's second half-empty (the TMA maps
  // end at column D: a box past it reads zeros, a store past it is clipped)
  constexpr int NC = ${nc}, D = ${d}, BR = 64 * NC, BC = ${bc}, S = ${stages}, P = (D + 63) / 64;
  static_assert(!${pp} || NC == 2, "ping-pong between two consumers");
  constexpr bool PP = ${pp}; // (file comment)
  // SKIP: each warpgroup's own key tiles (below, at the tile's start); the
  // ping-pong's turns pair the warpgroups' matmuls step by step: not there
  constexpr bool SKIP = ${skip};
  // TS (the persistent kernels, none of which takes varlen calls): O leaves
  // through shared memory and TMA stores (each consumer's 64 rows a box of
  // tmO's, rows past Lq clipped by the map), and the tiles' sequences are
  // the fixed-length ones (no offsets read)
  constexpr bool TS = ${ts};
  const int *cq = TS ? nullptr : CQ, *ck = TS ? nullptr : CK;
  constexpr int Q_PANEL = BR * 128, KV_PANEL = BC * 128; // bytes: 64 columns of all rows
  constexpr int Q_BYTES = P * Q_PANEL, KV_BYTES = P * KV_PANEL;
  // QB Q buffers (emit_fa3's qb): tile k takes buffer k % QB
  constexpr int QB = ${qb};
  __shared__ __align__(8) unsigned long long qfull[QB], qfree[QB], kfull[S], vfull[S], kfree[S],
      vfree[S];
  // the tile whose Q the producer loads (written before its arrival on qfull,
  // read once that phase completes, rewritten only after every consumer thread
  // has given that Q buffer back on qfree): its keys nb0 + [0, n) in tiles of BC (n = -1: no
  // tile left), its sequence's lengths lq, lk and first tokens qt0, kt0
  struct fa3_tile { int b, h, m0, nb0, n, lq, lk, qt0, kt0; };
  __shared__ fa3_tile next[QB];
  // (SKIP) tile k's count of key tiles again, ncnt[k % 4], for the consumers
  // after their loop (c.n held through the loop beside nw spilled the
  // 192-row kernels; a copy a thread made the stage counter `it` look
  // divergent to ptxas, and the key loop's wgmma descriptors left the
  // uniform registers: 55 more instructions a key tile, 8% slower).  The
  // producer rewrites slot k % 4 for tile k + 4 only once every consumer
  // has given back tile k + 2's Q
  __shared__ int ncnt[4];
  extern __shared__ unsigned char kp_dyn[];
  // 128-byte swizzled tiles want 1024-byte alignment
  unsigned char *smem = (unsigned char *)(((unsigned long long)kp_dyn + 1023) & ~1023ull);
  unsigned char *sq = smem, *sk = sq + QB * Q_BYTES, *sv = sk + S * KV_BYTES;
  unsigned char *so = sv + S * KV_BYTES; // TS: O, laid out as a Q buffer
  // the CTA's q-th tile index (kp_attn_tile's order: head bh's tiles bh
  // tiles + j, j = 0 the most keys under a right bound); -1: no more, -2:
  // none this time.  ORDER 0: blockIdx.x + q gridDim.x.  1 (`_pc`): unit u =
  // blockIdx.x + (q / 2) gridDim.x of (tiles + 1) / 2 a head, its tile q % 2
  // j or tiles - 1 - j (-2: an odd count's middle tile, alone), in whole
  // rounds of G units; the last, partial round's units as single tiles,
  // most keys first, snake-dealt (its pairs left CTAs idle for a pair's
  // time: d64 1K causal, 1,024 units over 132 CTAs).  2 (`_ps`):
  // the heads in chunks of h0 whose K and V fill about 16 MB of L2, each
  // chunk given whole rounds of G (the CTAs; c = blockIdx.x) positions: its
  // tiles most keys first (its heads' j = 0, then j = 1, ...), position q'
  // G + c of its q'-th round on even rounds q, q' G + G - 1 - c on odd ones.
  // Dealt snake-wise, two rounds give every CTA about equal work and a
  // chunk's last, partial round holds its smallest tiles (-2 for the CTAs
  // past them); the chunk keeps a round's reads of a head's K and V in L2.
  // (bench/attn_sched_model.py, a tile costing its key tiles + 1/2, the six
  // causal bench shapes: mean over max work 0.97-1.00 where `_pc`'s equal
  // units give 0.87-0.97 -- d64 4K: 5.3 rounds of them take 6.)
  constexpr int ORDER = ${order};
  // this CTA's position in round r of gridDim.x positions, rotated by r, so
  // that a CTA's tile index within a head walks through all of them: with
  // 132 CTAs and a head's tiles (or units) a divisor of 132, a CTA would
  // otherwise draw the same one every round
  auto deal = [&](int r) { return (int)(r * gridDim.x + (blockIdx.x + r) % gridDim.x); };
  auto seq = [&](int q) { // (int: q gridDim.x stays below 2 tiles batch Hq)
    const int tiles = (Lq + BR - 1) / BR, bhs = batch * Hq;
    if (ORDER == 0) {
      // ROT (`_r`): rotated (SKIP's cheap tail tiles, 6 tiles a head at Lq
      // 1K, would all go to 22 CTAs)
      const int idx = ${rot} ? deal(q) : blockIdx.x + q * gridDim.x;
      // (rotated, a round's last positions may be past the end while the
      // round is not: none this time, -2; no round left, -1)
      return idx < tiles * bhs ? idx : q * gridDim.x < tiles * bhs ? -2 : -1;
    }
    if (ORDER == 2) {
      const int G = gridDim.x, h0 = max(1, min(bhs, (int)((16ll << 20) / (4ll * D * Lk))));
      const int R = (h0 * tiles + G - 1) / G, c = q / R, rr = q - c * R, bh0 = c * h0;
      if (bh0 >= bhs) return -1;
      const int hc = min(h0, bhs - bh0), n = hc * tiles;
      const int p = rr * G + (q & 1 ? G - 1 - blockIdx.x : blockIdx.x);
      if (p >= n) return bh0 + hc >= bhs ? -1 : -2; // the last chunk: no later round either
      const int j = p / hc;
      return (bh0 + p - j * hc) * tiles + j;
    }
    // R whole rounds of G units, units [0, u0), each dealt rotated: an odd
    // tile count's middle tile is a unit alone, half a pair's work, and with
    // G a multiple of npair (132 CTAs, 3 or 5 tiles a head) each CTA would
    // draw the same j every round -- half the CTAs all the pairs, the call
    // 1.3x a balanced one (d64 causal Lq 384, 82.5 against cuDNN's 60.2 us;
    // bench/NOTES.md 122)
    const int npair = (tiles + 1) / 2, G = gridDim.x, R = npair * bhs / G, u0 = R * G;
    if (q < 2 * R) {
      const int u = deal(q >> 1), bh = u / npair;
      const int j = u - bh * npair, tm = q & 1 ? tiles - 1 - j : j;
      return q & 1 && tm == j ? -2 : bh * tiles + tm;
    }
    // the units of the last, partial round (u >= u0) as single tiles, most
    // keys first -- every unit's first tiles j = 0, 1, ..., then their second
    // ones, j = npair - 1 down to 0 -- snake-dealt over the CTAs
    const int qr = q - 2 * R;
    int p = qr * G + (qr & 1 ? G - 1 - blockIdx.x : blockIdx.x);
    for (int k = 0; k < 2 * npair; k++) {
      const int j = k < npair ? k : 2 * npair - 1 - k, tm = k < npair ? j : tiles - 1 - j;
      if (k >= npair && tm == j) continue; // an odd count's middle tile: no second one
      // heads bh1 .. bhs - 1 have their unit j in the last round (bh npair + j >= u0)
      const int bh1 = u0 > j ? (u0 - j + npair - 1) / npair : 0;
      if (p < bhs - bh1) return (bh1 + p) * tiles + tm;
      p -= bhs - bh1;
    }
    return -1;
  };
  // tile idx: its keys: tiles nb0 + [0, n);
  // its sequence's lengths lq, lk and first tokens qt0, kt0 (varlen: the TMA
  // maps span the packed tokens, batch 1; the tile is past the sequence,
  // and skipped by producer and consumers alike, when m0 >= lq)
  auto tile = [&](int idx, int &b, int &h, int &m0, int &nb0, int &n, int &lq, int &lk, int &qt0,
                  int &kt0) {
    int tm, lo, hi;
    kp_attn_tile(idx, BR, Lq, Hq, wr, b, h, tm);
    m0 = tm * BR;
    lq = kp_attn_seq(cq, b, Lq, totq, qt0), lk = kp_attn_seq(ck, b, Lk, totk, kt0);
    kp_attn_keys(m0, min(lq, m0 + BR) - 1, lq, lk, wl, wr, lo, hi);
    nb0 = lo / BC, n = hi > lo ? (hi + BC - 1) / BC - nb0 : 0;
  };
  if (threadIdx.x == 0) {
    for (int b = 0; b < QB; b++) // (qfree: every consumer thread arrives, below)
      kp_mbar_init(&qfull[b], 1), kp_mbar_init(&qfree[b], 128 * NC);
    for (int s = 0; s < S; s++) {
      kp_mbar_init(&kfull[s], 1), kp_mbar_init(&vfull[s], 1);
      kp_mbar_init(&kfree[s], NC), kp_mbar_init(&vfree[s], NC);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x >= 128 * NC) { // producer
    asm volatile("setmaxnreg.dec.sync.aligned.u32 ${preg};");
    if (threadIdx.x == 128 * NC) {
      int it = 0; // K/V tiles loaded so far: stage it % S, round it / S
      // tile k's Q buffer, once its consumers have given back its last use
      auto q_slot = [&](int k) {
        const int x = k % QB;
        kp_mbar_wait(&qfree[x], (k / QB & 1) ^ 1);
        return x;
      };
      // k: the tiles served so far (Q's phase), skipped ones not counted
      int k = 0;
      for (int q = 0, idx; (idx = seq(q)) != -1; q++) {
        if (idx < 0) continue;
        int b, h, m0, nb0, n, lq, lk, qt0, kt0;
        tile(idx, b, h, m0, nb0, n, lq, lk, qt0, kt0);
        if (m0 >= lq) continue;
        const int hk = h / (Hq / Hkv), qb = cq ? 0 : b, kb = ck ? 0 : b;
        const int x = q_slot(k);
        next[x] = fa3_tile{b, h, m0, nb0, n, lq, lk, qt0, kt0}; // published by its arrival on qfull
        if (SKIP) ncnt[k % 4] = n;
        kp_mbar_expect_tx(&qfull[x], Q_BYTES);
        for (int p = 0; p < P; p++)
          kp_tma_load4(sq + x * Q_BYTES + p * Q_PANEL, &tmQ, 64 * p, qt0 + m0, h, qb, &qfull[x]);
        for (int j = 0; j < n; j++, it++) {
          const int s = it % S, ph = it / S & 1, k0 = kt0 + (nb0 + j) * BC;
          kp_mbar_wait(&kfree[s], ph ^ 1);
          kp_mbar_expect_tx(&kfull[s], KV_BYTES);
          for (int p = 0; p < P; p++)
            kp_tma_load4(sk + s * KV_BYTES + p * KV_PANEL, &tmK, 64 * p, k0, hk, kb, &kfull[s]);
          kp_mbar_wait(&vfree[s], ph ^ 1);
          kp_mbar_expect_tx(&vfull[s], KV_BYTES);
          for (int p = 0; p < P; p++)
            kp_tma_load4(sv + s * KV_BYTES + p * KV_PANEL, &tmV, 64 * p, k0, hk, kb, &vfull[s]);
        }
        k++;
      }
      const int x = q_slot(k); // none left: a phase of qfull without Q says so
      next[x].n = -1;
      kp_mbar_arrive(&qfull[x]);
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 ${creg};");
  // (wg by a shuffle from lane 0, CUTLASS's idiom, so that ptxas knows it
  // uniform over the warp: SKIP's nw, from wg, bounds the key loop, and a
  // bound it cannot prove uniform took the loop's stage arithmetic and wgmma
  // descriptors out of the uniform registers -- 55 more instructions a key
  // tile, 8% slower)
  const int wg = __shfl_sync(0xffffffffu, threadIdx.x / 128, 0);
  const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
  const int t = lane % 4;
  // accumulators of m64nN: this thread's values 4 j + 2 r + e are row i0 + 8 r, column 8 j + 2 t + e
  float o[D / 2], sc[BC / 2], mrow[2], lsum[2], alpha[2];
  kp_u32 pa[BC / 16][4]; // P as wgmma's A fragments: key step kk is S's n8 blocks 2 kk, 2 kk + 1
  // descriptors: address >> 4 in the low bits, so a k16 step within a panel
  // is + 2 (32 bytes), a panel + its bytes >> 4, a stage + KV_BYTES >> 4
  const unsigned long long dq = kp_wg_desc(sq + wg * 64 * 128), dk = kp_wg_desc(sk),
                           dv = kp_wg_desc_mn<KV_PANEL>(sv);
  int x = 0; // the current tile's Q buffer
  auto qk = [&](int s) { // S = Q K^T, K from stage s (Q from buffer x)
    const unsigned long long dqx = dq + x * (Q_BYTES >> 4);
    const unsigned long long kt = dk + s * (KV_BYTES >> 4);
#pragma unroll
    for (int kd = 0; kd < D / 16; kd++)
      kp_wgmma_${ab}_n${bc}(sc, dqx + kd / 4 * (Q_PANEL >> 4) + 2 * (kd % 4),
                           kt + kd / 4 * (KV_PANEL >> 4) + 2 * (kd % 4), kd > 0);
    kp_wg_commit();
  };
  auto pv = [&](int s) { // O += P V from stage s
#pragma unroll
    for (int kk = 0; kk < BC / 16; kk++)
      kp_wgmma_${ab}_n${d}_t_rs(o, pa[kk], dv + s * (KV_BYTES >> 4) + kk * (2048 >> 4), 1);
    kp_wg_commit();
  };
  auto to_p = [&]() {
#pragma unroll
    for (int kk = 0; kk < BC / 16; kk++)
#pragma unroll
      for (int q = 0; q < 4; q++) pa[kk][q] = kp_pair<${T}>::pack(sc[8 * kk + 2 * q], sc[8 * kk + 2 * q + 1]);
  };
  auto rescale = [&]() {
#pragma unroll
    for (int j = 0; j < D / 8; j++)
#pragma unroll
      for (int e = 0; e < 4; e++) o[4 * j + e] *= alpha[e / 2];
  };
  auto release = [&](unsigned long long *bar) { if (threadIdx.x % 128 == 0) kp_mbar_arrive(bar); };
  // Q and the tile with it go back from every consumer thread, not one a
  // warpgroup: each thread's read of `next` must come before the producer
  // writes the next tile there (compute-sanitizer racecheck flagged the
  // reads of the threads that did not arrive)
  auto give_q = [&]() { kp_mbar_arrive(&qfree[x]); };
  // PP: warpgroup w issues its matmuls once named barrier 1 + w lets it, then
  // lets the other go; warpgroup 0 first, and at the end it takes the turn
  // warpgroup 1's last one gave it, so that every barrier's arrivals match
  auto turn = [&]() { if (PP) kp_bar_sync(1 + wg, 256); };
  auto turn_done = [&]() { if (PP) kp_bar_arrive(2 - wg, 256); };
  if (PP && wg == 1) kp_bar_arrive(1, 256);
  int it = 0; // K/V tiles consumed so far, as the producer counts them
  for (int k = 0;; k++) {
    // (no wgmma in flight here: ptxas serialises every wgmma of a kernel
    // where other instructions write an accumulator while one is)
#pragma unroll
    for (int i = 0; i < D / 2; i++) o[i] = 0.f;
    // the tile, as the producer found it before loading its Q (the tile
    // arithmetic -- several integer divisions -- had sat here, between two
    // tiles' wgmmas: 7% of d64 1K causal's warp samples, H100)
    x = k % QB;
    kp_mbar_wait(&qfull[x], k / QB & 1);
    const fa3_tile c = next[x];
    if (c.n < 0) break;
    const int r0 = c.m0 + 64 * wg, i0 = r0 + 16 * warp + lane / 4; // rows r0 + [0, 64); i0, i0 + 8
    mrow[0] = mrow[1] = KP_NINF, lsum[0] = lsum[1] = 0.f;
    // SKIP: this warpgroup computes the tile's first nw key tiles, those
    // its own rows see under the right bound (none for rows past lq: a
    // 192-row tile's last 64 or 128 rows at Lq = 1K; a causal tile's
    // upper rows stop a key tile or more before its lower ones), and only
    // waits for and frees the stages of the rest.  The tiles it skips are
    // masked for every row it has: the same bits (alpha 1, P 0)
    int nw = c.n;
    if (SKIP && r0 >= c.lq) nw = 0;
    else if (SKIP && wr >= 0) {
      int lo, hi;
      kp_attn_keys(r0, min(c.lq, r0 + 64) - 1, c.lq, c.lk, wl, wr, lo, hi);
      nw = hi > lo ? max(0, min(c.n, (hi + BC - 1) / BC - c.nb0)) : 0;
    }
    if (nw == 0) {
      give_q();
    } else {
      // S of tile 0 ...
      kp_mbar_wait(&kfull[it % S], it / S & 1);
      turn();
      kp_wg_fence();
      qk(it % S);
      turn_done();
      kp_wg_wait<0>();
      release(&kfree[it % S]);
      if (nw == 1) give_q();
      kp_fa3_softmax<BC>(sc, mrow, lsum, alpha, r0, i0, c.nb0 * BC, t, c.lq, c.lk, wl, wr,
                         scale_log2);
      to_p(); // O is 0: nothing to rescale
      // ... then S of tile j with P V of tile j - 1, the softmax of j while P V runs ...
      for (int j = 1; j < nw; j++) {
        const int s = (it + j) % S, ph = (it + j) / S & 1, sp = (it + j - 1) % S,
                  pp = (it + j - 1) / S & 1;
        kp_mbar_wait(&kfull[s], ph);
        kp_mbar_wait(&vfull[sp], pp);
        turn();
        kp_wg_fence();
        qk(s);
        pv(sp);
        turn_done();
        kp_wg_wait<1>();
        release(&kfree[s]);
        if (j == nw - 1) give_q(); // Q's last reader has retired
        kp_fa3_softmax<BC>(sc, mrow, lsum, alpha, r0, i0, (c.nb0 + j) * BC, t, c.lq, c.lk, wl,
                           wr, scale_log2);
        kp_wg_wait<0>();
        release(&vfree[sp]);
        rescale();
        to_p();
      }
      // ... and P V of the last tile
      const int sp = (it + nw - 1) % S, pp = (it + nw - 1) / S & 1;
      kp_mbar_wait(&vfull[sp], pp);
      turn();
      kp_wg_fence();
      pv(sp);
      turn_done();
      kp_wg_wait<0>();
      release(&vfree[sp]);
    }
    // (SKIP) the stages of the key tiles this warpgroup skips: each freed
    // once loaded for this tile, so that no arrival counts for an earlier
    // phase of its barrier
    const int n = SKIP ? ncnt[k % 4] : nw;
    for (int j = nw; j < n; j++) {
      const int s = (it + j) % S, ph = (it + j) / S & 1;
      kp_mbar_wait(&kfull[s], ph);
      release(&kfree[s]);
      kp_mbar_wait(&vfull[s], ph);
      release(&vfree[s]);
    }
    it += n;
    // epilogue: O / l from the registers, LSE (the producer loads the next tile
    // meanwhile); rows past lq (varlen: the next sequence's) are not stored.
    // TS: into shared memory (the 128-byte swizzle of the TMA maps: chunk q
    // of row r at q ^ (r % 8)), then one thread a consumer stores its 64
    // rows by TMA; the buffer is free again once the last store has read it
    ${T} *Ob = O + kp_attn_at(cq, c.b, c.qt0, sob, sos) + c.h * soh;
    const bool lead = threadIdx.x % 128 == 0;
    if (TS) {
      if (lead) kp_attn_bulk_wait_read();
      kp_bar_sync(3 + wg, 128);
    }
#pragma unroll
    for (int r = 0; r < 2; r++) {
      float l = lsum[r];
      l += __shfl_xor_sync(0xffffffffu, l, 1);
      l += __shfl_xor_sync(0xffffffffu, l, 2);
      const float inv = kp_attn_inv(l);
      const int i = i0 + 8 * r;
      if (TS) {
        if (LSE && t == 0 && i < c.lq)
          LSE[kp_attn_lse_at(cq, c.b, c.qt0, c.h, i, Hq, Lq)] = kp_attn_lse(mrow[r] * scale_log2, l);
        const int rl = i - c.m0; // row within the tile
#pragma unroll
        for (int j = 0; j < D / 8; j++)
          kp_attn_sts32(so + j / 8 * Q_PANEL + rl * 128 + ((j % 8 ^ rl % 8) << 4) + 4 * t,
                        kp_pair<${T}>::pack(o[4 * j + 2 * r] * inv, o[4 * j + 2 * r + 1] * inv));
        continue;
      }
      if (i >= c.lq) continue;
      if (LSE && t == 0)
        LSE[kp_attn_lse_at(cq, c.b, c.qt0, c.h, i, Hq, Lq)] = kp_attn_lse(mrow[r] * scale_log2, l);
#pragma unroll
      for (int j = 0; j < D / 8; j++)
        *(kp_u32 *)(Ob + i * sos + 8 * j + 2 * t) =
            kp_pair<${T}>::pack(o[4 * j + 2 * r] * inv, o[4 * j + 2 * r + 1] * inv);
    }
    if (TS) {
      kp_attn_fence_async(); // the stores above, seen by the TMA unit
      kp_bar_sync(3 + wg, 128);
      if (lead) {
        for (int p = 0; p < P; p++)
          kp_attn_tma_store4(&tmO, so + p * Q_PANEL + wg * 64 * 128, 64 * p, c.m0 + 64 * wg, c.h,
                             c.b);
        kp_attn_bulk_commit();
      }
    }
  }
  if (PP && wg == 0) kp_bar_sync(1, 256);
  if (TS && threadIdx.x % 128 == 0) kp_attn_bulk_wait(); // the last stores are done
}
]]

-- p: d (64, 96, 128 or 256), bc (keys a tile), stages, pp, persistent, sched, ts, rank.  Form
-- bit 1 (the op's "no TMA": a stride of 0 over more than one row) is not
-- theirs, nor, for the persistent ones (`_p`), bit 3 (varlen: its tiles past
-- a sequence's end would leave a CTA's static share idle) and bit 0 (a mask): a CTA's
-- static share of causal tiles, taken blockIdx.x + k gridDim.x in the
-- grid's order, can be 3x another's (16K causal: 444 TF against 675 with
-- the hardware's own scheduling of one tile a CTA, H100).
local function emit_fa3(dt, p)
  local nc = p.nc or 2 -- consumer warpgroups of 64 query rows
  local name = string.format("attention_%s_d%d_wg_%dx%d_s%d%s%s", dt, p.d, 64 * nc, p.bc,
                             p.stages, p.pp and "_pp" or "",
                             p.sched == "pairs" and "_pc" or p.sched == "snake" and "_ps" or
                             p.persistent and "_p" or "") .. (p.rot and "_r" or "") ..
                             (p.masked and "m" or "")
  local ab = dt == "bf16" and "bf16" or "f16"
  -- whether the variant takes masked calls (form 1): `_pc`, `_ps`, `_p_rm`
  -- and the tile-a-CTA kernels; the unmasked persistent ones (`_p`) not
  local masks = p.sched or p.masked or not p.persistent
  -- registers: setmaxnreg moves them within the pool the CTA was launched
  -- with, __launch_bounds__(threads, 1)'s cap -- 64K / threads in eights --
  -- times threads (168 x 384 = 64512 at two consumers, not 64K): a consumer
  -- asking for more than the producer left in it waits forever.  The
  -- producer keeps 24 (32 with `_pc`'s and `_ps`'s tile arithmetic: 24 spilled), the
  -- consumers share the rest, 240 at most.
  local threads = 128 * (nc + 1)
  -- O through a TMA store (the persistent ones; p.ts = false: from the
  -- registers, and one Q buffer, where shared memory holds no more)
  local ts = (p.persistent or p.sched) and p.ts ~= false and true or false
  local pool = 65536 // threads // 8 * 8 * threads
  local preg = p.sched and 32 or 24
  -- Q buffers: two in the two-consumer kernels that loop over tiles (the
  -- next tile's Q loads while the current one runs); with three consumers
  -- their main loop lost 4-7% to it (128 registers a thread; d64 4K / 16K,
  -- H100, eighteenth session, call 3)
  local qb = (ts and nc == 2) and 2 or 1
  local creg = math.min(240, (pool - 128 * preg) // (128 * nc) // 8 * 8)
  assert(128 * (preg + nc * creg) <= pool, name .. ": setmaxnreg asks for more than the pool")
  variant {
    name = name, dtype = dt, block = 128 * (nc + 1), align = 16, rank = p.rank,
    targets = { "sm_90a" },
    -- forms: 0 (persistent), or 0, 1 and their varlen twins 8, 9 (and the
    -- workspace twins of each, 16 + f)
    -- (`_pc`: 1, masked, and its workspace twin 17)
    min_sm = 90, max_sm = 90,
    -- (`m`: a persistent kernel for masked calls alone, for short ones,
    -- where a head has one or two tiles and the rotated deal (`_r`) evens
    -- out their shares)
    forms = wave((p.sched or p.persistent) and (masks and 0x20002 or 0x10001) or 0x03030303),
    aux = p.bc,
    persistent = (p.persistent or p.sched) and 1 or nil,
    params = { d = p.d, bc = p.bc, stages = p.stages, pp = p.pp, persistent = p.persistent,
               sched = p.sched, nc = nc, rank = p.rank },
    -- Q (qb buffers), K and V stages, O (ts), alignment
    smem = ((qb + (ts and 1 or 0)) * 64 * nc + 2 * p.stages * p.bc) * ld(p.d) * 2 + 1024,
    tile = { lq = 64 * nc, bh = 1 }, min = { d = p.d, lq = p.min_lq },
    max = { d = p.d, lq = p.max_lq, lk = p.max_lk },
    source = COMMON .. wgmma(p.bc, ab) .. wgmma(p.d, ab, 1, true) .. subst(FA3_KERNEL, {
      name = name, T = ctype(dt), ab = ab, d = p.d, bc = p.bc, stages = p.stages, nc = nc,
      br = 64 * nc, threads = threads, creg = creg, preg = preg, qb = qb,
      pp = p.pp and "true" or "false", ts = ts and "true" or "false",
      skip = p.skip and "true" or "false", rot = p.rot and "true" or "false",
      cfpath = (p.d == 64 and masks) and CF_PATH or "",
      order = p.sched == "pairs" and 1 or p.sched == "snake" and 2 or 0,
      args = subst(ARGS, { T = ctype(dt) }),
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do
  -- H100, bf16, 16 heads, batch x seq = 16K (bench/RESULTS.md): persistent
  -- for calls without a mask (d128 1K: 540 against 495 TF, d64 1K: 382
  -- against 331); ping-pong within 1% of without at d128, up to 6% ahead
  -- at d64 causal; persistent, 3-11% behind (call 6, twelfth session): not there
  emit_fa3(dt, { d = 128, bc = 128, stages = 2, persistent = true, rank = 330 })
  -- `_p_rm`: the same, rotated, for masked calls up to 256 query rows
  -- (seventy-first session, H200, pinned beside `_pc`, two rounds, bf16 us;
  -- bench/NOTES.md 123): causal 256 72.7 / 73.5 against 77.5 / 76.8 (SDPA's
  -- best 71.7); 128 68.5 / 68.0 against 68.1 / 68.9; 384 84.7 / 84.8 against
  -- 85.1 / 85.8 (not ranked there: 512 unmeasured).  d64's twin ran level
  -- with its `_pc` at 128-384 (not kept).  Up to 256 keys too (measured
  -- with Lq = Lk only)
  emit_fa3(dt, { d = 128, bc = 128, stages = 2, persistent = true, rank = 335, rot = true,
                 masked = true, max_lq = 256, max_lk = 256 })
  emit_fa3(dt, { d = 128, bc = 128, stages = 2, pp = true, rank = 320 })
  emit_fa3(dt, { d = 128, bc = 128, stages = 2, rank = 310 })
  -- d = 64: three consumers of 64 rows (registers allow it there), 192-row
  -- tiles: 514 against 452 TF at 4K unmasked, 398 against 342 causal
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, nc = 3, persistent = true, rank = 340 })
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, nc = 3, rank = 325 })
  -- `_p_r`: the same with SKIP (a warpgroup past lq computes nothing) and
  -- the rotated deal (ROT: the cheap tail tiles spread over the CTAs).
  -- Seventieth session (H200, pinned beside `_p`, two processes, bf16 us;
  -- bench/NOTES.md 121): Lq 256 / 512 / 640 / 1000 / 1024 62.0 / 90.0 /
  -- 110.9 / 164.3 / 157.5 against 70.5 / 93.0 / 118.2 / 173.2 / 164.3, but
  -- 768 / 1536 / 2048 (no tail, or one warpgroup of 33) 1-2% behind: up
  -- to 1K query rows (lq is a bucketed dimension)
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, nc = 3, persistent = true, rank = 345, skip = true,
                 rot = true, max_lq = 1024 })
  -- the 128-row `_p` up to 256 query rows (seventieth session, pinned, bf16
  -- us; bench/NOTES.md 122): Lq 128 / 256 38.4 / 57.7 against `_p_r`'s
  -- 42.4 / 62.0 (SDPA's best 39.2 / 55.7); 384 75.4 against 69.2
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, persistent = true, rank = 350, max_lq = 256 })
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, pp = true, rank = 320 })
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, rank = 310 })
  -- persistent for masked calls.  `_ps` deals the tiles most keys first,
  -- snake-wise over the CTAs, heads in chunks of 16 MB of K and V; `_pc` in
  -- balanced pairs.  H100, bf16, causal, each pinned in one run
  -- (2026-11-26, twelfth session, the TMA-store epilogue; calls 3 / 4 of
  -- bench/results/2026-11-26-s12):
  --   d128 1K / 4K / 16K: `_pc` 158 / - / - and 156 / - / - us, `_ps` 164
  --   / 447 / 1633 and 164 / 445 / 1604 (the cross-tile `_psx`, first
  --   above 1K until then: 164 / 456 / 1692 and 163 / 451 / 1635): `_pc`
  --   up to 1K query rows, `_ps` above;
  --   d64 (eleventh session): 128-row `_ps` 124 / 335 / 1181, 192-row `_ps`
  --   136 / 323 / 1080, `_pc` 138 at 1K (416 and 1197 at 4K / 16K in the
  --   tenth session), the plain 192-row kernel 346 / 1089 at 4K / 16K:
  --   128-row tiles up to 1K (the 192-row ones spend a third of their work
  --   on the mask's empty half there), 192 above.  Twelfth (call 5): at 1K
  --   128-row `_pc` 117.1, 128-row `_ps` 124.8, 192-row `_ps` / `_pc` 132.0 /
  --   132.5: 128-row pairs up to 1K, 192-row `_ps` above (316.9 / 1061.6).
  --   Sixty-ninth session (H200, bf16, pinned beside the same kernels
  --   without it, two processes; bench/NOTES.md 120): the 192-row kernels
  --   with SKIP (each warpgroup only the key tiles its rows see) -- `_ps`
  --   1K / 2K / 4K / 16K 108.9-109.0 / 175.7-177.5 / 298.0-299.9 /
  --   1007.5-1007.8 us against 126.9-127.1 / 184.6-184.9 / 306.5-306.7 /
  --   1020.9-1024.1; at 1K level with 128-row `_pc` (110.0-110.1 there;
  --   109.8 / 109.5 on another H200, f16 111.0 / 110.5), at 512 ahead (69.3
  --   against 71.4), at 256 behind (59.3 against 53.0): first from 512
  --   query rows (lq is a bucketed dimension).  SKIP cost the kernels that
  --   skip nothing (128-row tiles, the unmasked `_p`) ~2%: theirs is off.
  --   Seventieth (H200, bf16, pinned; bench/NOTES.md 122): with `_pc`'s
  --   whole rounds rotated the 192-row `_pc` leads where the tiles leave a
  --   tail -- 384 / 576 / 640 / 704 / 896 / 960 62.0 / 71.9 / 83.0 / 80.9 /
  --   94.0 / 104.6 us against the 192-row `_ps`'s - / 78.6 / 99.6 / 83.1 /
  --   96.1 / 110.1 and the 128-row `_pc`'s 65.3 / 93.8 / 84.4 / 100.8 / 99.5
  --   / 121.4 -- and trails the 192-row `_ps` by 1.4 / 3.3 / 0.7% at 512 /
  --   768 / 1024, and the 128-row `_pc` at 256 (58.2 against 54.8): first
  --   from 257 query rows to 1023 (256 and 1024 are classes of their own:
  --   the bar's shape stays on `_ps`), 320 60.5 against 75.7
  emit_fa3(dt, { d = 128, bc = 128, stages = 2, sched = "pairs", rank = 330, max_lq = 1024 })
  emit_fa3(dt, { d = 128, bc = 128, stages = 2, sched = "snake", rank = 329 })
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, sched = "pairs", rank = 337, max_lq = 1024 })
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, sched = "snake", rank = 336, max_lq = 1024 })
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, nc = 3, sched = "snake", rank = 338, skip = true,
                 min_lq = 512 })
  emit_fa3(dt, { d = 64, bc = 128, stages = 3, nc = 3, sched = "pairs", rank = 339, min_lq = 257,
                 max_lq = 1023, skip = true })
  -- 64-key tiles with SKIP: a causal tile's first warpgroup sees only the
  -- first 64 of the diagonal's 128 keys, so at Lq 128 (a head one tile) it
  -- does half the work.  Seventy-first session (H200, pinned beside the
  -- picks, two rounds, bf16 us; bench/NOTES.md 125): causal 128 d64 42.4 /
  -- 42.5 against the 128-row `_pc`'s 45.3 / 45.2 (cuDNN 42.0), d128 67.2 /
  -- 67.3 against `_p_rm`'s 68.4 / 67.4 and `_pc`'s 68.5 / 68.2; from 256
  -- on behind (d64 256 53.3 against 50.5, d128 73.3 against 71.1): first
  -- up to 128 query rows and 128 keys (longer keys, as a prefill against a
  -- KV cache has them, unmeasured: 64-key tiles cost more a key there)
  emit_fa3(dt, { d = 64, bc = 64, stages = 4, sched = "pairs", rank = 341, skip = true,
                 max_lq = 128, max_lk = 128 })
  emit_fa3(dt, { d = 128, bc = 64, stages = 3, sched = "pairs", rank = 336, skip = true,
                 max_lq = 128, max_lk = 128 })
  -- d256: 64- or 80-key tiles (FlashAttention-3's 128 x 80), O's 128
  -- accumulators a consumer thread; one Q buffer and O stored from the
  -- registers (shared memory holds no more); ping-pong spills.  H100, bf16,
  -- 16 heads, causal (2026-11-27, twenty-third session, call 6): the pairs
  -- `_pc` (80-key tiles spill there) 313 / 854 / 3265 us at 1K / 4K / 16K,
  -- the plain 128x80 332 / 852 / 2926: the pairs up to 1K
  emit_fa3(dt, { d = 256, bc = 80, stages = 2, rank = 310 })
  emit_fa3(dt, { d = 256, bc = 64, stages = 2, rank = 305 })
  emit_fa3(dt, { d = 256, bc = 64, stages = 2, sched = "pairs", ts = false, rank = 315,
                 max_lq = 1024 })
  -- d96: d128's tiles and schedules (two panels of 64 columns, the second
  -- half zeros)
  emit_fa3(dt, { d = 96, bc = 128, stages = 2, persistent = true, rank = 330 })
  emit_fa3(dt, { d = 96, bc = 128, stages = 2, pp = true, rank = 320 })
  emit_fa3(dt, { d = 96, bc = 128, stages = 2, rank = 310 })
  emit_fa3(dt, { d = 96, bc = 128, stages = 2, sched = "pairs", rank = 330, max_lq = 1024 })
  emit_fa3(dt, { d = 96, bc = 128, stages = 2, sched = "snake", rank = 329 })
end

-- ---- decode: few query rows, many keys, split across warps and CTAs ---------------
-- `attention_<dt>_d<D>_dec_w<W>x<BC>_s<S>[_c<CL>|_sk]` (Lq <= 16; `_c` on
-- sm_90a; `_sk`, any target, for calls with a workspace: below, at ${sk}):
-- the G = Hq / Hkv query heads that share a KV head are packed into the rows
-- of one tile (row r: head r / Lq of the group, query r % Lq), so K and V
-- are read once for all of them; 16 rows a tile (m16n8k16 as in the FA2
-- kernels, Q fragments in registers up to d128).  Its visible key tiles of BC keys are
-- split evenly over the CL CTAs of a cluster, and each CTA's share over its
-- W warps, warp w taking every W-th tile through a ring of S stages of its
-- own (cp.async, no block-wide barrier in the loop).  Each warp keeps its
-- online softmax state; at the end the warps' partial sums meet in shared
-- memory (O and the sums scaled to the common maximum), then the CTAs':
-- CTA r finishes columns [r D / CL, (r + 1) D / CL) (CTA 0 the LSE), every
-- CTA pushing it those columns of its partial by st.async onto r's mbarrier
-- behind one relaxed cluster barrier (no memory fence: pulled through
-- distributed shared memory between two release cluster barriers, batch 1
-- ran 45.7 against 42.1 us on an H200, bench/NOTES.md 62).  So a long
-- sequence fills the GPU even at batch 1.  Persistent (two CTAs an SM): the family's grid rule knows
-- nothing of G, so the clusters that fit loop over the batch * Hkv *
-- ceil(G Lq / 16) packed tiles (with one cluster a tile, 3/4 of the blocks
-- had nothing to do at 32/8 heads).  Varlen: a sequence's rows are packed
-- by its own length lq (<= Lq), and its tiles past G lq rows are skipped by
-- the whole cluster; paged K and V with cu_seqlens_k: its own lk keys (the
-- vLLM decode batch of different context lengths).
-- load_kv's key rows, paged: a row's page is found once for K and V (a
-- shift where the page size is a power of two) in the CTA's share of the
-- block table, copied to shared memory at the tile's start as element
-- offsets in K and V (spk, spv: each page's first row, or each tile's for
-- the clusters' flat path; nq 0: more than PT entries, read in place).
-- With kp_attn_krow twice a
-- row (a division and a global load in front of each copy), paged decode at
-- batch 1 ran 22% slower than contiguous on H200 (ncu: ~17% more
-- instructions issued, bench/NOTES.md 36); finding the page once brought
-- that to 12%, the table's share in shared memory to 9% (2026-11-26,
-- bench/NOTES.md 37).  The offsets, not the page indices, take a tile's
-- lookup from ~50 instructions to ~10: the clusters' warps (one a
-- scheduler) pay each instruction's latency, and ncu counted paged batch 1
-- at 9.3% more instructions than contiguous, 13% more active cycles
-- (bench/NOTES.md 76).
local DEC_PT = 512 -- block-table entries (tiles or pages) a CTA keeps in shared memory (8 KB)
local DEC_KERNEL = [[
// ${name}: <= 16 query rows, ${w} warps x ${bc}-key tiles, ${stages} stages a warp, ${cl} CTAs a cluster
extern "C" __global__ void __launch_bounds__(${threads}, ${minb})
${name}(${args}) {
  constexpr int D = ${d}, W = ${w}, BC = ${bc}, S = ${stages}, CL = ${cl}, NT = 32 * W;
  constexpr int DF = D / 8, KF = BC / 8, LDO = D + 4; // LDO: row stride of the float partials
  // LD: the row stride of Q and the ring, D rounded up to 64 (d96: 128), so
  // that the swizzle's chunk c ^ (r % 8) stays inside the row
  constexpr int LD = (D + 63) / 64 * 64;
  static_assert(W * S * 2 * BC * LD * 2 >= (W + 1) * 16 * LDO * 4 + 2 * (W + 1) * 16 * 4,
                "the partials fit in the ring");
  extern __shared__ __align__(128) unsigned char kp_dyn[];
  ${T} *sq = (${T} *)kp_dyn;                 // [16][LD]
  ${T} *ring = sq + 16 * LD;                 // [W][S][K, V][BC][LD]
  // paged: the CTA's share of the table, as element offsets of rows of KV
  // head hk in K and V (-1: a page index outside the cache; below)
  constexpr int PT = ${pt};
  long long *spk = (long long *)(ring + W * S * 2 * BC * LD), *spv = spk + PT; // [PT] each
  const int psh = BT && (page & (page - 1)) == 0 ? __ffs(page) - 1 : -1; // a page of 2^psh tokens
  auto page_of = [&](int j) { return psh >= 0 ? j >> psh : j / page; }; // key j's page in the table
  auto at = [](int r, int c) { return r * LD + 8 * (c ^ (r & 7)); }; // chunk c of row r
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32, g = lane / 4, t = lane % 4;
  const int G = Hq / Hkv, pts = (G * Lq + 15) / 16, ntiles = batch * Hkv * pts;
  const int rank = blockIdx.x % CL; // = %cluster_ctarank: the clusters are 1-d runs of the grid
#if ${sk}
  // split-KV: the tiles' key blocks in a row, NU = ceil(Lk / BC) a tile (the
  // bound: a shorter or masked sequence's blocks past its keys are empty), U
  // of them; CTA p takes units [p U / P, (p + 1) U / P) (the op keeps U P <
  // 2^62).
  // P, the CTAs that take a share (those past it leave): the tiles' shares
  // start at the same keys, so the KV heads of a batch, whose rows share
  // DRAM pages (K and V as (batch, keys, heads, D): 8 heads of d128 are a 2
  // KB run a key), are read at the same keys at once -- S whole CTAs a tile
  // where the grid holds the tiles, or k whole tiles a CTA where it does not;
  // where that leaves more than 1/16 of the grid idle, the grid, shares
  // wherever they fall (H100, 32 / 8 heads: batch 2-8 2-7% faster than the
  // plain grid, bench/NOTES.md 52)
  long long P = gridDim.x;
  if (P >= ntiles) {
    if ((P % ntiles) * 16 <= P) P -= P % ntiles;
  } else {
    const long long k = (ntiles + P - 1) / P;
    if (ntiles % k == 0 && (P - ntiles / k) * 16 <= P) P = ntiles / k;
  }
  if (blockIdx.x >= P) return;
  const long long NU = (Lk + BC - 1) / BC, U = (long long)ntiles * NU;
  const long long u0 = blockIdx.x * U / P, u1 = (blockIdx.x + 1) * U / P;
  // WS: a counter a tile; below it 2 P slots of 16 D + 32 floats, slot k at
  // WS - (k + 1) (16 D + 32) (the op sizes them for D <= 256: the counters of
  // every call on the device at one place, left zero by each)
  static_assert(D <= 256, "the op's slots (ATTN_SK_MAX_D)");
  int *cnt = (int *)WS;
  __shared__ int last;
  for (int tile = (int)(u0 / NU); u0 < u1 && tile < ntiles && tile * NU < u1; tile++) {
#else
#if ${cl} > 1
  // every CTA's share of the others' partials arrives by st.async on rxbar
  // (below); initialised here, seen by the cluster after the first tile's
  // cluster barrier
  __shared__ unsigned long long rxbar;
  if (threadIdx.x == 0) {
    kp_mbar_init(&rxbar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  int rxph = 0; // rxbar's phase: a tile's shares complete one
#endif
  // persistent: the cluster takes packed tiles blockIdx.x / CL + k gridDim.x / CL
  for (int tile = blockIdx.x / CL; tile < ntiles; tile += gridDim.x / CL) {
#endif
  const int b = tile / (Hkv * pts), hk = tile / pts % Hkv, p0 = tile % pts * 16;
  // the sequence's lengths (varlen: its own, within the bounds Lq, Lk; its
  // rows packed by its own lq, so the tiles past G lq rows have none)
  int qt0, kt0;
  const int lq = kp_attn_seq(CQ, b, Lq, totq, qt0), lk = kp_attn_seq(CK, b, Lk, totk, kt0);
  const int rows = min(16, G * lq - p0); // packed rows in use
  if (rows <= 0) continue; // every CTA of the cluster alike: no barrier is skipped by one alone
  // packed row r (< 16): query head hk G + (p0 + r) / lq, query row (p0 + r) % lq
  auto qrow = [&](int r) { return (p0 + r) % lq; };
  auto qhead = [&](int r) { return hk * G + (p0 + r) / lq; };
  const long long qb = kp_attn_at(CQ, b, qt0, sqb, sqs), ob = kp_attn_at(CQ, b, qt0, sob, sos),
                  kb = kp_attn_at(CK, b, kt0, skb, sks), vb = kp_attn_at(CK, b, kt0, svb, svs);
  int imin = lq, imax = 0;
  for (int r = 0; r < rows; r++) imin = min(imin, qrow(r)), imax = max(imax, qrow(r));
  int lo, hi;
  kp_attn_keys(imin, imax, lq, lk, wl, wr, lo, hi);
  const int nb0 = lo / BC, nbt = hi > lo ? (hi + BC - 1) / BC - nb0 : 0;
#if ${sk}
  // this CTA's blocks of the tile, and the CTAs sharing it, sh0 .. sh1 (unit u
  // is CTA ((u + 1) P - 1) / U's)
  const long long tb = tile * NU;
  const int c0 = (int)max((long long)nb0, max(u0, tb) - tb);
  const int c1 = (int)min((long long)(nb0 + nbt), min(u1, tb + NU) - tb);
  const int sh0 = (int)(((tb + 1) * P - 1) / U), sh1 = (int)(((tb + NU) * P - 1) / U);
#else
  const int c0 = nb0 + rank * nbt / CL, c1 = nb0 + (rank + 1) * nbt / CL; // this CTA's tiles
#endif
  ${T} *ks = ring + w * S * 2 * BC * LD;
  // flat (the clusters): a tile's rows one stride apart (contiguous K and
  // V, or paged with pages a whole number of tiles), each 16-byte copy's
  // address from the tile's first row -- no lookup a row, no shuffles.
  // `_c16` at batch 1 (H200, d128): 41.9 against 43.6 us, paged 44.6
  // against 45.5; `_s2_sk` 46.5 against 45.3 (batch 8 level), so the
  // split-KV kernel keeps the lanes' rows (bench/NOTES.md 62)
  const bool flat = CL > 1 && (!BT || page % BC == 0);
  // paged: entries q0 .. q0 + nq - 1 of spk, spv (nq 0: none, or more than
  // PT: the table read in place) -- the flat path's tiles c0 .. c1 - 1 (the
  // offsets of their first rows: a tile's lookup one load; ncu at batch 1
  // 1.5% more instructions than contiguous, 4.8% with a page's entries,
  // bench/NOTES.md 76), else the pages holding the CTA's keys (their first
  // rows)
  int q0 = 0, nq = 0;
  if (BT && c1 > c0) {
    if (flat) {
      q0 = c0, nq = c1 - c0;
    } else {
      const int e = min(c1 * BC, lk) - 1; // the CTA's last key
      q0 = page_of(c0 * BC);
      nq = page_of(e) - q0 + 1;
    }
    if (nq > PT) nq = 0;
    for (int i = threadIdx.x; i < nq; i += NT) {
      const int j = (q0 + i) * (flat ? BC : page); // the entry's first key
      const int q = page_of(j), r = j - q * page, pg = BT[b * bts + q];
      const bool in = pg >= 0 && pg < npages;
      spk[i] = in ? pg * skb + hk * skh + r * sks : -1;
      spv[i] = in ? pg * svb + hk * svh + r * svs : -1;
    }
  }
  if (BT) __syncthreads(); // every warp's loads below read spk, spv (the whole CTA alike)
  // key j's rows in K and V (from spk, spv where they hold the pages): null
  // outside the cache
  auto paged_rows = [&](int j, const ${T} *&kr, const ${T} *&vr) {
    const int q = page_of(j), r = j - q * page;
    if (nq) {
      const long long ok = spk[q - q0], ov = spv[q - q0];
      kr = ok < 0 ? nullptr : K + ok + r * sks;
      vr = ov < 0 ? nullptr : V + ov + r * svs;
    } else {
      const int pg = BT[b * bts + q];
      kr = kp_attn_paged_row(K, skb, sks, skh, hk, pg, r, npages);
      vr = kp_attn_paged_row(V, svb, svs, svh, hk, pg, r, npages);
    }
  };
  // K and V rows nb BC + [0, BC), contiguous or paged: lane r < BC finds row
  // r's addresses (its page's offsets from spk, spv when paged), the lanes copying its
  // 16-byte chunks get them by shuffle
  static_assert(BC <= 32, "a lane a key row");
  auto load_kv = [&](int s, int nb) {
    constexpr int CH = D / 8;
    if (flat) {
      const int j0 = nb * BC;
      const ${T} *k0 = nullptr, *v0 = nullptr;
      if (j0 < lk && !BT) {
        k0 = K + kb + hk * skh + j0 * sks, v0 = V + vb + hk * svh + j0 * svs;
      } else if (j0 < lk && nq) {
        const long long ok = spk[nb - q0], ov = spv[nb - q0];
        k0 = ok < 0 ? nullptr : K + ok, v0 = ov < 0 ? nullptr : V + ov;
      } else if (j0 < lk) { // (nq 0: paged_rows reads the table in place)
        paged_rows(j0, k0, v0);
      }
#pragma unroll
      for (int k = 0; k < BC * CH / 32; k++) {
        const int i = lane + 32 * k, r = i / CH, c = i % CH;
        const bool in = j0 + r < lk && k0; // (k0 and v0 are both set or both not)
        kp_cp16(ks + (2 * s) * BC * LD + at(r, c), in ? k0 + r * sks + 8 * c : K, in ? 16 : 0);
        kp_cp16(ks + (2 * s + 1) * BC * LD + at(r, c), in ? v0 + r * svs + 8 * c : V, in ? 16 : 0);
      }
      return;
    }
    const int j = nb * BC + lane % BC;
    const ${T} *kr = nullptr, *vr = nullptr;
    if (j < lk && !BT) {
      kr = kp_attn_krow(K, skb, sks, skh, kb, b, hk, j, BT, bts, page, npages);
      vr = kp_attn_krow(V, svb, svs, svh, vb, b, hk, j, BT, bts, page, npages);
    } else if (j < lk) {
      paged_rows(j, kr, vr);
    }
#pragma unroll
    for (int k = 0; k < BC * CH / 32; k++) {
      const int i = lane + 32 * k, r = i / CH, c = i % CH;
      const ${T} *kx = (const ${T} *)__shfl_sync(0xffffffffu, (unsigned long long)kr, r);
      const ${T} *vx = (const ${T} *)__shfl_sync(0xffffffffu, (unsigned long long)vr, r);
      kp_cp16(ks + (2 * s) * BC * LD + at(r, c), kx ? kx + 8 * c : K, kx ? 16 : 0);
      kp_cp16(ks + (2 * s + 1) * BC * LD + at(r, c), vx ? vx + 8 * c : V, vx ? 16 : 0);
    }
  };
  for (int x = threadIdx.x; x < 16 * D / 8; x += NT) { // Q, a row at a time (rows past `rows`: 0)
    const int r = x / (D / 8), c = x % (D / 8);
    const bool in = r < rows;
    kp_cp16(sq + at(r, c), in ? Q + qb + qrow(r) * sqs + qhead(r) * sqh + 8 * c : Q, in ? 16 : 0);
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
#pragma unroll
  for (int s = 0; s < S - 1; s++) {
    if (c0 + w + s * W < c1) load_kv(s, c0 + w + s * W);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.wait_group %0;" ::"n"(S - 1) : "memory");
  __syncthreads(); // Q landed
  // Q's fragments held in registers up to d128; at d256 O's 128 accumulators
  // a thread leave no room for them, and each tile reads them again
  constexpr bool QREG = D <= 128;
  kp_u32 qf[QREG ? D / 16 : 1][4];
  if (QREG) {
#pragma unroll
    for (int kd = 0; kd < D / 16; kd++)
      kp_ldsm_x4(qf[QREG ? kd : 0], sq + at(lane % 16, 2 * kd + lane / 16));
  }
  float o[DF][4], mrow[2] = {KP_NINF, KP_NINF}, lsum[2] = {0.f, 0.f};
#pragma unroll
  for (int f = 0; f < DF; f++) o[f][0] = o[f][1] = o[f][2] = o[f][3] = 0.f;
  const int off = lk - lq, i0[2] = {qrow(g), qrow(g + 8)}; // this thread's query rows
  for (int nb = c0 + w, it = 0; nb < c1; nb += W, it++) {
    asm volatile("cp.async.wait_group %0;" ::"n"(S - 2) : "memory");
    __syncwarp(); // tile nb landed for every lane; every lane is done with stage (it - 1) % S
    if (nb + (S - 1) * W < c1) load_kv((it + S - 1) % S, nb + (S - 1) * W);
    asm volatile("cp.async.commit_group;" ::: "memory");
    const ${T} *kt = ks + (2 * (it % S)) * BC * LD, *vt = kt + BC * LD;
    float s[KF][4];
#pragma unroll
    for (int f = 0; f < KF; f++) s[f][0] = s[f][1] = s[f][2] = s[f][3] = 0.f;
#pragma unroll
    for (int kd = 0; kd < D / 16; kd++) {
      kp_u32 qt[4];
      if (!QREG) kp_ldsm_x4(qt, sq + at(lane % 16, 2 * kd + lane / 16));
      const kp_u32 *a = QREG ? qf[QREG ? kd : 0] : qt;
#pragma unroll
      for (int nj = 0; nj < BC / 16; nj++) {
        kp_u32 kf[4];
        kp_ldsm_x4(kf, kt + at(16 * nj + lane % 8 + lane / 16 * 8, 2 * kd + lane / 8 % 2));
        kp_mma16816<${T}>(s[2 * nj], a, kf[0], kf[1]);
        kp_mma16816<${T}>(s[2 * nj + 1], a, kf[2], kf[3]);
      }
    }
    const int n0 = nb * BC;
    if (n0 + BC > lk || (wr >= 0 && n0 + BC - 1 > imin + off + wr) ||
        (wl >= 0 && n0 < imax + off - wl)) {
#pragma unroll
      for (int f = 0; f < KF; f++)
#pragma unroll
        for (int e = 0; e < 4; e++)
          if (kp_attn_hidden(i0[e / 2], n0 + 8 * f + 2 * t + e % 2, lq, lk, wl, wr))
            s[f][e] = KP_NINF;
    }
#pragma unroll
    for (int r = 0; r < 2; r++) {
      float mx = KP_NINF;
#pragma unroll
      for (int f = 0; f < KF; f++) mx = fmaxf(mx, fmaxf(s[f][2 * r], s[f][2 * r + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float mnew = fmaxf(mrow[r], mx);
      const float ms = mnew == KP_NINF ? 0.f : mnew * scale_log2;
      const float alpha = kp_attn_exp2(mrow[r] * scale_log2 - ms);
      mrow[r] = mnew;
      float sum = 0.f;
#pragma unroll
      for (int f = 0; f < KF; f++) {
        s[f][2 * r] = kp_attn_exp2(fmaf(s[f][2 * r], scale_log2, -ms));
        s[f][2 * r + 1] = kp_attn_exp2(fmaf(s[f][2 * r + 1], scale_log2, -ms));
        sum += s[f][2 * r] + s[f][2 * r + 1];
      }
      lsum[r] = lsum[r] * alpha + sum;
#pragma unroll
      for (int f = 0; f < DF; f++) o[f][2 * r] *= alpha, o[f][2 * r + 1] *= alpha;
    }
#pragma unroll
    for (int kk = 0; kk < BC / 16; kk++) {
      kp_u32 pf[4];
      pf[0] = kp_pair<${T}>::pack(s[2 * kk][0], s[2 * kk][1]);
      pf[1] = kp_pair<${T}>::pack(s[2 * kk][2], s[2 * kk][3]);
      pf[2] = kp_pair<${T}>::pack(s[2 * kk + 1][0], s[2 * kk + 1][1]);
      pf[3] = kp_pair<${T}>::pack(s[2 * kk + 1][2], s[2 * kk + 1][3]);
#pragma unroll
      for (int dj = 0; dj < D / 16; dj++) {
        kp_u32 vf[4];
        kp_ldsm_x4t(vf, vt + at(16 * kk + lane % 16, 2 * dj + lane / 16));
        kp_mma16816<${T}>(o[2 * dj], pf, vf[0], vf[1]);
        kp_mma16816<${T}>(o[2 * dj + 1], pf, vf[2], vf[3]);
      }
    }
  }
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads(); // every warp is done with the ring: it holds the partials now
  // warp w's partials: po[w][row][col] (O, scaled to its own max), pm[w][row]
  // = its max * scale * log2(e) (-inf: no key), pl[w][row] its sum; the
  // CTA's own at index W, each scaled to the CTA's max
  float *po = (float *)ring, *pm = po + (W + 1) * 16 * LDO, *pl = pm + (W + 1) * 16;
#pragma unroll
  for (int r = 0; r < 2; r++) {
    float l = lsum[r];
    l += __shfl_xor_sync(0xffffffffu, l, 1);
    l += __shfl_xor_sync(0xffffffffu, l, 2);
    const int row = g + 8 * r;
    if (t == 0) {
      pm[w * 16 + row] = mrow[r] == KP_NINF ? KP_NINF : mrow[r] * scale_log2;
      pl[w * 16 + row] = l;
    }
#pragma unroll
    for (int f = 0; f < DF; f++)
      *(float2 *)&po[(w * 16 + row) * LDO + 8 * f + 2 * t] = make_float2(o[f][2 * r], o[f][2 * r + 1]);
  }
  __syncthreads();
  // the CTA's partial: thread x takes (row, 4 columns) pairs
  for (int e = threadIdx.x; e < 16 * D / 4; e += NT) {
    const int row = e / (D / 4), col = 4 * (e % (D / 4));
    float mx = KP_NINF;
#pragma unroll
    for (int v = 0; v < W; v++) mx = fmaxf(mx, pm[v * 16 + row]);
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    float l = 0.f;
#pragma unroll
    for (int v = 0; v < W; v++) {
      const float c = kp_attn_exp2(pm[v * 16 + row] - (mx == KP_NINF ? 0.f : mx));
      const float4 x = *(const float4 *)&po[(v * 16 + row) * LDO + col];
      acc.x = fmaf(c, x.x, acc.x), acc.y = fmaf(c, x.y, acc.y);
      acc.z = fmaf(c, x.z, acc.z), acc.w = fmaf(c, x.w, acc.w);
      l = fmaf(c, pl[v * 16 + row], l);
    }
    *(float4 *)&po[(W * 16 + row) * LDO + col] = acc;
    if (col == 0) pm[W * 16 + row] = mx, pl[W * 16 + row] = l;
  }
#if ${cl} > 1
  // CTA q finishes columns [cq(q), cq(q) + dq(q)) from every CTA's share of
  // them, pushed by st.async into its receive buffer rx: CTA r's share at
  // rx + r RXS, O's 16 rows x dq(q) columns at [row dq(q) + j], then the 16
  // maxima and the 16 sums.  rx lies in the ring past this CTA's partials:
  // no CTA sends before the whole cluster is done with its ring (a relaxed
  // cluster barrier: no memory fence, the data and its completion travel
  // together), nor before every CTA has merged the tile before (it reaches
  // this tile's barrier after).
  {
    constexpr int DCM = (D + CL - 1) / CL, RXS = 16 * DCM + 32;
    static_assert(((W + 1) * 16 * LDO + 2 * (W + 1) * 16 + CL * RXS) * 4 <= W * S * 2 * BC * LD * 2,
                  "the receive buffer fits in the ring past the partials");
    float *rx = pl + (W + 1) * 16;
    auto cq = [](int q) { return D % CL == 0 ? q * (D / CL) : q * D / CL; };
    auto dq = [&](int q) { return D % CL == 0 ? D / CL : (q + 1) * D / CL - cq(q); };
    const int cb = cq(rank), DC = dq(rank);
    if (threadIdx.x == 0) kp_mbar_expect_tx(&rxbar, CL * (16 * DC + 32) * 4);
    __syncthreads(); // the CTA's partial is written
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    const kp_u32 me = kp_smem_addr(rx + rank * RXS), mb = kp_smem_addr(&rxbar);
    if constexpr (D % CL == 0 && D / CL % 4 == 0) { // float4s: O's rows, then 8 of pm, pl
      constexpr int DV = D / CL / 4, NO = CL * 16 * DV;
      for (int e = threadIdx.x; e < NO + CL * 8; e += NT) {
        const int q = e < NO ? e / (16 * DV) : (e - NO) / 8, i = e < NO ? e % (16 * DV) : (e - NO) % 8;
        const float *x = e < NO ? &po[(W * 16 + i / DV) * LDO + q * (D / CL) + 4 * (i % DV)]
                                : (i < 4 ? pm : pl) + W * 16 + 4 * (i % 4);
        kp_attn_push4(me + 4 * (e < NO ? 4 * i : 16 * (D / CL) + 4 * i), *(const float4 *)x, mb, q);
      }
    } else { // one float at a time
      for (int e = threadIdx.x; e < CL * (16 * DCM + 32); e += NT) {
        const int q = e / (16 * DCM + 32), i = e % (16 * DCM + 32), n = dq(q);
        if (i >= 16 * n + 32) continue;
        const float x = i < 16 * n ? po[(W * 16 + i / n) * LDO + cq(q) + i % n]
                                   : (i < 16 * n + 16 ? pm : pl)[W * 16 + (i - 16 * n) % 16];
        kp_attn_push1(me + 4 * i, x, mb, q);
      }
    }
    kp_mbar_wait(&rxbar, rxph);
    rxph ^= 1;
    for (int e = threadIdx.x; e < 16 * DC; e += NT) {
      const int row = e / DC, col = cb + e % DC;
      float mx = KP_NINF, acc = 0.f, l = 0.f, cm[CL];
#pragma unroll
      for (int r = 0; r < CL; r++) cm[r] = rx[r * RXS + 16 * DC + row], mx = fmaxf(mx, cm[r]);
#pragma unroll
      for (int r = 0; r < CL; r++) {
        const float c = kp_attn_exp2(cm[r] - (mx == KP_NINF ? 0.f : mx));
        acc = fmaf(c, rx[r * RXS + e], acc);
        l = fmaf(c, rx[r * RXS + 16 * DC + 16 + row], l);
      }
      if (row < rows) {
        const int i = qrow(row), h = qhead(row);
        O[ob + i * sos + h * soh + col] = kp_from_f32<${T}>(acc * kp_attn_inv(l));
        if (LSE && rank == 0 && col == 0)
          LSE[kp_attn_lse_at(CQ, b, qt0, h, i, Hq, Lq)] = kp_attn_lse(mx, l);
      }
    }
    __syncthreads(); // rx is read before the next tile's loads
  }
#else
  __syncthreads();
#if ${sk}
  if (sh0 < sh1) { // shared: the partial to slot 2 p (the CTA's first tile) or 2 p + 1 (its last)
    // CTA p > sh0 began in this tile (slot 2 p); CTA sh0 began in it or before
    const long long s0 = 2ll * sh0 + (sh0 * U / P < tb ? 1 : 0);
    auto slot = [&](int p) { return WS - ((p == sh0 ? s0 : 2ll * p) + 1) * (16 * D + 32); };
    float *sl = slot(blockIdx.x);
    for (int e = threadIdx.x; e < rows * D / 4; e += NT) {
      const int row = e / (D / 4), col = 4 * (e % (D / 4));
      *(float4 *)&sl[row * D + col] = *(const float4 *)&po[(W * 16 + row) * LDO + col];
    }
    if (threadIdx.x < rows) {
      sl[16 * D + threadIdx.x] = pm[W * 16 + threadIdx.x];
      sl[16 * D + 16 + threadIdx.x] = pl[W * 16 + threadIdx.x];
    }
    // the count: after the barrier (every thread's stores before it) thread
    // 0 releases the CTA's partial, and in the last CTA acquires everyone's,
    // by one acq_rel atomic (MEMBAR, ATOM, L1 invalidation): a fence on each
    // side of a relaxed one cost the last CTA a second MEMBAR.GPU (0.3-0.7
    // us at batch 1, bench/NOTES.md 80)
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned old;
      asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
                   : "=r"(old) : "l"(__cvta_generic_to_global(&cnt[tile])) : "memory");
      last = old == (unsigned)(sh1 - sh0);
    }
    __syncthreads();
    // The merge's code runs once a call, at its end, and comes from DRAM
    // (a call's keys have pushed it out of L2) a few lines at a time: the
    // last CTAs of the tiles, which reach it together, took ~9 us over it
    // at batch 1 (bench/NOTES.md 79, 80).  So a CTA that is not its tile's
    // last runs the same code at its own last tile, dry (its own partial,
    // nothing stored): the first of them bring it into L2 while the others
    // still count.
    const bool dry = !last;
    if (dry && (tile + 1) * NU < u1 && tile + 1 < ntiles) continue; // not its last tile
    // the last CTA merges the partials in CTA order, a thread a (row, 4
    // columns) in one pass: the running max, sum and O rescaled as each
    // partial comes.  The loads of MB partials go out together before their
    // updates: a batch past sh1 loads partial sh1 again and takes it as
    // empty (max -inf: factor 1 for the running state, 0 for it, so the
    // result's bits are those of the exact count), for no update may be
    // conditional -- the compiler then sinks each load to its use, and a
    // partial costs an L2 round trip (33 of them 4-5 us at batch 1: NOTES
    // 50).  A load's address is one offset from two base pointers: the code
    // is ~20% shorter than with each slot's address computed whole.
    constexpr int MB = 16;
    // partial sh0 at slot(sh0); sh0 + 1 .. sh1 at slot(sh0 + 1) - k st,
    // st = 2 (16 D + 32) floats (a dry pass: its own slot again and again)
    const float *x0 = dry ? sl : slot(sh0), *x1 = dry ? sl : slot(sh0 + 1);
    const int st = dry ? 0 : 2 * (16 * D + 32);
    for (int e = threadIdx.x; e < rows * D / 4; e += NT) {
      const int row = e / (D / 4), col = 4 * (e % (D / 4));
      const int ov = row * D + col, om = 16 * D + row; // O's 4 columns, the max (the sum 16 on)
      float mx = KP_NINF, l = 0.f;
      float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
      auto fold = [&](bool in, float mp, float lp, float4 v) {
        const float m = in ? mp : KP_NINF;
        const float mn = fmaxf(mx, m), base = mn == KP_NINF ? 0.f : mn;
        const float a = kp_attn_exp2(mx - base), c = in ? kp_attn_exp2(m - base) : 0.f;
        mx = mn;
        l = fmaf(l, a, c * lp);
        acc.x = fmaf(acc.x, a, c * v.x), acc.y = fmaf(acc.y, a, c * v.y);
        acc.z = fmaf(acc.z, a, c * v.z), acc.w = fmaf(acc.w, a, c * v.w);
      };
      fold(true, __ldcg(x0 + om), __ldcg(x0 + om + 16), __ldcg((const float4 *)(x0 + ov)));
      const float *bm = x1 + om, *bv = x1 + ov;
      for (int pb = sh0 + 1; pb <= (dry ? sh0 + 1 : sh1); pb += MB, bm -= MB * st, bv -= MB * st) {
        const int r = sh1 - pb; // entries past r reload partial sh1 and fold as empty
        float mp[MB], lp[MB];
        float4 v[MB];
#pragma unroll
        for (int j = 0; j < MB; j++) {
          const int o = min(j, r) * st;
          mp[j] = __ldcg(bm - o), lp[j] = __ldcg(bm - o + 16);
          v[j] = __ldcg((const float4 *)(bv - o));
        }
#pragma unroll
        for (int j = 0; j < MB; j++) fold(j <= r, mp[j], lp[j], v[j]);
      }
      if (dry) continue;
      const int i = qrow(row), h = qhead(row);
      const float inv = kp_attn_inv(l);
      ${T} *out = O + ob + i * sos + h * soh + col;
      out[0] = kp_from_f32<${T}>(acc.x * inv), out[1] = kp_from_f32<${T}>(acc.y * inv);
      out[2] = kp_from_f32<${T}>(acc.z * inv), out[3] = kp_from_f32<${T}>(acc.w * inv);
      if (LSE && col == 0) LSE[kp_attn_lse_at(CQ, b, qt0, h, i, Hq, Lq)] = kp_attn_lse(mx, l);
    }
    if (threadIdx.x == 0 && !dry) cnt[tile] = 0; // (the op clears the counters before each call too)
    __syncthreads(); // the partials are read before the next tile's loads
    continue;
  }
#endif
  for (int e = threadIdx.x; e < 16 * D; e += NT) {
    const int row = e / D, col = e % D, i = qrow(row), h = qhead(row);
    const float l = pl[W * 16 + row];
    if (row >= rows) continue;
    O[ob + i * sos + h * soh + col] =
        kp_from_f32<${T}>(po[(W * 16 + row) * LDO + col] * kp_attn_inv(l));
    if (LSE && col == 0) LSE[kp_attn_lse_at(CQ, b, qt0, h, i, Hq, Lq)] = kp_attn_lse(pm[W * 16 + row], l);
  }
  __syncthreads(); // the partials are read before the next tile's loads
#endif
  }
}
]]

-- p: d, w (warps), bc, stages, cl (CTAs a cluster; > 1: sm_90a), sk (split-KV
-- over the caller's workspace, any target), rank
local function emit_dec(dt, p)
  local cl = p.cl or 1
  local name = string.format("attention_%s_d%d_dec_w%dx%d_s%d%s", dt, p.d, p.w, p.bc, p.stages,
                             p.sk and "_sk" or cl > 1 and "_c" .. cl or "")
  variant {
    name = name, dtype = dt, block = 32 * p.w, align = 16, rank = p.rank,
    targets = cl > 1 and { "sm_90a" } or nil, min_sm = cl > 1 and 90 or nil,
    max_sm = cl > 1 and 90 or nil,
    params = { d = p.d, w = p.w, bc = p.bc, stages = p.stages, cl = cl, sk = p.sk, rank = p.rank },
    smem = (16 + p.w * p.stages * 2 * p.bc) * ld(p.d) * 2 + DEC_PT * 16,
    -- split-KV: a block per 256 keys of each query head's tile, two an SM at
    -- most (the grid then takes every SM's two slots at once); only calls
    -- with a workspace (forms 16-31 and their wave twins)
    tile = { lq = 16, bh = 1, lk = p.sk and 256 or nil },
    forms = p.sk and wave(0xFFFF0000) or nil,
    cluster = cl > 1 and cl or nil, split = cl > 1 and cl or nil,
    persistent = 2,
    min = { d = p.d, lk = p.min_lk }, max = { d = p.d, lq = 16 },
    source = COMMON .. subst(DEC_KERNEL, {
      name = name, T = ctype(dt), d = p.d, w = p.w, bc = p.bc, stages = p.stages, cl = cl,
      sk = p.sk and 1 or 0, pt = DEC_PT,
      threads = 32 * p.w, args = subst(ARGS, { T = ctype(dt) }),
      -- blocks an SM (the persistent grid's 2 at 128 threads): without it ptxas
      -- for sm_90a stops at 168 registers and spills
      minb = p.w == 4 and 2 or 1,
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do
  for _, d in ipairs({ 64, 128 }) do
    -- with a workspace: one wave of CTAs over every tile's keys, whatever
    -- the batch (the clusters below: 14 of 16 CTAs fit an H200 at once, and
    -- 64 tiles at batch 8 take 5 rounds; ncu: SMs idle 29% of the time)
    -- d128 with one tile ahead a warp (2 stages): its SMs end together (H100,
    -- batch 8: SM active cycles min / max 478K / 509K of 516K elapsed, against
    -- 3 stages' 381K / 512K of 523K; flash's split-KV kernel 471K / 494K of
    -- 497K), 0.8-2% faster at batch 1-16; d64 keeps 3 (level; bench/NOTES.md
    -- 54). The other depth stays for the tuner.
    emit_dec(dt, { d = d, w = 4, bc = 16, stages = d == 128 and 2 or 3, sk = true, rank = 410,
                   min_lk = 256 })
    emit_dec(dt, { d = d, w = 4, bc = 16, stages = d == 128 and 3 or 2, sk = true, rank = 208,
                   min_lk = 256 })
    -- the 16-CTA clusters, for calls without a workspace.  With one, the
    -- split-KV kernel above even where the tiles fit one wave of clusters
    -- (batch 1 at 8 KV heads), since its merge runs from code the other CTAs
    -- have brought into L2 (bench/NOTES.md 80, H200 batch 1: d128 42.2-42.8
    -- us against the clusters' 43.8-44.2, d64 27.1-27.2 against 27.4-27.6;
    -- the clusters were preferred there before, NOTES 50)
    emit_dec(dt, { d = d, w = 4, bc = 16, stages = 3, cl = 16, rank = 400, min_lk = 1024 })
    emit_dec(dt, { d = d, w = 8, bc = 16, stages = 2, cl = 16, rank = 390, min_lk = 1024 })
    emit_dec(dt, { d = d, w = 4, bc = 16, stages = 2, rank = 250, min_lk = 1024 })
    -- for the tuner and KP_VARIANT: more of K and V in flight an SM (a deeper
    -- ring, wider tiles, 8 warps; one CTA an SM by its shared memory), and
    -- 8-CTA clusters (fewer partials to combine where batch x Hkv is large)
    if d == 128 then
      emit_dec(dt, { d = d, w = 4, bc = 16, stages = 4, cl = 16, rank = 380, min_lk = 1024 })
      emit_dec(dt, { d = d, w = 4, bc = 32, stages = 2, cl = 16, rank = 370, min_lk = 1024 })
      emit_dec(dt, { d = d, w = 8, bc = 16, stages = 3, cl = 16, rank = 360, min_lk = 1024 })
      emit_dec(dt, { d = d, w = 4, bc = 16, stages = 3, cl = 8, rank = 350, min_lk = 1024 })
      -- 12-CTA clusters (D / CL columns each rounded): ran as 16 did on
      -- H100 (385 us at batch 8), behind them on H200 (289 against 284 us at
      -- batch 8, 57.8 against 46.1 at batch 1; 2026-11-26, eighth session).
      -- 4-CTA clusters were tried and dropped: 62 fit an H200, not 64 (350 us)
      emit_dec(dt, { d = d, w = 4, bc = 16, stages = 3, cl = 12, rank = 345, min_lk = 1024 })
    end
  end
  -- head dims 96 and 256: the split-KV decode alone (2 warps at d256, so
  -- that two CTAs fit an SM)
  emit_dec(dt, { d = 96, w = 4, bc = 16, stages = 2, sk = true, rank = 410, min_lk = 256 })
  emit_dec(dt, { d = 256, w = 2, bc = 16, stages = 2, sk = true, rank = 410, min_lk = 256 })
end

-- ---- any call, any target: the element-aligned fallback ---------------------------
-- 16 query rows a block, 4 per warp; 32-key tiles of K and V copied element
-- by element into shared memory rows of 258 elements (129 words: lane j's
-- key row starts in bank j, so a warp reading one column of 32 keys is
-- conflict-free); lane j scores key j, lane c keeps O's columns c, c + 32, ...
local SIMPLE_KERNEL = [[
// ${name}: any head dim <= 256, any alignment
// (min 4 blocks an SM: without, ptxas for sm_90a settles at 96 registers and spills 4 bytes)
extern "C" __global__ void __launch_bounds__(128, 4)
${name}(${args}) {
  constexpr int BR = 16, BC = 32, RPW = 4, DMAX = 256, LDS = DMAX + 2, DL = DMAX / 32;
  __shared__ ${T} sq[BR][LDS], sk[BC][LDS], sv[BC][LDS];
  __shared__ const ${T} *krp[BC], *vrp[BC];
  int b, h, tm, qt0, kt0;
  kp_attn_tile(blockIdx.x, BR, Lq, Hq, wr, b, h, tm);
  const int hk = h / (Hq / Hkv), m0 = tm * BR, tid = threadIdx.x, lane = tid % 32, w = tid / 32;
  // this sequence's lengths (varlen: its own, within the bounds Lq, Lk)
  const int lq = kp_attn_seq(CQ, b, Lq, totq, qt0), lk = kp_attn_seq(CK, b, Lk, totk, kt0);
  if (m0 >= lq) return; // a tile past the sequence's rows: the whole block leaves
  const long long kb = kp_attn_at(CK, b, kt0, skb, sks), vb = kp_attn_at(CK, b, kt0, svb, svs);
  const ${T} *Qb = Q + kp_attn_at(CQ, b, qt0, sqb, sqs) + h * sqh;
  const ${T} zero = kp_from_f32<${T}>(0.f);
  for (int e = tid; e < BR * Dh; e += 128) {
    const int r = e / Dh, c = e % Dh, i = m0 + r;
    sq[r][c] = i < lq ? Qb[i * sqs + c] : zero;
  }
  int lo, hi;
  kp_attn_keys(m0, min(lq, m0 + BR) - 1, lq, lk, wl, wr, lo, hi);
  float m[RPW], l[RPW], o[RPW][DL]; // m: the row's max of scale * log2(e) * s
#pragma unroll
  for (int r = 0; r < RPW; r++) {
    m[r] = KP_NINF, l[r] = 0.f;
#pragma unroll
    for (int e = 0; e < DL; e++) o[r][e] = 0.f;
  }
  for (int n0 = lo / BC * BC; n0 < hi; n0 += BC) {
    __syncthreads(); // the previous tile is read (and sq written)
    if (tid < BC) { // the tile's key rows (NULL: past lk, or a page index outside)
      const int j = n0 + tid;
      krp[tid] = j < lk ? kp_attn_krow(K, skb, sks, skh, kb, b, hk, j, BT, bts, page, npages) : nullptr;
      vrp[tid] = j < lk ? kp_attn_krow(V, svb, svs, svh, vb, b, hk, j, BT, bts, page, npages) : nullptr;
    }
    __syncthreads();
    for (int e = tid; e < BC * Dh; e += 128) {
      const int r = e / Dh, c = e % Dh;
      sk[r][c] = krp[r] ? krp[r][c] : zero;
      sv[r][c] = vrp[r] ? vrp[r][c] : zero;
    }
    __syncthreads();
    const int j = n0 + lane;
#pragma unroll
    for (int r = 0; r < RPW; r++) {
      const int i = m0 + RPW * w + r;
      float s = 0.f;
      for (int c = 0; c < Dh; c++) s = fmaf(kp_to_f32(sq[RPW * w + r][c]), kp_to_f32(sk[lane][c]), s);
      s = i < lq && !kp_attn_hidden(i, j, lq, lk, wl, wr) ? s * scale_log2 : KP_NINF;
      const float mn = fmaxf(m[r], kp_warp_max(s));
      if (mn == KP_NINF) continue; // nothing visible yet (the same in every lane)
      const float alpha = kp_attn_exp2(m[r] - mn), p = kp_attn_exp2(s - mn);
      l[r] = l[r] * alpha + kp_warp_sum(p);
      m[r] = mn;
#pragma unroll
      for (int e = 0; e < DL; e++) o[r][e] *= alpha;
      for (int jj = 0; jj < BC; jj++) {
        const float pj = __shfl_sync(0xffffffffu, p, jj);
#pragma unroll
        for (int e = 0; e < DL; e++)
          if (lane + 32 * e < Dh) o[r][e] = fmaf(pj, kp_to_f32(sv[jj][lane + 32 * e]), o[r][e]);
      }
    }
  }
  ${T} *Ob = O + kp_attn_at(CQ, b, qt0, sob, sos) + h * soh;
#pragma unroll
  for (int r = 0; r < RPW; r++) {
    const int i = m0 + RPW * w + r;
    if (i >= lq) continue;
    const float inv = kp_attn_inv(l[r]);
#pragma unroll
    for (int e = 0; e < DL; e++)
      if (lane + 32 * e < Dh) Ob[i * sos + lane + 32 * e] = kp_from_f32<${T}>(o[r][e] * inv);
    if (LSE && lane == 0) LSE[kp_attn_lse_at(CQ, b, qt0, h, i, Hq, Lq)] = kp_attn_lse(m[r], l[r]);
  }
}
]]

local function emit_simple(dt)
  local name = string.format("attention_%s_simple", dt)
  variant {
    name = name, dtype = dt, block = 128, rank = -100, params = { rank = -100 },
    tile = { lq = 16, bh = 1 }, max = { d = 256 },
    source = COMMON .. subst(SIMPLE_KERNEL, {
      name = name, T = ctype(dt), args = subst(ARGS, { T = ctype(dt) }),
    }),
  }
end

for _, dt in ipairs({ "f16", "bf16" }) do emit_simple(dt) end
