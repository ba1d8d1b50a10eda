"""`python -m kg.api serve [options]`: the same as `kg serve`."""

from kg.api.cli import main

main(prog_name="python -m kg.api")
