"""Tea for 2's screens: the status board and game menu (board), the guided
round (round), the new-game setup (setup), history and adjustments
(history), the score table and final scoring (end)."""
