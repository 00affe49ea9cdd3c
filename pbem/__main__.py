"""`python -m pbem` runs the `pbem` command (`pbem.entry`)."""

from pbem.entry import main

if __name__ == "__main__":
    main()
