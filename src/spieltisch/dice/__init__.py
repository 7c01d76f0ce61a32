"""Dice, pools, notation, exact odds and fair random sources. Pure: no I/O, no printing."""
