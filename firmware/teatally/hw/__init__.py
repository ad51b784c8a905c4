"""The hardware layer: the contract (base), the Pico (pico), the board
files' loader (boards), the tests' virtual board (virtual) and the
simulator's (sim)."""
