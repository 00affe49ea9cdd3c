"""The clock policies: what the worker pass does with the clocks (reminders, expiry, the
outage guard, the autopilot) and the clocks around a move."""
