#!/usr/bin/env python3
"""mk_e1.py SRC.cu OUT.cu -- experiment E1 on a generated RMSNorm+SwiGLU stage
source: the `_pairs` write pass's whole steps in half steps (U / 2 pairs) with
w's raw words for the next half step loaded before this one's math (two sets
of registers), so that each step's L2 latency hides under the previous
step's work."""
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
old = '''  int p = t;
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
'''
new = '''  int p = t;
  constexpr int UP = U / 2, S = UP * THREADS;
  struct wset { kp_u32 a0[UP], a1[UP], b0[UP], b1[UP]; };
  auto wload = [&](wset &w, const kp_u32 *pa_, const kp_u32 *pb_) {
#pragma unroll
    for (int u = 0; u < UP; u++) {
      w.a0[u] = pa_[u * THREADS], w.a1[u] = qa != 0x3210u ? pa_[u * THREADS + 1] : 0u;
      w.b0[u] = pb_[u * THREADS], w.b1[u] = qb != 0x3210u ? pb_[u * THREADS + 1] : 0u;
    }
  };
  auto wstep = [&](const wset &w) {
#pragma unroll
    for (int u = 0; u < UP; u++)
      yk[u * THREADS] = out(word(xa + u * THREADS, pa), word(xb + u * THREADS, pb),
                            __byte_perm(w.a0[u], w.a1[u], qa), __byte_perm(w.b0[u], w.b1[u], qb));
    p += S, xa += S, xb += S, wak += S, wbk += S, yk += S;
  };
  wset w0, w1;
  if (p + (UP - 1) * THREADS < np) wload(w0, wak, wbk);
#pragma unroll 1
  while (p + (UP - 1) * THREADS < np) {
    const bool n1 = p + S + (UP - 1) * THREADS < np;
    if (n1) wload(w1, wak + S, wbk + S);
    wstep(w0);
    if (!n1) break;
    const bool n2 = p + S + (UP - 1) * THREADS < np;
    if (n2) wload(w0, wak + S, wbk + S);
    wstep(w1);
    if (!n2) break;
  }
'''
assert s.count(old) == 1, s.count(old)
s = s.replace(old, new)
open(out, 'w').write(s)
