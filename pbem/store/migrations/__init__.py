"""Alembic migrations for the pbem database (run by `pbem init`)."""
