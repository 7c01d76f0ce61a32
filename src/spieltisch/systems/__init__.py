"""The rule sets, one package per game; :mod:`spieltisch.systems.registry` finds each by its id
and imports it when it is first asked for."""
