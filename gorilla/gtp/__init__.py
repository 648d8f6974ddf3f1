"""The GTP engine: the protocol (protocol), the commands (commands, analysis, args), the CLI (main)."""
