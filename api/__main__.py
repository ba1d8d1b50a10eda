"""`python -m api serve [options]`: the same as `kg serve`."""

from api.cli import main

main(prog_name="python -m api")
