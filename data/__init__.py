"""The game's data: editions, message catalogues, fonts and reference boards.

Installed as the package ``turista_data`` so that an installed game finds its files through
``importlib.resources``, wherever it runs from (see ``engine.edition.DATA_DIR``).
"""
