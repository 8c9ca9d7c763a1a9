import sys, lzma, statistics as st, collections
f = sys.argv[1]
op = lzma.open if f.endswith('.xz') else open
lines = op(f, 'rt').read().splitlines()
print(lines[0])
R = []
for l in lines[1:]:
    b, sm, t0, t1, t2, t3, t4 = map(int, l.split())
    R.append((b, sm, t0, t1, t2, t3, t4))
T0 = min(r[2] for r in R); TE = max(r[6] for r in R)
print("span %.1f us, CTAs %d, SMs %d" % ((TE - T0) / 1e3, len(R), len(set(r[1] for r in R))))
def q(v): 
    v = sorted(v); n = len(v)
    return "p10 %.2f p50 %.2f p90 %.2f mean %.2f" % (v[n//10]/1e3, v[n//2]/1e3, v[9*n//10]/1e3, sum(v)/n/1e3)
print("issue   (t1-t0):", q([r[3]-r[2] for r in R]))
print("pass1   (t2-t1):", q([r[4]-r[3] for r in R]))
print("cluster (t3-t2):", q([r[5]-r[4] for r in R]))
print("write   (t4-t3):", q([r[6]-r[5] for r in R]))
print("life    (t4-t0):", q([r[6]-r[2] for r in R]))
# per SM: concurrency and gaps
bysm = collections.defaultdict(list)
for r in R: bysm[r[1]].append(r)
gaps = []; conc = []
for sm, rs in bysm.items():
    rs.sort(key=lambda r: r[2])
    # slot occupancy: time-weighted number of resident CTAs
    ev = []
    for r in rs: ev += [(r[2], 1), (r[6], -1)]
    ev.sort(); c = 0; last = T0; acc = collections.Counter()
    for t, d in ev:
        acc[c] += t - last; last = t; c += d
    conc.append(acc)
tot = collections.Counter()
for a in conc: tot.update(a)
s = sum(tot.values())
print("resident CTAs per SM (time share):", ", ".join("%d: %.1f%%" % (k, 100*v/s) for k, v in sorted(tot.items())))
# global timeline: how many CTAs in each phase, 20 bins
nb = 24; w = (TE - T0) / nb
for i in range(nb):
    a = T0 + i*w; b = a + w
    def inph(lo, hi): return sum(max(0, min(b, r[hi]) - max(a, r[lo])) for r in R) / w
    print("%6.1f us  issue %5.1f  pass1 %5.1f  cluster %5.1f  write %5.1f" % ((a-T0)/1e3, inph(2,3), inph(3,4), inph(4,5), inph(5,6)))
