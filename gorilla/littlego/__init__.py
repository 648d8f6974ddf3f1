"""Little-Go tournaments: the input.txt/output.txt agent protocol, both directions."""
