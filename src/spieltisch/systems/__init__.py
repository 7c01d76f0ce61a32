"""The rule sets. Importing this package registers every built-in game system."""

from spieltisch.systems import freedice as freedice
from spieltisch.systems import kilkenny as kilkenny
from spieltisch.systems import magical_kitties as magical_kitties
