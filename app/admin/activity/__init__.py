"""The activity pages: the evolution events feed and the audit log."""
