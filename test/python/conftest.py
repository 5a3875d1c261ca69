"""pytest setup for the Python package's tests: run by `meson test` under the interpreter
the extension was built for, with PYTHONPATH pointing at <builddir>/python."""
import json
import os

import pytest

CONFORMANCE = os.path.join(os.path.dirname(__file__), "..", "conformance")


@pytest.fixture
def r_text():
    """R for 4 ranks (node[0-3]) with 4 cores each, GPUs on ranks 2-3, property ssd on 0-1."""
    return json.dumps(
        {
            "version": 1,
            "execution": {
                "R_lite": [
                    {"rank": "0-1", "children": {"core": "0-3"}},
                    {"rank": "2-3", "children": {"core": "0-3", "gpu": "0"}},
                ],
                "nodelist": ["node[0-3]"],
                "properties": {"ssd": "0-1"},
                "starttime": 0,
                "expiration": 0,
            },
        }
    )
