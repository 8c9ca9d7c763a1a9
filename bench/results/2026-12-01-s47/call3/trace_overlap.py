import sys, lzma, collections
f = sys.argv[1]
lines = lzma.open(f, 'rt').read().splitlines()[1:]
R = [tuple(map(int, l.split())) for l in lines]
bysm = collections.defaultdict(list)
for r in R: bysm[r[1]].append(r)
bins = collections.defaultdict(list)
for sm, rs in bysm.items():
    for r in rs:
        w0, w1 = r[5], r[6]
        ov = 0; ovl = 0
        for o in rs:
            if o is r: continue
            ov += max(0, min(w1, o[6]) - max(w0, o[5]))          # other writing
            ovl += max(0, min(w1, o[4]) - max(w0, o[2]))         # other loading (issue+pass1)
        frac = ov / max(1, w1 - w0)
        bins[min(4, int(frac * 5))].append((w1 - w0, ovl / max(1, w1 - w0)))
for k in sorted(bins):
    v = bins[k]
    print("other CTA writing %3d-%3d%% of this write: n %5d, write %.2f us, other loading %.0f%%" % (k*20, k*20+20, len(v), sum(x for x, _ in v)/len(v)/1e3, 100*sum(y for _, y in v)/len(v)))
