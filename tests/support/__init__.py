"""What the tests share besides their fixtures (those are in ``tests/conftest.py``), imported as
``support.…`` (the tests folder is on the path): prepared evenings, fakes of Flet's page and
wire, a real server started for a test, a throwaway PostgreSQL, a phone on another host, a
reverse proxy, the child processes of the crash tests."""
