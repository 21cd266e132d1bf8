"""Evolution: guard extraction and merging, routing, founding, the worker loop and its history."""
