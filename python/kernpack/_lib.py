"""Finding and loading libkernpack, and the ctypes mirror of include/kernpack.h.

Lookup order (the first that loads wins; every failure is kept for the
message):
  1. $KP_LIB (a file);
  2. the build tree this package sits in: <repo>/build/lib/libkernpack.so,
     or <repo>/$KP_BUILD_DIR/lib when the build was moved with O=;
  3. install prefixes: sys.prefix/lib, /usr/local/lib, /usr/lib;
  4. the system loader (libkernpack.so.0, LD_LIBRARY_PATH, ldconfig).

The library finds its packs itself (kp_options.pack_dir NULL: $KP_PACK_DIR,
else <dir of the .so>/../packs, else <dir>/../share/kernpack/packs, else the
install default), so a build-tree library uses build/packs.
"""
import ctypes
import os
import sys
import threading

from ._errors import STATUS_NAMES, Error, LibraryNotFoundError

_HERE = os.path.dirname(os.path.abspath(__file__))
# python/kernpack/_lib.py -> the repository root, when run from the source tree
REPO = os.path.dirname(os.path.dirname(_HERE))

c_int, c_i64, c_f32, c_vp, c_size = (ctypes.c_int, ctypes.c_int64, ctypes.c_float,
                                     ctypes.c_void_p, ctypes.c_size_t)

# ---- enums (kernpack.h) ----------------------------------------------------------
KP_F32, KP_F16, KP_BF16 = 0, 1, 2
KP_GELU_ERF, KP_GELU_TANH = 0, 1
KP_ROPE_NEOX, KP_ROPE_GPTJ = 0, 1
KP_ACT = {"none": 0, "relu": 1, "silu": 2, "gelu_tanh": 3}
KP_B_NK, KP_B_KN = 0, 1
KP_NO_DEVICE = -1
KP_LOG_ERROR, KP_LOG_WARN, KP_LOG_INFO, KP_LOG_DEBUG = 0, 1, 2, 3

KP_LOG_FN = ctypes.CFUNCTYPE(None, c_vp, c_int, ctypes.c_char_p)


# ---- structs: field for field as in kernpack.h -------------------------------------
class KpOptions(ctypes.Structure):
    _fields_ = [
        ("device", c_int),
        ("use_current_context", c_int),
        ("pack_dir", ctypes.c_char_p),
        ("pack_path", ctypes.c_char_p),
        ("log", KP_LOG_FN),
        ("log_userdata", c_vp),
        ("log_level", c_int),            # kp_log_level
        ("tune_path", ctypes.c_char_p),
        ("no_jit", c_int),
        ("autotune", c_int),
        ("pdl", c_int),
        ("reserved_", c_vp * 5),
    ]


class KpDeviceInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 128),
        ("ordinal", c_int),
        ("sm", c_int),
        ("sm_count", c_int),
        ("driver_version", c_int),
        ("smem_per_block_optin", c_size),
        ("smem_per_sm", c_size),
        ("l2_bytes", c_size),
        ("target", ctypes.c_char * 16),
        ("pack_path", ctypes.c_char * 512),
    ]


class KpRopeDesc(ctypes.Structure):
    _fields_ = [
        ("tokens", c_i64), ("heads_q", c_i64), ("heads_k", c_i64),
        ("head_dim", c_i64), ("rot_dim", c_i64),
        ("q_stride_token", c_i64), ("q_stride_head", c_i64),
        ("k_stride_token", c_i64), ("k_stride_head", c_i64),
        ("layout", c_int),               # kp_rope_layout
        ("cos", c_vp), ("sin", c_vp),    # const float *
        ("cs_stride", c_i64),
        ("positions", c_vp),             # const int32_t *
        ("theta", c_f32),
    ]


class KpGemmDesc(ctypes.Structure):
    _fields_ = [
        ("m", c_i64), ("n", c_i64), ("k", c_i64), ("batch", c_i64),
        ("b_layout", c_int),             # kp_b_layout
        ("lda", c_i64), ("ldb", c_i64), ("ldc", c_i64), ("ldd", c_i64),
        ("stride_a", c_i64), ("stride_b", c_i64), ("stride_c", c_i64), ("stride_d", c_i64),
        ("alpha", c_f32), ("beta", c_f32),
        ("c", c_vp), ("bias", c_vp),
        ("act", c_int),                  # kp_act
        ("out_f32", c_int),
    ]


class KpAttnDesc(ctypes.Structure):
    _fields_ = [
        ("batch", c_i64), ("heads_q", c_i64), ("heads_kv", c_i64),
        ("len_q", c_i64), ("len_k", c_i64), ("head_dim", c_i64),
        ("q_stride_batch", c_i64), ("q_stride_seq", c_i64), ("q_stride_head", c_i64),
        ("k_stride_batch", c_i64), ("k_stride_seq", c_i64), ("k_stride_head", c_i64),
        ("v_stride_batch", c_i64), ("v_stride_seq", c_i64), ("v_stride_head", c_i64),
        ("o_stride_batch", c_i64), ("o_stride_seq", c_i64), ("o_stride_head", c_i64),
        ("scale", c_f32),
        ("causal", c_int),
        ("window_left", c_i64), ("window_right", c_i64),
        ("lse", c_vp),                   # float *
        ("cu_seqlens_q", c_vp), ("cu_seqlens_k", c_vp),  # int32 *: varlen
        ("block_table", c_vp),           # int32 *: paged K and V
        ("block_table_stride", c_i64), ("page_size", c_i64), ("num_pages", c_i64),
        ("total_q", c_i64), ("total_k", c_i64),  # varlen: packed tokens
        ("workspace", c_vp), ("workspace_bytes", c_i64),  # split-KV decode's scratch
        ("workspace_zeroed", ctypes.c_int32), ("reserved_", ctypes.c_int32),
    ]


_P = ctypes.POINTER
# name: (restype, argtypes); argument names as in kernpack.h
SIGNATURES = {
    "kp_version": (ctypes.c_char_p, []),
    "kp_status_name": (ctypes.c_char_p, [c_int]),
    "kp_strerror": (ctypes.c_char_p, [c_int]),
    "kp_dtype_name": (ctypes.c_char_p, [c_int]),
    "kp_dtype_size": (c_size, [c_int]),
    "kp_options_sizeof": (c_size, []),
    "kp_options_init": (None, [_P(KpOptions)]),
    "kp_ctx_create": (c_int, [_P(KpOptions), _P(c_vp)]),
    "kp_ctx_destroy": (None, [c_vp]),
    "kp_ctx_errmsg": (ctypes.c_char_p, [c_vp]),
    "kp_ctx_device_info": (c_int, [c_vp, _P(KpDeviceInfo)]),
    "kp_ctx_set_pdl": (c_int, [c_vp, c_int]),
    "kp_ctx_pdl": (c_int, [c_vp]),
    # (ctx, dt, x, ldx, y, ldy, rows, cols, stream)
    "kp_softmax": (c_int, [c_vp, c_int, c_vp, c_i64, c_vp, c_i64, c_i64, c_i64, c_vp]),
    # (ctx, dt, x, ldx, w, y, ldy, rows, cols, eps, stream)
    "kp_rmsnorm": (c_int, [c_vp, c_int, c_vp, c_i64, c_vp, c_vp, c_i64, c_i64, c_i64, c_f32,
                           c_vp]),
    # (ctx, dt, x, ldx, residual, ldr, w, y, ldy, rows, cols, eps, stream)
    "kp_add_rmsnorm": (c_int, [c_vp, c_int, c_vp, c_i64, c_vp, c_i64, c_vp, c_vp, c_i64, c_i64,
                               c_i64, c_f32, c_vp]),
    # (ctx, dt, gate, up, ldin, y, ldy, rows, cols, stream)
    "kp_swiglu": (c_int, [c_vp, c_int, c_vp, c_vp, c_i64, c_vp, c_i64, c_i64, c_i64, c_vp]),
    # (ctx, dt, form, gate, up, ldin, y, ldy, rows, cols, stream)
    "kp_geglu": (c_int, [c_vp, c_int, c_int, c_vp, c_vp, c_i64, c_vp, c_i64, c_i64, c_i64,
                         c_vp]),
    # (ctx, dt, x, ldx, w, y, ldy, rows, cols, eps, stream)
    "kp_rmsnorm_swiglu": (c_int, [c_vp, c_int, c_vp, c_i64, c_vp, c_vp, c_i64, c_i64, c_i64,
                                  c_f32, c_vp]),
    # (ctx, dt, q, k, desc, stream)
    "kp_rope": (c_int, [c_vp, c_int, c_vp, c_vp, _P(KpRopeDesc), c_vp]),
    # (desc, m, n, k)
    "kp_gemm_desc_init": (None, [_P(KpGemmDesc), c_i64, c_i64, c_i64]),
    # (ctx, dt, a, b, d, desc, stream)
    "kp_gemm": (c_int, [c_vp, c_int, c_vp, c_vp, c_vp, _P(KpGemmDesc), c_vp]),
    # (desc, batch, heads_q, heads_kv, len_q, len_k, head_dim)
    "kp_attn_desc_init": (None, [_P(KpAttnDesc), c_i64, c_i64, c_i64, c_i64, c_i64, c_i64]),
    # (ctx, dt, q, k, v, o, desc, stream)
    "kp_attention": (c_int, [c_vp, c_int, c_vp, c_vp, c_vp, c_vp, _P(KpAttnDesc), c_vp]),
    "kp_attention_workspace_size": (c_int, [c_vp, c_int, _P(KpAttnDesc), _P(ctypes.c_size_t)]),
}


def _candidates():
    """(path or soname, how it was found) in lookup order."""
    out = []
    env = os.environ.get("KP_LIB")
    if env:
        out.append((env, "$KP_LIB"))
    if os.path.exists(os.path.join(REPO, "include", "kernpack.h")):  # in the source tree
        build = os.environ.get("KP_BUILD_DIR", "build")
        out.append((os.path.join(REPO, build, "lib", "libkernpack.so"), "build tree"))
    for prefix in dict.fromkeys((sys.prefix, "/usr/local", "/usr")):
        out.append((os.path.join(prefix, "lib", "libkernpack.so"), f"prefix {prefix}"))
    out.append(("libkernpack.so.0", "system loader"))
    out.append(("libkernpack.so", "system loader"))
    return out


def _check_desc(init, cls, args, want):
    """The mirror `cls` of a descriptor against the library: its init
    function on a buffer longer than the mirror, filled with a marker byte,
    must write exactly sizeof(mirror) bytes and put the fields in `want`
    where the mirror has them."""
    n = ctypes.sizeof(cls)
    buf = (ctypes.c_ubyte * (n + 64))(*([0xAB] * (n + 64)))
    init(ctypes.cast(buf, _P(cls)), *args)
    written = max(i for i in range(n + 64) if buf[i] != 0xAB) + 1
    d = cls.from_buffer_copy(bytes(buf[:n]))
    got = {f: getattr(d, f) for f in want}
    if written > n or got != want:
        raise Error(f"{init.__name__}: the library's descriptor does not match this binding "
                    f"(wrote {written} bytes, mirror {n}; fields {got}): update kernpack/_lib.py",
                    status_name="KP_BINDING_MISMATCH")


def _check_gemm_desc(lib):
    _check_desc(lib.kp_gemm_desc_init, KpGemmDesc, (3, 5, 7),
                dict(m=3, n=5, k=7, batch=1, b_layout=KP_B_NK, lda=7, ldb=7, ldc=5, ldd=5,
                     stride_a=21, stride_b=35, stride_c=15, stride_d=15, alpha=1.0, beta=0.0,
                     c=None, bias=None, act=0, out_f32=0))


def _check_attn_desc(lib):
    _check_desc(lib.kp_attn_desc_init, KpAttnDesc, (3, 8, 2, 5, 7, 64),
                dict(batch=3, heads_q=8, heads_kv=2, len_q=5, len_k=7, head_dim=64,
                     q_stride_batch=2560, q_stride_seq=512, q_stride_head=64,
                     k_stride_batch=896, k_stride_seq=128, k_stride_head=64,
                     v_stride_batch=896, v_stride_seq=128, v_stride_head=64,
                     o_stride_batch=2560, o_stride_seq=512, o_stride_head=64, scale=0.125,
                     causal=0, window_left=-1, window_right=-1, lse=None, cu_seqlens_q=None,
                     cu_seqlens_k=None, block_table=None, block_table_stride=0, page_size=0,
                     total_q=0, total_k=0))


class Library:
    """The loaded libkernpack with its signatures set and checked."""

    def __init__(self, cdll, path, how):
        self.cdll, self.path, self.how = cdll, path, how
        for name, (res, args) in SIGNATURES.items():
            fn = getattr(cdll, name)
            fn.restype, fn.argtypes = res, args
        self.version = cdll.kp_version().decode()
        lib_names = [cdll.kp_status_name(i).decode() for i in range(len(STATUS_NAMES) + 1)]
        if tuple(lib_names[:-1]) != STATUS_NAMES or lib_names[-1] != "KP_UNKNOWN":
            raise Error(f"{path}: status list {lib_names} differs from this binding's "
                        f"{list(STATUS_NAMES)}: update kernpack/_errors.py",
                        status_name="KP_BINDING_MISMATCH")
        if cdll.kp_options_sizeof() != ctypes.sizeof(KpOptions):
            raise Error(f"{path}: kp_options is {cdll.kp_options_sizeof()} bytes, this "
                        f"binding's mirror {ctypes.sizeof(KpOptions)}: update kernpack/_lib.py",
                        status_name="KP_BINDING_MISMATCH")
        _check_gemm_desc(cdll)
        _check_attn_desc(cdll)

    def __getattr__(self, name):
        return getattr(self.cdll, name)

    def status_name(self, st):
        return self.cdll.kp_status_name(st).decode()


_lock = threading.Lock()
_lib = None


def load():
    """The library, loaded once (thread-safe); raises LibraryNotFoundError
    listing every place tried."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path, how in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(f"{path} ({how}): not there")
                continue
            try:
                cdll = ctypes.CDLL(path)
            except OSError as e:
                tried.append(f"{path} ({how}): {e}")
                continue
            _lib = Library(cdll, getattr(cdll, "_name", path), how)
            return _lib
        raise LibraryNotFoundError(
            "libkernpack not found (build it with `make`, or set KP_LIB); tried: "
            + "; ".join(tried))


def loaded_path(lib):
    """File the library was loaded from (resolves a soname through dladdr)."""
    if os.sep in lib.path:
        return os.path.abspath(lib.path)
    try:
        class DlInfo(ctypes.Structure):
            _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", c_vp),
                        ("dli_sname", ctypes.c_char_p), ("dli_saddr", c_vp)]
        libdl = ctypes.CDLL(None)
        libdl.dladdr.argtypes = [c_vp, _P(DlInfo)]
        info = DlInfo()
        addr = ctypes.cast(lib.cdll.kp_version, c_vp)
        if libdl.dladdr(addr, ctypes.byref(info)) and info.dli_fname:
            return os.path.abspath(info.dli_fname.decode())
    except (OSError, AttributeError):
        pass
    return lib.path
