"""`python -m clustergen` runs the same CLI as the console script."""

from clustergen.cli.app import run

if __name__ == "__main__":
    run()
