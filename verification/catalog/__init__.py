"""The catalog: every scaffold the harness can certify, loaded once, lazily.

Each scaffold of the package is one module, ``verification/catalog/<category>/<name>.py``,
that ends with ``SPEC = ScaffoldSpec(...)``; its folder is its category. Installed packages
add scaffolds through the entry-point group ``verification.scaffolds``: each entry resolves
to a :class:`~verification.catalog.spec.ScaffoldSpec` or an iterable of them, whose ``markdown``
field points at the scaffold file the plugin ships.

A broken module of the package is our bug and stops the load (:class:`RegistryError`). A
broken plugin (it raises or exits while loading, is not a spec, breaks a spec rule, clashes
with a known name, or its Markdown is missing) is skipped with a warning that names its
distribution and what is wrong; every other scaffold keeps working, and asking for a skipped
one by name says why it was skipped. A plugin's specs are held to their contract at every
call (:mod:`verification.catalog.plugins`).
"""

from __future__ import annotations

import difflib
import importlib
import logging
import os
import pkgutil
import traceback
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType

from verification.cases import printable
from verification.catalog.plugins import load_entry
from verification.catalog.spec import ScaffoldSpec
from verification.errors import ConfigurationError, RegistryError, SpecError, UnknownScaffoldError

__all__ = ["ENTRY_POINT_GROUP", "Catalog", "SkippedScaffold", "default_catalog", "load_catalog"]

ENTRY_POINT_GROUP = "verification.scaffolds"
"""Where installed packages declare scaffolds."""

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SkippedScaffold:
    """A plugin entry that could not be registered, and why."""

    name: str
    """The entry point's name (a scaffold's name, when the plugin follows the convention)."""
    distribution: str
    reason: str


class Catalog(Mapping[str, ScaffoldSpec]):
    """Scaffold specs by name, in catalog order (the package's by category, then plugins),
    with the plugin entries that were skipped."""

    def __init__(
        self,
        specs: Iterable[ScaffoldSpec] = (),
        *,
        skipped: Iterable[SkippedScaffold] = (),
        origins: Mapping[str, str] | None = None,
    ) -> None:
        self._specs: dict[str, ScaffoldSpec] = {}
        self.origins: dict[str, str] = {}
        """Where each scaffold was declared: a module or a distribution."""
        for spec in specs:
            self.add(spec, origin=(origins or {}).get(spec.name, "<given>"))
        self.skipped: dict[str, SkippedScaffold] = {s.name: s for s in skipped}

    def add(self, spec: ScaffoldSpec, *, origin: str) -> None:
        """Register ``spec``; a name declared twice is an error naming both places."""
        if spec.name in self._specs:
            raise RegistryError(
                f"scaffold {spec.name!r} is declared twice: "
                f"in {self.origins[spec.name]} and in {origin}"
            )
        self._specs[spec.name] = spec
        self.origins[spec.name] = origin

    def __getitem__(self, name: str) -> ScaffoldSpec:
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def get_spec(self, name: str) -> ScaffoldSpec:
        """The spec of ``name``; an unknown or skipped name is a clear error."""
        if name in self._specs:
            return self._specs[name]
        if name in self.skipped:
            skipped = self.skipped[name]
            raise ConfigurationError(
                f"scaffold {name!r} from {skipped.distribution} was skipped: {skipped.reason}"
            )
        close = difflib.get_close_matches(name, list(self._specs), n=3, cutoff=0.5)
        raise UnknownScaffoldError(name, close_matches=close, known=sorted(self._specs))

    def categories(self) -> dict[str, list[str]]:
        """Category -> scaffold names, in catalog order."""
        grouped: dict[str, list[str]] = {}
        for spec in self._specs.values():
            grouped.setdefault(spec.category, []).append(spec.name)
        return grouped

    def by_category(self, category: str) -> list[str]:
        """The scaffolds of ``category``; an unknown category lists the known ones."""
        grouped = self.categories()
        if category not in grouped:
            known = ", ".join(sorted(grouped))
            raise ConfigurationError(f"unknown category {category!r}; known: {known}")
        return list(grouped[category])


def _package_modules() -> Iterator[ModuleType]:
    """Every scaffold module of the package: ``verification.catalog.<category>.<name>``."""
    # The catalog's own machinery (spec, drawing, checks, plugins, ...) are the plain modules
    # beside the category folders; only the folders hold scaffolds.
    for category in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not category.ispkg:
            continue
        package = _scaffold_module(f"{__name__}.{category.name}")  # its __init__ too
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            yield _scaffold_module(f"{package.__name__}.{info.name}")


def _scaffold_module(name: str) -> ModuleType:
    """The scaffold module ``name``; a spec rule it breaks while it loads (an empty size
    range, a default size outside it) names the module, which the rule itself cannot: the
    spec is not made yet (a newcomer's inverted range said only "size range of tier
    'standard' is empty: 12..4", under every command, of every scaffold)."""
    try:
        return importlib.import_module(name)
    except SpecError as exc:
        if name in str(exc):
            raise
        raise SpecError(f"{name}: {exc}") from exc
    except Exception as exc:  # a module of the package that does not load (its author's)
        # Its own error, named, where a traceback ended every command with exit 4 (ours):
        # the catalog is incomplete, so no command that reads it goes on without it.
        raise RegistryError(
            f"scaffold module {name} does not load ({_where(exc, name)}): "
            f"{type(exc).__name__}: {printable(str(exc), 300)}"
        ) from exc


def _where(exc: BaseException, name: str) -> str:
    """The file and line of module ``name`` where ``exc`` arose (its last frame there; a
    syntax error's own place), or the module's name where no frame of it is known."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}, line {exc.lineno}"
    last = name.rsplit(".", 1)[-1]
    tails = (f"{os.sep}{last}.py", f"{os.sep}{last}{os.sep}__init__.py")  # a module, a package
    frames = [
        frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename.endswith(tails)
    ]
    return f"{frames[-1].filename}, line {frames[-1].lineno}" if frames else name


def _package_spec(module: ModuleType) -> ScaffoldSpec:
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, ScaffoldSpec):
        raise RegistryError(f"{module.__name__} must end with SPEC = ScaffoldSpec(...)")
    folder, name = module.__name__.split(".")[-2:]
    if (spec.category, spec.name) != (folder, name):
        raise RegistryError(
            f"{module.__name__} declares {spec.category}/{spec.name}: a scaffold's module is "
            "named after it and sits in its category's folder"
        )
    return spec


def load_catalog(plugins: Iterable[EntryPoint] | None = None) -> Catalog:
    """The package's scaffolds and the installed plugins' (``plugins`` defaults to the
    entry points of :data:`ENTRY_POINT_GROUP`)."""
    catalog = Catalog()
    for module in _package_modules():
        catalog.add(_package_spec(module), origin=module.__name__)
    skipped: list[SkippedScaffold] = []
    for entry in entry_points(group=ENTRY_POINT_GROUP) if plugins is None else plugins:
        distribution = _distribution_name(entry)
        try:
            specs = load_entry(entry, distribution)
            for spec in specs:
                if spec.name in catalog:
                    where = catalog.origins[spec.name]
                    raise ValueError(f"scaffold {spec.name!r} is already declared by {where}")
        except ValueError as exc:
            # The entry's name and value come from the plugin's metadata: shown escaped.
            name, reason = printable(entry.name, limit=100), printable(str(exc), limit=500)
            logger.warning("plugin %r from %s skipped: %s", name, distribution, reason)
            skipped.append(SkippedScaffold(name, distribution, reason))
            continue
        for spec in specs:
            catalog.add(spec, origin=distribution)
    catalog.skipped = {s.name: s for s in skipped}
    return catalog


def _distribution_name(entry: EntryPoint) -> str:
    """The name of the distribution that declares ``entry``, as a message may show it."""
    try:
        name = entry.dist.name if entry.dist is not None else None
    except Exception:  # metadata a plugin ships is as untrusted as its code
        name = None
    if not isinstance(name, str) or not name:
        return "an unknown distribution"
    return printable(name, limit=100)


@cache
def default_catalog() -> Catalog:
    """The catalog of this process, loaded on first use."""
    return load_catalog()
