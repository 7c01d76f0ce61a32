"""The ``spieltisch`` command-line tool (Typer + Rich). Text is made here, from the catalogs."""
