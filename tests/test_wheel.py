"""The built wheel stands alone: installed into a fresh virtual environment and run from a directory
outside the repository, clustergen finds its catalog and prompts inside the installed package.

The wheel is built and installed with uv (which may use the package registry or its cache); only
this test process has its sockets refused, not the uv subprocesses.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from clustergen import __version__
from clustergen.catalog import load_catalog
from clustergen.cli.app import main

ROOT = Path(__file__).resolve().parent.parent
BIN = "Scripts" if os.name == "nt" else "bin"


def _run(cmd: list[str | Path], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(venv, a working directory outside the repository, the environment to run it with)."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH; this test builds and installs the wheel with uv")
    base = tmp_path_factory.mktemp("wheel")
    # Nothing may lead the installed program back to the repository or the project's venv.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "UV_PROJECT_ENVIRONMENT"}
    }
    dist = base / "dist"
    _run([uv, "build", "--wheel", "--out-dir", dist, ROOT], cwd=ROOT, env=env)
    wheels = sorted(dist.glob("clustergen-*.whl"))
    assert [w.name for w in wheels] == [f"clustergen-{__version__}-py3-none-any.whl"]
    venv = base / "venv"
    _run([uv, "venv", "--quiet", venv], cwd=base, env=env)
    python = venv / BIN / ("python.exe" if os.name == "nt" else "python")
    _run([uv, "pip", "install", "--quiet", "--python", python, wheels[0]], cwd=base, env=env)
    outside = base / "elsewhere"
    outside.mkdir()
    return venv, outside, env


@pytest.mark.slow
def test_the_installed_package_carries_its_catalog_and_prompts(
    installed: tuple[Path, Path, dict[str, str]],
) -> None:
    venv, outside, env = installed
    code = (
        "import json, clustergen\n"
        "from clustergen.catalog.loader import builtin_catalog_dir\n"
        "print(json.dumps([clustergen.__file__, str(builtin_catalog_dir())]))\n"
    )
    package_file, catalog_dir = json.loads(_run([venv / BIN / "python", "-c", code], outside, env))
    package = Path(package_file).resolve().parent
    assert package.is_relative_to(venv.resolve()), package  # not the repository's src/
    assert Path(catalog_dir).resolve() == package / "_data" / "catalog"
    assert sorted(p.name for p in (package / "_data" / "catalog").glob("*.yaml")) == sorted(
        p.name for p in (ROOT / "catalog").glob("*.yaml")
    )
    assert (package / "_data" / "prompts").is_dir()
    assert sorted(p.name for p in (package / "_data" / "prompts").iterdir()) == sorted(
        p.name for p in (ROOT / "prompts").iterdir()
    )


@pytest.mark.slow
def test_the_installed_cli_runs_from_outside_the_repository(
    installed: tuple[Path, Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    venv, outside, env = installed
    clustergen = venv / BIN / "clustergen"
    repo_catalog = load_catalog()

    version = _run([clustergen, "--version"], outside, env).strip()
    assert version == f"clustergen {__version__} (catalog {repo_catalog.hash})"

    entries = sum(len(rows) for rows in repo_catalog.entries.values())
    validated = _run([clustergen, "catalog", "validate"], outside, env).strip()
    assert validated == f"catalog OK: {entries} entries, hash {repo_catalog.hash}"

    args = ["fabric", "--platform", "dgx-h100", "--nodes", "32", "--json"]
    fabric = json.loads(_run([clustergen, *args], outside, env))
    # One full 32-node SU of DGX H100 (H100-RA Table 3 shape): 8 rail leaves, 256 node links.
    assert fabric["platform"] == "dgx-h100"
    assert (fabric["tiers"], fabric["leaf_switches"], fabric["node_links"]) == (2, 8, 256)
    assert fabric["leaf_switch"] == "qm9700"
    # and exactly what the repository's own code prints
    main(args)
    assert fabric == json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_the_installed_package_carries_the_pages_templates_and_assets(
    installed: tuple[Path, Path, dict[str, str]],
) -> None:
    """`clustergen serve` needs no CDN and no repository: its templates, script and style ship
    in the wheel, and the installed app renders its page."""
    venv, outside, env = installed
    code = (
        "from clustergen.web.app import ASSETS, _TEMPLATES, _asset\n"
        "print(sorted(ASSETS), [len(_asset(n)) > 0 for n in ASSETS])\n"
        "print(sorted(_TEMPLATES.list_templates()))\n"
    )
    assets, templates = _run([venv / BIN / "python", "-c", code], outside, env).splitlines()
    assert assets == "['app.js', 'style.css'] [True, True]"
    assert templates == "['answer.html', 'page.html', 'table.html']"
