"""Shared by every test: a test run records no course progress (tests that need it name a file)."""

import os

os.environ["AGENT_TEAM_PROGRESS"] = "off"
