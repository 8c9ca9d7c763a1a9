// read_ceiling.cu -- how fast can one kernel read HBM, reading only?
//
// The decode attention at batch 8 reads K and V (1.07 GB at 32K keys, 8 KV
// heads, d128) at about 4.3 TB/s, above the device copy's rate (which reads
// and writes).  Whether it can go faster is a question about the read-only
// ceiling, which this measures over the same 1 GB in three ways: 16-byte
// loads into registers (U in flight a thread), cp.async rings into shared
// memory (the decode's way: S stages of U 16-byte copies a thread) and bulk
// copies onto an mbarrier ring (S stages of B bytes a CTA).  Each CTA reads
// one contiguous share, as the split-KV decode's CTAs do.  L2 is flushed
// before every timed run; the median of the runs is printed, in GB/s.
//
//     nvcc -O3 -arch=sm_90a -o read_ceiling bench/read_ceiling.cu -lcuda && ./read_ceiling [MB]
//
// A benchmark, not part of the build: nvcc is on the GPU machine.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e_ = (x);                                                       \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

__device__ unsigned sink;

// this CTA's share of n 16-byte words: [lo, hi)
__device__ __forceinline__ void share(size_t n, size_t &lo, size_t &hi) {
  lo = blockIdx.x * n / gridDim.x, hi = (blockIdx.x + 1) * n / gridDim.x;
}

template <int U>
__global__ void ldg(const uint4 *__restrict__ p, size_t n) {
  size_t lo, hi;
  share(n, lo, hi);
  unsigned acc = 0;
  const size_t T = blockDim.x;
  size_t i = lo + threadIdx.x;
  for (; i + (U - 1) * T < hi; i += U * T) {
    uint4 v[U];
#pragma unroll
    for (int u = 0; u < U; u++) v[u] = __ldg(p + i + u * T);
#pragma unroll
    for (int u = 0; u < U; u++) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < hi; i += T) acc ^= p[i].x;
  if (acc == 0x12345678u) sink = acc;
}

// S stages of U 16-byte copies a thread, each stage read back by its thread
template <int S, int U>
__global__ void ring(const uint4 *__restrict__ p, size_t n) {
  extern __shared__ uint4 sm[]; // [S][U][T]
  size_t lo, hi;
  share(n, lo, hi);
  const int T = blockDim.x;
  const size_t step = (size_t)U * T, nst = (hi - lo) / step;
  auto issue = [&](size_t st, int s) {
    if (st < nst)
      for (int u = 0; u < U; u++) {
        unsigned d = (unsigned)__cvta_generic_to_shared(sm + (s * U + u) * T + threadIdx.x);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d),
                     "l"(p + lo + st * step + u * T + threadIdx.x) : "memory");
      }
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
  for (int s = 0; s < S - 1; s++) issue(s, s);
  unsigned acc = 0;
  for (size_t st = 0; st < nst; st++) {
    issue(st + S - 1, (int)((st + S - 1) % S));
    asm volatile("cp.async.wait_group %0;" ::"n"(S - 1) : "memory");
    const int s = (int)(st % S);
    for (int u = 0; u < U; u++) acc ^= sm[(s * U + u) * T + threadIdx.x].x;
  }
  if (acc == 0x12345678u) sink = acc;
}

// the mbarrier steps the bulk-copy rings share: S barriers of one arrival
// each (thread 0, then the block's barrier), an arrival expecting `bytes`,
// and a wait for phase `parity`
template <int S>
__device__ void mbar_init_all(unsigned long long *bar) {
  if (threadIdx.x == 0)
    for (int s = 0; s < S; s++)
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"((unsigned)__cvta_generic_to_shared(bar + s)));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
}
__device__ __forceinline__ void mbar_expect(unsigned b, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity) {
  asm volatile("{\n .reg .pred P;\n W: mbarrier.try_wait.parity.shared.b64 P, [%0], %1;\n"
               " @!P bra W;\n}" ::"r"((unsigned)__cvta_generic_to_shared(bar)), "r"(parity) : "memory");
}

// one thread issues S stages of B bytes by bulk copy, each onto its mbarrier;
// warp 0 reads a word of each stage back, then the stage is issued again
template <int S, int B>
__global__ void bulk(const uint4 *__restrict__ p, size_t n) {
  extern __shared__ __align__(128) unsigned char smb[];
  __shared__ __align__(8) unsigned long long bar[S];
  size_t lo, hi;
  share(n, lo, hi);
  const char *base = (const char *)(p + lo);
  const size_t nst = (hi - lo) * 16 / B;
  mbar_init_all<S>(bar);
  auto issue = [&](size_t st) {
    const int s = (int)(st % S);
    unsigned b = (unsigned)__cvta_generic_to_shared(bar + s);
    unsigned d = (unsigned)__cvta_generic_to_shared(smb + (size_t)s * B);
    mbar_expect(b, B);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(d), "l"(base + st * B), "r"(B), "r"(b) : "memory");
  };
  if (threadIdx.x == 0)
    for (size_t st = 0; st < (size_t)S && st < nst; st++) issue(st);
  unsigned acc = 0;
  for (size_t st = 0; st < nst; st++) {
    const int s = (int)(st % S);
    mbar_wait(bar + s, (unsigned)((st / S) & 1));
    acc ^= ((const unsigned *)(smb + (size_t)s * B))[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0 && st + S < nst) issue(st + S);
  }
  if (acc == 0x12345678u) sink = acc;
}

// A GEMM's B at m <= 128: CTA i streams rows [i R, (i + 1) R) of an N x K
// row-major matrix of 16-bit elements, one TMA box of R rows x BW elements a
// stage (as the GEMM's producer loads B, BW = 64: R runs of 128 bytes, a row
// apart), S stages; warp 0 reads a word of each stage back.  What rate does
// that pattern reach, by box width, depth and L2 promotion?
template <int S>
__global__ void band(const __grid_constant__ CUtensorMap map, int R, int K, int bw, int rot) {
  extern __shared__ __align__(128) unsigned char smb[];
  __shared__ __align__(8) unsigned long long bar[S];
  // rot: CTA i starts at box (i rot) % nst and wraps around (the CTAs out of step)
  const int r0 = blockIdx.x * R, nst = K / bw, bytes = R * bw * 2, st0 = blockIdx.x * rot % nst;
  mbar_init_all<S>(bar);
  auto issue = [&](int st) {
    const int s = st % S;
    unsigned b = (unsigned)__cvta_generic_to_shared(bar + s);
    unsigned d = (unsigned)__cvta_generic_to_shared(smb + (size_t)s * bytes);
    mbar_expect(b, bytes);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(d), "l"(&map), "r"((st + st0) % nst * bw), "r"(r0), "r"(b)
                 : "memory");
  };
  if (threadIdx.x == 0)
    for (int st = 0; st < S && st < nst; st++) issue(st);
  unsigned acc = 0;
  for (int st = 0; st < nst; st++) {
    const int s = st % S;
    mbar_wait(bar + s, (unsigned)((st / S) & 1));
    acc ^= ((const unsigned *)(smb + (size_t)s * bytes))[threadIdx.x];
    __syncwarp();
    if (threadIdx.x == 0 && st + S < nst) issue(st + S);
  }
  if (acc == 0x12345678u) sink = acc;
}

static const uint4 *g_p;
static size_t g_n;
static char *g_flush;
static int g_sms;

// median ms of 10 runs of launch() (after 2 warm-ups), each behind an L2 flush
template <class F>
static double median_ms(F launch) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> ts;
  for (int r = 0; r < 12; r++) {
    CK(cudaMemset(g_flush, r, 256u << 20));
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 2) ts.push_back(ms);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

template <class K>
static double timeit(K kern, int ctas_per_sm, int threads, size_t smem) {
  if (smem > 48 * 1024)
    if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kern, threads, smem));
  if (fit < ctas_per_sm) return 0;
  const double ms = median_ms([&] { kern<<<g_sms * ctas_per_sm, threads, smem>>>(g_p, g_n); });
  return g_n * 16.0 / (ms * 1e-3) / 1e9;
}

template <class K>
static void row(const char *name, K kern, int threads, size_t smem) {
  printf("%-26s %5d thr %7zu B smem |", name, threads, smem);
  for (int c = 1; c <= 8; c *= 2) {
    double g = timeit(kern, c, threads, smem);
    if (g > 0) printf(" %d/SM %6.0f", c, g);
    else printf(" %d/SM    n/a", c);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  const size_t mb = argc > 1 ? atol(argv[1]) : 1024;
  cudaDeviceProp pr;
  CK(cudaGetDeviceProperties(&pr, 0));
  g_sms = pr.multiProcessorCount;
  g_n = (mb << 20) / 16;
  uint4 *p;
  CK(cudaMalloc(&p, g_n * 16));
  CK(cudaMemset(p, 1, g_n * 16));
  CK(cudaMalloc(&g_flush, 256u << 20));
  g_p = p;
  printf("%s, %d SMs, %zu MB read, GB/s (median of 10, L2 flushed)\n", pr.name, g_sms, mb);
  { // the copy rate, for reference: bytes read + written
    char *d;
    CK(cudaMalloc(&d, g_n * 8));
    const double ms = median_ms([&] { CK(cudaMemcpyAsync(d, p, g_n * 8, cudaMemcpyDeviceToDevice)); });
    printf("device copy of %zu MB: %.0f GB/s (read + written)\n", mb / 2, g_n * 16.0 / (ms * 1e-3) / 1e9);
    CK(cudaFree(d));
  }
  row("ldg U2", ldg<2>, 256, 0);
  row("ldg U4", ldg<4>, 256, 0);
  row("ldg U8", ldg<8>, 256, 0);
  row("ldg U4 x512", ldg<4>, 512, 0);
  row("ldg U8 x512", ldg<8>, 512, 0);
  row("ldg U4 x1024", ldg<4>, 1024, 0);
  row("cp.async S3 U4 x128", ring<3, 4>, 128, 3 * 4 * 128 * 16);
  row("cp.async S4 U4 x128", ring<4, 4>, 128, 4 * 4 * 128 * 16);
  row("cp.async S3 U8 x128", ring<3, 8>, 128, 3 * 8 * 128 * 16);
  row("cp.async S2 U8 x256", ring<2, 8>, 256, 2 * 8 * 256 * 16);
  row("cp.async S4 U4 x256", ring<4, 4>, 256, 4 * 4 * 256 * 16);
  row("bulk S4 16K x32", bulk<4, 16384>, 32, 4 * 16384);
  row("bulk S8 8K x32", bulk<8, 8192>, 32, 8 * 8192);
  row("bulk S6 16K x32", bulk<6, 16384>, 32, 6 * 16384);
  row("bulk S4 32K x32", bulk<4, 32768>, 32, 4 * 32768);
  row("bulk S12 16K x32", bulk<12, 16384>, 32, 12 * 16384);
  // B of a GEMM at m = 128: N x 4096 (rows of 8 KB), 128 CTAs of N / 128 rows
  for (int N : {14336, 11008}) {
    const int K = 4096, R = N / 128;
    printf("B bands: %d x %d bf16 (%.0f MB), 128 CTAs of %d rows, a TMA box of %d rows x BW a stage\n",
           N, K, N * (double)K * 2 / 1e6, R, R);
    for (int rot : {0, 1, 7, 29})
    for (int prom : {0, 3})
      for (int bw : {64, 256})
        for (int kb : {56, 112, 168}) { // KB of stages a CTA
          const int S = kb * 1024 / (R * bw * 2);
          if (S < 2) continue;
          const int Sk = S <= 2 ? 2 : S <= 3 ? 3 : S <= 4 ? 4 : S <= 6 ? 6 : S <= 8 ? 8 : S <= 12 ? 12 : 16;
          if (Sk != S) continue;
          auto k = S == 2 ? band<2> : S == 3 ? band<3> : S == 4 ? band<4> : S == 6 ? band<6> : S == 8 ? band<8> : S == 12 ? band<12> : band<16>;
          const size_t sm = (size_t)S * R * bw * 2 + 1024;
          if (sm > 227 * 1024) continue;
          CUtensorMap map;
          cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)N}, strides[1] = {(cuuint64_t)K * 2};
          cuuint32_t box[2] = {(cuuint32_t)bw, (cuuint32_t)R}, es[2] = {1, 1};
          CUresult cr = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)g_p, dims,
                                               strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                               CU_TENSOR_MAP_SWIZZLE_NONE, (CUtensorMapL2promotion)prom,
                                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
          if (cr != CUDA_SUCCESS) {
            printf("  encode failed (%d) for BW %d\n", (int)cr, bw);
            continue;
          }
          CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
          const double ms = median_ms([&] { k<<<128, 32, sm>>>(map, R, K, bw, rot); });
          printf("  rot %2d, L2 promotion %d, BW %3d (%3d B a row), %2d stages (%3d KB): %6.1f us, %5.0f GB/s\n", rot, prom,
                 bw, bw * 2, S, kb, ms * 1e3, (double)N * K * 2 / (ms * 1e-3) / 1e9);
        }
  }
  return 0;
}
