"""The course's quizzes as data: one record per quiz, looked up by its id.

A notebook's quiz cell says only ``Quiz("1.2")`` (:class:`agent_team.widgets.Quiz`), so the right
choice and the explanations are nowhere on the page before the learner checks an answer; they
live here. An id is the part, then the quiz's place in that part. ``tests/course/test_quizzes.py``
holds the table to its fairness rules, and ``tests/course/test_no_spoilers.py`` looks for every
record's answer in the stored learner notebooks.

Standard library only and no engine imports but :mod:`agent_team.course` (its lookup), which has none.
"""

from dataclasses import dataclass

from .course import lookup

__all__ = ["Question", "QUIZZES", "quiz", "quiz_ids"]


@dataclass(frozen=True)
class Question:
    id: str                  # "3.2": the part, then the quiz's place in it
    question: str
    choices: tuple           # the choices, in the order shown: a), b), ...
    answer: int              # the index of the right choice
    explanation: str         # why it is right, shown once it is checked
    explanations: tuple = () # why each choice is wrong (None for the right one), aligned with choices


QUIZZES = (
    Question(
        "1.1",
        'In one turn the coder sends a correct src/fizzbuzz.py and, beside it, a REVIEW.json that '
        'approves it. What is in the repo afterwards?',
        (
            'The correct source, and an approval the supervisor will ignore because the tests '
            'decide',
            'The correct source only: the review patch is dropped, the source patch lands',
            'Nothing new: the turn is refused whole, correct source included, and the reason says '
            'why',
            'Both files: the coder owns its turn, and a review is only advice, so it does no harm',
        ),
        answer=2,
        explanation="REVIEW.json is outside the coder's allowlist, so the turn is refused, and a "
                    'refused turn lands nothing: not even the correct source. The coder has to send'
                    ' it again, alone.',
        explanations=(
            'It is true that an approval decides nothing, but the patch never lands: REVIEW.json is'
            " not in the coder's allowlist, and one refused patch refuses the whole turn.",
            'That applies half a turn, leaving a repo state that no role actually proposed.',
            None,
            'Advice or not, REVIEW.json belongs to the reviewer. The allowlist refuses the patch, '
            'and with it the whole turn.',
        ),
    ),
    Question(
        "1.2",
        "Round 4 of a run with max_rounds=4: the coder's thought says 'all done', the reviewer "
        'approves, and the oracle reports 3 passed, 1 failed. How does the run end?',
        (
            'With pass: the reviewer approved, and the reviewer is the role that judges the code',
            'With budget: the tests are red and no round is left, whatever the two roles said',
            'With one more round for the coder, since the reviewer and the oracle disagree',
            'With pass: three of the four cases pass and two roles agree that the work is done',
        ),
        answer=1,
        explanation='Only the supervisor ends a run, on evidence: a passing oracle report, or the '
                    'last round used up. Here the report is red and round 4 was the last, so the '
                    'run stops with `budget`; the thought and the approval stay in the trace as '
                    'what was said.',
        explanations=(
            "An approval is advice, kept in the trace. Only the oracle's report shows that the code"
            ' works, and it says 1 case fails.',
            None,
            'The budget is the budget: no role, and no disagreement, buys a fifth round when '
            'max_rounds=4.',
            'Success is all four cases (`ok` is True), not most of them; and what roles say decides'
            ' nothing.',
        ),
    ),
    Question(
        "2.1",
        "This time the coder's first patch is already correct, but its thought says 'a rough draft,"
        " it will fail the tests'. What happens next?",
        (
            'The coder gets a second round to finish its draft, since it says the work is not done',
            'The turn is refused: a thought that contradicts its own patch makes the output invalid',
            'The reviewer reads the thought and asks for changes, so the coder goes again',
            'The oracle passes the code, the reviewer approves, and the run stops with pass',
        ),
        answer=3,
        explanation='A thought is recorded, never obeyed, in either direction: the oracle runs the '
                    'code after every coder turn, green tests end the run (part 1), and the doubts '
                    'stay in the trace as words.',
        explanations=(
            "Rounds end on the oracle's report, not on what a role thinks of its work. Green tests "
            'stop the run after the review, however modest the coder is.',
            'The schema checks that a thought is a string, not that it is right. The patch is '
            'legal, so it lands and the tests judge it.',
            "The reviewer is not shown the coder's thought (the views below), and on green tests it"
            ' approves.',
            None,
        ),
    ),
    Question(
        "2.2",
        "The tests are red, and the reviewer's past_verdicts read request_changes, request_changes,"
        ' approve, request_changes (a reviewer model approved a failing patch once). What should '
        'nits_reviewer write now?',
        (
            'request_changes, message escalate: three requests, the approval in between or not',
            'request_changes with the first test error: since the approval it has asked only once',
            'approve: its last approval still stands, and the tests have not changed much since',
            'the verdict escalate, so that the supervisor stops the run and calls a person',
        ),
        answer=0,
        explanation='The counter counts every request in the run, not a streak: three reviewed '
                    'attempts have failed, and an approval in between does not make them fewer. So '
                    'the verdict stays request_changes, and the message says a person should look.',
        explanations=(
            None,
            'That counts a streak since the approval. Three attempts were still turned down, and '
            'the counter is there to say so.',
            'Red tests get request_changes, always; a past approval changes nothing about this '
            "turn's tests.",
            'escalate is the message, not a verdict: REVIEW.json holds approve or request_changes.',
        ),
    ),
    Question(
        "3.1",
        'Your reviewer becomes a real model that costs as much per call as the coder. With '
        '`max_rounds=3` and a coder that never gets the tests green (the planner writes its plan at'
        ' once), how many role turns can the run make at most?',
        (
            "3: the budget caps every turn of every role, the planner's and the reviewer's too",
            "4: three coder turns, plus the planner's one turn before round 1",
            '9: three rounds, each of them a planner turn, a coder turn and a review',
            "7: the planner's one, three coder turns, and a review of each test run",
        ),
        answer=3,
        explanation='The budget caps coder turns only. The planner plans once before round 1 (a '
                    'plan exists, so it is not asked again), and every test run is reviewed, the '
                    'last one too. So a run can make 2 * max_rounds + 1 model calls: when reviews '
                    'cost as much as code, budget money for that, not for max_rounds calls.',
        explanations=(
            "Only coder turns are counted (rule 5); the planner's turn and the reviews come on top.",
            "Every test run is reviewed, the last round's too: the one-round run above ends TEST ->"
            ' REVIEW -> STOP_FAIL.',
            'The planner is asked again only while PLAN.md is empty (rule 1); here it wrote its '
            'plan at once.',
            None,
        ),
    ),
    Question(
        "3.2",
        'You want no line of the code over 80 characters, and your reviewer model checks that well.'
        ' Where must the rule live so that no run ends with pass while breaking it?',
        (
            'In the reviewer: its request_changes on green tests then holds the run back',
            'In PLAN.md: the coder reads the plan each turn and keeps to what it says',
            'In max_rounds: more rounds give the reviewer the time to get it fixed',
            'In the oracle: a test of line lengths, run every round with the others',
        ),
        answer=3,
        explanation='Green tests stop the run whatever the reviewer says, so a rule that must hold '
                    'has to make the tests red when it is broken. In the oracle it is checked every'
                    " round, the same way each time, and no reviewer's veto is needed (the veto "
                    'that could stall a run until the budget is gone).',
        explanations=(
            "On green tests the reviewer's request_changes is overridden, as the picky reviewer's "
            'run shows: the run ends with pass and the long lines stay.',
            'A plan is advice to the coder, and nothing checks that the code follows it.',
            'More rounds change nothing: the run stops at the first green tests, long lines or not.',
            None,
        ),
    ),
    Question(
        "3.3",
        "Change the worked example: in round 2 the reviewer rejects v2 with 'REJECT: too long'. "
        'What feedback does the coder get in round 3?',
        (
            "'review: REJECT: too long', and in round 2 the tester never ran",
            "'test: FAIL: test_empty', since the tester runs after every coder turn",
            "both rejections, 'no error handling' and 'too long', one after the other",
            "'' (empty), because a second rejection in a row starts the feedback afresh",
        ),
        answer=0,
        explanation='A rejection ends the round before the tester runs, and the feedback is the '
                    'latest thing that went wrong, prefixed by who said it: here the reviewer, in '
                    'round 2.',
        explanations=(
            None,
            'The tester runs only on approved code: a rejected round ends at the review (round 1 of'
            ' the worked example shows it).',
            "The feedback is one text, the latest: round 2's rejection replaces round 1's.",
            'Nothing empties the feedback once it is set; the coder always gets the latest '
            'objection.',
        ),
    ),
    Question(
        "4.1",
        'With `require_plan=False` the team passes even though PLAN.md is wiped every round. Why '
        'does the course still require a plan?',
        (
            'The oracle reads PLAN.md, and its tests fail whenever the plan is empty',
            'An empty plan means something broke, re-planning is cheap, and real roles read the '
            'plan',
            'Planner turns count against max_rounds, so re-planning right away saves coder rounds '
            'later on',
            'Without a plan, the allowlist lets the coder write any file it wants to',
        ),
        answer=1,
        explanation='Requiring the plan repairs broken state visibly (the trace says the planner '
                    'went again), costs one small turn that is not a coder turn, and keeps the '
                    'shared reference that real roles read.',
        explanations=(
            'The oracle only runs the cases from the test file; it never reads PLAN.md. That is why'
            ' the run without a plan could pass at all.',
            None,
            'Planner turns are not coder turns, so they do not count against max_rounds. '
            'Re-planning costs a turn; it never saves one.',
            'Allowlists are fixed per role and do not depend on the plan: the coder may write '
            'src/fizzbuzz.py and nothing else, plan or no plan.',
        ),
    ),
    Question(
        "4.2",
        'The oracle has two defences against the lying fizzbuzz: it refuses `class` in a source, '
        'and it compares only results that are exactly a `str`. Which of them did the run above '
        'use?',
        (
            'The exact-str check: each case ran, returned the liar, and failed the type check',
            'The refusal of `class`: the source never ran, so no result reached the type check',
            'Both, on every case: first the refusal, then the type check on what came back',
            "Neither: the reviewer's request_changes kept the run going until the budget ended it",
        ),
        answer=1,
        explanation='The error the run printed names `class`, and 0 cases passed: the oracle '
                    'refused the source before running a line of it, so the exact-str check had '
                    'nothing to look at. It is there for a lie that gets past the first defence: a '
                    'result is never asked whether it is equal.',
        explanations=(
            'Then the error would name a case and a wrong type. The printed error names `class`: '
            'the source was refused before any case ran.',
            None,
            'A refused source runs no case at all, so there is no result for the type check to see.',
            "The reviewer's verdict never decides a run's end; and the oracle, not the reviewer, "
            'refused the source (its error is the one printed).',
        ),
    ),
    Question(
        "4.3",
        'Your hardening rule raises an exception instead of returning. What should the supervisor '
        "do with the coder's turn?",
        (
            'Refuse the turn: a safety rule that cannot answer must fail closed',
            'Apply the turn: the rule never said no, so nothing forbids the patch',
            'Stop the whole run with an error, so that a person fixes the rule first',
            'Skip the broken rule for this turn and log a warning to fix it later',
        ),
        answer=0,
        explanation='Refusing the turn keeps the repo safe and the run going, and the reason in the'
                    ' trace points straight at the rule to fix.',
        explanations=(
            None,
            'Then a bug in the rule silently switches the protection off, exactly when something '
            'unusual (maybe hostile) is going on.',
            "Then any buggy rule, or any patch crafted to make the rule crash, could end the team's"
            " work. A policy's failure is data in the trace, not a crash of the supervisor.",
            'Skipping the rule is the same as applying the turn: the protection is off, and a '
            'warning nobody reads does not bring it back.',
        ),
    ),
    Question(
        "5.1",
        "Step S3's risk is execute (it runs code), and it succeeded. S1 and S2, both write, "
        'succeeded too. What does the gate decide?',
        (
            'It blocks: writing files and executing code are too risky to accept unseen',
            "It asks the user to decide, because a risky step needs a person's approval",
            'It passes, and adds risk notes and suggested checks for S3',
            'It passes without any notes, because only the statuses of steps matter',
        ),
        answer=2,
        explanation='Risk is information for the person accepting the run, not a reason to call '
                    'finished work unfinished. The notes say what to check: the diff of the files, '
                    'the output of what ran.',
        explanations=(
            'Then every run that writes a file or runs code — every useful run — would be blocked. '
            'Risk adds notes; only failed, skipped and cancelled steps block.',
            'A user decision is the proposal for a skipped step. A risky step that succeeded needs '
            'checks, not a decision.',
            None,
            'Statuses decide pass or block, but the gate still reports risk: a write or an execute '
            'step comes with notes and suggested checks.',
        ),
    ),
    Question(
        "5.2",
        "A planned run's S2 was skipped. The gate blocks it; the advisory model recommends accept, "
        'with convincing notes. What happens?',
        (
            'The run becomes a success: specific, convincing advice overrides a gate that only '
            'counts',
            'The run stays failed, and S2 is retried at once, since a blocked gate proposes a retry',
            'The run stays failed; the advice is kept beside it, and a person decides what to do '
            'about S2',
            'The run becomes a success once the reviewer role approves, since two reviewers then '
            'agree',
        ),
        answer=2,
        explanation='The gate decides and the model advises: a skipped step blocks whatever the '
                    'advice says, the proposal (`user_decision` on S2) is text for a person, and '
                    'nothing runs by itself.',
        explanations=(
            "Advice never changes the gate's status; that is what makes a wrong recommendation "
            'cheap (a second look) instead of a wrong success.',
            'Nothing retries automatically. For a skipped step the gate proposes asking the person '
            'who skipped it, and even a proposed retry waits for them.',
            None,
            'The gate can only take success away. No verdict, and no number of agreeing opinions, '
            'makes undone work done.',
        ),
    ),
    Question(
        "6.1",
        'Your fault: a coder that writes an empty src/fizzbuzz.py. Which evidence function shows '
        'that this fault, and not something else, was caught?',
        (
            'One that returns the first error any test run reported, whatever that error says',
            'One that returns an oracle error saying the source defines no fizzbuzz, None otherwise',
            "One that returns the run's stop reason, which says in words why the run ended",
            "One that returns 'caught!' for every run, since the fault really is there in yours",
        ),
        answer=1,
        explanation='Evidence must be found in the faulty run and nowhere else. Only your empty '
                    'file makes the oracle say the source defines no fizzbuzz; a healthy run never '
                    'does.',
        explanations=(
            "The healthy team's first cut fails too (fizzbuzz(5) returned '5'), so this finds "
            "'evidence' in a healthy run as well, and the eval could not fail.",
            None,
            'Every run has a stop reason, the healthy one included: it says how the run ended, not '
            'that your fault was caught.',
            'Evidence in every run is no evidence: the eval would pass even if your fault did '
            'nothing.',
        ),
    ),
    Question(
        "6.2",
        "Before the table runs: part 4's 'coder edits tests' ends with budget, and its code step "
        'failed (no coder turn landed). What does the gate make of that run?',
        (
            'It stays budget: the gate only takes a pass away, and this run never passed',
            'It becomes blocked: a failed step blocks the run, whatever supervise said',
            'It becomes pass: the plan, review and tests steps ran, three steps of four',
            "It becomes failed, the gate's own word for a run whose tests never went green",
        ),
        answer=0,
        explanation='The gate can only take success away. A `budget` run has none to take, so it '
                    'stays `budget`; `blocked` is for a run whose tests passed while some work was '
                    'not done.',
        explanations=(
            None,
            '`blocked` is what the gate makes of a *pass* with undone work. A run that never passed'
            " keeps the supervisor's ending.",
            'The gate never grants success, and here the tests step failed too: the tests stayed '
            'red.',
            "`failed` is a step's outcome, not a run's status; a gated run ends `pass`, `budget` or"
            ' `blocked`.',
        ),
    ),
    Question(
        "7.1",
        'Every call answers 401 and the team runs 4 rounds (4 coder turns, 3 attempts each at '
        "most). How many calls does the coder's slot make, with the default decision and then with "
        'yours?',
        (
            '4 and 4',
            '12 and 4',
            '12 and 12',
            '3 and 1',
        ),
        answer=1,
        explanation='The default retries every failure: 3 attempts in each of 4 turns. Yours stops '
                    'a turn at the first 401, since a refused key is refused again, so 1 call a '
                    'turn. (The supervisor still gives the coder each of its turns: stopping '
                    'retries ends a turn, not the run.)',
        explanations=(
            'The default decision retries a 401 like any failure: 3 attempts a turn, not 1.',
            None,
            'Your decision stops at a 401 ("bad key"), so each turn makes one call.',
            "A turn's decision ends the turn, not the run: the coder still has 4 turns.",
        ),
    ),
    Question(
        "7.2",
        'A model in the reviewer\'s role approves, and writes "all tests pass" in its notes. The '
        'oracle reports 1 of 4 passing and one round is left. What does the supervisor do?',
        (
            'Stops with pass: the reviewer is the role whose job is to judge the code',
            'Gives the coder the next round: red tests never end a run with pass, whatever a role '
            'says',
            'Asks the model again, since approving red tests is a bad reply the slot retries',
            'Stops with budget at once: a reviewer that lies has broken the run',
        ),
        answer=1,
        explanation="Only the oracle's green ends a run with pass. A verdict is recorded and fed "
                    'back; on red tests the coder goes again until the budget is spent.',
        explanations=(
            "The reviewer's verdict is kept and shown to the coder, but it never ends a run: that "
            "is the oracle's alone, and the oracle says red.",
            None,
            'The reply was well formed: a valid verdict in the right shape. The slot retries only '
            'replies it cannot use; whether the verdict is right is not its question.',
            "The supervisor does not judge a role's honesty; it counts rounds. One is left, so the "
            'coder gets it.',
        ),
    ),
    Question(
        "8.1",
        "You move the course's team into a framework whose ready-made stop rule ends the run when a"
        ' message contains TERMINATE, and whose code tool runs model-written code on the host. '
        "Which two changes keep the course's guarantees?",
        (
            'None: the coder writes TERMINATE only once it believes the code works; a timeout '
            'suffices',
            'A second model that confirms each TERMINATE, and a prompt telling the coder to spare '
            'the host',
            "Your own stop rule on tests out of every agent's reach, and a runner with no network "
            'or keys',
            'A much higher message limit, and Docker around the whole application',
        ),
        answer=2,
        explanation='The guarantees come from what decides the stop (a test run no agent can edit, '
                    'beside a budget) and from where model-written code runs (a runner that can '
                    'reach nothing worth stealing). The framework gives you the hooks; what you '
                    'hang on them is the design.',
        explanations=(
            "That trusts the coder's own claim, which part 1 ruled out, and a timeout limits how "
            'long the code runs, not what it can reach.',
            "A second model's confirmation is another claim, and a prompt is a request, not a wall:"
            ' text planted in a file the coder reads can ask for the opposite.',
            None,
            'More messages only let a wrong team run longer; a limit is a budget, not a success '
            "signal. A container around the whole application still runs the model's code beside "
            'your keys.',
        ),
    ),
)


def quiz_ids():
    """Every quiz id in course order: ``["1.1", "1.2", "2.1", ...]``."""
    return [q.id for q in QUIZZES]


def quiz(quiz_id):
    """The record of one quiz; a clear error naming the ids there are for one the course does not have."""
    return lookup(QUIZZES, "id", quiz_id, "quiz", "quizzes")
