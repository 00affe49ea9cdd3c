"""`python -m pbem` runs the `pbem` command (`pbem.cli`), named as it was run
(``python -m pbem``, or ``PBEM_PROG``) in its usage lines and hints."""

from pbem.cli import cli

if __name__ == "__main__":
    cli()
