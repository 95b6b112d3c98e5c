"""The catalog: every module in this package declares ``SPECS``, a tuple of ``ScaffoldSpec``.

Adding an algorithm means adding its spec to the module of its category (or a new module
here); nothing else in the harness changes. Modules are found by name, in sorted order, and
a duplicate scaffold name is an error that names both modules.
"""

from __future__ import annotations

import importlib
import pkgutil

from verification.errors import RegistryError
from verification.spec import ScaffoldSpec

__all__ = ["load_specs"]


def load_specs() -> dict[str, ScaffoldSpec]:
    """Every declared spec by name, in catalog order (category module, then declaration)."""
    specs: dict[str, ScaffoldSpec] = {}
    declared_in: dict[str, str] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module_name = f"{__name__}.{module_info.name}"
        module = importlib.import_module(module_name)
        module_specs = getattr(module, "SPECS", None)
        if not isinstance(module_specs, tuple):
            raise RegistryError(f"{module_name} must declare SPECS as a tuple of ScaffoldSpec")
        for spec in module_specs:
            if not isinstance(spec, ScaffoldSpec):
                raise RegistryError(f"{module_name}.SPECS holds {spec!r}, not a ScaffoldSpec")
            if spec.name in specs:
                raise RegistryError(
                    f"scaffold {spec.name!r} is declared twice: "
                    f"in {declared_in[spec.name]} and in {module_name}"
                )
            specs[spec.name] = spec
            declared_in[spec.name] = module_name
    return specs
