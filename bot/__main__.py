"""`python -m bot`: the bot itself (`turista run`); `python -m bot sandbox` and the other `turista`
commands work here too."""

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="python -m bot", default="run"))
