// 1-d TMA probe: encode a map of n bf16 elements from base (16-aligned), box B,
// load nbox boxes at coordinates c0 + k*B into smem, copy out, compare.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
struct __align__(64) tmap { unsigned long long v[16]; };
__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__global__ void k(const __grid_constant__ tmap m, int c0, int B, int nbox, unsigned short *out) {
  extern __shared__ __align__(128) unsigned short buf[];
  __shared__ unsigned long long bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)), "r"(nbox * B * 2) : "memory");
    for (int i = 0; i < nbox; i++)
      asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                   ::"r"(sa(buf + i * B)), "l"((unsigned long long)&m), "r"(c0 + i * B), "r"(sa(&bar)) : "memory");
  }
  unsigned ok = 0;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(sa(&bar)) : "memory");
  } while (!ok);
  for (int i = threadIdx.x; i < nbox * B; i += blockDim.x) out[i] = buf[i];
}
int main(int argc, char **argv) {
  long n = atol(argv[1]); int B = atoi(argv[2]); int c0 = atoi(argv[3]); int nbox = atoi(argv[4]);
  int l2 = argc > 5 ? atoi(argv[5]) : 1;
  cudaFree(0);
  unsigned short *d, *o; cudaMalloc(&d, (n + 4096) * 2); cudaMalloc(&o, nbox * B * 2);
  unsigned short *h = (unsigned short *)malloc((n + 4096) * 2);
  for (long i = 0; i < n + 4096; i++) h[i] = (unsigned short)(i * 7 + 1);
  cudaMemcpy(d, h, (n + 4096) * 2, cudaMemcpyHostToDevice);
  tmap m; memset(&m, 0, sizeof m);
  cuuint64_t dims[1] = {(cuuint64_t)n}, str[1] = {0}; cuuint32_t box[1] = {(cuuint32_t)B}, es[1] = {1};
  CUresult r = cuTensorMapEncodeTiled((CUtensorMap *)&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 1, d, dims, str, box, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      l2 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("n=%ld B=%d c0=%d nbox=%d l2=%d: encode %d", n, B, c0, nbox, l2, (int)r);
  if (r) { printf("\n"); return 0; }
  k<<<1, 128, nbox * B * 2>>>(m, c0, B, nbox, o);
  cudaError_t e = cudaDeviceSynchronize();
  printf(" run %s", cudaGetErrorString(e));
  if (e) { printf("\n"); return 0; }
  unsigned short *ho = (unsigned short *)malloc(nbox * B * 2);
  cudaMemcpy(ho, o, nbox * B * 2, cudaMemcpyDeviceToHost);
  long bad = 0, first = -1;
  for (long i = 0; i < (long)nbox * B; i++) {
    long g = c0 + i; unsigned short want = (g >= 0 && g < n) ? h[g] : 0;
    if (ho[i] != want) { bad++; if (first < 0) first = i; }
  }
  printf(" bad %ld (first %ld)\n", bad, first);
  return 0;
}
