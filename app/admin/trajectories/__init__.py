"""The trajectory pages: the list of runs and one run with where it went."""
