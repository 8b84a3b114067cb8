"""Public names of a package imported on first use (PEP 562), so importing it stays cheap."""
from __future__ import annotations


def lazy_names(package: str, namespace: dict, table: dict):
    """``(__getattr__, __dir__)`` for a package whose names in ``table`` (name -> (module,
    attribute)) are imported on first use and then kept in ``namespace`` (its globals)."""

    def __getattr__(name):
        """Import a public name on first use."""
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        module_name, attr = table[name]
        value = getattr(importlib.import_module(module_name), attr)
        namespace[name] = value
        return value

    def __dir__():
        """Module attributes including the lazily imported public names."""
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
