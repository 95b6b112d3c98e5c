"""Ready to publish (issue 17 item 7): ``python -m build`` makes an sdist and a wheel without
network (``--no-isolation``: the build backend comes from the dev extra), and the wheel,
installed with ``--no-deps`` into a fresh virtual environment outside the checkout, runs
``verify-scaffolds list`` and a dry run from another folder, its scaffolds shipped inside."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from verification.catalog import default_catalog

pytestmark = pytest.mark.slow  # builds and installs the wheel

CHECKOUT = Path(__file__).resolve().parents[1]


def _run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (CHECKOUT / "pyproject.toml").is_file():
        pytest.skip("not run from a source checkout")
    out = tmp_path_factory.mktemp("dist")
    built = _run(
        sys.executable, "-m", "build", "--no-isolation", "--outdir", out, CHECKOUT, cwd=out
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    return out


def test_build_makes_an_sdist_and_a_wheel_with_the_scaffolds(dist: Path) -> None:
    (wheel,) = dist.glob("scaffold_verification-*-py3-none-any.whl")
    (sdist,) = dist.glob("scaffold_verification-*.tar.gz")
    import tarfile
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    for spec in default_catalog().values():
        assert f"verification/_scaffolds/{spec.category}/{spec.name}.md" in names
    with tarfile.open(sdist) as archive:
        assert any(name.endswith("/pyproject.toml") for name in archive.getnames())


def test_the_sdist_holds_no_file_git_ignores(dist: Path) -> None:
    # hatchling reads the checkout's top .gitignore only: a tool's cache folder that ignores
    # itself with a .gitignore of its own (.import_linter_cache) went into every sdist.
    if not (CHECKOUT / ".git").exists():
        pytest.skip("not run from a git checkout")
    import tarfile

    (sdist,) = dist.glob("scaffold_verification-*.tar.gz")
    with tarfile.open(sdist) as archive:
        members = [m.name.split("/", 1)[1] for m in archive.getmembers() if m.isfile()]
    ignored = subprocess.run(
        ["git", "check-ignore", "--stdin"],
        input="\n".join(members),
        capture_output=True,
        text=True,
        cwd=CHECKOUT,
        check=False,
    )
    assert ignored.returncode in (0, 1), ignored.stderr  # 1: none of them is ignored
    assert ignored.stdout == "", ignored.stdout[:2000]


def test_the_wheel_installed_elsewhere_lists_and_dry_runs_from_another_folder(
    dist: Path, tmp_path: Path
) -> None:
    (wheel,) = dist.glob("scaffold_verification-*-py3-none-any.whl")
    env_dir = tmp_path / "venv"
    # No pip of its own (ensurepip takes seconds): ours installs into it (--python).
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    site = Path(
        _run(
            python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path
        ).stdout.strip()
    )
    # The dependencies from the test environment (a venv's own packages are not what
    # --system-site-packages would show): its site-packages as a path, whose .pth files
    # (this checkout's editable install among them) are not read.
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "test-environment.pth").write_text("\n".join(sorted(ours)) + "\n", "utf-8")
    installed = _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--no-deps",
        "--no-index",
        "-q",
        wheel,
        cwd=tmp_path,
    )
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(python, "-c", "import verification; print(verification.__file__)", cwd=elsewhere)
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr
    script = bin_dir / ("verify-scaffolds.exe" if os.name == "nt" else "verify-scaffolds")
    listed = _run(script, "list", cwd=elsewhere)
    assert listed.returncode == 0, listed.stderr
    assert len(listed.stdout.splitlines()) == len(default_catalog()) + 1
    dry = _run(
        script,
        "verify",
        "kmp",
        "--provider",
        "reference",
        "--cases",
        "2",
        "--output",
        "out",
        cwd=elsewhere,
    )
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert "DRY RUN" in dry.stdout and (elsewhere / "out" / "reports" / "summary.md").is_file()
    shown = _run(
        python, "-m", "verification", "show-prompt", "kmp", "--part", "system", cwd=elsewhere
    )
    assert str(site) in where.stdout and shown.returncode == 0
    assert shown.stdout.startswith("#"), "the scaffold shipped in the wheel"
