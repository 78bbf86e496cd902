"""The example's tests run from a checkout without installing it: its folder goes on sys.path."""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import todo_family  # noqa: F401  (installed: its entry point registers the family)
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
