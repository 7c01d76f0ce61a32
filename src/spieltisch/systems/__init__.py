"""The rule sets. Importing this package registers every built-in game system."""

from spieltisch.systems import magical_kitties as magical_kitties
from spieltisch.systems import freedice as freedice
