"""The course as an offline JupyterLite site: its build, its checks, a local server.

A package (not named ``site``, which is Python's start-up module), run from the repository root:

    python -m website.build     # make site: the deployable folder _output/
    python -m website.serve     # make serve: serve it on 127.0.0.1
    python -m website.check     # check a built site again
    python -m website.wheels    # fetch (or pin) the wheels the site ships

Tests and the start-up benchmark import its pieces (``from website import serve``). The browsers
they drive the built site in are not part of it: they live in the top-level package ``browsers``.
"""
