#!/usr/bin/env python3
"""mk_trace.py SRC.cu OUT.cu -- a staged row kernel's generated source (kpgen
emit) with per-CTA timestamps: thread 0 of each CTA writes %globaltimer at
entry (0), after the bulk copies are issued and the block barrier (1), after
its pass-1 loop (2), after the cluster sum (3), after the write pass and a
block barrier (4), and %smid (5), into kp_trace[blockIdx.x * 8 + i]."""
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()
stamp = ('{ if (threadIdx.x == 0) { unsigned long long g_; '
         'asm volatile("mov.u64 %%0, %%%%globaltimer;" : "=l"(g_)); kp_trace[blockIdx.x * 8 + %d] = g_; } }')
def put(after, i, count=1):
    global s
    assert s.count(after) == count, (after, s.count(after))
    s = s.replace(after, after + '\n  ' + stamp % i)
head = '__device__ unsigned long long *kp_trace;\n'
i = s.index('// ---- ') if '// ---- ' in s else 0
s = head + s
put('  kp_grid_begin(); // (PDL) before any global access: kp_device.cuh', 0)
for v in ('  const int oa = kp_stage_issue<T, VEC, PV, NB>(xa, nv, kp_img, bar);',
          '  const int oa = kp_stage_issue<T, VEC, PV, NB, THREADS - VEC>(xa, nv, kp_img, bar);'):
    if v in s:
        put(v, 1)
# pass 1 done: the stage kernel's block sum (the second occurrence of that line in the file)
k = s.rindex('  s = kp_block_sum<THREADS>(s, scratch);\n  if constexpr (CL > 1) s = kp_cluster_sum<CL, true>(s);')
s = s[:k] + '  ' + (stamp % 2) + '\n' + s[k:]
put('  const float rs = rsqrtf(s / (float)(2 * n) + eps);', 3)
old = '''                                                       nv, rs);
    return;'''
if old not in s: # (the call as the PIPE commit lays it out)
    old = '''        rs);
    return;'''
assert s.count(old) == 1
s = s.replace(old, old.split('\n')[0] + '''
    __syncthreads();
    ''' + (stamp % 4) + '''
    if (threadIdx.x == 0) { unsigned sm_; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm_)); kp_trace[blockIdx.x * 8 + 5] = sm_; }
    return;''')
open(out, 'w').write(s)
