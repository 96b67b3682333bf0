"""Tournaments (比赛): arena and Swiss. The pairing and the standings are pure modules
(:mod:`.arena`, :mod:`.swiss`, :mod:`.standings`); :mod:`.director` runs tournaments from the
database, and :mod:`.store` holds their queries."""
