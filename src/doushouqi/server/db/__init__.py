"""The database: tables (``models`` and one ``models_<area>`` module per feature), the engine
and its sessions, and the queries.

The feature modules are imported here, so that ``models.Base.metadata`` knows every table
wherever it is used (Alembic's autogenerate, the schema test)."""

from . import models_chat  # noqa: F401  (games' chat)
from . import models_explorer  # noqa: F401  (the opening explorer's index)
from . import models_pairing  # noqa: F401  (quick pairing, challenges, notifications)
from . import models_puzzle  # noqa: F401  (puzzles, solvers' puzzle ratings, attempts)
from . import models_tournament  # noqa: F401  (tournaments: arena and Swiss)
