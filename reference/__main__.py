"""``python -m reference``: see :mod:`reference.tools.cli`."""

import sys

from reference.tools.cli import main

sys.exit(main())
