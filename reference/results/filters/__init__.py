"""Privacy filters: RRUV16 §3, §5; RSWR23 Thm 2, 3, Lem 5.2, §6; round-by-round objects."""
