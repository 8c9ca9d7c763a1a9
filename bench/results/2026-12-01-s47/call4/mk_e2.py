#!/usr/bin/env python3
"""mk_e2.py SRC.cu OUT.cu -- experiment E2 (over mk_e1.py's output): the words
of w the write pass's first half step reads prefetched into L1 before the
block and cluster sums (prefetch.global.L1), under whose waits their L2
latency then passes."""
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
anchor = '  s = kp_block_sum<THREADS>(s, scratch);\n  if constexpr (CL > 1) s = kp_cluster_sum<CL, true>(s);'
k = s.rindex(anchor)
pre = '''  if constexpr (PAIRS) { // (E2: the first half step's w words, prefetched into L1)
    const kp_u32 *pw = reinterpret_cast<const kp_u32 *>((unsigned long long)wa & ~3ull) + t;
    const kp_u32 *pv = reinterpret_cast<const kp_u32 *>((unsigned long long)wb & ~3ull) + t;
#pragma unroll
    for (int u = 0; u < 2 * U; u++) {
      asm volatile("prefetch.global.L1 [%0];" ::"l"(pw + u * THREADS));
      asm volatile("prefetch.global.L1 [%0];" ::"l"(pv + u * THREADS));
    }
  }
'''
s = s[:k] + pre + s[k:]
open(out, 'w').write(s)
