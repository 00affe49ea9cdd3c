"""Card events #49-#72, in card-number order, as the card texts
say (pbem/reports/data/card_text.json; sources in docs/DATA.md).

A card that names a candidate ("Nixon places ...") acts for that candidate whoever resolves
it; "player" is whoever resolves it (played, or triggered by the opponent, R6.7). Rest-of-turn
effects (R6.3) are defined beside their card with the hooks of `engine.effects`; prevention
links (R6.4) come from cards.csv.
"""

from __future__ import annotations

from engine.data import STATES
from engine.effects import Effect, EffectRules, define
from engine.events.script import event, op
from engine.state import GameState

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
    op("gain_support", who="player", state="FL", n=1),
)

# 53 Campaign Headquarters
event(53, op("replace_cards", who="player"))

# 54 Bobby Kennedy: Kennedy's cards +1 CP (max 5) this turn (the effect of #4, cards_01_24).
event(54, op("add_effect", effect="cp_plus_one_any_use", who="kennedy"))


# 55 Hostile Press Corps: Nixon makes support checks everywhere, as if Kennedy carried every state.
def _force_checks(g: GameState, e: Effect, side: str, st: str) -> str | None:
    return "force" if e["side"] == side else None


define("hostile_press_corps", EffectRules(check_mode=_force_checks))
event(55, op("add_effect", effect="hostile_press_corps", who="nixon"))

# 56 Opposition Research (ruling): Kennedy's hand is shown to Nixon; Nixon takes a 3-CP action.
event(56, op("reveal_hand", whose="kennedy", to="nixon"), op("cp_action", who="nixon", cp=3))

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

# 65 Joe Kennedy: Nixon may not spend momentum this turn (the effect of #44, cards_25_48).
event(65, op("add_effect", effect="no_momentum_spending", who="nixon"))

# 66 Adlai Stevenson
event(
    66, op("gain_support", who="kennedy", state="IL", n=1), op("take_from_discard", who="kennedy")
)

# 67 Voter Registration Drive
event(67, op("place_support_empty", who="player", n=3, per=1))

# 68 Peace Without Surrender
event(
    68, op("issue_up", issue="defense", n=1), op("issue_support", who="nixon", issue="defense", n=1)
)


# 69 Congressional Summer Session: Kennedy's cards -2 CP (min 1); his token to MD or VA.
def _minus_two(g: GameState, e: Effect, side: str, kind: str) -> int:
    return -2 if e["side"] == side else 0


define("congressional_summer_session", EffectRules(cp_delta=_minus_two))
event(
    69,
    op("add_effect", effect="congressional_summer_session", who="kennedy"),
    op("pick_state", who="kennedy", var="token", rule="maryland_or_virginia"),
    op("move_token", who="kennedy", state="var:token"),
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
