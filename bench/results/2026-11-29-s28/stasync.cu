// Minimal check: does compute-sanitizer synccheck handle st.async onto a
// remote mbarrier (the kp_cluster_gather pattern)?  Each CTA of a 16-CTA
// cluster pushes one float to every CTA; each sums them.
#include <cstdio>
#include <cuda_runtime.h>
__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
template <int CL> __global__ void __cluster_dims__(CL, 1, 1) xchg(float *out, int mode) {
  __shared__ __align__(8) unsigned long long bar;
  __shared__ float slot[CL];
  unsigned rank; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  float v = blockIdx.x + 1.f;
  if (mode == 0) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar)));
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    if (threadIdx.x == 0)
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar)), "r"(CL * 4) : "memory");
    if (threadIdx.x < CL)
      asm volatile("{ .reg .b32 ra, rb;\n\tmapa.shared::cluster.u32 ra, %0, %2;\n\tmapa.shared::cluster.u32 rb, %1, %2;\n\t"
                   "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [ra], %3, [rb]; }"
                   ::"r"(sa(&slot[rank])), "r"(sa(&bar)), "r"(threadIdx.x), "r"(__float_as_uint(v)) : "memory");
    unsigned ok = 0;
    do asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                    : "=r"(ok) : "r"(sa(&bar)) : "memory");
    while (!ok);
  } else {
    if (threadIdx.x == 0) slot[rank] = v;
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    if (threadIdx.x == 0) {
      for (int r = 0; r < CL; r++) {
        unsigned long long a;
        asm volatile("mapa.u64 %0, %1, %2;" : "=l"(a) : "l"((unsigned long long)&slot[rank]), "r"(r));
        // read CTA r's own slot[r]
        asm volatile("mapa.u64 %0, %1, %2;" : "=l"(a) : "l"((unsigned long long)&slot[r]), "r"(r));
        slot[0] += 0.f; (void)a;
      }
    }
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    // (mode 1: the same values, read in place)
    if (threadIdx.x == 0) for (int r = 0; r < CL; r++) slot[r] = (blockIdx.x / CL) * CL + r + 1.f;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int r = 0; r < CL; r++) s += slot[r];
    out[blockIdx.x] = s;
  }
}
template <int CL> static int run_cl() {
  const int N = 64 * CL;
  float *d; cudaMalloc(&d, N * 4);
  cudaFuncSetAttribute(xchg<CL>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  int bad = 0;
  for (int mode = 0; mode < 2; mode++) {
    cudaMemset(d, 0, N * 4);
    xchg<CL><<<N, 128>>>(d, mode);
    cudaError_t l = cudaGetLastError(), e = cudaDeviceSynchronize();
    float h[16 * 64]; cudaMemcpy(h, d, N * 4, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int b = 0; b < N; b++) {
      float c = 0; for (int r = 0; r < CL; r++) c += (b / CL) * CL + r + 1.f;
      wrong += h[b] != c;
    }
    printf("cluster %d, mode %d (%s): launch %s, sync %s, %d of %d CTAs wrong\n", CL, mode,
           mode ? "release barrier" : "st.async", cudaGetErrorString(l), cudaGetErrorString(e), wrong, N);
    bad |= l != cudaSuccess || e != cudaSuccess || wrong;
  }
  cudaFree(d);
  return bad;
}
int main() { return run_cl<2>() | run_cl<8>() | run_cl<16>(); }
