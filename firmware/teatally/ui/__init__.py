"""The screens: the screen stack and generic screens (core), drawing (gfx),
the home menu, settings, archive and score pads, and Tea for 2's screens
(ui.t42)."""
