"""Example bots, each runnable with one command: `python -m clients.bots.examples.NAME --help`."""
