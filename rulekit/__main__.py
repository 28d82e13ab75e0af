"""`python -m rulekit ...`: the same command as the `rulekit` console script."""
import sys

from rulekit.cli import main

sys.exit(main())
