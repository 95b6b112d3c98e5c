"""``list``, ``check``, ``show-prompt`` and ``plan``: the scaffolds and the certification
plan, with no model asked."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from verification.cli.command_base import CommandsBase

if TYPE_CHECKING:
    from verification.cases import CaseKey, TestCase
    from verification.catalog.spec import ScaffoldSpec

__all__ = ["CatalogCommands"]


class CatalogCommands(CommandsBase):
    """``list``, ``check``, ``show-prompt`` and ``plan``."""

    def plan(self) -> int:
        """Print the plan a run of these settings certifies by, and its OC table."""
        from verification.reports.plan_text import plan_text

        print(plan_text(self.settings.certification_plan, samples=self.settings.samples), end="")
        return 0

    def list_scaffolds(
        self, category: str | None = None, *, markdown: bool = False, as_json: bool = False
    ) -> int:
        if markdown and (as_json or category):
            # Refused, not ignored (hunt ii: the page came out whole, in Markdown, either way).
            from verification.errors import ConfigurationError

            other = "--json" if as_json else "--category"
            raise ConfigurationError(
                f"--markdown writes the whole catalog's page: leave out {other}"
            )
        if markdown or as_json:
            from verification.catalog import default_catalog
            from verification.catalog.docs import catalog_json, catalog_markdown

            catalog = default_catalog()
            if markdown:
                print(catalog_markdown(catalog), end="")
            else:
                names = catalog.by_category(category) if category else list(catalog)
                print(catalog_json(catalog, names))
            return 0
        from verification.cli.listing import catalog_listing

        # The plain table comes from the catalog's index: a cold `list` loads no scaffold.
        listing = catalog_listing()
        rows = [("NAME", "CATEGORY", "VALIDATOR", "SIZE", "DESCRIPTION")]
        rows += listing.of_category(category) if category else listing.rows
        # Each column as wide as its widest entry, so every row lines up.
        widths = [max(len(row[column]) for row in rows) for column in range(4)]
        for row in rows:
            print("  ".join([*(f"{c:<{w}}" for c, w in zip(row, widths, strict=False)), row[4]]))
        for skipped in listing.skipped:
            print(skipped)
        return 0

    def check(
        self,
        names: Sequence[str] = (),
        *,
        category: str | None = None,
        everything: bool = False,
        cases: int | None = None,
        as_json: bool = False,
    ) -> int:
        from verification.certify.checks import CASES_PER_TIER, check_scaffold
        from verification.certify.hash_seed import hash_seed_verdicts
        from verification.registry import resolve_scaffold_names

        failed = 0
        found = []
        chosen = resolve_scaffold_names(names, category=category, everything=everything)
        # Two fresh interpreters draw every chosen suite, not two per scaffold.
        hash_seeds = hash_seed_verdicts(chosen) if len(chosen) > 1 else None
        for name in chosen:
            for result in check_scaffold(
                name,
                scaffolds_dir=self.settings.scaffolds_dir,
                cases_per_tier=cases or CASES_PER_TIER,
                hash_seeds=hash_seeds,
            ):
                failed += not result.ok
                if as_json:
                    found.append(
                        {"scaffold": name, "check": result.check, "ok": result.ok}
                        | {"warning": result.warning, "detail": result.detail}
                    )
                else:
                    mark = "FAIL" if not result.ok else "WARN" if result.warning else "ok  "
                    print(f"{mark} {name}: {result.check}: {result.detail}")
        if as_json:
            import json

            document = {"scaffolds": chosen, "failed": failed, "checks": found}
            print(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            print("all checks passed" if not failed else f"{failed} check(s) failed")
        return 0 if not failed else 1

    def show_prompt(
        self,
        name: str,
        case_id: str | None = None,
        *,
        part: str = "both",
        scaffold_file: Path | None = None,
        size: int | None = None,
        answer: str | None = None,
        bare: bool = False,
    ) -> int:
        from verification.cases import case_id as make_case_id
        from verification.cases import parse_case_id
        from verification.errors import ConfigurationError
        from verification.llm.bare_prompt import BarePromptBuilder
        from verification.llm.prompt_builder import PromptBuilder
        from verification.registry import get_spec
        from verification.runner import plan_cases

        spec = get_spec(name)  # an unknown name is refused before any case is named
        if (answer or self.settings.answer) == "code":
            if case_id is not None or size is not None:  # refused, as verify refuses them
                option = "--case" if case_id is not None else "--size"
                raise ConfigurationError(
                    f"{option} is refused with --answer code: a program's prompt holds no "
                    "case (it runs on the whole suite, every tier and the spec's size ladder)"
                )
            return self._show_code_prompt(name, part=part, scaffold_file=scaffold_file)
        chosen = case_id is None
        if case_id is None:  # the first standard case, as a user trying a scaffold wants
            case_id = make_case_id(name, "standard", 0, size)
        key = parse_case_id(case_id)
        if size is not None and key is not None:
            if key.size not in (None, size):
                raise ConfigurationError(f"case {case_id} names size {key.size}, not {size}")
            case_id = make_case_id(key.scaffold, key.tier, key.index, size)
            problem = spec.size.check(key.tier, size)
            if problem is not None:  # show-prompt has no --tier: another tier is another --case
                raise ConfigurationError(
                    f"{name}: {problem}; choose --size in it, or --case ID of another tier"
                )
        case = _ladder_case(spec, key, seed=self.settings.seed)
        if case is None:
            planned = plan_cases([name], seed=self.settings.seed, cases=1, case_ids=[case_id])
            case = planned[name][0]
        else:
            print(
                f"case {case_id} is one of code mode's ladder, past the trace sizes: its trace "
                "prompt is shown for its input",
                file=sys.stderr,
            )
        overrides = {name: scaffold_file} if scaffold_file else {}
        builder = (BarePromptBuilder if bare else PromptBuilder)(
            self.settings.scaffolds_dir, overrides=overrides
        )
        prompt = builder.build(name, case.input)
        if chosen:  # said once the case and the scaffold's file are known to be there
            print(
                f"showing case {case_id} (the first standard case; --case ID for another)",
                file=sys.stderr,
            )
        from verification.llm.prompt_builder import USER_TEMPLATE_VERSION

        shown = "its task part (--baseline none)" if bare else "verbatim"
        both = (
            f"===== system prompt: {builder.scaffold_path(name)} {shown} =====\n"
            f"{prompt.system.rstrip()}\n\n"
            f"===== user prompt: template {USER_TEMPLATE_VERSION}, case {case.id} =====\n"
            f"{prompt.user}"
        )
        text = {"system": prompt.system, "user": prompt.user, "both": both}[part]
        print(text.rstrip("\n"))  # one newline at the end, whatever the part
        return 0

    def _show_code_prompt(self, name: str, *, part: str, scaffold_file: Path | None) -> int:
        """A code-mode program's prompt: the scaffold and the Code Format (the same for
        every program of the scaffold)."""
        from verification.catalog.code_format import CODE_FORMAT_VERSION
        from verification.llm.prompt_builder import PromptBuilder
        from verification.run.code_answers import code_prompt

        overrides = {name: scaffold_file} if scaffold_file else {}
        builder = PromptBuilder(self.settings.scaffolds_dir, overrides=overrides)
        prompt = code_prompt(builder, builder.spec(name))
        both = (
            f"===== system prompt: {builder.scaffold_path(name)} verbatim =====\n"
            f"{prompt.system.rstrip()}\n\n"
            f"===== user prompt: Code Format {CODE_FORMAT_VERSION}, program of {name} =====\n"
            f"{prompt.user}"
        )
        print({"system": prompt.system, "user": prompt.user, "both": both}[part].rstrip("\n"))
        return 0


def _ladder_case(spec: ScaffoldSpec, key: CaseKey | None, *, seed: int) -> TestCase | None:
    """The case ``key`` names when it is one of code mode's ladder past the trace sizes
    (which a program's report names as its first failing case), drawn as code mode draws
    it; ``None`` for any other key."""
    from verification.catalog.drawing import draw_case

    if key is None or key.scaffold != spec.name or key.tier != "standard" or key.size is None:
        return None
    if key.size not in spec.code_ladder or spec.size.check(key.tier, key.size) is None:
        return None
    return draw_case(spec, key.tier, key.index, seed=seed, size=key.size)
