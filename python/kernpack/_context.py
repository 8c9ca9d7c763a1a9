"""kp_ctx handles, one per (device, CUDA context), created on first use.

A call runs in the calling thread's current CUDA context when that context
belongs to the tensors' device (torch and CuPy make the device's primary
context current), else in the device's primary context.  Each is a kp_ctx
made once under a lock and kept for the life of the process: never
destroyed, since at exit the CUDA context may be gone before the Python
objects are.  kp_ctx is thread-safe; its detail messages are per thread, so
a failure is read back on the thread that made the call.
"""
import ctypes
import threading

from . import _cuda, _lib
from ._errors import error_for


class Context:
    """One kp_ctx.  device: ordinal, or None for a pack-only context."""

    def __init__(self, device, use_current_context=False, pack_dir=None, pack_path=None):
        self.lib = _lib.load()
        L = self.lib
        opt = _lib.KpOptions()
        L.kp_options_init(ctypes.byref(opt))
        opt.device = _lib.KP_NO_DEVICE if device is None else int(device)
        opt.use_current_context = 1 if use_current_context else 0
        if pack_dir:
            opt.pack_dir = pack_dir.encode()
        if pack_path:
            opt.pack_path = pack_path.encode()
        h = ctypes.c_void_p()
        st = L.kp_ctx_create(ctypes.byref(opt), ctypes.byref(h))
        self.handle = h.value
        self.device = device
        if st != 0:
            err = self.error(st, "kp_ctx_create")
            L.kp_ctx_destroy(self.handle)
            self.handle = None
            raise err

    def error(self, st, what):
        """The exception for status st of the last call on this thread."""
        msg = self.lib.kp_ctx_errmsg(self.handle).decode(errors="replace") or \
            self.lib.kp_strerror(st).decode()
        return error_for(self.lib.status_name(st), f"{what}: {msg}" if what else msg, st)

    def check(self, st, what=None):
        if st != 0:
            raise self.error(st, what)

    def device_info(self):
        """kp_ctx_device_info as a dict."""
        di = _lib.KpDeviceInfo()
        st = self.lib.kp_ctx_device_info(self.handle, ctypes.byref(di))
        if st != 0 and self.device is not None:
            raise self.error(st, "kp_ctx_device_info")
        return {
            "ordinal": di.ordinal, "name": di.name.decode(errors="replace"), "sm": di.sm,
            "sm_count": di.sm_count, "driver_version": di.driver_version,
            "smem_per_block_optin": di.smem_per_block_optin, "smem_per_sm": di.smem_per_sm,
            "l2_bytes": di.l2_bytes, "target": di.target.decode(errors="replace"),
            "pack_path": di.pack_path.decode(errors="replace"),
        }

    def close(self):
        if self.handle:
            self.lib.kp_ctx_destroy(self.handle)
            self.handle = None


_lock = threading.Lock()
_contexts = {}


def for_device(device):
    """The Context for calls on `device` from this thread (see the module doc)."""
    cu, cu_dev = _cuda.current_context()
    key = (device, cu) if cu is not None and cu_dev == device else (device, None)
    ctx = _contexts.get(key)
    if ctx is not None:
        return ctx
    with _lock:
        ctx = _contexts.get(key)
        if ctx is None:
            ctx = Context(device, use_current_context=key[1] is not None)
            _contexts[key] = ctx
    return ctx
