"""`python -m pibrowser`: the same as the `pibrowser` command."""

import sys

from .cli.main import main

# Guarded: a worker process the usage cache starts (spawn) imports this module again, and must not run the command.
if __name__ == "__main__":
    sys.exit(main())
