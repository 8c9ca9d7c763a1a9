-- rmsnorm.lua -- y = x * rsqrt(mean(x^2) + eps) * w along rows, fp32 math.
--
-- Kernel arguments: (const T *x, long long ldx, const T *w, T *y, long long ldy, int rows,
--                    int cols, float eps)
-- x, y: (rows, cols) with row strides ldx, ldy (elements); w: (cols).
--
-- Variant space:
--   warp   one warp (or 16 lanes) per row, the row held in registers: short rows
--   block  one block per row, the row held in registers: rows up to 32K
--   loop   one block per row, a sum-of-squares pass then a write pass that
--          re-reads the row (from L1/L2 when it fits): any length
-- `vec` is elements per 16-byte access (needs 16-byte aligned row starts);
-- vec=1 is the fallback for any alignment.  Ranking: the smallest register
-- variant that holds the row, then the looped ones; for >= 16384 rows of
-- 4097..8192 16-bit columns, a two-pass copy that declares min_rows
-- (measured, see below).  Where two shapes hold the same row (`alt`), the
-- lower alt is the default and the others are there for the tuner.  The
-- ranking's 16-byte variants have whole-rows twins (`_w`, cols a multiple
-- of vec: twins()) ranked just above them, with no partial-vector code
-- (block_t256_n2, bf16: 351 PTX lines instead of 631; first-use compile).

family { name = "rmsnorm", signature = "p,l,p,p,l,i,i,f" }

local KERNELS = [[
// Vectors stay packed from load to use (kp_raw_io in kp_device.cuh).
// Plain loads and stores throughout, though x and y are touched once: with
// the streaming forms (ld.global.nc without L1 allocation, st.global.cs)
// these kernels measured 3-5% slower on 8K rows and 15-30% slower on 512-1K
// rows on H200 (bf16).

// s plus the sum of squares of NV raw vectors of IO (kp_raw_io), the
// vectors left packed across the reduction (kp_keep).
template <class IO, class T, int NV>
__device__ __forceinline__ float rmsnorm_sumsq(typename IO::raw *xv, float s) {
  constexpr int VEC = sizeof(typename IO::raw) == 16 ? 16 / (int)sizeof(T) : 1;
#pragma unroll
  for (int n = 0; n < NV; n++) {
    float v[VEC];
    IO::unpack(xv[n], v);
#pragma unroll
    for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
    kp_keep<T>(xv[n]);
  }
  return s;
}

// Row in registers: LANES threads share one row: the whole block when
// ROWS_PER_BLOCK == 1, else a warp or a group of 16 lanes.  Thread `lane`
// holds vectors n = 0..NV-1 at columns (n * LANES + lane) * VEC, so each
// load instruction of a group reads one contiguous LANES * 16-byte segment.
// VEC * sizeof(T) == 16.
// W_EARLY: w is loaded right behind x, so that its latency (usually an
// L1/L2 hit: every row reads w) hides under the reduction instead of adding
// to the row's tail, where the block has no loads in flight.  Where
// registers are short (w_early below) w is loaded after the reduction, one
// vector at a time.
// XH, WH: cache hints of x's and w's loads (kp_ld16_hint).
// PEEL: rows at any residue mod 16 bytes (per-row peeling, kp_device.cuh):
// lane i < h holds head element i; the vectors start at y's row's first
// 16-byte boundary, x and w loaded aligned or shifted (xal, wal) per row.
// TS (PEEL, CL == 1; `_t`): the row's last ncols % VEC elements as scalars
// a lane each, as the head's, so that every vector is whole or absent (no
// partial vector's pieces and selects): 8% fewer us at odd 131072 x 1001
// for a warp a row (fifty-eighth session, NOTES 93).  TS 2 (`_tk`): the
// vectors stored by kp_st16 (NVRTC splits one of them otherwise).
// WC (`_rw` / `_rs`, rmsnorm_regs below): w's vectors, head and tail
// elements from wc (kp_wrow), loaded there only where the row's residue
// changed.
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool W_EARLY, int XH, int WH,
          bool PEEL, int CL, int TS, bool WC, class WR>
__device__ __forceinline__ void rmsnorm_row(const T *__restrict__ x, long long ldx,
                                            const T *__restrict__ w, T *__restrict__ y,
                                            long long ldy, int rows, int cols, float eps,
                                            long long row, WR &wc) {
  typedef kp_raw_io<T, VEC, XH> io;
  typedef kp_raw_io<T, VEC, WH> wio;
  __shared__ float scratch[32];
  const int lane = ROWS_PER_BLOCK == 1 ? threadIdx.x : threadIdx.x % LANES;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0; // (CL > 1) this CTA's slice
  // Groups narrower than a warp cannot leave early (the reduction's shuffles
  // need every lane of the warp): past the last row they touch nothing.
  int ncols = cols;
  if (row >= rows) {
    if (LANES >= 32) return; // whole warps (or the whole block) leave together
    row = rows - 1;
    ncols = 0;
  }
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  const int hh = PEEL ? kp_head(yr, ncols) : 0; // the row's head elements, held by rank 0:
  const int h = crank == 0 ? hh : 0;
  const float xh = PEEL && lane < h ? kp_load1(xr + lane) : 0.f; // (PEEL) head element
  ncols -= hh, xr += hh, yr += hh, w += hh;
  if constexpr (CL > 1) { // the cluster's CTAs share the row (kp_cluster_slice)
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(ncols, crank, &len);
    xr += c, yr += c, w += c, ncols = (int)len;
  }
  const bool xal = !PEEL || kp_al16(xr), wal = !PEEL || kp_al16(w);
  constexpr int S = LANES * VEC;
  const int c0 = lane * VEC;
  if constexpr (TS != 0) {
    static_assert(PEEL && CL == 1 && VEC > 1 && LANES >= VEC, "scalar tails: peeling rows");
    const int nw = ncols & ~(VEC - 1), nt = ncols - nw; // (whole vectors' columns, tail elements)
    const float xt = lane < nt ? kp_load1(xr + nw + lane) : 0.f;
    typename io::raw xv[NV], wv[NV];
#pragma unroll
    for (int n = 0; n < NV; n++) xv[n] = io::load_whole(xr, c0 + n * S, nw, xal);
    if constexpr (WC) wc.get(w, h, nw, nt, lane);
    else if constexpr (W_EARLY)
#pragma unroll
      for (int n = 0; n < NV; n++) wv[n] = wio::load_whole(w, c0 + n * S, nw, wal);
    float s = rmsnorm_sumsq<io, T, NV>(xv, fmaf(xt, xt, xh * xh));
    s = LANES <= 32 ? kp_lanes_sum<LANES>(s) : kp_block_sum<LANES>(s, scratch);
    const float rs = rsqrtf(s / (float)cols + eps);
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const int c = c0 + n * S;
      if (c < nw) {
        const uint4 g = WC ? wc.vec(n) : W_EARLY ? wv[n] : wio::load_whole(w, c, nw, wal);
        kp_store16<TS == 2>(yr + c, kp_norm_scale<T, VEC>(xv[n], g, rs));
      }
    }
    if (lane < h) kp_store1(yr - h + lane, xh * rs * (WC ? wc.h : kp_load1(w - h + lane)));
    if (lane < nt) kp_store1(yr + nw + lane, xt * rs * (WC ? wc.t : kp_load1(w + nw + lane)));
    return;
  }
  const kp_part p = kp_part_of<T, VEC, S, NV>(c0, ncols);
  typename io::raw xv[NV], wv[NV];
  kp_group_load<T, VEC, S, NV, XH>(xr, c0, ncols, p, 0u, xv, xal);
  if constexpr (W_EARLY) kp_group_load<T, VEC, S, NV, WH>(w, c0, ncols, p, 0u, wv, wal);
  float s = rmsnorm_sumsq<io, T, NV>(xv, xh * xh);
  s = LANES <= 32 ? kp_lanes_sum<LANES>(s) : kp_block_sum<LANES>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)cols + eps);
  if constexpr (W_EARLY) {
    typename io::raw keep = xv[0];
#pragma unroll
    for (int n = 0; n < NV; n++)
      kp_vec_store<T, VEC>(yr, c0 + n * S, ncols, n == p.k,
                           kp_norm_scale<T, VEC>(xv[n], wv[n], rs), keep);
    kp_part_store<T, VEC>(yr, p, keep);
  } else { // registers are short: w and y a vector at a time, each guarded whole/partial
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const int c = c0 + n * S;
      float v[VEC];
      io::unpack(kp_norm_scale<T, VEC>(xv[n], wio::load(w, c, ncols, wal), rs), v);
      if (c < ncols) kp_store_part<T, VEC>(yr, c, ncols, v);
    }
  }
  if (PEEL && lane < h) kp_store1(yr - h + lane, xh * rs * kp_load1(w - h + lane));
}

// The row-in-registers kernels' entry: the group's row, or (RW > 1; `_rw`,
// the scalar-tail warp rows) RW rows 8 apart with w kept in registers (WSM,
// `_rs`: in shared memory) while their residue stays (kp_wrows).
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool W_EARLY, int XH = 0,
          int WH = 0, bool PEEL = false, int CL = 1, int TS = 0, int RW = 1,
          bool WSM = false>
__device__ __forceinline__ void rmsnorm_regs(const T *__restrict__ x, long long ldx,
                                             const T *__restrict__ w, T *__restrict__ y,
                                             long long ldy, int rows, int cols, float eps) {
  static_assert(RW == 1 || TS, "rows 8 apart: the scalar-tail form");
  typedef kp_wrow<T, VEC, NV, LANES * VEC, WH, WSM> wrow; // (a generic lambda: host code to NVRTC)
  kp_wrows<T, VEC, NV, LANES, ROWS_PER_BLOCK, CL, RW, WH, WSM>(rows, [&](long long r, wrow &wc) {
    rmsnorm_row<T, VEC, NV, LANES, ROWS_PER_BLOCK, W_EARLY, XH, WH, PEEL, CL, TS, (RW > 1)>(
        x, ldx, w, y, ldy, rows, cols, eps, r, wc);
  });
}

// Any length.  Each step of a pass handles U vectors per thread of each
// input, loads all issued before any use, so U * THREADS * VEC elements of
// each are in flight per block; the steps take whole vectors only (past the
// row end: read as 0, not stored), so the last step needs no loop of its
// own, and the row's partial vector is done once, ahead of each pass.
// HINTS (torch.compile's choice for this two-pass form): the first pass
// reads x evict-last, so that the second finds the row in L2, and reads it
// there evict-first; w is read evict-last.  U2: the second pass's vectors
// per step (it reads from L2, with less latency to cover; x and w both
// held: fewer per step keeps the register count, and occupancy, of the
// first pass).
// PEEL: as rmsnorm_regs'; thread i < h holds head element i.
// CL > 1 (PEEL): the row over a cluster of CL CTAs, each looping over the
// slice kp_cluster_slice gives it: few rows in flight, so that the second
// pass finds its slice in L2 even for rows of 100K+ elements (the one-CTA
// loop has about as many rows in flight as the GPU has CTA slots: 512 rows
// of 200K bf16 are 200 MB, and its second pass reads DRAM again).
template <class T, int VEC, int THREADS, int U, bool HINTS = false, int U2 = U, bool PEEL = false,
          int CL = 1>
__device__ __forceinline__ void rmsnorm_loop(const T *__restrict__ x, long long ldx,
                                             const T *__restrict__ w, T *__restrict__ y,
                                             long long ldy, int rows, int cols, float eps) {
  typedef kp_raw_io<T, VEC, HINTS ? 2 : 0> io;  // pass 1 x, and w
  typedef kp_raw_io<T, VEC, HINTS ? 1 : 0> io2; // pass 2 x
  constexpr int S = THREADS * VEC;
  __shared__ float scratch[32];
  const long long row = blockIdx.x / CL;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  const int hh = PEEL ? kp_head(yr, cols) : 0; // the row's head, held by rank 0
  const int h = crank == 0 ? hh : 0;
  const float xh = PEEL && (int)threadIdx.x < h ? kp_load1(xr + threadIdx.x) : 0.f;
  xr += hh, yr += hh, w += hh;
  long long n = cols - hh;
  if constexpr (CL > 1) {
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(n, crank, &len);
    xr += c, yr += c, w += c, n = len;
  }
  const bool xal = !PEEL || kp_al16(xr), wal = !PEEL || kp_al16(w);
  const long long c0 = (long long)threadIdx.x * VEC;
  // the steps load and store whole vectors; the row's partial one, if this
  // thread holds it (tail.k >= 0), ahead of each pass's loop
  const kp_part tail = kp_part_of<T, VEC, S, KP_ALL>(c0, n);
  float s = xh * xh;
  // (the partial vector first: after the loop, ptxas spilled around it)
  if constexpr (VEC > 1)
    if (tail.k >= 0) {
      float v[VEC];
      io::unpack(kp_part_load<T, VEC>(xr, tail, 0u, xal), v);
#pragma unroll
      for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
    }
#pragma unroll 1
  for (long long c = c0; c < n; c += U * S) {
    typename io::raw r[U];
#pragma unroll
    for (int u = 0; u < U; u++) r[u] = io::load_whole(xr, c + u * S, n, xal);
#pragma unroll
    for (int u = 0; u < U; u++) {
      float v[VEC];
      io::unpack(r[u], v);
#pragma unroll
      for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
    }
  }
  s = kp_block_sum<THREADS>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)cols + eps);
  if (PEEL && (int)threadIdx.x < h)
    kp_store1(yr - h + threadIdx.x, xh * rs * kp_load1(w - h + threadIdx.x));
  if constexpr (VEC > 1)
    if (tail.k >= 0)
      kp_part_store<T, VEC>(yr, tail,
                            kp_norm_scale<T, VEC>(kp_part_load<T, VEC>(xr, tail, 0u, xal),
                                                  kp_part_load<T, VEC>(w, tail, 0u, wal), rs));
#pragma unroll 1
  for (long long c = c0; c < n; c += U2 * S) {
    typename io::raw r[U2], g[U2];
#pragma unroll
    for (int u = 0; u < U2; u++) {
      r[u] = io2::load_whole(xr, c + u * S, n, xal);
      g[u] = io::load_whole(w, c + u * S, n, wal);
    }
#pragma unroll
    for (int u = 0; u < U2; u++)
      kp_vec_store<T, VEC>(yr, c + u * S, n, false, kp_norm_scale<T, VEC>(r[u], g[u], rs), g[u]);
  }
}

// Long rows, one DRAM read: each CTA's slice of x (CL > 1: the row over a
// cluster of CL CTAs, as rmsnorm_loop's) staged in shared memory by bulk
// copies (kp_stage_issue), the sum of squares over it piece by piece as the
// pieces arrive, the write pass from shared memory again (softmax_stage's
// shape; w from global memory, an L2 hit).  SMEM: the bytes of whole
// vectors a CTA holds (the variant's max_cols); U vectors a thread a step;
// peeling as rmsnorm_loop's; the row's partial vector from global memory.
template <class T, int VEC, int THREADS, int CL, int U, int SMEM, bool WC = false>
__device__ __forceinline__ void rmsnorm_stage(const T *__restrict__ x, long long ldx,
                                              const T *__restrict__ w, T *__restrict__ y,
                                              long long ldy, int rows, int cols, float eps) {
  static_assert(VEC * sizeof(T) == 16, "16-byte vectors");
  constexpr int PV = THREADS * U, NB = (SMEM / 16 + PV - 1) / PV;
  typedef kp_raw_io<T, VEC> io;
  extern __shared__ __align__(16) char kp_img[];
  __shared__ unsigned long long bar[NB];
  __shared__ float scratch[32];
  const long long row = blockIdx.x / CL;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0, t = threadIdx.x;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  const int hh = kp_head(yr, cols), h = crank == 0 ? hh : 0; // the row's head, rank 0
  xr += hh, yr += hh, w += hh;
  long long n = cols - hh;
  if constexpr (CL > 1) {
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(n, crank, &len);
    xr += c, yr += c, w += c, n = len;
  }
  const int nv = (int)(n / VEC), np = (nv + PV - 1) / PV;
  const int off = kp_stage_issue<T, VEC, PV, NB, THREADS>(xr, nv, kp_img, bar);
  if constexpr (CL > 1) kp_cluster_begin(); // (its wait at the exchange, after pass 1)
  const bool al = off == 0, wal = kp_al16(w);
  const float xh = t < h ? kp_load1(xr - h + t) : 0.f;
  const kp_part tail = {n % VEC && t == nv % THREADS ? 0 : -1, n};
  const uint4 pq = kp_part_load<T, VEC>(xr, tail, 0u, al);
  float s = xh * xh;
  auto sumsq = [&](uint4 r) {
    float v[VEC];
    io::unpack(r, v);
#pragma unroll
    for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
  };
  if (tail.k >= 0) sumsq(pq);
  if (!al && t == THREADS - 1 && nv > 0) // (the last thread: the fewest pass-1 vectors)
    kp_stage_edges_sumsq<T, VEC>(kp_img, off, nv, s);
  const uint4 *img = reinterpret_cast<const uint4 *>(kp_img);
#pragma unroll 1
  for (int q = 0; q < np; q++) {
    kp_mbar_wait(&bar[q], 0);
    uint4 r[U];
#pragma unroll
    for (int u = 0; u < U; u++) { // raw chunks: kp_stage_chunk
      const int j = kp_stage_chunk(q * PV + u * THREADS + t, off);
      r[u] = j < nv ? img[j] : make_uint4(0u, 0u, 0u, 0u);
    }
#pragma unroll
    for (int u = 0; u < U; u++) sumsq(r[u]);
  }
  s = kp_block_sum<THREADS>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL, true>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)cols + eps);
  if (t < h) kp_store1(yr - h + t, xh * rs * kp_load1(w - h + t));
  if (tail.k >= 0)
    kp_part_store<T, VEC>(yr, tail, kp_norm_scale<T, VEC>(pq, kp_part_load<T, VEC>(w, tail, 0u, wal), rs));
  kp_stage_norm_out<T, VEC, THREADS, U, WC>(
      [&](int k) { return kp_stage_vec(kp_img, off, k, al); }, w, wal, yr, true, nv, rs);
}

// Long rows at any residue, persistent (`_pers`; sm_90a): persistent
// clusters (kp_pers_*, kp_device.cuh) whose CTAs cut each row on y's
// 16-byte grid, x's bytes for a CTA's chunks by one bulk copy a row into
// NBUF buffers (rows NBUF ahead), w's staged once (kp_prow and kp_pin have
// the layout).  Where x and y share their residue (the common case) y's
// chunk j is x's buffer chunk j, and w's window is read by one loop a
// residue (kp_pers_norm_outs).  WMAX: y's chunks a CTA holds (max_cols); WU:
// the write loop's unroll.
template <class T, int THREADS, int CL, int NBUF, int WMAX, int WU>
__device__ __forceinline__ void rmsnorm_pers(const T *__restrict__ x, long long ldx,
                                             const T *__restrict__ w, T *__restrict__ y,
                                             long long ldy, int rows, int cols, float eps) {
  static_assert(CL > 1 && NBUF >= 2, "a cluster, rows ahead");
  constexpr int VEC = 16 / (int)sizeof(T), ES = (int)sizeof(T), IMG = 16 * (WMAX + 2);
  extern __shared__ __align__(16) char kp_img[]; // w's image, then NBUF buffers of x's
  __shared__ unsigned long long full[NBUF], wbar, xbar[2];
  __shared__ float slot[2][CL], scratch[2][32];
  const int t = threadIdx.x, rank = (int)kp_cluster_rank();
  const long long c0 = blockIdx.x / CL, G = gridDim.x / CL, RB = (long long)cols * ES;
  const long long W = ((RB + 16 - ES + 15) / 16 + CL - 1) / CL, m0 = rank * W;
  const kp_u64 lo = (kp_u64)x, hi = (kp_u64)(x + (rows - 1) * ldx) + RB, wa = (kp_u64)w;
  auto buf = [&](int b) { return kp_img + IMG + b * IMG; };
  auto row = [&](long long r) { return kp_prow_of((kp_u64)(y + r * ldy), RB, m0, W); };
  auto xin = [&](const kp_prow &g, long long r) { return kp_pin_of(g, (kp_u64)(x + r * ldx), m0); };
  auto issue = [&](int b, long long r) { // (thread 0) row r's chunks into buffer b
    const kp_prow g = row(r);
    const kp_pin p = xin(g, r);
    kp_u64 src;
    kp_mbar_expect_tx(&full[b], kp_pin_bytes(p, lo, hi, &src));
    kp_pin_load(p, buf(b), lo, hi, &full[b]);
  };
  kp_pers_start<T, THREADS, CL, NBUF>(full, &wbar, xbar, kp_img, wa, RB, m0, W, c0, G, rows, issue);
  auto sum_send = [&](int i, long long r) { // row r's sum of squares, to every CTA of the cluster
    const int b = i % NBUF;
    const kp_prow g = row(r);
    const kp_pin p = xin(g, r);
    kp_mbar_wait(&full[b], (i / NBUF) & 1);
    if (kp_pin_edges<T>(p, g, buf(b), lo, hi)) __syncthreads();
    float s = 0.f;
    kp_pin_sumsq<T, THREADS>(p, g, buf(b), s);
    kp_pers_send<THREADS, CL>(s, i, rank, scratch, slot, xbar);
  };
  if (c0 < rows) sum_send(0, c0);
  kp_mbar_wait(&wbar, 0);
  int i = 0;
#pragma unroll 1
  for (long long r = c0; r < rows; r += G, i++) {
    const float rs = rsqrtf(kp_pers_sum<CL>(i, slot, xbar) / (float)cols + eps);
    if (r + G < rows) sum_send(i + 1, r + G);
    const int b = i % NBUF;
    const kp_prow g = row(r);
    const int dx = xin(g, r).dx, dw = kp_pw_off(g.oy, wa), nj = (int)g.nj;
    const char *wi = kp_img + (dw & 16); // (w's window: wi + 16 j + (dw & 15))
    const uint4 *xc = reinterpret_cast<const uint4 *>(buf(b));
    const uint4 *wc = reinterpret_cast<const uint4 *>(wi);
    uint4 *yc = reinterpret_cast<uint4 *>(g.ya - g.oy + 16 * m0);
    const int j0 = g.ph ? 1 : 0, j1 = nj - (g.pt ? 1 : 0); // (whole chunks)
    if (dx == 0) {
      kp_pers_norm_outs<T, THREADS, WU>(dw & 15, xc, wc, yc, j0, j1, rs);
    } else {
#pragma unroll 1
      for (int j = j0 + t; j < j1; j += THREADS)
        yc[j] = kp_norm_scale<T, VEC>(kp_stage_vec(buf(b), dx, j, false),
                                      kp_stage_vec(wi, dw & 15, j, false), rs);
    }
    // the row's partial end chunks, one thread each (one chunk both ends: the first's)
    const int j = kp_prow_end_j<THREADS>(g, nj, t);
    if (j >= 0)
      kp_prow_store_end<T>(g, yc, j, m0, RB,
                           kp_norm_scale<T, VEC>(kp_stage_vec(buf(b), dx, j, dx == 0),
                                                 kp_stage_vec(wi, dw & 15, j, !(dw & 15)), rs));
    kp_pers_next<CL, NBUF>(i, b, r, G, rows, xbar, issue);
  }
  kp_cluster_meet(); // (none leaves while a CTA of its cluster may still read or send to it)
}

// Rows a warp each with w staged at every residue (`_ws`; 16-bit rows,
// persistent): a peeling row reads w shifted where w's residue is not y's
// row's -- kp_ld16_shift, five 4-byte loads and four byte permutes a
// vector, from L1 -- and rows of odd length put it at every residue in
// turn: at 131072 x 1001 (bf16, H200) the warp rows ran at 87-88% of copy
// against 97% on aligned 1000 (softmax, without a weight, at 94%).  Here
// each CTA stages w once as VEC images, image h holding w's elements from
// h on as 16-byte chunks (kp_wimg_stage, kp_device.cuh), then takes rows
// c, c + G, ... a warp each (G: the grid's warps): a row whose y starts h
// elements before its first 16-byte boundary reads w's vectors from image
// h, one aligned shared-memory read each.  NV vectors a lane (rows up to
// 32 NV VEC); K chunks an image.  y's vectors by kp_st16: as plain stores
// NVRTC split all four of them into 4-byte stores (NOTES 92).
template <class T, int NV, int WARPS>
__device__ __forceinline__ void rmsnorm_ws(const T *__restrict__ x, long long ldx,
                                           const T *__restrict__ w, T *__restrict__ y,
                                           long long ldy, int rows, int cols, float eps) {
  typedef kp_raw_io<T, 16 / sizeof(T)> io;
  constexpr int VEC = 16 / (int)sizeof(T), S = 32 * VEC, K = 32 * NV;
  extern __shared__ __align__(16) uint4 kp_wimg[]; // image h: kp_wimg[h K + k] (kp_wimg_stage)
  const int t = threadIdx.x, lane = t & 31;
  kp_wimg_stage<T, WARPS * 32>(kp_wimg, w, cols, K);
  __syncthreads();
  const int c0 = lane * VEC;
#pragma unroll 1
  for (long long row = (long long)blockIdx.x * WARPS + (t >> 5); row < rows;
       row += (long long)gridDim.x * WARPS) {
    const T *xr = x + row * ldx;
    T *yr = y + row * ldy;
    const int hh = kp_head(yr, cols), n = cols - hh; // (y's head elements, then its grid)
    const float xh = lane < hh ? kp_load1(xr + lane) : 0.f;
    const T *xb = xr + hh;
    T *yb = yr + hh;
    const kp_part p = kp_part_of<T, VEC, S, NV>(c0, n);
    typename io::raw xv[NV];
    kp_group_load<T, VEC, S, NV>(xb, c0, n, p, 0u, xv, kp_al16(xb));
    const float s = rmsnorm_sumsq<io, T, NV>(xv, xh * xh);
    const float rs = rsqrtf(kp_lanes_sum<32>(s) / (float)cols + eps);
    const uint4 *wi = kp_wimg + hh * K + lane;
    typename io::raw keep = xv[0];
#pragma unroll
    for (int k = 0; k < NV; k++)
      kp_vec_store<T, VEC, true>(yb, c0 + k * S, n, k == p.k,
                                 kp_norm_scale<T, VEC>(xv[k], wi[32 * k], rs), keep);
    kp_part_store<T, VEC>(yb, p, keep);
    if (lane < hh) kp_store1(yr + lane, xh * rs * kp_load1(w + lane));
  }
}
]]

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(${bounds})
${name}(const ${T} *x, long long ldx, const ${T} *w, ${T} *y, long long ldy, int rows, int cols,
        float eps) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  ${call}(x, ldx, w, y, ldy, rows, cols, eps);
}
]]

-- W_EARLY (w loaded before the reduction) only where the raw vectors of
-- x and w (2 per n, 4 registers each) fit in 32 registers, and not at
-- 1024 threads (64-register cap): beyond that ptxas spills or trades
-- occupancy, and loading w after the reduction is the better deal.
local function w_early(threads, nv)
  return (threads < 1024 and 8 * nv <= 32) and "true" or "false"
end

-- A block variant's rank: the smaller the row it holds the better, then alt.
local function block_rank(max_cols, alt) return 200 - max_cols // 512 - alt end

-- The warps a row ranked for odd 16-bit rows (max_align 8) from min_cols
-- to their max_cols, by vectors a lane (below, where measured); keyed by
-- shape, not params, so that `kp regen`'s neighbours of them stay unranked
local ODD_WARPS = { [6] = 1025, [8] = 1537 }

local function emit(dt, kind, p)
  local T = ctype(dt)
  local vec = p.vec
  local name, call, max_cols, block, rpb, rank, min_cols, st, odd
  if kind == "warp" then
    local shape = p.lanes == 32 and "warp" or string.format("lanes%d", p.lanes)
    name = string.format("rmsnorm_%s_%s_v%d_n%d", dt, shape, vec, p.nv)
    block = p.rw and 256 or 128 -- (`_rw` / `_rs`: rows 8 apart a warp, 8 warps a block)
    rpb = block // p.lanes
    call = string.format("rmsnorm_regs<%s, %d, %d, %d, %d, %s>", T, vec, p.nv, p.lanes, rpb,
                         w_early(128, p.nv))
    max_cols = p.lanes * vec * p.nv
    rank = 300 - max_cols // 64
    odd = esize(dt) == 2 and vec == 8 and p.lanes == 32 and p.only90 and not p.whole
          and not p.rw and ODD_WARPS[p.nv]
    if odd then min_cols, rank = odd, 400 end
    if p.ts and not p.whole then name = name .. (p.ts == 2 and "_tk" or "_t") end
    if p.ts == 2 then rank = 40 end -- (kp_st16: the tuner's)
    if p.rw then -- (RW rows a warp; `_rs`: w in shared memory)
      name, rpb, rank = name .. (p.wsm and "_rs" or "_rw") .. p.rw, rpb * p.rw, 40
    end
  elseif kind == "block" then
    name = string.format("rmsnorm_%s_block_t%d_v%d_n%d", dt, p.threads, vec, p.nv)
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_regs<%s, %d, %d, %d, 1, %s>", T, vec, p.nv, p.threads,
                         p.minb and "false" or w_early(p.threads, p.nv))
    if p.minb then -- at least minb blocks per SM (a register cap); w loaded late
      name = name .. "_o" .. p.minb
    end
    if p.hint then -- x evict-first, w evict-last (Triton's choice for a norm)
      name = name .. "_h"
      call = call:gsub(">$", ", 1, 2>")
    end
    max_cols = p.threads * vec * p.nv
    rank = block_rank(max_cols, p.alt)
    if p.ts then -- (scalar tails: whole vectors to max_cols, then up to vec - 1
      -- tail elements, so vec - 1 more columns: 4097 on 128 x 4)
      name, max_cols = name .. (p.ts == 2 and "_tk" or "_t"), p.max_cols or max_cols + vec - 1
      min_cols, rank = p.min_cols, p.rank or 40
    end
    if p.cl then -- the row over a cluster of cl CTAs (sm_90a): for the tuner, but
      name = name .. "_c" .. p.cl -- 128 x 8 over 8 / 16 CTAs for 32K..64K / 64K..128K
      max_cols = max_cols * p.cl -- 16-bit columns (measured: see the variant list below)
      rank = 60 - p.cl
      if esize(dt) == 2 and p.threads == 128 and p.nv == 8 then
        min_cols, rank = p.cl == 8 and 32769 or 65537, p.cl == 8 and 102 or 103
      end
    end
  elseif kind == "pers" then -- persistent clusters, w staged once (rmsnorm_pers; any residue)
    p.unroll = p.unroll or 2 -- (the write loop's)
    name = string.format("rmsnorm_%s_pers_t%d_b%d_w%d_c%d%s", dt, p.threads, p.nbuf, p.wmax,
                         p.cl, p.unroll ~= 2 and "_u" .. p.unroll or "")
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_pers<%s, %d, %d, %d, %d, %d>", T, p.threads, p.cl, p.nbuf,
                         p.wmax, p.unroll)
    max_cols = (16 * p.wmax * p.cl - 16 + esize(dt)) // esize(dt) -- (y's chunks a CTA: wmax)
    p.smem, p.persist = (p.nbuf + 1) * 16 * (p.wmax + 2), 1
    assert(smem_blocks(p.smem) >= 1, "a CTA's shared memory fits an SM")
    min_cols, rank = p.min_cols, p.rank or 40 -- (p.max_align: rows off the grid alone)
  elseif kind == "ws" then -- rows a warp each, persistent, w staged at every residue (rmsnorm_ws)
    name = string.format("rmsnorm_%s_ws_v%d_n%d_r%d_p%d", dt, vec, p.nv, p.warps, p.per)
    block, rpb = 32 * p.warps, p.warps
    call = string.format("rmsnorm_ws<%s, %d, %d>", T, p.nv, p.warps)
    max_cols = 32 * vec * p.nv
    p.smem, p.persist, p.minb = vec * 32 * p.nv * 16, p.per, p.per
    assert(smem_blocks(p.smem) >= p.per, "the CTAs' shared memory fits an SM")
    min_cols, rank = p.min_cols, p.rank or 40 -- (p.max_align: rows off the grid alone)
  elseif kind == "stage" then -- (sm_90a: bulk copies; peels; for the tuner unless ranked)
    st = stage_fields("rmsnorm", dt, p, T, vec, 1)
    name, call, max_cols, min_cols, rank = st.name, st.call, st.max_cols, st.min_cols, st.rank
    block, rpb = p.threads, 1
  else
    name = string.format("rmsnorm_%s_loop_t%d_v%d", dt, p.threads, vec)
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_loop<%s, %d, %d, %d>", T, vec, p.threads, p.unroll)
    if p.hint then -- L2 eviction hints as torch.compile's two-pass RMSNorm
      name = string.format("%s_u%d_h", name, p.unroll)
      call = call:gsub(">$", ", true>")
    end
    if p.u2 then -- the second pass's vectors per step
      name = string.format("%s_s%d", name, p.u2)
      call = call:gsub(">$", ", " .. p.u2 .. ">")
    end
    max_cols = nil
    rank = vec > 1 and 100 or 0
    if p.hint then rank = 90 - p.threads // 128 - p.unroll end -- for the tuner
    if p.cl then -- the loop over a cluster (sm_90a; PEEL): for the tuner
      name = string.format("%s%s_c%d", name, p.hint and "" or "_u" .. p.unroll, p.cl)
      call = string.format("rmsnorm_loop<%s, %d, %d, %d, %s, %d, true, %d>", T, vec, p.threads,
                           p.unroll, p.hint and "true" or "false", p.unroll, p.cl)
      rank = 80 - p.cl
      if p.threads == 512 and p.unroll == 4 and p.cl == 4 and not p.hint then -- ranked past 64K
        min_cols, rank = 65537, 101 -- (measured: see the variant list below; 16-bit rows up
      end -- to 128K take 128 x 8 over 16 CTAs, ranked above)
    end
    if p.min_rows then -- a copy ranked for calls of at least min_rows rows (below)
      name = name .. "_rows" .. (p.min_rows % 1024 == 0 and p.min_rows // 1024 .. "k" or p.min_rows)
      max_cols = p.max_cols
      rank = block_rank(8192, 0) + 1 -- just above block_t512_n2, the default for 4K..8K
    elseif p.cols12k then -- a copy ranked for 8K..12K columns (below)
      name, min_cols, max_cols = name .. "_cols12k", 8193, 12288
      rank = block_rank(12288, 0) + 1 -- just above block_t512_n3, the default there
    end
  end
  p.kind = kind
  local whole = p.whole and vec > 1 -- rows of a multiple of vec (twins())
  if whole then name = name .. "_w" end
  -- 16-byte variants without hints, register caps or second-pass shapes,
  -- other than the whole-rows twins, peel each row (PEEL): any alignment
  -- of the element size, vectorised; the twins and the tuner's shapes keep
  -- the 16-byte requirement and their code as it was
  local peel = vec * esize(dt) == 16 and not whole and not p.hint and not p.minb and not p.u2
  if (kind == "loop" and p.cl) or kind == "stage" or kind == "pers" or kind == "ws" then
    peel = true -- (its call above)
  elseif peel then
    call = call:gsub(">$", kind == "loop" and ", false, " .. p.unroll .. ", true>" or ", 0, 0, true>")
    if p.ts then call = call:gsub(">$", ", 1, " .. p.ts .. ">") end
    if p.rw then call = call:gsub(">$", ", " .. p.rw .. (p.wsm and ", true>" or ">")) end
  end
  if p.cl and kind ~= "loop" and kind ~= "stage" and kind ~= "pers" then
    assert(peel, "a cluster variant peels")
    call = call:gsub(">$", ", " .. p.cl .. ">")
  end
  local minb = p.minb or st and st.minb
  variant {
    name = name, dtype = dt, params = p,
    block = block, rows_per_block = rpb,
    cluster = p.cl, split = p.cl,
    -- (cluster variants: sm_90a code; `only90` ones: measured there alone)
    smem = st and st.smem or p.smem, persistent = p.persist,
    max_align = st and st.max_align or (odd and 8) or p.max_align,
    targets = (p.cl or p.only90 or kind == "stage") and { "sm_90a" } or nil,
    min_sm = (p.cl or kind == "stage") and 90 or nil, max_sm = (p.cl or kind == "stage") and 90 or nil,
    max_cols = max_cols, min_rows = p.min_rows, min_cols = min_cols,
    align = peel and esize(dt) or vec * esize(dt), cols_mult = whole and vec or nil,
    rank = 2 * rank + (whole and 1 or 0),
    source = KERNELS .. subst(ENTRY, { block = block, name = name, T = T, call = call,
                                       bounds = minb and block .. ", " .. minb or block }),
  }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  -- { lanes, nv }: rows of up to 128/256 (16-bit) elements take half a warp
  for _, c in ipairs({ { 16, 1 }, { 16, 2 }, { 32, 2 } }) do
    for _, p in ipairs(twins({ vec = vec, lanes = c[1], nv = c[2] })) do emit(dt, "warp", p) end
  end
  -- a warp a row up to 1024 (16-bit) columns, four rows a block, no block
  -- barrier: H200, bf16, kp tune 2026-11-26, 131072 x 1001 149.6 us against
  -- 192.9 (one 128-thread block a row, ranked before); 32768 x 1024 36.9
  -- against 44.8.  Built for sm_90a only (measured there; other targets keep
  -- the block a row)
  -- Rows off the grid by the scalar-tail form (`_t`, TS; fifty-eighth
  -- session, call 5, bf16, pinned side by side in turns, us, the warp rows
  -- before / `_ws_v8_n4_r16_p2`, ranked then for odd 513-1024 from 16384
  -- rows, in brackets): 131072 x 1001 129.0-129.5 (140.5-140.7 / 140.3-140.5),
  -- 65536 x 1001 67.7-68.0 (73.5-73.7 / 71.8-72.4), 16384 x 1001 20.9-21.0
  -- (23.3-23.5 / 21.5-21.6), 131072 x 777 107.1-108.2 (119.9-120.0 /
  -- 117.4-117.5).
  for _, p in ipairs(twins({ vec = vec, lanes = 32, nv = 4, only90 = true, ts = 1 })) do
    emit(dt, "warp", p)
  end
  -- Odd 16-bit rows of 1025-4096 (off the 16-byte grid: max_align 8, the
  -- aligned calls keep their picks) ran one block a row of 128 / 256
  -- threads x 2 vectors, a third to a half of its lanes idle, and had never
  -- been timed at odd lengths.  Fifty-first session, calls 2-3, kp tune,
  -- H200, bf16, one run, us (the block pick before): a warp a row of 6
  -- vectors a lane for 1025-1536 (65536 x 1501 101.1, 91.6% of copy;
  -- 130.8), of 8 for 1537-2048 (65536 x 2001 131.1, 94.2%; 148.5); one-CTA
  -- stages of 128 x 2 below: 6 KiB for 2049-3072 (65536 x 2501 175.5, 64 x
  -- 2 172.5; 249.1 -- 65536 x 3001 197.6, 93.6%; 260.3), 8 KiB for
  -- 3073-4096 (65536 x 3501 228.4, 94.5%; 280.6 -- 32768 x 4095 135.2;
  -- 157.8).  Call 4, side by side in turns with the pack before, % of copy:
  -- 1501 90.9 (69.3), 2001 92.2 (82.7), 2501 85.8 (61.5), 3001 92.2
  -- (70.4), 3501 94.0 (76.7), 4095 92.7 (79.6).
  -- Fifty-eighth session (call 5, as above): 6 vectors a lane by the
  -- scalar-tail form, 65536 x 1201 81.0-81.6 us (85.1-85.2), 1501 100.2-100.4
  -- (100.7-100.9); 8 by it lost at 2001 (133.7-134.2 against 132.5-133.0),
  -- level at 2047: n8 keeps its partial vector.  `_tk` (kp_st16): the
  -- tuner's (level with `_t` at 131072 x 513-768, call 6).
  if esize(dt) == 2 then
    for _, c in ipairs({ { 6, 1 }, { 8 }, { 4, 2 }, { 6, 2 } }) do
      emit(dt, "warp", { vec = vec, lanes = 32, nv = c[1], only90 = true, ts = c[2] })
    end
    -- `_rw` / `_rs`: the scalar-tail warp rows taking 2 rows 8 apart, w kept
    -- in registers / shared memory while their residue stays (kp_wrow): for
    -- the tuner.  Fifty-ninth session (calls 1-2, H200, bf16, pinned side by
    -- side in turns, us, `_t` in brackets): `_rw2` 131072 x 513 82.1-82.5
    -- (79.5-79.7), 777 108.9-109.1 (106.6-107.4), 16384 x 1001 21.0-21.1
    -- (21.4-21.6); `_rs2` 1-10% behind `_t` everywhere; 4 and 8 rows a warp,
    -- and 6 vectors a lane, further behind under kp tune (bench/NOTES.md 94).
    for _, wsm in ipairs({ false, true }) do
      emit(dt, "warp", { vec = vec, lanes = 32, nv = 4, only90 = true, ts = 1, rw = 2,
                         wsm = wsm or nil })
    end
  end
  -- { threads, nv, alt }: 256x4 and 512x2 hold the same row; 512x2 is the
  -- default (H100, bf16, 32768 rows of 8192: 0.8-1.1% faster, kp tune 2026-11-22)
  -- (n = 3: rows of 4K..6K and 8K..12K fill 3/4 of the threads' vectors or
  -- more, not half: H100, bf16, 2026-11-25, 16384 x 4097 103.2 us against
  -- 112.8 for 256 x 4, 32768 x 5001 231.6 against 244.5; 8192 x 11007 145.6
  -- against 144.1 for 512 x 4)
  for _, c in ipairs({ { 128, 1, 0 }, { 128, 2, 0 }, { 256, 2, 0 }, { 256, 3, 0 }, { 256, 4, 1 },
                       { 512, 2, 0 }, { 512, 3, 0 }, { 512, 4, 0 }, { 1024, 4, 0 } }) do
    local ps = { { vec = vec, threads = c[1], nv = c[2], alt = c[3] } }
    if c[3] == 0 then ps = twins(ps[1]) end -- (the ranking's ones)
    for _, p in ipairs(ps) do emit(dt, "block", p) end
  end
  -- Blocks by the scalar-tail form (`_t`; sm_90a; the warp rows' `_t` took
  -- 8% off odd 1001, NOTES 93): 128 x 4 holds odd 16-bit rows of 4097-4103
  -- with every thread's vectors whole, ranked there (402, over the one-CTA
  -- stage; rows off the grid).  Fifty-eighth session, call 8, bf16, pinned
  -- in turns against the stage `_s9`, us: 16384 x 4097 67.6 / 67.8 (70.2 /
  -- 70.4), 65536 x 4097 266.0 / 267.9 (266.9 / 267.1); 256 x 2 and 512 x 1
  -- 4-23% slower.  256 x 6 holds rows of 9001-12288, ranked there (402, over
  -- the `_wc` stage; rows off the grid).  Sixtieth session, call 8, pinned
  -- in turns against the stage, bf16 two rounds, us: 8192 x 11007
  -- 91.4-91.8 (93.9-94.1), 16384 x 9001 152.6-152.9 (153.6-154.2), 10001
  -- 162.3-162.5 (167.6-167.9), 8192 x 12287 101.6 (104.8); f16 one round
  -- 91.4 (94.1), 153.2 (153.6), 101.6 (104.8); kp tune at 4096 x 11007
  -- level (48.4 / 48.4).  For the tuner: 512 x 3 (113.9 at 8192 x 11007).
  if esize(dt) == 2 then
    -- { threads, nv[, min_cols, max_cols] } (ranked where min_cols is given)
    for _, c in ipairs({ { 128, 4, 4097 }, { 256, 2 }, { 512, 1 }, { 256, 6, 9001, 12288 },
                         { 512, 3 } }) do
      emit(dt, "block", { vec = vec, threads = c[1], nv = c[2], alt = 0, only90 = true, ts = 1,
                          min_cols = c[3], max_cols = c[4], rank = c[3] and 402 or nil,
                          max_align = c[3] and 8 or nil })
    end
  end
  -- for the tuner: the 8K-row shapes with cache hints, and one vector per
  -- thread over 1024 threads
  if vec > 1 then
    emit(dt, "block", { vec = vec, threads = 256, nv = 4, alt = 2, hint = true })
    emit(dt, "block", { vec = vec, threads = 512, nv = 2, alt = 3, hint = true })
    emit(dt, "block", { vec = vec, threads = 1024, nv = 1, alt = 4 })
    -- full occupancy (32 registers): more rows in flight per SM (256x4 at
    -- 32 registers spills)
    emit(dt, "block", { vec = vec, threads = 512, nv = 2, alt = 6, minb = 4 })
    -- (bf16's 128 / 256 x 2 blocks take 40 registers where f16's take 32,
    -- 6 blocks of 256 an SM, not 8: capped at 32 -- `_o8`, `_o16` -- they
    -- ran level with them at aligned 2048-4096 but for 16384 x 3584, 3.7%;
    -- not kept, bench/NOTES.md 88)
  end
  -- Long rows over a cluster of CTAs (sm_90a, kp_cluster_gather): the row in
  -- registers (for the tuner), or a loop over each CTA's slice, its second
  -- pass from L2 (the rows in flight are few), ranked past 128K: `kp tune`
  -- on an H100 (bf16, odd lengths, 2026-11-25, bench/NOTES.md 35): 512 x
  -- 151937 145 us (one-CTA loop: 179), 512 x 199999 203 (235); below that
  -- the row in the registers of 8 or 16 CTAs of 128 threads (a cluster over
  -- few SMs): 2048 x 50257 169 us (one-CTA loop: 185), 1024 x 128257 212
  -- (288; the cluster loop: 222).
  -- { threads, nv, cl }
  if vec > 1 then
    for _, c in ipairs({ { 256, 4, 2 }, { 256, 4, 4 }, { 256, 4, 8 }, { 512, 4, 8 },
                         { 512, 4, 16 }, { 128, 8, 8 }, { 128, 8, 16 }, { 128, 16, 16 } }) do
      emit(dt, "block", { vec = vec, threads = c[1], nv = c[2], cl = c[3], alt = 0 })
    end
  end
  for _, p in ipairs(twins({ vec = vec, threads = 512, unroll = 4 })) do emit(dt, "loop", p) end
  emit(dt, "loop", { vec = 1, threads = 256, unroll = 8 })
  -- each CTA's slice staged in shared memory (rmsnorm_stage): { threads,
  -- unroll, KiB of whole vectors a CTA, cl[, min_cols, max_cols] }; 16-bit
  -- rows off the 16-byte grid (max_align 8) take the ranked ones (min_cols)
  -- over every other variant.  kp tune, H100, bf16, 2026-11-27, two runs
  -- (bench/results/2026-11-27-s15/call1, call2), us, against the ranking
  -- before: 16384 x 4097 98.9 / 101.5 (256 x 3: 104.8 / 104.7), 8192 x
  -- 11007 129.4 / 135.0 (512 x 3: 145.7 / 146.2), 4096 x 32001 190.6 /
  -- 195.3 (1024 x 4: 198.5 / 198.7), 2048 x 50257 166.0 / 164.4 (128 x 8
  -- over 8 CTAs: 172.3 / 172.9), 1024 x 128257 208.9 / 208.2 (128 x 8
  -- over 16: 215.8 / 216.5), 512 x 151937 136.4 / 135.4 (the loop over 4
  -- CTAs: 144.8 / 145.0), 512 x 199999 173.0 / 172.7 (201.9 / 202.5).
  -- Past 140000, at any alignment (c.any), 512 x 2 over 8 CTAs (sixteenth
  -- session, calls 1-2, one run each): aligned 512 x 151936 132.9 (the loop
  -- over 4 CTAs: 136.7), 512 x 200000 163.7 (202.0); odd 151937 134.2 and
  -- 199999 168.6 (over 4 CTAs: 135.3, 172.2); at 128256 it lost (221.0
  -- against 207.7).  16384 x 4097 on an H200 (twenty-eighth session, call
  -- 6, one run): 128 x 2 73.2 (256 x 1, ranked before: 78.7; on an H100,
  -- seventeenth session: 102.0 against 101.5), hence 4097-8192.
  -- 256 x 2 over 16 CTAs of 16 / 26 KiB (8 CTAs an SM), for the tuner:
  -- twenty-ninth session (call 4, H200, one run) level with the picks on
  -- odd rows of 128257-199999 (157 against 147 at 128257), ahead on aligned
  -- 512 x 200000 (110.2 against 112.2).
  -- The write pass with w's residue a constant (`_wc`, c.wc: one loop a
  -- residue, kp_stage_norm_out; stage_forms adds the other form of each
  -- entry for the tuner).  Thirty-fifth session, calls 1-2, kp tune, H200,
  -- bf16, one run each, us, against the ranking before, all odd:
  --   8193-12288 256 x 2 in 24 KiB: 8193 70.5 (512 x 1: 79.0), 9001 78.0
  --     (86.7), 10001 83.9 (90.0), 11007 92.7 (96.3), 12287 104.1 (103.8)
  --   12289-24576 512 x 2 in 64 KiB: 16001 71.3 (the row in registers, 512 x 4:
  --     80.7); call 3: 13001 62.5 (66.9), 20001 89.6, 24575 107.2 (the next
  --     best, 256 x 2 over 2 of 32 KiB: 92.6, 110.2)
  --   24577-32768 256 x 2 over 2 of 32 KiB: 24577 106.6 (512 x 2 in 64:
  --     110.0), 28001 121.2 (125.0), 32001 136.5 (140.3), 32767 140.0 (142.8)
  --   32769-51200 256 x 2 over 4 of 25 KiB: 36001 85.2 (512 x 2 over 2 of 64:
  --     89.4), 45001 99.6 (101.1, its plain form), 50257 109.5 (111.9)
  --   51201-65536 512 x 2 over 2 of 64 KiB: 57001 125.9 (129.6)
  --   65537-131072 256 x 2 over 8 of 32 KiB: 65537 80.5 (512 x 2 over 4 of
  --     64: 84.2), 90001 104.2 (110.8), 128257 140.4 (146.7), 131071 142.7
  --     (149.8)
  --   131073-155648 256 x 2 over 8 of 38 KiB: 135001 79.8 (512 x 2 over 4
  --     of 100: 92.7), 140001 80.9 (512 x 2 over 8 of 50: 86.1), 151937 88.5
  --     (93.0), 155647 89.8 (93.9)
  --   155649-212992 256 x 2 over 16 of 26 KiB: 170001 99.9 (512 x 2 over 8
  --     of 50: 101.7), 199999 114.9 (119.1), 204799 117.0 (120.4)
  -- f16 alike where measured (calls 1, 4).  Where a thread has few vectors (rows
  -- of 4097-4611, slices over many threads) the one loop a residue lost
  -- 2-9%, and on aligned rows past 140000 (w at residue 0) it did not pay
  -- (call 3: 512 x 151936 92.6 against 92.3, 512 x 200000 114.7 against
  -- 112.4): those keep the plain write pass.
  if vec > 1 then
    for _, c in ipairs({ { 128, 2, 16, nil, 4097, 8192 }, { 512, 1, 24 },
                         { 512, 2, 64, nil, 12289, 24576, wc = true },
                         { 512, 2, 64, 2, 51201, 65536, wc = true },
                         { 512, 2, 64, 4 }, { 512, 2, 100, 4 },
                         { 512, 2, 50, 8, 140001, any = true }, { 512, 2, 32, 8 },
                         { 256, 2, 32, 8, 65537, 131072, wc = true }, { 256, 1, 16 },
                         { 256, 2, 24, nil, 8193, 12288, wc = true },
                         { 256, 2, 16, 16 },
                         { 256, 2, 26, 16, 155649, 212992, rank = 401, wc = true } }) do
      for _, p in ipairs(stage_forms(dt, vec, c)) do emit(dt, "stage", p) end
    end
  end

  -- Fewer threads a CTA, slices sized to the row (thirty-fourth session,
  -- call 5, kp tune, H200, bf16, one run, us): a staged CTA's fixed work --
  -- barriers, peeling, its sums: ~40% of the instructions at 16384 x 4097,
  -- where a thread held 32 elements -- over more elements a thread, and
  -- more CTAs an SM.  16384 x 4097 128 x 2 in 9 KiB 70.4 (16 KiB: 73.1),
  -- 2048 x 50257 256 x 2 over 4 CTAs of 25 KiB 112.3 (512 x 2 over 2 of 64
  -- KiB: 116.7); ranked (rank 401, over the ranges' picks) for odd 16-bit
  -- rows of 4097-4608 and 40961-51200.  The others for the tuner: 4096 x
  -- 32001 256 x 2 over 2 of 32 KiB 139.3 (139.9), 512 x 151937 256 x 2 over
  -- 8 of 38 KiB 92.4 (92.3), 512 x 199999 / 128257 within 1-4%.  Since the
  -- thirty-fifth session (above) 256 x 2 over 4 takes 32769-51200, over 2
  -- 24577-32768 and over 8 of 38 KiB 131073-155648, all `_wc`.
  if vec > 1 and esize(dt) == 2 then
    -- Aligned rows of 2049-2560: a copy of 64 x 4 in 9 KiB (`_al`, rank 300
    -- at any alignment: over the `_w` 256 x 2 block, half its lanes idle
    -- there; under the odd rows' 128 x 2 in 6 KiB, rank 400) at 16384 rows
    -- or more.  Fifty-second session, H200, bf16, us (call 1, kp tune, one
    -- run): 65536 x 2304 144.0 (block 164.8), 2560 160.0 (174.3; fifty-first
    -- session, call 7); at 3072 it led the block by 3% but the hinted loop of
    -- 128 x 4 led it (188.5 against 192.9).  % of copy side by side in turns
    -- with the block, two rounds (call 2): 65536 x 2056 93.2 (81.5), 2304
    -- 97.5 (86.7), 2560 98.0 (89.8), 16384 x 2304 87.6 (82.9), x 2560 91.7
    -- (86.7) -- but 4096 x 2560 66.0 (68.8): 1.3 waves, hence min_rows.
    -- bf16's to 3072 since the fifty-third session (call 2, kp tune, one
    -- run, us: 65536 x 2816 175.6, block 186.0; 16384 x 3072 49.8, 51.6 --
    -- the hinted loop of 128 x 4 48.5, within 3%, one variant fewer).  Side
    -- by side in turns with the block, two rounds, % of copy (call 3):
    -- bf16 16384 x 2816 92.0 (89.1), x 3072 92.4 (91.2), 65536 x 2816 98.1
    -- (92.4), x 3072 98.2 (94.8); f16's block is faster there (95.1, 96.2,
    -- 98.6, 100.0 against the stage's 91.0, 93.3, 98.0, 98.0): not f16.
    for _, c in ipairs({ { 128, 2, 9, nil, 4097, 4608, rank = 401 },
                         { 128, 2, 6, nil, 2049, 3072 }, { 128, 2, 8, nil, 3073, 4096 },
                         { 256, 2, 25, 4, 32769, 51200, wc = true },
                         { 64, 4, 9 }, { 128, 4, 22 },
                         { 64, 4, 9, nil, 2049, dt == "bf16" and 3072 or 2560, any = true,
                           rank = 300, suffix = "al", min_rows = 16384 },
                         { 256, 2, 32, 2, 24577, 32768, wc = true }, { 128, 4, 25, 4 },
                         { 256, 2, 38, 8, 131073, 155648, rank = 401, wc = true },
                         { 256, 2, 50, 8 } }) do
      for _, p in ipairs(stage_forms(dt, vec, c)) do emit(dt, "stage", p) end
    end
  end
  -- Persistent clusters, w's slices staged once, rows at any residue
  -- (rmsnorm_pers): { threads, buffers, y's 16-byte chunks a CTA, cl[,
  -- min_cols] }, ranked (402, over the staged picks) where min_cols is
  -- given.  Fifty-fourth session (calls 2-3, H200, bf16, kp tune, us, the
  -- pick before in brackets): 512 x 3 over 8 CTAs of 3200 chunks 512 x
  -- 199999 111.0 (115.6), 512 x 151937 86.9 (88.8; 2400 chunks 85.7 and
  -- 87.0 in two runs), aligned 512 x 151936 85.6 (91.0); at 1024 x 128257
  -- 2048 chunks over 8 lost (152.9 against 141.2), and clusters of 16
  -- (one CTA an SM: 7 clusters, each row's sum a round trip the short write
  -- pass does not cover) lost everywhere (512 x 199999 144.5), as clusters
  -- of 4 did at 2048 x 50257 (134.3 against 111.2).  Ranked for rows off
  -- the 16-byte grid of 155649-204793 (max_align 8): side by side in turns
  -- with main's pack, two rounds, % of copy (call 4): bf16 512 x 199999
  -- 86.1 (81.7), 1024 x 180001 89.1 (84.0), 256 x 199999 81.2 (76.1), 768 x
  -- 160001 86.6 (81.2); f16 85.8 (82.2), 89.0 (84.7), 80.4 (76.5), 85.2
  -- (81.6) -- but aligned 512 x 200000 82.9 (83.9; f16 82.0 against 84.4),
  -- odd 151937 83.0 (81.9; f16 80.9 against 82.3) and 1024 x 147457 84.6
  -- (84.7; f16 82.1 against 85.0), which keep the stages.
  if vec > 1 and esize(dt) == 2 then
    for _, c in ipairs({ { 512, 3, 2400, 8 }, { 512, 3, 3200, 8, 155649 }, { 512, 4, 2048, 8 },
                         { 256, 4, 1600, 16 } }) do
      emit(dt, "pers", { vec = vec, threads = c[1], nbuf = c[2], wmax = c[3], cl = c[4],
                         min_cols = c[5], rank = c[5] and 402 or nil,
                         max_align = c[5] and 8 or nil })
    end
  end
  -- Rows a warp each, w staged at every residue, persistent (rmsnorm_ws;
  -- 16-bit; the tuner's): { vectors a lane, warps a CTA, CTAs an SM }.
  -- Fifty-fifth session (H200, bf16; bench/results/2026-12-02-s55): 16 x 2
  -- ranked for odd 513-1024 from 16384 rows, % of copy side by side in turns
  -- (call 5): 131072 x 1001 87.0 / 86.6 -> 87.2 / 87.1, 16384 x 1001 64.7 /
  -- 64.6 -> 68.8 / 69.0, 131072 x 513 57.1 / 56.9 -> 62.1 / 62.4 -- w's
  -- shifted loads were not what held the warp rows at 87% of copy at 131072
  -- x 1001 (aligned 1000: 97.8).  Fifty-eighth session (call 6, pinned, us):
  -- the scalar-tail warp rows (`_t`) beat it at every measured shape,
  -- 131072 x 513 80.5 against 100.4, 640 82.1-82.3 against 91.6-91.9, 768
  -- 96.6-97.1 against 104.0-104.6, 1001 129-130 against 140-141, 16384 x
  -- 640 14.3-14.4 against 16.0-16.3: no longer ranked (NOTES 93).
  if vec > 1 and esize(dt) == 2 then
    for _, c in ipairs({ { 4, 8, 5 }, { 4, 16, 2 }, { 4, 4, 10 }, { 2, 8, 6 }, { 8, 8, 4 } }) do
      emit(dt, "ws", { vec = vec, nv = c[1], warps = c[2], per = c[3], only90 = true })
    end
  end
  -- the loop over a cluster: { threads, unroll, cl, hint }
  if vec > 1 then
    for _, c in ipairs({ { 512, 4, 4 }, { 512, 4, 8 }, { 512, 4, 16 }, { 512, 2, 8, true },
                         { 1024, 2, 8 }, { 128, 4, 16 }, { 256, 4, 16 } }) do
      emit(dt, "loop", { vec = vec, threads = c[1], unroll = c[2], cl = c[3], hint = c[4] })
    end
  end
  -- for the tuner: the two-pass form with L2 hints, small chunks (full occupancy)
  for _, c in ipairs({ { 128, 1 }, { 128, 2 }, { 128, 4 }, { 256, 1 }, { 256, 2 }, { 256, 4 },
                       { 512, 1 }, { 512, 2 }, { 1024, 1 } }) do
    -- Not the default: at 32768 rows of 4096/8192 (bf16) 256 threads x 2/4
    -- vectors of this form were 3.7%/2.4% faster than the row-in-registers
    -- defaults on H200 (100.8% of copy at 8192), 0.3% on H100, but at 4096
    -- rows 8-14% slower on H100; ranked for the tuner (a table sees rows),
    -- and one copy ranked for many rows through min_rows (below).
    emit(dt, "loop", { vec = vec, threads = c[1], unroll = c[2], hint = true })
  end
  -- for the tuner: 256x4 (45 registers, 5 blocks per SM: its second pass
  -- holds 4 vectors of x and 4 of w) with a second pass of 2 or 1 vectors
  -- per step: 32 registers, full occupancy (capping 256x4 itself at 6 or 8
  -- blocks per SM spills).  torch.compile's kernel for 32768 x 8192 on
  -- H200 (peer_kernels.py, 2026-11-23) is this two-pass form at full
  -- occupancy: 512 threads x 16 elements, 32 registers.  Measured on H200
  -- (2026-11-24, 32768 x 8192): 264.1 (_s1) and 262.6 (_s2) us vs 252.5
  -- for 256x4 itself -- slower; kept for the tuner (bench/NOTES.md 20).
  if vec > 1 then
    for _, u2 in ipairs({ 2, 1 }) do
      emit(dt, "loop", { vec = vec, threads = 256, unroll = 4, hint = true, u2 = u2 })
    end
  end
  -- The hinted two-pass 256x4 as the ranking's choice for many rows (>=
  -- 16384) of 4097..8192 16-bit columns.  kp tune, bf16, 2026-11-22: on
  -- H200 128.4 / 251.7 us at 16384 / 32768 x 8192 against ~3.5% more for
  -- the 512x2 row-in-registers kernel; on H100 0.4-0.6% slower than 512x2
  -- there (181.6 vs 181.0, 359.2 vs 357.1 us), and 2-14% slower at 4096
  -- rows, hence the row bound.  Rows of 4097..6144 take 256 x 3, ranked
  -- above it (H100, bf16, 2026-11-25: 16384 x 4097 103.2 us against 112.8
  -- for 256 x 4; bench/NOTES.md 35).
  if esize(dt) == 2 then
    for _, p in ipairs(twins({ vec = vec, threads = 256, unroll = 4, hint = true,
                               min_rows = 16384, max_cols = 8192 })) do
      emit(dt, "loop", p)
    end
    -- The two-pass 512 x 4 for whole 16-bit rows of 8193..12288 columns,
    -- over 512 x 3's registers (sm_90a, where measured).  kp tune, H200,
    -- bf16, 2026-12-01 (bench/results/2026-12-01-s49, calls 2-3), us:
    -- 8192 x 10240 85.2 (512 x 3: 93.3), 8192 x 11008 90.5 (97.3), 8192 x
    -- 12288 99.0 (102.7).  Rows off the 16-byte grid keep their staged picks.
    emit(dt, "loop", { vec = vec, threads = 512, unroll = 4, whole = true, only90 = true,
                       cols12k = true })
  end
end

-- The variant space beyond the list above, for `kp regen`: any point of it
-- (make), and the points one step from a given one (neighbours): lanes per
-- row, threads, vectors held per thread, unroll.  The vector width stays (a
-- register variant needs 16-byte vectors; vec = 1 is the fallback).  Loop
-- names leave the unroll out: a made loop variant gets "_u<unroll>".
family_space {
  name_omits = { unroll = "u" },
  make = function(dt, p) emit(dt, p.kind, p) end,
  -- the raw vectors of x and w: 2 per n or unroll step
  neighbours = function(dt, p)
    if p.kind == "stage" then return stage_neighbours(p) end
    if p.kind == "ws" then -- (CTAs an SM: as many as threads and shared memory hold)
      local out = {}
      for _, q in ipairs(steps(p, { nv = { 2, 4, 6, 8 }, warps = { 4, 8, 16 }, per = { 2, 4, 8, 16 } })) do
        q.min_cols, q.rank, q.smem, q.persist, q.minb, q.max_align, q.min_rows =
          nil, nil, nil, nil, nil, nil, nil
        if q.warps * q.per <= 64 and smem_blocks(q.vec * 32 * q.nv * 16) >= q.per then
          out[#out + 1] = q
        end
      end
      return out
    end
    if p.kind == "pers" then -- (buffers: as many as shared memory holds)
      local out = {}
      for _, q in ipairs(steps(p, { threads = { 256, 512, 1024 }, nbuf = { 2, 3, 4, 6 },
                                     unroll = { 1, 2 } })) do
        q.min_cols, q.rank, q.smem, q.persist, q.max_align = nil, nil, nil, nil, nil
        if smem_blocks((q.nbuf + 1) * 16 * (q.wmax + 2)) >= 1 then out[#out + 1] = q end
      end
      return out
    end
    local out = {}
    for _, q in ipairs(norm_neighbours(p, 2)) do
      if q.ts then q.min_cols, q.max_cols, q.rank, q.max_align = nil, nil, nil, nil end -- (a ranked `_t`'s own)
      if not q.rw or q.lanes == 32 then out[#out + 1] = q end -- (`_rw` / `_rs`: whole warps)
    end
    return out
  end,
}
