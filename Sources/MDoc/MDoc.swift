// MDoc — see docs/DESIGN.md §3.
