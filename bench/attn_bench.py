#!/usr/bin/env python3
"""attn_bench.py -- kp_attention next to torch SDPA (flash and cuDNN backends) in
one process on one GPU: issue 13's bars.

For each head dim (128, 64), sequence length (1K, 4K, 16K with batch x seq =
16K), causal and not, 16 heads, bf16 (--dtypes), (batch, seq, heads, dim)
tensors for kernpack, the same memory seen as (batch, heads, seq, dim) for SDPA:
  1. correctness: kp_attention against SDPA's flash backend on the same inputs
     (max error over max |ref|); kernpack's output is poisoned (NaN) first;
  2. timing: warm-up, then the median of --reps repetitions each timed with
     CUDA events around the call alone, the implementations taking turns; L2
     flushed (a 256 MB read) before every repetition, outside the timed
     region (gemm_bench.py's method, its helpers).

TFLOP/s count 4 * batch * heads * seq^2 * dim (two matmuls), halved for
causal, as FlashAttention's benchmarks do.  The ratios are SDPA's time over
kernpack's (> 1: kernpack faster); the bars are >= 1.0x cuDNN at every shape
and never below 1.3x flash.  A backend this torch or GPU lacks is shown as
n/a.  Also decode rows (seq_q 1, seq_k 32K, 32 query / 8 KV heads, batch 8 and
1; their bar is the best SDPA backend, SDPA's memory-efficient one included,
and GB/s counts K and V read once).  --decode-only: just those.
--variants REGEX: then every attention variant of the pack whose name
matches, pinned in turn (KP_VARIANT, a context of its own), on the same
shapes where it applies, SDPA timed again in turns with each (the clock
drifts over a long run): which variant wins a shape, measured beside SDPA.
--table-peers: SDPA's times from the table's rows instead (quicker; for
ranking variants against each other the kp times are what count).

    python3 bench/attn_bench.py [--json out.json] [--dtypes bf16,f16] [--reps 20]
                                [--decode-only] [--variants REGEX]
"""
import argparse
import ctypes
import datetime
import json
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "python"))
import gemm_bench  # noqa: E402
from gemm_bench import time_pair  # noqa: E402
from kernpack._lib import KpAttnDesc  # noqa: E402  (the checked mirror of kp_attn_desc)
from side_by_side import Kernpack, KpError, stream  # noqa: E402

KDT = {torch.float16: 1, torch.bfloat16: 2}
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}


def setup(kp):
    L = kp.lib
    P = ctypes.POINTER(KpAttnDesc)
    L.kp_attn_desc_init.restype = None
    L.kp_attn_desc_init.argtypes = [P] + [ctypes.c_int64] * 6
    L.kp_attention.restype = ctypes.c_int
    L.kp_attention.argtypes = [ctypes.c_void_p, ctypes.c_int] + [ctypes.c_void_p] * 4 + \
        [P, ctypes.c_void_p]
    L.kp_attention_workspace_size.restype = ctypes.c_int
    L.kp_attention_workspace_size.argtypes = [ctypes.c_void_p, ctypes.c_int, P,
                                              ctypes.POINTER(ctypes.c_size_t)]


def kp_attention(kp, q, k, v, o, causal, paged=None, kept=False):
    """A call of kp_attention, the descriptor built once (outside the timed
    region).  q, o: (batch, seq_q, heads_q, dim); k, v: (batch, seq_k,
    heads_kv, dim), any strides; or paged = (block_table, seq_k): k, v as
    (pages, page_size, heads_kv, dim) caches.  kept: a decode call's
    workspace zeroed once and kept so (workspace_zeroed = 1: no clearing)."""
    b, lq, hq, d = q.shape
    lk, hkv = (k.shape[1] if paged is None else paged[1]), k.shape[2]
    a = KpAttnDesc()
    kp.lib.kp_attn_desc_init(ctypes.byref(a), b, hq, hkv, lq, lk, d)
    for name, t in (("q", q), ("k", k), ("v", v), ("o", o)):
        setattr(a, f"{name}_stride_batch", t.stride(0))
        setattr(a, f"{name}_stride_seq", t.stride(1))
        setattr(a, f"{name}_stride_head", t.stride(2))
    if paged is not None:
        bt = paged[0]
        a.block_table, a.block_table_stride = bt.data_ptr(), bt.stride(0)
        a.page_size, a.num_pages = k.shape[1], k.shape[0]
    a.causal = 1 if causal else 0
    # a decode call's workspace (the split-KV variant's partials), made once
    # like the descriptor; KP_BENCH_NO_WORKSPACE=1 leaves it out
    ws, need = None, ctypes.c_size_t(0)
    if lq <= 16 and os.environ.get("KP_BENCH_NO_WORKSPACE") != "1":
        kp.check(kp.lib.kp_attention_workspace_size(kp.ctx, KDT[q.dtype], ctypes.byref(a),
                                                    ctypes.byref(need)), "workspace size")
    if need.value:
        ws = (torch.zeros if kept else torch.empty)(need.value, dtype=torch.uint8, device=q.device)
        a.workspace, a.workspace_bytes, a.workspace_zeroed = ws.data_ptr(), need.value, int(kept)
    fn, ctx, dt, st = kp.lib.kp_attention, kp.ctx, KDT[q.dtype], stream()
    ptrs, ref = (q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr()), ctypes.byref(a)

    def run():
        kp.check(fn(ctx, dt, *ptrs, ref, st), "kp_attention")
    run.desc, run.ws = a, ws  # keep the descriptor and workspace alive with the closure
    return run


def sdpa_backends():
    """{name: context manager factory} of the SDPA backends this torch has"""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return {}
    out = {}
    for name, attr in (("flash", "FLASH_ATTENTION"), ("cudnn", "CUDNN_ATTENTION"),
                       ("efficient", "EFFICIENT_ATTENTION")):
        if hasattr(SDPBackend, attr):
            out[name] = lambda be=getattr(SDPBackend, attr): sdpa_kernel(be)
    return out


def sdpa(backend, q, k, v, causal):
    """q, k, v as (batch, seq, heads, dim): SDPA on their (batch, heads, seq, dim) views;
    GQA through enable_gqa where the heads differ"""
    qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
    kw = {"enable_gqa": True} if k.shape[2] != q.shape[2] else {}
    if causal and q.shape[1] != k.shape[1]:
        # is_causal aligns the mask top-left; ours (flash_attn's) is aligned
        # bottom-right, which SDPA takes as a causal_lower_right bias
        from torch.nn.attention.bias import causal_lower_right
        kw["attn_mask"] = causal_lower_right(q.shape[1], k.shape[1])
    else:
        kw["is_causal"] = causal
    with backend():
        return F.scaled_dot_product_attention(qt, kt, vt, **kw)


def bench_shape(kp, backends, dt, b, hq, hkv, lq, lk, d, causal, l2, reps, page=0, peers=True,
                page_order="shuffled", kv_layout="bshd"):
    """one shape: kernpack's times (and with peers the SDPA backends', in
    turns); SDPA's output is the reference either way.  kv_layout: K and V
    in memory as (batch, seq, heads, dim) ("bshd") or (batch, heads, seq,
    dim) ("bhsd", a KV head's keys contiguous), passed to both as
    (batch, seq, heads, dim) views"""
    q = torch.randn(b, lq, hq, d, device="cuda", dtype=dt)
    bhsd = kv_layout == "bhsd"
    k, v = (torch.randn((b, hkv, lk, d) if bhsd else (b, lk, hkv, d), device="cuda", dtype=dt)
            for _ in range(2))
    if bhsd:
        k, v = k.transpose(1, 2), v.transpose(1, 2)
    o = torch.full_like(q, float("nan"))
    run = kp_attention(kp, q, k, v, o, causal)
    run()
    torch.cuda.synchronize()
    row = {"dtype": str(dt)[6:], "batch": b, "heads_q": hq, "heads_kv": hkv, "seq_q": lq,
           "seq_k": lk, "dim": d, "causal": causal, "kv_layout": kv_layout}
    ref = None
    fns, names = [run], ["kp"]
    if lq == 1 and run.ws is not None:  # decode: also through a workspace kept zero
        ok = torch.full_like(q, float("nan"))
        runk = kp_attention(kp, q, k, v, ok, causal, kept=True)
        runk()
        fns.append(runk)
        names.append("kp_kept")
    if lq == 1 and page:  # decode: the same keys through a paged cache, pages shuffled
        per = (lk + page - 1) // page
        perm = (torch.randperm(b * per, device="cuda", dtype=torch.int32) if page_order == "shuffled"
                else torch.arange(b * per, device="cuda", dtype=torch.int32))
        bt = perm.view(b, per)
        kc = torch.empty(b * per, page, hkv, d, device="cuda", dtype=dt)
        vc = torch.empty_like(kc)
        pad = per * page - lk
        kc[perm.long()] = torch.nn.functional.pad(k, (0, 0, 0, 0, 0, pad)).reshape(b * per, page, hkv, d)
        vc[perm.long()] = torch.nn.functional.pad(v, (0, 0, 0, 0, 0, pad)).reshape(b * per, page, hkv, d)
        op = torch.full_like(q, float("nan"))
        runp = kp_attention(kp, q, kc, vc, op, causal, paged=(bt, lk))
        runp()
        torch.cuda.synchronize()
        fns.append(runp)
        names.append("kp_paged")
        if page_order == "ordered" and pad == 0:  # the cache's memory read as contiguous K, V:
            # what the paged form costs beyond its allocation
            of = torch.full_like(q, float("nan"))
            runf = kp_attention(kp, q, kc.view(b, lk, hkv, d), vc.view(b, lk, hkv, d), of, causal)
            runf()
            fns.append(runf)
            names.append("kp_cache_flat")
    for name, be in backends.items():
        try:
            r = sdpa(be, q, k, v, causal).transpose(1, 2)
        except RuntimeError as e:  # backend unavailable for this shape/GPU
            row[f"{name}_error"] = str(e).split("\n")[0][:160]
            continue
        ref = r if ref is None else ref
        if peers:
            fns.append(lambda be=be: sdpa(be, q, k, v, causal))
            names.append(name)
    if ref is not None:
        if torch.isnan(o).any():
            row["err"] = float("nan")
        else:
            row["err"] = ((o.float() - ref.float()).abs().max() / ref.float().abs().max()).item()
    ts = time_pair(fns, reps, l2)
    # causal with seq_q == seq_k does half the work; a decode row counts seq_q x seq_k
    flops = 4.0 * b * hq * lq * lk * d * (0.5 if causal and lq == lk else 1.0)
    for name, us in zip(names, ts):
        row[f"{name}_us"] = us
        row[f"{name}_TF"] = flops / us / 1e6
    for name in names[1:]:
        row[f"vs_{name}"] = row[f"{name}_us"] / row["kp_us"]
    if "kp_paged_us" in row:  # the paged form agrees with the contiguous one
        row["paged_err"] = ((op.float() - o.float()).abs().max() / o.float().abs().max()).item()
    if "kp_kept_us" in row:  # the same kernel: the same bits
        row["kept_err"] = (ok.float() - o.float()).abs().max().item()
    return row


def attn_variants(kp, pattern):
    """(name, dtype) of the pack's attention variants whose name matches pattern"""
    import re
    import subprocess
    out = subprocess.run([os.path.join(REPO, "build/bin/kp"), "list", kp.info.pack_path.decode(),
                          "--json"], capture_output=True, text=True, check=True).stdout
    return [(v["name"], v["dtype"]) for v in json.loads(out)
            if v["family"] == "attention" and re.search(pattern, v["name"])]


def pinned(lib, name):
    """a Kernpack whose every attention call runs variant `name`"""
    return gemm_bench.pinned(lib, name, setup)


def row_bytes(dt):
    return torch.tensor([], dtype=dt).element_size()


def fmt(row, key, spec, na="n/a"):
    return format(row[key], spec) if key in row else format(na, ">" + spec.split(".")[0].lstrip(">"))


def time_variants(o, backends, shapes, l2, res):
    """--variants: each matching variant pinned, on every shape it applies to;
    the number of rows that failed or disagreed with SDPA.  SDPA is timed
    again beside each variant, in turns, unless --table-peers takes the
    table's times of the same shape (this run; where it has the shape):
    re-timing flash and cuDNN took most of a pinned run (346 s for seven
    variants, tenth session).  SDPA's output is the reference either way."""
    bad, res["variants"] = 0, []
    dts = o.dtypes.split(",")
    names = [(n, vdt) for n, vdt in attn_variants(Kernpack(o.lib), o.variants) if vdt in dts]
    print(f"\n{len(names)} variant(s) matching {o.variants!r}, each pinned:")
    best = {}
    for name, vdt in names:
        vkp, dt = pinned(o.lib, name), DTYPES[vdt]
        for (b, hq, hkv, lq, lk, d, causal) in shapes:
            tkey = (str(dt)[6:], b, hq, hkv, lq, lk, d, causal)
            table = None if not o.table_peers else next(
                (r for r in res.get("perf", []) if (r["dtype"], r["batch"], r["heads_q"],
                 r["heads_kv"], r["seq_q"], r["seq_k"], r["dim"], r["causal"]) == tkey), None)
            try:
                row = bench_shape(vkp, backends, dt, b, hq, hkv, lq, lk, d, causal, l2,
                                  max(5, o.reps // 2), o.page, peers=table is None,
                                  page_order=o.page_order, kv_layout=o.kv_layout)
            except KpError as e:
                if "does not apply" not in str(e):
                    print(f"  {name:44s} b{b} {hq}/{hkv} {lq}x{lk} d{d} causal={causal}: failed: {e}")
                    bad += 1
                continue
            peer = table if table is not None else row
            sd = min((peer[k] for k in peer if k.endswith("_us") and not k.startswith("kp")),
                     default=None)
            row["peers_from"] = "table" if table is not None else "beside"
            err = row.get("err")
            bad += err is not None and not (err <= (2e-2 if dt == torch.bfloat16 else 4e-3))
            bad += row.get("paged_err", 0) > 1e-6
            row.update(variant=name, vs_best=sd / row["kp_us"] if sd else None)
            res["variants"].append(row)
            paged = (f", paged {row['kp_paged_us']:.1f} us" if "kp_paged_us" in row else "")
            paged += (f" (its cache read flat {row['kp_cache_flat_us']:.1f} us)"
                      if "kp_cache_flat_us" in row else "")
            print(f"  {name:44s} b{b} {hq}/{hkv} {lq}x{lk} d{d} causal={causal}: "
                  f"{row['kp_us']:8.1f} us {row['kp_TF']:6.1f} TF"
                  + (f", {row['vs_best']:.2f}x the best SDPA ({sd:.1f} us"
                     f"{', the table' if table is not None else ''})" if sd else "")
                  + paged + f", err {'n/a' if err is None else format(err, '.1e')}")
            key = (vdt, b, hq, hkv, lq, lk, d, causal)
            if sd and (key not in best or row["vs_best"] > best[key][1]):
                best[key] = (name, row["vs_best"])
    for key, (name, ratio) in best.items():
        print(f"  best at {key}: {name} {ratio:.2f}x the best SDPA backend")
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(REPO, "build/lib/libkernpack.so"))
    ap.add_argument("--dtypes", default="bf16")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--dims", default="128,64")
    ap.add_argument("--seqs", default="1024,4096,16384",
                    help="sequence lengths, each LEN (seq_q = seq_k) or LQ:LK (a prefill "
                         "of LQ queries against LK keys, causal aligned bottom-right)")
    ap.add_argument("--tokens", type=int, default=16384, help="batch x seq")
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--no-decode", action="store_true")
    ap.add_argument("--decode-only", action="store_true")
    ap.add_argument("--decode-dims", default="128", help="head dims of the decode rows")
    ap.add_argument("--decode-batches", default="8,1", help="batches of the decode rows")
    ap.add_argument("--page", type=int, default=16,
                    help="decode rows: also time a paged KV cache of this page size (0: not)")
    ap.add_argument("--page-order", choices=("shuffled", "ordered"), default="shuffled",
                    help="the paged cache's pages shuffled (as a serving engine's cache ends up) "
                         "or in order (the contiguous layout through a block table)")
    ap.add_argument("--kv-layout", choices=("bshd", "bhsd"), default="bshd",
                    help="K and V in memory as (batch, seq, heads, dim) (default) or as (batch, "
                         "heads, seq, dim), a KV head's keys contiguous (SDPA's own layout)")
    ap.add_argument("--variants", metavar="REGEX",
                    help="also every attention variant whose name matches, pinned in turn")
    ap.add_argument("--table-peers", action="store_true",
                    help="--variants: take SDPA's times from the table's row of the same shape "
                         "instead of timing SDPA again beside each pinned variant (quicker)")
    ap.add_argument("--json")
    ap.add_argument("--settle-ms", type=float, default=1e3 * gemm_bench.SETTLE_S,
                    help="idle before each shape's timing, for the clocks to recover from the "
                    "shape before (gemm_bench.py; default %(default)s; 0: none)")
    o = ap.parse_args()
    gemm_bench.SETTLE_S = o.settle_ms / 1e3
    torch.manual_seed(0)
    torch.zeros(1, device="cuda")  # torch first: it makes the primary context current
    torch.cuda.synchronize()
    kp = Kernpack(o.lib)
    setup(kp)
    dev = torch.cuda.get_device_name()
    backends = sdpa_backends()
    print(f"kernpack {kp.version} on {dev} (sm_{kp.info.sm}, pack {kp.info.pack_path.decode()}), "
          f"torch {torch.__version__}, SDPA backends {sorted(backends)}, "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%MZ}")
    l2 = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    res = {"device": dev, "torch": torch.__version__, "date": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d}",
           "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "perf": []}
    shapes = []
    for d in (int(x) for x in ("" if o.decode_only else o.dims).split(",") if x):
        for q, k in ((int(x.split(":")[0]), int(x.split(":")[-1])) for x in o.seqs.split(",")):
            for causal in (False, True):
                shapes.append((max(1, o.tokens // q), o.heads, o.heads, q, k, d, causal))
    if not o.no_decode:
        for d in (int(x) for x in o.decode_dims.split(",")):
            shapes += [(b, 32, 8, 1, 32768, d, False)
                       for b in (int(x) for x in o.decode_batches.split(","))]
    print(f"{'dtype':5s} {'batch':>5s} {'hq/hkv':>6s} {'seq_q':>6s} {'seq_k':>6s} {'dim':>4s} "
          f"{'causal':>6s} | {'kp us':>9s} {'TF':>6s} | {'flash us':>9s} {'TF':>6s} {'ratio':>6s} | "
          f"{'cudnn us':>9s} {'TF':>6s} {'ratio':>6s} | err")
    bad = 0
    for dt in (DTYPES[x] for x in o.dtypes.split(",")):
        for (b, hq, hkv, lq, lk, d, causal) in shapes:
            try:
                row = bench_shape(kp, backends, dt, b, hq, hkv, lq, lk, d, causal, l2, o.reps,
                                  o.page, page_order=o.page_order, kv_layout=o.kv_layout)
            except KpError as e:
                print(f"{str(dt)[6:]:5s} {b:5d} {hq:3d}/{hkv:<2d} {lq:6d} {lk:6d} {d:4d} "
                      f"{str(causal):>6s} | kernpack failed: {e}")
                bad += 1
                continue
            res["perf"].append(row)
            err = row.get("err")
            bad += err is not None and not (err <= (2e-2 if dt == torch.bfloat16 else 4e-3))
            print(f"{str(dt)[6:]:5s} {b:5d} {hq:3d}/{hkv:<2d} {lq:6d} {lk:6d} {d:4d} "
                  f"{str(causal):>6s} | {row['kp_us']:9.1f} {row['kp_TF']:6.1f} | "
                  f"{fmt(row, 'flash_us', '9.1f')} {fmt(row, 'flash_TF', '6.1f')} "
                  f"{fmt(row, 'vs_flash', '5.2f')}x | {fmt(row, 'cudnn_us', '9.1f')} "
                  f"{fmt(row, 'cudnn_TF', '6.1f')} {fmt(row, 'vs_cudnn', '5.2f')}x | "
                  f"{'n/a' if err is None else format(err, '.1e')}")
            if lq == 1:  # decode: bytes of K and V over time, and the best backend
                gbs = 2 * b * lk * hkv * d * row_bytes(dt) / row["kp_us"] / 1e3
                best = min((row[k] for k in row if k.endswith("_us") and not k.startswith("kp")),
                           default=None)
                row["kp_GBs"] = gbs
                row["vs_best"] = best / row["kp_us"] if best else None
                print(f"      decode: kernpack {gbs:.0f} GB/s of K and V; "
                      + (f"{row['vs_best']:.2f}x the best SDPA backend" if best else "no SDPA backend")
                      + (f" (efficient {row['efficient_us']:.1f} us)" if "efficient_us" in row else "")
                      + (f"; paged (page {o.page}) {row['kp_paged_us']:.1f} us = "
                         f"{row['kp_paged_us'] / row['kp_us']:.3f}x the contiguous time, "
                         f"max diff {row['paged_err']:.1e}" if "kp_paged_us" in row else "")
                      + (f"; workspace kept zero {row['kp_kept_us']:.1f} us"
                         + (f" = {best / row['kp_kept_us']:.2f}x the best SDPA" if best else "")
                         + f", max diff {row['kept_err']:.1e}" if "kp_kept_us" in row else ""))
                bad += row.get("paged_err", 0) > 1e-6  # the same keys: the same bits expected
                bad += row.get("kept_err", 0) != 0
    if o.variants:
        bad += time_variants(o, backends, shapes, l2, res)
    if o.json:
        with open(o.json, "w") as f:
            json.dump(res, f, indent=1)
    print(f"{bad} shape(s) failed or disagreed with SDPA")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
