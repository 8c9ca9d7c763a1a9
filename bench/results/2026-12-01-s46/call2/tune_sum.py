import sys, collections
rows = collections.OrderedDict()
for l in open(sys.argv[1]):
    if l.startswith("#") or " " not in l: continue
    p = l.split()
    if len(p) < 6 or p[0] != "rmsnorm_swiglu": continue
    try: t = float(p[5])
    except ValueError: continue
    rows.setdefault((p[2], p[3]), []).append((t, p[4]))
for (shape, al), v in rows.items():
    v.sort()
    r, c = map(int, shape.split("x"))
    gb = r * c * 3 * 2 / 1e9
    tma = [x for x in v if "_tma_" in x[1]]
    oth = [x for x in v if "_tma_" not in x[1]]
    line = f"{shape:>12} a{al:>2} best {oth[0][0]:8.1f} {oth[0][1]:48s} ({gb/oth[0][0]*1e6/4276*100:5.1f}%)"
    if tma:
        line += f" | tma {tma[0][0]:8.1f} {tma[0][1].split('_tma_')[1]:14s} ({gb/tma[0][0]*1e6/4276*100:5.1f}%) x{oth[0][0]/tma[0][0]:.3f}"
    print(line)
