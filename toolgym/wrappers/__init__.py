"""Gymnasium wrappers for toolgym environments."""

from toolgym.wrappers.fault_injection import FaultInjection

__all__ = ["FaultInjection"]
