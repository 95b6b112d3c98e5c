"""The one error tree (issue 22 item 7): every exception the package defines is in it, each
class carries its exit code, the command line ends with that code, and the drawing in
``verification/errors.py``'s docstring is the tree as the classes make it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import verification
from verification import errors
from verification.cli import EXIT_CODES, main
from verification.cli.commands import VerificationCLI
from verification.cli.exit_codes import INTERNAL_ERROR

TREE = sorted(
    (
        value
        for value in vars(errors).values()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__ == errors.__name__
    ),
    key=lambda cls: cls.__name__,
)
ROOTS = (errors.VerificationError, errors.Terminated)

DRAWN_LINE = re.compile(r"^    (?P<branch>(?:[│ ]   |[├└]── )*)(?P<name>\w+) +(?P<code>\d+)   \S")
"""A row of the drawing: its branch marks, four characters a level; the class; its code."""


def _defined_exceptions() -> list[type[BaseException]]:
    """Every exception class a module of the package defines (the reference algorithms are
    a library apart: they raise Python's own errors, as a library's contract)."""
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(verification.__path__, prefix="verification."):
        if info.name.startswith("verification.reference") or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found.extend(
            value
            for value in vars(module).values()
            if inspect.isclass(value)
            and issubclass(value, BaseException)
            and value.__module__ == info.name
        )
    return found


def _drawing() -> dict[str, tuple[int, int]]:
    """Each class the docstring draws: its depth in the tree and its exit code."""
    drawn = {}
    for line in (errors.__doc__ or "").splitlines():
        row = DRAWN_LINE.match(line)
        if row:
            drawn[row["name"]] = (len(row["branch"]) // 4, int(row["code"]))
    return drawn


def test_every_exception_the_package_defines_is_in_the_tree() -> None:
    defined = _defined_exceptions()
    assert errors.VerificationError in defined  # the walk found the tree itself
    outside = [
        f"{cls.__module__}.{cls.__name__}"
        for cls in defined
        # A private class is a module's own signal, raised and caught there.
        if not cls.__name__.startswith("_") and cls.__module__ != errors.__name__
    ]
    assert outside == [], "define these in verification/errors.py, in the tree"
    assert all(issubclass(cls, ROOTS) for cls in TREE)
    assert sorted(errors.__all__) == sorted(cls.__name__ for cls in TREE)


@pytest.mark.parametrize("cls", TREE, ids=lambda cls: cls.__name__)
def test_each_class_states_its_exit_code_and_one_line_of_doc(
    cls: type[BaseException],
) -> None:
    assert "exit_code" in vars(cls), f"{cls.__name__} does not state its own exit code"
    code = vars(cls)["exit_code"]
    assert isinstance(code, int) and code in EXIT_CODES  # documented in --help and README
    assert code != INTERNAL_ERROR  # 4 is for what the tree does not hold: our bugs
    assert cls.__doc__ and cls.__doc__.strip()


def test_the_drawing_is_the_tree_with_its_exit_codes() -> None:
    drawn = _drawing()
    assert sorted(drawn) == sorted(cls.__name__ for cls in TREE)
    for cls in TREE:
        depth, code = drawn[cls.__name__]
        assert code == vars(cls)["exit_code"], cls.__name__
        tree_parents = [base for base in cls.__mro__[1:] if base in TREE]
        assert depth == len(tree_parents), f"{cls.__name__} is drawn at the wrong depth"
    # Each class sits under its nearest ancestor of the tree: the last shallower row above.
    names = list(drawn)
    for index, name in enumerate(names):
        depth = drawn[name][0]
        above = [n for n in names[:index] if drawn[n][0] == depth - 1]
        if depth:
            assert issubclass(getattr(errors, name), getattr(errors, above[-1])), name


def _raising(error: BaseException) -> object:
    def list_scaffolds(self: VerificationCLI, *args: object, **kwargs: object) -> int:
        raise error

    return list_scaffolds


def _instance(cls: type[BaseException]) -> BaseException:
    """An instance whatever the class's keyword-only context (the CLI only prints it)."""
    error = cls.__new__(cls)
    BaseException.__init__(error, f"a {cls.__name__} for the test")
    return error


@pytest.mark.parametrize("cls", TREE, ids=lambda cls: cls.__name__)
def test_the_command_line_ends_with_the_class_s_exit_code(
    cls: type[BaseException],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(VerificationCLI, "list_scaffolds", _raising(_instance(cls)))
    assert main(["list"]) == vars(cls)["exit_code"]
    err = capsys.readouterr().err
    if issubclass(cls, errors.VerificationError):
        assert f"error: a {cls.__name__} for the test" in err
    else:
        assert "stopped as asked" in err


@pytest.mark.parametrize("error", [RuntimeError("a bug"), ValueError("a bug"), AssertionError()])
def test_anything_outside_the_tree_is_an_internal_error(
    error: Exception, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(VerificationCLI, "list_scaffolds", _raising(error))
    assert main(["list"]) == INTERNAL_ERROR == 4
    assert "internal error" in caplog.text


def test_a_spec_rule_is_a_spec_error_and_still_a_value_error() -> None:
    import dataclasses

    from verification.catalog import default_catalog

    spec = next(iter(default_catalog().values()))
    with pytest.raises(errors.SpecError, match="max_output_tokens") as raised:
        dataclasses.replace(spec, max_output_tokens=1)
    assert isinstance(raised.value, ValueError)
    assert isinstance(raised.value, errors.RegistryError)


def test_a_provider_registered_twice_is_a_registry_error() -> None:
    from verification.llm.providers import PROVIDERS, register_provider

    with pytest.raises(errors.RegistryError, match="'reference' is registered twice"):
        register_provider("reference", "again")(PROVIDERS["reference"].factory)
