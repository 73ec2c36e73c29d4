"""The shared test vectors, read from ``../shared/vectors`` beside the repository."""

import json
import os
from pathlib import Path

VECTORS = Path(
    os.environ.get("FARKLE_VECTORS_DIR", Path(__file__).resolve().parents[3] / "shared" / "vectors")
)


def load(name: str) -> dict:
    # A missing file fails the test run: the vectors are part of the contract, never optional.
    return json.loads((VECTORS / name).read_text())
