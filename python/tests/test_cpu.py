"""CPU tests: the module imports without torch and without a GPU, reports
"no GPU" cleanly, and checks arguments before the C call.  They need the
built library (make), not torch.  Fake __cuda_array_interface__ objects
stand in for device arrays: their pointers are never dereferenced, since
every call here either fails its checks or stops at kp_ctx_create.
"""
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # python/: the source tree's kernpack

import kernpack  # noqa: E402
from kernpack import _errors, _lib  # noqa: E402
from harness import skip  # noqa: E402


class Fake:
    """A device array as far as __cuda_array_interface__ tells."""

    next_ptr = 0x7F0000000000

    def __init__(self, shape, typestr="<f4", ptr=None, strides=None):
        if ptr is None:  # distinct and 256-byte aligned, like real allocations
            ptr = Fake.next_ptr
            Fake.next_ptr += 1 << 20
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr,
                                         "data": (ptr, False), "strides": strides, "version": 3}


def _lib_or_skip():
    try:
        return _lib.load()
    except kernpack.LibraryNotFoundError as e:
        skip(f"libkernpack not built: {e.message[:120]}")


def _no_gpu_or_skip():
    if kernpack.info()["gpu"]:
        skip("a GPU is present: the no-GPU behaviour is not observable here")


# The package imports without torch (and does not import it by itself).
def test_import_without_torch():
    code = "import sys; import kernpack; print('torch' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(HERE),
                       capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "False", r.stdout


# info() never raises and says why there is no GPU: no driver or no device.
def test_info_reports_no_gpu():
    _lib_or_skip()
    _no_gpu_or_skip()
    i = kernpack.info()
    assert i["gpu"] is False and i["devices"] == [] or all("error" in d for d in i["devices"])
    assert i["library"] and i["version"] == kernpack.library_version()
    assert i["driver"]["error"], i["driver"]
    assert "KP_ERR_NO_DRIVER" in i["driver"]["error"] or "KP_ERR_NO_DEVICE" in i["driver"]["error"]
    assert kernpack.gpu_available() is False


# info() lists the packs of $KP_PACK_DIR (make test points it at build/packs)
# as kp info does: target, NVRTC version, entries; a bad file gets an error.
def test_info_packs(tmp_path=None):
    _lib_or_skip()
    d = os.environ.get("KP_PACK_DIR")
    if not d or not os.path.isdir(d) or not any(n.endswith(".kpk") for n in os.listdir(d)):
        skip("KP_PACK_DIR names no directory with packs")
    packs = kernpack.info()["packs"]
    good = [p for p in packs if "error" not in p]
    assert good, packs
    for p in good:
        assert p["entries"] > 0 and p["target"] and p["file"] == p["target"] + ".kpk", p


# A pack that is not one is reported with the library's status and message.
def test_info_bad_pack():
    _lib_or_skip()
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "sm_90a.kpk"), "wb") as f:
            f.write(b"not a pack at all" * 10)
        old = os.environ.get("KP_PACK_DIR")
        os.environ["KP_PACK_DIR"] = d
        try:
            packs = kernpack.info()["packs"]
        finally:
            if old is None:
                del os.environ["KP_PACK_DIR"]
            else:
                os.environ["KP_PACK_DIR"] = old
    assert len(packs) == 1 and packs[0]["error"].startswith("KP_ERR_PACK_CORRUPT"), packs


# The binding's status list and struct mirrors match the library (checked on load).
def test_binding_matches_library():
    lib = _lib_or_skip()
    for i, name in enumerate(_errors.STATUS_NAMES):
        assert lib.status_name(i) == name
    assert lib.kp_options_sizeof() == __import__("ctypes").sizeof(_lib.KpOptions)


# Each status maps to its exception class, which carries name and message.
def test_error_classes():
    e = _errors.error_for("KP_ERR_INVALID_ARG", "softmax: cols=0: must be >= 1", 1)
    assert isinstance(e, kernpack.InvalidArgumentError) and isinstance(e, ValueError)
    assert e.status == 1 and e.status_name == "KP_ERR_INVALID_ARG"
    assert str(e) == "KP_ERR_INVALID_ARG: softmax: cols=0: must be >= 1"
    assert isinstance(_errors.error_for("KP_ERR_NO_DRIVER", "x"), kernpack.NoDriverError)
    assert type(_errors.error_for("KP_SOMETHING_NEW", "x")) is kernpack.Error


def _expect_errors(cases):
    """Each (fn, cls, text): fn() raises cls with text in its message."""
    for fn, cls, text in cases:
        try:
            fn()
        except kernpack.Error as e:
            assert isinstance(e, cls), (text, type(e), e)
            assert text in str(e), (text, str(e))
        else:
            raise AssertionError(f"no exception for {text!r}")


# Bad arguments are refused in Python, before any C call, with the op and argument named.
def test_argument_checks():
    x = Fake((4, 8))
    cases = [
        (lambda: kernpack.softmax(Fake((4, 8), "<i4"), out=x), kernpack.UnsupportedError,
         "softmax: x dtype <i4"),
        (lambda: kernpack.softmax(x, out=Fake((4, 9))), kernpack.InvalidArgumentError,
         "softmax: out has shape (4, 9), expected (4, 8)"),
        (lambda: kernpack.softmax(x, out=Fake((4, 8), "<f2")), kernpack.UnsupportedError,
         "differs from x dtype"),
        (lambda: kernpack.rmsnorm(x, Fake((7,)), out=x), kernpack.InvalidArgumentError,
         "rmsnorm: weight has shape (7,), expected (8,)"),
        (lambda: kernpack.softmax(Fake((4, 8), strides=(32, 8)), out=x),
         kernpack.InvalidArgumentError, "cannot be passed as rows"),
        (lambda: kernpack.softmax(x, out=Fake((4, 8), strides=(4, 16))),
         kernpack.InvalidArgumentError, "out with shape (4, 8)"),
        (lambda: kernpack.softmax([1.0, 2.0]), kernpack.UnsupportedError,
         "expected a torch.Tensor"),
        (lambda: kernpack.softmax(x), kernpack.UnsupportedError, "pass out="),
        (lambda: kernpack.geglu(x, x, approximate="fast", out=x), kernpack.InvalidArgumentError,
         "approximate='fast'"),
        (lambda: kernpack.swiglu(Fake((4, 7)), out=x), kernpack.InvalidArgumentError,
         "last dim must be even"),
        (lambda: kernpack.rope(Fake((4, 2, 8), "<f2"), cos=Fake((4, 4))),
         kernpack.InvalidArgumentError, "both cos and sin"),
        (lambda: kernpack.rope(Fake((4, 8), "<f2")), kernpack.InvalidArgumentError,
         "(..., heads, head_dim)"),
        (lambda: kernpack.gemm(Fake((4, 8), "<f2"), Fake((5, 9), "<f2"), out=Fake((4, 5), "<f2")),
         kernpack.InvalidArgumentError, "k=8"),
        (lambda: kernpack.gemm(x, x, out=x), kernpack.UnsupportedError,
         "must be one of float16, bfloat16"),
        (lambda: kernpack.gemm(Fake((4, 8), "<f2"), Fake((5, 8), "<f2"), act="gelu"),
         kernpack.InvalidArgumentError, "act='gelu'"),
    ]
    if importlib.util.find_spec("torch"):  # with torch a missing out= is allocated and the
        cases = [c for c in cases if c[2] != "pass out="]  # call would launch on Fake pointers
    _expect_errors(cases)


# kernpack.attention refuses bad arguments in Python, naming them; a
# well-formed call in either layout, without a GPU, reaches the library.
def test_attention_checks():
    def h(shape, strides=None):
        return Fake(shape, "<f2", strides=strides)
    q, kv, o = h((2, 8, 4, 64)), h((2, 16, 2, 64)), h((2, 8, 4, 64))
    cases = [
        (lambda: kernpack.attention(q, kv, kv, layout="sbhd", out=o),
         kernpack.InvalidArgumentError, "layout='sbhd'"),
        (lambda: kernpack.attention(h((8, 4, 64)), kv, kv, out=o),
         kernpack.InvalidArgumentError, "q has shape (8, 4, 64): must be 4-D"),
        (lambda: kernpack.attention(q, h((2, 16, 2, 32)), kv, out=o),
         kernpack.InvalidArgumentError, "do not agree"),
        (lambda: kernpack.attention(q, kv, h((2, 15, 2, 64)), out=o),
         kernpack.InvalidArgumentError, "do not agree"),
        (lambda: kernpack.attention(Fake((2, 8, 4, 64)), kv, kv, out=o),
         kernpack.UnsupportedError, "must be one of float16, bfloat16"),
        (lambda: kernpack.attention(q, kv, kv, window=3, out=o),
         kernpack.InvalidArgumentError, "window=3"),
        (lambda: kernpack.attention(q, kv, kv, out=h((2, 8, 4, 63))),
         kernpack.InvalidArgumentError, "out has shape (2, 8, 4, 63)"),
        (lambda: kernpack.attention(q, h((2, 16, 2, 64), strides=(8192, 512, 128, 4)), kv, out=o),
         kernpack.InvalidArgumentError, "the last dim must be contiguous"),
        (lambda: kernpack.attention(q, kv, kv, out=o, lse=Fake((2, 4, 7))),
         kernpack.InvalidArgumentError, "expected float32 (2, 4, 8)"),
    ]
    # varlen: (total, heads, dim) tensors, int32 offsets, the bounds
    tq, tkv, cq, ck = h((20, 4, 64)), h((40, 2, 64)), Fake((3,), "<i4"), Fake((3,), "<i4")
    vl = dict(cu_seqlens_q=cq, cu_seqlens_k=ck, max_seqlen_q=12, max_seqlen_k=30)
    cases += [
        (lambda: kernpack.attention(tq, tkv, tkv, cu_seqlens_q=cq, max_seqlen_q=12, out=tq),
         kernpack.InvalidArgumentError, "cu_seqlens_q and cu_seqlens_k go together"),
        (lambda: kernpack.attention(tq, tkv, tkv, **dict(vl, max_seqlen_k=0), out=tq),
         kernpack.InvalidArgumentError, "max_seqlen_k=0: must be an int >= 1"),
        (lambda: kernpack.attention(q, kv, kv, max_seqlen_q=3, out=o),
         kernpack.InvalidArgumentError, "max_seqlen_q/k are for cu_seqlens calls"),
        (lambda: kernpack.attention(q, kv, kv, **vl, out=o),
         kernpack.InvalidArgumentError, "q has shape (2, 8, 4, 64): must be 3-D (total"),
        (lambda: kernpack.attention(tq, tkv, tkv, layout="bhsd", **vl, out=tq),
         kernpack.InvalidArgumentError, "layout='bhsd' with cu_seqlens"),
        (lambda: kernpack.attention(tq, tkv, tkv, **dict(vl, cu_seqlens_k=Fake((4,), "<i4")),
                                    out=tq),
         kernpack.InvalidArgumentError, "cu_seqlens_k has 4 offsets, cu_seqlens_q 3"),
        (lambda: kernpack.attention(tq, tkv, tkv, **dict(vl, cu_seqlens_q=Fake((3,), "<i8")),
                                    out=tq),
         kernpack.InvalidArgumentError, "cu_seqlens_q is <i8 (3,): must be a contiguous int32"),
        (lambda: kernpack.attention(tq, tkv, tkv, **vl, out=tq, lse=Fake((4, 20))),
         kernpack.InvalidArgumentError, "expected float32 (20, 4)"),
    ]
    # a paged KV cache: (pages, page, heads_kv, dim) caches, an int32 table a sequence
    kc, bt = h((9, 16, 2, 64)), Fake((2, 3), "<i4")
    cases += [
        (lambda: kernpack.attention(q, kc, kc, block_table=bt, out=o),
         kernpack.InvalidArgumentError, "seqlen_k=None: a block_table call needs"),
        (lambda: kernpack.attention(q, kv, kv, seqlen_k=16, out=o),
         kernpack.InvalidArgumentError, "seqlen_k is for block_table calls"),
        (lambda: kernpack.attention(q, kc, kc, block_table=Fake((2, 3), "<i8"), seqlen_k=40,
                                    out=o),
         kernpack.InvalidArgumentError, "block_table is <i8 (2, 3): must be int32"),
        (lambda: kernpack.attention(q, kc, kc, block_table=Fake((2, 2), "<i4"), seqlen_k=40,
                                    out=o),
         kernpack.InvalidArgumentError, "2 pages a sequence of 16 tokens: fewer than the 40"),
        (lambda: kernpack.attention(q, kc, kc, block_table=Fake((3, 3), "<i4"), seqlen_k=40,
                                    out=o),
         kernpack.InvalidArgumentError, "block_table has 3 rows for a batch of 2"),
        (lambda: kernpack.attention(q, kc, h((9, 8, 2, 64)), block_table=bt, seqlen_k=40, out=o),
         kernpack.InvalidArgumentError, "do not agree"),
        (lambda: kernpack.attention(tq, kc, kc, block_table=bt, **vl, seqlen_k=40, out=tq),
         kernpack.InvalidArgumentError, "seqlen_k is for block_table calls without cu_seqlens"),
    ]
    _expect_errors(cases)
    _lib_or_skip()
    _no_gpu_or_skip()
    for paged_call in (  # well formed: they reach the library
            lambda: kernpack.attention(h((2, 1, 4, 64)), kc, kc, block_table=bt, seqlen_k=40,
                                       out=h((2, 1, 4, 64))),
            lambda: kernpack.attention(tq, kc, kc, block_table=bt, **vl, out=h((20, 4, 64)))):
        try:
            paged_call()
        except (kernpack.NoDriverError, kernpack.NoDeviceError) as e:
            assert e.status_name in ("KP_ERR_NO_DRIVER", "KP_ERR_NO_DEVICE"), e
        else:
            raise AssertionError("attention ran without a GPU")
    for layout, shp in (("bshd", (2, 8, 4, 64)), ("bhsd", (2, 4, 8, 64))):
        try:
            kernpack.attention(h(shp), kv if layout == "bshd" else h((2, 2, 16, 64)),
                               kv if layout == "bshd" else h((2, 2, 16, 64)), causal=True,
                               layout=layout, out=h(shp), lse=Fake((2, 4, 8)))
        except (kernpack.NoDriverError, kernpack.NoDeviceError) as e:
            assert e.status_name in ("KP_ERR_NO_DRIVER", "KP_ERR_NO_DEVICE"), e
        else:
            raise AssertionError("attention ran without a GPU")
    try:  # varlen, well formed
        kernpack.attention(tq, tkv, tkv, causal=True, **vl, out=h((20, 4, 64)),
                           lse=Fake((20, 4)))
    except (kernpack.NoDriverError, kernpack.NoDeviceError) as e:
        assert e.status_name in ("KP_ERR_NO_DRIVER", "KP_ERR_NO_DEVICE"), e
    else:
        raise AssertionError("attention ran without a GPU")


# A well-formed call on a machine without a GPU reaches the library and
# comes back as NoDriverError/NoDeviceError with the library's message.
def test_call_without_gpu():
    _lib_or_skip()
    _no_gpu_or_skip()
    x = Fake((4, 8))
    try:
        kernpack.rmsnorm(x, Fake((8,)), out=Fake((4, 8)))
    except (kernpack.NoDriverError, kernpack.NoDeviceError) as e:
        assert e.status_name in ("KP_ERR_NO_DRIVER", "KP_ERR_NO_DEVICE")
        assert e.message, e
    else:
        raise AssertionError("rmsnorm ran without a GPU")


# $KP_LIB is tried first; a wrong one is named in the error when nothing else loads.
def test_library_lookup():
    lib = _lib_or_skip()
    path = _lib.loaded_path(lib)
    code = ("import kernpack._lib as l; lib = l.load(); print(lib.how); "
            "print(l.loaded_path(lib))")
    env = dict(os.environ, KP_LIB=path)
    r = subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(HERE), env=env,
                       capture_output=True, text=True, check=True)
    assert r.stdout.split("\n")[:2] == ["$KP_LIB", path], r.stdout
    env = dict(os.environ, KP_LIB="/nonexistent/libkernpack.so", KP_BUILD_DIR="no-such-build")
    r = subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(HERE), env=env,
                       capture_output=True, text=True)
    if r.returncode == 0:  # an installed copy was found by a later step
        assert r.stdout.split("\n")[0] != "$KP_LIB", r.stdout
    else:
        assert "LibraryNotFoundError" in r.stderr and "/nonexistent/libkernpack.so" in r.stderr
