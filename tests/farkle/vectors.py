"""The project's test vectors (dice derivation, scoring), kept in ``tests/farkle/data/``.

They are copies of the vectors the product specification was published with; the project reads
them from the repository only, so a clone with nothing beside it runs every test.
"""

import json
from pathlib import Path

VECTORS = Path(__file__).resolve().parent / "data"


def load(name: str) -> dict:
    # A missing file fails the test run: the vectors are part of the contract, never optional.
    return json.loads((VECTORS / name).read_text())
