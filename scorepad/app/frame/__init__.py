"""The app's frame: the shell (store, language, open session, screen shown), the navigation and
its registry of screens, the theme, a tab's state, live updates, and the frame of every deal entry."""
