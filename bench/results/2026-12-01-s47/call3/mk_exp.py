#!/usr/bin/env python3
"""mk_exp.py FORM SRC.cu OUT.cu -- the experiments of calls 5-7 as edits of a
generated RMSNorm+SwiGLU stage source (kpgen emit; main's
rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c8_pairs), before mk_trace.py:
  e3      w's words replaced by a constant (y wrong): the pass without w's loads
  e4      e3, and y not stored: the pass's image loads and math alone
  e6      the pairs pass 16 pairs a step (twice the loads in flight)
  e7      w's words for every other pair only (y wrong): half w's traffic
  t768    768 threads (rswtrace built with -DTHREADS_=768)
  c16t384 / c16t256   16-CTA clusters of 26 KiB halves (-DCL_=16 -DSMEM_=53280)
  c16big  16-CTA clusters of the 50 KiB halves (-DCL_=16), half of each used
  e8      w's words by __ldg (ld.global.nc) in place of the generic loads
E1 / E2 (call 4) are mk_e1.py / mk_e2.py beside call 4's script."""
import sys
form, src, out = sys.argv[1:4]
s = open(src).read()
ENTRY = 'rmsnorm_swiglu_stage<kp_bf16, 8, 512, 8, 2, 51200, true>'
W = '      ga[u] = word(wak + u * THREADS, qa), gb[u] = word(wbk + u * THREADS, qb);'
Y = '      yk[u * THREADS] = out(word(xa + u * THREADS, pa), word(xb + u * THREADS, pb), ga[u], gb[u]);'
def sub(a, b):
    global s
    assert s.count(a) == 1, a
    s = s.replace(a, b)
if form in ('e3', 'e4'):
    sub(W, '      ga[u] = kp_opaque_u32(0x3f803f80u), gb[u] = kp_opaque_u32(0x3f803f80u);')
if form == 'e4':
    sub(Y, '      { kp_u32 v_ = out(word(xa + u * THREADS, pa), word(xb + u * THREADS, pb), ga[u], gb[u]);\n'
           '        if (v_ == 0x7fc17fc1u) yk[u * THREADS] = v_; }')
if form == 'e6':
    sub('    rmsnorm_swiglu_stage_pairs<T, VEC, THREADS, 4 * U>(', '    rmsnorm_swiglu_stage_pairs<T, VEC, THREADS, 8 * U>(')
if form == 'e8':
    sub(W, '      ga[u] = __byte_perm(__ldg(wak + u * THREADS), qa != 0x3210u ? __ldg(wak + u * THREADS + 1) : 0u, qa),\n'
           '      gb[u] = __byte_perm(__ldg(wbk + u * THREADS), qb != 0x3210u ? __ldg(wbk + u * THREADS + 1) : 0u, qb);')
if form == 'e7':
    sub('    for (int u = 0; u < U; u++)\n' + W,
        '    for (int u = 0; u < U; u += 2)\n'
        '      ga[u] = word(wak + u * THREADS, qa), gb[u] = word(wbk + u * THREADS, qb), ga[u + 1] = ga[u], gb[u + 1] = gb[u];')
shapes = {'t768': (768, 8, 51200), 'c16t384': (384, 16, 26624), 'c16t256': (256, 16, 26624), 'c16big': (512, 16, 51200)}
if form in shapes:
    t, cl, b = shapes[form]
    sub('__launch_bounds__(512)', '__launch_bounds__(%d)' % t)
    sub(ENTRY, 'rmsnorm_swiglu_stage<kp_bf16, 8, %d, %d, 2, %d, true>' % (t, cl, b))
open(out, 'w').write(s)
