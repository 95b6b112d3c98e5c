"""The public surface the API reference promises, and __all__ in every module."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import verification

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(verification.__path__, prefix="verification.")
    if not m.name.endswith("__main__")
)

PROMISED = {
    "verification.generators.base": ["TestCase", "TestSuite", "TestCaseGenerator"],
    "verification.runner": [
        "TestResult",
        "ScaffoldResults",
        "VerificationRunner",
        "run_verification",
    ],
    "verification.llm.base": [
        "LLMProvider",
        "LLMRequest",
        "LLMResponse",
        "LLMError",
        "RateLimitError",
        "AuthenticationError",
    ],
    "verification.llm.claude": ["ClaudeProvider"],
    "verification.llm.prompt_builder": ["PromptBuilder", "ScaffoldParser"],
    "verification.llm.response_parser": ["ResponseParser"],
    "verification.validators.base": ["Validator", "ValidationResult", "CompositeValidator"],
    "verification.validators.exact_match": [
        "ExactMatchValidator",
        "DictMatchValidator",
        "PathMatchValidator",
    ],
    "verification.validators.numeric_tolerance": ["NumericToleranceValidator"],
    "verification.validators.set_equivalence": ["SetEquivalenceValidator", "MSTValidator"],
    "verification.registry": [
        "SCAFFOLD_REGISTRY",
        "VALIDATOR_REGISTRY",
        "UniversalGenerator",
        "get_all_generators",
        "get_validator_for_scaffold",
        "get_scaffolds_by_category",
    ],
    "verification.config": ["VerificationSettings"],
    "verification.reports.generator": ["ReportGenerator"],
    "verification.cli": ["VerificationCLI", "main"],
    "verification.cases": ["Tier", "TIERS", "TestCase", "case_id", "case_rng", "generate_case"],
    "verification.catalog": ["Catalog", "default_catalog", "ENTRY_POINT_GROUP"],
    "verification.catalog.spec": ["ScaffoldSpec", "SizeAxis", "AnswerSchema"],
    "verification.llm.providers": ["PROVIDERS", "register_provider", "build_provider"],
    "verification.reports.base": ["Reporter", "ReportContext"],
    "verification.certify.checks": ["check_scaffold"],
}


def _reference_functions() -> dict[str, str]:
    """Each scaffold's reference function by its API name, with the module it lives in
    (derived from the specs: a new scaffold is covered by being registered)."""
    from verification.catalog import default_catalog

    # A large family module is a package re-exporting its submodules' functions: the
    # documented module is verification.reference.<family>, whatever submodule defines it.
    return {
        spec.reference_name: ".".join(spec.reference.__module__.split(".")[:3])
        for spec in default_catalog().values()
        if spec.reference.__module__.startswith("verification.reference.")
    }


@pytest.mark.parametrize(("function", "module_name"), sorted(_reference_functions().items()))
def test_every_reference_function_imports_from_its_documented_module(
    function: str, module_name: str
) -> None:
    module = importlib.import_module(module_name)
    assert function in module.__all__, f"{module_name} does not export {function}"
    assert callable(getattr(module, function))


@pytest.mark.parametrize("module_name", MODULES)
def test_every_module_declares_all_and_exports_what_it_names(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert hasattr(module, "__all__"), f"{module_name} has no __all__"
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.__all__ names missing {name}"


@pytest.mark.parametrize(("module_name", "names"), sorted(PROMISED.items()))
def test_the_api_reference_names_hold(module_name: str, names: list[str]) -> None:
    module = importlib.import_module(module_name)
    for name in names:
        assert name in module.__all__, f"{module_name} does not export {name}"


def test_registry_views_derive_from_the_specs() -> None:
    from verification.registry import (
        SCAFFOLD_REGISTRY,
        SPECS,
        VALIDATOR_REGISTRY,
        get_all_generators,
        get_scaffolds_by_category,
        get_validator_for_scaffold,
    )

    assert sorted(n for names in SCAFFOLD_REGISTRY.values() for n in names) == sorted(SPECS)
    assert set(VALIDATOR_REGISTRY) == set(SPECS) == set(get_all_generators())
    for name, spec in SPECS.items():
        assert get_validator_for_scaffold(name) is spec.validator
        assert name in get_scaffolds_by_category(spec.category)


def test_unknown_scaffold_lists_close_matches() -> None:
    from verification.errors import UnknownScaffoldError
    from verification.registry import get_spec

    # Other close names may join kmp as scaffolds are added (prim): only kmp is pinned.
    with pytest.raises(UnknownScaffoldError, match=r"(?i)did you mean: .*\bkmp\b") as raised:
        get_spec("kpm")
    assert "kmp" in raised.value.close_matches


def test_universal_generator_suite_has_every_tier() -> None:
    from verification.registry import UniversalGenerator

    suite = UniversalGenerator("dijkstra", cases=10).generate_suite()
    assert [c.tier for c in suite.test_cases] == ["simple"] * 3 + ["standard"] * 5 + ["edge"] * 2
    assert suite.test_cases[0].id == "dijkstra-simple-000"


DOCUMENTED = {
    "verification.cli": ["VerificationCLI", "main"],
    "verification.config": ["VerificationSettings"],
    "verification.generators.base": ["TestCase", "TestCaseGenerator", "TestSuite"],
    "verification.llm.base": [
        "AuthenticationError",
        "LLMError",
        "LLMProvider",
        "LLMRequest",
        "LLMResponse",
        "RateLimitError",
    ],
    "verification.llm.claude": ["ClaudeProvider"],
    "verification.llm.prompt_builder": ["PromptBuilder", "ScaffoldParser"],
    "verification.llm.response_parser": ["ResponseParser"],
    "verification.reference.backtracking": [
        "graph_coloring",
        "n_queens",
        "solve_sudoku",
        "subset_sum",
    ],
    "verification.reference.divide_conquer": ["binary_search", "merge_sort", "quickselect"],
    "verification.reference.dynamic_programming": [
        "edit_distance",
        "knapsack_01",
        "longest_common_subsequence",
        "longest_increasing_subsequence",
        "matrix_chain_multiplication",
    ],
    "verification.reference.graph": [
        "astar",
        "bellman_ford",
        "bfs",
        "dfs",
        "dijkstra",
        "floyd_warshall",
        "topological_sort",
    ],
    "verification.reference.greedy": [
        "activity_selection",
        "fractional_knapsack",
        "huffman_coding",
        "kruskal_mst",
    ],
    "verification.reference.numerical": ["bisection", "monte_carlo_integration", "newton_raphson"],
    "verification.reference.optimization": [
        "genetic_algorithm",
        "gradient_descent",
        "hill_climbing",
        "simulated_annealing",
    ],
    "verification.reference.string_algo": ["kmp_search", "rabin_karp", "trie_operations"],
    "verification.registry": [
        "SCAFFOLD_REGISTRY",
        "UniversalGenerator",
        "VALIDATOR_REGISTRY",
        "get_all_generators",
        "get_scaffolds_by_category",
        "get_validator_for_scaffold",
    ],
    "verification.reports.generator": ["ReportGenerator"],
    "verification.runner": [
        "ScaffoldResults",
        "TestResult",
        "VerificationRunner",
        "run_verification",
    ],
    "verification.validators.base": ["CompositeValidator", "ValidationResult", "Validator"],
    "verification.validators.exact_match": [
        "DictMatchValidator",
        "ExactMatchValidator",
        "PathMatchValidator",
    ],
    "verification.validators.numeric_tolerance": ["NumericToleranceValidator"],
    "verification.validators.set_equivalence": ["MSTValidator", "SetEquivalenceValidator"],
}
"""Every name the API reference imports, by the module its examples import it from: pinned
here, since the reference (the spec's api-reference.md) is not in this repository."""


def test_the_api_reference_documents_69_names() -> None:
    assert sum(len(names) for names in DOCUMENTED.values()) == 69


@pytest.mark.parametrize(
    ("module_name", "name"),
    [(module, name) for module, names in sorted(DOCUMENTED.items()) for name in names],
)
def test_every_documented_name_imports_from_its_documented_path(
    module_name: str, name: str
) -> None:
    namespace: dict[str, object] = {}
    exec(f"from {module_name} import {name}", namespace)  # the reference's own statement
    assert namespace[name] is not None


def test_the_old_api_lives_in_the_compatibility_module() -> None:
    """The names only old callers use are defined once, in verification.catalog.compat;
    their documented homes re-export or inherit them."""
    from verification import registry, runner
    from verification.catalog import compat
    from verification.llm.response_parser import ResponseParser

    for name in (
        "UniversalGenerator",
        "get_all_generators",
        "get_scaffolds_by_category",
        "get_validator_for_scaffold",
    ):
        assert getattr(registry, name) is getattr(compat, name)
        assert getattr(compat, name).__module__ == compat.__name__
    assert registry.SCAFFOLD_REGISTRY == compat.SCAFFOLD_REGISTRY
    assert registry.VALIDATOR_REGISTRY == compat.VALIDATOR_REGISTRY
    for method in ("run_single_test", "run_test_suite"):
        assert getattr(runner.VerificationRunner, method) is getattr(compat.LegacyRunnerAPI, method)
    assert runner.run_verification == runner.VerificationRunner.run_verification
    assert "run_verification" in vars(compat.LegacyRunnerAPI)
    assert ResponseParser.parse is compat.LegacyParserAPI.parse
