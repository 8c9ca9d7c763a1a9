"""What every op does around its C call: resolve the stream, make input
copies and outputs on that stream, pick the context, turn a status into an
exception."""
import contextlib
import sys

from . import _context
from ._arrays import resolve_stream


class Call:
    """One op call on `device`: .stream (CUstream int), .ctx (Context),
    .on_stream() for torch work (copies, allocations) ordered on the
    call's stream, .check(status)."""

    def __init__(self, op, device, stream):
        self.op, self.device = op, device
        self.stream = resolve_stream(stream, device)
        self._ctx = None

    @property
    def ctx(self):
        if self._ctx is None:
            self._ctx = _context.for_device(self.device)
        return self._ctx

    @property
    def lib(self):
        return self.ctx.lib

    def on_stream(self):
        """torch's current stream set to the call's (when it is another
        one), so that input copies and new outputs are ordered before the
        kernel and their memory is tied to its stream."""
        torch = sys.modules.get("torch")
        if torch is None or not torch.cuda.is_initialized():
            return contextlib.nullcontext()
        cur = torch.cuda.current_stream(self.device)
        if cur.cuda_stream == self.stream:
            return contextlib.nullcontext()
        return torch.cuda.stream(torch.cuda.ExternalStream(self.stream, device=self.device))

    def check(self, st):
        if st != 0:
            raise self.ctx.error(st, None)
