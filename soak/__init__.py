"""Long-running fault harnesses (``python soak/NAME.py``); CI runs their smoke sizes in tests/."""
