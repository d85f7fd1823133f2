"""The command line: `pibrowser COMMAND ...` runs headless on the model; anything else opens the window."""
