#!/usr/bin/python3
"""A WebKitGTK browser that WebKitWebDriver can drive and that keeps its website data on disk.

Why it exists: WebKitWebDriver drives a browser only through an automation session, and the one
browser Debian ships for it, MiniBrowser, makes its store ephemeral in `--automation` mode, so
Cache Storage (the kernel's snapshot) is gone on a return visit, as no Safari learner sees it.
This one gives the automation session a persistent store in the profile directory it is given:

    webkit_browser.py --automation --profile DIR

WebKitWebDriver starts it (the `binary` and `args` of `webkitgtk:browserOptions`) with
WEBKIT_INSPECTOR_SERVER set, the address it then connects to; the web context starts that server
once automation is allowed. Run by Debian's python3, which has PyGObject and WebKit2 4.1's
introspection data (gir1.2-webkit2-4.1), not by the project's virtualenv: standalone on purpose.
What MiniBrowser gives a page under automation is kept: developer extras, WebGL, media streams,
the view marked as controlled by automation; JavaScript may open windows (a driven page can).
"""

import argparse
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402 -- after the versions are chosen

NAME = "agent-team-webkit"  # the browserName a session asks for (engines.py)


class Browser:
    def __init__(self, profile, automation):
        store = WebKit2.WebsiteDataManager(base_data_directory=f"{profile}/data",
                                           base_cache_directory=f"{profile}/cache")
        self.context = WebKit2.WebContext(website_data_manager=store)
        self.context.set_automation_allowed(automation)
        self.context.connect("automation-started", self.automation_started)
        self.settings = WebKit2.Settings(enable_developer_extras=True, enable_webgl=True,
                                         enable_media_stream=True,
                                         javascript_can_open_windows_automatically=True)
        self.windows = []
        # The first window is there before the session asks for one (as MiniBrowser's): the
        # session's first view is this one, every later one gets a window of its own.
        self.first = self.new_view(automation)

    def new_view(self, automation=True):
        view = WebKit2.WebView(web_context=self.context, settings=self.settings,
                               is_controlled_by_automation=automation)
        window = Gtk.Window(title=NAME)
        window.set_default_size(1280, 900)
        window.add(view)
        view.connect("close", lambda v: window.destroy())
        window.connect("destroy", self.window_closed)
        self.windows.append(window)
        window.show_all()
        return view

    def window_closed(self, window):
        self.windows.remove(window)
        if not self.windows:
            Gtk.main_quit()  # the session closed its last view: end, so the store is flushed

    def automation_started(self, context, session):
        info = WebKit2.ApplicationInfo()
        info.set_name(NAME)
        info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
        session.set_application_info(info)
        session.connect("create-web-view", self.view_for_session)

    def view_for_session(self, session):
        if self.first is not None and self.first.get_uri() is None:
            view, self.first = self.first, None
            view.load_uri("about:blank")
            return view
        self.first = None
        return self.new_view()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", required=True, help="the directory of the persistent website data")
    parser.add_argument("--automation", action="store_true", help="accept an automation session (WebDriver)")
    parser.add_argument("url", nargs="?", help="an address to open (without --automation)")
    args, _ = parser.parse_known_args(argv)  # whatever else WebKitWebDriver or GTK passes
    browser = Browser(args.profile, args.automation)
    if args.url:
        browser.first.load_uri(args.url)
    Gtk.main()


if __name__ == "__main__":
    Gtk.init(sys.argv)
    main(sys.argv[1:])
