# %% [markdown]
# # Part 7 — your team with a real model
#
# Your team of parts 3 and 6, unchanged, with a real model in a role. A model fails in ways no
# fake does: a server that says "slow down", a key it refuses, a model name it does not know, a
# reply that is not what the role must answer. The supervisor keeps the team honest whatever
# fills the slots; this part is about the decisions a real model forces on it.

# %% [markdown]
# ## Exercise 7.1 — retry or stop
#
# When a model call fails, the LLM slot may ask again. Asking again is worth its time and tokens
# only when the next answer can differ: a server that was busy may answer in a second, but a key
# it refused will be refused however often you send it. Today the slot retries every failure the
# same way. You write the decision it makes after each failed attempt instead.
#
# **The words.** A failure is **transient** when the same request may succeed later (a timeout,
# a busy server), and **hopeless** when it cannot (a wrong key, a wrong model name, a model that
# keeps answering in the wrong shape). The slot's **retry decision** says, after each failed
# attempt of a turn, whether to try again (and after how long) or to stop (and why, as one of
# the **stop reasons** below).
#
# Here is what the tests' own real model, SmolLM2-135M, answered the coder's first prompt on
# this machine, recorded with its settings: without a schema it writes Python instead of the
# JSON the role must return; held to the role's schema it answers in the right shape (copying
# the prompt's example, which is a lie the oracle will catch, not the slot); asked at the wrong
# address its server answers 404; asked for 2000 tokens in half a second it times out.

# %%
from agent_team.grading.ex_retry_replies import LABEL, RECORDINGS
from agent_team.retry import STOP_REASONS
from agent_team.widgets import show_table

print(", ".join(f"{k}: {v}" for k, v in LABEL.items()))
show_table(["recorded call", "what the slot made of it", "seconds", "tokens (prompt, reply)"],
           [[r["name"], r["error"] or "a usable reply", r["seconds"],
             f"{r['usage']['prompt_tokens']}, {r['usage']['completion_tokens']}" if r.get("usage") else "-"]
            for r in RECORDINGS], "SmolLM2-135M, recorded")
show_table(["stop reason", "what the learner reads"], [[k, v] for k, v in STOP_REASONS.items()],
           "the stop reasons")

# %% [markdown]
# Write `retry_or_stop(attempts, budget)`. `attempts` is this turn's attempts so far, oldest
# first, and the last one failed; each is a dict whose `failure` is `"timeout"`, `"error"` or
# `"bad reply"`, whose `status` is the HTTP status of a failed call (None when no HTTP answer
# came back, and for a bad reply), and whose `retry_after` is the seconds the server asked to
# wait (or None). `budget` is `{"attempts": ..., "seconds": ..., "elapsed": ...}`: the most
# attempts and seconds this turn may take, and the seconds it has taken so far. Return
# `("retry", wait)` to try again after `wait` seconds, or `("stop", reason)`.
#
# | | requirement | check |
# |---|---|---|
# | 1 | Return a tuple `("retry", wait)` with `wait` a number ≥ 0, or `("stop", reason)` with `reason` one of the stop reasons; the slot does the waiting, not your function. | `shape` |
# | 2 | A timeout, an error with no status, a 429 and a status from 500 to 599 are transient: retry them. | `transient` |
# | 3 | When the failed attempt gives `retry_after`, wait exactly that many seconds. | `retry after` |
# | 4 | After any other transient failure (no `retry_after`), wait 1 s after the first attempt and twice as long after each later one: `2 ** (len(attempts) - 1)` seconds. | `backoff` |
# | 5 | A 401 or a 403 is hopeless: stop with `"bad key"`. | `bad key` |
# | 6 | A 404 is hopeless: stop with `"unknown model"`. | `unknown model` |
# | 7 | Any other status below 500 (0, which is a browser's refusal, 400, 413, 422 …) is hopeless: stop with `"refused"`. | `refused` |
# | 8 | Retry a bad reply at once (`wait` 0: the model is told what was wrong, and waiting changes nothing), but stop with `"bad replies"` at the third bad reply in a row. | `bad replies` |
# | 9 | When the turn has used all its attempts (`len(attempts) >= budget["attempts"]`), stop with `"out of attempts"`. | `out of attempts` |
# | 10 | When the wait would reach the end of the turn's time (`budget["elapsed"] + wait >= budget["seconds"]`), stop with `"out of time"`. | `out of time` |
# | 11 | When more than one stop applies, a hopeless failure's reason comes first, then `"out of attempts"`, then `"out of time"`: the reason says what to fix. | `order` |
# | 12 | Plugged into the slot (`llm_policy(..., retry=retry_or_stop)`), every replayed turn ends after the attempts and with the stop reason your decisions call for. | `in the slot` |
#
# The grader replays the recorded replies above and scripted failures (each labelled as
# scripted: a 401, a 429, a hang, garbage, a reply that claims the tests pass, one that asks the
# coder to edit the tests, a huge one) through your function and through the real slot; no
# model runs.

# %% tags=["exercise"]
def retry_or_stop(attempts, budget):
    # BEGIN SOLUTION
    last = attempts[-1]
    status = last["status"]
    hopeless = None
    if last["failure"] == "bad reply":
        row = 0
        for attempt in reversed(attempts):
            if attempt["failure"] != "bad reply":
                break
            row += 1
        if row >= 3:
            hopeless = "bad replies"
        wait = 0
    elif status in (401, 403):
        hopeless = "bad key"
    elif status == 404:
        hopeless = "unknown model"
    elif status is not None and status != 429 and status < 500:
        hopeless = "refused"
    else:
        wait = last["retry_after"] if last["retry_after"] is not None else 2 ** (len(attempts) - 1)
    if hopeless:
        return ("stop", hopeless)
    if len(attempts) >= budget["attempts"]:
        return ("stop", "out of attempts")
    if budget["elapsed"] + wait >= budget["seconds"]:
        return ("stop", "out of time")
    return ("retry", wait)
    # END SOLUTION
    # STUB: raise NotImplementedError("decide: ('retry', wait) or ('stop', reason)")


# %% [markdown]
# ### Predict, then run
#
# A key was pasted wrong, so every call the coder's slot makes is answered 401 (scripted: no
# model was asked). The team runs 4 rounds. Predict first: how many calls does the coder's slot
# make with the default decision (retry every failure, 3 attempts a turn), and how many with
# yours?

# %% tags=["quiz"]
from agent_team.widgets import Quiz

Quiz(
    "Every call answers 401 and the team runs 4 rounds (4 coder turns, 3 attempts each at most). "
    "How many calls does the coder's slot make, with the default decision and then with yours?",
    ["4 and 4", "12 and 4", "12 and 12", "3 and 1"],
    1,
    "The default retries every failure: 3 attempts in each of 4 turns. Yours stops a turn at the "
    "first 401, since a refused key is refused again, so 1 call a turn. (The supervisor still "
    "gives the coder each of its turns: stopping retries ends a turn, not the run.)",
    explanations=[
        "The default decision retries a 401 like any failure: 3 attempts a turn, not 1.",
        None,
        "Your decision stops at a 401 (\"bad key\"), so each turn makes one call.",
        "A turn's decision ends the turn, not the run: the coder still has 4 turns.",
    ],
)

# %%
from agent_team.llm import llm_policy
from agent_team.models import ModelError
from agent_team.retry import ManualClock
from agent_team.supervisor import supervise
from agent_team.trace import turns


class WrongKey:
    """Scripted, not a model: every call is refused as a server refuses a wrong key."""

    def __init__(self):
        self.calls = 0

    def __call__(self, prompt):
        self.calls += 1
        raise ModelError("the key was refused (401) (scripted): check the key", status=401)


def last_coder_turn(label, run):
    """The coder's last turn in words: its message, or why it did not land (a stub raises)."""
    turn = turns(run.trace, "coder")[-1]
    return f"{label}: {turn['error']}" if turn["error"] else f"{label}: {turn['message']}"


for label, decide in (("the default decision", None), ("your retry_or_stop", retry_or_stop)):
    server = WrongKey()
    coder = llm_policy("coder", server, retry=decide, clock=ManualClock(), turn_seconds=60)
    run = supervise(max_rounds=4, coder=coder)
    print(f"{server.calls} calls to the server; " + last_coder_turn(label, run))

# %% [markdown]
# And SmolLM2's own replies, replayed: asked without a schema it writes Python every time, so
# every attempt is a bad reply. With a budget of 5 attempts, your decision gives up at the third
# (`"bad replies"`) instead of spending all five; the tokens it did not spend are the difference.

# %%
from agent_team.grading.ex_retry_turns import recorded_model
from agent_team.models import total_usage

python_writer = next(r for r in RECORDINGS if r["name"].startswith("free text (no schema), 300"))
for label, decide in (("the default decision", None), ("your retry_or_stop", retry_or_stop)):
    clock = ManualClock()
    coder = llm_policy("coder", recorded_model([python_writer], clock), retries=4, retry=decide, clock=clock,
                       turn_seconds=120)
    run = supervise(max_rounds=1, coder=coder)
    print(f"{len(coder.history[-1]) if coder.history else 0} attempts, "
          f"{total_usage(run)['completion_tokens']} reply tokens, {clock.now():.1f} s replayed; "
          + last_coder_turn(label, run))

# %%
from agent_team.grading import grade_retry_or_stop

report = grade_retry_or_stop(retry_or_stop)
report

# %%
# Stuck? Reveal hints one at a time: a nudge, then the approach, then code with the key lines
# left out. Each one you open is noted in your progress; run the grader cell again after a change.
from agent_team.widgets import Hints

Hints("7.1")

# %% [markdown]
# Where you stand in the whole course:

# %%
# NBVAL_IGNORE_OUTPUT
from agent_team.widgets import Progress

Progress()
