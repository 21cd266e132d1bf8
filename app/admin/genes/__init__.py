"""The Gene pages: the list, one Gene, the diff of two versions, status changes and guard reviews."""
