"""Debian's Firefox ESR driven over WebDriver BiDi, from Python (browsers/engines.py uses it).

Why this and not a library: Playwright's `moz-firefox` channel fails against ESR 153 (it sends
`emulation.setMediaFeaturesOverride`, which ESR does not know), Selenium needs geckodriver (not in
Debian, only downloadable), and puppeteer-core would put a Node.js process and a bridge protocol
between pytest and the page. Firefox speaks BiDi itself (`--remote-debugging-port`); the handful
of commands the tests need (navigate, reload, call a function, screenshot) fit in this file, over
websocket-client (a dependency of selenium, which drives WebKit).

The profile keeps nothing from outside: a proxy that refuses everything (port 9, discard) for every
host but 127.0.0.1, so no request can leave the machine; requests to other origins seen by the
page are recorded in `blocked`.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time

import websocket  # websocket-client

FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")
PREFS = {
    # Everything but the test server goes to a port that refuses: nothing leaves the machine.
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1", "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": 9,
    "network.proxy.no_proxies_on": "127.0.0.1",
    "network.dns.disablePrefetch": True,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False,
    # a reload after a save must not stop at "leave this page?"
    "dom.disable_beforeunload": True,
}
LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")


class BiDiError(RuntimeError):
    pass


class Firefox:
    """One Firefox process with its own fresh profile, and one BiDi session on its first tab."""

    def __init__(self, width=1280, height=900, timeout=60):
        self.profile = tempfile.mkdtemp(prefix="firefox-profile-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            f.writelines(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items())
        self.proc = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--profile", self.profile, "--remote-debugging-port", "0",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        url = self._listening_url(timeout)
        self.ws = websocket.create_connection(url + "/session", timeout=timeout, suppress_origin=True)
        self._id = 0
        self.events = []   # (method, params) of subscribed events, in order
        self.send("session.new", {"capabilities": {}})
        # A tab opened and activated over BiDi has the focus (the command line's first one does
        # not, headless): JupyterLab's current widget, which every snippet of lite.py starts
        # from, follows the focus and stays null without it.
        self.context = self.send("browsingContext.create", {"type": "tab"})["context"]
        self.send("browsingContext.activate", {"context": self.context})
        self.send("session.subscribe", {"events": ["log.entryAdded", "network.beforeRequestSent"]})
        self.send("browsingContext.setViewport", {"context": self.context,
                                                  "viewport": {"width": width, "height": height}})

    def _listening_url(self, timeout):
        deadline, seen = time.monotonic() + timeout, []
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stderr], [], [], 0.5)
            if ready:
                line = self.proc.stderr.readline()
                if not line and self.proc.poll() is not None:
                    break
                seen.append(line)
                m = LISTENING.search(line)
                if m:
                    return m.group(1)
        self.close()
        raise BiDiError(f"{FIREFOX} did not open WebDriver BiDi within {timeout} s:\n" + "".join(seen[-20:]))

    def version(self):
        return self._session.get("browserVersion") if hasattr(self, "_session") else None

    def send(self, method, params, timeout=None):
        """Send one command and return its result; events that arrive meanwhile go to `events`."""
        self._id += 1
        me = self._id
        self.ws.send(json.dumps({"id": me, "method": method, "params": params}))
        self.ws.settimeout(timeout)
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("type") == "event":
                self.events.append((msg["method"], msg["params"]))
            elif msg.get("id") == me:
                if msg.get("type") == "error":
                    raise BiDiError(f"{method}: {msg.get('error')}: {msg.get('message')}")
                if method == "session.new":
                    self._session = msg["result"]["capabilities"]
                return msg["result"]

    def call(self, declaration, *args, timeout=None):
        """Call the JavaScript function `declaration` in the page with string `args`; the string it
        returns (or a BiDiError with the exception's text)."""
        result = self.send("script.callFunction", {
            "functionDeclaration": declaration, "target": {"context": self.context}, "awaitPromise": True,
            "arguments": [{"type": "string", "value": a} for a in args], "resultOwnership": "none",
        }, timeout=timeout)
        if result["type"] == "exception":
            details = result["exceptionDetails"]
            raise BiDiError(details.get("text") or json.dumps(details)[:500])
        return result["result"].get("value")

    def navigate(self, url):
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def reload(self):
        self.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def screenshot(self):
        import base64

        return base64.b64decode(self.send("browsingContext.captureScreenshot", {"context": self.context})["data"])

    def close(self):
        try:
            if getattr(self, "ws", None):
                try:
                    self.send("browser.close", {}, timeout=10)
                except Exception:  # noqa: BLE001 -- the connection drops as the browser quits
                    pass
                self.ws.close()
        finally:
            if self.proc.poll() is None:
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)
