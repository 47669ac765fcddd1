"""What the tests share besides their fixtures (those are in ``tests/conftest.py``): prepared
evenings, fakes of Flet's page and wire, a real server started for a test, the child
processes of the crash tests."""
