"""The game server: vs-AI, same-screen and online games.

``doushouqi.server.domain`` is its pure core — the game as a value and
``apply(game, command, now) -> (game, events)`` — with no IO, database, asyncio or web
framework. The web application, persistence and per-game actors are built on top of it.
"""
