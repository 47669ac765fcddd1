"""Serving the app: starting it (desktop or web), the web server and its guard, who may write
(the PIN), and sharing the table on the local network."""
