"""The rule sets. Importing this package registers every built-in game system."""
