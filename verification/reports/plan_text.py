"""A certification plan as people read it: what ``python -m verification plan`` prints and
docs/VERIFICATION.md shows (its looks, its tests, the risks it keeps and its operating
characteristic table), from the functions the runner decides by
(:mod:`verification.certify.sequential`)."""

from __future__ import annotations

from verification.certify.operating import oc_sentence, oc_table, operating_characteristic
from verification.certify.sequential import CertificationPlan, WaldTest

__all__ = ["oc_markdown_table", "plan_text"]


def oc_markdown_table(plan: CertificationPlan) -> str:
    """The plan's exact OC at true pass rates 0.50, 0.55, ..., 1.00, as a Markdown table."""
    lines = [
        "| true pass rate | P(CERTIFIED) | P(PARTIAL) | P(FAILED) | expected cases |",
        "|---|---|---|---|---|",
    ]
    for oc in oc_table(plan):
        lines.append(
            f"| {oc.p:.2f} | {oc.certified:.3f} | {oc.partial:.3f} | {oc.failed:.3f} "
            f"| {oc.expected_cases:.1f} |"
        )
    return "\n".join(lines) + "\n"


def _test(test: WaldTest) -> str:
    risks = (
        f"alpha = beta = {test.alpha:g}"
        if test.alpha == test.beta
        else f"alpha = {test.alpha:g}, beta = {test.beta:g}"
    )
    return f"Wald's SPRT of {test.p0:.2f} against {test.p1:.2f} ({risks})"


def plan_text(plan: CertificationPlan, *, samples: int = 1) -> str:
    """The plan, its looks, the risks it keeps (exactly computed) and its OC table."""
    looks = ", ".join(str(look) for look in plan.looks)
    lines = [
        f"Plan {plan.name}: looks at {looks} answered cases (the last, {plan.cap}, is the cap)."
    ]
    if plan.upper is not None and plan.lower is not None:
        lines += [
            f"CERTIFIED or not: {_test(plan.upper)}; FAILED or not: {_test(plan.lower)}.",
            "A look stops the run when both tests are decided and agree with the status the "
            "rate so far gives (CERTIFIED at 0.90 or more, PARTIAL from 0.50, FAILED below); "
            "at the cap the rate alone decides.",
        ]
    else:
        lines.append("Every case is asked; the rate alone decides (0.90 and 0.50).")
    for risk in plan.risks:
        value = risk.probability(operating_characteristic(plan, risk.p))
        lines.append(f"  {risk}: {value:.4f} at p = {risk.p:.2f} (kept)")
    lines += ["", oc_sentence(plan, samples=samples), "", oc_markdown_table(plan).rstrip("\n")]
    return "\n".join(lines) + "\n"
