"""The browsers the tests and the start-up benchmark drive; no build step of the site imports them.

- :mod:`browsers.driver`: the site opened in a page (Playwright's, or an adapter's), kernel ready,
  code run, widgets read; it needs Playwright, which only the tests and the bench install.
- :mod:`browsers.engines`: one page adapter per engine (Chromium, Firefox ESR, WebKitGTK), the
  part of Playwright's Page the shared walks use.
- :mod:`browsers.bidi`: Firefox ESR driven over WebDriver BiDi (its docstring says why not a library).
- :mod:`browsers.webkit_browser`: the WebKitGTK browser WebKitWebDriver starts, run by Debian's python3.

Which engine runs what, and how to install them: docs/browsers.md.
"""
