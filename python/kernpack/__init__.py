"""kernpack from Python: the ops of libkernpack over its C ABI (ctypes).

    import torch, kernpack
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    y = kernpack.rmsnorm(x, torch.ones(4096, device="cuda", dtype=torch.bfloat16))

Ops: softmax, rmsnorm, add_rmsnorm, swiglu, geglu, rmsnorm_swiglu, rope,
gemm, attention (see kernpack.ops, kernpack.gemm and kernpack.attention for
the shapes); set_pdl() turns on programmatic dependent launch for the row
ops and gemm.  They run in the
caller's current CUDA context on torch's current stream (or `stream=`),
allocate outputs unless `out=` is given and raise kernpack.Error subclasses
carrying the kp_status name and the library's message.

libkernpack is found at $KP_LIB, in the build tree (build/lib), under an
install prefix or by the system loader; packs are found by the library
itself ($KP_PACK_DIR, else next to it).  info() mirrors `kp info`.
"""
from ._errors import (CudaError, Error, InvalidArgumentError, KpIOError, LibraryNotFoundError,
                      MisalignedError, NoDeviceError, NoDriverError, NoVariantError,
                      OutOfMemoryError, PackCorruptError, PackNotFoundError, PackVersionError,
                      UnsupportedError)
from .attention import attention
from .gemm import gemm
from .info import gpu_available, info
from .ops import add_rmsnorm, geglu, rmsnorm, rmsnorm_swiglu, rope, softmax, swiglu
from .pdl import set_pdl

__version__ = "0.1.0"


def library_version():
    """kp_version() of the loaded libkernpack (loads it)."""
    from . import _lib
    return _lib.load().version


__all__ = [
    "softmax", "rmsnorm", "add_rmsnorm", "swiglu", "geglu", "rmsnorm_swiglu", "rope", "gemm",
    "attention", "info", "gpu_available", "library_version", "set_pdl",
    "Error", "LibraryNotFoundError", "InvalidArgumentError", "UnsupportedError",
    "MisalignedError", "NoDriverError", "NoDeviceError", "CudaError", "PackNotFoundError",
    "PackCorruptError", "PackVersionError", "NoVariantError", "KpIOError", "OutOfMemoryError",
]
