"""Card events #73-#97 (#92-#97: GMT edition only, R16.6), in card-number order, as the card texts
say (pbem/reports/data/card_text.json; sources in docs/DATA.md).

A card that names a candidate ("Nixon places ...") acts for that candidate whoever resolves
it; "player" is whoever resolves it (played, or triggered by the opponent, R6.7). Rest-of-turn
effects (R6.3) are defined beside their card with the hooks of `engine.effects`; prevention
links (R6.4) come from cards.csv.
"""

from __future__ import annotations

from engine import board
from engine.data import STATES, other
from engine.effects import Effect, EffectRules, define
from engine.events.script import event, op
from engine.state import GameState

# 73 Norman Vincent Peale (prevented by #1, cards.csv)
event(73, op("remove_support", who="nixon", target="kennedy", n=5, per=1))


# 74 Eisenhower's Silence (prevented by #18): Nixon may not campaign where Kennedy leads.
def _not_where_kennedy_leads(g: GameState, e: Effect, side: str, st: str) -> bool:
    return bool(e["side"] == side) and g["states"][st] > 0


define("eisenhowers_silence", EffectRules(campaign_banned=_not_where_kennedy_leads))
event(74, op("add_effect", effect="eisenhowers_silence", who="nixon"))

# 75 Republican TV Spots (ruling: 3 media in any region(s), no checks)
event(
    75,
    op("move_token", who="nixon", state="NY"),
    op("gain_points", who="nixon", space="media", n=3),
)


# 76 Nixon's Pledge: Kennedy gains 1 momentum whenever Nixon plays a card not to campaign.
def _pledge(g: GameState, e: Effect, side: str, kind: str) -> None:
    if side == "nixon" and kind != "campaign":
        board.gain_momentum(g, "kennedy", 1)


define("nixons_pledge", EffectRules(on_play=_pledge))
event(76, op("add_effect", effect="nixons_pledge"))

# 77 Suburban Voters: states of 20 EV or more.
SUBURBAN = [s for s, i in STATES.items() if i.ev >= 20]
event(77, op("place_support", who="kennedy", n=5, per=2, states=SUBURBAN))

# 78 Stock Market in Decline
event(
    78,
    op("issue_up", issue="economy", n=2),
    op("gain_support", who="leader:economy", state="NY", n=2),
)


# 79 Advance Men: no travel costs; no checks where the opponent carries the state or stands.
def _free_travel(g: GameState, e: Effect, side: str) -> bool:
    return bool(e["side"] == side)


def _no_checks(g: GameState, e: Effect, side: str, st: str) -> str | None:
    if e["side"] != side:
        return None
    opp = other(side)
    return "waive" if board.carries(g, st, opp) or board.occupies(g, st, opp) else None


define("advance_men", EffectRules(travel_free=_free_travel, check_mode=_no_checks))
event(79, op("add_effect", effect="advance_men", who="player"))

# 80 Herblock
event(80, op("remove_points", who="kennedy", target="nixon", space="media", n=2))


# 81 Kennedy's Peace Corps: Kennedy preempts without spending momentum.
def _free_preempt(g: GameState, e: Effect, side: str) -> bool:
    return bool(e["side"] == side)


define("kennedys_peace_corps", EffectRules(free_preempt=_free_preempt))
event(81, op("add_effect", effect="kennedys_peace_corps", who="kennedy"))

# 82 Fidel Castro
event(
    82,
    op("momentum", who="leader:defense", n=1),
    op("gain_support", who="leader:defense", state="FL", n=1),
)

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
    return 1 if e["side"] == side and kind == "event" else 0


define("jackie_kennedy", EffectRules(play_cost=_event_tax))
event(85, op("add_effect", effect="jackie_kennedy", who="nixon"))

# 86 Herb Klein (ruling: the 3 issue support may be split)
event(86, op("gain_points", who="nixon", space="issues", n=3))

# 87 Stevenson Loyalists: Kennedy may not campaign in the West or the Midwest this turn.
event(87, op("ban_campaign", who="kennedy", regions=["west", "midwest"]))


# 88 Stature Gap: Kennedy's cards played to position are worth 2 CP less (min 1).
def _position_minus_two(g: GameState, e: Effect, side: str, kind: str) -> int:
    return -2 if e["side"] == side and kind == "position" else 0


define("stature_gap", EffectRules(cp_delta=_position_minus_two))
event(88, op("add_effect", effect="stature_gap", who="kennedy"))

# 89 The New Nixon
event(89, op("momentum", who="nixon", n=1))

# 90 Recount: on Election Day Nixon makes 3 support checks for one state of his choice (R13.4).
event(
    90,
    election_day=(
        op("pick_state", who="nixon", var="recount", rule="any"),
        op("support_checks", who="nixon", state="var:recount", n=3),
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
