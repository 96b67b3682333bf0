"""``python -m doushouqi``: the ``doushouqi`` command."""

from __future__ import annotations

import sys

from doushouqi.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
