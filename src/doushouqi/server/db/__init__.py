"""The database: the core tables (``models``), the engine and its sessions, the game store and
the queries. Each feature keeps its own tables (``server/<feature>/models.py``); the migrations'
environment (``migrations/env.py``) imports them all."""
