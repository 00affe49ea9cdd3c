"""`python -m pbem` runs the `pbem` command (`pbem.cli`)."""

from pbem.cli import cli

if __name__ == "__main__":
    cli(prog_name="pbem")
