"""D&D 5e combat (SRD 5.1, CC-BY-4.0) on the combat toolkit; see ``docs/games/dnd5e.md``."""
