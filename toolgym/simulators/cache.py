"""Where toolgym keeps data it derives once per machine (converted models, place indexes).

Everything here can be rebuilt from installed packages, so a missing, unwritable or stale cache
only costs time: readers fall back to building in memory.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def cache_root() -> Path:
    """The cache folder: ``$TOOLGYM_CACHE`` or ``~/.cache/toolgym``."""
    return Path(os.environ.get("TOOLGYM_CACHE") or Path.home() / ".cache" / "toolgym")


def write_atomic(path: Path, write: object) -> bool:
    """Write a file through ``write(handle)`` into a temporary file, then rename it into place.

    Readers never see a half-written file, and two processes writing the same file leave one
    whole copy. Returns ``False`` (and leaves nothing behind) when the folder is not writable.

    Args:
        path: the final path.
        write: a callable taking a binary file handle.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)  # type: ignore[operator]
            handle.flush()
            os.fsync(handle.fileno())  # whole on disk before it takes the final name
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # readable like any file the user makes, not 0600
        os.replace(tmp, path)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
