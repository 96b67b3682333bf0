"""The games the site offers (``registry.py``, each game's entry beside it, such as
``jungle.py``), the rule sets and time controls players choose (``choices.py``), and starting a
game between two chosen players (``start.py``): where platform code meets a game's own code."""
