"""The site tests import the build hook's modules (hooks/rulesite) the way the hook itself does."""

import sys
from pathlib import Path

HOOKS = Path(__file__).resolve().parents[2] / "hooks"
if str(HOOKS) not in sys.path:
    sys.path.insert(0, str(HOOKS))
