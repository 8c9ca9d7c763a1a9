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
--          then a write pass that re-reads them (from L1/L2 when they fit);
--          `_warp_r<n>`: a warp a row, n rows a block (4-byte grid)
--   stage  (sm_90a) a CTA's slice of both halves staged in shared memory by
--          bulk copies, one DRAM read; over a cluster past one CTA's slice.
--          `_pairs`: its write pass on y's 4-byte grid (16-bit types)
-- Block and loop shapes also come over a cluster of CTAs (`_c<n>`, sm_90a),
-- and as loops whose write pass runs on a 4-byte grid (`_pairs_p`).
-- `vec` is elements per 16-byte access; vec=1 is the fallback for any
-- alignment.  Ranking: the smallest register variant that holds the row,
-- then the looped ones.  Where two shapes hold the same row (`alt`), the
-- lower alt is the default and the others are there for the tuner.
-- Each 16-byte shape comes twice: for rows of whole vectors (cols a
-- multiple of vec, 16-byte alignment: no partial-vector code), and as a
-- peeling copy (`_p`, ranked just below it) for rows at any residue mod 16
-- bytes: odd cols, odd strides, views that start mid-row.

family { name = "rmsnorm_swiglu", signature = "p,l,p,p,l,i,i,f" }

local KERNELS = [[
// Vectors stay packed from load to use (kp_raw_io in kp_device.cuh).  A
// whole-rows variant only runs with cols a multiple of VEC (the alignment
// of the second half, above; it declares cols_mult), so a row is whole
// vectors: loads and stores are guarded per vector, with no code for a
// partial one (code size is first-use compile time).
// PEEL (per-row peeling, kp_device.cuh): rows at any residue mod 16 bytes.
// The output columns before y's row's first 16-byte boundary go one per
// thread; from there the vectors (a partial last one included) run on y's
// grid, and each of the four inputs -- gate, up and their weights, at
// columns c and cols + c -- loads aligned or shifted by its own residue,
// decided once per row.
// Plain loads and stores throughout, though x and y are touched once: with
// the streaming forms (ld.global.nc without L1 allocation, st.global.cs)
// these kernels measured 4-10% slower on 8K outputs and 15-35% slower on
// 512-1K outputs on H200 (bf16).

// y for one output from gate a, up b and their weights ga, gb.
// silu(A) B with A = a ga rs, B = b gb rs is (a ga)(b gb) / (i + i 2^(c a ga))
// with the row's constants c = -rs log2(e) and i = 1 / rs^2 (ptxas hoists
// them out of the loops): four multiplies, an FMA, ex2 and rcp, where
// kp_silu's form took seven multiplies, an add and the two.  A << 0: the
// exponential and the denominator go to inf, the reciprocal to 0, y to 0.
__device__ __forceinline__ float rmsnorm_swiglu_f(float a, float b, float ga, float gb, float rs) {
  const float c = -rs * KP_LOG2E, i = __fdividef(1.f, rs * rs);
  const float p = a * ga, q = b * gb;
  float e, r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(p * c));
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(fmaf(e, i, i)));
  return p * q * r;
}

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
  for (int i = 0; i < VEC; i++) y[i] = rmsnorm_swiglu_f(av[i], bv[i], gav[i], gbv[i], rs);
}

// y for a pair of 16-bit outputs from the words of gate a, up b and their
// weights ga, gb (the 4-byte grid's write passes), packed.
template <class T>
__device__ __forceinline__ kp_u32 rmsnorm_swiglu_word(kp_u32 a, kp_u32 b, kp_u32 ga, kp_u32 gb,
                                                      float rs) {
  float a0, a1, b0, b1, g0, g1, h0, h1;
  kp_pair<T>::unpack(a, a0, a1);
  kp_pair<T>::unpack(b, b0, b1);
  kp_pair<T>::unpack(ga, g0, g1);
  kp_pair<T>::unpack(gb, h0, h1);
  return kp_pair<T>::pack(rmsnorm_swiglu_f(a0, b0, g0, h0, rs),
                          rmsnorm_swiglu_f(a1, b1, g1, h1, rs));
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
// CL > 1 (PEEL): the row over a cluster of CL CTAs, each holding the output
// columns kp_cluster_slice gives it (rank 0 also the head), the sums of
// squares combined through distributed shared memory (kp_cluster_gather).
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, bool W_EARLY, bool PEEL = false,
          int CL = 1>
__device__ __forceinline__ void rmsnorm_swiglu_regs(const T *__restrict__ x, long long ldx,
                                                    const T *__restrict__ w, T *__restrict__ y,
                                                    long long ldy, int rows, int cols,
                                                    float eps) {
  typedef kp_raw_io<T, VEC> io;
  __shared__ float scratch[32];
  const int sub = ROWS_PER_BLOCK == 1 ? 0 : threadIdx.x / LANES;
  const int lane = ROWS_PER_BLOCK == 1 ? threadIdx.x : threadIdx.x % LANES;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0;
  long long row = (long long)(blockIdx.x / CL) * ROWS_PER_BLOCK + sub;
  // Groups narrower than a warp cannot leave early (the reduction's shuffles
  // need every lane of the warp): past the last row they touch nothing.
  int ncols = cols;
  if (row >= rows) {
    if (LANES >= 32) return; // whole warps (or the whole block) leave together
    row = rows - 1;
    ncols = 0;
  }
  const T *xa = x + row * ldx, *xb = xa + cols; // (2*cols): gate, then up
  const T *wa = w, *wb = w + cols;
  T *yr = y + row * ldy;
  // (PEEL) lane i < h holds gate and up of head column i
  const int h0 = PEEL ? kp_head(yr, ncols) : 0;
  const int h = crank == 0 ? h0 : 0;
  const float ha = PEEL && lane < h ? kp_load1(xa + lane) : 0.f;
  const float hb = PEEL && lane < h ? kp_load1(xb + lane) : 0.f;
  ncols -= h0, xa += h0, xb += h0, wa += h0, wb += h0, yr += h0;
  if constexpr (CL > 1) {
    long long len;
    const long long c = kp_cluster_slice<CL, VEC>(ncols, crank, &len);
    xa += c, xb += c, wa += c, wb += c, yr += c, ncols = (int)len;
  }
  const bool ala = !PEEL || kp_al16(xa), alb = !PEEL || kp_al16(xb);
  const bool alwa = !PEEL || kp_al16(wa), alwb = !PEEL || kp_al16(wb);
  constexpr int S = LANES * VEC;
  const int c0 = lane * VEC;
  const kp_part p = kp_part_of<T, VEC, S, NV>(c0, ncols);
  typename io::raw av[NV], bv[NV], gav[NV], gbv[NV];
  kp_group_load<T, VEC, S, NV>(xa, c0, ncols, p, 0u, av, ala);
  kp_group_load<T, VEC, S, NV>(xb, c0, ncols, p, 0u, bv, alb);
  if constexpr (W_EARLY) {
    kp_group_load<T, VEC, S, NV>(wa, c0, ncols, p, 0u, gav, alwa);
    kp_group_load<T, VEC, S, NV>(wb, c0, ncols, p, 0u, gbv, alwb);
  }
  float s = fmaf(hb, hb, ha * ha);
#pragma unroll
  for (int n = 0; n < NV; n++) {
    float a[VEC], b[VEC];
    io::unpack(av[n], a);
    io::unpack(bv[n], b);
#pragma unroll
    for (int i = 0; i < VEC; i++) s = fmaf(b[i], b[i], fmaf(a[i], a[i], s));
    kp_keep<T>(av[n]), kp_keep<T>(bv[n]); // (x packed across the reduction: kp_keep)
  }
  s = LANES <= 32 ? kp_lanes_sum<LANES>(s) : kp_block_sum<LANES>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL>(s); // the other slices' sums
  const float rs = rsqrtf(s / (2.f * (float)cols) + eps);
  typename io::raw keep = av[0];
#pragma unroll
  for (int n = 0; n < NV; n++) {
    const int c = c0 + n * S;
    if constexpr (!W_EARLY) {
      gav[n] = io::load(wa, c, ncols, alwa);
      gbv[n] = io::load(wb, c, ncols, alwb);
    }
    float v[VEC];
    rmsnorm_swiglu_out<T, VEC>(av[n], bv[n], gav[n], gbv[n], rs, v);
    kp_vec_store<T, VEC>(yr, c, ncols, n == p.k, io::pack(v), keep);
  }
  kp_part_store<T, VEC>(yr, p, keep);
  if (PEEL && lane < h)
    kp_store1(yr - h + lane,
              rmsnorm_swiglu_f(ha, hb, kp_load1(wa - h + lane), kp_load1(wb - h + lane), rs));
}

// A 4-byte-grid write pass's row of n outputs at yr (n >= 1), thread tid's
// view: hy, y's head column before its first 4-byte boundary (0 or 1); np,
// the pairs from there whose words stay inside every input (BOTH: elements
// 2p .. 2p + 3 of an input at the grid; else 2p - 1 .. 2p + 2 of one off
// it); c1, the column thread tid takes one element at a time (the last 1-3
// columns, all of them under 4, then y's head column on the thread after
// them: one scalar path, not two in turn), or -1.
struct rmsnorm_swiglu_span {
  int hy, np, c1;
};
template <bool BOTH>
__device__ __forceinline__ rmsnorm_swiglu_span rmsnorm_swiglu_span_of(const void *yr, int n,
                                                                     int tid) {
  const int hy = ((unsigned long long)yr & 2) ? 1 : 0;
  const int m = n - hy;
  const int np = BOTH ? (m >= 4 ? (m - 2) / 2 : 0) : (m >= 1 ? (m - 1) / 2 : 0);
  const int nt = m - 2 * np;
  return {hy, np, tid < nt ? hy + 2 * np + tid : (hy && tid == nt ? 0 : -1)};
}
// An input's pair words from q on: the byte-permute selector (0x5432 where
// q is two bytes off the 4-byte grid, else 0x3210) and thread tid's first
// word, both opaque (ptxas otherwise recomputed the residue and the address
// for every pair: a select and a 64-bit multiply-add a load).
__device__ __forceinline__ kp_u32 rmsnorm_swiglu_sel(const void *q) {
  return kp_opaque_u32(((unsigned long long)q & 2) ? 0x5432u : 0x3210u);
}
__device__ __forceinline__ const kp_u32 *rmsnorm_swiglu_base(const void *q, int tid) {
  return kp_opaque(reinterpret_cast<const kp_u32 *>((unsigned long long)q & ~3ull) + tid);
}

// One step of a 4-byte-grid write pass (rmsnorm_swiglu_pairs): U pairs a
// thread, THREADS apart, from the words at a, b (gate, up) and ga, gb
// (their weights), each through its byte-permute selector (0x3210: the word
// at the grid; 0x5432: the middle of two, an input two bytes off), into yk.
// BOTH: both words load either way (a load predicated on the selector
// takes a move, its register's zero, as well: two issue slots for one);
// else the second only where the selector takes it.  All loads first, then
// the math and the stores.
// GUARD: pair u only where u * THREADS < left (the row's last step).
template <class T, int THREADS, int U, bool BOTH, bool GUARD>
__device__ __forceinline__ void rmsnorm_swiglu_pstep(const kp_u32 *a, const kp_u32 *b,
                                                     const kp_u32 *ga, const kp_u32 *gb,
                                                     kp_u32 sa, kp_u32 sb, kp_u32 sga,
                                                     kp_u32 sgb, kp_u32 *yk, int left, float rs) {
  auto word = [](const kp_u32 *q, kp_u32 s, bool in) -> kp_u32 {
    return in ? __byte_perm(q[0], BOTH || s != 0x3210u ? q[1] : 0u, s) : 0u;
  };
  kp_u32 v[U][4];
#pragma unroll
  for (int u = 0; u < U; u++) {
    const bool in = !GUARD || u * THREADS < left;
    const int o = u * THREADS;
    v[u][0] = word(a + o, sa, in), v[u][1] = word(b + o, sb, in);
    v[u][2] = word(ga + o, sga, in), v[u][3] = word(gb + o, sgb, in);
  }
#pragma unroll
  for (int u = 0; u < U; u++)
    if (!GUARD || u * THREADS < left)
      yk[u * THREADS] = rmsnorm_swiglu_word<T>(v[u][0], v[u][1], v[u][2], v[u][3], rs);
}

// Pass 2 of a peeling loop on a 4-byte grid (16-bit types; the loop's
// WORDS): thread tid (of THREADS on the row) takes the column pairs tid,
// tid + THREADS, ... of y's row from its first 4-byte boundary, U pairs a
// step, loads first.  An input at that grid's residue loads each pair as
// one word; one two bytes off (odd lengths put one half of x, and of w,
// there on every row) loads the two words around it and takes the middle
// (one byte permute).  As the staged write pass (rmsnorm_swiglu_stage_pairs):
// whole steps unguarded, one guarded step at the row's end, pointers
// stepped with the pairs and the selectors opaque (ptxas otherwise
// recomputed each input's address and residue for every pair: a select
// and a 64-bit multiply-add a load).  The last pairs, whose second word
// could reach past an input's last element, and a head column before y's
// boundary, go one element at a time: nothing outside the tensors is read.
// BOTH (rmsnorm_swiglu_pstep): a warp a row's form, where it took no more
// registers; the block loops' took 48-51 instead of 32 (fewer blocks an SM).
template <class T, int THREADS, int U, bool BOTH = false>
__device__ __forceinline__ void rmsnorm_swiglu_pairs(const T *__restrict__ xr,
                                                     const T *__restrict__ w, T *__restrict__ yr,
                                                     int n, float rs, int tid) {
  static_assert(sizeof(T) == 2, "a pair of 16-bit elements a word");
  const rmsnorm_swiglu_span sp = rmsnorm_swiglu_span_of<BOTH>(yr, n, tid);
  const int hy = sp.hy, np = sp.np, c = sp.c1;
  if (c >= 0)
    kp_store1(yr + c, rmsnorm_swiglu_f(kp_load1(xr + c), kp_load1(xr + n + c), kp_load1(w + c),
                                       kp_load1(w + n + c), rs));
  const T *ia = xr + hy, *ib = xr + n + hy, *iga = w + hy, *igb = w + n + hy;
  const kp_u32 sa = rmsnorm_swiglu_sel(ia), sb = rmsnorm_swiglu_sel(ib);
  const kp_u32 sga = rmsnorm_swiglu_sel(iga), sgb = rmsnorm_swiglu_sel(igb);
  const kp_u32 *a = rmsnorm_swiglu_base(ia, tid), *b = rmsnorm_swiglu_base(ib, tid);
  const kp_u32 *ga = rmsnorm_swiglu_base(iga, tid), *gb = rmsnorm_swiglu_base(igb, tid);
  kp_u32 *yk = kp_opaque(reinterpret_cast<kp_u32 *>(yr + hy) + tid);
  // (whole steps while every thread's are whole -- q, the row's first pair
  // of the step, is the same on all of them -- so no warp runs both a whole
  // and the guarded step; the guarded one then holds each thread's rest)
  int p = tid, q = 0;
#pragma unroll 1
  for (; q + U * THREADS <= np; p += U * THREADS, q += U * THREADS, a += U * THREADS,
                                b += U * THREADS, ga += U * THREADS, gb += U * THREADS,
                                yk += U * THREADS)
    rmsnorm_swiglu_pstep<T, THREADS, U, BOTH, false>(a, b, ga, gb, sa, sb, sga, sgb, yk, 0, rs);
  if (p < np)
    rmsnorm_swiglu_pstep<T, THREADS, U, BOTH, true>(a, b, ga, gb, sa, sb, sga, sgb, yk, np - p, rs);
}

// Thread tid's share (of THREADS on the row) of the sum of squares of the
// len elements at p, on p's own 16-byte grid: (PEEL) its head elements one
// per thread, its partial vector ahead of the loop, whole vectors U a step.
template <class T, int VEC, int THREADS, int U, bool PEEL>
__device__ __forceinline__ float rmsnorm_swiglu_sumsq(const T *__restrict__ p, long long len,
                                                      int tid) {
  typedef kp_raw_io<T, VEC> io;
  const long long step = (long long)THREADS * VEC;
  const long long c0 = (long long)tid * VEC;
  const int h = PEEL ? kp_head(p, len) : 0;
  const float e = PEEL && tid < h ? kp_load1(p + tid) : 0.f;
  float s = e * e;
  p += h, len -= h;
  if constexpr (PEEL) {
    const kp_part t = kp_part_of<T, VEC, THREADS * VEC, KP_ALL>(c0, len);
    if (t.k >= 0) {
      float v[VEC];
      io::unpack(kp_part_load<T, VEC>(p, t, 0u), v);
#pragma unroll
      for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
    }
  }
#pragma unroll 1
  for (long long c = c0; c < len; c += U * step) {
    typename io::raw r[U];
#pragma unroll
    for (int u = 0; u < U; u++) r[u] = io::load_whole(p, c + u * step, len);
#pragma unroll
    for (int u = 0; u < U; u++) {
      float v[VEC];
      io::unpack(r[u], v);
#pragma unroll
      for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
    }
  }
  return s;
}

// A warp's sum of squares of the len elements at p (16-bit, VEC 8): the
// elements before p's first 16-byte boundary and after its last whole
// vector one a lane (at most 7 + 7), the whole vectors U a step: whole
// steps unguarded, then one guarded step.  32-bit indices (len < 2^31).
// IM: each element also into the image at im (shared memory, 16-byte
// aligned: its byte i holds the byte at p's 16-byte boundary below p plus
// i), for a pass 2 that reads the row from there.
template <class T, int VEC, int U, bool IM = false>
__device__ __forceinline__ float rmsnorm_swiglu_wsumsq(const T *__restrict__ p, int len,
                                                       int lane, unsigned char *im = nullptr) {
  static_assert(sizeof(T) == 2 && VEC == 8, "16-bit elements, 16-byte vectors");
  typedef kp_raw_io<T, VEC> io;
  const int h = kp_head(p, len);
  const int nv = (len - h) / VEC, t = h + nv * VEC; // the whole vectors; the tail from t
  const int c = lane < h ? lane : (lane - h < len - t ? t + lane - h : -1);
  const int r0 = (int)((unsigned long long)p & 15); // (r0 + 2 h: 0 or 16)
  float s = 0.f;
  if (c >= 0) {
    const T e = p[c];
    const float f = kp_to_f32(e);
    s = f * f;
    if constexpr (IM) *reinterpret_cast<T *>(im + r0 + 2 * c) = e;
  }
  auto add = [&](uint4 r) {
    float v[VEC];
    io::unpack(r, v);
#pragma unroll
    for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
  };
  const uint4 *q = kp_opaque(reinterpret_cast<const uint4 *>(p + h) + lane);
  uint4 *qi = IM ? reinterpret_cast<uint4 *>(im + r0 + 2 * h) + lane : nullptr;
  int k = 0; // (the step's first vector, the same on every lane)
#pragma unroll 1
  for (; k + U * 32 <= nv; k += U * 32, q += U * 32, qi += IM ? U * 32 : 0) {
    uint4 r[U];
#pragma unroll
    for (int u = 0; u < U; u++) r[u] = q[u * 32];
#pragma unroll
    for (int u = 0; u < U; u++) {
      add(r[u]);
      if constexpr (IM) qi[u * 32] = r[u];
    }
  }
  if (k + lane < nv) {
    uint4 r[U];
#pragma unroll
    for (int u = 0; u < U; u++)
      r[u] = k + lane + u * 32 < nv ? q[u * 32] : make_uint4(0u, 0u, 0u, 0u);
#pragma unroll
    for (int u = 0; u < U; u++) {
      add(r[u]);
      if (IM && k + lane + u * 32 < nv) qi[u * 32] = r[u];
    }
  }
  return s;
}

// Pass 1 of a warp's row into its image by the bulk-copy engine (BLK), in
// two steps.  rmsnorm_swiglu_bissue: lane 0 copies the row's whole 16-byte
// vectors (kp_head's split, as rmsnorm_swiglu_wsumsq) into the image at im
// in one cp.async.bulk that completes on bar (this warp's), the lanes load
// the head and tail elements (one each at most) into *e (column *c, -1 for
// none).  rmsnorm_swiglu_bsum: the lanes store those into the image, all
// wait for the copy (phase ph) and sum the vectors from shared memory.  x
// reaches the image without passing through registers or L1 (item 66: the
// L1 pipe at 85% of its throughput under the register image).  Between the
// two the lanes' loads of those elements are in flight with the copy.
template <class T, int VEC>
__device__ __forceinline__ void rmsnorm_swiglu_bissue(const T *__restrict__ p, int len, int lane,
                                                      unsigned char *im,
                                                      unsigned long long *bar, int *c, T *e) {
  static_assert(sizeof(T) == 2 && VEC == 8, "16-bit elements, 16-byte vectors");
  const int h = kp_head(p, len);
  const int nv = (len - h) / VEC, t = h + nv * VEC; // the whole vectors; the tail from t
  *c = lane < h ? lane : (lane - h < len - t ? t + lane - h : -1);
  const int r0 = (int)((unsigned long long)p & 15); // (r0 + 2 h: 0 or 16)
  if (lane == 0 && nv > 0) {
    // (the image's reads by the last row's pass 2, generic, before the
    // copy's writes, async: the row's sync below them, then this fence)
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    kp_mbar_expect_tx(bar, 16u * (kp_u32)nv);
    kp_bulk_load(im + r0 + 2 * h, p + h, 16u * (kp_u32)nv, bar);
  }
  if (*c >= 0) *e = p[*c];
}

// Returns the lane's sum of squares of the row issued to im; *ph flips
// where a copy was waited for.  L: the lanes on the row (a warp's 32, or
// the warps' of rmsnorm_swiglu_warps' WPR; lane counts from 0 to L - 1).
template <class T, int VEC, int U, int L = 32>
__device__ __forceinline__ float rmsnorm_swiglu_bsum(const T *__restrict__ p, int len, int lane,
                                                     unsigned char *im, unsigned long long *bar,
                                                     int *ph, int c, T e) {
  typedef kp_raw_io<T, VEC> io;
  // (the split again, as rmsnorm_swiglu_bissue has it: the split in one
  // struct that bissue returns moved the SASS of every `_blk` variant, and
  // wsumsq's too, unmeasured -- thirty-third session's review)
  const int h = kp_head(p, len);
  const int nv = (len - h) / VEC;
  const int r0 = (int)((unsigned long long)p & 15);
  const uint4 *qi = reinterpret_cast<const uint4 *>(im + r0 + 2 * h);
  float s = 0.f;
  if (c >= 0) {
    const float f = kp_to_f32(e);
    s = f * f;
    *reinterpret_cast<T *>(im + r0 + 2 * c) = e;
  }
  if (nv > 0) { // (warp-uniform: the row's residue)
    kp_mbar_wait(bar, *ph);
    *ph ^= 1;
  }
  auto add = [&](uint4 r) {
    float v[VEC];
    io::unpack(r, v);
#pragma unroll
    for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
  };
  int k = 0; // (the step's first vector, the same on every lane)
#pragma unroll 1
  for (; k + U * L <= nv; k += U * L) {
    uint4 r[U];
#pragma unroll
    for (int u = 0; u < U; u++) r[u] = qi[k + lane + u * L];
#pragma unroll
    for (int u = 0; u < U; u++) add(r[u]);
  }
#pragma unroll
  for (int u = 0; u < U; u++)
    if (k + lane + u * L < nv) add(qi[k + lane + u * L]);
  return s;
}

// A column's staged weights (gate's, up's): a float pair, or (W16) the two
// 16-bit weights as one word, half the shared memory a column.
template <class T> __device__ __forceinline__ float2 rmsnorm_swiglu_gw(float2 g) { return g; }
template <class T> __device__ __forceinline__ float2 rmsnorm_swiglu_gw(kp_u32 g) {
  float2 f;
  kp_pair<T>::unpack(g, f.x, f.y);
  return f;
}
template <class G, class T>
__device__ __forceinline__ G rmsnorm_swiglu_gmake(const T *w, int n, int c) {
  const float a = kp_load1(w + c), b = kp_load1(w + n + c);
  if constexpr (sizeof(G) == 8) return make_float2(a, b);
  else return kp_pair<T>::pack(a, b); // (exact: 16-bit values)
}

// One step of the staged-weights write pass (rmsnorm_swiglu_gpairs): U
// pairs a lane, 32 apart, from the words at a, b (gate, up: SA / SB 0 the
// pair is the word; 1 the middle of it and the next, an input two bytes off
// the grid; 2 either, by the selector sa / sb) and the weights at g (a
// column's gate and up weight: a float pair or one word, rmsnorm_swiglu_gw),
// into yk.  All loads first.
// GUARD: pair u only where u * L < left (the row's last step).  L: the
// lanes on the row (rmsnorm_swiglu_bsum), the pairs' stride.
template <class T, int U, int SA, int SB, bool GUARD, class G, int L = 32>
__device__ __forceinline__ void rmsnorm_swiglu_gstep(const kp_u32 *a, const kp_u32 *b, kp_u32 sa,
                                                     kp_u32 sb, const G *g, kp_u32 *yk,
                                                     int left, float rs) {
  auto word = [](const kp_u32 *q, int how, kp_u32 s) -> kp_u32 {
    return how == 0 ? q[0] : __byte_perm(q[0], q[1], how == 1 ? 0x5432u : s);
  };
  kp_u32 va[U], vb[U];
  G g0[U], g1[U];
#pragma unroll
  for (int u = 0; u < U; u++) {
    const int o = u * L;
    if (!GUARD || o < left) {
      va[u] = word(a + o, SA, sa), vb[u] = word(b + o, SB, sb);
      g0[u] = g[2 * o], g1[u] = g[2 * o + 1];
    }
  }
#pragma unroll
  for (int u = 0; u < U; u++)
    if (!GUARD || u * L < left) {
      float a0, a1, b0, b1;
      kp_pair<T>::unpack(va[u], a0, a1);
      kp_pair<T>::unpack(vb[u], b0, b1);
      const float2 w0 = rmsnorm_swiglu_gw<T>(g0[u]), w1 = rmsnorm_swiglu_gw<T>(g1[u]);
      yk[u * L] = kp_pair<T>::pack(rmsnorm_swiglu_f(a0, b0, w0.x, w0.y, rs),
                                   rmsnorm_swiglu_f(a1, b1, w1.x, w1.y, rs));
    }
}

// The pairs of rmsnorm_swiglu_gpairs, one form of the inputs' residues.
template <class T, int U, int SA, int SB, class G, int L = 32>
__device__ __forceinline__ void rmsnorm_swiglu_gloop(const kp_u32 *a, const kp_u32 *b, kp_u32 sa,
                                                     kp_u32 sb, const G *g, kp_u32 *yk,
                                                     int np, float rs, int lane) {
  int p = lane, q = 0; // (q: the step's first pair, the same on every lane)
#pragma unroll 1
  for (; q + U * L <= np;
       p += U * L, q += U * L, a += U * L, b += U * L, g += 2 * U * L, yk += U * L)
    rmsnorm_swiglu_gstep<T, U, SA, SB, false, G, L>(a, b, sa, sb, g, yk, 0, rs);
  if (p < np) rmsnorm_swiglu_gstep<T, U, SA, SB, true, G, L>(a, b, sa, sb, g, yk, np - p, rs);
}

// Pass 2 of a warp's row on y's 4-byte grid, the weights from g (shared
// memory: gate's and up's weight of column c at g[c], a G as
// rmsnorm_swiglu_gw reads it): lane l takes the column pairs l, l + 32, ...
// from y's first 4-byte boundary, U a step.  With the weights staged, a
// pair loads two or three words of x (an input two bytes off the grid takes
// the middle of two, one byte permute) and its two columns' weights from
// shared memory (16 or 8 bytes), where rmsnorm_swiglu_pairs loads
// eight words and takes four permutes and four conversions.  An odd length
// puts exactly one of gate and up off the grid on each row; that row's form
// (which one) is a branch the whole warp takes, so a pair loads three
// words, not four.  The last 1-3 columns and y's head column go one element
// at a time, so nothing outside the tensors is read.
// IM: the pairs' words of x from xs, the row's image in shared memory (at
// xr's residue mod 16), not from xr.  L: the lanes on the row (lane l of
// L takes the pairs l, l + L, ...).
template <class T, int U, bool IM = false, class G = float2, int L = 32>
__device__ __forceinline__ void rmsnorm_swiglu_gpairs(const T *__restrict__ xr, const T *xs,
                                                      const G *g, T *__restrict__ yr, int n,
                                                      float rs, int lane) {
  static_assert(sizeof(T) == 2, "a pair of 16-bit elements a word");
  const rmsnorm_swiglu_span sp = rmsnorm_swiglu_span_of<true>(yr, n, lane);
  const int hy = sp.hy, np = sp.np, c = sp.c1;
  if (c >= 0) {
    const float2 wc = rmsnorm_swiglu_gw<T>(g[c]);
    kp_store1(yr + c, rmsnorm_swiglu_f(kp_load1(xr + c), kp_load1(xr + n + c), wc.x, wc.y, rs));
  }
  typedef const kp_u32 *cw;
  const T *ia = (IM ? xs : xr) + hy, *ib = (IM ? xs : xr) + n + hy;
  // (the selectors from oa / ob, which pick the loop below too, not through
  // rmsnorm_swiglu_sel: that moved the SASS of every `_warps_` variant)
  const bool oa = ((unsigned long long)ia & 2) != 0, ob = ((unsigned long long)ib & 2) != 0;
  const kp_u32 sa = kp_opaque_u32(oa ? 0x5432u : 0x3210u);
  const kp_u32 sb = kp_opaque_u32(ob ? 0x5432u : 0x3210u);
  // (the image's words by their shared addresses: LDS, not generic loads)
  auto word0 = [&](const T *q) {
    return IM ? reinterpret_cast<cw>(reinterpret_cast<const char *>(q) -
                                     ((unsigned long long)q & 3)) + lane
              : rmsnorm_swiglu_base(q, lane);
  };
  const kp_u32 *a = word0(ia), *b = word0(ib);
  kp_u32 *yk = kp_opaque(reinterpret_cast<kp_u32 *>(yr + hy) + lane);
  g += hy + 2 * lane;
  if (!oa && ob)
    rmsnorm_swiglu_gloop<T, U, 0, 1, G, L>(a, b, sa, sb, g, yk, np, rs, lane);
  else if (oa && !ob)
    rmsnorm_swiglu_gloop<T, U, 1, 0, G, L>(a, b, sa, sb, g, yk, np, rs, lane);
  else
    rmsnorm_swiglu_gloop<T, U, 2, 2, G, L>(a, b, sa, sb, g, yk, np, rs, lane);
}

// A warp a row, 16-bit rows off the 16-byte grid, with the weights staged:
// a persistent grid (the variant's `persistent` blocks an SM, no more than
// fit at once) of ROWS warps a block, warp i of the grid taking rows i, i +
// the grid's warps, ..., after its block has converted w once into shared
// memory (kp_dyn: gate's and up's weight of each column as a G, below, up
// to the variant's max_cols).  Pass 1 rmsnorm_swiglu_
// wsumsq, pass 2 rmsnorm_swiglu_gpairs.  (With a block of a few rows each
// in turn, not persistent, its waves were long: 4096 blocks of 8 rows, 3.45
// waves, ran 16% behind the warp rows of rmsnorm_swiglu_loop at 131072 x
// 1001.)
// IMG > 0: each warp's row also held in shared memory as read (an image of
// IMG bytes a warp, after the weights' GB), so that pass 2 reads x from
// there, not again through L1 and L2 (NOTES 65: their re-reads of x were
// the limit, not issue; NOTES 66: 1-14% faster at 513-3072 outputs).
// G: the staged weights' type, a float pair a column or (kp_u32) the two
// 16-bit weights as one word, half the shared memory (more warps an SM).
// BLK: the image filled by a bulk copy a row (rmsnorm_swiglu_bissue, then
// rmsnorm_swiglu_bsum).  (Two images a warp, the next row's copy issued
// before this row's sum, ran 4-25% behind: fewer warps fit an SM; NOTES 67.)
// WPR > 1 (BLK): WPR warps a row, ROWS rows a block, each row's warps
// taking every WPR-th vector and pair of it (L = 32 WPR lanes), their sums
// meeting in shared memory at the row's named barrier (1 + its slot), which
// also orders the image's reads before the next row's copy: more warps an
// SM where a row's image leaves room for few.
template <class T, int VEC, int U, int ROWS, int IMG = 0, int GB = 0, class G = float2,
          bool BLK = false, int WPR = 1>
__device__ __forceinline__ void rmsnorm_swiglu_warps(const T *__restrict__ x, long long ldx,
                                                     const T *__restrict__ w, T *__restrict__ y,
                                                     long long ldy, int rows, int cols,
                                                     float eps) {
  static_assert(!BLK || IMG > 0, "a bulk copy fills an image");
  static_assert(WPR == 1 || (BLK && ROWS <= 15), "warps a row: bulk copies, a barrier a row");
  constexpr int L = 32 * WPR; // the lanes on a row
  extern __shared__ __align__(16) unsigned char kp_dyn[];
  __shared__ unsigned long long bars[BLK ? ROWS : 1]; // (BLK: a row's copy)
  __shared__ float red[WPR > 1 ? ROWS * WPR : 1];     // (WPR > 1: a row's warps' sums)
  G *g = reinterpret_cast<G *>(kp_dyn);
  // (lane: on the row, 0 to L - 1; wid: the row's slot in the block)
  const int n = cols, lane = (int)threadIdx.x % L, wid = (int)threadIdx.x / L;
  int ph = 0; // (BLK: the phase of the row's barrier)
  if (BLK && lane == 0) {
    kp_mbar_init(&bars[wid], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
#pragma unroll 4
  for (int c = (int)threadIdx.x; c < n; c += L * ROWS)
    g[c] = rmsnorm_swiglu_gmake<G>(w, n, c);
  __syncthreads();
  // (the row's warps in step: its barrier, WPR > 1; a warp's own, else)
  auto row_sync = [&]() {
    if constexpr (WPR > 1) asm volatile("bar.sync %0, %1;" ::"r"(1 + wid), "n"(L) : "memory");
    else __syncwarp();
  };
  const float inv = 1.f / (float)(2 * n);
  const int nw = (int)gridDim.x * ROWS; // (rows < 2^31)
  unsigned char *im = IMG ? kp_dyn + GB + wid * IMG : nullptr;
#pragma unroll 1
  for (int row = (int)blockIdx.x * ROWS + wid; row < rows; row += nw) {
    const T *xr = x + row * ldx;
    float s;
    if constexpr (BLK) {
      int c;
      T e;
      rmsnorm_swiglu_bissue<T, VEC>(xr, 2 * n, lane, im, &bars[wid], &c, &e);
      s = kp_warp_sum(
          rmsnorm_swiglu_bsum<T, VEC, U, L>(xr, 2 * n, lane, im, &bars[wid], &ph, c, e));
    } else {
      s = kp_warp_sum(rmsnorm_swiglu_wsumsq<T, VEC, U, (IMG > 0)>(xr, 2 * n, lane, im));
    }
    if constexpr (WPR > 1) { // the row's sum: its warps' in slot order, the same on every lane
      if (lane % 32 == 0) red[wid * WPR + lane / 32] = s;
      row_sync(); // (also: every lane's head and tail elements in the image)
      s = 0.f;
#pragma unroll
      for (int k = 0; k < WPR; k++) s += red[wid * WPR + k];
    }
    const float rs = rsqrtf(s * inv + eps);
    if constexpr (WPR == 1 && IMG > 0) row_sync(); // the image written
    const T *xs = IMG ? reinterpret_cast<const T *>(im + ((unsigned long long)xr & 15)) : xr;
    rmsnorm_swiglu_gpairs<T, U, (IMG > 0), G, L>(xr, xs, g, y + row * ldy, n, rs, lane);
    if constexpr (IMG > 0) row_sync(); // the image read (and red), before the next row's
  }
}

// Any length.  Each step of a pass handles U vectors per thread, loads all
// issued before any use, so U * THREADS * VEC elements are in flight per
// block; the steps take whole vectors only (past the row end: read as 0,
// not stored), so the last step needs no loop of its own.  Pass 1 walks
// the input row as one row of 2*cols; pass 2 walks output columns and
// reads column c of both halves of x and w: U/2 of each per step.
// PEEL: pass 1 on x's own 16-byte grid (its head elements one per thread,
// its partial vector ahead of the loop); pass 2 on y's, as
// rmsnorm_swiglu_regs (thread i < h: head column i).
// CL > 1 (PEEL, not WORDS): the row over a cluster of CL CTAs, each taking
// the output columns kp_cluster_slice gives it of those past y's head (rank
// 0 also the head): pass 1 sums its columns of both halves (two segments,
// each on its own grid), the sums combine through distributed shared memory
// (kp_cluster_sum), pass 2 writes its columns.  Few rows in flight, so that
// pass 2 finds its inputs in L2 on rows of 100K+ outputs.
// ROWS > 1 (THREADS == 32): a warp a row, ROWS rows a block; the sum is the
// warp's, with no barrier, and the block's rows are all in flight at once.
template <class T, int VEC, int THREADS, int U, bool PEEL = false, bool WORDS = false, int CL = 1,
          int ROWS = 1>
__device__ __forceinline__ void rmsnorm_swiglu_loop(const T *__restrict__ x, long long ldx,
                                                    const T *__restrict__ w, T *__restrict__ y,
                                                    long long ldy, int rows, int cols,
                                                    float eps) {
  static_assert(CL == 1 || (PEEL && !WORDS), "a cluster loop peels, on the 16-byte grid");
  static_assert(ROWS == 1 || (THREADS == 32 && CL == 1), "rows a block: a warp a row");
  typedef kp_raw_io<T, VEC> io;
  __shared__ float scratch[32];
  const long long row =
      ROWS > 1 ? (long long)blockIdx.x * ROWS + threadIdx.x / 32 : (long long)(blockIdx.x / CL);
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0;
  if (row >= rows) return;
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  const long long n = cols;
  const long long n2 = 2 * n; // up to 2^32 - 2 inputs: 64-bit indices
  const long long step = (long long)THREADS * VEC;
  const int tid = ROWS > 1 ? (int)threadIdx.x % 32 : (int)threadIdx.x;
  const long long c0 = (long long)tid * VEC;
  const int h = PEEL ? kp_head(yr, n) : 0; // y's head columns (rank 0's)
  long long off = 0, m = n - h;            // this CTA's columns past the head
  if constexpr (CL > 1) {
    long long len;
    off = kp_cluster_slice<CL, VEC>(n - h, crank, &len);
    m = len;
  }
  float s;
  if constexpr (CL > 1) {
    const long long lo = crank == 0 ? 0 : h + off, cnt = h + off + m - lo;
    s = rmsnorm_swiglu_sumsq<T, VEC, THREADS, U, PEEL>(xr + lo, cnt, tid) +
        rmsnorm_swiglu_sumsq<T, VEC, THREADS, U, PEEL>(xr + n + lo, cnt, tid);
  } else {
    s = rmsnorm_swiglu_sumsq<T, VEC, THREADS, U, PEEL>(xr, n2, tid); // one row of 2*cols
  }
  s = kp_block_sum<THREADS>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)n2 + eps);
  if constexpr (WORDS) {
    rmsnorm_swiglu_pairs<T, THREADS, U, (ROWS > 1)>(xr, w, yr, (int)n, rs, tid);
  } else {
    if (PEEL && crank == 0 && tid < h)
      kp_store1(yr + tid, rmsnorm_swiglu_f(kp_load1(xr + tid), kp_load1(xr + n + tid),
                                           kp_load1(w + tid), kp_load1(w + n + tid), rs));
    const T *xa = xr + h + off, *xb = xr + n + h + off, *wa = w + h + off, *wb = w + n + h + off;
    yr += h + off;
    const bool ala = !PEEL || kp_al16(xa), alb = !PEEL || kp_al16(xb);
    const bool alwa = !PEEL || kp_al16(wa), alwb = !PEEL || kp_al16(wb);
    if constexpr (PEEL) {
      const kp_part t = kp_part_of<T, VEC, THREADS * VEC, KP_ALL>(c0, m);
      if (t.k >= 0) {
        float v[VEC];
        rmsnorm_swiglu_out<T, VEC>(kp_part_load<T, VEC>(xa, t, 0u, ala),
                                   kp_part_load<T, VEC>(xb, t, 0u, alb),
                                   kp_part_load<T, VEC>(wa, t, 0u, alwa),
                                   kp_part_load<T, VEC>(wb, t, 0u, alwb), rs, v);
        kp_part_store<T, VEC>(yr, t, io::pack(v));
      }
    }
    constexpr int U2 = U / 2 > 0 ? U / 2 : 1;
#pragma unroll 1
    for (long long c = c0; c < m; c += U2 * step) {
      typename io::raw a[U2], b[U2], ga[U2], gb[U2];
#pragma unroll
      for (int u = 0; u < U2; u++) {
        a[u] = io::load_whole(xa, c + u * step, m, ala);
        b[u] = io::load_whole(xb, c + u * step, m, alb);
        ga[u] = io::load_whole(wa, c + u * step, m, alwa);
        gb[u] = io::load_whole(wb, c + u * step, m, alwb);
      }
#pragma unroll
      for (int u = 0; u < U2; u++) {
        float v[VEC];
        rmsnorm_swiglu_out<T, VEC>(a[u], b[u], ga[u], gb[u], rs, v);
        kp_store_whole<T, VEC>(yr, c + u * step, m, v);
      }
    }
  }
}

// The write pass of a staged slice on y's 4-byte grid (PAIRS; 16-bit
// types): y's nv whole vectors from yr (16-byte aligned) as 4 nv column
// pairs, thread i taking pairs i, i + THREADS, ..., U a step, w's loads
// first.  Lanes take neighbouring pairs, so every load and store of a warp
// is one contiguous 128-byte run and the images' 4-byte loads meet no bank
// conflict (a 16-byte vector at another residue took two 16-byte loads and
// a dozen selects, kp_shift16).  An input two bytes off the grid (the
// image's word ia / ib holds the slice's first element in its upper half:
// sa / sb; w's halves likewise) loads the two words around a pair and
// takes the middle, one byte permute; at the grid, one word.  The last
// pair goes element by element (w's second word may lie past w's end).
// PIPE: the whole steps in half steps of U / 2 pairs, w's raw words for the
// next half step loaded before this one's math (two sets of registers, 64
// a thread at 512 threads; w's words are the write pass's largest cost,
// bench/NOTES.md 82); only where two CTAs an SM is all shared memory allows
// anyway (the registers would cost a third).  Both words of each pair load
// whatever the selector (in bounds: a whole step's pairs end before the
// last one): with the second predicated on it, NVRTC's build took 30
// instructions more a step (selects and masks) and ran 1.6% behind the
// plain loop, where this form runs 0.6-4% ahead of it.
template <class T, int VEC, int THREADS, int U, bool PIPE = false>
__device__ __forceinline__ void rmsnorm_swiglu_stage_pairs(const char *ia, const char *ib, bool sa,
                                                           bool sb, const T *wa, const T *wb,
                                                           T *yr, int nv, float rs) {
  static_assert(sizeof(T) == 2, "a pair of 16-bit elements a word");
  const int t = threadIdx.x, np = nv * (VEC / 2) - 1; // (the last pair below)
  if (np >= 0 && t == THREADS - 1) { // the last pair: columns 2 np, 2 np + 1
    const int c = 2 * np;
    const T *ea = reinterpret_cast<const T *>(ia + (sa ? 2 : 0)) + c;
    const T *eb = reinterpret_cast<const T *>(ib + (sb ? 2 : 0)) + c;
#pragma unroll
    for (int i = 0; i < 2; i++)
      kp_store1(yr + c + i, rmsnorm_swiglu_f(kp_load1(ea + i), kp_load1(eb + i),
                                             kp_load1(wa + c + i), kp_load1(wb + c + i), rs));
  }
  // The byte-permute selectors, opaque: ptxas otherwise recomputed the
  // weight's residue from the row's head and slice for every pair (~20
  // uniform instructions each).  A selector of 0x3210 takes the first word
  // whole (the second is not loaded).
  const kp_u32 pa = kp_opaque_u32(sa ? 0x5432u : 0x3210u);
  const kp_u32 pb = kp_opaque_u32(sb ? 0x5432u : 0x3210u);
  const kp_u32 qa = rmsnorm_swiglu_sel(wa), qb = rmsnorm_swiglu_sel(wb);
  const kp_u32 *xa = reinterpret_cast<const kp_u32 *>(ia) + t;
  const kp_u32 *xb = reinterpret_cast<const kp_u32 *>(ib) + t;
  // (w's words and y's by pointers stepped with the pairs)
  const kp_u32 *wak = rmsnorm_swiglu_base(wa, t), *wbk = rmsnorm_swiglu_base(wb, t);
  kp_u32 *yk = kp_opaque(reinterpret_cast<kp_u32 *>(yr) + t);
  auto word = [](const kp_u32 *p, kp_u32 s) {
    return __byte_perm(p[0], s != 0x3210u ? p[1] : 0u, s);
  };
  auto out = [&](kp_u32 a, kp_u32 b, kp_u32 ga, kp_u32 gb) {
    return rmsnorm_swiglu_word<T>(a, b, ga, gb, rs);
  };
  int p = t;
  if constexpr (PIPE) {
    constexpr int UP = U / 2, S = UP * THREADS;
    struct wset { kp_u32 a0[UP], a1[UP], b0[UP], b1[UP]; }; // w's raw words, a half step
    auto wload = [&](wset &v, const kp_u32 *qa_, const kp_u32 *qb_) {
#pragma unroll
      for (int u = 0; u < UP; u++) {
        v.a0[u] = qa_[u * THREADS], v.a1[u] = qa_[u * THREADS + 1]; // (both words: above)
        v.b0[u] = qb_[u * THREADS], v.b1[u] = qb_[u * THREADS + 1];
      }
    };
    auto wstep = [&](const wset &v) { // (a half step from v, then every pointer on)
#pragma unroll
      for (int u = 0; u < UP; u++)
        yk[u * THREADS] = out(word(xa + u * THREADS, pa), word(xb + u * THREADS, pb),
                              __byte_perm(v.a0[u], v.a1[u], qa), __byte_perm(v.b0[u], v.b1[u], qb));
      p += S, xa += S, xb += S, wak += S, wbk += S, yk += S;
    };
    wset w0, w1;
    if (p + (UP - 1) * THREADS < np) wload(w0, wak, wbk);
#pragma unroll 1
    while (p + (UP - 1) * THREADS < np) { // (two half steps a turn: no register moves)
      const bool n1 = p + S + (UP - 1) * THREADS < np;
      if (n1) wload(w1, wak + S, wbk + S);
      wstep(w0);
      if (!n1) break;
      const bool n2 = p + S + (UP - 1) * THREADS < np;
      if (n2) wload(w0, wak + S, wbk + S);
      wstep(w1);
      if (!n2) break;
    }
  } else {
#pragma unroll 1
    for (; p + (U - 1) * THREADS < np; p += U * THREADS, xa += U * THREADS, xb += U * THREADS,
                                       wak += U * THREADS, wbk += U * THREADS, yk += U * THREADS) {
      kp_u32 ga[U], gb[U]; // whole steps: no guards
#pragma unroll
      for (int u = 0; u < U; u++)
        ga[u] = word(wak + u * THREADS, qa), gb[u] = word(wbk + u * THREADS, qb);
#pragma unroll
      for (int u = 0; u < U; u++)
        yk[u * THREADS] = out(word(xa + u * THREADS, pa), word(xb + u * THREADS, pb), ga[u], gb[u]);
    }
  }
  // The part step left (under U pairs a thread).  At 256 threads or fewer, as one
  // step: w's loads first, every one in bounds (a pair past the thread's last
  // repeats its last one, np - 1: unstored), so they issue together -- a pair a
  // turn waited out an L2 round trip each (11% of the kernel's samples); at 512,
  // whose threads have a pair or two left, the repeated loads cost more than
  // that (bench/NOTES.md 105; loads guarded by the pair's index lost everywhere).
  if constexpr (THREADS <= 256) {
    if (p >= np) return;
    kp_u32 ga[U], gb[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int d = min(u * THREADS, np - 1 - p);
      ga[u] = word(wak + d, qa), gb[u] = word(wbk + d, qb);
    }
#pragma unroll
    for (int u = 0; u < U; u++)
      if (p + u * THREADS < np)
        yk[u * THREADS] = out(word(xa + u * THREADS, pa), word(xb + u * THREADS, pb), ga[u], gb[u]);
    return;
  }
#pragma unroll 1
  for (; p < np; p += THREADS, xa += THREADS, xb += THREADS, wak += THREADS, wbk += THREADS,
                 yk += THREADS)
    *yk = out(word(xa, pa), word(xb, pb), word(wak, qa), word(wbk, qb));
}

// Long rows, one DRAM read: each CTA's slices of the gate and up halves
// (CL > 1: the outputs over a cluster of CL CTAs, as rmsnorm_swiglu_loop's)
// staged in shared memory by bulk copies (kp_stage_issue: two images, two
// sets of barriers), the sum of squares over both piece by piece as the
// pieces arrive, the write pass from shared memory again (softmax_stage's
// shape; w's halves from global memory, L2 hits).  y's grid, as the
// peeling loop's: its head columns (rank 0's) one per thread, the images
// at their own offsets (shifted reads), the partial vector from global
// memory.  SMEM: the bytes of whole vectors of one half a CTA holds (the
// variant's max_cols, in outputs).
template <class T, int VEC, int THREADS, int CL, int U, int SMEM, bool PAIRS = false,
          bool PIPE = false>
__device__ __forceinline__ void rmsnorm_swiglu_stage(const T *__restrict__ x, long long ldx,
                                                     const T *__restrict__ w, T *__restrict__ y,
                                                     long long ldy, int rows, int cols,
                                                     float eps) {
  static_assert(VEC * sizeof(T) == 16, "16-byte vectors");
  constexpr int PV = THREADS * U, NB = (SMEM / 16 + PV - 1) / PV, IMG = SMEM + 16;
  typedef kp_raw_io<T, VEC> io;
  extern __shared__ __align__(16) char kp_img[]; // the gate slice's image, then up's
  __shared__ unsigned long long bar[2 * NB];
  __shared__ float scratch[32];
  const long long row = blockIdx.x / CL;
  const int crank = CL > 1 ? (int)(blockIdx.x % CL) : 0, t = threadIdx.x;
  if (row >= rows) return;
  const long long n = cols;
  const T *xr = x + row * ldx;
  T *yr = y + row * ldy;
  const int hh = kp_head(yr, n), h = crank == 0 ? hh : 0; // y's head columns, rank 0
  long long off = hh, m = n - hh; // this CTA's first column and count past the head
  if constexpr (CL > 1) {
    long long len;
    off += kp_cluster_slice<CL, VEC>(n - hh, crank, &len);
    m = len;
  }
  const T *xa = xr + off, *xb = xr + n + off, *wa = w + off, *wb = w + n + off;
  yr += off;
  const int nv = (int)(m / VEC), np = (nv + PV - 1) / PV;
  const int ob = kp_stage_issue<T, VEC, PV, NB, THREADS, 1, false>(xb, nv, kp_img + IMG, bar + NB);
  const int oa = kp_stage_issue<T, VEC, PV, NB, THREADS, THREADS >= 96 ? 2 : 1>(xa, nv, kp_img, bar);
  if constexpr (CL > 1) kp_cluster_begin(); // (its wait at the exchange, after pass 1)
  const bool ala = oa == 0, alb = ob == 0, alwa = kp_al16(wa), alwb = kp_al16(wb);
  float ha = 0.f, hb = 0.f; // (rank 0) the head column's gate and up
  if (t < h) ha = kp_load1(xa - h + t), hb = kp_load1(xb - h + t);
  float s = ha * ha + hb * hb;
  auto sumsq = [&](uint4 r) {
    float v[VEC];
    io::unpack(r, v);
#pragma unroll
    for (int i = 0; i < VEC; i++) s = fmaf(v[i], v[i], s);
  };
  const kp_part tail = {m % VEC && t == nv % THREADS ? 0 : -1, m};
  const uint4 pa = kp_part_load<T, VEC>(xa, tail, 0u, ala), pb = kp_part_load<T, VEC>(xb, tail, 0u, alb);
  if (tail.k >= 0) sumsq(pa), sumsq(pb);
  // (the images' edge chunks by the last two threads: the fewest pass-1 vectors)
  if (t >= THREADS - 2 && nv > 0 && (t == THREADS - 1 ? !ala : !alb)) {
    float v[2 * VEC];
    if (t == THREADS - 1) kp_stage_edges<T, VEC>(kp_img, oa, nv, v);
    else kp_stage_edges<T, VEC>(kp_img + IMG, ob, nv, v);
#pragma unroll
    for (int i = 0; i < 2 * VEC; i++) s = fmaf(v[i], v[i], s);
  }
  const uint4 *ia = reinterpret_cast<const uint4 *>(kp_img);
  const uint4 *ib = reinterpret_cast<const uint4 *>(kp_img + IMG);
#pragma unroll 1
  for (int q = 0; q < np; q++) {
    kp_mbar_wait(&bar[q], 0);
    kp_mbar_wait(&bar[NB + q], 0);
#pragma unroll
    for (int u = 0; u < U; u++) { // raw chunks: kp_stage_chunk
      const int k = q * PV + u * THREADS + t;
      const int ja = kp_stage_chunk(k, oa), jb = kp_stage_chunk(k, ob);
      if (ja < nv) sumsq(ia[ja]);
      if (jb < nv) sumsq(ib[jb]);
    }
  }
  s = kp_block_sum<THREADS>(s, scratch);
  if constexpr (CL > 1) s = kp_cluster_sum<CL, true>(s); // the other slices' sums
  const float rs = rsqrtf(s / (float)(2 * n) + eps);
  if (t < h) kp_store1(yr - h + t, rmsnorm_swiglu_f(ha, hb, kp_load1(wa - h + t), kp_load1(wb - h + t), rs));
  if (tail.k >= 0) {
    float v[VEC];
    rmsnorm_swiglu_out<T, VEC>(pa, pb, kp_part_load<T, VEC>(wa, tail, 0u, alwa),
                               kp_part_load<T, VEC>(wb, tail, 0u, alwb), rs, v);
    kp_part_store<T, VEC>(yr, tail, io::pack(v));
  }
  if constexpr (PAIRS) {
    rmsnorm_swiglu_stage_pairs<T, VEC, THREADS, 4 * U, PIPE>(
        kp_img + (oa & ~3), kp_img + IMG + (ob & ~3), (oa & 2) != 0, (ob & 2) != 0, wa, wb, yr, nv,
        rs);
    return;
  }
  // (this thread's w and y vectors by pointers stepped PV vectors a step)
  const T *wak = kp_opaque(wa + (long long)t * VEC), *wbk = kp_opaque(wb + (long long)t * VEC);
  T *yk = kp_opaque(yr + (long long)t * VEC);
#pragma unroll 1
  for (int k0 = t; k0 < nv; k0 += PV, wak += PV * VEC, wbk += PV * VEC, yk += PV * VEC) {
    uint4 ga[U], gb[U];
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k = k0 + u * THREADS;
      ga[u] = kp_stage_w(wak + u * THREADS * VEC, k, nv, alwa);
      gb[u] = kp_stage_w(wbk + u * THREADS * VEC, k, nv, alwb);
    }
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k = k0 + u * THREADS;
      if (k < nv) {
        float v[VEC];
        rmsnorm_swiglu_out<T, VEC>(kp_stage_vec(kp_img, oa, k, ala),
                                   kp_stage_vec(kp_img + IMG, ob, k, alb), ga[u], gb[u], rs, v);
        *reinterpret_cast<uint4 *>(yk + u * THREADS * VEC) = io::pack(v);
      }
    }
  }
}

// Long whole rows, persistent (`_pers`; sm_90a, 16-bit rows of whole
// vectors at 16-byte row starts): a cluster of CL CTAs takes rows c, c + G,
// ... (c its index, G the clusters that fit: one CTA an SM; kp_pers_*,
// kp_device.cuh, has the rows' pipeline and sums), each CTA one slice of
// both halves (kp_cluster_slice).  w's slices stay in shared memory for the
// whole grid (read once a CTA, not once a row: w through L2 was the staged
// kernels' largest write-pass cost, bench/NOTES.md 82).  SMAX: the elements
// of a slice (max_cols CL SMAX).
template <class T, int THREADS, int CL, int NBUF, int SMAX, int WU>
__device__ __forceinline__ void rmsnorm_swiglu_pers(const T *__restrict__ x, long long ldx,
                                                    const T *__restrict__ w, T *__restrict__ y,
                                                    long long ldy, int rows, int cols, float eps) {
  static_assert(sizeof(T) == 2 && CL > 1 && NBUF >= 2 && SMAX % 8 == 0, "16-bit slices");
  constexpr int VEC = 8, IMG = 2 * SMAX; // (bytes of one half's slice)
  typedef kp_raw_io<T, VEC> io;
  extern __shared__ __align__(16) char kp_img[]; // w's gate and up slices, then NBUF of x's
  __shared__ unsigned long long full[NBUF], wbar, xbar[2];
  __shared__ float slot[2][CL], scratch[2][32];
  const int t = threadIdx.x, rank = (int)kp_cluster_rank();
  const long long c0 = blockIdx.x / CL, G = gridDim.x / CL, n = cols;
  long long len;
  const long long off = kp_cluster_slice<CL, VEC>(n, rank, &len);
  const int nv = (int)(len / VEC);
  const kp_u32 bytes = (kp_u32)len * 2u;
  auto buf = [&](int b) { return kp_img + 2 * IMG + b * 2 * IMG; };
  auto issue = [&](int b, long long r) { // (thread 0) row r's slices into buffer b
    kp_mbar_expect_tx(&full[b], 2 * bytes);
    if (bytes) {
      kp_bulk_load(buf(b), x + r * ldx + off, bytes, &full[b]);
      kp_bulk_load(buf(b) + IMG, x + r * ldx + n + off, bytes, &full[b]);
    }
  };
  if (t == 0) {
    kp_pers_init<NBUF>(full, &wbar, xbar);
    kp_mbar_expect_tx(&wbar, 2 * bytes);
    if (bytes) {
      kp_bulk_load(kp_img, w + off, bytes, &wbar);
      kp_bulk_load(kp_img + IMG, w + n + off, bytes, &wbar);
    }
    for (int b = 0; b < NBUF && c0 + b * G < rows; b++) issue(b, c0 + b * G);
    kp_mbar_expect_tx(&xbar[0], CL * 4u), kp_mbar_expect_tx(&xbar[1], CL * 4u);
  }
  kp_cluster_meet(); // (every CTA's barriers initialised before any st.async reaches them)
  auto sum_send = [&](int i) { // row i's sum of squares, to every CTA of the cluster
    const int b = i % NBUF;
    kp_mbar_wait(&full[b], (i / NBUF) & 1);
    const uint4 *pa = reinterpret_cast<const uint4 *>(buf(b));
    const uint4 *pb = reinterpret_cast<const uint4 *>(buf(b) + IMG);
    float s = 0.f;
    for (int k = t; k < nv; k += THREADS) {
      float u[VEC], v[VEC];
      io::unpack(pa[k], u), io::unpack(pb[k], v);
#pragma unroll
      for (int j = 0; j < VEC; j++) s = fmaf(u[j], u[j], fmaf(v[j], v[j], s));
    }
    kp_pers_send<THREADS, CL>(s, i, rank, scratch, slot, xbar);
  };
  if (c0 < rows) sum_send(0);
  kp_mbar_wait(&wbar, 0);
  const uint4 *wa = reinterpret_cast<const uint4 *>(kp_img);
  const uint4 *wb = reinterpret_cast<const uint4 *>(kp_img + IMG);
  int i = 0;
#pragma unroll 1
  for (long long r = c0; r < rows; r += G, i++) {
    const float rs = rsqrtf(kp_pers_sum<CL>(i, slot, xbar) / (float)(2 * n) + eps);
    if (r + G < rows) sum_send(i + 1);
    const int b = i % NBUF;
    const uint4 *pa = reinterpret_cast<const uint4 *>(buf(b));
    const uint4 *pb = reinterpret_cast<const uint4 *>(buf(b) + IMG);
    uint4 *yr = reinterpret_cast<uint4 *>(y + r * ldy + off);
    // (WU: unrolled twice, 32 registers, or a vector a step, 40: a step led
    // where a thread takes 4 vectors, 2-4%, and lost at 3, 1-2.5%;
    // fifty-third session, call 1, bench/NOTES.md 88)
#pragma unroll(WU)
    for (int k = t; k < nv; k += THREADS) {
      float v[VEC];
      rmsnorm_swiglu_out<T, VEC>(pa[k], pb[k], wa[k], wb[k], rs, v);
      yr[k] = io::pack(v);
    }
    kp_pers_next<CL, NBUF>(i, b, r, G, rows, xbar, issue);
  }
  kp_cluster_meet(); // (none leaves while a CTA of its cluster may still read or send to it)
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
-- gate, up and both halves of w (4 per n, 4 registers each) fit in 32 registers, and not at
-- 1024 threads (64-register cap): beyond that ptxas spills or trades
-- occupancy, and loading w after the reduction is the better deal.  A
-- peeling copy (shifted loads, the head column) gets 16: at 32 its n2
-- shapes took 72-79 registers on sm_90a (bf16), one block per SM fewer,
-- against 56-59 this way.
local function w_early(threads, nv, peel)
  return (threads < 1024 and 16 * nv <= (peel and 16 or 32)) and "true" or "false"
end

-- A `warps` variant's shared memory: the weights (p.w16: 16-bit pairs, 4
-- bytes a column, not 8), then (p.img) an image of each warp's row, 2 *
-- max_cols elements and a 16-byte vector either side.  Returns the total,
-- the weights' bytes and an image's.
local function warps_smem(p)
  local img, gb = p.img and 4 * p.max_cols + 32 or 0, (p.w16 and 4 or 8) * p.max_cols
  return gb + p.rows * img, gb, img
end

-- A `pers` variant's shared memory: w's two slices and nbuf buffers of x's
-- two, kb KiB each
local function pers_smem(p) return (1 + p.nbuf) * 2 * p.kb * 1024 end

local function emit(dt, kind, p)
  local T = ctype(dt)
  local vec = p.vec
  local name, call, max_cols, block, rpb, rank, pipe
  if kind == "warp" then
    local shape = p.lanes == 32 and "warp" or string.format("lanes%d", p.lanes)
    name = string.format("rmsnorm_swiglu_%s_%s_v%d_n%d", dt, shape, vec, p.nv)
    block, rpb = 128, 128 // p.lanes
    call = string.format("rmsnorm_swiglu_regs<%s, %d, %d, %d, %d, %s>", T, vec, p.nv, p.lanes, rpb,
                         w_early(128, p.nv, p.peel))
    max_cols = p.lanes * vec * p.nv
    rank = 300 - max_cols // 64
  elseif kind == "block" then
    name = string.format("rmsnorm_swiglu_%s_block_t%d_v%d_n%d", dt, p.threads, vec, p.nv)
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_swiglu_regs<%s, %d, %d, %d, 1, %s>", T, vec, p.nv, p.threads,
                         w_early(p.threads, p.nv, p.peel))
    max_cols = p.threads * vec * p.nv
    rank = 200 - max_cols // 512 - p.alt
    if p.cl then -- the row over a cluster of cl CTAs (sm_90a): for the tuner unless ranked
      name = name .. "_c" .. p.cl
      max_cols = max_cols * p.cl
      rank = p.rank or 60 - p.cl
    end
  elseif kind == "warps" then -- a warp a row, the weights staged (16-bit, off the 16-byte grid)
    name = string.format("rmsnorm_swiglu_%s_warps_r%d_p%d_u%d_%s%s%s%s", dt, p.rows, p.persist,
                         p.unroll, p.max_cols % 1024 == 0 and (p.max_cols // 1024) .. "k"
                         or tostring(p.max_cols), p.img and "_img" or "", p.w16 and "_w16" or "",
                         p.blk and "_blk" or "") .. (p.wpr and "_k" .. p.wpr or "")
    block, rpb = 32 * p.rows * (p.wpr or 1), p.rows
    local smem, gb, img = warps_smem(p)
    -- (p.blk: the image filled by a bulk copy a row, rmsnorm_swiglu_bissue)
    -- (p.wpr: warps a row, `_k<wpr>`)
    assert(not p.blk or p.img, "a bulk copy fills an image")
    assert(not p.wpr or (p.blk and p.rows <= 15), "warps a row: bulk copies, a barrier a row")
    call = string.format("rmsnorm_swiglu_warps<%s, %d, %d, %d, %d, %d%s>", T, vec, p.unroll,
                         p.rows, img, gb, (p.w16 and ", kp_u32" or (p.blk and ", float2" or ""))
                         .. (p.blk and ", true" or "") .. (p.wpr and ", " .. p.wpr or ""))
    p.smem = smem
    rank = p.rank or 50
  elseif kind == "pers" then -- persistent clusters, w's slices staged once (rmsnorm_swiglu_pers)
    assert(esize(dt) == 2 and vec == 8 and p.cl and p.cl > 1, "16-bit rows over a cluster")
    p.unroll = p.unroll or 2 -- (the write loop's; `_u1`: a vector a step)
    name = string.format("rmsnorm_swiglu_%s_pers_t%d_b%d_s%d_c%d%s", dt, p.threads, p.nbuf, p.kb,
                         p.cl, p.unroll ~= 2 and "_u" .. p.unroll or "")
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_swiglu_pers<%s, %d, %d, %d, %d, %d>", T, p.threads, p.cl,
                         p.nbuf, p.kb * 512, p.unroll)
    max_cols = p.cl * p.kb * 512 -- (p.kb KiB a half's slice)
    p.smem, p.persist = pers_smem(p), 1
    assert(smem_blocks(p.smem) >= 1, "a CTA's shared memory fits an SM")
    rank = p.rank or 40
  else
    name = string.format("rmsnorm_swiglu_%s_loop_t%d_v%d", dt, p.threads, vec)
    block, rpb = p.threads, 1
    call = string.format("rmsnorm_swiglu_loop<%s, %d, %d, %d>", T, vec, p.threads, p.unroll)
    max_cols = nil
    rank = vec > 1 and 100 or 0
    if p.rows then -- a warp a row, p.rows rows a block (p.threads == 32)
      assert(p.threads == 32 and p.pairs, "rows a block: a warp a row, on the 4-byte grid")
      name = string.format("rmsnorm_swiglu_%s_loop_warp_r%d_v%d_u%d", dt, p.rows, vec, p.unroll)
      block, rpb = 32 * p.rows, p.rows
    end
    if p.pairs then -- pass 2 on a 4-byte grid (rmsnorm_swiglu_pairs), rows off the grid
      if not p.rows and p.unroll ~= 4 then name = name .. "_u" .. p.unroll end
      name = name .. "_pairs"
      rank = p.rank or (p.rows and 50) or 99 - p.threads // 128
    end
    if p.cl then -- the loop over a cluster (sm_90a; PEEL): for the tuner unless ranked
      name = string.format("%s_u%d_c%d", name, p.unroll, p.cl)
      rank = p.rank or 80 - p.cl
    end
  end
  local st = kind == "stage" and stage_fields("rmsnorm_swiglu", dt, p, T, vec, 2) or nil
  if st then -- (sm_90a: bulk copies; any residue; for the tuner unless ranked)
    name, call, max_cols, rank, block, rpb = st.name, st.call, st.max_cols, st.rank, p.threads, 1
    if p.pairs then -- the write pass on y's 4-byte grid (rmsnorm_swiglu_stage_pairs)
      assert(esize(dt) == 2, "a pairs write pass takes 16-bit rows")
      -- `_wp`: PIPE (rmsnorm_swiglu_stage_pairs), where shared memory leaves
      -- two CTAs an SM at most; the launch bounds hold it to two CTAs'
      -- registers (64 at 512 threads: NVRTC took 70); p.wp "over" ranks it
      -- just above its twin, else just below (for the tuner)
      pipe = p.wp ~= nil
      assert(not pipe or smem_blocks(st.smem) <= 2, "PIPE's 64 registers cost a CTA an SM")
      name, call = name .. "_pairs", call:gsub(">$", pipe and ", true, true>" or ", true>")
      if pipe then name, rank = name .. "_wp", rank + (p.wp == "over" and 1 or -1) end
    end
  end
  p.kind = kind
  -- the peeling copy (any alignment of the element size), ranked just below
  -- the whole-rows one, which declares its rows whole (cols_mult)
  local peel = p.peel and vec > 1
  if peel then
    name = name .. "_p"
    call = call:gsub(">$", ", true>")
  end
  local max_align = st and st.max_align
  if p.pairs and not st then
    assert(peel and esize(dt) == 2, "a pairs loop peels 16-bit rows")
    call = call:gsub(">$", p.rows and (", true, 1, " .. p.rows .. ">") or ", true>")
    max_align = 8
  end
  if p.cl and kind ~= "stage" and kind ~= "pers" then
    assert(peel, "a cluster variant peels")
    call = call:gsub(">$", (kind == "loop" and ", false, " or ", ") .. p.cl .. ">")
  end
  if st then peel = true end -- (any residue: its call above)
  if kind == "warps" then peel, max_align = true, 8 end -- (any residue; ranked for rows off the grid)
  -- (sm_120's ptxas holds 512-thread blocks to 64 registers: the bf16
  -- peeling copy of 512 x 2, a shape for the tuner, spilled there, and 512
  -- x 3's whole-rows form 12 bytes: 512 x 3 and 512 x 4 are left out too)
  local targets = (peel or (p.nv or 0) >= 3) and block == 512 and kind == "block"
                  and { "sm_80", "sm_86", "sm_89", "sm_90a", "compute_80" } or nil
  if p.cl or st or kind == "warps" then targets = { "sm_90a" } end
  variant {
    name = name, dtype = dt, params = p, targets = targets,
    block = block, rows_per_block = rpb, smem = st and st.smem or p.smem,
    cluster = p.cl, split = p.cl,
    min_sm = (p.cl or st or kind == "warps") and 90 or nil,
    max_sm = (p.cl or st or kind == "warps") and 90 or nil, persistent = p.persist,
    max_cols = p.max_cols or max_cols, min_cols = p.min_cols,
    align = peel and esize(dt) or vec * esize(dt), max_align = max_align,
    cols_mult = vec > 1 and not peel and vec or nil,
    rank = 2 * rank + (vec > 1 and not peel and 1 or 0),
    source = KERNELS .. subst(ENTRY, { bounds = pipe and block .. ", 2" or block, name = name, T = T,
                                      call = call }),
  }
end

-- p, and where p.vec > 1 its peeling copy
local function peels(p)
  if p.vec > 1 then return { p, with(p, { peel = true }) } end
  return { p }
end

for _, dt in ipairs(DTYPES) do
  local vec = 16 // esize(dt)
  -- { lanes, nv }: rows of up to 128/256 (16-bit) elements take half a warp
  for _, c in ipairs({ { 16, 1 }, { 16, 2 }, { 32, 2 } }) do
    for _, p in ipairs(peels({ vec = vec, lanes = c[1], nv = c[2] })) do emit(dt, "warp", p) end
  end
  -- { threads, nv, alt }: 256x4 and 512x2 hold the same row; 256x4 is the
  -- default (kp tune 2026-11-22, bf16, 32768 rows of 8192: 9% faster on
  -- H200, 1% slower on H100).  512 x 3 and 512 x 4 (rows of 8193-12288 and
  -- 12289-16384 outputs, where the two-pass loop ran before; fiftieth
  -- session, calls 1-2, kp tune, H200, bf16, one run, us): whole rows 8192
  -- x 10240 124.0 (the loop: 156.7), 11008 128.8 (161.7), 12288 139.7, 8192
  -- x 13824 159.4 (180.7), 4096 x 16384 96.2 (105.9).  Odd rows keep the
  -- image warps on sm_90a (8192 x 11007: `_k8` 149.5, 512 x 3's peeling
  -- copy behind it).  1024 x 2 ran 1.27x behind 512 x 4, and 1024 x 3 past
  -- 16384 level with the loop or behind it (4096 x 18944 143.7 against
  -- 129.0, 24576 157.1 against 160.6): not kept.
  for _, c in ipairs({ { 128, 1, 0 }, { 128, 2, 0 }, { 256, 2, 0 }, { 256, 4, 0 },
                       { 512, 2, 1 }, { 512, 3, 0 }, { 512, 4, 0 } }) do
    if c[2] <= 2 or esize(dt) == 2 then -- (512 x 3 / 4: 16-bit, where measured)
      for _, p in ipairs(peels({ vec = vec, threads = c[1], nv = c[2], alt = c[3] })) do
        emit(dt, "block", p)
      end
    end
  end
  -- Long rows over a cluster of CTAs (sm_90a, kp_cluster_gather), for the
  -- tuner: on an H100 (bf16, odd lengths, 2026-11-25) they lost to the
  -- one-CTA loop everywhere (4096 x 32001: 520 us against 400; bench/NOTES.md
  -- 35).  256 x 4 over 16 CTAs is ranked for 16-bit rows of 114689..131072
  -- (its slices at least 7/8 full; odd rows take a stage variant, below):
  -- aligned 1024 x 128256 337.2 / 338.0 us against 396.4 for the loop of
  -- 256 x 4 over 8 (2026-11-27, sixteenth session, calls 3-4; odd 128257:
  -- 461.0 against 420.9 staged), but 1024 x 100000 306.9 against 274.3.
  -- { threads, nv, cl[, min_cols, rank (16-bit)] }
  if vec > 1 then
    for _, c in ipairs({ { 256, 2, 2 }, { 256, 2, 4 }, { 256, 2, 8 }, { 256, 2, 16 },
                         { 256, 4, 16, 114689, 105 }, { 512, 4, 16 } }) do
      local r = esize(dt) == 2 and c[4] ~= nil
      emit(dt, "block", { vec = vec, threads = c[1], nv = c[2], cl = c[3], alt = 0, peel = true,
                          min_cols = r and c[4] or nil, rank = r and c[5] or nil })
    end
  end
  for _, p in ipairs(peels({ vec = vec, threads = 512, unroll = 4 })) do emit(dt, "loop", p) end
  -- 16-bit rows off the 16-byte grid (calls aligned to 8 bytes or less:
  -- max_align): pass 2 on a 4-byte grid, ranked over every other variant
  -- for 513..16384 outputs, { threads, min_cols, max_cols }.  kp tune, H100,
  -- bf16, 2026-11-26 (bench/results/2026-11-26-s14/call2): 131072 x 1001
  -- 323 us (the peeling 128 x 1: 416), 16384 x 4097 166 (256 x 4: 238),
  -- 8192 x 11007 240 (the peeling loop: 258); from 32001 up the peeling
  -- loop kept its lead (400 against 467 at 32001, 424 against 427 at 199999).
  -- 512 threads, ranked for 12289..16384 before, was for the tuner from
  -- the twenty-fifth session (call 3: 4096 x 16001 176.4 against 165.7 for
  -- the peeling loop, 4096 x 13001 145.5 against 145.8) to the thirtieth:
  -- with the write pass stepped and unguarded (rmsnorm_swiglu_pstep) it
  -- ran 8192 x 11007 in 182.2 us against the one-CTA stage twin's 212.1
  -- (H200, call 4; 198.4 / 199.2 against 210.9 / 210.8 before the change,
  -- calls 1-2) and 4096 x 16001 in 140.5 against the peeling loop's 150.8
  -- (call 1, before it), hence 8193-16384 (H100: not measured since; on
  -- sm_90a the image warps of 8 warps a row since the thirty-third).
  -- 128 threads (513-2048 before) hand their range to a warp a row (below).
  if esize(dt) == 2 then
    -- 256 threads ranked for 2049-4608 from then to the thirty-first
    -- session; for the tuner since: 128 threads take 1921-3072 (on sm_90a
    -- the image warps, below, since the thirty-second), 128 and 256 of U 8
    -- 3073-6144 (below; on sm_90a the image warps since the thirty-third).
    for _, c in ipairs({ { 128, 1921, 3072 }, { 256 }, { 512, 8193, 16384 } }) do
      emit(dt, "loop", { vec = vec, threads = c[1], unroll = 4, peel = true, pairs = true,
                         min_cols = c[2], max_cols = c[3], rank = c[2] and 400 or nil })
    end
    -- U 8: a row of up to 4K (128 threads) or 8K (256) outputs in one step
    -- of pass 1, half the threads of U 4 for the row's fixed work (its head,
    -- the sum, the write pass's setup: a third of the instructions at 16384
    -- x 4097, ncu, call 8).  With the pairs pass's whole and guarded steps
    -- uniform across a row's threads (the thirty-first session), kp tune,
    -- H200, bf16, 2026-11-29 (bench/results/2026-11-29-s31/, calls 1-4, us):
    -- 128 threads 4097 120.2-121.0 (256 x U 4, ranked before: 125.2-126.4;
    -- 128 x U 4: 128.6-129.3), 3001 189.7-192.0 (201.4-202.9; U 4
    -- 190.6-192.2), 2501 248.2-250.1 (270.4-271.8; U 4 251.1), but 2001
    -- 331.1 against U 4's 245.8-247.6: 128 x U 4 for 1921-3072, U 8 for
    -- 3073-4608.  256 threads 6001 195.5-197.6 (the one-CTA stage variant,
    -- ranked before: 203.1-204.6), 8001 141.8-142.5 (132.3-133.5): 4609-6144.
    for _, c in ipairs({ { 128, 3073, 4608 }, { 256, 4609, 6144 } }) do
      emit(dt, "loop", { vec = vec, threads = c[1], unroll = 8, peel = true, pairs = true,
                         min_cols = c[2], max_cols = c[3], rank = 400 })
    end
    -- A warp a row, 4 or 8 rows a block, on the same 4-byte grid: 40 rows
    -- in flight an SM where a block a row had 16, and no barrier between
    -- the passes.  4 rows of U 4 (48 registers) is ranked for 513-2048
    -- outputs: kp tune, H200, bf16, 2026-11-29 (thirtieth session, call 5),
    -- us: 131072 x 1001 230.4 (the loop of 128 threads, ranked before:
    -- 344.8), 98304 x 1501 255.2 (312.8), 65536 x 2001 256.7 (271.4); the
    -- best of the four within 1.3% at each.  From 3001 the block loops led
    -- (call 4: 32768 x 3001 209.2 for 256 threads against 249.7).  Before the
    -- write pass loaded both words (calls 1-4) U 8 led at 1001 (244.2-245.0,
    -- 56 registers) and U 4 at 1501.  Register caps through __launch_bounds__
    -- (at least 10 or 5 blocks an SM, 48 registers) ran 1-9% behind the same
    -- variants uncapped at 48 (calls 3-5); at 40 they spilled.
    -- { rows, unroll, min_cols, max_cols }
    -- Thirty-first session (calls 1-4, H200, us): 4 rows of U 8 at 1001
    -- 212.7-223.0 against U 4's 224.7-230.0, at 1201 279.4-279.5 against
    -- 268.1-274.4; at 1801 U 4 223.8 against 128 threads' 228.3, at 2001
    -- 260.4-261.6 against 245.8-247.6: U 8 for 513-1024, U 4 for 1025-1920.
    -- On sm_90a the image warps (below) take 513-16384 since the thirty-
    -- second and thirty-third sessions; these ranges hold on the other GPUs.
    for _, c in ipairs({ { 4, 4, 1025, 1920 }, { 4, 8, 513, 1024 }, { 8, 4 }, { 8, 8 } }) do
      emit(dt, "loop", { vec = vec, threads = 32, rows = c[1], unroll = c[2], peel = true,
                         pairs = true, min_cols = c[3], max_cols = c[4] or 16384,
                         rank = c[3] and 401 or nil })
    end
  end
  -- A warp a row with the weights staged once a block in shared memory
  -- (rmsnorm_swiglu_warps), rows of up to max_cols outputs, a persistent
  -- grid of `persist` blocks an SM (sm_90a alone: no more than fit an SM
  -- there, by registers -- 56-64 at U 4, 80 at U 8 -- and shared memory).
  -- The weights alone (floats, 8 bytes a column; thirty-first session,
  -- NOTES 65): level with the warp rows or up to 5% behind at 1001 and 1501,
  -- with 30% fewer instructions in the loops -- its weights take the L1 that
  -- pass 2's re-reads of x hit in; 4 x 6 of U 8 was ranked for 1793-2048
  -- then (65536 x 2001 242.3 / 242.5 us).  Tried and dropped there: rows of
  -- up to 4K / 8K outputs (1.15-1.8x slower than the block loops at
  -- 2501-4097), one block of 16 or 32 warps an SM (6% / 12% behind), and
  -- blocks of 8 rows in turn, not persistent (16% behind at 1001).
  -- { rows, persist, unroll, max_cols[, min_cols, rank] }
  if esize(dt) == 2 then
    for _, c in ipairs({ { 4, 8, 4, 2048 }, { 4, 6, 8, 2048 }, { 8, 4, 4, 2048 } }) do
      emit(dt, "warps", { vec = vec, rows = c[1], persist = c[2], unroll = c[3],
                          max_cols = c[4], min_cols = c[5], rank = c[6] })
    end
    -- Each warp's row also in shared memory as pass 1 reads it (`_img`, 4
    -- max_cols + 32 bytes a warp), pass 2 reading x from there: x crosses
    -- L2 once.  Thirty-second session (NOTES 66; kp tune, H200, bf16,
    -- 2026-11-29, us, against the picks before): 16 warps x 2 blocks of 1K
    -- (131072 x 1001 205.3-205.8 against the warp rows' 212.5-214.3, 769
    -- 170.7-171.6 against 178.3, 521 135.8 against 155.8); with the weights
    -- as 16-bit pairs (`_w16`, 4 bytes a column: more warps an SM in the
    -- same shared memory) 8 x 4 of 1280 (1201 246.9 against 265.9-267.8),
    -- 8 x 3 of 1536 (98304 x 1501 236.3-237.3 against 250.0-250.7), `_w16`
    -- 8 x 3 of 2K (65536 x 2001 232.1 against 240.4-242.2), `_w16` 8 x 2 of
    -- 2560 (2501 288.2 against the 128-thread pairs loop's 333.4) and of 3K
    -- (3001 346.1 against 372.1).  Over rows of 256-32768 at 1001 each pick
    -- ran at or ahead of the one before (call 3); at 1501 it trailed by 7%
    -- at 4096 rows alone.  Blocks whose shared memory nears the SM's 227 KiB
    -- ran 10-20% behind the same warps in blocks of less (1K 4 x 8, 195
    -- KiB: 242.5 against 8 x 4's 205.2), the bulk-copy twins below did not
    -- (12 x 1 of 4K, 213 KiB, leads at 3001-3501): likely the register
    -- image's loads need the L1 that shared memory takes.  3K 4 x 4 (48 registers)
    -- ran 1.5x behind 8 x 2.  (U 8 took 117 registers.)
    -- Since the thirty-third session the image warps hold 897-1024 (16 x 2
    -- of 1K) and 1025-1280 (8 x 4 of 1280 `_w16`) on sm_90a; their bulk-copy
    -- twins (below) the rest.
    -- { rows, persist, unroll, max_cols[, min_cols, rank] }
    for _, c in ipairs({ { 4, 8, 4, 1024 }, { 8, 4, 4, 1024 }, { 8, 3, 4, 1024 },
                         { 16, 2, 4, 1024, 897, 404 }, { 32, 1, 4, 1024 }, { 4, 6, 4, 1536 },
                         { 8, 3, 4, 1536 }, { 16, 2, 4, 1536 }, { 4, 4, 4, 2048 },
                         { 8, 2, 4, 2048 }, { 16, 1, 4, 2048 } }) do
      emit(dt, "warps", { vec = vec, rows = c[1], persist = c[2], unroll = c[3],
                          max_cols = c[4], min_cols = c[5], rank = c[6], img = true })
    end
    for _, c in ipairs({ { 8, 3, 4, 2048 }, { 8, 4, 4, 1536 }, { 8, 4, 4, 1024 },
                         { 16, 2, 4, 1024 }, { 8, 4, 4, 1280, 1025, 403 }, { 16, 2, 4, 1280 },
                         { 8, 2, 4, 2560 }, { 8, 2, 4, 3072 }, { 4, 4, 4, 3072 } }) do
      emit(dt, "warps", { vec = vec, rows = c[1], persist = c[2], unroll = c[3],
                          max_cols = c[4], min_cols = c[5], rank = c[6], img = true,
                          w16 = true })
    end
    -- The image filled by a bulk copy a row (`_blk`): x reaches it without
    -- registers or L1, so a block's shared memory may near 227 KiB, and the
    -- warps an SM (as many rows in flight) are what counts: rows of up to
    -- 8K outputs in `_w16` blocks.  Ranked on sm_90a (thirty-third session,
    -- NOTES 67; kp tune, H200, bf16, 2026-11-29, reps 5, us, against the
    -- picks before): 16 x 2 of 1K for 513-896 (131072 x 521 126.1 against
    -- 133.3, 769 162.5 against 169.5; at 1001 210.8 against the register
    -- image's 203.4: the split at 896 is not measured), 8 x 3 of 1536 for
    -- 1281-1536 (1501 233.2 against 236.8), `_w16` 16 x 1 of 2K for
    -- 1537-2048 (65536 x 1601 168.4, 1801 188.8, 2001 208.7 against 2K 8 x
    -- 3's 187.3, 208.4, 232.1 in the thirty-second session), 8 x 2 of 2560
    -- for 2049-2560 (2501 260.2 against 288.2-290.1), 12 x 1 of 3K for
    -- 2561-3072 (3001 311.6 against 344.9; 6 x 2 and 4K 12 x 1 level), 12 x
    -- 1 of 4K for 3073-4096 (32768 x 3501 184.4 against the 128-thread U 8
    -- loop's 218.5), 10 x 1 of 5K for 4097-5120 (4097 224.0 against 231.2,
    -- 5001 270.5 against the 256-thread loop's 323.0), 8 x 1 of 6K for
    -- 5121-6144 (16384 x 6001 167.5 against 196.9); 6 x 1 of 8K ran 8001
    -- in 245.5 against the one-CTA stage variant's 254.2 (now `_k4`'s, below).
    -- Two images a warp, the next row's copy issued before this row's sum,
    -- ran 4-25% behind at every length (fewer warps fit an SM).
    -- { rows, persist, unroll, max_cols, w16[, min_cols, rank] }
    -- (Dropped after call 2, 1-40% behind a neighbour at every length
    -- timed: 1K 4 x 8, 1536 `_w16` 8 x 3, 4K 8 x 1 and 4 x 2, 5K 8 x 1, 6K
    -- 6 x 1 and 3 x 2, 8K 4 x 1 and 3 x 1; NOTES 67.)
    for _, c in ipairs({ { 16, 2, 4, 1024, false, 513, 403 }, { 8, 4, 4, 1024 },
                         { 16, 2, 4, 1024, true }, { 8, 4, 4, 1280, true },
                         { 8, 3, 4, 1536, false, 1281, 403 }, { 8, 2, 4, 1536 },
                         { 8, 3, 4, 2048, true }, { 8, 2, 4, 2048, true },
                         { 16, 1, 4, 2048, true, 1537, 403 }, { 8, 2, 4, 2560, true, 2049, 403 },
                         { 8, 2, 4, 3072, true }, { 6, 2, 4, 3072, true },
                         { 12, 1, 4, 3072, true, 2561, 403 }, { 12, 1, 4, 4096, true, 3073, 403 },
                         { 5, 2, 4, 4096, true }, { 10, 1, 4, 5120, true, 4097, 403 },
                         { 4, 2, 4, 5120, true }, { 8, 1, 4, 6144, true, 5121, 403 },
                         { 6, 1, 4, 8192, true } }) do
      emit(dt, "warps", { vec = vec, rows = c[1], persist = c[2], unroll = c[3],
                          max_cols = c[4], img = true, w16 = c[5] or nil, blk = true,
                          min_cols = c[6], rank = c[7] })
    end
    -- Two to eight warps a row (`_k<wpr>`), the rows' images as above: more
    -- warps an SM where a row's image leaves room for few (6 of 8K alone),
    -- and rows of up to 16K outputs.  Ranked on sm_90a (thirty-third
    -- session, call 8, kp tune, H200, bf16, reps 5, us, against the pick
    -- before): 8K 6 x 1 of 4 warps (24 warps an SM) for 6145-8192 (8192 x
    -- 7001 100.8 against the 8K one-warp rows' 121.6, 16384 x 8001 219.1
    -- against 245.7), 12K 3 x 1 of 8 warps for 8193-12288 (8192 x 11007
    -- 150.0 against the 512-thread pairs loop's 174.7), 16K 2 x 1 of 8 for
    -- 12289-16384 (4096 x 16001 122.2 against 138.4).  At 16384 x 4097 8K
    -- `_k4` ran 113.9 against the 5K pick's 119.1: not ranked there (one
    -- row count, one run).
    -- { rows, persist, unroll, max_cols, wpr[, min_cols, rank] }, `_w16`
    for _, c in ipairs({ { 12, 1, 4, 4096, 2 }, { 10, 1, 4, 5120, 2 }, { 8, 1, 4, 6144, 2 },
                         { 6, 1, 4, 8192, 2 }, { 6, 1, 4, 8192, 4, 6145, 403 },
                         { 3, 1, 4, 12288, 4 }, { 3, 1, 4, 12288, 8, 8193, 403 },
                         { 2, 1, 4, 16384, 4 }, { 2, 1, 4, 16384, 8, 12289, 403 } }) do
      emit(dt, "warps", { vec = vec, rows = c[1], persist = c[2], unroll = c[3],
                          max_cols = c[4], img = true, w16 = true, blk = true, wpr = c[5],
                          min_cols = c[6], rank = c[7] })
    end
    -- Without the image, rows of up to 1K outputs: 8 KiB of weights a
    -- block (call 1: 220.0 and, U 8, 240.1 us at 1001).
    for _, c in ipairs({ { 4, 8, 4, 1024 }, { 4, 6, 8, 1024 } }) do
      emit(dt, "warps", { vec = vec, rows = c[1], persist = c[2], unroll = c[3],
                          max_cols = c[4] })
    end
  end
  -- The loop over a cluster of CTAs (sm_90a): rows of 64K+ outputs, where
  -- one CTA a row keeps too many rows in flight for pass 2 to find them in
  -- L2.  512 x 4 over 8 CTAs is ranked past 64K outputs at any alignment,
  -- the others are for the tuner: kp tune, H100, bf16, 2026-11-26
  -- (bench/results/2026-11-26-s14/call5), us, against the one-CTA loop:
  -- 1024 x 128257 467.7 (515.6), 512 x 151937 303.6 (317.0), 512 x 199999
  -- 371.3 (414.3), aligned 1024 x 128256 373.2 (449.9), 512 x 200000 300.0
  -- (362.1); 256 x 4 over 16 CTAs was within 5% (1780 against 1816 us
  -- summed), over 8 CTAs 4% behind; at 32001 and 50257 the one-CTA loop
  -- kept its lead (389.6 against 568.6, 380.9 against 386.4).  256 x 4
  -- over 8 CTAs from 40961 and over 16 from 131073 (2026-11-27, sixteenth
  -- session, calls 1-2, one run each): aligned 2048 x 50256 285.9 (the
  -- one-CTA loop: 339.7), 512 x 151936 250.4 (512 x 4 over 8: 267.3), 512 x
  -- 200000 286.7 (300.3); odd 1024 x 128257 434.9 (467.4); odd 50257 386.7
  -- (the one-CTA loop 381.2; the stage variants take it, below).  Those
  -- two for 16-bit rows (b16) only: f32 is not measured.
  -- { threads, unroll, cl[, min_cols, rank] }
  if vec > 1 then
    for _, c in ipairs({ { 512, 4, 4 }, { 512, 4, 8, 65537, 101 },
                         { 256, 4, 8, 40961, 103, b16 = true },
                         { 256, 4, 16, 131073, 104, b16 = true }, { 1024, 2, 4 } }) do
      local r = c[4] ~= nil and (not c.b16 or esize(dt) == 2)
      emit(dt, "loop", { vec = vec, threads = c[1], unroll = c[2], cl = c[3], peel = true,
                         min_cols = r and c[4] or nil, rank = r and c[5] or nil })
    end
    -- each CTA's slices of the two halves staged in shared memory
    -- (rmsnorm_swiglu_stage: two images of `kb` KiB): { threads, unroll,
    -- kb, cl[, min_cols] }; 16-bit rows off the 16-byte grid (max_align 8)
    -- take the ranked ones (min_cols) over every other variant.  kp tune,
    -- H100, bf16, 2026-11-27, one run (bench/results/2026-11-27-s15/call6),
    -- us, against the ranking before: 2048 x 50257 317.2 over 2 CTAs (the
    -- one-CTA loop: 381.1), 512 x 151937 293.6 over 8 (the loop over 8:
    -- 303.9), 512 x 199999 358.6 (371.7); the picks before kept their lead
    -- at 4097 and 32001 (165.6 against 188.5, 390.8 against 429.8), 11007
    -- and 128257 within 1% either way.  The crossover between 32001 and
    -- 50257 is not measured: the ranked range starts halfway.  After the
    -- two-chunk shifted reads (kp_shift16; sixteenth session, call 2):
    -- 2048 x 50257 305.8, 512 x 151937 281.0, 512 x 199999 346.4; 1024 x
    -- 128257 420.9 for 256 x 2 over 8 CTAs (ranked from 98305; the loop of
    -- 256 x 4 over 8: 434.9); with the write pass's stepped pointers (call
    -- 5): 289.0, 262.8, 325.4, 398.0.
    -- (8193-12288 went to the pairs loop of 512 threads in the thirtieth
    -- session, above: its twin below is for the tuner since.)
    -- Seventeenth session (calls 1 and 4): 8192 x 11007 231.0 / 230.8 for
    -- 512 x 1 in one CTA (the loop of 512 threads over pairs: 239.1 /
    -- 239.6), 8192 x 9001 191.1 (212.9), hence 8193-12288.
    -- (512 x 1 in one CTA, ranked for 8193-12288 since the seventeenth
    -- session, hands that range to its pairs twin below.)  256 x 1 in one
    -- CTA for odd 4609-8192 (twenty-fifth session, calls 1, 3, 4, us): 16384
    -- x 5001 204.9 (the pairs loop of 256 threads: 222.4), 16384 x 6001
    -- 229.5 (241.9), 8192 x 7001 140.2 (151.7), 8192 x 8001 157.7 (176.7); at
    -- 16384 x 4097 171.5 against the loop's 159.6.  (6145-8192 since the
    -- thirty-first session: the pairs loop of 256 threads of U 8 takes
    -- 4609-6144, above; for the tuner since the thirty-third, when the 8K
    -- bulk-copy image warps took 6145-8192 on sm_90a.)
    -- Twenty-seventh session (call 3, H200, one run, after the st.async
    -- cluster exchange): aligned 2048 x 50256 192.4 for 512 x 2 over 4 CTAs
    -- (the loop of 256 x 4 over 8, ranked before: 255.4; 267.6 before the
    -- exchange, call 2), hence ranked for 16-bit rows of 40961-65536 at any
    -- alignment, at rank 104: above that loop, below the odd rows' picks.
    -- (Past 98304 the pairs twins below took the odd rows in the twenty-
    -- ninth session; 256 x 2 over 8 CTAs of 32 KiB and 512 x 2 over 8 of 50
    -- KiB are the tuner's here since.)  256 x 2 over 16 CTAs of 16-26 KiB (5-7 CTAs an SM), for
    -- the tuner: aligned 512 x 200000 211.5 against the loop's 232.5 (call
    -- 5, H200, one run).
    for _, c in ipairs({ { 512, 2, 50, 2, 40961 }, { 512, 2, 50, 8 },
                         { 256, 1, 16, nil, 6145, 8192 }, { 512, 1, 24 }, { 512, 2, 32, 2 },
                         { 512, 2, 32, 4, 40961, rank = 104, any = true },
                         { 256, 2, 32, 8 }, { 512, 2, 64, 4 }, { 256, 2, 16, 16 },
                         { 256, 2, 20, 16 }, { 256, 2, 26, 16 } }) do
      emit(dt, "stage", stage_params(dt, vec, c))
    end
    -- The write pass on y's 4-byte grid (`_pairs`: rmsnorm_swiglu_stage_pairs,
    -- 16-bit), the same entries and slices that leave 3-4 CTAs an SM
    -- between them (s24 and s36 over 2 CTAs, s28 over 3); ranked as above
    -- for odd rows (max_align 8).  kp tune, H100, bf16, 2026-11-28,
    -- twenty-fifth session (bench/results/2026-11-28-s25/, calls 2-4), us,
    -- against the pick before: 8192 x 11007 226.1 / 226.8 (one CTA, 512 x 1:
    -- 231.4 / 232.2); over 2 CTAs of 24 KiB from 22529 (4096 x 22001 241.6
    -- against the peeling loop's 237.5, 4096 x 23001 244.3 against 247.7,
    -- 2048 x 24001 134.0 against 138.6), of 32 KiB from 24577 (2048 x 28001
    -- 159.1 against 173.1, 4096 x 32001 356.0 / 356.9 against 382.0 /
    -- 382.3), of 36 KiB from 32769 (2048 x 36001 193.7 against 244.1), of 50
    -- KiB for 36865-40960 (2048 x 40001 233.0 against 276.1).  From 45001 the
    -- 16-byte grid's write pass kept its lead (1024 x 45001 136.1 against
    -- 145.3, 2048 x 50257 283.6 / 283.8 against 286.3, 512 x 199999 318.0
    -- against 325.2 over 8 CTAs).  The pairs take fewer instructions (ncu at
    -- 2048 x 50257: 133.5M warp instructions against 158.4M), which pays only
    -- where issue was a limit: there the schedulers issued in 54% of their
    -- cycles and DRAM ran 56.7-58.1% of peak (under ncu's clocks).  Past
    -- 45K, 36 KiB slices (call 9) over 8 CTAs came within 1.2% at 1024 x
    -- 128257 (387.7 against 392.5; for the tuner), over 3 and 12 CTAs lost
    -- 7-200% (51-54 registers: two CTAs an SM, not three); the pairs twin of
    -- 50 KiB over 8 ran 249.9 against 258.5 at 512 x 151937 but 325.2 against
    -- 318.0 (call 2) and 315.3 against 317.8 (call 9) at 512 x 199999: not
    -- ranked on that.  On an H200 (twenty-ninth session, call 5, one run,
    -- us) the pairs won past 98304 by 10-18%: odd 1024 x 128257 311.8 over 8
    -- CTAs of 36 KiB (the 16-byte grid's 32 KiB over 8, ranked before:
    -- 344.6), 512 x 151937 186.2 over 16 CTAs of 20 KiB (50 KiB over 8:
    -- 219.9; its pairs twin 202.8), 512 x 199999 247.1 over 8 of 50 KiB
    -- (274.1; 26 KiB over 16: 251.4); hence those three for 98305-131072,
    -- 131073-163840 and 163841-204800 (H100: unmeasured but for the 50
    -- KiB twin, above).  At 50257 and 32001 the picks kept their lead.
    -- Fewer threads a CTA, slices sized to the row (thirty-fourth session,
    -- call 7, kp tune, H200, bf16, one run, us; rmsnorm.lua says why; the
    -- list's last six): 2048 x 50257 256 x 2 over 4 CTAs of 25 KiB 210.4
    -- (128 x 2 over 8 of 13 KiB: 211.4; the pick, 512 x 2 over 2 of 50 KiB
    -- on the 16-byte grid: 240.7), ranked (rank 401) for odd 16-bit rows of
    -- 40961-51200.  For the tuner: 512 x 151937 256 x 2 over 16 of 19 KiB
    -- 173.8 (the pick's 20 KiB: 174.6), 1024 x 128257 over 16 of 16 KiB 2.4%
    -- behind the pick, 4096 x 32001 256 x 2 over 2 of 32 KiB and over 4 of 16
    -- KiB 6% behind.  Slices of 38-50 KiB, and 128 threads with any slice but
    -- 13 KiB, ran 1.1-4.8x slower (not kept).
    -- 256 x 2 over 2 CTAs of 20 / 24 KiB for odd rows of 16385-22528 outputs
    -- (fiftieth session, call 4, kp tune, H200, bf16, one run, us, against
    -- the peeling loop ranked there): 4096 x 18943 152.1 over 20 KiB (24 KiB:
    -- 162.7; the loop 188.4), 4096 x 22001 190.8 over 24 KiB (214.0); at
    -- 24001 level with 512 x 2 over 2 of 24 KiB (212.0 against 212.4), which
    -- keeps 22529 on.  Over 4 CTAs of 12 KiB 8-24% behind.  Slices sized
    -- closer (call 6): 17 KiB at 16385 142.3 (20 KiB 152.8; pinned side by
    -- side 65.3-65.4% of copy against 61.2), level at 17001; 22 KiB at
    -- 20481 167.1 (24 KiB 180.2; 69.4-69.6% against 64.6), 21001 167.8
    -- (179.7; 70.6 against 65.9); 20 KiB kept 18001; 18 KiB best nowhere.
    -- Hence 17 KiB for 16385-17408, 20 for 17409-20480, 22 for 20481-22528
    -- (24 KiB for the tuner).
    -- The entries whose shared memory leaves two CTAs an SM (`wp`: emit
    -- asserts it) also come as `_wp` (w's words a half step ahead,
    -- rmsnorm_swiglu_stage_pairs' PIPE): over its twin where `wp = "over"`
    -- -- 163841-204800: side by side against
    -- the twin pinned, in turns, two rounds (forty-seventh session, call 12,
    -- H200, bf16, % of copy): 512 x 199999 63.2-63.3 against 62.6-62.7,
    -- 1024 x 199999 65.5 against 65.1, 512 x 170001 60.6 against 58.0-58.2
    -- -- else for the tuner (over 2 CTAs of 50 KiB 0.4-0.8% behind at 2048 x
    -- 38001-40001).
    -- { threads, unroll, kb, cl[, min_cols, max_cols] }
    if esize(dt) == 2 then
      for _, c in ipairs({ { 512, 2, 50, 2, 36865, 40960, wp = "under" },
                           { 512, 2, 50, 8, 163841, 204800, wp = "over" },
                           { 256, 1, 16 },
                           { 512, 1, 24 }, { 512, 2, 32, 2, 24577 },
                           { 512, 2, 32, 4 }, { 256, 2, 32, 8 }, { 512, 2, 64, 4, wp = "under" },
                           { 512, 2, 24, 2, 22529 }, { 512, 2, 36, 2, 32769 }, { 512, 2, 28, 3 },
                           { 512, 2, 36, 8, 98305, 131072 }, { 256, 2, 20, 16, 131073, 163840 },
                           { 256, 2, 26, 16 }, { 256, 2, 25, 4, 40961, 51200, rank = 401 },
                           { 128, 2, 13, 8 }, { 256, 2, 16, 16 }, { 256, 2, 19, 16 },
                           { 256, 2, 16, 4 }, { 256, 2, 32, 2 },
                           { 256, 2, 17, 2, 16385, 17408 }, { 256, 2, 20, 2, 17409, 20480 },
                           { 256, 2, 22, 2, 20481, 22528 }, { 256, 2, 24, 2 } }) do
        local q = stage_params(dt, vec, c)
        q.pairs = true
        emit(dt, "stage", q)
        if c.wp then -- its `_wp` twin (above)
          local r = stage_params(dt, vec, c)
          r.pairs, r.wp = true, c.wp
          emit(dt, "stage", r)
        end
      end
    end
  end
  -- Persistent clusters over whole 16-bit rows (rmsnorm_swiglu_pers: w's
  -- slices read once a CTA, x's rows three ahead): { threads, buffers, KiB
  -- a half's slice, cl[, min_cols, max_cols] }, ranked (402: over the
  -- staged picks, which take any alignment) where min_cols is given.
  -- Fifty-second session (calls 2-3, H200, bf16): a probe of the same
  -- design (bench/results/2026-12-01-s52/call3/proto_rsw.cu, nvcc) against
  -- the library's picks side by side, % of copy: 2048 x 50256 over 4 CTAs
  -- 81.9 (59.8), 512 x 151936 over 16 71.2 (53.4), 512 x 200000 over 16
  -- 75.6 (61.6), 1024 x 200000 78.1 (63.0); 4096 x 32000 level (78.8 /
  -- 78.9), 4096 x 18944 over 2 with 4 buffers 86.5 (83.3).  w from global
  -- memory instead: 55-58% (it is the point); two buffers 51%.  In the
  -- library (call 4, the write loop unrolled twice then), side by side in
  -- turns with main's pack, two rounds, % of copy: 2048 x 40968 76.5
  -- (54.3), 50256 76.9 (59.5), 512 x 131080 63.2 (57.4), 151936 68.8
  -- (53.8), 200000 69.7 (61.4), 1024 x 200000 72.5 (63.5); kp tune (call
  -- 5): a vector a step 173.1 us against 183.4 at 2048 x 50256, 190.7
  -- against 201.8 at 512 x 200000 (a twin's; not landed yet: the write
  -- loop's comment); over 8 CTAs at 1024 x 100000 189.5 against the
  -- pick's 202.8 (call 4, the tuner's).  Fifty-third session: one block
  -- barrier a row's sum (two scratch arrays), and the write loop a vector a
  -- step (`_u1`) where a thread takes 4 (calls 1-2, side by side in turns
  -- with main's pack, two rounds, % of copy): 2048 x 40968 80.2 (76.7),
  -- 45000 85.7 (81.5), 50256 (`_u1`) 77.8 (76.3), 512 x 131080 64.9
  -- (63.1), 151936 71.5 (68.5), 180000 79.8 (75.7), 200000 (`_u1`) 72.6
  -- (69.9), 1024 x 200000 75.6 (72.4); `_u1` at 3 vectors a thread lost
  -- 1-2.5% (call 1).
  if esize(dt) == 2 and vec == 8 then
    for _, c in ipairs({ { 512, 3, 25, 4, 40961, 49152 }, { 512, 3, 25, 4, 49153, 51200, 1 },
                         { 512, 3, 25, 16, 131073, 196608 },
                         { 512, 3, 25, 16, 196609, 204800, 1 },
                         { 512, 3, 25, 8 }, { 512, 4, 20, 4 }, { 512, 4, 19, 2 } }) do
      emit(dt, "pers", { vec = vec, threads = c[1], nbuf = c[2], kb = c[3], cl = c[4],
                         min_cols = c[5], max_cols = c[6], unroll = c[7],
                         rank = c[5] and 402 or nil })
    end
  end
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
  neighbours = function(dt, p)
    if p.kind == "stage" then return stage_neighbours(p) end
    if p.kind == "pers" then -- (buffers: as many as shared memory holds; unranked)
      local out = {}
      for _, q in ipairs(steps(p, { threads = { 256, 512, 1024 }, nbuf = { 2, 3, 4 },
                                     unroll = { 1, 2 } })) do
        q.min_cols, q.max_cols, q.rank, q.smem, q.persist = nil, nil, nil, nil, nil
        if smem_blocks(pers_smem(q)) >= 1 then out[#out + 1] = q end
      end
      return out
    end
    if p.kind == "warps" then
      -- persistent: no more blocks an SM than fit sm_90a's registers (56-60
      -- at U 4, 80 at U 8, 117 with images) and its 227 KiB of shared memory
      -- (a block whose shared memory passes 227 KiB is no neighbour: rows of
      -- 4K+ outputs take few warps)
      local out = {}
      for _, q in ipairs(steps(p, { rows = { 2, 4, 8 }, unroll = { 4, 8 } })) do
        local warps = q.unroll == 8 and (q.img and 16 or 24) or 32 -- (U 8 with images: 117)
        q.persist = math.min(warps // (q.rows * (q.wpr or 1)), 227 * 1024 // (warps_smem(q) + 1024))
        q.min_cols, q.rank = nil, nil
        if q.persist > 0 then out[#out + 1] = q end
      end
      return out
    end
    local out = p.rows and steps(p, { rows = { 2, 4, 8, 16 }, unroll = { 2, 4, 8 } })
                or norm_neighbours(p, 4)
    if p.min_cols or p.rank then
      -- a ranked range is the variant's own: its neighbours are for the
      -- tuner (a block's step also changes the columns a cluster holds;
      -- a loop's neighbours take the whole range, a warp row's up to 16K)
      for _, q in ipairs(out) do
        q.min_cols, q.rank = nil, nil
        if p.kind == "loop" then q.max_cols = p.rows and 16384 or nil end
      end
    end
    return out
  end,
}
