// Probe (sixty-seventh session): RMSNorm+SwiGLU over long rows at any
// alignment with a row spread over GR CTAs that exchange their sums of
// squares through global memory, many rows ahead -- not a cluster (16-CTA
// clusters place 7 on 132 SMs, bench/NOTES.md 97) and not one row at a time
// (item 97's `_gx` waited a round trip a row).  Not the library: an upper
// bound for a form of it, and the numbers that decide whether to build it.
//
// Grid: NG groups of GR CTAs, one CTA an SM, all resident (the probe runs
// alone).  Group g takes rows g, g + NG, ...; CTA s of a group holds output
// columns [off, off + len) of every row it takes: w's two slices as fp32,
// resident, and NB buffers of x's two windows (the 16-byte grid's
// enclosing copy of the gate and up segments, one bulk copy each, any
// residue).  Iteration i: row i's partial sum of squares to its slot (rows
// x GR, {tag, sum} in 8 bytes, tag = the launch's epoch: no zeroing between
// launches); row i - L's slots (loaded during the previous iteration's
// write pass) summed in a fixed order (every CTA gets the same bits), its
// outputs written on y's 4-byte grid from the window by 16-bit shared
// loads; its buffer refilled with row i - L + NB.
//
// nvcc -O3 -arch=sm_90a -std=c++17 proto_grid.cu -o proto_grid
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

typedef unsigned long long u64;
typedef unsigned u32;

__device__ __forceinline__ u32 sa(const void *p) { return (u32)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(u64 *b, int c) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(sa(b)), "r"(c) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(u64 *b, u32 n) {
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_wait(u64 *b, int par) {
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n\t"
               "@!p bra W; }" ::"r"(sa(b)), "r"(par) : "memory");
}
__device__ __forceinline__ void bulk(void *dst, const void *src, u32 n, u64 *b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(sa(dst)), "l"(src), "r"(n), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ u64 ld_slot(const u64 *p) {
  u64 v;
  asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ void st_slot(u64 *p, u64 v) {
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ long long gtime() {
  long long v;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
  return v;
}
__device__ __forceinline__ float bf(unsigned short h) { return __uint_as_float((u32)h << 16); }
__device__ __forceinline__ u32 pack2(float a, float b) {
  __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
  return *reinterpret_cast<u32 *>(&h);
}
__device__ __forceinline__ float f_out(float a, float b, float ga, float gb, float rs) {
  const float p = a * ga * rs, q = b * gb * rs;
  return __fdividef(p, 1.f + __expf(-p)) * q;
}

constexpr int MAXS = 5; // slots a lane of warp 0 reads: GR <= 160
constexpr int SLOTMAX = 32 * MAXS, SR = 16; // a ring entry's slots, the ring's entries

// the enclosing 16-byte window of [p, p + len) elements: its start and bytes
__device__ __forceinline__ const char *win(const __nv_bfloat16 *p, int len, u32 *bytes, int *res) {
  const uintptr_t a = (uintptr_t)p, s = a & ~(uintptr_t)15, e = (a + 2 * (uintptr_t)len + 15) & ~(uintptr_t)15;
  *bytes = len ? (u32)(e - s) : 0u;
  *res = (int)(a - s) / 2;
  return (const char *)s;
}

template <int THREADS, int NB, int L, int D>
__global__ void __launch_bounds__(THREADS, 1)
rsw_grid(const __nv_bfloat16 *x, long long ldx, const __nv_bfloat16 *w, __nv_bfloat16 *y,
         long long ldy, int rows, int n, float eps, int GR, int S, u64 *slots, u32 epoch,
         long long *prof) {
  // rows' slots fetched D iterations after they are published, used L after
  static_assert(L + 1 < NB && D >= 1 && D < L && SR > L - D, "rows ahead within the rings");
  extern __shared__ __align__(128) char sm[];
  __shared__ u64 full[NB], sfull[SR];
  __shared__ float red[2][THREADS / 32], rsv[2];
  const int t = threadIdx.x, lane = t & 31, wid = t >> 5;
  const int s = blockIdx.x % GR, g = blockIdx.x / GR, NG = gridDim.x / GR;
  const int SP = (GR + 1) & ~1; // slots a row (16-byte rows of slots)
  const int off = s * S, len = max(0, min(S, n - off));
  const int WB = 2 * S + 32; // a window's bytes at most
  float *wg = reinterpret_cast<float *>(sm), *wu = wg + S;
  u64 *sring = reinterpret_cast<u64 *>(sm + 8 * (size_t)S);
  char *bufs = sm + 8 * (size_t)S + (size_t)SR * SLOTMAX * 8;
  auto buf = [&](int b) { return bufs + (size_t)b * 2 * WB; };
  const long long nrows = rows > g ? (rows - g + NG - 1) / NG : 0; // this group's
  auto row = [&](long long i) { return g + i * NG; };
  auto issue = [&](long long i) { // (thread 0) row i's windows into buffer i % NB
    const int b = (int)(i % NB);
    const long long r = row(i);
    u32 ba, bb;
    int ra, rb;
    const char *pa = win(x + r * ldx + off, len, &ba, &ra), *pb = win(x + r * ldx + n + off, len, &bb, &rb);
    mb_arrive_tx(&full[b], ba + bb);
    if (ba) bulk(buf(b), pa, ba, &full[b]);
    if (bb) bulk(buf(b) + WB, pb, bb, &full[b]);
  };
  auto fetch = [&](long long j) { // (thread 0) row j's slots into ring entry j % SR
    const int e = (int)(j % SR);
    mb_arrive_tx(&sfull[e], (u32)SP * 8u);
    bulk(sring + (size_t)e * SLOTMAX, slots + row(j) * SP, (u32)SP * 8u, &sfull[e]);
  };
  if (t == 0) {
    for (int b = 0; b < NB; b++) mb_init(&full[b], 1);
    for (int b = 0; b < SR; b++) mb_init(&sfull[b], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (t == 0)
    for (long long i = 0; i < NB && i < nrows; i++) issue(i);
  for (int c = t; c < len; c += THREADS) wg[c] = __bfloat162float(w[off + c]), wu[c] = __bfloat162float(w[n + off + c]);
  // (warp 0) row j's scale from its fetched slots (a stale one read again until its tag is the epoch)
  auto rs_of = [&](long long j, long long *st) {
    const int e = (int)(j % SR);
    mb_wait(&sfull[e], (int)((j / SR) & 1));
    const u64 *q = sring + (size_t)e * SLOTMAX, *p = slots + row(j) * SP;
    float a = 0.f;
#pragma unroll
    for (int m = 0; m < MAXS; m++) {
      const int k = lane + 32 * m;
      if (k < GR) {
        u64 v = q[k];
        while ((u32)(v >> 32) != epoch) v = ld_slot(p + k), ++*st;
        a += __uint_as_float((u32)v);
      }
    }
#pragma unroll
    for (int o = 16; o; o >>= 1) a += __shfl_xor_sync(~0u, a, o);
    return rsqrtf(a / (float)(2 * n) + eps);
  };
  long long tw_full = 0, tw_rs = 0, tw_bar = 0, t_loop = gtime(), stale = 0;
  for (long long i = 0; i < nrows + L; i++) {
    // (a) row i's partial sum of squares
    if (i < nrows) {
      const int b = (int)(i % NB);
      long long t0 = gtime();
      mb_wait(&full[b], (int)((i / NB) & 1));
      tw_full += gtime() - t0;
      const long long r = row(i);
      u32 ba;
      int ra, rb;
      win(x + r * ldx + off, len, &ba, &ra), win(x + r * ldx + n + off, len, &ba, &rb);
      float q = 0.f;
      const uint4 *pa = reinterpret_cast<const uint4 *>(buf(b)), *pb = reinterpret_cast<const uint4 *>(buf(b) + WB);
      const int na = (ra + len + 7) / 8, nbv = (rb + len + 7) / 8;
      for (int k = t; k < na || k < nbv; k += THREADS) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
          const int res = h ? rb : ra;
          if (k >= (h ? nbv : na)) continue;
          const uint4 u = (h ? pb : pa)[k];
          const u32 wd[4] = {u.x, u.y, u.z, u.w};
          const bool edge = 8 * k < res || 8 * k + 8 > res + len;
#pragma unroll
          for (int j = 0; j < 8; j++) {
            const float f = __uint_as_float(j & 1 ? wd[j / 2] & 0xffff0000u : wd[j / 2] << 16);
            const int e = 8 * k + j;
            if (!edge || (e >= res && e < res + len)) q = fmaf(f, f, q);
          }
        }
      }
#pragma unroll
      for (int o = 16; o; o >>= 1) q += __shfl_xor_sync(~0u, q, o);
      if (lane == 0) red[i & 1][wid] = q;
    }
    // (b) row i - L's scale
    if (wid == 0 && i >= L) {
      long long t0 = gtime();
      const float rs = rs_of(i - L, &stale);
      tw_rs += gtime() - t0;
      if (lane == 0) rsv[i & 1] = rs;
    }
    {
      long long t0 = gtime();
      __syncthreads();
      tw_bar += gtime() - t0;
    }
    // (c) publish row i's sum; refill the buffer row i - 1 - L left; fetch row i - D's slots
    if (t == 0) {
      if (i < nrows) {
        float q = 0.f;
#pragma unroll
        for (int k = 0; k < THREADS / 32; k++) q += red[i & 1][k];
        st_slot(slots + row(i) * SP + s, (u64)epoch << 32 | __float_as_uint(q));
      }
      if (i - 1 - L >= 0 && i - 1 - L + NB < nrows) issue(i - 1 - L + NB);
      if (i - D >= 0 && i - D < nrows) fetch(i - D);
    }
    // (d) row i - L's outputs
    if (i >= L) {
      const long long ii = i - L, r = row(ii);
      const int b = (int)(ii % NB);
      const float rs = rsv[i & 1];
      u32 ba;
      int ra, rb;
      win(x + r * ldx + off, len, &ba, &ra), win(x + r * ldx + n + off, len, &ba, &rb);
      const unsigned short *ga = reinterpret_cast<const unsigned short *>(buf(b)) + ra;
      const unsigned short *gb = reinterpret_cast<const unsigned short *>(buf(b) + WB) + rb;
      __nv_bfloat16 *yr = y + r * ldy + off;
      const int head = ((uintptr_t)yr & 2) ? 1 : 0;
      const int np = (len - head) / 2;
      u32 *yp = reinterpret_cast<u32 *>(yr + head);
#pragma unroll 4
      for (int q = t; q < np; q += THREADS) {
        const int c = head + 2 * q;
        yp[q] = pack2(f_out(bf(ga[c]), bf(gb[c]), wg[c], wu[c], rs),
                      f_out(bf(ga[c + 1]), bf(gb[c + 1]), wg[c + 1], wu[c + 1], rs));
      }
      if (t == 0 && head && len > 0) yr[0] = __float2bfloat16(f_out(bf(ga[0]), bf(gb[0]), wg[0], wu[0], rs));
      if (t == THREADS - 1 && len > head && (len - head) % 2) {
        const int c = len - 1;
        yr[c] = __float2bfloat16(f_out(bf(ga[c]), bf(gb[c]), wg[c], wu[c], rs));
      }
    }
  }
  if (prof && t == 0) {
    long long *q = prof + 8 * blockIdx.x;
    q[0] = gtime() - t_loop, q[1] = tw_full, q[2] = tw_rs, q[3] = tw_bar, q[4] = stale, q[5] = t_loop;
  }
  if (prof && t == 32 * 0 + 0) {}
}


// The same exchange with a warp a row (`gw`): warp w of a CTA takes the
// group's rows w, w + NW, ..., each whole slice by itself -- its own ring of
// NBW buffers and SRW slot entries, its own sums, no block barrier a row --
// so that NW rows' latency chains overlap.  Warp iteration k: row k's sum
// published; row k - LW's slots (fetched at iteration k - LW + DW) summed,
// its outputs written, its buffer refilled with row k - LW + NBW.
template <int NW, int NBW, int LW, int DW, bool VEC_OK = true>
__global__ void __launch_bounds__(32 * NW, 1)
rsw_gw(const __nv_bfloat16 *x, long long ldx, const __nv_bfloat16 *w, __nv_bfloat16 *y,
       long long ldy, int rows, int n, float eps, int GR, int S, u64 *slots, u32 epoch,
       long long *prof) {
  constexpr int SRW = LW - DW + 1;
  static_assert(LW < NBW && DW >= 1 && DW <= LW, "rows ahead within the rings");
  extern __shared__ __align__(128) char sm[];
  __shared__ u64 full[NW][NBW], sfull[NW][SRW];
  const int t = threadIdx.x, lane = t & 31, wid = t >> 5;
  const int s = blockIdx.x % GR, g = blockIdx.x / GR, NG = gridDim.x / GR;
  const int SP = (GR + 1) & ~1;
  const int off = s * S, len = max(0, min(S, n - off));
  const int WB = 2 * S + 32;
  float *wg = reinterpret_cast<float *>(sm), *wu = wg + S;
  u64 *sring = reinterpret_cast<u64 *>(sm + 8 * (size_t)S) + (size_t)wid * SRW * SP;
  char *bufs = sm + 8 * (size_t)S + (size_t)NW * SRW * SP * 8 + (size_t)wid * NBW * 2 * WB;
  auto buf = [&](int b) { return bufs + (size_t)b * 2 * WB; };
  const long long nrows = rows > g ? (rows - g + NG - 1) / NG : 0; // the group's
  const long long nk = nrows > wid ? (nrows - wid + NW - 1) / NW : 0; // this warp's
  auto row = [&](long long k) { return g + (wid + k * NW) * NG; };
  auto issue = [&](long long k) { // (lane 0) warp row k's windows into buffer k % NBW
    const int b = (int)(k % NBW);
    const long long r = row(k);
    u32 ba, bb;
    int ra, rb;
    const char *pa = win(x + r * ldx + off, len, &ba, &ra), *pb = win(x + r * ldx + n + off, len, &bb, &rb);
    mb_arrive_tx(&full[wid][b], ba + bb);
    if (ba) bulk(buf(b), pa, ba, &full[wid][b]);
    if (bb) bulk(buf(b) + WB, pb, bb, &full[wid][b]);
  };
  auto fetch = [&](long long k) { // (lane 0) warp row k's slots into entry k % SRW
    const int e = (int)(k % SRW);
    mb_arrive_tx(&sfull[wid][e], (u32)SP * 8u);
    bulk(sring + (size_t)e * SP, slots + row(k) * SP, (u32)SP * 8u, &sfull[wid][e]);
  };
  if (lane == 0) {
    for (int b = 0; b < NBW; b++) mb_init(&full[wid][b], 1);
    for (int b = 0; b < SRW; b++) mb_init(&sfull[wid][b], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (long long k = 0; k < NBW && k < nk; k++) issue(k);
  }
  for (int c = t; c < len; c += 32 * NW) wg[c] = __bfloat162float(w[off + c]), wu[c] = __bfloat162float(w[n + off + c]);
  __syncthreads();
  long long tw_full = 0, tw_rs = 0, t_loop = gtime(), stale = 0;
  for (long long k = 0; k < nk + LW; k++) {
    if (k < nk) { // (a) row k's partial sum of squares, published
      const int b = (int)(k % NBW);
      long long t0 = gtime();
      mb_wait(&full[wid][b], (int)((k / NBW) & 1));
      tw_full += gtime() - t0;
      const long long r = row(k);
      u32 ba;
      int ra, rb;
      win(x + r * ldx + off, len, &ba, &ra), win(x + r * ldx + n + off, len, &ba, &rb);
      float q = 0.f;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int res = h ? rb : ra, nc = (res + len + 7) / 8;
        const uint4 *pv = reinterpret_cast<const uint4 *>(buf(b) + h * WB);
#pragma unroll 2
        for (int c = lane; c < nc; c += 32) {
          const uint4 u = pv[c];
          const u32 wd[4] = {u.x, u.y, u.z, u.w};
          const bool edge = 8 * c < res || 8 * c + 8 > res + len;
#pragma unroll
          for (int j = 0; j < 8; j++) {
            const float f = __uint_as_float(j & 1 ? wd[j / 2] & 0xffff0000u : wd[j / 2] << 16);
            const int e = 8 * c + j;
            if (!edge || (e >= res && e < res + len)) q = fmaf(f, f, q);
          }
        }
      }
#pragma unroll
      for (int o = 16; o; o >>= 1) q += __shfl_xor_sync(~0u, q, o);
      if (lane == 0) st_slot(slots + r * SP + s, (u64)epoch << 32 | __float_as_uint(q));
    }
    if (lane == 0 && k - DW >= 0 && k - DW < nk) fetch(k - DW);
    if (k >= LW) { // (b) row k - LW's outputs
      const long long kk = k - LW, r = row(kk);
      const int e = (int)(kk % SRW), b = (int)(kk % NBW);
      long long t0 = gtime();
      mb_wait(&sfull[wid][e], (int)((kk / SRW) & 1));
      const u64 *qs = sring + (size_t)e * SP, *ps = slots + r * SP;
      float a = 0.f;
#pragma unroll
      for (int m = 0; m < MAXS; m++) {
        const int c = lane + 32 * m;
        if (c < GR) {
          u64 v = qs[c];
          while ((u32)(v >> 32) != epoch) v = ld_slot(ps + c), ++stale;
          a += __uint_as_float((u32)v);
        }
      }
#pragma unroll
      for (int o = 16; o; o >>= 1) a += __shfl_xor_sync(~0u, a, o);
      tw_rs += gtime() - t0;
      const float rs = rsqrtf(a / (float)(2 * n) + eps);
      u32 ba;
      int ra, rb;
      win(x + r * ldx + off, len, &ba, &ra), win(x + r * ldx + n + off, len, &ba, &rb);
      const unsigned short *ga = reinterpret_cast<const unsigned short *>(buf(b)) + ra;
      const unsigned short *gb = reinterpret_cast<const unsigned short *>(buf(b) + WB) + rb;
      __nv_bfloat16 *yr = y + r * ldy + off;
      if (VEC_OK && ra == 0 && rb == 0 && ((uintptr_t)yr & 15) == 0 && len % 8 == 0) {
        // (whole 16-byte vectors: the aligned rows' bound, no shifts)
        const uint4 *va = reinterpret_cast<const uint4 *>(ga), *vb = reinterpret_cast<const uint4 *>(gb);
        const float4 *fa = reinterpret_cast<const float4 *>(wg), *fb = reinterpret_cast<const float4 *>(wu);
        uint4 *yv = reinterpret_cast<uint4 *>(yr);
        const float cc = -rs * 1.4426950408889634f, ii = __fdividef(1.f, rs * rs);
#pragma unroll 2
        for (int v = lane; v < len / 8; v += 32) {
          const uint4 a = va[v], b = vb[v];
          const float4 w0 = fa[2 * v], w1 = fa[2 * v + 1], u0 = fb[2 * v], u1 = fb[2 * v + 1];
          const u32 aw[4] = {a.x, a.y, a.z, a.w}, bw[4] = {b.x, b.y, b.z, b.w};
          const float wf[8] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w};
          const float uf[8] = {u0.x, u0.y, u0.z, u0.w, u1.x, u1.y, u1.z, u1.w};
          u32 o[4];
#pragma unroll
          for (int j = 0; j < 4; j++) {
            float e2[2];
#pragma unroll
            for (int h = 0; h < 2; h++) {
              const float xa = __uint_as_float(h ? aw[j] & 0xffff0000u : aw[j] << 16);
              const float xb = __uint_as_float(h ? bw[j] & 0xffff0000u : bw[j] << 16);
              const float pp = xa * wf[2 * j + h], qq = xb * uf[2 * j + h];
              float ee, rr;
              asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(ee) : "f"(pp * cc));
              asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(rr) : "f"(fmaf(ee, ii, ii)));
              e2[h] = pp * qq * rr;
            }
            o[j] = pack2(e2[0], e2[1]);
          }
          yv[v] = make_uint4(o[0], o[1], o[2], o[3]);
        }
      } else {
      const int head = ((uintptr_t)yr & 2) ? 1 : 0;
      const int np = (len - head) / 2;
      u32 *yp = reinterpret_cast<u32 *>(yr + head);
#pragma unroll 4
      for (int q = lane; q < np; q += 32) {
        const int c = head + 2 * q;
        yp[q] = pack2(f_out(bf(ga[c]), bf(gb[c]), wg[c], wu[c], rs),
                      f_out(bf(ga[c + 1]), bf(gb[c + 1]), wg[c + 1], wu[c + 1], rs));
      }
      if (lane == 0 && head && len > 0) yr[0] = __float2bfloat16(f_out(bf(ga[0]), bf(gb[0]), wg[0], wu[0], rs));
      if (lane == 31 && len > head && (len - head) % 2) {
        const int c = len - 1;
        yr[c] = __float2bfloat16(f_out(bf(ga[c]), bf(gb[c]), wg[c], wu[c], rs));
      }
      }
      __syncwarp();
      if (lane == 0 && kk + NBW < nk) issue(kk + NBW);
    }
  }
  if (prof && t == 0) {
    long long *q = prof + 8 * blockIdx.x;
    q[0] = gtime() - t_loop, q[1] = tw_full, q[2] = tw_rs, q[3] = 0, q[4] = stale, q[5] = t_loop;
  }
}

__global__ void fill(__nv_bfloat16 *p, size_t n, u32 seed, float scale) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    u32 h = (u32)i * 2654435761u ^ seed;
    h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
    p[i] = __float2bfloat16(((h & 0xffffff) / 16777216.f * 2.f - 1.f) * scale);
  }
}
// L2 flushed by a read (a write-back of a memset flush lands in the timed call)
__global__ void flush_read(const uint4 *p, size_t n, u32 *sink) {
  u32 a = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint4 v = p[i];
    a ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (a == 0x9e3779b9u) *sink = a;
}

static float bf2f(__nv_bfloat16 v) { return __bfloat162float(v); }
static u32 g_epoch = 1;

// Peer: the rows' plain copy (cudaMemcpy D2D of the same bytes: x's read, y's write)
template <int THREADS, int NB, int L, int D = 2>
static void run(int rows, int n, int GR, double copy_gbps, bool check, int xoff = 0) {
  auto k = rsw_grid<THREADS, NB, L, D>;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int NG = std::max(1, std::min(sms / GR, rows));
  const int S = ((n + GR - 1) / GR + 7) / 8 * 8;
  const size_t smem = 8 * (size_t)S + (size_t)SR * SLOTMAX * 8 + (size_t)NB * 2 * (2 * S + 32);
  const int SP = (GR + 1) & ~1;
  if (smem > 227 * 1024) { printf("GR %d NB %d: %zu bytes of shared memory, too many\n", GR, NB, smem); return; }
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  const long long ldx = 2LL * n + (n % 2 ? 0 : 0), ldy = n;
  __nv_bfloat16 *xa, *w, *ya;
  u64 *slots;
  CK(cudaMalloc(&xa, (size_t)rows * ldx * 2 + 64)); CK(cudaMalloc(&w, (size_t)2 * n * 2)); CK(cudaMalloc(&ya, (size_t)rows * ldy * 2 + 64));
  CK(cudaMalloc(&slots, (size_t)rows * SP * 8)); CK(cudaMemset(slots, 0, (size_t)rows * SP * 8));
  __nv_bfloat16 *x = xa + xoff, *y = ya + xoff; // (xoff: views that start mid-row)
  fill<<<1024, 256>>>(x, (size_t)rows * ldx, 1234u + rows, 2.f);
  fill<<<1024, 256>>>(w, (size_t)2 * n, 99u, 1.5f);
  CK(cudaMemset(ya, 0xff, (size_t)rows * ldy * 2 + 64)); // (poison: NaN)
  const float eps = 1e-6f;
  long long *prof;
  CK(cudaMalloc(&prof, 8 * 8 * 1024));
  k<<<NG * GR, THREADS, smem>>>(x, ldx, w, y, ldy, rows, n, eps, GR, S, slots, g_epoch++, nullptr);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  bool ok = true;
  if (check) { // sampled rows (all when few), every column, against double; the poison around y
    std::vector<__nv_bfloat16> hx((size_t)rows * ldx), hw(2 * n), hy((size_t)rows * ldy + 32);
    CK(cudaMemcpy(hx.data(), x, hx.size() * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hw.data(), w, hw.size() * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hy.data(), ya, hy.size() * 2, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int r = 0; r < rows; r += (rows > 64 ? 37 : 1)) {
      double ss = 0;
      for (long long c = 0; c < 2LL * n; c++) { double v = bf2f(hx[r * ldx + c]); ss += v * v; }
      const double rs = 1.0 / sqrt(ss / (2.0 * n) + eps);
      for (long long c = 0; c < n; c++) {
        const double a = bf2f(hx[r * ldx + c]) * rs * bf2f(hw[c]);
        const double b = bf2f(hx[r * ldx + n + c]) * rs * bf2f(hw[n + c]);
        const double ref = a / (1 + exp(-a)) * b, got = bf2f(hy[xoff + r * ldy + c]);
        const double err = fabs(got - ref) / (1e-2 + fabs(ref));
        if (!(err <= worst)) worst = err;
      }
    }
    for (int c = 0; c < xoff; c++) ok &= ((const unsigned short *)hy.data())[c] == 0xffff;
    for (size_t c = xoff + (size_t)rows * ldy; c < hy.size(); c++) ok &= ((const unsigned short *)hy.data())[c] == 0xffff;
    ok &= worst < 2e-2;
    printf("  check %d x %d (offset %d): worst relative error %.3g, poison %s: %s\n", rows, n, xoff, worst,
           ok ? "intact" : "?", ok ? "ok" : "FAIL");
  }
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  uint4 *fl; u32 *sink; const size_t fb = 256u << 20;
  CK(cudaMalloc(&fl, fb)); CK(cudaMalloc(&sink, 4)); CK(cudaMemset(fl, 1, fb));
  std::vector<float> ts;
  const int reps = 20;
  for (int it = 0; it < reps + 3; it++) {
    flush_read<<<1056, 512>>>(fl, fb / 16, sink);
    CK(cudaEventRecord(e0));
    k<<<NG * GR, THREADS, smem>>>(x, ldx, w, y, ldy, rows, n, eps, GR, S, slots, g_epoch++,
                                  it == reps + 2 ? prof : nullptr);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    if (it >= 3) ts.push_back(ms * 1e3f);
  }
  std::sort(ts.begin(), ts.end());
  const double bytes = (double)rows * 3.0 * n * 2.0 + 4.0 * n;
  const double us = ts[ts.size() / 2];
  printf("rsw_grid<%d thr, NB %2d, L %2d, D %d> %5d x %6d: GR %3d x NG %2d, %6zu B smem, %8.1f us median (%.1f best), "
         "%.0f GB/s, %.1f%% of copy%s\n", THREADS, NB, L, D, rows, n, GR, NG, smem, us, ts[0],
         bytes / us * 1e-3, bytes / us * 1e-3 / copy_gbps * 100, ok ? "" : "  (CHECK FAILED)");
  { // the last rep's per-CTA split (thread 0: its loop, its waits for x's copies and
    // the barrier; warp 0: the scale's wait): min / median / max over the CTAs, us
    std::vector<long long> hp(8 * NG * GR);
    CK(cudaMemcpy(hp.data(), prof, hp.size() * 8, cudaMemcpyDeviceToHost));
    const char *nm[5] = {"loop", "wait x", "wait sums", "barrier", "stale polls"};
    long long t0 = hp[5];
    for (int c = 0; c < NG * GR; c++) t0 = std::min(t0, hp[8 * c + 5]);
    printf("   ");
    for (int f = 0; f < 6; f++) {
      std::vector<long long> v;
      for (int c = 0; c < NG * GR; c++) v.push_back(f == 5 ? hp[8 * c + 5] - t0 : hp[8 * c + f]);
      std::sort(v.begin(), v.end());
      const double sc = f == 4 ? 1.0 : 1e-3;
      printf(" %s %.1f/%.1f/%.1f", f == 5 ? "start" : nm[f], v[0] * sc, v[v.size() / 2] * sc, v.back() * sc);
    }
    printf("\n");
  }
  CK(cudaFree(prof));
  CK(cudaFree(xa)); CK(cudaFree(w)); CK(cudaFree(ya)); CK(cudaFree(slots)); CK(cudaFree(fl)); CK(cudaFree(sink));
}

template <int NW, int NBW, int LW, int DW = 1>
static void run_gw(int rows, int n, int GR, double copy_gbps, bool check, int xoff = 0) {
  auto k = rsw_gw<NW, NBW, LW, DW>;
  constexpr int THREADS = 32 * NW;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int NG = std::max(1, std::min(sms / GR, rows));
  const int S = ((n + GR - 1) / GR + 7) / 8 * 8;
  const int SP = (GR + 1) & ~1;
  const size_t smem = 8 * (size_t)S + (size_t)NW * (LW - DW + 1) * SP * 8 + (size_t)NW * NBW * 2 * (2 * S + 32);
  if (smem > 227 * 1024) { printf("gw GR %d NBW %d: %zu bytes of shared memory, too many\n", GR, NBW, smem); return; }
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  const long long ldx = 2LL * n + (n % 2 ? 0 : 0), ldy = n;
  __nv_bfloat16 *xa, *w, *ya;
  u64 *slots;
  CK(cudaMalloc(&xa, (size_t)rows * ldx * 2 + 64)); CK(cudaMalloc(&w, (size_t)2 * n * 2)); CK(cudaMalloc(&ya, (size_t)rows * ldy * 2 + 64));
  CK(cudaMalloc(&slots, (size_t)rows * SP * 8)); CK(cudaMemset(slots, 0, (size_t)rows * SP * 8));
  __nv_bfloat16 *x = xa + xoff, *y = ya + xoff; // (xoff: views that start mid-row)
  fill<<<1024, 256>>>(x, (size_t)rows * ldx, 1234u + rows, 2.f);
  fill<<<1024, 256>>>(w, (size_t)2 * n, 99u, 1.5f);
  CK(cudaMemset(ya, 0xff, (size_t)rows * ldy * 2 + 64)); // (poison: NaN)
  const float eps = 1e-6f;
  long long *prof;
  CK(cudaMalloc(&prof, 8 * 8 * 1024));
  k<<<NG * GR, THREADS, smem>>>(x, ldx, w, y, ldy, rows, n, eps, GR, S, slots, g_epoch++, nullptr);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  bool ok = true;
  if (check) { // sampled rows (all when few), every column, against double; the poison around y
    std::vector<__nv_bfloat16> hx((size_t)rows * ldx), hw(2 * n), hy((size_t)rows * ldy + 32);
    CK(cudaMemcpy(hx.data(), x, hx.size() * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hw.data(), w, hw.size() * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hy.data(), ya, hy.size() * 2, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int r = 0; r < rows; r += (rows > 64 ? 37 : 1)) {
      double ss = 0;
      for (long long c = 0; c < 2LL * n; c++) { double v = bf2f(hx[r * ldx + c]); ss += v * v; }
      const double rs = 1.0 / sqrt(ss / (2.0 * n) + eps);
      for (long long c = 0; c < n; c++) {
        const double a = bf2f(hx[r * ldx + c]) * rs * bf2f(hw[c]);
        const double b = bf2f(hx[r * ldx + n + c]) * rs * bf2f(hw[n + c]);
        const double ref = a / (1 + exp(-a)) * b, got = bf2f(hy[xoff + r * ldy + c]);
        const double err = fabs(got - ref) / (1e-2 + fabs(ref));
        if (!(err <= worst)) worst = err;
      }
    }
    for (int c = 0; c < xoff; c++) ok &= ((const unsigned short *)hy.data())[c] == 0xffff;
    for (size_t c = xoff + (size_t)rows * ldy; c < hy.size(); c++) ok &= ((const unsigned short *)hy.data())[c] == 0xffff;
    ok &= worst < 2e-2;
    printf("  check %d x %d (offset %d): worst relative error %.3g, poison %s: %s\n", rows, n, xoff, worst,
           ok ? "intact" : "?", ok ? "ok" : "FAIL");
  }
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  uint4 *fl; u32 *sink; const size_t fb = 256u << 20;
  CK(cudaMalloc(&fl, fb)); CK(cudaMalloc(&sink, 4)); CK(cudaMemset(fl, 1, fb));
  std::vector<float> ts;
  const int reps = 20;
  for (int it = 0; it < reps + 3; it++) {
    flush_read<<<1056, 512>>>(fl, fb / 16, sink);
    CK(cudaEventRecord(e0));
    k<<<NG * GR, THREADS, smem>>>(x, ldx, w, y, ldy, rows, n, eps, GR, S, slots, g_epoch++,
                                  it == reps + 2 ? prof : nullptr);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
    if (it >= 3) ts.push_back(ms * 1e3f);
  }
  std::sort(ts.begin(), ts.end());
  const double bytes = (double)rows * 3.0 * n * 2.0 + 4.0 * n;
  const double us = ts[ts.size() / 2];
  printf("rsw_gw<%d warps, NBW %d, LW %d, DW %d> %5d x %6d: GR %3d x NG %2d, %6zu B smem, %8.1f us median (%.1f best), "
         "%.0f GB/s, %.1f%% of copy%s\n", NW, NBW, LW, DW, rows, n, GR, NG, smem, us, ts[0],
         bytes / us * 1e-3, bytes / us * 1e-3 / copy_gbps * 100, ok ? "" : "  (CHECK FAILED)");
  { // the last rep's per-CTA split (thread 0: its loop, its waits for x's copies and
    // the barrier; warp 0: the scale's wait): min / median / max over the CTAs, us
    std::vector<long long> hp(8 * NG * GR);
    CK(cudaMemcpy(hp.data(), prof, hp.size() * 8, cudaMemcpyDeviceToHost));
    const char *nm[5] = {"loop", "wait x", "wait sums", "barrier", "stale polls"};
    long long t0 = hp[5];
    for (int c = 0; c < NG * GR; c++) t0 = std::min(t0, hp[8 * c + 5]);
    printf("   ");
    for (int f = 0; f < 6; f++) {
      std::vector<long long> v;
      for (int c = 0; c < NG * GR; c++) v.push_back(f == 5 ? hp[8 * c + 5] - t0 : hp[8 * c + f]);
      std::sort(v.begin(), v.end());
      const double sc = f == 4 ? 1.0 : 1e-3;
      printf(" %s %.1f/%.1f/%.1f", f == 5 ? "start" : nm[f], v[0] * sc, v[v.size() / 2] * sc, v.back() * sc);
    }
    printf("\n");
  }
  CK(cudaFree(prof));
  CK(cudaFree(xa)); CK(cudaFree(w)); CK(cudaFree(ya)); CK(cudaFree(slots)); CK(cudaFree(fl)); CK(cudaFree(sink));
}

int main(int argc, char **argv) {
  const size_t cb = 1u << 30;
  char *a, *b; CK(cudaMalloc(&a, cb)); CK(cudaMalloc(&b, cb));
  CK(cudaMemset(a, 1, cb));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  float best = 1e30f;
  for (int i = 0; i < 8; i++) {
    CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(b, a, cb, cudaMemcpyDeviceToDevice)); CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms);
  }
  const double copy = 2.0 * cb / (best * 1e-3) * 1e-9;
  printf("copy rate %.0f GB/s (cudaMemcpy D2D 1 GiB, best of 8)\n", copy);
  CK(cudaFree(a)); CK(cudaFree(b));
  // correctness first: odd and even, offsets, few rows, a slice past n; aligned (vector path)
  run_gw<8, 3, 2>(7, 1001, 132, copy, true, 1);
  run_gw<8, 3, 2>(64, 199999, 132, copy, true, 0);
  run_gw<8, 3, 2>(64, 200000, 66, copy, true, 5);
  run_gw<8, 3, 2>(64, 200000, 132, copy, true, 0);
  run_gw<4, 4, 2>(40, 128256, 44, copy, true, 0);
  // speed: aligned rows (the vector write pass) against odd ones (the scalar one)
  for (int n : {200000, 199999, 151936, 151937, 128256, 128257}) {
    const int rows = n > 140000 ? 512 : 1024;
    run_gw<8, 4, 2>(rows, n, 132, copy, false);
    run_gw<4, 4, 2>(rows, n, 66, copy, false);
  }
  for (int n : {50256, 50257, 32000, 32001}) {
    const int rows = n > 40000 ? 2048 : 4096;
    run_gw<8, 4, 2>(rows, n, 44, copy, false);
    run_gw<8, 4, 2>(rows, n, 33, copy, false);
  }
  for (int n : {18944, 18943}) {
    run_gw<8, 4, 2>(4096, n, 22, copy, false);
  }
  return 0;
}
