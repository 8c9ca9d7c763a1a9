// kp_device.cuh -- the device library every template's kernels use.
//
// The generator pastes this file into each generated source, so a variant's
// source is self-contained (the pack stores it for JIT) and needs no CUDA
// header: NVRTC compiles it in tens of milliseconds.  Everything targets
// sm_80 and newer (cvt.rn.bf16x2 / f16x2).
//
// Contents: storage types and conversions, 16-byte vector loads/stores that
// convert to/from fp32 registers, warp and block reductions, activations.

// KP_COLS_MULT: the generator defines it, ahead of this file, for a variant
// that declares cols_mult (it runs only on rows whose length is a multiple
// of that many elements); the row helpers below then compile no code for
// a partial last vector.
#ifndef KP_COLS_MULT
#define KP_COLS_MULT 1
#endif

typedef unsigned short kp_u16;
typedef unsigned int kp_u32;

struct __align__(2) kp_f16 { kp_u16 bits; };
struct __align__(2) kp_bf16 { kp_u16 bits; };

// ---- scalar conversions -----------------------------------------------------

__device__ __forceinline__ float kp_to_f32(float v) { return v; }
__device__ __forceinline__ float kp_to_f32(kp_bf16 v) {
  return __uint_as_float(((kp_u32)v.bits) << 16);
}
__device__ __forceinline__ float kp_to_f32(kp_f16 v) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
  return f;
}

template <class T> __device__ __forceinline__ T kp_from_f32(float v);
template <> __device__ __forceinline__ float kp_from_f32<float>(float v) { return v; }
template <> __device__ __forceinline__ kp_bf16 kp_from_f32<kp_bf16>(float v) {
  kp_bf16 r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r.bits) : "f"(v));
  return r;
}
template <> __device__ __forceinline__ kp_f16 kp_from_f32<kp_f16>(float v) {
  kp_f16 r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r.bits) : "f"(v));
  return r;
}

// ---- programmatic dependent launch (sm_90+) ----------------------------------
//
// A row or GEMM kernel launched with PDL (kp_ctx_set_pdl; runtime/launch.c)
// may start while the kernel before it in the stream still runs.
// kp_grid_wait() returns once that kernel has completed and its writes are
// visible: every such kernel calls it before its first global access, loads
// and stores alike (the kernel before may still read what we overwrite);
// GEMM's as its first statement, without the early trigger below (gemm.lua).
// kp_grid_launch_dependents() lets the next PDL launch in the stream start
// its blocks (its own kp_grid_wait still waits for all of this grid).
// kp_grid_begin(), the row kernels' first statement, calls it before the
// wait: the next kernel's launch then starts as soon as every block of this
// one has begun, even while this one still waits for the kernel before it,
// so that in a chain of short kernels (a decode step's) each launch hides
// under more than one kernel's work.  Nothing is read or written before a
// kernel's own wait, so a grid that starts early only waits; its blocks take
// slots only once every block of the grid before it is resident.  (The
// launch after the wait, until 2026-11-26, hid a launch under one kernel:
// PDL saved 4-18% a call in bench/pdl_bench.py's chain, H100.)
// RoPE and SwiGLU's column chunks trigger at entry but wait later, once
// their index arithmetic is done (kp_grid_dep below): under PDL it runs in
// the previous kernel's tail (the decode chain with PDL 1.31 -> 1.23 us a
// call at 16 tokens, 2.21 -> 2.00 at 128 on an H200, bench/NOTES.md 71).
// Without the launch attribute both are no-ops; below sm_90 they compile to
// nothing (the runtime launches only sm_90+ code with the attribute).
__device__ __forceinline__ void kp_grid_wait() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void kp_grid_launch_dependents() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void kp_grid_begin() {
  kp_grid_launch_dependents();
  kp_grid_wait();
}
// kp_grid_dep(x): x is computed before the next kp_grid_wait() (an empty
// volatile asm that takes it, ordered before the wait's): a kernel whose
// entry only triggers does its index arithmetic -- never a global access --
// ahead of its wait, so that under PDL it runs in the previous kernel's tail.
__device__ __forceinline__ void kp_grid_dep(const void *x) { asm volatile("" ::"l"(x)); }
__device__ __forceinline__ void kp_grid_dep(long long x) { asm volatile("" ::"l"(x)); }

// A 32-bit word of T's -inf: two 16-bit values, or one f32 (a pad pattern
// for kp_group_load).
// (enums, not static constexpr members: those become global variables)
template <class T> struct kp_bits;
template <> struct kp_bits<float> { enum : kp_u32 { NEG_INF = 0xff800000u }; };
template <> struct kp_bits<kp_bf16> { enum : kp_u32 { NEG_INF = 0xff80ff80u }; };
template <> struct kp_bits<kp_f16> { enum : kp_u32 { NEG_INF = 0xfc00fc00u }; };
template <class T> struct kp_is_bf16 { enum { value = 0 }; };
template <> struct kp_is_bf16<kp_bf16> { enum { value = 1 }; };

// ---- packed pairs: one 32-bit word <-> two floats ----------------------------

template <class T> struct kp_pair;
template <> struct kp_pair<kp_bf16> {
  static __device__ __forceinline__ void unpack(kp_u32 w, float &lo, float &hi) {
    lo = __uint_as_float(w << 16);
    hi = __uint_as_float(w & 0xffff0000u);
  }
  static __device__ __forceinline__ kp_u32 pack(float lo, float hi) {
    kp_u32 w;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(hi), "f"(lo));
    return w;
  }
};
template <> struct kp_pair<kp_f16> {
  static __device__ __forceinline__ void unpack(kp_u32 w, float &lo, float &hi) {
    asm("{ .reg .f16 l, h;\n\t mov.b32 {l, h}, %2;\n\t cvt.f32.f16 %0, l;\n\t cvt.f32.f16 %1, h; }"
        : "=f"(lo), "=f"(hi) : "r"(w));
  }
  static __device__ __forceinline__ kp_u32 pack(float lo, float hi) {
    kp_u32 w;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(hi), "f"(lo));
    return w;
  }
};

// ---- vectors of N elements held as floats -------------------------------------
//
// kp_load<T, N>(p, v): N consecutive elements at p (aligned to N*sizeof(T),
// at most 16 bytes) into fp32 registers, in as few loads as possible.
// kp_store<T, N>(p, v): the reverse, rounding to nearest even.
// The _cs forms stream past L1/L2 (data that is read or written once).

template <int BYTES> struct kp_raw;
template <> struct kp_raw<16> { typedef uint4 t; };
template <> struct kp_raw<8> { typedef uint2 t; };
template <> struct kp_raw<4> { typedef kp_u32 t; };

template <class T, int N> struct kp_vec_io {
  enum { BYTES = N * (int)sizeof(T), WORDS = BYTES / 4 };
  typedef typename kp_raw<BYTES>::t raw;
  static __device__ __forceinline__ void from_words(const kp_u32 *w, float *v) {
    if constexpr (sizeof(T) == 4) {
#pragma unroll
      for (int i = 0; i < N; i++) v[i] = __uint_as_float(w[i]);
    } else {
#pragma unroll
      for (int i = 0; i < WORDS; i++) kp_pair<T>::unpack(w[i], v[2 * i], v[2 * i + 1]);
    }
  }
  static __device__ __forceinline__ void to_words(const float *v, kp_u32 *w) {
    if constexpr (sizeof(T) == 4) {
#pragma unroll
      for (int i = 0; i < N; i++) w[i] = __float_as_uint(v[i]);
    } else {
#pragma unroll
      for (int i = 0; i < WORDS; i++) w[i] = kp_pair<T>::pack(v[2 * i], v[2 * i + 1]);
    }
  }
};

// One element (N == 1, or 2-byte types in a 2-byte slot).
template <class T> __device__ __forceinline__ float kp_load1(const T *p) { return kp_to_f32(*p); }
template <class T> __device__ __forceinline__ void kp_store1(T *p, float v) { *p = kp_from_f32<T>(v); }

template <class T, int N> __device__ __forceinline__ void kp_load(const T *p, float *v) {
  if constexpr (N * sizeof(T) < 4) {
#pragma unroll
    for (int i = 0; i < N; i++) v[i] = kp_load1(p + i);
  } else {
    typedef kp_vec_io<T, N> io;
    union { typename io::raw r; kp_u32 w[io::WORDS]; } u;
    u.r = *reinterpret_cast<const typename io::raw *>(p);
    io::from_words(u.w, v);
  }
}

// A 16-byte store to global memory at p (16-byte aligned), kept whole.  A
// plain uint4 store through an element pointer sometimes reached NVRTC's
// code as four 4-byte stores (NVVM took the packed vector's union apart and
// did not put the store back together): four partial-sector writes, four
// times the L2 write requests.  No "memory" clobber: no caller reads back
// through global memory what it stored this way.  Opt-in (kp_store16): as
// asm volatile it keeps its place among the hinted loads' asm, and where
// the plain store was whole already it only moved the schedule -- slower
// in some kernels, spills at register caps in others (bench/NOTES.md 83).
__device__ __forceinline__ void kp_st16(void *p, uint4 r) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(r.x), "r"(r.y), "r"(r.z),
               "r"(r.w));
}
// kp_st16 where ST16 (measured to pay there), else the plain store.
template <bool ST16> __device__ __forceinline__ void kp_store16(void *p, uint4 r) {
  if constexpr (ST16) kp_st16(p, r);
  else *reinterpret_cast<uint4 *>(p) = r;
}

template <class T, int N> __device__ __forceinline__ void kp_store(T *p, const float *v) {
  if constexpr (N * sizeof(T) < 4) {
#pragma unroll
    for (int i = 0; i < N; i++) kp_store1(p + i, v[i]);
  } else {
    typedef kp_vec_io<T, N> io;
    union { typename io::raw r; kp_u32 w[io::WORDS]; } u;
    io::to_words(v, u.w);
    *reinterpret_cast<typename io::raw *>(p) = u.r;
  }
}

// Cache-hinted 16-byte loads, the forms Triton emits for its eviction
// policies: H = 1 evict-first in L1 and L2 (data read once), H = 2
// evict-last (data every block re-reads, such as a norm's weight); H = 3 the
// streaming form (ld.global.nc without L1 allocation); H = 0 is a plain
// load.  The L2 policy comes from createpolicy (sm_80+).
template <int H> __device__ __forceinline__ uint4 kp_ld16_hint(const void *p) {
  uint4 r;
  if constexpr (H == 1) {
    asm volatile("{ .reg .b64 pol;\n\t"
                 "createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\n\t"
                 "ld.global.L1::evict_first.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], pol; }"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  } else if constexpr (H == 2) {
    asm volatile("{ .reg .b64 pol;\n\t"
                 "createpolicy.fractional.L2::evict_last.b64 pol, 1.0;\n\t"
                 "ld.global.L1::evict_last.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], pol; }"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  } else if constexpr (H == 3) {
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  } else {
    r = *reinterpret_cast<const uint4 *>(p);
  }
  return r;
}
template <class T, int N, int H> __device__ __forceinline__ void kp_load_h(const T *p, float *v) {
  if constexpr (H != 0 && N * sizeof(T) == 16) {
    typedef kp_vec_io<T, N> io;
    union { uint4 r; kp_u32 w[4]; } u;
    u.r = kp_ld16_hint<H>(p);
    io::from_words(u.w, v);
  } else {
    kp_load<T, N>(p, v);
  }
}

// A row's last, partial 16-byte vector: the first nb bytes (nb < 16, a
// multiple of the element size) at 16-byte aligned p, the rest read as
// zero, in at most three pieces of 8, 4 and 2 bytes whose loads are all in
// flight together.  One guarded access per element instead was half of a
// row kernel's code, and of its first-use compile time.
__device__ __forceinline__ uint4 kp_ld16_part(const void *p, int nb) {
  const char *b = (const char *)p;
  const int o4 = nb & 8, o2 = nb & 12; // where the 4- and the 2-byte piece start
  uint2 q = make_uint2(0u, 0u);
  kp_u32 d = 0u, h = 0u;
  if (nb & 8) q = *reinterpret_cast<const uint2 *>(b);
  if (nb & 4) d = *reinterpret_cast<const kp_u32 *>(b + o4);
  if (nb & 2) h = *reinterpret_cast<const kp_u16 *>(b + o2);
  uint4 r;
  r.x = q.x | (o4 == 0 ? d : 0u) | (o2 == 0 ? h : 0u);
  r.y = q.y | (o2 == 4 ? h : 0u);
  r.z = (o4 == 8 ? d : 0u) | (o2 == 8 ? h : 0u);
  r.w = o2 == 12 ? h : 0u;
  return r;
}
// Its twin: store the first nb bytes of r at p.
__device__ __forceinline__ void kp_st16_part(void *p, uint4 r, int nb) {
  char *b = (char *)p;
  const int o4 = nb & 8, o2 = nb & 12;
  if (nb & 8) *reinterpret_cast<uint2 *>(b) = make_uint2(r.x, r.y);
  if (nb & 4) *reinterpret_cast<kp_u32 *>(b + o4) = o4 ? r.z : r.x;
  if (nb & 2)
    *reinterpret_cast<kp_u16 *>(b + o2) =
        (kp_u16)(o2 == 0 ? r.x : o2 == 4 ? r.y : o2 == 8 ? r.z : r.w);
}

// ---- rows at any residue mod 16 bytes: per-row peeling ------------------------
//
// A peeling variant (its `align` is the element size) puts its column grid on
// the output row's 16-byte boundaries: the row's first kp_head(yr, n)
// elements (those before that boundary, fewer than 16 / sizeof(T)) are done
// one per lane, the rest as 16-byte vectors from yr + h, whole and partial
// as in an aligned row.  An input row at the output's residue mod 16 (the
// common case: x, y contiguous with one row stride) loads its vectors as an
// aligned row does; one at another residue (a norm's weight under rows of
// odd length; views offset differently) takes kp_ld16_shift for its whole
// vectors and element loads for its partial one.  `al` (kp_al16 of the
// input at the grid's first column) says which, once per row: a uniform
// branch, so an aligned row pays a compare per vector.
template <class T> __device__ __forceinline__ int kp_head(const T *p, long long n) {
  const int r = (int)((unsigned long long)p & 15);
  const int h = r ? (16 - r) / (int)sizeof(T) : 0; // p is element-aligned (the runtime checks)
  return n < h ? (int)n : h;
}
__device__ __forceinline__ bool kp_al16(const void *p) {
  return ((unsigned long long)p & 15) == 0;
}
// The 16 bytes at p (element-aligned, not 16-byte aligned, all 16 inside the
// tensor): the 4-byte words holding them, and for 2-byte elements off the
// 4-byte grid a byte permute of each two neighbours.  The words' addresses
// do what a shift across two aligned vectors did with a dozen selects (the
// word the result starts at); they read at most 2 bytes past p + 16, inside
// the same 4-byte word.  Five 4-byte loads take more L1 wavefronts than two
// 16-byte ones; these inputs (a norm's weight, rows at another residue than
// the output's) are L1 hits or read once.
__device__ __forceinline__ uint4 kp_ld16_shift(const void *p) {
  const unsigned long long a = (unsigned long long)p;
  const kp_u32 *b = reinterpret_cast<const kp_u32 *>(a & ~3ull);
  const bool half = (a & 2) != 0;
  const kp_u32 w0 = b[0], w1 = b[1], w2 = b[2], w3 = b[3], w4 = half ? b[4] : 0u;
  const kp_u32 s = half ? 0x5432u : 0x3210u; // bytes 2..5 of each pair, or its first word
  return make_uint4(__byte_perm(w0, w1, s), __byte_perm(w1, w2, s), __byte_perm(w2, w3, s),
                    __byte_perm(w3, w4, s));
}
// The first cnt (< 16 / sizeof(T)) elements at p, any alignment, one load
// each, as a 16-byte vector whose other bytes are the pad pattern.
template <class T> __device__ __forceinline__ uint4 kp_ld16_elems(const T *p, int cnt, kp_u32 pad) {
  union { uint4 r; kp_u32 w[4]; kp_u16 h[8]; } u;
  u.r = make_uint4(pad, pad, pad, pad);
#pragma unroll
  for (int i = 0; i < 16 / (int)sizeof(T) - 1; i++)
    if (i < cnt) {
      if constexpr (sizeof(T) == 2) u.h[i] = reinterpret_cast<const kp_u16 *>(p)[i];
      else u.w[i] = reinterpret_cast<const kp_u32 *>(p)[i];
    }
  return u.r;
}
// r unchanged, its registers opaque where T is bf16: a packed row held
// across a reduction stays packed, unpacked again where it is used --
// bf16's unpack (an integer op an element) was otherwise hoisted out of the
// write pass and held as floats across the reduction: RMSNorm's 256 x 2
// block took 40 registers to f16's 32 (6 blocks an SM, not 8; bench/NOTES.md
// 89).  Not f16 (its registers were already f32's; held packed, RMSNorm+
// SwiGLU's peeling blocks spilled on sm_80-89) nor f32 (nothing to unpack).
template <class T> __device__ __forceinline__ void kp_keep(uint4 &r) {
  if constexpr (kp_is_bf16<T>::value)
    asm volatile("" : "+r"(r.x), "+r"(r.y), "+r"(r.z), "+r"(r.w));
}
template <class T> __device__ __forceinline__ void kp_keep(float &) {}
// Elements i0 <= i < i1 of the packed vector r stored one by one at p + i
// (a row's partial end chunk: p its 16-byte chunk)
template <class T> __device__ __forceinline__ void kp_st16_range(T *p, uint4 r, int i0, int i1) {
  union { uint4 r; kp_u32 w[4]; kp_u16 h[8]; } u;
  u.r = r;
#pragma unroll
  for (int i = 0; i < 16 / (int)sizeof(T); i++)
    if (i >= i0 && i < i1) {
      if constexpr (sizeof(T) == 2) reinterpret_cast<kp_u16 *>(p)[i] = u.h[i];
      else reinterpret_cast<kp_u32 *>(p)[i] = u.w[i];
    }
}
// kp_ld16_elems's twin for an output at another residue than the grid's:
// the first cnt (<= 16 / sizeof(T)) elements of the packed vector r stored
// one by one.
template <class T> __device__ __forceinline__ void kp_st16_elems(T *p, uint4 r, int cnt) {
  kp_st16_range(p, r, 0, cnt);
}
// The 16 bytes from byte `off` (0..15) of the 32 bytes a, b (two neighbouring
// 16-byte chunks): the five words that hold them picked by off / 4 (selects:
// off is uniform where it is a row's or an image's residue), then a byte
// permute of each two neighbours for off % 4.
__device__ __forceinline__ uint4 kp_shift16(uint4 a, uint4 b, kp_u32 off) {
  const kp_u32 w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  kp_u32 v[6], u[5];
#pragma unroll
  for (int j = 0; j < 6; j++) v[j] = (off & 8) ? w[j + 2] : w[j];
#pragma unroll
  for (int j = 0; j < 5; j++) u[j] = (off & 4) ? v[j + 1] : v[j];
  const kp_u32 s = 0x3210u + (off & 3) * 0x1111u;
  return make_uint4(__byte_perm(u[0], u[1], s), __byte_perm(u[1], u[2], s),
                    __byte_perm(u[2], u[3], s), __byte_perm(u[3], u[4], s));
}
// kp_shift16 with `off` known at compile time: the selects become the choice
// of registers, and a byte permute a word is left only off the 4-byte grid
template <int OFF> __device__ __forceinline__ uint4 kp_shift16c(uint4 a, uint4 b) {
  const kp_u32 w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  constexpr int q = OFF / 4;
  constexpr kp_u32 s = 0x3210u + (OFF & 3) * 0x1111u;
  if constexpr ((OFF & 3) == 0) return make_uint4(w[q], w[q + 1], w[q + 2], w[q + 3]);
  else
    return make_uint4(__byte_perm(w[q], w[q + 1], s), __byte_perm(w[q + 1], w[q + 2], s),
                      __byte_perm(w[q + 2], w[q + 3], s), __byte_perm(w[q + 3], w[q + 4], s));
}
// kp_ld16_shift's twin where the 16-byte chunk after p's is inside the
// tensor too (the caller knows: 16 more bytes of the row follow the vector):
// the two aligned chunks that hold the vector, two 16-byte loads -- a
// warp's five 4-byte loads at a 16-byte stride took 20 L1 wavefronts, these
// take 9 -- and kp_shift16.
template <int H> __device__ __forceinline__ uint4 kp_ld16_shift2(const void *p) {
  const unsigned long long a = (unsigned long long)p;
  const char *c = reinterpret_cast<const char *>(a & ~15ull);
  return kp_shift16(kp_ld16_hint<H>(c), kp_ld16_hint<H>(c + 16), (kp_u32)(a & 15));
}
// A whole 16-byte vector of an input that is (al) or is not at the grid's
// residue; wide: the 16 bytes after the vector are in the tensor too.
template <int H> __device__ __forceinline__ uint4 kp_ld16_al(const void *p, bool al,
                                                           bool wide = false) {
  return al ? kp_ld16_hint<H>(p) : wide ? kp_ld16_shift2<H>(p) : kp_ld16_shift(p);
}

// Load N elements starting at element `c` of a row of `cols`, filling the
// ones past the end with `pad`: a full vector when it fits, else the part
// that is in the row (kp_ld16_part for 16-byte vectors, else one by one).
// al: whether row + c is 16-byte aligned where N * sizeof(T) == 16 (per-row
// peeling, above); else the whole vector comes through kp_ld16_shift.
template <class T, int N>
__device__ __forceinline__ void kp_load_tail(const T *row, long long c, long long cols, float pad,
                                             float *v, bool al = true) {
  if (c + N <= cols) {
    if constexpr (N * sizeof(T) == 16) {
      union { uint4 r; kp_u32 w[4]; } u;
      u.r = kp_ld16_al<0>(row + c, al);
      kp_vec_io<T, N>::from_words(u.w, v);
    } else {
      kp_load<T, N>(row + c, v);
    }
  } else if constexpr (KP_COLS_MULT % N == 0) {
#pragma unroll
    for (int i = 0; i < N; i++) v[i] = pad; // (a whole-rows variant: past the row)
  } else if constexpr (N * sizeof(T) == 16 && sizeof(T) == 2) { // (f32: 4 loads, as cheap)
    const int in_row = c < cols ? (int)(cols - c) : 0; // < N
    union { uint4 r; kp_u32 w[4]; } u;
    u.r = al ? kp_ld16_part(row + c, in_row * (int)sizeof(T)) : kp_ld16_elems(row + c, in_row, 0u);
    kp_vec_io<T, N>::from_words(u.w, v);
#pragma unroll
    for (int i = 0; i < N; i++) v[i] = i < in_row ? v[i] : pad;
  } else {
#pragma unroll
    for (int i = 0; i < N; i++) v[i] = (c + i < cols) ? kp_load1(row + c + i) : pad;
  }
}
template <class T, int N, class I>
__device__ __forceinline__ void kp_store_part(T *row, I c, I n, const float *v, bool al = true);
template <class T, int N>
__device__ __forceinline__ void kp_store_tail(T *row, long long c, long long cols, const float *v) {
  kp_store_part<T, N, long long>(row, c, cols, v);
}

// ---- a weight at every residue: the persistent warp rows (`_ws`) ---------------
//
// Rows of odd length put a norm's weight at every residue against the row's
// grid in turn, and a shifted 16-byte load of it costs five loads and four
// byte permutes.  A CTA that takes many rows stages w once as VEC = 16 /
// sizeof(T) images of K 16-byte chunks, image h holding w's elements from h
// on (zeros past cols): a row whose grid starts h elements in reads w's
// vector j as img[h K + j], one aligned shared-memory load.  Built from w's
// aligned chunks by kp_shift16c, or element by element where w is off the
// 16-byte grid.  THREADS: the CTA's threads, all of which call it; the
// caller synchronises before the first read.
template <int ES, int H = 1>
__device__ __forceinline__ void kp_wimg_fill(uint4 *img, int K, int k, uint4 a, uint4 b) {
  if constexpr (H * ES < 16) {
    img[H * K + k] = kp_shift16c<H * ES>(a, b);
    kp_wimg_fill<ES, H + 1>(img, K, k, a, b);
  }
}
template <class T, int THREADS>
__device__ __forceinline__ void kp_wimg_stage(uint4 *img, const T *__restrict__ w, int cols, int K) {
  constexpr int VEC = 16 / (int)sizeof(T), ES = (int)sizeof(T);
  const int t = threadIdx.x;
  auto wchunk = [&](int k) { // w's elements [VEC k, VEC k + VEC), zeros past cols (w aligned)
    const int e0 = k * VEC;
    return e0 + VEC <= cols ? kp_ld16_hint<0>(w + e0)
           : e0 < cols      ? kp_ld16_elems<T>(w + e0, cols - e0, 0u)
                            : make_uint4(0u, 0u, 0u, 0u);
  };
  if (kp_al16(w)) {
    for (int k = t; k < K; k += THREADS) {
      const uint4 a = wchunk(k), b = wchunk(k + 1);
      img[k] = a;
      kp_wimg_fill<ES>(img, K, k, a, b);
    }
  } else {
    for (int i = t; i < VEC * K; i += THREADS) {
      const int e0 = i / K + (i % K) * VEC;
      union { uint4 r; kp_u16 h[8]; kp_u32 e[4]; } u;
      u.r = make_uint4(0u, 0u, 0u, 0u);
#pragma unroll
      for (int j = 0; j < VEC; j++)
        if (e0 + j < cols) {
          if constexpr (ES == 2) u.h[j] = reinterpret_cast<const kp_u16 *>(w)[e0 + j];
          else u.e[j] = reinterpret_cast<const kp_u32 *>(w)[e0 + j];
        }
      img[i] = u.r;
    }
  }
}

// ---- reductions ----------------------------------------------------------------

__device__ __forceinline__ float kp_warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float kp_warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Block-wide reductions for THREADS (a multiple of 32) threads; every thread
// gets the result.  `scratch` is 32 floats of shared memory; the trailing
// barrier makes it safe to call again with the same scratch.
template <int THREADS>
__device__ __forceinline__ float kp_block_sum(float v, float *scratch) {
  v = kp_warp_sum(v);
  if (THREADS == 32) return v;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = lane < THREADS / 32 ? scratch[lane] : 0.f;
  v = kp_warp_sum(v);
  __syncthreads();
  return v;
}
template <int THREADS>
__device__ __forceinline__ float kp_block_max(float v, float *scratch) {
  v = kp_warp_max(v);
  if (THREADS == 32) return v;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = lane < THREADS / 32 ? scratch[lane] : -__int_as_float(0x7f800000);
  v = kp_warp_max(v);
  __syncthreads();
  return v;
}

// ---- raw vectors: loaded, kept packed, unpacked at the use ----------------------
//
// How a thread holds VEC elements from their load to their use: with
// VEC * sizeof(T) == 16, the 16 bytes as loaded (4 registers, also for 8
// 16-bit elements), unpacked to floats at the use; with VEC == 1, a float.
// Both branches of a guarded load yield the raw form, so a step's loads are
// all in flight together (a branch that produced floats would wait for its
// load inside the branch), and a 16-bit row takes half the registers.
// Elements at or past `n` read as 0.  I: int or long long.
// H: the cache hint of the whole-vector loads (kp_ld16_hint).
template <class T, int VEC, int H = 0> struct kp_raw_io {
  typedef uint4 raw;
  // al: row + c at the grid's residue (per-row peeling, above)
  template <class I>
  static __device__ __forceinline__ raw load(const T *row, I c, I n, bool al = true) {
    union { uint4 r; kp_u32 w[4]; } u;
    if (c + VEC <= n) {
      u.r = kp_ld16_al<H>(row + c, al);
    } else if (KP_COLS_MULT % VEC == 0) {
      u.r = make_uint4(0u, 0u, 0u, 0u);
    } else {
      const int in_row = c < n ? (int)(n - c) : 0;
      u.r = al ? kp_ld16_part(row + c, in_row * (int)sizeof(T)) : kp_ld16_elems(row + c, in_row, 0u);
    }
    return u.r;
  }
  // Rows of a multiple of VEC (an alignment the runtime checks): whole
  // vectors only, one past the row's end reads as 0.
  template <class I>
  static __device__ __forceinline__ raw load_whole(const T *row, I c, I n, bool al = true) {
    return c + VEC <= n ? kp_ld16_al<H>(row + c, al) : make_uint4(0u, 0u, 0u, 0u);
  }
  static __device__ __forceinline__ void unpack(raw r, float *v) {
    union { uint4 r; kp_u32 w[4]; } u;
    u.r = r;
    kp_vec_io<T, VEC>::from_words(u.w, v);
  }
  // v rounded to T, packed: what is stored, and (unpacked) what a load of it gives
  static __device__ __forceinline__ raw pack(const float *v) {
    union { uint4 r; kp_u32 w[4]; } u;
    kp_vec_io<T, VEC>::to_words(v, u.w);
    return u.r;
  }
};
template <class T, int H> struct kp_raw_io<T, 1, H> {
  typedef float raw;
  template <class I>
  static __device__ __forceinline__ raw load(const T *row, I c, I n, bool = true) {
    return c < n ? kp_load1(row + c) : 0.f;
  }
  template <class I>
  static __device__ __forceinline__ raw load_whole(const T *row, I c, I n, bool = true) {
    return load(row, c, n);
  }
  static __device__ __forceinline__ void unpack(raw r, float *v) { v[0] = r; }
  static __device__ __forceinline__ raw pack(const float *v) {
    return kp_to_f32(kp_from_f32<T>(v[0]));
  }
};

// A row's weight held in registers across rows at one residue (the norms'
// `_rw` / `_rs` warp rows: a warp takes rows 8 apart, so that where the row
// strides agree mod 16 bytes every one of its rows sits at one residue; odd
// lengths put w at another residue than the row on most rows, and its
// shifted loads were most of add+RMSNorm's load requests at odd 1001,
// bench/NOTES.md 92).  get(): the lane's vectors (columns lane * VEC + n *
// S of w past the row's head), its head element (lane < head) and tail
// element (lane < nt), loaded only where the row's head count differs from
// the last row's -- w's residue against the row's grid, nw and nt follow
// from it (one row length).  SM: the vectors in shared memory instead (sm:
// the lane's first, its others 32 apart; each lane reads what it wrote),
// the registers left to the rows (4 vectors a lane: 80 registers, 24 warps
// an SM, with them in registers).
template <class T, int VEC, int NV, int S, int H = 0, bool SM = false> struct kp_wrow {
  typedef kp_raw_io<T, VEC, H> io;
  typedef typename io::raw raw;
  raw v[SM ? 1 : NV];
  raw *sm = nullptr;
  float h = 0.f, t = 0.f;
  int key = -1;
  __device__ __forceinline__ raw vec(int n) const { return SM ? sm[n * 32] : v[n]; }
  __device__ __forceinline__ void get(const T *w, int head, int nw, int nt, int lane) {
    if (head == key) return;
    key = head;
    const bool al = kp_al16(w);
#pragma unroll
    for (int n = 0; n < NV; n++) {
      const raw r = io::load_whole(w, lane * VEC + n * S, nw, al);
      if constexpr (SM) sm[n * 32] = r;
      else v[n] = r;
    }
    h = lane < head ? kp_load1(w - head + lane) : 0.f;
    t = lane < nt ? kp_load1(w + nw + lane) : 0.f;
  }
};

// The row-in-registers kernels' rows (rmsnorm_regs, add_rmsnorm_regs): the
// group's row, row(r, wc) -- or (RW > 1; `_rw` / `_rs`, a warp a row, 8 warps
// a block) RW rows 8 apart, w kept in wc (kp_wrow; WSM: in shared memory,
// each warp's own) while their residue stays.
template <class T, int VEC, int NV, int LANES, int ROWS_PER_BLOCK, int CL, int RW, int WH,
          bool WSM, class F>
__device__ __forceinline__ void kp_wrows(int rows, F row) {
  const int sub = ROWS_PER_BLOCK == 1 ? 0 : threadIdx.x / LANES;
  const long long row0 = (long long)(blockIdx.x / CL) * ROWS_PER_BLOCK * RW + sub;
  kp_wrow<T, VEC, NV, LANES * VEC, WH, WSM> wc;
  if constexpr (WSM) {
    __shared__ uint4 kp_wsm[ROWS_PER_BLOCK][NV][32];
    wc.sm = &kp_wsm[sub][0][threadIdx.x % 32];
  }
  if constexpr (RW == 1) {
    row(row0, wc);
  } else {
    static_assert(LANES == 32 && ROWS_PER_BLOCK % 8 == 0, "rows 8 apart, a warp each");
#pragma unroll 1
    for (int j = 0; j < RW && row0 + (long long)j * ROWS_PER_BLOCK < rows; j++)
      row(row0 + (long long)j * ROWS_PER_BLOCK, wc);
  }
}

// Store N elements at column c of a row of n: whole when they fit, else one
// by one up to the row end.  I: int or long long (kp_store_tail's twin for
// index types other than long long).
// al == false: row + c is not at the grid's residue (per-row peeling):
// element by element.
template <class T, int N, class I>
__device__ __forceinline__ void kp_store_part(T *row, I c, I n, const float *v, bool al) {
  if (!al) {
#pragma unroll
    for (int i = 0; i < N; i++)
      if (c + i < n) kp_store1(row + c + i, v[i]);
  } else if (c + N <= n) {
    kp_store<T, N>(row + c, v);
  } else if constexpr (KP_COLS_MULT % N == 0) {
    // (a whole-rows variant: nothing of this vector is in the row)
  } else if constexpr (N * sizeof(T) == 16) {
    if (c < n) {
      union { uint4 r; kp_u32 w[4]; } u;
      kp_vec_io<T, N>::to_words(v, u.w);
      kp_st16_part(row + c, u.r, (int)(n - c) * (int)sizeof(T));
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; i++)
      if (c + i < n) kp_store1(row + c + i, v[i]);
  }
}

// ---- vector groups: whole vectors in the unrolled loops, the partial one once --
//
// A thread's U vectors of VEC elements at columns c + k*S, k < U, of a row of
// n columns (S a multiple of VEC), held raw as kp_raw_io holds them.  With
// 16-byte vectors, columns are multiples of VEC from a 16-byte aligned row
// start, so of all the row's vectors only the one at column n - n % VEC can
// be partial, and at most one thread holds it.  The unrolled loops load and
// store whole vectors under one guard each; the partial vector's pieces
// (kp_ld16_part, kp_st16_part) are compiled once, outside them, and merged
// by selects.  A guarded three-piece access per vector instead was half of
// a row kernel's code, and of its first-use compile time (NVRTC's time
// grows with code size).  VEC == 1 (a float per element) has no partial
// vector; its elements past the row read as 0.
// (Its column n - n % VEC and bytes (n % VEC) * sizeof(T) are recomputed
// where used, not kept: at a 32-register cap three more live values spilled.)
struct kp_part {
  int k;       // which of the U vectors is the row's partial one; -1: none
  long long n; // the row's length
};
template <class T, int VEC, int S, int U>
__device__ __forceinline__ kp_part kp_part_of(long long c, long long n) {
  kp_part p;
  const int r = KP_COLS_MULT % VEC == 0 ? 0 : (int)(n % VEC);
  const long long d = n - r - c;
  p.k = (r != 0 && d >= 0 && d < (long long)U * S && d % S == 0) ? (int)(d / S) : -1;
  p.n = n;
  return p;
}

// A loop kernel's steps take whole vectors (kp_raw_io::load_whole) and do
// the row's partial vector after the loop: kp_part_of<T, VEC, S, KP_ALL>(c0,
// n) says whether this thread holds it at any step (k >= 0).
#define KP_ALL (1 << 20)

// The bytes of r from nb on set to the pad pattern (a 32-bit word of two
// 16-bit, or one 32-bit, pad values; e.g. kp_bits<T>::NEG_INF for a max).
__device__ __forceinline__ uint4 kp_pad_from(uint4 r, int nb, kp_u32 pad) {
  const kp_u32 hi = pad & 0xffff0000u; // a 16-bit pad in a word's upper half
  r.x = nb == 2 ? r.x | hi : r.x;
  r.y = nb <= 4 ? pad : nb == 6 ? r.y | hi : r.y;
  r.z = nb <= 8 ? pad : nb == 10 ? r.z | hi : r.z;
  r.w = nb <= 12 ? pad : nb == 14 ? r.w | hi : r.w;
  return r;
}

// Loads, for 16-byte vectors: the partial vector (pad-filled past the row),
// or all pad where this thread holds none (kp_part_load); then vector by
// vector: whole ones loaded, the partial one (is_part) that, others (past
// the row) pad (kp_vec_load).  H: the whole loads' cache hint.
// al: the row at the grid's residue (per-row peeling, above).
template <class T, int VEC>
__device__ __forceinline__ uint4 kp_part_load(const T *row, const kp_part &p, kp_u32 pad,
                                              bool al = true) {
  uint4 q = make_uint4(pad, pad, pad, pad);
  if (p.k >= 0) {
    const int r = (int)(p.n % VEC), nb = r * (int)sizeof(T);
    if (al) {
      q = kp_ld16_part(row + (p.n - r), nb);
      if (pad != 0u) q = kp_pad_from(q, nb, pad);
    } else {
      q = kp_ld16_elems(row + (p.n - r), r, pad);
    }
  }
  return q;
}
template <class T, int VEC, int H = 0>
__device__ __forceinline__ uint4 kp_vec_load(const T *row, long long c, long long n, bool is_part,
                                             uint4 part, kp_u32 pad, bool al = true) {
  return c + VEC <= n ? kp_ld16_al<H>(row + c, al)
                      : is_part ? part : make_uint4(pad, pad, pad, pad);
}
// The whole group into v[U]; elements past the row read as the pad pattern
// (VEC == 1: as 0).
template <class T, int VEC, int S, int U, int H = 0>
__device__ __forceinline__ void kp_group_load(const T *row, long long c, long long n,
                                              const kp_part &p, kp_u32 pad,
                                              typename kp_raw_io<T, VEC, H>::raw *v,
                                              bool al = true) {
  if constexpr (VEC == 1) {
#pragma unroll
    for (int k = 0; k < U; k++) v[k] = kp_raw_io<T, 1, H>::load(row, c + k * S, n);
  } else {
    const uint4 q = kp_part_load<T, VEC>(row, p, pad, al);
#pragma unroll
    for (int k = 0; k < U; k++)
      v[k] = kp_vec_load<T, VEC, H>(row, c + k * S, n, k == p.k, q, pad, al);
  }
}

// Stores: whole vectors at once, the partial one kept (keep) and its bytes
// inside the row stored by kp_part_store; nothing past the row.  r: packed
// (kp_raw_io::pack).
// al == false: the row is not at the grid's residue (per-row peeling): the
// vectors' elements one by one.  ST16: whole vectors by kp_st16 (kp_store16).
template <class T, int VEC, bool ST16 = false>
__device__ __forceinline__ void kp_vec_store(T *row, long long c, long long n, bool is_part,
                                             typename kp_raw_io<T, VEC>::raw r,
                                             typename kp_raw_io<T, VEC>::raw &keep,
                                             bool al = true) {
  if constexpr (VEC == 1) {
    if (c < n) kp_store1(row + c, r);
  } else {
    if (c + VEC <= n) {
      if (al) kp_store16<ST16>(row + c, r);
      else kp_st16_elems(row + c, r, VEC);
    }
    if (is_part) keep = r;
  }
}
template <class T, int VEC>
__device__ __forceinline__ void kp_part_store(T *row, const kp_part &p,
                                              typename kp_raw_io<T, VEC>::raw keep,
                                              bool al = true) {
  if constexpr (VEC != 1)
    if (p.k >= 0) {
      const int r = (int)(p.n % VEC);
      if (al) kp_st16_part(row + (p.n - r), keep, r * (int)sizeof(T));
      else kp_st16_elems(row + (p.n - r), keep, r);
    }
}
template <class T, int VEC, int S, int U, bool ST16 = false>
__device__ __forceinline__ void kp_group_store(T *row, long long c, long long n, const kp_part &p,
                                               const typename kp_raw_io<T, VEC>::raw *v,
                                               bool al = true) {
  typename kp_raw_io<T, VEC>::raw keep = v[0];
#pragma unroll
  for (int k = 0; k < U; k++)
    kp_vec_store<T, VEC, ST16>(row, c + k * S, n, k == p.k, v[k], keep, al);
  kp_part_store<T, VEC>(row, p, keep, al);
}

// Store N elements at column c of a row of n when they are all inside it
// (kp_raw_io::load_whole's twin).
template <class T, int N, class I>
__device__ __forceinline__ void kp_store_whole(T *row, I c, I n, const float *v) {
  if (c + N <= n) kp_store<T, N>(row + c, v);
}

// A norm's output for one packed vector: x * rs * w, packed.
template <class T, int VEC>
__device__ __forceinline__ typename kp_raw_io<T, VEC>::raw kp_norm_scale(
    typename kp_raw_io<T, VEC>::raw x, typename kp_raw_io<T, VEC>::raw w, float rs) {
  typedef kp_raw_io<T, VEC> io;
  float v[VEC], g[VEC];
  io::unpack(x, v);
  io::unpack(w, g);
#pragma unroll
  for (int i = 0; i < VEC; i++) v[i] = v[i] * rs * g[i];
  return io::pack(v);
}

// Sum over each group of LANES (a power of two <= 32) adjacent lanes.
template <int LANES> __device__ __forceinline__ float kp_lanes_sum(float v) {
#pragma unroll
  for (int o = LANES / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// ---- gated elementwise: y = Op::f(gate, up) ------------------------------------------
//
// One step of a GLU thread: U vectors of VEC elements SPAN apart from column
// c of rows gr, ur -> yr of n columns; all 2U loads guarded per vector and
// issued before the first use, packed until then (kp_raw_io; elements past
// the row read as 0), stores stop at the row end.  One body for whole and
// partial vectors, so the activation is compiled U*VEC times, not twice
// that: code size is first-use compile time (and fewer registers).
// VEC * sizeof(T) == 16 or VEC == 1.  H: hint of the whole-vector loads.
template <class T, int VEC, int SPAN, int U, class Op, int H>
__device__ __forceinline__ void kp_glu_step(const T *__restrict__ gr, const T *__restrict__ ur,
                                            T *__restrict__ yr, long long c, long long n) {
  typedef kp_raw_io<T, VEC, H> io;
  typename io::raw g[U], u[U];
#pragma unroll
  for (int k = 0; k < U; k++) g[k] = io::load(gr, c + k * SPAN, n);
#pragma unroll
  for (int k = 0; k < U; k++) u[k] = io::load(ur, c + k * SPAN, n);
#pragma unroll
  for (int k = 0; k < U; k++) {
    if (c + k * SPAN >= n) break;
    float a[VEC], b[VEC];
    io::unpack(g[k], a);
    io::unpack(u[k], b);
#pragma unroll
    for (int i = 0; i < VEC; i++) a[i] = Op::f(a[i], b[i]);
    kp_store_part<T, VEC, long long>(yr, c + k * SPAN, n, a);
  }
}

// ---- gated elementwise rows: y = Op::f(gate, up) -------------------------------
//
// A block is TX threads along a row x TY rows; each thread walks its row in
// steps of U vectors of VEC elements, all 2U loads issued before the first
// use (plain loads: the streaming .nc/.cs forms measured 6-13% slower on
// H200 with L2 flushed between runs).  SwiGLU and GeGLU differ only in Op.
// Column offsets are 64-bit: c runs up to cols + U*TX*VEC, past 2^31 when
// cols is near it.
// H: cache hint of gate and up's whole-vector loads (kp_ld16_hint).
// PEEL (16-byte vectors): rows at any residue mod 16 bytes (per-row peeling,
// above): the elements before y's row's first 16-byte boundary one per
// lane, the rest from there.  A row whose gate or up is at another residue
// than y's goes element by element (the shifted loads of both inputs, at
// the register caps the GLU shapes run at, spilled on sm_90a).
// y[i] = Op::f(gate[i], up[i]) one element at a time, for i = i0, i0 +
// stride, ... below end: a peeled head, or a row at another residue.
template <class T, class Op>
__device__ __forceinline__ void kp_glu_elems(const T *gr, const T *ur, T *yr, long long i0,
                                             long long end, int stride) {
  for (long long i = i0; i < end; i += stride)
    kp_store1(yr + i, Op::f(kp_load1(gr + i), kp_load1(ur + i)));
}

template <class T, int VEC, int TX, int TY, int U, class Op, int H = 0, bool PEEL = false>
__device__ __forceinline__ void kp_glu_rows(const T *__restrict__ gate, const T *__restrict__ up,
                                           long long ldin, T *__restrict__ y, long long ldy,
                                           int rows, int cols) {
  constexpr int SPAN = TX * VEC; // elements a row's TX threads cover with one vector each
  const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
  const long long row = (long long)blockIdx.x * TY + ty;
  if (row >= rows) return;
  const T *gr = gate + row * ldin;
  const T *ur = up + row * ldin;
  T *yr = y + row * ldy;
  // (the 2-to-8-byte vectors below: the same step with float arrays)
  long long n = cols;
  if constexpr (PEEL && VEC * sizeof(T) == 16) {
    const int h = kp_head(yr, n);
    const long long e = kp_al16(gr + h) && kp_al16(ur + h) ? h : n; // scalar: the head, or all
    kp_glu_elems<T, Op>(gr, ur, yr, tx, e, TX);
    gr += h, ur += h, yr += h;
    n = e == h ? n - h : 0;
  }
  for (long long c = (long long)tx * VEC; c < n; c += (long long)U * SPAN) {
    if constexpr (VEC * sizeof(T) == 16 || VEC == 1) {
      kp_glu_step<T, VEC, SPAN, U, Op, H>(gr, ur, yr, c, n);
    } else {
      float g[U][VEC], u[U][VEC];
#pragma unroll
      for (int k = 0; k < U; k++) kp_load_tail<T, VEC>(gr, c + k * SPAN, n, 0.f, g[k]);
#pragma unroll
      for (int k = 0; k < U; k++) kp_load_tail<T, VEC>(ur, c + k * SPAN, n, 0.f, u[k]);
#pragma unroll
      for (int k = 0; k < U; k++) {
        if (c + k * SPAN >= n) break;
#pragma unroll
        for (int i = 0; i < VEC; i++) g[k][i] = Op::f(g[k][i], u[k][i]);
        kp_store_part<T, VEC, long long>(yr, c + k * SPAN, n, g[k]);
      }
    }
  }
}

// ---- math -----------------------------------------------------------------------

#define KP_LOG2E 1.4426950408889634f
#define KP_INF __int_as_float(0x7f800000)

// exp(x) through ex2.approx (2 ulp), the fast path softmax needs.
__device__ __forceinline__ float kp_exp(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x * KP_LOG2E));
  return y;
}
__device__ __forceinline__ float kp_silu(float x) { return __fdividef(x, 1.f + kp_exp(-x)); }
// erf(x) as CUDA's erff computes it (same minimax polynomials, same
// results), with the |x| >= 1.003 branch turned into a select: sixteen
// inlined branchy copies made GeGLU's compile (first-use JIT) 2x slower.
__device__ __forceinline__ float kp_erf(float x) {
#define KP_F_(h) __int_as_float((int)0x##h##u) // the constants, bit for bit
  const float a = fabsf(x);
  const bool big = a >= KP_F_(3F8060FE); // 1.00296
  const float t = big ? a : x * x;
  float p = big ? KP_F_(38EB4C3A) : KP_F_(38B1E96A);
  p = fmaf(p, t, big ? KP_F_(BAAE005B) : KP_F_(BA574D20));
  p = fmaf(p, t, big ? KP_F_(3C09919F) : KP_F_(3BAAD5EA));
  p = fmaf(p, t, big ? KP_F_(BD24D99A) : KP_F_(BCDC1BE7));
  p = fmaf(p, t, big ? KP_F_(3E235519) : KP_F_(3DE718AF));
  p = fmaf(p, t, big ? KP_F_(3F69B4F9) : KP_F_(BEC093AC));
  p = fmaf(p, t, big ? KP_F_(3F210A14) : KP_F_(3E0375D3));
#undef KP_F_
  const float s = big ? -a : x;
  const float r = fmaf(p, s, s); // big: log2(1 - |erf x|); else erf x
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(r));
  return big ? copysignf(1.f - e, x) : r;
}
__device__ __forceinline__ float kp_gelu_erf(float x) {
  return 0.5f * x * (1.f + kp_erf(x * 0.70710678118654752f));
}
// The tanh form through 0.5 (1 + tanh z) = 1 / (1 + e^-2z): the same
// function, a few instructions instead of tanhf's, and no cancellation
// in 1 + tanh z for z << 0 (x e^2z stays accurate relative to itself).
__device__ __forceinline__ float kp_gelu_tanh(float x) {
  const float k0 = 0.7978845608028654f, k1 = 0.044715f;
  return __fdividef(x, 1.f + kp_exp(-2.f * k0 * (x + k1 * x * x * x)));
}

// ---- gated elementwise chunks: y = Op::f(gate, up), flat ---------------------------
//
// torch.compile's shape of a GLU: a block of TX threads covers one chunk of
// CH = TX*VEC*U columns of one row, each thread U vectors of VEC elements
// (16 bytes) TX*VEC apart, all 2U loads issued before the first use.  The
// grid is rows x chunks blocks in grid.x, chunks = ceil(cols / CH) (the pack
// entry's cols_per_block = CH, rows_per_block = 1): block b takes chunk
// b % chunks of row b / chunks.  Only a row's last chunk may be partial:
// the loads are guarded per vector (kp_raw_io: elements past the row read as
// 0, kept packed so its loads are in flight together), stores stop at the
// row end.
// VEC * sizeof(T) == 16.
// PEEL: rows at any residue mod 16 bytes (per-row peeling, above): the
// chunks start at y's row's first 16-byte boundary, the head before it done
// by the first chunk's block one element a thread (a row's chunks then end
// up to one head short of the grid's last chunk, which stays idle); a row
// whose gate or up sits at another residue than y's goes element by element.
// LATE: the entry only triggers (kp_grid_launch_dependents); the PDL wait
// is here, after the block's row, chunk and addresses (two divisions).
template <class T, int VEC, int TX, int U, class Op, bool PEEL = false, bool LATE = false>
__device__ __forceinline__ void kp_glu_chunk(const T *__restrict__ gate, const T *__restrict__ up,
                                            long long ldin, T *__restrict__ y, long long ldy,
                                            int rows, int cols) {
  constexpr int SPAN = TX * VEC, CH = SPAN * U;
  const unsigned chunks = (unsigned)(cols / CH + (cols % CH != 0)); // no overflow near 2^31
  const long long row = blockIdx.x / chunks;
  if (row >= rows) return;
  const long long base = (long long)(blockIdx.x % chunks) * CH;
  const T *gr = gate + row * ldin;
  const T *ur = up + row * ldin;
  T *yr = y + row * ldy;
  if constexpr (LATE) {
    kp_grid_dep(gr), kp_grid_dep(ur), kp_grid_dep(yr), kp_grid_dep(base);
    kp_grid_wait();
  }
  long long n = cols;
  if constexpr (PEEL) {
    const int h = kp_head(yr, n);
    if (!kp_al16(gr + h) || !kp_al16(ur + h)) { // inputs at another residue than y's
      kp_glu_elems<T, Op>(gr, ur, yr, base + threadIdx.x, base + CH < n ? base + CH : n, TX);
      return;
    }
    if (base == 0 && (int)threadIdx.x < h)
      kp_store1(yr + threadIdx.x, Op::f(kp_load1(gr + threadIdx.x), kp_load1(ur + threadIdx.x)));
    gr += h, ur += h, yr += h, n -= h;
  }
  kp_glu_step<T, VEC, SPAN, U, Op, 0>(gr, ur, yr, base + (long long)threadIdx.x * VEC, n);
}

// ---- TMA descriptors ----------------------------------------------------------
//
// A CUtensorMap (128 bytes, 64-byte aligned) built by the runtime with
// cuTensorMapEncodeTiled and passed by value as a `const __grid_constant__`
// kernel argument (signature kind T); the copy engine reads it through its
// generic address.
struct __align__(64) kp_tmap { unsigned long long v[16]; };

// ---- tensor cores, sm_80+: mma.sync, ldmatrix, cp.async ------------------------
//
// kp_mma16816<T>: c += a b, mma.sync m16n8k16 with T (kp_bf16, kp_f16) inputs
// and f32 accumulation; the fragment layouts are spelled out in
// templates/attention.lua.
template <class T>
__device__ __forceinline__ void kp_mma16816(float *c, const kp_u32 *a, kp_u32 b0, kp_u32 b1);
#define KP_MMA16816(T, AB)                                                                     \
  template <>                                                                                 \
  __device__ __forceinline__ void kp_mma16816<T>(float *c, const kp_u32 *a, kp_u32 b0,        \
                                                 kp_u32 b1) {                                 \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." AB "." AB ".f32 {%0, %1, %2, %3}, " \
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"                              \
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                             \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));             \
  }
KP_MMA16816(kp_bf16, "bf16")
KP_MMA16816(kp_f16, "f16")
#undef KP_MMA16816
// ldmatrix m8n8 x4 (.trans: x4t) and x2 from shared memory
__device__ __forceinline__ void kp_ldsm_x4(kp_u32 *r, const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"((kp_u32)__cvta_generic_to_shared(p)));
}
__device__ __forceinline__ void kp_ldsm_x4t(kp_u32 *r, const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"((kp_u32)__cvta_generic_to_shared(p)));
}
__device__ __forceinline__ void kp_ldsm_x2(kp_u32 *r, const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(r[0]), "=r"(r[1]) : "r"((kp_u32)__cvta_generic_to_shared(p)));
}
// 16 bytes global -> shared, asynchronously; bytes < 16 zero-fill the rest
__device__ __forceinline__ void kp_cp16(void *dst, const void *src, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(
                   (kp_u32)__cvta_generic_to_shared(dst)), "l"(src), "r"(bytes) : "memory");
}

// ---- sm_90a: TMA, mbarriers, clusters, wgmma -------------------------------------
//
// Used by sm_90a variants only (their PTX does not exist below); unused
// inline functions emit nothing.  No guard on the target architecture
// macro here: a source that names it is taken to differ between targets,
// and first use then compiles it with NVRTC instead of loading the pack's
// PTX (runtime/jit.c).
__device__ __forceinline__ kp_u32 kp_smem_addr(const void *p) {
  return (kp_u32)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void kp_mbar_init(unsigned long long *b, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(kp_smem_addr(b)), "r"(count));
}
__device__ __forceinline__ void kp_mbar_expect_tx(unsigned long long *b, kp_u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(kp_smem_addr(b)),
               "r"(bytes) : "memory");
}
__device__ __forceinline__ void kp_mbar_arrive(unsigned long long *b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(kp_smem_addr(b)) : "memory");
}
__device__ __forceinline__ void kp_mbar_wait(unsigned long long *b, int parity) {
  kp_u32 ok = 0;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
                 " selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(kp_smem_addr(b)), "r"(parity) : "memory");
  } while (!ok);
}
// box (x = k, y = m or n, z = batch) of the tensor map into shared memory
__device__ __forceinline__ void kp_tma_load3(void *dst, const kp_tmap *map, int x, int y, int z,
                                             unsigned long long *bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(kp_smem_addr(dst)),
      "l"((unsigned long long)map), "r"(x), "r"(y), "r"(z), "r"(kp_smem_addr(bar))
      : "memory");
}
// box (x = column, y = row, z, w) of a 4-d tensor map (attention: head dim,
// sequence, head, batch)
__device__ __forceinline__ void kp_tma_load4(void *dst, const kp_tmap *map, int x, int y, int z,
                                             int w, unsigned long long *bar) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(kp_smem_addr(dst)),
      "l"((unsigned long long)map), "r"(x), "r"(y), "r"(z), "r"(w), "r"(kp_smem_addr(bar))
      : "memory");
}
// The same box into the same shared-memory offset of every CTA in `mask`
// (of this CTA's cluster), completing on each one's barrier at `bar`'s offset.
__device__ __forceinline__ void kp_tma_load3_mc(void *dst, const kp_tmap *map, int x, int y,
                                                int z, unsigned long long *bar,
                                                unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(kp_smem_addr(dst)),
      "l"((unsigned long long)map), "r"(x), "r"(y), "r"(z), "r"(kp_smem_addr(bar)), "h"(mask)
      : "memory");
}
// n bytes (a multiple of 16, both addresses 16-byte aligned) global -> this
// CTA's shared memory by the bulk-copy engine, completing on `bar`
__device__ __forceinline__ void kp_bulk_load(void *dst, const void *src, kp_u32 n,
                                             unsigned long long *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1], %2, [%3];" ::"r"(kp_smem_addr(dst)),
               "l"((unsigned long long)src), "r"(n), "r"(kp_smem_addr(bar))
               : "memory");
}

// ---- a row's slice staged in shared memory (the row families' `_stage_` variants)
//
// kp_stage_issue copies the nv whole 16-byte vectors at src (element-aligned)
// into the image `img` (16-byte aligned shared memory, 16 * (nv + 1) bytes):
// the bytes of the 16-byte chunks that hold them, from src's chunk on, so
// that vector k sits at img + off + 16 k with off = src mod 16 (returned).
// The chunks wholly inside the vectors come by bulk copies (one DRAM read,
// every byte in flight at once), in pieces of PV vectors: piece q < (nv +
// PV - 1) / PV completes on bar[q] (NB barriers, one use each: parity 0),
// so that a pass can start on the first piece while the others arrive; the
// two chunks that reach outside the vectors (off != 0) are filled element
// by element, so nothing outside the vectors is read.  (off != 0: vector k
// spans chunks k and k + 1, so piece q carries chunks q PV + 1 .. (q + 1) PV,
// chunks 0 and nv being the edges.)  Every thread of the block calls it,
// once a kernel.  Thread 0 issues the copies first thing; the edges' loads
// come from warp EW's first VEC lanes (never warp 0: the copies wait on no
// load's round trip, bench/NOTES.md 105), then a barrier (SYNC) makes the
// barriers' initialisation and the edges seen by the block.  A kernel
// staging two images calls it with SYNC false for the first and EW apart
// (both images' copies in flight before either edge's load returns).
template <class T, int VEC, int PV, int NB, int THREADS, int EW = 1, bool SYNC = true>
__device__ __forceinline__ int kp_stage_issue(const T *src, int nv, char *img,
                                              unsigned long long *bar) {
  static_assert(EW >= 1 && THREADS >= 32 * EW + VEC,
                "the edges' loads: warp EW's first VEC lanes, never warp 0's");
  const unsigned long long a = (unsigned long long)src;
  const int off = (int)(a & 15), sh = off ? 1 : 0;
  const char *g = (const char *)(a - off);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int q = 0; q < NB; q++) kp_mbar_init(&bar[q], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    const int np = (nv + PV - 1) / PV;
#pragma unroll 1
    for (int q = 0; q < np; q++) {
      const int k0 = max(sh, q * PV + sh), k1 = min(nv, (q + 1) * PV + sh);
      const kp_u32 n = k1 > k0 ? 16u * (kp_u32)(k1 - k0) : 0u;
      kp_mbar_expect_tx(&bar[q], n);
      if (n) kp_bulk_load(img + 16 * k0, g + 16 * k0, n, &bar[q]);
    }
  }
  if (off && nv > 0) { // the first chunk's bytes from off, the last one's below off
    const int e0 = (16 - off) / (int)sizeof(T), e1 = off / (int)sizeof(T);
    const int t = (int)threadIdx.x - 32 * EW;
    const int d = t < e0 ? off + (int)sizeof(T) * t : 16 * nv + (int)sizeof(T) * (t - e0);
    const int i = t < e0 ? t : VEC * nv - e1 + (t - e0);
    if (t >= 0 && t < VEC) {
      if constexpr (sizeof(T) == 2)
        *reinterpret_cast<kp_u16 *>(img + d) = reinterpret_cast<const kp_u16 *>(src)[i];
      else
        *reinterpret_cast<kp_u32 *>(img + d) = reinterpret_cast<const kp_u32 *>(src)[i];
    }
  }
  if constexpr (SYNC) __syncthreads(); // (the barriers initialised, the edges written)
  return off;
}
// p unchanged, but opaque to the compiler: a loop's pointer kept in its
// register (ptxas otherwise recomputed a row's head and slice offsets in
// every step of the stage kernels' write passes).  Accesses through it are
// generic (LD/ST, not LDG/STG; an assumed __isGlobal did not change that),
// no slower there (bench/NOTES.md 46).
template <class T> __device__ __forceinline__ T *kp_opaque(T *p) {
  unsigned long long a = (unsigned long long)p;
  asm volatile("" : "+l"(a));
  return (T *)a;
}
// v unchanged, opaque likewise (a row's uniform value ptxas would otherwise
// recompute from its inputs inside a loop)
__device__ __forceinline__ kp_u32 kp_opaque_u32(kp_u32 v) {
  asm volatile("" : "+r"(v));
  return v;
}
// vector k of a staged slice (kp_stage_issue): al is off == 0; else the
// vector spans chunks k and k + 1 of the image (16-byte loads, no bank
// conflicts: 4-byte loads at a 16-byte stride met four-way ones)
__device__ __forceinline__ uint4 kp_stage_vec(const char *img, int off, int k, bool al) {
  const uint4 *c = reinterpret_cast<const uint4 *>(img);
  return al ? c[k] : kp_shift16(c[k], c[k + 1], (kp_u32)off);
}
// Pass 1 of a staged slice by the image's raw 16-byte chunks, for sums that
// do not care where a vector starts (a sum of squares): one 16-byte load a
// vector, no shift.  The pass's vector index k reads chunk
// kp_stage_chunk(k, off) while that is below nv -- vector k itself when off
// == 0, else chunk k + 1 (piece q carries chunks q PV + 1 .. (q + 1) PV:
// kp_stage_issue); with off != 0 the two edge chunks 0 and nv come apart,
// from kp_stage_edges.
__device__ __forceinline__ int kp_stage_chunk(int k, int off) { return off ? k + 1 : k; }
// the row's elements of the edge chunks of a staged slice with off != 0,
// chunk 0's from byte off on and chunk nv's below it, as 2 VEC floats, the
// other bytes (never written: not the row's) as zeros
template <class T, int VEC>
__device__ __forceinline__ void kp_stage_edges(const char *img, int off, int nv, float *v) {
  const uint4 *c = reinterpret_cast<const uint4 *>(img);
  kp_raw_io<T, VEC>::unpack(c[0], v);
  kp_raw_io<T, VEC>::unpack(c[nv], v + VEC);
#pragma unroll
  for (int i = 0; i < VEC; i++) {
    if (i * (int)sizeof(T) < off) v[i] = 0.f;
    else v[VEC + i] = 0.f;
  }
}
// s += the squares of those elements
template <class T, int VEC>
__device__ __forceinline__ void kp_stage_edges_sumsq(const char *img, int off, int nv, float &s) {
  float v[2 * VEC];
  kp_stage_edges<T, VEC>(img, off, nv, v);
#pragma unroll
  for (int i = 0; i < 2 * VEC; i++) s = fmaf(v[i], v[i], s);
}
// The weight's vector k of a staged write pass from the thread's stepped
// pointer p (zeros past nv; al: at the grid's residue, else shifted reads,
// two aligned chunks where the row goes on past the vector)
template <class T>
__device__ __forceinline__ uint4 kp_stage_w(const T *p, int k, int nv, bool al) {
  return k < nv ? kp_ld16_al<0>(p, al, k + 1 < nv) : make_uint4(0u, 0u, 0u, 0u);
}
// The weight's vector k of kp_stage_norm_out's WC loop from p, w's chunk
// at byte residue WOFF: the two aligned chunks that hold it and
// kp_shift16c, the row's last one by kp_ld16_shift (nothing read past w's
// row); zeros past nv
template <int WOFF> __device__ __forceinline__ uint4 kp_stage_wc(const char *p, int k, int nv) {
  if constexpr (WOFF == 0) return k < nv ? kp_ld16_hint<0>(p) : make_uint4(0u, 0u, 0u, 0u);
  else
    return k + 1 < nv ? kp_shift16c<WOFF>(kp_ld16_hint<0>(p), kp_ld16_hint<0>(p + 16))
           : k < nv   ? kp_ld16_shift(p + WOFF)
                      : make_uint4(0u, 0u, 0u, 0u);
}
// kp_stage_norm_out's loop: w's vectors by ld(the thread's pointer, k),
// the pointer from wk stepped 16 bytes a vector
template <class T, int VEC, int THREADS, int U, class Src, class Ld>
__device__ __forceinline__ void kp_stage_norm_loop(Src src, Ld ld, const char *wk, T *y, bool yal,
                                                   int nv, float rs) {
  constexpr int PV = THREADS * U;
  const int t = threadIdx.x;
  T *yk = kp_opaque(y + (long long)t * VEC);
#pragma unroll 1
  for (int k0 = t; k0 < nv; k0 += PV, wk += PV * 16, yk += PV * VEC) {
    uint4 g[U];
#pragma unroll
    for (int u = 0; u < U; u++) g[u] = ld(wk + u * THREADS * 16, k0 + u * THREADS);
#pragma unroll
    for (int u = 0; u < U; u++) {
      const int k = k0 + u * THREADS;
      if (k < nv) {
        const uint4 o = kp_norm_scale<T, VEC>(src(k), g[u], rs);
        if (yal) *reinterpret_cast<uint4 *>(yk + u * THREADS * VEC) = o;
        else kp_st16_elems(yk + u * THREADS * VEC, o, VEC);
      }
    }
  }
}
// The write pass of a staged norm (RMSNorm's, add+RMSNorm's): y = x * rs * w
// for this thread's whole vectors k = t + j THREADS < nv, U a step, x's
// vector k from src(k) (shared memory), w and y by pointers stepped a step
// at a time; wal: w at the grid's residue; yal: y at it (else y element by
// element).  WC: w's residue a constant in the loop, one loop a residue
// (kp_stage_wc): fewer instructions a vector, more code -- it pays where a
// thread has many vectors (long rows; bench/NOTES.md 69).
template <class T, int VEC, int THREADS, int U, bool WC = false, class Src>
__device__ __forceinline__ void kp_stage_norm_out(Src src, const T *w, bool wal, T *y, bool yal,
                                                  int nv, float rs) {
  const int t = threadIdx.x;
  const char *wk = reinterpret_cast<const char *>(kp_opaque(w + (long long)t * VEC));
  if constexpr (WC) {
#define KP_NORM_LOOP(o)                                                                       \
  case o:                                                                                     \
    kp_stage_norm_loop<T, VEC, THREADS, U>(                                                   \
        src, [&](const char *p, int k) { return kp_stage_wc<o>(p, k, nv); }, wk - o, y, yal,  \
        nv, rs);                                                                              \
    return;
    switch ((int)((unsigned long long)w & 15)) { // (f32: 0, 4, 8, 12)
      KP_NORM_LOOP(0) KP_NORM_LOOP(4) KP_NORM_LOOP(8) KP_NORM_LOOP(12)
    }
    if constexpr (sizeof(T) == 2) switch ((int)((unsigned long long)w & 15)) {
        KP_NORM_LOOP(2) KP_NORM_LOOP(6) KP_NORM_LOOP(10) KP_NORM_LOOP(14)
      }
#undef KP_NORM_LOOP
  } else {
    kp_stage_norm_loop<T, VEC, THREADS, U>(
        src,
        [&](const char *p, int k) { return kp_stage_w(reinterpret_cast<const T *>(p), k, nv, wal); },
        wk, y, yal, nv, rs);
  }
}

__device__ __forceinline__ kp_u32 kp_cluster_rank() {
  kp_u32 r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void kp_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}
// the address of `p`'s counterpart in cluster CTA `r`'s shared memory (generic)
__device__ __forceinline__ const void *kp_map_rank(const void *p, kp_u32 r) {
  unsigned long long out;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"((unsigned long long)p), "r"(r));
  return (const void *)out;
}
// A row over a cluster (the row families' `_c<CL>` variants): the CL CTAs
// of a 1-d cluster (CL consecutive blocks) share one row, each holding a
// slice of it, and finish the row's reductions through distributed shared
// memory, with no memory fence: a cluster barrier's release form waits for
// every memory operation of each thread before it (MEMBAR.ALL.GPU), which
// made a staged row's sum cost 4-42% of the kernel (bench/NOTES.md 61).
// kp_cluster_begin: every CTA's exchange barrier (kp_cluster_xbar)
// initialised, and this thread's arrival at a relaxed cluster barrier whose
// wait (in kp_cluster_gather) makes the initialisation seen by the whole
// cluster; once a kernel, by every thread, before kp_cluster_gather -- early,
// where the kernel has a pass to run before its first exchange (BEGUN), or
// from kp_cluster_gather itself.  kp_cluster_gather: threads t < CL put this
// CTA's N values (already reduced over the block) in slot[rank] of CTA t by
// st.async, each completing on that CTA's barrier; every thread waits on its
// own CTA's and gets them as CTA r's value i at [r N + i] of its shared
// memory (read them in rank order: every CTA then combines them in the same
// order, the same result everywhere).  A CTA waits for every value sent to it
// before it reads, so none leaves while another still writes to it; one call
// a kernel.
// every CTA of the cluster at this point (a relaxed cluster barrier: no
// memory ordering, the barriers' initialisation's fence aside)
__device__ __forceinline__ void kp_cluster_meet() {
  asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
}
__device__ __forceinline__ unsigned long long *kp_cluster_xbar() {
  __shared__ unsigned long long b;
  return &b;
}
// (a staged kernel's CTAs start apart: waiting at once cost them ~5% of
// their samples, bench/NOTES.md 105)
__device__ __forceinline__ void kp_cluster_begin() {
  if (threadIdx.x == 0) {
    kp_mbar_init(kp_cluster_xbar(), 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
}
template <int CL, int N, bool BEGUN = false>
__device__ __forceinline__ const volatile float *kp_cluster_gather(const float (&v)[N]) {
  static_assert(N == 1 || N == 2, "one st.async a value set: .b32 or .v2.b32");
  __shared__ __align__(8) float slot[CL][N];
  if constexpr (!BEGUN) kp_cluster_begin();
  asm volatile("barrier.cluster.wait;" ::: "memory");
  unsigned long long *bar = kp_cluster_xbar();
  const kp_u32 t = threadIdx.x;
  if (t == 0) kp_mbar_expect_tx(bar, CL * N * 4u);
  // (this CTA's slot in CTA t: its rank and the address made inside the asm)
#define KP_XCHG_(ST, VAL)                                                                      \
  asm volatile("{ .reg .b32 rk, ra, rb;\n\tmov.u32 rk, %%cluster_ctarank;\n\t"               \
               "mad.lo.u32 ra, rk, %3, %0;\n\tmapa.shared::cluster.u32 ra, ra, %2;\n\t"         \
               "mapa.shared::cluster.u32 rb, %1, %2;\n\t"                                      \
               "st.async.shared::cluster.mbarrier::complete_tx::bytes" ST " [ra], " VAL         \
               ", [rb]; }" ::"r"(kp_smem_addr(&slot[0][0])), "r"(kp_smem_addr(bar)), "r"(t),   \
               "n"(4 * N), "r"(__float_as_uint(v[0])), "r"(__float_as_uint(v[N - 1]))       \
               : "memory")
  if (t < CL) {
    if constexpr (N == 1) KP_XCHG_(".b32", "%4");
    else KP_XCHG_(".v2.b32", "{%4, %5}");
  }
#undef KP_XCHG_
  kp_mbar_wait(bar, 0);
  return &slot[0][0];
}
// One float (this CTA's block sum) summed over the cluster's CTAs, in rank
// order (the same bits in every CTA); one call a kernel.
template <int CL, bool BEGUN = false> __device__ __forceinline__ float kp_cluster_sum(float s) {
  const volatile float *g = kp_cluster_gather<CL, 1, BEGUN>({s});
  s = 0.f;
#pragma unroll
  for (int r = 0; r < CL; r++) s += g[r];
  return s;
}
// The first column of CTA `rank`'s slice of a row of n elements split over
// CL CTAs (whole VEC-element vectors: the slices keep the row's alignment),
// and its length (the last ones may be short or empty).
template <int CL, int VEC>
__device__ __forceinline__ long long kp_cluster_slice(long long n, int rank, long long *len) {
  const long long w = ((n + CL - 1) / CL + VEC - 1) / VEC * VEC;
  const long long c = min(n, (long long)rank * w);
  *len = min(w, n - c);
  return c;
}
// v into `slot`'s counterpart in cluster CTA `cta` by st.async, completing
// on that CTA's barrier at `bar`'s offset (a persistent kernel's per-row
// exchange: the `_pers` variants)
__device__ __forceinline__ void kp_cluster_send(float *slot, unsigned long long *bar, kp_u32 cta,
                                                float v) {
  asm volatile("{ .reg .b32 ra, rb;\n\tmapa.shared::cluster.u32 ra, %0, %2;\n\t"
               "mapa.shared::cluster.u32 rb, %1, %2;\n\t"
               "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [ra], %3, [rb]; }"
               ::"r"(kp_smem_addr(slot)), "r"(kp_smem_addr(bar)), "r"(cta), "r"(__float_as_uint(v))
               : "memory");
}
// ---- persistent clusters over rows (the row families' `_pers` variants) --------
//
// A cluster of CL CTAs takes rows c, c + G, ... (c its index, G the clusters
// that fit, one CTA an SM), each CTA a slice of every row: x's slices come
// by bulk copies into NBUF buffers, rows NBUF ahead (full[b]); row i's sum
// of squares goes to every CTA of the cluster by st.async (slot i & 1,
// completing on xbar[i & 1]: kp_pers_send), and row i + 1's sum is sent
// before row i's write pass, so that the exchange's round trip runs under
// that pass.  Slot reuse: a CTA sends row i + 2's sum only after every CTA's
// row i + 1 sum has reached it, and each CTA sent that after reading row
// i's slot.  An st.async may reach a barrier before its owner re-arms it
// for that row (the transaction count goes negative meanwhile: the phase
// still waits for the owner's arrival).
// kp_pers_init (thread 0): the barriers initialised, seen so by the cluster.
template <int NBUF>
__device__ __forceinline__ void kp_pers_init(unsigned long long *full, unsigned long long *wbar,
                                             unsigned long long *xbar) {
  for (int b = 0; b < NBUF; b++) kp_mbar_init(&full[b], 1);
  kp_mbar_init(wbar, 1), kp_mbar_init(&xbar[0], 1), kp_mbar_init(&xbar[1], 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// Row i's block sum (one block barrier: rows i and i + 1 use scratch[i & 1]
// and scratch[(i + 1) & 1]; rows i and i + 2 have the row loop's barrier
// between them) to slot[i & 1][rank] of every CTA of the cluster
template <int THREADS, int CL>
__device__ __forceinline__ void kp_pers_send(float s, int i, int rank, float (*scratch)[32],
                                             float (*slot)[CL], unsigned long long *xbar) {
  const int t = threadIdx.x;
  s = kp_warp_sum(s);
  if ((t & 31) == 0) scratch[i & 1][t >> 5] = s;
  __syncthreads();
  if (t < 32) {
    s = kp_warp_sum(t < THREADS / 32 ? scratch[i & 1][t] : 0.f);
    if (t < CL) kp_cluster_send(&slot[i & 1][rank], &xbar[i & 1], t, s);
  }
}
// Row i's sum over the cluster, once every CTA's has arrived (in rank
// order: the same bits everywhere)
template <int CL>
__device__ __forceinline__ float kp_pers_sum(int i, const float (*slot)[CL], unsigned long long *xbar) {
  kp_mbar_wait(&xbar[i & 1], (i >> 1) & 1);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < CL; k++) s += slot[i & 1][k];
  return s;
}
// The end of row i (row r of rows, in buffer b): every thread done with
// buffer b and slot i & 1, the slot re-armed for row i + 2's sums and row r
// + NBUF G's slices issued into b (issue(b, row), thread 0)
template <int CL, int NBUF, class Issue>
__device__ __forceinline__ void kp_pers_next(int i, int b, long long r, long long G, int rows,
                                             unsigned long long *xbar, Issue issue) {
  __syncthreads();
  if (threadIdx.x == 0) {
    kp_mbar_expect_tx(&xbar[i & 1], CL * 4u);
    if (r + NBUF * G < rows) issue(b, r + NBUF * G);
  }
}

// ---- persistent rows at any residue
//
// The persistent clusters above at any residue: a row is cut on y's 16-byte
// grid, CTA `rank` writing y's chunks m0 = rank W .. m0 + W - 1 of the row
// (W: the most chunks a row can have, over CL), whole 16-byte stores but at
// the row's two ends, so that the cut moves with y's residue oy from row to
// row (kp_prow).  An
// input row's bytes for them (x, or a half of it: kp_pin) come by one bulk
// copy a row into a buffer: the 16-byte chunks that hold them, the bytes
// around them inside the tensor (the row's own, a neighbour row's, the gap
// between rows) -- but an end chunk reaching outside the tensor (the first
// row's first, the last row's last), filled element by element
// (kp_pin_edges) -- so that y's chunk j reads the buffer at 16 j + dx, dx =
// (x - oy) mod 16: kp_stage_vec(buffer, dx, j, dx == 0).  The sums take the
// buffer's raw chunks, the two end ones masked to the CTA's bytes
// (kp_pin_sumsq).  A weight's bytes for any row's chunks are staged once
// (kp_pw_*): from 16 bytes before the CTA's first chunk to 16 past its last
// (oy moves the window by up to 14 bytes), y's chunk j read at 16 j + dw, dw
// = 16 + (w - oy) mod 16 (kp_pw_off).  Addresses are byte addresses
// (kp_u64); rb: a row's (half's) bytes.
typedef unsigned long long kp_u64;
struct kp_prow {
  kp_u64 ya;        // y's row
  long long nj;     // y's chunks this CTA writes (0 past the row's end)
  long long b0, b1; // their bytes of the row, [b0, b1)
  int oy;           // y's residue
  bool ph, pt;      // the row's first / last chunk among them, partial
};
__device__ __forceinline__ kp_prow kp_prow_of(kp_u64 ya, long long rb, long long m0, long long w) {
  kp_prow g;
  g.ya = ya, g.oy = (int)(ya & 15);
  const long long ny = (g.oy + rb + 15) >> 4, m1 = min(m0 + w, ny);
  g.nj = max(0ll, m1 - m0);
  g.b0 = min(rb, max(0ll, 16 * m0 - g.oy)), g.b1 = max(g.b0, min(rb, 16 * m1 - g.oy));
  g.ph = g.nj > 0 && m0 == 0 && g.oy, g.pt = g.nj > 0 && m0 + g.nj == ny && ((g.oy + rb) & 15);
  return g;
}
// An input row at xa for the CTA's bytes: its buffer's base (xa's chunk for
// y's chunk m0), the chunks [cs, ce) that hold the bytes, the window dx
struct kp_pin {
  kp_u64 xa, base, cs, ce;
  int dx;
};
__device__ __forceinline__ kp_pin kp_pin_of(const kp_prow &g, kp_u64 xa, long long m0) {
  kp_pin p;
  p.xa = xa, p.base = (xa + 16 * m0 - g.oy) & ~15ull, p.dx = (int)((xa - g.oy) & 15);
  p.cs = (xa + g.b0) & ~15ull, p.ce = g.b1 > g.b0 ? (xa + g.b1 + 15) & ~15ull : p.cs;
  return p;
}
// The chunks of p a bulk copy reads ([cs, ce) less an end chunk outside the
// tensor's bytes [lo, hi)): their first at *src, their bytes returned
__device__ __forceinline__ kp_u32 kp_pin_bytes(const kp_pin &p, kp_u64 lo, kp_u64 hi, kp_u64 *src) {
  const kp_u64 cs = p.cs < lo ? p.cs + 16 : p.cs, ce = p.ce > hi ? p.ce - 16 : p.ce;
  *src = cs;
  return ce > cs ? (kp_u32)(ce - cs) : 0u;
}
// (one thread) those chunks into the buffer at img, completing on bar
__device__ __forceinline__ void kp_pin_load(const kp_pin &p, char *img, kp_u64 lo, kp_u64 hi,
                                            unsigned long long *bar) {
  kp_u64 src;
  const kp_u32 n = kp_pin_bytes(p, lo, hi, &src);
  if (n) kp_bulk_load(img + (src - p.base), (const void *)src, n, bar);
}
// The end chunks kp_pin_bytes leaves out, the CTA's elements of them one by
// one (threads t < 2 VEC); whether there were any (the same in every thread:
// the caller then needs a block barrier before the buffer is read)
template <class T>
__device__ __forceinline__ bool kp_pin_edges(const kp_pin &p, const kp_prow &g, char *img,
                                             kp_u64 lo, kp_u64 hi) {
  constexpr int VEC = 16 / (int)sizeof(T);
  if (!(p.cs < lo || p.ce > hi)) return false;
  const int t = threadIdx.x;
  const bool head = t < VEC; // (one chunk at both ends: the head's threads)
  if (t < 2 * VEC && (head ? p.cs < lo : p.ce > hi && (p.ce - 16 != p.cs || p.cs >= lo))) {
    const kp_u64 a = (head ? p.cs : p.ce - 16) + (kp_u64)((t % VEC) * (int)sizeof(T));
    if (a >= p.xa + g.b0 && a < p.xa + g.b1)
      *reinterpret_cast<T *>(img + (a - p.base)) = *reinterpret_cast<const T *>(a);
  }
  return true;
}
// s += the squares of the CTA's elements of p in the buffer at img: the raw
// chunks, the end ones masked to the CTA's bytes (thread THREADS - 1)
template <class T, int THREADS>
__device__ __forceinline__ void kp_pin_sumsq(const kp_pin &p, const kp_prow &g, const char *img,
                                             float &s) {
  constexpr int VEC = 16 / (int)sizeof(T), ES = (int)sizeof(T);
  const uint4 *c = reinterpret_cast<const uint4 *>(img + (p.cs - p.base));
  const int nc = (int)((p.ce - p.cs) >> 4), t = threadIdx.x;
  auto sq = [&](uint4 v, int lo, int hi) { // bytes [lo, hi) of chunk v
    float f[VEC];
    kp_raw_io<T, VEC>::unpack(v, f);
#pragma unroll
    for (int e = 0; e < VEC; e++)
      if (e * ES >= lo && e * ES < hi) s = fmaf(f[e], f[e], s);
  };
  for (int k = 1 + t; k < nc - 1; k += THREADS) sq(c[k], 0, 16);
  if (t == THREADS - 1 && nc > 0) {
    const int lo = (int)((p.xa + g.b0) & 15), hi = (int)((p.xa + g.b1 - 1) & 15) + 1;
    sq(c[0], lo, nc > 1 ? 16 : hi);
    if (nc > 1) sq(c[nc - 1], 0, hi);
  }
}
// A weight (or a half of it) at wa, rb bytes, staged for y's chunks m0 ..
// m0 + w - 1 of any row: the image's first chunk's address, the chunks
// wholly inside the weight [*fs, *fe) (one bulk copy: kp_pw_load), and y's
// chunk j of row g read at kp_pw_off(g.oy, wa) + 16 j
__device__ __forceinline__ kp_u64 kp_pw_base(kp_u64 wa, long long m0) {
  return ((wa + 16 * m0) & ~15ull) - 16;
}
__device__ __forceinline__ kp_u32 kp_pw_span(kp_u64 wa, long long rb, long long m0, long long w,
                                             kp_u64 *fs) {
  const kp_u64 sw = kp_pw_base(wa, m0);
  *fs = max(sw, (wa + 15) & ~15ull);
  const kp_u64 fe = max(*fs, min(sw + 16 * (w + 2), (wa + rb) & ~15ull));
  return (kp_u32)(fe - *fs);
}
__device__ __forceinline__ void kp_pw_load(char *img, kp_u64 wa, long long rb, long long m0,
                                           long long w, unsigned long long *bar) {
  kp_u64 fs;
  const kp_u32 n = kp_pw_span(wa, rb, m0, w, &fs);
  if (n) kp_bulk_load(img + (fs - kp_pw_base(wa, m0)), (const void *)fs, n, bar);
}
// (every thread) the image's other chunks element by element, zeros outside
// the weight (a block barrier after it, by the caller)
template <class T, int THREADS>
__device__ __forceinline__ void kp_pw_fill(char *img, kp_u64 wa, long long rb, long long m0,
                                           long long w) {
  constexpr int VEC = 16 / (int)sizeof(T), ES = (int)sizeof(T);
  kp_u64 fs;
  const kp_u32 n = kp_pw_span(wa, rb, m0, w, &fs);
  const kp_u64 sw = kp_pw_base(wa, m0), fe = fs + n;
  for (int k = threadIdx.x; k < w + 2; k += THREADS) {
    const kp_u64 ca = sw + 16 * (kp_u64)k;
    if (ca >= fs && ca < fe) continue;
    union { uint4 r; kp_u16 h[8]; kp_u32 e[4]; } u;
    u.r = make_uint4(0u, 0u, 0u, 0u);
#pragma unroll
    for (int i = 0; i < VEC; i++) {
      const kp_u64 a = ca + (kp_u64)(i * ES);
      if (a >= wa && a < wa + rb) {
        if constexpr (ES == 2) u.h[i] = *reinterpret_cast<const kp_u16 *>(a);
        else u.e[i] = *reinterpret_cast<const kp_u32 *>(a);
      }
    }
    *reinterpret_cast<uint4 *>(img + 16 * k) = u.r;
  }
}
__device__ __forceinline__ int kp_pw_off(int oy, kp_u64 wa) { return 16 + (int)(wa & 15) - oy; }
// The start of a persistent any-residue kernel with a weight: thread 0
// initialises the barriers (kp_pers_init), stages w (kp_pw_load), issues the
// cluster's first NBUF rows c0, c0 + G, ... (issue(b, row)) and arms both
// sum slots; every thread writes w's other chunks (kp_pw_fill); then the
// block, and the cluster, meet (no st.async reaches a barrier before it is
// initialised).  img: w's image (kp_pw_*), rb: a row's bytes.
template <class T, int THREADS, int CL, int NBUF, class Issue>
__device__ __forceinline__ void kp_pers_start(unsigned long long *full, unsigned long long *wbar,
                                              unsigned long long *xbar, char *img, kp_u64 wa,
                                              long long rb, long long m0, long long w,
                                              long long c0, long long G, int rows, Issue issue) {
  if (threadIdx.x == 0) {
    kp_pers_init<NBUF>(full, wbar, xbar);
    kp_u64 fs;
    kp_mbar_expect_tx(wbar, kp_pw_span(wa, rb, m0, w, &fs));
    kp_pw_load(img, wa, rb, m0, w, wbar);
    for (int b = 0; b < NBUF && c0 + b * G < rows; b++) issue(b, c0 + b * G);
    kp_mbar_expect_tx(&xbar[0], CL * 4u), kp_mbar_expect_tx(&xbar[1], CL * 4u);
  }
  kp_pw_fill<T, THREADS>(img, wa, rb, m0, w);
  __syncthreads(); // (w's other chunks written, the barriers initialised)
  kp_cluster_meet();
}
// A norm's whole chunks [j0, j1) of a row: y = x * rs * w from x's buffer
// chunks xc (at y's residue) and w's window at wc + 16 j + S (S: the
// window's residue, 0..15, a constant: one loop a residue), y's chunks yc
template <class T, int THREADS, int WU, int S>
__device__ __forceinline__ void kp_pers_norm_out(const uint4 *xc, const uint4 *wc, uint4 *yc,
                                                 int j0, int j1, float rs) {
#pragma unroll(WU)
  for (int j = j0 + (int)threadIdx.x; j < j1; j += THREADS) {
    uint4 wv;
    if constexpr (S == 0) wv = wc[j];
    else wv = kp_shift16c<S>(wc[j], wc[j + 1]);
    yc[j] = kp_norm_scale<T, 16 / (int)sizeof(T)>(xc[j], wv, rs);
  }
}
// the same with S a row's value (a switch over the residues T's elements can have)
template <class T, int THREADS, int WU>
__device__ __forceinline__ void kp_pers_norm_outs(int s, const uint4 *xc, const uint4 *wc,
                                                  uint4 *yc, int j0, int j1, float rs) {
  switch (s) {
#define KP_PERS_OUT(o) case o: kp_pers_norm_out<T, THREADS, WU, o>(xc, wc, yc, j0, j1, rs); return;
    KP_PERS_OUT(0) KP_PERS_OUT(4) KP_PERS_OUT(8) KP_PERS_OUT(12)
  }
  if constexpr (sizeof(T) == 2) switch (s) {
    KP_PERS_OUT(2) KP_PERS_OUT(6) KP_PERS_OUT(10) KP_PERS_OUT(14)
#undef KP_PERS_OUT
  }
}
// The partial end chunk of row g that thread t stores, -1 for none: the
// last thread the first chunk (g.ph: 0), the one before it the last (g.pt:
// nj - 1; one chunk both ends: the first's)
template <int THREADS> __device__ __forceinline__ int kp_prow_end_j(const kp_prow &g, int nj, int t) {
  return t == THREADS - 1 && g.ph ? 0 : t == THREADS - 2 && g.pt && !(g.ph && nj == 1) ? nj - 1 : -1;
}
// Row g's partial end chunk j (g.ph: 0, g.pt: nj - 1) of the packed vector o
// at yc[j], the elements inside the row (rb bytes from y's chunk m0)
template <class T>
__device__ __forceinline__ void kp_prow_store_end(const kp_prow &g, uint4 *yc, int j, long long m0,
                                                  long long rb, uint4 o) {
  const long long e0 = 16 * (m0 + j) - g.oy; // (the chunk's first byte in the row)
  kp_st16_range(reinterpret_cast<T *>(yc + j), o, (int)(max(0ll, -e0) / (long long)sizeof(T)),
                (int)(min(16ll, rb - e0) / (long long)sizeof(T)));
}
// arrive on the barrier at `b`'s offset in cluster CTA `cta` (this one
// included; the default .release.cta semantics, as a cluster-scope release
// here would make every arrival wait for this thread's memory operations)
__device__ __forceinline__ void kp_mbar_arrive_in(unsigned long long *b, kp_u32 cta) {
  asm volatile("{ .reg .b32 ra;\n\tmapa.shared::cluster.u32 ra, %0, %1;\n\t"
               "mbarrier.arrive.shared::cluster.b64 _, [ra]; }"
               ::"r"(kp_smem_addr(b)), "r"(cta) : "memory");
}
// wgmma shared-memory descriptor: K-major tile of 128-byte rows, 128-byte
// swizzle (8-row atoms 1024 bytes apart); the k16 step j starts 32*j bytes in.
__device__ __forceinline__ unsigned long long kp_wg_desc(const void *p) {
  unsigned long long a = kp_smem_addr(p);
  return ((a & 0x3FFFF) >> 4) | 1ull << 16 | (unsigned long long)(1024 >> 4) << 32 | 1ull << 62;
}
// An "MN-major" operand (B as (k, n), V as (key, d)): 64-column subtiles of
// k-rows x 128 bytes, `lbo` bytes apart (LBO: 64 k-rows, 8 KB, for GEMM's B),
// 8-row groups 1024 bytes apart (SBO); a k16 step is 2048 bytes.
template <int LBO = 8192> __device__ __forceinline__ unsigned long long kp_wg_desc_mn(const void *p) {
  unsigned long long a = kp_smem_addr(p);
  return ((a & 0x3FFFF) >> 4) | (unsigned long long)(LBO >> 4) << 16 |
         (unsigned long long)(1024 >> 4) << 32 | 1ull << 62;
}
// a named barrier of `threads` threads (barrier.sync, not bar.sync: that is
// the .aligned form, which a warp not converged since a branch must not run)
__device__ __forceinline__ void kp_bar_sync(int id, int threads) {
  asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// arrive at named barrier `id` of `threads` threads without waiting
__device__ __forceinline__ void kp_bar_arrive(int id, int threads) {
  asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void kp_wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void kp_wg_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N> __device__ __forceinline__ void kp_wg_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
