"""The version of toolgym (one place: the package, the build and the results manifests)."""

__version__ = "0.1.0"
