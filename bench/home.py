"""A first visit that starts at the course's home page (website/home.py): the learner reads it for
`read` seconds (10 by default), while its script prepares the kernel (website/extension/src/page/
warm.ts), then opens part 1. Measured as bench.py measures a direct open: seconds from part 1's
navigation to its kernel's first idle, timed in the page; and every byte and request of the
whole visit, the home page's included, to set against a direct cold open's (no extra bytes is
the goal). Also what the home page had done by the time the learner left it (its warm state).
"""

from __future__ import annotations

import statistics

from website import driver

READ_SECONDS = 10
JS_WARM = "() => window.__agentTeamHome && window.__agentTeamHome.warm && window.__agentTeamHome.warm.state"


def home_then_part(profile, base, path, js_idle_at, read=READ_SECONDS):
    """One sample in a fresh `profile` (bench.Profile, counting bytes): home, `read` s, then `path`."""
    page, guard = profile.page, profile.guard
    guard.bytes = guard.requests = 0
    page.goto(base)
    page.wait_for_timeout(read * 1000)
    state = page.evaluate(JS_WARM)
    home_bytes = guard.bytes
    page.goto(f"{base}lab/index.html?path={path}")
    driver.wait_kernel_idle(page, 180, idle=js_idle_at, polling=10)
    sample = {"idle": page.evaluate("() => window.__benchIdleAt"), "warm_state_at_click": state,
              "snapshot": driver.snapshot_state(page), "home_bytes": home_bytes}
    page.wait_for_timeout(300)  # the last responses, for the byte count
    sample.update(bytes=guard.bytes, requests=guard.requests)
    profile.close()
    return sample


def summary(samples, bare_cold, direct_cold_bytes, read=READ_SECONDS):
    """Medians, with the ratio to bare Pyodide's cold start and the bytes against a direct open's."""
    idle = statistics.median(s["idle"] for s in samples)
    total = int(statistics.median(s["bytes"] for s in samples))
    return {"read_s": read, "kernel_idle_s": round(idle, 3), "kernel_idle_ratio": round(idle / bare_cold, 2),
            "load_bytes": total, "extra_bytes_vs_direct_cold": total - direct_cold_bytes,
            "load_requests": int(statistics.median(s["requests"] for s in samples)),
            "warm_state_at_click": [s["warm_state_at_click"] for s in samples],
            "snapshot": [s["snapshot"] for s in samples]}


def report(r):
    print(f"{'home, ' + str(r['read_s']) + ' s read, then part 1':34}{r['kernel_idle_s']:10.2f} s "
          f"{r['kernel_idle_ratio']:.2f}x   {r['load_bytes'] / 1e6:.1f} MB in {r['load_requests']} requests "
          f"({r['extra_bytes_vs_direct_cold'] / 1e6:+.2f} MB against a direct cold open); home's state at the "
          f"click {'/'.join(map(str, r['warm_state_at_click']))}; snapshot {'/'.join(map(str, r['snapshot']))}")
