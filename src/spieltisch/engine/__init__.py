"""The game-system contract (decide / evolve / odds), the registry and the table fold."""
