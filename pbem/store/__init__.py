"""Storage underneath every wing: the tables (SQLModel), the database engine and
transactions, the schema's migrations."""
