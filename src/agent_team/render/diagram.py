"""The state machine as inline SVG, drawn in Python (no JavaScript, no images).

A *machine* is data: node positions and the edges between them. The
supervisor's machine and the seed-000 protocol's are defined here; the
current state is filled, the previous one outlined, and the transition just
taken drawn thick. A transition that is not in the machine (a hand-made
trace, a new state) is still drawn, dashed, so nothing is hidden.
"""

import math

from ..roles import TABLE
from .html import Safe, esc, tag, wrap

__all__ = ["SUPERVISOR", "PROTOCOL", "Machine", "state_svg", "diagram_block", "machine_html", "diagram_text",
           "machine_text", "after_text"]

NODE_W, NODE_H = 92, 32


class Machine:
    """Nodes ``{state: (x, y)}`` and edges ``(from, to, bend, label)``; ``bend`` curves an edge sideways."""

    def __init__(self, name, nodes, edges, size):
        self.name, self.nodes, self.edges, self.size = name, dict(nodes), tuple(edges), size

    def has(self, a, b):
        return any(e[0] == a and e[1] == b for e in self.edges)

    def without(self, *states):
        """The same machine minus some states and every edge touching them (e.g. FAULT before part 4)."""
        unknown = [s for s in states if s not in self.nodes]
        if unknown:
            raise KeyError(f"{', '.join(unknown)} is not a state of the {self.name} machine; "
                           f"its states are {', '.join(self.nodes)}")
        gone = set(states)
        return Machine(self.name, {k: v for k, v in self.nodes.items() if k not in gone},
                       [e for e in self.edges if e[0] not in gone and e[1] not in gone], self.size)


# The supervisor's own states, plus one node per role (its row in roles.py says where),
# drawn from left to right.
_NODES = {"START": (60, 110), "FAULT": (280, 32), "TEST": (510, 110), "STOP_OK": (810, 55),
          "STOP_FAIL": (810, 165), **{r.state: r.node for r in TABLE}}

SUPERVISOR = Machine(
    "supervisor",
    nodes=sorted(_NODES.items(), key=lambda item: item[1]),
    edges=[
        ("START", "PLAN", 0, ""),
        ("PLAN", "CODE", 0, "rounds left"),
        ("PLAN", "PLAN", 0, "no plan"),
        ("PLAN", "FAULT", 6, ""),
        ("FAULT", "PLAN", 6, ""),
        ("FAULT", "CODE", 0, ""),
        ("CODE", "TEST", 0, "always"),
        ("TEST", "REVIEW", 0, "always"),
        ("REVIEW", "STOP_OK", 0, "green"),
        ("REVIEW", "STOP_FAIL", 0, "out of rounds"),
        ("REVIEW", "CODE", 26, "red, rounds left"),
        ("REVIEW", "PLAN", 36, "red, no plan"),
        ("REVIEW", "FAULT", -22, "next round"),
        ("PLAN", "STOP_FAIL", -48, "0 rounds"),
    ],
    size=(880, 245),
)

PROTOCOL = Machine(
    "seed-000 protocol",
    nodes={"PLAN": (60, 95), "CODE": (210, 95), "REVIEW": (360, 95), "TEST": (510, 95),
           "DONE": (660, 95), "END": (435, 185)},
    edges=[
        ("PLAN", "CODE", 0, ""),
        ("CODE", "REVIEW", 0, ""),
        ("REVIEW", "TEST", 0, "APPROVE"),
        ("REVIEW", "CODE", -14, "reject: feedback"),
        ("TEST", "DONE", 0, "PASS"),
        ("TEST", "CODE", -34, "fail: feedback"),
        ("REVIEW", "END", 0, "out of rounds"),
        ("TEST", "END", 0, "out of rounds"),
        ("PLAN", "END", -22, "0 rounds"),
    ],
    size=(730, 215),
)

HOT = "#e8710a"      # the transition just taken
NOW = "#1a73e8"      # the current state


def _border(center, toward):
    """Where the ray from a node's centre toward a point leaves the node's box."""
    (cx, cy), (tx, ty) = center, toward
    dx, dy = tx - cx, ty - cy
    if dx == 0 and dy == 0:
        return center
    t = min((NODE_W / 2 + 3) / abs(dx) if dx else math.inf, (NODE_H / 2 + 3) / abs(dy) if dy else math.inf)
    return cx + dx * t, cy + dy * t


def _curve(p, q, bend):
    """Start, control and end points of a (possibly bent) edge between two node centres."""
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    # A positive bend curves to the left of the direction of travel, as drawn on
    # screen (y grows downwards): up for a right-going edge, down for a left-going one.
    ctrl = (mx + dy / length * bend * 2, my - dx / length * bend * 2)
    return _border(p, ctrl), ctrl, _border(q, ctrl)


def _arrowhead(tip, base, colour):
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    size = 8
    left = (tip[0] - ux * size - uy * size * 0.5, tip[1] - uy * size + ux * size * 0.5)
    right = (tip[0] - ux * size + uy * size * 0.5, tip[1] - uy * size - ux * size * 0.5)
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (tip, left, right))
    return f'<polygon points="{pts}" fill="{colour}"/>'


def _edge(machine, a, b, bend, label, hot, dashed=False):
    colour = HOT if hot else "currentColor"
    width = 3 if hot else 1.2
    opacity = "1" if hot else "0.55"
    dash = ' stroke-dasharray="5,4"' if dashed else ""
    p, q = machine.nodes[a], machine.nodes[b]
    out = [f'<g class="at-edge{" at-hot" if hot else ""}" opacity="{opacity}">']
    if a == b:  # a loop under the node
        x, y = p
        y0 = y + NODE_H / 2
        d = f"M{x - 16:.1f},{y0:.1f} C{x - 34:.1f},{y0 + 40:.1f} {x + 34:.1f},{y0 + 40:.1f} {x + 16:.1f},{y0 + 3:.1f}"
        out.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"{dash}/>')
        out.append(_arrowhead((x + 16, y0 + 3), (x + 24, y0 + 20), colour))
        lx, ly = x, y0 + 44
    else:
        s, c, e = _curve(p, q, bend)
        d = f"M{s[0]:.1f},{s[1]:.1f} Q{c[0]:.1f},{c[1]:.1f} {e[0]:.1f},{e[1]:.1f}"
        out.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"{dash}/>')
        out.append(_arrowhead(e, c if bend else s, colour))
        # The label sits at the curve's midpoint.
        lx = 0.25 * s[0] + 0.5 * c[0] + 0.25 * e[0]
        ly = 0.25 * s[1] + 0.5 * c[1] + 0.25 * e[1] - 4
    if label:
        weight = ' font-weight="bold"' if hot else ""
        out.append(f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="12" text-anchor="middle" '
                   f'fill="{colour}"{weight}>{esc(label)}</text>')
    out.append("</g>")
    return "".join(out)


def _node(name, pos, current, previous):
    x, y = pos
    if name == current:
        box = f'fill="{NOW}" stroke="{NOW}" stroke-width="2"'
        text = 'fill="#ffffff" font-weight="bold"'
    elif name == previous:
        box = f'fill="none" stroke="{HOT}" stroke-width="2" stroke-dasharray="4,2"'
        text = 'fill="currentColor"'
    else:
        box = 'fill="none" stroke="currentColor" stroke-width="1" stroke-opacity="0.6"'
        text = 'fill="currentColor"'
    cls = "at-node at-current" if name == current else "at-node"
    return (f'<g class="{cls}" data-state="{esc(name)}">'
            f'<rect x="{x - NODE_W / 2:.1f}" y="{y - NODE_H / 2:.1f}" width="{NODE_W}" height="{NODE_H}" '
            f'rx="8" {box}/>'
            f'<text x="{x:.1f}" y="{y + 5:.1f}" font-size="13" text-anchor="middle" {text}>{esc(name)}</text></g>')


def _with_unknown(machine, states):
    """A copy of the machine with room for states it does not know (drawn on a bottom row)."""
    extra = [s for s in states if s and s not in machine.nodes]
    if not extra:
        return machine
    nodes = dict(machine.nodes)
    w, h = machine.size
    for i, s in enumerate(extra):
        nodes[s] = (60 + i * 130, h + 20)
    return Machine(machine.name, nodes, machine.edges, (max(w, 60 + len(extra) * 130), h + 50))


def state_svg(current, previous=None, machine=SUPERVISOR):
    """The machine as an SVG string, ``current`` filled and ``previous -> current`` drawn thick."""
    current = None if current is None else str(current)
    previous = None if previous is None else str(previous)
    machine = _with_unknown(machine, (current, previous))
    w, h = machine.size
    moved = previous is not None and current is not None
    known = moved and machine.has(previous, current)
    title = (f"{machine.name}: now {current}" + (f", came from {previous}" if moved else "")
             if current else f"{machine.name}")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
             f'role="img" aria-label="{esc(title)}" class="at-diagram" '
             f'style="color:inherit;font-family:sans-serif">', f"<title>{esc(title)}</title>"]
    hot_edge = None
    for a, b, bend, label in machine.edges:
        if known and (a, b) == (previous, current):
            hot_edge = (a, b, bend, label)
            continue  # drawn last, on top
        parts.append(_edge(machine, a, b, bend, label, hot=False))
    if hot_edge:
        parts.append(_edge(machine, *hot_edge, hot=True))
    elif moved:  # a transition the machine does not have: show it anyway, dashed
        parts.append(_edge(machine, previous, current, 30, "", hot=True, dashed=True))
    for name, pos in machine.nodes.items():
        parts.append(_node(name, pos, current, previous))
    parts.append("</svg>")
    return Safe("".join(parts))


def diagram_block(current, previous=None, machine=SUPERVISOR):
    """:func:`state_svg` in a block that scrolls sideways in a narrow notebook (labels stay readable)."""
    return tag("div", state_svg(current, previous, machine), class_="at-scroll")


def machine_html(machine=SUPERVISOR):
    """A whole machine, no state lit, as a course box (the drawing :func:`machine_text` puts in words)."""
    return wrap(diagram_block(None, None, machine), label=f"the {machine.name} state machine")


def machine_text(machine=SUPERVISOR):
    """Every transition of a machine in words, one per line, from the same edges the drawing uses."""
    lines = [f"The {machine.name} machine, state by state:"]
    for state in machine.nodes:
        out = [(b, label) for a, b, _bend, label in machine.edges if a == state]
        if not out:
            lines.append(f"  {state}: the run ends here")
            continue
        moves = "; ".join(f"{label} -> {b}" if label else f"-> {b}" for b, label in out)
        lines.append(f"  {state}: {moves}")
    return "\n".join(lines)


def after_text(state, machine=SUPERVISOR):
    """Where the machine may go after ``state``, in words for the prose, from the same edges:
    ``"`TEST`, always"`` or ``"`CODE` if rounds left; `PLAN` if no plan; `STOP_FAIL` if 0 rounds"``."""
    if state not in machine.nodes:
        raise KeyError(f"{state!r} is not a state of the {machine.name} machine; its states are "
                       f"{', '.join(machine.nodes)}")
    out = [(b, label) for a, b, _bend, label in machine.edges if a == state]
    if not out:
        return "the run ends here"
    if len(out) == 1:
        return f"`{out[0][0]}`, always"
    return "; ".join(f"`{b}` if {label}" if label else f"`{b}`" for b, label in out)


def diagram_text(current, previous=None):
    """The transition in words, for plain-text output: ``'TEST -> REVIEW'``."""
    if current is None:
        return ""
    if previous is None:
        return f"state: {current}"
    return f"state: {previous} -> {current}"
