"""Shared fixtures: the CLI binary the tests compare against."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _cli() -> pathlib.Path:
    given = os.environ.get("BITARCADE_BIN")
    if given:
        return pathlib.Path(given)
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "bitarcade"
        if p.exists():
            return p
    raise RuntimeError(
        "the bitarcade CLI is not built: run `cargo build -p bitarcade` or set BITARCADE_BIN"
    )


@pytest.fixture(scope="session")
def cli():
    """Runs the CLI with the given arguments and returns its stdout (fails on a non-zero exit)."""
    exe = _cli()

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        p = subprocess.run([str(exe), *args], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"bitarcade {' '.join(args)} exited {p.returncode}: {p.stderr}")
        return p

    return run
