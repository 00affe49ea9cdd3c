"""Card events #49-#91 (Z-Man deck, except #56 and #76 in cards_core) and GMT-only #92-#97.

Each card follows ``/shared/data/card_effects.md`` and its rulings table. Sides
named on a single-icon card are explicit (``"kennedy"``/``"nixon"``), so the
event does the same when the opponent triggers it (R6.7); two-icon cards act
for ``"player"``, whoever resolves the event. Rest-of-turn effects (R6.3) are
defined here with the hooks of `engine.effects`.
"""

from __future__ import annotations

from engine import board
from engine.data import STATES, other
from engine.effects import EffectRules, define
from engine.events import event, op
from engine.events import ops_part1 as _ops_part1  # noqa: F401  (primitives reused from part 1)
from engine.events import ops_part2 as _ops_part2  # noqa: F401  (registers the primitives)
from engine.state import GameState

Effect = dict[str, object]


def _is(e: Effect, side: str) -> bool:
    return e["side"] == side


# 49 Eleanor Roosevelt's Speaking Tour
event(49, op("place_support", who="kennedy", n=5, per=2, regions=["midwest"]))

# 50 Industrial Midwest
event(50, op("place_support", who="nixon", n=5, per=2, states=["IL", "IN", "MI", "MN", "OH", "WI"]))

# 51 Missile Gap
event(51, op("issue_support", who="kennedy", issue="defense", n=3))

# 52 Hurricane Donna
event(
    52,
    op("move_token", who="player", state="FL"),
    op("momentum", who="player", n=1),
    op("state_support", who="player", state="FL", n=1),
)

# 53 Campaign Headquarters
event(53, op("replace_cards", who="player"))

# 54 Bobby Kennedy: Kennedy's cards +1 CP (max 5) this turn (the effect of #4, cards_part1).
event(54, op("add_effect", effect="cp_plus_one_any_use", who="kennedy"))


# 55 Hostile Press Corps: Nixon makes support checks everywhere, as if Kennedy carried every state.
def _force_checks(g: GameState, e: Effect, side: str, st: str) -> str | None:
    return "force" if _is(e, side) else None


define("hostile_press_corps", EffectRules(check_mode=_force_checks))
event(55, op("add_effect", effect="hostile_press_corps", who="nixon"))

# 57 A New Frontier
event(57, op("replace_cards", who="kennedy"))

# 58 Tricky Dick
event(58, op("momentum", who="nixon", n=-1), op("event_from_discard", who="nixon"))

# 59 Mid-Atlantic
event(59, op("place_support", who="kennedy", n=5, per=2, states=["DE", "MD", "NJ", "NY", "PA"]))

# 60 World Series Ends: only the side with media support in the East places.
event(
    60,
    op("let_media_owner", var="east", region="east"),
    op("place_support", who="var:east", n=5, per=2, regions=["east"]),
)

# 61 Fatigue Sets In
event(61, op("exhaust_candidate", who="opponent"))

# 62 Trial of Gary Powers
event(62, op("issue_up", issue="defense", n=2), op("momentum", who="leader:defense", n=1))

# 63 Give Me a Week
event(63, op("momentum", who="nixon", n=-2), op("lose_issue_each", who="nixon", n=1))

# 64 Stump Speech
event(64, op("match_momentum", who="player"))

# 65 Joe Kennedy: Nixon may not spend momentum this turn (the effect of #44, cards_part1).
event(65, op("add_effect", effect="no_momentum_spending", who="nixon"))

# 66 Adlai Stevenson
event(66, op("state_support", who="kennedy", state="IL", n=1), op("take_from_discard", who="kennedy"))

# 67 Voter Registration Drive
event(67, op("place_support_empty", who="player", n=3, per=1))

# 68 Peace Without Surrender
event(68, op("issue_up", issue="defense", n=1), op("issue_support", who="nixon", issue="defense", n=1))


# 69 Congressional Summer Session: Kennedy's cards -2 CP (min 1); his token to MD or VA.
def _minus_two(g: GameState, e: Effect, side: str, kind: str) -> int:
    return -2 if _is(e, side) else 0


define("congressional_summer_session", EffectRules(cp_delta=_minus_two))
event(
    69,
    op("add_effect", effect="congressional_summer_session", who="kennedy"),
    op("pick_state", who="kennedy", var="token", rule="maryland_or_virginia"),
    op("token_to", who="kennedy", state="var:token"),
)

# 70 The Old Nixon
event(70, op("momentum", who="nixon", n=-1), op("momentum", who="kennedy", n=-3))

# 71 Heartland of America: Western or Midwestern states of 10 EV or fewer.
HEARTLAND = [s for s, i in STATES.items() if i.region in ("west", "midwest") and i.ev <= 10]
event(71, op("place_support", who="nixon", n=7, per=1, states=HEARTLAND))

# 72 Southern Revolt: only if Kennedy leads Civil Rights.
event(
    72,
    op("only_if", who="kennedy", issue="civil_rights"),
    op("place_support", who="nixon", n=5, per=2, regions=["south"]),
)

# 73 Norman Vincent Peale (prevented by #1, cards.csv)
event(73, op("remove_support", who="nixon", target="kennedy", n=5, per=1))


# 74 Eisenhower's Silence (prevented by #18): Nixon may not campaign where Kennedy leads.
def _not_where_kennedy_leads(g: GameState, e: Effect, side: str, st: str) -> bool:
    return _is(e, side) and g["states"][st] > 0


define("eisenhowers_silence", EffectRules(campaign_banned=_not_where_kennedy_leads))
event(74, op("add_effect", effect="eisenhowers_silence", who="nixon"))

# 75 Republican TV Spots (ruling: 3 media in any region(s), no checks)
event(
    75,
    op("move_token", who="nixon", state="NY"),
    op("gain_points", who="nixon", space="media", n=3),
)

# 77 Suburban Voters: states of 20 EV or more.
SUBURBAN = [s for s, i in STATES.items() if i.ev >= 20]
event(77, op("place_support", who="kennedy", n=5, per=2, states=SUBURBAN))

# 78 Stock Market in Decline
event(78, op("issue_up", issue="economy", n=2), op("state_support", who="leader:economy", state="NY", n=2))


# 79 Advance Men: no travel costs; no checks where the opponent carries the state or stands.
def _free_travel(g: GameState, e: Effect, side: str) -> bool:
    return _is(e, side)


def _no_checks(g: GameState, e: Effect, side: str, st: str) -> str | None:
    if not _is(e, side):
        return None
    opp = other(side)
    return "waive" if board.carries(g, st, opp) or board.occupies(g, st, opp) else None


define("advance_men", EffectRules(travel_free=_free_travel, check_mode=_no_checks))
event(79, op("add_effect", effect="advance_men", who="player"))

# 80 Herblock
event(80, op("remove_points", who="kennedy", target="nixon", space="media", n=2))


# 81 Kennedy's Peace Corps: Kennedy preempts without spending momentum.
def _free_preempt(g: GameState, e: Effect, side: str) -> bool:
    return _is(e, side)


define("kennedys_peace_corps", EffectRules(free_preempt=_free_preempt))
event(81, op("add_effect", effect="kennedys_peace_corps", who="kennedy"))

# 82 Fidel Castro
event(82, op("momentum", who="leader:defense", n=1), op("state_support", who="leader:defense", state="FL", n=1))

# 83 Whistlestop (ruling: a normal 7-CP campaigning action, at most 1 CP in any one state)
event(83, op("campaign_action", who="player", cp=7, cap=1))

# 84 Quemoy and Matsu
event(
    84,
    op("momentum", who="leader:defense", n=1),
    op("place_support", who="leader:defense", n=3, per=1),
)


# 85 Jackie Kennedy: Nixon pays 1 momentum for every card he uses for its event.
def _event_tax(g: GameState, e: Effect, side: str, kind: str) -> int:
    return 1 if _is(e, side) and kind == "event" else 0


define("jackie_kennedy", EffectRules(play_cost=_event_tax))
event(85, op("add_effect", effect="jackie_kennedy", who="nixon"))

# 86 Herb Klein (ruling: the 3 issue support may be split)
event(86, op("gain_points", who="nixon", space="issues", n=3))

# 87 Stevenson Loyalists: Kennedy may not campaign in the West or the Midwest this turn.
event(87, op("ban_campaign", who="kennedy", regions=["west", "midwest"]))


# 88 Stature Gap: Kennedy's cards played to position are worth 2 CP less (min 1).
def _position_minus_two(g: GameState, e: Effect, side: str, kind: str) -> int:
    return -2 if _is(e, side) and kind == "position" else 0


define("stature_gap", EffectRules(cp_delta=_position_minus_two))
event(88, op("add_effect", effect="stature_gap", who="kennedy"))

# 89 The New Nixon
event(89, op("momentum", who="nixon", n=1))

# 90 Recount: on Election Day Nixon makes 3 support checks for one state of his choice (R13.4).
event(
    90,
    election_day=(
        op("pick_state", who="nixon", var="recount", rule="any"),
        op("checks_in", who="nixon", state="var:recount", n=3),
    ),
)

# 91 Political Capital
event(91, op("draw", who="nixon", n=2))

# -- GMT 2017 edition only (R16.6) --------------------------------------------------------

# 92 Give 'Em Hell Harry (ruling: Kennedy chooses which issues the 2 come from)
event(
    92,
    op("only_if", who="kennedy", issues_led=2),
    op("momentum", who="kennedy", n=-1),
    op("remove_points", who="kennedy", target="kennedy", space="issues", n=2, optional=False),
)

# 93 Experience Counts
event(93, op("lose_issue_each", who="kennedy", n=1), op("momentum", who="nixon", n=1))

# 94 A Low Blow
event(
    94,
    op("only_if", who="nixon", issues_led=2),
    op("momentum", who="kennedy", n=1),
    op("replace_cards", who="kennedy"),
)

# 95 A Time for Greatness
event(95, op("lose_issue_each", who="nixon", n=1), op("place_support", who="kennedy", n=3, per=1))

# 96 Medal Count
event(96, op("leaders_lose", issues=["civil_rights", "economy"]))

# 97 Cassius Clay Wins Gold
event(97, op("leaders_lose", issues=["defense", "economy"]))
