"""Exceptions: one class per kp_status, all under kernpack.Error.

The status list is include/kernpack.h's KP_STATUS_LIST, in its order (the
enum values are the positions); _lib.py checks it against kp_status_name()
of the loaded library, so a binding older than the library says so instead
of naming the wrong status.
"""

STATUS_NAMES = (
    "KP_OK",
    "KP_ERR_INVALID_ARG",
    "KP_ERR_UNSUPPORTED",
    "KP_ERR_MISALIGNED",
    "KP_ERR_NO_DRIVER",
    "KP_ERR_NO_DEVICE",
    "KP_ERR_CUDA",
    "KP_ERR_PACK_NOT_FOUND",
    "KP_ERR_PACK_CORRUPT",
    "KP_ERR_PACK_VERSION",
    "KP_ERR_NO_VARIANT",
    "KP_ERR_IO",
    "KP_ERR_NOMEM",
)
STATUS = {name: i for i, name in enumerate(STATUS_NAMES)}


class Error(RuntimeError):
    """A kernpack failure.

    status: the kp_status value (None for failures outside the C library,
    such as a missing libkernpack); status_name: "KP_ERR_INVALID_ARG", ...;
    message: the detail ("softmax: x row stride 3 < row length 8"), from
    kp_ctx_errmsg() or from the argument checks done in Python before the
    C call.
    """

    status_name = "KP_ERROR"

    def __init__(self, message, status=None, status_name=None):
        if status_name is not None:
            self.status_name = status_name
        self.status = status if status is not None else STATUS.get(self.status_name)
        self.message = message
        super().__init__(f"{self.status_name}: {message}" if message else self.status_name)


class LibraryNotFoundError(Error, OSError):
    """libkernpack could not be found or loaded (no kp_status: nothing ran)."""
    status_name = "KP_LIBRARY_NOT_FOUND"


class InvalidArgumentError(Error, ValueError):
    status_name = "KP_ERR_INVALID_ARG"


class UnsupportedError(Error, TypeError):
    """Unsupported dtype, shape or architecture (a TypeError for dtypes)."""
    status_name = "KP_ERR_UNSUPPORTED"


class MisalignedError(Error, ValueError):
    status_name = "KP_ERR_MISALIGNED"


class NoDriverError(Error):
    status_name = "KP_ERR_NO_DRIVER"


class NoDeviceError(Error):
    status_name = "KP_ERR_NO_DEVICE"


class CudaError(Error):
    status_name = "KP_ERR_CUDA"


class PackNotFoundError(Error):
    status_name = "KP_ERR_PACK_NOT_FOUND"


class PackCorruptError(Error):
    status_name = "KP_ERR_PACK_CORRUPT"


class PackVersionError(Error):
    status_name = "KP_ERR_PACK_VERSION"


class NoVariantError(Error):
    status_name = "KP_ERR_NO_VARIANT"


class KpIOError(Error, OSError):
    status_name = "KP_ERR_IO"


class OutOfMemoryError(Error, MemoryError):
    status_name = "KP_ERR_NOMEM"


_BY_NAME = {c.status_name: c for c in (
    InvalidArgumentError, UnsupportedError, MisalignedError, NoDriverError, NoDeviceError,
    CudaError, PackNotFoundError, PackCorruptError, PackVersionError, NoVariantError,
    KpIOError, OutOfMemoryError)}


def error_for(status_name, message, status=None):
    """The exception for a status name (Error itself for an unknown one)."""
    cls = _BY_NAME.get(status_name, Error)
    return cls(message, status=status, status_name=status_name)


def invalid(message):
    return InvalidArgumentError(message)


def unsupported(message):
    return UnsupportedError(message)
