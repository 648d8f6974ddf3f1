"""The desktop launcher: parses the window's command line and starts the window or the terminal."""
