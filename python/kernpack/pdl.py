"""kernpack.set_pdl(): programmatic dependent launch for the row ops and gemm.

kp_ctx_set_pdl on the context that calls on `device` from this thread use
(kernpack._context.for_device: the one for the thread's current CUDA
context, so call it where the ops run -- with torch, once torch has made its
context current, e.g. after the first CUDA tensor); see include/kernpack.h.
$KP_PDL=1 turns it on for every context from the start.
"""
import sys

from . import _context


def _device(device):
    if device is not None:
        return int(device)
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        return torch.cuda.current_device()
    return 0


def set_pdl(on=True, device=None):
    """Turn PDL on or off for later row-op and gemm calls on `device` (default:
    torch's current device, else 0).  Returns True when it takes effect
    there (sm_90+ and a CUDA 12.3+ driver), False when it is off or has
    no effect."""
    ctx = _context.for_device(_device(device))
    ctx.check(ctx.lib.kp_ctx_set_pdl(ctx.handle, 1 if on else 0), "kp_ctx_set_pdl")
    return bool(ctx.lib.kp_ctx_pdl(ctx.handle))
