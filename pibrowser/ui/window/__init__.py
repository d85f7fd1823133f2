"""The application shell: start-up, the main window, its dialogs and panels that are not views of their own."""
