"""``python -m reference``: see :mod:`reference.cli`."""

import sys

from .cli import main

sys.exit(main())
