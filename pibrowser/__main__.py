"""`python -m pibrowser`: the same as the `pibrowser` command."""

import sys

from .cli.main import main

sys.exit(main())
