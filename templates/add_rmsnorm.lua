-- add_rmsnorm.lua -- res = round(x + res); y = res * rsqrt(mean(res^2) + eps) * w
-- along rows, fp32 math.
--
-- Kernel arguments: (const T *x, long long ldx, T *res, long long ldr, const T *w, T *y,
--                    long long ldy, int rows, int cols, float eps)
-- x, res, y: (rows, cols) with row strides ldx, ldr, ldy (elements); w: (cols).
-- The sum is rounded to T before it is stored and before it is normalised,
-- so y is exactly rmsnorm of the stored residual (as PyTorch computes it).
--
-- Variant space (as rmsnorm.lua):
--   warp   one warp (or 16 lanes) per row, the row held in registers: short rows
--   block  one block per row, the row held in registers: rows up to 32K
--   loop   one block per row: pass 1 writes res and sums squares, pass 2
--          re-reads the new res (from L1/L2 when it fits) and writes y: any length
-- `vec` is elements per 16-byte access (needs 16-byte aligned row starts);
-- vec=1 is the fallback for any alignment.  Ranking: the smallest register
-- variant that holds the row, then the looped ones.  Where two shapes hold
-- the same row (`alt`), the lower alt is the default and the others are
-- there for the tuner.  The ranking's 16-byte variants have whole-rows
-- twins (`_w`, cols a multiple of vec: twins()) ranked just above them, with
-- no partial-vector code (block_t256_n2, bf16: 495 PTX lines, not 896).

family { name = "add_rmsnorm", signature = "p,l,p,l,p,p,l,i,i,f" }

local KERNELS = [[
// Vectors stay packed from load to use (kp_raw_io in kp_device.cuh).
// Plain loads and stores throughout, though x, res and y are touched once
// (res must not take the non-coherent path anyway: this kernel writes it):
// with the streaming forms (ld.global.nc without L1 allocation, st.global.cs)
// these kernels measured 4-5% slower on 8K rows and 10-20% slower on 512-1K
// rows on H200 (bf16).

// h = x + r of one packed vector of each, rounded to T as it is stored and
// normalised: returned packed, its squares added to s.
template <class T, int VEC>
__device__ __forceinline__ typename kp_raw_io<T, VEC>::raw add_rmsnorm_add(
    typename kp_raw_io<T, VEC>::raw x, typename kp_raw_io<T, VEC>::raw r, float &s) {
  typedef kp_raw_io<T, VEC> io;
  float h[VEC], b[VEC];
  io::unpack(x, h);
  io::unpack(r, b);
#pragma unroll
  for (int i = 0; i < VEC; i++) h[i] += b[i];
  const typename io::raw packed = io::pack(h);
  io::unpack(packed, h);
#pragma unroll
  for (int i = 0; i < VEC; i++) s = fmaf(h[i], h[i], s);
  return packed;
}

// Row in registers: LANES threads share one row: the whole block when
// ROWS_PER_BLOCK == 1, else a warp or a group of 16 lanes.  Thread `lane`
// holds vectors n = 0..NV-1 at columns (n * LANES + lane) * VEC, so each
// load instruction of a group reads one contiguous LANES * 16-byte segment.
// VEC * sizeof(T) == 16.
// W_EARLY: w is loaded right behind x and res, so that its latency (usually an
// L1/L2 hit: every row reads w) hides under the reduction instead of adding
// to the row's tail, where the block has no loads in flight.  Where
// registers are short (w_early below) w is loaded after the reduction, one
// vector at a time.
// XH, WH: cache hints of x's and res's loads, and of w's (kp_ld16_hint).
// PEEL: rows at any residue mod 16 bytes (per-row peeling, kp_device.cuh):
// lane i < h holds head element i; the vectors start at res's row's first
// 16-byte boundary (res is read and written), x and w loaded aligned or
// shifted, y stored aligned or element by element (xal, wal, yal) per row.
// TS (PEEL, CL == 1; `_t`): the row's last ncols % VEC elements as scalars
// a lane each, as the head's, so that every vector is whole or absent (no
// partial vector's pieces and selects; rmsnorm.lua's rmsnorm_regs TS): 3%
// fewer us at odd 1201-1501 for 6 vectors a lane, 1.3% more at 1001 for 4
// (fifty-eighth session, NOTES 93).
// WC (`_rw` / `_rs`, add_rmsnorm_regs below): w's vectors, head and
// tail elements from wc (kp_wrow), loaded there only where the row's
// residue changed.
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool W_EARLY, int XH, int WH,
          bool PEEL, int CL, bool TS, bool WC, class WR>
__device__ __forceinline__ void add_rmsnorm_row(const T *__restrict__ x, long long ldx,
                                                T *__restrict__ res, long long ldr,
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
  T *rr = res + row * ldr;
  T *yr = y + row * ldy;
  const int h0 = PEEL ? kp_head(rr, ncols) : 0; // the row's head elements, held by rank 0:
  const int h = crank == 0 ? h0 : 0;
  float hh = 0.f, s = 0.f; // (PEEL) head element x + res, rounded as stored
  if (PEEL && lane < h) {
    hh = kp_to_f32(kp_from_f32<T>(kp_load1(xr + lane) + kp_load1(rr + lane)));
    kp_store1(rr + lane, hh);
    s = hh * hh;
  }
  ncols -= h0, xr += h0, rr += h0, yr += h0, w += h0;
  if constexpr (CL > 1) { // the cluster's CTAs share the row (kp_cluster_slice)
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(ncols, crank, &len);
    xr += c, rr += c, yr += c, w += c, ncols = (int)len;
  }
  const bool xal = !PEEL || kp_al16(xr), wal = !PEEL || kp_al16(w), yal = !PEEL || kp_al16(yr);
  constexpr int S = LANES * VEC;
  const int c0 = lane * VEC;
  if constexpr (TS) {
    static_assert(PEEL && CL == 1 && VEC > 1 && LANES >= VEC, "scalar tails: peeling rows");
    const int nw = ncols & ~(VEC - 1), nt = ncols - nw; // (whole vectors' columns, tail elements)
    float ht = 0.f; // the tail element x + res, rounded as stored
    if (lane < nt) {
      ht = kp_to_f32(kp_from_f32<T>(kp_load1(xr + nw + lane) + kp_load1(rr + nw + lane)));
      kp_store1(rr + nw + lane, ht);
      s = fmaf(ht, ht, s);
    }
    typename io::raw hv[NV], rv[NV], wv[NV];
#pragma unroll
    for (int n = 0; n < NV; n++) hv[n] = io::load_whole(xr, c0 + n * S, nw, xal);
#pragma unroll
    for (int n = 0; n < NV; n++) rv[n] = io::load_whole(rr, c0 + n * S, nw);
    if constexpr (WC) wc.get(w, h, nw, nt, lane);
    else if constexpr (W_EARLY)
#pragma unroll
      for (int n = 0; n < NV; n++) wv[n] = wio::load_whole(w, c0 + n * S, nw, wal);
#pragma unroll
    for (int n = 0; n < NV; n++) {
      hv[n] = add_rmsnorm_add<T, VEC>(hv[n], rv[n], s);
      if (c0 + n * S < nw) kp_store16<false>(rr + c0 + n * S, hv[n]);
    }
    s = LANES <= 32 ? kp_lanes_sum<LANES>(s) : kp_block_sum<LANES>(s, scratch);
    const float rs = rsqrtf(s / (float)cols + eps);
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const int c = c0 + n * S;
      if (c < nw) {
        const uint4 g = WC ? wc.vec(n) : W_EARLY ? wv[n] : wio::load_whole(w, c, nw, wal);
        const uint4 o = kp_norm_scale<T, VEC>(hv[n], g, rs);
        if (yal) kp_store16<false>(yr + c, o);
        else kp_st16_elems(yr + c, o, VEC);
      }
    }
    if (lane < h) kp_store1(yr - h + lane, hh * rs * (WC ? wc.h : kp_load1(w - h + lane)));
    if (lane < nt) kp_store1(yr + nw + lane, ht * rs * (WC ? wc.t : kp_load1(w + nw + lane)));
    return;
  }
  const kp_part p = kp_part_of<T, VEC, S, NV>(c0, ncols);
  typename io::raw hv[NV], rv[NV], wv[NV];
  kp_group_load<T, VEC, S, NV, XH>(xr, c0, ncols, p, 0u, hv, xal);
  kp_group_load<T, VEC, S, NV, XH>(rr, c0, ncols, p, 0u, rv);
  if constexpr (W_EARLY) kp_group_load<T, VEC, S, NV, WH>(w, c0, ncols, p, 0u, wv, wal);
#pragma unroll
  for (int n = 0; n < NV; n++) hv[n] = add_rmsnorm_add<T, VEC>(hv[n], rv[n], s);
  kp_group_store<T, VEC, S, NV>(rr, c0, ncols, p, hv);
  s = LANES <= 32 ? kp_lanes_sum<LANES>(s) : kp_block_sum<LANES>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)cols + eps);
  if constexpr (W_EARLY) {
    typename io::raw keep = hv[0];
#pragma unroll
    for (int n = 0; n < NV; n++)
      kp_vec_store<T, VEC>(yr, c0 + n * S, ncols, n == p.k,
                           kp_norm_scale<T, VEC>(hv[n], wv[n], rs), keep, yal);
    kp_part_store<T, VEC>(yr, p, keep, yal);
  } else { // registers are short: w and y a vector at a time, each guarded whole/partial
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const int c = c0 + n * S;
      float v[VEC];
      io::unpack(kp_norm_scale<T, VEC>(hv[n], wio::load(w, c, ncols, wal), rs), v);
      if (c < ncols) kp_store_part<T, VEC>(yr, c, ncols, v, yal);
    }
  }
  if (PEEL && lane < h) kp_store1(yr - h + lane, hh * rs * kp_load1(w - h + lane));
}

// The row-in-registers kernels' entry: the group's row, or (RW > 1; `_rw`,
// the scalar-tail warp rows) RW rows 8 apart with w kept in registers (WSM,
// `_rs`: in shared memory) while their residue stays (kp_wrows).
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool W_EARLY, int XH = 0,
          int WH = 0, bool PEEL = false, int CL = 1, bool TS = false, int RW = 1,
          bool WSM = false>
__device__ __forceinline__ void add_rmsnorm_regs(const T *__restrict__ x, long long ldx,
                                                 T *__restrict__ res, long long ldr,
                                                 const T *__restrict__ w, T *__restrict__ y,
                                                 long long ldy, int rows, int cols, float eps) {
  static_assert(RW == 1 || TS, "rows 8 apart: the scalar-tail form");
  typedef kp_wrow<T, VEC, NV, LANES * VEC, WH, WSM> wrow; // (a generic lambda: host code to NVRTC)
  kp_wrows<T, VEC, NV, LANES, ROWS_PER_BLOCK, CL, RW, WH, WSM>(rows, [&](long long r, wrow &wc) {
    add_rmsnorm_row<T, VEC, NV, LANES, ROWS_PER_BLOCK, W_EARLY, XH, WH, PEEL, CL, TS, (RW > 1)>(
        x, ldx, res, ldr, w, y, ldy, rows, cols, eps, r, wc);
  });
}

// Any length.  Each step of a pass handles U vectors per thread of each of
// its two inputs, loads all issued before any use, so 2 * U * THREADS * VEC
// elements are in flight per block; the steps take whole vectors only (past
// the row end: read as 0, not stored), so the last step needs no loop of its
// own, and the row's partial vector is done once, ahead of each pass.  Each
// thread re-reads in pass 2 exactly the res elements it wrote in pass 1, so
// no barrier is needed between the passes beyond the reduction's.
// PEEL: as add_rmsnorm_regs'; thread i < h holds head element i.
// CL > 1 (PEEL): the row over a cluster of CL CTAs, each looping over the
// slice kp_cluster_slice gives it: few rows in flight, so that the second
// pass finds its slice of res in L2 even for rows of 100K+ elements.
template <class T, int VEC, int THREADS, int U, bool PEEL = false, int CL = 1>
__device__ __forceinline__ void add_rmsnorm_loop(const T *__restrict__ x, long long ldx,
                                                 T *__restrict__ res, long long ldr,
                                                 const T *__restrict__ w, T *__restrict__ y,
                                                 long long ldy, int rows, int cols, float eps) {
  typedef kp_raw_io<T, VEC> io;
  __shared__ float scratch[32];
  const long long row = blockIdx.x / CL;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *rr = res + row * ldr;
  T *yr = y + row * ldy;
  const int h0 = PEEL ? kp_head(rr, cols) : 0; // the row's head, held by rank 0
  const int h = crank == 0 ? h0 : 0;
  const int ti = threadIdx.x;
  float hh = 0.f, s = 0.f; // (PEEL) head element x + res, rounded as stored
  if (PEEL && ti < h) {
    hh = kp_to_f32(kp_from_f32<T>(kp_load1(xr + ti) + kp_load1(rr + ti)));
    kp_store1(rr + ti, hh);
    s = hh * hh;
  }
  xr += h0, rr += h0, yr += h0, w += h0;
  long long n = cols - h0;
  if constexpr (CL > 1) {
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(n, crank, &len);
    xr += c, rr += c, yr += c, w += c, n = len;
  }
  const bool xal = !PEEL || kp_al16(xr), wal = !PEEL || kp_al16(w), yal = !PEEL || kp_al16(yr);
  constexpr int S = THREADS * VEC;
  const long long c0 = (long long)threadIdx.x * VEC;
  // the steps load and store whole vectors; the row's partial one, if this
  // thread holds it (tail.k >= 0), ahead of each pass's loop
  const kp_part tail = kp_part_of<T, VEC, S, KP_ALL>(c0, n);
  // (the partial vector first: ptxas spilled around it after the loop)
  if constexpr (VEC > 1)
    if (tail.k >= 0)
      kp_part_store<T, VEC>(
          rr, tail, add_rmsnorm_add<T, VEC>(kp_part_load<T, VEC>(xr, tail, 0u, xal), kp_part_load<T, VEC>(rr, tail, 0u), s));
#pragma unroll 1
  for (long long c = c0; c < n; c += U * S) {
    typename io::raw a[U], b[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
      a[u] = io::load_whole(xr, c + u * S, n, xal);
      b[u] = io::load_whole(rr, c + u * S, n);
    }
#pragma unroll
    for (int u = 0; u < U; u++) { // (stored as it goes: fewer registers live)
      a[u] = add_rmsnorm_add<T, VEC>(a[u], b[u], s);
      kp_vec_store<T, VEC>(rr, c + u * S, n, false, a[u], b[u]);
    }
  }
  s = kp_block_sum<THREADS>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)cols + eps);
  if (PEEL && ti < h) kp_store1(yr - h + ti, hh * rs * kp_load1(w - h + ti));
  if constexpr (VEC > 1)
    if (tail.k >= 0)
      kp_part_store<T, VEC>(yr, tail, kp_norm_scale<T, VEC>(kp_part_load<T, VEC>(rr, tail, 0u),
                                                           kp_part_load<T, VEC>(w, tail, 0u, wal), rs),
                            yal);
#pragma unroll 1
  for (long long c = c0; c < n; c += U * S) {
    typename io::raw a[U], g[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
      a[u] = io::load_whole(rr, c + u * S, n);
      g[u] = io::load_whole(w, c + u * S, n, wal);
    }
#pragma unroll
    for (int u = 0; u < U; u++)
      kp_vec_store<T, VEC>(yr, c + u * S, n, false, kp_norm_scale<T, VEC>(a[u], g[u], rs), g[u],
                           yal);
  }
}

// Long rows, one DRAM read of each input: each CTA's slices of x and res
// (CL > 1: the row over a cluster of CL CTAs, as add_rmsnorm_loop's) staged
// in shared memory by bulk copies (kp_stage_issue: two images, two sets of
// barriers), pass 1 adding them piece by piece as the pieces arrive -- h
// stored to res and kept in res's image (each thread re-reads in pass 2
// exactly the vectors it wrote) -- and the write pass from shared memory
// (softmax_stage's shape; w from global memory, an L2 hit).  The grid is
// res's 16-byte grid (its image at offset 0); x and y at other residues
// take shifted reads and element stores.  SMEM: the bytes of whole vectors
// of one input a CTA holds (the variant's max_cols).
template <class T, int VEC, int THREADS, int CL, int U, int SMEM, bool WC = false>
__device__ __forceinline__ void add_rmsnorm_stage(const T *__restrict__ x, long long ldx,
                                                  T *__restrict__ res, long long ldr,
                                                  const T *__restrict__ w, T *__restrict__ y,
                                                  long long ldy, int rows, int cols, float eps) {
  static_assert(VEC * sizeof(T) == 16, "16-byte vectors");
  constexpr int PV = THREADS * U, NB = (SMEM / 16 + PV - 1) / PV, IMG = SMEM + 16;
  typedef kp_raw_io<T, VEC> io;
  extern __shared__ __align__(16) char kp_img[]; // x's image, then res's
  __shared__ unsigned long long bar[2 * NB];
  __shared__ float scratch[32];
  const long long row = blockIdx.x / CL;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0, t = threadIdx.x;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *rr = res + row * ldr, *yr = y + row * ldy;
  const int hh = kp_head(rr, cols), h = crank == 0 ? hh : 0; // the row's head, rank 0
  xr += hh, rr += hh, yr += hh, w += hh;
  long long n = cols - hh;
  if constexpr (CL > 1) {
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(n, crank, &len);
    xr += c, rr += c, yr += c, w += c, n = len;
  }
  const int nv = (int)(n / VEC), np = (nv + PV - 1) / PV;
  char *ri = kp_img + IMG;
  kp_stage_issue<T, VEC, PV, NB, THREADS, 1, false>(rr, nv, ri, bar + NB);
  const int off = kp_stage_issue<T, VEC, PV, NB, THREADS, THREADS >= 96 ? 2 : 1>(xr, nv, kp_img, bar);
  if constexpr (CL > 1) kp_cluster_begin(); // (its wait at the exchange, after pass 1)
  const bool xal = off == 0, wal = kp_al16(w), yal = kp_al16(yr);
  float hv = 0.f, s = 0.f; // (rank 0) head element x + res, rounded as stored
  if (t < h) {
    hv = kp_to_f32(kp_from_f32<T>(kp_load1(xr - h + t) + kp_load1(rr - h + t)));
    kp_store1(rr - h + t, hv);
    s = hv * hv;
  }
  const kp_part tail = {n % VEC && t == nv % THREADS ? 0 : -1, n};
  uint4 pq = make_uint4(0u, 0u, 0u, 0u);
  if (tail.k >= 0) {
    pq = add_rmsnorm_add<T, VEC>(kp_part_load<T, VEC>(xr, tail, 0u, xal),
                                 kp_part_load<T, VEC>(rr, tail, 0u), s);
    kp_part_store<T, VEC>(rr, tail, pq);
  }
#pragma unroll 1
  for (int q = 0; q < np; q++) {
    kp_mbar_wait(&bar[q], 0);
    kp_mbar_wait(&bar[NB + q], 0);
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k = q * PV + u * THREADS + t;
      if (k < nv) {
        const uint4 hk = add_rmsnorm_add<T, VEC>(kp_stage_vec(kp_img, off, k, xal),
                                                 reinterpret_cast<const uint4 *>(ri)[k], s);
        // (kp_st16 for CL == 1: NVRTC split the plain store there alone;
        // the cluster forms' was whole, and kp_st16 cost them 0.5-1 point)
        kp_store16<CL == 1>(rr + (long long)k * VEC, hk);
        reinterpret_cast<uint4 *>(ri)[k] = hk;
      }
    }
  }
  s = kp_block_sum<THREADS>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL, true>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)cols + eps);
  if (t < h) kp_store1(yr - h + t, hv * rs * kp_load1(w - h + t));
  if (tail.k >= 0)
    kp_part_store<T, VEC>(yr, tail,
                          kp_norm_scale<T, VEC>(pq, kp_part_load<T, VEC>(w, tail, 0u, wal), rs), yal);
  kp_stage_norm_out<T, VEC, THREADS, U, WC>(
      [&](int k) { return reinterpret_cast<const uint4 *>(ri)[k]; }, w, wal, yr, yal, nv, rs);
}

// Long rows at any residue, persistent (`_pers`; sm_90a): rmsnorm_pers's
// persistent clusters and layout (kp_pers_*, kp_prow / kp_pin, kp_device.cuh)
// on res's 16-byte grid -- res is read and written: each CTA's h = x + res
// for the next row, stored whole to res and kept in res's buffer, while the
// previous row's y is written from it -- x through its window, w staged
// once; y stored whole where it shares res's residue (the common case),
// else element by element.  WMAX: res's chunks a CTA holds (max_cols); WU:
// the write loop's unroll.
template <class T, int THREADS, int CL, int NBUF, int WMAX, int WU>
__device__ __forceinline__ void add_rmsnorm_pers(const T *__restrict__ x, long long ldx,
                                                 T *__restrict__ res, long long ldr,
                                                 const T *__restrict__ w, T *__restrict__ y,
                                                 long long ldy, int rows, int cols, float eps) {
  static_assert(CL > 1 && NBUF >= 2, "a cluster, rows ahead");
  constexpr int VEC = 16 / (int)sizeof(T), ES = (int)sizeof(T), IMG = 16 * (WMAX + 2);
  typedef kp_raw_io<T, VEC> io;
  extern __shared__ __align__(16) char kp_img[]; // w's image, then NBUF of x's and res's
  __shared__ unsigned long long full[NBUF], wbar, xbar[2];
  __shared__ float slot[2][CL], scratch[2][32];
  const int t = threadIdx.x, rank = (int)kp_cluster_rank();
  const long long c0 = blockIdx.x / CL, G = gridDim.x / CL, RB = (long long)cols * ES;
  const long long W = ((RB + 16 - ES + 15) / 16 + CL - 1) / CL, m0 = rank * W;
  const kp_u64 xlo = (kp_u64)x, xhi = (kp_u64)(x + (rows - 1) * ldx) + RB, wa = (kp_u64)w;
  const kp_u64 rlo = (kp_u64)res, rhi = (kp_u64)(res + (rows - 1) * ldr) + RB;
  auto xbuf = [&](int b) { return kp_img + IMG + b * 2 * IMG; };
  auto rbuf = [&](int b) { return kp_img + 2 * IMG + b * 2 * IMG; };
  auto row = [&](long long r) { return kp_prow_of((kp_u64)(res + r * ldr), RB, m0, W); };
  auto xin = [&](const kp_prow &g, long long r) { return kp_pin_of(g, (kp_u64)(x + r * ldx), m0); };
  auto issue = [&](int b, long long r) { // (thread 0) row r's chunks into buffer b
    const kp_prow g = row(r);
    const kp_pin px = xin(g, r), pr = kp_pin_of(g, g.ya, m0); // (res's: its chunk j at j)
    kp_u64 src;
    kp_mbar_expect_tx(&full[b], kp_pin_bytes(px, xlo, xhi, &src) + kp_pin_bytes(pr, rlo, rhi, &src));
    kp_pin_load(px, xbuf(b), xlo, xhi, &full[b]);
    kp_pin_load(pr, rbuf(b), rlo, rhi, &full[b]);
  };
  kp_pers_start<T, THREADS, CL, NBUF>(full, &wbar, xbar, kp_img, wa, RB, m0, W, c0, G, rows, issue);
  // row r's h, stored to res and kept in res's buffer (each thread keeps the
  // chunks its write pass reads), its sum of squares to every CTA
  auto add_send = [&](int i, long long r) {
    const int b = i % NBUF;
    const kp_prow g = row(r);
    const kp_pin px = xin(g, r), pr = kp_pin_of(g, g.ya, m0);
    kp_mbar_wait(&full[b], (i / NBUF) & 1);
    const bool ex = kp_pin_edges<T>(px, g, xbuf(b), xlo, xhi);
    if (kp_pin_edges<T>(pr, g, rbuf(b), rlo, rhi) || ex) __syncthreads();
    uint4 *rc = reinterpret_cast<uint4 *>(rbuf(b));
    uint4 *hc = reinterpret_cast<uint4 *>(g.ya - g.oy + 16 * m0);
    const int nj = (int)g.nj, j0 = g.ph ? 1 : 0, j1 = nj - (g.pt ? 1 : 0);
    float s = 0.f;
    for (int j = j0 + t; j < j1; j += THREADS) {
      const uint4 hk = add_rmsnorm_add<T, VEC>(kp_stage_vec(xbuf(b), px.dx, j, px.dx == 0), rc[j], s);
      hc[j] = hk, rc[j] = hk;
    }
    // the row's partial end chunks, one thread each (one chunk both ends:
    // the first's): h's elements inside the row stored, their squares added
    const int j = kp_prow_end_j<THREADS>(g, nj, t);
    if (j >= 0) {
      float all = 0.f, f[VEC];
      const uint4 hk = add_rmsnorm_add<T, VEC>(kp_stage_vec(xbuf(b), px.dx, j, px.dx == 0), rc[j], all);
      const long long e0 = 16 * (m0 + j) - g.oy; // (the chunk's first byte in the row)
      io::unpack(hk, f);
#pragma unroll
      for (int e = 0; e < VEC; e++)
        if (e0 + e * ES >= 0 && e0 + e * ES < RB) s = fmaf(f[e], f[e], s);
      kp_prow_store_end<T>(g, hc, j, m0, RB, hk);
      rc[j] = hk;
    }
    kp_pers_send<THREADS, CL>(s, i, rank, scratch, slot, xbar);
  };
  if (c0 < rows) add_send(0, c0);
  kp_mbar_wait(&wbar, 0);
  int i = 0;
#pragma unroll 1
  for (long long r = c0; r < rows; r += G, i++) {
    const float rs = rsqrtf(kp_pers_sum<CL>(i, slot, xbar) / (float)cols + eps);
    if (r + G < rows) add_send(i + 1, r + G);
    const int b = i % NBUF;
    const kp_prow g = row(r);
    const int dw = kp_pw_off(g.oy, wa), nj = (int)g.nj;
    const uint4 *rc = reinterpret_cast<const uint4 *>(rbuf(b));
    const char *wi = kp_img + (dw & 16); // (w's window: wi + 16 j + (dw & 15))
    const uint4 *wc = reinterpret_cast<const uint4 *>(wi);
    const kp_u64 ya = (kp_u64)(y + r * ldy);
    uint4 *yc = reinterpret_cast<uint4 *>(ya - g.oy + 16 * m0); // (16-byte aligned where yal)
    const bool yal = ((ya - g.ya) & 15) == 0;
    const int j0 = g.ph ? 1 : 0, j1 = nj - (g.pt ? 1 : 0); // (whole chunks)
    if (yal) {
      kp_pers_norm_outs<T, THREADS, WU>(dw & 15, rc, wc, yc, j0, j1, rs);
    } else {
#pragma unroll 1
      for (int j = j0 + t; j < j1; j += THREADS)
        kp_st16_range(reinterpret_cast<T *>(yc + j),
                      kp_norm_scale<T, VEC>(rc[j], kp_stage_vec(wi, dw & 15, j, false), rs),
                      0, VEC);
    }
    const int j = kp_prow_end_j<THREADS>(g, nj, t);
    if (j >= 0)
      kp_prow_store_end<T>(g, yc, j, m0, RB,
                           kp_norm_scale<T, VEC>(rc[j], kp_stage_vec(wi, dw & 15, j, !(dw & 15)), rs));
    kp_pers_next<CL, NBUF>(i, b, r, G, rows, xbar, issue);
  }
  kp_cluster_meet(); // (none leaves while a CTA of its cluster may still read or send to it)
}
]]

local ENTRY = [[
extern "C" __global__ void __launch_bounds__(${bounds})
${name}(const ${T} *x, long long ldx, ${T} *res, long long ldr, const ${T} *w, ${T} *y,
        long long ldy, int rows, int cols, float eps) {
  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh
  ${call}(x, ldx, res, ldr, w, y, ldy, rows, cols, eps);
}
]]

-- W_EARLY (w loaded before the reduction) only where the raw vectors of
-- x, res and w (3 per n, 4 registers each) fit in 32 registers, and not at
-- 1024 threads (64-register cap): beyond that ptxas spills or trades
-- occupancy, and loading w after the reduction is the better deal.
local function w_early(threads, nv)
  return (threads < 1024 and 12 * nv <= 32) and "true" or "false"
end

-- The warps a row ranked for odd 16-bit rows (max_align 8) from min_cols
-- to their max_cols, by vectors a lane (below, where measured); keyed by
-- shape, not params, so that `kp regen`'s neighbours of them stay unranked
local ODD_WARPS = { [6] = 1025 }

local function emit(dt, kind, p)
  local T = ctype(dt)
  local vec = p.vec
  local name, call, max_cols, block, rpb, rank, min_cols, st, max_align, lb
  if kind == "warp" then
    local shape = p.lanes == 32 and "warp" or string.format("lanes%d", p.lanes)
    name = string.format("add_rmsnorm_%s_%s_v%d_n%d", dt, shape, vec, p.nv)
    block = p.rw and 256 or 128 -- (`_rw` / `_rs`: rows 8 apart a warp, 8 warps a block)
    rpb = block // p.lanes
    call = string.format("add_rmsnorm_regs<%s, %d, %d, %d, %d, %s>", T, vec, p.nv, p.lanes, rpb,
                         w_early(128, p.nv))
    max_cols = p.lanes * vec * p.nv
    rank = 300 - max_cols // 64
    local odd = esize(dt) == 2 and vec == 8 and p.lanes == 32 and p.only90 and not p.whole
                and not p.rw and ODD_WARPS[p.nv]
    if odd then min_cols, rank, max_align = odd, 400, 8 end
    if p.ts then name = name .. "_t" end
    if p.rw then -- (RW rows a warp; `_rs`: w in shared memory)
      name, rpb, rank = name .. (p.wsm and "_rs" or "_rw") .. p.rw, rpb * p.rw, 40
      -- (blocks an SM, without a spill: w's 4 vectors a lane in registers 3,
      -- 80 registers -- 96 without; in shared memory 4, 63 -- 80 without;
      -- 6 a lane in shared memory 3, 80 -- 97 without; 6 in registers spill
      -- at 3, 106 without)
      if p.wsm then lb = p.nv <= 4 and 4 or 3 elseif p.nv <= 4 then lb = 3 end
      if p.min_cols then -- (ranked for odd 16-bit rows in its range: below)
        min_cols, max_cols, rank, max_align = p.min_cols, p.max_cols, 401, 8
      end
    end
  elseif kind == "block" then
    name = string.format("add_rmsnorm_%s_block_t%d_v%d_n%d", dt, p.threads, vec, p.nv)
    block, rpb = p.threads, 1
    call = string.format("add_rmsnorm_regs<%s, %d, %d, %d, 1, %s>", T, vec, p.nv, p.threads,
                         w_early(p.threads, p.nv))
    if p.hint then -- x and res evict-first, w evict-last (Triton's choice for a norm)
      name = name .. "_h"
      call = call:gsub(">$", ", 1, 2>")
    end
    max_cols = p.threads * vec * p.nv
    rank = 200 - max_cols // 512 - p.alt
    if p.cl then -- the row over a cluster of cl CTAs (sm_90a): for the tuner
      name = name .. "_c" .. p.cl
      max_cols = max_cols * p.cl
      rank = 60 - p.cl
    elseif esize(dt) == 2 and not p.hint then -- 16-bit rows, by shape (measured: below)
      if p.threads == 512 and p.nv == 3 and not p.whole then max_align = 8 -- (aligned: 512 x 4_w)
      elseif p.threads == 1024 and p.nv == 4 then min_cols = 24577 end -- (16K..24K: the loop)
    end
  elseif kind == "pers" then -- persistent clusters, w staged once (add_rmsnorm_pers; any residue)
    p.unroll = p.unroll or 2 -- (the write loop's)
    name = string.format("add_rmsnorm_%s_pers_t%d_b%d_w%d_c%d%s", dt, p.threads, p.nbuf, p.wmax,
                         p.cl, p.unroll ~= 2 and "_u" .. p.unroll or "")
    block, rpb = p.threads, 1
    call = string.format("add_rmsnorm_pers<%s, %d, %d, %d, %d, %d>", T, p.threads, p.cl, p.nbuf,
                         p.wmax, p.unroll)
    max_cols = p.max_cols or (16 * p.wmax * p.cl - 16 + esize(dt)) // esize(dt) -- (res's chunks a CTA: wmax)
    p.smem, p.persist = (2 * p.nbuf + 1) * 16 * (p.wmax + 2), 1
    assert(smem_blocks(p.smem) >= 1, "a CTA's shared memory fits an SM")
    min_cols, rank, max_align = p.min_cols, p.rank or 40, p.max_align
  elseif kind == "stage" then -- (sm_90a: bulk copies; peels; for the tuner unless ranked)
    st = stage_fields("add_rmsnorm", dt, p, T, vec, 2)
    name, call, max_cols, min_cols, rank = st.name, st.call, st.max_cols, st.min_cols, st.rank
    block, rpb = p.threads, 1
  else
    name = string.format("add_rmsnorm_%s_loop_t%d_v%d", dt, p.threads, vec)
    block, rpb = p.threads, 1
    call = string.format("add_rmsnorm_loop<%s, %d, %d, %d>", T, vec, p.threads, p.unroll)
    max_cols = nil
    rank = vec > 1 and 100 or 0
    if p.cl then -- the loop over a cluster (sm_90a; PEEL): for the tuner
      name = string.format("%s_u%d_c%d", name, p.unroll, p.cl)
      rank = 80 - p.cl
      if p.threads == 512 and p.unroll == 4 and p.cl == 4 and not p.hint then -- ranked past 64K
        min_cols, rank = 65537, 101 -- (measured: see the variant list below)
      end
    end
  end
  p.kind = kind
  local whole = p.whole and vec > 1 -- rows of a multiple of vec (twins())
  if whole then name = name .. "_w" end
  -- 16-byte variants without hints, other than the whole-rows twins, peel
  -- each row (PEEL): any alignment of the element size, vectorised; the
  -- twins and the hinted ones keep the 16-byte requirement and their code
  local peel = vec * esize(dt) == 16 and not whole and not p.hint
  if kind == "stage" or kind == "pers" then peel = true -- (its call above)
  elseif peel then
    call = call:gsub(">$", kind == "loop" and ", true>" or ", 0, 0, true>")
    if p.ts then call = call:gsub(">$", ", 1, true>") end
    if p.rw then call = call:gsub(">$", ", " .. p.rw .. (p.wsm and ", true>" or ">")) end
  end
  if p.cl and kind ~= "stage" and kind ~= "pers" then
    assert(peel, "a cluster variant peels")
    call = call:gsub(">$", ", " .. p.cl .. ">")
  end
  variant {
    name = name, dtype = dt, params = p,
    block = block, rows_per_block = rpb, min_cols = min_cols, min_rows = p.min_rows,
    cluster = p.cl, split = p.cl,
    smem = st and st.smem or p.smem, persistent = p.persist,
    max_align = st and st.max_align or max_align,
    -- (cluster and stage variants: sm_90a code; `only90` ones: measured there alone)
    targets = (p.cl or p.only90 or kind == "stage") and { "sm_90a" } or nil,
    min_sm = (p.cl or kind == "stage") and 90 or nil, max_sm = (p.cl or kind == "stage") and 90 or nil,
    max_cols = max_cols,
    align = peel and esize(dt) or vec * esize(dt), cols_mult = whole and vec or nil,
    rank = 2 * rank + (whole and 1 or 0),
    source = KERNELS .. subst(ENTRY, { block = block, name = name, T = T, call = call,
                                       bounds = (st and st.minb or lb)
                                                and block .. ", " .. (st and st.minb or lb)
                                                or block }),
  }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  -- { lanes, nv }: rows of up to 128/256 (16-bit) elements take half a warp
  for _, c in ipairs({ { 16, 1 }, { 16, 2 }, { 32, 2 } }) do
    for _, p in ipairs(twins({ vec = vec, lanes = c[1], nv = c[2] })) do emit(dt, "warp", p) end
  end
  -- a warp a row up to 1024 (16-bit) columns, four rows a block, no block
  -- barrier: H200, bf16, kp tune 2026-11-26, 131072 x 1001 287.4 us
  -- against 361.4 (one 128-thread block a row, ranked before).  Built for
  -- sm_90a only (measured there; other targets keep the block a row)
  for _, p in ipairs(twins({ vec = vec, lanes = 32, nv = 4, only90 = true })) do
    emit(dt, "warp", p)
  end
  -- Odd 16-bit rows of 1025-4096 (max_align 8) ran one block a row of 128
  -- / 256 threads x 2 vectors, never timed at odd lengths.  Fifty-first
  -- session, call 3, kp tune, H200, bf16, one run, us (the block pick
  -- before): a warp a row of 6 vectors a lane for 1025-1536 (65536 x 1501
  -- 213.3, 86.8% of copy; 239.7), one-CTA stages of 128 x 2 below: 6 KiB for
  -- 1537-3072 (65536 x 2001 278.9, 88.6%; 302.7 -- 2501 344.8, 89.5%; 397.5
  -- -- 3001 411.2, 90.0%; 461.7), 8 KiB for 3073-4096 (65536 x 3501 478.8,
  -- 90.2%; 522.7).  Call 4, side by side in turns with the pack before, %
  -- of copy: 1501 86.6 (77.3), 2001 87.8 (81.0), 2501 89.0 (77.6), 3001
  -- 89.7 (79.6), 3501 90.6 (83.0), 32768 x 4095 89.9 (86.9).
  if esize(dt) == 2 then
    -- (by the scalar-tail form since the fifty-eighth session, call 5,
    -- bf16, pinned side by side in turns, us: 65536 x 1501 206.9-207.0
    -- against 212.4-212.9, 1201 173.6-173.7 against 179.0-179.5)
    emit(dt, "warp", { vec = vec, lanes = 32, nv = 6, only90 = true, ts = true })
    -- `_rw` / `_rs`: the scalar-tail warp rows taking 2 rows 8 apart, w kept
    -- in registers / shared memory while their residue stays (kp_wrow).
    -- Fifty-ninth session (calls 1-2, H200, pinned side by side in turns,
    -- us, the warp rows ranked before in brackets): `_rs2` bf16 131072 x 513
    -- 163.3-163.6 (178.7-179.0), 601 184.2-184.6 (201.8-203.0), 777
    -- 227.7-228.4 (230.9-231.7), 65536 x 1001 147.6-147.9 (141.9-142.3);
    -- f16 one round 513 163.9 (170.1), 601 184.3 (189.0), 777 227.3 (222.9).
    -- Ranked for odd 16-bit rows of 513-640 from 32768 rows (measured at
    -- 131072).  `_rw2` (tuner's): 513 170.6-171.0, 16384 x 1001 38.8-38.9
    -- (40.0-40.4), 65536 x 1001 143.4-143.6.  4 and 8 rows a warp, and 6
    -- vectors a lane, behind under kp tune everywhere (bench/NOTES.md 94).
    for _, wsm in ipairs({ false, true }) do
      emit(dt, "warp", { vec = vec, lanes = 32, nv = 4, only90 = true, ts = true, rw = 2,
                         wsm = wsm or nil,
                         min_cols = wsm and 513 or nil, max_cols = wsm and 640 or nil,
                         min_rows = wsm and 32768 or nil })
    end
  end
  -- { threads, nv, alt }: 256x4 and 512x2 hold the same row.  1024 x 4
  -- takes 16-bit rows from 24577 columns (min_cols, set in emit): below, the
  -- loop ran faster (kp tune, H200, bf16, 2026-12-01, bench/results/
  -- 2026-12-01-s49 call 2-3, us: odd 4096 x 18943 185.2 against 229.4,
  -- aligned 4096 x 18944 158.8 against 177.4, 4096 x 24576 200.2 against
  -- 200.1, its peeling form 206.8 against 239.0)
  for _, c in ipairs({ { 128, 1, 0 }, { 128, 2, 0 }, { 256, 2, 0 }, { 256, 4, 0 }, { 512, 2, 1 },
                       { 512, 4, 0 }, { 1024, 4, 0 } }) do
    local ps = { { vec = vec, threads = c[1], nv = c[2], alt = c[3] } }
    if c[3] == 0 then ps = twins(ps[1]) end -- (the ranking's ones)
    for _, p in ipairs(ps) do emit(dt, "block", p) end
  end
  -- 256 x 3 and 512 x 3, as for RMSNorm: rows of 4K..6K and 8K..12K fill 3/4
  -- of the vectors, not half (H200, bf16, kp tune 2026-11-26: 16384 x 4097
  -- 165.1 us against 174.7 for 256 x 4; 8192 x 11007 224.2 against 241.2 for
  -- 512 x 4).  Built for sm_90a only (measured there); no whole-rows twins
  -- yet (not run on a GPU): aligned rows of 4097..6144 take 256 x 3 too.
  -- 512 x 3 serves 16-bit rows off the 16-byte grid alone (max_align 8, set
  -- in emit): whole rows of 8193..12288 ran faster in 512 x 4's twin (kp
  -- tune, H200, bf16, 2026-12-01, bench/results/2026-12-01-s49 calls 2-3,
  -- us: 8192 x 10240 161.9 against 196.4, 8192 x 11008 173.2 against 204.7,
  -- 8192 x 12288 196.9 against 216.4; the loop's twin level with it).
  for _, c in ipairs({ { 256, 3 }, { 512, 3 } }) do
    emit(dt, "block", { vec = vec, threads = c[1], nv = c[2], alt = 0, only90 = true })
  end
  -- for the tuner: the 8K-row shapes with cache hints
  emit(dt, "block", { vec = vec, threads = 256, nv = 4, alt = 2, hint = true })
  emit(dt, "block", { vec = vec, threads = 512, nv = 2, alt = 3, hint = true })
  -- Long rows over a cluster of CTAs (sm_90a, kp_cluster_gather): the row in
  -- registers (for the tuner), or a loop over each CTA's slice, its second
  -- pass from L2 (the rows in flight are few), ranked past 64K: `kp tune`
  -- on an H100 (bf16, odd lengths, 2026-11-25, bench/NOTES.md 35): 1024 x
  -- 128257 425 us (one-CTA loop: 512), 512 x 151937 270 (309), 512 x 199999
  -- 370 (409); at 50257 the one-CTA loop stays faster (356 against 396).
  -- 128 x 8 over 8 and 16 CTAs (a cluster over 1-2 SMs: what RMSNorm runs at
  -- 32K..128K, 2048 x 50257 185 -> 169 us) not yet measured here.
  -- { threads, nv, cl }
  if vec > 1 then
    for _, c in ipairs({ { 256, 4, 2 }, { 256, 4, 4 }, { 256, 4, 8 }, { 512, 4, 8 },
                         { 512, 4, 16 }, { 128, 8, 8 }, { 128, 8, 16 } }) do
      emit(dt, "block", { vec = vec, threads = c[1], nv = c[2], cl = c[3], alt = 0 })
    end
  end
  for _, p in ipairs(twins({ vec = vec, threads = 512, unroll = 4 })) do emit(dt, "loop", p) end
  emit(dt, "loop", { vec = 1, threads = 256, unroll = 8 })
  if vec > 1 then -- the loop over a cluster: { threads, unroll, cl }
    for _, c in ipairs({ { 512, 4, 4 }, { 512, 4, 8 }, { 512, 4, 16 }, { 1024, 2, 8 } }) do
      emit(dt, "loop", { vec = vec, threads = c[1], unroll = c[2], cl = c[3] })
    end
    -- each CTA's slices of x and res staged in shared memory
    -- (add_rmsnorm_stage: two images of `kb` KiB): { threads, unroll, kb,
    -- cl[, min_cols, max_cols] }; 16-bit rows off the 16-byte grid
    -- (max_align 8) take the ranked ones (min_cols) over every other
    -- variant.  kp tune, H100, bf16, 2026-11-27, one run
    -- (bench/results/2026-11-27-s15/call3), us, against the ranking before:
    -- 16384 x 4097 198.8 (256 x 3: 210.0), 8192 x 11007 268.9 (512 x 3:
    -- 282.4), 4096 x 32001 380.5 (1024 x 4: 397.9), 2048 x 50257 313.6 (the
    -- one-CTA loop: 363.1), 1024 x 128257 402.1 (the loop over 4 CTAs:
    -- 430.4), 512 x 151937 255.5 (274.0), 512 x 199999 320.5 (370.1).
    -- Seventeenth session (call 1, one run): 2048 x 80001 494.8 for 512 x 2
    -- over 4 CTAs of 50 KiB (256 x 2 over 8 of 32: 526.9), hence 65537-98304.
    -- Twenty-ninth session (call 4, H200, one run): odd 1024 x 128257 282.8
    -- for 256 x 2 over 16 CTAs of 16 KiB (8 CTAs an SM; 256 x 2 over 8 of
    -- 32, ranked before: 299.2), hence 98305-131072; aligned 128256 it lost
    -- to the loop over 4 (272.1 against 268.3).  Over 16 CTAs of 26 KiB:
    -- for the tuner (aligned 512 x 200000 227.9 against the loop's 247.6,
    -- odd 151937 / 199999 level with 512 x 2 over 8).
    -- The write pass with w's residue a constant (`_wc`, c.wc; rmsnorm.lua
    -- says more), thirty-fifth session, call 2, kp tune, H200, bf16, one
    -- run, us, odd rows: 512 x 2 over 4 of 50 KiB at 1024 x 90001 202.1
    -- (its plain form: 204.7), over 8 of 50 at 512 x 151937 181.8 (185.2)
    -- and 512 x 199999 230.5 (236.6).
    for _, c in ipairs({ { 256, 1, 16, nil, 4097, 8192 }, { 512, 1, 24, nil, 8193, 12288 },
                         { 512, 2, 32, 2, 24577 }, { 512, 2, 32, 4, 32769 },
                         { 512, 2, 50, 4, 65537, 98304, wc = true }, { 256, 2, 32, 8 },
                         { 512, 2, 50, 8, 131073, wc = true }, { 512, 2, 32 }, { 512, 2, 64, 2 },
                         { 512, 2, 64, 4 }, { 256, 2, 16, 16, 98305, 131072 },
                         { 256, 2, 26, 16 } }) do
      for _, p in ipairs(stage_forms(dt, vec, c)) do emit(dt, "stage", p) end
    end
  end

  -- Fewer threads a CTA, slices sized to the row (thirty-fourth session,
  -- call 5, kp tune, H200, bf16, one run, us; rmsnorm.lua says why): 16384 x
  -- 4097 128 x 2 in 9 KiB an image 142.0 (256 x 1 in 16: 146.4), 8192 x
  -- 11007 128 x 2 in 22 KiB 196.7 (512 x 1 in 24: 210.5); ranked (rank
  -- 401) for odd 16-bit rows of 4097-4608 and 8193-11264.  2048 x 50257
  -- 256 x 2 over 4 CTAs of 25 KiB 219.4 (221.4), 151937 / 199999 behind the
  -- picks.
  if vec > 1 and esize(dt) == 2 then
    -- `_wc` (thirty-fifth session, call 2, as above): 128 x 2 in 22 KiB at
    -- 8192 x 8193 145.0 (148.3), 8192 x 11007 193.6 (196.7); 256 x 2 over 4
    -- of 25 KiB at 2048 x 50257 215.5 (512 x 2 over 4 of 32: 221.7), hence
    -- 40961-51200.  Over 2 CTAs of 20 / 24 KiB an image for odd rows of
    -- 16385-24576 (fiftieth session, calls 1-2, kp tune, H200, bf16, one
    -- run, us, against the one-CTA loop ranked there): 256 x 2 of 20 KiB at
    -- 4096 x 16385 140.7 (150.9), 17001 147.0 (165.4), 18943 162.5 (184.6);
    -- 512 x 2 of 24 KiB at 20481 175.6 (199.0), 22001 186.9 (215.7), 24575
    -- 207.1 (235.1).  One CTA of 40 / 48 KiB images, and 256 x 2 of 24 KiB
    -- over 2, within 1-2% of those (not kept).  Aligned rows there keep the
    -- loop's twin (4096 x 18944 156.3, 20480 167.9, 24576 198.9: the best).
    for _, c in ipairs({ { 128, 2, 9, nil, 4097, 4608, rank = 401 },
                         { 128, 2, 6, nil, 1537, 3072 }, { 128, 2, 8, nil, 3073, 4096 },
                         { 256, 2, 20, 2, 16385, 20480 }, { 512, 2, 24, 2, 20481, 24576 },
                         { 128, 2, 22, nil, 8193, 11264, rank = 401, wc = true },
                         { 64, 4, 9 }, { 128, 4, 22 },
                         { 256, 2, 25, 4, 40961, 51200, rank = 401, wc = true },
                         { 128, 2, 13, 8 } }) do
      for _, p in ipairs(stage_forms(dt, vec, c)) do emit(dt, "stage", p) end
    end
    -- Persistent clusters, w staged once, rows at any residue
    -- (add_rmsnorm_pers, RMSNorm's `_pers` layout on res's grid): { threads,
    -- buffers, res's 16-byte chunks a CTA, cl[, min_cols, max_cols] },
    -- ranked (402, over the staged picks) where min_cols is given.
    -- Fifty-fifth session (H200, bf16; bench/results/2026-12-02-s55): kp
    -- tune, us (call 1; the stage pick in brackets): 512 x 151937 256 x 3
    -- over 16 CTAs 174.4 (181.9), 512 x 199999 512 x 3 over 16 224.8
    -- (231.0), 1024 x 180001 398.4 (408.0), but 1024 x 128257 328.7 (284.2).
    -- Ranked for rows off the 16-byte grid of 147457-204793 (max_align 8):
    -- side by side in turns with main's pack, % of copy, bf16 two rounds
    -- (call 2): 512 x 147457 78.6 / 78.7 -> 81.4 / 81.9, 151937 78.9 / 79.6
    -- -> 82.8 / 82.8, 768 x 160001 81.9 / 81.8 -> 84.6 / 84.5, 1024 x 180001
    -- 83.8 / 84.3 -> 86.6 / 86.7, 512 x 199999 82.3 / 82.8 -> 85.0 / 84.6,
    -- 256 x 199999 79.3 / 79.9 -> 82.2 / 82.6; f16 one round +2.9 to +3.2
    -- points to 1024 x 180001 (+1.2, +1.0 at 512 x 199999), 256 x 199999
    -- 79.8 -> 79.4.
    for _, c in ipairs({ { 512, 3, 1600, 16, 163841 }, { 512, 2, 2400, 8 },
                         { 256, 3, 1600, 16, 147457, 163840 } }) do
      emit(dt, "pers", { vec = vec, threads = c[1], nbuf = c[2], wmax = c[3], cl = c[4],
                         min_cols = c[5], max_cols = c[6], rank = c[5] and 402 or nil,
                         max_align = c[5] and 8 or nil })
    end
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
  -- the raw vectors of x, res and w: 3 per n or unroll step
  neighbours = function(dt, p)
    if p.kind == "stage" then return stage_neighbours(p) end
    if p.kind == "pers" then -- (buffers: as many as shared memory holds)
      local out = {}
      for _, q in ipairs(steps(p, { threads = { 256, 512, 1024 }, nbuf = { 2, 3, 4 },
                                     unroll = { 1, 2 } })) do
        q.min_cols, q.max_cols, q.rank, q.smem, q.persist, q.max_align = nil, nil, nil, nil, nil, nil
        if smem_blocks((2 * q.nbuf + 1) * 16 * (q.wmax + 2)) >= 1 then out[#out + 1] = q end
      end
      return out
    end
    local out = {}
    for _, q in ipairs(norm_neighbours(p, 3)) do
      if q.rw then q.min_cols, q.max_cols, q.min_rows = nil, nil, nil end -- (a ranked `_rs`'s own)
      if not q.rw or q.lanes == 32 then out[#out + 1] = q end -- (`_rw` / `_rs`: whole warps)
    end
    return out
  end,
}
