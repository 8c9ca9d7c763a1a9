#!/usr/bin/env python3
"""plot_results.py -- the stored benchmark results as pictures.

    python3 bench/plot_results.py [FILES...] [-o bench/results/plots]

Reads the JSON that bench/side_by_side.py --json and bench/gemm_bench.py
--json write (by default every *.json under bench/results/, and in its
archived sessions, bench/results/*.tar.xz) and, for each
device, takes its newest file of each kind (by the date inside; a tie goes
to the file with more shapes): for a family's picture the newest sweep of it
(four shapes or more, torch.compile beside), else the newest file that has
it; for the overview the newest file that has every family.  A file with
an "experiment" key (an A/B run's or an unlanded patch's numbers, marked by
hand) is left out.  Writes PNGs:

  <op>.png       one per family: GB/s (bytes read + written once) against
                 shape, one line per implementation (kernpack, PyTorch eager,
                 F.rms_norm / torch.softmax, torch.compile), the copy rate of
                 the same run as the ceiling, % of it on the right axis; one
                 panel per device
  overview.png   every family at the largest shape measured, % of the copy
                 rate, one bar per implementation; one panel per device
  gemm.png       TFLOP/s (2mnk) against m x n x k, kernpack and cuBLAS
                 (torch.matmul), the dense peak as the ceiling
  odd_rows.png   a sweep of odd row lengths (side_by_side.py --shapes-file
                 bench/shapes_odd.txt: every row off the 16-byte grid), % of
                 the copy rate against the row length, one panel per family
                 (each from the newest sweep that has it), the issue's 90%
                 bar drawn; one device (the one with the newest sweep)

matplotlib is needed here only (a development tool, not part of the build).
"""
import argparse
import glob
import json
import os
import sys
import tarfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402,F401

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "results", "plots")
DENSE_PEAK_TF = 989.0  # bf16/f16 dense, H100/H200 SXM datasheet (gemm_bench.py --peak)

OPS = ["softmax", "rmsnorm", "add_rmsnorm", "swiglu", "geglu_tanh", "geglu_erf",
       "rmsnorm_swiglu", "rope"]
TITLES = {"softmax": "softmax", "rmsnorm": "RMSNorm", "add_rmsnorm": "residual add + RMSNorm",
          "swiglu": "SwiGLU", "geglu_tanh": "GeGLU (tanh)", "geglu_erf": "GeGLU (erf)",
          "rmsnorm_swiglu": "RMSNorm + SwiGLU (fused)", "rope": "RoPE (q and k, NeoX)"}
# implementation key in the JSON -> (label, colour, line width)
IMPLS = {"ours": ("kernpack", "#d62728", 2.4), "compile": ("torch.compile", "#1f77b4", 1.6),
         "F": (None, "#2ca02c", 1.6), "eager": ("PyTorch eager", "#7f7f7f", 1.6)}
F_LABEL = {"softmax": "torch.softmax", "rmsnorm": "F.rms_norm", "add_rmsnorm": "add + F.rms_norm",
           "rmsnorm_swiglu": "F.rms_norm + silu*mul"}


def short_device(name):
    return name.replace("NVIDIA ", "").replace(" 80GB HBM3", "")


def read_all(paths):
    """(path, data) for each JSON file among paths, and for each *.json inside
    a .tar.xz among them (the archived sessions, bench/results/README.md)"""
    for p in paths:
        try:
            if p.endswith(".tar.xz"):
                with tarfile.open(p, "r:xz") as t:
                    for m in t.getmembers():
                        if m.isfile() and m.name.endswith(".json"):
                            try:
                                yield f"{p}:{m.name}", json.load(t.extractfile(m))
                            except ValueError as e:
                                print(f"plot_results: skipping {p}:{m.name}: {e}", file=sys.stderr)
                continue
            with open(p) as f:
                yield p, json.load(f)
        except (OSError, ValueError, tarfile.TarError) as e:
            print(f"plot_results: skipping {p}: {e}", file=sys.stderr)


def load(paths):
    """{device: [(kind, data, path)]} for the side-by-side and gemm files among paths."""
    by_dev = {}
    for p, d in read_all(paths):
        if not isinstance(d, dict) or "device" not in d or "experiment" in d:
            continue  # (an A/B run's or a patch's numbers: not the latest results)
        kind = ("sbs" if "results" in d and "copy_gbps" in d
                else "gemm" if d.get("perf") and all("m" in r for r in d["perf"])  # (not attn's)
                else None)
        if kind == "sbs" and is_odd_sweep(d):
            kind = "odd"  # (its own picture: not the families' shape sweep)
        if kind:
            by_dev.setdefault(d["device"], []).append((kind, d, p))
    return by_dev


def ops_swept(d):
    """The ops of a side-by-side file swept: measured at four shapes or more,
    torch.compile beside them (a run without it, or at a few shapes, is a
    spot check, not the picture of a family)."""
    per = {}
    for r in d["results"]:
        if r.get("gbps", {}).get("compile") is not None:
            per.setdefault(r.get("op"), set()).add(r.get("shape"))
    return {op for op, v in per.items() if len(v) >= 4}


def is_odd_sweep(d):
    """A side-by-side file whose row shapes all have odd lengths."""
    cols = [r["cols"] for r in d["results"] if r.get("cols") is not None]  # (rope's: None)
    return bool(cols) and all(c % 2 for c in cols)


def newest(files, kind, op=None):
    """The newest file of a kind (side-by-side, given op: of those that sweep
    it, else of those that have it at all; no op: of those that have every
    op): by date, then by its time where it has one (side_by_side's date,
    the benchmarks' "time"), the number of records, and last the path (a
    later session's directory sorts later)."""
    def has(d, o):
        return any(r.get("op") == o for r in d["results"])
    if kind == "sbs" and op:
        swept = [(k, d, p) for k, d, p in files if k == kind and op in ops_swept(d)]
        files = swept or [(k, d, p) for k, d, p in files if k == kind and has(d, op)]
    elif kind == "sbs":
        files = [(k, d, p) for k, d, p in files if k == kind and all(has(d, o) for o in OPS)]
    cands = [(d, p) for k, d, p in files if k == kind]
    if not cands:
        return None, None
    n = (lambda d: len(d["results"])) if kind != "gemm" else (lambda d: len(d["perf"]))
    return max(cands, key=lambda dp: (dp[0]["date"][:10], dp[0].get("time", dp[0]["date"]),
                                      n(dp[0]), dp[1]))


def records(d, op, dtype="bf16"):
    """The records of one op, one per shape, in order of bytes moved."""
    seen, out = set(), []
    for r in d["results"]:
        if r["op"] == op and r["dtype"] == dtype and "bytes" in r and r["shape"] not in seen:
            seen.add(r["shape"])
            out.append(r)
    return sorted(out, key=lambda r: r["bytes"])


def source_note(d, path):
    return (f"{short_device(d['device'])}, {d['date'][:10]}, torch {d.get('torch', '?')}; "
            f"{os.path.relpath(path, os.path.dirname(HERE))}")


def footnote(fig, parts):
    """Sources in small grey type along the bottom, wrapped to the figure width."""
    import textwrap
    width = int(fig.get_figwidth() * 22)
    fig.text(0.005, 0.005, "\n".join(textwrap.wrap("; ".join(parts), width)), fontsize=5.5,
             color="#555", va="bottom")


def plot_family(op, chosen, out_dir):
    panels = [(dev, d, p) for dev, (d, p) in chosen.items() if records(d, op)]
    if not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels) + 0.6, 3.7),
                             squeeze=False)
    for ax, (dev, d, path) in zip(axes[0], panels):
        recs = records(d, op)
        copy = d["copy_gbps"]
        xs = list(range(len(recs)))
        for key, (label, colour, lw) in IMPLS.items():
            pts = [(x, r["gbps"][key]) for x, r in zip(xs, recs) if key in r["gbps"]]
            if not pts:
                continue
            label = label or F_LABEL.get(op, "F.*")
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3.5, lw=lw,
                    color=colour, label=label, zorder=3 if key == "ours" else 2)
        ax.axhline(copy, color="black", ls="--", lw=1)
        ax.text(0.01, copy, f" copy {copy:.0f} GB/s", va="bottom", ha="left", fontsize=7,
                transform=ax.get_yaxis_transform())
        ax.set_ylim(0, copy * 1.12)
        ax.set_xticks(xs)
        ax.set_xticklabels([r["shape"] for r in recs], rotation=30, ha="right", fontsize=7)
        ax.set_xlim(-0.3, len(recs) - 0.7)
        ax.set_ylabel("GB/s (read + written once)", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        sec = ax.secondary_yaxis("right", functions=(lambda g, c=copy: 100 * g / c,
                                                     lambda q, c=copy: q * c / 100))
        sec.set_ylabel("% of copy", fontsize=8)
        sec.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        ax.set_title(f"{short_device(dev)} ({d['date'][:10]})", fontsize=9)
    handles = {}
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.suptitle(f"{TITLES[op]}, bf16: throughput against shape", fontsize=10, y=0.99)
    fig.legend(handles.values(), handles.keys(), loc="upper center", ncol=4, fontsize=7,
               bbox_to_anchor=(0.5, 0.93), frameon=False)
    footnote(fig, ["median of CUDA-event timings, L2 flushed before each"]
             + [source_note(d, p) for _, d, p in panels])
    fig.tight_layout(rect=(0, 0.06, 1, 0.89))
    path = os.path.join(out_dir, f"{op}.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def plot_overview(chosen, out_dir):
    panels = [(dev, d, p) for dev, (d, p) in chosen.items()]
    if not panels:
        return None
    fig, axes = plt.subplots(len(panels), 1, figsize=(9.5, 2.9 * len(panels) + 0.5),
                             squeeze=False)
    width = 0.2
    for ax, (dev, d, path) in zip(axes[:, 0], panels):
        copy = d["copy_gbps"]
        ops = [op for op in OPS if records(d, op)]
        largest = {op: records(d, op)[-1] for op in ops}
        for i, (key, (label, colour, _)) in enumerate(IMPLS.items()):
            xs, ys = [], []
            for j, op in enumerate(ops):
                g = largest[op]["gbps"].get(key)
                if g is not None:
                    xs.append(j + (i - 1.5) * width)
                    ys.append(100 * g / copy)
            ax.bar(xs, ys, width, color=colour, label=label or "F.rms_norm / torch.softmax")
        ax.axhline(100, color="black", ls="--", lw=1)
        ax.set_xticks(range(len(ops)))
        ax.set_xticklabels([f"{op}\n{largest[op]['shape']}" for op in ops], fontsize=6.5)
        ax.set_ylabel("% of copy rate", fontsize=8)
        ax.set_ylim(0, 115)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(axis="y", alpha=0.3)
        ax.set_title(f"{short_device(dev)} ({d['date'][:10]}): copy {copy:.0f} GB/s = 100%",
                     fontsize=8.5)
    handles = dict(zip(*reversed(axes[0, 0].get_legend_handles_labels())))
    fig.suptitle("bf16 at the largest shape measured: % of the copy rate (bytes read + "
                 "written once)", fontsize=10, y=0.995)
    fig.legend(handles.values(), handles.keys(), loc="upper center", ncol=4, fontsize=7.5,
               bbox_to_anchor=(0.5, 0.965), frameon=False)
    footnote(fig, [source_note(d, p) for _, d, p in panels])
    fig.tight_layout(rect=(0, 0.03, 1, 0.93))
    path = os.path.join(out_dir, "overview.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def odd_records(d, op):
    """An odd sweep's records of op by row length (rope's rows have none: not drawn)."""
    return sorted((r for r in records(d, op) if r.get("cols") is not None),
                  key=lambda r: r["cols"])


def plot_odd(by_dev, out_dir):
    """% of copy against the row length, each family from the newest odd sweep with it."""
    sweeps = [(d, p, dev) for dev, files in by_dev.items() for k, d, p in files if k == "odd"]
    if not sweeps:
        return None
    dev = max(sweeps, key=lambda s: s[0]["date"])[2]
    sweeps = sorted((s for s in sweeps if s[2] == dev), key=lambda s: s[0]["date"], reverse=True)
    panels = []  # (op, data, path): the newest sweep that has the op
    for op in OPS:
        for d, p, _ in sweeps:
            if odd_records(d, op):
                panels.append((op, d, p))
                break
    if not panels:
        return None
    fig, axes = plt.subplots(2, (len(panels) + 1) // 2, figsize=(3.6 * ((len(panels) + 1) // 2)
                             + 0.6, 6.6), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (op, d, path) in zip(axes.flat, panels):
        copy = d["copy_gbps"]
        recs = odd_records(d, op)
        for key, (label, colour, lw) in IMPLS.items():
            pts = [(x, 100 * r["gbps"][key] / copy) for x, r in enumerate(recs) if key in r["gbps"]]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3.5, lw=lw,
                        color=colour, label=label or F_LABEL.get(op, "F.*"),
                        zorder=3 if key == "ours" else 2)
        ax.axhline(100, color="black", ls="--", lw=1)
        ax.axhline(90, color="black", ls=":", lw=1)
        ax.text(0.99, 90, "90% (issue 14's bar) ", va="top", ha="right", fontsize=6.5,
                transform=ax.get_yaxis_transform())
        ax.set_xticks(range(len(recs)))  # (in order of length; evenly spaced)
        ax.set_xticklabels([f"{r['rows']}x\n{r['cols']}" for r in recs], fontsize=5.5)
        ax.set_ylim(0, 110)
        ax.set_ylabel("% of copy rate", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, loc="lower left")
        ax.set_title(f"{TITLES[op]} ({d['date'][:16].replace('T', ' ')})", fontsize=8.5)
    fig.suptitle(f"Odd row lengths (every other row off the 16-byte grid), bf16, rows x "
                 f"length: % of the copy rate -- {short_device(dev)}", fontsize=9.5)
    footnote(fig, ["median of CUDA-event timings, L2 flushed before each, >= 256 MB a shape"]
             + sorted({source_note(d, p) for _, d, p in panels}))
    fig.tight_layout(rect=(0, 0.04, 1, 0.96))
    out = os.path.join(out_dir, "odd_rows.png")
    fig.savefig(out, dpi=90)
    plt.close(fig)
    return out


def plot_gemm(chosen, out_dir, peak):
    panels = []
    for dev, (d, p) in chosen.items():
        for dt in sorted({r["dtype"] for r in d["perf"]}):
            panels.append((dev, dt, d, p))
    if not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(6.2 * len(panels) + 0.6, 4.0),
                             squeeze=False)
    for ax, (dev, dt, d, path) in zip(axes[0], panels):
        seen, recs = set(), []
        for r in d["perf"]:
            key = (r["m"], r["n"], r["k"])
            if r["dtype"] == dt and key not in seen:
                seen.add(key)
                recs.append(r)
        recs.sort(key=lambda r: (r["m"], r["n"] * r["k"]))
        xs = list(range(len(recs)))
        ax.plot(xs, [r["kp_TF"] for r in recs], marker="o", ms=3.5, lw=2.4, color="#d62728",
                label="kernpack", zorder=3)
        ax.plot(xs, [r["cublas_TF"] for r in recs], marker="s", ms=3.5, lw=1.6,
                color="#1f77b4", label="cuBLAS (torch.matmul)")
        ax.axhline(peak, color="black", ls="--", lw=1)
        ax.text(0.01, peak, f" dense peak {peak:.0f} TFLOP/s", va="bottom", ha="left",
                fontsize=7, transform=ax.get_yaxis_transform())
        if d.get("copy_GBps"):  # reading B once at the copy rate bounds 2mnk / time
            es = 4 if dt in ("float32", "f32") else 2
            roof = [min(peak, 2 * r["m"] * d["copy_GBps"] / es / 1e3) for r in recs]
            ax.plot(xs, roof, color="black", ls=":", lw=1,
                    label=f"B read once at the copy rate ({d['copy_GBps']:.0f} GB/s)")
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.set_ylim(0.3, peak * 2)
        ax.set_xticks(xs)
        ax.set_xticklabels([f"{r['m']}x{r['n']}x{r['k']}" for r in recs], rotation=40,
                           ha="right", fontsize=6.5)
        ax.set_ylabel("TFLOP/s (2mnk), log scale", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, loc="lower right")
        ax.set_title(f"{short_device(dev)} {dt}, m x n x k, B as (n, k) ({d['date'][:10]})",
                     fontsize=9)
    fig.suptitle("GEMM: TFLOP/s against shape (L2 flushed, median of CUDA-event timings)",
                 fontsize=10)
    footnote(fig, [source_note(d, p) for _, _, d, p in panels])
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    path = os.path.join(out_dir, "gemm.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", help="result JSON files or .tar.xz archives of them "
                    "(default: bench/results/**/*.json and bench/results/*.tar.xz)")
    ap.add_argument("-o", "--out", default=DEFAULT_OUT, help="output directory")
    ap.add_argument("--peak", type=float, default=DENSE_PEAK_TF,
                    help="GEMM dense peak in TFLOP/s (default 989, H100/H200 SXM)")
    args = ap.parse_args()
    files = args.files or (sorted(glob.glob(os.path.join(HERE, "results", "**", "*.json"),
                                            recursive=True))
                           + sorted(glob.glob(os.path.join(HERE, "results", "*.tar.xz"))))
    by_dev = load(files)
    # each family from the newest sweep of it; the overview from the newest
    # sweep of every family; GEMM from the newest GEMM table
    per_op = {op: {} for op in OPS}
    sbs, gemm = {}, {}
    for dev in sorted(by_dev):
        for op in OPS:
            d, p = newest(by_dev[dev], "sbs", op)
            if d:
                per_op[op][dev] = (d, p)
        d, p = newest(by_dev[dev], "sbs")
        if d:
            sbs[dev] = (d, p)
        d, p = newest(by_dev[dev], "gemm")
        if d:
            gemm[dev] = (d, p)
    if not any(per_op.values()) and not gemm:
        ap.error("no side-by-side or gemm results among the inputs")
    os.makedirs(args.out, exist_ok=True)
    for dev in sorted(by_dev):
        used = sorted({os.path.relpath(c[dev][1]) for c in list(per_op.values()) + [sbs, gemm]
                       if dev in c})
        print(f"{short_device(dev)}: {', '.join(used)}")
    written = [plot_family(op, per_op[op], args.out) for op in OPS]
    written += [plot_overview(sbs, args.out), plot_gemm(gemm, args.out, args.peak),
                plot_odd(by_dev, args.out)]
    for w in filter(None, written):
        print(f"wrote {os.path.relpath(w)} ({os.path.getsize(w) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
