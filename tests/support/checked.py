"""``check``'s lines on one spec alone, drawn lightly: what the tests that hold a check to
a spec made broken on purpose read, each line by its check's name."""

from __future__ import annotations

from verification.catalog import Catalog
from verification.catalog.spec import ScaffoldSpec
from verification.certify.checks import CheckResult, check_scaffold
from verification.config import packaged_scaffolds_dir

__all__ = ["checked"]


def checked(
    spec: ScaffoldSpec, *, origin: str | None = None, cases_per_tier: int = 2
) -> dict[str, CheckResult]:
    """``check``'s results on ``spec``, the only scaffold of its catalog (declared by
    ``origin``: a module of the package, a plugin's distribution; default neither), by
    check: ``cases_per_tier`` cases of each tier, one draw a size, no hash-seed child."""
    results = check_scaffold(
        spec.name,
        scaffolds_dir=packaged_scaffolds_dir(),
        catalog=Catalog([spec], origins={spec.name: origin} if origin else None),
        hash_seed=False,
        cases_per_tier=cases_per_tier,
        size_draws=1,
    )
    return {result.check: result for result in results}
