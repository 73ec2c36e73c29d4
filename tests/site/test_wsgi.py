"""The WSGI entry point as a web worker loads it."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOAD = """
import gc, json
import farkle_site.wsgi
print(json.dumps({"frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects())}))
"""


def test_what_the_site_loads_is_set_apart_from_the_collector():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "farkle_site.settings", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", LOAD], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    # Nearly all of the loaded site is frozen (the rest: the few objects made since).
    assert counts["frozen"] > 50 * counts["tracked"], counts
