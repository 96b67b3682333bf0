"""The engine client's public path, ``doushouqi.engine`` (python-chess's ``chess.engine``).

The client is Jungle's and lives in :mod:`doushouqi.jungle.engine`; this module keeps the name
users type (``doushouqi.engine.SimpleEngine.popen_engine(...)``, ``doushouqi.engine.Limit``).
"""

from __future__ import annotations

from doushouqi.jungle.engine import *  # noqa: F403 (the same names, under the public path)
from doushouqi.jungle.engine import __all__ as __all__
