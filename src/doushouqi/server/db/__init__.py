"""The database: tables (``models`` and one ``models_<area>`` module per feature), the engine
and its sessions, and the queries.

The feature modules are imported here, so that ``models.Base.metadata`` knows every table
wherever it is used (Alembic's autogenerate, the schema test)."""

from . import (
    models_chat,  # noqa: F401  (games' chat)
    models_explorer,  # noqa: F401  (the opening explorer's index)
    models_pairing,  # noqa: F401  (quick pairing, challenges, notifications)
    models_puzzle,  # noqa: F401  (puzzles, solvers' puzzle ratings, attempts)
    models_tournament,  # noqa: F401  (tournaments: arena and Swiss)
)
