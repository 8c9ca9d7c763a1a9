"""kernpack.info(): what `kp info` prints (tools/kp.c), as a dict.

Never raises: a missing library, driver or device is reported in the dict
("gpu": False), which is how a machine without a GPU is recognised.
"""
import os
import struct

from . import _cuda, _lib
from ._context import Context
from ._errors import Error


def pack_dir(lib_path):
    """(directory, how it was chosen): $KP_PACK_DIR, else <dir of the
    library>/../packs, else <dir>/../share/kernpack/packs -- the order of
    runtime/ctx.c (which also tries its compiled-in install default)."""
    env = os.environ.get("KP_PACK_DIR")
    if env:
        return env, "from $KP_PACK_DIR"
    libdir = os.path.dirname(lib_path)
    for rel, how in (("../packs", "next to the library"),
                     ("../share/kernpack/packs", "installed location")):
        d = os.path.realpath(os.path.join(libdir, rel))
        if os.path.isdir(d):
            return d, how
    return d, "installed location"


def _pack_header(path):
    """target, NVRTC version and entry count from a .kpk header (pack.h)."""
    with open(path, "rb") as f:
        h = f.read(40)
    if len(h) < 40 or h[:8] != b"KERNPACK":
        return None
    version, = struct.unpack_from("<I", h, 8)
    target = h[16:32].split(b"\0", 1)[0].decode(errors="replace")
    toolkit, n = struct.unpack_from("<II", h, 32)
    return {"format": version, "target": target,
            "nvrtc": f"{toolkit // 1000}.{toolkit % 1000 // 10}", "entries": n}


def _packs(d):
    try:
        names = sorted(n for n in os.listdir(d) if n.endswith(".kpk"))
    except OSError as e:
        return None, f"cannot read {d}: {e.strerror}"
    out = []
    for name in names:
        path = os.path.join(d, name)
        rec = {"file": name, "path": path}
        try:  # the library opens and checks it, as kp info does
            Context(None, pack_path=path).close()
            rec.update(_pack_header(path) or {})
        except Error as e:
            rec["error"] = f"{e.status_name}: {e.message}"
        out.append(rec)
    return out, None


def info():
    """Library, driver, devices and packs, as `kp info` reports them."""
    from . import __version__
    res = {"binding_version": __version__, "gpu": False}
    try:
        lib = _lib.load()
    except Error as e:
        res.update(library=None, error=str(e), driver=None, devices=[], packs=[])
        return res
    path = _lib.loaded_path(lib)
    res.update(version=lib.version, library=path, library_found_by=lib.how)
    d, how = pack_dir(path)
    res.update(pack_dir=d, pack_dir_source=how)

    count, ver, err = _cuda.device_count()
    drv = {"available": bool(count), "version": None, "devices": count or 0, "error": err}
    if ver:
        drv["version"] = f"{ver // 1000}.{ver % 1000 // 10}"
    devices = []
    for dev in range(max(count or 0, 1)):
        try:
            ctx = Context(dev, pack_dir=d)
        except Error as e:
            if not count:  # no driver or no device: the library's own words
                drv["error"] = f"{e.status_name}: {e.message}"
                break
            devices.append({"ordinal": dev, "error": f"{e.status_name}: {e.message}"})
            continue
        try:
            devices.append(ctx.device_info())
        finally:
            ctx.close()
    res["driver"], res["devices"] = drv, devices
    res["gpu"] = any("error" not in x for x in devices)
    res["packs"], perr = _packs(d)
    if perr:
        res["packs_error"] = perr
    return res


def gpu_available():
    """True when the library loads and device 0 opens (its context is then
    kept for later calls).  Cheaper than info()."""
    from . import _context
    try:
        _lib.load()
        count = _cuda.device_count()[0]
        if not count:
            return False
        _context.for_device(0)
    except Error:
        return False
    return True
