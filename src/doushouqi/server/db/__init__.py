"""The database: tables (``models`` and one ``models_<area>`` module per feature), the engine
and its sessions, and the queries.

The feature modules are imported here, so that ``models.Base.metadata`` knows every table
wherever it is used (Alembic's autogenerate, the schema test)."""

from doushouqi.server.db import models_chat, models_explorer, models_pairing, models_puzzle, models_tournament
