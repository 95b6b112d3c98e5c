"""Reference programs: a scaffold's reference implementation as a code-mode program, the
dry run's answer in code mode (``--provider reference --answer code``).

The program is source text that runs anywhere the sandbox runs Python, standard library
only: the source of the reference's module and of every module of
:mod:`verification.reference` it imports, bundled and served to ``import`` by a small
finder, then a ``solve`` that calls the reference. A reference importing anything outside
the standard library (or outside :mod:`verification.reference`) is refused, naming it: the
sandbox has nothing else.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from functools import cache

from verification.catalog.spec import ScaffoldSpec
from verification.errors import SpecError

__all__ = ["bundled_modules", "has_bundled_reference", "reference_program"]

_BUNDLED_ROOT = "verification.reference"

_LOADER = """
import importlib.abc
import importlib.util
import json
import sys

_SOURCES = {sources}


class _Bundled(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        package = any(key.startswith(name + ".") for key in _SOURCES)
        if name not in _SOURCES and not package:
            return None
        return importlib.util.spec_from_loader(name, self, is_package=package)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        source = _SOURCES.get(module.__name__)
        if source is not None:
            exec(compile(source, module.__name__, "exec"), module.__dict__)


sys.meta_path.insert(0, _Bundled())
from {module} import {function} as _reference  # noqa: E402


def solve(input):
    return json.loads(json.dumps(_reference(**input), allow_nan=False))
"""


def _imported(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _without_docstrings(source: str) -> str:
    """``source`` with its docstrings and comments left out (the same code, a third of the
    text: a program is journalled and shown in every report)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.unparse(tree) + "\n"


@cache
def bundled_modules(module: str) -> dict[str, str]:
    """The source of ``module`` and of each :mod:`verification.reference` module it imports,
    transitively, by module name (dependencies first).

    Raises
    ------
    SpecError
        When one of them imports something outside the standard library.
    """
    found: dict[str, str] = {}

    def visit(name: str) -> None:
        if name in found:
            return
        source = inspect.getsource(importlib.import_module(name))
        found[name] = ""  # visiting: an import cycle ends here
        for imported in sorted(_imported(source)):
            top = imported.split(".")[0]
            if imported == _BUNDLED_ROOT or imported.startswith(_BUNDLED_ROOT + "."):
                if imported != _BUNDLED_ROOT:
                    visit(imported)
            elif top not in sys.stdlib_module_names and top != "__future__":
                raise SpecError(
                    f"reference module {name} imports {imported}, not of the standard "
                    "library: a code-mode program runs with the standard library only"
                )
        del found[name]
        found[name] = _without_docstrings(source)

    visit(module)
    return found


def has_bundled_reference(spec: ScaffoldSpec) -> bool:
    """Whether ``spec``'s reference is one of the harness's own (in ``verification.reference``),
    which :func:`reference_program` builds a program from: a plugin's is not."""
    module = getattr(spec.reference, "__module__", "")
    return module == _BUNDLED_ROOT or module.startswith(_BUNDLED_ROOT + ".")


def reference_program(spec: ScaffoldSpec) -> str:
    """The code-mode program made from ``spec``'s reference implementation."""
    function = spec.reference
    module = getattr(function, "__module__", "")
    if not has_bundled_reference(spec):
        raise SpecError(
            f"spec {spec.name!r}: its reference {spec.reference_name} is not in "
            f"{_BUNDLED_ROOT}, so no program can be built from it"
        )
    sources = bundled_modules(module)
    return _LOADER.format(
        sources="{\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in sources.items()) + "}",
        module=module,
        function=function.__name__,
    ).lstrip()
