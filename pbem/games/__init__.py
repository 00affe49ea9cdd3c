"""The games the server keeps: creation, seats, standing orders, undo, time keeping,
fair play and computer-played seats; each a policy the worker pass or the pipeline calls."""
