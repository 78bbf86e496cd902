"""Camera images of a scene, rendered by pybullet's software renderer.

The camera is the original's: at (0, -0.85, 0.4), looking back over the table towards the robot.
Images are rendered without a GUI or a GPU (``ER_TINY_RENDERER``), so they are the same on every
machine for the same scene.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from toolgym.families.tabletop.world.physics import TabletopPhysics, bullet

CAMERA_EYE = (0.0, -0.85, 0.4)
"""Where the camera is."""

CAMERA_TARGET = (0.0, -0.5, 0.0)
"""What it looks at: the middle of the table."""

FIELD_OF_VIEW = 60.0
"""Vertical field of view, in degrees."""

IMAGE_SIZE = (240, 320)
"""Height and width of a rendered image, in pixels."""


def render_rgb(
    state: Mapping[str, Any],
    world: TabletopPhysics | None = None,
    size: tuple[int, int] = IMAGE_SIZE,
) -> np.ndarray:
    """The scene seen from the camera, as an ``(height, width, 3)`` ``uint8`` array."""
    world = world or _camera_world()
    world.load(state)
    p = bullet()
    height, width = size
    view = p.computeViewMatrix(CAMERA_EYE, CAMERA_TARGET, [0.0, 0.0, 1.0])
    projection = p.computeProjectionMatrixFOV(FIELD_OF_VIEW, width / height, 0.01, 10.0)
    _, _, pixels, _, _ = world._call(
        "getCameraImage",
        width,
        height,
        viewMatrix=view,
        projectionMatrix=projection,
        renderer=p.ER_TINY_RENDERER,
        shadow=0,
        lightDirection=[0.3, -0.6, 1.0],
    )
    image = np.asarray(pixels, dtype=np.uint8).reshape(height, width, 4)
    return np.ascontiguousarray(image[:, :, :3])


_CAMERA: TabletopPhysics | None = None


def _camera_world() -> TabletopPhysics:
    global _CAMERA
    if _CAMERA is None:
        _CAMERA = TabletopPhysics(visuals=True)
    return _CAMERA


def png_bytes(image: np.ndarray) -> bytes:
    """An ``(height, width, 3)`` ``uint8`` image as a PNG file's bytes (no imaging library).

    >>> png_bytes(np.zeros((2, 2, 3), dtype=np.uint8))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"an image is (height, width, 3) uint8; got {image.shape} {image.dtype}")
    height, width, _ = image.shape
    rows = b"".join(b"\x00" + image[r].tobytes() for r in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )
