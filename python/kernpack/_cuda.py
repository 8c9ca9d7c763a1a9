"""The few CUDA driver queries the binding needs itself, through ctypes.

libkernpack loads the driver with dlopen and keeps it to itself; these ask
the same libcuda.so.1 (already in the process when torch or CuPy run) which
context is current on this thread and which device owns a pointer.  Without
a driver every query answers None and libkernpack reports KP_ERR_NO_DRIVER.
"""
import ctypes
import threading

CUDA_SUCCESS = 0
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9

_lock = threading.Lock()
_cu = None
_tried = False


def _driver():
    global _cu, _tried
    if _tried:
        return _cu
    with _lock:
        if not _tried:
            try:
                cu = ctypes.CDLL("libcuda.so.1")
                cu.cuCtxGetCurrent.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
                cu.cuCtxGetDevice.argtypes = [ctypes.POINTER(ctypes.c_int)]
                cu.cuPointerGetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                                     ctypes.c_uint64]
                cu.cuInit.argtypes = [ctypes.c_uint]
                cu.cuDeviceGetCount.argtypes = [ctypes.POINTER(ctypes.c_int)]
                cu.cuDriverGetVersion.argtypes = [ctypes.POINTER(ctypes.c_int)]
                _cu = cu
            except (OSError, AttributeError):
                _cu = None
            _tried = True
    return _cu


def current_context():
    """(CUcontext handle, device ordinal) current on this thread, or (None, None)."""
    cu = _driver()
    if cu is None:
        return None, None
    h = ctypes.c_void_p()
    if cu.cuCtxGetCurrent(ctypes.byref(h)) != CUDA_SUCCESS or not h.value:
        return None, None
    dev = ctypes.c_int()
    if cu.cuCtxGetDevice(ctypes.byref(dev)) != CUDA_SUCCESS:
        return None, None
    return h.value, dev.value


def pointer_device(ptr):
    """Device ordinal owning a device pointer, or None (unknown or host memory)."""
    cu = _driver()
    if cu is None or not ptr:
        return None
    dev = ctypes.c_int(-1)
    r = cu.cuPointerGetAttribute(ctypes.byref(dev), CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr)
    return dev.value if r == CUDA_SUCCESS and dev.value >= 0 else None


def device_count():
    """(count, driver version as 13000, error text); count None without a driver."""
    cu = _driver()
    if cu is None:
        return None, None, "libcuda.so.1 cannot be loaded"
    r = cu.cuInit(0)
    if r != CUDA_SUCCESS:
        return 0, None, f"cuInit failed with CUresult {r}"
    n, v = ctypes.c_int(), ctypes.c_int()
    if cu.cuDriverGetVersion(ctypes.byref(v)) != CUDA_SUCCESS:
        v.value = 0
    if cu.cuDeviceGetCount(ctypes.byref(n)) != CUDA_SUCCESS:
        return 0, v.value or None, "cuDeviceGetCount failed"
    return n.value, v.value or None, None
