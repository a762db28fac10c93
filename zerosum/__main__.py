"""``python -m zerosum`` is the ``zerosum`` command."""

import sys

from zerosum.cli import main

sys.exit(main())
