"""The run's pages in a real headless Chromium. A package, so that the browser its conftest
starts is one for the package's tests and closed when a test of another folder comes next."""
