#!/usr/bin/env python3
"""attn_sched_model.py -- how evenly the persistent FA3 kernels' tile orders
share causal work among their CTAs (a model, no GPU; 2026-11-26).

Mirrors `seq` in templates/attention.lua's FA3 kernel: ORDER 0 (`_p`: tile
blockIdx.x + q gridDim.x), 1 (`_pc`: units of two tiles of one head, j and
tiles - 1 - j, in whole rounds; the last round's units as single tiles,
most keys first, snake-dealt, each whole round's units rotated by the round;
3: all rounds in pairs, unrotated, as until 2026-11-27)
and 2 (`_ps`: heads in chunks whose K and V fill 16 MB, each
chunk whole rounds of its tiles most keys first, dealt out snake-wise;
4-6 its candidates `_psa`, `_psc` and `_psr` for chunks short of a round).  Checks that each order hands out every tile exactly once, then
prints, for the causal shapes of bench/attn_bench.py (16 heads, batch x seq =
16K, Lq = Lk) on 132 CTAs, mean over max work a CTA, a tile costing its key
tiles plus COST (its prologue and epilogue, in key tiles).  1.00: no CTA
waits for another at the end.  Memory is not modelled: `_ps` chunks its
heads so that a round's K and V stay in L2 (dealing all heads' tiles at once
modelled as even, but at 16 x 1K x 16 heads d128 would reread K and V from
DRAM tile by tile: ~590 MB a call, more than the 174 us it runs in).

usage: python3 bench/attn_sched_model.py [--ctas 132] [--cost 0.5] [--kv]
(--kv: prefills against longer keys, `_ps` and its candidates)
"""
import argparse


def seq(order, c, q, G, tiles, bhs, D, L):
    """the CTA c's q-th tile index (bh tiles + j, j = 0 the most keys); -1:
    no more, -2: none this time"""
    if order == 0:
        idx = c + q * G
        return idx if idx < tiles * bhs else -1
    if order in (2, 4, 5, 6):
        h0 = max(1, min(bhs, (16 << 20) // (4 * D * L)))
        if order == 6 and h0 * tiles < G:  # `_psr`: a chunk a step, round-robin
            bh0 = q * h0  # from where the last chunk's tiles ended
            if bh0 >= bhs:
                return -1
            hc = min(h0, bhs - bh0)
            p = (c - q * h0 * tiles) % G
            if p >= hc * tiles:
                return -1 if bh0 + hc >= bhs else -2
            j, bhl = divmod(p, hc)
            return (bh0 + bhl) * tiles + j
        if order == 4 and h0 * tiles < G:  # `_psa`: a chunk short of a round of
            h0 = bhs  # tiles cannot keep a round's K and V in L2 anyway: one chunk
        if order == 5 and 2 * h0 * tiles < G:  # `_psc`: the chunks' tiles as one
            if q * G >= tiles * bhs:  # sequence, snake-dealt in rounds of G
                return -1
            p = q * G + (G - 1 - c if q & 1 else c)
            if p >= tiles * bhs:
                return -2
            ch, pp = divmod(p, h0 * tiles)
            bh0 = ch * h0
            j, bhl = divmod(pp, min(h0, bhs - bh0))
            return (bh0 + bhl) * tiles + j
        R = -(-h0 * tiles // G)
        ch, rr = divmod(q, R)
        bh0 = ch * h0
        if bh0 >= bhs:
            return -1
        hc = min(h0, bhs - bh0)
        n = hc * tiles
        p = rr * G + (G - 1 - c if q & 1 else c)
        if p >= n:
            return -1 if bh0 + hc >= bhs else -2
        j, bhl = divmod(p, hc)
        return (bh0 + bhl) * tiles + j
    npair = (tiles + 1) // 2
    R = npair * bhs // G  # whole rounds of G units, units [0, u0)
    u0 = R * G
    if order == 3 or q < 2 * R:  # pairs (order 3, `_pc` until 2026-11-27: every round)
        # (whole rounds dealt rotated by the round since 2026-12-04: an odd
        # tile count's middle tile is a unit alone, and with G a multiple of
        # npair each CTA drew the same j every round)
        u = (c + (q >> 1)) % G + (q >> 1) * G if order == 1 else c + (q >> 1) * G
        bh, j = divmod(u, npair)
        tm = tiles - 1 - j if q & 1 else j
        return -1 if bh >= bhs else -2 if q & 1 and tm == j else bh * tiles + tm
    qr = q - 2 * R
    p = qr * G + (G - 1 - c if qr & 1 else c)
    for k in range(2 * npair):
        j = k if k < npair else 2 * npair - 1 - k
        tm = j if k < npair else tiles - 1 - j
        if k >= npair and tm == j:
            continue
        bh1 = -(-(u0 - j) // npair) if u0 > j else 0
        if p < bhs - bh1:
            return (bh1 + p) * tiles + tm
        p -= bhs - bh1
    return -1


def balance(order, G, tiles, bhs, D, L, keys, cost, share=False):
    """mean over max work a CTA under ORDER, a tile of row tile tm costing
    keys(tm) key tiles plus COST; checks that every tile is dealt once.
    share: also the fewest tiles a head among the CTAs' q-th tiles (q over
    the steps where at least half the CTAs have one): how many CTAs at most
    read each K and V row from DRAM at about the same time, L2 serving the
    others -- 1: every tile reads its keys from DRAM"""
    got, work, heads = [], [], {}
    for c in range(G):
        w, q = 0.0, 0
        while (idx := seq(order, c, q, G, tiles, bhs, D, L)) != -1:
            q += 1
            if idx < 0:
                continue
            got.append(idx)
            heads.setdefault(q - 1, []).append(idx // tiles)
            w += keys(tiles - 1 - idx % tiles) + cost  # kp_attn_tile: j = 0 is the last rows
        work.append(w)
    assert sorted(got) == list(range(tiles * bhs)), f"order {order}: not a permutation"
    eff = sum(work) / G / max(work)
    if not share:
        return eff
    full = [h for h in heads.values() if 2 * len(h) >= G] or list(heads.values())
    return eff, min(len(h) / len(set(h)) for h in full)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ctas", type=int, default=132)
    ap.add_argument("--cost", type=float, default=0.5)
    ap.add_argument("--kv", action="store_true",
                    help="prefills against longer keys (Lq < Lk, causal bottom-right): "
                         "`_pc`, `_ps` and its candidates `_psa`, `_psc`, `_psr`")
    o = ap.parse_args()
    G = o.ctas
    if o.kv:
        return kv(G, o.cost)
    print(f"mean / max work a CTA over {G} CTAs (causal, Lq = Lk, 128-key tiles)")
    print(f"{'shape':>26} | {'_p':>5} | {'_pc':>5} | {'_ps':>5} | {'_pc 11-26':>10}")
    for d, br in ((128, 128), (64, 128), (64, 192)):
        for b, L in ((42, 384), (25, 640), (16, 1024), (4, 4096), (1, 16384)):
            bhs, tiles = b * 16, -(-L // br)
            effs = [balance(order, G, tiles, bhs, d, L,
                            lambda tm: -(-min(L, (tm + 1) * br) // 128), o.cost)
                    for order in (0, 1, 2, 3)]
            print(f"{f'd{d} {br}-row b{b} {L}x{L}':>26} | " + " | ".join(f"{e:5.2f}" for e in effs[:3])
                  + f" | {effs[3]:10.2f}")


def kv(G, cost):
    """mean / max work a CTA for prefills of Lq queries against Lk keys
    (16 heads, batch 16K / Lq), a tile seeing min(Lk, Lk - Lq + its last
    row + 1) keys, and after it the fewest tiles a head at one step (see
    balance); `_ps` against its candidates for chunks short of a round:
    order 4, `_psa` (all heads one chunk where the L2 rule's chunk holds
    fewer tiles than CTAs) and 5, `_psc` (the chunks' tiles dealt as one
    sequence where two chunks hold fewer) and 6, `_psr` (where one chunk
    holds fewer, a chunk a step, dealt round-robin from where the last
    one's tiles ended); bench/NOTES.md 127-128"""
    print(f"mean / max work a CTA over {G} CTAs (causal bottom-right), x: fewest tiles a head a step")
    print(f"{'shape':>28} | {'_pc':>10} | {'_ps':>10} | {'_psa':>10} | {'_psc':>10} | {'_psr':>10}")
    for d, br in ((128, 128), (64, 192)):
        for lq, lk in ((128, 4096), (512, 4096), (1024, 4096), (2048, 8192), (2048, 32768),
                       (4096, 32768), (8192, 32768), (8192, 131072), (4096, 4096), (16384, 16384)):
            bhs, tiles = 16384 // lq * 16, -(-lq // br)
            effs = [balance(order, G, tiles, bhs, d, lk,
                            lambda tm: -(-min(lk, lk - lq + (tm + 1) * br) // 128), cost, True)
                    for order in (1, 2, 4, 5, 6)]
            print(f"{f'd{d} {br}-row b{16384 // lq} {lq}x{lk}':>28} | "
                  + " | ".join(f"{e:4.2f} x{s:<4.0f}" for e, s in effs))


if __name__ == "__main__":
    main()
