"""Arrays in, device pointers out: torch tensors, __cuda_array_interface__
objects and DLPack producers, checked for dtype, device and layout before
anything reaches the C library.

torch is never imported here unless the caller already did (a torch tensor
cannot exist otherwise) or an output has to be allocated.
"""
import sys

from . import _cuda, _lib
from ._errors import invalid, unsupported

DTYPE_NAMES = {_lib.KP_F32: "float32", _lib.KP_F16: "float16", _lib.KP_BF16: "bfloat16"}
_CAI_DTYPES = {"<f4": _lib.KP_F32, "<f2": _lib.KP_F16, "=f4": _lib.KP_F32, "=f2": _lib.KP_F16}


def _torch():
    return sys.modules.get("torch")


def _torch_dtypes(torch):
    return {torch.float32: _lib.KP_F32, torch.float16: _lib.KP_F16,
            torch.bfloat16: _lib.KP_BF16}


def is_tensor(obj):
    torch = _torch()
    return torch is not None and isinstance(obj, torch.Tensor)


class Arr:
    """A strided device array: ptr, shape and strides in elements, kp dtype
    (None if not one of f32/f16/bf16), bytes an element, device ordinal
    (None: not on a GPU)."""

    __slots__ = ("obj", "name", "ptr", "shape", "strides", "dtype", "dtype_str", "itemsize",
                 "device", "torch")

    def __init__(self, obj, name, ptr, shape, strides, dtype, dtype_str, itemsize, device, torch):
        self.obj, self.name, self.ptr = obj, name, ptr
        self.shape, self.strides = tuple(shape), tuple(strides)
        self.dtype, self.dtype_str, self.itemsize = dtype, dtype_str, itemsize
        self.device, self.torch = device, torch

    @property
    def ndim(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n


def as_arr(obj, name, op):
    """Arr for obj, or an Error naming op and argument."""
    torch = _torch()
    if torch is not None and isinstance(obj, torch.Tensor):
        dt = _torch_dtypes(torch).get(obj.dtype)
        if obj.device.type != "cuda":
            raise invalid(f"{op}: {name} is on {obj.device}: kernpack needs CUDA tensors")
        return Arr(obj, name, obj.data_ptr(), obj.shape, obj.stride(), dt, str(obj.dtype),
                   obj.element_size(), obj.device.index, True)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        typestr = cai["typestr"]
        dt = _CAI_DTYPES.get(typestr)
        itemsize = int(typestr[2:]) if typestr[2:].isdigit() else 1
        shape = tuple(cai["shape"])
        if cai.get("strides") is None:
            strides, acc = [], 1
            for s in reversed(shape):
                strides.append(acc)
                acc *= s
            strides = tuple(reversed(strides))
        else:
            if any(s % itemsize for s in cai["strides"]):
                raise invalid(f"{op}: {name} has byte strides {cai['strides']} that are not "
                              f"multiples of its element size {itemsize}")
            strides = tuple(s // itemsize for s in cai["strides"])
        ptr = cai["data"][0] or 0
        if cai["data"][1] and name.startswith("out"):
            raise invalid(f"{op}: {name} is read-only (__cuda_array_interface__ data[1])")
        dev = _cuda.pointer_device(ptr)
        if dev is None:
            dev = _cuda.current_context()[1]
        return Arr(obj, name, ptr, shape, strides, dt, typestr, itemsize,
                   0 if dev is None else dev, False)
    if hasattr(obj, "__dlpack__"):
        if torch is None:
            try:
                import torch  # noqa: F811 -- DLPack is read through torch
            except ImportError:
                raise unsupported(f"{op}: {name}: DLPack inputs need torch "
                                  f"(or pass an object with __cuda_array_interface__)") from None
        return as_arr(torch.from_dlpack(obj), name, op)
    raise unsupported(f"{op}: {name}: expected a torch.Tensor or an object with "
                      f"__cuda_array_interface__ or __dlpack__, got {type(obj).__name__}")


def check_dtype(arrs, op, allowed=(_lib.KP_F32, _lib.KP_F16, _lib.KP_BF16)):
    """All arrs share one dtype out of allowed; returns it."""
    names = ", ".join(DTYPE_NAMES[d] for d in allowed)
    for a in arrs:
        if a.dtype not in allowed:
            raise unsupported(f"{op}: {a.name} dtype {a.dtype_str}: must be one of {names}")
    first = arrs[0]
    for a in arrs[1:]:
        if a.dtype != first.dtype:
            raise unsupported(f"{op}: {a.name} dtype {a.dtype_str} differs from "
                              f"{first.name} dtype {first.dtype_str}")
    return first.dtype


def check_device(arrs, op):
    """All arrs on one device; returns its ordinal."""
    first = arrs[0]
    for a in arrs[1:]:
        if a.device != first.device:
            raise invalid(f"{op}: {a.name} is on cuda:{a.device}, {first.name} on "
                          f"cuda:{first.device}: all tensors must be on one device")
    return first.device


def rows_layout(a):
    """(ld, rows, cols) when a is rows of contiguous elements, each row `ld`
    elements after the previous (leading dims flattened); None otherwise."""
    if a.ndim == 0:
        return None
    cols = a.shape[-1]
    if cols > 1 and a.strides[-1] != 1:
        return None
    rows, ld = 1, None
    # leading dims, innermost first: each must step by the size of what it holds
    for size, stride in zip(reversed(a.shape[:-1]), reversed(a.strides[:-1])):
        if size == 1:
            continue
        if ld is None:
            ld = stride
        elif stride != ld * rows:
            return None
        rows *= size
    if ld is None or rows == 1:
        ld = cols
    if ld < cols:
        return None
    return ld, rows, cols


def contiguous_input(a, op, layout=rows_layout):
    """a itself if layout(a) fits, else a contiguous copy (torch only: an
    input the C API cannot describe is copied, never an output)."""
    if layout(a) is not None:
        return a
    if not a.torch:
        raise invalid(f"{op}: {a.name} with shape {a.shape} and strides {a.strides} cannot be "
                      f"passed as rows with a stride; make it contiguous first")
    return as_arr(a.obj.contiguous(), a.name, op)


def out_layout(a, op, layout=rows_layout):
    """layout(a) for an output or in-place argument, which cannot be copied."""
    lay = layout(a)
    if lay is None:
        raise invalid(f"{op}: {a.name} with shape {a.shape} and strides {a.strides} is not "
                      f"rows with contiguous elements and one row stride >= the row length")
    return lay


def check_shape(a, shape, op, what=None):
    if tuple(a.shape) != tuple(shape):
        raise invalid(f"{op}: {a.name} has shape {tuple(a.shape)}, expected {tuple(shape)}"
                      + (f" ({what})" if what else ""))


def empty(shape, dtype, device, op, like=None):
    """A new uninitialised output: a torch tensor."""
    torch = _torch()
    if torch is None:
        try:
            import torch
        except ImportError:
            raise unsupported(f"{op}: no torch to allocate the output: pass out=") from None
    tdt = {v: k for k, v in _torch_dtypes(torch).items()}[dtype]
    t = torch.empty(tuple(shape), dtype=tdt, device=torch.device("cuda", device))
    return as_arr(t, "out", op)


def resolve_stream(stream, device):
    """A CUstream handle (int) for the call."""
    if stream is None:
        torch = _torch()
        if torch is not None and torch.cuda.is_initialized():
            return torch.cuda.current_stream(device).cuda_stream
        return 0
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attr in ("cuda_stream", "ptr", "handle"):
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return v
        if v is not None and hasattr(v, "value"):
            return int(v.value or 0)
    raise invalid(f"stream: cannot get a CUstream from {type(stream).__name__} "
                  f"(pass an int, a torch.cuda.Stream or an object with __cuda_stream__)")
