"""A first visit that starts at the course's home page (website/home.py): the learner reads it for
`read` seconds (10 by default), while its script prepares the kernel (website/extension/src/page/
warm.ts), then clicks its link to part 1 ("Start with Part 1"). Timed by the driver from the click
to part 1's kernel's first idle (so a click the home page holds for a second while the snapshot is
stored counts), with the in-page figure from part 1's navigation beside it; and every byte and request of the
whole visit, the home page's included, to set against a direct cold open's (no extra bytes is
the goal): as the server counted them (website/serve.py: every response body it sent, whoever
asked) and as Chromium did (responses the page saw finish). Also what the home page had done by
the time the learner left it (its warm state), and what part 1's kernel did with the snapshot.
"""

from __future__ import annotations

import statistics
import time

from browsers import driver

READ_SECONDS = 10
JS_WARM = "() => window.__agentTeamHome && window.__agentTeamHome.warm && window.__agentTeamHome.warm.state"


def home_then_part(profile, base, path, js_idle_at, server, read=READ_SECONDS):
    """One sample in a fresh `profile` (bench.Profile, counting bytes): home, `read` s, then `path`."""
    page, guard = profile.page, profile.guard
    guard.bytes = guard.requests = 0
    sent = server.body_bytes
    page.goto(base)
    page.wait_for_timeout(read * 1000)
    state = page.evaluate(JS_WARM)
    home_bytes = guard.bytes
    link = page.get_attribute("#continue", "href")
    assert link == f"lab/index.html?path={path}", f"the home page's first link is {link}, not {path}"
    clicked = time.monotonic()
    page.click("#continue")
    page.wait_for_url("**/lab/**", timeout=30_000)
    driver.wait_kernel_idle(page, 180, idle=js_idle_at, polling=10)
    sample = {"idle_from_click": time.monotonic() - clicked, "idle": page.evaluate("() => window.__benchIdleAt"),
              "warm_state_at_click": state,
              "snapshot": driver.snapshot_state(page), "home_bytes": home_bytes}
    page.wait_for_timeout(300)  # the last responses, for the byte count
    sample.update(bytes=guard.bytes, requests=guard.requests, server_bytes=server.body_bytes - sent)
    profile.close()
    return sample


def summary(samples, bare_cold, direct_cold, read=READ_SECONDS):
    """Medians, with the ratio to bare Pyodide's cold start and the bytes against a direct cold
    open's (`direct_cold`: bench.py's cold samples of the same run)."""
    idle = statistics.median(s["idle_from_click"] for s in samples)
    total = int(statistics.median(s["bytes"] for s in samples))
    served = int(statistics.median(s["server_bytes"] for s in samples))
    direct_served = int(statistics.median(s["server_bytes"] for s in direct_cold))
    return {"read_s": read, "kernel_idle_from_click_s": round(idle, 3), "kernel_idle_ratio": round(idle / bare_cold, 2),
            "kernel_idle_from_navigation_s": round(statistics.median(s["idle"] for s in samples), 3),
            "direct_cold_idle_driver_s": round(statistics.median(s["idle_driver"] for s in direct_cold), 3),
            "server_bytes": served, "direct_cold_server_bytes": direct_served,
            "extra_server_bytes_vs_direct_cold": served - direct_served,
            "load_bytes": total,
            "extra_bytes_vs_direct_cold": total - int(statistics.median(s["bytes"] for s in direct_cold)),
            "load_requests": int(statistics.median(s["requests"] for s in samples)),
            "warm_state_at_click": [s["warm_state_at_click"] for s in samples],
            "snapshot": [s["snapshot"] for s in samples]}


def report(r):
    print(f"{'home, ' + str(r['read_s']) + ' s read, then part 1':34}{r['kernel_idle_from_click_s']:10.2f} s "
          f"{r['kernel_idle_ratio']:.2f}x   server sent {r['server_bytes'] / 1e6:.1f} MB "
          f"({r['extra_server_bytes_vs_direct_cold'] / 1e6:+.2f} MB against a direct cold open), Chromium counted "
          f"{r['load_bytes'] / 1e6:.1f} MB in {r['load_requests']} requests; home's state at the "
          f"click {'/'.join(map(str, r['warm_state_at_click']))}; snapshot {'/'.join(map(str, r['snapshot']))}"
          f"\n    (from the click; from part 1's navigation {r['kernel_idle_from_navigation_s']:.2f} s; a direct "
          f"cold open timed as the driver sees it: {r['direct_cold_idle_driver_s']:.2f} s)")
