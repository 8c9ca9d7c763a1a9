"""kp_attention: O = softmax(scale * Q K^T + mask) V, per batch and query head.

Shapes (layout="bshd", flash-attn's): q (batch, seq_q, heads_q, dim); k, v
(batch, seq_k, heads_kv, dim); out like q.  layout="bhsd" (torch SDPA's):
(batch, heads, seq, dim).  Any strides with the last dim contiguous (a
transposed view is passed as it is); heads_kv divides heads_q (GQA, MQA).
float16 or bfloat16, fp32 softmax; dim 1..256 (64, 96, 128 and 256 are the
fast ones, with 16-byte aligned strides).

causal aligns the diagonal bottom-right (query i sees keys j <= i + seq_k -
seq_q), as flash-attn does; torch SDPA's is_causal aligns it top-left, the
same only when seq_q == seq_k.  window=(left, right): query i sees keys
i + seq_k - seq_q - left .. + right (-1: unbounded).  A query that sees no
key gets zeros (and lse -inf).  return_lse=True also returns the float32
(batch, heads_q, seq_q) log-sum-exp of the scaled scores.

Variable-length batches, as flash_attn_varlen_func takes them: cu_seqlens_q
and cu_seqlens_k (int32 (batch + 1,) cumulative offsets on the device),
max_seqlen_q and max_seqlen_k (ints, the longest sequences: a longer one is
cut to them); q (total_q, heads_q, dim), k, v (total_k, heads_kv, dim), out
like q, sequence b's rows cu_seqlens_q[b] .. cu_seqlens_q[b + 1]; causal and
the window aligned per sequence; lse float32 (total_q, heads_q).  Both
offsets together (the C API also takes either alone).

A paged KV cache, as vLLM and flash_attn_with_kvcache keep it: block_table
(int32 (batch, pages_per_seq) on the device, rows contiguous), k and v the
caches (num_pages, page_size, heads_kv, dim) (layout="bhsd": (num_pages,
heads_kv, page_size, dim)); key j of sequence b is token j % page_size of
page block_table[b, j // page_size] (an index outside [0, num_pages) reads
as zeros).  Every sequence has seqlen_k keys (an int), or with cu_seqlens
its own number, cu_seqlens_k giving the lengths (max_seqlen_k the bound; q
and out (total_q, heads_q, dim) as for varlen).  Decode (seq_q <= 16) has
the fast kernels; longer queries run an element-wise fallback.

workspace: a decode call (seq_q <= 16) runs fastest split over the whole GPU
with scratch memory for its partial results (kp_attention_workspace_size's
bytes).  None: with torch tensors, one is taken from torch's allocator for
the call (graph capture takes it from the graph's pool); an array (any
dtype, contiguous, on the device, 16-byte aligned): that one; False: none.
workspace_zeroed=True (with an array): its counters are zero -- it was
zeroed whole once and since used only as an attention workspace by calls
that completed, which leave them zero -- so the call skips clearing them
(a memset in the stream before the kernel).
"""
import ctypes
import math

from . import _lib
from ._arrays import as_arr, check_device, check_dtype, empty
from ._call import Call
from ._errors import invalid

__all__ = ["attention"]

_LAYOUTS = ("bshd", "bhsd")


def _bshd(a, layout):
    """(shape, strides) of a 4-D array seen as (batch, seq, heads, dim)."""
    if a.ndim != 4:
        raise invalid(f"attention: {a.name} has shape {tuple(a.shape)}: must be 4-D "
                      f"({'batch, seq, heads, dim' if layout == 'bshd' else 'batch, heads, seq, dim'})")
    sh, st = list(a.shape), list(a.strides)
    if layout == "bhsd":
        sh[1], sh[2], st[1], st[2] = sh[2], sh[1], st[2], st[1]
    if sh[3] > 1 and st[3] != 1:
        raise invalid(f"attention: {a.name} strides {tuple(a.strides)}: the last dim must be "
                      f"contiguous")
    return sh, st


def _thd(a):
    """(shape, strides) of a varlen (total, heads, dim) array seen as (batch,
    seq, heads, dim) with one batch (its stride unused)."""
    if a.ndim != 3:
        raise invalid(f"attention: {a.name} has shape {tuple(a.shape)}: must be 3-D (total, "
                      f"heads, dim) with cu_seqlens")
    if a.shape[2] > 1 and a.strides[2] != 1:
        raise invalid(f"attention: {a.name} strides {tuple(a.strides)}: the last dim must be "
                      f"contiguous")
    return [1] + list(a.shape), [0] + list(a.strides)


def _cu(obj, name, batch, op):
    """The Arr of a cu_seqlens vector: int32, (batch + 1,), contiguous."""
    a = as_arr(obj, name, op)
    if a.dtype_str not in ("torch.int32", "<i4") or a.ndim != 1 or (a.shape[0] > 1 and
                                                                   a.strides[0] != 1):
        raise invalid(f"attention: {name} is {a.dtype_str} {tuple(a.shape)}: must be a "
                      f"contiguous int32 vector")
    if batch is not None and a.shape[0] != batch + 1:
        raise invalid(f"attention: {name} has {a.shape[0]} offsets, cu_seqlens_q {batch + 1}")
    if a.shape[0] < 2:
        raise invalid(f"attention: {name} has shape {tuple(a.shape)}: needs batch + 1 >= 2 "
                      f"offsets")
    return a


def attention(q, k, v, *, causal=False, scale=None, window=(-1, -1), layout="bshd",
              return_lse=False, out=None, lse=None, stream=None, cu_seqlens_q=None,
              cu_seqlens_k=None, max_seqlen_q=None, max_seqlen_k=None, block_table=None,
              seqlen_k=None, workspace=None, workspace_zeroed=False):
    """softmax(scale * q @ k^T + mask) @ v; see the module doc.  scale
    defaults to 1/sqrt(dim).  Returns out, or (out, lse) with return_lse (or
    an lse= given)."""
    op = "attention"
    if layout not in _LAYOUTS:
        raise invalid(f"attention: layout={layout!r}: must be 'bshd' or 'bhsd'")
    varlen = cu_seqlens_q is not None or cu_seqlens_k is not None
    if varlen:
        if cu_seqlens_q is None or cu_seqlens_k is None:
            raise invalid("attention: cu_seqlens_q and cu_seqlens_k go together")
        if layout != "bshd":
            raise invalid(f"attention: layout={layout!r} with cu_seqlens: tensors are (total, "
                          f"heads, dim)")
        for name, m in (("max_seqlen_q", max_seqlen_q), ("max_seqlen_k", max_seqlen_k)):
            if not isinstance(m, int) or m < 1:
                raise invalid(f"attention: {name}={m!r}: must be an int >= 1 with cu_seqlens")
    elif max_seqlen_q is not None or max_seqlen_k is not None:
        raise invalid("attention: max_seqlen_q/k are for cu_seqlens calls")
    paged = block_table is not None
    if paged and not varlen and (not isinstance(seqlen_k, int) or isinstance(seqlen_k, bool)
                                 or seqlen_k < 1):
        raise invalid(f"attention: seqlen_k={seqlen_k!r}: a block_table call needs the keys "
                      f"per sequence, an int >= 1 (or cu_seqlens)")
    if seqlen_k is not None and (not paged or varlen):
        raise invalid("attention: seqlen_k is for block_table calls without cu_seqlens")
    try:
        wl, wr = (int(w) for w in window)
    except (TypeError, ValueError):
        raise invalid(f"attention: window={window!r}: must be (left, right), -1 for none") from None
    qa, ka, va = as_arr(q, "q", op), as_arr(k, "k", op), as_arr(v, "v", op)
    dt = check_dtype([qa, ka, va], op, (_lib.KP_F16, _lib.KP_BF16))
    dev = check_device([qa, ka, va], op)
    shape = _thd if varlen else (lambda a: _bshd(a, layout))
    (b, lq, hq, d), sq = shape(qa)
    kshape = (lambda a: _bshd(a, layout)) if paged else shape  # caches: (pages, page, ...)
    (bk, lk, hkv, dk), sk = kshape(ka)
    vsh, sv = kshape(va)
    if not ((paged or bk == b) and dk == d and tuple(vsh) == (bk, lk, hkv, dk)):
        raise invalid(f"attention: q {tuple(qa.shape)}, k {tuple(ka.shape)}, v "
                      f"{tuple(va.shape)} do not agree (layout {layout})")
    bt = None
    if paged:  # k, v: (num_pages = bk, page_size = lk, heads_kv, dim)
        npages, page = bk, lk
        bt = as_arr(block_table, "block_table", op)
        if bt.dtype_str not in ("torch.int32", "<i4") or bt.ndim != 2 or (
                bt.shape[1] > 1 and bt.strides[1] != 1):
            raise invalid(f"attention: block_table is {bt.dtype_str} {tuple(bt.shape)}: must "
                          f"be int32 (batch, pages per sequence), rows contiguous")
        lk = max_seqlen_k if varlen else seqlen_k
        if bt.shape[1] * page < lk:
            raise invalid(f"attention: block_table has {bt.shape[1]} pages a sequence of "
                          f"{page} tokens: fewer than the {lk} keys")
    call = Call(op, dev, stream)
    if out is None:
        with call.on_stream():
            oa = empty(qa.shape, dt, dev, op)
    else:
        oa = as_arr(out, "out", op)
        if tuple(oa.shape) != tuple(qa.shape):
            raise invalid(f"attention: out has shape {tuple(oa.shape)}, expected {tuple(qa.shape)}")
    check_dtype([qa, oa], op)
    _, so = shape(oa)
    la = None
    # lse: (batch, heads_q, seq_q), or (total_q, heads_q) with cu_seqlens
    lshape = (lq, hq) if varlen else (b, hq, lq)
    if lse is not None or return_lse:
        if lse is None:
            with call.on_stream():
                la = empty(lshape, _lib.KP_F32, dev, op)
        else:
            la = as_arr(lse, "lse", op)
            if tuple(la.shape) != lshape or la.dtype != _lib.KP_F32:
                raise invalid(f"attention: lse is {la.dtype_str} {tuple(la.shape)}, expected "
                              f"float32 {lshape}")
            packed = (hq, 1) if varlen else (hq * lq, lq, 1)
            if la.numel() > 1 and tuple(la.strides) != packed:
                raise invalid(f"attention: lse strides {tuple(la.strides)}: must be packed")
    cus = []
    if varlen:  # the batch is the offsets' count - 1; seq_q, seq_k the packed totals
        cus = [_cu(cu_seqlens_q, "cu_seqlens_q", None, op)]
        cus.append(_cu(cu_seqlens_k, "cu_seqlens_k", cus[0].shape[0] - 1, op))
    if bt is not None and bt.shape[0] != (cus[0].shape[0] - 1 if varlen else b):
        raise invalid(f"attention: block_table has {bt.shape[0]} rows for a batch of "
                      f"{cus[0].shape[0] - 1 if varlen else b} sequences")
    check_device([qa, oa] + ([la] if la is not None else []) + cus +
                 ([bt] if bt is not None else []), op)
    if qa.numel() == 0:
        return (oa.obj, la.obj) if la is not None else oa.obj
    if ka.numel() == 0:
        raise invalid(f"attention: k has shape {tuple(ka.shape)}: no keys to attend to")

    desc = _lib.KpAttnDesc()
    if varlen:
        call.lib.kp_attn_desc_init(desc, cus[0].shape[0] - 1, hq, hkv, max_seqlen_q,
                                   max_seqlen_k, d)
        desc.cu_seqlens_q, desc.cu_seqlens_k = cus[0].ptr, cus[1].ptr
        desc.total_q, desc.total_k = lq, 0 if paged else lk
    else:
        call.lib.kp_attn_desc_init(desc, b, hq, hkv, lq, lk, d)
    if paged:  # the batch strides of K and V: between pages
        desc.block_table, desc.page_size, desc.num_pages = bt.ptr, page, npages
        desc.block_table_stride = bt.strides[0] if bt.shape[0] > 1 else bt.shape[1]
    for name, st in (("q", sq), ("k", sk), ("v", sv), ("o", so)):
        setattr(desc, f"{name}_stride_batch", st[0])
        setattr(desc, f"{name}_stride_seq", st[1])
        setattr(desc, f"{name}_stride_head", st[2])
    desc.scale = float(scale) if scale is not None else 1.0 / math.sqrt(d)
    desc.causal = 1 if causal else 0
    desc.window_left, desc.window_right = wl, wr
    if la is not None:
        desc.lse = la.ptr
    wsa = None
    if workspace_zeroed and (workspace is None or workspace is False):
        raise invalid("attention: workspace_zeroed needs a workspace (an array zeroed once)")
    if workspace is not False and (max_seqlen_q if varlen else lq) <= 16:
        need = ctypes.c_size_t(0)
        call.check(call.lib.kp_attention_workspace_size(call.ctx.handle, dt, desc,
                                                        ctypes.byref(need)))
        if workspace is None and need.value and qa.torch:
            import torch
            with call.on_stream():
                wsa = as_arr(torch.empty(need.value, dtype=torch.uint8, device=qa.obj.device),
                             "workspace", op)
        elif workspace is not None:
            wsa = as_arr(workspace, "workspace", op)
            desc.workspace_zeroed = 1 if workspace_zeroed else 0
            check_device([qa, wsa], op)
            if wsa.numel() > 1 and wsa.strides[-1] != 1:
                raise invalid("attention: workspace must be contiguous")
        if wsa is not None:
            desc.workspace = wsa.ptr
            desc.workspace_bytes = wsa.numel() * wsa.itemsize
    call.check(call.lib.kp_attention(call.ctx.handle, dt, qa.ptr, ka.ptr, va.ptr, oa.ptr, desc,
                                     call.stream))
    return (oa.obj, la.obj) if la is not None else oa.obj
