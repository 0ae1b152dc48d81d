"""Privacy odometers: RRUV16 §6; round-by-round objects."""
